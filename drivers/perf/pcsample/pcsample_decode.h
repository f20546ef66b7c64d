/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PC-sample driver's pure logic: register values in, decisions out.
 * Portable: compiled unchanged by the host unit tests (drivers/perf/tests).
 */
#ifndef PCSAMPLE_DECODE_H
#define PCSAMPLE_DECODE_H

#include <linux/types.h>

#include "pcsample/record.h"

/* One capture: the sample registers of a target CPU, in reading order. */
struct pcs_raw {
	u32 pcsr_lo;	/* PMPCSR[31:0] or EDPCSRlo: read first */
	u32 pcsr_hi;	/* PMPCSR[63:32] or EDPCSRhi */
	u32 cid1;	/* PMCID1SR or EDCIDSR */
	u32 cid2;	/* PMCID2SR (PMU block only) */
	u32 vid;	/* PMVIDSR or EDVIDSR */
};

/* What the running kernel is, for telling kernel from guest or hypervisor. */
struct pcs_host {
	u8 kernel_el;		/* 1, or 2 when the kernel runs at EL2 (VHE) */
	bool pid_in_contextidr;	/* CONFIG_PID_IN_CONTEXTIDR */
};

/* The perf event's exclusions (perf_event_attr.exclude_*). */
struct pcs_filter {
	bool exclude_user;
	bool exclude_kernel;
	bool exclude_hv;
	bool exclude_guest;
};

/* Why a capture gives no sample; every reason is counted by the driver. */
enum pcs_verdict {
	PCS_OK,
	PCS_NONE,	/* 0xFFFFFFFF: Debug state, or sampling prohibited */
	PCS_SECURE,	/* not Non-secure: never disclosed to a Non-secure OS */
	PCS_EL3,	/* firmware: never disclosed */
	PCS_EXCLUDED,	/* the event excludes this mode */
	PCS_AARCH32,	/* an AArch32 sample the frame cannot place */
	PCS_NR_VERDICTS,
};

enum pcs_verdict pcs_decode_pmu(const struct pcs_raw *raw,
				const struct pcs_host *host,
				const struct pcs_filter *filter,
				struct pcs_sample *out);
enum pcs_verdict pcs_decode_debug(const struct pcs_raw *raw, u32 pcsroffset,
				  const struct pcs_host *host,
				  const struct pcs_filter *filter,
				  struct pcs_sample *out);
enum pcs_mode pcs_mode_of(u8 el, const struct pcs_host *host);
bool pcs_mode_excluded(enum pcs_mode mode, const struct pcs_filter *filter);
const char *pcs_verdict_name(enum pcs_verdict v);

/* May the sample registers be read now, and what first? */
enum pcs_access {
	PCS_ACCESS_READ,
	PCS_ACCESS_POWERED_DOWN,	/* Core power domain off: error response */
	PCS_ACCESS_OS_LOCKED,		/* OSLockStatus(): error response */
	PCS_ACCESS_DOUBLE_LOCKED,	/* DoubleLockStatus(): error response */
};

enum pcs_access pcs_access_check(bool kernel_says_powered, bool have_edprsr,
				 u32 edprsr);
bool pcs_needs_unlock(u32 lsr);

/*
 * Does a frame's ID register promise the sample registers?  NULL if so,
 * else the reason, for the probe's error message.
 */
const char *pcs_check_pmu_frame(u32 pmdevid);
const char *pcs_check_debug_frame(u32 eddevid, u32 eddevid1);
/* EDDEVID1.PCSROffset, for pcs_decode_debug(). */
u32 pcs_pcsroffset(u32 eddevid1);

/* Sampling interval bounds: 10 us (100 kHz) to 1 s. */
#define PCS_MIN_INTERVAL_NS	10000ull
#define PCS_MAX_INTERVAL_NS	1000000000ull

/*
 * perf_event_attr's period (nanoseconds) or frequency (Hz) to an interval.
 * Returns NULL with *ns set, or the reason it is refused.
 */
const char *pcs_interval_ns(bool freq, u64 value, u64 *ns);

/*
 * The next due time after @now for a timer of @interval that was due at
 * @due: whole periods missed are skipped, not caught up (a late housekeeper
 * must not burst-read a core); *missed counts them.
 */
u64 pcs_next_due(u64 due, u64 interval, u64 now, u64 *missed);

#endif /* PCSAMPLE_DECODE_H */
