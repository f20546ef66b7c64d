// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Cost tables: records grouped by perf's sort keys (sym, dso, srcline,
 * symbol_daddr, data_src, op, cpu, pid, comm), each row with its samples,
 * latency (total, issue, translation: sums, means, exact p50/p90/p99 of
 * the total), and its share of the L1D and LLC misses, TLB walks, remote
 * accesses and branch mispredicts.
 *
 * A row's key is the joined text of its key values, so any combination of
 * keys groups the same way.  Percentiles are exact: a row keeps its total
 * latencies as the sorted list of the distinct values with their counts,
 * one 32-bit word each (value << 16 | count; a count that would pass
 * 65535 starts another word of the same value, see latency_counts.h), so
 * a row costs 4 bytes per distinct latency (at most 65536 of them),
 * usually a few dozen bytes; a row of many values close together keeps a
 * histogram instead, within four times that.  Tables of parts of the
 * records (sessions side by side) merge into the table of all of them
 * (spe_cost_merge()): rows are found by key text and sorted by value and
 * key, never by the order they came in.  Saturated counters (4095 or 65535, see
 * spe_views.h) are counted apart and left out of sums and means; a
 * percentile that falls on one is reported as saturated.
 *
 * Memory grows with the rows, not with the records: rows (152 bytes, and
 * with sym, symbol_daddr, cpu or pid keys 8 more and 8 per such key: the
 * numbers perf's order compares, see struct row) live in blocks that
 * never move (no doubling copy), their keys in a string arena
 * (keyed_rows.h), and the printer builds one row's view at a time.
 * The rows are bounded by what has a name: an address without a symbol
 * (sym, symbol_daddr) is counted in its 4 KiB page unless the table is
 * told otherwise (spe_view_unresolved_page()), or code without symbols
 * would make a row per instruction, 236 bytes each (by sym) with its
 * key and the index.
 *
 * Building a key's text per record was most of the time per record, so a
 * small direct-mapped cache maps what the text is made of (the symbol
 * name's address and the cpumode, the ip, the data_src value...) to its
 * row first.  Names from the symbol layer and source lines keep their
 * address and text for the table's life; a comm does not (a COMM record
 * rewrites it in place), so tables keyed by pid or comm go without.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "latency_counts.h"
#include "latency_sum.h"
#include "key_text.h"
#include "keyed_rows.h"
#include "spe/packet.h"
#include "spe_data_source.h"
#include "spe_decode.h"
#include "spe_views.h"
#include "sink_printf.h"

/*
 * perf's memory-mode sort keys (perf-report.txt: mem, snoop, tlb,
 * local_weight), past the public keys: the text of the data_src field
 * perf script prints for each (spe_data_src_describe()'s LVL, SNP and
 * TLB parts), and the sample's weight (its total latency).  As perf's,
 * mem, snoop and tlb rows are one per value of a part of data_src only
 * (mem_lvl, mem_snoop, mem_dtlb: perf 6.1's sort__lvl_cmp() and the
 * others), each named by the first sample of the row: a remote load
 * whose mem_lvl is a local one's is in its row and name (see
 * mem_part()).  Not in enum
 * spe_cost_key, whose SPE_KEY_NR sizes struct spe_cost_row_view's key[]
 * in the ABI: a table still uses at most SPE_KEY_NR keys at once.
 */
enum {
	KEY_MEM = SPE_KEY_NR, KEY_SNOOP, KEY_TLB, KEY_LOCAL_WEIGHT,
	NR_KEYS
};

static const char *const key_names[NR_KEYS] = {
	[SPE_KEY_SYM] = "sym", [SPE_KEY_DSO] = "dso", [SPE_KEY_SRCLINE] = "srcline",
	[SPE_KEY_SYMBOL_DADDR] = "symbol_daddr", [SPE_KEY_DATA_SRC] = "data_src",
	[SPE_KEY_OP] = "op", [SPE_KEY_CPU] = "cpu", [SPE_KEY_PID] = "pid",
	[SPE_KEY_COMM] = "comm", [KEY_MEM] = "mem", [KEY_SNOOP] = "snoop", [KEY_TLB] = "tlb",
	[KEY_LOCAL_WEIGHT] = "local_weight",
};

static const char *const col_names[SPE_COL_NR] = {
	[SPE_COL_SAMPLES] = "samples", [SPE_COL_LAT] = "latency", [SPE_COL_MEAN] = "mean",
	[SPE_COL_P50] = "p50", [SPE_COL_P90] = "p90", [SPE_COL_P99] = "p99",
	[SPE_COL_ISSUE] = "issue", [SPE_COL_XLAT] = "xlat", [SPE_COL_SAT] = "sat",
	[SPE_COL_L1D_MISS] = "l1d-miss", [SPE_COL_LLC_MISS] = "llc-miss",
	[SPE_COL_TLB_WALK] = "tlb-walk", [SPE_COL_REMOTE] = "remote",
	[SPE_COL_MISPRED] = "mispred",
};

static const char *const op_names[SPE_REP_NR_OPS] = {
	[SPE_REP_LOAD] = "load", [SPE_REP_STORE] = "store",
	[SPE_REP_BRANCH] = "branch", [SPE_REP_OTHER] = "other",
};

struct row {
	const char *key;		/* key values joined by '\x1f', in the arena */
	struct spe_lat_sum lat3[3];	/* total, issue, translation */
	uint64_t samples;
	struct spe_lat_counts lat;	/* total latencies */
	uint32_t l1d_miss, llc_miss, tlb_walk, remote, mispred, branches;
	/*
	 * The numbers perf's order compares (perf_tie_cmp()), kept as the
	 * row is made: a key's text cannot tell them apart from a name that
	 * looks like one ("0x" in a path).  Only in tables with keys that
	 * can be numbers (t->nnum of them: sym, symbol_daddr, cpu, pid),
	 * whose rows are that much longer.  Bit i of is_num: key i is the
	 * number num[t->num_slot[i]], not a name.
	 */
	uint64_t is_num;
	int64_t num[];
};

struct spe_cost_table {
	int keys[SPE_KEY_NR];		/* enum spe_cost_key, or KEY_* above */
	unsigned nkeys;
	bool uses[NR_KEYS];
	struct spe_keyed_rows rows;	/* struct row, by key text */
	/* Key i's slot in a row's num[] (-1: the key is always a name). */
	int8_t num_slot[SPE_KEY_NR];
	unsigned nnum;
	enum spe_view_unresolved unresolved;
	bool wide;			/* a latency above 4095 was seen: 16-bit counters */
	/* The name of each mem/snoop/tlb row so far: its first sample's. */
	struct {
		int key;
		uint64_t bits;
		char text[64];
	} mem_names[64];
	unsigned nr_mem_names;
	/* The data_src key's text of recent values: printing it was a third
	 * of the time per record, and a recording has few distinct ones. */
	struct {
		uint64_t value;
		bool used;
		char text[48];
	} ds_text[64];
	/* The cache of rows by raw key: raw_slots entries of row + 1 and
	 * the key's 2 * nkeys words; NULL when the keys do not allow it. */
	uint64_t *raw;
	size_t raw_slots;
	unsigned raw_words;
};

/*
 * The raw-key cache starts small and grows with the rows, to twice as
 * many slots as rows (then most keys keep a slot of their own): a
 * recording of code without symbols has a row per ip by address (93,000
 * in the benchmark's; 17,000 pages by page), and with the first 4096 slots nearly every record built
 * its key's text.  It stops growing at RAW_BYTES_MAX: tables of that many
 * rows are large already, and the rows, not the cache, must have the
 * memory.
 */
#define RAW_SLOTS_MIN	4096u
#define RAW_BYTES_MAX	(2u << 20)

static struct row *row_at(const struct spe_cost_table *t, size_t i)
{
	return spe_keyed_rows_at(&t->rows, i);
}

int spe_cost_col_by_name(const char *name)
{
	/* perf's name for the share of samples */
	if (!strcmp(name, "overhead"))
		return SPE_COL_SAMPLES;
	for (int c = 0; c < SPE_COL_NR; c++)
		if (!strcmp(name, col_names[c]))
			return c;
	return -1;
}

const char *spe_cost_col_name(enum spe_cost_col c)
{
	return col_names[c];
}

/* Keys whose value perf compares as a number: an address without a
 * symbol (sym, symbol_daddr), a cpu, a pid. */
static bool key_may_be_number(int k)
{
	return k == SPE_KEY_SYM || k == SPE_KEY_SYMBOL_DADDR || k == SPE_KEY_CPU ||
	       k == SPE_KEY_PID || k == KEY_LOCAL_WEIGHT;
}

int spe_cost_new(struct spe_cost_table **out, const char *keys, char *why, size_t whylen)
{
	struct spe_cost_table *t = calloc(1, sizeof(*t));
	const char *p = keys;
	bool overhead = false;

	*out = t;
	if (!t)
		return SPE_ERR_NOMEM;
	while (*p) {
		size_t len = strcspn(p, ",");
		int k;

		for (k = 0; k < NR_KEYS; k++)
			if (strlen(key_names[k]) == len && !strncmp(p, key_names[k], len))
				break;
		/* perf's long name of sym (perf-report.txt, --sort) */
		if (len == 6 && !strncmp(p, "symbol", 6))
			k = SPE_KEY_SYM;
		/* perf's overhead "key" is its column, which every table has:
		 * it groups nothing (alone: one row of every sample). */
		if (len == 8 && !strncmp(p, "overhead", 8)) {
			overhead = true;
			p += len + (p[len] == ',');
			continue;
		}
		if (k == NR_KEYS || t->uses[k]) {
			snprintf(why, whylen, "%s sort key '%.*s' (keys: sym, dso, srcline, "
				 "symbol_daddr, data_src, op, cpu, pid, comm, mem, snoop, tlb, "
				 "local_weight)",
				 k == NR_KEYS ? "unknown" : "repeated", (int)len, p);
			return SPE_ERR_INVAL;
		}
		if (t->nkeys == SPE_KEY_NR) {
			snprintf(why, whylen, "more than %d sort keys", SPE_KEY_NR);
			return SPE_ERR_INVAL;
		}
		t->keys[t->nkeys++] = k;
		t->uses[k] = true;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!t->nkeys && !overhead) {
		snprintf(why, whylen, "no sort key");
		return SPE_ERR_INVAL;
	}
	for (unsigned i = 0; i < t->nkeys; i++)
		t->num_slot[i] = key_may_be_number(t->keys[i]) ? (int8_t)t->nnum++ : -1;
	if (spe_keyed_rows_init(&t->rows, t->nnum ? offsetof(struct row, num) +
				t->nnum * sizeof(int64_t) : offsetof(struct row, is_num)))
		return SPE_ERR_NOMEM;
	if (!t->uses[SPE_KEY_PID] && !t->uses[SPE_KEY_COMM]) {
		t->raw_words = 2 * t->nkeys;
		/* Without memory for it the table works, only slower. */
		t->raw = calloc((size_t)RAW_SLOTS_MIN * (1 + t->raw_words), sizeof(uint64_t));
		t->raw_slots = t->raw ? RAW_SLOTS_MIN : 0;
	}
	return 0;
}

void spe_cost_free(struct spe_cost_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->rows.used; i++)
		spe_lat_counts_free(&row_at(t, i)->lat);
	spe_keyed_rows_free(&t->rows);
	free(t->raw);
	free(t);
}

