// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Several sessions over disjoint spans of a perf.data's queues (split_sessions.h). */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "split_sessions.h"

/*
 * Where span k of sp's starts, as a share of total.  With more spans than
 * threads the spans shrink, in sizes 2n - 1, 2n - 3, ..., 3, 1 (sum n^2),
 * so that the threads, taking them in turn, finish within the last spans'
 * small size of each other: spans of equal size left one thread alone
 * with up to a whole span, an eighth of the work at 2 threads, after the
 * other was done.  A span per thread: equal spans, all taken at once.
 */
static uint64_t span_start(uint64_t total, const struct spe_split *sp, unsigned k)
{
	uint64_t n = sp->n, nn = n * n, w = 2 * n * k - (uint64_t)k * k;

	if (sp->n <= sp->threads)
		return total / n * k;
	/* total * w / nn without overflow: w <= nn <= 4096 */
	return total / nn * w + total % nn * w / nn;
}

/*
 * The queues end to end, cut into sp->n spans (span_start()).  A span's
 * end close to a queue's start or end moves there; elsewhere it moves to
 * where a record starts (spe_session_cut_point()).  Session i decodes
 * span i: the queues inside it whole, and parts (cuts) of the two at its
 * ends.
 */
static bool cut_queues(struct spe_session *s, const uint64_t *bytes, uint64_t total,
		       struct spe_split *sp)
{
	/* An eighth of the smallest span, the last. */
	uint64_t bound[SPE_SPLIT_MAX + 1], slack = (total - span_start(total, sp, sp->n - 1)) / 8;

	bound[0] = 0;
	bound[sp->n] = total;
	for (unsigned k = 1; k < sp->n; k++) {
		uint64_t target = span_start(total, sp, k), base = 0, at;
		uint32_t q = 0;

		while (target >= base + bytes[q])
			base += bytes[q++];
		if (target - base <= slack)
			at = 0;
		else if (base + bytes[q] - target <= slack)
			at = bytes[q];
		else if (spe_session_cut_point(s, q, target - base, &at))
			return false;
		bound[k] = base + at;
		if (bound[k] <= bound[k - 1] || bound[k] >= total)
			return false;
	}
	for (unsigned i = 0; i < sp->n; i++) {
		uint64_t base = 0;

		for (uint32_t q = 0; q < SPE_SESSION_MAX_QUEUES; base += bytes[q++]) {
			uint64_t lo = bound[i] > base ? bound[i] : base;
			uint64_t hi = bound[i + 1] < base + bytes[q] ? bound[i + 1] : base + bytes[q];

			if (lo >= hi)
				continue;
			sp->set[i][q / 64] |= 1ull << (q % 64);
			if (lo == base && hi == base + bytes[q])
				continue;
			/* A span is contiguous: only its first and last queue
			 * can be in part. */
			sp->cut[i][sp->nr_cuts[i]++] = (struct spe_session_cut){
				.queue = q, .from = lo - base, .to = hi - base };
		}
	}
	return true;
}

