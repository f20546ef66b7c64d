/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* spe-decode wrap: the first and last timestamp of raw SPE buffers. */
#ifndef SPE_CLI_WRAP_TIMES_H
#define SPE_CLI_WRAP_TIMES_H

#include <stdbool.h>
#include <stdint.h>

struct spe_wrap_times {
	bool any;			/* a record with a Timestamp packet seen */
	uint64_t first, last;		/* SPE timestamps (timer cycles) */
};

/*
 * Adds the timestamps of the records in the @size bytes of regular file
 * @fd (its read position is left alone) to @t.  Corrupt stretches are
 * skipped as the decoder resynchronises.  Returns 0, or -errno when the
 * file cannot be mapped.
 */
int spe_wrap_scan_times(int fd, uint64_t size, struct spe_wrap_times *t);

#endif /* SPE_CLI_WRAP_TIMES_H */
