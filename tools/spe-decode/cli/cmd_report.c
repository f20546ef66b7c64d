// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode report: the summary of an SPE perf.data a performance engineer
 * reads first (top symbols, latency percentiles per operation, data sources
 * and miss rates of loads and stores, branch mispredicts, lost data).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "filter.h"
#include "input.h"
#include "kernel_symbols.h"
#include "samples.h"

struct rep {
	struct spe_report *r;
	struct spe_symbols *syms;
	struct spe_filter filter;
};

static int on_sample(void *ctx, const struct spe_sample *s)
{
	struct rep *rp = ctx;
	struct spe_sym sym;

	if (!spe_filter_sample(&rp->filter, s))
		return 0;
	spe_symbols_lookup(rp->syms, s->pid, s->ip, s->cpumode, &sym);
	if (spe_filter_needs_names(&rp->filter) &&
	    !spe_filter_names(&rp->filter, spe_symbols_comm(rp->syms, s->tid), sym.dso))
		return 0;
	spe_report_add(rp->r, s, &sym);
	return 0;
}

static int on_event(void *ctx, const struct spe_pdr_event *ev)
{
	struct rep *rp = ctx;

	spe_symbols_event(rp->syms, ev);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode report [--top N] [--kallsyms FILE] [--symfs DIR] [-i] [perf.data|-]\n"
"Summarise the SPE records of a perf.data: top symbols, latency percentiles\n"
"per operation type, where loads and stores were served from, cache/TLB miss\n"
"rates, branch mispredict rate, lost and truncated data.\n"
SPE_CLI_FILTER_HELP);
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 't' },
		SPE_CLI_SYMBOL_OPTIONS,
		SPE_CLI_FILTER_OPTIONS,
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rep rp = { 0 };
	struct spe_sym_config symcfg = { 0 };
	struct spe_samples_run r = { .cmd = "report", .on_sample = on_sample,
				     .on_event = on_event, .ctx = &rp, .quiet = true };
	struct spe_output *out;
	const char *path = NULL;
	unsigned top = 20;
	uint64_t n;
	char err[256] = "", kallsyms[4096];
	int c, status;

	while ((c = getopt_long(argc, argv, "i:C:h", opts, NULL)) != -1) {
		int k = spe_filter_option(&rp.filter, "report", c, optarg);

		if (k < 0)
			return 2;
		if (k)
			continue;
		switch (c) {
		case 't':
			if (spe_cli_number("report", "--top", optarg, 1, 1000000, &n))
				return 2;
			top = (unsigned)n;
			break;
		case 'i':
			path = optarg;
			break;
		default:
			if (spe_cli_symbol_option(c, &symcfg))
				break;
			return spe_cli_help_or_bad(c, usage);
		}
	}
	if (spe_cli_input(argc, argv, &path, usage))
		return 2;
	/* Without --kallsyms: perf's build-id cache, or this machine's. */
	if (!symcfg.kallsyms)
		symcfg.kallsyms = spe_default_kallsyms(path, kallsyms, sizeof(kallsyms));
	out = malloc(sizeof(*out));
	if (!out || spe_report_new(&rp.r) ||
	    spe_symbols_new(&rp.syms, &symcfg, err, sizeof(err))) {
		fprintf(stderr, "spe-decode report: %s\n", err[0] ? err : "out of memory");
		status = 1;
		goto out;
	}
	/* Every record once: its instructions sample, period 1. */
	spe_itrace_parse("i1i", &r.itrace, &(const char *){ NULL });
	r.path = path;
	status = spe_filter_prepare(&rp.filter, "report", path, &r.itrace);
	if (!status)
		status = spe_samples_execute(&r);
	/* A failed report says why on stderr and prints no half summary. */
	if (status)
		goto out;
	spe_output_init(out, STDOUT_FILENO);
	spe_output_printf(out, "# spe-decode report of %s\n", path);
	spe_report_print(rp.r, &r.stats, top, spe_output_sink, out);
	if (spe_output_flush(out, "report") && !status)
		status = 1;
out:
	spe_symbols_free(rp.syms);
	spe_report_free(rp.r);
	free(out);
	return status;
}

const struct spe_cli_command spe_cmd_report = {
	.name = "report",
	.summary = "summarise the SPE data of a perf.data",
	.run = run,
};
