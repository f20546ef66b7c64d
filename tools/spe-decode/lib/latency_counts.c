// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Exact counts of latency values (latency_counts.h): a sorted array of
 * (value, count) words, found by binary search.  A new distinct value
 * moves the words above it; there are at most 65536 distinct values, and
 * most rows of a cost table have a few dozen.
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

int spe_lat_counts_add(struct spe_lat_counts *c, uint16_t v)
{
	uint32_t lo = 0, hi = c->n;

	/* lo: the first word of a value above v */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (value_of(c->w[mid]) <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && value_of(c->w[lo - 1]) == v && (c->w[lo - 1] & COUNT_MAX) != COUNT_MAX) {
		c->w[lo - 1]++;
		c->total++;
		return 0;
	}
	if (c->n == c->cap) {
		uint32_t ncap = c->cap ? c->cap * 2 : 4;
		uint32_t *n;

		if (c->cap > UINT32_MAX / 2)
			return SPE_ERR_NOMEM;
		n = realloc(c->w, (size_t)ncap * sizeof(*n));
		if (!n)
			return SPE_ERR_NOMEM;
		c->w = n;
		c->cap = ncap;
	}
	memmove(c->w + lo + 1, c->w + lo, (size_t)(c->n - lo) * sizeof(*c->w));
	c->w[lo] = (uint32_t)v << 16 | 1;
	c->n++;
	c->total++;
	return 0;
}

unsigned spe_lat_counts_percentile(const struct spe_lat_counts *c, double pct)
{
	/* The rank as the report has always rounded it. */
	uint64_t want = (uint64_t)((pct / 100.0) * (double)c->total + 0.999999), seen = 0;

	if (want < 1)
		want = 1;
	for (uint32_t i = 0; i < c->n; i++) {
		seen += c->w[i] & COUNT_MAX;
		if (seen >= want)
			return value_of(c->w[i]);
	}
	return c->n ? value_of(c->w[c->n - 1]) : 0;
}

void spe_lat_counts_free(struct spe_lat_counts *c)
{
	free(c->w);
	c->w = NULL;
	c->n = c->cap = 0;
	c->total = 0;
}
