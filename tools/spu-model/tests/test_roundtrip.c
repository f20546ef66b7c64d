// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Round trip: random operation streams go through the SPU model, the
 * Profiling Buffer goes through the decoder library, and the records that
 * come back must be exactly the sampled operations that passed the
 * filters, in order, field by field.
 *
 * The expectations below are written from the source documents, not from
 * the model: which operations pass the filters (DDI 0586A §3.2.3 and the
 * newer filters), what the collection controls put in a record (§3.3.1),
 * counter saturation (§5.3.4), and what each operation class carries
 * (§2.3, §5.3).  The model only tells which operations it sampled, and
 * when, through its hook.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "spe_decode.h"
#include "spe/spu_opgen.h"
#include "support/spu_test.h"

#define SESSIONS	80
#define OPS_PER_SESSION	(16 * 1024)
#define BUF_BASE	0xffff800020000000ULL
#define BUF_SIZE	(4u << 20)

struct sampled {
	struct spe_op op;
	uint64_t cycle;
};

struct expect {
	struct spe_spu *spu;
	struct sampled *fifo;		/* sampled, not yet decided */
	size_t head, tail, cap;
	struct sampled *written;	/* records written, in order */
	size_t nr_written, cap_written;
	unsigned long filter_mismatch, decided;
	/* The session's registers, as the test programmed them. */
	uint64_t pmscr1, pmscr2, fcr, evfr, nevfr, minlat, dsfr;
	const struct spe_spu_config *cfg;
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static uint32_t cnt_max(const struct spe_spu_config *cfg)
{
	return SPE_FIELD_GET(SPE_PMSIDR_COUNTSIZE_MASK, cfg->pmsidr) == 3 ? 0xffff : 0xfff;
}

static uint32_t sat(uint32_t v, const struct spe_spu_config *cfg)
{
	return v < cnt_max(cfg) ? v : cnt_max(cfg);
}

/* The filters, from DDI 0586A §3.2.2-§3.2.3 and DDI 0487 PMSFCR_EL1. */
static int passes(const struct expect *e, const struct spe_op *op)
{
	uint64_t ev = op->events & e->cfg->events_impl;
	int ldst = op->cls == SPE_OP_CLASS_LDST;
	int st_bit = ldst && (op->subclass & 1);
	int atomic = ldst && (op->subclass & 0xe2) == 0x02 && (op->subclass & 0x04);
	int load = ldst && !st_bit, store = st_bit || atomic;
	int branch = op->cls == SPE_OP_CLASS_BRANCH;
	int fp = op->cls == SPE_OP_CLASS_OTHER && (op->subclass & 2);
	int simd = (op->cls == SPE_OP_CLASS_OTHER &&
		    ((op->subclass & 0xf8) ? 1 : !!(op->subclass & 4))) ||
		   (ldst && ((op->subclass & 0xfe) == 0x04 || (op->subclass & 0x0a) == 0x08));

	if ((e->fcr & SPE_PMSFCR_FE) && e->evfr && (ev & e->evfr) != e->evfr)
		return 0;
	if ((e->fcr & SPE_PMSFCR_FNE) && (ev & e->nevfr))
		return 0;
	if (e->fcr & SPE_PMSFCR_FT) {
		int want_b = !!(e->fcr & SPE_PMSFCR_B), want_ld = !!(e->fcr & SPE_PMSFCR_LD);
		int want_st = !!(e->fcr & SPE_PMSFCR_ST), want_fp = !!(e->fcr & SPE_PMSFCR_FP);
		int want_simd = !!(e->fcr & SPE_PMSFCR_SIMD);
		int any_or = 0, hit_or = 0;
		struct { int want, mask, has; } t[5] = {
			{ want_b, !!(e->fcr & SPE_PMSFCR_BM), branch },
			{ want_ld, !!(e->fcr & SPE_PMSFCR_LDM), load },
			{ want_st, !!(e->fcr & SPE_PMSFCR_STM), store },
			{ want_fp, !!(e->fcr & SPE_PMSFCR_FPM), fp },
			{ want_simd, !!(e->fcr & SPE_PMSFCR_SIMDM), simd },
		};
		int i, any = 0;

		for (i = 0; i < 5; i++) {
			any |= t[i].want | t[i].mask;
			if (t[i].mask && t[i].want != t[i].has)
				return 0;
			if (!t[i].mask && t[i].want) {
				any_or = 1;
				hit_or |= t[i].has;
			}
		}
		if (!any || (any_or && !hit_or))
			return 0;
	}
	if ((e->fcr & SPE_PMSFCR_FL) && sat(op->lat_total, e->cfg) < e->minlat)
		return 0;
	if ((e->fcr & SPE_PMSFCR_FDS) && load && (e->cfg->pmsidr & SPE_PMSIDR_LDS) &&
	    (op->flags & SPE_OPF_HAS_DS) &&
	    (op->data_source >= 64 || !((e->dsfr >> op->data_source) & 1)))
		return 0;
	return 1;
}

static void push(struct sampled **v, size_t *n, size_t *cap, const struct sampled *s)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		*v = realloc(*v, *cap * sizeof(**v));
		if (!*v)
			abort();
	}
	(*v)[(*n)++] = *s;
}