void spe_cost_set_unresolved(struct spe_cost_table *t, enum spe_view_unresolved u)
{
	t->unresolved = u;
}

bool spe_cost_uses(const struct spe_cost_table *t, enum spe_cost_key k)
{
	return (unsigned)k < SPE_KEY_NR && t->uses[k];
}

unsigned spe_cost_nkeys(const struct spe_cost_table *t)
{
	return t->nkeys;
}

const char *spe_cost_key_name(const struct spe_cost_table *t, unsigned i)
{
	return key_names[t->keys[i]];
}

/* spe_view_data_src_text() of v into x, through the table's cache. */
static void data_src_text(struct spe_cost_table *t, uint64_t v, struct spe_key_text *x)
{
	size_t i = (size_t)((v * 0x9e3779b97f4a7c15ull) >> 58);

	if (!t->ds_text[i].used || t->ds_text[i].value != v) {
		spe_view_data_src_text(v, x->buf, x->len);
		x->pos = strlen(x->buf);
		/* Texts that do not fit the cache are not kept (none do). */
		if (x->pos >= sizeof(t->ds_text[i].text))
			return;
		t->ds_text[i].value = v;
		t->ds_text[i].used = true;
		strcpy(t->ds_text[i].text, x->buf);
		return;
	}
	spe_key_put_str(x, t->ds_text[i].text);
}

/*
 * perf's text of memory key k (mem, snoop, tlb) for data_src v: the LVL,
 * SNP or TLB part of what perf script prints for it, "N/A" for a sample
 * that is no memory access (perf's sort keys without mem info).
 */
static uint64_t mem_bits(uint64_t v, int k)
{
	union perf_mem_data_src d = { .val = v };

	return k == KEY_MEM ? d.mem_lvl : k == KEY_SNOOP ? d.mem_snoop : d.mem_dtlb;
}

