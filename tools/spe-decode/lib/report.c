// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Report aggregation: what a performance engineer wants first from an SPE
 * profile.  Top symbols by records, latency percentiles per operation class
 * (exact: counters are at most 16 bits, so a histogram per counter), where
 * loads were served from (perf_mem_data_src level), cache and TLB miss rates
 * for loads and stores, branch mispredict rate, and the lost or truncated
 * data.  Memory is fixed apart from one entry per distinct symbol.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_decode.h"
#include "spe_perf_synth.h"

#define LAT_BUCKETS	65536
#define NR_COUNTERS	3

/* Where a load was served from, by perf_mem_data_src. */
enum rep_level {
	LV_L1, LV_L2, LV_L3, LV_PEER, LV_REMOTE, LV_RAM, LV_NA, LV_NR
};

static const char *const level_names[LV_NR] = {
	[LV_L1] = "L1D hit", [LV_L2] = "L2 hit", [LV_L3] = "L3 / system cache hit",
	[LV_PEER] = "peer core / cluster (cache-to-cache)", [LV_REMOTE] = "remote socket",
	[LV_RAM] = "DRAM", [LV_NA] = "not available",
};

static const char *const op_names[SPE_REP_NR_OPS] = {
	[SPE_REP_LOAD] = "load", [SPE_REP_STORE] = "store",
	[SPE_REP_BRANCH] = "branch", [SPE_REP_OTHER] = "other",
};

struct sym_count {
	const char *dso, *name;		/* owned by the symbol layer */
	uint64_t count;
};

struct spe_report {
	uint32_t *lat[SPE_REP_NR_OPS][NR_COUNTERS];	/* histograms */
	uint64_t n[SPE_REP_NR_OPS];
	uint64_t with_lat[SPE_REP_NR_OPS][NR_COUNTERS];
	uint64_t level[2][LV_NR];	/* [load/store][level] */
	uint64_t l1d_access[2], l1d_miss[2], llc_access[2], llc_miss[2];
	uint64_t tlb_access[2], tlb_walk[2], remote[2];
	uint64_t mispred, not_taken;
	uint64_t total;
	struct sym_count *syms;		/* open addressing on (dso, name) */
	size_t cap, used;
};

int spe_report_new(struct spe_report **out)
{
	struct spe_report *r = calloc(1, sizeof(*r));

	*out = r;
	if (!r)
		return -ENOMEM;
	for (int o = 0; o < SPE_REP_NR_OPS; o++)
		for (int c = 0; c < NR_COUNTERS; c++) {
			r->lat[o][c] = calloc(LAT_BUCKETS, sizeof(uint32_t));
			if (!r->lat[o][c])
				return -ENOMEM;
		}
	r->cap = 1024;
	r->syms = calloc(r->cap, sizeof(*r->syms));
	return r->syms ? 0 : -ENOMEM;
}

void spe_report_free(struct spe_report *r)
{
	if (!r)
		return;
	for (int o = 0; o < SPE_REP_NR_OPS; o++)
		for (int c = 0; c < NR_COUNTERS; c++)
			free(r->lat[o][c]);
	free(r->syms);
	free(r);
}

static size_t sym_slot(const struct sym_count *t, size_t cap, const char *dso, const char *name)
{
	size_t h = (((uintptr_t)dso >> 3) * 31 + ((uintptr_t)name >> 3)) * 2654435761u;

	h &= cap - 1;
	while (t[h].name && (t[h].name != name || t[h].dso != dso))
		h = (h + 1) & (cap - 1);
	return h;
}

static void sym_add(struct spe_report *r, const char *dso, const char *name)
{
	size_t h;

	if ((r->used + 1) * 2 > r->cap) {
		size_t ncap = r->cap * 2;
		struct sym_count *n = calloc(ncap, sizeof(*n));

		if (!n)
			return;	/* keep counting the symbols already known */
		for (size_t i = 0; i < r->cap; i++)
			if (r->syms[i].name)
				n[sym_slot(n, ncap, r->syms[i].dso, r->syms[i].name)] = r->syms[i];
		free(r->syms);
		r->syms = n;
		r->cap = ncap;
	}
	h = sym_slot(r->syms, r->cap, dso, name);
	if (!r->syms[h].name) {
		r->syms[h] = (struct sym_count){ .dso = dso, .name = name };
		r->used++;
	}
	r->syms[h].count++;
}

static enum rep_level level_of(uint64_t v)
{
	union perf_mem_data_src d = { .val = v };