static void hook(void *ctx, const struct spe_op *op, enum spe_spu_outcome what,
		 uint64_t addr, uint32_t len)
{
	struct expect *e = ctx;
	struct sampled s;

	(void)addr; (void)len;
	if (what == SPE_SPU_COLLIDED)
		return;
	if (what == SPE_SPU_SAMPLED) {
		s.op = *op;
		s.cycle = e->spu->now;
		push(&e->fifo, &e->tail, &e->cap, &s);
		return;
	}
	/* Completed in order: the oldest sampled operation. */
	if (e->head == e->tail || memcmp(&e->fifo[e->head].op, op, sizeof(*op))) {
		e->filter_mismatch++;
		return;
	}
	s = e->fifo[e->head++];
	if (what == SPE_SPU_DISCARDED)
		return;
	e->decided++;
	if (passes(e, op) != (what == SPE_SPU_WRITTEN))
		e->filter_mismatch++;
	if (what == SPE_SPU_WRITTEN)
		push(&e->written, &e->nr_written, &e->cap_written, &s);
}

static uint64_t canon(uint64_t a)
{
	return spe_addr_sign_extend(a);
}

/* A random operation: any class, any field. */
static void random_op(struct spe_op *op)
{
	memset(op, 0, sizeof(*op));
	op->cls = (uint8_t)(rnd() % 3);
	op->subclass = (uint8_t)rnd();
	op->el = (uint8_t)(rnd() % 3);
	op->target_el = (uint8_t)(rnd() % 3);
	op->pc = canon(rnd() & ~3ULL);
	op->target = canon(rnd() & ~3ULL);
	op->va = rnd();
	op->pa = rnd() & SPE_GENMASK(55, 0);
	op->events = rnd() & rnd();
	op->context[0] = (uint32_t)rnd();
	op->context[1] = (uint32_t)rnd();
	op->cycles = (uint32_t)(rnd() % 64);
	op->lat_total = (uint32_t)(rnd() % (rnd() % 64 ? 300 : 80000));
	op->lat_issue = (uint32_t)(rnd() % 80000);
	op->lat_xlat = (uint32_t)(rnd() % 80000);
	op->data_source = (uint16_t)(rnd() % (rnd() & 1 ? 16 : 700));
	op->flags = (uint8_t)(rnd() & 0x1f);
}

