// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A decode session over one perf.data (file or pipe): it owns the reader
 * and the file's mapping, keeps the state the records build (CPU MIDRs,
 * time conversion, threads, context switches), and delivers the records in
 * perf's order: timed records wait for a FINISHED_ROUND as perf's ordered
 * events do, and before each one the decode queues (lib/aux_queue.c) give
 * up the SPE records older than it, which the session gives their context
 * (CPU, thread, data-source table) as it delivers them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "grow.h"
#include "packet_internal.h"
#include "perf_time_inline.h"
#include "session_internal.h"

/* The MIDR of a CPU: from the v2 AUXTRACE_INFO metadata, else the header's CPUID. */
uint64_t spe_session_midr(const struct spe_session *s, int cpu)
{
	if (cpu >= 0 && cpu < Q_MAX_CPUS && s->cpu_midr && s->cpu_midr[cpu])
		return s->cpu_midr[cpu];
	return s->cpuid_midr;
}

/* ---- The decode queues' records -------------------------------------------- */

/* A read or memory error of the queues stops the session (the first one
 * says why); what was delivered before stays so. */
static void queues_take_error(struct spe_session *s)
{
	if (!s->aq.err || s->io_err)
		return;
	s->io_err = s->stop = s->aq.err;
	snprintf(s->msg, sizeof(s->msg), "%s", s->aq.msg);
}

/* The pid of tid, through q's cache of the session's thread map. */
static int32_t q_pid(const struct spe_session *s, struct aux_queue_context *c, int32_t tid)
{
	unsigned int i = (uint32_t)tid & (Q_PID_CACHE - 1);

	if (c->pid_gen != s->threads.gen + 1) {
		/* INT32_MIN: no tid (they are -1 or more). */
		for (unsigned int k = 0; k < Q_PID_CACHE; k++)
			c->pid_cache[k].tid = INT32_MIN;
		c->pid_gen = s->threads.gen + 1;	/* never 0: a new queue misses */
	}
	if (c->pid_cache[i].tid != tid) {
		c->pid_cache[i].pid = spe_tid_map_pid(&s->threads, tid);
		c->pid_cache[i].tid = tid;
	}
	return c->pid_cache[i].pid;
}

/*
 * The context of q's record, delivered before the sideband timed at t.
 * *of: the queue whose constants (index, CPU, MIDR, data-source table) qr
 * holds, NULL: none; runs of records of one queue set them once.
 */
static void q_context(struct spe_session *s, struct aux_queue *q, struct spe_qrecord *qr,
		      uint64_t t, const struct aux_queue **of)
{
	const struct spe_record *rec = q->recp;
	struct aux_queue_context *c = &q->ctx;

	qr->rec = rec;
	qr->seq = ++s->delivered;
	qr->time = q->time;
	if (c->meta_gen != s->meta_gen || *of != q) {
		if (c->meta_gen != s->meta_gen) {
			c->midr = spe_session_midr(s, q->cpu);
			c->ds_table = spe_ds_table_for_midr(c->midr);
			c->meta_gen = s->meta_gen;
		}
		qr->queue = q->index;
		qr->cpu = q->cpu;
		qr->midr = c->midr;
		qr->ds_table = c->ds_table;
		*of = q;
	}
	qr->file_offset = q->cur_data_off + (rec->offset - q->cur_aux_off);
	if (!c->cs.records) {
		c->cs.records = true;
		c->cs.first_ctx = !!(rec->present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2));
		c->cs.first_limit = t;
	}
	/* pid/tid: CONTEXT packets when present (perf prefers them from the
	 * first one on), otherwise the context-switch records. */
	if (rec->present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2)) {
		c->ctx_tid = (int32_t)((rec->present & SPE_REC_CONTEXT_EL2) ?
				       rec->context_el2 : rec->context_el1);
		if (!s->ctx_seen) {
			/* Its place among the sideband is its queue's newest
			 * timestamp (aux_queues_next()); 0: unknown. */
			s->st.ctx_seen = true;
			s->st.ctx_time = q->last_ts ?
					 (s->have_tc ? spe_time_to_perf_inline(&s->tc, q->last_ts) :
						       q->last_ts) : 0;
		}
		s->ctx_seen = true;
	}
	if (s->ctx_seen && c->ctx_tid != -1) {
		qr->tid = c->ctx_tid;
	} else if (q->cpu >= 0 && q->cpu < Q_MAX_CPUS) {
		qr->tid = s->cpu_tid[q->cpu] != -1 ? s->cpu_tid[q->cpu] : q->tid;
		/* Named (or left to the queue's) by a switch. */
		if (s->cpu_tid_time[q->cpu])
			spe_session_note_switch(s, s->cpu_tid_time[q->cpu]);
	} else {
		qr->tid = q->tid;
	}
	qr->pid = q_pid(s, c, qr->tid);
}

