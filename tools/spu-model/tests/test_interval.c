// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Sampling rules of the SPU model: the sample interval counter of DDI 0586A
 * §3.1 in its three RND/ERnd behaviours, enabling by Exception level
 * (§3.2.1), collisions (§2.2.4, §3.1.4) and the SPU PMU events (§2.6).
 */
#include <stdio.h>

#include "tap.h"
#include "support/spu_test.h"

#define EN0	SPE_PMSCR_E0SPE
#define IRR(ivl, rnd)	(((uint64_t)(ivl) << 8) | ((rnd) ? SPE_PMSIRR_RND : 0))

/* Intervals between the first nr samples, counted in operations stepped. */
static void sample_intervals(struct t_unit *u, unsigned long nr,
			     uint64_t *sum, uint64_t *min, uint64_t *max)
{
	struct spe_op op = t_op_other();
	unsigned long got = 0, since = 0, last_feed = 0;

	op.lat_total = 0;
	/* Record nothing (Table 4: FT=1, no type) so the buffer never fills. */
	spe_spu_write_reg(&u->spu, SPE_REG_PMSFCR_EL1, SPE_PMSFCR_FT);
	*sum = 0;
	*min = ~0ULL;
	*max = 0;
	while (got <= nr && !spe_spu_irq(&u->spu)) {
		spe_spu_step(&u->spu, &op);
		since++;
		if (spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FEED) != last_feed) {
			last_feed = spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FEED);
			if (got) {	/* the first one only starts the clock */
				*sum += since;
				if (since < *min)
					*min = since;
				if (since > *max)
					*max = since;
			}
			got++;
			since = 0;
		}
	}
}

static void test_rnd0(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	uint64_t sum, min, max;

	t_enable(u, EN0, IRR(4, 0), T_BUF_SIZE);
	sample_intervals(u, 200, &sum, &min, &max);
	CHECK(min == 4 * 256 + 1 && max == 4 * 256 + 1,
	      "§3.1.2 RND=0: every interval is INTERVAL*256+1 operations");
	t_unit_free(u);

	u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	t_enable(u, EN0, IRR(3, 0), T_BUF_SIZE);
	{
		struct spe_op op = t_op_other();

		spe_spu_step(&u->spu, &op);
		CHECK_EQ(spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1), 3 * 256 - 1,
			 "§3.1.1 PMSICR=0 when enabled loads COUNT[31:8]=INTERVAL, COUNT[7:0]=0");
	}
	t_unit_free(u);
}

static void test_restart_from_saved(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	struct spe_op op = t_op_other();
	int i;

	t_enable(u, 0, IRR(4, 0), T_BUF_SIZE);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSICR_EL1, 5);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL1, EN0);
	for (i = 0; i < 5; i++)
		spe_spu_step(&u->spu, &op);
	CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FEED), 0,
		 "§3.1.1 non-zero PMSICR: counting restarts from its value (5 ops, no sample)");
	spe_spu_step(&u->spu, &op);
	CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FEED), 1,
		 "§3.1.1 non-zero PMSICR: the operation seen at zero is sampled");
	t_unit_free(u);
}

