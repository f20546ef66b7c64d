// SPDX-License-Identifier: GPL-2.0
/*
 * One sampling round: for each started target that is due, decide whether
 * its frame may be read, read one capture, decode it and append the record
 * to the target event's AUX buffer.  Runs on the housekeeping CPU
 * (pcsample_sampler.c); the register accesses go through pcs_reg_*()
 * (pcsample_mmio.c), so the host tests run this file against a fake
 * frame.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>

#include "pcsample.h"
#include "pcsample/regs.h"

/* The ID register, read once, under the lock, from a powered core. */
static bool pcs_frame_ok(struct pcs_dev *pd, struct pcs_target *t)
{
	const char *why;
	u32 devid, devid1;

	if (t->frame_checked)
		return true;
	if (t->frame_bad)
		return false;
	if (pd->kind == PCS_FRAME_PMU) {
		why = pcs_check_pmu_frame(pcs_reg_read32(t, PCS_PMU_PMDEVID));
	} else {
		devid = pcs_reg_read32(t, PCS_DBG_EDDEVID);
		devid1 = pcs_reg_read32(t, PCS_DBG_EDDEVID1);
		why = pcs_check_debug_frame(devid, devid1);
		t->pcsroffset = pcs_pcsroffset(devid1);
	}
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
	if (pd->kind == PCS_FRAME_DEBUG) {
		raw->pcsr_lo = pcs_reg_read32(t, PCS_DBG_EDPCSR_LO);
		raw->pcsr_hi = pcs_reg_read32(t, PCS_DBG_EDPCSR_HI);
		raw->cid1 = pcs_reg_read32(t, PCS_DBG_EDCIDSR);
		raw->cid2 = 0;
		raw->vid = pcs_reg_read32(t, PCS_DBG_EDVIDSR);
		return;
	}
	if (pd->atomic64) {
		u64 pcsr = pcs_reg_read64(t, PCS_PMU_PMPCSR_LO);

		raw->pcsr_lo = lower_32_bits(pcsr);
		raw->pcsr_hi = upper_32_bits(pcsr);
	} else {
		raw->pcsr_lo = pcs_reg_read32(t, PCS_PMU_PMPCSR_LO);
		raw->pcsr_hi = pcs_reg_read32(t, PCS_PMU_PMPCSR_HI);
	}
	raw->cid1 = pcs_reg_read32(t, PCS_PMU_PMCID1SR);
	raw->cid2 = pcs_reg_read32(t, PCS_PMU_PMCID2SR);
	raw->vid = pcs_reg_read32(t, PCS_PMU_PMVIDSR);
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
		edprsr = pcs_reg_read32(t, PCS_DBG_EDPRSR);
	if (pcs_access_check(powered, debug, edprsr) != PCS_ACCESS_READ) {
		t->not_readable++;
		return;
	}
	if (!pcs_frame_ok(pd, t))
		return;
	if (t->unlock_pending) {
		if (pcs_needs_unlock(pcs_reg_read32(t, PCS_LSR)))
			pcs_reg_write32(t, PCS_LAR, PCS_LAR_KEY);
		t->unlock_pending = false;
	}
	pcs_read_capture(pd, t, &raw);
	if (debug)
		v = pcs_decode_debug(&raw, t->pcsroffset, &pd->host, &t->filter, &s);
	else
		v = pcs_decode_pmu(&raw, &pd->host, &t->filter, &s);
	t->verdicts[v]++;
	if (v == PCS_OK)
		pcs_write_record(t, &s);
}

/* One pass over the targets; returns when the next one is due. */
u64 pcs_round(struct pcs_dev *pd)
{
	u64 next = U64_MAX, now = ktime_get_ns(), missed;
	unsigned long flags;
	int cpu;

	for_each_cpu(cpu, &pd->supported) {
		struct pcs_target *t = pd->targets[cpu];

		raw_spin_lock_irqsave(&t->lock, flags);
		/*
		 * Off the housekeeping CPU (it went offline and the thread
		 * was moved) this may be a sampled core: wait for it.
		 * Checked with interrupts off, so the thread stays put.
		 */
		if (smp_processor_id() != pd->hk_cpu) {
			raw_spin_unlock_irqrestore(&t->lock, flags);
			return now + PCS_IDLE_POLL_NS;
		}
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
