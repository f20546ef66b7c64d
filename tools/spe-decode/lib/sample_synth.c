// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Sample synthesis: the samples perf makes of an SPE record (perf arm-spe.c),
 * group by group in perf's order, with the fields perf fills (time, cpu,
 * pid/tid, ip, cpumode, addr, phys_addr, data_src, weight) plus the issue
 * and translation latencies perf drops.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_decode.h"
#include "spe_data_source.h"
#include "spe_session.h"
#include "spe_sample_synth.h"

static const char *const names[SPE_S_NR] = {
	[SPE_S_L1D_MISS] = "l1d-miss",
	[SPE_S_L1D_ACCESS] = "l1d-access",
	[SPE_S_LLC_MISS] = "llc-miss",
	[SPE_S_LLC_ACCESS] = "llc-access",
	[SPE_S_TLB_MISS] = "tlb-miss",
	[SPE_S_TLB_ACCESS] = "tlb-access",
	[SPE_S_BRANCH] = "branch",
	[SPE_S_REMOTE_ACCESS] = "remote-access",
	[SPE_S_MEMORY] = "memory",
	[SPE_S_INSTRUCTIONS] = "instructions",
};

int spe_perf_version_parse(const char *s)
{
	if (!strcmp(s, "6.1"))
		return SPE_PERF_6_1;
	if (!strcmp(s, "6.12"))
		return SPE_PERF_6_12;
	if (!strcmp(s, "7.3"))
		return SPE_PERF_7_3;
	return -1;
}

void spe_itrace_for_perf(struct spe_itrace *o, enum spe_perf_version v,
			 bool default_groups, bool default_branches)
{
	o->perf_version = v;
	if (default_branches)
		o->branch_miss = v != SPE_PERF_7_3;
	if (default_groups && v == SPE_PERF_7_3) {
		o->want[SPE_S_INSTRUCTIONS] = true;
		o->period = 1;
	}
}

const char *spe_sample_name(const struct spe_itrace *o, enum spe_sample_kind k)
{
	if (k == SPE_S_BRANCH && o && o->branch_miss)
		return "branch-miss";
	return k < SPE_S_NR ? names[k] : "unknown";
}

int spe_sample_kind_by_name(const char *name)
{
	if (!strcmp(name, "branch-miss") || !strcmp(name, "branch-misses"))
		return SPE_S_BRANCH;
	for (int k = 0; k < SPE_S_NR; k++)
		if (!strcmp(name, names[k]))
			return k;
	return -1;
}

void spe_itrace_default(struct spe_itrace *o)
{
	memset(o, 0, sizeof(*o));
	for (int k = 0; k < SPE_S_NR; k++)
		o->want[k] = k != SPE_S_INSTRUCTIONS;
	o->period = 1;
}

int spe_itrace_parse(const char *s, struct spe_itrace *o, const char **why)
{
	memset(o, 0, sizeof(*o));
	o->period = 1;
	if (!*s) {
		spe_itrace_default(o);
		return 0;
	}
	for (; *s; s++) {
		switch (*s) {
		case 'i':
			o->want[SPE_S_INSTRUCTIONS] = true;
			if (s[1] >= '0' && s[1] <= '9') {
				char *end;
				unsigned long long p = strtoull(s + 1, &end, 10);

				if (!p) {
					*why = "the instruction period must be at least 1";
					return SPE_ERR_INVAL;
				}
				if (*end == 'i') {
					end++;
				} else if (*end == 't' || *end == 'm' || *end == 'u' || *end == 'n') {
					*why = "only instruction-based periods (e.g. i100i) apply to SPE";
					return SPE_ERR_INVAL;
				}
				o->period = p;
				s = end - 1;
			}
			break;
		case 'b':
			o->want[SPE_S_BRANCH] = true;
			break;
		case 'f':
			o->want[SPE_S_L1D_MISS] = o->want[SPE_S_L1D_ACCESS] = true;
			break;
		case 'm':
			o->want[SPE_S_LLC_MISS] = o->want[SPE_S_LLC_ACCESS] = true;
			break;
		case 't':
			o->want[SPE_S_TLB_MISS] = o->want[SPE_S_TLB_ACCESS] = true;
			break;
		case 'a':
			o->want[SPE_S_REMOTE_ACCESS] = true;
			break;
		case 'M':
			o->want[SPE_S_MEMORY] = true;
			break;
		case 'l':
			o->last_branch = true;
			break;
		/* perf letters that have no SPE meaning: accepted, no effect. */
		case 'c': case 'r': case 'x': case 'w': case 'p': case 'e':
		case 'd': case 'o': case 'g': case 's': case 'q': case 'A':
		case 'Z': case 'I': case 'L': case 'y':
			break;
		default:
			*why = "unknown --itrace letter (SPE uses i b f m t a M l)";
			return SPE_ERR_INVAL;
		}
	}
	return 0;
}