static void test_rnd1_ernd0(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_N1);	/* ERnd = 0 */
	uint64_t sum, min, max, mean_x100;
	unsigned long nr = 20000;
	unsigned int seen_low = 0;
	int i, hi_ok = 1;

	t_enable(u, EN0, IRR(4, 1), T_BUF_SIZE);
	sample_intervals(u, nr, &sum, &min, &max);
	mean_x100 = sum * 100 / nr;
	printf("# RND=1 ERnd=0: mean interval %llu.%02llu (min %llu, max %llu)\n",
	       (unsigned long long)mean_x100 / 100, (unsigned long long)mean_x100 % 100,
	       (unsigned long long)min, (unsigned long long)max);
	/* uniform 0..255 added to 1024 + 1: mean 1152.5, sd of the mean ~0.5 */
	CHECK(mean_x100 >= 115050 && mean_x100 <= 115450,
	      "§3.1.2 RND=1 ERnd=0: mean interval is INTERVAL*256+128 (+-2)");
	CHECK(min >= 1025 && max <= 1024 + 256 && min < 1030 && max > 1275,
	      "§3.1.2 RND=1 ERnd=0: intervals span INTERVAL*256+1 .. INTERVAL*256+256");
	t_unit_free(u);

	/* The initial value's low byte is random too (§3.1.1). */
	for (i = 0; i < 16; i++) {
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_N1);
		struct spe_op op = t_op_other();

		cfg.seed = (uint64_t)i * 7919;
		u = t_unit_new_cfg(&cfg);
		t_enable(u, EN0, IRR(4, 1), T_BUF_SIZE);
		spe_spu_step(&u->spu, &op);
		seen_low |= 1u << ((spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1) + 1) & 0xff) % 32;
		hi_ok &= (spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1) + 1) >> 8 == 4;
		t_unit_free(u);
	}
	CHECK(hi_ok, "§3.1.1 RND=1 ERnd=0: initial COUNT[31:8] is INTERVAL");
	CHECK(__builtin_popcount(seen_low) > 4,
	      "§3.1.1 RND=1 ERnd=0: initial COUNT[7:0] is random");
}

static void test_rnd1_ernd1(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V2);	/* ERnd = 1 */
	uint64_t sum, min, max, mean_x100;
	unsigned long nr = 20000;
	struct spe_op op = t_op_other();
	int ecount_seen = 0, i;

	CHECK(spe_spu_read_reg(&u->spu, SPE_REG_PMSIDR_EL1) & SPE_PMSIDR_ERND,
	      "§4.3.11 the v2 profile reports PMSIDR.ERnd=1");
	t_enable(u, EN0, IRR(4, 1), T_BUF_SIZE);
	sample_intervals(u, nr, &sum, &min, &max);
	mean_x100 = sum * 100 / nr;
	printf("# RND=1 ERnd=1: mean interval %llu.%02llu (min %llu, max %llu)\n",
	       (unsigned long long)mean_x100 / 100, (unsigned long long)mean_x100 % 100,
	       (unsigned long long)min, (unsigned long long)max);
	/* Samples at k*1025 + r_k: the mean tends to 1025 as (r_n - r_0)/n. */
	CHECK(mean_x100 >= 102400 && mean_x100 <= 102600,
	      "§3.1.2 RND=1 ERnd=1: mean interval is INTERVAL*256+1");
	CHECK(min < 1025 - 200 && max > 1025 + 200 && max <= 1025 + 255,
	      "§3.1.2 RND=1 ERnd=1: the secondary counter perturbs each interval by up to 255");
	for (i = 0; i < 2000; i++) {
		spe_spu_step(&u->spu, &op);
		if (spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1) >> 56)
			ecount_seen = 1;
	}
	CHECK(ecount_seen, "§4.3.10 ERnd=1: PMSICR.ECOUNT counts down after the primary counter reloads");
	t_unit_free(u);

	u = t_unit_new(SPE_SPU_PROFILE_V2);
	t_enable(u, EN0, IRR(4, 0), T_BUF_SIZE);
	sample_intervals(u, 50, &sum, &min, &max);
	CHECK(min == 1025 && max == 1025,
	      "§3.1.2 ERnd=1 with RND=0: interval is INTERVAL*256+1");
	t_unit_free(u);
}