/* Deliver every queued record older than perf time t_perf; s->stop. */
static int deliver_records(struct spe_session *s, uint64_t t_perf)
{
	struct aux_queues_walk w;
	struct spe_qrecord qr;	/* q_context() sets every field */
	const struct aux_queue *qr_of = NULL;
	struct aux_queue *q;
	int stop = 0;

	aux_queues_refill(&s->aq);
	aux_queues_walk_begin(&s->aq, &w, t_perf);
	while ((q = aux_queues_next_inline(&s->aq, &w))) {
		q_context(s, q, &qr, w.t, &qr_of);
		if (s->cfg.on_record && (stop = s->cfg.on_record(s->cfg.ctx, &qr)))
			break;
	}
	aux_queues_walk_end(&s->aq, &w);
	if (stop)
		s->stop = stop;
	queues_take_error(s);
	return s->stop;
}

/* Queue an AUXTRACE buffer (mem: a pipe's copy, see aux_queue_add()). */
static int queue_buffer(struct spe_session *s, const struct spe_perf_reader_event *ev,
			uint8_t *mem)
{
	int err;

	if (!s->aq.err)
		s->aq.msg[0] = '\0';	/* aux_queue_add() says why it failed */
	err = aux_queue_add(&s->aq, ev, mem);
	if (err && s->aq.msg[0])
		snprintf(s->msg, sizeof(s->msg), "%s", s->aq.msg);
	return err;
}

/* Pipe input: read an AUXTRACE record's data from the reader and queue it. */
static int queue_pipe_buffer(struct spe_session *s, const struct spe_perf_reader_event *ev)
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
	if (s->stop || s->cfg.no_decode ||
	    (a.idx < AQ_MAX_QUEUES && !aux_queues_selected(&s->aq, a.idx))) {
		free(mem);
		return 0;
	}
	err = queue_buffer(s, &e, mem);
	if (err) {
		free(mem);
		return err;
	}
	/*
	 * perf keeps a pipe's AUX data until timed records release it; when
	 * the stream has too few of those, decode what is held now rather
	 * than let memory grow with the input.
	 */
	if (s->aq.pipe_held > Q_PIPE_HOLD)
		deliver_records(s, UINT64_MAX);
	return 0;
}

/* ---- Records of the perf.data --------------------------------------------------- */

static int s_auxtrace_info(struct spe_session *s, const struct spe_perf_reader_event *ev)
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
		struct spe_perf_writer_cpu_meta m;

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

static int s_switch(struct spe_session *s, const struct spe_perf_reader_event *ev)
{
	const struct perf_event_header *h = ev->header;
	bool out = h->misc & PERF_RECORD_MISC_SWITCH_OUT, learns;
	int32_t tid, pid;

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
	s->cpu_tid_time[ev->sid.cpu] = ev->sid.has_time && ev->sid.time ? ev->sid.time : UINT64_MAX;
	learns = tid != -1 && pid != -1 && spe_tid_map_pid(&s->threads, tid) == -1;
	/* Teaching a thread's process may name any record's: noted for
	 * spe_session_split_agrees(), as is each record's use of cpu_tid
	 * (aux_queue.c). */
	if (learns)
		spe_session_note_switch(s, s->cpu_tid_time[ev->sid.cpu]);
	return learns ? spe_tid_map_set(&s->threads, (uint32_t)tid, pid) : 0;
}

