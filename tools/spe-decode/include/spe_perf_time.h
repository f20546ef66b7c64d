/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * SPE timestamps and perf time (lib/perf_time.c): the conversion of a
 * TIME_CONV record (perf.data-file-format.txt, perf tsc.c).
 */
#ifndef SPE_PERF_TIME_H
#define SPE_PERF_TIME_H

#include <stdint.h>

#include "spe_perf_data.h"

/* SPE timestamp (generic-timer cycles) -> perf time in ns (perf_event.h). */
uint64_t spe_time_to_perf(const struct spe_time_conv *tc, uint64_t cyc);
/* perf time -> SPE timestamp, the inverse used to compare with sideband. */
uint64_t spe_perf_to_time(const struct spe_time_conv *tc, uint64_t ns);

#endif /* SPE_PERF_TIME_H */