static void test_enables(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_N1);
	struct spe_op op = t_op_other();
	uint64_t icr;
	int i;

	t_enable(u, EN0, IRR(4, 0), T_BUF_SIZE);
	spe_spu_step(&u->spu, &op);
	icr = spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1);
	op.el = 1;
	for (i = 0; i < 3000; i++)
		spe_spu_step(&u->spu, &op);
	CHECK_EQ(spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1), icr,
		 "§3.1.3 at an EL with profiling disabled (E1SPE=0) the counter keeps its value");
	CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_POP), 1,
		 "§2.6 SAMPLE_POP does not count operations at a disabled EL");
	spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL1, SPE_PMSCR_E1SPE);
	spe_spu_step(&u->spu, &op);
	CHECK_EQ(spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1), icr - 1,
		 "§3.2.1 PMSCR_EL1.E1SPE enables counting at EL1");
	op.el = 2;
	spe_spu_step(&u->spu, &op);
	CHECK_EQ(spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1), icr - 1,
		 "§3.2.1 Table 3: EL2 is never sampled when EL1 owns the buffer");
	op.el = 1;
	spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1,
			  spe_spu_read_reg(&u->spu, SPE_REG_PMBLIMITR_EL1) & ~SPE_PMBLIMITR_E);
	spe_spu_step(&u->spu, &op);
	CHECK_EQ(spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1), icr - 1,
		 "§3.2.1 PMBLIMITR.E=0 disables profiling");
	spe_spu_write_reg(&u->spu, SPE_REG_PMBLIMITR_EL1,
			  spe_spu_read_reg(&u->spu, SPE_REG_PMBLIMITR_EL1) | SPE_PMBLIMITR_E);
	spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, SPE_PMBSR_S);
	spe_spu_step(&u->spu, &op);
	CHECK_EQ(spe_spu_read_reg(&u->spu, SPE_REG_PMSICR_EL1), icr - 1,
		 "§3.5 while PMBSR.S=1 PMSICR does not decrement");
	CHECK(spe_spu_irq(&u->spu), "§3.5 a direct write of PMBSR.S=1 asserts PMBIRQ");
	spe_spu_write_reg(&u->spu, SPE_REG_PMBSR_EL1, 0);
	CHECK(!spe_spu_irq(&u->spu), "§3.5 PMBIRQ stays asserted until software clears PMBSR.S");
	t_unit_free(u);

	/* A VHE host: EL2 owns the buffer, PMSCR_EL2.{E2SPE,E0HSPE} enable. */
	{
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_N1);

		cfg.owner_el2 = 1;
		cfg.tge = 1;
		u = t_unit_new_cfg(&cfg);
		t_enable(u, SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE, IRR(4, 0), T_BUF_SIZE);
		op.el = 0;
		spe_spu_step(&u->spu, &op);
		CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_POP), 0,
			 "§3.2.1 Table 3: with TGE=1 PMSCR_EL1.E0SPE does not enable host EL0");
		spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL2, SPE_PMSCR_E2SPE);
		op.el = 2;
		spe_spu_step(&u->spu, &op);
		op.el = 1;
		spe_spu_step(&u->spu, &op);
		CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_POP), 1,
			 "§3.2.1 Table 3: EL2 owner, PMSCR_EL2.E2SPE enables EL2 only");
		spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL2, SPE_PMSCR_E0HSPE);
		op.el = 0;
		spe_spu_step(&u->spu, &op);
		CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_POP), 2,
			 "§3.2.1 Table 3: EL2 owner, PMSCR_EL2.E0HSPE enables host EL0");
		t_unit_free(u);
	}
}

/*
 * DDI 0586A §3.2.1 Table 3, the Non-secure rows: for the buffer's owner
 * (MDCR_EL2.E2PB) and HCR_EL2.TGE, the one control that enables each EL,
 * or none.  Each EL is checked with every control set, with only its own,
 * and with all but its own.
 */
enum t3_ctl { T3_D, T3_E0SPE, T3_E1SPE, T3_E2SPE, T3_E0HSPE, T3_NR };

static void t3_write(struct t_unit *u, unsigned int ctls)
{
	uint64_t s1 = 0, s2 = 0;

	if (ctls & (1u << T3_E0SPE))
		s1 |= SPE_PMSCR_E0SPE;
	if (ctls & (1u << T3_E1SPE))
		s1 |= SPE_PMSCR_E1SPE;
	if (ctls & (1u << T3_E2SPE))
		s2 |= SPE_PMSCR_E2SPE;
	if (ctls & (1u << T3_E0HSPE))
		s2 |= SPE_PMSCR_E0HSPE;
	spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL2, s2);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL1, s1);
}

