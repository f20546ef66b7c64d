// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Report aggregation: exact percentiles, data sources, rates, top symbols. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_decode.h"
#include "spe_data_source.h"
#include "spe_session.h"
#include "spe_sample_synth.h"
#include "spe_symbols.h"
#include "spe_report.h"
#include "tap.h"

static char text[8192];
static size_t text_len;

static int sink(void *ctx, const char *t, size_t n)
{
	(void)ctx;
	if (text_len + n < sizeof(text)) {
		memcpy(text + text_len, t, n);
		text_len += n;
		text[text_len] = '\0';
	}
	return 0;
}

/* n loads with total latency 10, 20, ... 10n. */
static struct spe_report *loads_10_to(int n)
{
	struct spe_report *r;
	struct spe_record rec = { 0 };
	struct spe_qrecord qr = { .rec = &rec, .ds_table = SPE_DS_TABLE_NONE };
	struct spe_sample s = { .qr = &qr };
	struct spe_sym sym = { .dso = "/bin/app", .name = "f", .has_sym = true };

	if (spe_report_new(&r))
		return NULL;
	for (int i = 1; i <= n; i++) {
		rec.present = SPE_REC_OP_TYPE | SPE_REC_LAT_TOTAL;
		rec.op_class = SPE_OP_CLASS_LDST;
		rec.lat_total = (uint16_t)(10 * i);
		spe_report_add(r, &s, &sym);
	}
	return r;
}

/*
 * Nearest-rank percentile: the value at rank ceil(p/100 * n) of the sorted
 * values.  The expected ranks below are computed in integers (per-mille),
 * independently of the floating-point code under test.
 */
static void percentiles_use_nearest_rank(void)
{
	static const unsigned permille[] = { 1, 100, 250, 500, 750, 900, 990, 999, 1000 };
	int bad = 0;

	for (int n = 7; n <= 8; n++) {
		struct spe_report *r = loads_10_to(n);

		if (!r)
			return;
		for (size_t i = 0; i < sizeof(permille) / sizeof(permille[0]); i++) {
			unsigned rank = (permille[i] * (unsigned)n + 999) / 1000;
			unsigned got = spe_report_percentile(r, SPE_REP_LOAD, 0,
							     permille[i] / 10.0);

			if (got != 10 * rank) {
				printf("# n=%d p%.1f: got %u, want %u\n", n,
				       permille[i] / 10.0, got, 10 * rank);
				bad++;
			}
		}
		spe_report_free(r);
	}
	CHECK_EQ(bad, 0, "percentiles with whole and fractional ranks are the value at rank ceil(p*n/100)");
}

static void top_lists_at_most_n_symbols(void)
{
	struct spe_report *r;
	struct spe_record rec = { 0 };
	struct spe_qrecord qr = { .rec = &rec, .ds_table = SPE_DS_TABLE_NONE };
	struct spe_sample s = { .qr = &qr };
	static const char *const names[] = { "sym_three", "sym_two", "sym_one" };

	if (spe_report_new(&r))
		return;
	for (int k = 0; k < 3; k++) {
		struct spe_sym sym = { .dso = "/bin/app", .name = names[k], .has_sym = true };

		for (int i = 0; i < 3 - k; i++)
			spe_report_add(r, &s, &sym);
	}
	text_len = 0;
	text[0] = '\0';
	spe_report_print(r, NULL, 2, sink, NULL);
	CHECK(strstr(text, "sym_three") && strstr(text, "sym_two") && !strstr(text, "sym_one"),
	      "report --top 2 with three symbols lists the two with most records, not the third");
	text_len = 0;
	text[0] = '\0';
	spe_report_print(r, NULL, 3, sink, NULL);
	CHECK(strstr(text, "sym_two") < strstr(text, "sym_one"),
	      "report --top 3 lists all three, by records");
	spe_report_free(r);
}

