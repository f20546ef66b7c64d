// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Software model of the Statistical Profiling Unit.
 *
 * Each rule is implemented where it is cited: DDI 0586A is the SPE supplement
 * (2017), DDI 0487 the Arm ARM (D17.1, and the register descriptions of
 * the fields SPEv1p1 and later added).
 * Where the architecture leaves a choice IMPLEMENTATION DEFINED or
 * CONSTRAINED UNPREDICTABLE, the comment says which choice the model makes.
 *
 * Portable on purpose: fixed-width types from spe/types.h only, no libc,
 * no floating point, no global mutable state.
 */
#include "spe/spu_model.h"

/* ---- Profiles ------------------------------------------------------------ */

#define PMSIDR(fe_ft_fl, arch, lds, ernd, fne, fds, ivl, maxsz, cntsz, eft)	\
	((fe_ft_fl ? (SPE_PMSIDR_FE | SPE_PMSIDR_FT | SPE_PMSIDR_FL) : 0) |	\
	 (arch ? SPE_PMSIDR_ARCHINST : 0) | (lds ? SPE_PMSIDR_LDS : 0) |	\
	 (ernd ? SPE_PMSIDR_ERND : 0) | (fne ? SPE_PMSIDR_FNE : 0) |		\
	 (fds ? SPE_PMSIDR_FDS : 0) | (eft ? SPE_PMSIDR_EFT : 0) |		\
	 SPE_FIELD_PREP(SPE_PMSIDR_INTERVAL_MASK, ivl) |			\
	 SPE_FIELD_PREP(SPE_PMSIDR_MAXSIZE_MASK, maxsz) |			\
	 SPE_FIELD_PREP(SPE_PMSIDR_COUNTSIZE_MASK, cntsz))

/* The events every SPEv1 unit may filter on (DDI 0586A §4.3.8). */
#define EVFR_V1	SPE_EVFR_V1_ARCH
/* Events 0..10 of DDI 0586A §5.3.7. */
#define EV_V1	SPE_GENMASK(10, 0)

static const struct spe_spu_config spe_spu_profiles[SPE_SPU_PROFILE_NR] = {
	[SPE_SPU_PROFILE_V1_MIN] = {
		/* Only what DDI 0586A requires: 12-bit counters, byte alignment. */
		.name = "v1-min",
		.pmsidr = PMSIDR(1, 1, 0, 0, 0, 0, 0x4, 6, 2, 0),
		.pmbidr = 0,
		.pmsver = SPE_PMSVER_V1,
		.pmsevfr_impl = EVFR_V1,
		.events_impl = EV_V1,
		.events_min_bytes = 1,
		.max_inflight = 1,
		.have_el2 = 1,
		.tbi = 1,
		.tick_shift = 0,
		.seed = 1,
	},
	[SPE_SPU_PROFILE_N1] = {
		/* Micro-op sampling, data source, 64-byte records and alignment. */
		.name = "n1",
		.pmsidr = PMSIDR(1, 0, 1, 0, 0, 0, 0x4, 6, 2, 0),
		.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 6),
		.pmsver = SPE_PMSVER_V1P1,
		.pmsevfr_impl = EVFR_V1 | SPE_EV_ALIGNMENT | SPE_EV_N1_LATE_PREFETCH,
		.events_impl = EV_V1 | SPE_EV_ALIGNMENT | SPE_EV_N1_LATE_PREFETCH,
		.events_min_bytes = 2,
		.max_inflight = 2,
		.have_el2 = 1,
		.tbi = 1,
		.tick_shift = 0,
		.seed = 1,
	},
	[SPE_SPU_PROFILE_V2] = {
		/* SPEv1p2: inverted event filter, discard mode, ERnd=1, SVE events. */
		.name = "v2",
		.pmsidr = PMSIDR(1, 1, 1, 1, 1, 0, 0x4, 7, 2, 0),
		.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 6),
		.pmsver = SPE_PMSVER_V1P2,
		.pmsevfr_impl = EVFR_V1 | SPE_EVFR_V1P1_ADDS | SPE_EV_NOT_TAKEN,
		.events_impl = EV_V1 | SPE_EV_ALIGNMENT | SPE_EV_SVE_PARTIAL_PRED |
			       SPE_EV_SVE_EMPTY_PRED,
		.events_min_bytes = 2,
		.max_inflight = 4,
		.have_el2 = 1,
		.tbi = 1,
		.tick_shift = 0,
		.seed = 1,
	},
	[SPE_SPU_PROFILE_FULL] = {
		/* Every optional filter: FDS, EFT, 16-bit counters, 128-byte records. */
		.name = "full",
		.pmsidr = PMSIDR(1, 1, 1, 1, 1, 1, 0x0, 7, 3, 1),
		.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 0),
		.pmsver = SPE_PMSVER_V1P5,
		.pmsevfr_impl = EVFR_V1 | SPE_EVFR_V1P1_ADDS | SPE_EVFR_V1P2_ADDS |
				SPE_EVFR_V1P4_ADDS | SPE_EV_STREAMING_SVE | SPE_EV_SMCU,
		.events_impl = SPE_GENMASK(25, 0) & ~SPE_EV_IMPDEF_12_15,
		.events_min_bytes = 2,
		.max_inflight = 8,
		.have_el2 = 1,
		.ecv = 1,
		.tbi = 1,
		.tick_shift = 0,
		.seed = 1,
	},
};

const struct spe_spu_config *spe_spu_profile(enum spe_spu_profile_id id)
{
	if ((unsigned int)id >= SPE_SPU_PROFILE_NR)
		return NULL;
	return &spe_spu_profiles[id];
}

static int spu_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct spe_spu_config *spe_spu_profile_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < SPE_SPU_PROFILE_NR; i++)
		if (spu_streq(name, spe_spu_profiles[i].name))
			return &spe_spu_profiles[i];
	return NULL;
}

/* ---- Random numbers (DDI 0586A §2.2.2: IMPLEMENTATION DEFINED) ---------- */

/* xorshift64*: reset into a usable state from any seed, including 0. */
static uint32_t spu_random8(struct spe_spu *spu)
{
	return (uint32_t)(spe_spu_xorshift64s(&spu->rng) >> 56);
}

