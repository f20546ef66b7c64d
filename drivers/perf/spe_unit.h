/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The register sequences of one CPU's Statistical Profiling Unit: what
 * the perf callbacks, the PMBIRQ handler and the probe do to the unit,
 * each written once, in the order DDI 0586A §3.6 requires.  The layer
 * below is the backend (spe_backend.h); nothing here knows perf.
 */
#ifndef SPE_UNIT_H
#define SPE_UNIT_H

#include <linux/types.h>

struct spe_event_regs;

/*
 * Stop sampling and wait for everything already sampled to be in memory,
 * then switch the buffer off.
 */
void spe_unit_disable_and_drain(void);

/* Make the unit's own writes (records, PMBPTR, PMBSR) visible to reads. */
void spe_unit_sync(void);

/* Clear PMBSR: release PMBIRQ and, if the buffer is programmed, resume. */
void spe_unit_clear_status(void);

/* spe_unit_disable_and_drain() and a clear PMBSR: a known, quiet unit. */
void spe_unit_reset(void);

/*
 * Program the filters and the interval of @regs, the interval counter
 * from @icount, then PMSCR = @pmscr last: it is what lets operations be
 * sampled, so everything else must be in effect first.  @has_nevfr and
 * @has_fds say whether PMSNEVFR and PMSDSFR exist (UNDEFINED if not).
 */
void spe_unit_start(const struct spe_event_regs *regs, u64 pmscr, u64 icount,
		    bool has_nevfr, bool has_fds);

/* The interval counter (PMSICR_EL1) as the unit left it. */
u64 spe_unit_read_icount(void);

#endif /* SPE_UNIT_H */
