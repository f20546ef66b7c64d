// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The Profiling Buffer and its management events: DDI 0586A §3.4, §3.5
 * (buffer full, faults, external aborts), §4.3.1 (Align padding), §3.6
 * (PSB CSYNC) and the discard fill mode of DDI 0487 PMBLIMITR_EL1.FM.
 */
#include <stdio.h>

#include "tap.h"
#include "support/spu_test.h"

#define EN	SPE_PMSCR_E0SPE
#define SR(u)	spe_spu_read_reg(&(u)->spu, SPE_REG_PMBSR_EL1)
#define PTR(u)	spe_spu_read_reg(&(u)->spu, SPE_REG_PMBPTR_EL1)
#define EC(v)	SPE_FIELD_GET(SPE_PMBSR_EC_MASK, v)
#define MSS(v)	SPE_FIELD_GET(SPE_PMBSR_MSS_MASK, v)

static void test_sequential(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	struct spe_op op = t_op_load();
	uint64_t first;

	t_enable(u, EN, 0, T_BUF_SIZE);
	t_run(u, &op);
	first = t_used(u);
	CHECK(first > 0 && u->buf[0] == (SPE_ADDR_HDR | SPE_ADDR_PC),
	      "§3.4 the first record is written at PMBPTR");
	t_run(u, &op);
	CHECK(t_used(u) == 2 * first && u->buf[first] == (SPE_ADDR_HDR | SPE_ADDR_PC),
	      "DDI 0487 D17.1 records are written upward, PMBPTR after the last one");
	CHECK_EQ(u->buf[first - 1], SPE_HDR_END, "§5.1.2 each record ends with End");
	t_unit_free(u);
}

static void test_align(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_N1);	/* Align = 64 bytes */
	struct spe_op op = t_op_branch();
	int i, ok = 1, zero_pad = 1;

	t_enable(u, EN, 0, T_BUF_SIZE);
	for (i = 0; i < 5; i++) {
		t_run(u, &op);
		ok &= t_used(u) == (uint64_t)(i + 1) * 64;
	}
	CHECK(ok, "§4.3.1 PMBIDR.Align=6: every record is padded to 64 bytes");
	{
		unsigned int sz;
		const uint8_t *end = t_find_packet(u->buf, 64, 0xff, SPE_HDR_END, &sz);

		zero_pad = end && end < u->buf + 64;
		for (i = end ? (int)(end - u->buf) : 64; i < 64; i++)
			zero_pad &= u->buf[i] == SPE_HDR_PADDING;
	}
	CHECK(zero_pad, "§5.3.9 the padding between records is Padding bytes (0x00)");
	t_unit_free(u);
}