static int s_event(struct spe_session *s, const struct spe_perf_reader_event *ev)
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
		const struct spe_perf_reader_info *info = spe_perf_reader_info(s->r);
		uint64_t midr = info->has_cpuid ? strtoull(info->cpuid, NULL, 16) : 0;

		if (midr != s->cpuid_midr) {
			s->cpuid_midr = midr;
			s->meta_gen++;
		}
		return 0;
	}
	case SPE_PERF_RECORD_TIME_CONV:
		if (!spe_parse_time_conv(h, &s->tc)) {
			s->have_tc = true;
			s->aq.tc = &s->tc;
		}
		return 0;
	case SPE_PERF_RECORD_AUXTRACE:
		s->st.auxtrace_records++;
		s->st.aux_bytes += ev->aux_data_size;
		if (spe_perf_reader_is_pipe(s->r))
			return queue_pipe_buffer(s, ev);
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
		return s->cfg.no_decode || s->data_queued ? 0 : queue_buffer(s, ev, NULL);
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

/* At most SPE_SESSION_MAX_CUTS cuts, of distinct selected queues. */
static bool cuts_valid(const struct spe_session_config *cfg)
{
	if (!cfg->nr_cuts)
		return true;
	if (!cfg->cuts || cfg->nr_cuts > SPE_SESSION_MAX_CUTS)
		return false;
	for (unsigned i = 0; i < cfg->nr_cuts; i++) {
		uint32_t q = cfg->cuts[i].queue;

		if (q >= AQ_MAX_QUEUES || cfg->cuts[i].from >= cfg->cuts[i].to ||
		    (cfg->queue_set && !(cfg->queue_set[q / 64] >> (q % 64) & 1)))
			return false;
		for (unsigned k = 0; k < i; k++)
			if (cfg->cuts[k].queue == q)
				return false;
	}
	return true;
}

