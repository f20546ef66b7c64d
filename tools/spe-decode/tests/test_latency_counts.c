// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * views/latency_counts.c: the cost table's exact latency counts.  Every
 * percentile equals the nearest-rank value of the same latencies sorted,
 * for small and large sets, 12- and 16-bit values, saturated counters
 * (4095, 65535) and counts past the 16 bits a word holds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../views/latency_counts.h"
#include "spe_decode.h"
#include "tap.h"

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The nearest rank of the sorted values, rounded as the report does. */
static unsigned sorted_rank(const uint16_t *sorted, size_t n, double pct)
{
	uint64_t want = (uint64_t)((pct / 100.0) * (double)n + 0.999999);

	if (want < 1)
		want = 1;
	return sorted[want - 1];
}

static const double pcts[] = { 0.001, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };

/* Adds vals to fresh counts; whether every percentile matches the sort. */
static int matches(uint16_t *vals, size_t n, struct spe_lat_counts *c)
{
	int ok = 1;

	*c = (struct spe_lat_counts){ 0 };
	for (size_t i = 0; i < n; i++)
		if (spe_lat_counts_add(c, vals[i]))
			return 0;
	qsort(vals, n, sizeof(*vals), cmp_u16);
	for (size_t p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++)
		if (spe_lat_counts_percentile(c, pcts[p]) != sorted_rank(vals, n, pcts[p])) {
			printf("#   %zu values: p%g %u, sorted %u\n", n, pcts[p],
			       spe_lat_counts_percentile(c, pcts[p]), sorted_rank(vals, n, pcts[p]));
			ok = 0;
		}
	return ok && c->total == n;
}

/*
 * vals[0..n) counted in two parts, a at vals[0..k) and b at the rest,
 * then b merged into a: whether every percentile matches the sort.
 */
static int merged_matches(uint16_t *vals, size_t n, size_t k, int *forms)
{
	struct spe_lat_counts a = { 0 }, b = { 0 };
	int ok = 1;

	for (size_t i = 0; i < n; i++)
		if (spe_lat_counts_add(i < k ? &a : &b, vals[i]))
			return 0;
	*forms = a.hist << 1 | b.hist;
	if (spe_lat_counts_merge(&a, &b))
		return 0;
	qsort(vals, n, sizeof(*vals), cmp_u16);
	for (size_t p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++)
		ok &= spe_lat_counts_percentile(&a, pcts[p]) == sorted_rank(vals, n, pcts[p]);
	ok &= a.total == n;
	spe_lat_counts_free(&a);
	spe_lat_counts_free(&b);
	return ok;
}

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

