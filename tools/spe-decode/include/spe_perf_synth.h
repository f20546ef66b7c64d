/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * From SPE records to perf samples: time conversion, data-source tables,
 * decode queues and sample synthesis (spec-notes §4, §5).
 */
#ifndef SPE_PERF_SYNTH_H
#define SPE_PERF_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "spe_perf_data.h"

/* ---- Time conversion (lib/perf_time.c) ------------------------------------ */

/* SPE timestamp (generic-timer cycles) -> perf time in ns (spec-notes §4). */
uint64_t spe_time_to_perf(const struct spe_time_conv *tc, uint64_t cyc);
/* perf time -> SPE timestamp, the inverse used to compare with sideband. */
uint64_t spe_perf_to_time(const struct spe_time_conv *tc, uint64_t ns);

/* ---- Data source (lib/data_source.c) -------------------------------------- */

/* Which IMPLEMENTATION DEFINED Data Source encoding a CPU uses. */
enum spe_ds_table {
	SPE_DS_TABLE_NONE = 0,		/* unknown CPU: derive from events only */
	SPE_DS_TABLE_COMMON,		/* Neoverse N1/N2/V1/V2, Cortex-A720/A725/X1C/X3/X925 */
	SPE_DS_TABLE_AMPEREONE,		/* AmpereOne */
};

enum spe_ds_table spe_ds_table_for_midr(uint64_t midr);
const char *spe_ds_table_name(enum spe_ds_table t);

/* What the data-source synthesis needs from a record. */
struct spe_ds_input {
	bool is_load, is_store;		/* Operation Type class 1, bit 0 */
	uint64_t events;		/* Events packet, SPE_EV_* */
	bool has_source;		/* a Data Source packet was present */
	uint16_t source;
};

/*
 * The perf_mem_data_src value perf gives a record (0 when the record is not
 * a load or store): perf 6.1's mapping for the common encoding, AmpereOne
 * mapped onto it as newer perf does, and the event bits (L1D/LLC access and
 * refill, TLB access and walk, remote) otherwise.
 */
uint64_t spe_perf_data_src(enum spe_ds_table t, const struct spe_ds_input *in);

#endif /* SPE_PERF_SYNTH_H */