/* ---- Flat memory translator --------------------------------------------- */

int spe_spu_flat_translate(void *ctx, uint64_t va, struct spe_spu_xlat *out)
{
	const struct spe_spu_flat_mem *m = ctx;
	uint64_t end = m->size;
	unsigned int i;

	for (i = 0; i < m->nr_faults; i++) {
		const struct spe_spu_flat_fault *f = &m->faults[i];

		if (va - f->va < f->len) {
			out->fault = f->fault;
			out->fsc = f->fsc;
			out->stage2 = f->stage2;
			return 1;
		}
		/* A fault further up ends the contiguous run before it. */
		if (f->va > va && f->va - m->base < end && f->va >= m->base)
			end = end < f->va - m->base ? end : f->va - m->base;
	}
	if (va - m->base >= m->size) {
		out->fault = SPE_SPU_XLAT_FAULT_S1;
		out->fsc = SPE_FSC_TRANSLATION(3);
		out->stage2 = 0;
		return 1;
	}
	out->fault = SPE_SPU_XLAT_OK;
	out->host = m->host + (va - m->base);
	out->len = end - (va - m->base);
	return 0;
}

/* ---- Registers (DDI 0586A §4.3, DDI 0487) ------------------------------- */

static int spu_el2_owned(const struct spe_spu *spu)
{
	return spu->cfg.owner_el2 && spu->cfg.have_el2;
}

/* HCR_EL2.TGE = 1: EL0 runs in the host's EL2&0 regime (DDI 0586A §3.2.3). */
static int spu_in_host(const struct spe_spu *spu)
{
	return spu->cfg.tge && spu->cfg.have_el2;
}

/* PMBLIMITR.FM == DISCARD exists from SPEv1p2 (DDI 0487 PMBLIMITR_EL1). */
static int spu_discard(const struct spe_spu *spu)
{
	return spu->cfg.pmsver >= SPE_PMSVER_V1P2 &&
	       SPE_FIELD_GET(SPE_PMBLIMITR_FM_MASK, spu->pmblimitr) ==
	       SPE_PMBLIMITR_FM_DISCARD;
}

static int spu_buffer_enabled(const struct spe_spu *spu)
{
	/* DDI 0586A §3.4.6 ProfilingBufferEnabled() */
	return (spu->pmblimitr & SPE_PMBLIMITR_E) && !(spu->pmbsr & SPE_PMBSR_S);
}

static int spu_collect_record(const struct spe_spu *spu, const struct spe_op *op);

/*
 * PMBSR_EL1.S is set: the operations in flight are discarded (§3.5).  Each
 * that passes the filters still counts in SAMPLE_FILTRATE, which counts
 * records a buffer management event discards (§2.6 Table 1).
 */
static void spu_discard_inflight(struct spe_spu *spu)
{
	while (spu->inflight_nr) {
		struct spe_spu_inflight *s = &spu->inflight[spu->inflight_head];

		if (spu_collect_record(spu, &s->op))
			spu->pmu[SPE_SPU_SAMPLE_FILTRATE]++;
		if (spu->hook)
			spu->hook(spu->hook_ctx, &s->op, SPE_SPU_DISCARDED, 0, 0);
		spu->inflight_head = (spu->inflight_head + 1) % SPE_SPU_MAX_INFLIGHT;
		spu->inflight_nr--;
	}
}

/*
 * DDI 0586A §3.2.1 Table 3 and §3.2.3 StatisticalProfilingEnabled(), for a
 * Non-secure owner, EL1 (MDCR_EL2.E2PB = 0b1x) or EL2 (0b00):
 *   - EL2 only when it owns the buffer, by PMSCR_EL2.E2SPE;
 *   - EL1 by PMSCR_EL1.E1SPE, whoever owns it; EL1 does not run while
 *     HCR_EL2.TGE = 1 (n/a in the table): disabled then;
 *   - EL0 by PMSCR_EL1.E0SPE when TGE = 0 (a guest's, or a host's without
 *     VHE); when TGE = 1 it is the host's, by PMSCR_EL2.E0HSPE if EL2 owns
 *     the buffer, and disabled if EL1 does.
 * EL3 is never enabled.
 */
static void spu_update(struct spe_spu *spu)
{
	int owner2 = spu_el2_owned(spu), host = spu_in_host(spu);
	uint64_t el0_bit;
	uint8_t en = 0;

	if (spu_buffer_enabled(spu) && (owner2 || !host)) {
		if (owner2 && (spu->pmscr_el2 & SPE_PMSCR_E2SPE))
			en |= 1u << 2;
		if (!host && (spu->pmscr_el1 & SPE_PMSCR_E1SPE))
			en |= 1u << 1;
		el0_bit = host ? spu->pmscr_el2 & SPE_PMSCR_E0HSPE :
				 spu->pmscr_el1 & SPE_PMSCR_E0SPE;
		if (el0_bit)
			en |= 1u << 0;
	}
	spu->el_enabled = en;
	/* DDI 0586A §3.5: while S is 1 buffered records are discarded. */
	if (spu->pmbsr & SPE_PMBSR_S)
		spu_discard_inflight(spu);
	/* PMBIRQ follows PMBSR.S. */
	if (spu->irq_level != !!(spu->pmbsr & SPE_PMBSR_S)) {
		spu->irq_level = !spu->irq_level;
		if (spu->irq_changed)
			spu->irq_changed(spu->irq_ctx, spu->irq_level);
	}
}

static uint64_t spu_pmsfcr_mask(const struct spe_spu *spu)
{
	uint64_t idr = spu->cfg.pmsidr;
	uint64_t m = SPE_PMSFCR_FE | SPE_PMSFCR_FT | SPE_PMSFCR_FL |
		     SPE_PMSFCR_TYPE_MASK;

	if (idr & SPE_PMSIDR_FNE)
		m |= SPE_PMSFCR_FNE;
	if (idr & SPE_PMSIDR_FDS)
		m |= SPE_PMSFCR_FDS;
	if (idr & SPE_PMSIDR_EFT)
		m |= SPE_PMSFCR_EFT_MASK;
	return m;
}