int main(void)
{
	enum { BIG = 300000 };
	uint16_t *vals = malloc(BIG * sizeof(*vals));
	struct spe_lat_counts c;
	int ok = 1;

	if (!vals)
		return 1;

	c = (struct spe_lat_counts){ 0 };
	CHECK_EQ(spe_lat_counts_percentile(&c, 50), 0, "no values: percentile 0");
	CHECK(spe_lat_counts_add(&c, 7) == 0 && spe_lat_counts_percentile(&c, 0.001) == 7 &&
	      spe_lat_counts_percentile(&c, 100) == 7 && c.n + c.npend == 1,
	      "one value is every percentile");
	spe_lat_counts_free(&c);

	/* Few values per row, as most rows of a table: random sizes 1..40. */
	for (int round = 0; round < 2000 && ok; round++) {
		size_t n = 1 + rnd() % 40;

		for (size_t i = 0; i < n; i++)
			vals[i] = (uint16_t)(rnd() % 64);
		ok &= matches(vals, n, &c);
		spe_lat_counts_free(&c);
	}
	CHECK(ok, "small rows: every percentile equals the sorted values' nearest rank");

	/* 12-bit counters: values up to 4095, a tail saturated at 4095. */
	for (size_t i = 0; i < 20000; i++)
		vals[i] = (uint16_t)(i % 97 == 0 ? 4095 : rnd() % 4095);
	for (size_t i = 20000; i < 20300; i++)
		vals[i] = 4095;
	CHECK(matches(vals, 20300, &c), "12-bit values with saturated 4095s: exact percentiles");
	CHECK_EQ(spe_lat_counts_percentile(&c, 99.99), 4095, "the saturated tail is the p99.99");
	spe_lat_counts_free(&c);

	/* 16-bit counters: the whole range, with 65535 and 4095 as values. */
	for (size_t i = 0; i < BIG; i++)
		vals[i] = (uint16_t)(i % 1000 == 0 ? 65535 : i % 777 == 0 ? 4095 : rnd());
	CHECK(matches(vals, BIG, &c), "16-bit values, 65535 and 4095 among them: exact percentiles");
	CHECK(c.n <= 65536, "one word per distinct value");
	spe_lat_counts_free(&c);

	/* Counts past 16 bits: 200000 records of 3 values, in any order. */
	for (size_t i = 0; i < 200000; i++)
		vals[i] = (uint16_t)(i % 5 == 0 ? 10 : i % 5 < 4 ? 65535 : 20);
	CHECK(matches(vals, 200000, &c), "counts above 65535: exact percentiles");
	/* 10 and 20: 40000 each, one word; 65535: 120000, two words */
	CHECK_EQ(c.n, 4, "a full word of a value is followed by another of the same value");
	{
		uint64_t sum = 0;
		int sorted = 1;

		for (uint32_t i = 0; i < c.n; i++) {
			sum += c.w[i] & 0xffff;
			sorted &= i == 0 || (c.w[i] >> 16) >= (c.w[i - 1] >> 16);
		}
		CHECK(sorted && sum + c.npend == 200000,
		      "the words stay sorted and, with the values waiting, count every record");
	}
	spe_lat_counts_free(&c);

	/* Descending insertion (every value new at the front). */
	for (size_t i = 0; i < 70000; i++)
		vals[i] = (uint16_t)(65535 - i % 65536);
	CHECK(matches(vals, 70000, &c), "values arriving in descending order: exact percentiles");
	spe_lat_counts_free(&c);

	/* Many values close together (a row of a hot symbol): a histogram,
	 * exact as the words. */
	for (size_t i = 0; i < BIG; i++)
		vals[i] = (uint16_t)(100 + rnd() % 900);
	CHECK(matches(vals, BIG, &c) && c.hist,
	      "900 values close together: a histogram, exact percentiles");
	spe_lat_counts_free(&c);
	/* Few values far apart: the words stay (a histogram would be larger). */
	for (size_t i = 0; i < 20000; i++)
		vals[i] = (uint16_t)((rnd() % 300) * 211);
	CHECK(matches(vals, 20000, &c) && !c.hist, "300 values far apart stay words, exact");
	spe_lat_counts_free(&c);

	/* Merging: words into words, histograms into words and back, with
	 * values pending in both; counts past 16 bits in words. */
	{
		static const struct { size_t n, k; unsigned spread; int forms; const char *what; } m[] = {
			{ 1000, 400, 64, 0, "words into words" },
			{ 3, 1, 64, 0, "a few pending values into pending values" },
			{ 200000, 100000, 3, 0, "counts past 16 bits into counts past 16 bits" },
			{ 300000, 100, 900, 1, "a histogram into words" },
			{ 300000, 299900, 900, 2, "words into a histogram" },
			{ 300000, 150000, 900, 3, "a histogram into a histogram" },
			{ 10, 0, 64, 0, "into empty counts" },
		};

		for (size_t t = 0; t < sizeof(m) / sizeof(m[0]); t++) {
			char name[96];
			int forms = -1;

			for (size_t i = 0; i < m[t].n; i++)
				vals[i] = (uint16_t)(m[t].spread == 3 ? (i % 3) * 7 :
						     100 + rnd() % m[t].spread);
			snprintf(name, sizeof(name), "merged counts: %s: exact percentiles", m[t].what);
			CHECK(merged_matches(vals, m[t].n, m[t].k, &forms) && forms == m[t].forms, name);
		}
	}
	free(vals);
	return tap_done();
}
