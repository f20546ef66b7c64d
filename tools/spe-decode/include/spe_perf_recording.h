/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An arm_spe recording: what `perf record -e arm_spe_0//` writes around the
 * SPE data of an arm64 machine, for SPE data the caller already has (raw
 * Profiling Buffer contents, e.g. from the SPU model).  `spe-decode wrap`
 * and `spe-gen --perf-data` write their perf.data through it.
 *
 * What it writes, on a perf.data writer (spe_perf_data.h):
 *   - the machine: ARCH aarch64, CPUID (MIDR_EL1), NRCPUS and PMU_MAPPINGS
 *     (arm_spe_0) feature sections;
 *   - the attributes perf record creates: the arm_spe event and the dummy
 *     event that tracks comm, mmap, task and (per-CPU) context switches;
 *   - TIME_CONV, the ARM SPE AUXTRACE_INFO (version 1, or 2 with one
 *     MIDR_EL1 block per CPU), the side-band records asked for (COMM,
 *     MMAP2, SWITCH_CPU_WIDE) and a BUILD_ID feature section;
 *   - each buffer as perf record writes an AUX buffer: ITRACE_START, then
 *     per chunk an AUXTRACE record with the data, an AUX record and
 *     FINISHED_ROUND.
 *
 * Usage:
 *   spe_perf_recording_init(&rec);        wrap's defaults, then change fields
 *   spe_perf_recording_create(&w, fd, pipe, &rec);
 *   [spe_perf_writer_copy_features(w, other, skip);]
 *   spe_perf_recording_begin(w, &rec);
 *   spe_perf_recording_aux(w, &rec, cpu, ...);   once per buffer
 *   spe_perf_writer_finish(w);  spe_perf_writer_free(w);
 *
 * Every function returns 0 or a negative SPE_ERR_* code (SPE_ERR_INVAL for
 * a recording that cannot be written: see the fields), and a read
 * callback's own negative value unchanged.  A failure leaves the file
 * incomplete: the caller discards it.
 */
#ifndef SPE_PERF_RECORDING_H
#define SPE_PERF_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spe_perf_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An executable mapping, written as a PERF_RECORD_MMAP2. */
struct spe_perf_recording_mmap {
	uint64_t start, len, pgoff;
	const char *path;
	/* A kernel map (pid and tid -1, PERF_RECORD_MISC_KERNEL), as perf
	 * record writes "[kernel.kallsyms]_text" and each module's; else a
	 * map of the recording's thread. */
	bool kernel;
};

/* A file's build id, in the BUILD_ID feature section. */
struct spe_perf_recording_build_id {
	uint8_t id[20];
	uint32_t len;			/* 1..20 bytes */
	const char *path;
};

/* A context switch of one CPU to a thread (PERF_RECORD_SWITCH_CPU_WIDE,
 * switch out), with the CPU's dummy event. */
struct spe_perf_recording_switch {
	uint32_t cpu;			/* < nr_cpus; per-thread 0 */
	uint64_t time;			/* perf time */
	int32_t pid, tid;		/* the thread switched to */
};

struct spe_perf_recording {
	size_t size;			/* sizeof(struct spe_perf_recording) */
	uint32_t pmu_type;		/* dynamic PMU type of arm_spe_0 */
	uint64_t config;		/* the arm_spe event's config */
	uint64_t period;		/* its sample period, not 0 */
	uint64_t midr;			/* MIDR_EL1 of every CPU */
	uint32_t auxtrace_info_version;	/* 1 or 2 */
	uint32_t nr_cpus;		/* CPUs 0 .. nr_cpus - 1, 1..SPE_AUXINFO_MAX_CPUS */
	/* Per-thread: one AUX buffer, of the thread pid/tid, and no CPU in
	 * the samples; else one buffer per CPU, as perf record -a. */
	bool per_thread;
	int32_t pid, tid;		/* the profiled thread, -1 for none */
	const char *comm;		/* its COMM (exec) record; NULL: none */
	/* The CPU the COMM and MMAP2 records name: < nr_cpus (per-thread 0). */
	uint32_t sideband_cpu;
	struct spe_time_conv tc;
	uint64_t chunk;			/* bytes per AUXTRACE record; 0: a whole buffer */
	uint64_t aux_flags;		/* of every AUX record (PERF_AUX_FLAG_*) */
	const struct spe_perf_recording_mmap *mmaps;
	uint32_t nr_mmaps;
	const struct spe_perf_recording_switch *switches;
	uint32_t nr_switches;
	const struct spe_perf_recording_build_id *build_ids;
	uint32_t nr_build_ids;
};

/*
 * The defaults (those of spe-decode wrap): PMU type 8, config ts_enable |
 * pa_enable, period 4096, MIDR 0x413fd0c1 (Neoverse N1), AUXTRACE_INFO
 * version 1, one CPU, per-CPU, no thread (-1), TIME_CONV 0:1:0 in the long
 * form, nothing else.
 */
void spe_perf_recording_init(struct spe_perf_recording *rec);

/* A writer on @fd (perf's pipe format when @pipe) describing the machine
 * of @rec; free it with spe_perf_writer_free(). */
int spe_perf_recording_create(struct spe_perf_writer **out, int fd, bool pipe,
			      const struct spe_perf_recording *rec);

/* Build ids, attributes, TIME_CONV, AUXTRACE_INFO and side-band records:
 * everything before the first buffer.  Call once, after any
 * spe_perf_writer_copy_features(). */
int spe_perf_recording_begin(struct spe_perf_writer *w, const struct spe_perf_recording *rec);

/* Reads up to @n bytes of a buffer into @buf: returns how many (1..n), 0
 * when the data ends, or a negative error of the caller's. */
typedef long (*spe_perf_recording_read_fn)(void *ctx, void *buf, size_t n);

/*
 * One AUX buffer of @size bytes, of CPU @cpu (ignored per-thread), read
 * through @read.  Data that ends before @size bytes is SPE_ERR_TRUNCATED.
 */
int spe_perf_recording_aux(struct spe_perf_writer *w, const struct spe_perf_recording *rec,
			   uint32_t cpu, uint64_t size, spe_perf_recording_read_fn read,
			   void *ctx);

/* The same for a buffer in memory. */
int spe_perf_recording_aux_mem(struct spe_perf_writer *w, const struct spe_perf_recording *rec,
			       uint32_t cpu, const void *data, uint64_t size);

#ifdef __cplusplus
}
#endif

#endif /* SPE_PERF_RECORDING_H */
