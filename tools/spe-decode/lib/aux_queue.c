// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Decode queues: one per AUX buffer index (per CPU, or per thread), fed by
 * the AUXTRACE records of a perf.data, merged in timestamp order
 * (perf.data-file-format.txt, perf arm-spe.c).  The algorithm is perf's: before a timed perf.data record is
 * handled, every queued SPE record older than it is delivered, so context
 * switches and mappings apply to the records they should.
 *
 * AUXTRACE data stays in the file: it is mapped, decoded in place, and the
 * pages already decoded are dropped again, so resident memory is bounded by
 * the queues' current positions, not by the file.  Each AUXTRACE buffer is
 * decoded on its own: a record is never stitched across buffers, hence
 * never across a truncation (AUX flags are counted and reported).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decode_workers.h"
#include "queue_heap.h"
#include "spe_decode.h"
#include "spe_perf_synth.h"
#include "tid_map.h"

#define Q_MAX_QUEUES	4096
#define Q_MAX_CPUS	4096
#define Q_DROP_STEP	(4u << 20)	/* drop decoded pages every 4 MiB */
#define Q_PIPE_MAX	(1ULL << 30)	/* largest AUXTRACE buffer from a pipe */
#define Q_PIPE_HOLD	(32ULL << 20)	/* pipe data held before decoding early */
/* Pipe input keeps AUXTRACE data in memory until it is decoded, as perf. */

struct q_buffer {
	uint8_t *mem;			/* pipe input: a copy of the data */
	uint64_t data_off;		/* file offset of the data */
	uint64_t size;
	uint64_t aux_off;		/* offset in the AUX area (stream offset) */
};

struct aux_queue {
	struct q_buffer *bufs;		/* FIFO of buffers not yet decoded */
	uint32_t head, count, cap;
	bool active;			/* dec holds a buffer */
	struct spe_decoder dec;
	uint64_t cur_data_off, cur_aux_off;	/* of the buffer in dec */
	uint8_t *cur_mem;		/* pipe input: the copy dec reads */
	uint64_t cur_mem_size;
	uint64_t dropped;		/* bytes of it already dropped */
	struct spe_record rec;		/* next record, when has_rec */
	const struct spe_record *recp;	/* where it is: &rec, or a decoding
					 * thread's item */
	bool has_rec, on_heap;
	uint64_t time;			/* perf time of rec */
	uint64_t last_ts;		/* newest SPE timestamp seen: heap key */
	uint64_t rec_ts;		/* rec's own SPE timestamp, 0 if none */
	int32_t cpu, tid;		/* from the AUXTRACE records */
	int32_t ctx_tid;		/* last CONTEXT seen, -1 */
	/* Caches: the CPU's table (until metadata changes), tid -> pid. */
	uint32_t meta_gen, pid_gen;
	uint64_t midr;
	enum spe_ds_table ds_table;
	int32_t cached_tid, cached_pid;
	uint32_t index;			/* in the session's queues */
};

/* A timed perf.data record kept for ordering (perf's ordered events). */
struct held_event {
	uint64_t time, seq;
	struct spe_pdr_event ev;	/* ev.header points to bytes */
	uint64_t *bytes;
};

struct spe_session {
	struct spe_session_config cfg;
	struct spe_pdr *r;
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
	char msg[320];
};

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

uint64_t spe_session_midr(const struct spe_session *s, int cpu)
{
	if (cpu >= 0 && cpu < Q_MAX_CPUS && s->cpu_midr && s->cpu_midr[cpu])
		return s->cpu_midr[cpu];
	return s->cpuid_midr;
}

static uint64_t q_perf_time(const struct spe_session *s, uint64_t ts)
{
	return s->have_tc ? spe_time_to_perf(&s->tc, ts) : ts;
}

/* Drop the mapped pages of the current buffer that were decoded. */
static void q_drop_pages(struct spe_session *s, struct aux_queue *q, bool all)
{
	uint64_t done = spe_decoder_offset(&q->dec) - q->cur_aux_off;
	uint64_t from, to;

	if (!s->map || q->cur_mem || (!all && done - q->dropped < Q_DROP_STEP))
		return;
	from = (q->cur_data_off + q->dropped) & ~(uint64_t)(s->page - 1);
	to = (q->cur_data_off + done) & ~(uint64_t)(s->page - 1);
	if (to > from)
		madvise((void *)(s->map + from), to - from, MADV_DONTNEED);
	q->dropped = done;
}

