/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * SPE system registers: encodings and fields, written once for the driver
 * (which programs them) and the SPU model (which implements them).
 *
 * Sources: DDI 0586A (the SPE supplement, 2017) §4.3, and the register
 * descriptions of DDI 0487 (the Arm ARM) for
 * fields added by SPEv1p1..v1p5 (marked with the version).  The kernel's own
 * sysreg headers differ between 6.1 (SYS_PMSCR_EL1_*_SHIFT) and 6.12
 * (generated PMSCR_EL1_*), so the module uses these names on every version.
 */
#ifndef SPE_REGS_H
#define SPE_REGS_H

#include "types.h"

/* ---- System register encodings: op0, op1, CRn, CRm, op2 ---------------- */
#define SPE_SYS_PMSCR_EL1		3, 0, 9, 9, 0
#define SPE_SYS_PMSCR_EL2		3, 4, 9, 9, 0
#define SPE_SYS_PMSCR_EL12		3, 5, 9, 9, 0
#define SPE_SYS_PMSNEVFR_EL1		3, 0, 9, 9, 1	/* SPEv1p2 */
#define SPE_SYS_PMSICR_EL1		3, 0, 9, 9, 2
#define SPE_SYS_PMSIRR_EL1		3, 0, 9, 9, 3
#define SPE_SYS_PMSFCR_EL1		3, 0, 9, 9, 4
#define SPE_SYS_PMSEVFR_EL1		3, 0, 9, 9, 5
#define SPE_SYS_PMSLATFR_EL1		3, 0, 9, 9, 6
#define SPE_SYS_PMSIDR_EL1		3, 0, 9, 9, 7
#define SPE_SYS_PMBLIMITR_EL1		3, 0, 9, 10, 0
#define SPE_SYS_PMBPTR_EL1		3, 0, 9, 10, 1
#define SPE_SYS_PMBSR_EL1		3, 0, 9, 10, 3
#define SPE_SYS_PMSDSFR_EL1		3, 0, 9, 10, 4	/* FEAT_SPE_FDS */
#define SPE_SYS_PMBIDR_EL1		3, 0, 9, 10, 7
#define SPE_SYS_ID_AA64DFR0_EL1		3, 0, 0, 5, 0

/*
 * The registers, once: X(NAME, KIND) for each, in the order of enum
 * spe_sysreg, which is generated from this list as SPE_REG_<NAME>.  KIND
 * says who accesses it:
 *   RW   the driver reads and writes it at EL1 (at EL2 under VHE, where
 *        the EL1 encoding of PMSCR reaches PMSCR_EL2);
 *   RO   an ID register the driver reads;
 *   EL2  only a hypervisor's; the model implements it, the driver never
 *        names it;
 *   ID   the CPU's feature register, which the driver reads through
 *        spe_read_dfr0() and the model reports.
 * The model's write refuses RO and ID registers (spe_sysreg_writable()).
 */
#define SPE_SYSREGS(X)						\
	X(PMSCR_EL1, RW)					\
	X(PMSCR_EL2, EL2)					\
	X(PMSNEVFR_EL1, RW)					\
	X(PMSICR_EL1, RW)					\
	X(PMSIRR_EL1, RW)					\
	X(PMSFCR_EL1, RW)					\
	X(PMSEVFR_EL1, RW)					\
	X(PMSLATFR_EL1, RW)					\
	X(PMSIDR_EL1, RO)					\
	X(PMBLIMITR_EL1, RW)					\
	X(PMBPTR_EL1, RW)					\
	X(PMBSR_EL1, RW)					\
	X(PMSDSFR_EL1, RW)					\
	X(PMBIDR_EL1, RO)					\
	X(ID_AA64DFR0_EL1, ID)

/* Registers as software names them: SPE_REG_PMSCR_EL1 ... */
enum spe_sysreg {
#define SPE_SYSREG_ENUM(name, kind)	SPE_REG_##name,
	SPE_SYSREGS(SPE_SYSREG_ENUM)
#undef SPE_SYSREG_ENUM
	SPE_REG_NR
};