	if (d.mem_remote)
		return LV_REMOTE;
	if (d.mem_snoopx & PERF_MEM_SNOOPX_PEER)
		return LV_PEER;
	switch (d.mem_lvl_num) {
	case PERF_MEM_LVLNUM_L1:
		return LV_L1;
	case PERF_MEM_LVLNUM_L2:
		return LV_L2;
	case PERF_MEM_LVLNUM_L3:
		return LV_L3;
	case PERF_MEM_LVLNUM_RAM:
		return LV_RAM;
	}
	/* No level number: the older level bits. */
	if (d.mem_lvl & PERF_MEM_LVL_L1)
		return LV_L1;
	if (d.mem_lvl & PERF_MEM_LVL_L2)
		return LV_L2;
	if (d.mem_lvl & PERF_MEM_LVL_L3)
		return LV_L3;
	if (d.mem_lvl & (PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2))
		return LV_RAM;
	return LV_NA;
}

void spe_report_add(struct spe_report *r, const struct spe_sample *s, const struct spe_sym *sym)
{
	const struct spe_record *rec = s->qr->rec;
	bool has_op = rec->present & SPE_REC_OP_TYPE;
	enum spe_rep_op op = SPE_REP_OTHER;
	uint64_t ev = (rec->present & SPE_REC_EVENTS) ? rec->events : 0;
	static const uint32_t lat_bit[NR_COUNTERS] = {
		SPE_REC_LAT_TOTAL, SPE_REC_LAT_ISSUE, SPE_REC_LAT_XLAT,
	};
	const uint16_t lat[NR_COUNTERS] = { rec->lat_total, rec->lat_issue, rec->lat_xlat };

	if (has_op && rec->op_class == SPE_OP_CLASS_LDST)
		op = (rec->op_subclass & SPE_OP_LDST_ST) ? SPE_REP_STORE : SPE_REP_LOAD;
	else if (has_op && rec->op_class == SPE_OP_CLASS_BRANCH)
		op = SPE_REP_BRANCH;
	r->total++;
	r->n[op]++;
	for (int c = 0; c < NR_COUNTERS; c++)
		if (rec->present & lat_bit[c]) {
			r->lat[op][c][lat[c]]++;
			r->with_lat[op][c]++;
		}
	if (op == SPE_REP_LOAD || op == SPE_REP_STORE) {
		int k = op == SPE_REP_STORE;

		r->level[k][level_of(s->data_src)]++;
		r->l1d_access[k] += !!(ev & SPE_EV_L1D_ACCESS);
		r->l1d_miss[k] += !!(ev & SPE_EV_L1D_REFILL);
		r->llc_access[k] += !!(ev & SPE_EV_LLC_ACCESS);
		r->llc_miss[k] += !!(ev & SPE_EV_LLC_MISS);
		r->tlb_access[k] += !!(ev & SPE_EV_TLB_ACCESS);
		r->tlb_walk[k] += !!(ev & SPE_EV_TLB_WALK);
		r->remote[k] += !!(ev & SPE_EV_REMOTE_ACCESS);
	} else if (op == SPE_REP_BRANCH) {
		r->mispred += !!(ev & SPE_EV_MISPRED);
		r->not_taken += !!(ev & SPE_EV_NOT_TAKEN);
	}
	if (sym)
		sym_add(r, sym->dso, sym->name);
}

uint64_t spe_report_count(const struct spe_report *r, enum spe_rep_op op)
{
	return r->n[op];
}

unsigned spe_report_percentile(const struct spe_report *r, enum spe_rep_op op,
			       int counter, double pct)
{
	uint64_t n = r->with_lat[op][counter], want, seen = 0;

	if (!n)
		return 0;
	/* Nearest-rank: the smallest value with at least pct% at or below. */
	want = (uint64_t)((pct / 100.0) * (double)n + 0.999999);
	if (want < 1)
		want = 1;
	for (unsigned v = 0; v < LAT_BUCKETS; v++) {
		seen += r->lat[op][counter][v];
		if (seen >= want)
			return v;
	}
	return LAT_BUCKETS - 1;
}

struct out {
	int (*write)(void *ctx, const char *text, size_t len);
	void *ctx;
};

static void pr(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pr(struct out *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0)
		o->write(o->ctx, buf, (size_t)n);
}

