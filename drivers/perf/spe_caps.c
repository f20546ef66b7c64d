// SPDX-License-Identifier: GPL-2.0
/*
 * SPE capabilities from ID registers, and their intersection over the CPUs
 * one PMU instance covers.
 *
 * The in-tree driver reads PMSIDR_EL1/PMBIDR_EL1 on one CPU and assumes the
 * rest match.  Here every CPU's registers are turned into a struct spe_caps
 * and merged, so a heterogeneous or misconfigured system gets the subset
 * that works everywhere and a message naming the CPU that differs.
 */
#include "spe_caps.h"
#include "spe/packet.h"

u32 spe_dfr0_pmsver(u64 dfr0)
{
	return (u32)SPE_FIELD_GET(SPE_ID_AA64DFR0_PMSVER_MASK, dfr0);
}

/* Largest record or alignment this driver accepts: PMBIDR.Align tops at 2 KiB. */
#define SPE_MAX_LOG2_BYTES	11

enum spe_caps_err spe_caps_from_regs(const struct spe_cpu_regs *regs,
				     struct spe_caps *caps)
{
	u64 idr = regs->pmsidr;
	u32 align_log2, max_log2;

	caps->pmsver = spe_dfr0_pmsver(regs->dfr0);
	if (caps->pmsver == SPE_PMSVER_NI)
		return SPE_CAPS_NO_SPE;

	/* DDI 0586A §4.3.1: P = 1 means a higher EL owns the buffer. */
	if (regs->pmbidr & SPE_PMBIDR_P)
		return SPE_CAPS_BUF_PROHIBITED;

	caps->features = 0;
	if (idr & SPE_PMSIDR_FE)
		caps->features |= SPE_FEAT_FILT_EVT;
	if (idr & SPE_PMSIDR_FT)
		caps->features |= SPE_FEAT_FILT_TYP;
	if (idr & SPE_PMSIDR_FL)
		caps->features |= SPE_FEAT_FILT_LAT;
	if (idr & SPE_PMSIDR_ARCHINST)
		caps->features |= SPE_FEAT_ARCH_INST;
	if (idr & SPE_PMSIDR_LDS)
		caps->features |= SPE_FEAT_LDS;
	if (idr & SPE_PMSIDR_ERND)
		caps->features |= SPE_FEAT_ERND;
	/* PMSIDR bits 6, 7 and 26 were RES0 before the versions adding them. */
	if (caps->pmsver >= SPE_PMSVER_V1P2 && (idr & SPE_PMSIDR_FNE))
		caps->features |= SPE_FEAT_INV_FILT_EVT;
	if (caps->pmsver >= SPE_PMSVER_V1P2 && (idr & SPE_PMSIDR_FDS))
		caps->features |= SPE_FEAT_FDS;
	if (caps->pmsver >= SPE_PMSVER_V1P2 && (idr & SPE_PMSIDR_EFT))
		caps->features |= SPE_FEAT_EFT;
	if (caps->pmsver >= SPE_PMSVER_V1P2)
		caps->features |= SPE_FEAT_DISCARD;

	caps->min_interval = spe_pmsidr_min_interval(idr);

	switch (SPE_FIELD_GET(SPE_PMSIDR_COUNTSIZE_MASK, idr)) {
	case SPE_PMSIDR_COUNTSIZE_12_SAT:
		caps->counter_bits = 12;
		break;
	case SPE_PMSIDR_COUNTSIZE_16_SAT:
		caps->counter_bits = 16;
		break;
	default:
		return SPE_CAPS_BAD_COUNTSIZE;
	}

	max_log2 = (u32)SPE_FIELD_GET(SPE_PMSIDR_MAXSIZE_MASK, idr);
	if (max_log2 > SPE_MAX_LOG2_BYTES)
		return SPE_CAPS_BAD_MAXSIZE;
	caps->max_record = 1u << max_log2;

	align_log2 = (u32)SPE_FIELD_GET(SPE_PMBIDR_ALIGN_MASK, regs->pmbidr);
	if (align_log2 > SPE_MAX_LOG2_BYTES)
		return SPE_CAPS_BAD_ALIGN;
	caps->align = 1u << align_log2;