/*
 * Runs of samples in one symbol, a name in two DSOs, and a table that
 * grows under the entry counted last (2000 symbols): every count exact.
 */
static void symbol_runs_count_exactly(void)
{
	static char names[2000][16];
	struct spe_report *r;
	struct spe_record rec = { 0 };
	struct spe_qrecord qr = { .rec = &rec, .ds_table = SPE_DS_TABLE_NONE };
	struct spe_sample s = { .qr = &qr };
	struct spe_sym sym = { .has_sym = true };

	if (spe_report_new(&r))
		return;
	for (int i = 0; i < 2000; i++) {
		snprintf(names[i], sizeof(names[i]), "s%04d", i);
		sym.name = names[i];
		sym.dso = "/lib/a.so";
		spe_report_add(r, &s, &sym);
		spe_report_add(r, &s, &sym);
		sym.dso = "/lib/b.so";
		spe_report_add(r, &s, &sym);
	}
	sym.dso = "/lib/a.so";
	for (int i = 0; i < 5; i++)
		spe_report_add(r, &s, &sym);
	text_len = 0;
	text[0] = '\0';
	spe_report_print(r, NULL, 3, sink, NULL);
	CHECK(strstr(text, "\n       7   0.12%  s1999 ") && strstr(text, "\n       2   0.03%  s0000 ") &&
	      !strstr(text, "\n       3 "),
	      "2000 symbols in runs, one name in two DSOs: 7 for the last one, 2 for the others in a.so");
	spe_report_free(r);
}

static int add_sample(void *ctx, const struct spe_sample *s)
{
	static const struct spe_sym sym = { .dso = "/bin/app", .name = "f", .has_sym = true };

	spe_report_add(ctx, s, &sym);
	return 0;
}

/*
 * A report without filters counts records as decoded
 * (spe_report_add_record()); with them, the samples synthesised from the
 * records (spe_report_add()).  Both must print the same report: loads
 * from every level of the common table, with and without TLB events, a
 * load without a Data Source packet, stores, branches, other records, on
 * two data-source tables.
 */
static void records_count_as_their_samples(void)
{
	static const struct spe_sym sym = { .dso = "/bin/app", .name = "f", .has_sym = true };
	static char by_sample[8192];
	struct spe_report *a, *b;
	struct spe_itrace it;
	struct spe_synth sy;
	const char *why;

	if (spe_report_new(&a) || spe_report_new(&b))
		return;
	spe_itrace_parse("i1i", &it, &why);
	spe_synth_init(&sy, &it);
	for (int i = 0; i < 600; i++) {
		struct spe_record rec = { 0 };
		struct spe_qrecord qr = { .rec = &rec, .ds_table = i % 2 ? SPE_DS_TABLE_COMMON :
								SPE_DS_TABLE_NONE };
		static const uint8_t classes[4] = { SPE_OP_CLASS_LDST, SPE_OP_CLASS_LDST,
						    SPE_OP_CLASS_BRANCH, SPE_OP_CLASS_OTHER };

		rec.present = SPE_REC_OP_TYPE | SPE_REC_EVENTS | SPE_REC_LAT_TOTAL | SPE_REC_PC |
			      (i % 5 ? SPE_REC_DATA_SOURCE : 0) | (i % 3 ? SPE_REC_LAT_XLAT : 0);
		rec.op_class = classes[i % 4];
		rec.op_subclass = i % 8 == 1 ? SPE_OP_LDST_ST : 0;
		rec.events = (uint64_t)i * 0x9e3779b9u & (SPE_EV_L1D_ACCESS | SPE_EV_L1D_REFILL |
							   SPE_EV_TLB_ACCESS | SPE_EV_TLB_WALK |
							   SPE_EV_LLC_ACCESS | SPE_EV_LLC_MISS |
							   SPE_EV_MISPRED | SPE_EV_REMOTE_ACCESS);
		rec.data_source = (uint16_t)(i % 16);
		rec.lat_total = (uint16_t)(i % 97);
		rec.lat_xlat = (uint16_t)(i % 13);
		rec.pc.addr = i % 7 ? 0x400000 : 0xffff800008000000ull;
		spe_synth_record(&sy, &qr, add_sample, a);
		spe_report_add_record(b, &qr, &sym);
	}
	spe_synth_free(&sy);
	text_len = 0;
	text[0] = '\0';
	spe_report_print(a, NULL, 5, sink, NULL);
	memcpy(by_sample, text, sizeof(text));
	text_len = 0;
	text[0] = '\0';
	spe_report_print(b, NULL, 5, sink, NULL);
	CHECK(text_len > 500 && !strcmp(text, by_sample),
	      "600 records counted as records print the report of their samples");
	spe_report_free(a);
	spe_report_free(b);
}

