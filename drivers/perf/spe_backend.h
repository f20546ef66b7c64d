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

#include <linux/types.h>

struct device;

/* The SPE system registers (DDI 0586A §4.1; DDI 0487). */
enum spe_sysreg {
	SPE_PMSCR,
	SPE_PMSNEVFR,
	SPE_PMSICR,
	SPE_PMSIRR,
	SPE_PMSFCR,
	SPE_PMSEVFR,
	SPE_PMSLATFR,
	SPE_PMSIDR,
	SPE_PMBLIMITR,
	SPE_PMBPTR,
	SPE_PMBSR,
	SPE_PMSDSFR,
	SPE_PMBIDR,
	SPE_NR_SYSREGS
};

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
 * Called when a PMU instance probes, once its PMBIRQ is known: check that
 * the profiling buffer can work under this kernel's memory setup (logging
 * the reason and returning an errno when it cannot), and learn the
 * interrupt (a simulated unit raises it itself).  Undone by
 * spe_backend_remove().
 */
int spe_backend_probe(struct device *dev, int irq);
void spe_backend_remove(struct device *dev);

/* Module-wide setup and teardown of the backend. */
int spe_backend_init(void);
void spe_backend_exit(void);

#endif /* SPE_BACKEND_H */
