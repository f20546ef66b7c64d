// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Decode queues: one per AUX buffer index (per CPU, or per thread), fed by
 * the AUXTRACE records of a perf.data, merged in timestamp order
 * (perf.data-file-format.txt, perf arm-spe.c).  The algorithm is perf's:
 * before a timed perf.data record is handled, every queued SPE record older
 * than it is delivered, so context switches and mappings apply to the
 * records they should.  The session (lib/session.c) decides when, walks
 * them (aux_queues_next()) and gives each record its context: the queues
 * know the file and the configuration, not the session (aux_queue.h).
 *
 * AUXTRACE data stays in the file: each queue reads its buffer through a
 * window (lib/aux_window.c), so memory is bounded by the number of queues,
 * not by the file.  Pipe input was copied whole.  Each AUXTRACE buffer is
 * decoded on its own: a record is never stitched across buffers, hence
 * never across a truncation (AUX flags are counted and reported).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aux_queue.h"
#include "perf_time_inline.h"
#include "spe_perf_time.h"

/* ---- Heap of queues by the time of their next record ------------------------ */

/* Inline: a queue merged with others goes back in and comes out about
 * once per record it gives. */
static inline __attribute__((always_inline)) void heap_push(struct aux_queues *qs, uint32_t qi, uint64_t ord)
{
	spe_qheap_push(qs->heap, &qs->heap_n, qi, ord);
	qs->q[qi]->on_heap = true;
}

static inline __attribute__((always_inline)) void heap_pop(struct aux_queues *qs)
{
	qs->q[qs->heap[0].qi]->on_heap = false;
	spe_qheap_pop(qs->heap, &qs->heap_n);
}

/* ---- Queues ------------------------------------------------------------------ */

static void q_note_error(struct aux_queues *qs, uint64_t off)
{
	if (!qs->st->decode_errors++)
		qs->st->first_decode_error_offset = off;
}

/*
 * The file could not be read where a queue's data is: the queues stop
 * with an error naming the offset; what was delivered before stays so.
 */
static void q_read_failed(struct aux_queues *qs, uint64_t file_off, int errnum)
{
	if (qs->err)
		return;
	qs->err = SPE_ERR_IO;
	snprintf(qs->msg, sizeof(qs->msg), "reading AUX data at file offset %#llx: %s",
		 (unsigned long long)file_off, strerror(errnum ? errnum : EIO));
}

/* Starts decoding buffer b of q: from its copy (pipe input) or the file. */
static bool q_begin(struct aux_queues *qs, struct aux_queue *q, const struct q_buffer *b)
{
	q->cur_data_off = b->data_off;
	q->cur_aux_off = b->aux_off;
	q->cur_mem = b->mem;
	q->cur_mem_size = b->mem ? b->size : 0;
	if (b->mem) {
		spe_decoder_init(&q->dec, NULL, b->mem, (size_t)b->size, b->aux_off);
		return true;
	}
	if (!q->win.mem && aux_window_init(&q->win, qs->fd, aux_window_size(qs->nr_q))) {
		if (!qs->err) {
			snprintf(qs->msg, sizeof(qs->msg), "out of memory for a queue's read window");
			qs->err = SPE_ERR_NOMEM;
		}
		return false;
	}
	if (aux_window_begin(&q->win, &q->dec, b->data_off, b->size, b->aux_off)) {
		q_read_failed(qs, aux_window_file_offset(&q->win), q->win.err);
		return false;
	}
	return true;
}

/* q_advance() with the decoding done by threads: the same records and the
 * same bookkeeping, in the same order (lib/decode_workers.c). */
static bool q_advance_threaded(struct aux_queues *qs, struct aux_queue *q)
{
	const struct spe_dw_item *it;

	while ((it = spe_dw_next(qs->dw, q->index))) {
		if (it->kind == SPE_DW_READ_FAILED) {
			q_read_failed(qs, it->error_file_off, it->read_errno);
			return false;
		}
		if (it->kind == SPE_DW_PARTIAL) {
			qs->st->partial_records++;
			if (it->rec.end == SPE_REC_END_ERROR)
				q_note_error(qs, it->error_file_off);
			continue;
		}
		q->recp = &it->rec;	/* valid until the queue's next item */
		q->cur_data_off = it->data_off;
		q->cur_aux_off = it->aux_off;
		aux_queue_took(qs, q, &it->rec);
		return true;
	}
	return false;
}