static void test_table3(void)
{
	static const struct {
		uint8_t owner_el2, tge;
		enum t3_ctl el[3];
		const char *row;
	} rows[] = {
		{ 0, 0, { T3_E0SPE, T3_E1SPE, T3_D }, "E2PB=0b1x TGE=0 (EL1 owns, a guest or nVHE host)" },
		{ 0, 1, { T3_D, T3_D, T3_D }, "E2PB=0b1x TGE=1 (EL1 owns, EL0 is the host's)" },
		{ 1, 0, { T3_E0SPE, T3_E1SPE, T3_E2SPE }, "E2PB=0b00 TGE=0 (EL2 owns, a guest runs)" },
		{ 1, 1, { T3_E0HSPE, T3_D, T3_E2SPE }, "E2PB=0b00 TGE=1 (EL2 owns, a VHE host)" },
	};
	static const char *const names[T3_NR] = { "", "E0SPE", "E1SPE", "E2SPE", "E0HSPE" };
	const unsigned int all = ((1u << T3_NR) - 1) & ~1u;
	unsigned int i, el;
	char what[200];

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V2);
		struct t_unit *u;

		cfg.owner_el2 = rows[i].owner_el2;
		cfg.tge = rows[i].tge;
		u = t_unit_new_cfg(&cfg);
		t_enable(u, 0, IRR(4, 0), T_BUF_SIZE);
		for (el = 0; el < 3; el++) {
			enum t3_ctl c = rows[i].el[el];
			unsigned int own = c == T3_D ? 0 : 1u << c;
			int on_all, on_own, on_rest;

			t3_write(u, all);
			on_all = (u->spu.el_enabled >> el) & 1;
			t3_write(u, own);
			on_own = (u->spu.el_enabled >> el) & 1;
			t3_write(u, all & ~own);
			on_rest = (u->spu.el_enabled >> el) & 1;
			snprintf(what, sizeof(what),
				 "§3.2.1 Table 3, %s: EL%u is %s%s (every control: %d, "
				 "its own: %d, the others: %d)", rows[i].row, el,
				 c == T3_D ? "disabled" : "enabled by ",
				 c == T3_D ? "" : names[c], on_all, on_own, on_rest);
			CHECK(on_all == (c != T3_D) && on_own == (c != T3_D) && !on_rest, what);
		}
		t_unit_free(u);
	}
}

static void test_collisions_and_pmu(void)
{
	struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);
	struct t_unit *u;
	struct spe_op op = t_op_other();
	unsigned long i, n = 1000;

	cfg.max_inflight = 2;
	u = t_unit_new_cfg(&cfg);
	t_enable(u, EN0, IRR(1, 0), T_BUF_SIZE);	/* every 257 ops */
	op.lat_total = 600;				/* > 2 intervals */
	op.cycles = 1;
	for (i = 0; i < 257 * n; i++)
		spe_spu_step(&u->spu, &op);
	spe_spu_psb_csync(&u->spu);
	CHECK(spe_spu_read_reg(&u->spu, SPE_REG_PMBSR_EL1) & SPE_PMBSR_COLL,
	      "§3.1.4 a sample taken with the maximum in flight sets PMBSR.COLL");
	CHECK(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_COLLISION) > 0 &&
	      spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_COLLISION) == u->collided,
	      "§2.6 SAMPLE_COLLISION counts each collided sample");
	CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FEED) +
		 spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_COLLISION), n,
		 "§2.6 SAMPLE_FEED counts samples that did not collide (FEED + COLLISION = selections)");
	CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_POP), 257 * n,
		 "§2.6 SAMPLE_POP counts every member of the population");
	CHECK_EQ(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FILTRATE),
		 spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FEED),
		 "§2.6 with no filter SAMPLE_FILTRATE counts the same as SAMPLE_FEED");
	t_unit_free(u);

	cfg.max_inflight = 2;
	u = t_unit_new_cfg(&cfg);
	t_enable(u, EN0, IRR(1, 0), T_BUF_SIZE);
	op.lat_total = 100;				/* completes in time */
	for (i = 0; i < 257 * n; i++)
		spe_spu_step(&u->spu, &op);
	CHECK(!(spe_spu_read_reg(&u->spu, SPE_REG_PMBSR_EL1) & SPE_PMBSR_COLL) &&
	      spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_COLLISION) == 0,
	      "§2.2.4 no collision while fewer than the maximum are in flight");
	t_unit_free(u);

	u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	t_enable(u, EN0, IRR(1, 0), T_BUF_SIZE);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSFCR_EL1, SPE_PMSFCR_FT | SPE_PMSFCR_LD);
	op.lat_total = 10;
	for (i = 0; i < 257 * 100; i++) {
		struct spe_op l = t_op_load();

		spe_spu_step(&u->spu, (i / 257) % 4 ? &op : &l);
	}
	spe_spu_psb_csync(&u->spu);
	CHECK(spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FILTRATE) == u->written &&
	      spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FILTRATE) <
	      spe_spu_pmu_count(&u->spu, SPE_SPU_SAMPLE_FEED) &&
	      u->written > 0,
	      "§2.6 SAMPLE_FILTRATE counts only samples that pass the filters");
	t_unit_free(u);
}

