// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Report aggregation: what a performance engineer wants first from an SPE
 * profile.  Top symbols by records, latency percentiles per operation class
 * (exact: counters are at most 16 bits, so a histogram per counter), where
 * loads were served from (perf_mem_data_src level), cache and TLB miss rates
 * for loads and stores, branch mispredict rate, and the lost or truncated
 * data.  Memory is fixed apart from one entry per distinct symbol.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_decode.h"
#include "spe_session.h"
#include "spe_sample_synth.h"
#include "spe_symbols.h"
#include "spe_report.h"
#include "data_source_key.h"
#include "sink_printf.h"

#define LAT_BUCKETS	65536
/*
 * The histograms lie LAT_STRIDE counts apart, not LAT_BUCKETS: 256 KiB
 * apart, the low counts of all twelve (where most latencies fall) shared
 * the same few sets of the L1 cache and evicted each other.  An odd
 * number of cache lines more spreads them over the sets.
 */
#define LAT_STRIDE	(LAT_BUCKETS + 16 * 17)
#define NR_COUNTERS	3
#define LAT_BLOCK_BYTES	((size_t)SPE_REP_NR_OPS * NR_COUNTERS * LAT_STRIDE * sizeof(uint32_t))

/*
 * Where a load or store was served from, labelled as perf mem labels it
 * ("Memory access": level, then hit or miss, "Remote " first), so the
 * counts can be read beside perf mem report's.  perf 6.1 also prints the
 * older level bits before the level number ("L1 or L1 hit"); the level
 * number alone is what newer perf prints and what is kept here.
 */
#define LABEL_LEN	48
#define MAX_LABELS	24
/*
 * A recording has only a handful of distinct data_src values, but the
 * label is text: formatting and comparing it per record cost more than all
 * the rest of the aggregation.  A small direct-mapped cache per access kind
 * maps a data_src value to its label's slot.
 */
#define LEVEL_CACHE	64

struct level_cache {
	uint64_t data_src;
	uint8_t slot;
	bool valid;
};

/*
 * From a record, straight: a direct-mapped cache from what its level
 * depends on (spe_ds_level_key(), which says load or store) to its
 * label's slot and whether a peer cache served it, so that a record
 * counted before costs neither the data source's synthesis nor its label.
 */
#define SRC_CACHE	256

struct src_cache {
	uint64_t key;			/* 0: empty */
	uint8_t slot;
	bool peer;
};

/*
 * The events a load or store is counted by (L1D access and refill, TLB
 * access and walk, LLC access and miss, remote: bits 2-5 and 8-10), packed
 * into 7 bits: one count per combination, not seven sums per record.
 */
#define EV_IDX(ev)	((unsigned)(((ev) >> 2) & 0xf) | (unsigned)(((ev) >> 4) & 0x70))
#define EV_COMBOS	128

struct lvl_count {
	char label[LABEL_LEN];
	uint64_t n;
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
	/*
	 * Histograms, in one anonymous mapping: zero pages until counted in,
	 * so that a report costs little until used, however many a split
	 * decode makes.  lat_hi: the highest value counted.
	 */
	uint32_t *lat[SPE_REP_NR_OPS][NR_COUNTERS];
	uint32_t *lat_block;
	uint16_t lat_hi[SPE_REP_NR_OPS][NR_COUNTERS];
	/* Records of each op by which latency counters they carry (bit c:
	 * counter c): their number and each counter's, one count a record. */
	uint64_t by_lat[SPE_REP_NR_OPS][1 << NR_COUNTERS];
	struct lvl_count level[2][MAX_LABELS];	/* [load/store][label] */
	unsigned nr_levels[2];
	struct level_cache level_cache[2][LEVEL_CACHE];
	struct src_cache src_cache[SRC_CACHE];
	uint64_t peer[2];		/* snooped from a peer cache */
	uint64_t ldst_ev[2][EV_COMBOS];	/* [load/store][EV_IDX(events)] */
	uint64_t br_ev[4];		/* branches by not taken (bit 0), mispredicted (bit 1) */
	struct sym_count *syms;		/* open addressing on (dso, name) */
	size_t cap, used;
	size_t last;			/* slot counted last: samples come in runs */
};

