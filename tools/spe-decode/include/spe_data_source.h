/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Data Source packets to perf_mem_data_src (lib/data_source.c): the
 * IMPLEMENTATION DEFINED encodings by CPU, as perf arm-spe.c maps them.
 */
#ifndef SPE_DATA_SOURCE_H
#define SPE_DATA_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
/*
 * A perf_mem_data_src as perf script 6.1 prints it after the value:
 * "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB Walker hit|LCK No|BLK  N/A".
 * Returns the length written (truncated to size - 1).
 */
size_t spe_data_src_describe(uint64_t data_src, char *buf, size_t size);

#endif /* SPE_DATA_SOURCE_H */
