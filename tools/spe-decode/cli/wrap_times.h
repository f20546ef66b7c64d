/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * spe-decode wrap (and spe-gen --perf-data, which writes what wrap
 * writes): the first and last timestamp of raw SPE buffers, and the
 * SAMPLE_TIME feature made of them.
 */
#ifndef SPE_CLI_WRAP_TIMES_H
#define SPE_CLI_WRAP_TIMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spe_perf_data.h"

struct spe_wrap_times {
	bool any;			/* a record with a Timestamp packet seen */
	uint64_t first, last;		/* SPE timestamps (timer cycles) */
};

/* Adds the timestamps of the records in @len bytes at @buf to @t.
 * Corrupt stretches are skipped as the decoder resynchronises. */
void spe_wrap_scan_mem(const void *buf, size_t len, struct spe_wrap_times *t);

/*
 * The same for the @size bytes of regular file @fd (its read position is
 * left alone).  Returns 0, or -errno when the file cannot be mapped.
 */
int spe_wrap_scan_times(int fd, uint64_t size, struct spe_wrap_times *t);

/*
 * Gives @w the SAMPLE_TIME feature of @t in perf time (@tc, the
 * recording's TIME_CONV), or nothing when @t saw no timestamp.  Before
 * the writer's data; returns 0 or a writer error.
 */
int spe_wrap_sample_time(struct spe_perf_writer *w, const struct spe_time_conv *tc,
			 const struct spe_wrap_times *t);

#endif /* SPE_CLI_WRAP_TIMES_H */