int spe_report_new(struct spe_report **out)
{
	struct spe_report *r = calloc(1, sizeof(*r));

	*out = r;
	if (!r)
		return SPE_ERR_NOMEM;
	r->lat_block = mmap(NULL, LAT_BLOCK_BYTES, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r->lat_block == MAP_FAILED) {
		r->lat_block = NULL;
		return SPE_ERR_NOMEM;
	}
	for (int o = 0; o < SPE_REP_NR_OPS; o++)
		for (int c = 0; c < NR_COUNTERS; c++)
			r->lat[o][c] = r->lat_block + (o * NR_COUNTERS + c) * LAT_STRIDE;
	r->cap = 1024;
	r->syms = calloc(r->cap, sizeof(*r->syms));
	return r->syms ? 0 : SPE_ERR_NOMEM;
}

void spe_report_free(struct spe_report *r)
{
	if (!r)
		return;
	if (r->lat_block)
		munmap(r->lat_block, LAT_BLOCK_BYTES);
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

/* Room for want symbols at half load at most; SPE_ERR_NOMEM without. */
static int sym_reserve(struct spe_report *r, size_t want)
{
	size_t ncap = r->cap;
	struct sym_count *n;

	while (want * 2 > ncap)
		ncap *= 2;
	if (ncap == r->cap)
		return 0;
	n = calloc(ncap, sizeof(*n));
	if (!n)
		return SPE_ERR_NOMEM;
	for (size_t i = 0; i < r->cap; i++)
		if (r->syms[i].name)
			n[sym_slot(n, ncap, r->syms[i].dso, r->syms[i].name)] = r->syms[i];
	free(r->syms);
	r->syms = n;
	r->cap = ncap;
	return 0;
}

static __attribute__((noinline)) void sym_add_new(struct spe_report *r, const char *dso,
						  const char *name, uint64_t n);

/* Inline: samples come in runs of a symbol, nearly always the last one. */
static inline void sym_add_n(struct spe_report *r, const char *dso, const char *name, uint64_t n)
{
	struct sym_count *last = &r->syms[r->last];

	/* Entries are unique: a slot holding this symbol is its entry, even
	 * after the table grew under r->last. */
	if (last->name == name && last->dso == dso)
		last->count += n;
	else
		sym_add_new(r, dso, name, n);
}

/* A symbol other than the last one's: found, or added. */
static void sym_add_new(struct spe_report *r, const char *dso, const char *name, uint64_t n)
{
	size_t h;

	/* Without memory to grow, keep counting in the table as it is
	 * while it has room. */
	if ((r->used + 1) * 2 > r->cap && sym_reserve(r, r->used + 1) && r->used + 1 >= r->cap)
		return;
	h = sym_slot(r->syms, r->cap, dso, name);
	if (!r->syms[h].name) {
		r->syms[h] = (struct sym_count){ .dso = dso, .name = name };
		r->used++;
	}
	r->syms[h].count += n;
	r->last = h;
}

/* perf_mem_data_src level -> perf mem's "Memory access" label. */
static void level_label(uint64_t v, char *out, size_t size)
{
	static const char *const lvlnum[16] = {
		[PERF_MEM_LVLNUM_L1] = "L1", [PERF_MEM_LVLNUM_L2] = "L2",
		[PERF_MEM_LVLNUM_L3] = "L3", [PERF_MEM_LVLNUM_L4] = "L4",
		[0x9] = "CXL", [0xa] = "I/O",
		[PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache", [PERF_MEM_LVLNUM_LFB] = "LFB/MAB",
		[PERF_MEM_LVLNUM_RAM] = "RAM", [PERF_MEM_LVLNUM_PMEM] = "PMEM",
	};
	/* mem_lvl bits from PERF_MEM_LVL_L1 (bit 3) up */
	static const char *const lvl[] = {
		"L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
		"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)",
		"I/O", "Uncached",
	};
	union perf_mem_data_src d = { .val = v };
	size_t n = 0;

	out[0] = '\0';
	if (d.mem_remote)
		n += (size_t)snprintf(out + n, size - n, "Remote ");
	if (d.mem_lvl_num && d.mem_lvl_num != PERF_MEM_LVLNUM_NA) {
		if (lvlnum[d.mem_lvl_num])
			n += (size_t)snprintf(out + n, size - n, "%s", lvlnum[d.mem_lvl_num]);
		else
			n += (size_t)snprintf(out + n, size - n, "L%u", d.mem_lvl_num);
	} else {
		uint64_t bits = d.mem_lvl >> 3;
		bool any = false;

		for (size_t i = 0; bits && i < sizeof(lvl) / sizeof(lvl[0]) && n < size;
		     i++, bits >>= 1) {
			if (!(bits & 1))
				continue;
			n += (size_t)snprintf(out + n, size - n, "%s%s", any ? " or " : "", lvl[i]);
			any = true;
		}
		if (!any)
			n += (size_t)snprintf(out + n, size - n, "N/A");
	}
	if (n < size && (d.mem_lvl & PERF_MEM_LVL_HIT))
		n += (size_t)snprintf(out + n, size - n, " hit");
	if (n < size && (d.mem_lvl & PERF_MEM_LVL_MISS))
		snprintf(out + n, size - n, " miss");
}

/* The slot of label in r's kind k, a new one (or "other") if it has none. */
static unsigned level_slot(struct spe_report *r, int k, const char *label)
{
	unsigned i;

	for (i = 0; i < r->nr_levels[k]; i++)
		if (!strcmp(r->level[k][i].label, label))
			return i;
	if (i < MAX_LABELS - 1) {
		snprintf(r->level[k][i].label, LABEL_LEN, "%s", label);
		r->nr_levels[k]++;
		return i;
	}
	/* More kinds than perf defines: the last slot counts the rest. */
	i = MAX_LABELS - 1;
	if (r->nr_levels[k] == i) {
		snprintf(r->level[k][i].label, LABEL_LEN, "other");
		r->nr_levels[k]++;
	}
	return i;
}

/* A data_src not in the cache: its label's slot, found and cached. */
static __attribute__((noinline)) void level_add_new(struct spe_report *r, int k,
						   struct level_cache *lc, uint64_t data_src)
{
	char label[LABEL_LEN];
	unsigned i;

	level_label(data_src, label, sizeof(label));
	i = level_slot(r, k, label);
	r->level[k][i].n++;
	*lc = (struct level_cache){ .data_src = data_src, .slot = (uint8_t)i, .valid = true };
}

/* Inline: every load and store comes here, nearly always to a hit. */
static inline void level_add(struct spe_report *r, int k, uint64_t data_src)
{
	struct level_cache *lc = &r->level_cache[k][(data_src * 0x9e3779b97f4a7c15ull) >> 58];

	if (lc->valid && lc->data_src == data_src)
		r->level[k][lc->slot].n++;
	else
		level_add_new(r, k, lc, data_src);
}

/*
 * A record's level from the record (spe_report_add_record()): its cache
 * entry, or its data source synthesised, labelled and cached.
 */
static __attribute__((noinline)) void src_add_new(struct spe_report *r, int k,
						 struct src_cache *sc, uint64_t key,
						 const struct spe_qrecord *qr)
{
	union perf_mem_data_src d = { .val = spe_synth_data_src(qr) };
	struct level_cache *lc = &r->level_cache[k][(d.val * 0x9e3779b97f4a7c15ull) >> 58];

	level_add(r, k, d.val);
	*sc = (struct src_cache){ .key = key, .slot = lc->slot,
				  .peer = !!(d.mem_snoopx & PERF_MEM_SNOOPX_PEER) };
	r->peer[k] += sc->peer;
}

static inline void src_add(struct spe_report *r, int k, const struct spe_qrecord *qr,
			   uint64_t ev)
{
	const struct spe_record *rec = qr->rec;
	uint64_t key = spe_ds_level_key(qr->ds_table, k, rec->present & SPE_REC_DATA_SOURCE,
					rec->data_source, ev);
	struct src_cache *sc = &r->src_cache[(key * 0x9e3779b97f4a7c15ull) >> 56];

	if (sc->key == key) {
		r->level[k][sc->slot].n++;
		r->peer[k] += sc->peer;
	} else {
		src_add_new(r, k, sc, key, qr);
	}
}

/* The records of op (every op: SPE_REP_NR_OPS). */
static uint64_t op_count(const struct spe_report *r, int op)
{
	uint64_t n = 0;

	for (int o = op < SPE_REP_NR_OPS ? op : 0; o < SPE_REP_NR_OPS; o++) {
		for (unsigned i = 0; i < 1 << NR_COUNTERS; i++)
			n += r->by_lat[o][i];
		if (op < SPE_REP_NR_OPS)
			break;
	}
	return n;
}

/* The records of op with counter c. */
static uint64_t with_lat(const struct spe_report *r, int op, int c)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < 1 << NR_COUNTERS; i++)
		if (i >> c & 1)
			n += r->by_lat[op][i];
	return n;
}

