// SPDX-License-Identifier: GPL-2.0
/*
 * Simulated backend of the SPE driver: a software Statistical Profiling
 * Unit per CPU, for machines (and QEMU guests) without SPE.
 *
 * The driver logic is the same as in arm_spe.ko; only the seam
 * (spe_backend.h) is implemented here, over one instance of the SPU model
 * (spe_spu_model.c) per CPU.  What the real unit would do on its own is
 * driven by a per-CPU high-resolution timer, in hard-IRQ context:
 *
 *  - every tick stands for ops_per_tick operations executed since the last
 *    one; the model's interval counter counts them and, for each one it
 *    selects, the interrupted context becomes the sampled operation: PC and
 *    exception level from the interrupted registers, CONTEXTIDR_EL1 as the
 *    CPU holds it (the PID with CONFIG_PID_IN_CONTEXTIDR) and the generic
 *    timer's count as the time.  What the context cannot tell (operation
 *    type, data address, events, latencies, data source) comes from the
 *    model's seeded operation generator (spe_spu_opgen.c);
 *  - the model writes records through the PMBPTR/PMBLIMITR the driver
 *    programmed, straight into the perf AUX pages (the driver's vmap);
 *  - when PMBSR_EL1.S is set the PMBIRQ PPI the driver requested is made
 *    pending at the interrupt controller, so the driver's handler runs on
 *    the real interrupt path.
 *
 * A CPU in the idle loop executes no operations (it waits for an
 * interrupt), so idle ticks only let time pass.  The timer runs only while
 * the Profiling Buffer is enabled.
 *
 * debugfs arm_spe_sim/cpu<N>/ shows the SAMPLE_* counts and injects
 * buffer faults, external aborts and collisions.
 */
#define pr_fmt(fmt) "arm_spe_sim: " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <asm/arch_timer.h>
#include <asm/barrier.h>
#include <asm/irq_regs.h>
#include <asm/mmu.h>
#include <asm/ptrace.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

#include "../spe_backend.h"
#include "../spe_compat.h"
#include "spe/spu_model.h"
#include "spe/spu_opgen.h"

static char *profile = "n1";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "SPU implementation to simulate: v1-min, n1, v2 or full (default n1)");

static unsigned int tick_us = 1000;
module_param(tick_us, uint, 0444);
MODULE_PARM_DESC(tick_us,
		 "period of the per-CPU sampling timer in microseconds (default 1000)");

static unsigned int ops_per_tick = 1024;
module_param(ops_per_tick, uint, 0444);
MODULE_PARM_DESC(ops_per_tick,
		 "operations each timer tick stands for (default 1024: one sample per tick at the minimum interval of the n1 profile)");

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the sampling jitter and the operation generator");

static bool direct_irq;
module_param(direct_irq, bool, 0444);
MODULE_PARM_DESC(direct_irq,
		 "call the PMBIRQ handler from the tick instead of making the PPI pending (the fallback for interrupt controllers that cannot; default off)");

/* What the next buffer write runs into (debugfs "inject"). */
enum spe_sim_inject {
	SPE_SIM_INJ_NONE,
	SPE_SIM_INJ_S1,		/* stage 1 translation fault */
	SPE_SIM_INJ_S2,		/* stage 2 translation fault */
	SPE_SIM_INJ_EA,		/* synchronous external abort */
	SPE_SIM_INJ_EA_ASYNC,	/* asynchronous external abort */
	SPE_SIM_INJ_NR
};

static const char * const spe_sim_inject_names[SPE_SIM_INJ_NR] = {
	[SPE_SIM_INJ_NONE] = "none",
	[SPE_SIM_INJ_S1] = "s1",
	[SPE_SIM_INJ_S2] = "s2",
	[SPE_SIM_INJ_EA] = "ea",
	[SPE_SIM_INJ_EA_ASYNC] = "ea-async",
};