/*
 * Decode q's next complete record into q->rec; false when q is empty.
 * ret: what q's decoder returned last, when the caller called it
 * (aux_queues_next_inline()), AQ_DECODE when it did not, AQ_TOOK when
 * that was a record, already taken.  Inline: once per record, in
 * aux_queues_next_after() above all.
 */
static inline __attribute__((always_inline)) bool q_advance_from(struct aux_queues *qs,
								  struct aux_queue *q, int ret)
{
	if (ret == AQ_TOOK)
		return true;
	if (qs->dw)
		return q_advance_threaded(qs, q);
	for (;; ret = AQ_DECODE) {
		if (ret == AQ_DECODE && !q->active) {
			struct q_buffer *b;

			if (!q->count)
				return false;
			b = &q->bufs[q->head];
			q->head = (q->head + 1) % q->cap;
			q->count--;
			if (!q_begin(qs, q, b))
				return false;
			q->active = true;
		}
		if (ret == AQ_DECODE)
			ret = spe_decoder_next(&q->dec, &q->rec);
		if (ret == SPE_ERR_MORE) {
			if (aux_window_advance(&q->win, &q->dec)) {
				q_read_failed(qs, aux_window_file_offset(&q->win), q->win.err);
				return false;
			}
			continue;
		}
		q->recp = &q->rec;
		if (ret == 1) {
			aux_queue_took(qs, q, &q->rec);
			return true;
		}
		if (ret == 0) {
			free(q->cur_mem);
			qs->pipe_held -= q->cur_mem_size;
			q->cur_mem = NULL;
			q->active = false;
			continue;
		}
		/* A partial record: counted, never sampled or stitched. */
		qs->st->partial_records++;
		if (q->rec.end == SPE_REC_END_ERROR)
			q_note_error(qs, q->cur_data_off +
				     (spe_decoder_error_offset(&q->dec) - q->cur_aux_off));
	}
}

/*
 * The records older than perf time t are handed out in perf's order (its
 * algorithm, in the SPE timestamp domain as perf compares): the queue of
 * the oldest, which then stays out of the heap while its records are older
 * than the next queue's (w->limit), and goes back in when it is not.
 */
void aux_queues_walk_begin(struct aux_queues *qs, struct aux_queues_walk *w, uint64_t t_perf)
{
	w->t = t_perf == UINT64_MAX ? UINT64_MAX :
	       (qs->tc ? spe_perf_to_time(qs->tc, t_perf) : t_perf);
	w->limit = 0;
	w->cur = NULL;
}

static inline bool q_advance(struct aux_queues *qs, struct aux_queue *q)
{
	return q_advance_from(qs, q, AQ_DECODE);
}

/* The queue handed out last moves on to its next record (ret: as for
 * q_advance_from()); back on the heap if that is not older than w->limit. */
static struct aux_queue *walk_stay(struct aux_queues *qs, struct aux_queues_walk *w, int ret)
{
	struct aux_queue *q = w->cur;

	w->cur = NULL;
	if (!q_advance_from(qs, q, ret))
		return NULL;
	if (q->last_ts >= w->limit) {
		heap_push(qs, q->index, q->last_ts);
		return NULL;
	}
	return q;
}

struct aux_queue *aux_queues_next_after(struct aux_queues *qs, struct aux_queues_walk *w, int ret)
{
	struct aux_queue *q = w->cur ? walk_stay(qs, w, ret) : NULL;

	if (!q) {
		if (!qs->heap_n || qs->err || qs->heap[0].ord >= w->t)
			return NULL;
		q = qs->q[qs->heap[0].qi];
		heap_pop(qs);
		w->limit = w->t;
		if (qs->heap_n && qs->heap[0].ord + 1 < w->limit)
			w->limit = qs->heap[0].ord + 1;
	}
	q->has_rec = false;	/* the caller's now */
	w->cur = q;
	return q;
}