static uint64_t spu_pmscr_mask(const struct spe_spu *spu)
{
	/*
	 * PCT is bit 6 in DDI 0586A §4.3.5; DDI 0487 PMSCR_EL1 widens it to
	 * bits 7:6 with FEAT_ECV, else bit 7 is RES0.
	 */
	return SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE | SPE_PMSCR_CX | SPE_PMSCR_PA |
	       SPE_PMSCR_TS | (spu->cfg.ecv ? SPE_PMSCR_PCT_MASK : SPE_BIT(6));
}

int spe_spu_write_reg(struct spe_spu *spu, enum spe_sysreg reg, uint64_t val)
{
	uint64_t idr = spu->cfg.pmsidr;

	if (reg < SPE_REG_NR && !spe_sysreg_writable(reg))
		return SPE_SPU_EROFS;
	switch (reg) {
	case SPE_REG_PMSCR_EL1:
		val &= spu_pmscr_mask(spu);
		/* DDI 0586A §4.3.5: PCT is RES1 if EL2 is not implemented. */
		if (!spu->cfg.have_el2)
			val |= SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, SPE_PMSCR_PCT_PHYS);
		spu->pmscr_el1 = val;
		break;
	case SPE_REG_PMSCR_EL2:
		/*
		 * DDI 0586A §4.3.7: RES0 at EL3 if EL2 is not implemented.
		 * E2SPE and E0HSPE have no effect unless EL2 owns the buffer,
		 * but they keep their value: MDCR_EL2.E2PB may give it back.
		 */
		val &= spu_pmscr_mask(spu);
		spu->pmscr_el2 = spu->cfg.have_el2 ? val : 0;
		break;
	case SPE_REG_PMSNEVFR_EL1:
		if (!(idr & SPE_PMSIDR_FNE))
			return SPE_SPU_EINVAL;
		spu->pmsnevfr = val & spu->pmsevfr_mask;
		break;
	case SPE_REG_PMSICR_EL1:
		spu->count = (uint32_t)SPE_FIELD_GET(SPE_PMSICR_COUNT_MASK, val);
		/* ECOUNT is RES0 when PMSIDR.ERnd == 0 (DDI 0586A §4.3.10). */
		spu->ecount = (idr & SPE_PMSIDR_ERND) ?
			(uint8_t)SPE_FIELD_GET(SPE_PMSICR_ECOUNT_MASK, val) : 0;
		/*
		 * PMSICR is opaque to software, which only saves and restores
		 * it.  A running secondary counter restores as running when
		 * non-zero; the one cycle where it is armed at zero is lost.
		 */
		spu->ecount_armed = spu->ecount != 0;
		break;
	case SPE_REG_PMSIRR_EL1:
		spu->pmsirr = val & ~SPE_PMSIRR_RES0;
		break;
	case SPE_REG_PMSFCR_EL1:
		spu->pmsfcr = val & spu_pmsfcr_mask(spu);
		break;
	case SPE_REG_PMSEVFR_EL1:
		/* Unimplemented event bits are RES0 (DDI 0586A §4.3.8). */
		spu->pmsevfr = val & spu->pmsevfr_mask;
		break;
	case SPE_REG_PMSLATFR_EL1:
		/* MINLAT is as wide as the counters (DDI 0586A §4.3.13). */
		spu->pmslatfr = val & spu->cnt_max;
		break;
	case SPE_REG_PMSDSFR_EL1:
		if (!(idr & SPE_PMSIDR_FDS))
			return SPE_SPU_EINVAL;
		spu->pmsdsfr = val;
		break;
	case SPE_REG_PMBLIMITR_EL1:
		/* Reserved FM values read back as written (DDI 0586A §4.3.2). */
		spu->pmblimitr = val & (SPE_PMBLIMITR_LIMIT_MASK |
					SPE_PMBLIMITR_FM_MASK | SPE_PMBLIMITR_E);
		break;
	case SPE_REG_PMBPTR_EL1:
		/*
		 * Bits below PMBIDR.Align are kept: they may hold part of a
		 * synchronous external abort address (DDI 0586A §4.3.3).
		 */
		spu->pmbptr = val;
		break;
	case SPE_REG_PMBSR_EL1:
		spu->pmbsr = val & ~SPE_PMBSR_RES0;
		break;
	default:
		return SPE_SPU_EINVAL;
	}
	spu_update(spu);
	return 0;
}

void spe_spu_set_pe_controls(struct spe_spu *spu, int owner_el2, int tge)
{
	spu->cfg.owner_el2 = !!owner_el2;
	spu->cfg.tge = !!tge;
	spu_update(spu);
}

uint64_t spe_spu_read_reg(const struct spe_spu *spu, enum spe_sysreg reg)
{
	switch (reg) {
	case SPE_REG_PMSCR_EL1:		return spu->pmscr_el1;
	case SPE_REG_PMSCR_EL2:		return spu->pmscr_el2;
	case SPE_REG_PMSNEVFR_EL1:	return spu->pmsnevfr;
	case SPE_REG_PMSICR_EL1:
		return SPE_FIELD_PREP(SPE_PMSICR_COUNT_MASK, spu->count) |
		       SPE_FIELD_PREP(SPE_PMSICR_ECOUNT_MASK, spu->ecount);
	case SPE_REG_PMSIRR_EL1:	return spu->pmsirr;
	case SPE_REG_PMSFCR_EL1:	return spu->pmsfcr;
	case SPE_REG_PMSEVFR_EL1:	return spu->pmsevfr;
	case SPE_REG_PMSLATFR_EL1:	return spu->pmslatfr;
	case SPE_REG_PMSIDR_EL1:	return spu->cfg.pmsidr;
	case SPE_REG_PMBLIMITR_EL1:	return spu->pmblimitr;
	case SPE_REG_PMBPTR_EL1:	return spu->pmbptr;
	case SPE_REG_PMBSR_EL1:		return spu->pmbsr;
	case SPE_REG_PMSDSFR_EL1:	return spu->pmsdsfr;
	case SPE_REG_PMBIDR_EL1:	return spu->cfg.pmbidr;
	case SPE_REG_ID_AA64DFR0_EL1:
		return SPE_FIELD_PREP(SPE_ID_AA64DFR0_PMSVER_MASK, spu->cfg.pmsver);
	default:
		return 0;
	}
}

