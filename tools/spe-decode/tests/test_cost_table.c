// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * views/cost_table.c's rows: a record's row is found first by the values its
 * key text is made of (a cache), then by the text.  Records that differ in
 * one such value, fed alternately so that the cache is hit, must land in
 * rows of their own; values that make the same text (two copies of a name)
 * share a row; tables keyed by comm, whose text a COMM record rewrites in
 * place, follow the text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_decode.h"
#include "spe_views.h"
#include "tap.h"

struct rec {
	struct spe_record r;
	struct spe_qrecord qr;
	struct spe_sample s;
	struct spe_sym sym, dsym;
	struct spe_view_sample vs;
};

/* A load with total latency 10 at ip 0x1000 in main (a.out). */
static void make(struct rec *x)
{
	memset(x, 0, sizeof(*x));
	x->r.present = SPE_REC_OP_TYPE | SPE_REC_LAT_TOTAL;
	x->r.op_class = SPE_OP_CLASS_LDST;
	x->r.lat_total = 10;
	x->qr.rec = &x->r;
	x->s = (struct spe_sample){ .qr = &x->qr, .ip = 0x1000, .cpu = 1, .pid = 7, .tid = 7,
				    .cpumode = PERF_RECORD_MISC_USER, .addr = 0x5000,
				    .data_src = 0x1 };
	x->sym = (struct spe_sym){ .dso = "a.out", .name = "main", .has_sym = true };
	x->dsym = (struct spe_sym){ .dso = "a.out", .name = "array", .offset = 8, .has_sym = true };
	x->vs = (struct spe_view_sample){ .s = &x->s, .sym = &x->sym, .dsym = &x->dsym,
					  .srcline = "a.c:1", .comm = "prog" };
}

/* How feed()'s tables key addresses without a symbol. */
static enum spe_view_unresolved feed_unresolved = SPE_VIEW_UNRESOLVED_PAGE;

/* Feeds a and b alternately, n times each; returns the table's rows (as
 * "key:samples;" in order of samples) in out. */
static long feed(const char *keys, struct rec *a, struct rec *b, int n, char *out, size_t len)
{
	struct spe_cost_table *t;
	struct spe_cost_row_view *rows;
	char why[128];
	size_t pos = 0;
	long nr;

	out[0] = 0;
	if (spe_cost_new(&t, keys, why, sizeof(why)))
		return -1;
	spe_cost_set_unresolved(t, feed_unresolved);
	for (int i = 0; i < n; i++)
		if (spe_cost_add(t, &a->vs) || spe_cost_add(t, &b->vs) || spe_cost_add(t, &b->vs))
			return -1;
	nr = spe_cost_rows(t, SPE_COL_SAMPLES, 0, 0, &rows);
	for (long i = 0; i < nr && pos < len; i++)
		pos += (size_t)snprintf(out + pos, len - pos, "%s:%llu;", rows[i].key[0],
					(unsigned long long)rows[i].samples);
	free(rows);
	spe_cost_free(t);
	return nr;
}

/*
 * Many rows: ips without symbols, each its own row by address (as
 * --unresolved address asks), fed in three rounds so that the raw-key
 * cache grows between and after them; each ip's latency is its own
 * (ip / 16 % 1000), so a record counted in another's row shows.
 */
static void many_rows(void)
{
	enum { NR_IPS = 200000 };
	struct spe_cost_table *t;
	struct spe_cost_row_view *rows = NULL;
	char why[128];
	long nr = -1, bad = 0;
	struct rec a;

	make(&a);
	a.sym.has_sym = false;
	if (spe_cost_new(&t, "sym", why, sizeof(why))) {
		CHECK(0, "many rows: a table");
		return;
	}
	spe_cost_set_unresolved(t, SPE_VIEW_UNRESOLVED_ADDRESS);
	for (int round = 0; round < 3; round++)
		for (uint64_t i = 0; i < NR_IPS; i++) {
			a.s.ip = 0x400000 + 16 * i;
			a.r.lat_total = (uint16_t)(i % 1000);
			if (spe_cost_add(t, &a.vs))
				bad++;
		}
	nr = spe_cost_rows(t, SPE_COL_SAMPLES, 0, 0, &rows);
	for (long i = 0; i < nr; i++) {
		unsigned long long ip = strtoull(rows[i].key[0] + 4, NULL, 16);

		bad += rows[i].samples != 3 ||
		       rows[i].lat_sum[0] != 3 * ((ip - 0x400000) / 16 % 1000);
	}
	snprintf(why, sizeof(why), "many rows: 200000 ips without a symbol, each its own row of 3 (%ld rows, %ld wrong)",
		 nr, bad);
	CHECK(nr == NR_IPS && !bad, why);
	free(rows);
	spe_cost_free(t);
}

