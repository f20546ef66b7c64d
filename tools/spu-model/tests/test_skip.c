// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe_spu_skip(): counting operations in bulk must leave the unit exactly
 * where stepping them one by one does (DDI 0586A §3.1: the interval counter
 * in its three RND/ERnd behaviours, §3.1.3: operations at a disabled
 * Exception level are not counted).  The kernel's simulated backend relies
 * on it to describe only the operations that are selected.
 */
#include <stdio.h>

#include "tap.h"
#include "support/spu_test.h"

#define NR_OPS		200000UL
#define EL_RUN		7919UL	/* operations per Exception level run */

/* The Exception levels the runs alternate between. */
struct el_runs {
	unsigned int first, second;
};

static struct spe_op op_at(unsigned long i, struct el_runs els)
{
	struct spe_op op = (i % 3) ? t_op_load() : t_op_other();

	op.pc += (i % 4096) * 4;
	op.el = ((i / EL_RUN) & 1) ? els.second : els.first;
	op.target_el = op.el;
	op.cycles = 1;
	op.lat_total = 30 + i % 200;
	return op;
}

static int same_unit(const struct t_unit *a, const struct t_unit *b)
{
	unsigned int ev;

	for (ev = 0; ev < SPE_SPU_PMU_NR; ev++)
		if (spe_spu_pmu_count(&a->spu, ev) != spe_spu_pmu_count(&b->spu, ev))
			return 0;
	return a->spu.count == b->spu.count && a->spu.ecount == b->spu.ecount &&
	       a->spu.records == b->spu.records && a->spu.bytes == b->spu.bytes &&
	       a->spu.pmbptr == b->spu.pmbptr && a->spu.pmbsr == b->spu.pmbsr &&
	       !memcmp(a->buf, b->buf, sizeof(a->buf));
}

/*
 * Runs of EL_RUN operations at els.first and els.second, stepped one by
 * one on a and skipped where possible on b.  pmscr_el1 is written as a
 * driver at EL1 does; with owner_el2 (a VHE host, §3.2.1 Table 3) EL2
 * owns the buffer and pmscr_el2 enables its ELs instead.
 */
static void check_skip_at(enum spe_spu_profile_id id, int owner_el2,
			  uint64_t pmscr_el1, uint64_t pmscr_el2,
			  struct el_runs els, uint64_t pmsirr, const char *name)
{
	struct spe_spu_config cfg = *spe_spu_profile(id);
	struct t_unit *a, *b;
	unsigned long i, j, skipped_total = 0;
	struct spe_op op;
	char what[160];

	cfg.owner_el2 = owner_el2;
	cfg.tge = owner_el2;
	a = t_unit_new_cfg(&cfg);
	b = t_unit_new_cfg(&cfg);
	t_enable(a, pmscr_el1, pmsirr, T_BUF_SIZE);
	t_enable(b, pmscr_el1, pmsirr, T_BUF_SIZE);
	if (owner_el2) {
		spe_spu_write_reg(&a->spu, SPE_REG_PMSCR_EL2, pmscr_el2);
		spe_spu_write_reg(&b->spu, SPE_REG_PMSCR_EL2, pmscr_el2);
	}

	for (i = 0; i < NR_OPS && !spe_spu_irq(&a->spu); i++) {
		op = op_at(i, els);
		spe_spu_step(&a->spu, &op);
	}
	for (i = 0; i < NR_OPS && !spe_spu_irq(&b->spu);) {
		unsigned int el = op_at(i, els).el;
		uint64_t n;

		j = (i / EL_RUN + 1) * EL_RUN;
		if (j > NR_OPS)
			j = NR_OPS;
		n = spe_spu_skip(&b->spu, j - i, el);
		if (n > j - i)
			break;	/* caught by the comparison below */
		skipped_total += n;
		/* Time passes as it did for the stepped operations. */
		spe_spu_advance(&b->spu, n);
		i += n;
		if (i < j) {
			op = op_at(i, els);
			spe_spu_step(&b->spu, &op);
			i++;
		}
	}
	spe_spu_psb_csync(&a->spu);
	spe_spu_psb_csync(&b->spu);
	snprintf(what, sizeof(what), "%s: the run samples", name);
	CHECK(spe_spu_pmu_count(&a->spu, SPE_SPU_SAMPLE_FEED) > 20, what);
	snprintf(what, sizeof(what),
		 "%s: most operations are skipped, not stepped", name);
	CHECK(skipped_total > NR_OPS / 2, what);
	snprintf(what, sizeof(what),
		 "%s: skip then step leaves the same counters, records and registers as stepping every operation",
		 name);
	CHECK(same_unit(a, b), what);
	t_unit_free(a);
	t_unit_free(b);
}

/* Only EL0 enabled: the EL1 runs must not count. */
static void check_skip(enum spe_spu_profile_id id, uint64_t pmsirr,
		       const char *name)
{
	check_skip_at(id, 0, SPE_PMSCR_E0SPE | SPE_PMSCR_TS, 0,
		      (struct el_runs){ 0, 1 }, pmsirr, name);
}

int main(void)
{
	check_skip(SPE_SPU_PROFILE_N1, 4ULL << 8, "§3.1.2 RND=0");
	check_skip(SPE_SPU_PROFILE_N1, (4ULL << 8) | SPE_PMSIRR_RND,
		   "§3.1.2 RND=1 ERnd=0");
	check_skip(SPE_SPU_PROFILE_V2, (4ULL << 8) | SPE_PMSIRR_RND,
		   "§3.1.2 RND=1 ERnd=1");
	check_skip(SPE_SPU_PROFILE_V2, 1ULL << 8, "§3.1.2 RND=0, interval 256");
	/* The other enabled Exception levels: EL1 alone (the EL0 runs must
	 * not count), and EL2 alone on a VHE host (PMSCR_EL2.E2SPE, §3.2.1
	 * Table 3), whose EL2 runs are counted as stepping counts them. */
	check_skip_at(SPE_SPU_PROFILE_N1, 0, SPE_PMSCR_E1SPE | SPE_PMSCR_TS, 0,
		      (struct el_runs){ 0, 1 }, 4ULL << 8, "§3.1.3 EL1 enabled, EL0 not");
	check_skip_at(SPE_SPU_PROFILE_N1, 1, 0, SPE_PMSCR_E2SPE | SPE_PMSCR_TS,
		      (struct el_runs){ 0, 2 }, 4ULL << 8,
		      "§3.1.3 EL2 owner: EL2 enabled, host EL0 not");
	return tap_done();
}