	/*
	 * A RES0 bit may read back as written (DDI 0487, "RES0"), so the
	 * all-ones read-back at probe is only believed within the bits the
	 * unit's version may implement (spe/packet.h, as the SPU model).
	 */
	caps->evfr_mask = (caps->features & SPE_FEAT_FILT_EVT) ?
			  regs->evfr_impl & spe_evfr_filterable(caps->pmsver) : 0;
	caps->nevfr_mask = (caps->features & SPE_FEAT_INV_FILT_EVT) ?
			   regs->nevfr_impl & spe_evfr_filterable(caps->pmsver) : 0;
	return SPE_CAPS_OK;
}

const char *spe_caps_err_str(enum spe_caps_err err)
{
	switch (err) {
	case SPE_CAPS_OK:
		return "usable";
	case SPE_CAPS_NO_SPE:
		return "no SPE (ID_AA64DFR0_EL1.PMSVer = 0)";
	case SPE_CAPS_BUF_PROHIBITED:
		return "profiling buffer owned by a higher exception level (PMBIDR_EL1.P = 1)";
	case SPE_CAPS_BAD_COUNTSIZE:
		return "unsupported counter size (PMSIDR_EL1.CountSize)";
	case SPE_CAPS_BAD_ALIGN:
		return "unsupported buffer alignment (PMBIDR_EL1.Align)";
	case SPE_CAPS_BAD_MAXSIZE:
		return "unsupported record size (PMSIDR_EL1.MaxSize)";
	}
	return "unknown";
}

static u32 spe_max_u32(u32 a, u32 b)
{
	return a > b ? a : b;
}

static u32 spe_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

/*
 * Fold one CPU's capabilities into the accumulated set: what every CPU
 * supports (features, filter bits, version), the strictest of the limits
 * (interval, record size, alignment) and the narrowest latency counter.
 * Returns SPE_CAPS_DIFF_* bits saying what differed, 0 if identical.
 */
u32 spe_caps_merge(struct spe_caps *acc, const struct spe_caps *cpu)
{
	u32 diff = 0;

	if (acc->pmsver != cpu->pmsver)
		diff |= SPE_CAPS_DIFF_VERSION;
	if (acc->features != cpu->features)
		diff |= SPE_CAPS_DIFF_FEATURES;
	if (acc->min_interval != cpu->min_interval)
		diff |= SPE_CAPS_DIFF_INTERVAL;
	if (acc->counter_bits != cpu->counter_bits)
		diff |= SPE_CAPS_DIFF_COUNTER;
	if (acc->max_record != cpu->max_record)
		diff |= SPE_CAPS_DIFF_RECORD;
	if (acc->align != cpu->align)
		diff |= SPE_CAPS_DIFF_ALIGN;
	if (acc->evfr_mask != cpu->evfr_mask)
		diff |= SPE_CAPS_DIFF_EVFR;
	if (acc->nevfr_mask != cpu->nevfr_mask)
		diff |= SPE_CAPS_DIFF_NEVFR;

	acc->pmsver = spe_min_u32(acc->pmsver, cpu->pmsver);
	acc->features &= cpu->features;
	acc->min_interval = spe_max_u32(acc->min_interval, cpu->min_interval);
	acc->counter_bits = spe_min_u32(acc->counter_bits, cpu->counter_bits);
	acc->max_record = spe_max_u32(acc->max_record, cpu->max_record);
	acc->align = spe_max_u32(acc->align, cpu->align);
	acc->evfr_mask &= cpu->evfr_mask;
	acc->nevfr_mask &= cpu->nevfr_mask;
	return diff;
}

/*
 * Whether a CPU can join a PMU that has already told perf its
 * capabilities: merging it in must not change any of them.
 */
bool spe_caps_covers(const struct spe_caps *cpu, const struct spe_caps *pmu)
{
	struct spe_caps merged = *pmu;

	spe_caps_merge(&merged, cpu);
	return merged.pmsver == pmu->pmsver &&
	       merged.features == pmu->features &&
	       merged.min_interval == pmu->min_interval &&
	       merged.counter_bits == pmu->counter_bits &&
	       merged.max_record == pmu->max_record &&
	       merged.align == pmu->align &&
	       merged.evfr_mask == pmu->evfr_mask &&
	       merged.nevfr_mask == pmu->nevfr_mask;
}