/*
 * By default, ips without symbols are counted in their 4 KiB page: 64
 * pages of one file and 64 outside any mapping, 1024 instructions each,
 * fed in an order that goes from page to page (the raw-key cache must
 * tell pages apart) in two rounds.  Each instruction's latency is its
 * own, so each page's sum is known; the same table by address has a row
 * per instruction.
 */
static void page_rows(void)
{
	enum { PAGES = 64, PER_PAGE = 1024, NR = 2 * PAGES * PER_PAGE };
	struct spe_cost_table *t[2];
	struct spe_cost_row_view *rows = NULL;
	char why[200];
	long nr[2] = { -1, -1 }, bad = 0;
	uint64_t want_sum = 0;
	struct rec a;

	make(&a);
	a.sym.has_sym = false;
	a.sym.name = "[unknown]";
	for (int m = 0; m < 2; m++) {
		if (spe_cost_new(&t[m], "sym", why, sizeof(why))) {
			CHECK(0, "page rows: a table");
			return;
		}
		spe_cost_set_unresolved(t[m], m ? SPE_VIEW_UNRESOLVED_ADDRESS :
					SPE_VIEW_UNRESOLVED_PAGE);
	}
	for (int round = 0; round < 2; round++)
		for (uint64_t i = 0; i < NR; i++) {
			/* instruction i / 128 % 1024 of page i % 128: half in
			 * lib.so (0x10000 + page in the file, mapped at
			 * 0x7f0000000000), half outside (0x400000 + page) */
			uint64_t page = i % (2 * PAGES), insn = i / (2 * PAGES);
			bool in_file = page < PAGES;

			a.sym.dso = in_file ? "lib.so" : "[unknown]";
			a.sym.elf_addr = 0x10000 + page * 4096 + insn * 4;
			a.s.ip = (in_file ? 0x7f0000000000 + 0x10000 : 0x400000) + page * 4096 + insn * 4;
			a.r.lat_total = (uint16_t)(page * 10 + insn % 7);
			if (!in_file)
				a.sym.elf_addr = a.s.ip;
			for (int m = 0; m < 2; m++)
				bad += spe_cost_add(t[m], &a.vs) != 0;
			want_sum += a.r.lat_total;
		}
	nr[0] = spe_cost_rows(t[0], SPE_COL_SAMPLES, 0, 0, &rows);
	for (long i = 0; i < nr[0]; i++) {
		const char *k = rows[i].key[0];
		unsigned long long page;
		uint64_t sum = 0;

		if (!strncmp(k, "[.] unknown-page@lib.so+0x", 26))
			page = (strtoull(k + 26, NULL, 16) - 0x10000) / 4096;
		else if (!strncmp(k, "[.] unknown-page@0x", 19))
			page = (strtoull(k + 19, NULL, 16) - 0x400000) / 4096;
		else
			page = ~0ull;
		if (page >= 2 * PAGES) {
			bad++;
			continue;
		}
		for (uint64_t insn = 0; insn < PER_PAGE; insn++)
			sum += 2 * (page * 10 + insn % 7);
		bad += rows[i].samples != 2 * PER_PAGE || rows[i].lat_sum[0] != sum;
		want_sum -= sum;
	}
	free(rows);
	nr[1] = spe_cost_rows(t[1], SPE_COL_SAMPLES, 0, 0, &rows);
	snprintf(why, sizeof(why), "page rows: %d instructions in %d pages without a symbol make a row per page (%ld rows, %ld wrong), by address one per instruction (%ld)",
		 NR, 2 * PAGES, nr[0], bad + (long)want_sum, nr[1]);
	CHECK(nr[0] == 2 * PAGES && !bad && !want_sum && nr[1] == NR, why);
	free(rows);
	spe_cost_free(t[0]);
	spe_cost_free(t[1]);
}