/* Counter c's value v of a record of op. */
static inline void lat_add(struct spe_report *r, enum spe_rep_op op, int c, uint16_t v)
{
	r->lat[op][c][v]++;
	if (v > r->lat_hi[op][c])
		r->lat_hi[op][c] = v;
}

/* The present bits of the three counters, in counter order: by_lat's index. */
_Static_assert(SPE_REC_LAT_ISSUE == SPE_REC_LAT_TOTAL << 1 &&
	       SPE_REC_LAT_XLAT == SPE_REC_LAT_TOTAL << 2, "latency present bits side by side");

/*
 * One record: its data_src is given, or with @qr, found from the record
 * (spe_synth_data_src()) when it is a load or store, the only records
 * that use it.
 */
static inline __attribute__((always_inline)) void
report_add(struct spe_report *r, const struct spe_record *rec, const struct spe_qrecord *qr,
	   uint64_t data_src, const struct spe_sym *sym)
{
	bool has_op = rec->present & SPE_REC_OP_TYPE;
	enum spe_rep_op op = SPE_REP_OTHER;
	uint64_t ev = (rec->present & SPE_REC_EVENTS) ? rec->events : 0;
	unsigned lats;

	if (has_op && rec->op_class == SPE_OP_CLASS_LDST)
		op = (rec->op_subclass & SPE_OP_LDST_ST) ? SPE_REP_STORE : SPE_REP_LOAD;
	else if (has_op && rec->op_class == SPE_OP_CLASS_BRANCH)
		op = SPE_REP_BRANCH;
	lats = (rec->present / SPE_REC_LAT_TOTAL) & 7;
	r->by_lat[op][lats]++;
	if (lats & 1)
		lat_add(r, op, 0, rec->lat_total);
	if (lats & 2)
		lat_add(r, op, 1, rec->lat_issue);
	if (lats & 4)
		lat_add(r, op, 2, rec->lat_xlat);
	if (op == SPE_REP_LOAD || op == SPE_REP_STORE) {
		int k = op == SPE_REP_STORE;

		if (qr) {
			src_add(r, k, qr, ev);
		} else {
			union perf_mem_data_src d = { .val = data_src };

			level_add(r, k, data_src);
			r->peer[k] += !!(d.mem_snoopx & PERF_MEM_SNOOPX_PEER);
		}
		r->ldst_ev[k][EV_IDX(ev)]++;
	} else if (op == SPE_REP_BRANCH) {
		r->br_ev[(ev >> 6) & 3]++;
	}
	if (sym)
		sym_add_n(r, sym->dso, sym->name, 1);
}

