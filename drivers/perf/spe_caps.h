/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one SPE implementation can do, derived from its ID registers.
 *
 * Portable: compiled unchanged into the module and into the host unit
 * tests (include/host-types provides <linux/types.h> and <linux/errno.h> there).
 * Nothing here touches a register; the driver reads them on each CPU and
 * hands the raw values in.
 */
#ifndef SPE_CAPS_H
#define SPE_CAPS_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/types.h>

#include "spe/regs.h"

/* Features the perf ABI can switch on (Linux perf-arm-spe.txt). */
#define SPE_FEAT_FILT_EVT	BIT(0)	/* PMSIDR.FE: event filter */
#define SPE_FEAT_FILT_TYP	BIT(1)	/* PMSIDR.FT: type filter */
#define SPE_FEAT_FILT_LAT	BIT(2)	/* PMSIDR.FL: latency filter */
#define SPE_FEAT_ARCH_INST	BIT(3)	/* PMSIDR.ArchInst */
#define SPE_FEAT_LDS		BIT(4)	/* PMSIDR.LDS */
#define SPE_FEAT_ERND		BIT(5)	/* PMSIDR.ERnd */
#define SPE_FEAT_INV_FILT_EVT	BIT(6)	/* PMSIDR.FnE, SPEv1p2 */
#define SPE_FEAT_FDS		BIT(7)	/* PMSIDR.FDS, FEAT_SPE_FDS */
#define SPE_FEAT_EFT		BIT(8)	/* PMSIDR.EFT, FEAT_SPE_EFT */
#define SPE_FEAT_DISCARD	BIT(9)	/* PMBLIMITR.FM discard, SPEv1p2 */
#define SPE_FEAT_ALL		(BIT(10) - 1)

/* Raw ID register values read on one CPU. */
struct spe_cpu_regs {
	u64 dfr0;	/* ID_AA64DFR0_EL1 */
	u64 pmsidr;	/* PMSIDR_EL1 */
	u64 pmbidr;	/* PMBIDR_EL1 */
	u64 evfr_impl;	/* PMSEVFR_EL1 read back after writing all-ones */
	u64 nevfr_impl;	/* PMSNEVFR_EL1 likewise, 0 without FnE */
};

struct spe_caps {
	u32 pmsver;		/* ID_AA64DFR0_EL1.PMSVer */
	u32 features;		/* SPE_FEAT_* */
	u32 min_interval;	/* PMSIDR.Interval, in operations */
	u32 counter_bits;	/* 12 or 16 (PMSIDR.CountSize) */
	u32 max_record;		/* bytes, 2^PMSIDR.MaxSize */
	u32 align;		/* bytes, 2^PMBIDR.Align */
	u64 evfr_mask;		/* implemented PMSEVFR_EL1 bits */
	u64 nevfr_mask;		/* implemented PMSNEVFR_EL1 bits */
};

/* Why a CPU's SPE cannot be used (spe_caps_from_regs()). */
enum spe_caps_err {
	SPE_CAPS_OK = 0,
	SPE_CAPS_NO_SPE,		/* PMSVer == 0 */
	SPE_CAPS_BUF_PROHIBITED,	/* PMBIDR.P: buffer owned by a higher EL */
	SPE_CAPS_BAD_COUNTSIZE,		/* PMSIDR.CountSize not 12/16-bit */
	SPE_CAPS_BAD_ALIGN,		/* PMBIDR.Align beyond 2 KiB */
	SPE_CAPS_BAD_MAXSIZE,		/* record size beyond 2 KiB */
};

/* Bits of spe_caps_merge()'s result: which property differed. */
#define SPE_CAPS_DIFF_VERSION		BIT(0)
#define SPE_CAPS_DIFF_FEATURES		BIT(1)
#define SPE_CAPS_DIFF_INTERVAL		BIT(2)
#define SPE_CAPS_DIFF_COUNTER		BIT(3)
#define SPE_CAPS_DIFF_RECORD		BIT(4)
#define SPE_CAPS_DIFF_ALIGN		BIT(5)
#define SPE_CAPS_DIFF_EVFR		BIT(6)
#define SPE_CAPS_DIFF_NEVFR		BIT(7)

u32 spe_dfr0_pmsver(u64 dfr0);
enum spe_caps_err spe_caps_from_regs(const struct spe_cpu_regs *regs,
				     struct spe_caps *caps);
const char *spe_caps_err_str(enum spe_caps_err err);
u32 spe_caps_merge(struct spe_caps *acc, const struct spe_caps *cpu);
bool spe_caps_covers(const struct spe_caps *cpu, const struct spe_caps *pmu);

#endif /* SPE_CAPS_H */
