/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A sum of latency counter values that leaves the saturated ones out, for
 * every view that adds latencies up (the cost table's rows, c2c's lines
 * and offsets, so the HTML page's too).
 *
 * A counter saturates at its largest value (DDI 0487, PMSIDR_EL1
 * CountSize: 12 or 16 bits), which is not a latency.  The width is not in
 * perf.data: it is inferred from the values (spe_views.h), so it is known
 * only once every record was seen.  A sum therefore counts the values of
 * 4095 and of 65535 apart, and spe_lat_sum_get() takes out those of the
 * width found.  Counts are 32-bit: under 2^32 values per sum.
 */
#ifndef SPE_LATENCY_SUM_H
#define SPE_LATENCY_SUM_H

#include <stdbool.h>
#include <stdint.h>

#include "spe_views.h"

struct spe_lat_sum {
	uint64_t sum;			/* every value, saturated ones too */
	uint32_t n, sat12, sat16;
};

/* What a sum is for counters of a known width. */
struct spe_lat_total {
	uint64_t sum, n;		/* of the values that are latencies */
	uint64_t sat;			/* the saturated values left out */
};

/* Whether a counter value shows the counters are 16-bit wide. */
static inline bool spe_lat_is_wide(uint16_t v)
{
	return v > SPE_LAT_SAT12;
}

static inline void spe_lat_sum_add(struct spe_lat_sum *s, uint16_t v)
{
	s->sum += v;
	s->n++;
	s->sat12 += v == SPE_LAT_SAT12;
	s->sat16 += v == SPE_LAT_SAT16;
}

static inline struct spe_lat_total spe_lat_sum_get(const struct spe_lat_sum *s, bool wide)
{
	uint64_t sat = wide ? s->sat16 : s->sat12;

	return (struct spe_lat_total){
		.sum = s->sum - sat * (wide ? SPE_LAT_SAT16 : SPE_LAT_SAT12),
		.n = s->n - sat, .sat = sat,
	};
}

#endif /* SPE_LATENCY_SUM_H */