/* ---- Records (DDI 0586A §5, DDI 0487 D18.1) ----------------------------- */

/* Worst case: PC, two contexts, op, events, three counters, VA, PA, DS, TS. */
static uint32_t spu_worst_record(const struct spe_spu_config *cfg, uint32_t evb)
{
	uint32_t n = 9 + 5 + 2 + (1 + evb) + 3 * 3 + 9 + 9 + 9;

	if (cfg->have_el2)
		n += 5;
	if (cfg->pmsidr & SPE_PMSIDR_LDS)
		n += 3;
	return n;
}

static uint32_t spu_events_bytes(uint64_t ev, uint32_t min)
{
	uint32_t n = 1;

	if (ev >> 32)
		n = 8;
	else if (ev >> 16)
		n = 4;
	else if (ev >> 8)
		n = 2;
	return n > min ? n : min;
}

static uint8_t *put_le(uint8_t *p, uint64_t v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++, v >>= 8)
		*p++ = (uint8_t)v;
	return p;
}

/* Short-format Address packet, index < 8 (DDI 0586A §5.3.1). */
static uint8_t *put_addr(uint8_t *p, uint32_t index, uint64_t payload)
{
	*p++ = (uint8_t)(SPE_ADDR_HDR | index);
	return put_le(p, payload, 8);
}

/* Short-format Counter packet, saturated at the counter size (§5.3.4). */
static uint8_t *put_counter(uint8_t *p, uint32_t index, uint32_t v, uint32_t max)
{
	*p++ = (uint8_t)(SPE_CNT_HDR | index);
	return put_le(p, v < max ? v : max, 2);
}

static uint64_t insn_addr(uint64_t va, uint32_t el, int ns)
{
	return (va & SPE_ADDR_VALUE_MASK) |
	       SPE_FIELD_PREP(SPE_ADDR_INSN_EL_MASK, el) |
	       (ns ? SPE_ADDR_INSN_NS : 0);
}

/*
 * DDI 0586A §5.3.1: the data VA's byte 7 is the top-byte tag when the
 * applicable TBI bit (TBI0 below, TBI1 above bit 55) is set, else zero.
 */
static uint64_t spu_data_va(const struct spe_spu *spu, uint64_t va)
{
	uint32_t tbi = (va & SPE_BIT(55)) ? spu->cfg.tbi & 2 : spu->cfg.tbi & 1;

	return tbi ? va : va & SPE_ADDR_VALUE_MASK;
}

/* The time a Timestamp packet holds (DDI 0487 CollectTimeStamp()). */
enum spu_time {
	SPU_TIME_VIRTUAL,		/* CNTPCT - CNTVOFF_EL2 */
	SPU_TIME_PHYSICAL,		/* CNTPCT */
	SPU_TIME_OFFSET_PHYSICAL,	/* CNTPCT - the physical offset (FEAT_ECV) */
};

struct spu_collect {
	uint8_t cx1, cx2, ts, pa;
	enum spu_time time;
};

/*
 * The time PMSCR_ELx.PCT asks for.  Without FEAT_ECV, bit 7 is RES0
 * (spu_pmscr_mask()); the reserved 0b10 is CONSTRAINED UNPREDICTABLE,
 * and the model takes it as 0b00.
 */
static enum spu_time spu_pct_time(uint64_t pmscr)
{
	switch (SPE_FIELD_GET(SPE_PMSCR_PCT_MASK, pmscr)) {
	case SPE_PMSCR_PCT_PHYS:
		return SPU_TIME_PHYSICAL;
	case SPE_PMSCR_PCT_OFFSET_PHYS:
		return SPU_TIME_OFFSET_PHYSICAL;
	default:
		return SPU_TIME_VIRTUAL;
	}
}

/*
 * PMSCR_EL2.PCT bounds what a Non-secure EL1 owner asks for (DDI 0487
 * CollectTimeStamp()): 0b00 gives virtual time, 0b01 leaves EL1 its
 * choice, and 0b11 makes a physical choice offset physical.
 */
static enum spu_time spu_el1_owner_time(uint64_t s1, uint64_t s2)
{
	enum spu_time el1 = spu_pct_time(s1);

	switch (spu_pct_time(s2)) {
	case SPU_TIME_VIRTUAL:
		return SPU_TIME_VIRTUAL;
	case SPU_TIME_OFFSET_PHYSICAL:
		return el1 == SPU_TIME_VIRTUAL ? el1 : SPU_TIME_OFFSET_PHYSICAL;
	default:
		return el1;
	}
}

/* DDI 0586A §3.3.1: CollectContextIDR1/2, CollectTimeStamp, CollectPhysicalAddress. */
static void spu_collect(const struct spe_spu *spu, uint32_t el,
			struct spu_collect *c)
{
	uint64_t s1 = spu->pmscr_el1, s2 = spu->pmscr_el2;
	int have_el2 = spu->cfg.have_el2;

	/* CONTEXTIDR_EL1 is neither EL2's nor, with TGE = 1, the host EL0's. */
	c->cx1 = el != 2 && !spu_in_host(spu) && (s1 & SPE_PMSCR_CX);
	c->cx2 = have_el2 && (s2 & SPE_PMSCR_CX);
	if (spu_el2_owned(spu)) {
		c->ts = !!(s2 & SPE_PMSCR_TS);
		c->time = spu_pct_time(s2);
		c->pa = !!(s2 & SPE_PMSCR_PA);
		return;
	}
	c->ts = !!(s1 & SPE_PMSCR_TS);
	c->time = spu_pct_time(s1);
	c->pa = !!(s1 & SPE_PMSCR_PA);
	if (have_el2) {
		/* PMSCR_EL2 gates PCT and PA for a Non-secure EL1 owner. */
		c->time = spu_el1_owner_time(s1, s2);
		c->pa = c->pa && (s2 & SPE_PMSCR_PA);
	}
}

static int op_is_load(const struct spe_op *op)
{
	return op->cls == SPE_OP_CLASS_LDST && !(op->subclass & SPE_OP_LDST_ST);
}