struct spe_sim_cpu {
	struct spe_spu spu;
	struct spe_opgen gen;
	struct hrtimer timer;
	unsigned int cpu;
	bool in_tick;		/* the timer callback runs: it re-arms itself */
	bool irq_raised;	/* PMBIRQ raised since PMBSR.S was last cleared */

	/* PMBIRQ as the driver requested it (spe_backend_probe). */
	int irq;
	irq_handler_t irq_handler;
	void __percpu *irq_dev;

	/* Buffer range the driver programmed and the last page seen mapped. */
	u64 win_lo, win_hi;
	u64 page_ok;

	/* debugfs controls, written from any CPU. */
	atomic_t inject;	/* enum spe_sim_inject for the next write */
	atomic_t collisions;	/* ticks still to force a collision on */

	/* Statistics. */
	u64 ticks, idle_ticks, irq_pended, irq_direct, injected;
	u64 busy_cnt;		/* generic timer counts spent in ticks */
};

static DEFINE_PER_CPU(struct spe_sim_cpu, spe_sim_cpus);
static const struct spe_spu_config *spe_sim_cfg;
static u64 spe_sim_pmsver;
static ktime_t spe_sim_period;
static struct dentry *spe_sim_debugfs;

/* ---- Time ---------------------------------------------------------------- */

/*
 * The model counts time in generic timer ticks (tick_shift = 0), with its
 * CNTPCT lined up with the real one, so timestamps in records are those
 * the CPU's counter gives and perf's TIME_CONV applies to them.
 */
static u64 spe_sim_cntpct(void)
{
	return __arch_counter_get_cntpct();
}

/* Let the model's clock catch up with the generic timer. */
static void spe_sim_advance_to(struct spe_spu *spu, u64 cnt)
{
	u64 now = spe_spu_cntpct(spu);

	if (cnt > now)
		spe_spu_advance(spu, cnt - now);
}

/* ---- The timer ------------------------------------------------------------ */

static bool spe_sim_buffer_enabled(const struct spe_spu *spu)
{
	return (spu->pmblimitr & SPE_PMBLIMITR_E) && !(spu->pmbsr & SPE_PMBSR_S);
}

/*
 * Called with interrupts off after every access that may enable the
 * buffer: start ticking if the unit can now sample.  The callback itself
 * decides whether to go on, so a running tick is left alone.
 */
