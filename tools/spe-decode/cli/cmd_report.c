// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode report: the summary of an SPE perf.data a performance engineer
 * reads first (top symbols, latency percentiles per operation, data sources
 * and miss rates of loads and stores, branch mispredicts, lost data).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common_options.h"
#include "cost_report.h"
#include "filter.h"
#include "input.h"
#include "kernel_symbols.h"
#include "perf_header.h"
#include "perf_options.h"
#include "samples.h"
#include "split_sessions.h"
#include "spe_report.h"
#include "spe_views.h"
#include "tracepoint_sample.h"

struct rep {
	/* First: the context of spe_report_feed_record(), which is also
	 * on_event()'s (a session gives both callbacks one). */
	struct spe_report_feed feed;	/* the counts, the symbols */
	struct spe_filter filter;
	/* Samples of the tracepoints recorded with arm_spe: no part of an
	 * SPE summary, only counted in its Data section.  Every session of
	 * a split run sees all of them. */
	uint64_t tracepoint_samples;
};

static int on_sample(void *ctx, const struct spe_sample *s)
{
	struct rep *rp = ctx;
	struct spe_sym sym;

	if (!spe_filter_sample(&rp->filter, s))
		return 0;
	spe_symbols_lookup(rp->feed.syms, s->pid, s->ip, s->cpumode, &sym);
	if (!spe_filter_names_of(&rp->filter, rp->feed.syms, s, &sym))
		return 0;
	spe_report_add(rp->feed.r, s, &sym);
	return 0;
}

static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	struct rep *rp = ctx;

	if (spe_tp_is_sample(ev))
		rp->tracepoint_samples++;
	spe_symbols_event(rp->feed.syms, ev);
	return 0;
}

/* -v: which queues each session decodes. */
static void say_split(const struct spe_split *sp)
{
	fprintf(stderr, "spe-decode report: %u sessions, queues", sp->n);
	for (unsigned i = 0; i < sp->n; i++) {
		const char *sep = " ";

		for (uint32_t q = 0; q < SPE_SESSION_MAX_QUEUES; q++)
			if (sp->set[i][q / 64] >> (q % 64) & 1) {
				fprintf(stderr, "%s%u", sep, q);
				sep = ",";
				for (unsigned c = 0; c < sp->nr_cuts[i]; c++)
					if (sp->cut[i][c].queue == q)
						fprintf(stderr, " bytes %" PRIu64 "-%" PRIu64,
							sp->cut[i][c].from, sp->cut[i][c].to);
			}
		if (i + 1 < sp->n)
			fputs(" |", stderr);
	}
	fputc('\n', stderr);
}

/* The merged report points into every part's symbols: freed together. */
static void free_parts(struct rep *parts, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		spe_report_free(parts[i].feed.r);
		spe_symbols_free(parts[i].feed.syms);
	}
	free(parts);
}

/*
 * The summary on several cores: the file's queues split between sessions
 * of their own (cli/split_sessions.c), each with its own symbols and
 * counts, added up into parts[0] once all are done.  The counts do not
 * depend on the order of the records, so the summary is the one a single
 * session gives.  Only without filters (the caller's condition), so its
 * records go to spe_report_feed_record().  Returns the exit status; *merged
 * says whether parts[0] holds the sum (also of a file with a fault: what
 * the sessions decoded before it).
 */
static int run_split(struct spe_samples_run *r, struct spe_split *sp,
		     struct spe_sym_config *symcfg, struct rep *parts, bool *merged)
{
	void *ctx[SPE_SPLIT_MAX];
	char err[256] = "";
	int status;

