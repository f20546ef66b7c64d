// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What goes into a record: DDI 0586A §2.3 (collected data), §3.3 (the
 * collection controls CX, TS, PCT, PA) and the packet encodings of §5.3.
 */
#include <stdio.h>

#include "tap.h"
#include "support/spu_test.h"

#define CTX1	(SPE_CONTEXT_HDR | SPE_CONTEXT_EL1)
#define CTX2	(SPE_CONTEXT_HDR | SPE_CONTEXT_EL2)

struct rec {
	uint8_t b[256];
	size_t len;
};

/* Record op under pmscr / pmscr_el2 and return the bytes written. */
static struct rec record_cfg(const struct spe_spu_config *cfg, uint64_t pmscr,
			     uint64_t pmscr2, const struct spe_op *op)
{
	struct t_unit *u = t_unit_new_cfg(cfg);
	struct rec r = { .len = 0 };

	t_enable(u, pmscr, 0, T_BUF_SIZE);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL2, pmscr2);
	u->spu.cnt_base = 0x1000000;
	u->spu.cntvoff = 0x400000;
	u->spu.cntpoff = 0x200000;
	t_run(u, op);
	r.len = t_used(u);
	if (r.len > sizeof(r.b))
		r.len = sizeof(r.b);
	memcpy(r.b, u->buf, r.len);
	t_unit_free(u);
	return r;
}

static struct rec record(uint64_t pmscr, uint64_t pmscr2, const struct spe_op *op)
{
	return record_cfg(spe_spu_profile(SPE_SPU_PROFILE_V1_MIN), pmscr, pmscr2, op);
}

static int has(const struct rec *r, uint8_t mask, uint8_t hdr)
{
	unsigned int sz;

	return t_find_packet(r->b, r->len, mask, hdr, &sz) != NULL;
}

static uint64_t value(const struct rec *r, uint8_t mask, uint8_t hdr)
{
	unsigned int sz;
	const uint8_t *p = t_find_packet(r->b, r->len, mask, hdr, &sz);

	return p ? t_le(p, sz) : ~0ULL;
}

#define EN	(SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE)
#define PCT	SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, 1)
#define PCT_OFF	SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, SPE_PMSCR_PCT_OFFSET_PHYS)

static void test_context(void)
{
	struct spe_op op = t_op_load();
	struct rec r;

	r = record(EN, 0, &op);
	CHECK(!has(&r, 0xff, CTX1), "§3.3 CONTEXTIDR_EL1 is not collected with PMSCR_EL1.CX=0");
	r = record(EN | SPE_PMSCR_CX, 0, &op);
	CHECK_EQ(value(&r, 0xff, CTX1), 0x1234,
		 "§3.3 PMSCR_EL1.CX=1 collects CONTEXTIDR_EL1 at EL0 (Context packet index 0)");
	CHECK(!has(&r, 0xff, CTX2), "§3.3 CONTEXTIDR_EL2 is not collected with PMSCR_EL2.CX=0");
	r = record(EN, SPE_PMSCR_CX, &op);
	CHECK_EQ(value(&r, 0xff, CTX2), 0x5678,
		 "§3.3 PMSCR_EL2.CX=1 collects CONTEXTIDR_EL2 (Context packet index 1)");
	op.el = 1;
	r = record(EN | SPE_PMSCR_CX, 0, &op);
	CHECK_EQ(value(&r, 0xff, CTX1), 0x1234,
		 "§3.3.1 CollectContextIDR1 at EL1");
	{
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);

		cfg.owner_el2 = 1;
		cfg.tge = 1;
		op.el = 2;
		r = record_cfg(&cfg, SPE_PMSCR_CX, SPE_PMSCR_E2SPE | SPE_PMSCR_CX, &op);
		CHECK(!has(&r, 0xff, CTX1) && has(&r, 0xff, CTX2),
		      "§3.3.1 at EL2 (TGE=1) only CONTEXTIDR_EL2 is collected");
		op.el = 0;
		r = record_cfg(&cfg, SPE_PMSCR_CX, SPE_PMSCR_E0HSPE | SPE_PMSCR_CX, &op);
		CHECK(!has(&r, 0xff, CTX1) && has(&r, 0xff, CTX2),
		      "§3.3.1 at host EL0 (TGE=1) CONTEXTIDR_EL1 is not collected");
		/* A guest under a VHE host that keeps the buffer (E2PB = 0b00). */
		cfg.tge = 0;
		op.el = 1;
		r = record_cfg(&cfg, SPE_PMSCR_E1SPE | SPE_PMSCR_CX, SPE_PMSCR_CX, &op);
		CHECK(has(&r, 0xff, CTX1) && has(&r, 0xff, CTX2),
		      "§3.3.1 EL2 owns the buffer, TGE=0: guest EL1 collects both CONTEXTIDRs");
	}
}

