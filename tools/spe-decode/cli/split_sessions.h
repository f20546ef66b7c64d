/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A perf.data decoded by several sessions side by side (cli/split_sessions.c),
 * for the views whose results do not depend on the order of the records:
 * the AUX queues, end to end, are cut into spans (of shrinking size when
 * there are more than threads), each decoded by a session of its own,
 * with a context of its own (symbols, counts) that the caller then adds
 * up; threads take the spans in turn.
 *
 * A queue's records, pids and tids depend on its own data and the sideband
 * alone (spe_session_config's queue_set and cuts), so this gives what one
 * session gives, without passing every record from the core that decoded
 * it to the one that merges: on a 2-core machine that hand-over of 22.4 M
 * records cost more than it saved.  Where it does not (the two cases of
 * spe_split_execute()), the caller decodes again in one session.
 */
#ifndef SPE_DECODE_CLI_SPLIT_SESSIONS_H
#define SPE_DECODE_CLI_SPLIT_SESSIONS_H

#include "samples.h"

#define SPE_SPLIT_MAX	64

/*
 * A large file is cut into more spans than threads, up to this many per
 * thread, on average at least SPE_SPLIT_SPAN_BYTES: a thread that is
 * done takes the next span, so a slower core (a vCPU of a busy host) holds
 * the others back less.  Not more: each session reads the sideband again and
 * loads symbols of its own.
 */
#define SPE_SPLIT_SPANS_PER_THREAD	4
#define SPE_SPLIT_SPAN_BYTES		(32ull << 20)

struct spe_split {
	unsigned n;				/* sessions, 2..SPE_SPLIT_MAX */
	unsigned threads;			/* that run them, 2..n */
	uint64_t set[SPE_SPLIT_MAX][SPE_SESSION_QUEUE_WORDS];
	/* Queues of a set that session decodes only a part of. */
	struct spe_session_cut cut[SPE_SPLIT_MAX][SPE_SESSION_MAX_CUTS];
	unsigned nr_cuts[SPE_SPLIT_MAX];
	/* Why spe_split_execute() returned SPE_SPLIT_RETRY. */
	const char *retry_reason;
	/*
	 * Set by the caller after spe_split_plan(), or left NULL: called
	 * with span_done_arg and i in the thread that ran span i, as soon as
	 * it is done, so that its counts are added up (and freed) while the
	 * other spans run, not all kept to the end.
	 */
	void (*span_done)(void *arg, unsigned i);
	void *span_done_arg;
	/* Filled in by spe_split_execute(): which thread ran span i (0 the
	 * caller's, then in the order started), and its records. */
	unsigned ran_by[SPE_SPLIT_MAX];
	uint64_t records[SPE_SPLIT_MAX];
};

/*
 * Plans sessions for threads threads over the file at path, from the bytes
 * of each queue in its AUXTRACE index: the queues laid end to end and cut
 * into spans, equal for a span per thread, shrinking towards the end when
 * more; one session each (whole queues, and parts of at most two at its
 * ends, cut where a record starts: spe_session_cut_point()).  Returns
 * true when that makes two spans or more; false for a pipe, a file
 * without an index or without AUX data, a cut that cannot be placed, or
 * threads < 2: the caller then decodes in one session (with its decoding
 * threads).
 */
bool spe_split_plan(const char *path, unsigned threads, struct spe_split *sp);

/*
 * Runs run (its cmd, path, itrace, on_sample, on_event, quiet) once per
 * span of sp, in up to sp->threads threads, with ctx[i] as span i's
 * context.  Each error is said once on stderr.  Fills run's results
 * (stats and nr_samples added up, info and midr) as one session would.
 * Returns the exit status, as spe_samples_execute(), or SPE_SPLIT_RETRY,
 * having said nothing but sp->retry_reason, when the sessions did not give
 * what one session gives: a recording whose threads are named by CONTEXT
 * packets on some CPUs and by context switches on others (perf stops
 * listening to switches at the first CONTEXT packet of any CPU), or a
 * queue whose parts do not join (spe_session_cuts_join()).  The caller
 * then decodes in one session, with fresh contexts.
 */
#define SPE_SPLIT_RETRY	(-1)
int spe_split_execute(struct spe_samples_run *run, struct spe_split *sp, void *const *ctx);

/*
 * After spe_split_execute(): how the work was split, on stderr (-v), a
 * line for the spans and threads, then one per thread with the spans it
 * ran and their records:
 *   spe-decode CMD: 8 spans on 2 threads
 *   spe-decode CMD: thread 1: 4 spans, 1600000 records
 */
void spe_split_say_threads(const struct spe_split *sp, const char *cmd);

#endif /* SPE_DECODE_CLI_SPLIT_SESSIONS_H */
