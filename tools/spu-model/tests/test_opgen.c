// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The built-in operation generator produces realistic programs: loops
 * (PCs repeat), a load/store/branch/other mix, loads with a cache-miss
 * mix whose latencies and data sources agree with their events, branches
 * with mispredicts, and system calls into kernel code at EL1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "spe/spu_opgen.h"

#define N	(1u << 20)

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * Seeds (of 200) whose first 300 samples lack loads or stores, taking one
 * operation per sample after passing over gap operations.
 */
static unsigned int narrow_seeds(uint64_t gap)
{
	unsigned int seed, narrow = 0, i;

	for (seed = 0; seed < 200; seed++) {
		struct spe_opgen g;
		struct spe_op op;
		unsigned int ld = 0, st = 0;

		spe_opgen_init(&g, seed);
		for (i = 0; i < 300; i++) {
			spe_opgen_skip(&g, gap);
			spe_opgen_fill(&g, &op, 1);
			if (op.cls == SPE_OP_CLASS_LDST)
				(op.subclass & SPE_OP_LDST_ST) ? st++ : ld++;
		}
		narrow += !ld || !st;
	}
	return narrow;
}

static void check_skip(void)
{
	unsigned int back_to_back = narrow_seeds(0), interval = narrow_seeds(1024);
	static struct spe_op ops[1u << 16];
	struct spe_opgen g1, g2;
	struct spe_op a1, a2;
	unsigned int seed, same = 1;

	printf("# seeds of 200 with no load or no store in 300 samples: "
	       "%u one after another, %u 1024 operations apart\n", back_to_back, interval);
	CHECK(interval == 0 && back_to_back > 0,
	      "generator: samples an interval apart see the program's whole mix; "
	      "back to back some seeds stay in one loop with no load or store");
	/*
	 * Inside one loop, skipping is stepping as far as the next operation
	 * is concerned (past it the random draws differ, by design).
	 */
	for (seed = 0; seed < 20; seed++) {
		uint64_t nr;

		spe_opgen_init(&g1, seed);
		spe_opgen_init(&g2, seed);
		nr = (uint64_t)g1.body_len * (g1.iters_left - 1) * (seed + 1) / 21 + seed;
		if (nr >= g1.phase_left)	/* no system call on the way */
			nr = g1.phase_left - 1;
		spe_opgen_skip(&g1, nr);
		spe_opgen_fill(&g2, ops, nr);
		spe_opgen_fill(&g1, &a1, 1);
		spe_opgen_fill(&g2, &a2, 1);
		if (a1.pc != a2.pc || a1.cls != a2.cls || a1.subclass != a2.subclass ||
		    a1.el != a2.el || g1.iters_left != g2.iters_left ||
		    g1.body_left != g2.body_left || g1.phase_left != g2.phase_left)
			same = 0;
	}
	CHECK(same, "generator: within a loop, skipping N operations lands where generating N does");
}