/*
 * With FEAT_ECV, PMSCR_ELx.PCT 0b11 asks for physical time less the
 * physical offset (DDI 0487 CollectTimeStamp()); PMSCR_EL2.PCT bounds a
 * Non-secure EL1 owner's choice.
 */
static void test_timestamp_ecv(void)
{
	static const struct {
		uint64_t pct1, pct2;
		int owner_el2;
		uint64_t want;
		const char *what;
	} cases[] = {
		{ PCT_OFF, PCT, 0, 0x1000000 + 1 - 0x200000,
		  "FEAT_ECV PCT EL1 0b11, EL2 0b01: EL1's choice, offset physical time" },
		{ PCT, PCT_OFF, 0, 0x1000000 + 1 - 0x200000,
		  "FEAT_ECV PCT EL1 0b01, EL2 0b11: physical time is offset" },
		{ PCT_OFF, PCT_OFF, 0, 0x1000000 + 1 - 0x200000,
		  "FEAT_ECV PCT EL1 0b11, EL2 0b11: offset physical time" },
		{ 0, PCT_OFF, 0, 0x1000000 + 1 - 0x400000,
		  "FEAT_ECV PCT EL1 0b00, EL2 0b11: virtual time" },
		{ PCT_OFF, 0, 0, 0x1000000 + 1 - 0x400000,
		  "FEAT_ECV PCT EL1 0b11, EL2 0b00: virtual time" },
		{ PCT, PCT, 0, 0x1000000 + 1,
		  "FEAT_ECV PCT EL1 0b01, EL2 0b01: physical time" },
		{ 0, PCT_OFF, 1, 0x1000000 + 1 - 0x200000,
		  "FEAT_ECV PCT, EL2 owns the buffer, EL2 0b11: offset physical time" },
		{ PCT_OFF, PCT, 1, 0x1000000 + 1,
		  "FEAT_ECV PCT, EL2 owns the buffer, EL2 0b01: physical time, EL1's ignored" },
	};
	struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);
	struct spe_op op = t_op_load();
	size_t i;

	cfg.ecv = 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t el2_en = cases[i].owner_el2 ? SPE_PMSCR_E0HSPE | SPE_PMSCR_TS : 0;
		struct rec r;

		cfg.owner_el2 = cases[i].owner_el2;
		cfg.tge = cases[i].owner_el2;
		r = record_cfg(&cfg, EN | SPE_PMSCR_TS | cases[i].pct1,
			       el2_en | cases[i].pct2, &op);
		CHECK_EQ(value(&r, 0xff, SPE_HDR_TIMESTAMP), cases[i].want, cases[i].what);
	}
}

static void test_timestamp(void)
{
	struct spe_op op = t_op_load();
	struct rec r;

	r = record(EN, SPE_PMSCR_PA | PCT, &op);
	CHECK(!has(&r, 0xff, SPE_HDR_TIMESTAMP) && r.len && r.b[r.len - 1] == SPE_HDR_END,
	      "§5.3.6 TS=0: no Timestamp packet, the record ends with End");
	r = record(EN | SPE_PMSCR_TS | PCT, PCT, &op);
	CHECK(has(&r, 0xff, SPE_HDR_TIMESTAMP) && r.b[r.len - 9] == SPE_HDR_TIMESTAMP,
	      "§5.3.10 TS=1: the Timestamp packet ends the record");
	CHECK_EQ(value(&r, 0xff, SPE_HDR_TIMESTAMP), 0x1000000 + 1,
		 "§3.3 PCT=1 in PMSCR_EL1 and PMSCR_EL2: physical time CNTPCT");
	r = record(EN | SPE_PMSCR_TS, PCT, &op);
	CHECK_EQ(value(&r, 0xff, SPE_HDR_TIMESTAMP), 0x1000000 + 1 - 0x400000,
		 "§3.3 PMSCR_EL1.PCT=0: virtual time CNTPCT - CNTVOFF");
	r = record(EN | SPE_PMSCR_TS | PCT, 0, &op);
	CHECK_EQ(value(&r, 0xff, SPE_HDR_TIMESTAMP), 0x1000000 + 1 - 0x400000,
		 "§3.3.1 Non-secure EL1 owner: PMSCR_EL2.PCT=0 forces virtual time");
	{
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);

		cfg.have_el2 = 0;
		r = record_cfg(&cfg, EN | SPE_PMSCR_TS, 0, &op);
		CHECK_EQ(value(&r, 0xff, SPE_HDR_TIMESTAMP), 0x1000000 + 1,
			 "§4.3.5 without EL2, PCT is RES1: physical time");
	}
	r = record(EN | SPE_PMSCR_TS | PCT_OFF, PCT_OFF, &op);
	CHECK_EQ(value(&r, 0xff, SPE_HDR_TIMESTAMP), 0x1000000 + 1,
		 "without FEAT_ECV PCT is one bit: 0b11 reads as 0b01, physical time");
	test_timestamp_ecv();
}