int spe_session_open(struct spe_session **out, int fd, const struct spe_session_config *cfg)
{
	struct spe_session *s = calloc(1, sizeof(*s));
	const struct spe_perf_reader_info *info;
	int err;

	*out = s;
	if (!s)
		return SPE_ERR_NOMEM;
	s->cfg = *cfg;
	if (!cuts_valid(cfg)) {
		snprintf(s->msg, sizeof(s->msg), "invalid queue cuts");
		return SPE_ERR_INVAL;
	}
	s->fd = fd;
	s->aq.cfg = &s->cfg;
	s->aq.st = &s->st;
	s->aq.fd = fd;
	s->page = sysconf(_SC_PAGESIZE);
	s->cpu_midr = calloc(Q_MAX_CPUS, sizeof(*s->cpu_midr));
	s->cpu_tid = malloc(Q_MAX_CPUS * sizeof(*s->cpu_tid));
	s->cpu_tid_time = calloc(Q_MAX_CPUS, sizeof(*s->cpu_tid_time));
	s->meta_gen = 1;
	if (!s->cpu_midr || !s->cpu_tid || !s->cpu_tid_time)
		return SPE_ERR_NOMEM;
	for (int i = 0; i < Q_MAX_CPUS; i++)
		s->cpu_tid[i] = -1;
	err = spe_perf_reader_open_stream(&s->r, fd, cfg->head, cfg->head_len);
	if (err) {
		snprintf(s->msg, sizeof(s->msg), "%s", spe_perf_reader_errmsg(s->r));
		return err;
	}
	info = spe_perf_reader_info(s->r);
	if (info->has_cpuid)
		s->cpuid_midr = strtoull(info->cpuid, NULL, 16);
	if (!spe_perf_reader_is_pipe(s->r) && spe_perf_reader_file_size(s->r)) {
		void *m = mmap(NULL, (size_t)spe_perf_reader_file_size(s->r), PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			snprintf(s->msg, sizeof(s->msg), "mmap: %s", strerror(errno));
			return SPE_ERR_IO;
		}
		s->map = m;
		s->map_len = (size_t)spe_perf_reader_file_size(s->r);
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
static int deliver(struct spe_session *s, const struct spe_perf_reader_event *ev)
{
	int err;

	if (ev->sid.has_time && ev->sid.time && deliver_records(s, ev->sid.time))
		return 0;
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

static int hold(struct spe_session *s, const struct spe_perf_reader_event *ev)
{
	struct held_event *h;

	if (SPE_GROW(s->held, s->cap_held, s->nr_held, 256))
		return SPE_ERR_NOMEM;
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
 * Calls fn for every AUXTRACE record the file's HEADER_AUXTRACE index
 * points at, with the record as an event.  Returns 0 when the whole index
 * was walked, 1 when an entry does not point at an AUXTRACE record inside
 * the file (the index is then not to be trusted), or fn's error.
 */
static int walk_index(struct spe_session *s,
		      int (*fn)(struct spe_session *s, const struct spe_perf_reader_event *ev,
				void *ctx), void *ctx)
{
	const struct spe_perf_reader_info *info = spe_perf_reader_info(s->r);
	uint64_t size = spe_perf_reader_file_size(s->r);

	for (uint64_t i = 0; i < info->nr_auxtrace_index; i++) {
		uint64_t ent[2], at = info->auxtrace_index_offset + i * 16;
		struct spe_perf_auxtrace_event a;
		struct spe_perf_reader_event ev = { 0 };
		int err;

		if (at > size || size - at < 16)
			break;
		/*
		 * Read, not touched through the mapping: a page fault there
		 * maps the whole (large) folio of AUX data around the header,
		 * which then stays resident until its buffer is decoded -
		 * 60 MB of a 114 MB recording of 2 MB buffers.
		 */
		if (spe_perf_reader_pread(s->r, ent, 16, at))
			return 1;
		/* An index entry that does not point at an AUXTRACE record
		 * inside the file: ignore the index, read the records. */
		if (ent[0] > size || size - ent[0] < sizeof(a) ||
		    spe_perf_reader_pread(s->r, &a, sizeof(a), ent[0]))
			return 1;
		if (a.header.type != SPE_PERF_RECORD_AUXTRACE || a.header.size != sizeof(a) ||
		    a.size > size - ent[0] - sizeof(a))
			return 1;
		ev.offset = ent[0];
		ev.header = &a.header;
		ev.aux_data_offset = ent[0] + sizeof(a);
		ev.aux_data_size = a.size;
		err = fn(s, &ev, ctx);
		if (err)
			return err;
	}
	return 0;
}

static int queue_indexed(struct spe_session *s, const struct spe_perf_reader_event *ev, void *ctx)
{
	(void)ctx;
	return queue_buffer(s, ev, NULL);
}

/*
 * A file with a HEADER_AUXTRACE index (perf record writes one) has all its
 * AUXTRACE data queued before the first record is read, as perf does; the
 * AUXTRACE records met later are then only counted.
 */
static int queue_from_index(struct spe_session *s)
{
	int err;

	if (!s->map || !spe_perf_reader_info(s->r)->has_auxtrace_index || s->cfg.no_decode)
		return 0;
	err = walk_index(s, queue_indexed, NULL);
	if (err == 1) {
		/* Forget what the index queued; the records will queue it. */
		aux_queues_forget_pending(&s->aq);
		return 0;
	}
	if (!err)
		s->data_queued = true;
	return err;
}

struct queue_bytes {
	uint64_t *bytes;
	uint32_t n;
};

static int count_indexed(struct spe_session *s, const struct spe_perf_reader_event *ev, void *ctx)
{
	const struct spe_perf_auxtrace_event *a = (const void *)ev->header;
	struct queue_bytes *qb = ctx;

	(void)s;
	if (a->idx < qb->n)
		qb->bytes[a->idx] += ev->aux_data_size;
	return 0;
}

int spe_session_queue_bytes(struct spe_session *s, uint64_t *bytes, uint32_t n)
{
	struct queue_bytes qb = { bytes, n };
	int err, with = 0;

	memset(bytes, 0, n * sizeof(*bytes));
	if (!s->map || !spe_perf_reader_info(s->r)->has_auxtrace_index)
		return 0;
	err = walk_index(s, count_indexed, &qb);
	if (err < 0)
		return err;
	if (err)
		memset(bytes, 0, n * sizeof(*bytes));
	for (uint32_t i = 0; !err && i < n; i++)
		with += bytes[i] != 0;
	return with;
}

/* ---- Where a queue may be cut between sessions ------------------------------ */

struct cut_search {
	uint32_t queue;
	uint64_t near, seen, at;
	bool found;
	int err;
};

/*
 * How likely records start at buf[0], after a Timestamp of value *t0 (or
 * NULL): 0 when SPE_CUT_RECORDS records (or all there are before the
 * buffer's end) do not decode whole; else the sum of
 *   CUT_TIMED: t0 and each record's timestamp run up, within 2^32 ticks:
 *              bytes decoded out of step would hardly give that;
 *   CUT_CTX:   the first record has a CONTEXT packet, so it names its
 *              thread whatever the records before the cut named.
 */
#define SPE_CUT_RECORDS	8
#define CUT_START	1
#define CUT_CTX		2
#define CUT_TIMED	4

static int records_start_at(const uint8_t *buf, size_t len, uint64_t aux_off, bool buffer_ends,
			    const uint64_t *t0)
{
	uint64_t last = t0 ? *t0 : 0;
	bool timed = t0 != NULL;
	struct spe_decoder dec;
	struct spe_record rec;
	int score = CUT_START;

	spe_decoder_init(&dec, NULL, buf, len, aux_off);
	for (int i = 0; i < SPE_CUT_RECORDS; i++) {
		int ret = spe_decoder_next(&dec, &rec);

		if (ret == 0)	/* the end: of the buffer, or of what was read */
			return buffer_ends ? score | (timed ? CUT_TIMED : 0) : 0;
		if (ret != 1 || rec.n_unknown)
			return 0;
		if (!i && (rec.present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2)))
			score |= CUT_CTX;
		if (!(rec.present & SPE_REC_TIMESTAMP) || rec.timestamp < last ||
		    (t0 && rec.timestamp - *t0 >= 1ull << 32))
			timed = false;
		last = rec.timestamp;
	}
	return score | (timed ? CUT_TIMED : 0);
}

/*
 * Where in buf (read from near on, the first lim bytes) records start:
 * a place right after an End byte or a Timestamp packet, the first of the
 * best records_start_at() score.
 */
static bool find_record_start(const uint8_t *buf, size_t len, size_t lim, uint64_t aux_off,
			      bool buffer_ends, size_t *at)
{
	int best = 0;

	for (size_t j = 1; j < lim && best < (CUT_START | CUT_CTX | CUT_TIMED); j++) {
		bool after_ts = j >= 9 && buf[j - 9] == SPE_HDR_TIMESTAMP;
		uint64_t t0;
		int score;

		if (!after_ts && buf[j - 1] != SPE_HDR_END)
			continue;
		t0 = after_ts ? spe_load_le(buf + j - 8, 8) : 0;
		score = records_start_at(buf + j, len - j, aux_off + j, buffer_ends,
					 after_ts ? &t0 : NULL);
		if (score > best) {
			best = score;
			*at = j;
		}
	}
	return best > 0;
}

static int find_cut(struct spe_session *s, const struct spe_perf_reader_event *ev, void *ctx)
{
	const struct spe_perf_auxtrace_event *a = (const void *)ev->header;
	struct cut_search *cs = ctx;
	uint64_t start = cs->seen, size = ev->aux_data_size, in, n;
	uint8_t *buf;
	size_t j;

	if (a->idx != cs->queue || cs->found)
		return 0;
	cs->seen += size;
	if (cs->near >= cs->seen)
		return 0;
	cs->found = true;
	in = cs->near - start;
	if (!in) {
		cs->at = start;	/* a buffer's start: no record crosses it */
		return 0;
	}
	n = SPE_SESSION_CUT_SEARCH + SPE_RECORD_MAX_BYTES * SPE_CUT_RECORDS;
	if (n > size - in)
		n = size - in;
	buf = malloc((size_t)n);
	if (!buf) {
		cs->err = SPE_ERR_NOMEM;
		return 1;
	}
	cs->at = cs->seen;	/* no place found: the buffer's end */
	if (spe_perf_reader_pread(s->r, buf, (size_t)n, ev->aux_data_offset + in)) {
		cs->err = SPE_ERR_IO;
	} else if (find_record_start(buf, (size_t)n, n < SPE_SESSION_CUT_SEARCH ?
				     (size_t)n : SPE_SESSION_CUT_SEARCH, a->offset + in,
				     n == size - in, &j)) {
		cs->at = cs->near + j;
	}
	free(buf);
	return cs->err ? 1 : 0;
}

int spe_session_cut_point(struct spe_session *s, uint32_t queue, uint64_t near, uint64_t *at)
{
	struct cut_search cs = { .queue = queue, .near = near };
	int err;

	if (!s->map || !spe_perf_reader_info(s->r)->has_auxtrace_index)
		return SPE_ERR_INVAL;
	err = walk_index(s, find_cut, &cs);
	if (cs.err)
		return cs.err;
	if (err)
		return err < 0 ? err : SPE_ERR_INVAL;
	*at = cs.found ? cs.at : cs.seen;
	return 0;
}

bool spe_session_cuts_join(const struct spe_session_cut_state *parts, unsigned n)
{
	int32_t ctx_tid = -1;
	uint64_t last_ts = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct spe_session_cut_state *p = &parts[i];

		if (i + 1 < n && !p->clean_end)
			return false;
		if (!p->records)
			continue;
		if ((!p->first_ctx && ctx_tid != -1) || last_ts >= p->first_limit)
			return false;
		ctx_tid = p->last_ctx_tid;
		last_ts = p->last_ts;
	}
	return true;
}

int spe_session_run(struct spe_session *s)
{
	struct spe_perf_reader_event ev;
	int ret = 0, err;

	err = queue_from_index(s);
	if (err)
		return err;
	if (s->data_queued && s->cfg.threads > 1)
		aux_queues_start_threads(&s->aq);

	/*
	 * As perf does with ordered events: records with a time wait for a
	 * FINISHED_ROUND, which releases those up to the newest time of the
	 * round before; records without a time (and AUXTRACE data, which is
	 * only queued) take effect at once.
	 */
	while (!s->stop && (ret = spe_perf_reader_next(s->r, &ev)) == 1) {
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
		snprintf(s->msg, sizeof(s->msg), "%s", spe_perf_reader_errmsg(s->r));
	}
	/* Whatever was read before the end (or the fault) is delivered. */
	if (!s->stop) {
		int e = flush_held(s, UINT64_MAX);

		if (!err)
			err = e;
	}
	if (!s->stop)
		deliver_records(s, UINT64_MAX);
	aux_queues_cut_states(&s->aq, s->st.cut);
	if (!err)
		err = s->io_err;
	if (err && !s->msg[0])
		snprintf(s->msg, sizeof(s->msg), "%s", spe_strerror(err));
	return err;
}

void spe_session_close(struct spe_session *s)
{
	if (!s)
		return;
	aux_queues_free(&s->aq);
	if (s->map)
		munmap((void *)s->map, s->map_len);
	spe_perf_reader_close(s->r);
	spe_tid_map_free(&s->threads);
	for (size_t i = 0; i < s->nr_held; i++)
		free(s->held[i].bytes);
	free(s->held);
	free(s->cpu_midr);
	free(s->cpu_tid);
	free(s->cpu_tid_time);
	free(s);
}

const struct spe_session_stats *spe_session_stats(const struct spe_session *s)
{
	return &s->st;
}

bool spe_session_split_agrees(const struct spe_session_stats *st, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; st[i].switch_applied && k < n; k++)
			if (k != i && st[k].ctx_seen &&
			    (!st[k].ctx_time || st[i].last_switch_time >= st[k].ctx_time))
				return false;
	return true;
}

const char *spe_session_errmsg(const struct spe_session *s)
{
	return s && s->msg[0] ? s->msg : "no error";
}

struct spe_perf_reader *spe_session_reader(const struct spe_session *s)
{
	return s->r;
}

const struct spe_auxtrace_info *spe_session_auxtrace_info(const struct spe_session *s)
{
	return &s->info;
}
