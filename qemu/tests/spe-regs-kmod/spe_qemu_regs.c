// SPDX-License-Identifier: GPL-2.0
/*
 * Probe the emulated Statistical Profiling Unit from the kernel, for the
 * guest suite of the SPE QEMU (scripts/suites/58-qemu-spe.sh).
 *
 * On load, with no SPE driver loaded (this module takes the unit's PPI):
 *   - in a VHE kernel (EL2, HCR_EL2.E2H == 1), checks the redirection:
 *     PMSCR_EL1 reaches PMSCR_EL2 and PMSCR_EL12 reaches PMSCR_EL1;
 *   - prints ID_AA64DFR0_EL1.PMSVer, PMSIDR_EL1, PMBIDR_EL1 and which bits of
 *     PMSEVFR_EL1 are writable;
 *   - on every CPU sets PMBSR_EL1.S (a buffer management event, as the unit
 *     would report one) and checks that PMBIRQ, the PPI of the device-tree
 *     node, is taken on that CPU, and that clearing S in the handler
 *     deasserts it (the handler runs once: a level interrupt that stayed
 *     asserted would be taken again and again);
 *   - samples its own code at the kernel's EL with PMBPTR_EL1 at an unmapped
 *     address (a vmalloc guard page): the unit must stop with a stage 1
 *     data abort whose fault status code is the one AT S1E1W reports for
 *     that address, PMBPTR_EL1 at the address, and PMBIRQ taken once.
 * Every result is a line "spe_qemu_regs: key=value" for the host to check.
 * The module stays loaded until rmmod, which releases the interrupt.
 */
#include <linux/module.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/percpu.h>
#include <linux/delay.h>
#include <linux/vmalloc.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

/* DDI 0586A §4.3 encodings, spelled out: 6.1 and 6.12 name them differently. */
#define QSPE_PMSEVFR_EL1	sys_reg(3, 0, 9, 9, 5)
#define QSPE_PMSIDR_EL1		sys_reg(3, 0, 9, 9, 7)
#define QSPE_PMBSR_EL1		sys_reg(3, 0, 9, 10, 3)
#define QSPE_PMBIDR_EL1		sys_reg(3, 0, 9, 10, 7)
#define QSPE_PMBSR_S		BIT(17)
#define QSPE_PMSCR_EL1		sys_reg(3, 0, 9, 9, 0)
#define QSPE_PMSCR_EL2		sys_reg(3, 4, 9, 9, 0)
#define QSPE_PMSCR_EL12		sys_reg(3, 5, 9, 9, 0)
#define QSPE_PMSICR_EL1		sys_reg(3, 0, 9, 9, 2)
#define QSPE_PMSIRR_EL1		sys_reg(3, 0, 9, 9, 3)
#define QSPE_PMSFCR_EL1		sys_reg(3, 0, 9, 9, 4)
#define QSPE_PMBLIMITR_EL1	sys_reg(3, 0, 9, 10, 0)
#define QSPE_PMBPTR_EL1		sys_reg(3, 0, 9, 10, 1)
#define QSPE_PMSCR_E1SPE	BIT(1)	/* E2SPE when redirected to PMSCR_EL2 */
#define QSPE_PMBLIMITR_E	BIT(0)

struct qspe_cpu {
	int taken;		/* PMBIRQ handler runs */
	u64 pmbsr_seen;		/* PMBSR_EL1 the handler read */
	u64 pmbsr_after;	/* PMBSR_EL1 after the handler */
};

static DEFINE_PER_CPU(struct qspe_cpu, qspe_cpu);
static int qspe_irq;

static irqreturn_t qspe_handler(int irq, void *dev)
{
	struct qspe_cpu *c = dev;	/* already this CPU's (percpu_devid) */

	c->taken++;
	c->pmbsr_seen = read_sysreg_s(QSPE_PMBSR_EL1);
	write_sysreg_s(0, QSPE_PMBSR_EL1);
	isb();
	return IRQ_HANDLED;
}

