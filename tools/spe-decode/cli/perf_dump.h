/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* spe-decode dump of a perf.data: its SPE data as `perf report -D` shows it. */
#ifndef SPE_DECODE_CLI_PERF_DUMP_H
#define SPE_DECODE_CLI_PERF_DUMP_H

#include <stdbool.h>

#include "spe_decode.h"

/* True when path ("-" = stdin, which is then assumed to be perf's pipe
 * format) starts with the perf.data magic. */
bool spe_is_perf_data(const char *path);

/* Dump the AUXTRACE_INFO, AUXTRACE and AUX records and every SPE packet.
 * Returns the exit status (0, or 1 after a data error, whose file offset
 * is reported; all data before it is dumped). */
int spe_perf_dump(const char *path, enum spe_desc_style style, bool strict);

#endif /* SPE_DECODE_CLI_PERF_DUMP_H */