	for (unsigned i = 0; i < sp->n; i++) {
		ctx[i] = &parts[i];
		/* Symbol tables load once, shared by the spans. */
		if (spe_report_new(&parts[i].feed.r) ||
		    spe_cli_symbols_share(&parts[i].feed.syms, symcfg, "report", r->path,
					  i ? parts[0].feed.syms : NULL, err, sizeof(err))) {
			fprintf(stderr, "spe-decode report: %s\n", err[0] ? err : "out of memory");
			return 1;
		}
	}
	status = spe_split_execute(r, sp, ctx);
	if (status == SPE_SPLIT_RETRY)
		return status;
	for (unsigned i = 1; i < sp->n; i++)
		if (spe_report_merge(parts[0].feed.r, parts[i].feed.r)) {
			fprintf(stderr, "spe-decode report: out of memory\n");
			return 1;
		}
	*merged = true;
	return status;
}

/*
 * Whether there is a summary to print: a file that breaks part-way (or
 * has bytes that are not SPE packets) gets the summary of what decoded
 * before the fault and exit status 1, as script, c2c and the others print
 * what precedes it; a file that gave nothing says why on stderr only.
 */
static bool printable(int status, const struct spe_samples_run *r)
{
	return !status || (status == 1 && !r->no_spe && r->stats.records);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode report [--top N] [--kallsyms FILE] [--symfs DIR] [--buildid-dir DIR]\n"
"                         [--no-demangle] [filters] [-i] [perf.data|-]\n"
"       spe-decode report --sort KEYS [--order COL] [--percent-limit P] [--top N] [filters] ...\n"
"Summarise the SPE records of a perf.data: top symbols, latency percentiles\n"
"per operation type, where loads and stores were served from, cache/TLB miss\n"
"rates, branch mispredict rate, lost and truncated data.\n"
"  --sort KEYS          a cost table grouped by KEYS instead: sym, dso, srcline,\n"
"                       symbol_daddr, data_src, op, cpu, pid, comm (comma-separated)\n"
"  --order COL          order its rows by: overhead (default: the share of\n"
"                       samples, ties as perf report), samples (the same), latency,\n"
"                       mean, p50, p90, p99, issue, xlat, sat, l1d-miss, llc-miss,\n"
"                       tlb-walk, remote, mispred\n"
"  --percent-limit P    leave out rows under P%% of the ordering column's total\n"
"  --top N              at most N rows (summary: default 20; table: all)\n"
"  --unresolved page|address\n"
"                       the table's rows of addresses without a symbol: one per\n"
"                       4 KiB page of each file (default), or one per address\n"
"  -j, --jobs N         decoding threads (default: one per usable CPU)\n"
"  -v, --verbose        say how the work was split between threads\n"
"perf report's options (spe-decode-perf-data(1), PERF'S OPTIONS):\n"
"  -s, --sort KEYS      as --sort; perf's keys symbol, overhead, mem, snoop, tlb,\n"
"                       local_weight too\n"
"  -t, --field-separator SEP  the --sort table's columns split by SEP\n"
"  --header, --header-only    the perf.data header, then the report / alone\n"
"  -D, --dump-raw-trace what spe-decode dump prints\n"
"  -q, --quiet          no warnings or notes\n"
"  --stdio, -f, --force, -n, --show-nr-samples, -k, --vmlinux FILE: accepted\n"
SPE_CLI_FILTER_HELP);
}

/* --sort, --order and --percent-limit: the cost table's. */
static int own_option(void *ctx, int c, const char *arg)
{
	struct spe_cost_report_opts *cost = ctx;
	char *end;

	switch (c) {
	case 'S':
		cost->sort = arg;
		break;
	case 'O':
		cost->order = arg;
		break;
	case 'P':
		cost->percent_limit = strtod(arg, &end);
		if (!*arg || *end || cost->percent_limit < 0 || cost->percent_limit > 100) {
			fprintf(stderr, "spe-decode report: --percent-limit: '%s' is not a percentage\n",
				arg);
			return 2;
		}
		break;
	}
	return 0;
}

/*
 * What perf report's options ask for instead of the summary, or before
 * it: -D (the raw trace, which for SPE is spe-decode dump's), --header
 * and --header-only, and the cost table (--sort, perf's -s).  Returns
 * SPE_CLI_GO when the summary follows, else the exit status.  A header
 * that cannot be read still leaves the report to print: exit 1 then, as
 * for any input fault (*header_status).
 */