static void test_buffer_full(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);	/* MaxSize 64 */
	struct spe_op op = t_op_load();
	uint64_t rec, size = 4096, before, icr;
	unsigned long n = 0;
	int canary = 1, i;

	t_enable(u, EN, 0, size);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, SPE_PMBSR_COLL);
	t_run(u, &op);
	rec = t_used(u);
	while (!spe_spu_irq(&u->spu) && n < 10000) {
		t_run(u, &op);
		n++;
	}
	CHECK(spe_spu_irq(&u->spu) && (SR(u) & SPE_PMBSR_S),
	      "§3.5.2 buffer full raises PMBSR.S and PMBIRQ");
	CHECK(EC(SR(u)) == SPE_PMBSR_EC_BUF && MSS(SR(u)) == SPE_PMBSR_BSC_FULL,
	      "§3.5.2 buffer full: EC=0 (other buffer event), BSC=1 (buffer filled)");
	CHECK(t_used(u) % rec == 0 && size - t_used(u) < 64 && size - t_used(u) + rec >= 64,
	      "§3.5.2 buffer full leaves PMBPTR after the last complete record");
	CHECK(!(SR(u) & SPE_PMBSR_DL), "§3.5.2 buffer full leaves PMBSR.DL unchanged (0)");
	CHECK(!(SR(u) & SPE_PMBSR_EA), "§3.5.2 buffer full is no external abort: PMBSR.EA stays 0");
	CHECK(SR(u) & SPE_PMBSR_COLL, "§3.5 other PMBSR fields (COLL) are unchanged");
	for (i = (int)size; i < (int)size + 4096; i++)
		canary &= u->buf[i] == T_CANARY;
	CHECK(canary, "§3.5 the unit never writes past PMBLIMITR");

	before = t_used(u);
	icr = spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSIRR_EL1, 4 << 8);
	for (i = 0; i < 5000; i++)
		spe_spu_step(&u->spu, &op);
	spe_spu_psb_csync(&u->spu);
	CHECK(t_used(u) == before && spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1) == icr,
	      "§3.5 with PMBSR.S=1 nothing is written and PMSICR does not decrement");

	/* Software extends the buffer and clears S: collection resumes. */
	spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1,
			  (T_BUF_BASE + 2 * size) | SPE_PMBLIMITR_E);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, 0);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSIRR_EL1, 0);
	t_run(u, &op);
	CHECK(!spe_spu_irq(&u->spu) && t_used(u) == before + rec,
	      "§3.4.1 after a buffer full, clearing S with a larger limit resumes at PMBPTR");
	t_unit_free(u);

	/* Software broke §3.4.1: less than one record of room at enable. */
	u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	t_enable(u, EN, 0, 4096);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBPTR_EL1, T_BUF_BASE + 4096 - 8);
	t_run(u, &op);
	CHECK(spe_spu_irq(&u->spu) && PTR(u) == T_BUF_BASE + 4096 - 8 &&
	      u->buf[4096 - 8] == T_CANARY,
	      "§3.4.1 no room for a record: buffer full without writing past the limit");
	CHECK(EC(SR(u)) == SPE_PMBSR_EC_BUF && MSS(SR(u)) == SPE_PMBSR_BSC_FULL &&
	      !(SR(u) & (SPE_PMBSR_EA | SPE_PMBSR_DL)),
	      "§3.5.2 that buffer full is EC=0 BSC=1 with EA and DL clear");
	t_unit_free(u);

	/*
	 * §3.5.3: a buffer whose memory is not mapped (the flat translator
	 * maps only the test buffer) gives a stage 1 translation fault at
	 * level 3 at the first byte written.
	 */
	u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	t_enable(u, EN, 0, 2 * sizeof(u->buf));
	spe_spu_write_reg(&u->spu, SPE_REG_PMBPTR_EL1, T_BUF_BASE + sizeof(u->buf));
	t_run(u, &op);
	CHECK(spe_spu_irq(&u->spu) && EC(SR(u)) == SPE_PMBSR_EC_FAULT_S1 &&
	      MSS(SR(u)) == SPE_FSC_TRANSLATION(3) &&
	      PTR(u) == T_BUF_BASE + sizeof(u->buf),
	      "§3.5.3 unmapped buffer memory: stage 1 translation fault, level 3, at PMBPTR");
	t_unit_free(u);
}

static void test_discard(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V2);
	struct spe_op op = t_op_load();
	int i;

	t_enable(u, EN, 0, 4096);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1, (T_BUF_BASE + 4096) |
			  SPE_FIELD_PREP(SPE_PMBLIMITR_FM_MASK, SPE_PMBLIMITR_FM_DISCARD) |
			  SPE_PMBLIMITR_E);
	for (i = 0; i < 500; i++)
		t_run(u, &op);
	CHECK(t_used(u) == 0 && u->buf[0] == T_CANARY && !spe_spu_irq(&u->spu),
	      "DDI 0487 PMBLIMITR_EL1.FM=discard: nothing is written, PMBPTR stays, no buffer full");
	CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FILTRATE), 500,
		 "§2.6 discarded records still count as SAMPLE_FILTRATE");
	t_unit_free(u);

	u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	t_enable(u, EN, 0, 4096);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1, (T_BUF_BASE + 4096) |
			  SPE_FIELD_PREP(SPE_PMBLIMITR_FM_MASK, SPE_PMBLIMITR_FM_DISCARD) |
			  SPE_PMBLIMITR_E);
	t_run(u, &op);
	CHECK(t_used(u) > 0 &&
	      SPE_FIELD_GET(SPE_PMBLIMITR_FM_MASK,
			    spe_spu_read_reg(&u->spu, SPE_REG_PMBLIMITR_EL1)) == 2,
	      "§4.3.2 SPEv1: reserved FM reads back but behaves as fill mode");
	t_unit_free(u);
}

