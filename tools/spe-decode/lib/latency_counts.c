// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Exact counts of latency values (latency_counts.h): a sorted array of
 * (value, count) words, found by binary search, and a few values waiting
 * to go in.  A new distinct value moves the words above it; there are at
 * most 65536 distinct values, and most rows of a cost table have a few
 * dozen.
 */
#include <stdlib.h>
#include <string.h>

#include "latency_counts.h"
#include "spe_decode.h"

#define COUNT_MAX	0xffffu

static unsigned value_of(uint32_t w)
{
	return w >> 16;
}

/* The first word of a value above v, searching from word lo on. */
static uint32_t above(const struct spe_lat_counts *c, uint32_t lo, unsigned v)
{
	uint32_t hi = c->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (value_of(c->w[mid]) <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Sorts the few values of a flush or a percentile (insertion sort). */
static void sort_few(uint16_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint16_t x = v[i];
		unsigned j = i;

		for (; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Moves the pending values and v into the words.  Room for a new word per
 * value is made first, so that a failure leaves the counts as they were;
 * then no step can fail.  The values go in ascending order, each searched
 * for from where the one before it was.
 */
static int flush(struct spe_lat_counts *c, uint16_t v)
{
	uint16_t vals[SPE_LAT_PENDING + 1];
	unsigned nv = c->npend + 1;
	uint32_t lo = 0;

	if (c->cap - c->n < nv) {
		uint32_t ncap = c->cap ? c->cap : 4;
		uint32_t *n;

		while (ncap - c->n < nv) {
			if (ncap > UINT32_MAX / 2)
				return SPE_ERR_NOMEM;
			ncap *= 2;
		}
		n = realloc(c->w, (size_t)ncap * sizeof(*n));
		if (!n)
			return SPE_ERR_NOMEM;
		c->w = n;
		c->cap = ncap;
	}
	memcpy(vals, c->pend, c->npend * sizeof(vals[0]));
	vals[c->npend] = v;
	sort_few(vals, nv);
	for (unsigned i = 0; i < nv; i++) {
		lo = above(c, lo, vals[i]);
		if (lo && value_of(c->w[lo - 1]) == vals[i] &&
		    (c->w[lo - 1] & COUNT_MAX) != COUNT_MAX) {
			c->w[lo - 1]++;
			continue;
		}
		memmove(c->w + lo + 1, c->w + lo, (size_t)(c->n - lo) * sizeof(*c->w));
		c->w[lo] = (uint32_t)vals[i] << 16 | 1;
		c->n++;
	}
	c->npend = 0;
	return 0;
}

int spe_lat_counts_add(struct spe_lat_counts *c, uint16_t v)
{
	if (c->npend < SPE_LAT_PENDING) {
		c->pend[c->npend++] = v;
	} else {
		int err = flush(c, v);

		if (err)
			return err;
	}
	c->total++;
	return 0;
}

/* Appends count n of value v to w at *k, in words of at most COUNT_MAX. */
static void put_count(uint32_t *w, uint32_t *k, unsigned v, uint64_t n)
{
	while (n) {
		uint32_t c = n > COUNT_MAX ? COUNT_MAX : (uint32_t)n;

		w[(*k)++] = (uint32_t)v << 16 | c;
		n -= c;
	}
}

/*
 * The two word lists merged into one, value by value: a value's count in
 * both takes at most as many words as it had in the two, so dst->n +
 * src->n words are enough.  Then src's pending values, one by one.
 */
int spe_lat_counts_merge(struct spe_lat_counts *dst, const struct spe_lat_counts *src)
{
	if (src->n) {
		uint32_t *w = malloc(((size_t)dst->n + src->n) * sizeof(*w));
		uint32_t i = 0, j = 0, k = 0;
		uint64_t words_total = 0;

		if (!w)
			return SPE_ERR_NOMEM;
		while (i < dst->n || j < src->n) {
			unsigned v = j == src->n || (i < dst->n && value_of(dst->w[i]) <= value_of(src->w[j])) ?
				     value_of(dst->w[i]) : value_of(src->w[j]);
			uint64_t n = 0;

			for (; i < dst->n && value_of(dst->w[i]) == v; i++)
				n += dst->w[i] & COUNT_MAX;
			for (; j < src->n && value_of(src->w[j]) == v; j++) {
				n += src->w[j] & COUNT_MAX;
				words_total += src->w[j] & COUNT_MAX;
			}
			put_count(w, &k, v, n);
		}
		free(dst->w);
		dst->w = w;
		dst->cap = dst->n + src->n;
		dst->n = k;
		dst->total += words_total;
	}
	for (unsigned p = 0; p < src->npend; p++) {
		int err = spe_lat_counts_add(dst, src->pend[p]);

		if (err)
			return err;
	}
	return 0;
}

/* The words and the pending values walked together in ascending order. */
unsigned spe_lat_counts_percentile(const struct spe_lat_counts *c, double pct)
{
	/* The rank as the report has always rounded it. */
	uint64_t want = (uint64_t)((pct / 100.0) * (double)c->total + 0.999999), seen = 0;
	uint16_t pend[SPE_LAT_PENDING];
	unsigned np = c->npend, j = 0, last = 0;
	uint32_t i = 0;

	if (want < 1)
		want = 1;
	memcpy(pend, c->pend, np * sizeof(pend[0]));
	sort_few(pend, np);
	while (i < c->n || j < np) {
		if (j < np && (i == c->n || pend[j] < value_of(c->w[i]))) {
			last = pend[j++];
			seen++;
		} else {
			last = value_of(c->w[i]);
			seen += c->w[i++] & COUNT_MAX;
		}
		if (seen >= want)
			return last;
	}
	return last;
}

void spe_lat_counts_free(struct spe_lat_counts *c)
{
	free(c->w);
	c->w = NULL;
	c->n = c->cap = 0;
	c->total = 0;
	c->npend = 0;
}
