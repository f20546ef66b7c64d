/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding a Profiling Buffer management event (PMBSR_EL1) into what the
 * driver must do and which PERF_AUX_FLAG_* the AUX record gets.
 *
 * Portable.
 */
#ifndef SPE_PMBSR_H
#define SPE_PMBSR_H

#include <linux/types.h>

/* Values of the perf ABI's PERF_AUX_FLAG_* (uapi/linux/perf_event.h). */
#define SPE_AUX_FLAG_TRUNCATED	0x01u
#define SPE_AUX_FLAG_PARTIAL	0x04u
#define SPE_AUX_FLAG_COLLISION	0x08u

enum spe_pmbsr_action {
	SPE_PMBSR_SPURIOUS,	/* S = 0: nothing to service */
	SPE_PMBSR_RESTART,	/* data is sane: end the record, start anew */
	SPE_PMBSR_STOP,		/* fault: end truncated, leave disabled */
};

struct spe_pmbsr_info {
	enum spe_pmbsr_action action;
	u32 aux_flags;		/* SPE_AUX_FLAG_* */
	const char *cause;	/* human-readable, static string */
	u32 ec;			/* PMBSR.EC */
	u32 mss;		/* PMBSR.MSS (BSC or FSC) */
	u32 level;		/* translation level for level-coded FSCs */
	bool has_level;
};

void spe_pmbsr_decode(u64 pmbsr, struct spe_pmbsr_info *info);

#endif /* SPE_PMBSR_H */