/*
 * Two sampled operations in flight at once, the older with latency lat_a,
 * the younger with lat_b.  The model's §2.2.4 rule (spe-spu-model.rst):
 * samples complete in order, each after its total latency, so the younger
 * one's record comes at max(its own completion, the older one's).
 * Returns 1 when the record times match that rule.
 */
static int two_in_flight_complete_in_order(uint16_t lat_a, uint16_t lat_b)
{
	struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);
	struct t_unit *u;
	struct spe_op op = t_op_other();
	uint64_t now = 0, t_a = 0, t_b = 0, w1 = 0, w2 = 0, want1, want2;

	cfg.max_inflight = 2;
	u = t_unit_new_cfg(&cfg);
	t_enable(u, EN0, IRR(1, 0), T_BUF_SIZE);	/* every 257 ops */
	op.cycles = 1;
	while (u->sampled < 2 && now < 10000) {
		op.lat_total = u->sampled ? lat_b : lat_a;
		spe_spu_step(&u->spu, &op);
		now++;
		if (u->sampled == 1 && !t_a)
			t_a = now;
		if (u->sampled == 2)
			t_b = now;
		if (u->written >= 1 && !w1)
			w1 = now;
	}
	while (u->written < 2 && now < 20000) {
		spe_spu_advance(&u->spu, 1);
		now++;
		if (u->written >= 1 && !w1)
			w1 = now;
		if (u->written >= 2)
			w2 = now;
	}
	want1 = t_a + lat_a;
	want2 = t_b + lat_b > want1 ? t_b + lat_b : want1;
	if (w1 != want1 || w2 != want2)
		printf("# lat %u then %u: records at %llu and %llu, want %llu and %llu\n",
		       lat_a, lat_b, (unsigned long long)w1, (unsigned long long)w2,
		       (unsigned long long)want1, (unsigned long long)want2);
	t_unit_free(u);
	return w1 == want1 && w2 == want2;
}

static void test_overlapping_samples(void)
{
	CHECK(two_in_flight_complete_in_order(600, 2000),
	      "§2.2.4 overlapping samples, the younger completing later: each record when its op completes");
	CHECK(two_in_flight_complete_in_order(2000, 10),
	      "§2.2.4 overlapping samples, the younger completing first: its record waits for the older one");
	CHECK(two_in_flight_complete_in_order(600, 343),
	      "§2.2.4 overlapping samples completing on the same cycle: both records then, in order");
}

int main(void)
{
	test_rnd0();
	test_restart_from_saved();
	test_rnd1_ernd0();
	test_rnd1_ernd1();
	test_enables();
	test_table3();
	test_collisions_and_pmu();
	test_overlapping_samples();
	return tap_done();
}
