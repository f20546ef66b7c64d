// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Data source -> perf_mem_data_src by the CPU's MIDR (perf arm-spe.c). */
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_data_source.h"
#include "../lib/data_source_key.h"
#include "tap.h"

static uint64_t ds(enum spe_ds_table t, bool ld, uint64_t ev, int src)
{
	struct spe_ds_input in = { .is_load = ld, .is_store = !ld, .events = ev,
				   .has_source = src >= 0, .source = (uint16_t)(src < 0 ? 0 : src) };

	return spe_perf_data_src(t, &in);
}

/*
 * The text of a data_src (perf script's data_src field, perf's
 * mem-events names): snoop names, then the extended snoop names, " or "
 * between any two; and the text cut to any buffer size is a NUL-terminated
 * prefix of the whole, its length returned.
 */
static void describe_rules(void)
{
	static const struct {
		unsigned snoop, snoopx;
		const char *want;
	} snp[] = {
		{ 0, 0, "|SNP N/A|" },
		{ PERF_MEM_SNOOP_NONE, 0, "|SNP None|" },
		{ 0, PERF_MEM_SNOOPX_FWD, "|SNP Fwd|" },
		{ PERF_MEM_SNOOP_HIT, PERF_MEM_SNOOPX_PEER, "|SNP Hit or Peer|" },
		{ PERF_MEM_SNOOP_HIT | PERF_MEM_SNOOP_MISS, 0, "|SNP Hit or Miss|" },
	};
	union perf_mem_data_src d = { .val = 0 };
	char full[256], cut[256];
	size_t n, m;
	int bad = 0;

	for (size_t i = 0; i < sizeof(snp) / sizeof(snp[0]); i++) {
		d.val = 0;
		d.mem_op = PERF_MEM_OP_LOAD;
		d.mem_snoop = snp[i].snoop;
		d.mem_snoopx = snp[i].snoopx;
		spe_data_src_describe(d.val, full, sizeof(full));
		if (!strstr(full, snp[i].want)) {
			printf("# %s: want %s\n", full, snp[i].want);
			bad++;
		}
	}
	CHECK_EQ(bad, 0, "snoop then extended snoop names, ' or ' between them, N/A for none");

	d.val = 0;
	d.mem_op = PERF_MEM_OP_LOAD;
	d.mem_lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT;
	d.mem_snoop = PERF_MEM_SNOOP_NONE;
	n = spe_data_src_describe(d.val, full, sizeof(full));
	bad = n != strlen(full) || n < 20;
	for (size_t size = 1; size <= n + 1; size++) {
		memset(cut, 'x', sizeof(cut));
		m = spe_data_src_describe(d.val, cut, size);
		if (m != strlen(cut) || strncmp(cut, full, m) || m + 1 > size ||
		    m != (size > n ? n : size - 1))
			bad++;
	}
	memset(cut, 'x', sizeof(cut));
	bad += spe_data_src_describe(d.val, cut, 0) != 0 || cut[0] != 'x';
	CHECK_EQ(bad, 0, "a buffer of any size gets the longest prefix that fits, NUL-terminated; size 0 is left alone");
}

/* The fields spe_ds_level_key() promises: level, remote, snoop. */
static uint64_t level_fields(uint64_t v)
{
	return v & (0x3fffull << PERF_MEM_LVL_SHIFT | 0xfull << PERF_MEM_LVLNUM_SHIFT |
		    1ull << PERF_MEM_REMOTE_SHIFT | 0x1full << PERF_MEM_SNOOP_SHIFT |
		    3ull << PERF_MEM_SNOOPX_SHIFT);
}

#define KEYS	(1u << 20)

/*
 * Two loads or stores with the same level key get the same level, remote
 * and snoop fields (what the summary counts by the key, lib/report.c):
 * every table, with and without a Data Source packet, every source
 * value, and event sets that vary every bit (all 2^11 sets of the
 * architected ones for the first sources, pseudo-random 64-bit sets for
 * the others).  A key that left out an input those fields depend on
 * would give two different fields one key here.
 */