static void spe_sim_kick(struct spe_sim_cpu *sim)
{
	if (sim->in_tick || !spe_sim_buffer_enabled(&sim->spu) ||
	    hrtimer_is_queued(&sim->timer))
		return;
	/* Time the unit spent stopped holds no operations. */
	spe_sim_advance_to(&sim->spu, spe_sim_cntpct());
	hrtimer_start(&sim->timer, spe_sim_period, HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * PMBIRQ is a level interrupt that follows PMBSR.S (DDI 0586A §3.5).  The
 * PPI is made pending once per assertion; the driver's handler clears S.
 * Only if the interrupt controller cannot do that is the handler called
 * here, which is still hard-IRQ context on this CPU.
 */
static void spe_sim_raise_irq(struct spe_sim_cpu *sim)
{
	if (!spe_spu_irq(&sim->spu) || sim->irq_raised || sim->irq < 0)
		return;
	sim->irq_raised = true;
	if (!direct_irq &&
	    !irq_set_irqchip_state(sim->irq, IRQCHIP_STATE_PENDING, true)) {
		sim->irq_pended++;
		return;
	}
	sim->irq_direct++;
	sim->irq_handler(sim->irq, this_cpu_ptr(sim->irq_dev));
}

/* The sampled operation: the interrupted context plus generated details. */
static void spe_sim_make_op(struct spe_sim_cpu *sim, struct pt_regs *regs,
			    unsigned int el, struct spe_op *op)
{
	u64 pc = instruction_pointer(regs);
	u32 ctx = (u32)read_sysreg(contextidr_el1);

	spe_opgen_fill(&sim->gen, op, 1);
	/* Keep the generated branch offset, moved to the real PC. */
	if (op->cls == SPE_OP_CLASS_BRANCH)
		op->target = pc + (op->target - op->pc);
	/* A user-space access has a user-space address. */
	if (el == 0 && (op->va >> 55) & 1)
		op->va &= GENMASK_ULL(47, 0);
	op->pc = pc;
	op->el = el;
	op->target_el = el;
	/* Under VHE the EL1 name reaches CONTEXTIDR_EL2: both are the PID. */
	op->context[0] = ctx;
	op->context[1] = ctx;
	op->cycles = 0;
}

/*
 * Force a collision (debugfs "collisions"): select operations back to back
 * (PMSICR.COUNT = 0 selects the next one, DDI 0586A §3.1.2) until one finds
 * every in-flight slot taken.  The interval counter reloads afterwards as
 * after any selection.
 */
static void spe_sim_collide(struct spe_sim_cpu *sim, struct pt_regs *regs,
			    unsigned int el)
{
	struct spe_spu *spu = &sim->spu;
	u64 before = spe_spu_pmu_count(spu, SPE_SPU_SAMPLE_COLLISION);
	unsigned int i;
	struct spe_op op;

	for (i = 0; i <= SPE_SPU_MAX_INFLIGHT; i++) {
		spe_spu_write_reg(spu, SPE_REG_PMSICR_EL1, 0);
		spe_sim_make_op(sim, regs, el, &op);
		/* Long enough to still be in flight when the next arrives. */
		op.lat_total = 1000;
		spe_spu_step(spu, &op);
		if (spe_spu_pmu_count(spu, SPE_SPU_SAMPLE_COLLISION) != before ||
		    !spe_sim_buffer_enabled(spu))
			break;
	}
}

/*
 * One tick: ops_per_tick operations at the interrupted exception level,
 * spread evenly over the time since the last tick.  The model skips the
 * ones its interval counter does not select.
 */
static void spe_sim_run(struct spe_sim_cpu *sim, struct pt_regs *regs, u64 now)
{
	struct spe_spu *spu = &sim->spu;
	u64 start = spe_spu_cntpct(spu);
	u64 span = now > start ? now - start : 0;
	u64 n = ops_per_tick, done = 0;
	unsigned int el;
	struct spe_op op;

	if (!regs || (!user_mode(regs) && is_idle_task(current))) {
		sim->idle_ticks++;
		spe_sim_advance_to(spu, now);
		return;
	}
	if (user_mode(regs))
		el = 0;
	else
		el = is_kernel_in_hyp_mode() ? 2 : 1;

	/* Forced collisions wait for a tick that can sample. */
	if (((spu->el_enabled >> el) & 1) &&
	    atomic_add_unless(&sim->collisions, -1, 0))
		spe_sim_collide(sim, regs, el);

	while (done < n) {
		u64 skipped = spe_spu_skip(spu, n - done, el);

		/*
		 * The synthetic program runs through the operations the
		 * interval counter passed over, so successive samples land
		 * in different loops, as on a real unit, instead of walking
		 * one loop body an instruction per sample.
		 */
		spe_opgen_skip(&sim->gen, skipped);
		done += skipped;
		if (done >= n)
			break;
		spe_sim_advance_to(spu, start + mul_u64_u64_div_u64(span, done, n));
		spe_sim_make_op(sim, regs, el, &op);
		spe_spu_step(spu, &op);
		done++;
	}
	spe_sim_advance_to(spu, now);
}

static enum hrtimer_restart spe_sim_tick(struct hrtimer *timer)
{
	struct spe_sim_cpu *sim = container_of(timer, struct spe_sim_cpu, timer);
	u64 t0;
	bool go_on;

	/* CPU hotplug migrates even pinned timers: never touch another CPU. */
	if (sim->cpu != smp_processor_id())
		return HRTIMER_NORESTART;

	t0 = spe_sim_cntpct();
	sim->in_tick = true;
	sim->ticks++;
	spe_sim_run(sim, get_irq_regs(), t0);
	spe_sim_raise_irq(sim);
	sim->in_tick = false;
	go_on = spe_sim_buffer_enabled(&sim->spu);
	sim->busy_cnt += spe_sim_cntpct() - t0;

	if (!go_on)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, spe_sim_period);
	return HRTIMER_RESTART;
}

/* ---- Buffer memory ------------------------------------------------------- */

static bool spe_sim_mapped(u64 va)
{
	const void *p = (const void *)va;

	if (is_vmalloc_addr(p))
		return vmalloc_to_page(p);
	return virt_addr_valid(p);
}

static int spe_sim_fault(struct spe_spu_xlat *x, enum spe_spu_fault fault,
			 u8 fsc)
{
	x->fault = fault;
	x->fsc = fsc;
	x->stage2 = fault == SPE_SPU_XLAT_FAULT_S2;
	return 1;
}

/*
 * The stage 1 translation the unit would do for a write at va: the
 * driver's buffer is a kernel mapping, usable as it is, but only inside
 * the range the driver programmed and only where something is mapped.
 * Injected faults come first.
 */
static int spe_sim_translate(void *ctx, u64 va, struct spe_spu_xlat *x)
{
	struct spe_sim_cpu *sim = ctx;
	u64 page = va & PAGE_MASK;
	int inj = SPE_SIM_INJ_NONE;

	if (atomic_read(&sim->inject))
		inj = atomic_xchg(&sim->inject, SPE_SIM_INJ_NONE);
	if (inj != SPE_SIM_INJ_NONE)
		sim->injected++;
	switch (inj) {
	case SPE_SIM_INJ_S1:
		return spe_sim_fault(x, SPE_SPU_XLAT_FAULT_S1, SPE_FSC_TRANSLATION(3));
	case SPE_SIM_INJ_S2:
		return spe_sim_fault(x, SPE_SPU_XLAT_FAULT_S2, SPE_FSC_TRANSLATION(3));
	case SPE_SIM_INJ_EA:
		return spe_sim_fault(x, SPE_SPU_XLAT_EA_SYNC, SPE_FSC_SYNC_EXT_ABORT);
	case SPE_SIM_INJ_EA_ASYNC:
		return spe_sim_fault(x, SPE_SPU_XLAT_EA_ASYNC, SPE_FSC_ASYNC_EXT_ABORT);
	default:
		break;
	}

	if (va < sim->win_lo || va >= sim->win_hi)
		return spe_sim_fault(x, SPE_SPU_XLAT_FAULT_S1, SPE_FSC_TRANSLATION(3));
	if (page != sim->page_ok) {
		if (!spe_sim_mapped(va))
			return spe_sim_fault(x, SPE_SPU_XLAT_FAULT_S1,
					     SPE_FSC_TRANSLATION(3));
		sim->page_ok = page;
	}
	x->host = (u8 *)va;
	x->len = min_t(u64, page + PAGE_SIZE, sim->win_hi) - va;
	return 0;
}

/* ---- The seam -------------------------------------------------------------- */

const char *spe_backend_name(void)
{
	return "simulated";
}

/*
 * The driver names the model's registers directly (both take enum
 * spe_sysreg of spe/regs.h).  Only the EL1 encoding of PMSCR is
 * redirected, as HCR_EL2.E2H does on a VHE host; the registers that are
 * not the driver's to name become SPE_REG_NR, which the model refuses.
 */
static enum spe_sysreg spe_sim_reg(enum spe_sysreg reg)
{
	switch (reg) {
	case SPE_REG_PMSCR_EL1:
		return is_kernel_in_hyp_mode() ? SPE_REG_PMSCR_EL2 : reg;
	case SPE_REG_PMSCR_EL2:
	case SPE_REG_ID_AA64DFR0_EL1:
	case SPE_REG_NR:
		return SPE_REG_NR;
	default:
		return reg;
	}
}

u64 spe_read(enum spe_sysreg reg)
{
	enum spe_sysreg model_reg = spe_sim_reg(reg);
	struct spe_sim_cpu *sim;
	unsigned long flags;
	u64 val;

	/* As the hardware backend: the driver never names these. */
	if (WARN_ONCE(model_reg == SPE_REG_NR,
		      "arm_spe_sim: read of unknown register %d\n", reg))
		return 0;
	local_irq_save(flags);
	sim = this_cpu_ptr(&spe_sim_cpus);
	val = spe_spu_read_reg(&sim->spu, model_reg);
	local_irq_restore(flags);
	return val;
}

void spe_write(enum spe_sysreg reg, u64 val)
{
	struct spe_sim_cpu *sim;
	unsigned long flags;
	int ret;

	local_irq_save(flags);
	sim = this_cpu_ptr(&spe_sim_cpus);
	ret = spe_spu_write_reg(&sim->spu, spe_sim_reg(reg), val);
	switch (reg) {
	case SPE_REG_PMBPTR_EL1:
		sim->win_lo = val;
		sim->page_ok = 0;
		break;
	case SPE_REG_PMBLIMITR_EL1:
		sim->win_hi = val & SPE_PMBLIMITR_LIMIT_MASK;
		sim->page_ok = 0;
		break;
	case SPE_REG_PMBSR_EL1:
		if (!(val & SPE_PMBSR_S))
			sim->irq_raised = false;
		break;
	default:
		break;
	}
	spe_sim_kick(sim);
	local_irq_restore(flags);
	/* The same accesses are UNDEFINED on hardware: say so loudly. */
	WARN_ONCE(ret, "arm_spe_sim: write of register %d failed (%d)\n",
		  reg, ret);
}

void spe_psb_csync(void)
{
	struct spe_sim_cpu *sim;
	unsigned long flags;

	local_irq_save(flags);
	sim = this_cpu_ptr(&spe_sim_cpus);
	spe_spu_psb_csync(&sim->spu);
	/* A record drained here may have filled the buffer: tick to raise. */
	if (spe_spu_irq(&sim->spu) && !sim->in_tick &&
	    !hrtimer_is_queued(&sim->timer))
		hrtimer_start(&sim->timer, spe_sim_period,
			      HRTIMER_MODE_REL_PINNED_HARD);
	local_irq_restore(flags);
}

/* The model's stores to the buffer are ordinary CPU stores: real barriers. */
void spe_isb(void)
{
	isb();
}

void spe_dsb_nsh(void)
{
	dsb(nsh);
}

/* The CPU's own ID_AA64DFR0_EL1 with the simulated SPE version in PMSVer. */
u64 spe_read_dfr0(void)
{
	u64 dfr0 = read_sysreg(id_aa64dfr0_el1);

	dfr0 &= ~SPE_ID_AA64DFR0_PMSVER_MASK;
	return dfr0 | SPE_FIELD_PREP(SPE_ID_AA64DFR0_PMSVER_MASK, spe_sim_pmsver);
}

static void spe_sim_set_irq(const struct spe_backend_pmu *pmu, bool probed)
{
	int cpu;

	for_each_cpu(cpu, pmu->cpus) {
		struct spe_sim_cpu *sim = per_cpu_ptr(&spe_sim_cpus, cpu);

		WRITE_ONCE(sim->irq_handler, probed ? pmu->handler : NULL);
		WRITE_ONCE(sim->irq_dev, probed ? pmu->dev_id : NULL);
		WRITE_ONCE(sim->irq, probed ? pmu->irq : -1);
	}
}

/*
 * The simulated unit writes the buffer from kernel context, so KPTI would
 * not stop it; but it stands for hardware that KPTI does stop, and
 * pretending otherwise would make the simulation lie about what works.
 *
 * The PPI the driver is about to request is the one to raise; the
 * fallback path calls the driver's handler with its per-CPU argument.
 */
int spe_backend_probe(const struct spe_backend_pmu *pmu)
{
	if (arm64_kernel_unmapped_at_el0()) {
		dev_err(pmu->dev,
			"profiling buffer inaccessible: the kernel is unmapped at EL0 (KPTI); boot with \"kpti=off\" to use SPE\n");
		return -EPERM;
	}
	spe_sim_set_irq(pmu, true);
	return 0;
}

void spe_backend_remove(const struct spe_backend_pmu *pmu)
{
	spe_sim_set_irq(pmu, false);
}

/* ---- debugfs ------------------------------------------------------------- */

static int spe_sim_stats_show(struct seq_file *m, void *unused)
{
	struct spe_sim_cpu *sim = m->private;
	const struct spe_spu *spu = &sim->spu;
	u64 freq = arch_timer_get_cntfrq();

	seq_printf(m, "sample_pop %llu\n",
		   spe_spu_pmu_count(spu, SPE_SPU_SAMPLE_POP));
	seq_printf(m, "sample_feed %llu\n",
		   spe_spu_pmu_count(spu, SPE_SPU_SAMPLE_FEED));
	seq_printf(m, "sample_filtrate %llu\n",
		   spe_spu_pmu_count(spu, SPE_SPU_SAMPLE_FILTRATE));
	seq_printf(m, "sample_collision %llu\n",
		   spe_spu_pmu_count(spu, SPE_SPU_SAMPLE_COLLISION));
	seq_printf(m, "records %llu\n", spu->records);
	seq_printf(m, "bytes %llu\n", spu->bytes);
	seq_printf(m, "ticks %llu\n", sim->ticks);
	seq_printf(m, "idle_ticks %llu\n", sim->idle_ticks);
	seq_printf(m, "irq_pended %llu\n", sim->irq_pended);
	seq_printf(m, "irq_direct %llu\n", sim->irq_direct);
	seq_printf(m, "faults_injected %llu\n", sim->injected);
	/* Armed and not yet struck: a test must not leave these behind. */
	seq_printf(m, "inject_armed %s\n",
		   spe_sim_inject_names[atomic_read(&sim->inject)]);
	seq_printf(m, "collisions_pending %d\n", atomic_read(&sim->collisions));
	seq_printf(m, "busy_ns %llu\n",
		   freq ? mul_u64_u64_div_u64(sim->busy_cnt, NSEC_PER_SEC, freq) : 0);
	seq_printf(m, "pmbsr 0x%016llx\n", spu->pmbsr);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(spe_sim_stats);

/*
 * Write one of "s1", "s2", "ea", "ea-async" to make the next buffer write
 * of this CPU fail that way, "collision [N]" to force a collision on each
 * of the next N ticks that sample, or "none" to disarm both: an injection
 * waits for the CPU's next write, however much later that comes.
 */
static ssize_t spe_sim_inject_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	struct spe_sim_cpu *sim = file->private_data;
	char buf[32], *arg;
	unsigned int n = 1;
	int i;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	arg = strim(buf);

	if (str_has_prefix(arg, "collision")) {
		arg += strlen("collision");
		if (*arg && kstrtouint(skip_spaces(arg), 0, &n))
			return -EINVAL;
		atomic_add(n, &sim->collisions);
		return len;
	}
	i = match_string(spe_sim_inject_names, SPE_SIM_INJ_NR, arg);
	if (i < 0)
		return -EINVAL;
	atomic_set(&sim->inject, i);
	if (i == SPE_SIM_INJ_NONE)
		atomic_set(&sim->collisions, 0);
	return len;
}

static const struct file_operations spe_sim_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = spe_sim_inject_write,
	.llseek = noop_llseek,
};

