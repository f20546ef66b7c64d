// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Throughput of the SPU model in userspace:
 *  1. operations stepped per second at a realistic sampling interval
 *     (the profile's minimum, records written into a ring buffer);
 *  2. records and bytes written per second when every operation is
 *     sampled (interval 0), i.e. the cost of encoding and writing.
 * Operations come pre-generated from the seeded generator so only the
 * model is timed.  Rates are per second of the thread's CPU time; the
 * wall-clock rate is shown beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spe/spu_model.h"
#include "spe/spu_opgen.h"

#define BUF_BASE	0xffff000040000000ULL
#define BUF_SIZE	(16u << 20)
#define NR_OPS		(1u << 16)	/* 5 MB of operations, replayed */

/*
 * CPU time of this thread: other work on a shared machine does not count
 * against the model.  (Wall-clock rates are printed too.)
 */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What a driver's IRQ handler does on buffer full: restart at the base. */
static void service(struct spe_spu *spu)
{
	spe_spu_write_reg(spu, SPE_REG_PMBPTR_EL1, BUF_BASE);
	spe_spu_write_reg(spu, SPE_REG_PMBSR_EL1, 0);
}

static void setup(struct spe_spu *spu, struct spe_spu_flat_mem *mem,
		  const struct spe_spu_config *cfg, uint64_t irr)
{
	if (spe_spu_init(spu, cfg, spe_spu_flat_translate, mem)) {
		fprintf(stderr, "spu-bench: bad profile\n");
		exit(1);
	}
	spe_spu_write_reg(spu, SPE_REG_PMBPTR_EL1, BUF_BASE);
	spe_spu_write_reg(spu, SPE_REG_PMSIRR_EL1, irr);
	spe_spu_write_reg(spu, SPE_REG_PMSCR_EL2, SPE_PMSCR_PA | SPE_PMSCR_CX |
			  SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, 1));
	spe_spu_write_reg(spu, SPE_REG_PMSCR_EL1, SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE |
			  SPE_PMSCR_CX | SPE_PMSCR_PA | SPE_PMSCR_TS |
			  SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, 1));
	spe_spu_write_reg(spu, SPE_REG_PMBLIMITR_EL1,
			  (BUF_BASE + BUF_SIZE) | SPE_PMBLIMITR_E);
}

static void run(struct spe_spu *spu, const struct spe_op *ops, double secs,
		unsigned long *nr_ops, double *elapsed, double *wall)
{
	double t0 = cpu_s(), w0 = wall_s(), t;
	unsigned long n = 0;
	const unsigned long chunk = 4096;

	do {
		unsigned long i;

		for (i = 0; i < NR_OPS; i += chunk) {
			spe_spu_step_batch(spu, ops + i, chunk);
			if (spe_spu_irq(spu))
				service(spu);
		}
		n += NR_OPS;
		t = cpu_s() - t0;
	} while (t < secs);
	*nr_ops = n;
	*elapsed = t;
	*wall = wall_s() - w0;
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "n1";
	double secs = argc > 2 ? atof(argv[2]) : 2.0;
	const struct spe_spu_config *cfg = spe_spu_profile_find(profile);
	struct spe_spu_flat_mem mem = { .base = BUF_BASE, .size = BUF_SIZE };
	struct spe_spu *spu = calloc(1, sizeof(*spu));
	struct spe_op *ops = malloc(sizeof(*ops) * NR_OPS);
	struct spe_opgen gen;
	unsigned long n;
	double el, wall;
	uint64_t irr;

	if (!cfg || !spu || !ops) {
		fprintf(stderr, "usage: spu-bench [v1-min|n1|v2|full] [seconds]\n");
		return 1;
	}
	mem.host = malloc(BUF_SIZE);
	if (!mem.host)
		return 1;
	memset(mem.host, 0, BUF_SIZE);
	spe_opgen_init(&gen, 42);
	spe_opgen_fill(&gen, ops, NR_OPS);

	/* 1. Realistic sampling: the implementation's minimum interval. */
	irr = spe_pmsidr_min_interval(cfg->pmsidr);
	setup(spu, &mem, cfg, irr | SPE_PMSIRR_RND);
	run(spu, ops, secs, &n, &el, &wall);
	printf("model %-6s interval %-5llu %8.1f M ops/s  (wall %.1f; %lu ops, %llu records)\n",
	       cfg->name, (unsigned long long)irr, n / el / 1e6, n / wall / 1e6, n,
	       (unsigned long long)spu->records);

	/*
	 * 2. Every operation sampled: time passes between operations so
	 * none collides and every record is written.
	 */
	for (n = 0; n < NR_OPS; n++)
		ops[n].cycles = 1u << 16;
	setup(spu, &mem, cfg, 0);
	run(spu, ops, secs, &n, &el, &wall);
	printf("model %-6s interval 0     %8.1f M records/s  %6.1f MB/s written "
	       "(wall %.1f MB/s; %llu records, %.1f bytes each)\n",
	       cfg->name, spu->records / el / 1e6, spu->bytes / el / 1e6,
	       spu->bytes / wall / 1e6, (unsigned long long)spu->records,
	       (double)spu->bytes / spu->records);
	free(mem.host);
	free(ops);
	free(spu);
	return 0;
}