int spe_synth_init(struct spe_synth *sy, const struct spe_itrace *opts)
{
	memset(sy, 0, sizeof(*sy));
	sy->opts = *opts;
	if (!sy->opts.period)
		sy->opts.period = 1;
	for (int k = 0; k < SPE_S_NR; k++)
		if (sy->opts.want[k])
			sy->want_mask |= 1u << k;
	sy->every_record = sy->want_mask == 1u << SPE_S_INSTRUCTIONS && sy->opts.period == 1;
	return 0;
}

void spe_synth_free(struct spe_synth *sy)
{
	free(sy->insn_count);
	sy->insn_count = NULL;
}

/* The instruction period counts records per queue, as perf does. */
static bool insn_due(struct spe_synth *sy, uint32_t queue)
{
	if (sy->opts.period == 1)	/* every record: nothing to count */
		return true;
	if (queue >= sy->nr_counts) {
		uint32_t n = queue + 16;
		uint64_t *c = realloc(sy->insn_count, n * sizeof(*c));

		if (!c)
			return true;
		memset(c + sy->nr_counts, 0, (n - sy->nr_counts) * sizeof(*c));
		sy->insn_count = c;
		sy->nr_counts = n;
	}
	if (++sy->insn_count[queue] < sy->opts.period)
		return false;
	sy->insn_count[queue] = 0;
	return true;
}

/* What the data source of qr's record needs: op, events, Data Source. */
static struct spe_ds_input ds_input(const struct spe_record *rec)
{
	bool ldst = (rec->present & SPE_REC_OP_TYPE) && rec->op_class == SPE_OP_CLASS_LDST;

	return (struct spe_ds_input){
		.is_load = ldst && !(rec->op_subclass & SPE_OP_LDST_ST),
		.is_store = ldst && (rec->op_subclass & SPE_OP_LDST_ST),
		.events = (rec->present & SPE_REC_EVENTS) ? rec->events : 0,
		.has_source = rec->present & SPE_REC_DATA_SOURCE,
		.source = rec->data_source,
	};
}

/*
 * Is rec, neither a load nor a store, a record that perf version v takes
 * for a memory operation?  *as_load: it gets a load's data source (6.1),
 * else one whose operation is N/A (7.3).  See enum spe_perf_version.
 */
static bool perf_takes_for_mem(const struct spe_record *rec, enum spe_perf_version v,
			       bool *as_load)
{
	uint8_t sub = rec->op_subclass;
	unsigned int hint = SPE_OP_BR_HINT(sub);

	*as_load = false;
	if (!(rec->present & SPE_REC_OP_TYPE))
		return false;
	switch (v) {
	case SPE_PERF_6_1:
		*as_load = rec->op_class == SPE_OP_CLASS_OTHER && SPE_OP_OTHER_IS_SVE(sub);
		return *as_load;
	case SPE_PERF_7_3:
		if (rec->op_class == SPE_OP_CLASS_BRANCH)
			return hint == SPE_OP_BR_HINT_CALL || hint == SPE_OP_BR_HINT_RET;
		return rec->op_class == SPE_OP_CLASS_OTHER &&
		       (SPE_OP_OTHER_IS_SVE(sub) || SPE_OP_OTHER_IS_SME(sub) ||
			(SPE_OP_OTHER_IS_PLAIN(sub) && (sub & SPE_OP_OTHER_ASE)));
	case SPE_PERF_6_12:
	default:
		return false;
	}
}