#define SPE_SYSREG_WRITABLE_RW	1
#define SPE_SYSREG_WRITABLE_EL2	1
#define SPE_SYSREG_WRITABLE_RO	0
#define SPE_SYSREG_WRITABLE_ID	0

/* Whether software can write @reg (RO and ID registers it cannot). */
static inline int spe_sysreg_writable(enum spe_sysreg reg)
{
	static const unsigned char writable[SPE_REG_NR] = {
#define SPE_SYSREG_WRITABLE(name, kind)	SPE_SYSREG_WRITABLE_##kind,
		SPE_SYSREGS(SPE_SYSREG_WRITABLE)
#undef SPE_SYSREG_WRITABLE
	};

	return (unsigned int)reg < SPE_REG_NR && writable[reg];
}

/* ---- ID_AA64DFR0_EL1.PMSVer ------------------------------------------- */
#define SPE_ID_AA64DFR0_PMSVER_MASK	SPE_GENMASK(35, 32)
#define SPE_PMSVER_NI			0u
#define SPE_PMSVER_V1			1u	/* Armv8.2 */
#define SPE_PMSVER_V1P1			2u	/* Armv8.3 */
#define SPE_PMSVER_V1P2			3u	/* Armv8.7 */
#define SPE_PMSVER_V1P3			4u
#define SPE_PMSVER_V1P4			5u	/* Armv8.8 */
#define SPE_PMSVER_V1P5			6u

/* ---- PMSCR_EL1 (DDI 0586A §4.3.5) --------------------------------------- */
#define SPE_PMSCR_E0SPE			SPE_BIT(0)
#define SPE_PMSCR_E1SPE			SPE_BIT(1)
#define SPE_PMSCR_CX			SPE_BIT(3)
#define SPE_PMSCR_PA			SPE_BIT(4)
#define SPE_PMSCR_TS			SPE_BIT(5)
#define SPE_PMSCR_PCT_MASK		SPE_GENMASK(7, 6)
#define SPE_PMSCR_PCT_VIRT		0u
#define SPE_PMSCR_PCT_PHYS		1u
#define SPE_PMSCR_PCT_OFFSET_PHYS	3u	/* FEAT_ECV: physical less CNTPOFF_EL2 */
#define SPE_PMSCR_RES0			(~(SPE_GENMASK(7, 3) | SPE_GENMASK(1, 0)))
/* PMSCR_EL2 (DDI 0586A §4.3.7): same layout, bits 1:0 enable EL2 and host EL0. */
#define SPE_PMSCR_E0HSPE		SPE_BIT(0)
#define SPE_PMSCR_E2SPE			SPE_BIT(1)

/* ---- PMSICR_EL1 (DDI 0586A §4.3.10) ------------------------------------- */
#define SPE_PMSICR_COUNT_MASK		SPE_GENMASK(31, 0)
#define SPE_PMSICR_ECOUNT_MASK		SPE_GENMASK(63, 56)

/* ---- PMSIRR_EL1 (DDI 0586A §4.3.12) ------------------------------------- */
#define SPE_PMSIRR_RND			SPE_BIT(0)
#define SPE_PMSIRR_INTERVAL_MASK	SPE_GENMASK(31, 8)
#define SPE_PMSIRR_RES0			(~(SPE_PMSIRR_INTERVAL_MASK | SPE_PMSIRR_RND))

