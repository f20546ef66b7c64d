// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Sample synthesis: perf's groups, fields and order (perf arm-spe.c). */
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "spe/packet.h"
#include "spe_decode.h"
#include "spe_data_source.h"
#include "spe_session.h"
#include "spe_sample_synth.h"
#include "tap.h"

#define MAXS 16

struct got {
	struct spe_sample s[MAXS];
	int n;
};

static int collect(void *ctx, const struct spe_sample *s)
{
	struct got *g = ctx;

	if (g->n < MAXS)
		g->s[g->n++] = *s;
	return 0;
}

static struct spe_record load_rec(void)
{
	struct spe_record r = { 0 };

	r.present = SPE_REC_PC | SPE_REC_OP_TYPE | SPE_REC_EVENTS | SPE_REC_LAT_TOTAL |
		    SPE_REC_LAT_ISSUE | SPE_REC_LAT_XLAT | SPE_REC_DATA_VA | SPE_REC_DATA_PA |
		    SPE_REC_DATA_SOURCE | SPE_REC_TIMESTAMP;
	r.pc.addr = 0x400100;
	r.op_class = SPE_OP_CLASS_LDST;
	r.op_subclass = 0;
	r.events = SPE_EV_RETIRED | SPE_EV_L1D_ACCESS | SPE_EV_L1D_REFILL | SPE_EV_TLB_ACCESS |
		   SPE_EV_TLB_WALK | SPE_EV_REMOTE_ACCESS;
	r.lat_total = 300;
	r.lat_issue = 7;
	r.lat_xlat = 40;
	r.data_va = 0x7fff1000;
	r.data_pa = 0x80001000;
	r.data_source = SPE_DS_COMMON_DRAM;
	return r;
}

static const char *names(const struct spe_itrace *it, const struct got *g, char *buf, size_t n)
{
	buf[0] = '\0';
	for (int i = 0; i < g->n; i++) {
		strncat(buf, spe_sample_name(it, g->s[i].kind), n - strlen(buf) - 2);
		strncat(buf, " ", n - strlen(buf) - 1);
	}
	return buf;
}

/*
 * Branch flags from the Operation Type packet's branch subclass (DDI 0586A
 * §5.3.8, DDI 0487 D18.1: bit 0 conditional, bit 1 indirect, bits 4:3 the call/return
 * hint) and the Events packet (mispredicted, not taken), each combination
 * compared with the exact set of flags it must give.
 */
static void branch_subclasses_give_exact_flags(void)
{
	static const struct {
		uint8_t subclass;
		uint64_t events;
		uint32_t flags;
	} cases[] = {
		{ 0x00, 0, SPE_BRF_BRANCH },
		{ 0x01, 0, SPE_BRF_BRANCH | SPE_BRF_CONDITIONAL },
		{ 0x02, 0, SPE_BRF_BRANCH | SPE_BRF_INDIRECT },
		{ 0x04, 0, SPE_BRF_BRANCH },	/* GCS: no perf flag */
		{ 0x08, 0, SPE_BRF_BRANCH | SPE_BRF_CALL },
		{ 0x0a, 0, SPE_BRF_BRANCH | SPE_BRF_INDIRECT | SPE_BRF_CALL },
		{ 0x10, 0, SPE_BRF_BRANCH | SPE_BRF_RETURN },
		{ 0x12, 0, SPE_BRF_BRANCH | SPE_BRF_INDIRECT | SPE_BRF_RETURN },
		{ 0x18, 0, SPE_BRF_BRANCH | SPE_BRF_RETURN },
		{ 0x01, SPE_EV_NOT_TAKEN, SPE_BRF_BRANCH | SPE_BRF_CONDITIONAL | SPE_BRF_NOT_TAKEN },
		{ 0x01, SPE_EV_MISPRED, SPE_BRF_BRANCH | SPE_BRF_CONDITIONAL | SPE_BRF_MISPRED },
	};
	struct spe_itrace it;
	struct spe_synth sy;
	const char *why;
	int bad = 0;

	spe_itrace_parse("b", &it, &why);
	spe_synth_init(&sy, &it);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct spe_record rec = { 0 };
		struct spe_qrecord qr = { .rec = &rec };
		struct got g = { .n = 0 };

		rec.present = SPE_REC_PC | SPE_REC_OP_TYPE | SPE_REC_EVENTS;
		rec.pc.addr = 0x400000;
		rec.op_class = SPE_OP_CLASS_BRANCH;
		rec.op_subclass = cases[i].subclass;
		rec.events = SPE_EV_RETIRED | cases[i].events;
		spe_synth_record(&sy, &qr, collect, &g);
		if (g.n != 1 || g.s[0].flags != cases[i].flags) {
			printf("# subclass 0x%02x events 0x%llx: flags 0x%x, want 0x%x\n",
			       cases[i].subclass, (unsigned long long)cases[i].events,
			       g.n ? g.s[0].flags : 0, cases[i].flags);
			bad++;
		}
	}
	spe_synth_free(&sy);
	CHECK_EQ(bad, 0, "branch flags are exactly those of the subclass and events (DDI 0586A §5.3.8, DDI 0487 D18.1)");
}

