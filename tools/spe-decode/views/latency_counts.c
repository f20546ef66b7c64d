// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Exact counts of latency values (latency_counts.h): a sorted array of
 * (value, count) words, found by binary search, and a few values waiting
 * to go in; or, for a row of many values close together, a histogram in
 * pages.  A new distinct value moves the words above it; there are at
 * most 65536 distinct values, and most rows of a cost table have a few
 * dozen.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "latency_counts.h"
#include "spe_decode.h"

#define COUNT_MAX	0xffffu
#define NR_PAGES	(65536u >> SPE_LAT_PAGE_SHIFT)
#define PAGE_VALUES	(1u << SPE_LAT_PAGE_SHIFT)
#define PAGE_MASK	(PAGE_VALUES - 1)

static unsigned value_of(uint32_t w)
{
	return w >> 16;
}

/* ---- Histogram --------------------------------------------------------- */

/* The page pointers widened to cover page p; SPE_ERR_NOMEM without memory. */
static int hist_cover(struct spe_lat_counts *c, unsigned p)
{
	unsigned lo = c->cap && c->n < p ? c->n : p;
	unsigned hi = c->cap && c->n + c->cap > p + 1 ? c->n + c->cap : p + 1;
	uint32_t **d = calloc(hi - lo, sizeof(*d));

	if (!d)
		return SPE_ERR_NOMEM;
	if (c->cap)
		memcpy(d + (c->n - lo), c->page, c->cap * sizeof(*d));
	free(c->page);
	c->page = d;
	c->n = lo;
	c->cap = hi - lo;
	return 0;
}

/* The count of v, its page allocated if it has none; NULL without memory. */
static uint32_t *hist_slot(struct spe_lat_counts *c, unsigned v)
{
	unsigned p = v >> SPE_LAT_PAGE_SHIFT;
	uint32_t **pg;

	if ((p < c->n || p >= c->n + c->cap || !c->cap) && hist_cover(c, p))
		return NULL;
	pg = &c->page[p - c->n];
	if (!*pg && !(*pg = calloc(PAGE_VALUES, sizeof(**pg))))
		return NULL;
	return &(*pg)[v & PAGE_MASK];
}

/* Adds n to v's count; SPE_ERR_NOMEM without memory or past 32 bits. */
static int hist_add(struct spe_lat_counts *c, unsigned v, uint64_t n)
{
	uint32_t *slot = hist_slot(c, v);

	if (!slot || n > UINT32_MAX - *slot)
		return SPE_ERR_NOMEM;
	*slot += (uint32_t)n;
	c->total += n;
	return 0;
}

static void hist_free(struct spe_lat_counts *c)
{
	for (unsigned p = 0; p < c->cap; p++)
		free(c->page[p]);
	free(c->page);
}

/*
 * Whether the words would be smaller as a histogram, by
 * SPE_LAT_HIST_RATIO: its pages and their pointers against the words.
 */
static bool hist_pays(const struct spe_lat_counts *c)
{
	size_t pages = 0, span;
	unsigned last = NR_PAGES;

	if (c->n < SPE_LAT_HIST_MIN)
		return false;
	for (uint32_t i = 0; i < c->n; i++) {
		unsigned p = value_of(c->w[i]) >> SPE_LAT_PAGE_SHIFT;

		pages += p != last;
		last = p;
	}
	span = (value_of(c->w[c->n - 1]) >> SPE_LAT_PAGE_SHIFT) -
	       (value_of(c->w[0]) >> SPE_LAT_PAGE_SHIFT) + 1;
	return pages * PAGE_VALUES * sizeof(uint32_t) + span * sizeof(uint32_t *) <=
	       (size_t)SPE_LAT_HIST_RATIO * c->n * sizeof(uint32_t);
}

/*
 * The words (and pending values) into a histogram.  Built aside, so that
 * without memory (or with a count past 32 bits) the words stay.
 */
static int to_hist(struct spe_lat_counts *c)
{
	struct spe_lat_counts h = { .hist = 1 };

	/* The pointers of the words' span at once, not page by page. */
	if (c->n && (hist_cover(&h, value_of(c->w[0]) >> SPE_LAT_PAGE_SHIFT) ||
		     hist_cover(&h, value_of(c->w[c->n - 1]) >> SPE_LAT_PAGE_SHIFT)))
		goto fail;
	for (uint32_t i = 0; i < c->n; i++)
		if (hist_add(&h, value_of(c->w[i]), c->w[i] & COUNT_MAX))
			goto fail;
	for (unsigned i = 0; i < c->npend; i++)
		if (hist_add(&h, c->pend[i], 1))
			goto fail;
	free(c->w);
	*c = h;
	return 0;
fail:
	hist_free(&h);
	return SPE_ERR_NOMEM;
}

/* ---- Words ------------------------------------------------------------- */

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
 * for from where the one before it was.  When the words had to grow, the
 * histogram may pay (hist_pays()): checked then, as the words double.
 */