/*
 * The load and store filters (PMSFCR_EL1.LD, .ST), DDI 0586A §3.2.2: ST
 * takes every atomic, LD the atomics that return data.  In the packet an
 * atomic that returns data (CAS, SWP, LD<op>) is a load with AT (§5.3.8:
 * "0 Load or swap"), only ST<op> a store: such an op passes both filters.
 */
static int op_is_store(const struct spe_op *op)
{
	return op->cls == SPE_OP_CLASS_LDST &&
	       ((op->subclass & SPE_OP_LDST_ST) ||
		(SPE_OP_LDST_IS_EXTENDED(op->subclass) &&
		 (op->subclass & SPE_OP_LDST_EXT_AT)));
}

/* FEAT_SPE_EFT operation properties from the Operation Type payload. */
static int op_is_fp(const struct spe_op *op)
{
	return op->cls == SPE_OP_CLASS_OTHER && (op->subclass & SPE_OP_OTHER_FP);
}

static int op_is_simd(const struct spe_op *op)
{
	uint8_t v = op->subclass;

	if (op->cls == SPE_OP_CLASS_OTHER)
		return SPE_OP_OTHER_IS_PLAIN(v) ? !!(v & SPE_OP_OTHER_ASE) : 1;
	if (op->cls == SPE_OP_CLASS_LDST)
		return SPE_OP_LDST_SUBCLASS(v) == SPE_OP_LDST_SIMD_FP ||
		       SPE_OP_LDST_IS_SVE_SME(v);
	return 0;
}

static int spu_has_ds(const struct spe_spu *spu, const struct spe_op *op)
{
	return (spu->cfg.pmsidr & SPE_PMSIDR_LDS) && op_is_load(op) &&
	       (op->flags & SPE_OPF_HAS_DS);
}

/*
 * DDI 0586A §3.2.3 CollectRecord(), extended by the inverted event filter
 * (SPEv1p2), the data-source filter (FEAT_SPE_FDS) and the SIMD/FP and mask
 * bits of FEAT_SPE_EFT (DDI 0487 PMSFCR_EL1).
 */
static int spu_collect_record(const struct spe_spu *spu, const struct spe_op *op)
{
	uint64_t fcr = spu->pmsfcr;
	uint64_t e = op->events & spu->cfg.events_impl;
	uint32_t lat = op->lat_total < spu->cnt_max ? op->lat_total : spu->cnt_max;

	/*
	 * PMSEVFR == 0 with FE = 1 is CONSTRAINED UNPREDICTABLE: the model
	 * behaves as if FE were 0 (the check below passes trivially).
	 */
	if ((fcr & SPE_PMSFCR_FE) && (~e & spu->pmsevfr))
		return 0;
	/* Inverted filter: none of the listed events may be present. */
	if ((fcr & SPE_PMSFCR_FNE) && (e & spu->pmsnevfr))
		return 0;
	if (fcr & SPE_PMSFCR_FT) {
		/* bit 0 B, 1 LD, 2 ST, 3 FP, 4 SIMD */
		uint32_t has = (op->cls == SPE_OP_CLASS_BRANCH) |
			       op_is_load(op) << 1 | op_is_store(op) << 2 |
			       op_is_fp(op) << 3 | op_is_simd(op) << 4;
		uint32_t want = (uint32_t)(SPE_FIELD_GET(SPE_PMSFCR_TYPE_MASK, fcr) |
			SPE_FIELD_GET(SPE_PMSFCR_FP | SPE_PMSFCR_SIMD, fcr) << 3);
		uint32_t mask = (uint32_t)SPE_FIELD_GET(SPE_GENMASK(52, 48), fcr);
		uint32_t or_set = want & ~mask;

		/*
		 * With no type selected the unit records nothing (the
		 * CONSTRAINED UNPREDICTABLE choice Table 4's first FT=1 row
		 * shows).  Mask bits make a type mandatory (1) or excluded (0).
		 */
		if (!want && !mask)
			return 0;
		if ((has ^ want) & mask)
			return 0;
		if (or_set && !(has & or_set))
			return 0;
	}
	/* MINLAT == 0 with FL = 1: behave as FL = 0 (every latency passes). */
	if ((fcr & SPE_PMSFCR_FL) &&
	    lat < SPE_FIELD_GET(SPE_PMSLATFR_MINLAT_MASK, spu->pmslatfr))
		return 0;
	/* Data-source filter: applies to loads that report a data source. */
	if ((fcr & SPE_PMSFCR_FDS) && spu_has_ds(spu, op) &&
	    (op->data_source >= 64 ||
	     !(spu->pmsdsfr & SPE_BIT(op->data_source))))
		return 0;
	return 1;
}

