/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf samples from SPE records (lib/sample_synth.c): the sample groups
 * and --itrace options of perf arm-spe.c.
 */
#ifndef SPE_SAMPLE_SYNTH_H
#define SPE_SAMPLE_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "spe_session.h"

/* perf's sample groups for SPE, in the order perf synthesises them. */
enum spe_sample_kind {
	SPE_S_L1D_MISS,
	SPE_S_L1D_ACCESS,
	SPE_S_LLC_MISS,
	SPE_S_LLC_ACCESS,
	SPE_S_TLB_MISS,
	SPE_S_TLB_ACCESS,
	SPE_S_BRANCH,			/* "branch" (newer perf) / "branch-miss" (6.1) */
	SPE_S_REMOTE_ACCESS,
	SPE_S_MEMORY,
	SPE_S_INSTRUCTIONS,
	SPE_S_NR
};

/*
 * The perf release whose sample synthesis script and inject follow where
 * releases differ: which records are memory operations (the 'M' group and
 * the data source of every sample of the record).  0 is the default.
 *   6.1   loads and stores; and Operation Type "other" records with the
 *         SVE bit, taken for loads (perf 6.1.y's decoder gives SVE "other"
 *         the op bit it tests for a load)
 *   6.12  loads and stores only (perf's fix e1d47850bbf7, in 6.12.y)
 *   7.3   loads and stores; "other" records of SVE, SME or Advanced SIMD
 *         (the subclass's ASE bit); and branches with a call or return
 *         hint (their op bits are those of SIMD/FP and SVE loads); all
 *         but loads and stores with data source operation N/A
 */
enum spe_perf_version {
	SPE_PERF_6_1,
	SPE_PERF_6_12,
	SPE_PERF_7_3,
};

/* "6.1", "6.12" or "7.3" -> the version; -1 for anything else. */
int spe_perf_version_parse(const char *s);

struct spe_itrace;
/*
 * Makes o follow perf version v: its memory operations; unless the caller
 * chose them (false), its branch samples (6.1 and 6.12: "branch-miss" of
 * mispredicted records; 7.3: "branch" of every branch) and its default
 * groups (7.3's default --itrace adds instructions, every record).
 */
void spe_itrace_for_perf(struct spe_itrace *o, enum spe_perf_version v,
			 bool default_groups, bool default_branches);

/* --itrace options: which groups, and the instruction period. */
struct spe_itrace {
	bool want[SPE_S_NR];
	uint64_t period;		/* instructions: every period-th record */
	bool last_branch;		/* 'l': two-entry branch stack */
	bool branch_miss;		/* perf 6.1: only mispredicted, "branch-miss" */
	enum spe_perf_version perf_version;	/* memory operations as this perf */
};

/* perf's default: every group but instructions (whose default period is in
 * time units, which SPE cannot use). */
void spe_itrace_default(struct spe_itrace *o);
/* Parses perf's --itrace letters (i b f m t a M l, plus e/d/p... accepted
 * and ignored) and an optional period "<n>[i]".  Returns 0 or SPE_ERR_INVAL with
 * a reason in *why. */
int spe_itrace_parse(const char *s, struct spe_itrace *o, const char **why);
/* The event name perf gives a group. */
const char *spe_sample_name(const struct spe_itrace *o, enum spe_sample_kind k);
/* A group by either spelling of its name ("branch" and "branch-miss"
 * both name SPE_S_BRANCH); -1 if none. */
int spe_sample_kind_by_name(const char *name);

/* Branch flags of a sample (a subset of perf's PERF_IP_FLAG_*). */
#define SPE_BRF_BRANCH		(1u << 0)
#define SPE_BRF_CONDITIONAL	(1u << 1)
#define SPE_BRF_CALL		(1u << 2)
#define SPE_BRF_RETURN		(1u << 3)
#define SPE_BRF_INDIRECT	(1u << 4)
#define SPE_BRF_MISPRED		(1u << 5)
#define SPE_BRF_NOT_TAKEN	(1u << 6)

struct spe_branch_entry {
	uint64_t from, to;
	bool mispred;
};

struct spe_sample {
	enum spe_sample_kind kind;
	uint64_t time;
	int32_t cpu, pid, tid;
	uint64_t ip;
	uint16_t cpumode;		/* PERF_RECORD_MISC_USER / _KERNEL / _HYPERVISOR */
	uint64_t addr, phys_addr, data_src;
	uint32_t weight;		/* total latency, as perf */
	uint16_t issue_lat, xlat_lat;	/* what perf drops */
	uint64_t period;
	uint32_t flags;			/* SPE_BRF_* */
	uint32_t nr_branches;
	struct spe_branch_entry branches[2];
	const struct spe_qrecord *qr;
};

/* Per-queue state of the synthesis (instruction period counters). */
struct spe_synth {
	struct spe_itrace opts;
	uint64_t *insn_count;		/* per queue */
	uint32_t nr_counts;
	/* Bit k: kind k is wanted.  A record's samples are the wanted bits
	 * of the kinds it has, taken lowest first, which is perf's order. */
	uint32_t want_mask;
	/* Instructions only, period 1: exactly one sample a record. */
	bool every_record;
};

int spe_synth_init(struct spe_synth *sy, const struct spe_itrace *opts);
void spe_synth_free(struct spe_synth *sy);
/* Calls emit for each sample perf would synthesise from qr, in perf's
 * order; stops at emit's first non-zero return and returns it. */
int spe_synth_record(struct spe_synth *sy, const struct spe_qrecord *qr,
		     int (*emit)(void *ctx, const struct spe_sample *s), void *ctx);

/*
 * Two fields every sample of a record has, for a caller that counts
 * records without making their samples: the cpumode perf gives its PC,
 * and the perf_mem_data_src of a load or store (0 for other records).
 */
static inline uint16_t spe_synth_cpumode(const struct spe_record *rec)
{
	/* perf compares the PC with the kernel start (top half on arm64). */
	if ((rec->present & SPE_REC_PC) && (rec->pc.addr >> 63))
		return PERF_RECORD_MISC_KERNEL;
	return PERF_RECORD_MISC_USER;
}

uint64_t spe_synth_data_src(const struct spe_qrecord *qr);

#endif /* SPE_SAMPLE_SYNTH_H */