/* The data source of rec as perf version v gives it. */
static uint64_t versioned_data_src(enum spe_ds_table t, const struct spe_record *rec,
				   struct spe_ds_input *dsi, enum spe_perf_version v)
{
	bool as_load;
	uint64_t val;

	if (dsi->is_load || dsi->is_store || !perf_takes_for_mem(rec, v, &as_load))
		return spe_perf_data_src(t, dsi);
	dsi->is_load = true;
	val = spe_perf_data_src(t, dsi);
	dsi->is_load = false;
	if (!as_load)
		val = (val & ~((uint64_t)0x1f << PERF_MEM_OP_SHIFT)) | PERF_MEM_S(OP, NA);
	return val;
}

uint64_t spe_synth_data_src(const struct spe_qrecord *qr)
{
	struct spe_ds_input dsi = ds_input(qr->rec);

	return spe_perf_data_src(qr->ds_table, &dsi);
}

static uint32_t branch_flags(const struct spe_record *rec)
{
	uint32_t f = SPE_BRF_BRANCH;
	unsigned int hint = SPE_OP_BR_HINT(rec->op_subclass);

	if (rec->events & SPE_EV_MISPRED)
		f |= SPE_BRF_MISPRED;
	if (rec->events & SPE_EV_NOT_TAKEN)
		f |= SPE_BRF_NOT_TAKEN;
	if (rec->op_subclass & SPE_OP_BR_COND)
		f |= SPE_BRF_CONDITIONAL;
	if (rec->op_subclass & SPE_OP_BR_INDIRECT)
		f |= SPE_BRF_INDIRECT;
	if (hint == SPE_OP_BR_HINT_CALL)
		f |= SPE_BRF_CALL;
	else if (hint == SPE_OP_BR_HINT_RET || hint == SPE_OP_BR_HINT_NONLINK_RET)
		f |= SPE_BRF_RETURN;
	return f;
}

/* The kinds an Events packet triggers (perf arm-spe.c's groups). */
static uint32_t events_kinds(uint64_t ev)
{
	return (uint32_t)!!(ev & SPE_EV_L1D_REFILL) << SPE_S_L1D_MISS |
	       (uint32_t)!!(ev & SPE_EV_L1D_ACCESS) << SPE_S_L1D_ACCESS |
	       (uint32_t)!!(ev & SPE_EV_LLC_MISS) << SPE_S_LLC_MISS |
	       (uint32_t)!!(ev & SPE_EV_LLC_ACCESS) << SPE_S_LLC_ACCESS |
	       (uint32_t)!!(ev & SPE_EV_TLB_WALK) << SPE_S_TLB_MISS |
	       (uint32_t)!!(ev & SPE_EV_TLB_ACCESS) << SPE_S_TLB_ACCESS |
	       (uint32_t)!!(ev & SPE_EV_REMOTE_ACCESS) << SPE_S_REMOTE_ACCESS;
}

/*
 * The wanted kinds a record has, as bits: most records have two or three
 * of the nine script wants, and testing each kind in turn cost more than
 * the samples it let through.
 */
static uint32_t wanted_kinds(const struct spe_synth *sy, uint64_t ev, bool branch,
			     uint64_t data_src)
{
	uint32_t todo = events_kinds(ev);

	/* Branch samples: 6.1's of mispredicted records, newer perf's of
	 * every branch. */
	if (sy->opts.branch_miss ? (ev & SPE_EV_MISPRED) : branch)
		todo |= 1u << SPE_S_BRANCH;
	/* A load or store, or what the perf version takes for one
	 * (versioned_data_src()): the data source is never 0 then. */
	if (data_src)
		todo |= 1u << SPE_S_MEMORY;
	todo |= 1u << SPE_S_INSTRUCTIONS;	/* when due: insn_due() */
	return todo & sy->want_mask;
}

