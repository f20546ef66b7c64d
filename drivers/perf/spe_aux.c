// SPDX-License-Identifier: GPL-2.0
/*
 * The perf AUX buffer as the Profiling Buffer.
 *
 * perf hands over the AUX area as an array of pages that need not be
 * physically contiguous, while the Profiling Buffer is one virtual range
 * (PMBPTR_EL1 up to PMBLIMITR_EL1, DDI 0586A §3.4), so setup_aux maps the
 * pages contiguously with vmap().  Where in that range the unit may write
 * is decided by the portable spe_aux_next() (spe_aux_window.c); this file
 * carries out its answers on the perf handle and the registers.
 */
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "spe_aux_window.h"
#include "spe_backend.h"
#include "spe_compat.h"
#include "spe_pmu.h"

/* perf pads and detects snapshot wrap-around with zero bytes. */
#define SPE_PAD_BYTE	0

void *spe_setup_aux(struct perf_event *event, void **pages, int nr_pages,
		    bool snapshot)
{
	int cpu = event->cpu == -1 ? raw_smp_processor_id() : event->cpu;
	struct spe_aux_buf *buf;
	struct page **pglist;
	int i;

	/*
	 * One page is not enough to both hold a record and leave the
	 * wakeup/tail page boundaries room; snapshot mode works in halves.
	 */
	if (nr_pages < 2 || (snapshot && (nr_pages & 1)))
		return NULL;

	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, cpu_to_node(cpu));
	if (!buf)
		return NULL;

	pglist = kcalloc(nr_pages, sizeof(*pglist), GFP_KERNEL);
	if (!pglist)
		goto out_free_buf;

	for (i = 0; i < nr_pages; i++)
		pglist[i] = virt_to_page(pages[i]);

	buf->base = vmap(pglist, nr_pages, VM_MAP, PAGE_KERNEL);
	kfree(pglist);
	if (!buf->base)
		goto out_free_buf;

	buf->nr_pages = nr_pages;
	buf->size = (u64)nr_pages << PAGE_SHIFT;
	buf->snapshot = snapshot;
	return buf;

out_free_buf:
	kfree(buf);
	return NULL;
}

void spe_free_aux(void *aux)
{
	struct spe_aux_buf *buf = aux;

	vunmap(buf->base);
	kfree(buf);
}

static void spe_aux_geom(const struct spe_pmu *spe,
			 const struct spe_aux_buf *buf, struct spe_aux_geom *g)
{
	g->buf_size = buf->size;
	g->page_size = PAGE_SIZE;
	g->align = spe->caps.align;
	g->max_record = spe->caps.max_record;
	g->snapshot = buf->snapshot;
}

/* Zero len bytes from buffer offset off, wrapping at the end. */
static void spe_aux_zero(struct spe_aux_buf *buf, u64 off, u64 len)
{
	u64 first = min(len, buf->size - off);

	memset(buf->base + off, SPE_PAD_BYTE, first);
	if (len > first)
		memset(buf->base, SPE_PAD_BYTE, len - first);
}

/* Upper bound of spe_aux_next() answers before a LIMIT or FULL. */
#define SPE_AUX_MAX_STEPS	8

/*
 * Start an AUX session and program PMBPTR/PMBLIMITR for it, or disable the
 * buffer and mark the event stopped when there is nothing to write into.
 * Returns 0 when sampling may start, -ENOSPC when the buffer is full (the
 * session ended TRUNCATED), -ENOBUFS when perf gave no AUX space at all.
 *
 * A full buffer is left to perf core, through the AUX API alone: the
 * TRUNCATED session end is what asks it to disable the event.  Kernels
 * before upstream's "perf/aux: Properly launch pending disable flow"
 * (2025; both Debian kernels here) only note that request and act on it
 * at the event's next sched-out, and not at all on CPU 0; the event then
 * stays stopped here until perf core starts it again.  The driver never
 * writes perf core's own state to make up for that: doing so (queueing
 * its disable work by hand) is what brought perf core's task-context
 * warnings out under CPU hotplug
 * (Documentation/dev-tools/arm-spe-driver.rst).
 */
