/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Exact counts of 16-bit latency values, small enough to keep one per
 * cost-table row: the distinct values in ascending order, each with its
 * count, packed in one 32-bit word (value << 16 | count).  A count that
 * would pass 65535 starts another word of the same value, so a value's
 * words are adjacent and only the last of them is not full.  Memory is 4
 * bytes per distinct value (at most 65536 of them, plus one word per
 * 65535 records of a value), whatever the number of records.
 */
#ifndef SPE_LATENCY_COUNTS_H
#define SPE_LATENCY_COUNTS_H

#include <stdint.h>

/*
 * New values wait in a few slots of their own before they go into the
 * words, all together: a row's words are a cold cache line or ten when a
 * record comes (a table has one row per symbol, tens of thousands without
 * symbols), and a binary search through them missed the cache at every
 * step.  The values of one flush are looked up in the same, warm lines.
 */
#define SPE_LAT_PENDING		7

struct spe_lat_counts {
	uint32_t *w;
	uint32_t n, cap;
	uint64_t total;			/* the counts' sum, pending values too */
	uint16_t pend[SPE_LAT_PENDING];	/* values not yet in w, any order */
	uint8_t npend;
};

/* Counts v once more; SPE_ERR_NOMEM leaves the counts as they were. */
int spe_lat_counts_add(struct spe_lat_counts *c, uint16_t v);
/*
 * Adds src's counts to dst's (the counts of a table made by another
 * session, see spe_cost_merge()); src is unchanged.  SPE_ERR_NOMEM leaves
 * dst as it was, or with some of src's pending values added.
 */
int spe_lat_counts_merge(struct spe_lat_counts *dst, const struct spe_lat_counts *src);
/* Nearest rank: the smallest value with at least pct% of the counts at or
 * below it; 0 when empty. */
unsigned spe_lat_counts_percentile(const struct spe_lat_counts *c, double pct);
void spe_lat_counts_free(struct spe_lat_counts *c);

#endif /* SPE_LATENCY_COUNTS_H */
