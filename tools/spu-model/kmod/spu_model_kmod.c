// SPDX-License-Identifier: GPL-2.0
/*
 * Build test for the SPU model inside a kernel module: the same
 * drivers/perf/spe_spu_model.c as the userspace tools, compiled with the
 * kernel's flags.  On load it runs one short session (the generator's
 * program, records into a vmalloc'd buffer through the flat translator)
 * and checks a record came out; it refuses to stay loaded.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "spe/spu_model.h"
#include "spe/spu_opgen.h"

#define BUF_SIZE	(64 * 1024)
#define NR_OPS		256

static int __init spu_model_test_init(void)
{
	struct spe_spu_flat_mem mem = { .size = BUF_SIZE };
	struct spe_opgen *gen;
	struct spe_spu *spu;
	struct spe_op *ops;
	int i, ret = -ENOMEM;

	spu = kzalloc(sizeof(*spu), GFP_KERNEL);
	gen = kzalloc(sizeof(*gen), GFP_KERNEL);
	ops = kcalloc(NR_OPS, sizeof(*ops), GFP_KERNEL);
	mem.host = vzalloc(BUF_SIZE);
	if (!spu || !gen || !ops || !mem.host)
		goto out;
	/* The unit writes where the driver would point it: the buffer's VA. */
	mem.base = (unsigned long)mem.host;

	ret = -EINVAL;
	if (spe_spu_init(spu, spe_spu_profile(SPE_SPU_PROFILE_N1),
			 spe_spu_flat_translate, &mem))
		goto out;
	spe_spu_write_reg(spu, SPE_REG_PMBPTR_EL1, mem.base);
	spe_spu_write_reg(spu, SPE_REG_PMSIRR_EL1, 1024 | SPE_PMSIRR_RND);
	spe_spu_write_reg(spu, SPE_REG_PMSCR_EL1, SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE |
			  SPE_PMSCR_TS);
	spe_spu_write_reg(spu, SPE_REG_PMBLIMITR_EL1,
			  (mem.base + BUF_SIZE) | SPE_PMBLIMITR_E);
	spe_opgen_init(gen, 1);
	for (i = 0; i < 1000 && !spe_spu_irq(spu); i++) {
		spe_opgen_fill(gen, ops, NR_OPS);
		spe_spu_step_batch(spu, ops, NR_OPS);
	}
	spe_spu_psb_csync(spu);
	pr_info("spe_spu_model_test: %llu records, %llu bytes, PMBSR 0x%llx\n",
		(unsigned long long)spu->records, (unsigned long long)spu->bytes,
		(unsigned long long)spe_spu_read_reg(spu, SPE_REG_PMBSR_EL1));
	if (spu->records && ((u8 *)mem.host)[0] == (SPE_ADDR_HDR | SPE_ADDR_PC))
		ret = -EAGAIN;	/* passed; do not stay loaded */
out:
	vfree(mem.host);
	kfree(ops);
	kfree(gen);
	kfree(spu);
	return ret;
}

module_init(spu_model_test_init);
MODULE_DESCRIPTION("SPE SPU model: kernel build and smoke test");
MODULE_LICENSE("GPL");