static bool same_sample(const struct spe_sample *a, const struct spe_sample *b)
{
	return a->kind == b->kind && a->time == b->time && a->cpu == b->cpu &&
	       a->pid == b->pid && a->tid == b->tid && a->ip == b->ip &&
	       a->cpumode == b->cpumode && a->addr == b->addr &&
	       a->phys_addr == b->phys_addr && a->data_src == b->data_src &&
	       a->weight == b->weight && a->issue_lat == b->issue_lat &&
	       a->xlat_lat == b->xlat_lat && a->period == b->period &&
	       a->flags == b->flags && a->nr_branches == b->nr_branches && a->qr == b->qr;
}

/*
 * --itrace=i1i (the views' and report's setting) takes a short path, one
 * sample a record: it must give the very instructions sample that the
 * general path gives beside the other groups.
 */
static void one_sample_a_record_is_the_instructions_sample(void)
{
	struct spe_record recs[4] = { load_rec(), load_rec(), load_rec(), { 0 } };
	struct spe_itrace one, all;
	struct spe_synth sy1, syn;
	const char *why;
	int bad = 0;

	recs[1].op_subclass = SPE_OP_LDST_ST;	/* a store */
	recs[1].present &= ~SPE_REC_DATA_SOURCE;
	recs[2].op_class = SPE_OP_CLASS_BRANCH;	/* a mispredicted indirect call */
	recs[2].op_subclass = SPE_OP_BR_INDIRECT | SPE_OP_BR_HINT_CALL << 3;
	recs[2].events = SPE_EV_RETIRED | SPE_EV_MISPRED;
	recs[2].pc.addr = 0xffff800008001000ULL;
	spe_itrace_parse("i1i", &one, &why);
	spe_itrace_parse("i1ibfmtaM", &all, &why);
	spe_synth_init(&sy1, &one);
	spe_synth_init(&syn, &all);
	CHECK(sy1.every_record && !syn.every_record, "i1i alone takes the one-sample path");
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		struct spe_qrecord qr = { .rec = &recs[i], .time = 77 + i, .cpu = 2, .pid = 8,
					  .tid = 9, .ds_table = SPE_DS_TABLE_COMMON };
		struct got g1 = { .n = 0 }, gn = { .n = 0 };

		spe_synth_record(&sy1, &qr, collect, &g1);
		spe_synth_record(&syn, &qr, collect, &gn);
		if (g1.n != 1 || !gn.n || gn.s[gn.n - 1].kind != SPE_S_INSTRUCTIONS ||
		    !same_sample(&g1.s[0], &gn.s[gn.n - 1])) {
			printf("# record %zu: %d samples, or its sample differs\n", i, g1.n);
			bad++;
		}
	}
	spe_synth_free(&sy1);
	spe_synth_free(&syn);
	CHECK_EQ(bad, 0, "i1i: one sample a record, equal to the instructions sample of the general path");
}

/*
 * Operation Type "other" records (class 0, DDI 0487 D18.1, DDI 0586A
 * §5.3.8) that perf releases take for memory operations: the memory
 * sample and the data source's operation for each --perf-version.
 * Subclass bytes: 0x48 SVE EVL 512, 0x04 Advanced SIMD, 0x02 FP only,
 * 0x9a SME, 0x00 plain.
 */
