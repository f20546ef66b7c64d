// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Data Source packet values are IMPLEMENTATION DEFINED (DDI 0487 D18); the
 * cores' Technical Reference Manuals define them, and the CPU's MIDR_EL1
 * picks the table, as perf's arm-spe.c does.  The mapping to
 * perf_mem_data_src is the one perf uses, so that samples agree with perf script and perf mem.
 */
#include <stdarg.h>
#include <stdio.h>

#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_data_source.h"

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

/* Common encoding (Neoverse TRMs, perf arm-spe.c) -> level, snoop, remote. */
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

/* ---- perf script's text for a data_src --------------------------------- */

struct ds_text {
	char *b;
	size_t size, n;
};

static void ds_put(struct ds_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ds_put(struct ds_text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (t->n + 1 >= t->size)
		return;
	va_start(ap, fmt);
	k = vsnprintf(t->b + t->n, t->size - t->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->n += (size_t)k < t->size - t->n ? (size_t)k : t->size - t->n - 1;
}

/* The names of the set bits of @bits, " or " between them; how many. */
static int ds_bits(struct ds_text *t, uint64_t bits, const char *const *names, size_t nr,
		   int printed)
{
	for (size_t i = 0; i < nr; i++)
		if (bits & (1ULL << i) && names[i])
			ds_put(t, "%s%s", printed++ ? " or " : "", names[i]);
	return printed;
}

size_t spe_data_src_describe(uint64_t v, char *buf, size_t size)
{
	/* perf's names, by bit (PERF_MEM_LVL_*, _SNOOP_*, _TLB_*, _BLK_*). */
	static const char *const lvl[] = {
		"N/A", NULL, NULL, "L1", "LFB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
		"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)",
		"I/O", "Uncached",
	};
	static const char *const lvlnum[16] = {
		[PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache", [PERF_MEM_LVLNUM_LFB] = "LFB",
		[PERF_MEM_LVLNUM_RAM] = "RAM", [PERF_MEM_LVLNUM_PMEM] = "PMEM",
		[PERF_MEM_LVLNUM_NA] = "N/A",
	};
	static const char *const hops[] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	static const char *const tlb[] = { "N/A", NULL, NULL, "L1", "L2", "Walker", "Fault" };
	static const char *const blk[] = { "N/A", "Data", "Addr" };
	union perf_mem_data_src d = { .val = v };
	struct ds_text t = { .b = buf, .size = size };
	int printed;

	if (!size)
		return 0;
	buf[0] = '\0';
	ds_put(&t, "|OP ");
	if (d.mem_op & PERF_MEM_OP_NA)
		ds_put(&t, "N/A");
	else if (d.mem_op & PERF_MEM_OP_LOAD)
		ds_put(&t, "LOAD");
	else if (d.mem_op & PERF_MEM_OP_STORE)
		ds_put(&t, "STORE");
	else if (d.mem_op & PERF_MEM_OP_PFETCH)
		ds_put(&t, "PFETCH");
	else if (d.mem_op & PERF_MEM_OP_EXEC)
		ds_put(&t, "EXEC");
	else
		ds_put(&t, "No");

	ds_put(&t, "|LVL ");
	{
		size_t start = t.n;

		if (d.mem_remote)
			ds_put(&t, "Remote ");
		/* The hop count replaces the level bits when it is there. */
		if (d.mem_hops && d.mem_hops < sizeof(hops) / sizeof(hops[0])) {
			ds_put(&t, "%s ", hops[d.mem_hops]);
			printed = 0;
		} else {
			printed = ds_bits(&t, d.mem_lvl, lvl, sizeof(lvl) / sizeof(lvl[0]), 0);
		}
		if (d.mem_lvl_num) {
			ds_put(&t, "%s", printed++ ? " or " : "");
			if (lvlnum[d.mem_lvl_num])
				ds_put(&t, "%s", lvlnum[d.mem_lvl_num]);
			else
				ds_put(&t, "L%u", d.mem_lvl_num);
		}
		if (t.n == start)
			ds_put(&t, "N/A");
		if (d.mem_lvl & PERF_MEM_LVL_HIT)
			ds_put(&t, " hit");
		if (d.mem_lvl & PERF_MEM_LVL_MISS)
			ds_put(&t, " miss");
	}

	ds_put(&t, "|SNP ");
	printed = ds_bits(&t, d.mem_snoop, snoop, sizeof(snoop) / sizeof(snoop[0]), 0);
	printed = ds_bits(&t, d.mem_snoopx, snoopx, sizeof(snoopx) / sizeof(snoopx[0]), printed);
	if (!printed)
		ds_put(&t, "N/A");

	ds_put(&t, "|TLB ");
	printed = ds_bits(&t, d.mem_dtlb, tlb, sizeof(tlb) / sizeof(tlb[0]), 0);
	if (!printed)
		ds_put(&t, "N/A");
	if (d.mem_dtlb & PERF_MEM_TLB_HIT)
		ds_put(&t, " hit");
	if (d.mem_dtlb & PERF_MEM_TLB_MISS)
		ds_put(&t, " miss");

	ds_put(&t, "|LCK ");
	ds_put(&t, "%s", (d.mem_lock & PERF_MEM_LOCK_NA) ? "N/A" :
			 (d.mem_lock & PERF_MEM_LOCK_LOCKED) ? "Yes" : "No");

	ds_put(&t, "|BLK ");
	if (!d.mem_blk)
		ds_put(&t, " N/A");
	for (size_t i = 0; i < sizeof(blk) / sizeof(blk[0]); i++)
		if (d.mem_blk & (1u << i))
			ds_put(&t, " %s", blk[i]);
	return t.n;
}