/* ---- PMSFCR_EL1 (DDI 0586A §4.3.9) -------------------------------------- */
#define SPE_PMSFCR_FE			SPE_BIT(0)	/* event filter */
#define SPE_PMSFCR_FT			SPE_BIT(1)	/* type filter */
#define SPE_PMSFCR_FL			SPE_BIT(2)	/* latency filter */
#define SPE_PMSFCR_FNE			SPE_BIT(3)	/* SPEv1p2 inverted events */
#define SPE_PMSFCR_FDS			SPE_BIT(4)	/* FEAT_SPE_FDS */
#define SPE_PMSFCR_B			SPE_BIT(16)
#define SPE_PMSFCR_LD			SPE_BIT(17)
#define SPE_PMSFCR_ST			SPE_BIT(18)
#define SPE_PMSFCR_FP			SPE_BIT(19)	/* FEAT_SPE_EFT */
#define SPE_PMSFCR_SIMD			SPE_BIT(20)	/* FEAT_SPE_EFT */
#define SPE_PMSFCR_BM			SPE_BIT(48)	/* FEAT_SPE_EFT */
#define SPE_PMSFCR_LDM			SPE_BIT(49)	/* FEAT_SPE_EFT */
#define SPE_PMSFCR_STM			SPE_BIT(50)	/* FEAT_SPE_EFT */
#define SPE_PMSFCR_FPM			SPE_BIT(51)	/* FEAT_SPE_EFT */
#define SPE_PMSFCR_SIMDM		SPE_BIT(52)	/* FEAT_SPE_EFT */
#define SPE_PMSFCR_TYPE_MASK		SPE_GENMASK(18, 16)
#define SPE_PMSFCR_EFT_MASK		(SPE_GENMASK(52, 48) | SPE_GENMASK(20, 19))

/* ---- PMSEVFR_EL1 / PMSNEVFR_EL1: bits as in the Events packet ------------ */
/* (see SPE_EV_* in packet.h; DDI 0586A §4.3.8) */

/* ---- PMSLATFR_EL1 (DDI 0586A §4.3.13) ----------------------------------- */
#define SPE_PMSLATFR_MINLAT_MASK	SPE_GENMASK(15, 0)

/* ---- PMSIDR_EL1 (DDI 0586A §4.3.11; DDI 0487) --------------------------- */
#define SPE_PMSIDR_FE			SPE_BIT(0)
#define SPE_PMSIDR_FT			SPE_BIT(1)
#define SPE_PMSIDR_FL			SPE_BIT(2)
#define SPE_PMSIDR_ARCHINST		SPE_BIT(3)
#define SPE_PMSIDR_LDS			SPE_BIT(4)
#define SPE_PMSIDR_ERND			SPE_BIT(5)
#define SPE_PMSIDR_FNE			SPE_BIT(6)	/* SPEv1p2 */
#define SPE_PMSIDR_FDS			SPE_BIT(7)	/* FEAT_SPE_FDS */
#define SPE_PMSIDR_INTERVAL_MASK	SPE_GENMASK(11, 8)
#define SPE_PMSIDR_MAXSIZE_MASK		SPE_GENMASK(15, 12)
#define SPE_PMSIDR_COUNTSIZE_MASK	SPE_GENMASK(19, 16)
#define SPE_PMSIDR_COUNTSIZE_12_SAT	2u
#define SPE_PMSIDR_COUNTSIZE_16_SAT	3u
#define SPE_PMSIDR_FORMAT_MASK		SPE_GENMASK(23, 20)	/* Armv8.7 */
#define SPE_PMSIDR_PBT			SPE_BIT(24)	/* FEAT_SPE_PBT */
#define SPE_PMSIDR_CRR			SPE_BIT(25)
#define SPE_PMSIDR_EFT			SPE_BIT(26)	/* FEAT_SPE_EFT */
#define SPE_PMSIDR_FPF			SPE_BIT(27)
#define SPE_PMSIDR_ALTCLK_MASK		SPE_GENMASK(31, 28)
#define SPE_PMSIDR_SME			SPE_BIT(32)

/*
 * PMSIDR_EL1.INTERVAL -> minimum recommended sampling interval
 * (DDI 0487 PMSIDR_EL1.Interval).  Values the table does not define read
 * as 4096.
 */
static inline uint32_t spe_pmsidr_min_interval(uint64_t pmsidr)
{
	switch (SPE_FIELD_GET(SPE_PMSIDR_INTERVAL_MASK, pmsidr)) {
	case 0x0: return 256;
	case 0x2: return 512;
	case 0x3: return 768;
	case 0x4: return 1024;
	case 0x5: return 1536;
	case 0x6: return 2048;
	case 0x7: return 3072;
	default:  return 4096;
	}
}

