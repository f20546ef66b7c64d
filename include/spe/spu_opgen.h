/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A seeded generator of realistic operation streams for the SPU model:
 * user processes running loops over arrays (loads with a cache-miss mix,
 * stores, FP/SIMD work), calls and returns, conditional branches with
 * mispredicts, and system calls into kernel code at EL1.
 *
 * Portable like the model (drivers/perf/sim/spe_spu_opgen.c): no libc, no
 * floating point, all state in struct spe_opgen, deterministic per seed.
 */
#ifndef SPE_SPU_OPGEN_H
#define SPE_SPU_OPGEN_H

#include "spu_model.h"

struct spe_opgen {
	uint64_t rng;
	uint64_t pc, loop_start, base, stride_addr;
	uint32_t body_left, body_len, iters_left;
	uint32_t pid, phase_left;
	uint8_t el, in_kernel;
	uint64_t user_pc, user_loop_start;
	uint32_t user_body_left, user_iters_left;
};

void spe_opgen_init(struct spe_opgen *g, uint64_t seed);
/* Fill ops[0..nr) with the next operations of the program. */
void spe_opgen_fill(struct spe_opgen *g, struct spe_op *ops, unsigned long nr);
/*
 * Pass over the next nr operations without producing them, as the unit
 * executes a whole interval between two samples: straight-line code and
 * whole loop iterations are passed over arithmetically, back-edges and
 * system calls one by one (about 100 ns per 1024 operations).  Within a
 * loop the state afterwards is what spe_opgen_fill() of nr operations
 * would leave, except that the streaming addresses are not walked; past
 * it the random draws differ.
 */
void spe_opgen_skip(struct spe_opgen *g, uint64_t nr);

#endif /* SPE_SPU_OPGEN_H */
