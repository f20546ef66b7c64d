/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Inside a decode session: the session (lib/session.c), which owns the
 * perf.data reader, its mapping and the order records are delivered in,
 * and its decode queues (lib/aux_queue.c), one per AUX buffer index.  Both
 * files work on struct spe_session; nothing here is public.
 */
#ifndef SPE_SESSION_INTERNAL_H
#define SPE_SESSION_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "aux_window.h"
#include "decode_workers.h"
#include "queue_heap.h"
#include "spe_decode.h"
#include "spe_data_source.h"
#include "spe_session.h"
#include "tid_map.h"

#define Q_MAX_QUEUES	SPE_SESSION_MAX_QUEUES
#define Q_MAX_CPUS	4096
#define Q_PIPE_MAX	(1ULL << 30)	/* largest AUXTRACE buffer from a pipe */
#define Q_PIPE_HOLD	(32ULL << 20)	/* pipe data held before decoding early */
/* Pipe input keeps AUXTRACE data in memory until it is decoded, as perf. */

struct q_buffer {
	uint8_t *mem;			/* pipe input: a copy of the data */
	uint64_t data_off;		/* file offset of the data */
	uint64_t size;
	uint64_t aux_off;		/* offset in the AUX area (stream offset) */
};

#define Q_PID_CACHE	8	/* a power of 2 */

struct aux_queue {
	struct q_buffer *bufs;		/* FIFO of buffers not yet decoded */
	uint32_t head, count, cap;
	bool active;			/* dec holds a buffer */
	struct spe_decoder dec;
	uint64_t cur_data_off, cur_aux_off;	/* of the buffer in dec */
	uint8_t *cur_mem;		/* pipe input: the copy dec reads */
	uint64_t cur_mem_size;
	struct aux_window win;		/* file input: what dec reads */
	struct spe_record rec;		/* next record, when has_rec */
	const struct spe_record *recp;	/* where it is: &rec, or a decoding
					 * thread's item */
	bool has_rec, on_heap;
	uint64_t time;			/* perf time of rec */
	uint64_t last_ts;		/* newest SPE timestamp seen: heap key */
	uint64_t rec_ts;		/* rec's own SPE timestamp, 0 if none */
	int32_t cpu, tid;		/* from the AUXTRACE records */
	int32_t ctx_tid;		/* last CONTEXT seen, -1 */
	/*
	 * Caches: the CPU's table (until metadata changes); tid -> pid
	 * (until the thread map changes), a few tids, direct-mapped: a CPU
	 * can go back and forth between threads every few records.
	 */
	uint32_t meta_gen, pid_gen;
	uint64_t midr;
	enum spe_ds_table ds_table;
	struct { int32_t tid, pid; } pid_cache[Q_PID_CACHE];
	uint32_t index;			/* in the session's queues */
	/*
	 * A part of the queue only (cfg.cuts[cut], -1: all of it): seen
	 * counts the bytes of its AUXTRACE data met so far, cut_end is the
	 * AUX offset the part ends at inside a buffer (UINT64_MAX: at a
	 * buffer's end), last_end where the last complete record ended (a
	 * partial record after it starts there or later, so it can end at
	 * cut_end only when nothing follows it), cs what the stats report.
	 */
	int cut;
	uint64_t seen, cut_end, last_end;
	struct spe_session_cut_state cs;
};

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

	struct aux_queue *q[Q_MAX_QUEUES];
	uint32_t nr_q;
	struct spe_dw *dw;		/* decoding threads, NULL: decode here */
	struct spe_qheap_item heap[Q_MAX_QUEUES];	/* by SPE timestamp */
	uint32_t heap_n;

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
	uint64_t pipe_held;		/* bytes of pipe data waiting in queues */
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

/* ---- The queues (lib/aux_queue.c) ------------------------------------------ */

/* Is queue idx (< Q_MAX_QUEUES) one this session decodes (cfg.queue_set)? */
static inline bool aux_queue_selected(const struct spe_session *s, uint32_t idx)
{
	return !s->cfg.queue_set || (s->cfg.queue_set[idx / 64] >> (idx % 64) & 1);
}

/* Queue one AUXTRACE buffer, or the part of it the session decodes: in the
 * file at ev->aux_data_offset, or the copy mem (pipe input), which is the
 * queue's to free once this returns 0, the caller's on an error. */
int aux_queue_add(struct spe_session *s, const struct spe_perf_reader_event *ev, uint8_t *mem);
/* Pipe input: read an AUXTRACE record's data from the reader and queue it. */
int aux_queue_pipe_buffer(struct spe_session *s, const struct spe_perf_reader_event *ev);
/* Put queues that got data since they ran dry back in the running. */
void aux_queues_refill(struct spe_session *s);
/* Deliver every queued record older than perf time t_perf; s->stop. */
int aux_queues_process(struct spe_session *s, uint64_t t_perf);
/* Decode the queued buffers ahead with cfg.threads threads, if it can. */
void aux_queues_start_threads(struct spe_session *s);
void aux_queues_forget_pending(struct spe_session *s);
/* Fill s->st.cut[] once every record was delivered. */
void aux_queues_cut_states(struct spe_session *s);
/* Stop the session: the file could not be read at file_off. */
void aux_queue_read_failed(struct spe_session *s, uint64_t file_off, int errnum);
void aux_queues_free(struct spe_session *s);

#endif /* SPE_SESSION_INTERNAL_H */