int spe_aux_begin(struct perf_output_handle *handle, struct perf_event *event)
{
	struct spe_pmu *spe = to_spe_pmu(event->pmu);
	u64 cfg[SPE_NR_CFG_WORDS] = { };
	struct spe_aux_step step;
	struct spe_aux_geom geom;
	struct spe_aux_pos pos;
	struct spe_aux_buf *buf;
	u64 limit = 0;
	int ret = 0;
	int i;

	/*
	 * Discard mode (SPEv1p2) writes nothing: the unit only counts
	 * (SAMPLE_* PMU events), so no AUX session is opened at all.
	 */
	spe_attr_config_words(&event->attr, cfg);
	if (spe_fmt_get(cfg, SPE_FMT_discard)) {
		limit = SPE_FIELD_PREP(SPE_PMBLIMITR_FM_MASK,
				       SPE_PMBLIMITR_FM_DISCARD) |
			SPE_PMBLIMITR_E;
		goto out_write_limit;
	}

	buf = perf_aux_output_begin(handle, event);
	if (!buf) {
		event->hw.state |= PERF_HES_STOPPED;
		ret = -ENOBUFS;
		/* The buffer may be enabled still, if it stopped on a fault. */
		goto out_write_limit;
	}

	spe_aux_geom(spe, buf, &geom);
	for (i = 0; i < SPE_AUX_MAX_STEPS; i++) {
		pos.head = handle->head;
		pos.size = handle->size;
		pos.wakeup = handle->wakeup;
		spe_aux_next(&geom, &pos, &step);

		switch (step.kind) {
		case SPE_AUX_PAD:
			spe_aux_zero(buf, spe_aux_off(&geom, pos.head), step.len);
			if (buf->snapshot)
				handle->head = step.new_head;
			else
				perf_aux_output_skip(handle, step.len);
			continue;
		case SPE_AUX_LIMIT:
			spe_write(SPE_REG_PMBPTR_EL1, (u64)buf->base +
					      spe_aux_off(&geom, pos.head));
			/* FM = 0b00: stop and interrupt when full. */
			limit = ((u64)buf->base + step.limit) | SPE_PMBLIMITR_E;
			goto out_write_limit;
		case SPE_AUX_FULL:
			break;
		}
		break;
	}
	WARN_ON_ONCE(i == SPE_AUX_MAX_STEPS);

	/* No room for a record: report the loss and let perf wake the reader. */
	if (step.kind == SPE_AUX_FULL && step.len) {
		spe_aux_zero(buf, spe_aux_off(&geom, handle->head), step.len);
		perf_aux_output_skip(handle, step.len);
	}
	perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);
	perf_aux_output_end(handle, 0);
	event->hw.state |= PERF_HES_STOPPED;
	ret = -ENOSPC;

out_write_limit:
	spe_write(SPE_REG_PMBLIMITR_EL1, limit);
	return ret;
}

/*
 * End the AUX session at the hardware's write pointer.  The caller has
 * drained the unit (PSB CSYNC, DSB, ISB) so PMBPTR is final.  Returns the
 * PERF_AUX_FLAG_* the session ended with.
 */
u64 spe_aux_end(struct perf_output_handle *handle)
{
	struct spe_aux_buf *buf = perf_get_aux(handle);
	u64 base = (u64)buf->base;
	u64 head = handle->head % buf->size;
	u64 ptr = spe_read(SPE_REG_PMBPTR_EL1);
	u64 offset, size = 0, flags;

	/*
	 * PMBPTR outside [head, end of buffer] can only follow a fault
	 * whose address is not in this buffer; trust none of it.
	 */
	if (ptr >= base + head && ptr <= base + buf->size) {
		offset = ptr - base;
		size = offset - head;
		if (buf->snapshot)
			handle->head = offset;
	} else {
		perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);
	}
	flags = handle->aux_flags;
	perf_aux_output_end(handle, size);
	return flags;
}