static int other_outputs(struct spe_cli_opts *o, struct spe_cost_report_opts *cost,
			 const struct spe_filter *filter, int *header_status)
{
	const struct spe_perf_opts *po = &o->perf;
	int status;

	cost->unresolved = o->unresolved;
	if (po->sort && !cost->sort)	/* perf's -s is --sort */
		cost->sort = po->sort;
	cost->separator = po->separator;
	if (po->separator && !cost->sort && !spe_perf_quiet())
		fprintf(stderr, "spe-decode report: -t/--field-separator changes nothing: it "
			"splits the columns of --sort tables, and this is the summary\n");
	if (po->dump) {
		optind = 0;	/* dump parses its own command line */
		return spe_cmd_dump.run(2, (char *[]){ "spe-decode report", (char *)o->path, NULL });
	}
	if (po->header || po->header_only) {
		*header_status = spe_perf_header_print(stdout, "report", o->path);
		if (po->header_only)
			return *header_status;
		fflush(stdout);
	}
	if (!cost->sort)
		return SPE_CLI_GO;
	cost->path = o->path;
	cost->threads = o->threads;
	cost->verbose = o->verbose;
	cost->symcfg = o->symcfg;
	cost->top = o->top;
	cost->filter = filter;
	status = spe_cli_cost_report(cost);
	return status ? status : *header_status;
}

/*
 * The summary's counts: a report and its symbols, of one session, or of
 * a split decode's sessions added up into parts[0] (whose symbols the
 * others' counts point into, so all are freed together).
 */
struct summary {
	struct rep rp;
	struct rep *parts;
	unsigned nr_parts;
};

static void summary_free(struct summary *sm)
{
	if (sm->parts) {
		free_parts(sm->parts, sm->nr_parts);
		sm->rp.feed.r = NULL;
		sm->rp.feed.syms = NULL;
	}
	spe_symbols_free(sm->rp.feed.syms);
	spe_report_free(sm->rp.feed.r);
}

/*
 * The decode on several cores, when there is no filter (every record
 * counts, straight from the record: the session calls the report itself)
 * and the file splits.  Returns SPE_SPLIT_RETRY for one session to decode
 * it after all (r's counts reset), else the exit status, with
 * sm->rp.feed.r set when the sessions' counts were added up.
 */
static int decode_split(struct spe_samples_run *r, struct summary *sm, struct spe_cli_opts *o)
{
	struct spe_split split;
	bool merged = false;
	int status;

	if (spe_filter_active(&sm->rp.filter) ||
	    !spe_split_plan(r->path, r->threads ? r->threads : spe_cli_default_threads(), &split))
		return SPE_SPLIT_RETRY;
	if (o->verbose)
		say_split(&split);
	sm->parts = calloc(split.n, sizeof(*sm->parts));
	if (!sm->parts) {
		fprintf(stderr, "spe-decode report: out of memory\n");
		return 1;
	}
	sm->nr_parts = split.n;
	status = run_split(r, &split, &o->symcfg, sm->parts, &merged);
	if (status != SPE_SPLIT_RETRY) {
		if (merged) {
			sm->rp.feed.r = sm->parts[0].feed.r;
			sm->rp.tracepoint_samples = sm->parts[0].tracepoint_samples;
		}
		return status;
	}
	if (o->verbose)
		fprintf(stderr, "spe-decode report: %s: decoding again in one session\n",
			split.retry_reason);
	free_parts(sm->parts, split.n);
	sm->parts = NULL;
	sm->nr_parts = 0;
	memset(&r->stats, 0, sizeof(r->stats));
	return SPE_SPLIT_RETRY;
}

