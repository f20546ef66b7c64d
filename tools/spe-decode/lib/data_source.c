// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Data Source packet values are IMPLEMENTATION DEFINED (spec-notes §2): the
 * CPU's MIDR_EL1 picks the table.  The mapping to perf_mem_data_src is the
 * one perf uses, so that samples agree with perf script and perf mem.
 */
#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_perf_synth.h"

#define MIDR_IMPLEMENTER(m)	(((m) >> 24) & 0xff)
#define MIDR_PARTNUM(m)		(((m) >> 4) & 0xfff)
#define MIDR_MATCH(imp, part)	(((uint32_t)(imp) << 12) | (part))

#define IMP_ARM		0x41
#define IMP_AMPERE	0xc0

struct ds_cpu {
	uint32_t match;		/* implementer << 12 | part number */
	enum spe_ds_table table;
};

/* Every variant and revision of these parts (perf's MIDR_ALL_VERSIONS). */
static const struct ds_cpu ds_cpus[] = {
	{ MIDR_MATCH(IMP_ARM, 0xd0c), SPE_DS_TABLE_COMMON },	/* Neoverse N1 */
	{ MIDR_MATCH(IMP_ARM, 0xd49), SPE_DS_TABLE_COMMON },	/* Neoverse N2 */
	{ MIDR_MATCH(IMP_ARM, 0xd40), SPE_DS_TABLE_COMMON },	/* Neoverse V1 */
	{ MIDR_MATCH(IMP_ARM, 0xd4f), SPE_DS_TABLE_COMMON },	/* Neoverse V2 */
	{ MIDR_MATCH(IMP_ARM, 0xd81), SPE_DS_TABLE_COMMON },	/* Cortex-A720 */
	{ MIDR_MATCH(IMP_ARM, 0xd87), SPE_DS_TABLE_COMMON },	/* Cortex-A725 */
	{ MIDR_MATCH(IMP_ARM, 0xd4c), SPE_DS_TABLE_COMMON },	/* Cortex-X1C */
	{ MIDR_MATCH(IMP_ARM, 0xd4e), SPE_DS_TABLE_COMMON },	/* Cortex-X3 */
	{ MIDR_MATCH(IMP_ARM, 0xd85), SPE_DS_TABLE_COMMON },	/* Cortex-X925 */
	{ MIDR_MATCH(IMP_AMPERE, 0xac3), SPE_DS_TABLE_AMPEREONE },	/* AmpereOne */
	{ MIDR_MATCH(IMP_AMPERE, 0xac4), SPE_DS_TABLE_AMPEREONE },	/* AmpereOne AC04 */
};

enum spe_ds_table spe_ds_table_for_midr(uint64_t midr)
{
	uint32_t m = MIDR_MATCH(MIDR_IMPLEMENTER(midr), MIDR_PARTNUM(midr));

	for (size_t i = 0; i < sizeof(ds_cpus) / sizeof(ds_cpus[0]); i++)
		if (ds_cpus[i].match == m)
			return ds_cpus[i].table;
	return SPE_DS_TABLE_NONE;
}

const char *spe_ds_table_name(enum spe_ds_table t)
{
	switch (t) {
	case SPE_DS_TABLE_COMMON:
		return "common (Neoverse/Cortex)";
	case SPE_DS_TABLE_AMPEREONE:
		return "AmpereOne";
	default:
		return "none (events only)";
	}
}

#define LVL(x)		PERF_MEM_S(LVL, x)
#define LVLNUM(x)	PERF_MEM_S(LVLNUM, x)
#define SNOOP(x)	PERF_MEM_S(SNOOP, x)
#define SNOOPX(x)	PERF_MEM_S(SNOOPX, x)

