// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Filtering rules of the SPU model (DDI 0586A §3.2.2, §3.2.3 CollectRecord)
 * and the newer filters of DDI 0487 PMSFCR_EL1: inverted events (SPEv1p2),
 * data source (FEAT_SPE_FDS), SIMD/FP and the mask bits (FEAT_SPE_EFT).
 */
#include <stdio.h>

#include "tap.h"
#include "support/spu_test.h"

/* Is op recorded with PMSFCR = fcr (and the other filter registers)? */
static int recorded(enum spe_spu_profile_id id, uint64_t fcr, uint64_t evfr,
		    uint64_t nevfr, uint64_t minlat, uint64_t dsfr,
		    const struct spe_op *op)
{
	struct t_unit *u = t_unit_new(id);
	unsigned long before;
	int ok;

	t_enable(u, SPE_PMSCR_E0SPE, 0, T_BUF_SIZE);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSFCR_EL1, fcr);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSEVFR_EL1, evfr);
	if (spe_spu_read_reg(&u->spu, SPE_REG_PMSIDR_EL1) & SPE_PMSIDR_FNE)
		spe_spu_write_reg(&u->spu, SPE_REG_PMSNEVFR_EL1, nevfr);
	if (spe_spu_read_reg(&u->spu, SPE_REG_PMSIDR_EL1) & SPE_PMSIDR_FDS)
		spe_spu_write_reg(&u->spu, SPE_REG_PMSDSFR_EL1, dsfr);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSLATFR_EL1, minlat);
	before = u->written;
	t_run(u, op);
	ok = u->written > before;
	/* A record written must also have moved PMBPTR, a filtered one not. */
	if (ok != (t_used(u) > 0))
		ok = -1;
	t_unit_free(u);
	return ok;
}

static int type_recorded(uint64_t fcr, const struct spe_op *op)
{
	return recorded(SPE_SPU_PROFILE_V1_MIN, fcr, 0, 0, 0, 0, op);
}

static void test_table4(void)
{
	static const char *const types[4] = { "load", "store", "branch", "other" };
	struct spe_op ops[4] = { t_op_load(), t_op_store(), t_op_branch(), t_op_other() };
	unsigned int row, t;
	char name[160];

	/* FT = 0: everything collected, whatever LD/ST/B say. */
	for (t = 0; t < 4; t++) {
		snprintf(name, sizeof(name),
			 "§3.2.2 Table 4 FT=0 LD=1 ST=1 B=1: %s collected", types[t]);
		CHECK_EQ(type_recorded(SPE_PMSFCR_TYPE_MASK, &ops[t]), 1, name);
		snprintf(name, sizeof(name),
			 "§3.2.2 Table 4 FT=0 LD=0 ST=0 B=0: %s collected", types[t]);
		CHECK_EQ(type_recorded(0, &ops[t]), 1, name);
	}
	/* FT = 1: the eight LD/ST/B rows. */
	for (row = 0; row < 8; row++) {
		int ld = !!(row & 4), st = !!(row & 2), b = !!(row & 1);
		uint64_t fcr = SPE_PMSFCR_FT | (ld ? SPE_PMSFCR_LD : 0) |
			       (st ? SPE_PMSFCR_ST : 0) | (b ? SPE_PMSFCR_B : 0);
		int want[4] = { ld, st, b, 0 };

		for (t = 0; t < 4; t++) {
			snprintf(name, sizeof(name),
				 "§3.2.2 Table 4 FT=1 LD=%d ST=%d B=%d: %s %s",
				 ld, st, b, types[t], want[t] ? "collected" : "discarded");
			CHECK_EQ(type_recorded(fcr, &ops[t]), want[t], name);
		}
	}
	{
		struct spe_op at = t_op_load();

		at.subclass = 0x02 | SPE_OP_LDST_EXT_AT;	/* atomic returning data */
		CHECK_EQ(type_recorded(SPE_PMSFCR_FT | SPE_PMSFCR_ST, &at), 1,
			 "§4.3.9 ST records all atomics, including those that return data");
		CHECK_EQ(type_recorded(SPE_PMSFCR_FT | SPE_PMSFCR_LD, &at), 1,
			 "§4.3.9 LD records atomics that return data");
		at.subclass |= SPE_OP_LDST_ST;			/* atomic, no data back */
		CHECK_EQ(type_recorded(SPE_PMSFCR_FT | SPE_PMSFCR_LD, &at), 0,
			 "§4.3.9 LD does not record atomics that return no data");
	}
}