/*
 * The order of the rows: most samples first, ties by their keys' bytes as
 * strcmp orders them.  The sort compares 8 bytes of the keys at a time
 * past what the tied rows' keys have in common: here keys share prefixes
 * of 0 to 40 bytes, end inside another key, differ in their last byte
 * only, or in a byte above 0x7f (unsigned, as strcmp).
 */
static void row_order(void)
{
	enum { NR = 3000 };
	static char names[NR][80];
	struct spe_cost_table *t;
	struct spe_cost_row_view *rows = NULL;
	char why[160];
	long nr = -1, bad = 0;
	struct rec a;

	make(&a);
	if (spe_cost_new(&t, "dso", why, sizeof(why))) {
		CHECK(0, "row order: a table");
		return;
	}
	for (int i = 0; i < NR; i++) {
		static const int plen[] = { 0, 5, 7, 8, 9, 16, 23, 40 };
		int n = plen[i % 8], k = i / 8;

		memset(names[i], 'x', (size_t)n);
		if (k % 5 == 0)		/* the prefix alone, or one byte more */
			snprintf(names[i] + n, sizeof(names[i]) - (size_t)n, "%.*s", k % 2, "\x90");
		else
			snprintf(names[i] + n, sizeof(names[i]) - (size_t)n, "%c%05d",
				 k % 3 ? 'a' : 0x85, k % 97 * 1000 + k);
		a.sym.dso = names[i];
		/* one or two samples: a row ties with half the others */
		for (int j = 0; j <= i % 2; j++)
			if (spe_cost_add(t, &a.vs))
				bad++;
	}
	nr = spe_cost_rows(t, SPE_COL_SAMPLES, 0, 0, &rows);
	for (long i = 1; i < nr; i++)
		bad += rows[i - 1].samples < rows[i].samples ||
		       (rows[i - 1].samples == rows[i].samples &&
			strcmp(rows[i - 1].key[0], rows[i].key[0]) >= 0);
	snprintf(why, sizeof(why), "row order: samples, then the keys as strcmp (%ld rows, %ld out of order)",
		 nr, bad);
	/* some names repeat (the prefix alone): count the distinct ones */
	{
		long distinct = 0;

		for (int i = 0; i < NR; i++) {
			int seen = 0;

			for (int j = 0; j < i && !seen; j++)
				seen = !strcmp(names[i], names[j]);
			distinct += !seen;
		}
		CHECK(nr == distinct && nr > 2000 && !bad, why);
	}
	free(rows);
	spe_cost_free(t);
}

/*
 * perf's order of rows with as many samples: addresses (an ip's page
 * here) by number, names by their bytes, whatever the text around them.
 * A "0x" inside a file's path or a name is not an address: each record
 * of keys[] (one sample each, so that all rows tie) is a page of the
 * file dsos[i] at elf_addr[i], or with dsos[i] NULL a dso key's name.
 */
static void tie_case(const char *keys, const char *const *dsos, const uint64_t *elf_addr,
		     int n, const char *want, const char *what)
{
	struct spe_cost_table *t;
	struct spe_cost_row_view *rows = NULL;
	char why[128], got[512];
	size_t pos = 0;
	long nr = -1;
	struct rec a;

	got[0] = 0;
	if (spe_cost_new(&t, keys, why, sizeof(why))) {
		CHECK(0, what);
		return;
	}
	spe_cost_set_unresolved(t, SPE_VIEW_UNRESOLVED_PAGE);
	for (int i = 0; i < n; i++) {
		make(&a);
		a.sym.dso = dsos[i];
		a.sym.has_sym = false;
		a.sym.elf_addr = elf_addr[i];
		a.s.ip = 0x7f0000000000 + elf_addr[i];
		if (spe_cost_add(t, &a.vs))
			break;
	}
	nr = spe_cost_rows(t, SPE_COL_SAMPLES, 0, 0, &rows);
	for (long i = 0; i < nr && pos < sizeof(got); i++)
		pos += (size_t)snprintf(got + pos, sizeof(got) - pos, "%s;", rows[i].key[0]);
	if (strcmp(got, want))
		printf("#   got %s\n", got);
	CHECK(nr == n && !strcmp(got, want), what);
	free(rows);
	spe_cost_free(t);
}

