// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Several sessions over disjoint sets of a perf.data's queues (split_sessions.h). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "split_sessions.h"

bool spe_split_plan(const char *path, unsigned threads, struct spe_split *sp)
{
	struct spe_session_config cfg = { .no_decode = true };
	uint64_t *bytes = NULL, load[SPE_SPLIT_MAX] = { 0 }, total = 0;
	struct spe_session *s = NULL;
	struct stat st;
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
	 * session the caller then runs.
	 */
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	bytes = calloc(SPE_SESSION_MAX_QUEUES, sizeof(*bytes));
	if (bytes && !fstat(fd, &st) && S_ISREG(st.st_mode) && !spe_session_open(&s, fd, &cfg))
		with = spe_session_queue_bytes(s, bytes, SPE_SESSION_MAX_QUEUES);
	spe_session_close(s);
	close(fd);
	if (with < 2) {
		free(bytes);
		return false;
	}
	sp->n = (unsigned)with < threads ? (unsigned)with : threads;
	/* Largest first, each to the lightest set: within 4/3 of the best. */
	for (;;) {
		uint32_t big = 0;
		unsigned light = 0;

		for (uint32_t q = 1; q < SPE_SESSION_MAX_QUEUES; q++)
			if (bytes[q] > bytes[big])
				big = q;
		if (!bytes[big])
			break;
		for (unsigned i = 1; i < sp->n; i++)
			if (load[i] < load[light])
				light = i;
		sp->set[light][big / 64] |= 1ull << (big % 64);
		load[light] += bytes[big];
		total += bytes[big];
		bytes[big] = 0;
	}
	free(bytes);
	/*
	 * Sets far from equal (one queue with most of the data): the
	 * decoding threads of one session spread that queue's work better,
	 * where handing records between cores is cheap.
	 */
	for (unsigned i = 0; i < sp->n; i++)
		if (load[i] * 4 > total * 5 / sp->n)
			return false;
	return true;
}

struct part {
	struct spe_samples_run run;
	char err[512];
	int status;
	pthread_t thread;
	bool started;
};

static void *part_main(void *arg)
{
	struct part *p = arg;

	p->status = spe_samples_execute(&p->run);
	return NULL;
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

int spe_split_execute(const struct spe_samples_run *template, const struct spe_split *sp,
		      void *const *ctx, struct spe_session_stats *stats)
{
	struct part *parts = calloc(sp->n, sizeof(*parts));
	bool mixed = false;
	int status = 0;

	if (!parts) {
		fprintf(stderr, "spe-decode %s: out of memory\n", template->cmd);
		return 1;
	}
	for (unsigned i = 0; i < sp->n; i++) {
		struct part *p = &parts[i];

		p->run = *template;
		p->run.ctx = ctx[i];
		p->run.threads = 1;
		p->run.quiet = true;
		p->run.queue_set = sp->set[i];
		p->run.errbuf = p->err;
		p->run.errlen = sizeof(p->err);
		/* Without a thread, the session runs here, in turn. */
		p->started = !pthread_create(&p->thread, NULL, part_main, p);
		if (!p->started)
			part_main(p);
	}
	for (unsigned i = 0; i < sp->n; i++)
		if (parts[i].started)
			pthread_join(parts[i].thread, NULL);
	{
		struct spe_session_stats st[SPE_SPLIT_MAX];

		for (unsigned i = 0; i < sp->n; i++)
			st[i] = parts[i].run.stats;
		mixed = !spe_session_split_agrees(st, sp->n);
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
		add_stats(stats, &p->run.stats, i == 0);
	}
	if (mixed) {
		free(parts);
		return SPE_SPLIT_RETRY;
	}
	if (!template->quiet) {
		struct spe_samples_run sum = *template;

		sum.stats = *stats;
		spe_samples_summary(&sum);
	}
	free(parts);
	return status;
}