static double pctof(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static int cmp_count(const void *a, const void *b)
{
	const struct sym_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

void spe_report_print(const struct spe_report *r, const struct spe_session_stats *st,
		      unsigned top, int (*write)(void *ctx, const char *text, size_t len),
		      void *ctx)
{
	struct out o = { write, ctx };
	struct sym_count *sorted;
	size_t n = 0;

	pr(&o, "# SPE records: %" PRIu64 "  (load %" PRIu64 ", store %" PRIu64
	   ", branch %" PRIu64 ", other %" PRIu64 ")\n", r->total, r->n[SPE_REP_LOAD],
	   r->n[SPE_REP_STORE], r->n[SPE_REP_BRANCH], r->n[SPE_REP_OTHER]);

	pr(&o, "\n## Top symbols by records\n%8s %7s  %-40s %s\n", "records", "share", "symbol", "dso");
	sorted = malloc((r->used ? r->used : 1) * sizeof(*sorted));
	if (sorted) {
		for (size_t i = 0; i < r->cap; i++)
			if (r->syms[i].name)
				sorted[n++] = r->syms[i];
		qsort(sorted, n, sizeof(*sorted), cmp_count);
		for (size_t i = 0; i < n && i < top; i++)
			pr(&o, "%8" PRIu64 " %6.2f%%  %-40s %s\n", sorted[i].count,
			   pctof(sorted[i].count, r->total), sorted[i].name, sorted[i].dso);
		free(sorted);
	}

	pr(&o, "\n## Latency percentiles (cycles)\n%-7s %-11s %9s %6s %6s %6s %6s %6s\n",
	   "op", "counter", "records", "p50", "p90", "p99", "p99.9", "max");
	for (int op = 0; op < SPE_REP_NR_OPS; op++) {
		static const char *const cn[NR_COUNTERS] = { "total", "issue", "translation" };

		for (int c = 0; c < NR_COUNTERS; c++) {
			if (!r->with_lat[op][c])
				continue;
			pr(&o, "%-7s %-11s %9" PRIu64 " %6u %6u %6u %6u %6u\n", op_names[op], cn[c],
			   r->with_lat[op][c], spe_report_percentile(r, op, c, 50),
			   spe_report_percentile(r, op, c, 90), spe_report_percentile(r, op, c, 99),
			   spe_report_percentile(r, op, c, 99.9),
			   spe_report_percentile(r, op, c, 100));
		}
	}

	for (int k = 0; k < 2; k++) {
		uint64_t nn = r->n[k ? SPE_REP_STORE : SPE_REP_LOAD];

		if (!nn)
			continue;
		pr(&o, "\n## %s: data source\n", k ? "Stores" : "Loads");
		for (int l = 0; l < LV_NR; l++)
			if (r->level[k][l])
				pr(&o, "%9" PRIu64 " %6.2f%%  %s\n", r->level[k][l],
				   pctof(r->level[k][l], nn), level_names[l]);
		pr(&o, "## %s: cache and TLB\n", k ? "Stores" : "Loads");
		pr(&o, "  L1D miss  %6.2f%% of L1D accesses (%" PRIu64 "/%" PRIu64 ")\n",
		   pctof(r->l1d_miss[k], r->l1d_access[k]), r->l1d_miss[k], r->l1d_access[k]);
		pr(&o, "  LLC miss  %6.2f%% of LLC accesses (%" PRIu64 "/%" PRIu64 ")\n",
		   pctof(r->llc_miss[k], r->llc_access[k]), r->llc_miss[k], r->llc_access[k]);
		pr(&o, "  TLB walk  %6.2f%% of TLB accesses (%" PRIu64 "/%" PRIu64 ")\n",
		   pctof(r->tlb_walk[k], r->tlb_access[k]), r->tlb_walk[k], r->tlb_access[k]);
		pr(&o, "  remote    %6.2f%% of %s (%" PRIu64 ")\n", pctof(r->remote[k], nn),
		   k ? "stores" : "loads", r->remote[k]);
	}

	if (r->n[SPE_REP_BRANCH])
		pr(&o, "\n## Branches\n  mispredicted %6.2f%% (%" PRIu64 "/%" PRIu64
		   "), not taken %6.2f%%\n", pctof(r->mispred, r->n[SPE_REP_BRANCH]), r->mispred,
		   r->n[SPE_REP_BRANCH], pctof(r->not_taken, r->n[SPE_REP_BRANCH]));

	if (st) {
		pr(&o, "\n## Data\n  AUXTRACE records %" PRIu64 " (%" PRIu64 " bytes), queues %u\n",
		   st->auxtrace_records, st->aux_bytes, st->nr_queues);
		pr(&o, "  AUX records %" PRIu64 ": truncated %" PRIu64 ", partial %" PRIu64
		   ", collision %" PRIu64 ", overwrite %" PRIu64 "\n", st->aux_records, st->truncated,
		   st->partial, st->collision, st->overwrite);
		pr(&o, "  lost events %" PRIu64 " (in %" PRIu64 " LOST records)\n", st->lost_events,
		   st->lost_records);
		pr(&o, "  partial or corrupt SPE records skipped %" PRIu64 ", decode errors %" PRIu64
		   "\n", st->partial_records, st->decode_errors);
	}
}
