/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared state of the SPE perf PMU driver and the functions its files
 * offer each other.
 *
 *   spe_probe.c   platform driver, per-CPU discovery, IRQ setup, hotplug
 *   spe_sysfs.c   format/, caps/ and cpumask attributes
 *   spe_core.c    perf callbacks: event_init, add/del/start/stop/read
 *   spe_aux.c     the perf AUX buffer as the Profiling Buffer
 *   spe_irq.c     the PMBIRQ handler
 *   spe_unit.c    register sequences of one CPU's unit (spe_unit.h)
 *   spe_hw.c      hardware backend (spe_backend.h)
 * plus the portable logic shared with the host tests: spe_caps.c,
 * spe_format.c, spe_aux_window.c, spe_pmbsr.c.
 */
#ifndef SPE_PMU_H
#define SPE_PMU_H

#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>

#include "spe_backend.h"
#include "spe_caps.h"
#include "spe_format.h"

#define SPE_PMU_NAME		"arm_spe"
/*
 * The platform driver takes the module's name (arm_spe, or arm_spe_sim for
 * the simulated build), never the in-tree driver's arm_spe_pmu, so the log
 * and the check for a driver already owning the device name the build.
 */
#define SPE_DRV_NAME		KBUILD_MODNAME

struct spe_pmu {
	struct pmu pmu;
	struct platform_device *pdev;
	cpumask_t supported_cpus;	/* the PPI's partition */
	cpumask_t probed_cpus;		/* CPUs whose ID registers were checked */
	/*
	 * Checked, reset and with PMBIRQ enabled: set last by the hotplug
	 * startup callback and cleared first by its teardown, both on the
	 * CPU itself, so add() on that CPU sees a finished set-up or none.
	 * perf core may add a per-CPU event as soon as its own hotplug state
	 * is up, which comes before the driver's.
	 */
	cpumask_t ready_cpus;
	struct hlist_node hotplug_node;
	int irq;			/* PPI */
	int id;				/* the <n> of arm_spe_<n> */
	struct spe_caps caps;		/* intersection over probed_cpus */
	struct perf_output_handle __percpu *handle;
	struct spe_backend_pmu backend;	/* what the backend was told */
};

static inline struct spe_pmu *to_spe_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct spe_pmu, pmu);
}

/* The AUX buffer as the driver sees it (spe_aux.c). */
struct spe_aux_buf {
	u64 size;		/* bytes, any size including > 2 GiB */
	unsigned long nr_pages;
	bool snapshot;
	void *base;		/* contiguous kernel mapping of the pages */
};

/* spe_sysfs.c */
extern const struct attribute_group *spe_attr_groups[];
void spe_sysfs_init(void);

/* spe_core.c */
void spe_pmu_init_callbacks(struct spe_pmu *spe);

/* spe_aux.c */
void *spe_setup_aux(struct perf_event *event, void **pages, int nr_pages,
		    bool snapshot);
void spe_free_aux(void *aux);
int spe_aux_begin(struct perf_output_handle *handle,
		  struct perf_event *event);
u64 spe_aux_end(struct perf_output_handle *handle);

/* spe_irq.c */
irqreturn_t spe_irq_handler(int irq, void *dev);
bool spe_service_event(struct spe_pmu *spe, struct perf_output_handle *handle,
		       bool restart);

#endif /* SPE_PMU_H */
