/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Inside a decode session (lib/session.c), which owns the perf.data
 * reader, its mapping, the state the records build and the order records
 * are delivered in.  Its decode queues are lib/aux_queue.c's (aux_queue.h).
 * Nothing here is public.
 */
#ifndef SPE_SESSION_INTERNAL_H
#define SPE_SESSION_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "aux_queue.h"
#include "spe_decode.h"
#include "spe_session.h"
#include "tid_map.h"

#define Q_MAX_CPUS	4096
#define Q_PIPE_MAX	(1ULL << 30)	/* largest AUXTRACE buffer from a pipe */
#define Q_PIPE_HOLD	(32ULL << 20)	/* pipe data held before decoding early */
/* Pipe input keeps AUXTRACE data in memory until it is decoded, as perf. */

/* A timed perf.data record kept for ordering (perf's ordered events). */
struct held_event {
	uint64_t time, seq;
	struct spe_perf_reader_event ev;	/* ev.header points to bytes */
	uint64_t *bytes;
};

struct spe_session {
	struct spe_session_config cfg;
	struct spe_perf_reader *r;
	int fd;
	const uint8_t *map;		/* whole file, read-only */
	size_t map_len;
	long page;

	struct aux_queues aq;		/* the decode queues */

	struct spe_time_conv tc;
	bool have_tc;
	struct spe_auxtrace_info info;
	uint64_t cpuid_midr;
	uint64_t *cpu_midr;		/* v2 metadata, per CPU; 0 = unknown */
	int32_t *cpu_tid;		/* from context switches, -1 */
	uint64_t *cpu_tid_time;		/* of the switch that set cpu_tid: perf
					 * time, UINT64_MAX without one, 0 none */
	bool ctx_seen;			/* CONTEXT packets drive pid/tid (as perf) */
	struct spe_tid_map threads;
	uint32_t meta_gen;		/* bumped when MIDRs change; starts at 1 */

	/* Timed records wait here until a round says they are in order. */
	struct held_event *held;
	size_t nr_held, cap_held;
	uint64_t next_flush, max_time;
	uint64_t seq;

	struct spe_session_stats st;
	bool data_queued;		/* all AUXTRACE queued from the index */
	uint64_t delivered;
	int stop;			/* a callback's non-zero return */
	int io_err;			/* reading AUX data failed: SPE_ERR_IO */
	char msg[320];
};

/* A record's thread came from a switch at perf time t (UINT64_MAX: not
 * known), or a switch taught a thread's process: noted for
 * spe_session_split_agrees(). */
static inline void spe_session_note_switch(struct spe_session *s, uint64_t t)
{
	s->st.switch_applied = true;
	if (t > s->st.last_switch_time)
		s->st.last_switch_time = t;
}

#endif /* SPE_SESSION_INTERNAL_H */
