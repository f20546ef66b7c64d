/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * SPE sample record packet encodings, written once for the decoder (which
 * parses them) and the SPU model (which emits them).
 *
 * Sources: DDI 0586A (the SPE supplement, 2017) §5.1-§5.3, DDI 0487 (Arm ARM
 * D18.1, record format version 0) and the packets of DDI 0487 D18 for the
 * fields added by SPEv1p1..v1p5, FEAT_SPE_PBT, FEAT_RME, SME and GCS.
 *
 * All multi-byte payloads are little-endian (DDI 0487 D18.1.2).
 */
#ifndef SPE_PACKET_H
#define SPE_PACKET_H

#include "types.h"
#include "regs.h"

/* ---- Header byte classes (DDI 0487 D18.1.1) ----------------------------- */

/*
 * Payload size in bytes encoded by an 8-bit header byte that is not one of
 * the no-payload (0x00-0x1f) or extended-prefix (0x20-0x3f) ranges: bits 5:4
 * hold log2 of the size.  Also applies to byte 1 of an extended header.
 */
#define SPE_HDR_SZ_MASK			0x30u
#define SPE_HDR_PAYLOAD_SIZE(b)		(1u << (((b) & SPE_HDR_SZ_MASK) >> 4))
#define SPE_HDR_NO_PAYLOAD_MAX		0x1fu	/* 0x00-0x1f: header only */
#define SPE_HDR_IS_EXTENDED(b)		(((b) & 0xe0u) == 0x20u)

/* Encode bits 5:4 for a payload of 1, 2, 4 or 8 bytes. */
#define SPE_HDR_SZ_1			0x00u
#define SPE_HDR_SZ_2			0x10u
#define SPE_HDR_SZ_4			0x20u
#define SPE_HDR_SZ_8			0x30u

/* ---- Framing packets (DDI 0586A §5.3.6, §5.3.9, §5.3.10) ---------------- */

#define SPE_HDR_PADDING			0x00u
#define SPE_HDR_END			0x01u
#define SPE_HDR_TIMESTAMP		0x71u	/* 64-bit payload */

/* ---- Alignment command (DDI 0586A §5.3.2; SPEv1 only) ------------------- */
/*
 * Byte 0 = 0b0010 SIZE, byte 1 = 0x00.  The next protocol byte is at the
 * next multiple of 2^(SIZE + 1) bytes in the buffer (SIZE 0b0001 = 4 bytes ..
 * 0b1111 = 64 KiB); the bytes skipped are UNKNOWN.  SIZE 0 is reserved.
 */
#define SPE_ALIGN_B0_MASK		0xf0u
#define SPE_ALIGN_B0			0x20u
#define SPE_ALIGN_B1			0x00u
#define SPE_ALIGN_SIZE_MASK		0x0fu
#define SPE_ALIGN_BYTES(b0)		(1u << (((b0) & SPE_ALIGN_SIZE_MASK) + 1))

/* ---- Events packet (DDI 0586A §5.3.7; DDI 0487 D18) --------------------- */
/* 0b01 SZ 0010: payload 1, 2, 4 or 8 bytes (0x42, 0x52, 0x62, 0x72). */
#define SPE_EVENTS_HDR_MASK		0xcfu
#define SPE_EVENTS_HDR			0x42u