static void perf_tie_order(void)
{
	static const char *const same[] = { "/tmp/x0x1/lib.so", "/tmp/x0x1/lib.so" };
	static const char *const two[] = { "/opt/b.so", "/opt/0xdead/a.so" };
	static const char *const names[] = { "a.so", "0xb.so" };
	static const uint64_t pages[] = { 0x10000, 0x9000 };
	static const uint64_t pages2[] = { 0x2000, 0x1000 };

	tie_case("sym", same, pages, 2,
		 "[.] unknown-page@/tmp/x0x1/lib.so+0x9000;[.] unknown-page@/tmp/x0x1/lib.so+0x10000;",
		 "perf's ties: pages by offset, a \"0x\" in the file's path is not it");
	tie_case("sym", two, pages2, 2,
		 "[.] unknown-page@/opt/0xdead/a.so+0x1000;[.] unknown-page@/opt/b.so+0x2000;",
		 "perf's ties: pages of two files by offset, not by a \"0x\" in a directory");
	tie_case("dso", names, pages, 2, "0xb.so;a.so;",
		 "perf's ties: a file named 0x... is a name, in byte order");
}

/*
 * Tables of parts of the records, merged (spe_cost_merge()), are the table
 * of all of them: the same rows, in the same order, with the same counts,
 * sums and percentiles, by a key that makes numbers (sym, addresses
 * without a symbol by page) and one that does not (data_src).  Latencies
 * spread so that some rows' counts are histograms in one part and words
 * in the other.  The parts are cut at several places, fed in order.
 */
static bool same_rows(const struct spe_cost_table *a, const struct spe_cost_table *b,
		      enum spe_cost_col order)
{
	struct spe_cost_row_view *ra = NULL, *rb = NULL;
	long na = spe_cost_rows(a, order, 0, 0, &ra), nb = spe_cost_rows(b, order, 0, 0, &rb);
	bool same = na > 0 && na == nb;

	for (long i = 0; same && i < na; i++) {
		const struct spe_cost_row_view *x = &ra[i], *y = &rb[i];

		same = x->samples == y->samples && x->p50 == y->p50 && x->p90 == y->p90 &&
		       x->p99 == y->p99 && x->p_valid == y->p_valid &&
		       !memcmp(x->lat_sum, y->lat_sum, sizeof(x->lat_sum)) &&
		       !memcmp(x->lat_n, y->lat_n, sizeof(x->lat_n)) &&
		       !memcmp(x->lat_sat, y->lat_sat, sizeof(x->lat_sat)) &&
		       x->l1d_miss == y->l1d_miss && x->llc_miss == y->llc_miss &&
		       x->tlb_walk == y->tlb_walk && x->remote == y->remote &&
		       x->mispred == y->mispred && x->branches == y->branches;
		for (unsigned k = 0; same && k < spe_cost_nkeys(a); k++)
			same = !strcmp(x->key[k], y->key[k]);
	}
	free(ra);
	free(rb);
	return same;
}

/* Record i of the merge test: 37 pages, 5 data sources, latencies spread
 * over a range that grows with the page (some rows of many values). */
static void merge_record(struct rec *a, uint32_t i)
{
	uint32_t page = i * 7919u % 37;

	a->sym.has_sym = page % 5 != 0;
	a->sym.name = a->sym.has_sym ? (page % 2 ? "f" : "g") : "[unknown]";
	a->sym.dso = a->sym.has_sym ? "a.out" : "[unknown]";
	a->s.ip = 0x400000 + 4096 * page + i % 1024 * 4;
	a->s.data_src = 0x1 + (uint64_t)(i % 5) * 0x100;
	a->r.present = SPE_REC_OP_TYPE | SPE_REC_LAT_TOTAL | SPE_REC_LAT_ISSUE | SPE_REC_EVENTS;
	a->r.op_class = i % 3 ? SPE_OP_CLASS_LDST : SPE_OP_CLASS_BRANCH;
	a->r.lat_total = (uint16_t)(i % 97 == 0 ? 4095 : 10 + (i * 2654435761u >> 7) % (30 * page + 5));
	a->r.lat_issue = (uint16_t)(i % 13);
	a->r.events = (i % 4 ? SPE_EV_L1D_REFILL : 0) | (i % 6 ? 0 : SPE_EV_MISPRED) |
		      (i % 7 ? 0 : SPE_EV_TLB_WALK);
}