/* Encode one record; returns its length (DDI 0586A §2.3, §5.3). */
static uint32_t spu_encode(const struct spe_spu *spu,
			   const struct spe_spu_inflight *s, uint8_t *buf)
{
	const struct spe_op *op = &s->op;
	struct spu_collect c;
	uint64_t ev = op->events & spu->cfg.events_impl;
	uint32_t evb, max = spu->cnt_max;
	int ldst = op->cls == SPE_OP_CLASS_LDST;
	uint8_t *p = buf;

	spu_collect(spu, op->el, &c);

	p = put_addr(p, SPE_ADDR_PC,
		     insn_addr(op->pc, op->el, op->flags & SPE_OPF_NS));
	if (c.cx1) {
		*p++ = SPE_CONTEXT_HDR | SPE_CONTEXT_EL1;
		p = put_le(p, op->context[0], 4);
	}
	if (c.cx2) {
		*p++ = SPE_CONTEXT_HDR | SPE_CONTEXT_EL2;
		p = put_le(p, op->context[1], 4);
	}
	*p++ = (uint8_t)(SPE_OP_HDR | (op->cls & SPE_OP_CLASS_MASK));
	*p++ = op->subclass;

	evb = spu_events_bytes(ev, spu->cfg.events_min_bytes);
	*p++ = (uint8_t)(SPE_EVENTS_HDR |
			 (evb == 1 ? SPE_HDR_SZ_1 : evb == 2 ? SPE_HDR_SZ_2 :
			  evb == 4 ? SPE_HDR_SZ_4 : SPE_HDR_SZ_8));
	p = put_le(p, ev, evb);

	p = put_counter(p, SPE_CNT_TOTAL, op->lat_total, max);
	p = put_counter(p, SPE_CNT_ISSUE, op->lat_issue, max);

	/*
	 * §2.3.1: no target for an operation that generated an exception;
	 * §5.3.1: no PA for an aborted access or when not collected.
	 */
	if (op->cls == SPE_OP_CLASS_BRANCH && !(ev & SPE_EV_EXCEPTION_GEN))
		p = put_addr(p, SPE_ADDR_BR_TARGET,
			     insn_addr(op->target, op->target_el,
				       op->flags & SPE_OPF_TARGET_NS));
	if (ldst) {
		p = put_addr(p, SPE_ADDR_DATA_VA, spu_data_va(spu, op->va));
		p = put_counter(p, SPE_CNT_TRANSLATION, op->lat_xlat, max);
		if (c.pa && !(op->flags & SPE_OPF_NO_PA))
			p = put_addr(p, SPE_ADDR_DATA_PA,
				     (op->pa & SPE_ADDR_VALUE_MASK) |
				     ((op->flags & SPE_OPF_PA_NS) ? SPE_ADDR_PA_NS : 0));
	}
	if (spu_has_ds(spu, op)) {
		if (op->data_source > 0xff) {
			*p++ = SPE_DATA_SOURCE_HDR | SPE_HDR_SZ_2;
			p = put_le(p, op->data_source, 2);
		} else {
			*p++ = SPE_DATA_SOURCE_HDR | SPE_HDR_SZ_1;
			*p++ = (uint8_t)op->data_source;
		}
	}
	/* §5.3.10: a Timestamp packet ends the record, or else End. */
	if (c.ts) {
		uint64_t ts = spu->cnt_base + (s->cycle >> spu->cfg.tick_shift);

		if (c.time == SPU_TIME_VIRTUAL)
			ts -= spu->cntvoff;
		else if (c.time == SPU_TIME_OFFSET_PHYSICAL)
			ts -= spu->cntpoff;
		*p++ = SPE_HDR_TIMESTAMP;
		p = put_le(p, ts, 8);
	} else {
		*p++ = SPE_HDR_END;
	}
	return (uint32_t)(p - buf);
}

/* ---- Profiling Buffer management events (DDI 0586A §3.5) ---------------- */

static void spu_mgmt_event(struct spe_spu *spu, uint32_t ec, uint32_t mss,
			   int dl, int ea)
{
	uint64_t sr = spu->pmbsr;

	sr &= ~(SPE_PMBSR_EC_MASK | SPE_PMBSR_MSS_MASK);
	sr |= SPE_FIELD_PREP(SPE_PMBSR_EC_MASK, ec) |
	      SPE_FIELD_PREP(SPE_PMBSR_MSS_MASK, mss) | SPE_PMBSR_S;
	if (dl)
		sr |= SPE_PMBSR_DL;
	if (ea)
		sr |= SPE_PMBSR_EA;
	spu->pmbsr = sr;
	spu_update(spu);
}

/* §3.5.3 (faults) and §3.5.4 (external aborts) for a write at va. */
static void spu_write_fault(struct spe_spu *spu, const struct spe_spu_xlat *x,
			    uint64_t va, uint64_t rec_start)
{
	int s2 = x->fault == SPE_SPU_XLAT_FAULT_S2 || x->stage2;
	uint32_t ec = s2 ? SPE_PMBSR_EC_FAULT_S2 : SPE_PMBSR_EC_FAULT_S1;

	switch (x->fault) {
	case SPE_SPU_XLAT_EA_ASYNC:
		/* PMBPTR is not the aborted address; nothing is known good. */
		spu_mgmt_event(spu, ec, x->fsc, 1, 1);
		break;
	case SPE_SPU_XLAT_EA_SYNC:
		spu->pmbptr = va;
		spu_mgmt_event(spu, ec, x->fsc, va != rec_start, 1);
		break;
	default:
		/* PMBPTR acts as the fault address register. */
		spu->pmbptr = va;
		spu_mgmt_event(spu, ec, x->fsc, va != rec_start, 0);
		break;
	}
}

/*
 * Write len record bytes and pad zero bytes at PMBPTR, in increasing
 * address order (DDI 0487 D17.1).  Returns 0, or -1 after a fault.
 */
static int spu_write_bytes(struct spe_spu *spu, const uint8_t *rec,
			   uint32_t len, uint32_t pad)
{
	uint64_t start = spu->pmbptr, va = start;
	uint32_t off = 0, total = len + pad;
	struct spe_spu_xlat x;

	while (off < total) {
		uint8_t *dst;
		uint32_t nrec;
		uint64_t n;

		x.fault = SPE_SPU_XLAT_OK;
		x.fsc = 0;
		x.stage2 = 0;
		x.len = 0;
		if (spu->translate(spu->mem_ctx, va, &x) || !x.len) {
			/* A translator that maps nothing has faulted. */
			if (x.fault == SPE_SPU_XLAT_OK) {
				x.fault = SPE_SPU_XLAT_FAULT_S1;
				x.fsc = SPE_FSC_TRANSLATION(3);
			}
			spu_write_fault(spu, &x, va, start);
			return -1;
		}
		n = total - off;
		if (x.len < n)
			n = x.len;
		/*
		 * Record bytes, then padding.  The compiler builtins become
		 * the environment's memcpy/memset (the kernel's in a module):
		 * wide stores matter, the buffer is rarely in cache.
		 */
		dst = x.host;
		nrec = off < len ? len - off : 0;
		if (nrec > n)
			nrec = (uint32_t)n;
		__builtin_memcpy(dst, rec + off, nrec);
		__builtin_memset(dst + nrec, SPE_HDR_PADDING, n - nrec);
		off += (uint32_t)n;
		va += n;
	}
	spu->pmbptr = va;
	return 0;
}

static void spu_hook(struct spe_spu *spu, const struct spe_op *op,
		     enum spe_spu_outcome what, uint64_t addr, uint32_t len)
{
	if (spu->hook)
		spu->hook(spu->hook_ctx, op, what, addr, len);
}