static void mem_part(struct spe_cost_table *t, uint64_t v, int k, struct spe_key_text *x)
{
	const char *tag = k == KEY_MEM ? "|LVL " : k == KEY_SNOOP ? "|SNP " : "|TLB ";
	uint64_t bits = mem_bits(v, k);
	char all[200];
	const char *p;
	size_t len;
	unsigned i;

	for (i = 0; i < t->nr_mem_names; i++)
		if (t->mem_names[i].key == k && t->mem_names[i].bits == bits) {
			spe_key_put_str(x, t->mem_names[i].text);
			return;
		}
	spe_data_src_describe(v, all, sizeof(all));
	p = v ? strstr(all, tag) : NULL;
	p = p ? p + strlen(tag) : "N/A";
	len = strcspn(p, "|");
	spe_key_put(x, p, len);
	/* A part has few values (mem_snoop 5 bits, mem_dtlb 7, mem_lvl's
	 * combinations a handful): 64 names are plenty; past them a row
	 * is named by its own sample. */
	if (t->nr_mem_names < sizeof(t->mem_names) / sizeof(t->mem_names[0]) &&
	    len < sizeof(t->mem_names[0].text)) {
		i = t->nr_mem_names++;
		t->mem_names[i].key = k;
		t->mem_names[i].bits = bits;
		memcpy(t->mem_names[i].text, p, len);
		t->mem_names[i].text[len] = 0;
	}
}

/* Appends the text of key k to buf at *pos (a separator before all but
 * the first). */
static void key_text(struct spe_cost_table *t, int k,
		     const struct spe_view_sample *vs, char *buf, size_t len, size_t *pos)
{
	const struct spe_sample *s = vs->s;
	bool pages = t->unresolved == SPE_VIEW_UNRESOLVED_PAGE;
	char tmp[160], page[600];
	struct spe_key_text o = { buf, len, *pos }, x = { tmp, sizeof(tmp), 0 };
	const char *txt = NULL;

	tmp[0] = 0;
	switch (k) {
	case SPE_KEY_SYM:
		/* perf's spelling; an ip without a symbol is its page's row,
		 * or its own (SPE_VIEW_UNRESOLVED_ADDRESS) */
		spe_key_put_str(&x, s->cpumode == PERF_RECORD_MISC_KERNEL ? "[k] " : "[.] ");
		if (vs->sym->has_sym) {
			spe_key_put_str(&x, vs->sym->name);
		} else if (pages) {
			/* a file's path may be long: the whole text, not tmp's */
			memcpy(page, tmp, x.pos);
			spe_view_unresolved_name(vs->sym, s->ip, s->cpumode, page + x.pos,
						 sizeof(page) - x.pos);
			txt = page;
		} else {
			spe_key_put_str(&x, "0x");
			spe_key_put_hex(&x, s->ip, 16);
		}
		break;
	case SPE_KEY_DSO:
		txt = vs->sym->dso;
		break;
	case SPE_KEY_SRCLINE:
		txt = vs->srcline ? vs->srcline : "??:0";
		break;
	case SPE_KEY_SYMBOL_DADDR:
		if (vs->dsym && vs->dsym->has_sym) {
			spe_key_put_str(&x, "[.] ");
			spe_key_put_str(&x, vs->dsym->name);
			spe_key_put_str(&x, "+0x");
			spe_key_put_hex(&x, vs->dsym->offset, 1);
		} else if (s->addr && pages && vs->dsym) {
			memcpy(page, "[.] ", 4);
			spe_view_unresolved_name(vs->dsym, s->addr, s->cpumode, page + 4,
						 sizeof(page) - 4);
			txt = page;
		} else if (s->addr) {
			spe_key_put_str(&x, "[.] 0x");
			spe_key_put_hex(&x, s->addr, 16);
		} else {
			txt = "[.] [unknown]";
		}
		break;
	case SPE_KEY_DATA_SRC:
		data_src_text(t, s->data_src, &x);
		break;
	case SPE_KEY_OP:
		txt = op_names[spe_view_op(s->qr->rec)];
		break;
	case SPE_KEY_CPU:
		spe_key_put_int(&x, s->cpu);
		break;
	case SPE_KEY_PID:
		spe_key_put_int(&x, s->pid);
		spe_key_put_str(&x, ":");
		spe_key_put_str(&x, vs->comm ? vs->comm : "");
		break;
	case SPE_KEY_COMM:
		if (vs->comm) {
			txt = vs->comm;
		} else {
			spe_key_put_str(&x, ":");
			spe_key_put_int(&x, s->tid);
		}
		break;
	case KEY_MEM:
	case KEY_SNOOP:
	case KEY_TLB:
		mem_part(t, s->data_src, k, &x);
		break;
	case KEY_LOCAL_WEIGHT:
		spe_key_put_int(&x, s->weight);
		break;
	default:
		txt = "";
	}
	if (o.pos)
		spe_key_put(&o, "\x1f", 1);
	spe_key_put_str(&o, txt ? txt : tmp);
	*pos = o.pos;
}

/*
 * What key k's text is made of, in two words: equal words make equal text
 * (the converse need not hold: two raw keys may share a row).
 */
static void raw_key(const struct spe_cost_table *t, int k,
		    const struct spe_view_sample *vs, uint64_t *w)
{
	const struct spe_sample *s = vs->s;
	uint64_t kernel = s->cpumode == PERF_RECORD_MISC_KERNEL;
	bool pages = t->unresolved == SPE_VIEW_UNRESOLVED_PAGE, in_dso;

	switch (k) {
	case SPE_KEY_SYM:
		if (!vs->sym->has_sym && pages) {
			/* the page, in the file (named by its pointer) or
			 * not; a page's low bits are free for the flags */
			w[1] = spe_view_unresolved_page(vs->sym, s->ip, s->cpumode, &in_dso);
			w[0] = in_dso ? (uintptr_t)vs->sym->dso : w[1];
			w[1] |= kernel << 1 | 1u << 2 | (uint64_t)in_dso << 3;
			break;
		}
		w[0] = vs->sym->has_sym ? (uintptr_t)vs->sym->name : s->ip;
		w[1] = kernel << 1 | vs->sym->has_sym;
		break;
	case SPE_KEY_DSO:
		w[0] = (uintptr_t)vs->sym->dso;
		w[1] = 0;
		break;
	case SPE_KEY_SRCLINE:
		w[0] = (uintptr_t)vs->srcline;
		w[1] = 0;
		break;
	case SPE_KEY_SYMBOL_DADDR:
		if (vs->dsym && vs->dsym->has_sym) {
			/* name and offset: the offset's top bit tells it from
			 * an address alone (symbols are far smaller) */
			w[0] = (uintptr_t)vs->dsym->name;
			w[1] = vs->dsym->offset | 1ull << 63;
		} else if (s->addr && pages && vs->dsym) {
			/* as sym's page; bit 0 tells it from an address
			 * alone (w[1] 0); from a name, w[0] (a file's path
			 * or a page, never a symbol's name) */
			w[1] = spe_view_unresolved_page(vs->dsym, s->addr, s->cpumode, &in_dso);
			w[0] = in_dso ? (uintptr_t)vs->dsym->dso : w[1];
			w[1] |= 1u | (uint64_t)in_dso << 1;
		} else {
			w[0] = s->addr;
			w[1] = 0;
		}
		break;
	case SPE_KEY_DATA_SRC:
		w[0] = s->data_src;
		w[1] = 0;
		break;
	case KEY_MEM:
	case KEY_SNOOP:
	case KEY_TLB:
		w[0] = mem_bits(s->data_src, k);
		w[1] = 0;
		break;
	case KEY_LOCAL_WEIGHT:
		w[0] = s->weight;
		w[1] = 0;
		break;
	case SPE_KEY_OP:
		w[0] = spe_view_op(s->qr->rec);
		w[1] = 0;
		break;
	case SPE_KEY_CPU:
		w[0] = (uint32_t)s->cpu;
		w[1] = 0;
		break;
	default:		/* pid, comm: no raw key (see the top) */
		w[0] = w[1] = 0;
	}
}

