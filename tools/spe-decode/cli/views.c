// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The analysis views' pipeline and their output files (views.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "kernel_symbols.h"
#include "split_sessions.h"
#include "tracepoint_sample.h"
#include "views.h"

static int on_sample(void *ctx, const struct spe_sample *s)
{
	struct spe_view_run *vr = ctx;
	struct spe_sym sym, dsym;
	struct spe_view_sample vs = { .s = s, .sym = &sym };

	/* The cheap filters first: a sample they drop costs no lookup.
	 * Without filters, one test of a flag per sample. */
	if ((vr->filtering && !spe_filter_sample(&vr->filter, s)) ||
	    (vr->wants && !vr->wants(vr->ctx, s)))
		return 0;
	spe_symbols_lookup(vr->syms, s->pid, s->ip, s->cpumode, &sym);
	if (vr->filtering && !spe_filter_names_of(&vr->filter, vr->syms, s, &sym))
		return 0;
	vr->nr_kept++;
	if (vr->want_srcline)
		vs.srcline = spe_srcline_get(vr->sl, &sym);
	if (vr->want_dsym && s->addr) {
		spe_symbols_lookup(vr->syms, s->pid, s->addr, s->cpumode, &dsym);
		vs.dsym = &dsym;
	}
	if (vr->want_comm)
		vs.comm = spe_symbols_comm(vr->syms, s->tid);
	return vr->on_view(vr->ctx, &vs);
}

static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	struct spe_view_run *vr = ctx;

	/* The samples of tracepoints recorded with arm_spe hold no SPE
	 * data: no view has a place for them (script prints them). */
	if (spe_tp_is_sample(ev))
		return 0;
	spe_symbols_event(vr->syms, ev);
	return vr->on_event ? vr->on_event(vr->ctx, ev) : 0;
}

void spe_view_run_options(struct spe_view_run *vr, const struct spe_cli_opts *o)
{
	vr->path = o->path;
	vr->threads = o->threads;
	vr->symcfg = o->symcfg;
	vr->filter = o->filter;
}

/* The sessions side by side of a view whose counts add up (part_new). */
struct view_split {
	struct spe_view_run *vr;
	struct spe_view_run *sub;	/* span i's pipeline: symbols, counts */
	pthread_mutex_t lock;
	bool merge_failed;
	bool taken;			/* a span's counts became vr->ctx */
};

/* Span i is done (in its thread): its counts go into the view's. */
static void span_done(void *arg, unsigned i)
{
	struct view_split *vs = arg;
	struct spe_view_run *sub = &vs->sub[i];

	void *done = sub->ctx;

	pthread_mutex_lock(&vs->lock);
	if (!vs->taken) {
		/* The first span done: its counts are the view's, not added
		 * into an empty copy, so that two spans' counts (not three)
		 * are in memory at once. */
		done = vs->vr->ctx;
		vs->vr->ctx = sub->ctx;
		vs->taken = true;
	} else if (!vs->merge_failed && vs->vr->part_merge(vs->vr->ctx, sub->ctx)) {
		vs->merge_failed = true;
	}
	vs->vr->nr_kept += sub->nr_kept;
	pthread_mutex_unlock(&vs->lock);
	vs->vr->part_free(done);
	sub->ctx = NULL;
	spe_srcline_free(sub->sl);
	sub->sl = NULL;
}

static void free_subs(struct spe_view_run *sub, unsigned n, const struct spe_view_run *vr)
{
	for (unsigned i = 0; i < n; i++) {
		if (sub[i].ctx)
			vr->part_free(sub[i].ctx);
		spe_srcline_free(sub[i].sl);
		spe_symbols_free(sub[i].syms);
	}
	free(sub);
}

/*
 * The pipeline as sessions side by side (vr->part_new): each span with
 * symbols of its own (sharing vr's tables), its source lines and counts.
 * Returns the exit status, or SPE_SPLIT_RETRY with vr->ctx a new, empty one.
 */