/* Program one fault on [va, va+len) and write records until it hits. */
static struct t_unit *fault_unit(uint64_t off, uint64_t len, uint8_t kind,
				 uint8_t fsc, uint8_t stage2)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	struct spe_op op = t_op_load();
	int i;

	u->mem.nr_faults = 1;
	u->mem.faults[0].va = T_BUF_BASE + off;
	u->mem.faults[0].len = len;
	u->mem.faults[0].fault = kind;
	u->mem.faults[0].fsc = fsc;
	u->mem.faults[0].stage2 = stage2;
	t_enable(u, EN, 0, T_BUF_SIZE);
	for (i = 0; i < 200 && !spe_spu_irq(&u->spu); i++)
		t_run(u, &op);
	return u;
}

static void test_faults(void)
{
	struct t_unit *u;
	uint64_t rec;

	u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	{
		struct spe_op op = t_op_load();

		t_enable(u, EN, 0, T_BUF_SIZE);
		t_run(u, &op);
		rec = t_used(u);
	}
	t_unit_free(u);

	/* A translation fault in the middle of the third record. */
	u = fault_unit(2 * rec + 5, 4096, SPE_SPU_XLAT_FAULT_S1, SPE_FSC_TRANSLATION(3), 0);
	CHECK(spe_spu_irq(&u->spu) && EC(SR(u)) == SPE_PMBSR_EC_FAULT_S1 &&
	      MSS(SR(u)) == SPE_FSC_TRANSLATION(3),
	      "§3.5.3 translation fault: S=1, EC=stage 1 data abort, FSC=translation L3");
	CHECK_EQ(PTR(u), T_BUF_BASE + 2 * rec + 5,
		 "§3.5.3 PMBPTR is set to the address that faulted");
	CHECK(SR(u) & SPE_PMBSR_DL,
	      "§3.5.3 a fault that cut a record sets PMBSR.DL");
	CHECK(!(SR(u) & SPE_PMBSR_EA), "§3.5.3 an MMU fault does not set EA");
	t_unit_free(u);

	/* A permission fault exactly at a record boundary, stage 2. */
	u = fault_unit(2 * rec, 4096, SPE_SPU_XLAT_FAULT_S2, SPE_FSC_PERMISSION(2), 0);
	CHECK(EC(SR(u)) == SPE_PMBSR_EC_FAULT_S2 && MSS(SR(u)) == SPE_FSC_PERMISSION(2),
	      "§3.5.3 stage 2 permission fault: EC=0b100101, FSC=permission L2");
	CHECK(PTR(u) == T_BUF_BASE + 2 * rec && !(SR(u) & SPE_PMBSR_DL),
	      "§3.5.3 a fault at the first byte after the last record leaves DL unchanged");
	t_unit_free(u);

	/* Synchronous external abort in the middle of a record. */
	u = fault_unit(rec + 3, 1, SPE_SPU_XLAT_EA_SYNC, SPE_FSC_SYNC_EXT_ABORT, 0);
	CHECK((SR(u) & SPE_PMBSR_EA) && (SR(u) & SPE_PMBSR_S) &&
	      EC(SR(u)) == SPE_PMBSR_EC_FAULT_S1 && MSS(SR(u)) == SPE_FSC_SYNC_EXT_ABORT,
	      "§3.5.4 synchronous external abort: EA=1, S=1, FSC=0b010000");
	CHECK(PTR(u) == T_BUF_BASE + rec + 3 && (SR(u) & SPE_PMBSR_DL),
	      "§3.5.4 sync abort: PMBPTR = aborted address, DL=1 as it is not a record start");
	t_unit_free(u);

	u = fault_unit(rec, 1, SPE_SPU_XLAT_EA_SYNC, SPE_FSC_SYNC_EXT_ABORT, 1);
	CHECK(EC(SR(u)) == SPE_PMBSR_EC_FAULT_S2 && !(SR(u) & SPE_PMBSR_DL),
	      "§3.5.4 sync abort on a record's first byte: stage 2 EC, DL unchanged");
	t_unit_free(u);

	/* Asynchronous external abort. */
	u = fault_unit(rec, 1, SPE_SPU_XLAT_EA_ASYNC, SPE_FSC_ASYNC_EXT_ABORT, 0);
	CHECK((SR(u) & SPE_PMBSR_EA) && (SR(u) & SPE_PMBSR_DL) &&
	      MSS(SR(u)) == SPE_FSC_ASYNC_EXT_ABORT,
	      "§3.5.4 asynchronous external abort: EA=1 and DL=1");
	t_unit_free(u);

	/* Every fault kind of Table 6 reaches PMBSR.FSC as the MMU reports it. */
	{
		static const struct { uint8_t fault, fsc; const char *name; } kinds[] = {
			{ SPE_SPU_XLAT_FAULT_S1, SPE_FSC_ADDR_SIZE(0), "address size L0" },
			{ SPE_SPU_XLAT_FAULT_S1, SPE_FSC_TRANSLATION(1), "translation L1" },
			{ SPE_SPU_XLAT_FAULT_S2, SPE_FSC_ACCESS_FLAG(3), "access flag L3 (stage 2)" },
			{ SPE_SPU_XLAT_FAULT_S1, SPE_FSC_PERMISSION(3), "permission L3" },
			{ SPE_SPU_XLAT_FAULT_S1, SPE_FSC_ALIGNMENT, "alignment" },
			{ SPE_SPU_XLAT_FAULT_S1, SPE_FSC_TLB_CONFLICT, "TLB conflict" },
			{ SPE_SPU_XLAT_FAULT_S2, SPE_FSC_UNSUPPORTED_ACCESS, "unsupported access (stage 2)" },
			{ SPE_SPU_XLAT_EA_SYNC, SPE_FSC_SYNC_EXT_ABORT_TTW(2), "external abort on walk L2" },
		};
		unsigned int k;

		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			char name[128];
			int s2 = kinds[k].fault == SPE_SPU_XLAT_FAULT_S2;

			u = fault_unit(rec + 7, 64, kinds[k].fault, kinds[k].fsc, 0);
			snprintf(name, sizeof(name),
				 "§3.5.3 Table 6 %s fault: EC stage %d, FSC 0x%02x, PMBPTR, DL",
				 kinds[k].name, s2 ? 2 : 1, kinds[k].fsc);
			CHECK(spe_spu_irq(&u->spu) && MSS(SR(u)) == kinds[k].fsc &&
			      EC(SR(u)) == (s2 ? SPE_PMBSR_EC_FAULT_S2 : SPE_PMBSR_EC_FAULT_S1) &&
			      PTR(u) == T_BUF_BASE + rec + 7 && (SR(u) & SPE_PMBSR_DL) &&
			      !!(SR(u) & SPE_PMBSR_EA) == (kinds[k].fault == SPE_SPU_XLAT_EA_SYNC),
			      name);
			t_unit_free(u);
		}
	}

	/* Outside the mapping altogether. */
	u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	{
		struct spe_op op = t_op_load();

		t_enable(u, EN, 0, T_BUF_SIZE);
		spe_spu_write_reg(&u->spu, SPE_REG_PMBPTR_EL1, 0x1000);
		spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1, 0x100000 | SPE_PMBLIMITR_E);
		t_run(u, &op);
		CHECK(EC(SR(u)) == SPE_PMBSR_EC_FAULT_S1 &&
		      MSS(SR(u)) == SPE_FSC_TRANSLATION(3) && PTR(u) == 0x1000,
		      "§3.5.3 Table 6 a write outside the address space is a translation fault");
	}
	t_unit_free(u);

	/* Unaligned PMBPTR with Align = 64. */
	u = t_unit_new(SPE_SPU_PROFILE_N1);
	{
		struct spe_op op = t_op_load();

		t_enable(u, EN, 0, T_BUF_SIZE);
		spe_spu_write_reg(&u->spu, SPE_REG_PMBPTR_EL1, T_BUF_BASE + 4);
		t_run(u, &op);
		CHECK(EC(SR(u)) == SPE_PMBSR_EC_FAULT_S1 && MSS(SR(u)) == SPE_FSC_ALIGNMENT &&
		      u->buf[4] == T_CANARY,
		      "§3.5.3 Table 6 PMBPTR not aligned to PMBIDR.Align: alignment fault");
	}
	t_unit_free(u);
}

