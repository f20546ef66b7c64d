/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* spe-decode dump of a perf.data: its SPE data as `perf report -D` shows it. */
#ifndef SPE_DECODE_CLI_PERF_DUMP_H
#define SPE_DECODE_CLI_PERF_DUMP_H

#include <stdbool.h>

#include "filter.h"
#include "input.h"
#include "spe_decode.h"

/* Dump the AUXTRACE_INFO, AUXTRACE and AUX records and every SPE packet.
 * Returns the exit status (0, or 1 after a data error, whose file offset
 * is reported; all data before it is dumped; 1 with "no arm_spe AUX data
 * in FILE" when there is none). */
/* @filter (may be NULL) selects AUX buffers: -C by their CPU, --pid/--tid
 * by their thread (per-thread recordings). */
int spe_perf_dump(struct spe_source *src, enum spe_desc_style style, bool strict,
		  const struct spe_filter *filter);

#endif /* SPE_DECODE_CLI_PERF_DUMP_H */
