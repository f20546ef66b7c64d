/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seam between the SPE driver logic and the unit it drives.
 *
 * Every access the driver makes to SPE goes through these functions.  The
 * hardware backend (spe_hw.c) turns them into MRS/MSR, PSB CSYNC, ISB and
 * DSB; a simulated backend provides the same functions over a software
 * model of the Statistical Profiling Unit and is linked instead of
 * spe_hw.c into a differently named module.  Nothing else changes.
 */
#ifndef SPE_BACKEND_H
#define SPE_BACKEND_H

#include <linux/interrupt.h>
#include <linux/types.h>

#include "spe/regs.h"

struct cpumask;
struct device;

/*
 * The registers are enum spe_sysreg of spe/regs.h: the driver reads and
 * writes those of kind RW and RO there; naming any other is a bug the
 * backends warn about.
 */

/* Name of the backend, for log messages ("hardware", "simulated"). */
const char *spe_backend_name(void);

/* Read or write an SPE register of the calling CPU. */
u64 spe_read(enum spe_sysreg reg);
void spe_write(enum spe_sysreg reg, u64 val);

/* Barriers the programming sequences need (DDI 0586A §3.6). */
void spe_psb_csync(void);	/* PSB CSYNC: drain profiling operations */
void spe_isb(void);		/* context synchronisation */
void spe_dsb_nsh(void);		/* complete buffer writes, non-shareable */

/* ID_AA64DFR0_EL1 of the calling CPU: PMSVer says if the rest exists. */
u64 spe_read_dfr0(void);

/*
 * What a backend learns of a PMU instance: everything it needs, so that no
 * backend reaches into the driver's own state (spe_pmu.h).
 */
struct spe_backend_pmu {
	struct device *dev;		/* for log messages */
	const struct cpumask *cpus;	/* the CPUs the instance serves */
	int irq;			/* PMBIRQ, a per-CPU interrupt */
	irq_handler_t handler;		/* the driver's PMBIRQ handler */
	void __percpu *dev_id;		/* and its per-CPU argument */
};

/*
 * Called when a PMU instance probes, once its PMBIRQ is known: check that
 * the profiling buffer can work under this kernel's memory setup (logging
 * the reason and returning an errno when it cannot), and learn the
 * interrupt (a simulated unit raises it itself, calling @handler as the
 * interrupt controller would).  @pmu stays valid until
 * spe_backend_remove(@pmu) undoes this.
 */
int spe_backend_probe(const struct spe_backend_pmu *pmu);
void spe_backend_remove(const struct spe_backend_pmu *pmu);

/* Module-wide setup and teardown of the backend. */
int spe_backend_init(void);
void spe_backend_exit(void);

#endif /* SPE_BACKEND_H */