static void q_note_error(struct spe_session *s, uint64_t off)
{
	if (!s->st.decode_errors++)
		s->st.first_decode_error_offset = off;
}

/* q_advance() with the decoding done by threads: the same records and the
 * same bookkeeping, in the same order (lib/decode_workers.c). */
static bool q_advance_threaded(struct spe_session *s, struct aux_queue *q)
{
	const struct spe_dw_item *it;

	while ((it = spe_dw_next(s->dw, q->index))) {
		if (it->kind == SPE_DW_PARTIAL) {
			s->st.partial_records++;
			if (it->rec.end == SPE_REC_END_ERROR)
				q_note_error(s, it->error_file_off);
			continue;
		}
		q->recp = &it->rec;	/* valid until the queue's next item */
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
			q->cur_data_off = b->data_off;
			q->cur_aux_off = b->aux_off;
			q->dropped = 0;
			q->cur_mem = b->mem;
			q->cur_mem_size = b->mem ? b->size : 0;
			spe_decoder_init(&q->dec, NULL, b->mem ? b->mem : s->map + b->data_off,
					 (size_t)b->size, b->aux_off);
			q->active = true;
		}
		ret = spe_decoder_next(&q->dec, &q->rec);
		q->recp = &q->rec;
		if (ret == 1) {
			q_drop_pages(s, q, false);
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
			q_drop_pages(s, q, true);
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

static void q_context(struct spe_session *s, struct aux_queue *q, struct spe_qrecord *qr)
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
	/* pid/tid: CONTEXT packets when present (perf prefers them from the
	 * first one on), otherwise the context-switch records. */
	if (rec->present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2)) {
		q->ctx_tid = (int32_t)((rec->present & SPE_REC_CONTEXT_EL2) ?
				       rec->context_el2 : rec->context_el1);
		s->ctx_seen = true;
	}
	if (s->ctx_seen && q->ctx_tid != -1)
		qr->tid = q->ctx_tid;
	else if (q->cpu >= 0 && q->cpu < Q_MAX_CPUS && s->cpu_tid[q->cpu] != -1)
		qr->tid = s->cpu_tid[q->cpu];
	else
		qr->tid = q->tid;
	if (q->pid_gen != s->threads.gen + 1 || q->cached_tid != qr->tid) {
		q->cached_pid = spe_tid_map_pid(&s->threads, qr->tid);
		q->cached_tid = qr->tid;
		q->pid_gen = s->threads.gen + 1;	/* never 0: a new queue misses */
	}
	qr->pid = q->cached_pid;
}

/* Deliver every queued record older than perf time t (perf's algorithm,
 * in the SPE timestamp domain as perf compares). */
static int q_process(struct spe_session *s, uint64_t t_perf)
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

			q_context(s, q, &qr);
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
static void q_refill(struct spe_session *s)
{
	for (uint32_t i = 0; i < s->nr_q; i++) {
		struct aux_queue *q = s->q[i];

		if (q && !q->on_heap && !q->has_rec && q_advance(s, q))
			heap_push(s, i, q->last_ts);
	}
}