static void spe_sim_debugfs_init(void)
{
	char name[16];
	int cpu;

	spe_sim_debugfs = debugfs_create_dir("arm_spe_sim", NULL);
	for_each_possible_cpu(cpu) {
		struct spe_sim_cpu *sim = per_cpu_ptr(&spe_sim_cpus, cpu);
		struct dentry *dir;

		snprintf(name, sizeof(name), "cpu%d", cpu);
		dir = debugfs_create_dir(name, spe_sim_debugfs);
		debugfs_create_file("stats", 0444, dir, sim, &spe_sim_stats_fops);
		debugfs_create_file("inject", 0200, dir, sim, &spe_sim_inject_fops);
	}
}

/* ---- Setup --------------------------------------------------------------- */

int spe_backend_init(void)
{
	struct spe_spu_config cfg;
	int cpu, ret;

	spe_sim_cfg = spe_spu_profile_find(profile);
	if (!spe_sim_cfg) {
		pr_err("unknown profile \"%s\" (v1-min, n1, v2 or full)\n", profile);
		return -EINVAL;
	}
	if (!tick_us || !ops_per_tick) {
		pr_err("tick_us and ops_per_tick must be non-zero\n");
		return -EINVAL;
	}
	spe_sim_period = ns_to_ktime((u64)tick_us * NSEC_PER_USEC);

	/*
	 * The exception levels as this kernel sees them: running at EL2
	 * (VHE, HCR_EL2.TGE = 1) the kernel owns the buffer from EL2.  At
	 * EL1 a module cannot tell whether EL2 exists (a hypervisor's, or a
	 * nVHE KVM host's own) and the unit behaves as if it did not, which
	 * only makes PMSCR.PCT read as one.  Time is counted in generic
	 * timer ticks.
	 */
	cfg = *spe_sim_cfg;
	cfg.have_el2 = is_kernel_in_hyp_mode();
	cfg.owner_el2 = cfg.have_el2;
	cfg.tge = cfg.have_el2;
	cfg.tick_shift = 0;
	cfg.seed = seed;
	spe_sim_pmsver = cfg.pmsver;

	for_each_possible_cpu(cpu) {
		struct spe_sim_cpu *sim = per_cpu_ptr(&spe_sim_cpus, cpu);

		memset(sim, 0, sizeof(*sim));
		cfg.seed = seed + cpu;
		ret = spe_spu_init(&sim->spu, &cfg, spe_sim_translate, sim);
		if (ret) {
			pr_err("profile \"%s\" rejected by the model (%d)\n",
			       profile, ret);
			return -EINVAL;
		}
		/*
		 * Line the model's counter up with the CPU's, and give it
		 * the virtual offset (CNTVOFF_EL2) this kernel runs with so
		 * PMSCR.PCT = 0 gives the virtual count.
		 */
		sim->spu.cnt_base = spe_sim_cntpct();
		sim->spu.cntvoff = sim->spu.cnt_base - __arch_counter_get_cntvct();
		spe_opgen_init(&sim->gen, seed + cpu);
		sim->cpu = cpu;
		sim->irq = -1;
		spe_hrtimer_setup(&sim->timer, spe_sim_tick, CLOCK_MONOTONIC,
				  HRTIMER_MODE_REL_PINNED_HARD);
	}

	spe_sim_debugfs_init();
	pr_info("simulating SPU \"%s\" (PMSVer %llu), tick %u us, %u operations per tick, seed %lu%s\n",
		spe_sim_cfg->name, spe_sim_pmsver, tick_us, ops_per_tick, seed,
		is_kernel_in_hyp_mode() ? ", kernel at EL2 (VHE)" : "");
	return 0;
}

void spe_backend_exit(void)
{
	int cpu;

	debugfs_remove_recursive(spe_sim_debugfs);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&spe_sim_cpus, cpu)->timer);
}