/* Symbols with equal counts come by name, then by DSO (one function name
 * in two libraries): the same text whatever order they were met in. */
static void equal_counts_by_name_then_dso(void)
{
	static const char *const dsos[] = { "/lib/libb.so", "/lib/liba.so" };
	struct spe_record rec = { 0 };
	struct spe_qrecord qr = { .rec = &rec, .ds_table = SPE_DS_TABLE_NONE };
	struct spe_sample s = { .qr = &qr };
	char first[2][64];

	for (int order = 0; order < 2; order++) {
		struct spe_report *r;
		const char *a, *b;

		if (spe_report_new(&r))
			return;
		for (int k = 0; k < 2; k++) {
			struct spe_sym sym = { .dso = dsos[k ^ order], .name = "f", .has_sym = true };

			spe_report_add(r, &s, &sym);
		}
		text_len = 0;
		text[0] = '\0';
		spe_report_print(r, NULL, 5, sink, NULL);
		a = strstr(text, "/lib/liba.so");
		b = strstr(text, "/lib/libb.so");
		snprintf(first[order], sizeof(first[order]), "%s", a && b && a < b ? "liba" : "libb");
		spe_report_free(r);
	}
	CHECK(!strcmp(first[0], "liba") && !strcmp(first[1], "liba"),
	      "f in liba.so and f in libb.so, one record each: liba.so first, in either insertion order");
}

/* A data source of the older kind, with several level bits and no level
 * number, is labelled as perf mem does: "L2 or L3 hit". */
static void levels_joined_with_or(void)
{
	struct spe_report *r;
	struct spe_record rec = { .present = SPE_REC_OP_TYPE, .op_class = SPE_OP_CLASS_LDST };
	struct spe_qrecord qr = { .rec = &rec, .ds_table = SPE_DS_TABLE_COMMON };
	struct spe_sample s = { .qr = &qr };

	if (spe_report_new(&r))
		return;
	s.data_src = PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, L2) | PERF_MEM_S(LVL, L3) |
		     PERF_MEM_S(LVL, HIT);
	spe_report_add(r, &s, NULL);
	text_len = 0;
	text[0] = '\0';
	spe_report_print(r, NULL, 5, sink, NULL);
	CHECK(strstr(text, "100.00%  L2 or L3 hit\n") != NULL,
	      "two level bits without a level number: \"L2 or L3 hit\"");
	spe_report_free(r);

	/* Every level bit: the label is cut at its buffer (47 characters). */
	if (spe_report_new(&r))
		return;
	s.data_src = PERF_MEM_S(OP, LOAD) | ((uint64_t)0x7ff << (PERF_MEM_LVL_SHIFT + 3));
	spe_report_add(r, &s, NULL);
	text_len = 0;
	text[0] = '\0';
	spe_report_print(r, NULL, 5, sink, NULL);
	CHECK(strstr(text, "100.00%  L1 or LFB/MAB or L2 or L3 or Local RAM or Remot\n") != NULL,
	      "all eleven level bits: the label is cut at 47 characters, nothing written past it");
	spe_report_free(r);
}