static void level_key_decides_level(void)
{
	struct { uint64_t key, fields; } *seen = calloc(KEYS, sizeof(*seen));
	uint64_t x = 0x9e3779b97f4a7c15ull;
	long bad = 0, keys = 0;

	if (!seen) {
		CHECK(0, "memory for the level-key table");
		return;
	}
	for (int t = SPE_DS_TABLE_NONE; t <= SPE_DS_TABLE_AMPEREONE; t++)
		for (int st = 0; st < 2; st++)
			for (int hs = 0; hs < 2; hs++)
				for (unsigned src = 0; src < 0x10000; src++) {
					unsigned n = src < 16 ? 1u << 11 : 8;

					for (unsigned e = 0; e < n; e++) {
						struct spe_ds_input in = {
							.is_load = !st, .is_store = st,
							.has_source = hs, .source = (uint16_t)src };
						uint64_t key, f;
						size_t h;

						x ^= x << 13, x ^= x >> 7, x ^= x << 17;
						in.events = src < 16 ? e : x;
						key = spe_ds_level_key((enum spe_ds_table)t, st, hs,
								       (uint16_t)src, in.events);
						f = level_fields(spe_perf_data_src((enum spe_ds_table)t, &in));
						bad += !key;
						h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 44);
						while (seen[h].key && seen[h].key != key)
							h = (h + 1) & (KEYS - 1);
						if (!seen[h].key) {
							seen[h].key = key;
							seen[h].fields = f;
							keys++;
						} else {
							bad += seen[h].fields != f;
						}
					}
				}
	CHECK(keys < KEYS / 2, "the level keys fit the test's table");
	CHECK_EQ(bad, 0, "loads and stores of one level key get one level, remote and snoop");
	free(seen);
}