static void merged_tables(void)
{
	static const char *const keys[] = { "sym,data_src", "sym", "data_src,op" };
	static const uint32_t cuts[] = { 1, 5000, 20000, 39999 };
	enum { NR = 40000 };
	struct rec a;
	char why[160];

	make(&a);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
			struct spe_cost_table *all, *p0, *p1;
			bool ok;

			if (spe_cost_new(&all, keys[k], why, sizeof(why)) ||
			    spe_cost_new(&p0, keys[k], why, sizeof(why)) ||
			    spe_cost_new(&p1, keys[k], why, sizeof(why))) {
				CHECK(0, "merged tables: tables");
				return;
			}
			ok = spe_cost_mergeable(all);
			for (uint32_t i = 0; ok && i < NR; i++) {
				merge_record(&a, i);
				ok = !spe_cost_add(all, &a.vs) &&
				     !spe_cost_add(i < cuts[c] ? p0 : p1, &a.vs);
			}
			ok = ok && !spe_cost_merge(p0, p1);
			snprintf(why, sizeof(why), "merged tables by %s, parts cut after %u records: "
				 "the table of all records, by samples and by p99", keys[k], cuts[c]);
			CHECK(ok && same_rows(all, p0, SPE_COL_SAMPLES) && same_rows(all, p0, SPE_COL_P99),
			      why);
			spe_cost_free(all);
			spe_cost_free(p0);
			spe_cost_free(p1);
		}
	{
		struct spe_cost_table *t1 = NULL, *t2 = NULL, *m = NULL;

		if (!spe_cost_new(&t1, "sym", why, sizeof(why)) &&
		    !spe_cost_new(&t2, "dso", why, sizeof(why)) &&
		    !spe_cost_new(&m, "mem", why, sizeof(why))) {
			CHECK(spe_cost_merge(t1, t2) == SPE_ERR_INVAL,
			      "merged tables: a table of other keys is refused");
			CHECK(!spe_cost_mergeable(m) && spe_cost_mergeable(t1),
			      "merged tables: not with mem (rows named by their first sample)");
		}
		spe_cost_free(t1);
		spe_cost_free(t2);
		spe_cost_free(m);
	}
}