int main(void)
{
	struct spe_op *a = malloc(sizeof(*a) * N), *b = malloc(sizeof(*b) * N);
	struct spe_opgen g;
	unsigned long ld = 0, st = 0, br = 0, other = 0, mispred = 0, kernel = 0;
	unsigned long l1_miss = 0, dram = 0, ds_ok = 1, repeat_pc = 0, svc = 0, eret = 0;
	unsigned long kernel_canon = 1, cond_nt_ok = 1;
	unsigned long i;

	if (!a || !b)
		return 1;
	spe_opgen_init(&g, 9);
	spe_opgen_fill(&g, a, N);
	spe_opgen_init(&g, 9);
	spe_opgen_fill(&g, b, N / 2);
	spe_opgen_fill(&g, b + N / 2, N / 2);
	CHECK(!memcmp(a, b, sizeof(*a) * N),
	      "generator: the same seed gives the same stream, however it is chunked");
	spe_opgen_init(&g, 10);
	spe_opgen_fill(&g, b, N);
	CHECK(memcmp(a, b, sizeof(*a) * N), "generator: another seed gives another stream");

	for (i = 0; i < N; i++) {
		const struct spe_op *op = &a[i];
		int load = op->cls == SPE_OP_CLASS_LDST && !(op->subclass & SPE_OP_LDST_ST);

		switch (op->cls) {
		case SPE_OP_CLASS_LDST: load ? ld++ : st++; break;
		case SPE_OP_CLASS_BRANCH: br++; break;
		default: other++; break;
		}
		if (op->events & SPE_EV_MISPRED)
			mispred++;
		if (op->el == 1) {
			kernel++;
			if ((op->pc >> 48) != 0xffff)
				kernel_canon = 0;
		}
		if (op->events & SPE_EV_EXCEPTION_GEN)
			svc++;
		if (op->cls == SPE_OP_CLASS_BRANCH && op->el == 1 && op->target_el == 0)
			eret++;
		if (load) {
			if (op->events & SPE_EV_L1D_REFILL)
				l1_miss++;
			if (op->data_source == SPE_DS_COMMON_DRAM) {
				dram++;
				if (!(op->events & SPE_EV_LLC_MISS) || op->lat_total < 150)
					ds_ok = 0;
			}
			if (op->data_source == SPE_DS_COMMON_L1D &&
			    (op->events & SPE_EV_L1D_REFILL))
				ds_ok = 0;
		}
		if ((op->events & SPE_EV_NOT_TAKEN) &&
		    !(op->cls == SPE_OP_CLASS_BRANCH ? op->subclass & SPE_OP_BR_COND :
		      op->cls == SPE_OP_CLASS_OTHER && (op->subclass & SPE_OP_OTHER_COND)))
			cond_nt_ok = 0;
	}
	/* Distinct PCs: few, when the program loops. */
	{
		uint64_t *pcs = malloc(sizeof(*pcs) * N);

		for (i = 0; i < N; i++)
			pcs[i] = a[i].pc;
		qsort(pcs, N, sizeof(*pcs), cmp_u64);
		for (i = 1; i < N; i++)
			repeat_pc += pcs[i] == pcs[i - 1];
		free(pcs);
	}
	printf("# loads %lu stores %lu branches %lu other %lu; mispredicted %lu; "
	       "L1 miss %lu (%.1f%% of loads), DRAM %lu; kernel %lu, svc %lu, eret %lu\n",
	       ld, st, br, other, mispred, l1_miss, 100.0 * l1_miss / ld, dram,
	       kernel, svc, eret);
	CHECK(ld > N / 6 && ld < N / 3, "generator: about a quarter of operations are loads");
	CHECK(st > N / 20 && st < N / 6, "generator: about a tenth are stores");
	CHECK(br > N / 20 && br < N / 4, "generator: branches are frequent");
	CHECK(other > N / 4, "generator: other (integer, FP/SIMD, conditional select) operations");
	CHECK(mispred > br / 200 && mispred < br / 5,
	      "generator: a small fraction of branches mispredict");
	CHECK(l1_miss > ld / 50 && l1_miss < ld / 4 && dram > 0,
	      "generator: loads have a cache-miss mix down to DRAM");
	CHECK(ds_ok, "generator: data source, events and latency of each load agree");
	CHECK(cond_nt_ok, "generator: only conditional operations are marked not-taken");
	CHECK(repeat_pc > N - N / 20, "generator: loops make PCs repeat (under 5% distinct)");
	CHECK(kernel > N / 100 && kernel < N / 2 && kernel_canon,
	      "generator: kernel code at EL1 with kernel addresses");
	CHECK(svc > 10 && eret > 10 && svc - eret <= 1,
	      "generator: system calls enter (SVC, exception) and leave (ERET) the kernel");
	free(a);
	free(b);
	check_skip();
	return tap_done();
}