static int q_add(struct spe_session *s, const struct spe_pdr_event *ev, uint8_t *mem)
{
	const struct spe_perf_auxtrace_event *a = (const void *)ev->header;
	struct aux_queue *q;
	uint32_t idx = a->idx;

	if (idx >= Q_MAX_QUEUES) {
		snprintf(s->msg, sizeof(s->msg), "offset %#llx: AUXTRACE idx %u out of range",
			 (unsigned long long)ev->offset, idx);
		return SPE_ERR_UNSUPPORTED;
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
		s->q[idx] = q;
		if (idx >= s->nr_q)
			s->nr_q = idx + 1;
		s->st.nr_queues++;
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
	q->bufs[(q->head + q->count) % q->cap] = (struct q_buffer){
		.mem = mem, .data_off = ev->aux_data_offset, .size = ev->aux_data_size,
		.aux_off = a->offset,
	};
	q->count++;
	return 0;
}

/* ---- Pipe input: the data is copied into its queue ------------------------- */

static int pipe_buffer(struct spe_session *s, const struct spe_pdr_event *ev)
{
	/* The reader's window moves while the data is read: copy the record. */
	struct spe_perf_auxtrace_event a;
	struct spe_pdr_event e = *ev;
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
	got = size ? spe_pdr_aux_read(s->r, mem, (size_t)size) : 0;
	if (got < 0) {
		free(mem);
		snprintf(s->msg, sizeof(s->msg), "%s", spe_pdr_errmsg(s->r));
		return (int)got;
	}
	if (s->cfg.on_auxtrace)
		s->stop = s->cfg.on_auxtrace(s->cfg.ctx, &e, mem, size);
	if (s->stop || s->cfg.no_decode) {
		free(mem);
		return 0;
	}
	err = q_add(s, &e, mem);
	if (err) {
		free(mem);
		return err;
	}
	s->pipe_held += size;
	/*
	 * perf keeps a pipe's AUX data until timed records release it; when
	 * the stream has too few of those, decode what is held now rather
	 * than let memory grow with the input.
	 */
	if (s->pipe_held > Q_PIPE_HOLD) {
		q_refill(s);
		q_process(s, UINT64_MAX);
	}
	return 0;
}

/* ---- Records of the perf.data --------------------------------------------------- */

static int s_auxtrace_info(struct spe_session *s, const struct spe_pdr_event *ev)
{
	const char *why = "";
	int err = spe_parse_auxtrace_info(ev->header, &s->info, &why);

	s->meta_gen++;
	if (err) {
		snprintf(s->msg, sizeof(s->msg), "offset %#llx: %s",
			 (unsigned long long)ev->offset, why);
		return err;
	}
	for (uint32_t i = 0; i < s->info.nr_cpus; i++) {
		struct spe_pdw_cpu_meta m;

		err = spe_auxtrace_info_cpu(ev->header, i, &m, &why);
		if (err) {
			snprintf(s->msg, sizeof(s->msg), "offset %#llx: %s",
				 (unsigned long long)ev->offset, why);
			return err;
		}
		if (m.cpu < Q_MAX_CPUS)
			s->cpu_midr[m.cpu] = m.midr;
	}
	return 0;
}

static int s_switch(struct spe_session *s, const struct spe_pdr_event *ev)
{
	const struct perf_event_header *h = ev->header;
	bool out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;
	int32_t tid = -1, pid = -1;

	if (!ev->sid.has_cpu || ev->sid.cpu >= Q_MAX_CPUS)
		return 0;
	if (h->type == PERF_RECORD_SWITCH_CPU_WIDE) {
		const uint32_t *np = (const uint32_t *)(h + 1);

		if (h->size < sizeof(*h) + 8)
			return 0;
		/* Out: the next task is given; in: the sample_id's task. */
		pid = (int32_t)(out ? np[0] : ev->sid.pid);
		tid = (int32_t)(out ? np[1] : ev->sid.tid);
	} else if (!out && ev->sid.has_tid) {
		pid = (int32_t)ev->sid.pid;
		tid = (int32_t)ev->sid.tid;
	} else {
		return 0;
	}
	/* A CPU-wide switch to an unknown task (tid -1) makes the CPU's
	 * task unknown, as perf's machine__set_current_tid() does. */
	s->cpu_tid[ev->sid.cpu] = tid;
	if (tid == -1)
		return 0;
	return spe_tid_map_pid(&s->threads, tid) == -1 && pid != -1 ?
	       spe_tid_map_set(&s->threads, (uint32_t)tid, pid) : 0;
}

static int s_event(struct spe_session *s, const struct spe_pdr_event *ev)
{
	const struct perf_event_header *h = ev->header;
	const uint32_t *u = (const uint32_t *)(h + 1);
	int err = 0;

	switch (h->type) {
	case SPE_PERF_RECORD_AUXTRACE_INFO:
		return s_auxtrace_info(s, ev);
	case SPE_PERF_RECORD_HEADER_FEATURE: {
		/* Pipe format: CPUID arrives as a record (the reader parsed it),
		 * and picks the data-source table of version-1 recordings. */
		const struct spe_pdr_info *info = spe_pdr_info(s->r);
		uint64_t midr = info->has_cpuid ? strtoull(info->cpuid, NULL, 16) : 0;

		if (midr != s->cpuid_midr) {
			s->cpuid_midr = midr;
			s->meta_gen++;
		}
		return 0;
	}
	case SPE_PERF_RECORD_TIME_CONV:
		if (!spe_parse_time_conv(h, &s->tc))
			s->have_tc = true;
		return 0;
	case SPE_PERF_RECORD_AUXTRACE:
		s->st.auxtrace_records++;
		s->st.aux_bytes += ev->aux_data_size;
		if (spe_pdr_is_pipe(s->r))
			return pipe_buffer(s, ev);
		if (s->cfg.on_auxtrace) {
			uint64_t from = ev->aux_data_offset & ~(uint64_t)(s->page - 1);
			uint64_t to = (ev->aux_data_offset + ev->aux_data_size) &
				      ~(uint64_t)(s->page - 1);

			s->stop = s->cfg.on_auxtrace(s->cfg.ctx, ev, s->map + ev->aux_data_offset,
						     ev->aux_data_size);
			/* The callback has read it: give the pages back, so a
			 * dump of a large file stays small. */
			if (to > from)
				madvise((void *)(s->map + from), to - from, MADV_DONTNEED);
			if (s->stop)
				return 0;
		}
		return s->cfg.no_decode || s->data_queued ? 0 : q_add(s, ev, NULL);
	case PERF_RECORD_AUX:
		if (h->size >= sizeof(*h) + 24) {
			uint64_t flags;

			memcpy(&flags, (const char *)(h + 1) + 16, 8);
			s->st.aux_records++;
			s->st.truncated += !!(flags & PERF_AUX_FLAG_TRUNCATED);
			s->st.partial += !!(flags & PERF_AUX_FLAG_PARTIAL);
			s->st.collision += !!(flags & PERF_AUX_FLAG_COLLISION);
			s->st.overwrite += !!(flags & PERF_AUX_FLAG_OVERWRITE);
		}
		return 0;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16) {
			uint64_t lost;

			memcpy(&lost, (const char *)(h + 1) + 8, 8);
			s->st.lost_records++;
			s->st.lost_events += lost;
		}
		return 0;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
		if (h->size >= sizeof(*h) + 8)
			err = spe_tid_map_set(&s->threads, h->type == PERF_RECORD_FORK ? u[2] : u[1],
				     (int32_t)u[0]);
		return err;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		/* perf learns a thread's process from its mappings too (a
		 * recording without COMM); pid -1 is the kernel's. */
		if (h->size >= sizeof(*h) + 8 && u[0] != (uint32_t)-1 &&
		    spe_tid_map_pid(&s->threads, (int32_t)u[1]) != (int32_t)u[0])
			err = spe_tid_map_set(&s->threads, u[1], (int32_t)u[0]);
		return err;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return s->ctx_seen ? 0 : s_switch(s, ev);
	default:
		return 0;
	}
}