int main(void)
{
	union perf_mem_data_src d;

	CHECK_EQ(spe_ds_table_for_midr(0x413fd0c1), SPE_DS_TABLE_COMMON, "Neoverse N1 r3p1 uses the common table");
	CHECK_EQ(spe_ds_table_for_midr(0x410fd4f0), SPE_DS_TABLE_COMMON, "Neoverse V2 uses the common table");
	CHECK_EQ(spe_ds_table_for_midr(0x410fd850), SPE_DS_TABLE_COMMON, "Cortex-X925 uses the common table");
	CHECK_EQ(spe_ds_table_for_midr(0xc00fac30), SPE_DS_TABLE_AMPEREONE, "AmpereOne uses its own table");
	CHECK_EQ(spe_ds_table_for_midr(0x410fd030), SPE_DS_TABLE_NONE, "Cortex-A53 has no table");
	{
		/*
		 * Every part perf gives the common table, and both AmpereOne
		 * parts, at any variant and revision: MIDR_EL1 (DDI 0487
		 * D19.2) has Implementer in bits 31:24, Variant 23:20,
		 * PartNum 15:4, Revision 3:0.
		 */
		static const unsigned common[] = { 0xd0c, 0xd49, 0xd40, 0xd4f, 0xd81,
						   0xd87, 0xd4c, 0xd4e, 0xd85 };
		static const unsigned ampere[] = { 0xac3, 0xac4 };
		int bad = 0;

		for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
			bad += spe_ds_table_for_midr(0x41000000u | 0x2f0000u | common[i] << 4 | 3) !=
			       SPE_DS_TABLE_COMMON;
		for (size_t i = 0; i < sizeof(ampere) / sizeof(ampere[0]); i++)
			bad += spe_ds_table_for_midr(0xc0000000u | 0x1f0000u | ampere[i] << 4) !=
			       SPE_DS_TABLE_AMPEREONE;
		/* The same part numbers under another implementer: no table. */
		bad += spe_ds_table_for_midr(0x42000000u | 0xd0c << 4) != SPE_DS_TABLE_NONE;
		bad += spe_ds_table_for_midr(0x41000000u | 0xac3 << 4) != SPE_DS_TABLE_NONE;
		CHECK_EQ(bad, 0, "each data-source CPU matches by implementer and part number only");
	}

	/* The value perf 6.1 printed for an N1 load, L1D hit, TLB access. */
	CHECK_EQ(ds(SPE_DS_TABLE_COMMON, true, SPE_EV_L1D_ACCESS | SPE_EV_TLB_ACCESS, 0),
		 0x288100142ULL, "N1 load from L1D with TLB hit = perf's 0x288100142");
	d.val = ds(SPE_DS_TABLE_COMMON, true, 0, SPE_DS_COMMON_DRAM);
	CHECK(d.mem_op == PERF_MEM_OP_LOAD && d.mem_lvl == (PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT) &&
	      d.mem_lvl_num == PERF_MEM_LVLNUM_RAM && d.mem_snoop == PERF_MEM_SNOOP_NONE,
	      "common 0xe: local DRAM hit");
	d.val = ds(SPE_DS_TABLE_COMMON, true, 0, SPE_DS_COMMON_REMOTE);
	CHECK(d.mem_remote == PERF_MEM_REMOTE_REMOTE && d.mem_snoopx == PERF_MEM_SNOOPX_PEER &&
	      d.mem_lvl == PERF_MEM_LVL_NA && d.mem_lvl_num == PERF_MEM_LVLNUM_NA,
	      "common 0xd: remote, peer transfer, level not available (as perf 6.1.192)");
	d.val = ds(SPE_DS_TABLE_COMMON, true, 0, SPE_DS_COMMON_PEER_CLUSTER);
	CHECK(d.mem_lvl_num == PERF_MEM_LVLNUM_L3 && d.mem_snoopx == PERF_MEM_SNOOPX_PEER,
	      "common 0xc: peer cluster is an L3-level peer transfer");
	d.val = ds(SPE_DS_TABLE_AMPEREONE, true, 0, SPE_DS_AMPERE_DRAM);
	CHECK(d.mem_lvl_num == PERF_MEM_LVLNUM_RAM, "AmpereOne 7 is DRAM");
	d.val = ds(SPE_DS_TABLE_AMPEREONE, true, 0, SPE_DS_AMPERE_L1D);
	CHECK(d.mem_lvl_num == PERF_MEM_LVLNUM_L1, "AmpereOne 8 is L1D");
	d.val = ds(SPE_DS_TABLE_COMMON, false, SPE_EV_L1D_ACCESS, -1);
	CHECK(d.mem_op == PERF_MEM_OP_STORE && d.mem_lvl == PERF_MEM_LVL_NA &&
	      d.mem_lvl_num == PERF_MEM_LVLNUM_NA && d.mem_snoop == PERF_MEM_SNOOP_NA,
	      "a store on a common-table CPU has no level");
	d.val = ds(SPE_DS_TABLE_NONE, true, SPE_EV_LLC_ACCESS | SPE_EV_LLC_MISS | SPE_EV_REMOTE_ACCESS, 3);
	CHECK(d.mem_lvl == (PERF_MEM_LVL_L3 | PERF_MEM_LVL_MISS) && d.mem_remote == PERF_MEM_REMOTE_REMOTE,
	      "unknown CPU: LLC miss and remote from the events, source ignored");
	d.val = ds(SPE_DS_TABLE_NONE, true, SPE_EV_L1D_ACCESS | SPE_EV_L1D_REFILL, -1);
	CHECK(d.mem_lvl == (PERF_MEM_LVL_L1 | PERF_MEM_LVL_MISS), "unknown CPU: L1D refill is an L1 miss");
	d.val = ds(SPE_DS_TABLE_COMMON, true, SPE_EV_TLB_ACCESS | SPE_EV_TLB_WALK, 0);
	CHECK(d.mem_dtlb == (PERF_MEM_TLB_WK | PERF_MEM_TLB_MISS), "TLB walk: walker miss");
	d.val = ds(SPE_DS_TABLE_COMMON, true, SPE_EV_L1D_REFILL | SPE_EV_LLC_ACCESS, -1);
	CHECK(d.mem_lvl == (PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT) && d.mem_lvl_num == PERF_MEM_LVLNUM_L1,
	      "known CPU, load without a Data Source packet: source 0 as perf reads it");
	{
		struct spe_ds_input in = { .events = SPE_EV_L1D_ACCESS };

		CHECK_EQ(spe_perf_data_src(SPE_DS_TABLE_COMMON, &in), 0,
			 "not a load or store: data_src 0");
	}
	describe_rules();
	level_key_decides_level();
	return tap_done();
}