/* The decode in one session, with the filters. */
static int decode_one(struct spe_samples_run *r, struct summary *sm, struct spe_cli_opts *o)
{
	char err[256] = "";

	if (spe_report_new(&sm->rp.feed.r) ||
	    spe_cli_symbols_new(&sm->rp.feed.syms, &o->symcfg, "report", r->path, err,
				sizeof(err))) {
		fprintf(stderr, "spe-decode report: %s\n", err[0] ? err : "out of memory");
		spe_report_free(sm->rp.feed.r);
		sm->rp.feed.r = NULL;
		return 1;
	}
	if (spe_filter_prepare(&sm->rp.filter, "report", r->path, &r->itrace))
		return 1;
	return spe_samples_execute(r);
}

/* The summary on stdout; returns the exit status, 1 if it could not be
 * written whatever status was. */
static int print_summary(const struct summary *sm, const struct spe_samples_run *r,
			 unsigned top, int status)
{
	struct spe_output *out = malloc(sizeof(*out));	/* its buffer is large */

	if (!out) {
		fprintf(stderr, "spe-decode report: out of memory\n");
		return 1;
	}
	spe_output_init(out, STDOUT_FILENO);
	spe_output_printf(out, "# spe-decode report of %s\n", r->path);
	spe_report_print(sm->rp.feed.r, &r->stats, top, spe_output_sink, out);
	/* The last lines of the Data section, which ends the report. */
	if (sm->rp.tracepoint_samples)
		spe_output_printf(out, "  tracepoint samples %" PRIu64 ", not summarised here "
				  "(spe-decode script prints them)\n", sm->rp.tracepoint_samples);
	if (spe_output_flush(out, "report") && !status)
		status = 1;
	free(out);
	return status;
}

static int run(int argc, char **argv)
{
	static const struct option own[] = {
		{ "sort", required_argument, NULL, 'S' },
		{ "order", required_argument, NULL, 'O' },
		{ "percent-limit", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct spe_cli_line line = {
		.cmd = SPE_CLI_REPORT, .name = "report", .perf = SPE_PERF_CMD_REPORT, .own = own,
		.own_option = own_option, .usage = usage,
	};
	struct spe_cli_opts o;
	struct spe_cost_report_opts cost = { 0 };
	struct summary sm = { 0 };
	struct spe_samples_run r = { .cmd = "report", .on_sample = on_sample,
				     .on_event = on_event, .ctx = &sm.rp, .quiet = true };
	char kallsyms[4096];
	int status, header_status = 0;

	status = spe_cli_parse(&line, argc, argv, &o, &cost);
	if (status != SPE_CLI_GO)
		return status;
	sm.rp.filter = o.filter;
	/* Without --kallsyms: perf's build-id cache, or this machine's. */
	if (!o.symcfg.kallsyms)
		o.symcfg.kallsyms = spe_default_kallsyms(o.path, kallsyms, sizeof(kallsyms));
	status = other_outputs(&o, &cost, &sm.rp.filter, &header_status);
	if (status != SPE_CLI_GO)
		return status;
	r.path = o.path;
	r.threads = o.threads;
	/* Every record once: its instructions sample, period 1. */
	spe_itrace_parse("i1i", &r.itrace, &(const char *){ NULL });
	/* Loads and stores are the memory operations, whatever perf 6.1
	 * or 7.3 take for one (SVE "other", calls): perf 6.12's rule. */
	r.itrace.perf_version = SPE_PERF_6_12;
	if (!spe_filter_active(&sm.rp.filter))
		r.on_record = spe_report_feed_record;
	status = decode_split(&r, &sm, &o);
	if (status == SPE_SPLIT_RETRY)
		status = decode_one(&r, &sm, &o);
	/* A file that breaks part-way gets the summary of what decoded
	 * before the fault (printable()); the summary's top 20 symbols. */
	if (sm.rp.feed.r && printable(status, &r))
		status = print_summary(&sm, &r, o.top ? (unsigned)o.top : 20, status);
	summary_free(&sm);
	return status ? status : header_status;
}

const struct spe_cli_command spe_cmd_report = {
	.name = "report",
	.summary = "summarise the SPE data of a perf.data",
	.run = run,
};
