/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the PC-sample PMU (pcsample_main.c) and its sampler
 * (pcsample_sampler.c) share: one target per sampled CPU, one device.
 */
#ifndef PCSAMPLE_H
#define PCSAMPLE_H

#include <linux/cpumask.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include "pcsample_decode.h"

enum pcs_frame_kind {
	PCS_FRAME_PMU,		/* FEAT_PCSRv8p2: the external PMU block */
	PCS_FRAME_DEBUG,	/* before Armv8.2: the external debug block */
};

/* The AUX buffer, mapped contiguously; its size is a power of two. */
struct pcs_aux_buf {
	u8 *base;
	unsigned long size;
	int nr_pages;
};

/*
 * One sampled CPU.  @lock orders the sampler (on the housekeeping CPU)
 * against this CPU's own perf callbacks and power notifications; all
 * fields below it are protected by it.
 */
struct pcs_target {
	int cpu;
	void __iomem *base;
	raw_spinlock_t lock;
	bool online;		/* between the hotplug online and offline callbacks */
	bool pm_off;		/* between CPU_PM_ENTER and CPU_PM_EXIT */
	bool unlock_pending;	/* check the Software Lock before the next read */
	bool frame_checked;	/* the ID register was read and accepted */
	bool frame_bad;		/* ... or refused: never read again */
	u32 pcsroffset;		/* debug block: EDDEVID1.PCSROffset */
	struct perf_event *event;	/* started, with an AUX handle */
	struct perf_output_handle handle;
	struct pcs_aux_buf *buf;
	unsigned long written;	/* bytes since perf_aux_output_begin() */
	bool truncated;
	struct pcs_filter filter;
	u64 interval_ns;
	u64 due_ns;
	u64 verdicts[PCS_NR_VERDICTS];
	u64 not_readable;	/* rounds skipped: powered down or locked */
	u64 missed;		/* periods the sampler was late for */
};

struct pcs_dev {
	struct pmu pmu;
	struct device *dev;
	enum pcs_frame_kind kind;
	bool atomic64;		/* arm,pcsr-64bit-atomic */
	struct pcs_host host;
	struct pcs_target **targets;	/* nr_cpu_ids entries, NULL if none */
	cpumask_t supported;		/* CPUs with a frame, but the housekeeper */
	int hk_cpu;
	struct task_struct *sampler;
	atomic_t nr_events;
	struct notifier_block cpu_pm_nb;
	int hp_state;
};

/* pcsample_pmu.c: the perf callbacks, run by perf core on the target CPU. */
void pcs_pmu_init(struct pcs_dev *pd);

/* With events open but none running, the sampler looks again this often. */
#define PCS_IDLE_POLL_NS	10000000ull

/* pcsample_round.c: one pass over the targets; returns when one is due. */
u64 pcs_round(struct pcs_dev *pd);

/*
 * pcsample_mmio.c: the register accesses of pcsample_round.c; the host
 * tests (drivers/perf/tests/test_pcsample_glue.c) put a model behind them.
 */
u32 pcs_reg_read32(struct pcs_target *t, u32 off);
u64 pcs_reg_read64(struct pcs_target *t, u32 off);
void pcs_reg_write32(struct pcs_target *t, u32 off, u32 val);

/* pcsample_sampler.c: the housekeeping thread, power tracking. */
int pcs_sampler_start(struct pcs_dev *pd);

/* pcsample_debugfs.c: the per-CPU counts, for troubleshooting. */
void pcs_debugfs_init(struct pcs_dev *pd);
void pcs_debugfs_exit(void);
void pcs_sampler_stop(struct pcs_dev *pd);
void pcs_sampler_kick(struct pcs_dev *pd);

#endif /* PCSAMPLE_H */