/* The cache entry of raw key w: its words are compared by the caller. */
static uint64_t *raw_slot(const struct spe_cost_table *t, const uint64_t *w)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (unsigned i = 0; i < t->raw_words; i++)
		h = (h ^ w[i]) * 0xff51afd7ed558ccdull;
	h ^= h >> 29;
	return t->raw + (h & (t->raw_slots - 1)) * (1 + t->raw_words);
}

/* A few words compared inline: memcmp() of a length known only at run
 * time was a call per record. */
static inline bool raw_equal(const uint64_t *a, const uint64_t *b, unsigned n)
{
	uint64_t diff = 0;

	for (unsigned i = 0; i < n; i++)
		diff |= a[i] ^ b[i];
	return !diff;
}

/* A new row: past half as many rows as slots, a cache four times larger
 * (empty: it refills as records come).  Without memory for it the old
 * one stays.  Returns whether the slots moved. */
static bool raw_grow(struct spe_cost_table *t)
{
	size_t n = t->raw_slots * 4;
	uint64_t *c;

	if (t->rows.used * 2 <= t->raw_slots ||
	    n * (1 + t->raw_words) * sizeof(uint64_t) > RAW_BYTES_MAX)
		return false;
	c = calloc(n * (1 + t->raw_words), sizeof(uint64_t));
	if (!c)
		return false;
	free(t->raw);
	t->raw = c;
	t->raw_slots = n;
	return true;
}

/* The row of the record's key, found by its text (added if new), or
 * SPE_ERR_NOMEM. */
static long row_by_text(struct spe_cost_table *t, const struct spe_view_sample *vs)
{
	char key[1024];
	size_t pos = 0;

	key[0] = 0;
	for (unsigned k = 0; k < t->nkeys; k++)
		key_text(t, t->keys[k], vs, key, sizeof(key), &pos);
	return spe_keyed_rows_find(&t->rows, key);
}

/*
 * A new row's numbers for perf's order, from what its text was made of
 * (key_text()): the address of an ip or data address without a symbol
 * (its page's, a file's page as its offset in the file, by page), the
 * cpu, the pid.  Records that make the same text make the same numbers.
 */
static void set_order_numbers(const struct spe_cost_table *t, const struct spe_view_sample *vs,
			      struct row *r)
{
	const struct spe_sample *s = vs->s;
	bool pages = t->unresolved == SPE_VIEW_UNRESOLVED_PAGE, in_dso;

	for (unsigned i = 0; i < t->nkeys; i++) {
		uint64_t v;

		switch (t->keys[i]) {
		case SPE_KEY_SYM:
			if (vs->sym->has_sym)
				continue;
			v = pages ? spe_view_unresolved_page(vs->sym, s->ip, s->cpumode, &in_dso) :
				    s->ip;
			break;
		case SPE_KEY_SYMBOL_DADDR:
			if ((vs->dsym && vs->dsym->has_sym) || !s->addr)
				continue;	/* a name, or "[unknown]" */
			v = pages && vs->dsym ?
			    spe_view_unresolved_page(vs->dsym, s->addr, s->cpumode, &in_dso) :
			    s->addr;
			break;
		case SPE_KEY_CPU:
			v = (uint64_t)(int64_t)s->cpu;
			break;
		case SPE_KEY_PID:
			v = (uint64_t)(int64_t)s->pid;
			break;
		case KEY_LOCAL_WEIGHT:
			v = s->weight;
			break;
		default:
			continue;
		}
		r->is_num |= 1ull << i;
		/* perf compares addresses as signed: the kernel's first */
		r->num[t->num_slot[i]] = (int64_t)v;
	}
}

int spe_cost_add(struct spe_cost_table *t, const struct spe_view_sample *vs)
{
	const struct spe_record *rec = vs->s->qr->rec;
	uint64_t ev = (rec->present & SPE_REC_EVENTS) ? rec->events : 0;
	enum spe_rep_op op = spe_view_op(rec);
	uint64_t w[2 * SPE_KEY_NR], *e = NULL;
	uint32_t row;
	struct row *r;
	uint16_t v[3];
	unsigned has;

	if (t->raw) {
		for (unsigned k = 0; k < t->nkeys; k++)
			raw_key(t, t->keys[k], vs, &w[2 * k]);
		e = raw_slot(t, w);
	}
	if (e && e[0] && raw_equal(e + 1, w, t->raw_words)) {
		row = (uint32_t)e[0] - 1;
	} else {
		size_t rows_before = t->rows.used;
		long found = row_by_text(t, vs);

		if (found < 0)
			return (int)found;
		row = (uint32_t)found;
		if (t->rows.used != rows_before && t->nnum)
			set_order_numbers(t, vs, row_at(t, row));
		if (e) {
			if (raw_grow(t))
				e = raw_slot(t, w);
			e[0] = (uint64_t)row + 1;
			memcpy(e + 1, w, t->raw_words * sizeof(*w));
		}
	}
	r = row_at(t, row);
	has = spe_view_latencies(rec, v);
	if ((has & 1) && spe_lat_counts_add(&r->lat, v[0]))
		return SPE_ERR_NOMEM;
	r->samples++;
	for (int c = 0; c < 3; c++) {
		if (!(has >> c & 1))
			continue;
		t->wide |= spe_lat_is_wide(v[c]);
		spe_lat_sum_add(&r->lat3[c], v[c]);
	}
	if (op == SPE_REP_LOAD || op == SPE_REP_STORE) {
		r->l1d_miss += !!(ev & SPE_EV_L1D_REFILL);
		r->llc_miss += !!(ev & SPE_EV_LLC_MISS);
		r->tlb_walk += !!(ev & SPE_EV_TLB_WALK);
		r->remote += !!(ev & SPE_EV_REMOTE_ACCESS);
	} else if (op == SPE_REP_BRANCH) {
		r->branches++;
		r->mispred += !!(ev & SPE_EV_MISPRED);
	}
	return 0;
}

