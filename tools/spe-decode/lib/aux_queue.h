/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Decode queues (lib/aux_queue.c): one per AUX buffer index, fed with the
 * AUXTRACE buffers of a perf.data and merged in SPE timestamp order.  They
 * know the file and the session's configuration, not the session: the
 * session (lib/session.c) queues buffers, walks the records older than a
 * perf time (aux_queues_next()), and gives each queue's record, as it is
 * handed out, its context (CPU, thread, data-source table) to deliver it.
 * Nothing here is public.
 */
#ifndef SPE_AUX_QUEUE_H
#define SPE_AUX_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "aux_window.h"
#include "decode_workers.h"
#include "perf_time_inline.h"
#include "queue_heap.h"
#include "spe_decode.h"
#include "spe_data_source.h"
#include "spe_session.h"

#define AQ_MAX_QUEUES	SPE_SESSION_MAX_QUEUES

struct q_buffer {
	uint8_t *mem;			/* pipe input: a copy of the data */
	uint64_t data_off;		/* file offset of the data */
	uint64_t size;
	uint64_t aux_off;		/* offset in the AUX area (stream offset) */
};

#define Q_PID_CACHE	8	/* a power of 2 */

/*
 * What the session keeps per queue about the records it delivered from it
 * (lib/session.c): the last CONTEXT, caches of the CPU's MIDR (until the
 * metadata changes) and of tid -> pid (until the thread map changes, a few
 * tids, direct-mapped: a CPU can go back and forth between threads every
 * few records), and the start of a cut's state.
 */
struct aux_queue_context {
	int32_t ctx_tid;		/* last CONTEXT seen, -1 */
	uint32_t meta_gen, pid_gen;
	uint64_t midr;
	enum spe_ds_table ds_table;
	struct { int32_t tid, pid; } pid_cache[Q_PID_CACHE];
	struct spe_session_cut_state cs;	/* records, first_ctx, first_limit */
};

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
	uint32_t index;			/* in the session's queues */
	/*
	 * A part of the queue only (cfg.cuts[cut], -1: all of it): seen
	 * counts the bytes of its AUXTRACE data met so far, cut_end is the
	 * AUX offset the part ends at inside a buffer (UINT64_MAX: at a
	 * buffer's end), last_end where the last complete record ended (a
	 * partial record after it starts there or later, so it can end at
	 * cut_end only when nothing follows it).
	 */
	int cut;
	uint64_t seen, cut_end, last_end;
	struct aux_queue_context ctx;	/* the session's */
};

struct aux_queues {
	/* Given by the session before the first buffer is queued. */
	const struct spe_session_config *cfg;	/* queue_set, cuts, threads */
	struct spe_session_stats *st;	/* records, errors, queues counted */
	int fd;				/* the file the windows read */
	const struct spe_time_conv *tc;	/* SPE -> perf time, NULL: none */

	struct aux_queue *q[AQ_MAX_QUEUES];
	uint32_t nr_q;
	struct spe_dw *dw;		/* decoding threads, NULL: decode here */
	struct spe_qheap_item heap[AQ_MAX_QUEUES];	/* by SPE timestamp */
	uint32_t heap_n;
	uint64_t pipe_held;		/* bytes of pipe data waiting in queues */
	int err;			/* the first read or memory error, which
					 * stops the queues; msg says it */
	char msg[256];
};

/* Is queue idx (< AQ_MAX_QUEUES) one this session decodes (cfg.queue_set)? */
static inline bool aux_queues_selected(const struct aux_queues *qs, uint32_t idx)
{
	return !qs->cfg->queue_set || (qs->cfg->queue_set[idx / 64] >> (idx % 64) & 1);
}

/*
 * Queue one AUXTRACE buffer, or the part of it the session decodes: in the
 * file at ev->aux_data_offset, or the copy mem (pipe input), which is the
 * queue's to free once this returns 0, the caller's on an error (qs->msg
 * says which).
 */