int main(void)
{
	struct rec a, b;
	char got[512];
	char name1[] = "main", name2[] = "main", comm[] = "prog";

	make(&a);
	make(&b);
	b.s.cpumode = PERF_RECORD_MISC_KERNEL;
	CHECK(feed("sym", &a, &b, 50, got, sizeof(got)) == 2 &&
	      !strcmp(got, "[k] main:100;[.] main:50;"), "sym: the same name in the kernel is a row of its own");
	make(&b);
	b.sym.has_sym = false;
	b.sym.dso = "[unknown]";
	b.s.ip = b.sym.elf_addr = 0x2468;
	feed_unresolved = SPE_VIEW_UNRESOLVED_ADDRESS;
	feed("sym", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] 0x0000000000002468:100;[.] main:50;"),
	      "sym, by address: an ip without a symbol, as perf");
	feed_unresolved = SPE_VIEW_UNRESOLVED_PAGE;
	feed("sym", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] unknown-page@0x2000:100;[.] main:50;"),
	      "sym: an ip without a symbol, outside the mappings: its page");
	b.s.cpumode = PERF_RECORD_MISC_KERNEL;
	feed("sym", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[k] unknown-page@0x2000:100;[.] main:50;"),
	      "sym: a kernel ip without a symbol: its page, [k]");
	make(&b);
	b.sym.has_sym = false;
	b.sym.elf_addr = 0x1abc;
	b.s.ip = 0x7f0000001abc;
	feed("sym", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] unknown-page@a.out+0x1000:100;[.] main:50;"),
	      "sym: an ip without a symbol in a file: its page in the file");
	/* Two files' same page: rows of their own, though the raw key's
	 * page is equal (the cache is hit alternately). */
	a = b;
	a.vs.s = &a.s;
	a.vs.sym = &a.sym;
	a.s.qr = &a.qr;
	a.qr.rec = &a.r;
	a.sym.dso = "b.so";
	feed("sym", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] unknown-page@a.out+0x1000:100;[.] unknown-page@b.so+0x1000:50;"),
	      "sym: the same page of two files: two rows");
	make(&a);
	make(&b);
	b.sym.dso = "b.so";
	feed("dso", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "b.so:100;a.out:50;"), "dso");
	make(&b);
	b.vs.srcline = NULL;
	feed("srcline", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "??:0:100;a.c:1:50;"), "srcline, and an unknown one");
	make(&b);
	b.dsym.offset = 16;
	feed("symbol_daddr", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] array+0x10:100;[.] array+0x8:50;"), "symbol_daddr: the offset");
	make(&b);
	b.dsym.has_sym = false;
	b.dsym.dso = "[unknown]";
	b.s.addr = 0x5678;
	feed_unresolved = SPE_VIEW_UNRESOLVED_ADDRESS;
	feed("symbol_daddr", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] 0x0000000000005678:100;[.] array+0x8:50;"),
	      "symbol_daddr, by address: an address without a symbol");
	feed_unresolved = SPE_VIEW_UNRESOLVED_PAGE;
	feed("symbol_daddr", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] unknown-page@0x5000:100;[.] array+0x8:50;"),
	      "symbol_daddr: an address without a symbol: its page");
	b.s.addr = 0;
	feed("symbol_daddr", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] [unknown]:100;[.] array+0x8:50;"),
	      "symbol_daddr: no address at all: [unknown], as before");
	{
		union perf_mem_data_src l1 = { .val = 0 }, ram = { .val = 0 };
		char t1[64], t2[64], want[160];

		l1.mem_op = ram.mem_op = PERF_MEM_OP_LOAD;
		l1.mem_lvl = ram.mem_lvl = PERF_MEM_LVL_HIT;
		l1.mem_lvl_num = PERF_MEM_LVLNUM_L1;
		ram.mem_lvl_num = PERF_MEM_LVLNUM_RAM;
		make(&a);
		make(&b);
		a.s.data_src = l1.val;
		b.s.data_src = ram.val;
		spe_view_data_src_text(l1.val, t1, sizeof(t1));
		spe_view_data_src_text(ram.val, t2, sizeof(t2));
		snprintf(want, sizeof(want), "%s:100;%s:50;", t2, t1);
		feed("data_src", &a, &b, 50, got, sizeof(got));
		CHECK(strcmp(t1, t2) && !strcmp(got, want), "data_src");
		make(&a);
	}
	make(&b);
	b.r.op_subclass = SPE_OP_LDST_ST;
	feed("op", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "store:100;load:50;"), "op");
	make(&b);
	b.s.cpu = 2;
	feed("cpu", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "2:100;1:50;"), "cpu");

	make(&b);
	a.sym.name = name1;
	b.sym.name = name2;
	feed("sym", &a, &b, 50, got, sizeof(got));
	CHECK(!strcmp(got, "[.] main:150;"), "two copies of a name share their row");

	/* A COMM record renames the thread in place: the same pointer. */
	make(&a);
	make(&b);
	a.vs.comm = comm;
	b.vs.comm = comm;
	{
		struct spe_cost_table *t;
		struct spe_cost_row_view *rows;
		char why[128];
		long nr = -1;

		if (!spe_cost_new(&t, "comm", why, sizeof(why))) {
			spe_cost_add(t, &a.vs);
			memcpy(comm, "exec", 5);
			spe_cost_add(t, &b.vs);
			spe_cost_add(t, &b.vs);
			nr = spe_cost_rows(t, SPE_COL_SAMPLES, 0, 0, &rows);
			CHECK(nr == 2 && !strcmp(rows[0].key[0], "exec") && rows[0].samples == 2 &&
			      !strcmp(rows[1].key[0], "prog"), "comm: renamed in place, a new row");
			free(rows);
			spe_cost_free(t);
		}
	}
	many_rows();
	page_rows();
	row_order();
	perf_tie_order();
	merged_tables();
	return tap_done();
}
