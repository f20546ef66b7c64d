/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * spe_time_to_perf() as an inline function, for the decode queues, which
 * convert every record's timestamp: a call per record there cost 3-4% of
 * report.  lib/perf_time.c exports it under the public name.
 */
#ifndef SPE_PERF_TIME_INLINE_H
#define SPE_PERF_TIME_INLINE_H

#include <stdint.h>

#include "spe_perf_data.h"

/*
 * The kernel's cycles-to-ns conversion of the generic timer, split into
 * quotient and remainder of the shift so that the product cannot overflow.
 */
static inline uint64_t spe_time_to_perf_inline(const struct spe_time_conv *tc, uint64_t cyc)
{
	uint64_t shift = tc->time_shift & 63;
	uint64_t quot, rem;

	if (tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	quot = cyc >> shift;
	rem = cyc & ((1ULL << shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> shift);
}

#endif /* SPE_PERF_TIME_INLINE_H */