int spe_session_open(struct spe_session **out, int fd, const struct spe_session_config *cfg)
{
	struct spe_session *s = calloc(1, sizeof(*s));
	const struct spe_pdr_info *info;
	int err;

	*out = s;
	if (!s)
		return SPE_ERR_NOMEM;
	s->cfg = *cfg;
	s->fd = fd;
	s->page = sysconf(_SC_PAGESIZE);
	s->cpu_midr = calloc(Q_MAX_CPUS, sizeof(*s->cpu_midr));
	s->cpu_tid = malloc(Q_MAX_CPUS * sizeof(*s->cpu_tid));
	s->meta_gen = 1;
	if (!s->cpu_midr || !s->cpu_tid)
		return SPE_ERR_NOMEM;
	for (int i = 0; i < Q_MAX_CPUS; i++)
		s->cpu_tid[i] = -1;
	err = spe_pdr_open_stream(&s->r, fd, cfg->head, cfg->head_len);
	if (err) {
		snprintf(s->msg, sizeof(s->msg), "%s", spe_pdr_errmsg(s->r));
		return err;
	}
	info = spe_pdr_info(s->r);
	if (info->has_cpuid)
		s->cpuid_midr = strtoull(info->cpuid, NULL, 16);
	if (!spe_pdr_is_pipe(s->r) && spe_pdr_file_size(s->r)) {
		void *m = mmap(NULL, (size_t)spe_pdr_file_size(s->r), PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			snprintf(s->msg, sizeof(s->msg), "mmap: %s", strerror(errno));
			return SPE_ERR_IO;
		}
		s->map = m;
		s->map_len = (size_t)spe_pdr_file_size(s->r);
	}
	return 0;
}