static void test_events(void)
{
	struct spe_op op = t_op_load();
	uint64_t fe = SPE_PMSFCR_FE;

	op.events = SPE_EV_RETIRED | SPE_EV_L1D_REFILL;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, fe, SPE_EV_L1D_REFILL, 0, 0, 0, &op), 1,
		 "§3.2.2 FE: a sample with the filtered event is recorded");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, fe, SPE_EV_L1D_REFILL | SPE_EV_TLB_WALK,
			  0, 0, 0, &op), 0,
		 "§3.2.2 FE: every event in PMSEVFR must be present (AND)");
	op.events |= SPE_EV_TLB_WALK;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, fe, SPE_EV_L1D_REFILL | SPE_EV_TLB_WALK,
			  0, 0, 0, &op), 1,
		 "§3.2.2 FE: all listed events present, recorded");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, 0, SPE_EV_MISPRED, 0, 0, 0, &op), 1,
		 "§4.3.8 PMSEVFR is ignored when FE=0");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, fe, 0, 0, 0, 0, &op), 1,
		 "§4.3.9 FE=1 with PMSEVFR=0 (CONSTRAINED UNPREDICTABLE): behaves as FE=0");

	op.events = SPE_EV_RETIRED | SPE_EV_MISPRED;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V2, SPE_PMSFCR_FNE, 0, SPE_EV_MISPRED, 0, 0, &op), 0,
		 "DDI 0487 FnE: a sample with an event in PMSNEVFR is not recorded");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V2, SPE_PMSFCR_FNE, 0, SPE_EV_L1D_REFILL, 0, 0, &op), 1,
		 "DDI 0487 FnE: a sample with none of PMSNEVFR's events is recorded");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V2, SPE_PMSFCR_FNE | SPE_PMSFCR_FE, SPE_EV_RETIRED,
			  SPE_EV_MISPRED | SPE_EV_L1D_REFILL, 0, 0, &op), 0,
		 "DDI 0487 FE and FnE combine as a logical AND");
	op.events = SPE_EV_RETIRED;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V2, SPE_PMSFCR_FNE | SPE_PMSFCR_FE, SPE_EV_RETIRED,
			  SPE_EV_MISPRED | SPE_EV_L1D_REFILL, 0, 0, &op), 1,
		 "DDI 0487 FE and FnE both satisfied: recorded");
}

static void test_latency(void)
{
	struct spe_op op = t_op_load();
	uint64_t fl = SPE_PMSFCR_FL;

	op.lat_total = 100;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, fl, 0, 0, 100, 0, &op), 1,
		 "§3.2.2 FL: total latency equal to MINLAT is recorded");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, fl, 0, 0, 101, 0, &op), 0,
		 "§3.2.2 FL: total latency below MINLAT is not recorded");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, 0, 0, 0, 101, 0, &op), 1,
		 "§4.3.13 MINLAT is ignored when FL=0");
	op.lat_total = 100000;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, fl, 0, 0, 0xfff, 0, &op), 1,
		 "§3.2.2 FL: a saturated 12-bit latency meets MINLAT=0xfff");
	op.lat_total = 20;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN,
			  fl | SPE_PMSFCR_FT | SPE_PMSFCR_LD | SPE_PMSFCR_FE,
			  SPE_EV_RETIRED, 0, 10, 0, &op), 1,
		 "§3.2.2 type, event and latency filters all met: recorded");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN,
			  fl | SPE_PMSFCR_FT | SPE_PMSFCR_LD | SPE_PMSFCR_FE,
			  SPE_EV_RETIRED, 0, 30, 0, &op), 0,
		 "§3.2.2 filters combine as a logical AND (latency fails)");
}

static void test_data_source(void)
{
	struct spe_op op = t_op_load();
	uint64_t fds = SPE_PMSFCR_FDS;

	op.data_source = SPE_DS_COMMON_DRAM;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_FULL, fds, 0, 0, 0, SPE_BIT(SPE_DS_COMMON_DRAM), &op), 1,
		 "DDI 0487 FDS: a load whose data source bit is set in PMSDSFR is recorded");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_FULL, fds, 0, 0, 0, SPE_BIT(SPE_DS_COMMON_L2), &op), 0,
		 "DDI 0487 FDS: a load whose data source bit is clear is not recorded");
	op.data_source = 64;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_FULL, fds, 0, 0, 0, ~0ull, &op), 0,
		 "DDI 0487 D18 FEAT_SPE_FDS: a data source past PMSDSFR's 64 bits never matches");
	op.data_source = 63;
	CHECK_EQ(recorded(SPE_SPU_PROFILE_FULL, fds, 0, 0, 0, SPE_BIT(63), &op), 1,
		 "DDI 0487 D18 FEAT_SPE_FDS: data source 63 matches PMSDSFR bit 63");
	op = t_op_store();
	CHECK_EQ(recorded(SPE_SPU_PROFILE_FULL, fds, 0, 0, 0, 0, &op), 1,
		 "DDI 0487 D17.1 the data-source filter applies to loads only");
}

