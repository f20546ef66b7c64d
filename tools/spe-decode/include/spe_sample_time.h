/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The SAMPLE_TIME header feature of a perf.data file made from raw SPE
 * buffers: the first and last Timestamp of their records, in perf time.
 * spe-decode wrap and spe-gen --perf-data write it (both link the static
 * library).  The tools' own, as spe_sym_mapping.h: not installed (not in the
 * Makefile's PUBLIC_HEADERS), and libspe-decode.so does not export these
 * (libspe-decode.map).
 */
#ifndef SPE_SAMPLE_TIME_H
#define SPE_SAMPLE_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spe_perf_data.h"

struct spe_sample_time {
	bool any;			/* a record with a Timestamp packet seen */
	uint64_t first, last;		/* SPE timestamps (timer cycles) */
};

/* Adds the timestamps of the records in @len bytes at @buf to @t.
 * Corrupt stretches are skipped as the decoder resynchronises. */
void spe_sample_time_scan(const void *buf, size_t len, struct spe_sample_time *t);

/*
 * Gives @w the SAMPLE_TIME feature of @t in perf time (@tc, the
 * recording's TIME_CONV), or nothing when @t saw no timestamp.  Before
 * the writer's data; returns 0 or a writer error.
 */
int spe_sample_time_write(struct spe_perf_writer *w, const struct spe_time_conv *tc,
			  const struct spe_sample_time *t);

#endif /* SPE_SAMPLE_TIME_H */