static void irq_cb(void *ctx, int level)
{
	int *log = ctx;

	log[log[0]++ + 1] = level;
}

static void test_irq_line(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	struct spe_op op = t_op_load();
	int log[16] = { 0 }, i;

	u->spu.irq_changed = irq_cb;
	u->spu.irq_ctx = log;
	t_enable(u, EN, 0, 4096);
	for (i = 0; i < 1000 && !spe_spu_irq(&u->spu); i++)
		t_run(u, &op);
	CHECK(log[0] == 1 && log[1] == 1,
	      "§3.5 PMBIRQ rises once, at the management event that sets PMBSR.S");
	spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, SR(u));
	CHECK(log[0] == 1, "§3.5 PMBIRQ is a level: rewriting S=1 raises no new edge");
	spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, 0);
	CHECK(log[0] == 2 && log[2] == 0 && !spe_spu_irq(&u->spu),
	      "§3.5 PMBIRQ falls when software clears PMBSR.S");
	t_unit_free(u);
}

static void test_psb_csync(void)
{
	struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);
	struct t_unit *u;
	struct spe_op op = t_op_load();

	cfg.max_inflight = 2;
	u = t_unit_new_cfg(&cfg);
	t_enable(u, EN, 0, T_BUF_SIZE);
	op.lat_total = 1000;
	spe_spu_step(&u->spu, &op);
	CHECK(t_used(u) == 0, "§2.2.1 a record is captured only when the sampled operation completes");
	spe_spu_advance(&u->spu, 999);
	CHECK(t_used(u) == 0, "§2.2.1 ...not before its total latency has passed");
	spe_spu_advance(&u->spu, 1);
	CHECK(t_used(u) > 0, "§2.2.1 ...and then it is written");
	spe_spu_step(&u->spu, &op);
	spe_spu_psb_csync(&u->spu);
	CHECK(u->written == 2, "§3.6 PSB CSYNC writes out sampled operations in flight");
	spe_spu_step(&u->spu, &op);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, SPE_PMBSR_S);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, 0);
	spe_spu_psb_csync(&u->spu);
	CHECK(u->written == 2 && u->discarded == 1,
	      "§3.5 records still buffered when S is set are discarded");
	t_unit_free(u);
}

