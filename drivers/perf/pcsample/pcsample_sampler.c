// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler: a kernel thread bound to the housekeeping CPU reads each
 * running target's sample registers at its interval and writes the decoded
 * samples into the target event's AUX buffer.
 *
 * Why a thread, timed by an hrtimer (schedule_hrtimeout_range), and not an
 * hrtimer callback: a round of MMIO reads to other cores' register frames
 * takes microseconds per core, too long for hard interrupt context on the
 * housekeeping CPU.
 *
 * Why the sampled core is never interrupted, and perf's ring buffer is
 * still written safely: the sampler writes only into the AUX pages and a
 * byte count of its own (pcs_target.written), under the target's lock.
 * Everything that enters perf core (perf_aux_output_begin/end, which
 * writes PERF_RECORD_AUX into the event's ring buffer) runs on the target
 * CPU itself, in the pmu::start/stop callbacks perf core already calls
 * there.  perf's ring buffer publishes data_head from the outermost of the
 * writers nested on one CPU (rb->nest); a writer on another CPU would break
 * that count and could expose half-written side-band records (MMAP, COMM)
 * of the sampled CPU.  The target's lock also orders the sampler's stores
 * into the AUX pages before the aux_head that pmu::stop publishes.
 *
 * When a core may be read (pcs_access_check): the sample registers are in
 * the Core power domain, and an access to a powered-down core, or one whose
 * OS Lock or OS Double Lock is set, gets an error response, an external
 * abort on the reading CPU.  The kernel knows when a core is on: from CPU
 * hotplug (the online callback runs on the core itself) and from the CPU PM
 * notifiers the core calls around idle states that lose power, both under
 * the target's lock so that a core never powers down in the middle of a
 * read.  With the debug block, EDPRSR (Debug power domain) confirms it.
 */
#include <linux/cpu.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include "pcsample.h"
#include "pcsample_regs.h"

/* With events open but none running, look again this often. */
#define PCS_IDLE_POLL_NS	(10 * NSEC_PER_MSEC)

/*
 * Two flags, as the two sources of power news overlap: a dying core can
 * still enter and leave idle (CPU_PM_EXIT) after its offline callback,
 * and must stay unreadable all the same.
 */
static void pcs_set_power(struct pcs_target *t, bool *flag, bool value)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&t->lock, flags);
	*flag = value;
	/* A core coming back from power down has its Software Lock reset. */
	t->unlock_pending = true;
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

static int pcs_cpu_pm_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct pcs_dev *pd = container_of(nb, struct pcs_dev, cpu_pm_nb);
	struct pcs_target *t = pd->targets[smp_processor_id()];

	if (!t)
		return NOTIFY_OK;
	switch (action) {
	case CPU_PM_ENTER:
		pcs_set_power(t, &t->pm_off, true);
		break;
	case CPU_PM_ENTER_FAILED:
	case CPU_PM_EXIT:
		pcs_set_power(t, &t->pm_off, false);
		break;
	}
	return NOTIFY_OK;
}

static struct pcs_dev *pcs_hp_dev;

static int pcs_cpu_online(unsigned int cpu)
{
	struct pcs_target *t = pcs_hp_dev->targets[cpu];

	if (t)
		pcs_set_power(t, &t->online, true);
	return 0;
}

static int pcs_cpu_offline(unsigned int cpu)
{
	struct pcs_target *t = pcs_hp_dev->targets[cpu];

	if (t)
		pcs_set_power(t, &t->online, false);
	return 0;
}

/* The ID register, read once, under the lock, from a powered core. */
static bool pcs_frame_ok(struct pcs_dev *pd, struct pcs_target *t)
{
	const char *why;

	if (t->frame_checked)
		return true;
	if (t->frame_bad)
		return false;
	if (pd->kind == PCS_FRAME_PMU)
		why = pcs_check_pmu_frame(readl_relaxed(t->base + PCS_PMU_PMDEVID));
	else
		why = pcs_check_debug_frame(readl_relaxed(t->base + PCS_DBG_EDDEVID),
					    readl_relaxed(t->base + PCS_DBG_EDDEVID1));
	if (why) {
		t->frame_bad = true;
		dev_err(pd->dev, "CPU %d: %s; this CPU is not sampled\n", t->cpu, why);
		return false;
	}
	t->frame_checked = true;
	return true;
}

/*
 * Read one capture.  PMPCSR[31:0] first: that read captures the sample
 * and updates PMPCSR[63:32] and the context registers as a side effect
 * (DDI 0487, PMPCSR); a read of PMPCSR[63:32] alone updates nothing.
 * Device memory keeps the reads to one frame in program order.
 */
static void pcs_read_capture(struct pcs_dev *pd, struct pcs_target *t,
			     struct pcs_raw *raw)
{
	void __iomem *b = t->base;

	if (pd->kind == PCS_FRAME_DEBUG) {
		raw->pcsr_lo = readl_relaxed(b + PCS_DBG_EDPCSR_LO);
		raw->pcsr_hi = readl_relaxed(b + PCS_DBG_EDPCSR_HI);
		raw->cid1 = readl_relaxed(b + PCS_DBG_EDCIDSR);
		raw->cid2 = 0;
		raw->vid = readl_relaxed(b + PCS_DBG_EDVIDSR);
		return;
	}
	if (pd->atomic64) {
		u64 pcsr = readq_relaxed(b + PCS_PMU_PMPCSR_LO);

		raw->pcsr_lo = lower_32_bits(pcsr);
		raw->pcsr_hi = upper_32_bits(pcsr);
	} else {
		raw->pcsr_lo = readl_relaxed(b + PCS_PMU_PMPCSR_LO);
		raw->pcsr_hi = readl_relaxed(b + PCS_PMU_PMPCSR_HI);
	}
	raw->cid1 = readl_relaxed(b + PCS_PMU_PMCID1SR);
	raw->cid2 = readl_relaxed(b + PCS_PMU_PMCID2SR);
	raw->vid = readl_relaxed(b + PCS_PMU_PMVIDSR);
}