static void other_records_per_perf_version(void)
{
	static const struct {
		uint8_t subclass;
		enum spe_perf_version v;
		int mem_op;		/* 0: no memory sample, data_src 0 */
	} cases[] = {
		{ 0x48, SPE_PERF_6_1, PERF_MEM_OP_LOAD },
		{ 0x48, SPE_PERF_6_12, 0 },
		{ 0x48, SPE_PERF_7_3, PERF_MEM_OP_NA },
		{ 0x4e, SPE_PERF_6_1, PERF_MEM_OP_LOAD },	/* FP, predicated */
		{ 0x04, SPE_PERF_6_1, 0 },
		{ 0x04, SPE_PERF_6_12, 0 },
		{ 0x04, SPE_PERF_7_3, PERF_MEM_OP_NA },
		{ 0x02, SPE_PERF_7_3, 0 },
		{ 0x01, SPE_PERF_7_3, 0 },
		{ 0x9a, SPE_PERF_6_1, 0 },
		{ 0x9a, SPE_PERF_7_3, PERF_MEM_OP_NA },
		{ 0x00, SPE_PERF_6_1, 0 },
		{ 0x00, SPE_PERF_7_3, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct spe_record rec = { 0 };
		struct spe_qrecord qr = { .rec = &rec, .ds_table = SPE_DS_TABLE_COMMON };
		struct spe_itrace it;
		struct spe_synth sy;
		struct got g = { .n = 0 };
		const char *why = NULL;
		union perf_mem_data_src d;
		char name[96];
		bool mem;

		rec.present = SPE_REC_PC | SPE_REC_OP_TYPE | SPE_REC_EVENTS | SPE_REC_LAT_TOTAL;
		rec.pc.addr = 0xffff800008123460ULL;
		rec.op_class = SPE_OP_CLASS_OTHER;
		rec.op_subclass = cases[i].subclass;
		rec.events = SPE_EV_RETIRED | SPE_EV_L1D_ACCESS;
		spe_itrace_parse("fM", &it, &why);
		it.perf_version = cases[i].v;
		spe_synth_init(&sy, &it);
		spe_synth_record(&sy, &qr, collect, &g);
		spe_synth_free(&sy);
		mem = g.n == 2 && g.s[1].kind == SPE_S_MEMORY;
		d.val = g.n ? g.s[0].data_src : ~0ULL;
		snprintf(name, sizeof(name), "other 0x%02x, perf %s: %s", cases[i].subclass,
			 cases[i].v == SPE_PERF_6_1 ? "6.1" :
			 cases[i].v == SPE_PERF_6_12 ? "6.12" : "7.3",
			 cases[i].mem_op == PERF_MEM_OP_LOAD ? "a memory sample, data_src op LOAD" :
			 cases[i].mem_op ? "a memory sample, data_src op N/A" :
			 "no memory sample, data_src 0");
		if (cases[i].mem_op)
			CHECK(mem && g.s[0].kind == SPE_S_L1D_ACCESS && d.mem_op == cases[i].mem_op &&
			      d.mem_lvl_num == PERF_MEM_LVLNUM_L1 && g.s[1].data_src == d.val &&
			      g.s[1].addr == 0, name);
		else
			CHECK(g.n == 1 && g.s[0].kind == SPE_S_L1D_ACCESS && d.val == 0, name);
	}
	CHECK(spe_perf_version_parse("6.1") == SPE_PERF_6_1 &&
	      spe_perf_version_parse("6.12") == SPE_PERF_6_12 &&
	      spe_perf_version_parse("7.3") == SPE_PERF_7_3 &&
	      spe_perf_version_parse("6") < 0 && spe_perf_version_parse("6.1.0") < 0,
	      "--perf-version takes 6.1, 6.12 and 7.3 only");
}

/*
 * perf 7.3 takes branches with a call or return hint (Operation Type
 * class 2, bits 4:3 = 01 or 10) for memory operations; its instructions
 * sample carries the branch target; --perf-version chooses branch samples
 * and, for 7.3, adds the instructions group to the default groups.
 */
static void branches_and_defaults_per_perf_version(void)
{
	static const struct {
		uint8_t subclass;
		bool mem73;
	} cases[] = {
		{ 0x08, true }, { 0x10, true }, { 0x09, true }, { 0x12, true },
		{ 0x18, false }, { 0x00, false }, { 0x01, false }, { 0x04, false },
	};
	struct spe_itrace it;
	const char *why = NULL;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int v = SPE_PERF_6_1; v <= SPE_PERF_7_3; v++) {
			struct spe_record rec = { 0 };
			struct spe_qrecord qr = { .rec = &rec, .ds_table = SPE_DS_TABLE_COMMON };
			struct spe_synth sy;
			struct got g = { .n = 0 };
			bool want = v == SPE_PERF_7_3 && cases[i].mem73;
			char name[96];

			rec.present = SPE_REC_PC | SPE_REC_OP_TYPE | SPE_REC_BR_TARGET;
			rec.pc.addr = 0x400000;
			rec.br_target.addr = 0x400100;
			rec.op_class = SPE_OP_CLASS_BRANCH;
			rec.op_subclass = cases[i].subclass;
			spe_itrace_parse("Mi1i", &it, &why);
			it.perf_version = (enum spe_perf_version)v;
			spe_synth_init(&sy, &it);
			spe_synth_record(&sy, &qr, collect, &g);
			spe_synth_free(&sy);
			snprintf(name, sizeof(name), "branch 0x%02x, perf %s: %s", cases[i].subclass,
				 v == SPE_PERF_6_1 ? "6.1" : v == SPE_PERF_6_12 ? "6.12" : "7.3",
				 want ? "a memory sample, data_src op N/A" : "no memory sample");
			if (want) {
				union perf_mem_data_src d = { .val = g.s[0].data_src };

				CHECK(g.n == 2 && g.s[0].kind == SPE_S_MEMORY && d.mem_op == PERF_MEM_OP_NA &&
				      g.s[1].kind == SPE_S_INSTRUCTIONS, name);
			} else {
				CHECK(g.n == 1 && g.s[0].kind == SPE_S_INSTRUCTIONS && g.s[0].data_src == 0,
				      name);
			}
			if (cases[i].subclass == 0x08)
				CHECK(g.s[g.n - 1].addr == (v == SPE_PERF_7_3 ? 0x400100u : 0),
				      v == SPE_PERF_7_3 ? "perf 7.3: the instructions sample's addr is the branch target" :
				      "perf 6.1/6.12: the instructions sample's addr is the data address");
		}
	}

	spe_itrace_default(&it);
	spe_itrace_for_perf(&it, SPE_PERF_7_3, true, true);
	CHECK(it.want[SPE_S_INSTRUCTIONS] && it.period == 1 && !it.branch_miss &&
	      it.perf_version == SPE_PERF_7_3,
	      "--perf-version=7.3: default groups with instructions, 'branch' samples");
	spe_itrace_default(&it);
	spe_itrace_for_perf(&it, SPE_PERF_6_12, true, true);
	CHECK(!it.want[SPE_S_INSTRUCTIONS] && it.branch_miss, "--perf-version=6.12: 'branch-miss' samples");
	spe_itrace_parse("b", &it, &why);
	spe_itrace_for_perf(&it, SPE_PERF_7_3, false, false);
	CHECK(!it.want[SPE_S_INSTRUCTIONS] && !it.branch_miss,
	      "--perf-version=7.3 with --itrace: the groups asked for");
	it.branch_miss = true;
	spe_itrace_for_perf(&it, SPE_PERF_7_3, false, false);
	CHECK(it.branch_miss, "--branch-miss given: kept whatever the version");
}