/* A translator that maps nothing and says nothing about why. */
static int silent_translate(void *ctx, uint64_t va, struct spe_spu_xlat *out)
{
	(void)ctx;
	(void)va;
	(void)out;
	return 1;
}

/* A translator that says it succeeded but maps no byte. */
static int empty_translate(void *ctx, uint64_t va, struct spe_spu_xlat *out)
{
	(void)ctx;
	(void)va;
	out->len = 0;
	return 0;
}

/*
 * A backend translator that fails without naming a fault, or succeeds
 * mapping nothing: the unit reports the buffer write as a stage 1
 * translation fault at level 3 (DDI 0586A §3.5.3 Table 6), the address
 * in PMBPTR.
 */
static void test_silent_translator(void)
{
	for (int k = 0; k < 2; k++) {
		struct spe_spu spu;
		struct spe_op op = t_op_load();
		uint64_t sr;

		if (spe_spu_init(&spu, spe_spu_profile(SPE_SPU_PROFILE_V1_MIN),
				 k ? empty_translate : silent_translate, NULL)) {
			CHECK(0, "the unit initialises");
			return;
		}
		spe_spu_write_reg(&spu, SPE_REG_PMBPTR_EL1, T_BUF_BASE);
		spe_spu_write_reg(&spu, SPE_REG_PMBLIMITR_EL1, (T_BUF_BASE + T_BUF_SIZE) | SPE_PMBLIMITR_E);
		spe_spu_write_reg(&spu, SPE_REG_PMSIRR_EL1, 0);
		spe_spu_write_reg(&spu, SPE_REG_PMSCR_EL1, EN);
		spe_spu_step(&spu, &op);
		spe_spu_psb_csync(&spu);
		sr = spe_spu_read_reg(&spu, SPE_REG_PMBSR_EL1);
		CHECK(spe_spu_irq(&spu) && EC(sr) == SPE_PMBSR_EC_FAULT_S1 &&
		      MSS(sr) == SPE_FSC_TRANSLATION(3) &&
		      spe_spu_read_reg(&spu, SPE_REG_PMBPTR_EL1) == T_BUF_BASE,
		      k ? "§3.5.3 a translator that succeeds mapping 0 bytes: stage 1 translation fault, level 3" :
			  "§3.5.3 a translator that maps nothing: stage 1 translation fault, level 3");
	}
}