/*
 * Record i of a varied stream: an operation class, latencies, events,
 * data sources and one of a few symbols, each given by separate strings
 * as another session's symbol layer would give them.
 */
static void varied_record(int i, int copy, struct spe_record *rec, struct spe_qrecord *qr,
			  struct spe_sample *s, struct spe_sym *sym)
{
	static char names[2][4][8] = {
		{ "alpha", "beta", "gamma", "alpha" }, { "alpha", "beta", "gamma", "alpha" },
	};
	static char dsos[2][2][16] = { { "/bin/app", "/lib/libc.so" }, { "/bin/app", "/lib/libc.so" } };
	static const uint64_t srcs[] = { 0x0, 0x8, 0x9, 0xb, 0xa };

	memset(rec, 0, sizeof(*rec));
	rec->present = SPE_REC_OP_TYPE | SPE_REC_LAT_TOTAL | SPE_REC_LAT_ISSUE | SPE_REC_EVENTS |
		       SPE_REC_DATA_SOURCE | (i % 7 ? SPE_REC_LAT_XLAT : 0);
	rec->op_class = (uint8_t)(i % 3);
	rec->op_subclass = (uint8_t)(i % 5 == 0);
	rec->lat_total = (uint16_t)(i * 37 % 4096);
	rec->lat_issue = (uint16_t)(i % 100);
	rec->lat_xlat = (uint16_t)(i % 13);
	rec->events = (uint64_t)(i * 2654435761u) & 0xfffe;
	rec->data_source = (uint16_t)srcs[(i / 3) % 5];
	qr->rec = rec;
	qr->ds_table = SPE_DS_TABLE_COMMON;
	memset(s, 0, sizeof(*s));
	s->qr = qr;
	{
		struct spe_ds_input in = {
			.is_load = rec->op_class == SPE_OP_CLASS_LDST && !rec->op_subclass,
			.is_store = rec->op_class == SPE_OP_CLASS_LDST && rec->op_subclass,
			.events = rec->events, .has_source = true, .source = rec->data_source,
		};

		s->data_src = spe_perf_data_src(SPE_DS_TABLE_COMMON, &in);
	}
	/* "alpha" twice in /bin/app: two symbols of one name, one row. */
	*sym = (struct spe_sym){ .dso = dsos[copy][i % 2], .name = names[copy][i % 4],
				 .has_sym = true };
}

/*
 * Reports of disjoint parts of a stream, merged, print what one report of
 * the whole stream prints, whatever symbol layers resolved each part.
 */
static void merge_equals_one_report(void)
{
	struct spe_report *whole, *a, *b;
	struct spe_record rec;
	struct spe_qrecord qr;
	struct spe_sample s;
	struct spe_sym sym;
	char want[8192];

	if (spe_report_new(&whole) || spe_report_new(&a) || spe_report_new(&b))
		abort();
	for (int i = 0; i < 5000; i++) {
		varied_record(i, 0, &rec, &qr, &s, &sym);
		spe_report_add(whole, &s, &sym);
		varied_record(i, (i / 7) % 3 == 0, &rec, &qr, &s, &sym);
		spe_report_add((i / 7) % 3 ? a : b, &s, &sym);
	}
	text_len = 0;
	spe_report_print(whole, NULL, 20, sink, NULL);
	memcpy(want, text, text_len + 1);
	CHECK(spe_report_merge(a, b) == 0, "merging reports succeeds");
	text_len = 0;
	spe_report_print(a, NULL, 20, sink, NULL);
	if (strcmp(want, text))
		printf("# want:\n%s\n# got:\n%s\n", want, text);
	CHECK(!strcmp(want, text) && strstr(text, "alpha") && strstr(text, "L1 hit") &&
	      strstr(text, "mispredicted"),
	      "two merged reports print what one report of all their records prints");
	{
		/* One row for "alpha" in /bin/app, though the records named
		 * it by four different strings. */
		const char *p = strstr(text, "alpha"), *q = p ? strstr(p + 1, "alpha") : NULL;

		CHECK(p && q && !strstr(q + 1, "alpha"),
		      "a symbol name and DSO is one row, whatever strings named it");
	}
	spe_report_free(whole);
	spe_report_free(a);
	spe_report_free(b);
}

