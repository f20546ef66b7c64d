// SPDX-License-Identifier: GPL-2.0
/*
 * Profiling Buffer management events: the PMBIRQ handler, and the same
 * servicing done when an event stops with an event pending.
 *
 * PMBIRQ is a level interrupt driven by PMBSR_EL1.S (DDI 0586A §3.5): the
 * buffer stays disabled and the line asserted until PMBSR is written, so
 * the buffer pointers are made sane (a new window, or the buffer disabled)
 * before S is cleared, never after.
 */
#include <linux/interrupt.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>

#include "spe_backend.h"
#include "spe_pmbsr.h"
#include "spe_pmu.h"
#include "spe_unit.h"

/* printk() with LOGLEVEL_SCHED: what printk_deferred() does, unexported. */
static __printf(1, 2) void spe_printk_sched(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk_emit(0, LOGLEVEL_SCHED, NULL, fmt, args);
	va_end(args);
}

/*
 * dev_err(), deferred: the message is stored at once and written to the
 * console from irq_work.  The stop path runs from perf's context switch
 * with the runqueue lock held, where a console write may wake a task
 * and so deadlock (lockdep: console_owner --> &rq->__lock -->
 * &ctx->lock).
 */
static __printf(2, 3) void spe_deferred_err(struct device *dev,
					    const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	spe_printk_sched(KERN_ERR "%s %s: %pV", dev_driver_string(dev),
			 dev_name(dev), &vaf);
	va_end(args);
}

static void spe_dump_fault(struct spe_pmu *spe, u64 pmbsr,
			   const struct spe_pmbsr_info *info)
{
	static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	u64 ptr = spe_read(SPE_REG_PMBPTR_EL1);
	u64 lim = spe_read(SPE_REG_PMBLIMITR_EL1);
	char level[16] = "";

	if (!__ratelimit(&rs))
		return;
	if (info->has_level)
		snprintf(level, sizeof(level), " at level %u", info->level);
	spe_deferred_err(&spe->pdev->dev,
			 "CPU%d: profiling stopped: %s%s (PMBSR_EL1 0x%016llx EC 0x%02x MSS 0x%04x PMBPTR_EL1 0x%016llx PMBLIMITR_EL1 0x%016llx)\n",
			 smp_processor_id(), info->cause, level,
			 pmbsr, info->ec, info->mss, ptr, lim);
}

/*
 * Service a pending management event, if any, for the AUX session in
 * handle.  restart: open the next session if the data allows (interrupt
 * path); otherwise only close the current one (stop path).
 * Returns false when there was no management event (PMBSR_EL1.S = 0).
 */
bool spe_service_event(struct spe_pmu *spe, struct perf_output_handle *handle,
		       bool restart)
{
	struct perf_event *event = handle->event;
	struct spe_pmbsr_info info;
	u64 pmbsr, flags;

	/* The unit's writes to memory, PMBPTR and PMBSR, before reading. */
	spe_unit_sync();

	pmbsr = spe_read(SPE_REG_PMBSR_EL1);
	spe_pmbsr_decode(pmbsr, &info);

	if (!perf_get_aux(handle)) {
		/*
		 * Discard mode, or a session that already ended: nothing to
		 * report to, but an asserted PMBIRQ must still be released.
		 */
		if (info.action != SPE_PMBSR_SPURIOUS)
			spe_unit_reset();
		return info.action != SPE_PMBSR_SPURIOUS;
	}

	if (info.action == SPE_PMBSR_SPURIOUS) {
		if (restart)
			return false;
		/*
		 * Stop path, unit drained: a collision noted without a
		 * management event belongs to this session.  Clear it so the
		 * next session does not report it again.
		 */
		if (info.aux_flags) {
			perf_aux_output_flag(handle, info.aux_flags);
			spe_unit_clear_status();
		}
		spe_aux_end(handle);
		return false;
	}

	perf_aux_output_flag(handle, info.aux_flags);
	if (info.action == SPE_PMBSR_STOP)
		spe_dump_fault(spe, pmbsr, &info);

	flags = spe_aux_end(handle);

	if (info.action == SPE_PMBSR_STOP ||
	    (flags & PERF_AUX_FLAG_TRUNCATED)) {
		/*
		 * A fault, lost data (DL) or a window found unusable in
		 * spe_aux_end(): the session is over.  Switch the unit off
		 * before PMBSR is cleared, or it would go on writing into a
		 * window whose AUX record is closed; perf core starts the
		 * event again when it next adds it.
		 */
		spe_unit_disable_and_drain();
		event->hw.state |= PERF_HES_STOPPED;
	} else if (restart) {
		/* Buffer full: carry on in the next window. */
		spe_aux_begin(handle, event);
		/* No room for a new window: do not sample into nothing. */
		if (event->hw.state & PERF_HES_STOPPED)
			spe_unit_disable_and_drain();
		spe_isb();
	}

	/* Pointers are sane: release PMBIRQ and, if programmed, the buffer. */
	spe_unit_clear_status();
	return true;
}

irqreturn_t spe_irq_handler(int irq, void *dev)
{
	struct perf_output_handle *handle = dev;
	struct perf_event *event = READ_ONCE(handle->event);
	struct spe_pmu *spe;

	if (!event) {
		/* No session on this CPU: release a stray PMBIRQ. */
		spe_unit_sync();
		if (!(spe_read(SPE_REG_PMBSR_EL1) & SPE_PMBSR_S))
			return IRQ_NONE;
		spe_unit_reset();
		return IRQ_HANDLED;
	}

	spe = to_spe_pmu(event->pmu);
	return spe_service_event(spe, handle, true) ? IRQ_HANDLED : IRQ_NONE;
}
