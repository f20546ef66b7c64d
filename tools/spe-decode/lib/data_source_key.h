/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a load's or store's place in the memory hierarchy depends on
 * (lib/data_source.c): a summary that counts records by level needs
 * spe_perf_data_src() and its label once per key, not once per record.
 */
#ifndef SPE_DECODE_DATA_SOURCE_KEY_H
#define SPE_DECODE_DATA_SOURCE_KEY_H

#include <stdbool.h>
#include <stdint.h>

#include "spe_data_source.h"

/*
 * A number, never 0, such that two loads or stores (is_store says which)
 * with the same number get from spe_perf_data_src() the same level
 * (mem_lvl, mem_lvl_num), remote and snoop (mem_snoop, mem_snoopx)
 * fields.  The other fields (operation, TLB, lock, block) may differ.
 */
uint64_t spe_ds_level_key(enum spe_ds_table t, bool is_store, bool has_source, uint16_t source,
			  uint64_t events);

#endif /* SPE_DECODE_DATA_SOURCE_KEY_H */
