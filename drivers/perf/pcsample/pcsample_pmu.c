// SPDX-License-Identifier: GPL-2.0
/*
 * The PC-sample PMU's perf callbacks.  perf core calls add/del/start/stop
 * on the event's own CPU, the sampled one: they arm and disarm the target
 * for the sampler and are the only places that call into perf's AUX
 * output (pcsample_sampler.c says why).  The event's count is the number
 * of records written.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "spe_compat.h"
#include "pcsample.h"

static struct pcs_dev *to_pcs_dev(struct pmu *pmu)
{
	return container_of(pmu, struct pcs_dev, pmu);
}

static void pcs_event_destroy(struct perf_event *event)
{
	atomic_dec(&to_pcs_dev(event->pmu)->nr_events);
}

static int pcs_event_init(struct perf_event *event)
{
	struct pcs_dev *pd = to_pcs_dev(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	const char *why;
	u64 ns;
	int ret;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	/* A core's PC is sampled, whatever runs on it: no per-task events. */
	if (event->cpu < 0 || !cpumask_test_cpu(event->cpu, &pd->supported))
		return -EINVAL;
	if (attr->config || attr->config1 || attr->config2 ||
	    has_branch_stack(event))
		return -EINVAL;
	/* A counting event (no period) is refused here too: period 0. */
	why = pcs_interval_ns(attr->freq, attr->freq ? attr->sample_freq :
			      attr->sample_period, &ns);
	if (why) {
		dev_dbg(pd->dev, "event refused: %s\n", why);
		return -EINVAL;
	}
	/*
	 * perf_event_open() already refuses kernel samples to a caller
	 * perf_event_paranoid does not allow them to; checked again here,
	 * as the hypervisor's and guests' samples follow exclude_kernel.
	 */
	if (!attr->exclude_kernel) {
		ret = spe_perf_allow_kernel(attr);
		if (ret)
			return ret;
	}
	event->hw.config = ns;
	atomic_inc(&pd->nr_events);
	event->destroy = pcs_event_destroy;
	pcs_sampler_kick(pd);
	return 0;
}

static void pcs_event_start(struct perf_event *event, int flags)
{
	struct pcs_dev *pd = to_pcs_dev(event->pmu);
	struct pcs_target *t = pd->targets[smp_processor_id()];
	struct perf_event_attr *attr = &event->attr;
	struct pcs_aux_buf *buf;
	unsigned long irqflags;

	event->hw.state = PERF_HES_STOPPED;
	if (WARN_ON_ONCE(!t))
		return;
	buf = perf_aux_output_begin(&t->handle, event);
	if (!buf)
		return;	/* no AUX buffer, or it is full: perf disables the event */

	raw_spin_lock_irqsave(&t->lock, irqflags);
	t->buf = buf;
	t->written = 0;
	t->truncated = false;
	t->filter.exclude_user = attr->exclude_user;
	t->filter.exclude_kernel = attr->exclude_kernel;
	t->filter.exclude_hv = attr->exclude_hv;
	t->filter.exclude_guest = attr->exclude_guest;
	t->interval_ns = event->hw.config;
	t->due_ns = ktime_get_ns();
	t->event = event;
	raw_spin_unlock_irqrestore(&t->lock, irqflags);
	event->hw.state = 0;
}

static void pcs_event_stop(struct perf_event *event, int flags)
{
	struct pcs_dev *pd = to_pcs_dev(event->pmu);
	struct pcs_target *t = pd->targets[smp_processor_id()];
	unsigned long irqflags, written;
	bool truncated;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	raw_spin_lock_irqsave(&t->lock, irqflags);
	t->event = NULL;
	written = t->written;
	truncated = t->truncated;
	raw_spin_unlock_irqrestore(&t->lock, irqflags);

	if (truncated)
		perf_aux_output_flag(&t->handle, PERF_AUX_FLAG_TRUNCATED);
	perf_aux_output_end(&t->handle, written);
	local64_add(written / PCS_RECORD_SIZE, &event->count);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/*
 * Never fails, even when start finds no AUX space and the event stays
 * stopped: a failed add makes perf core rotate the CPU's events with an
 * hrtimer on that CPU, the sampled one.  A full buffer gets the event
 * disabled by perf_aux_output_begin() instead.
 */
static int pcs_event_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		pcs_event_start(event, PERF_EF_RELOAD);
	return 0;
}

static void pcs_event_del(struct perf_event *event, int flags)
{
	pcs_event_stop(event, PERF_EF_UPDATE);
}

/* The count (samples written) is updated when the event stops. */
static void pcs_event_read(struct perf_event *event)
{
}

static void *pcs_setup_aux(struct perf_event *event, void **pages, int nr_pages,
			   bool snapshot)
{
	struct pcs_aux_buf *buf;
	struct page **pglist;
	int i;

	/* Snapshot mode would need the sampler to overwrite: not supported. */
	if (snapshot || !is_power_of_2(nr_pages))
		return NULL;
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	pglist = kcalloc(nr_pages, sizeof(*pglist), GFP_KERNEL);
	if (!buf || !pglist)
		goto fail;
	for (i = 0; i < nr_pages; i++)
		pglist[i] = virt_to_page(pages[i]);
	buf->base = vmap(pglist, nr_pages, VM_MAP, PAGE_KERNEL);
	if (!buf->base)
		goto fail;
	buf->nr_pages = nr_pages;
	buf->size = (unsigned long)nr_pages << PAGE_SHIFT;
	kfree(pglist);
	return buf;

fail:
	kfree(pglist);
	kfree(buf);
	return NULL;
}

static void pcs_free_aux(void *aux)
{
	struct pcs_aux_buf *buf = aux;

	vunmap(buf->base);
	kfree(buf);
}

void pcs_pmu_init(struct pcs_dev *pd)
{
	pd->pmu = (struct pmu) {
		.task_ctx_nr	= perf_invalid_context,
		.capabilities	= PERF_PMU_CAP_EXCLUSIVE,
		.event_init	= pcs_event_init,
		.add		= pcs_event_add,
		.del		= pcs_event_del,
		.start		= pcs_event_start,
		.stop		= pcs_event_stop,
		.read		= pcs_event_read,
		.setup_aux	= pcs_setup_aux,
		.free_aux	= pcs_free_aux,
	};
}