static void test_pa(void)
{
	struct spe_op op = t_op_load();
	struct rec r;
	uint8_t pa_hdr = SPE_ADDR_HDR | SPE_ADDR_DATA_PA;

	r = record(EN, SPE_PMSCR_PA, &op);
	CHECK(!has(&r, 0xff, pa_hdr), "§3.3 PMSCR_EL1.PA=0: no physical address");
	r = record(EN | SPE_PMSCR_PA, 0, &op);
	CHECK(!has(&r, 0xff, pa_hdr), "§3.3 EL1 owner needs PMSCR_EL2.PA=1 too");
	r = record(EN | SPE_PMSCR_PA, SPE_PMSCR_PA, &op);
	CHECK_EQ(value(&r, 0xff, pa_hdr), op.pa | SPE_ADDR_PA_NS,
		 "§3.3 PA in both: the data PA (with its NS bit) is collected");
	op.flags |= SPE_OPF_NO_PA;
	r = record(EN | SPE_PMSCR_PA, SPE_PMSCR_PA, &op);
	CHECK(!has(&r, 0xff, pa_hdr), "§5.3.1 no PA for an access whose translation aborted");
}

static void test_contents(void)
{
	struct spe_op op = t_op_load();
	struct rec r;
	uint8_t va_hdr = SPE_ADDR_HDR | SPE_ADDR_DATA_VA;
	uint8_t tgt_hdr = SPE_ADDR_HDR | SPE_ADDR_BR_TARGET;
	uint8_t pc_hdr = SPE_ADDR_HDR | SPE_ADDR_PC;

	op.el = 1;
	r = record(EN, 0, &op);
	CHECK_EQ(value(&r, 0xff, pc_hdr),
		 op.pc | SPE_FIELD_PREP(SPE_ADDR_INSN_EL_MASK, 1) | SPE_ADDR_INSN_NS,
		 "§5.3.1 the PC packet carries the address, EL and NS of the operation");
	CHECK_EQ(r.b[0], pc_hdr, "§2.3 every record starts with the PC");
	CHECK_EQ(value(&r, 0xff, va_hdr), op.va,
		 "§2.3.2 a load records its data VA");
	{
		struct spe_op t = op;

		t.va = 0x0f00ffffcafe0008ULL;
		r = record(EN, 0, &t);
		CHECK_EQ(value(&r, 0xff, va_hdr), t.va,
			 "§5.3.1 TBI0=1: a lower-range data VA keeps its top-byte tag");
		t.va = 0xffff000012345678ULL;
		r = record(EN, 0, &t);
		CHECK_EQ(value(&r, 0xff, va_hdr), 0x00ff000012345678ULL,
			 "§5.3.1 TBI1=0: an upper-range data VA has byte 7 zero");
		r = record(EN, 0, &op);
	}
	CHECK_EQ(value(&r, 0xff, SPE_OP_HDR | SPE_OP_CLASS_LDST), SPE_OP_LDST_GP_REG,
		 "§5.3.8 a load records Operation Type class 1, LDST=0");
	CHECK_EQ(value(&r, 0xff, SPE_CNT_HDR | SPE_CNT_TOTAL), 10,
		 "§5.3.4 total latency counter");
	CHECK_EQ(value(&r, 0xff, SPE_CNT_HDR | SPE_CNT_ISSUE), 2,
		 "§5.3.4 issue latency counter");
	CHECK_EQ(value(&r, 0xff, SPE_CNT_HDR | SPE_CNT_TRANSLATION), 3,
		 "§5.3.4 translation latency counter for a load");
	CHECK_EQ(value(&r, SPE_EVENTS_HDR_MASK, SPE_EVENTS_HDR), op.events,
		 "§5.3.7 the Events packet holds the operation's events");
	CHECK(!has(&r, SPE_DATA_SOURCE_HDR_MASK, SPE_DATA_SOURCE_HDR),
	      "§4.3.11 LDS=0: no Data Source packet");
	r = record_cfg(spe_spu_profile(SPE_SPU_PROFILE_N1), EN, 0, &op);
	CHECK_EQ(value(&r, SPE_DATA_SOURCE_HDR_MASK, SPE_DATA_SOURCE_HDR), SPE_DS_COMMON_L2,
		 "§5.3.5 LDS=1: a load records its data source");
	op = t_op_store();
	r = record_cfg(spe_spu_profile(SPE_SPU_PROFILE_N1), EN, 0, &op);
	CHECK(!has(&r, SPE_DATA_SOURCE_HDR_MASK, SPE_DATA_SOURCE_HDR),
	      "§5.3.5 a store has no Data Source packet");
	CHECK_EQ(value(&r, 0xff, SPE_OP_HDR | SPE_OP_CLASS_LDST), SPE_OP_LDST_ST,
		 "§5.3.8 a store records LDST=1");

	op = t_op_load();
	op.lat_total = 5000;
	op.lat_issue = 70000;
	r = record(EN, 0, &op);
	CHECK_EQ(value(&r, 0xff, SPE_CNT_HDR | SPE_CNT_TOTAL), 0xfff,
		 "§5.3.4 12-bit counters saturate at 0xfff");
	r = record_cfg(spe_spu_profile(SPE_SPU_PROFILE_FULL), EN, 0, &op);
	CHECK_EQ(value(&r, 0xff, SPE_CNT_HDR | SPE_CNT_TOTAL), 5000,
		 "DDI 0487 PMSIDR_EL1.CountSize: 16-bit counters hold 5000");
	CHECK_EQ(value(&r, 0xff, SPE_CNT_HDR | SPE_CNT_ISSUE), 0xffff,
		 "DDI 0487 PMSIDR_EL1.CountSize: 16-bit counters saturate at 0xffff");

	op = t_op_branch();
	op.events |= SPE_EV_MISPRED | SPE_EV_NOT_TAKEN;
	r = record(EN, 0, &op);
	CHECK_EQ(value(&r, 0xff, tgt_hdr), op.target | SPE_ADDR_INSN_NS,
		 "§2.3.1 a branch records its target with target EL and NS");
	CHECK_EQ(value(&r, 0xff, SPE_OP_HDR | SPE_OP_CLASS_BRANCH), SPE_OP_BR_COND,
		 "§5.3.8 a conditional branch records class 2, COND=1");
	CHECK_EQ(value(&r, SPE_EVENTS_HDR_MASK, SPE_EVENTS_HDR) &
		 (SPE_EV_MISPRED | SPE_EV_NOT_TAKEN), SPE_EV_MISPRED | SPE_EV_NOT_TAKEN,
		 "§2.3.1 mispredicted and not-taken are recorded");
	CHECK(!has(&r, 0xff, va_hdr) && !has(&r, 0xff, SPE_CNT_HDR | SPE_CNT_TRANSLATION),
	      "§5.3.1 a branch has no data address or translation latency");
	op.events |= SPE_EV_EXCEPTION_GEN;
	r = record(EN, 0, &op);
	CHECK(!has(&r, 0xff, tgt_hdr),
	      "§2.3 the target of an exception-generating operation is not collected");

	op = t_op_other();
	op.events = SPE_EV_RETIRED | SPE_EV_SVE_EMPTY_PRED;
	r = record_cfg(spe_spu_profile(SPE_SPU_PROFILE_FULL), EN, 0, &op);
	{
		unsigned int sz = 0;

		t_find_packet(r.b, r.len, SPE_EVENTS_HDR_MASK, SPE_EVENTS_HDR, &sz);
		CHECK(sz == 4 && value(&r, SPE_EVENTS_HDR_MASK, SPE_EVENTS_HDR) == op.events,
		      "§5.3.7 an event above bit 15 needs a 4-byte Events payload");
	}
	r = record(EN, 0, &op);
	CHECK_EQ(value(&r, SPE_EVENTS_HDR_MASK, SPE_EVENTS_HDR), SPE_EV_RETIRED,
		 "§5.3.7 events the implementation does not report are not written");
}

/*
 * Every built-in profile models a Linux system: TBI0 set (user addresses
 * carry a top-byte tag, kept in the data VA packet, DDI 0586A §5.3.1) and
 * TBI1 clear (kernel addresses: byte 7 zero).
 */
static void test_profiles_tbi(void)
{
	int bad = 0;

	for (int id = 0; id < SPE_SPU_PROFILE_NR; id++) {
		struct t_unit *u = t_unit_new((enum spe_spu_profile_id)id);
		struct spe_op op = t_op_load();
		const uint8_t *va;
		unsigned int sz;

		t_enable(u, SPE_PMSCR_E0SPE, 0, T_BUF_SIZE);
		op.va = 0x0f00ffffcafe0008ULL;
		t_run(u, &op);
		va = t_find_packet(u->buf, t_used(u), 0xff, SPE_ADDR_HDR | SPE_ADDR_DATA_VA, &sz);
		bad += !va || t_le(va, sz) != op.va;
		t_unit_free(u);
	}
	CHECK_EQ(bad, 0, "§5.3.1 every profile has TBI0 set: a user data VA keeps its tag");
}

int main(void)
{
	test_profiles_tbi();
	test_context();
	test_timestamp();
	test_pa();
	test_contents();
	return tap_done();
}