static int flush(struct spe_lat_counts *c, uint16_t v)
{
	uint16_t vals[SPE_LAT_PENDING + 1];
	unsigned nv = c->npend + 1;
	uint32_t lo = 0;
	bool grew = false;

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
		grew = true;
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
	/* Without memory for it, the words go on. */
	if (grew && hist_pays(c))
		to_hist(c);
	return 0;
}

int spe_lat_counts_add(struct spe_lat_counts *c, uint16_t v)
{
	if (c->hist) {
		unsigned p = (v >> SPE_LAT_PAGE_SHIFT) - c->n;	/* below: wraps */
		uint32_t *slot = p < c->cap ? c->page[p] : NULL;

		/* Inline: the page is there nearly always. */
		if (slot && slot[v & PAGE_MASK] != UINT32_MAX) {
			slot[v & PAGE_MASK]++;
			c->total++;
			return 0;
		}
		return hist_add(c, v, 1);
	}
	if (c->npend < SPE_LAT_PENDING) {
		c->pend[c->npend++] = v;
	} else {
		uint64_t total = c->total;
		int err = flush(c, v);

		if (err)
			return err;
		c->total = total + 1;	/* to_hist() counted again */
		return 0;
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

/* The next value of the two lists at i and j, and the count of its words. */
static unsigned next_value(const struct spe_lat_counts *a, uint32_t *i,
			   const struct spe_lat_counts *b, uint32_t *j, uint64_t *n, uint64_t *of_b)
{
	unsigned v = *j == b->n || (*i < a->n && value_of(a->w[*i]) <= value_of(b->w[*j])) ?
		     value_of(a->w[*i]) : value_of(b->w[*j]);

	*n = *of_b = 0;
	for (; *i < a->n && value_of(a->w[*i]) == v; ++*i)
		*n += a->w[*i] & COUNT_MAX;
	for (; *j < b->n && value_of(b->w[*j]) == v; ++*j)
		*of_b += b->w[*j] & COUNT_MAX;
	*n += *of_b;
	return v;
}

/*
 * Two lists of words merged into dst's, value by value, into an array of
 * the words they make (counted first: a merged table keeps its rows, and
 * room to spare in each would be memory for nothing).
 */
static int merge_words(struct spe_lat_counts *dst, const struct spe_lat_counts *src)
{
	uint32_t i = 0, j = 0, k = 0, words = 0;
	uint64_t added = 0, n, of_src;
	uint32_t *w;

	while (i < dst->n || j < src->n) {
		next_value(dst, &i, src, &j, &n, &of_src);
		words += (uint32_t)((n + COUNT_MAX - 1) / COUNT_MAX);
	}
	w = malloc((size_t)(words ? words : 1) * sizeof(*w));
	if (!w)
		return SPE_ERR_NOMEM;
	i = j = 0;
	while (i < dst->n || j < src->n) {
		unsigned v = next_value(dst, &i, src, &j, &n, &of_src);

		put_count(w, &k, v, n);
		added += of_src;
	}
	free(dst->w);
	dst->w = w;
	dst->cap = words;
	dst->n = k;
	dst->total += added;
	return 0;
}

/*
 * Words into words while both are words; into a histogram when either is
 * one (dst turned into one first).  Then src's pending values.
 */
int spe_lat_counts_merge(struct spe_lat_counts *dst, const struct spe_lat_counts *src)
{
	int err = 0;

	if (src->hist && !dst->hist && to_hist(dst))
		return SPE_ERR_NOMEM;
	if (src->hist) {
		for (unsigned p = 0; p < src->cap && !err; p++)
			for (unsigned i = 0; src->page[p] && i < PAGE_VALUES && !err; i++)
				if (src->page[p][i])
					err = hist_add(dst, (src->n + p) << SPE_LAT_PAGE_SHIFT | i,
						       src->page[p][i]);
		return err;
	}
	if (dst->hist) {
		for (uint32_t i = 0; i < src->n && !err; i++)
			err = hist_add(dst, value_of(src->w[i]), src->w[i] & COUNT_MAX);
	} else if (src->n) {
		err = merge_words(dst, src);
	}
	for (unsigned p = 0; p < src->npend && !err; p++)
		err = spe_lat_counts_add(dst, src->pend[p]);
	return err;
}

/* In a histogram: the smallest value with want counts at or below it. */
static unsigned hist_rank(const struct spe_lat_counts *c, uint64_t want)
{
	uint64_t seen = 0;
	unsigned last = 0;

	for (unsigned p = 0; p < c->cap; p++)
		for (unsigned i = 0; c->page[p] && i < PAGE_VALUES; i++) {
			if (!c->page[p][i])
				continue;
			last = (c->n + p) << SPE_LAT_PAGE_SHIFT | i;
			seen += c->page[p][i];
			if (seen >= want)
				return last;
		}
	return last;
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
	if (c->hist)
		return hist_rank(c, want);
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
	if (c->hist)
		hist_free(c);
	else
		free(c->w);
	*c = (struct spe_lat_counts){ 0 };
}