static int check_record(const struct expect *e, const struct sampled *s,
			const struct spe_record *r, char *why, size_t whylen)
{
	const struct spe_op *op = &s->op;
	const struct spe_spu_config *cfg = e->cfg;
	int owner2 = cfg->owner_el2 && cfg->have_el2;
	int host = cfg->tge && cfg->have_el2;
	int ldst = op->cls == SPE_OP_CLASS_LDST, br = op->cls == SPE_OP_CLASS_BRANCH;
	int load = ldst && !(op->subclass & 1);
	uint64_t ev = op->events & cfg->events_impl;
	int cx1, cx2, ts, pct, pa;

	/* §3.3.1 collection controls */
	cx1 = op->el != 2 && !host && (e->pmscr1 & SPE_PMSCR_CX);
	cx2 = cfg->have_el2 && (e->pmscr2 & SPE_PMSCR_CX);
	if (owner2) {
		ts = !!(e->pmscr2 & SPE_PMSCR_TS);
		pct = !!(e->pmscr2 & SPE_BIT(6));
		pa = !!(e->pmscr2 & SPE_PMSCR_PA);
	} else {
		ts = !!(e->pmscr1 & SPE_PMSCR_TS);
		pct = !!(e->pmscr1 & SPE_BIT(6)) && (!cfg->have_el2 || (e->pmscr2 & SPE_BIT(6)));
		pa = !!(e->pmscr1 & SPE_PMSCR_PA) && (!cfg->have_el2 || (e->pmscr2 & SPE_PMSCR_PA));
	}
#define EXPECT(c, what) do { if (!(c)) { snprintf(why, whylen, "%s", what); return 0; } } while (0)
	EXPECT(r->end == (ts ? SPE_REC_END_TIMESTAMP : SPE_REC_END_END), "record end (TS/End)");
	EXPECT((r->present & SPE_REC_PC) && r->pc.addr == canon(op->pc) &&
	       r->pc.el == op->el && r->pc.ns == !!(op->flags & SPE_OPF_NS), "PC");
	EXPECT((r->present & SPE_REC_OP_TYPE) && r->op_class == op->cls &&
	       r->op_subclass == op->subclass, "operation type");
	EXPECT((r->present & SPE_REC_EVENTS) && r->events == ev, "events");
	EXPECT((r->present & SPE_REC_LAT_TOTAL) && r->lat_total == sat(op->lat_total, cfg),
	       "total latency");
	EXPECT((r->present & SPE_REC_LAT_ISSUE) && r->lat_issue == sat(op->lat_issue, cfg),
	       "issue latency");
	EXPECT(!!(r->present & SPE_REC_LAT_XLAT) == ldst &&
	       (!ldst || r->lat_xlat == sat(op->lat_xlat, cfg)), "translation latency");
	EXPECT(!!(r->present & SPE_REC_DATA_VA) == ldst &&
	       (!ldst || (r->data_va == canon(op->va) &&
			  r->data_va_tag == ((cfg->tbi >> ((op->va >> 55) & 1)) & 1 ?
					     op->va >> 56 : 0))),
	       "data VA");
	{
		int has_pa = ldst && pa && !(op->flags & SPE_OPF_NO_PA);

		EXPECT(!!(r->present & SPE_REC_DATA_PA) == has_pa &&
		       (!has_pa || (r->data_pa == (op->pa & SPE_GENMASK(55, 0)) &&
				    r->data_pa_ns == !!(op->flags & SPE_OPF_PA_NS))),
		       "data PA");
	}
	{
		int has_tgt = br && !(ev & SPE_EV_EXCEPTION_GEN);

		EXPECT(!!(r->present & SPE_REC_BR_TARGET) == has_tgt &&
		       (!has_tgt || (r->br_target.addr == canon(op->target) &&
				     r->br_target.el == op->target_el &&
				     r->br_target.ns == !!(op->flags & SPE_OPF_TARGET_NS))),
		       "branch target");
	}
	{
		int has_ds = load && (cfg->pmsidr & SPE_PMSIDR_LDS) && (op->flags & SPE_OPF_HAS_DS);

		EXPECT(!!(r->present & SPE_REC_DATA_SOURCE) == has_ds &&
		       (!has_ds || r->data_source == op->data_source), "data source");
	}
	EXPECT(!!(r->present & SPE_REC_CONTEXT_EL1) == cx1 &&
	       (!cx1 || r->context_el1 == op->context[0]), "CONTEXTIDR_EL1");
	EXPECT(!!(r->present & SPE_REC_CONTEXT_EL2) == cx2 &&
	       (!cx2 || r->context_el2 == op->context[1]), "CONTEXTIDR_EL2");
	if (ts) {
		uint64_t t = e->spu->cnt_base + (s->cycle >> cfg->tick_shift);

		if (!pct)
			t -= e->spu->cntvoff;
		EXPECT(r->timestamp == t, "timestamp");
	}
	return 1;
}