static void test_eft(void)
{
	struct spe_op fp = t_op_other(), simd_ld = t_op_load(), ld = t_op_load();
	struct spe_op br = t_op_branch();
	uint64_t ft = SPE_PMSFCR_FT;
	enum spe_spu_profile_id f = SPE_SPU_PROFILE_FULL;

	fp.subclass = SPE_OP_OTHER_FP;
	simd_ld.subclass = SPE_OP_LDST_SIMD_FP;
	CHECK_EQ(recorded(f, ft | SPE_PMSFCR_FP, 0, 0, 0, 0, &fp), 1,
		 "DDI 0487 EFT: FP=1 records floating-point operations");
	CHECK_EQ(recorded(f, ft | SPE_PMSFCR_FP, 0, 0, 0, 0, &ld), 0,
		 "DDI 0487 EFT: FP=1 alone does not record integer loads");
	CHECK_EQ(recorded(f, ft | SPE_PMSFCR_SIMD | SPE_PMSFCR_B, 0, 0, 0, 0, &br), 1,
		 "DDI 0487 EFT: type bits without masks are a logical OR");
	CHECK_EQ(recorded(f, ft | SPE_PMSFCR_LD | SPE_PMSFCR_SIMD | SPE_PMSFCR_LDM |
			  SPE_PMSFCR_SIMDM, 0, 0, 0, 0, &simd_ld), 1,
		 "DDI 0487 EFT: LD+SIMD with both masks records SIMD loads (AND)");
	CHECK_EQ(recorded(f, ft | SPE_PMSFCR_LD | SPE_PMSFCR_SIMD | SPE_PMSFCR_LDM |
			  SPE_PMSFCR_SIMDM, 0, 0, 0, 0, &ld), 0,
		 "DDI 0487 EFT: LD+SIMD with both masks drops non-SIMD loads");
	CHECK_EQ(recorded(f, ft | SPE_PMSFCR_LD | SPE_PMSFCR_SIMDM, 0, 0, 0, 0, &simd_ld), 0,
		 "DDI 0487 EFT: a mask bit with its type bit clear excludes that type");
	CHECK_EQ(recorded(f, ft | SPE_PMSFCR_LD | SPE_PMSFCR_SIMDM, 0, 0, 0, 0, &ld), 1,
		 "DDI 0487 EFT: ...and keeps the others of the OR set");
	{
		/*
		 * Which operations are SIMD and which floating point comes
		 * from the Operation Type payload (DDI 0487 D18.1): every SVE
		 * "other" operation is SIMD, with or without its FP bit; the FP
		 * bit means floating point only in class "other" (in a load or
		 * store the same bit says extended subclass, not FP).
		 */
		struct spe_op sve = t_op_other(), sve_fp = t_op_other(), plain = t_op_other();
		struct spe_op ext_ld = t_op_load();

		sve.subclass = 0x08;			/* SVE, not FP, not predicated */
		sve_fp.subclass = 0x08 | SPE_OP_OTHER_FP;
		plain.subclass = 0;			/* plain integer */
		ext_ld.subclass = 0x02;			/* extended load/store */
		CHECK(recorded(f, ft | SPE_PMSFCR_SIMD, 0, 0, 0, 0, &sve) == 1 &&
		      recorded(f, ft | SPE_PMSFCR_SIMD, 0, 0, 0, 0, &sve_fp) == 1 &&
		      recorded(f, ft | SPE_PMSFCR_SIMD, 0, 0, 0, 0, &plain) == 0,
		      "DDI 0487 D18.1 FEAT_SPE_EFT: SIMD=1 records SVE operations, not plain integer ones");
		CHECK(recorded(f, ft | SPE_PMSFCR_FP, 0, 0, 0, 0, &sve_fp) == 1 &&
		      recorded(f, ft | SPE_PMSFCR_FP, 0, 0, 0, 0, &sve) == 0 &&
		      recorded(f, ft | SPE_PMSFCR_FP, 0, 0, 0, 0, &ext_ld) == 0,
		      "DDI 0487 D18.1 FEAT_SPE_EFT: FP=1 records FP other operations only, not a load whose payload has bit 1 set");
	}
	CHECK_EQ(spe_spu_profile(SPE_SPU_PROFILE_V1_MIN)->pmsidr & SPE_PMSIDR_EFT, 0,
		 "v1-min has no FEAT_SPE_EFT");
	CHECK_EQ(recorded(SPE_SPU_PROFILE_V1_MIN, ft | SPE_PMSFCR_LD | SPE_PMSFCR_FP,
			  0, 0, 0, 0, &fp), 0,
		 "§4.3.9 without FEAT_SPE_EFT the FP bit is RES0 and selects nothing");
}

int main(void)
{
	test_table4();
	test_events();
	test_latency();
	test_data_source();
	test_eft();
	return tap_done();
}
