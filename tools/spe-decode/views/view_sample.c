// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What every analysis view reads off one record or sample the same way:
 * its operation class, its latency counters, and where its data came from
 * (perf_mem_data_src) as a phrase and as one of the classes the views
 * count; the page an address without a symbol is counted in.  One place,
 * so that report --sort, c2c, html and pprof never disagree on what a
 * "peer" or a "DRAM" access is, or on which rows code without symbols
 * makes.
 */
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "spe/packet.h"
#include "spe_decode.h"
#include "spe_views.h"

enum spe_rep_op spe_view_op(const struct spe_record *rec)
{
	if (!(rec->present & SPE_REC_OP_TYPE))
		return SPE_REP_OTHER;
	if (rec->op_class == SPE_OP_CLASS_LDST)
		return (rec->op_subclass & SPE_OP_LDST_ST) ? SPE_REP_STORE : SPE_REP_LOAD;
	if (rec->op_class == SPE_OP_CLASS_BRANCH)
		return SPE_REP_BRANCH;
	return SPE_REP_OTHER;
}

bool spe_view_latency(const struct spe_record *rec, int i, uint16_t *v)
{
	static const uint32_t bit[3] = { SPE_REC_LAT_TOTAL, SPE_REC_LAT_ISSUE, SPE_REC_LAT_XLAT };
	const uint16_t val[3] = { rec->lat_total, rec->lat_issue, rec->lat_xlat };

	if (!(rec->present & bit[i]))
		return false;
	*v = val[i];
	return true;
}

unsigned spe_view_latencies(const struct spe_record *rec, uint16_t v[3])
{
	v[0] = rec->lat_total;
	v[1] = rec->lat_issue;
	v[2] = rec->lat_xlat;
	return (unsigned)!!(rec->present & SPE_REC_LAT_TOTAL) |
	       (unsigned)!!(rec->present & SPE_REC_LAT_ISSUE) << 1 |
	       (unsigned)!!(rec->present & SPE_REC_LAT_XLAT) << 2;
}

void spe_view_data_src_text(uint64_t v, char *buf, size_t len)
{
	static const char *const lvl[16] = {
		[PERF_MEM_LVLNUM_L1] = "L1", [PERF_MEM_LVLNUM_L2] = "L2",
		[PERF_MEM_LVLNUM_L3] = "L3", [PERF_MEM_LVLNUM_L4] = "L4",
		[PERF_MEM_LVLNUM_ANY_CACHE] = "any cache", [PERF_MEM_LVLNUM_LFB] = "LFB",
		[PERF_MEM_LVLNUM_RAM] = "RAM", [PERF_MEM_LVLNUM_PMEM] = "PMEM",
	};
	union perf_mem_data_src d = { .val = v };
	const char *name = d.mem_lvl_num < 16 ? lvl[d.mem_lvl_num] : NULL;

	if (!v || (d.mem_lvl & PERF_MEM_LVL_NA && !name)) {
		snprintf(buf, len, "N/A");
		return;
	}
	snprintf(buf, len, "%s%s%s%s%s", d.mem_remote ? "remote " : "", name ? name : "level ?",
		 (d.mem_lvl & PERF_MEM_LVL_HIT) ? " hit" : (d.mem_lvl & PERF_MEM_LVL_MISS) ? " miss" : "",
		 (d.mem_snoopx & PERF_MEM_SNOOPX_PEER) ? " (peer)" : "",
		 (d.mem_snoop & PERF_MEM_SNOOP_HITM) ? " (HITM)" : "");
}

enum spe_view_ds spe_view_ds_class(uint64_t data_src)
{
	union perf_mem_data_src d = { .val = data_src };

	if (!data_src)
		return SPE_VIEW_DS_NA;
	/* Remote first: a line from another socket's cache is remote, not
	 * a peer, whatever level it came from there. */
	if (d.mem_remote)
		return SPE_VIEW_DS_REMOTE;
	if (d.mem_snoopx & PERF_MEM_SNOOPX_PEER)
		return SPE_VIEW_DS_PEER;
	switch (d.mem_lvl_num) {
	case PERF_MEM_LVLNUM_L1:
		return SPE_VIEW_DS_L1;
	case PERF_MEM_LVLNUM_L2:
		return SPE_VIEW_DS_L2;
	case PERF_MEM_LVLNUM_L3:
	case PERF_MEM_LVLNUM_L4:
		return SPE_VIEW_DS_LLC;
	case PERF_MEM_LVLNUM_RAM:
		return SPE_VIEW_DS_DRAM;
	}
	return SPE_VIEW_DS_NA;
}

uint64_t spe_view_unresolved_page(const struct spe_sym *sym, uint64_t addr, uint16_t cpumode,
				  bool *in_dso)
{
	/* spe_symbols_lookup() names no file ("[unknown]") outside the
	 * mappings; the kernel's elf_addr is the address itself. */
	*in_dso = cpumode != PERF_RECORD_MISC_KERNEL && strcmp(sym->dso, "[unknown]");
	return (*in_dso ? sym->elf_addr : addr) & ~(uint64_t)(SPE_VIEW_PAGE_SIZE - 1);
}

void spe_view_unresolved_name(const struct spe_sym *sym, uint64_t addr, uint16_t cpumode,
			      char *buf, size_t len)
{
	bool in_dso;
	uint64_t page = spe_view_unresolved_page(sym, addr, cpumode, &in_dso);

	if (in_dso)
		snprintf(buf, len, "unknown-page@%s+0x%" PRIx64, sym->dso, page);
	else
		snprintf(buf, len, "unknown-page@0x%" PRIx64, page);
}

bool spe_view_unresolved_parse(const char *arg, enum spe_view_unresolved *u)
{
	if (!strcmp(arg, "page"))
		*u = SPE_VIEW_UNRESOLVED_PAGE;
	else if (!strcmp(arg, "address"))
		*u = SPE_VIEW_UNRESOLVED_ADDRESS;
	else
		return false;
	return true;
}