int aux_queue_add(struct aux_queues *qs, const struct spe_perf_reader_event *ev, uint8_t *mem);
/* Put queues that got data since they ran dry back in the running. */
void aux_queues_refill(struct aux_queues *qs);

/*
 * A walk over the queued records older than a perf time, in perf's order:
 * aux_queues_walk_begin(), then aux_queues_next() hands out the queue
 * whose record (q->recp) is next until it returns NULL (none is older, or
 * an error: qs->err), and aux_queues_walk_end() ends it, also early, when
 * the caller stops taking records.  An iterator rather than a callback:
 * the session gives each record its context in its own loop, with no call
 * through a pointer per record.
 */
struct aux_queues_walk {
	uint64_t t;			/* the SPE time records are older than */
	uint64_t limit;			/* stay on cur while older than this */
	struct aux_queue *cur;		/* handed out last, NULL: none */
};

void aux_queues_walk_begin(struct aux_queues *qs, struct aux_queues_walk *w, uint64_t t_perf);

/*
 * aux_queues_next() after the caller decoded w->cur's next record itself
 * (aux_queues_next_inline()): ret is what spe_decoder_next() returned, or
 * AQ_TOOK when that was a record aux_queue_took() took, or AQ_DECODE when
 * the caller did not decode (spe_decoder_next() returns neither).
 */
#define AQ_DECODE	2
#define AQ_TOOK		3
struct aux_queue *aux_queues_next_after(struct aux_queues *qs, struct aux_queues_walk *w, int ret);

/* rec, just decoded from q: q's place in time and the count of records. */
static inline void aux_queue_took(struct aux_queues *qs, struct aux_queue *q,
				  const struct spe_record *rec)
{
	q->last_end = rec->offset + rec->size;
	/* perf: a record's time is its own timestamp (0 without one); the
	 * queue's position is the newest seen. */
	q->rec_ts = (rec->present & SPE_REC_TIMESTAMP) ? rec->timestamp : 0;
	if (q->rec_ts > q->last_ts)
		q->last_ts = q->rec_ts;
	q->time = qs->tc ? spe_time_to_perf_inline(qs->tc, q->rec_ts) : q->rec_ts;
	q->has_rec = true;
	qs->st->records++;
}

static inline struct aux_queue *aux_queues_next(struct aux_queues *qs, struct aux_queues_walk *w)
{
	return aux_queues_next_after(qs, w, AQ_DECODE);
}

/*
 * aux_queues_next() with its commonest case inline, once per record: the
 * queue handed out last, decoded in this thread, gives its next record
 * from the buffer it is in, and that record is older than the next
 * queue's (w->limit), so the same queue is handed out again.  Anything
 * else goes on in aux_queues_next_after() from where this stopped.
 */
static inline struct aux_queue *aux_queues_next_inline(struct aux_queues *qs,
						       struct aux_queues_walk *w)
{
	struct aux_queue *q = w->cur;
	int ret;

	if (!q || qs->dw || !q->active)
		return aux_queues_next_after(qs, w, AQ_DECODE);
	ret = spe_decoder_next(&q->dec, &q->rec);
	if (ret != 1)
		return aux_queues_next_after(qs, w, ret);
	q->recp = &q->rec;
	aux_queue_took(qs, q, &q->rec);
	if (q->last_ts >= w->limit)
		return aux_queues_next_after(qs, w, AQ_TOOK);
	q->has_rec = false;	/* the caller's now */
	return q;
}
void aux_queues_walk_end(struct aux_queues *qs, struct aux_queues_walk *w);

/* Decode the queued buffers ahead with cfg.threads threads, if it can. */
void aux_queues_start_threads(struct aux_queues *qs);
/* Drop what the queues hold but have not decoded (a bad AUXTRACE index). */
void aux_queues_forget_pending(struct aux_queues *qs);
/* Fill cut[] (one per cfg.cuts) once every record was delivered. */
void aux_queues_cut_states(const struct aux_queues *qs, struct spe_session_cut_state *cut);
void aux_queues_free(struct aux_queues *qs);

#endif /* SPE_AUX_QUEUE_H */