#define SPE_EV_EXCEPTION_GEN		SPE_BIT(0)
#define SPE_EV_RETIRED			SPE_BIT(1)
#define SPE_EV_L1D_ACCESS		SPE_BIT(2)
#define SPE_EV_L1D_REFILL		SPE_BIT(3)
#define SPE_EV_TLB_ACCESS		SPE_BIT(4)
#define SPE_EV_TLB_WALK			SPE_BIT(5)
#define SPE_EV_NOT_TAKEN		SPE_BIT(6)
#define SPE_EV_MISPRED			SPE_BIT(7)
#define SPE_EV_LLC_ACCESS		SPE_BIT(8)
#define SPE_EV_LLC_MISS			SPE_BIT(9)
#define SPE_EV_REMOTE_ACCESS		SPE_BIT(10)
#define SPE_EV_ALIGNMENT		SPE_BIT(11)	/* SPEv1p1 */
#define SPE_EV_IMPDEF_12_15		SPE_GENMASK(15, 12)
#define SPE_EV_N1_LATE_PREFETCH		SPE_BIT(12)	/* Neoverse N1 */
#define SPE_EV_TRANSACTIONAL		SPE_BIT(16)	/* FEAT_TME */
#define SPE_EV_SVE_PARTIAL_PRED		SPE_BIT(17)	/* SPEv1p1 */
#define SPE_EV_SVE_EMPTY_PRED		SPE_BIT(18)	/* SPEv1p1 */
#define SPE_EV_L2D_ACCESS		SPE_BIT(19)	/* SPEv1p4 */
#define SPE_EV_L2D_MISS			SPE_BIT(20)	/* SPEv1p4 */
#define SPE_EV_CACHE_DATA_MODIFIED	SPE_BIT(21)	/* SPEv1p4 */
#define SPE_EV_RECENTLY_FETCHED		SPE_BIT(22)	/* SPEv1p4 */
#define SPE_EV_DATA_SNOOPED		SPE_BIT(23)	/* SPEv1p4 */
#define SPE_EV_STREAMING_SVE		SPE_BIT(24)	/* SME */
#define SPE_EV_SMCU			SPE_BIT(25)	/* SME */
#define SPE_EV_IMPDEF_26_31		SPE_GENMASK(31, 26)
#define SPE_EV_IMPDEF_48_63		SPE_GENMASK(63, 48)

/*
 * The events PMSEVFR_EL1 and PMSNEVFR_EL1 may filter on, by the version
 * that made each filterable (DDI 0586A §4.3.8; DDI 0487, PMSEVFR_EL1).
 * SPEv1: the architected events 1, 3, 5 and 7 and the IMPLEMENTATION
 * DEFINED ranges 15:12, 31:24 and 63:48 (SME later named 24 and 25).
 * Bit 0 is never filterable.
 */
#define SPE_EVFR_V1_ARCH	(SPE_EV_RETIRED | SPE_EV_L1D_REFILL | SPE_EV_TLB_WALK | \
				 SPE_EV_MISPRED)
#define SPE_EVFR_V1_IMPDEF	(SPE_EV_IMPDEF_12_15 | SPE_EV_STREAMING_SVE | SPE_EV_SMCU | \
				 SPE_EV_IMPDEF_26_31 | SPE_EV_IMPDEF_48_63)
#define SPE_EVFR_V1P1_ADDS	(SPE_EV_ALIGNMENT | SPE_EV_SVE_PARTIAL_PRED | \
				 SPE_EV_SVE_EMPTY_PRED)
#define SPE_EVFR_V1P2_ADDS	(SPE_EV_NOT_TAKEN | SPE_EV_TRANSACTIONAL)
#define SPE_EVFR_V1P4_ADDS	(SPE_EV_L1D_ACCESS | SPE_EV_TLB_ACCESS | SPE_EV_LLC_ACCESS | \
				 SPE_EV_LLC_MISS | SPE_EV_REMOTE_ACCESS | SPE_EV_L2D_ACCESS | \
				 SPE_EV_L2D_MISS | SPE_EV_CACHE_DATA_MODIFIED | \
				 SPE_EV_RECENTLY_FETCHED | SPE_EV_DATA_SNOOPED)

/*
 * The PMSEVFR/PMSNEVFR bits a unit of PMSVer pmsver (SPE_PMSVER_*) may
 * implement: the rest are RES0 for its version.
 */
static inline uint64_t spe_evfr_filterable(uint64_t pmsver)
{
	uint64_t mask = SPE_EVFR_V1_ARCH | SPE_EVFR_V1_IMPDEF;

	if (pmsver >= SPE_PMSVER_V1P1)
		mask |= SPE_EVFR_V1P1_ADDS;
	if (pmsver >= SPE_PMSVER_V1P2)
		mask |= SPE_EVFR_V1P2_ADDS;
	if (pmsver >= SPE_PMSVER_V1P4)
		mask |= SPE_EVFR_V1P4_ADDS;
	return mask;
}

/* ---- Data Source packet (DDI 0586A §5.3.5) ------------------------------ */
/* 0b01 SZ 0011: payload 1 or 2 bytes (0x43, 0x53); the value is IMPDEF. */
#define SPE_DATA_SOURCE_HDR_MASK	0xcfu
#define SPE_DATA_SOURCE_HDR		0x43u