/* Common encoding (spec-notes §2) -> level, snoop, remote bits. */
static uint64_t ds_common(uint16_t source)
{
	switch (source) {
	case SPE_DS_COMMON_L1D:
		return LVL(L1) | LVL(HIT) | LVLNUM(L1) | SNOOP(NONE);
	case SPE_DS_COMMON_L2:
		return LVL(L2) | LVL(HIT) | LVLNUM(L2) | SNOOP(NONE);
	case SPE_DS_COMMON_PEER_CORE:
		return LVL(L2) | LVL(HIT) | LVLNUM(L2) | SNOOPX(PEER);
	/* L1 or L2 of another cluster is unknown, but cache-to-cache. */
	case SPE_DS_COMMON_LOCAL_CLUSTER:
	case SPE_DS_COMMON_PEER_CLUSTER:
		return LVL(L3) | LVL(HIT) | LVLNUM(L3) | SNOOPX(PEER);
	case SPE_DS_COMMON_SYS_CACHE:	/* system cache taken as L3 */
		return LVL(L3) | LVL(HIT) | LVLNUM(L3) | SNOOP(HIT);
	case SPE_DS_COMMON_REMOTE:	/* another socket, level unknown */
		return LVL(NA) | LVLNUM(NA) | PERF_MEM_S(REMOTE, REMOTE) | SNOOPX(PEER);
	case SPE_DS_COMMON_DRAM:
		return LVL(LOC_RAM) | LVL(HIT) | LVLNUM(RAM) | SNOOP(NONE);
	default:
		return 0;
	}
}

/* AmpereOne values mapped onto the common encoding, as newer perf does. */
static int ds_ampereone_to_common(uint16_t source)
{
	switch (source) {
	case SPE_DS_AMPERE_PEER_CORE:
		return SPE_DS_COMMON_PEER_CORE;
	case SPE_DS_AMPERE_SYS_CACHE:
		return SPE_DS_COMMON_SYS_CACHE;
	case SPE_DS_AMPERE_REMOTE:
		return SPE_DS_COMMON_REMOTE;
	case SPE_DS_AMPERE_DRAM:
		return SPE_DS_COMMON_DRAM;
	case SPE_DS_AMPERE_L1D:
		return SPE_DS_COMMON_L1D;
	case SPE_DS_AMPERE_L2:
		return SPE_DS_COMMON_L2;
	default:
		return -1;
	}
}

/* No usable table: the levels the Events packet reveals. */
static uint64_t ds_from_events(uint64_t ev)
{
	uint64_t v = 0;

	if (ev & (SPE_EV_LLC_ACCESS | SPE_EV_LLC_MISS))
		v = LVL(L3) | ((ev & SPE_EV_LLC_MISS) ? LVL(MISS) : LVL(HIT));
	else if (ev & (SPE_EV_L1D_ACCESS | SPE_EV_L1D_REFILL))
		v = LVL(L1) | ((ev & SPE_EV_L1D_REFILL) ? LVL(MISS) : LVL(HIT));
	if (ev & SPE_EV_REMOTE_ACCESS)
		v |= PERF_MEM_S(REMOTE, REMOTE);
	return v;
}

uint64_t spe_perf_data_src(enum spe_ds_table t, const struct spe_ds_input *in)
{
	uint64_t v;

	if (in->is_load)
		v = PERF_MEM_S(OP, LOAD);
	else if (in->is_store)
		v = PERF_MEM_S(OP, STORE);
	else
		return 0;

	if (t != SPE_DS_TABLE_NONE && in->is_store) {
		/* These tables say nothing about where a store went. */
		v |= LVL(NA) | LVLNUM(NA) | SNOOP(NA);
	} else if (t != SPE_DS_TABLE_NONE) {
		/*
		 * A load without a Data Source packet reads as source 0, as in
		 * perf (its record starts zeroed): L1D on the common table.
		 * Keeping that keeps samples identical to perf's.
		 */
		uint16_t raw = in->has_source ? in->source : 0;
		int src = t == SPE_DS_TABLE_AMPEREONE ? ds_ampereone_to_common(raw) : raw;

		v |= src < 0 ? 0 : ds_common((uint16_t)src);
	} else {
		v |= ds_from_events(in->events);
	}

	if (in->events & (SPE_EV_TLB_ACCESS | SPE_EV_TLB_WALK))
		v |= PERF_MEM_S(TLB, WK) |
		     ((in->events & SPE_EV_TLB_WALK) ? PERF_MEM_S(TLB, MISS) :
						      PERF_MEM_S(TLB, HIT));
	return v;
}
