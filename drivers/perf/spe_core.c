// SPDX-License-Identifier: GPL-2.0
/*
 * perf callbacks of the SPE PMU: event_init, add/del, start/stop, read.
 *
 * An event owns the CPU's Profiling Buffer while it runs (the PMU is
 * PERF_PMU_CAP_EXCLUSIVE).  start() programs the buffer window first, the
 * filters and the interval next, and PMSCR_EL1 last, because PMSCR is what
 * lets operations be selected for sampling; stop() undoes it in the reverse
 * order with the drain sequence of DDI 0586A §3.6.
 */
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include "spe_backend.h"
#include "spe_compat.h"
#include "spe_pmu.h"
#include "spe_unit.h"

static void spe_event_req_fill(struct perf_event *event,
			       struct spe_event_req *req)
{
	struct perf_event_attr *attr = &event->attr;

	memset(req, 0, sizeof(*req));
	spe_attr_config_words(attr, req->config);
	req->nr_cfg_words = SPE_NR_ATTR_CFG_WORDS;
	req->period = event->hw.sample_period;
	req->freq = attr->freq;
	req->exclude_user = attr->exclude_user;
	req->exclude_kernel = attr->exclude_kernel;
	req->exclude_idle = attr->exclude_idle;
}

static int spe_event_init(struct perf_event *event)
{
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct spe_event_regs regs;
	struct spe_event_req req;
	const char *why;
	int ret;

	if (attr->type != event->pmu->type)
		return -ENOENT;

	if (event->cpu >= 0 &&
	    !cpumask_test_cpu(event->cpu, &spe->supported_cpus))
		return -ENOENT;

	spe_event_req_fill(event, &req);

	/* Ask about permission only when it matters: it may be audited. */
	req.kernel_allowed = true;
	if (spe_fmt_get(req.config, SPE_FMT_pa_enable) ||
	    spe_fmt_get(req.config, SPE_FMT_pct_enable))
		req.kernel_allowed = !spe_perf_allow_kernel(attr);

	/*
	 * CONTEXTIDR_EL1 holds the PID only with PID_IN_CONTEXTIDR, and
	 * other tasks' PIDs are for privileged owners.  Decided here, in
	 * the owner's context, and kept in the PMSCR value.
	 */
	req.cx_allowed = IS_ENABLED(CONFIG_PID_IN_CONTEXTIDR) &&
			 perfmon_capable();

	ret = spe_event_validate(&spe->caps, &req, &why);
	if (ret) {
		dev_dbg(&spe->pdev->dev, "event rejected (%d): %s\n", ret, why);
		return ret;
	}

	spe_event_to_regs(&spe->caps, &req, &regs);
	event->hw.config = regs.pmscr;
	event->hw.sample_period = regs.pmsirr & SPE_PMSIRR_INTERVAL_MASK;
	return 0;
}

/*
 * Begin an AUX session and start sampling into it.  Returns 0, or what
 * spe_aux_begin() says when there is nothing to sample into (the event is
 * left stopped).
 */
static int spe_event_start(struct perf_event *event)
{
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	struct perf_output_handle *handle = this_cpu_ptr(spe->handle);
	struct spe_event_regs regs;
	struct spe_event_req req;
	int ret;

	hwc->state = 0;
	ret = spe_aux_begin(handle, event);
	if (ret)
		return ret;

	spe_event_req_fill(event, &req);
	spe_event_to_regs(&spe->caps, &req, &regs);

	/*
	 * Carry on counting down where stop() left the interval counter so
	 * a task switched out and in is not sampled more often than asked.
	 */
	spe_unit_start(&regs, hwc->config, local64_read(&hwc->period_left),
		       spe->caps.features & SPE_FEAT_INV_FILT_EVT,
		       spe->caps.features & SPE_FEAT_FDS);
	return 0;
}

static void spe_pmu_start(struct perf_event *event, int flags)
{
	spe_event_start(event);
}

static void spe_pmu_stop(struct perf_event *event, int flags)
{
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	struct perf_output_handle *handle = this_cpu_ptr(spe->handle);

	if (hwc->state & PERF_HES_STOPPED)
		return;

	spe_unit_disable_and_drain();

	if (flags & PERF_EF_UPDATE) {
		/*
		 * Close the AUX record here, with whatever management event
		 * is pending folded into its flags: on the context-switch
		 * path the next task must not inherit this buffer's fault.
		 */
		spe_service_event(spe, handle, false);

		/* ECOUNT rides along; period_left is ours (no freq mode). */
		local64_set(&hwc->period_left, spe_unit_read_icount());
		hwc->state |= PERF_HES_UPTODATE;
	}

	hwc->state |= PERF_HES_STOPPED;
}

static int spe_pmu_add(struct perf_event *event, int flags)
{
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	/* Not (or no longer) set up here: perf core tries again later. */
	if (!cpumask_test_cpu(smp_processor_id(), &spe->ready_cpus))
		return -ENOENT;

	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (!(flags & PERF_EF_START))
		return 0;

	/*
	 * Nothing to sample into (a full buffer, or no AUX space at all):
	 * the event cannot go in.  perf core keeps it inactive and tries
	 * again at its next sched-in or rotation, by when the reader may
	 * have made room; nothing is left pending for it here.
	 */
	return spe_event_start(event);
}

static void spe_pmu_del(struct perf_event *event, int flags)
{
	spe_pmu_stop(event, PERF_EF_UPDATE);
}

/* SPE has no counter: the samples are the data, in the AUX buffer. */
static void spe_pmu_read(struct perf_event *event)
{
}

void spe_pmu_init_callbacks(struct spe_pmu *spe)
{
	spe->pmu.module = THIS_MODULE;
	spe->pmu.capabilities = PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_ITRACE;
	spe->pmu.attr_groups = spe_attr_groups;
	/*
	 * Per-task events follow the task; the buffer is per CPU anyway, so
	 * the software context (no counter scheduling constraints) fits.
	 */
	spe->pmu.task_ctx_nr = perf_sw_context;
	spe->pmu.event_init = spe_event_init;
	spe->pmu.add = spe_pmu_add;
	spe->pmu.del = spe_pmu_del;
	spe->pmu.start = spe_pmu_start;
	spe->pmu.stop = spe_pmu_stop;
	spe->pmu.read = spe_pmu_read;
	spe->pmu.setup_aux = spe_setup_aux;
	spe->pmu.free_aux = spe_free_aux;
}
