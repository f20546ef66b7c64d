// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* SPE timestamp -> perf time with TIME_CONV (perf_event.h). */
#include "spe_perf_time.h"
#include "tap.h"

int main(void)
{
	struct spe_time_conv id = { .time_mult = 1 };
	/* 100 MHz timer: 10 ns per cycle = mult 10 << 24 >> shift 24. */
	struct spe_time_conv hz100 = { .time_shift = 24, .time_mult = 10ULL << 24,
				       .time_zero = 1000 };
	/* 25 MHz, 40 ns per cycle, with a short (32-bit) counter view. */
	struct spe_time_conv shortc = { .time_shift = 0, .time_mult = 40, .time_zero = 0,
					.time_cycles = 0x100000000ULL,
					.time_mask = 0xffffffffULL,
					.cap_user_time_short = true };
	/* A remainder that matters: mult 3, shift 1 -> 1.5 ns per cycle. */
	struct spe_time_conv frac = { .time_shift = 1, .time_mult = 3 };

	CHECK_EQ(spe_time_to_perf(&id, 123456789), 123456789, "identity conversion");
	CHECK_EQ(spe_time_to_perf(&hz100, 5), 1050, "zero + cycles * mult >> shift");
	CHECK_EQ(spe_time_to_perf(&frac, 3), 4, "remainder term: 3 cycles * 1.5 ns = 4 (rounded down)");
	CHECK_EQ(spe_time_to_perf(&hz100, 1ULL << 40), 1000 + 10 * (1ULL << 40),
		 "no overflow for large cycle counts (quotient/remainder split)");
	CHECK_EQ(spe_time_to_perf(&shortc, 0x10), (0x100000000ULL + 0x10) * 40,
		 "cap_user_time_short: cycles are rebased on time_cycles by the mask");
	CHECK_EQ(spe_perf_to_time(&hz100, spe_time_to_perf(&hz100, 777777)), 777777,
		 "perf time -> cycles inverts the conversion");
	return tap_done();
}
