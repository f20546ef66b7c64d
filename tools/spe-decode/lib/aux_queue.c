// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Decode queues: one per AUX buffer index (per CPU, or per thread), fed by
 * the AUXTRACE records of a perf.data, merged in timestamp order
 * (perf.data-file-format.txt, perf arm-spe.c).  The algorithm is perf's: before a timed perf.data record is
 * handled, every queued SPE record older than it is delivered, so context
 * switches and mappings apply to the records they should.  The session
 * (lib/session.c) decides when.
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

#include "session_internal.h"
#include "spe_perf_time.h"
#include "perf_time_inline.h"

/* ---- Heap of queues by the time of their next record ------------------------ */

static void heap_push(struct spe_session *s, uint32_t qi, uint64_t ord)
{
	spe_qheap_push(s->heap, &s->heap_n, qi, ord);
	s->q[qi]->on_heap = true;
}

static void heap_pop(struct spe_session *s)
{
	s->q[s->heap[0].qi]->on_heap = false;
	spe_qheap_pop(s->heap, &s->heap_n);
}

/* ---- Queues ------------------------------------------------------------------ */

static uint64_t q_perf_time(const struct spe_session *s, uint64_t ts)
{
	return s->have_tc ? spe_time_to_perf_inline(&s->tc, ts) : ts;
}

static void q_note_error(struct spe_session *s, uint64_t off)
{
	if (!s->st.decode_errors++)
		s->st.first_decode_error_offset = off;
}

/*
 * The file could not be read where a queue's data is: the session stops
 * with an error naming the offset; what was delivered before stays so.
 */
void aux_queue_read_failed(struct spe_session *s, uint64_t file_off, int errnum)
{
	if (s->io_err)
		return;
	s->io_err = SPE_ERR_IO;
	s->stop = SPE_ERR_IO;
	snprintf(s->msg, sizeof(s->msg), "reading AUX data at file offset %#llx: %s",
		 (unsigned long long)file_off, strerror(errnum ? errnum : EIO));
}

/* Starts decoding buffer b of q: from its copy (pipe input) or the file. */
static bool q_begin(struct spe_session *s, struct aux_queue *q, const struct q_buffer *b)
{
	q->cur_data_off = b->data_off;
	q->cur_aux_off = b->aux_off;
	q->cur_mem = b->mem;
	q->cur_mem_size = b->mem ? b->size : 0;
	if (b->mem) {
		spe_decoder_init(&q->dec, NULL, b->mem, (size_t)b->size, b->aux_off);
		return true;
	}
	if (!q->win.mem && aux_window_init(&q->win, s->fd, aux_window_size(s->nr_q))) {
		snprintf(s->msg, sizeof(s->msg), "out of memory for a queue's read window");
		s->io_err = s->stop = SPE_ERR_NOMEM;
		return false;
	}
	if (aux_window_begin(&q->win, &q->dec, b->data_off, b->size, b->aux_off)) {
		aux_queue_read_failed(s, aux_window_file_offset(&q->win), q->win.err);
		return false;
	}
	return true;
}

/* q_advance() with the decoding done by threads: the same records and the
 * same bookkeeping, in the same order (lib/decode_workers.c). */
static bool q_advance_threaded(struct spe_session *s, struct aux_queue *q)
{
	const struct spe_dw_item *it;

	while ((it = spe_dw_next(s->dw, q->index))) {
		if (it->kind == SPE_DW_READ_FAILED) {
			aux_queue_read_failed(s, it->error_file_off, it->read_errno);
			return false;
		}
		if (it->kind == SPE_DW_PARTIAL) {
			s->st.partial_records++;
			if (it->rec.end == SPE_REC_END_ERROR)
				q_note_error(s, it->error_file_off);
			continue;
		}
		q->recp = &it->rec;	/* valid until the queue's next item */
		q->last_end = it->rec.offset + it->rec.size;
		q->cur_data_off = it->data_off;
		q->cur_aux_off = it->aux_off;
		q->rec_ts = (it->rec.present & SPE_REC_TIMESTAMP) ? it->rec.timestamp : 0;
		if (q->rec_ts > q->last_ts)
			q->last_ts = q->rec_ts;
		q->time = q_perf_time(s, q->rec_ts);
		q->has_rec = true;
		s->st.records++;
		return true;
	}
	return false;
}