/* The process's address space in kB (/proc/self/status VmSize), 0 when
 * it cannot be read. */
static long vm_size_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * spe_report_free() gives everything back: the memory (the unit tests
 * link LeakSanitizer, which fails the program on a leak at exit) and the
 * latency tables' mapping, which no leak checker sees: a report at a
 * time, 16 times over, must not grow the address space by more than a
 * few reports' worth (a report that kept its mapping: 16 of them).
 */
static void free_gives_everything_back(void)
{
	struct spe_report *r = NULL;
	long before, one, after;
	int bad = 0;

	spe_report_free(NULL);
	CHECK(1, "spe_report_free(NULL) does nothing");
	before = vm_size_kb();
	if (spe_report_new(&r)) {
		CHECK(0, "a report");
		return;
	}
	one = vm_size_kb() - before;
	spe_report_free(r);
	for (int i = 0; i < 16; i++) {
		if (spe_report_new(&r))
			bad++;
		spe_report_free(r);
	}
	after = vm_size_kb();
	if (!before || one <= 0) {
		tap_skip("spe_report_free() unmaps the latency tables", "no VmSize in /proc/self/status");
		return;
	}
	if (after - before >= 4 * one)
		printf("#   one report: %ld kB; 16 made and freed: %ld kB more\n", one, after - before);
	CHECK(!bad && after - before < 4 * one,
	      "spe_report_free() unmaps the latency tables: 16 reports made and freed take no more room than 4");
}