static uint64_t discarded_pcs[8];
static unsigned int nr_discarded_pcs, outcome_addr_bad;

/* Records the discarded operations; and every outcome but WRITTEN must
 * come without an address or length (spe_spu_hook_fn: only a written
 * record has one). */
static void pc_hook(void *ctx, const struct spe_op *op, enum spe_spu_outcome what,
		    uint64_t addr, uint32_t len)
{
	(void)ctx;
	if (what != SPE_SPU_WRITTEN && (addr || len))
		outcome_addr_bad++;
	if (what == SPE_SPU_DISCARDED && nr_discarded_pcs < 8)
		discarded_pcs[nr_discarded_pcs++] = op->pc;
}

/*
 * §3.5: sampled operations still in flight when PMBSR_EL1.S is set are
 * discarded; §3.6.1: so are those in flight when the buffer is disabled
 * (PMBLIMITR.E = 0) without a PSB CSYNC.  Each of them once, oldest first;
 * in later rounds the in-flight ring starts elsewhere.
 */
static void test_discards_in_flight(void)
{
	struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);
	struct t_unit *u;
	struct spe_op op = t_op_load();
	int ok_s = 1, ok_e = 1;
	uint64_t filtrate, filtrate_s = 0, filtrate_e = 0;

	cfg.max_inflight = 3;
	u = t_unit_new_cfg(&cfg);
	u->spu.hook = pc_hook;
	op.lat_total = 1000;
	for (int round = 0; round < 3; round++) {
		int n = 3 - (round & 1), *ok = round < 2 ? &ok_s : &ok_e;

		t_enable(u, EN, 0, T_BUF_SIZE);
		nr_discarded_pcs = 0;
		for (int i = 0; i < n; i++) {
			op.pc = 0x400000 + 0x100 * round + 4 * i;
			spe_spu_step(&u->spu, &op);
		}
		filtrate = spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FILTRATE);
		if (round < 2) {
			spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, SPE_PMBSR_S);
			spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, 0);
		} else {
			spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1, 0);
		}
		spe_spu_psb_csync(&u->spu);
		filtrate = spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FILTRATE) - filtrate;
		if (round < 2)
			filtrate_s += filtrate;
		else
			filtrate_e += filtrate;
		*ok &= nr_discarded_pcs == (unsigned int)n;
		for (int i = 0; i < n && i < (int)nr_discarded_pcs; i++)
			*ok &= discarded_pcs[i] == (uint64_t)(0x400000 + 0x100 * round + 4 * i);
	}
	CHECK(ok_s && t_used(u) == 0,
	      "§3.5 setting PMBSR.S discards each in-flight sample once, oldest first");
	CHECK(ok_e && t_used(u) == 0,
	      "§3.6.1 clearing PMBLIMITR.E discards each in-flight sample once, oldest first");
	CHECK_EQ(filtrate_s, 5,
		 "§2.6 SAMPLE_FILTRATE counts the in-flight samples PMBSR.S discards (5 in two rounds)");
	CHECK_EQ(filtrate_e, 0,
		 "§2.6 SAMPLE_FILTRATE does not count those software discards by clearing PMBLIMITR.E");
	t_unit_free(u);

	/* A filtered sample, reported to the hook without an address. */
	u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	u->spu.hook = pc_hook;
	outcome_addr_bad = 0;
	t_enable(u, EN, 0, T_BUF_SIZE);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSFCR_EL1, SPE_PMSFCR_FT | SPE_PMSFCR_ST);
	t_run(u, &op);
	CHECK(t_used(u) == 0 && outcome_addr_bad == 0,
	      "a filtered or discarded sample reaches the hook with no address or length");
	t_unit_free(u);

	/* §3.6.1: the buffer disabled without a PSB CSYNC, a sample that
	 * completes afterwards is discarded, with no address or length. */
	u = t_unit_new_cfg(&cfg);
	u->spu.hook = pc_hook;
	outcome_addr_bad = 0;
	nr_discarded_pcs = 0;
	t_enable(u, EN, 0, T_BUF_SIZE);
	op.pc = 0x500000;
	spe_spu_step(&u->spu, &op);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1, 0);
	spe_spu_advance(&u->spu, 100000);
	CHECK(nr_discarded_pcs == 1 && discarded_pcs[0] == 0x500000 && outcome_addr_bad == 0 &&
	      t_used(u) == 0,
	      "§3.6.1 a sample completing after PMBLIMITR.E is cleared is discarded, no address or length");
	t_unit_free(u);
}

