// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Seeded generator of realistic operation streams for the SPU model.
 *
 * A user process runs loops: each loop body is a fixed sequence of
 * instructions (the type of an instruction is a function of its PC, so a
 * PC always means the same instruction), ending in a conditional backward
 * branch that mispredicts when the loop exits.  Loads and stores walk
 * arrays with a realistic cache-miss mix (L1 / L2 / system cache / DRAM,
 * TLB walks) and report latencies and data sources to match.  Every so
 * often the process makes a system call: an SVC, kernel code at EL1, ERET.
 */
#include "spe/spu_opgen.h"

#define USER_TEXT	0x0000aaaa00400000ULL
#define USER_DATA	0x0000ffff80000000ULL
#define KERNEL_TEXT	0xffff800008010000ULL
#define KERNEL_DATA	0xffff000012340000ULL

static uint64_t gen_rand(struct spe_opgen *g)
{
	return spe_spu_xorshift64s(&g->rng);
}

/* Uniform-ish in [0, n): the high 32 bits scaled, no division by n. */
static uint32_t gen_below(struct spe_opgen *g, uint32_t n)
{
	return (uint32_t)(((gen_rand(g) >> 32) * n) >> 32);
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static void gen_new_loop(struct spe_opgen *g)
{
	uint64_t text = g->in_kernel ? KERNEL_TEXT : USER_TEXT + g->pid * 0x100000ULL;

	g->loop_start = text + (uint64_t)gen_below(g, 4096) * 64;
	g->pc = g->loop_start;
	g->body_len = 8 + gen_below(g, 56);
	g->body_left = g->body_len;
	g->iters_left = 4 + gen_below(g, g->in_kernel ? 64 : 1000);
	g->base = (g->in_kernel ? KERNEL_DATA : USER_DATA) +
		  ((uint64_t)gen_below(g, 1u << 20) << 6);
	g->stride_addr = g->base;
}

void spe_opgen_init(struct spe_opgen *g, uint64_t seed)
{
	uint8_t *raw = (uint8_t *)g;
	unsigned long i;

	for (i = 0; i < sizeof(*g); i++)
		raw[i] = 0;
	g->rng = mix64(seed + 1) | 1;
	g->pid = 1000 + gen_below(g, 1000);
	g->phase_left = 5000 + gen_below(g, 20000);
	gen_new_loop(g);
}

/* Memory access: where the data came from, and what that cost. */
static void gen_memory(struct spe_opgen *g, struct spe_op *op, int load)
{
	uint32_t r = gen_below(g, 1000);
	uint64_t ev = SPE_EV_RETIRED | SPE_EV_L1D_ACCESS | SPE_EV_TLB_ACCESS;
	uint32_t lat, ds;

	if (r < 880) {
		lat = 4 + gen_below(g, 3);
		ds = SPE_DS_COMMON_L1D;
	} else if (r < 960) {
		lat = 11 + gen_below(g, 10);
		ds = SPE_DS_COMMON_L2;
		ev |= SPE_EV_L1D_REFILL;
	} else if (r < 990) {
		lat = 35 + gen_below(g, 30);
		ds = SPE_DS_COMMON_SYS_CACHE;
		ev |= SPE_EV_L1D_REFILL | SPE_EV_LLC_ACCESS;
	} else {
		lat = 150 + gen_below(g, 5000);	/* some beyond 12 bits */
		ds = SPE_DS_COMMON_DRAM;
		ev |= SPE_EV_L1D_REFILL | SPE_EV_LLC_ACCESS | SPE_EV_LLC_MISS;
	}
	op->lat_xlat = 1 + gen_below(g, 2);
	if (gen_below(g, 1000) < 5) {
		ev |= SPE_EV_TLB_WALK;
		op->lat_xlat += 20 + gen_below(g, 60);
	}
	if (gen_below(g, 1000) < 2)
		ev |= SPE_EV_ALIGNMENT;

	/* Half the accesses stream through the array, half hit it at random. */
	if (mix64(op->pc) & 1) {
		g->stride_addr += 8;
		op->va = g->stride_addr;
	} else {
		op->va = g->base + ((uint64_t)gen_below(g, 1u << 16) << 3);
	}
	op->pa = ((mix64(op->va >> 12) & 0xfffffffULL) << 12) | (op->va & 0xfff);
	op->flags |= SPE_OPF_PA_NS;
	op->lat_issue = 1 + gen_below(g, 4);
	op->lat_total = op->lat_issue + op->lat_xlat + lat;
	op->events = ev;
	if (load) {
		op->data_source = (uint16_t)ds;
		op->flags |= SPE_OPF_HAS_DS;
	}
}

/* The ldst subclass of the instruction at pc (DDI 0586A §5.3.8). */
static uint8_t gen_ldst_subclass(uint64_t h)
{
	switch ((h >> 8) & 7) {
	case 0: return SPE_OP_LDST_SIMD_FP;
	case 1: return 0x02 | SPE_OP_LDST_EXT_AR;	/* load-acquire */
	case 2: return 0x02 | SPE_OP_LDST_EXT_AT;	/* atomic */
	default: return SPE_OP_LDST_GP_REG;
	}
}

static void gen_one(struct spe_opgen *g, struct spe_op *op)
{
	uint64_t h = mix64(g->pc);
	uint32_t kind = (uint32_t)(h % 100);

	op->pc = g->pc;
	op->el = g->el;
	op->target_el = g->el;
	op->flags = SPE_OPF_NS | SPE_OPF_TARGET_NS;
	op->context[0] = g->pid;
	op->context[1] = g->pid;
	op->cycles = gen_below(g, 3);
	op->lat_issue = 1 + gen_below(g, 3);
	op->lat_total = op->lat_issue + 1 + gen_below(g, 4);
	op->events = SPE_EV_RETIRED;

	if (g->body_left == 1) {
		/* Loop back-edge: taken until the last iteration. */
		op->cls = SPE_OP_CLASS_BRANCH;
		op->subclass = SPE_OP_BR_COND;
		op->target = g->loop_start;
		if (g->iters_left > 1) {
			if (gen_below(g, 1000) < 10)
				op->events |= SPE_EV_MISPRED;
			g->iters_left--;
			g->pc = g->loop_start;
			g->body_left = g->body_len;
		} else {
			op->events |= SPE_EV_NOT_TAKEN | SPE_EV_MISPRED;
			gen_new_loop(g);
		}
		return;
	}
	g->pc += 4;
	g->body_left--;
	if (kind < 25) {
		op->cls = SPE_OP_CLASS_LDST;
		op->subclass = gen_ldst_subclass(h);
		gen_memory(g, op, 1);
	} else if (kind < 35) {
		op->cls = SPE_OP_CLASS_LDST;
		op->subclass = (uint8_t)(gen_ldst_subclass(h) | SPE_OP_LDST_ST);
		gen_memory(g, op, 0);
	} else if (kind < 38) {
		/* A call to a leaf function and its return, both predicted. */
		op->cls = SPE_OP_CLASS_BRANCH;
		op->subclass = (uint8_t)(SPE_OP_BR_HINT_CALL << 3);
		op->target = (op->pc & ~0xfffffULL) + ((h >> 20) & 0xffffc);
	} else if (kind < 40) {
		op->cls = SPE_OP_CLASS_BRANCH;
		op->subclass = SPE_OP_BR_INDIRECT | (SPE_OP_BR_HINT_RET << 3);
		op->target = op->pc + 4 + ((h >> 24) & 0xfc);
		if (gen_below(g, 100) < 3)
			op->events |= SPE_EV_MISPRED;
	} else if (kind < 45) {
		/* Conditional forward branch, not taken half of the time. */
		op->cls = SPE_OP_CLASS_BRANCH;
		op->subclass = SPE_OP_BR_COND;
		op->target = op->pc + 32;
		if (gen_below(g, 2))
			op->events |= SPE_EV_NOT_TAKEN;
		if (gen_below(g, 100) < 5)
			op->events |= SPE_EV_MISPRED;
	} else if (kind < 55) {
		op->cls = SPE_OP_CLASS_OTHER;
		op->subclass = SPE_OP_OTHER_FP | ((h >> 8) & 1 ? SPE_OP_OTHER_ASE : 0);
		op->lat_total += 3;
	} else if (kind < 62) {
		op->cls = SPE_OP_CLASS_OTHER;
		op->subclass = SPE_OP_OTHER_COND;
		if (gen_below(g, 2))
			op->events |= SPE_EV_NOT_TAKEN;
	} else {
		op->cls = SPE_OP_CLASS_OTHER;
		op->subclass = 0;
	}
}

/* SVC from user space or ERET back to it. */
static void gen_switch_el(struct spe_opgen *g, struct spe_op *op)
{
	op->pc = g->pc;
	op->el = g->el;
	op->flags = SPE_OPF_NS | SPE_OPF_TARGET_NS;
	op->context[0] = g->pid;
	op->context[1] = g->pid;
	op->cycles = 1;
	op->lat_issue = 1;
	op->lat_total = 10 + gen_below(g, 20);
	op->events = SPE_EV_RETIRED;
	if (!g->in_kernel) {
		/* The SVC completes with a synchronous exception. */
		op->cls = SPE_OP_CLASS_OTHER;
		op->subclass = 0;
		op->events |= SPE_EV_EXCEPTION_GEN;
		g->user_pc = g->pc + 4;
		g->user_loop_start = g->loop_start;
		g->user_body_left = g->body_left > 1 ? g->body_left - 1 : 1;
		g->user_iters_left = g->iters_left;
		g->in_kernel = 1;
		g->el = 1;
		g->phase_left = 300 + gen_below(g, 3000);
		gen_new_loop(g);
	} else {
		/* ERET: an unconditional indirect branch to EL0. */
		op->cls = SPE_OP_CLASS_BRANCH;
		op->subclass = SPE_OP_BR_INDIRECT;
		op->target = g->user_pc;
		op->target_el = 0;
		g->in_kernel = 0;
		g->el = 0;
		g->pc = g->user_pc;
		g->loop_start = g->user_loop_start;
		g->body_left = g->user_body_left;
		g->iters_left = g->user_iters_left;
		g->phase_left = 5000 + gen_below(g, 20000);
		/* Another process gets the CPU now and then. */
		if (gen_below(g, 8) == 0) {
			g->pid = 1000 + gen_below(g, 1000);
			gen_new_loop(g);
		}
	}
}

void spe_opgen_fill(struct spe_opgen *g, struct spe_op *ops, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		struct spe_op *op = &ops[i];
		uint8_t *raw = (uint8_t *)op;
		unsigned long j;

		for (j = 0; j < sizeof(*op); j++)
			raw[j] = 0;
		if (!g->phase_left--) {
			gen_switch_el(g, op);
			continue;
		}
		gen_one(g, op);
	}
}