int main(void)
{
	merge_equals_one_report();
	free_gives_everything_back();
	struct spe_report *r;
	struct spe_record rec = { 0 };
	struct spe_qrecord qr = { .rec = &rec, .ds_table = SPE_DS_TABLE_COMMON };
	struct spe_sample s = { .qr = &qr };
	struct spe_sym hot = { .dso = "/bin/app", .name = "hot_loop", .has_sym = true };
	struct spe_sym cold = { .dso = "/bin/app", .name = "cold_path", .has_sym = true };
	struct spe_ds_input dsi = { .is_load = true, .has_source = true };

	percentiles_use_nearest_rank();
	top_lists_at_most_n_symbols();
	symbol_runs_count_exactly();
	records_count_as_their_samples();
	equal_counts_by_name_then_dso();
	levels_joined_with_or();
	text_len = 0;
	if (spe_report_new(&r))
		return 1;
	/* 100 loads with total latency 1..100, 90 from L1D, 10 from DRAM. */
	for (int i = 1; i <= 100; i++) {
		rec.present = SPE_REC_OP_TYPE | SPE_REC_LAT_TOTAL | SPE_REC_EVENTS;
		rec.op_class = SPE_OP_CLASS_LDST;
		rec.op_subclass = 0;
		rec.lat_total = (uint16_t)i;
		rec.events = SPE_EV_L1D_ACCESS | (i > 90 ? SPE_EV_L1D_REFILL : 0);
		dsi.source = i > 90 ? SPE_DS_COMMON_DRAM : SPE_DS_COMMON_L1D;
		s.data_src = spe_perf_data_src(SPE_DS_TABLE_COMMON, &dsi);
		spe_report_add(r, &s, i % 4 ? &hot : &cold);
	}
	/* 10 branches, 3 mispredicted. */
	for (int i = 0; i < 10; i++) {
		rec.present = SPE_REC_OP_TYPE | SPE_REC_EVENTS;
		rec.op_class = SPE_OP_CLASS_BRANCH;
		rec.events = i < 3 ? SPE_EV_MISPRED : 0;
		s.data_src = 0;
		spe_report_add(r, &s, &hot);
	}
	CHECK_EQ(spe_report_count(r, SPE_REP_LOAD), 100, "100 loads counted");
	CHECK_EQ(spe_report_percentile(r, SPE_REP_LOAD, 0, 50), 50, "p50 of 1..100 is 50");
	CHECK_EQ(spe_report_percentile(r, SPE_REP_LOAD, 0, 99), 99, "p99 of 1..100 is 99");
	CHECK_EQ(spe_report_percentile(r, SPE_REP_LOAD, 0, 100), 100, "max is 100");
	CHECK_EQ(spe_report_percentile(r, SPE_REP_STORE, 0, 50), 0, "no stores: 0");
	CHECK_EQ(spe_report_percentile(r, SPE_REP_LOAD, 1, 50), 0,
		 "issue latency absent from every record: no percentile");
	spe_report_print(r, NULL, 5, sink, NULL);
	CHECK(strstr(text, "90  90.00%  L1 hit\n") && strstr(text, "10  10.00%  RAM hit\n"),
	      "loads by data source, labelled as perf mem: 90% L1 hit, 10% RAM hit");
	CHECK(strstr(text, "L1D miss   10.00% of L1D accesses (10/100)"), "L1D miss rate of loads");
	CHECK(strstr(text, "mispredicted  30.00% (3/10)"), "branch mispredict rate");
	CHECK(strstr(text, "hot_loop") < strstr(text, "cold_path") &&
	      strstr(text, "      85  77.27%  hot_loop"), "top symbols sorted by records with shares");
	spe_report_free(r);

	/*
	 * A CPU outside the data-source tables (QEMU's, Cortex-A53): the level
	 * comes from the events, and a refill is a miss, never a hit.
	 */
	if (spe_report_new(&r))
		return 1;
	qr.ds_table = SPE_DS_TABLE_NONE;
	for (int i = 0; i < 100; i++) {
		struct spe_ds_input ev = { .is_load = true };

		rec.present = SPE_REC_OP_TYPE | SPE_REC_EVENTS;
		rec.op_class = SPE_OP_CLASS_LDST;
		rec.op_subclass = 0;
		ev.events = rec.events = SPE_EV_L1D_ACCESS | (i < 9 ? SPE_EV_L1D_REFILL : 0) |
			(i == 99 ? SPE_EV_LLC_ACCESS | SPE_EV_LLC_MISS | SPE_EV_REMOTE_ACCESS : 0);
		s.data_src = spe_perf_data_src(SPE_DS_TABLE_NONE, &ev);
		spe_report_add(r, &s, &hot);
	}
	text_len = 0;
	spe_report_print(r, NULL, 5, sink, NULL);
	CHECK(strstr(text, "      90  90.00%  L1 hit\n") &&
	      strstr(text, "       9   9.00%  L1 miss\n") &&
	      strstr(text, "       1   1.00%  Remote L3 miss\n"),
	      "no data-source table: 90 L1 hit, 9 L1 miss, 1 Remote L3 miss");
	CHECK(strstr(text, "L1D miss    9.00% of L1D accesses (9/100)"),
	      "no data-source table: the miss rate agrees with the labels");
	spe_report_free(r);

	/* Stores on the common table: perf mem says N/A. */
	if (spe_report_new(&r))
		return 1;
	qr.ds_table = SPE_DS_TABLE_COMMON;
	rec.op_subclass = SPE_OP_LDST_ST;
	dsi = (struct spe_ds_input){ .is_store = true };
	s.data_src = spe_perf_data_src(SPE_DS_TABLE_COMMON, &dsi);
	spe_report_add(r, &s, &hot);
	text_len = 0;
	spe_report_print(r, NULL, 5, sink, NULL);
	CHECK(strstr(text, "       1 100.00%  N/A\n"), "a store on the common table: N/A");
	spe_report_free(r);
	return tap_done();
}
