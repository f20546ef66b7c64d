/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pipeline of the analysis views (report --sort, c2c, html, pprof):
 * every record once, as its instructions sample, with its symbol, source
 * line, data symbol and thread name resolved as the view asks.
 */
#ifndef SPE_DECODE_CLI_VIEWS_H
#define SPE_DECODE_CLI_VIEWS_H

#include "common_options.h"
#include "filter.h"
#include "samples.h"
#include "spe_views.h"

struct spe_view_run {
	const char *cmd;
	const char *path;
	struct spe_sym_config symcfg;
	bool want_srcline, want_dsym, want_comm;	/* in struct spe_view_sample */
	unsigned threads;		/* decoding threads, 0: default */
	/* The samples the view sees: perf's filters (filter.h), the same in
	 * both passes of a view that reads its input twice. */
	struct spe_filter filter;
	int (*on_view)(void *ctx, const struct spe_view_sample *vs);
	/* Whether on_view needs a sample at all (NULL: every one); the
	 * others are not resolved. */
	bool (*wants)(void *ctx, const struct spe_sample *s);
	/* Every perf.data record after the symboliser saw it (may be NULL). */
	int (*on_event)(void *ctx, const struct spe_perf_reader_event *ev);
	void *ctx;
	/* A second pass over the file: what is wrong with it was said by
	 * the first, and is not said again (its exit status still counts). */
	bool again;
	/* -v: say on stderr how the work was split between threads. */
	bool verbose;
	/*
	 * A view whose counts add up (report --sort) sets these: then,
	 * without filters, wants or on_event, the pipeline runs as sessions
	 * side by side over spans of the file's queues (split_sessions.h),
	 * each counting into a context of its own (part_new(part_arg), given
	 * to on_view): the first one done replaces ctx (part_free()), the
	 * others part_merge() adds into it as soon as their session is done
	 * (in that session's thread, one at a time) and part_free() frees.
	 * ctx must be new and empty, as part_new() makes them.  When the
	 * sessions did not give what one session gives, ctx is replaced by
	 * a new one and the pipeline runs as one session.
	 */
	void *(*part_new)(void *part_arg);
	int (*part_merge)(void *ctx, void *part);
	void (*part_free)(void *part);
	void *part_arg;
	/* Filled in: */
	struct spe_samples_run r;
	uint64_t nr_kept;		/* samples that passed the filters (and wants) */
	bool filtering;			/* any filter given */
	struct spe_symbols *syms;
	struct spe_srcline *sl;
};

/* The options of the views' command lines that fill in @vr: -i FILE (or
 * the operand), -j N, the symbol options and the filters. */
void spe_view_run_options(struct spe_view_run *vr, const struct spe_cli_opts *o);

/* Runs the pipeline; returns the exit status (0, 1 data error, 2 usage).
 * The symboliser stays open (for the caller's printing) until
 * spe_view_run_free(). */
int spe_view_run_execute(struct spe_view_run *vr);
/*
 * For the commands that read their input twice (c2c, html): false, having
 * said why, when path is stdin ("-") or a FIFO, which a second pass would
 * wait on forever.
 */
bool spe_view_input_rereadable(const char *cmd, const char *path);
void spe_view_run_free(struct spe_view_run *vr);
/* Between two passes: the first pass's tables are freed; their pages go
 * back to the system (glibc keeps them otherwise) before the second pass
 * maps the file again. */
void spe_view_release_freed(void);

#endif /* SPE_DECODE_CLI_VIEWS_H */