/* A walk the caller stopped: the queue it stopped at keeps its place. */
void aux_queues_walk_end(struct aux_queues *qs, struct aux_queues_walk *w)
{
	struct aux_queue *q = w->cur;

	w->cur = NULL;
	if (q && q_advance(qs, q))
		heap_push(qs, q->index, q->last_ts);
}

/* Queues that got data since they ran dry go back on the heap. */
void aux_queues_refill(struct aux_queues *qs)
{
	for (uint32_t i = 0; i < qs->nr_q; i++) {
		struct aux_queue *q = qs->q[i];

		if (q && !q->on_heap && !q->has_rec && q_advance(qs, q))
			heap_push(qs, i, q->last_ts);
	}
}

/* Which of cfg.cuts is queue idx's part, -1: none, the whole queue. */
static int q_cut_of(const struct aux_queues *qs, uint32_t idx)
{
	for (unsigned i = 0; i < qs->cfg->nr_cuts; i++)
		if (qs->cfg->cuts[i].queue == idx)
			return (int)i;
	return -1;
}

/*
 * Keep of a buffer of q what its cut holds: *b trimmed to it (a pipe's
 * copy moved to the front, so that it is still freed by its address).
 * Returns false when it holds none of it.
 */
static bool q_cut_buffer(struct aux_queue *q, const struct spe_session_cut *c, struct q_buffer *b)
{
	uint64_t pos = q->seen, end = pos + b->size;
	uint64_t lo = pos > c->from ? pos : c->from, hi = end < c->to ? end : c->to;

	q->seen = end;
	if (lo >= hi)
		return false;
	if (b->mem && lo > pos)
		memmove(b->mem, b->mem + (lo - pos), (size_t)(hi - lo));
	b->data_off += lo - pos;
	b->aux_off += lo - pos;
	b->size = hi - lo;
	if (hi < end)
		q->cut_end = b->aux_off + b->size;
	return true;
}

void aux_queues_cut_states(const struct aux_queues *qs, struct spe_session_cut_state *cut)
{
	for (unsigned i = 0; i < qs->cfg->nr_cuts; i++) {
		const struct aux_queue *q = qs->q[qs->cfg->cuts[i].queue];
		struct spe_session_cut_state *cs = &cut[i];

		if (!q) {
			*cs = (struct spe_session_cut_state){ .clean_end = true,
							      .last_ctx_tid = -1 };
			continue;
		}
		*cs = q->ctx.cs;
		cs->clean_end = q->cut_end == UINT64_MAX || q->last_end == q->cut_end;
		cs->last_ctx_tid = q->ctx.ctx_tid;
		cs->last_ts = q->last_ts;
	}
}