/* A sampled operation completed: filter, encode and write its record. */
static void spu_capture(struct spe_spu *spu, const struct spe_spu_inflight *s)
{
	uint8_t rec[SPE_RECORD_MAX_BYTES / 16];
	uint64_t limit, ptr;
	uint32_t len, pad;

	/* Buffer disabled without PSB CSYNC (§3.6.1): silently discarded. */
	if (!spu_buffer_enabled(spu)) {
		spu_hook(spu, &s->op, SPE_SPU_DISCARDED, 0, 0);
		return;
	}
	if (!spu_collect_record(spu, &s->op)) {
		spu_hook(spu, &s->op, SPE_SPU_FILTERED, 0, 0);
		return;
	}
	spu->pmu[SPE_SPU_SAMPLE_FILTRATE]++;
	if (spu_discard(spu)) {
		spu_hook(spu, &s->op, SPE_SPU_DISCARDED, 0, 0);
		return;
	}

	ptr = spu->pmbptr;
	limit = spu->pmblimitr & SPE_PMBLIMITR_LIMIT_MASK;
	/* §3.5.3 Table 6: an unaligned PMBPTR gives an Alignment fault. */
	if (ptr & (spu->align - 1)) {
		struct spe_spu_xlat x = { .fault = SPE_SPU_XLAT_FAULT_S1,
					  .fsc = SPE_FSC_ALIGNMENT };

		spu_write_fault(spu, &x, ptr, ptr);
		spu_hook(spu, &s->op, SPE_SPU_DISCARDED, 0, 0);
		return;
	}
	len = spu_encode(spu, s, rec);
	/* §4.3.1 PMBIDR.Align: pad every record up to a multiple of it. */
	pad = (uint32_t)(-(ptr + len) & (spu->align - 1));
	/*
	 * Software broke §3.4.1 (less than one record of room): the unit
	 * never writes past the limit, so it signals buffer full instead.
	 */
	if (ptr >= limit || limit - ptr < len + pad) {
		spu_mgmt_event(spu, SPE_PMBSR_EC_BUF, SPE_PMBSR_BSC_FULL, 0, 0);
		spu_hook(spu, &s->op, SPE_SPU_DISCARDED, 0, 0);
		return;
	}
	if (spu_write_bytes(spu, rec, len, pad)) {
		spu_hook(spu, &s->op, SPE_SPU_DISCARDED, 0, 0);
		return;
	}
	spu->records++;
	spu->bytes += len + pad;
	spu_hook(spu, &s->op, SPE_SPU_WRITTEN, ptr, len + pad);
	/* §3.5.2: buffer full when less than one maximum record remains. */
	if (limit - spu->pmbptr < spu->record_max)
		spu_mgmt_event(spu, SPE_PMBSR_EC_BUF, SPE_PMBSR_BSC_FULL, 0, 0);
}

static void spu_retire_one(struct spe_spu *spu)
{
	struct spe_spu_inflight *s = &spu->inflight[spu->inflight_head];

	spu->inflight_head = (spu->inflight_head + 1) % SPE_SPU_MAX_INFLIGHT;
	spu->inflight_nr--;
	spu_capture(spu, s);
}

/* Sampled operations complete in order, each when its total latency ends. */
static inline void spu_retire_ready(struct spe_spu *spu)
{
	while (spu->inflight_nr &&
	       spu->inflight[spu->inflight_head].done <= spu->now)
		spu_retire_one(spu);
}

void spe_spu_psb_csync(struct spe_spu *spu)
{
	while (spu->inflight_nr)
		spu_retire_one(spu);
}

void spe_spu_advance(struct spe_spu *spu, uint64_t cycles)
{
	spu->now += cycles;
	spu_retire_ready(spu);
}

/* ---- Sampling (DDI 0586A §2.2, §3.1) ------------------------------------ */

static uint32_t spu_reload(const struct spe_spu *spu)
{
	/* COUNT[31:8] = INTERVAL, COUNT[7:0] = 0 */
	return (uint32_t)(spu->pmsirr & SPE_PMSIRR_INTERVAL_MASK);
}

static int spu_ernd(const struct spe_spu *spu)
{
	return !!(spu->cfg.pmsidr & SPE_PMSIDR_ERND);
}

/* §3.1.1: entering an enabled state with PMSICR == 0 loads it. */
static void spu_initialise_counter(struct spe_spu *spu)
{
	if (spu->count || spu->ecount || spu->ecount_armed)
		return;
	spu->count = spu_reload(spu);
	if ((spu->pmsirr & SPE_PMSIRR_RND) && !spu_ernd(spu))
		spu->count |= spu_random8(spu);
}

/*
 * §3.1.2: count one member of the population; returns non-zero when it is
 * the one selected for sampling.  The counter decrements while non-zero and
 * the member seen at zero is selected, giving INTERVAL * 256 + 1 between
 * samples when RND = 0.
 */
static inline int spu_count(struct spe_spu *spu)
{
	int sel = 0;

	if (!(spu->pmsirr & SPE_PMSIRR_RND) || !spu_ernd(spu)) {
		if (spu->count) {
			spu->count--;
			return 0;
		}
		spu->count = spu_reload(spu);
		/* RND = 1, ERnd = 0: random COUNT[7:0] at every reload. */
		if (spu->pmsirr & SPE_PMSIRR_RND)
			spu->count |= spu_random8(spu);
		return 1;
	}

	/*
	 * RND = 1, ERnd = 1: the primary counter reloads on its own period
	 * and starts the secondary counter ECOUNT at a random value; the
	 * member seen when ECOUNT is at zero is selected.  Mean interval is
	 * INTERVAL * 256 + 1.
	 */
	if (spu->ecount_armed) {
		if (spu->ecount) {
			spu->ecount--;
		} else {
			spu->ecount_armed = 0;
			sel = 1;
		}
	}
	if (spu->count) {
		spu->count--;
	} else {
		spu->count = spu_reload(spu);
		spu->ecount = (uint8_t)spu_random8(spu);
		spu->ecount_armed = 1;
	}
	return sel;
}