static void qspe_enable(void *unused)
{
	enable_percpu_irq(qspe_irq, IRQ_TYPE_NONE);
}

static void qspe_disable(void *unused)
{
	disable_percpu_irq(qspe_irq);
}

/* Raise a management event on this CPU; PMBIRQ is taken when IRQs return. */
static void qspe_raise(void *unused)
{
	write_sysreg_s(QSPE_PMBSR_S, QSPE_PMBSR_EL1);
	isb();
}

static void qspe_after(void *unused)
{
	this_cpu_ptr(&qspe_cpu)->pmbsr_after = read_sysreg_s(QSPE_PMBSR_EL1);
}

static void qspe_ids(void)
{
	u64 dfr0 = read_sysreg(id_aa64dfr0_el1);
	u64 evfr;

	pr_info("spe_qemu_regs: pmsver=%llu\n", (dfr0 >> 32) & 0xf);
	if (!((dfr0 >> 32) & 0xf))
		return;
	pr_info("spe_qemu_regs: pmsidr=0x%llx\n", read_sysreg_s(QSPE_PMSIDR_EL1));
	pr_info("spe_qemu_regs: pmbidr=0x%llx\n", read_sysreg_s(QSPE_PMBIDR_EL1));
	write_sysreg_s(~0ULL, QSPE_PMSEVFR_EL1);
	isb();
	evfr = read_sysreg_s(QSPE_PMSEVFR_EL1);
	write_sysreg_s(0, QSPE_PMSEVFR_EL1);
	pr_info("spe_qemu_regs: pmsevfr_writable=0x%llx\n", evfr);
}

/* E2H redirection of PMSCR_EL1 (DDI 0586A §4.3.6); values restored. */
static void qspe_e2h(void)
{
	u64 save1, save2, el12, el2, el1;

	if (!((read_sysreg(id_aa64dfr0_el1) >> 32) & 0xf))
		return;
	if (!is_kernel_in_hyp_mode()) {
		pr_info("spe_qemu_regs: e2h=el1\n");
		return;
	}
	save1 = read_sysreg_s(QSPE_PMSCR_EL12);
	save2 = read_sysreg_s(QSPE_PMSCR_EL2);
	write_sysreg_s(0x18, QSPE_PMSCR_EL12);	/* CX | PA, into PMSCR_EL1 */
	write_sysreg_s(0x20, QSPE_PMSCR_EL1);	/* TS, into PMSCR_EL2 */
	isb();
	el12 = read_sysreg_s(QSPE_PMSCR_EL12);
	el2 = read_sysreg_s(QSPE_PMSCR_EL2);
	el1 = read_sysreg_s(QSPE_PMSCR_EL1);
	write_sysreg_s(save1, QSPE_PMSCR_EL12);
	write_sysreg_s(save2, QSPE_PMSCR_EL2);
	isb();
	pr_info("spe_qemu_regs: e2h pmscr_el12=0x%llx pmscr_el2=0x%llx pmscr_el1_at_el2=0x%llx\n",
		el12, el2, el1);
}

/*
 * DDI 0586A §3.5.3: a translation fault on a buffer write is a buffer
 * management event, EC = stage 1 data abort (0b100100), MSS = the fault
 * status code, PMBPTR_EL1 = the faulting address.  The expected code is
 * the one the CPU's own walk gives (AT S1E1W, PAR_EL1.FST).
 */
