// SPDX-License-Identifier: GPL-2.0
/*
 * The sample registers' accesses, apart from the round that uses them
 * (pcsample_round.c): in the module the frames are MMIO mapped at probe;
 * the host tests link their own versions, backed by a model of the frames
 * (DDI 0487, External Registers, PMPCSR).  Relaxed accesses: a round reads
 * device registers only and orders nothing against normal memory.
 */
#include <linux/io.h>

#include "pcsample.h"

u32 pcs_reg_read32(struct pcs_target *t, u32 off)
{
	return readl_relaxed(t->base + off);
}

u64 pcs_reg_read64(struct pcs_target *t, u32 off)
{
	return readq_relaxed(t->base + off);
}

void pcs_reg_write32(struct pcs_target *t, u32 off, u32 val)
{
	writel_relaxed(val, t->base + off);
}
