/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events of one pcsample-record recording: one arm_pcsample event per
 * CPU (pid -1), opened, enabled and disabled through libperf (the kernel's
 * tools/lib/perf), each with its ring buffer (libperf's perf_evlist__mmap)
 * for the side band and its AUX buffer (mapped here: libperf has no AUX
 * API) for the samples.
 *
 * libperf's types stay inside pcsample_session.c, the only file built
 * with libperf's headers.
 */
#ifndef PCSAMPLE_SESSION_H
#define PCSAMPLE_SESSION_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "pcsample_sideband.h"

struct perf_evlist;
struct perf_evsel;
struct perf_mmap;
struct perf_thread_map;

struct pcs_cpu_event {
	int cpu;
	uint64_t id;		/* PERF_EVENT_IOC_ID */
	const struct perf_event_mmap_page *user_page;	/* of the ring: aux_head, aux_tail */
	const uint8_t *aux;
	size_t aux_size;
	struct pcs_events sideband;	/* the ring's records, drained so far */
	struct perf_mmap *ring;		/* libperf's */
};

struct pcs_session {
	struct pcs_cpu_event *ev;	/* in the order of the CPUs given */
	int nr;
	struct perf_evlist *evlist;
	struct perf_evsel *evsel;
	struct perf_thread_map *threads;
};

/*
 * Opens @attr (disabled) on each of the @nr CPUs @cpus (no CPU twice),
 * maps a ring of @ring_pages data pages and an AUX buffer of @aux_pages
 * pages (both powers of two) for each.  Returns 0, or -1 with @err naming
 * the CPU and the problem; pcs_session_close() is due either way.
 */
int pcs_session_open(struct pcs_session *s, const struct perf_event_attr *attr,
		     const int *cpus, int nr, int ring_pages, size_t aux_pages,
		     char *err, size_t errlen);

void pcs_session_enable(struct pcs_session *s);
/* Stops the events: the driver then publishes their last records. */
void pcs_session_disable(struct pcs_session *s);

/*
 * Appends the records the ring of event @i holds to its sideband and
 * frees their space for the kernel.  Returns 0, or -1 with @err (out of
 * memory, or a record the ring cannot hold).
 */
int pcs_session_drain(struct pcs_session *s, int i, char *err, size_t errlen);

void pcs_session_close(struct pcs_session *s);

#endif /* PCSAMPLE_SESSION_H */