/* §2.2.4, §3.1.4: choose op for sampling, or record a collision. */
static void spu_sample(struct spe_spu *spu, const struct spe_op *op)
{
	struct spe_spu_inflight *s, *prev;
	unsigned int slot;

	if (spu->inflight_nr >= spu->cfg.max_inflight) {
		spu->pmbsr |= SPE_PMBSR_COLL;
		spu->pmu[SPE_SPU_SAMPLE_COLLISION]++;
		spu_hook(spu, op, SPE_SPU_COLLIDED, 0, 0);
		return;
	}
	spu->pmu[SPE_SPU_SAMPLE_FEED]++;
	slot = (spu->inflight_head + spu->inflight_nr) % SPE_SPU_MAX_INFLIGHT;
	s = &spu->inflight[slot];
	s->op = *op;
	s->cycle = spu->now;
	s->done = spu->now + op->lat_total;
	if (spu->inflight_nr) {
		prev = &spu->inflight[(slot + SPE_SPU_MAX_INFLIGHT - 1) %
				      SPE_SPU_MAX_INFLIGHT];
		if (s->done < prev->done)
			s->done = prev->done;
	}
	spu->inflight_nr++;
	spu_hook(spu, op, SPE_SPU_SAMPLED, 0, 0);
	spu_retire_ready(spu);
}

static inline void spu_step(struct spe_spu *spu, const struct spe_op *op)
{
	spu->now += op->cycles;
	spu_retire_ready(spu);

	/* §3.1.3: while disabled the counters keep their values (EL3: always). */
	if (op->el > 2 || !((spu->el_enabled >> op->el) & 1)) {
		spu->was_enabled = 0;
		return;
	}
	if (!spu->was_enabled) {
		spu->was_enabled = 1;
		spu_initialise_counter(spu);
	}
	spu->pmu[SPE_SPU_SAMPLE_POP]++;
	if (spu_count(spu))
		spu_sample(spu, op);
}

void spe_spu_step(struct spe_spu *spu, const struct spe_op *op)
{
	spu_step(spu, op);
}

void spe_spu_step_batch(struct spe_spu *spu, const struct spe_op *ops,
			unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++)
		spu_step(spu, &ops[i]);
}

/*
 * Count up to nr members of the population at exception level el that are
 * not selected, exactly as spe_spu_step() would count them, without the
 * cost of describing each one.  Returns how many were counted: fewer than
 * nr when the next member is the one selected (the caller describes it and
 * passes it to spe_spu_step()).  Time does not pass.
 */
uint64_t spe_spu_skip(struct spe_spu *spu, uint64_t nr, unsigned int el)
{
	uint64_t done = 0, k;

	/* §3.1.3: while disabled the counters keep their values. */
	if (el > 2 || !((spu->el_enabled >> el) & 1)) {
		spu->was_enabled = 0;
		return nr;
	}
	if (!spu->was_enabled) {
		spu->was_enabled = 1;
		spu_initialise_counter(spu);
	}

	if (!(spu->pmsirr & SPE_PMSIRR_RND) || !spu_ernd(spu)) {
		/* spu_count(): a member seen at COUNT == 0 is selected. */
		done = nr < spu->count ? nr : spu->count;
		spu->count -= (uint32_t)done;
	} else {
		/*
		 * Two counters (spu_count(), ERnd = 1): the member seen with
		 * ECOUNT armed at zero is selected.  Between events both
		 * simply count down, so whole runs are taken at once.
		 */
		while (done < nr) {
			if (spu->ecount_armed && !spu->ecount)
				break;
			k = nr - done;
			if (spu->ecount_armed && spu->ecount < k)
				k = spu->ecount;
			if (spu->count < k)
				k = spu->count;
			if (k) {
				if (spu->ecount_armed)
					spu->ecount -= (uint8_t)k;
				spu->count -= (uint32_t)k;
				done += k;
				continue;
			}
			/* COUNT == 0 and not selected: the reload member. */
			spu_count(spu);
			done++;
		}
	}
	spu->pmu[SPE_SPU_SAMPLE_POP] += done;
	return done;
}

/* ---- Reset --------------------------------------------------------------- */

int spe_spu_init(struct spe_spu *spu, const struct spe_spu_config *cfg,
		 spe_spu_translate_fn translate, void *mem_ctx)
{
	uint8_t *raw = (uint8_t *)spu;
	uint32_t maxsize, align, evb;
	unsigned long i;

	if (!cfg || !translate || !cfg->max_inflight ||
	    cfg->max_inflight > SPE_SPU_MAX_INFLIGHT)
		return SPE_SPU_EINVAL;
	maxsize = (uint32_t)SPE_FIELD_GET(SPE_PMSIDR_MAXSIZE_MASK, cfg->pmsidr);
	align = (uint32_t)SPE_FIELD_GET(SPE_PMBIDR_ALIGN_MASK, cfg->pmbidr);
	evb = spu_events_bytes(cfg->events_impl, cfg->events_min_bytes);
	if (maxsize < 4 || maxsize > 11 || align > 11 ||
	    spu_worst_record(cfg, evb) > (1u << maxsize) ||
	    spu_worst_record(cfg, evb) > SPE_RECORD_MAX_BYTES / 16)
		return SPE_SPU_EINVAL;

	for (i = 0; i < sizeof(*spu); i++)
		raw[i] = 0;
	spu->cfg = *cfg;
	spu->translate = translate;
	spu->mem_ctx = mem_ctx;
	spu->record_max = 1u << maxsize;
	spu->align = 1u << align;
	spu->cnt_max = SPE_FIELD_GET(SPE_PMSIDR_COUNTSIZE_MASK, cfg->pmsidr) ==
		       SPE_PMSIDR_COUNTSIZE_16_SAT ? SPE_CNT_MAX_16BIT :
						     SPE_CNT_MAX_12BIT;
	/* A profile's bits of a later version than its own are RES0. */
	spu->pmsevfr_mask = cfg->pmsevfr_impl & spe_evfr_filterable(cfg->pmsver);
	spu->rng = cfg->seed ^ 0x9e3779b97f4a7c15ULL;
	if (!spu->rng)
		spu->rng = 1;
	/* Reset values are UNKNOWN except PMBLIMITR.E = 0; the model uses 0. */
	spe_spu_write_reg(spu, SPE_REG_PMSCR_EL1, 0);
	return 0;
}