bool spe_cost_mergeable(const struct spe_cost_table *t)
{
	return !t->uses[KEY_MEM] && !t->uses[KEY_SNOOP] && !t->uses[KEY_TLB];
}

static void lat_sum_merge(struct spe_lat_sum *d, const struct spe_lat_sum *s)
{
	d->sum += s->sum;
	d->n += s->n;
	d->sat12 += s->sat12;
	d->sat16 += s->sat16;
}

/*
 * Row by row, found by key text: a row new to dst takes src's numbers for
 * perf's order (the same text makes the same numbers, set_order_numbers()).
 * Rows never move, and the raw-key cache of dst still points at the
 * right ones.
 */
int spe_cost_merge(struct spe_cost_table *dst, const struct spe_cost_table *src)
{
	if (dst->nkeys != src->nkeys || memcmp(dst->keys, src->keys, sizeof(dst->keys)) ||
	    dst->unresolved != src->unresolved)
		return SPE_ERR_INVAL;
	for (size_t i = 0; i < src->rows.used; i++) {
		const struct row *sr = row_at(src, i);
		size_t rows_before = dst->rows.used;
		long found = spe_keyed_rows_find(&dst->rows, sr->key);
		struct row *r;

		if (found < 0)
			return (int)found;
		r = row_at(dst, (size_t)found);
		/* (a table without such keys has rows without is_num) */
		if (dst->rows.used != rows_before && dst->nnum) {
			r->is_num = sr->is_num;
			memcpy(r->num, sr->num, dst->nnum * sizeof(r->num[0]));
		}
		if (spe_lat_counts_merge(&r->lat, &sr->lat))
			return SPE_ERR_NOMEM;
		for (int c = 0; c < 3; c++)
			lat_sum_merge(&r->lat3[c], &sr->lat3[c]);
		r->samples += sr->samples;
		r->l1d_miss += sr->l1d_miss;
		r->llc_miss += sr->llc_miss;
		r->tlb_walk += sr->tlb_walk;
		r->remote += sr->remote;
		r->mispred += sr->mispred;
		r->branches += sr->branches;
	}
	dst->wide |= src->wide;
	return 0;
}

static unsigned sat_value(const struct spe_cost_table *t)
{
	return t->wide ? SPE_LAT_SAT16 : SPE_LAT_SAT12;
}

/* A percentile of the row's total latency, SPE_COST_SAT on a saturated one. */
static unsigned percentile(const struct row *r, double pct, unsigned sat)
{
	unsigned v = spe_lat_counts_percentile(&r->lat, pct);

	return v == sat ? SPE_COST_SAT : v;
}

/* The row's view; its keys point into keybuf (a copy of the key the view
 * splits), or are left NULL without one.  Its percentiles are left 0
 * unless asked for (a walk through the row's latency counts). */
static void view_of(const struct spe_cost_table *t, const struct row *r,
		    struct spe_cost_row_view *v, char *keybuf, bool percentiles)
{
	unsigned sat = sat_value(t);
	char *p = keybuf;

	memset(v, 0, sizeof(*v));
	for (unsigned k = 0; p && k < t->nkeys; k++) {
		v->key[k] = p;
		p += strcspn(p, "\x1f");
		if (*p)
			*p++ = 0;
	}
	v->samples = r->samples;
	for (int c = 0; c < 3; c++) {
		struct spe_lat_total lt = spe_lat_sum_get(&r->lat3[c], t->wide);

		v->lat_sat[c] = lt.sat;
		v->lat_n[c] = lt.n;
		v->lat_sum[c] = lt.sum;
	}
	v->p_valid = r->lat3[0].n != 0;
	if (v->p_valid && percentiles) {
		v->p50 = percentile(r, 50, sat);
		v->p90 = percentile(r, 90, sat);
		v->p99 = percentile(r, 99, sat);
	}
	v->l1d_miss = r->l1d_miss;
	v->llc_miss = r->llc_miss;
	v->tlb_walk = r->tlb_walk;
	v->remote = r->remote;
	v->mispred = r->mispred;
	v->branches = r->branches;
}

void spe_cost_totals(const struct spe_cost_table *t, struct spe_cost_totals *tot)
{
	unsigned sat = sat_value(t);

	memset(tot, 0, sizeof(*tot));
	tot->sat_value = sat;
	for (size_t i = 0; i < t->rows.used; i++) {
		const struct row *r = row_at(t, i);

		tot->samples += r->samples;
		tot->lat_sum += spe_lat_sum_get(&r->lat3[0], t->wide).sum;
		tot->l1d_miss += r->l1d_miss;
		tot->llc_miss += r->llc_miss;
		tot->tlb_walk += r->tlb_walk;
		tot->remote += r->remote;
		tot->mispred += r->mispred;
	}
}

static double mean(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : 0.0;
}

/* A column's value for ordering; saturated percentiles order above all. */
static double col_value(const struct spe_cost_row_view *v, enum spe_cost_col c)
{
	switch (c) {
	case SPE_COL_SAMPLES: return (double)v->samples;
	case SPE_COL_LAT: return (double)v->lat_sum[0];
	case SPE_COL_MEAN: return mean(v->lat_sum[0], v->lat_n[0]);
	case SPE_COL_P50: return v->p_valid ? (double)v->p50 : -1;
	case SPE_COL_P90: return v->p_valid ? (double)v->p90 : -1;
	case SPE_COL_P99: return v->p_valid ? (double)v->p99 : -1;
	case SPE_COL_ISSUE: return mean(v->lat_sum[1], v->lat_n[1]);
	case SPE_COL_XLAT: return mean(v->lat_sum[2], v->lat_n[2]);
	case SPE_COL_SAT: return (double)(v->lat_sat[0] + v->lat_sat[1] + v->lat_sat[2]);
	case SPE_COL_L1D_MISS: return (double)v->l1d_miss;
	case SPE_COL_LLC_MISS: return (double)v->llc_miss;
	case SPE_COL_TLB_WALK: return (double)v->tlb_walk;
	case SPE_COL_REMOTE: return (double)v->remote;
	case SPE_COL_MISPRED: return (double)v->mispred;
	default: return 0;
	}
}

static bool is_percentile(enum spe_cost_col c)
{
	return c == SPE_COL_P50 || c == SPE_COL_P90 || c == SPE_COL_P99;
}