static void pcs_write_record(struct pcs_target *t, const struct pcs_sample *s)
{
	struct pcs_record rec = { .cpu = t->cpu, .s = *s };
	unsigned long off;

	if (t->written + PCS_RECORD_SIZE > t->handle.size) {
		t->truncated = true;
		return;
	}
	rec.time = t->event->clock();
	/* Records are 32 bytes and the buffer a power of two: none wraps. */
	off = (t->handle.head + t->written) & (t->buf->size - 1);
	pcs_record_pack(&rec, t->buf->base + off);
	t->written += PCS_RECORD_SIZE;
}

/* One round for one target, with its lock held. */
static void pcs_sample_target(struct pcs_dev *pd, struct pcs_target *t)
{
	bool debug = pd->kind == PCS_FRAME_DEBUG;
	bool powered = t->online && !t->pm_off;
	struct pcs_sample s;
	struct pcs_raw raw;
	enum pcs_verdict v;
	u32 edprsr = 0;

	if (debug && powered)
		edprsr = readl_relaxed(t->base + PCS_DBG_EDPRSR);
	if (pcs_access_check(powered, debug, edprsr) != PCS_ACCESS_READ) {
		t->not_readable++;
		return;
	}
	if (!pcs_frame_ok(pd, t))
		return;
	if (t->unlock_pending) {
		if (pcs_needs_unlock(readl_relaxed(t->base + PCS_LSR)))
			writel_relaxed(PCS_LAR_KEY, t->base + PCS_LAR);
		t->unlock_pending = false;
	}
	pcs_read_capture(pd, t, &raw);
	if (debug)
		v = pcs_decode_debug(&raw, &pd->host, &t->filter, &s);
	else
		v = pcs_decode_pmu(&raw, &pd->host, &t->filter, &s);
	t->verdicts[v]++;
	if (v == PCS_OK)
		pcs_write_record(t, &s);
}

/* One pass over the targets; returns when the next one is due. */
static u64 pcs_round(struct pcs_dev *pd)
{
	u64 next = U64_MAX, now = ktime_get_ns(), missed;
	unsigned long flags;
	int cpu;

	for_each_cpu(cpu, &pd->supported) {
		struct pcs_target *t = pd->targets[cpu];

		raw_spin_lock_irqsave(&t->lock, flags);
		if (t->event) {
			if (now >= t->due_ns) {
				pcs_sample_target(pd, t);
				t->due_ns = pcs_next_due(t->due_ns, t->interval_ns,
							 now, &missed);
				t->missed += missed;
			}
			next = min(next, t->due_ns);
		}
		raw_spin_unlock_irqrestore(&t->lock, flags);
	}
	return next;
}

static int pcs_sampler_fn(void *data)
{
	struct pcs_dev *pd = data;

	while (!kthread_should_stop()) {
		u64 next;
		ktime_t until;

		if (!atomic_read(&pd->nr_events)) {
			set_current_state(TASK_INTERRUPTIBLE);
			if (!atomic_read(&pd->nr_events) && !kthread_should_stop())
				schedule();
			__set_current_state(TASK_RUNNING);
			continue;
		}
		next = pcs_round(pd);
		if (next == U64_MAX)
			next = ktime_get_ns() + PCS_IDLE_POLL_NS;
		until = ns_to_ktime(next);
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule_hrtimeout_range(&until, 0, HRTIMER_MODE_ABS);
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* An event was created: the sampler may be asleep with nothing to do. */
void pcs_sampler_kick(struct pcs_dev *pd)
{
	wake_up_process(pd->sampler);
}

int pcs_sampler_start(struct pcs_dev *pd)
{
	int ret;

	pd->sampler = kthread_create(pcs_sampler_fn, pd, "arm_pcsample/%d", pd->hk_cpu);
	if (IS_ERR(pd->sampler))
		return PTR_ERR(pd->sampler);
	kthread_bind(pd->sampler, pd->hk_cpu);

	pd->cpu_pm_nb.notifier_call = pcs_cpu_pm_notify;
	ret = cpu_pm_register_notifier(&pd->cpu_pm_nb);
	if (ret)
		goto err_thread;
	/*
	 * Every target starts offline; the online callback runs on each
	 * online core, which is running then, and marks it online.  CPU PM
	 * notifications are registered first, so none is missed after it.
	 */
	pcs_hp_dev = pd;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf/arm_pcsample:online",
				pcs_cpu_online, pcs_cpu_offline);
	if (ret < 0)
		goto err_pm;
	pd->hp_state = ret;
	wake_up_process(pd->sampler);
	return 0;

err_pm:
	cpu_pm_unregister_notifier(&pd->cpu_pm_nb);
err_thread:
	kthread_stop(pd->sampler);
	return ret;
}

void pcs_sampler_stop(struct pcs_dev *pd)
{
	kthread_stop(pd->sampler);
	cpuhp_remove_state(pd->hp_state);
	cpu_pm_unregister_notifier(&pd->cpu_pm_nb);
}
