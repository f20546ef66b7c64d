// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SPE timestamps <-> perf time with the TIME_CONV parameters (perf_event.h,
 * struct perf_event_mmap_page):
 * the kernel's cycles-to-ns conversion of the generic timer, split into
 * quotient and remainder of the shift so that the product cannot overflow.
 */
#include "spe_perf_time.h"
#include "perf_time_inline.h"

uint64_t spe_time_to_perf(const struct spe_time_conv *tc, uint64_t cyc)
{
	return spe_time_to_perf_inline(tc, cyc);
}

uint64_t spe_perf_to_time(const struct spe_time_conv *tc, uint64_t ns)
{
	uint64_t shift = tc->time_shift & 63;
	uint64_t t, quot, rem;

	if (!tc->time_mult)
		return 0;
	t = ns - tc->time_zero;
	quot = t / tc->time_mult;
	rem = t % tc->time_mult;
	return (quot << shift) + (rem << shift) / tc->time_mult;
}
