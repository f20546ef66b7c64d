/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A perf.data decoded by several sessions side by side (cli/split_sessions.c),
 * for the views whose results do not depend on the order of the records:
 * the AUX queues are split into sets of about equal bytes, each set decoded
 * by a session of its own in a thread of its own, with a context of its own
 * (symbols, counts) that the caller then adds up.
 *
 * A queue's records, pids and tids depend on its own data and the sideband
 * alone (spe_session_config's queue_set), so this gives what one session
 * gives, without passing every record from the core that decoded it to the
 * one that merges: on a 2-core machine that hand-over of 22.4 M records
 * cost more than it saved.
 */
#ifndef SPE_DECODE_CLI_SPLIT_SESSIONS_H
#define SPE_DECODE_CLI_SPLIT_SESSIONS_H

#include "samples.h"

#define SPE_SPLIT_MAX	64

struct spe_split {
	unsigned n;				/* sessions, 2..SPE_SPLIT_MAX */
	uint64_t set[SPE_SPLIT_MAX][SPE_SESSION_QUEUE_WORDS];
};

/*
 * Plans up to threads sessions for the file at path: its queues with data
 * (from the AUXTRACE index) dealt out largest first to the set with the
 * fewest bytes.  Returns true when that makes two sets or more, none with
 * over 5/4 of the mean; false for a pipe, a file without an index or with
 * one queue, sets that unequal, or threads < 2: the caller then decodes
 * in one session (with its decoding threads).
 */
bool spe_split_plan(const char *path, unsigned threads, struct spe_split *sp);

/*
 * Runs template (its cmd, path, itrace, on_sample, on_event, quiet) once
 * per set of sp, each in a thread with ctx[i] as its context.  Each error
 * is said once on stderr.  Fills *stats with the sessions' counts added
 * up.  Returns the exit status, as spe_samples_execute(), or
 * SPE_SPLIT_RETRY, having said nothing, when the sets did not give what
 * one session gives: a recording whose threads are named by CONTEXT
 * packets on some CPUs and by context switches on others (perf stops
 * listening to switches at the first CONTEXT packet of any CPU).  The
 * caller then decodes in one session, with fresh contexts.
 */
#define SPE_SPLIT_RETRY	(-1)
int spe_split_execute(const struct spe_samples_run *template, const struct spe_split *sp,
		      void *const *ctx, struct spe_session_stats *stats);

#endif /* SPE_DECODE_CLI_SPLIT_SESSIONS_H */