int main(void)
{
	struct spe_record rec = load_rec();
	struct spe_qrecord qr = { .rec = &rec, .time = 5000, .cpu = 3, .pid = 10, .tid = 11,
				  .ds_table = SPE_DS_TABLE_COMMON };
	struct spe_itrace it;
	struct spe_synth sy;
	struct got g = { .n = 0 };
	const char *why = NULL;
	char buf[256];

	branch_subclasses_give_exact_flags();
	one_sample_a_record_is_the_instructions_sample();
	other_records_per_perf_version();
	branches_and_defaults_per_perf_version();

	spe_itrace_default(&it);
	spe_synth_init(&sy, &it);
	spe_synth_record(&sy, &qr, collect, &g);
	CHECK(!strcmp(names(&it, &g, buf, sizeof(buf)),
		      "l1d-miss l1d-access tlb-miss tlb-access remote-access memory "),
	      "a load with L1D refill, TLB walk and remote access: perf's groups in perf's order");
	CHECK(g.s[0].addr == 0x7fff1000 && g.s[0].phys_addr == 0x80001000 && g.s[0].weight == 300 &&
	      g.s[0].time == 5000 && g.s[0].cpu == 3 && g.s[0].pid == 10 && g.s[0].tid == 11 &&
	      g.s[0].ip == 0x400100 && g.s[0].cpumode == PERF_RECORD_MISC_USER,
	      "memory samples: addr = data VA, phys_addr, weight = total latency, context");
	CHECK(g.s[0].issue_lat == 7 && g.s[0].xlat_lat == 40,
	      "issue and translation latency are carried (perf drops them)");
	{
		union perf_mem_data_src d = { .val = g.s[5].data_src };

		CHECK(d.mem_op == PERF_MEM_OP_LOAD && d.mem_lvl_num == PERF_MEM_LVLNUM_RAM &&
		      d.mem_dtlb == (PERF_MEM_TLB_WK | PERF_MEM_TLB_MISS),
		      "data_src from the MIDR's table and the TLB event bits");
	}
	spe_synth_free(&sy);

	/* A mispredicted conditional branch. */
	memset(&rec, 0, sizeof(rec));
	rec.present = SPE_REC_PC | SPE_REC_OP_TYPE | SPE_REC_EVENTS | SPE_REC_BR_TARGET |
		      SPE_REC_LAT_TOTAL | SPE_REC_PREV_BR_TARGET;
	rec.pc.addr = 0xffff800008001000ULL;
	rec.op_class = SPE_OP_CLASS_BRANCH;
	rec.op_subclass = SPE_OP_BR_COND;
	rec.events = SPE_EV_RETIRED | SPE_EV_MISPRED;
	rec.br_target.addr = 0xffff800008002000ULL;
	rec.prev_br_target.addr = 0xffff800008000ff0ULL;
	rec.lat_total = 9;
	g.n = 0;
	spe_itrace_parse("bMl", &it, &why);
	spe_synth_init(&sy, &it);
	spe_synth_record(&sy, &qr, collect, &g);
	CHECK(g.n == 1 && !strcmp(spe_sample_name(&it, g.s[0].kind), "branch"),
	      "newer perf: a branch gives one 'branch' sample, no memory sample");
	CHECK(g.s[0].addr == 0xffff800008002000ULL && g.s[0].data_src == 0 &&
	      g.s[0].cpumode == PERF_RECORD_MISC_KERNEL,
	      "branch sample: addr = target, no data_src, kernel cpumode from the PC");
	CHECK(g.s[0].flags & SPE_BRF_MISPRED && g.s[0].flags & SPE_BRF_CONDITIONAL,
	      "branch flags: mispredicted, conditional");
	CHECK(g.s[0].nr_branches == 2 && g.s[0].branches[0].from == rec.pc.addr &&
	      g.s[0].branches[0].to == rec.br_target.addr && g.s[0].branches[0].mispred &&
	      g.s[0].branches[1].to == rec.prev_br_target.addr,
	      "'l': two-entry branch stack, PC->target then the previous branch target");
	spe_synth_free(&sy);

	rec.events = SPE_EV_RETIRED;
	it.branch_miss = true;
	g.n = 0;
	spe_synth_init(&sy, &it);
	spe_synth_record(&sy, &qr, collect, &g);
	CHECK(g.n == 0, "perf 6.1 ('branch-miss'): a correctly predicted branch gives nothing");
	rec.events = SPE_EV_MISPRED;
	spe_synth_record(&sy, &qr, collect, &g);
	CHECK(g.n == 1 && !strcmp(spe_sample_name(&it, g.s[0].kind), "branch-miss"),
	      "perf 6.1: a mispredicted branch is named 'branch-miss'");
	spe_synth_free(&sy);

	/* Instruction period counts records per queue. */
	CHECK(!spe_itrace_parse("i3i", &it, &why) && it.period == 3 && it.want[SPE_S_INSTRUCTIONS],
	      "--itrace=i3i: instructions every 3rd record");
	spe_synth_init(&sy, &it);
	g.n = 0;
	for (int i = 0; i < 6; i++) {
		qr.queue = i % 2;
		spe_synth_record(&sy, &qr, collect, &g);
	}
	CHECK(g.n == 2 && g.s[0].period == 3, "6 records over 2 queues at period 3: 2 samples of period 3");
	spe_synth_free(&sy);

	CHECK(spe_itrace_parse("i10ms", &it, &why) == SPE_ERR_INVAL && strstr(why, "instruction"),
	      "a time period is refused: SPE samples have no time base for it");
	CHECK(spe_itrace_parse("fz", &it, &why) == SPE_ERR_INVAL, "an unknown letter is refused");
	CHECK(!spe_itrace_parse("", &it, &why) && it.want[SPE_S_MEMORY] &&
	      !it.want[SPE_S_INSTRUCTIONS], "empty --itrace: perf's default groups");
	CHECK_EQ(spe_sample_kind_by_name("branch-miss"), SPE_S_BRANCH, "'branch-miss' names the branch group");
	CHECK_EQ(spe_sample_kind_by_name("branch"), SPE_S_BRANCH, "'branch' names the branch group");
	CHECK_EQ(spe_sample_kind_by_name("llc-miss"), SPE_S_LLC_MISS, "'llc-miss' names its group");
	return tap_done();
}