/* The encoding shared by Neoverse N1/N2/V1/V2 and recent Cortex cores. */
#define SPE_DS_COMMON_L1D		0x0u
#define SPE_DS_COMMON_L2		0x8u
#define SPE_DS_COMMON_PEER_CORE		0x9u
#define SPE_DS_COMMON_LOCAL_CLUSTER	0xau
#define SPE_DS_COMMON_SYS_CACHE		0xbu
#define SPE_DS_COMMON_PEER_CLUSTER	0xcu
#define SPE_DS_COMMON_REMOTE		0xdu
#define SPE_DS_COMMON_DRAM		0xeu

/* AmpereOne's encoding. */
#define SPE_DS_AMPERE_PEER_CORE		0x0u
#define SPE_DS_AMPERE_SYS_CACHE		0x3u
#define SPE_DS_AMPERE_REMOTE		0x5u
#define SPE_DS_AMPERE_DRAM		0x7u
#define SPE_DS_AMPERE_L1D		0x8u
#define SPE_DS_AMPERE_L2		0x9u

/* ---- Context packet (DDI 0586A §5.3.3) ---------------------------------- */
/* 0b0110 01 INDEX, 32-bit payload (0x64, 0x65). */
#define SPE_CONTEXT_HDR_MASK		0xfcu
#define SPE_CONTEXT_HDR			0x64u
#define SPE_CONTEXT_INDEX_MASK		0x03u
#define SPE_CONTEXT_EL1			0u	/* CONTEXTIDR_EL1 */
#define SPE_CONTEXT_EL2			1u	/* CONTEXTIDR_EL2 */

/* ---- Operation Type packet (DDI 0586A §5.3.8; DDI 0487 D18) ------------- */
/* 0b0100 10 CLASS, 8-bit payload (0x48..0x4b). */
#define SPE_OP_HDR_MASK			0xfcu
#define SPE_OP_HDR			0x48u
#define SPE_OP_CLASS_MASK		0x03u
#define SPE_OP_CLASS_OTHER		0u
#define SPE_OP_CLASS_LDST		1u
#define SPE_OP_CLASS_BRANCH		2u	/* branch or exception return */

/* Class 0, other. */
#define SPE_OP_OTHER_IS_PLAIN(v)	(((v) & 0xf8u) == 0x00u)
#define SPE_OP_OTHER_SVE		0x08u	/* SVE data processing */
#define SPE_OP_OTHER_IS_SVE(v)		(((v) & 0x89u) == SPE_OP_OTHER_SVE)
#define SPE_OP_OTHER_IS_SME(v)		(((v) & 0x89u) == 0x88u)
#define SPE_OP_OTHER_COND		0x01u	/* plain: conditional/select */
#define SPE_OP_OTHER_FP			0x02u	/* plain and SVE and SME */
#define SPE_OP_OTHER_ASE		0x04u	/* plain: Advanced SIMD */
#define SPE_OP_OTHER_SVE_PRED		0x04u	/* SVE: predicated */
#define SPE_OP_OTHER_SVE_EVL(v)		(32u << (((v) >> 4) & 7u))
#define SPE_OP_OTHER_SME_ETS(v)		\
	(128u << (((((v) >> 4) & 7u) << 1) | (((v) >> 2) & 1u)))

/* Class 1, load/store/atomic: bit 0 says store, the rest the subclass. */
#define SPE_OP_LDST_ST			0x01u
#define SPE_OP_LDST_SUBCLASS(v)		((v) & 0xfeu)
#define SPE_OP_LDST_GP_REG		0x00u
#define SPE_OP_LDST_SIMD_FP		0x04u
#define SPE_OP_LDST_UNSPEC_REG		0x10u
#define SPE_OP_LDST_NV_SYSREG		0x30u
#define SPE_OP_LDST_MTE_TAG		0x14u
#define SPE_OP_LDST_MEMCPY		0x20u
#define SPE_OP_LDST_MEMSET		0x25u	/* whole byte, not a subclass */
#define SPE_OP_LDST_IS_EXTENDED(v)	(((v) & 0xe2u) == 0x02u)
#define SPE_OP_LDST_EXT_AR		0x10u	/* acquire/release */
#define SPE_OP_LDST_EXT_EXCL		0x08u	/* exclusive */
#define SPE_OP_LDST_EXT_AT		0x04u	/* atomic */
#define SPE_OP_LDST_SVE_SME		0x08u	/* SVE or SME load/store */
#define SPE_OP_LDST_IS_SVE_SME(v)	(((v) & 0x0au) == SPE_OP_LDST_SVE_SME)
#define SPE_OP_LDST_SVE_EVL(v)		(32u << (((v) >> 4) & 7u))
#define SPE_OP_LDST_SVE_SG		0x80u	/* gather/scatter */
#define SPE_OP_LDST_SVE_PRED		0x04u
#define SPE_OP_LDST_IS_GCS(v)		(((v) & 0xfau) == 0x40u)
#define SPE_OP_LDST_GCS_COMM		0x04u

