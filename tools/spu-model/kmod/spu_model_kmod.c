// SPDX-License-Identifier: GPL-2.0
/*
 * Build test for the SPU model inside a kernel module: the same
 * drivers/perf/sim/spe_spu_model.c as the userspace tools, compiled with the
 * kernel's flags.  On load it runs one short session (the generator's
 * program, records into a vmalloc'd buffer through the flat translator),
 * checks the records came out where they should, and says so in the log:
 * "spe_spu_model_test: ok ..." (then stays loaded) or "FAILED ..." (and
 * refuses to load).
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
	for (i = 0; i < 10000 && !spe_spu_irq(spu); i++) {
		spe_opgen_fill(gen, ops, NR_OPS);
		spe_spu_step_batch(spu, ops, NR_OPS);
	}
	spe_spu_psb_csync(spu);
	/*
	 * The buffer filled (DDI 0586A §3.5.2): PMBPTR is within one 64-byte
	 * record of the limit, every record is 64 bytes (PMBIDR.Align) and
	 * starts with the PC packet.
	 */
	ret = spu->records > 100 && spe_spu_irq(spu) &&
	      spu->bytes == spu->records * 64 &&
	      spe_spu_read_reg(spu, SPE_REG_PMBPTR_EL1) == mem.base + spu->bytes &&
	      ((u8 *)mem.host)[0] == (SPE_ADDR_HDR | SPE_ADDR_PC) &&
	      ((u8 *)mem.host)[spu->bytes - 64] == (SPE_ADDR_HDR | SPE_ADDR_PC) ?
	      0 : -EINVAL;
	pr_info("spe_spu_model_test: %s: %llu records, %llu bytes, PMBSR 0x%llx, SAMPLE_POP %llu\n",
		ret ? "FAILED" : "ok",
		(unsigned long long)spu->records, (unsigned long long)spu->bytes,
		(unsigned long long)spe_spu_read_reg(spu, SPE_REG_PMBSR_EL1),
		(unsigned long long)spe_spu_pmu_count(spu, SPE_SPU_SAMPLE_POP));
out:
	vfree(mem.host);
	kfree(ops);
	kfree(gen);
	kfree(spu);
	return ret;
}

static void __exit spu_model_test_exit(void)
{
}

module_init(spu_model_test_init);
module_exit(spu_model_test_exit);
MODULE_DESCRIPTION("SPE SPU model: kernel build and smoke test");
MODULE_LICENSE("GPL");
