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
 * The housekeeping CPU can go offline: the scheduler then moves the thread
 * to another CPU, which pcs_round() recognises and samples nothing from;
 * the online callback binds it back.
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
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include "pcsample.h"
#include "pcsample/regs.h"

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
	/* The housekeeping CPU is back: so is the thread it lost. */
	if (cpu == pcs_hp_dev->hk_cpu && pcs_hp_dev->sampler)
		set_cpus_allowed_ptr(pcs_hp_dev->sampler, cpumask_of(cpu));
	return 0;
}

static int pcs_cpu_offline(unsigned int cpu)
{
	struct pcs_target *t = pcs_hp_dev->targets[cpu];

	if (t)
		pcs_set_power(t, &t->online, false);
	return 0;
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

/*
 * The hotplug callbacks go first: their teardown marks every core offline,
 * so the thread reads nothing more, and the online callback, which binds
 * the thread, can no longer run once the thread is gone.
 */
void pcs_sampler_stop(struct pcs_dev *pd)
{
	cpuhp_remove_state(pd->hp_state);
	cpu_pm_unregister_notifier(&pd->cpu_pm_nb);
	kthread_stop(pd->sampler);
}