void spe_report_add(struct spe_report *r, const struct spe_sample *s, const struct spe_sym *sym)
{
	report_add(r, s->qr->rec, NULL, s->data_src, sym);
}

void spe_report_add_record(struct spe_report *r, const struct spe_qrecord *qr,
			   const struct spe_sym *sym)
{
	report_add(r, qr->rec, qr, 0, sym);
}

int spe_report_feed_record(void *ctx, const struct spe_qrecord *qr)
{
	const struct spe_report_feed *f = ctx;
	const struct spe_record *rec = qr->rec;
	struct spe_sym sym;

	spe_symbols_lookup(f->syms, qr->pid, (rec->present & SPE_REC_PC) ? rec->pc.addr : 0,
			   spe_synth_cpumode(rec), &sym);
	report_add(f->r, rec, qr, 0, &sym);
	return 0;
}

int spe_report_merge(struct spe_report *dst, const struct spe_report *src)
{
	/* The one step that can fail comes first: dst is whole or unchanged. */
	if (sym_reserve(dst, dst->used + src->used))
		return SPE_ERR_NOMEM;
	for (int o = 0; o < SPE_REP_NR_OPS; o++) {
		for (unsigned i = 0; i < 1 << NR_COUNTERS; i++)
			dst->by_lat[o][i] += src->by_lat[o][i];
		for (int c = 0; c < NR_COUNTERS; c++) {
			bool any = with_lat(src, o, c);

			for (unsigned v = 0; any && v <= src->lat_hi[o][c]; v++)
				dst->lat[o][c][v] += src->lat[o][c][v];
			if (src->lat_hi[o][c] > dst->lat_hi[o][c])
				dst->lat_hi[o][c] = src->lat_hi[o][c];
		}
	}
	for (int k = 0; k < 2; k++) {
		for (unsigned i = 0; i < src->nr_levels[k]; i++)
			dst->level[k][level_slot(dst, k, src->level[k][i].label)].n +=
				src->level[k][i].n;
		dst->peer[k] += src->peer[k];
		for (unsigned i = 0; i < EV_COMBOS; i++)
			dst->ldst_ev[k][i] += src->ldst_ev[k][i];
	}
	for (unsigned i = 0; i < 4; i++)
		dst->br_ev[i] += src->br_ev[i];
	for (size_t i = 0; i < src->cap; i++)
		if (src->syms[i].name)
			sym_add_n(dst, src->syms[i].dso, src->syms[i].name, src->syms[i].count);
	return 0;
}