int aux_queue_add(struct aux_queues *qs, const struct spe_perf_reader_event *ev, uint8_t *mem)
{
	const struct spe_perf_auxtrace_event *a = (const void *)ev->header;
	struct q_buffer b = {
		.mem = mem, .data_off = ev->aux_data_offset, .size = ev->aux_data_size,
		.aux_off = a->offset,
	};
	struct aux_queue *q;
	uint32_t idx = a->idx;

	if (idx >= AQ_MAX_QUEUES) {
		snprintf(qs->msg, sizeof(qs->msg), "offset %#llx: AUXTRACE idx %u out of range",
			 (unsigned long long)ev->offset, idx);
		return SPE_ERR_UNSUPPORTED;
	}
	if (!aux_queues_selected(qs, idx)) {
		free(mem);	/* another session's */
		return 0;
	}
	q = qs->q[idx];
	if (!q) {
		q = calloc(1, sizeof(*q));
		if (!q)
			return SPE_ERR_NOMEM;
		q->ctx.ctx_tid = -1;
		q->index = idx;
		/* As perf: a queue's CPU and thread are those of its first
		 * buffer; a later buffer naming others changes neither. */
		q->cpu = (int32_t)a->cpu;
		q->tid = (int32_t)a->tid;
		q->cut = q_cut_of(qs, idx);
		q->cut_end = UINT64_MAX;
		qs->q[idx] = q;
		if (idx >= qs->nr_q)
			qs->nr_q = idx + 1;
		/* A queue shared by sessions is counted by the first part's. */
		if (q->cut < 0 || !qs->cfg->cuts[q->cut].from)
			qs->st->nr_queues++;
	}
	if (q->cut >= 0 && !q_cut_buffer(q, &qs->cfg->cuts[q->cut], &b)) {
		free(mem);
		return 0;
	}
	if (q->count == q->cap) {
		uint32_t ncap = q->cap ? q->cap * 2 : 8;
		struct q_buffer *nb = malloc(ncap * sizeof(*nb));

		if (!nb)
			return SPE_ERR_NOMEM;
		for (uint32_t i = 0; i < q->count; i++)
			nb[i] = q->bufs[(q->head + i) % q->cap];
		free(q->bufs);
		q->bufs = nb;
		q->head = 0;
		q->cap = ncap;
	}
	q->bufs[(q->head + q->count) % q->cap] = b;
	q->count++;
	if (mem)
		qs->pipe_held += b.size;
	return 0;
}

/*
 * With every buffer queued up front, the queues can be decoded ahead by
 * threads (cfg.threads > 1): cfg.threads - 1 workers, since this thread,
 * which merges, decodes too whenever they are behind (one more would only
 * take turns on the cores with it).  Without memory for them, decoding
 * stays here.
 */
void aux_queues_start_threads(struct aux_queues *qs)
{
	const struct spe_dw_buf **bufs = calloc(qs->nr_q ? qs->nr_q : 1, sizeof(*bufs));
	struct spe_dw_buf *all;
	uint32_t *nbufs = calloc(qs->nr_q ? qs->nr_q : 1, sizeof(*nbufs));
	size_t total = 0, k = 0;
	unsigned busy = 0, workers = qs->cfg->threads - 1;

	for (uint32_t i = 0; i < qs->nr_q; i++) {
		total += qs->q[i] ? qs->q[i]->count : 0;
		busy += qs->q[i] && qs->q[i]->count;
	}
	/* A queue is decoded by one thread at a time: more workers than
	 * queues with data would only poll. */
	if (workers > busy)
		workers = busy;
	all = malloc((total ? total : 1) * sizeof(*all));
	if (bufs && nbufs && all) {
		for (uint32_t i = 0; i < qs->nr_q; i++) {
			struct aux_queue *q = qs->q[i];

			bufs[i] = all + k;
			for (uint32_t j = 0; q && j < q->count; j++, k++) {
				const struct q_buffer *b = &q->bufs[(q->head + j) % q->cap];

				all[k] = (struct spe_dw_buf){ .data_off = b->data_off,
							      .size = b->size, .aux_off = b->aux_off };
			}
			nbufs[i] = q ? q->count : 0;
		}
		if (!workers || spe_dw_start(&qs->dw, workers, qs->nr_q, bufs, nbufs, qs->fd,
					     aux_window_size(qs->nr_q), qs->cfg->idle_work,
					     qs->cfg->idle_ctx))
			qs->dw = NULL;
	}
	free(bufs);
	free(nbufs);
	free(all);
}

/* ---- Lifetime ------------------------------------------------------------ */

void aux_queues_forget_pending(struct aux_queues *qs)
{
	for (uint32_t i = 0; i < qs->nr_q; i++)
		if (qs->q[i])
			qs->q[i]->count = 0;
}

void aux_queues_free(struct aux_queues *qs)
{
	spe_dw_stop(qs->dw);
	for (uint32_t i = 0; i < qs->nr_q; i++)
		if (qs->q[i]) {
			struct aux_queue *q = qs->q[i];

			for (uint32_t k = 0; k < q->count; k++)
				free(q->bufs[(q->head + k) % q->cap].mem);
			free(q->cur_mem);
			aux_window_free(&q->win);
			free(q->bufs);
			free(q);
		}
}