/* The total a column's rows add up to; 0 for columns that do not add. */
static double col_total(const struct spe_cost_totals *tot, enum spe_cost_col c)
{
	switch (c) {
	case SPE_COL_SAMPLES: return (double)tot->samples;
	case SPE_COL_LAT: return (double)tot->lat_sum;
	case SPE_COL_L1D_MISS: return (double)tot->l1d_miss;
	case SPE_COL_LLC_MISS: return (double)tot->llc_miss;
	case SPE_COL_TLB_WALK: return (double)tot->tlb_walk;
	case SPE_COL_REMOTE: return (double)tot->remote;
	case SPE_COL_MISPRED: return (double)tot->mispred;
	default: return 0;
	}
}

/*
 * Rows are sorted as (value, row) items; views are built for the rows
 * kept only, so a table of many small rows stays small to print.
 *
 * Ties are broken by the keys' text, and in a table of a row per ip
 * nearly every row ties (one sample each) with keys that agree on their
 * first 16 bytes ("[.] 0x0000000000"): qsort's strcmp on each comparison,
 * each a cache miss on another key, was half the time of sorting 2.5
 * million rows.  The items carry 8 bytes of their key instead (pfx, big
 * endian, so that comparing them compares the bytes as strcmp does); a
 * run of items that tie on them is sorted again on the next 8 bytes past
 * what its keys have in common, and so on until no two tie (keys are
 * distinct).  The sort is in place: qsort's merge sort took a copy of the
 * items, 60 MB for those rows.
 */
struct sort_item {
	double value;
	union {
		uint64_t pfx;		/* 8 bytes of the key, see above */
		/* perf_ties(): the row's table, for perf_tie_cmp() (qsort
		 * passes the comparison no context; a global would not do
		 * for tables sorted on two threads) */
		const struct spe_cost_table *table;
	};
	const struct row *r;
};

/* The 8 bytes of key from off (the key is at least off bytes long), NULs
 * past its end. */
static uint64_t key_pfx(const char *key, size_t off)
{
	uint64_t p = 0;
	size_t i = 0;

	key += off;
	for (; i < 8 && key[i]; i++)
		p = p << 8 | (unsigned char)key[i];
	return i == 8 ? p : i ? p << (8 * (8 - i)) : 0;
}

/* Larger values first, then the keys in byte order. */
static inline bool item_before(const struct sort_item *x, const struct sort_item *y)
{
	if (x->value != y->value)
		return x->value > y->value;
	return x->pfx < y->pfx;
}

static void swap_items(struct sort_item *a, struct sort_item *b)
{
	struct sort_item t = *a;

	*a = *b;
	*b = t;
}

static void sift_down(struct sort_item *a, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && item_before(&a[c], &a[c + 1]))
			c++;
		if (!item_before(&a[i], &a[c]))
			return;
		swap_items(&a[i], &a[c]);
		i = c;
	}
}

/* The fallback when quicksort's partitions go bad: O(n log n) always. */
static void heap_sort(struct sort_item *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t i = n; i-- > 1;) {
		swap_items(&a[0], &a[i]);
		sift_down(a, 0, i);
	}
}

/* Sorts by item_before(): quicksort with a median of three, insertion
 * sort for short ranges, heap sort past 2 log2 n levels. */
static void sort_by_pfx(struct sort_item *a, size_t n, unsigned depth)
{
	while (n > 16) {
		size_t m = n / 2, i = 0, j = n - 1;
		struct sort_item pivot;

		if (!depth--) {
			heap_sort(a, n);
			return;
		}
		if (item_before(&a[m], &a[0]))
			swap_items(&a[m], &a[0]);
		if (item_before(&a[n - 1], &a[m])) {
			swap_items(&a[n - 1], &a[m]);
			if (item_before(&a[m], &a[0]))
				swap_items(&a[m], &a[0]);
		}
		pivot = a[m];
		/* Hoare's partition: a[0..j] not after the pivot, a[j+1..]
		 * not before it. */
		for (;;) {
			while (item_before(&a[i], &pivot))
				i++;
			while (item_before(&pivot, &a[j]))
				j--;
			if (i >= j)
				break;
			swap_items(&a[i++], &a[j--]);
		}
		/* The smaller side by recursion, the larger by the loop. */
		if (j + 1 < n - j - 1) {
			sort_by_pfx(a, j + 1, depth);
			a += j + 1;
			n -= j + 1;
		} else {
			sort_by_pfx(a + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct sort_item x = a[i];
		size_t k = i;

		for (; k && item_before(&x, &a[k - 1]); k--)
			a[k] = a[k - 1];
		a[k] = x;
	}
}

static unsigned depth_limit(size_t n)
{
	unsigned d = 0;

	for (; n > 1; n >>= 1)
		d += 2;
	return d;
}

/* Rows and keys are all over memory: while item k's key is read, item
 * k + 8's is fetched, and the row of item k + 16 (which holds the key's
 * address). */
static inline void prefetch_key(const struct sort_item *a, size_t k, size_t n)
{
	if (k + 16 < n)
		__builtin_prefetch(a[k + 16].r);
	if (k + 8 < n)
		__builtin_prefetch(a[k + 8].r->key);
}

/*
 * Sorts the runs of a[0..n) sorted by (value, pfx) whose items tie on
 * both: their keys agree on their first off + 8 bytes at least.
 */
static void sort_ties(struct sort_item *a, size_t n, size_t off)
{
	for (size_t i = 0, j; i < n; i = j) {
		size_t lcp = SIZE_MAX;
		const char *k0 = a[i].r->key;

		for (j = i + 1; j < n && a[j].value == a[i].value && a[j].pfx == a[i].pfx; j++)
			;
		if (j - i < 2)
			continue;
		/* What the run's keys have in common (distinct keys: less
		 * than all of the shortest), then the 8 bytes after it. */
		for (size_t k = i + 1; k < j; k++) {
			const char *kk = a[k].r->key;
			size_t c = off;

			prefetch_key(a, k, j);

			while (c < lcp && k0[c] && k0[c] == kk[c])
				c++;
			lcp = c;
		}
		for (size_t k = i; k < j; k++) {
			prefetch_key(a, k, j);
			a[k].pfx = key_pfx(a[k].r->key, lcp);
		}
		sort_by_pfx(a + i, j - i, depth_limit(j - i));
		sort_ties(a + i, j - i, lcp);
	}
}

/*
 * perf report's order of rows with the same overhead: key by key, as
 * perf's sort keys compare them (tools/perf/util/sort.c): symbols by
 * name, ascending, and before the addresses without one, which go by
 * address as a signed 64-bit number (a user address is relative to its
 * map, a kernel address is negative: the kernel's come first); numbers
 * (cpu, pid) by value; other text in byte order.  The numbers are the
 * row's own (set_order_numbers()), never read back from its text.
 * Checked against perf 6.1 by suite 26.
 */
struct key_field {
	const char *text;		/* past a "[.] " / "[k] " mode */
	size_t len;
};

/* Key k's field at key (up to the next separator), without the mode of
 * the keys that print one (key_text()). */
static void key_field_at(const char *key, int k, struct key_field *f)
{
	f->len = strcspn(key, "\x1f");
	f->text = key;
	if ((k == SPE_KEY_SYM || k == SPE_KEY_SYMBOL_DADDR) && f->len >= 4) {
		f->text += 4;
		f->len -= 4;
	}
}

static int cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int perf_tie_cmp(const void *pa, const void *pb)
{
	const struct spe_cost_table *t = ((const struct sort_item *)pa)->table;
	const struct row *ra = ((const struct sort_item *)pa)->r;
	const struct row *rb = ((const struct sort_item *)pb)->r;
	const char *ka = ra->key, *kb = rb->key;

	for (unsigned i = 0; i < t->nkeys; i++) {
		uint64_t bit = 1ull << i;
		bool na = t->num_slot[i] >= 0 && (ra->is_num & bit);
		bool nb = t->num_slot[i] >= 0 && (rb->is_num & bit);
		struct key_field fa, fb;
		int c = 0;

		/* names before numbers (symbols before addresses) */
		if (na != nb)
			return na ? 1 : -1;
		if (na)
			c = cmp_i64(ra->num[t->num_slot[i]], rb->num[t->num_slot[i]]);
		if (c)
			return c;
		/* equal numbers: the rest of the text (a pid's comm) */
		key_field_at(ka, t->keys[i], &fa);
		key_field_at(kb, t->keys[i], &fb);
		c = memcmp(fa.text, fb.text, fa.len < fb.len ? fa.len : fb.len);
		if (!c)
			c = cmp_i64((int64_t)fa.len, (int64_t)fb.len);
		if (c)
			return c;
		ka = fa.text + fa.len;
		kb = fb.text + fb.len;
		if (!*ka || !*kb)
			break;
		ka++;
		kb++;
	}
	/* Keys are distinct: what perf would not tell apart goes by text. */
	return strcmp(ra->key, rb->key);
}

/* The runs of equal values of a[0..n), sorted by value, into perf's
 * order (their pfx is not needed past sort_ties()). */
static void perf_ties(const struct spe_cost_table *t, struct sort_item *a, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && a[j].value == a[i].value; j++)
			a[j].table = t;
		a[i].table = t;
		if (j - i > 1)
			qsort(a + i, j - i, sizeof(*a), perf_tie_cmp);
	}
}