uint64_t spe_report_count(const struct spe_report *r, enum spe_rep_op op)
{
	return op_count(r, op);
}

unsigned spe_report_percentile(const struct spe_report *r, enum spe_rep_op op,
			       int counter, double pct)
{
	uint64_t n = with_lat(r, op, counter), want, seen = 0;

	if (!n)
		return 0;
	/* Nearest-rank: the smallest value with at least pct% at or below. */
	want = (uint64_t)((pct / 100.0) * (double)n + 0.999999);
	if (want < 1)
		want = 1;
	for (unsigned v = 0; v < r->lat_hi[op][counter]; v++) {
		seen += r->lat[op][counter][v];
		if (seen >= want)
			return v;
	}
	return r->lat_hi[op][counter];
}

/* The loads (k 0) or stores (k 1) with event ev (one SPE_EV_* bit). */
static uint64_t ldst_with(const struct spe_report *r, int k, uint64_t ev)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < EV_COMBOS; i++)
		if (i & EV_IDX(ev))
			n += r->ldst_ev[k][i];
	return n;
}

static double pctof(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static int cmp_count(const void *a, const void *b)
{
	const struct sym_count *x = a, *y = b;

	int c;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	/* Equal counts: by name, then by DSO (one name in two DSOs), so
	 * the order never depends on the hash table's. */
	c = strcmp(x->name, y->name);
	if (c || x->dso == y->dso)
		return c;
	return !x->dso ? -1 : !y->dso ? 1 : strcmp(x->dso, y->dso);
}

static int cmp_text(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

/* By name, then DSO: equal texts side by side. */
static int cmp_sym_text(const void *a, const void *b)
{
	const struct sym_count *x = a, *y = b;
	int c = cmp_text(x->name, y->name);

	return c ? c : cmp_text(x->dso, y->dso);
}

/*
 * One row per symbol name and DSO as printed: the table is keyed by the
 * symbol layer's pointers, and reports merged from several sessions
 * (spe_report_merge()) hold each symbol once per session.
 */
static size_t merge_equal_text(struct sym_count *v, size_t n)
{
	size_t out = 0;

	qsort(v, n, sizeof(*v), cmp_sym_text);
	for (size_t i = 0; i < n; i++) {
		if (out && !cmp_sym_text(&v[out - 1], &v[i]))
			v[out - 1].count += v[i].count;
		else
			v[out++] = v[i];
	}
	return out;
}

static int cmp_level(const void *a, const void *b)
{
	const struct lvl_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->label, y->label);
}

void spe_report_print(const struct spe_report *r, const struct spe_session_stats *st,
		      unsigned top, int (*write)(void *ctx, const char *text, size_t len),
		      void *ctx)
{
	struct spe_sink o = { write, ctx, 0 };
	struct lvl_count lv[MAX_LABELS];
	struct sym_count *sorted;
	uint64_t total = op_count(r, SPE_REP_NR_OPS), nr[SPE_REP_NR_OPS];
	size_t n = 0;

	for (int op = 0; op < SPE_REP_NR_OPS; op++)
		nr[op] = op_count(r, op);

	spe_sink_printf(&o, "# SPE records: %" PRIu64 "  (load %" PRIu64 ", store %" PRIu64
	   ", branch %" PRIu64 ", other %" PRIu64 ")\n", total, nr[SPE_REP_LOAD],
	   nr[SPE_REP_STORE], nr[SPE_REP_BRANCH], nr[SPE_REP_OTHER]);

	spe_sink_printf(&o, "\n## Top symbols by records\n%8s %7s  %-40s %s\n", "records", "share", "symbol", "dso");
	sorted = malloc((r->used ? r->used : 1) * sizeof(*sorted));
	if (sorted) {
		for (size_t i = 0; i < r->cap; i++)
			if (r->syms[i].name)
				sorted[n++] = r->syms[i];
		n = merge_equal_text(sorted, n);
		qsort(sorted, n, sizeof(*sorted), cmp_count);
		for (size_t i = 0; i < n && i < top; i++)
			spe_sink_printf(&o, "%8" PRIu64 " %6.2f%%  %-40s %s\n", sorted[i].count,
			   pctof(sorted[i].count, total), sorted[i].name, sorted[i].dso);
		free(sorted);
	}

	spe_sink_printf(&o, "\n## Latency percentiles (cycles)\n%-7s %-11s %9s %6s %6s %6s %6s %6s\n",
	   "op", "counter", "records", "p50", "p90", "p99", "p99.9", "max");
	for (int op = 0; op < SPE_REP_NR_OPS; op++) {
		static const char *const cn[NR_COUNTERS] = { "total", "issue", "translation" };

		for (int c = 0; c < NR_COUNTERS; c++) {
			uint64_t nc = with_lat(r, op, c);

			if (!nc)
				continue;
			spe_sink_printf(&o, "%-7s %-11s %9" PRIu64 " %6u %6u %6u %6u %6u\n", op_names[op], cn[c],
			   nc, spe_report_percentile(r, op, c, 50),
			   spe_report_percentile(r, op, c, 90), spe_report_percentile(r, op, c, 99),
			   spe_report_percentile(r, op, c, 99.9),
			   spe_report_percentile(r, op, c, 100));
		}
	}

	for (int k = 0; k < 2; k++) {
		uint64_t nn = nr[k ? SPE_REP_STORE : SPE_REP_LOAD];
		uint64_t l1d_access, l1d_miss, llc_access, llc_miss, tlb_access, tlb_walk, remote;

		if (!nn)
			continue;
		spe_sink_printf(&o, "\n## %s: data source (perf mem's \"Memory access\")\n",
		   k ? "Stores" : "Loads");
		memcpy(lv, r->level[k], r->nr_levels[k] * sizeof(lv[0]));
		qsort(lv, r->nr_levels[k], sizeof(lv[0]), cmp_level);
		for (unsigned l = 0; l < r->nr_levels[k]; l++)
			spe_sink_printf(&o, "%9" PRIu64 " %6.2f%%  %s\n", lv[l].n, pctof(lv[l].n, nn),
			   lv[l].label);
		if (r->peer[k])
			spe_sink_printf(&o, "%9" PRIu64 " %6.2f%%  of them from a peer cache (snoop Peer)\n",
			   r->peer[k], pctof(r->peer[k], nn));
		l1d_access = ldst_with(r, k, SPE_EV_L1D_ACCESS);
		l1d_miss = ldst_with(r, k, SPE_EV_L1D_REFILL);
		llc_access = ldst_with(r, k, SPE_EV_LLC_ACCESS);
		llc_miss = ldst_with(r, k, SPE_EV_LLC_MISS);
		tlb_access = ldst_with(r, k, SPE_EV_TLB_ACCESS);
		tlb_walk = ldst_with(r, k, SPE_EV_TLB_WALK);
		remote = ldst_with(r, k, SPE_EV_REMOTE_ACCESS);
		spe_sink_printf(&o, "## %s: cache and TLB\n", k ? "Stores" : "Loads");
		spe_sink_printf(&o, "  L1D miss  %6.2f%% of L1D accesses (%" PRIu64 "/%" PRIu64 ")\n",
		   pctof(l1d_miss, l1d_access), l1d_miss, l1d_access);
		spe_sink_printf(&o, "  LLC miss  %6.2f%% of LLC accesses (%" PRIu64 "/%" PRIu64 ")\n",
		   pctof(llc_miss, llc_access), llc_miss, llc_access);
		spe_sink_printf(&o, "  TLB walk  %6.2f%% of TLB accesses (%" PRIu64 "/%" PRIu64 ")\n",
		   pctof(tlb_walk, tlb_access), tlb_walk, tlb_access);
		spe_sink_printf(&o, "  remote    %6.2f%% of %s (%" PRIu64 ")\n", pctof(remote, nn),
		   k ? "stores" : "loads", remote);
	}

	if (nr[SPE_REP_BRANCH]) {
		uint64_t mispred = r->br_ev[2] + r->br_ev[3], not_taken = r->br_ev[1] + r->br_ev[3];

		spe_sink_printf(&o, "\n## Branches\n  mispredicted %6.2f%% (%" PRIu64 "/%" PRIu64
		   "), not taken %6.2f%%\n", pctof(mispred, nr[SPE_REP_BRANCH]), mispred,
		   nr[SPE_REP_BRANCH], pctof(not_taken, nr[SPE_REP_BRANCH]));
	}

	if (st) {
		spe_sink_printf(&o, "\n## Data\n  AUXTRACE records %" PRIu64 " (%" PRIu64 " bytes), queues %u\n",
		   st->auxtrace_records, st->aux_bytes, st->nr_queues);
		spe_sink_printf(&o, "  AUX records %" PRIu64 ": truncated %" PRIu64 ", partial %" PRIu64
		   ", collision %" PRIu64 ", overwrite %" PRIu64 "\n", st->aux_records, st->truncated,
		   st->partial, st->collision, st->overwrite);
		spe_sink_printf(&o, "  lost events %" PRIu64 " (in %" PRIu64 " LOST records)\n", st->lost_events,
		   st->lost_records);
		spe_sink_printf(&o, "  partial or corrupt SPE records skipped %" PRIu64 ", decode errors %" PRIu64
		   "\n", st->partial_records, st->decode_errors);
	}
}
