/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PC-sample recording as a perf.data file that stock perf report and
 * perf script read: one attribute (the arm_pcsample event as it was
 * opened, with the kernel's id of each CPU's event), the /proc snapshot
 * as synthesized COMM and MMAP2 records, then the kernel's side-band
 * records and one PERF_RECORD_SAMPLE per PC sample, in time order.
 *
 * Each sample carries IP, TID, TIME, CPU and PERIOD (the sampling
 * interval in ns, so perf report's event count reads as time, as with
 * cpu-clock).  The sampled thread comes from CONTEXTIDR_EL1 (the kernel
 * writes the thread's pid there with CONFIG_PID_IN_CONTEXTIDR); its
 * process is looked up in the snapshot and the side band.  Without it the
 * sample has pid and tid -1 and perf report cannot place user PCs.
 */
#ifndef PCSAMPLE_PERF_DATA_H
#define PCSAMPLE_PERF_DATA_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "pcsample/record.h"
#include "pcsample_sideband.h"

/* What the events record besides the samples: set on every event. */
#define PCS_SAMPLE_TYPE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

struct pcs_recording {
	struct perf_event_attr attr;	/* of every event; sample_type PCS_SAMPLE_TYPE */
	const char *pmu_name;		/* "arm_pcsample" */
	uint32_t nr_events;
	const uint64_t *ids;		/* PERF_EVENT_IOC_ID of each event */
	const uint32_t *cpus;		/* the CPU of each event */
	uint64_t period_ns;		/* the sampling interval */
	const struct pcs_record *samples;
	size_t nr_samples;
	const struct pcs_snapshot *snap;
	const struct pcs_events *sideband;	/* one per event, in the events' order */
};

/* Counts of what went into the file, for the tool to report. */
struct pcs_perf_data_stats {
	uint64_t samples;
	uint64_t unplaced;	/* samples without a thread (no CONTEXTIDR pid) */
	uint64_t sideband;	/* kernel records copied */
	uint64_t lost;		/* side-band records the kernel dropped */
};

/*
 * Writes @rec to @path through a temporary file renamed on success; an
 * existing @path is replaced only then.  Returns 0, or -1 with @err
 * saying what failed.
 */
int pcs_perf_data_write(const char *path, const struct pcs_recording *rec,
			struct pcs_perf_data_stats *stats, char *err, size_t err_len);

#endif /* PCSAMPLE_PERF_DATA_H */
