/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory-mapped registers of PC Sample-based Profiling, as offsets in a
 * CPU's 4 KiB register frame.  Portable (constants only).
 *
 * Two places can hold them (DDI 0487, External Registers, PMPCSR; and the
 * chapter "The PC Sample-based Profiling Extension" of Part H):
 *  - FEAT_PCSRv8p2: the CPU's external PMU block (FEAT_PMUv3_EXT), where the
 *    driver reads the 32-bit views of FEAT_PMUv3_EXT32 (offsets from the
 *    PMPCSR register description and the external PMU register map of
 *    DDI 0487 Part I, "Recommended External Interface to the Performance
 *    Monitors");
 *  - before Armv8.2: the CPU's external debug block, when EDDEVID.PCSample
 *    says so (DDI 0487 Part H, external debug register descriptions).
 */
#ifndef PCSAMPLE_REGS_H
#define PCSAMPLE_REGS_H

#include <linux/bits.h>

/* External PMU block, FEAT_PCSRv8p2 with the 32-bit views. */
#define PCS_PMU_PMPCSR_LO	0x200	/* read first: captures the rest */
#define PCS_PMU_PMPCSR_HI	0x204	/* NS, EL, T, NSE, PCSample[55:32] */
#define PCS_PMU_PMCID1SR	0x208	/* CONTEXTIDR_EL1 at the sample */
#define PCS_PMU_PMVIDSR		0x20c	/* VMID at the sample */
#define PCS_PMU_PMCID2SR	0x22c	/* CONTEXTIDR_EL2 at the sample */
#define PCS_PMU_PMDEVID		0xfc8	/* PCSample, bits [3:0] */

/* External debug block, before Armv8.2. */
#define PCS_DBG_EDPCSR_LO	0x0a0	/* read first: captures the rest */
#define PCS_DBG_EDCIDSR		0x0a4	/* CONTEXTIDR_EL1 at the sample */
#define PCS_DBG_EDVIDSR		0x0a8	/* NS, E2, E3, HV, VMID */
#define PCS_DBG_EDPCSR_HI	0x0ac	/* PC[63:32] */
#define PCS_DBG_EDPRSR		0x314	/* power and lock status */
#define PCS_DBG_EDDEVID1	0xfc4	/* PCSROffset, bits [3:0] */
#define PCS_DBG_EDDEVID		0xfc8	/* PCSample, bits [3:0] */

/* The CoreSight Software Lock, at the same offsets in both blocks. */
#define PCS_LAR			0xfb0	/* PMLAR / EDLAR */
#define PCS_LSR			0xfb4	/* PMLSR / EDLSR */
#define PCS_LAR_KEY		0xc5acce55u
#define PCS_LSR_SLI		BIT(0)	/* the lock is implemented */
#define PCS_LSR_SLK		BIT(1)	/* and locked */

/* PMPCSR[63:32] as read at offset 0x204. */
#define PCS_PCSR_HI_NS		BIT(31)
#define PCS_PCSR_HI_EL_SHIFT	29
#define PCS_PCSR_HI_EL_MASK	(3u << 29)
#define PCS_PCSR_HI_T		BIT(28)	/* FEAT_TME transactional state */
#define PCS_PCSR_HI_NSE		BIT(27)
#define PCS_PCSR_HI_PC_MASK	0x00ffffffu	/* PCSample[55:32] */

/* PMPCSR[31:0] when the PE is in Debug state or sampling is prohibited. */
#define PCS_NO_SAMPLE		0xffffffffu

/* PMVIDSR and EDVIDSR. */
#define PCS_VIDSR_VMID_MASK	0x0000ffffu
#define PCS_EDVIDSR_NS		BIT(31)
#define PCS_EDVIDSR_E2		BIT(30)
#define PCS_EDVIDSR_E3		BIT(29)
#define PCS_EDVIDSR_HV		BIT(28)	/* the sample is AArch64 */

/* EDPRSR: only the debug block has it, in the Debug power domain. */
#define PCS_EDPRSR_PU		BIT(0)	/* Core powered up */
#define PCS_EDPRSR_OSLK		BIT(5)	/* OS Lock locked */
#define PCS_EDPRSR_DLK		BIT(6)	/* OS Double Lock locked */

/* ID fields. */
#define PCS_DEVID_PCSAMPLE_MASK	0xfu
#define PCS_PMDEVID_PCSAMPLE_IMPL	0x1u	/* PMPCSR, PMCIDnSR, PMVIDSR */
#define PCS_EDDEVID_PCSAMPLE_CID	0x2u	/* EDPCSR, EDCIDSR */
#define PCS_EDDEVID_PCSAMPLE_CID_VID	0x3u	/* and EDVIDSR */
/* EDDEVID1.PCSROffset: how AArch32 samples relate to the instruction. */
#define PCS_PCSROFFSET_ISA		0x0u	/* +8 (A32) or +4 (T32) */
#define PCS_PCSROFFSET_NONE		0x1u	/* no offset */
#define PCS_PCSROFFSET_NO_AARCH32	0x2u	/* no offset; AArch32 unusable */

#endif /* PCSAMPLE_REGS_H */
