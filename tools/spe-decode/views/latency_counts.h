/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Exact counts of 16-bit latency values, small enough to keep one per
 * cost-table row, in one of two forms:
 *
 *  - words: the distinct values in ascending order, each with its count,
 *    packed in one 32-bit word (value << 16 | count).  A count that would
 *    pass 65535 starts another word of the same value, so a value's words
 *    are adjacent and only the last of them is not full.  4 bytes per
 *    distinct value (plus one word per 65535 records of a value), whatever
 *    the number of records: most rows have a few dozen values.
 *  - a histogram, once a row has SPE_LAT_HIST_MIN distinct values or more
 *    that lie close together: pages of 64 32-bit counts (256 bytes), a
 *    page allocated when a value in it first comes, found through the
 *    pointers of the pages from the lowest value's to the highest's.
 *    Counting is then an increment, where the words took a binary search
 *    and, for a new value, a move of the words above it.  A row turns
 *    into one only while its pages and pointers take at most
 *    SPE_LAT_HIST_RATIO times the words' bytes; later values far from
 *    the others can make it grow to 264 KiB at most (1024 pages and
 *    their pointers), and only rows of many distinct values become one.
 *
 * Counts are 32-bit, as the sums of latency_sum.h: under 2^32 records of
 * one value in a row.
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
#define SPE_LAT_HIST_MIN	64
#define SPE_LAT_HIST_RATIO	4
#define SPE_LAT_PAGE_SHIFT	6

struct spe_lat_counts {
	union {
		uint32_t *w;		/* words */
		uint32_t **page;	/* histogram (hist): pages n.. n + cap - 1,
					 * NULL until a value comes in one */
	};
	uint32_t n, cap;		/* words used, allocated; in a histogram,
					 * the first page and the pages */
	uint64_t total;			/* the counts' sum, pending values too */
	uint16_t pend[SPE_LAT_PENDING];	/* values not yet in w, any order */
	uint8_t npend;
	uint8_t hist;			/* the histogram form */
};

/* Counts v once more; SPE_ERR_NOMEM (also past 2^32 - 1 of a value in a
 * histogram) leaves the counts as they were. */
int spe_lat_counts_add(struct spe_lat_counts *c, uint16_t v);
/*
 * Adds src's counts to dst's (the counts of a table made by another
 * session, see spe_cost_merge()); src is unchanged.  SPE_ERR_NOMEM leaves
 * dst with part of src's counts added.
 */
int spe_lat_counts_merge(struct spe_lat_counts *dst, const struct spe_lat_counts *src);
/* Nearest rank: the smallest value with at least pct% of the counts at or
 * below it; 0 when empty. */
unsigned spe_lat_counts_percentile(const struct spe_lat_counts *c, double pct);
void spe_lat_counts_free(struct spe_lat_counts *c);

#endif /* SPE_LATENCY_COUNTS_H */