static int run_split(struct spe_view_run *vr, struct spe_split *sp)
{
	struct view_split vs = { .vr = vr };
	void *ctx[SPE_SPLIT_MAX];
	char err[256] = "";
	int status;

	vs.sub = calloc(sp->n, sizeof(*vs.sub));
	if (!vs.sub)
		goto nomem;
	for (unsigned i = 0; i < sp->n; i++) {
		struct spe_view_run *sub = &vs.sub[i];

		*sub = (struct spe_view_run){
			.cmd = vr->cmd, .path = vr->path, .symcfg = vr->symcfg,
			.want_srcline = vr->want_srcline, .want_dsym = vr->want_dsym,
			.want_comm = vr->want_comm,
			.on_view = vr->on_view,
		};
		ctx[i] = sub;
		if (!(sub->ctx = vr->part_new(vr->part_arg)) ||
		    spe_cli_symbols_share(&sub->syms, &sub->symcfg, vr->cmd, vr->path, vr->syms,
					  err, sizeof(err)) ||
		    spe_srcline_new(&sub->sl, vr->symcfg.symfs))
			goto nomem;
		spe_srcline_set_demangle(sub->sl, !vr->symcfg.no_demangle);
	}
	pthread_mutex_init(&vs.lock, NULL);
	sp->span_done = span_done;
	sp->span_done_arg = &vs;
	status = spe_split_execute(&vr->r, sp, ctx);
	if (vr->verbose && status == SPE_SPLIT_RETRY)
		fprintf(stderr, "spe-decode %s: %s: decoding again in one session\n", vr->cmd,
			sp->retry_reason);
	else if (vr->verbose)
		spe_split_say_threads(sp, vr->cmd);
	pthread_mutex_destroy(&vs.lock);
	free_subs(vs.sub, sp->n, vr);
	if (vs.merge_failed)
		goto nomem_said;
	if (status == SPE_SPLIT_RETRY) {
		void *fresh = vr->part_new(vr->part_arg);

		if (!fresh)
			goto nomem_said;
		vr->part_free(vr->ctx);
		vr->ctx = fresh;
		vr->nr_kept = 0;
		memset(&vr->r.stats, 0, sizeof(vr->r.stats));
	}
	return status;
nomem:
	if (vs.sub)
		free_subs(vs.sub, sp->n, vr);
nomem_said:
	fprintf(stderr, "spe-decode %s: %s\n", vr->cmd, err[0] ? err : "out of memory");
	return 1;
}

int spe_view_run_execute(struct spe_view_run *vr)
{
	struct spe_split sp;
	char err[256] = "", said[256];
	int status;

	if (spe_cli_symbols_new(&vr->syms, &vr->symcfg, vr->cmd, vr->path, err, sizeof(err)) ||
	    spe_srcline_new(&vr->sl, vr->symcfg.symfs)) {
		fprintf(stderr, "spe-decode %s: %s\n", vr->cmd, err[0] ? err : "out of memory");
		return 1;
	}
	spe_srcline_set_demangle(vr->sl, !vr->symcfg.no_demangle);
	vr->r = (struct spe_samples_run){
		.cmd = vr->cmd, .path = vr->path, .on_sample = on_sample,
		.on_event = on_event, .ctx = vr, .quiet = true, .threads = vr->threads,
	};
	/* Every record once: its instructions sample, period 1. */
	spe_itrace_parse("i1i", &vr->r.itrace, &(const char *){ NULL });
	/* Loads and stores are the memory operations, whatever perf 6.1
	 * or 7.3 take for one (SVE "other", calls): perf 6.12's rule. */
	vr->r.itrace.perf_version = SPE_PERF_6_12;
	if (vr->again) {
		vr->r.errbuf = said;
		vr->r.errlen = sizeof(said);
	}
	/* --time percentages: a pass of its own for the recording's span
	 * (once: the ranges stay resolved for a second pass). */
	vr->nr_kept = 0;
	vr->filtering = spe_filter_active(&vr->filter);
	status = spe_filter_prepare(&vr->filter, vr->cmd, vr->path, &vr->r.itrace);
	/* Counts that add up, of every sample: sessions side by side. */
	if (!status && vr->part_new && !vr->filtering && !vr->wants && !vr->on_event &&
	    !vr->again && spe_split_plan(vr->path, vr->threads ? vr->threads :
					 spe_cli_default_threads(), &sp)) {
		status = run_split(vr, &sp);
		if (status != SPE_SPLIT_RETRY)
			goto done;
		status = 0;
	}
	if (!status && vr->verbose)
	{
		unsigned n = vr->threads ? vr->threads : spe_cli_default_threads();

		fprintf(stderr, "spe-decode %s: one session, %u decoding thread%s\n", vr->cmd, n,
			n == 1 ? "" : "s");
	}
	if (!status)
		status = spe_samples_execute(&vr->r);
done:
	vr->r.errbuf = NULL;
	return status;
}

bool spe_view_input_rereadable(const char *cmd, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") && (stat(path, &st) || !S_ISFIFO(st.st_mode)))
		return true;	/* a file, a directory, or an error said later */
	fprintf(stderr, "spe-decode %s: reads its input twice: give a file, not %s\n", cmd,
		strcmp(path, "-") ? "a FIFO" : "'-'");
	return false;
}

void spe_view_release_freed(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

void spe_view_run_free(struct spe_view_run *vr)
{
	spe_symbols_free(vr->syms);
	spe_srcline_free(vr->sl);
	vr->syms = NULL;
	vr->sl = NULL;
}