bool spe_split_plan(const char *path, unsigned threads, struct spe_split *sp)
{
	struct spe_session_config cfg = { .no_decode = true };
	uint64_t *bytes = NULL, total = 0, per_thread;
	struct spe_session *s = NULL;
	struct stat st;
	bool ok = false;
	int with = 0, fd;

	memset(sp, 0, sizeof(*sp));
	if (threads < 2 || !path || !strcmp(path, "-"))
		return false;
	if (threads > SPE_SPLIT_MAX)
		threads = SPE_SPLIT_MAX;
	/*
	 * A regular file only: each session opens it again (a pipe cannot
	 * be, and perf record --threads' directory would be joined again).
	 * Quietly: a file that cannot be read is said once, by the single
	 * session the caller then runs.  Known by stat() before any open():
	 * opening a FIFO only to look at it woke its writer, whose data then
	 * went to this probe, or whose next write met no reader (SIGPIPE),
	 * and the one session that reads the FIFO got nothing.
	 */
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	bytes = calloc(SPE_SESSION_MAX_QUEUES, sizeof(*bytes));
	if (bytes && !fstat(fd, &st) && S_ISREG(st.st_mode) && !spe_session_open(&s, fd, &cfg))
		with = spe_session_queue_bytes(s, bytes, SPE_SESSION_MAX_QUEUES);
	for (uint32_t q = 0; with > 0 && q < SPE_SESSION_MAX_QUEUES; q++)
		total += bytes[q];
	if (with > 0) {
		per_thread = total / threads / SPE_SPLIT_SPAN_BYTES;
		if (per_thread > SPE_SPLIT_SPANS_PER_THREAD)
			per_thread = SPE_SPLIT_SPANS_PER_THREAD;
		sp->threads = threads;
		sp->n = threads * (per_thread ? (unsigned)per_thread : 1);
		if (sp->n > SPE_SPLIT_MAX)
			sp->n = SPE_SPLIT_MAX;
		ok = cut_queues(s, bytes, total, sp);
	}
	spe_session_close(s);
	close(fd);
	free(bytes);
	return ok;
}

struct part {
	struct spe_samples_run run;
	char err[512];
	int status;
};

/* The sessions still to run, taken in turn by the threads. */
struct span_queue {
	struct part *parts;
	unsigned n;
	atomic_uint next;
	struct spe_split *sp;
};

/* A thread taking spans: the queue, and which thread it is (ran_by). */
struct span_worker_arg {
	struct span_queue *sq;
	unsigned thread;
};

static void *span_worker(void *arg)
{
	const struct span_worker_arg *wa = arg;
	struct span_queue *sq = wa->sq;
	unsigned i;

	while ((i = atomic_fetch_add(&sq->next, 1)) < sq->n) {
		sq->parts[i].status = spe_samples_execute(&sq->parts[i].run);
		/* Before span_done, which may free what the run points to;
		 * its stats are its own. */
		sq->sp->ran_by[i] = wa->thread;
		sq->sp->records[i] = sq->parts[i].run.stats.records;
		if (sq->sp->span_done)
			sq->sp->span_done(sq->sp->span_done_arg, i);
	}
	return NULL;
}

void spe_split_say_threads(const struct spe_split *sp, const char *cmd)
{
	fprintf(stderr, "spe-decode %s: %u spans on %u threads\n", cmd, sp->n, sp->threads);
	for (unsigned t = 0; t < sp->threads; t++) {
		unsigned spans = 0;
		uint64_t records = 0;

		for (unsigned i = 0; i < sp->n; i++)
			if (sp->ran_by[i] == t) {
				spans++;
				records += sp->records[i];
			}
		fprintf(stderr, "spe-decode %s: thread %u: %u span%s, %llu records\n", cmd, t + 1,
			spans, spans == 1 ? "" : "s", (unsigned long long)records);
	}
}

/* The sessions' counts as one session's: the sideband's (AUX flags, lost
 * events, AUXTRACE records) every session counted, the records' each
 * counted for its own queues. */
static void add_stats(struct spe_session_stats *sum, const struct spe_session_stats *st, bool first)
{
	if (first) {
		*sum = *st;
		return;
	}
	if (st->decode_errors && (!sum->decode_errors ||
				  st->first_decode_error_offset < sum->first_decode_error_offset))
		sum->first_decode_error_offset = st->first_decode_error_offset;
	sum->records += st->records;
	sum->partial_records += st->partial_records;
	sum->decode_errors += st->decode_errors;
	sum->nr_queues += st->nr_queues;
}

/* Which of session i's cuts is of queue q, -1: none. */
static int cut_of(const struct spe_split *sp, unsigned i, uint32_t q)
{
	for (unsigned c = 0; c < sp->nr_cuts[i]; c++)
		if (sp->cut[i][c].queue == q)
			return (int)c;
	return -1;
}

/* Did each queue cut between sessions decode as it would have whole?  Its
 * parts are in sessions side by side, the first from the queue's byte 0. */
