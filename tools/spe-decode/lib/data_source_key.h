/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a load's or store's place in the memory hierarchy depends on, of
 * the inputs of spe_perf_data_src() (lib/data_source.c): a summary that
 * counts records by level needs spe_perf_data_src() and its label once
 * per key, not once per record.
 */
#ifndef SPE_DECODE_DATA_SOURCE_KEY_H
#define SPE_DECODE_DATA_SOURCE_KEY_H

#include <stdbool.h>
#include <stdint.h>

#include "spe/packet.h"
#include "spe_data_source.h"

/*
 * A number, never 0, such that two loads or stores (is_store says which)
 * with the same number get from spe_perf_data_src() the same level
 * (mem_lvl, mem_lvl_num), remote and snoop (mem_snoop, mem_snoopx)
 * fields.  The other fields (operation, TLB, lock, block) may differ.
 *
 * The inputs spe_perf_data_src() reads for these fields: with a table, a
 * store's are constant and a load's come from its source alone (0 without
 * a packet); without one, from the cache-access, refill and remote
 * events.  Never the TLB events: they set only the TLB field.  Bit 0 is
 * always set, so that no key is 0.  Inline: once per load or store.
 * tests/test_data_source.c checks it against spe_perf_data_src().
 */
static inline uint64_t spe_ds_level_key(enum spe_ds_table t, bool is_store, bool has_source,
					uint16_t source, uint64_t events)
{
	/* Bits [7:1] the table, 8 is_store, from 9 the rest. */
	_Static_assert(SPE_DS_TABLE_AMPEREONE < 128, "a table number must fit bits [7:1]");
	uint64_t key = 1 | ((uint64_t)t & 0x7f) << 1 | (uint64_t)is_store << 8;

	if (t == SPE_DS_TABLE_NONE)
		return key | (events & (SPE_EV_LLC_ACCESS | SPE_EV_LLC_MISS | SPE_EV_L1D_ACCESS |
					SPE_EV_L1D_REFILL | SPE_EV_REMOTE_ACCESS)) << 9;
	if (is_store)
		return key;
	return key | (uint64_t)(has_source ? source : 0) << 9;
}

#endif /* SPE_DECODE_DATA_SOURCE_KEY_H */