/* The rows kept, in order: *items (malloc'ed) holds *keep of them.
 * Returns 0 or SPE_ERR_NOMEM. */
static int sorted_rows(const struct spe_cost_table *t, enum spe_cost_col order,
		       double percent_limit, size_t top, struct sort_item **itemsp, size_t *keepp)
{
	struct spe_cost_totals tot;
	struct sort_item *items;
	struct spe_cost_row_view v;
	size_t keep = 0;
	double total;
	enum spe_cost_col limit_col;

	spe_cost_totals(t, &tot);
	limit_col = col_total(&tot, order) > 0 ? order : SPE_COL_SAMPLES;
	total = col_total(&tot, limit_col);
	items = malloc((t->rows.used ? t->rows.used : 1) * sizeof(*items));
	if (!items)
		return SPE_ERR_NOMEM;
	/* Which rows pass the limit does not depend on their order: they
	 * are left out before the sort. */
	for (size_t i = 0; i < t->rows.used; i++) {
		const struct row *r = row_at(t, i);

		view_of(t, r, &v, NULL, is_percentile(order));
		if (percent_limit > 0 && total > 0 &&
		    100.0 * col_value(&v, limit_col) / total < percent_limit)
			continue;
		items[keep++] = (struct sort_item){ .value = col_value(&v, order),
						    .pfx = key_pfx(r->key, 0), .r = r };
	}
	sort_by_pfx(items, keep, depth_limit(keep));
	sort_ties(items, keep, 0);
	/* By samples is perf report's order by overhead, ties and all. */
	if (order == SPE_COL_SAMPLES)
		perf_ties(t, items, keep);
	if (top && keep > top)
		keep = top;
	*itemsp = items;
	*keepp = keep;
	return 0;
}

long spe_cost_rows(const struct spe_cost_table *t, enum spe_cost_col order,
		   double percent_limit, size_t top, struct spe_cost_row_view **rows)
{
	struct sort_item *items;
	struct spe_cost_row_view *out;
	size_t keep, keylen = 0, nout;
	char *kp;

	if (sorted_rows(t, order, percent_limit, top, &items, &keep))
		return SPE_ERR_NOMEM;
	/* The views of the rows kept, with their keys after them. */
	for (size_t i = 0; i < keep; i++)
		keylen += strlen(items[i].r->key) + 1;
	nout = keep ? keep : 1;
	out = malloc(nout * sizeof(*out) + keylen + 1);
	if (!out) {
		free(items);
		return SPE_ERR_NOMEM;
	}
	kp = (char *)(out + nout);
	for (size_t i = 0; i < keep; i++) {
		strcpy(kp, items[i].r->key);
		view_of(t, items[i].r, &out[i], kp, true);
		kp += strlen(items[i].r->key) + 1;
	}
	free(items);
	*rows = out;
	return (long)keep;
}