/* Decode q's next complete record into q->rec; false when q is empty. */
static bool q_advance(struct spe_session *s, struct aux_queue *q)
{
	if (s->dw)
		return q_advance_threaded(s, q);
	for (;;) {
		int ret;

		if (!q->active) {
			struct q_buffer *b;

			if (!q->count)
				return false;
			b = &q->bufs[q->head];
			q->head = (q->head + 1) % q->cap;
			q->count--;
			if (!q_begin(s, q, b))
				return false;
			q->active = true;
		}
		ret = spe_decoder_next(&q->dec, &q->rec);
		if (ret == SPE_ERR_MORE) {
			if (aux_window_advance(&q->win, &q->dec)) {
				aux_queue_read_failed(s, aux_window_file_offset(&q->win), q->win.err);
				return false;
			}
			continue;
		}
		q->recp = &q->rec;
		if (ret == 1) {
			q->last_end = q->rec.offset + q->rec.size;
			/* perf: a record's time is its own timestamp (0 without
			 * one); the queue's position is the newest seen. */
			q->rec_ts = (q->rec.present & SPE_REC_TIMESTAMP) ? q->rec.timestamp : 0;
			if (q->rec_ts > q->last_ts)
				q->last_ts = q->rec_ts;
			q->time = q_perf_time(s, q->rec_ts);
			q->has_rec = true;
			s->st.records++;
			return true;
		}
		if (ret == 0) {
			free(q->cur_mem);
			s->pipe_held -= q->cur_mem_size;
			q->cur_mem = NULL;
			q->active = false;
			continue;
		}
		/* A partial record: counted, never sampled or stitched. */
		s->st.partial_records++;
		if (q->rec.end == SPE_REC_END_ERROR)
			q_note_error(s, q->cur_data_off +
				     (spe_decoder_error_offset(&q->dec) - q->cur_aux_off));
	}
}

/* The pid of tid, through q's cache of the session's thread map. */
static int32_t q_pid(const struct spe_session *s, struct aux_queue *q, int32_t tid)
{
	unsigned int i = (uint32_t)tid & (Q_PID_CACHE - 1);

	if (q->pid_gen != s->threads.gen + 1) {
		/* INT32_MIN: no tid (they are -1 or more). */
		for (unsigned int k = 0; k < Q_PID_CACHE; k++)
			q->pid_cache[k].tid = INT32_MIN;
		q->pid_gen = s->threads.gen + 1;	/* never 0: a new queue misses */
	}
	if (q->pid_cache[i].tid != tid) {
		q->pid_cache[i].pid = spe_tid_map_pid(&s->threads, tid);
		q->pid_cache[i].tid = tid;
	}
	return q->pid_cache[i].pid;
}

/* The context of q's record, delivered before the sideband timed at t. */
static void q_context(struct spe_session *s, struct aux_queue *q, struct spe_qrecord *qr,
		      uint64_t t)
{
	const struct spe_record *rec = q->recp;

	qr->rec = rec;
	qr->seq = ++s->delivered;
	qr->time = q->time;
	qr->cpu = q->cpu;
	if (q->meta_gen != s->meta_gen) {
		q->midr = spe_session_midr(s, q->cpu);
		q->ds_table = spe_ds_table_for_midr(q->midr);
		q->meta_gen = s->meta_gen;
	}
	qr->midr = q->midr;
	qr->ds_table = q->ds_table;
	qr->file_offset = q->cur_data_off + (rec->offset - q->cur_aux_off);
	if (!q->cs.records) {
		q->cs.records = true;
		q->cs.first_ctx = !!(rec->present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2));
		q->cs.first_limit = t;
	}
	/* pid/tid: CONTEXT packets when present (perf prefers them from the
	 * first one on), otherwise the context-switch records. */
	if (rec->present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2)) {
		q->ctx_tid = (int32_t)((rec->present & SPE_REC_CONTEXT_EL2) ?
				       rec->context_el2 : rec->context_el1);
		if (!s->ctx_seen) {
			/* Its place among the sideband is its queue's newest
			 * timestamp (aux_queues_process()); 0: unknown. */
			s->st.ctx_seen = true;
			s->st.ctx_time = q->last_ts ? q_perf_time(s, q->last_ts) : 0;
		}
		s->ctx_seen = true;
	}
	if (s->ctx_seen && q->ctx_tid != -1) {
		qr->tid = q->ctx_tid;
	} else if (q->cpu >= 0 && q->cpu < Q_MAX_CPUS) {
		qr->tid = s->cpu_tid[q->cpu] != -1 ? s->cpu_tid[q->cpu] : q->tid;
		/* Named (or left to the queue's) by a switch. */
		if (s->cpu_tid_time[q->cpu])
			spe_session_note_switch(s, s->cpu_tid_time[q->cpu]);
	} else {
		qr->tid = q->tid;
	}
	qr->pid = q_pid(s, q, qr->tid);
}