int spe_synth_record(struct spe_synth *sy, const struct spe_qrecord *qr,
		     int (*emit)(void *ctx, const struct spe_sample *s), void *ctx)
{
	const struct spe_record *rec = qr->rec;
	const struct spe_itrace *o = &sy->opts;
	bool branch = (rec->present & SPE_REC_OP_TYPE) && rec->op_class == SPE_OP_CLASS_BRANCH;
	struct spe_ds_input dsi = ds_input(rec);
	uint64_t ev = dsi.events;
	struct spe_sample s;	/* filled field by field: this runs per record */
	uint64_t va = (rec->present & SPE_REC_DATA_VA) ? rec->data_va : 0;
	uint64_t pa = (rec->present & SPE_REC_DATA_PA) ? rec->data_pa : 0;
	uint64_t data_src = versioned_data_src(qr->ds_table, rec, &dsi, o->perf_version);
	uint32_t todo;
	int ret;

	s.time = qr->time;
	s.cpu = qr->cpu;
	s.pid = qr->pid;
	s.tid = qr->tid;
	s.ip = (rec->present & SPE_REC_PC) ? rec->pc.addr : 0;
	s.cpumode = spe_synth_cpumode(rec);
	s.weight = (rec->present & SPE_REC_LAT_TOTAL) ? rec->lat_total : 0;
	s.issue_lat = (rec->present & SPE_REC_LAT_ISSUE) ? rec->lat_issue : 0;
	s.xlat_lat = (rec->present & SPE_REC_LAT_XLAT) ? rec->lat_xlat : 0;
	s.qr = qr;
	s.flags = 0;
	s.nr_branches = 0;
	if (branch || (ev & SPE_EV_MISPRED)) {
		s.flags = branch ? branch_flags(rec) :
			  SPE_BRF_BRANCH | SPE_BRF_MISPRED;
		if (o->last_branch) {
			s.branches[0] = (struct spe_branch_entry){
				.from = s.ip,
				.to = (rec->present & SPE_REC_BR_TARGET) ? rec->br_target.addr : 0,
				.mispred = ev & SPE_EV_MISPRED,
			};
			s.nr_branches = 1;
			if (rec->present & SPE_REC_PREV_BR_TARGET) {
				s.branches[1] = (struct spe_branch_entry){
					.to = rec->prev_br_target.addr,
				};
				s.nr_branches = 2;
			}
		}
	}

	/* One sample a record (the views' --itrace=i1i): no kinds to sort. */
	todo = sy->every_record ? 1u << SPE_S_INSTRUCTIONS : wanted_kinds(sy, ev, branch, data_src);
	for (; todo; todo &= todo - 1) {
		int k = __builtin_ctz(todo);

		if (k == SPE_S_INSTRUCTIONS && !insn_due(sy, qr->queue))
			continue;
		s.kind = (enum spe_sample_kind)k;
		s.addr = va;
		s.phys_addr = pa;
		s.data_src = data_src;
		s.period = k == SPE_S_INSTRUCTIONS ? o->period : 1;
		/* perf 7.3's instructions sample: the branch target, as its
		 * branch sample, not the data address. */
		if (k == SPE_S_INSTRUCTIONS && o->perf_version == SPE_PERF_7_3)
			s.addr = (rec->present & SPE_REC_BR_TARGET) ? rec->br_target.addr : 0;
		if (k == SPE_S_BRANCH) {
			s.addr = (rec->present & SPE_REC_BR_TARGET) ? rec->br_target.addr : 0;
			s.phys_addr = 0;
			s.data_src = 0;
		}
		ret = emit(ctx, &s);
		if (ret)
			return ret;
	}
	return 0;
}