void spe_opgen_skip(struct spe_opgen *g, uint64_t nr)
{
	struct spe_op op;
	uint64_t k;

	while (nr) {
		/*
		 * Instruction types are functions of the PC, so passing over
		 * straight-line code or whole iterations changes nothing but
		 * the position and the counters: whole iterations from the
		 * top of the body (all but the last), then the body up to its
		 * back-edge.  Back-edges and the EL switch are stepped.
		 */
		k = 0;
		if (g->body_left == g->body_len && g->iters_left > 1) {
			k = nr / g->body_len;
			if (k > g->iters_left - 1)
				k = g->iters_left - 1;
			if (k > g->phase_left / g->body_len)
				k = g->phase_left / g->body_len;
			if (k) {
				g->iters_left -= (uint32_t)k;
				g->phase_left -= (uint32_t)(k * g->body_len);
				nr -= k * g->body_len;
				continue;
			}
		}
		if (g->body_left > 1) {
			k = g->body_left - 1;
			if (k > nr)
				k = nr;
			if (k > g->phase_left)
				k = g->phase_left;
			if (k) {
				g->pc += 4 * k;
				g->body_left -= (uint32_t)k;
				g->phase_left -= (uint32_t)k;
				nr -= k;
				continue;
			}
		}
		spe_opgen_fill(g, &op, 1);
		nr--;
	}
}