/* Deliver every queued record older than perf time t (perf's algorithm,
 * in the SPE timestamp domain as perf compares). */
int aux_queues_process(struct spe_session *s, uint64_t t_perf)
{
	uint64_t t = t_perf == UINT64_MAX ? UINT64_MAX :
		     (s->have_tc ? spe_perf_to_time(&s->tc, t_perf) : t_perf);

	while (s->heap_n && !s->stop) {
		uint32_t qi = s->heap[0].qi;
		struct aux_queue *q = s->q[qi];
		uint64_t limit;

		if (s->heap[0].ord >= t)
			break;
		heap_pop(s);
		limit = t;
		if (s->heap_n && s->heap[0].ord + 1 < limit)
			limit = s->heap[0].ord + 1;
		/* Stay on this queue while it is older than the next one. */
		for (;;) {
			struct spe_qrecord qr = { .queue = qi };

			q_context(s, q, &qr, t);
			q->has_rec = false;
			if (s->cfg.on_record)
				s->stop = s->cfg.on_record(s->cfg.ctx, &qr);
			if (!q_advance(s, q))
				break;
			if (s->stop || q->last_ts >= limit) {
				heap_push(s, qi, q->last_ts);
				break;
			}
		}
	}
	return s->stop;
}

/* Queues that got data since they ran dry go back on the heap. */
void aux_queues_refill(struct spe_session *s)
{
	for (uint32_t i = 0; i < s->nr_q; i++) {
		struct aux_queue *q = s->q[i];

		if (q && !q->on_heap && !q->has_rec && q_advance(s, q))
			heap_push(s, i, q->last_ts);
	}
}