/* Class 2, branch. */
#define SPE_OP_BR_COND			0x01u
#define SPE_OP_BR_INDIRECT		0x02u
#define SPE_OP_BR_GCS			0x04u
#define SPE_OP_BR_HINT_MASK		0x18u
#define SPE_OP_BR_HINT(v)		(((v) & SPE_OP_BR_HINT_MASK) >> 3)
#define SPE_OP_BR_HINT_NONE		0u
#define SPE_OP_BR_HINT_CALL		1u	/* branch with link */
#define SPE_OP_BR_HINT_RET		2u
#define SPE_OP_BR_HINT_NONLINK_RET	3u

/* ---- Address packet (DDI 0586A §5.3.1; DDI 0487 D18) -------------------- */
/*
 * Short: 0b10110 INDEX[2:0], 64-bit payload (0xb0..0xb7).
 * Extended: 0b001000 INDEX[4:3], then 0b10110 INDEX[2:0].
 */
#define SPE_ADDR_HDR_MASK		0xf8u
#define SPE_ADDR_HDR			0xb0u
#define SPE_EXT_HDR_B0_MASK		0xfcu
#define SPE_EXT_HDR_B0			0x20u
#define SPE_EXT_INDEX_HI_MASK		0x03u	/* byte 0 bits 1:0 = INDEX[4:3] */
#define SPE_SHORT_INDEX_MASK		0x07u	/* INDEX[2:0] */
#define SPE_EXT_INDEX(b0, b1)		\
	((((b0) & SPE_EXT_INDEX_HI_MASK) << 3) | ((b1) & SPE_SHORT_INDEX_MASK))

#define SPE_ADDR_PC			0u
#define SPE_ADDR_BR_TARGET		1u
#define SPE_ADDR_DATA_VA		2u
#define SPE_ADDR_DATA_PA		3u
#define SPE_ADDR_PREV_BR_TARGET		4u	/* FEAT_SPE_PBT */

/* Payload fields. */
#define SPE_ADDR_VALUE_MASK		SPE_GENMASK(55, 0)
#define SPE_ADDR_INSN_NS		SPE_BIT(63)	/* PC, targets */
#define SPE_ADDR_INSN_EL_MASK		SPE_GENMASK(62, 61)
#define SPE_ADDR_INSN_NSE		SPE_BIT(60)	/* FEAT_RME */
#define SPE_ADDR_PA_NS			SPE_BIT(63)
#define SPE_ADDR_PA_CH			SPE_BIT(62)	/* checked access */
#define SPE_ADDR_PA_PAT_MASK		SPE_GENMASK(59, 56)
#define SPE_ADDR_VA_TAG_MASK		SPE_GENMASK(63, 56)

/* Bits 55:0 sign-extended from bit 55, as a kernel address reads. */
static inline uint64_t spe_addr_sign_extend(uint64_t payload)
{
	uint64_t v = payload & SPE_ADDR_VALUE_MASK;

	/* Without a branch: kernel and user addresses interleave. */
	return (v ^ SPE_BIT(55)) - SPE_BIT(55);
}

/* ---- Counter packet (DDI 0586A §5.3.4) ---------------------------------- */
/*
 * Short: 0b10011 INDEX[2:0], 16-bit payload (0x98..0x9f).
 * Extended: 0b001000 INDEX[4:3], then 0b10011 INDEX[2:0].
 */
#define SPE_CNT_HDR_MASK		0xf8u
#define SPE_CNT_HDR			0x98u

#define SPE_CNT_TOTAL			0u
#define SPE_CNT_ISSUE			1u
#define SPE_CNT_TRANSLATION		2u

/* A saturated counter reads as all ones in its implemented width. */
#define SPE_CNT_MAX_12BIT		0x0fffu
#define SPE_CNT_MAX_16BIT		0xffffu

/* ---- Record limits ----------------------------------------------------- */
/*
 * The largest record a format-0 unit writes is 2^PMSIDR_EL1.MaxSize bytes;
 * MaxSize may be as large as 11 (2 KiB).
 */
#define SPE_RECORD_MAX_BYTES		2048u

#endif /* SPE_PACKET_H */