static void qspe_fault(void)
{
	struct qspe_cpu *c;
	unsigned long flags;
	u64 sr, ptr, par;
	void *buf;
	u64 hole;
	int i;

	buf = vmalloc(PAGE_SIZE);
	if (!buf)
		return;		/* no "fault" line: the host reports it */
	hole = (u64)buf + PAGE_SIZE;	/* the area's guard page */

	preempt_disable();
	local_irq_save(flags);
	c = this_cpu_ptr(&qspe_cpu);
	c->taken = 0;
	write_sysreg_s(0, QSPE_PMSICR_EL1);
	write_sysreg_s(4096, QSPE_PMSIRR_EL1);
	write_sysreg_s(0, QSPE_PMSFCR_EL1);
	write_sysreg_s(0, QSPE_PMSEVFR_EL1);
	write_sysreg_s(hole, QSPE_PMBPTR_EL1);
	write_sysreg_s((hole + 2 * PAGE_SIZE) | QSPE_PMBLIMITR_E, QSPE_PMBLIMITR_EL1);
	write_sysreg_s(0, QSPE_PMBSR_EL1);
	isb();
	write_sysreg_s(QSPE_PMSCR_E1SPE, QSPE_PMSCR_EL1);
	isb();
	for (i = 0; i < 100000; i++)
		asm volatile("" ::: "memory");
	write_sysreg_s(0, QSPE_PMSCR_EL1);
	isb();
	asm volatile("hint #17" ::: "memory");	/* PSB CSYNC */
	dsb(nsh);
	sr = read_sysreg_s(QSPE_PMBSR_EL1);
	ptr = read_sysreg_s(QSPE_PMBPTR_EL1);
	write_sysreg_s(0, QSPE_PMBLIMITR_EL1);
	asm volatile("at s1e1w, %0" :: "r" (hole));
	isb();
	par = read_sysreg(par_el1);
	local_irq_restore(flags);	/* PMBIRQ, pending since the fault */
	mdelay(20);
	pr_info("spe_qemu_regs: fault ec=0x%llx fsc=0x%llx par_f=%llu par_fst=0x%llx ptr=%s taken=%d after=0x%llx\n",
		(sr >> 26) & 0x3f, sr & 0x3f, par & 1, (par >> 1) & 0x3f,
		ptr == hole ? "hole" : "elsewhere", c->taken,
		read_sysreg_s(QSPE_PMBSR_EL1));
	preempt_enable();
	vfree(buf);
}

static int __init qspe_init(void)
{
	struct device_node *np;
	int cpu, ret;

	preempt_disable();
	qspe_ids();
	qspe_e2h();
	preempt_enable();

	np = of_find_compatible_node(NULL, NULL,
				     "arm,statistical-profiling-extension-v1");
	if (!np) {
		pr_info("spe_qemu_regs: irq=no-node\n");
		return 0;
	}
	qspe_irq = irq_of_parse_and_map(np, 0);
	of_node_put(np);
	if (qspe_irq <= 0) {
		pr_info("spe_qemu_regs: irq=unmapped\n");
		return 0;
	}
	ret = request_percpu_irq(qspe_irq, qspe_handler, "spe_qemu_regs",
				 &qspe_cpu);
	if (ret) {
		pr_info("spe_qemu_regs: irq=request-failed-%d\n", ret);
		qspe_irq = 0;
		return 0;
	}
	on_each_cpu(qspe_enable, NULL, 1);
	for_each_online_cpu(cpu)
		smp_call_function_single(cpu, qspe_raise, NULL, 1);
	msleep(100);
	for_each_online_cpu(cpu)
		smp_call_function_single(cpu, qspe_after, NULL, 1);
	for_each_online_cpu(cpu) {
		struct qspe_cpu *c = per_cpu_ptr(&qspe_cpu, cpu);

		pr_info("spe_qemu_regs: cpu%d taken=%d seen=0x%llx after=0x%llx\n",
			cpu, c->taken, c->pmbsr_seen, c->pmbsr_after);
	}
	qspe_fault();
	return 0;
}

static void __exit qspe_exit(void)
{
	if (qspe_irq > 0) {
		on_each_cpu(qspe_disable, NULL, 1);
		free_percpu_irq(qspe_irq, &qspe_cpu);
	}
}

module_init(qspe_init);
module_exit(qspe_exit);
MODULE_DESCRIPTION("Checks of the emulated SPE unit's registers and PMBIRQ");
MODULE_LICENSE("GPL");