/* Which of cfg.cuts is queue idx's part, -1: none, the whole queue. */
static int q_cut_of(const struct spe_session *s, uint32_t idx)
{
	for (unsigned i = 0; i < s->cfg.nr_cuts; i++)
		if (s->cfg.cuts[i].queue == idx)
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

void aux_queues_cut_states(struct spe_session *s)
{
	for (unsigned i = 0; i < s->cfg.nr_cuts; i++) {
		const struct aux_queue *q = s->q[s->cfg.cuts[i].queue];
		struct spe_session_cut_state *cs = &s->st.cut[i];

		if (!q) {
			*cs = (struct spe_session_cut_state){ .clean_end = true,
							      .last_ctx_tid = -1 };
			continue;
		}
		*cs = q->cs;
		cs->clean_end = q->cut_end == UINT64_MAX || q->last_end == q->cut_end;
		cs->last_ctx_tid = q->ctx_tid;
		cs->last_ts = q->last_ts;
	}
}

int aux_queue_add(struct spe_session *s, const struct spe_perf_reader_event *ev, uint8_t *mem)
{
	const struct spe_perf_auxtrace_event *a = (const void *)ev->header;
	struct q_buffer b = {
		.mem = mem, .data_off = ev->aux_data_offset, .size = ev->aux_data_size,
		.aux_off = a->offset,
	};
	struct aux_queue *q;
	uint32_t idx = a->idx;

	if (idx >= Q_MAX_QUEUES) {
		snprintf(s->msg, sizeof(s->msg), "offset %#llx: AUXTRACE idx %u out of range",
			 (unsigned long long)ev->offset, idx);
		return SPE_ERR_UNSUPPORTED;
	}
	if (!aux_queue_selected(s, idx)) {
		free(mem);	/* another session's */
		return 0;
	}
	q = s->q[idx];
	if (!q) {
		q = calloc(1, sizeof(*q));
		if (!q)
			return SPE_ERR_NOMEM;
		q->ctx_tid = -1;
		q->index = idx;
		/* As perf: a queue's CPU and thread are those of its first
		 * buffer; a later buffer naming others changes neither. */
		q->cpu = (int32_t)a->cpu;
		q->tid = (int32_t)a->tid;
		q->cut = q_cut_of(s, idx);
		q->cut_end = UINT64_MAX;
		s->q[idx] = q;
		if (idx >= s->nr_q)
			s->nr_q = idx + 1;
		/* A queue shared by sessions is counted by the first part's. */
		if (q->cut < 0 || !s->cfg.cuts[q->cut].from)
			s->st.nr_queues++;
	}
	if (q->cut >= 0 && !q_cut_buffer(q, &s->cfg.cuts[q->cut], &b)) {
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
		s->pipe_held += b.size;
	return 0;
}

/* ---- Pipe input: the data is copied into its queue ------------------------- */

int aux_queue_pipe_buffer(struct spe_session *s, const struct spe_perf_reader_event *ev)
{
	/* The reader's window moves while the data is read: copy the record. */
	struct spe_perf_auxtrace_event a;
	struct spe_perf_reader_event e = *ev;
	uint64_t size = ev->aux_data_size;
	uint8_t *mem;
	long got;
	int err;

	memcpy(&a, ev->header, sizeof(a));
	e.header = &a.header;
	if (size > Q_PIPE_MAX) {
		snprintf(s->msg, sizeof(s->msg),
			 "offset %#llx: AUXTRACE buffer of %llu bytes is too large for pipe input",
			 (unsigned long long)ev->offset, (unsigned long long)size);
		return -E2BIG;
	}
	mem = malloc(size ? (size_t)size : 1);
	if (!mem)
		return SPE_ERR_NOMEM;
	got = size ? spe_perf_reader_aux_read(s->r, mem, (size_t)size) : 0;
	if (got < 0) {
		free(mem);
		snprintf(s->msg, sizeof(s->msg), "%s", spe_perf_reader_errmsg(s->r));
		return (int)got;
	}
	if (s->cfg.on_auxtrace)
		s->stop = s->cfg.on_auxtrace(s->cfg.ctx, &e, mem, size);
	if (s->stop || s->cfg.no_decode || (a.idx < Q_MAX_QUEUES && !aux_queue_selected(s, a.idx))) {
		free(mem);
		return 0;
	}
	err = aux_queue_add(s, &e, mem);
	if (err) {
		free(mem);
		return err;
	}
	/*
	 * perf keeps a pipe's AUX data until timed records release it; when
	 * the stream has too few of those, decode what is held now rather
	 * than let memory grow with the input.
	 */
	if (s->pipe_held > Q_PIPE_HOLD) {
		aux_queues_refill(s);
		aux_queues_process(s, UINT64_MAX);
	}
	return 0;
}

/*
 * With every buffer queued up front, the queues can be decoded ahead by
 * threads (cfg.threads > 1): cfg.threads - 1 workers, since this thread,
 * which merges, decodes too whenever they are behind (one more would only
 * take turns on the cores with it).  Without memory for them, decoding
 * stays here.
 */
void aux_queues_start_threads(struct spe_session *s)
{
	const struct spe_dw_buf **bufs = calloc(s->nr_q ? s->nr_q : 1, sizeof(*bufs));
	struct spe_dw_buf *all;
	uint32_t *nbufs = calloc(s->nr_q ? s->nr_q : 1, sizeof(*nbufs));
	size_t total = 0, k = 0;
	unsigned busy = 0, workers = s->cfg.threads - 1;

	for (uint32_t i = 0; i < s->nr_q; i++) {
		total += s->q[i] ? s->q[i]->count : 0;
		busy += s->q[i] && s->q[i]->count;
	}
	/* A queue is decoded by one thread at a time: more workers than
	 * queues with data would only poll. */
	if (workers > busy)
		workers = busy;
	all = malloc((total ? total : 1) * sizeof(*all));
	if (bufs && nbufs && all) {
		for (uint32_t i = 0; i < s->nr_q; i++) {
			struct aux_queue *q = s->q[i];

			bufs[i] = all + k;
			for (uint32_t j = 0; q && j < q->count; j++, k++) {
				const struct q_buffer *b = &q->bufs[(q->head + j) % q->cap];

				all[k] = (struct spe_dw_buf){ .data_off = b->data_off,
							      .size = b->size, .aux_off = b->aux_off };
			}
			nbufs[i] = q ? q->count : 0;
		}
		if (!workers || spe_dw_start(&s->dw, workers, s->nr_q, bufs, nbufs, s->fd,
					     aux_window_size(s->nr_q), s->cfg.idle_work,
					     s->cfg.idle_ctx))
			s->dw = NULL;
	}
	free(bufs);
	free(nbufs);
	free(all);
}

/* ---- Lifetime ------------------------------------------------------------ */

/* Drop what the queues hold but have not decoded (a bad AUXTRACE index). */
void aux_queues_forget_pending(struct spe_session *s)
{
	for (uint32_t i = 0; i < s->nr_q; i++)
		if (s->q[i])
			s->q[i]->count = 0;
}

void aux_queues_free(struct spe_session *s)
{
	spe_dw_stop(s->dw);
	for (uint32_t i = 0; i < s->nr_q; i++)
		if (s->q[i]) {
			struct aux_queue *q = s->q[i];

			for (uint32_t k = 0; k < q->count; k++)
				free(q->bufs[(q->head + k) % q->cap].mem);
			free(q->cur_mem);
			aux_window_free(&q->win);
			free(q->bufs);
			free(q);
		}
}
