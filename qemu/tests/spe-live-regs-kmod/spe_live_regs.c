// SPDX-License-Identifier: GPL-2.0
/*
 * Read back what an SPE driver programmed, for the guest suite of the SPE
 * QEMU (scripts/suites/59-qemu-spe-sampling.sh).
 *
 * Reading /proc/spe_live_regs gives one line per online CPU with the
 * sampling control registers as they are on that CPU at that moment,
 * read on the CPU itself: PMSCR (PMSCR_EL2 in a VHE kernel, where the
 * kernel's PMSCR_EL1 accesses reach it), PMSFCR_EL1, PMSEVFR_EL1,
 * PMSLATFR_EL1, PMSIRR_EL1, on an SPEv1p2 unit PMSNEVFR_EL1, and the
 * buffer's fill mode (PMBLIMITR_EL1.FM; the limit itself is an address of
 * the driver's choosing, so it is left out).  Read
 * while a perf event of the unit is active on a CPU, it shows how the
 * driver turned the event's format terms into register values, which the
 * suite compares between the project's driver and the kernel's own.
 *
 * The module takes no interrupt and touches no register: it can stay
 * loaded while either driver runs.  Registers as in DDI 0487 D10.2 and
 * DDI 0586A §4.3; PMSNEVFR_EL1 from FEAT_SPEv1p2 (PMSVer >= 3).
 */
#include <linux/bitfield.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <asm/sysreg.h>

/* Spelled out: 5.10 to the newest kernels name them differently. */
#define LSPE_PMSCR_EL1		sys_reg(3, 0, 9, 9, 0)
#define LSPE_PMSNEVFR_EL1	sys_reg(3, 0, 9, 9, 1)
#define LSPE_PMSIRR_EL1		sys_reg(3, 0, 9, 9, 3)
#define LSPE_PMSFCR_EL1		sys_reg(3, 0, 9, 9, 4)
#define LSPE_PMSEVFR_EL1	sys_reg(3, 0, 9, 9, 5)
#define LSPE_PMSLATFR_EL1	sys_reg(3, 0, 9, 9, 6)
#define LSPE_PMBLIMITR_EL1	sys_reg(3, 0, 9, 10, 0)
#define LSPE_PMBLIMITR_FM	GENMASK_ULL(2, 1)
#define LSPE_PMSVER_V1P2	3

struct lspe_regs {
	u64 pmscr, pmsfcr, pmsevfr, pmslatfr, pmsirr, pmsnevfr, fm;
	bool has_nevfr;
};

static void lspe_read(void *info)
{
	struct lspe_regs *r = info;
	unsigned int pmsver = (read_sysreg(id_aa64dfr0_el1) >> 32) & 0xf;

	r->pmscr = read_sysreg_s(LSPE_PMSCR_EL1);
	r->pmsfcr = read_sysreg_s(LSPE_PMSFCR_EL1);
	r->pmsevfr = read_sysreg_s(LSPE_PMSEVFR_EL1);
	r->pmslatfr = read_sysreg_s(LSPE_PMSLATFR_EL1);
	r->pmsirr = read_sysreg_s(LSPE_PMSIRR_EL1);
	r->fm = FIELD_GET(LSPE_PMBLIMITR_FM, read_sysreg_s(LSPE_PMBLIMITR_EL1));
	r->has_nevfr = pmsver >= LSPE_PMSVER_V1P2;
	r->pmsnevfr = r->has_nevfr ? read_sysreg_s(LSPE_PMSNEVFR_EL1) : 0;
}

static int lspe_show(struct seq_file *m, void *v)
{
	struct lspe_regs r;
	int cpu;

	/* Without an SPE unit every read would be UNDEFINED. */
	if (!((read_sysreg(id_aa64dfr0_el1) >> 32) & 0xf))
		return -ENODEV;

	for_each_online_cpu(cpu) {
		if (smp_call_function_single(cpu, lspe_read, &r, 1))
			continue;	/* went offline meanwhile */
		seq_printf(m, "cpu%d pmscr=%#llx pmsfcr=%#llx pmsevfr=%#llx pmslatfr=%#llx pmsirr=%#llx",
			   cpu, r.pmscr, r.pmsfcr, r.pmsevfr, r.pmslatfr, r.pmsirr);
		if (r.has_nevfr)
			seq_printf(m, " pmsnevfr=%#llx", r.pmsnevfr);
		seq_printf(m, " fm=%llu\n", r.fm);
	}
	return 0;
}

static struct proc_dir_entry *lspe_entry;

static int __init lspe_init(void)
{
	lspe_entry = proc_create_single("spe_live_regs", 0400, NULL, lspe_show);
	return lspe_entry ? 0 : -ENOMEM;
}

static void __exit lspe_exit(void)
{
	proc_remove(lspe_entry);
}

module_init(lspe_init);
module_exit(lspe_exit);
MODULE_DESCRIPTION("Read back the SPE sampling controls (QEMU SPE guest tests)");
MODULE_LICENSE("GPL");