static uint64_t pick(uint64_t mask)
{
	return rnd() & rnd() & mask;
}

int main(void)
{
	struct spe_op *ops = malloc(sizeof(*ops) * OPS_PER_SESSION);
	uint8_t *buf = malloc(BUF_SIZE);
	struct spe_spu *spu = calloc(1, sizeof(*spu));
	unsigned long total_ops = 0, total_records = 0, bad = 0, filter_bad = 0;
	unsigned long extra = 0, sessions_full = 0;
	char first_bad[256] = "";
	int s;

	if (!ops || !buf || !spu)
		return 1;
	rng_state = 0x5eed5eed5eedULL;
	for (s = 0; s < SESSIONS; s++) {
		struct spe_spu_flat_mem mem = { .base = BUF_BASE, .host = buf, .size = BUF_SIZE };
		struct spe_spu_config cfg = *spe_spu_profile(s % SPE_SPU_PROFILE_NR);
		struct expect e;
		struct spe_opgen gen;
		struct spe_decoder dec;
		struct spe_record r;
		uint64_t idr, irr;
		size_t i;
		int rc;

		memset(&e, 0, sizeof(e));
		cfg.seed = (uint64_t)s;
		cfg.owner_el2 = (s / SPE_SPU_PROFILE_NR) % 5 == 4;
		/* EL2's buffer: a VHE host (TGE = 1), or a KVM guest running under it. */
		cfg.tge = cfg.owner_el2 && (s / (SPE_SPU_PROFILE_NR * 5)) % 2 == 0;
		cfg.tick_shift = (uint8_t)(s % 3);
		cfg.tbi = (uint8_t)(s % 4);
		if (spe_spu_init(spu, &cfg, spe_spu_flat_translate, &mem))
			return 1;
		e.spu = spu;
		e.cfg = &spu->cfg;
		spu->hook = hook;
		spu->hook_ctx = &e;
		spu->cnt_base = rnd() >> 8;
		spu->cntvoff = rnd() >> 40;
		idr = cfg.pmsidr;

		/* Random collection controls and filters for this session. */
		e.pmscr1 = SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE | pick(SPE_PMSCR_CX | SPE_PMSCR_PA |
			   SPE_PMSCR_TS | SPE_BIT(6)) | (rnd() & 1 ? SPE_PMSCR_TS : 0);
		e.pmscr2 = SPE_PMSCR_E2SPE | SPE_PMSCR_E0HSPE |
			   (rnd() & SPE_GENMASK(6, 3) & ~(1ULL << 7));
		if (s % 4 == 0) {
			e.fcr = 0;	/* some sessions unfiltered */
		} else {
			e.fcr = pick(SPE_PMSFCR_FE | SPE_PMSFCR_FT | SPE_PMSFCR_FL) |
				(rnd() & SPE_PMSFCR_TYPE_MASK);
			if (idr & SPE_PMSIDR_FNE)
				e.fcr |= pick(SPE_PMSFCR_FNE);
			if (idr & SPE_PMSIDR_FDS)
				e.fcr |= pick(SPE_PMSFCR_FDS);
			if (idr & SPE_PMSIDR_EFT)
				e.fcr |= rnd() & SPE_PMSFCR_EFT_MASK;
		}
		e.evfr = pick(cfg.pmsevfr_impl);
		e.nevfr = (idr & SPE_PMSIDR_FNE) ? pick(cfg.pmsevfr_impl) : 0;
		e.minlat = rnd() % 64;
		e.dsfr = (idr & SPE_PMSIDR_FDS) ? rnd() : 0;
		irr = (s % 3 == 0) ? 0 : ((rnd() % 2 + 1) << 8) | (rnd() & 1);

		spe_spu_write_reg(spu, SPE_REG_PMBPTR_EL1, BUF_BASE);
		spe_spu_write_reg(spu, SPE_REG_PMSIRR_EL1, irr);
		spe_spu_write_reg(spu, SPE_REG_PMSFCR_EL1, e.fcr);
		spe_spu_write_reg(spu, SPE_REG_PMSEVFR_EL1, e.evfr);
		if (idr & SPE_PMSIDR_FNE)
			spe_spu_write_reg(spu, SPE_REG_PMSNEVFR_EL1, e.nevfr);
		if (idr & SPE_PMSIDR_FDS)
			spe_spu_write_reg(spu, SPE_REG_PMSDSFR_EL1, e.dsfr);
		spe_spu_write_reg(spu, SPE_REG_PMSLATFR_EL1, e.minlat);
		spe_spu_write_reg(spu, SPE_REG_PMSCR_EL2, e.pmscr2);
		spe_spu_write_reg(spu, SPE_REG_PMSCR_EL1, e.pmscr1);
		spe_spu_write_reg(spu, SPE_REG_PMBLIMITR_EL1, (BUF_BASE + BUF_SIZE) | SPE_PMBLIMITR_E);
		/* What the registers hold is what the expectations use. */
		e.pmscr1 = spe_spu_read_reg(spu, SPE_REG_PMSCR_EL1);
		e.pmscr2 = spe_spu_read_reg(spu, SPE_REG_PMSCR_EL2);
		e.fcr = spe_spu_read_reg(spu, SPE_REG_PMSFCR_EL1);
		e.evfr = spe_spu_read_reg(spu, SPE_REG_PMSEVFR_EL1);

		/* Half generated programs, half random operations. */
		spe_opgen_init(&gen, (uint64_t)s * 31 + 7);
		spe_opgen_fill(&gen, ops, OPS_PER_SESSION);
		for (i = 0; i < OPS_PER_SESSION; i++) {
			if (rnd() & 1)
				random_op(&ops[i]);
			/* Sampling every operation: leave time to complete most. */
			if (!irr)
				ops[i].cycles += 256;
		}
		spe_spu_step_batch(spu, ops, OPS_PER_SESSION);
		spe_spu_psb_csync(spu);
		total_ops += OPS_PER_SESSION;
		if (spe_spu_irq(spu))
			sessions_full++;
		filter_bad += e.filter_mismatch;

		spe_decoder_init(&dec, NULL, buf, spu->pmbptr - BUF_BASE, 0);
		i = 0;
		while ((rc = spe_decoder_next(&dec, &r)) == 1) {
			char why[64];

			if (i >= e.nr_written) {
				extra++;
				continue;
			}
			if (!check_record(&e, &e.written[i], &r, why, sizeof(why))) {
				if (!bad++)
					snprintf(first_bad, sizeof(first_bad),
						 "session %d (%s) record %zu at offset %llu: %s",
						 s, cfg.name, i, (unsigned long long)r.offset, why);
			}
			i++;
		}
		if (rc < 0) {
			bad++;
			if (!first_bad[0])
				snprintf(first_bad, sizeof(first_bad),
					 "session %d: decoder error %d at %llu", s, rc,
					 (unsigned long long)spe_decoder_error_offset(&dec));
		}
		if (i != e.nr_written) {
			bad++;
			if (!first_bad[0])
				snprintf(first_bad, sizeof(first_bad),
					 "session %d: %zu records decoded, %zu written", s, i,
					 e.nr_written);
		}
		total_records += e.nr_written;
		free(e.fifo);
		free(e.written);
	}
	printf("# %lu operations, %lu records, %lu sessions ended by buffer full\n",
	       total_ops, total_records, sessions_full);
	if (first_bad[0])
		printf("# first mismatch: %s\n", first_bad);
	CHECK(total_ops >= 1000000, "round trip covers at least a million random operations");
	CHECK(total_records > 100000, "round trip writes more than 100000 records");
	CHECK_EQ(filter_bad, 0,
		 "round trip: exactly the sampled operations that pass the filters are written, in order");
	CHECK_EQ(extra, 0, "round trip: the decoder finds no record the model did not write");
	CHECK_EQ(bad, 0, "round trip: every decoded record equals its operation, field by field");
	free(ops);
	free(buf);
	free(spu);
	return tap_done();
}