/* ---- PMBLIMITR_EL1 (DDI 0586A §4.3.2; DDI 0487) ------------------------- */
#define SPE_PMBLIMITR_E			SPE_BIT(0)
#define SPE_PMBLIMITR_FM_MASK		SPE_GENMASK(2, 1)
#define SPE_PMBLIMITR_FM_FILL		0u
#define SPE_PMBLIMITR_FM_DISCARD	2u	/* SPEv1p2 */
#define SPE_PMBLIMITR_PMFZ		SPE_BIT(5)
#define SPE_PMBLIMITR_LIMIT_MASK	SPE_GENMASK(63, 12)
#define SPE_PMBLIMITR_LIMIT_SHIFT	12

/* ---- PMBPTR_EL1 (DDI 0586A §4.3.3) -------------------------------------- */
#define SPE_PMBPTR_PTR_MASK		SPE_GENMASK(63, 0)

/* ---- PMBSR_EL1 (DDI 0586A §4.3.4; DDI 0487) ----------------------------- */
#define SPE_PMBSR_MSS_MASK		SPE_GENMASK(15, 0)
#define SPE_PMBSR_COLL			SPE_BIT(16)
#define SPE_PMBSR_S			SPE_BIT(17)
#define SPE_PMBSR_EA			SPE_BIT(18)
#define SPE_PMBSR_DL			SPE_BIT(19)
#define SPE_PMBSR_EC_MASK		SPE_GENMASK(31, 26)
#define SPE_PMBSR_RES0			(~(SPE_GENMASK(31, 26) | SPE_GENMASK(19, 0)))

#define SPE_PMBSR_EC_BUF		0x00u	/* other buffer management event */
#define SPE_PMBSR_EC_GPC		0x1eu	/* granule protection check */
#define SPE_PMBSR_EC_IMPDEF		0x1fu
#define SPE_PMBSR_EC_FAULT_S1		0x24u	/* stage 1 data abort */
#define SPE_PMBSR_EC_FAULT_S2		0x25u	/* stage 2 data abort */

/* MSS when EC == BUF: buffer status code. */
#define SPE_PMBSR_BSC_MASK		SPE_GENMASK(5, 0)
#define SPE_PMBSR_BSC_NOT_FULL		0x0u
#define SPE_PMBSR_BSC_FULL		0x1u

/* MSS when EC is a data abort: fault status code (DDI 0586A §4.3.4). */
#define SPE_PMBSR_FSC_MASK		SPE_GENMASK(5, 0)
#define SPE_FSC_ADDR_SIZE(lvl)		(0x00u | ((lvl) & 3u))
#define SPE_FSC_TRANSLATION(lvl)	(0x04u | ((lvl) & 3u))
#define SPE_FSC_ACCESS_FLAG(lvl)	(0x08u | ((lvl) & 3u))
#define SPE_FSC_PERMISSION(lvl)		(0x0cu | ((lvl) & 3u))
#define SPE_FSC_SYNC_EXT_ABORT		0x10u
#define SPE_FSC_ASYNC_EXT_ABORT		0x11u
#define SPE_FSC_SYNC_EXT_ABORT_TTW(lvl)	(0x14u | ((lvl) & 3u))
#define SPE_FSC_ALIGNMENT		0x21u
#define SPE_FSC_TLB_CONFLICT		0x30u
#define SPE_FSC_UNSUPPORTED_ACCESS	0x35u

/* ---- PMBIDR_EL1 (DDI 0586A §4.3.1; DDI 0487) ---------------------------- */
#define SPE_PMBIDR_ALIGN_MASK		SPE_GENMASK(3, 0)	/* 2^ALIGN bytes */
#define SPE_PMBIDR_P			SPE_BIT(4)	/* programming prohibited */
#define SPE_PMBIDR_F			SPE_BIT(5)	/* flag updates */
#define SPE_PMBIDR_EA_MASK		SPE_GENMASK(11, 8)

/* ---- PMU events of the SPU (DDI 0586A §2.6) ----------------------------- */
#define SPE_PMU_EVT_SAMPLE_POP		0x4000u
#define SPE_PMU_EVT_SAMPLE_FEED		0x4001u
#define SPE_PMU_EVT_SAMPLE_FILTRATE	0x4002u
#define SPE_PMU_EVT_SAMPLE_COLLISION	0x4003u

#endif /* SPE_REGS_H */
