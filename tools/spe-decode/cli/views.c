// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The analysis views' pipeline and their output files (views.h). */
#include <errno.h>
#include <fcntl.h>
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

int spe_view_option(struct spe_view_run *vr, int c, const char *arg)
{
	int k = spe_filter_option(&vr->filter, vr->cmd, c, arg);

	return k ? k : spe_cli_common_option(vr->cmd, c, &vr->path, &vr->threads, &vr->symcfg);
}

int spe_view_run_execute(struct spe_view_run *vr)
{
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
	if (!status)
		status = spe_samples_execute(&vr->r);
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