/*
 * Every other way a record that passed the filters is not written reaches
 * the hook as DISCARDED with no address or length (spe_spu_hook_fn: only
 * a written record has them): the discard fill mode (DDI 0487
 * PMBLIMITR_EL1.FM), an unaligned PMBPTR (§3.5.3 Table 6), no room for
 * the record (§3.4.1) and a write that faults (§3.5.3).
 */
static void test_discard_outcomes(void)
{
	static const char *const why[] = { "the discard fill mode", "an unaligned PMBPTR",
					   "no room for the record", "a faulting write" };
	static const enum spe_spu_profile_id id[] = { SPE_SPU_PROFILE_V2, SPE_SPU_PROFILE_N1,
						      SPE_SPU_PROFILE_V1_MIN, SPE_SPU_PROFILE_V1_MIN };
	struct spe_op op = t_op_load();
	char what[160];

	for (unsigned int k = 0; k < sizeof(why) / sizeof(why[0]); k++) {
		struct t_unit *u = t_unit_new(id[k]);

		u->spu.hook = pc_hook;
		outcome_addr_bad = 0;
		nr_discarded_pcs = 0;
		if (k == 3) {
			u->mem.nr_faults = 1;
			u->mem.faults[0].va = T_BUF_BASE;
			u->mem.faults[0].len = 4096;
			u->mem.faults[0].fault = SPE_SPU_XLAT_FAULT_S1;
			u->mem.faults[0].fsc = SPE_FSC_TRANSLATION(3);
		}
		t_enable(u, EN, 0, 4096);
		if (k == 0)
			spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1, (T_BUF_BASE + 4096) |
					  SPE_FIELD_PREP(SPE_PMBLIMITR_FM_MASK,
							 SPE_PMBLIMITR_FM_DISCARD) |
					  SPE_PMBLIMITR_E);
		else if (k == 1)
			spe_spu_write_reg(&u->spu, SPE_REG_PMBPTR_EL1, T_BUF_BASE + 4);
		else if (k == 2)
			spe_spu_write_reg(&u->spu, SPE_REG_PMBPTR_EL1, T_BUF_BASE + 4096 - 8);
		op.pc = 0x600000 + 4 * k;
		t_run(u, &op);
		snprintf(what, sizeof(what),
			 "%s: the sample reaches the hook as discarded, with no address or length",
			 why[k]);
		CHECK(nr_discarded_pcs == 1 && discarded_pcs[0] == op.pc && outcome_addr_bad == 0,
		      what);
		t_unit_free(u);
	}
}

int main(void)
{
	test_discards_in_flight();
	test_discard_outcomes();
	test_silent_translator();
	test_sequential();
	test_align();
	test_buffer_full();
	test_discard();
	test_faults();
	test_psb_csync();
	test_irq_line();
	return tap_done();
}