static bool cuts_join(const struct spe_split *sp, const struct spe_session_stats *st)
{
	for (unsigned i = 0; i < sp->n; i++)
		for (unsigned c = 0; c < sp->nr_cuts[i]; c++) {
			struct spe_session_cut_state parts[SPE_SPLIT_MAX];
			uint32_t q = sp->cut[i][c].queue;
			unsigned n = 0;
			int at;

			if (sp->cut[i][c].from)
				continue;
			parts[n++] = st[i].cut[c];
			for (unsigned k = i + 1; k < sp->n && (at = cut_of(sp, k, q)) >= 0; k++)
				parts[n++] = st[k].cut[at];
			if (!spe_session_cuts_join(parts, n))
				return false;
		}
	return true;
}

int spe_split_execute(struct spe_samples_run *run, struct spe_split *sp, void *const *ctx)
{
	struct part *parts = calloc(sp->n, sizeof(*parts));
	struct span_queue sq = { .parts = parts, .n = sp->n, .sp = sp };
	pthread_t thread[SPE_SPLIT_MAX];
	struct span_worker_arg wa[SPE_SPLIT_MAX];
	unsigned started = 0;
	bool mixed = false;
	int status = 0;

	if (!parts) {
		fprintf(stderr, "spe-decode %s: out of memory\n", run->cmd);
		return 1;
	}
	for (unsigned i = 0; i < sp->n; i++) {
		struct part *p = &parts[i];

		p->run = *run;
		p->run.ctx = ctx[i];
		p->run.threads = 1;
		p->run.quiet = true;
		p->run.queue_set = sp->set[i];
		p->run.cuts = sp->cut[i];
		p->run.nr_cuts = sp->nr_cuts[i];
		p->run.errbuf = p->err;
		p->run.errlen = sizeof(p->err);
		/* Said once below, for their sum. */
		p->run.defer_decode_errors = true;
	}
	atomic_init(&sq.next, 0);
	for (unsigned t = 0; t < sp->threads && t < SPE_SPLIT_MAX; t++)
		wa[t] = (struct span_worker_arg){ .sq = &sq, .thread = t };
	/* This thread takes spans too; without more threads, all of them. */
	while (started + 1 < sp->threads && started + 1 < sp->n &&
	       !pthread_create(&thread[started], NULL, span_worker, &wa[started + 1]))
		started++;
	span_worker(&wa[0]);
	while (started)
		pthread_join(thread[--started], NULL);
	{
		struct spe_session_stats st[SPE_SPLIT_MAX];

		for (unsigned i = 0; i < sp->n; i++)
			st[i] = parts[i].run.stats;
		mixed = !spe_session_split_agrees(st, sp->n);
		if (mixed)
			sp->retry_reason = "threads named by CONTEXT packets on some CPUs and by context switches on others";
		else if (!cuts_join(sp, st)) {
			mixed = true;
			sp->retry_reason = "a queue's parts did not join where it was cut";
		}
	}
	for (unsigned i = 0; !mixed && i < sp->n; i++) {
		struct part *p = &parts[i];
		bool said = false;

		/* A fault of the file every session met is said once. */
		for (unsigned k = 0; k < i && p->err[0]; k++)
			said |= !strcmp(parts[k].err, p->err);
		if (p->err[0] && !said)
			fputs(p->err, stderr);
		if (p->status > status)
			status = p->status;
		add_stats(&run->stats, &p->run.stats, i == 0);
		run->nr_samples = (i ? run->nr_samples : 0) + p->run.nr_samples;
	}
	if (mixed) {
		free(parts);
		return SPE_SPLIT_RETRY;
	}
	run->info = parts[0].run.info;
	run->midr = parts[0].run.midr;
	run->no_spe = parts[0].run.no_spe;
	if (!run->defer_decode_errors && spe_samples_decode_errors(run))
		status = status > 1 ? status : 1;
	if (!run->quiet)
		spe_samples_summary(run);
	free(parts);
	return status;
}