static int held_cmp(const void *a, const void *b)
{
	const struct held_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One timed record in time order: older SPE records first, then it. */
static int deliver(struct spe_session *s, const struct spe_pdr_event *ev)
{
	int err;

	if (ev->sid.has_time && ev->sid.time) {
		q_refill(s);
		if (q_process(s, ev->sid.time))
			return 0;
	}
	/* AUXTRACE records go to on_auxtrace; in a pipe their bytes are
	 * gone from the reader's window once the data was read. */
	if (ev->header->type == SPE_PERF_RECORD_AUXTRACE)
		return s_event(s, ev);
	err = s_event(s, ev);
	if (!err && s->cfg.on_event && !s->stop)
		s->stop = s->cfg.on_event(s->cfg.ctx, ev);
	return err;
}

/* Deliver the held records with time <= limit, oldest first. */
static int flush_held(struct spe_session *s, uint64_t limit)
{
	size_t n = 0, i;
	int err = 0;

	if (!s->nr_held)
		return 0;
	qsort(s->held, s->nr_held, sizeof(*s->held), held_cmp);
	while (n < s->nr_held && s->held[n].time <= limit)
		n++;
	for (i = 0; i < n && !err && !s->stop; i++)
		err = deliver(s, &s->held[i].ev);
	for (i = 0; i < n; i++)
		free(s->held[i].bytes);
	memmove(s->held, s->held + n, (s->nr_held - n) * sizeof(*s->held));
	s->nr_held -= n;
	return err;
}

static int hold(struct spe_session *s, const struct spe_pdr_event *ev)
{
	struct held_event *h;

	if (s->nr_held == s->cap_held) {
		size_t ncap = s->cap_held ? s->cap_held * 2 : 256;
		struct held_event *nh = realloc(s->held, ncap * sizeof(*nh));

		if (!nh)
			return SPE_ERR_NOMEM;
		s->held = nh;
		s->cap_held = ncap;
	}
	h = &s->held[s->nr_held];
	h->bytes = malloc(ev->header->size);
	if (!h->bytes)
		return SPE_ERR_NOMEM;
	memcpy(h->bytes, ev->header, ev->header->size);
	h->ev = *ev;
	h->ev.header = (const void *)h->bytes;
	h->time = ev->sid.time;
	h->seq = s->seq++;
	if (h->time > s->max_time)
		s->max_time = h->time;
	s->nr_held++;
	return 0;
}

/*
 * A file with a HEADER_AUXTRACE index (perf record writes one) has all its
 * AUXTRACE data queued before the first record is read, as perf does; the
 * AUXTRACE records met later are then only counted.
 */
static int queue_from_index(struct spe_session *s)
{
	const struct spe_pdr_info *info = spe_pdr_info(s->r);
	uint64_t size = spe_pdr_file_size(s->r);

	if (!s->map || !info->has_auxtrace_index || s->cfg.no_decode)
		return 0;
	for (uint64_t i = 0; i < info->nr_auxtrace_index; i++) {
		uint64_t ent[2], at = info->auxtrace_index_offset + i * 16;
		struct spe_perf_auxtrace_event a;
		struct spe_pdr_event ev = { 0 };
		int err;

		if (at > size || size - at < 16)
			break;
		memcpy(ent, s->map + at, 16);
		/* An index entry that does not point at an AUXTRACE record
		 * inside the file: ignore the index, read the records. */
		if (ent[0] > size || size - ent[0] < sizeof(a))
			goto bad;
		memcpy(&a, s->map + ent[0], sizeof(a));
		if (a.header.type != SPE_PERF_RECORD_AUXTRACE || a.header.size != sizeof(a) ||
		    a.size > size - ent[0] - sizeof(a))
			goto bad;
		ev.offset = ent[0];
		ev.header = &a.header;
		ev.aux_data_offset = ent[0] + sizeof(a);
		ev.aux_data_size = a.size;
		err = q_add(s, &ev, NULL);
		if (err)
			return err;
	}
	s->data_queued = true;
	return 0;
bad:
	/* Forget what the index queued; the records will queue it. */
	for (uint32_t i = 0; i < s->nr_q; i++)
		if (s->q[i])
			s->q[i]->count = 0;
	return 0;
}

/*
 * With every buffer queued up front, the queues can be decoded ahead by
 * threads (cfg.threads > 1).  Without memory for them, decoding stays here.
 */
static void start_threads(struct spe_session *s)
{
	const struct spe_dw_buf **bufs = calloc(s->nr_q ? s->nr_q : 1, sizeof(*bufs));
	struct spe_dw_buf *all;
	uint32_t *nbufs = calloc(s->nr_q ? s->nr_q : 1, sizeof(*nbufs));
	size_t total = 0, k = 0;

	for (uint32_t i = 0; i < s->nr_q; i++)
		total += s->q[i] ? s->q[i]->count : 0;
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
		if (spe_dw_start(&s->dw, s->cfg.threads, s->nr_q, bufs, nbufs, s->map, s->page))
			s->dw = NULL;
	}
	free(bufs);
	free(nbufs);
	free(all);
}