static double share(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void pct_text(unsigned v, bool valid, char *buf, size_t len)
{
	if (!valid)
		snprintf(buf, len, "-");
	else if (v == SPE_COST_SAT)
		snprintf(buf, len, "sat");
	else
		snprintf(buf, len, "%u", v);
}

/*
 * A row of the printed table is built by hand: printf of its sixteen
 * columns was over a third of the time of a table of 2.5 million rows.
 * The numbers with decimals still go through snprintf, for its rounding,
 * but few of them are distinct (most rows of a large table have a sample
 * or two): each column keeps the text of recent values, by their bits.
 */
#define FIXED_SLOTS	4096

struct fixed_cache {
	uint64_t bits[FIXED_SLOTS];
	uint8_t len[FIXED_SLOTS];	/* 0: empty */
	char text[FIXED_SLOTS][15];
};

enum fixed_fmt { FIX_SHARE2, FIX_SHARE1, FIX_MEAN7, FIX_MEAN6, FIX_NR };

static const char *const fixed_fmts[FIX_NR] = {
	[FIX_SHARE2] = "%5.2f", [FIX_SHARE1] = "%5.1f", [FIX_MEAN7] = "%7.1f",
	[FIX_MEAN6] = "%6.1f",
};

/* Room a line needs past its keys: 16 columns, none longer than a double
 * printed in full (%.1f of 1e308: 311 characters). */
#define ROW_TEXT_MAX	(16 * 320)

static char *put_fixed(struct fixed_cache *c, enum fixed_fmt f, double v, char *p)
{
	uint64_t bits;
	size_t i;
	char tmp[400];
	int n;

	memcpy(&bits, &v, sizeof(bits));
	i = (size_t)(((bits ^ bits >> 29) * 0x9e3779b97f4a7c15ull) >> 52);
	c += f;
	if (c->len[i] && c->bits[i] == bits) {
		memcpy(p, c->text[i], c->len[i]);
		return p + c->len[i];
	}
	n = snprintf(tmp, sizeof(tmp), fixed_fmts[f], v);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	memcpy(p, tmp, (size_t)n);
	if (n > 0 && (size_t)n <= sizeof(c->text[i])) {
		c->bits[i] = bits;
		c->len[i] = (uint8_t)n;
		memcpy(c->text[i], tmp, (size_t)n);
	}
	return p + n;
}

/* "%*s" */
static char *put_padded(char *p, const char *s, size_t len, int width)
{
	for (int k = (int)len; k < width; k++)
		*p++ = ' ';
	memcpy(p, s, len);
	return p + len;
}

/* "%*" PRIu64 */
static char *put_u64_padded(char *p, uint64_t v, int width)
{
	char d[20];
	size_t n = sizeof(d);

	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return put_padded(p, d + n, sizeof(d) - n, width);
}

/* A percentile's column: "%5s" of its number, "sat" or "-". */
static char *put_pct(char *p, unsigned v, bool valid)
{
	char t[12];

	pct_text(v, valid, t, sizeof(t));
	return put_padded(p, t, strlen(t), 5);
}

/* The line of row view v into p; returns its end. */
static char *row_text(const struct spe_cost_table *t, const struct spe_cost_row_view *v,
		      const struct spe_cost_totals *tot, struct fixed_cache *fc, char *p)
{
	p = put_u64_padded(p, v->samples, 9);
	*p++ = ' ';
	p = put_fixed(fc, FIX_SHARE2, share(v->samples, tot->samples), p);
	memcpy(p, "% ", 2);
	p = put_u64_padded(p + 2, v->lat_sum[0], 11);
	*p++ = ' ';
	p = put_fixed(fc, FIX_SHARE2, share(v->lat_sum[0], tot->lat_sum), p);
	memcpy(p, "% ", 2);
	p = put_fixed(fc, FIX_MEAN7, mean(v->lat_sum[0], v->lat_n[0]), p + 2);
	*p++ = ' ';
	p = put_pct(p, v->p50, v->p_valid);
	*p++ = ' ';
	p = put_pct(p, v->p90, v->p_valid);
	*p++ = ' ';
	p = put_pct(p, v->p99, v->p_valid);
	*p++ = ' ';
	p = put_fixed(fc, FIX_MEAN6, mean(v->lat_sum[1], v->lat_n[1]), p);
	*p++ = ' ';
	p = put_fixed(fc, FIX_MEAN6, mean(v->lat_sum[2], v->lat_n[2]), p);
	*p++ = ' ';
	p = put_u64_padded(p, v->lat_sat[0] + v->lat_sat[1] + v->lat_sat[2], 5);
	*p++ = ' ';
	p = put_fixed(fc, FIX_SHARE1, share(v->l1d_miss, tot->l1d_miss), p);
	memcpy(p, "% ", 2);
	p = put_fixed(fc, FIX_SHARE1, share(v->llc_miss, tot->llc_miss), p + 2);
	memcpy(p, "% ", 2);
	p = put_fixed(fc, FIX_SHARE1, share(v->tlb_walk, tot->tlb_walk), p + 2);
	memcpy(p, "% ", 2);
	p = put_fixed(fc, FIX_SHARE1, share(v->remote, tot->remote), p + 2);
	memcpy(p, "% ", 2);
	p = put_fixed(fc, FIX_SHARE1, share(v->mispred, tot->mispred), p + 2);
	memcpy(p, "%  ", 3);
	p += 3;
	for (unsigned k = 0; k < t->nkeys; k++) {
		size_t len = strlen(v->key[k]);

		if (k) {
			memcpy(p, "  ", 2);
			p += 2;
		}
		memcpy(p, v->key[k], len);
		p += len;
	}
	*p++ = '\n';
	return p;
}

int spe_cost_print(const struct spe_cost_table *t, enum spe_cost_col order,
		   double percent_limit, size_t top,
		   int (*write)(void *ctx, const char *text, size_t len), void *ctx)
{
	struct spe_sink o = { write, ctx, 0 };
	struct sort_item *items;
	struct spe_cost_totals tot;
	struct fixed_cache *fc;
	size_t n;
	char *keybuf, *line;

	/* One row's view at a time: a table of a million rows prints in the
	 * memory of its sort. */
	keybuf = malloc(t->rows.maxkey + 1);
	line = malloc(ROW_TEXT_MAX + 2 * t->rows.maxkey + 2 * t->nkeys);
	fc = calloc(FIX_NR, sizeof(*fc));
	if (!keybuf || !line || !fc ||
	    sorted_rows(t, order, percent_limit, top, &items, &n)) {
		free(keybuf);
		free(line);
		free(fc);
		return SPE_ERR_NOMEM;
	}
	spe_cost_totals(t, &tot);
	spe_sink_printf(&o, "\n## Cost table by");
	for (unsigned k = 0; k < t->nkeys; k++)
		spe_sink_printf(&o, "%s%s", k ? "," : " ", key_names[t->keys[k]]);
	spe_sink_printf(&o, ", ordered by %s", col_names[order]);
	if (percent_limit > 0)
		spe_sink_printf(&o, ", rows under %.2f%% left out", percent_limit);
	spe_sink_printf(&o, "\n# latency in cycles; mean and sums leave out saturated counters (%u), "
	   "counted in 'sat'; a percentile on one shows 'sat'\n", tot.sat_value);
	spe_sink_printf(&o, "# l1d%%, llc%%, walk%%, rem%%, misp%%: share of all the records' L1D misses, "
	   "LLC misses, TLB walks, remote accesses, branch mispredicts\n");
	spe_sink_printf(&o, "%9s %6s %11s %6s %7s %5s %5s %5s %6s %6s %5s %6s %6s %6s %6s %6s  ",
	   "samples", "samp%", "latency", "lat%", "mean", "p50", "p90", "p99", "issue", "xlat",
	   "sat", "l1d%", "llc%", "walk%", "rem%", "misp%");
	for (unsigned k = 0; k < t->nkeys; k++)
		spe_sink_printf(&o, "%s%s", k ? "  " : "", key_names[t->keys[k]]);
	spe_sink_printf(&o, "\n");
	for (size_t i = 0; i < n && !o.err; i++) {
		struct spe_cost_row_view v;

		prefetch_key(items, i, n);
		strcpy(keybuf, items[i].r->key);
		view_of(t, items[i].r, &v, keybuf, true);
		spe_sink_put(&o, line, (size_t)(row_text(t, &v, &tot, fc, line) - line));
	}
	free(items);
	free(keybuf);
	free(line);
	free(fc);
	return o.err;
}