int spe_session_run(struct spe_session *s)
{
	struct spe_pdr_event ev;
	int ret = 0, err;

	err = queue_from_index(s);
	if (err)
		return err;
	if (s->data_queued && s->cfg.threads > 1)
		start_threads(s);

	/*
	 * As perf does with ordered events: records with a time wait for a
	 * FINISHED_ROUND, which releases those up to the newest time of the
	 * round before; records without a time (and AUXTRACE data, which is
	 * only queued) take effect at once.
	 */
	while (!s->stop && (ret = spe_pdr_next(s->r, &ev)) == 1) {
		uint32_t type = ev.header->type;

		if (type == SPE_PERF_RECORD_FINISHED_ROUND) {
			err = flush_held(s, s->next_flush);
			s->next_flush = s->max_time;
		} else if (ev.sid.has_time && ev.sid.time && type < SPE_PERF_RECORD_HEADER_ATTR) {
			err = hold(s, &ev);
		} else {
			err = deliver(s, &ev);
		}
		if (err)
			break;
	}
	if (!err && !s->stop && ret < 0) {
		err = ret;
		snprintf(s->msg, sizeof(s->msg), "%s", spe_pdr_errmsg(s->r));
	}
	/* Whatever was read before the end (or the fault) is delivered. */
	if (!s->stop) {
		int e = flush_held(s, UINT64_MAX);

		if (!err)
			err = e;
	}
	if (!s->stop) {
		q_refill(s);
		q_process(s, UINT64_MAX);
	}
	if (err && !s->msg[0])
		snprintf(s->msg, sizeof(s->msg), "%s", spe_strerror(err));
	return err;
}

void spe_session_close(struct spe_session *s)
{
	if (!s)
		return;
	spe_dw_stop(s->dw);
	for (uint32_t i = 0; i < s->nr_q; i++)
		if (s->q[i]) {
			struct aux_queue *q = s->q[i];

			for (uint32_t k = 0; k < q->count; k++)
				free(q->bufs[(q->head + k) % q->cap].mem);
			free(q->cur_mem);
			free(q->bufs);
			free(q);
		}
	if (s->map)
		munmap((void *)s->map, s->map_len);
	spe_pdr_close(s->r);
	spe_tid_map_free(&s->threads);
	for (size_t i = 0; i < s->nr_held; i++)
		free(s->held[i].bytes);
	free(s->held);
	free(s->cpu_midr);
	free(s->cpu_tid);
	free(s);
}

const struct spe_session_stats *spe_session_stats(const struct spe_session *s)
{
	return &s->st;
}

const char *spe_session_errmsg(const struct spe_session *s)
{
	return s && s->msg[0] ? s->msg : "no error";
}

struct spe_pdr *spe_session_reader(const struct spe_session *s)
{
	return s->r;
}

const struct spe_auxtrace_info *spe_session_auxtrace_info(const struct spe_session *s)
{
	return &s->info;
}
