// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode c2c: cache lines more than one CPU touches with at least one
 * store (false and true sharing), their offsets and the code at each, from
 * the data addresses of SPE's load and store records (views/c2c.c).  Reads
 * the file twice, so it takes a file, not a pipe.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "input.h"
#include "perf_options.h"
#include "views.h"

static int on_scan(void *ctx, const struct spe_view_sample *vs)
{
	return spe_c2c_scan(ctx, vs);
}

static int on_detail(void *ctx, const struct spe_view_sample *vs)
{
	return spe_c2c_detail(ctx, vs);
}

static bool wants_detail(void *ctx, const struct spe_sample *s)
{
	return spe_c2c_wants(ctx, s);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode c2c [--order cost|peer|samples|stores] [--top N] [--virtual]\n"
"                      [--unresolved page|address] [--kallsyms FILE] [--symfs DIR] [--buildid-dir DIR]\n"
"                      [--no-demangle] [filters] perf.data\n"
"Cache-line contention: the 64-byte lines that more than one CPU touched with\n"
"at least one store, by physical address where recorded (else virtual per\n"
"process), with each offset's code, CPUs, latency and data sources.\n"
"  --order KEY   cost (total latency, default), peer (loads from a peer\n"
"                core's cache, SPE's stand-in for HITM), samples, stores\n"
"  --top N       the N first lines only\n"
"  --virtual     group by virtual address even where a physical one exists\n"
"  --unresolved page|address\n"
"                an offset's code without symbols: one entry per 4 KiB page\n"
"                of each file (default), or one per address\n"
"  -j, --jobs N  decoding threads (default: one per usable CPU)\n"
"  -q, --quiet   no warnings or notes\n"
"  --stdio, -f, --force, -k, --vmlinux FILE: perf c2c report's, accepted\n"
SPE_CLI_FILTER_HELP);
}

static int run(int argc, char **argv)
{
	static const struct option own[] = {
		{ "order", required_argument, NULL, 'O' },
		{ "top", required_argument, NULL, 't' },
		{ "virtual", no_argument, NULL, 'V' },
		SPE_CLI_UNRESOLVED_OPTION,
		SPE_CLI_SYMBOL_OPTIONS,
		SPE_CLI_JOBS_OPTION,
		SPE_CLI_FILTER_OPTIONS,
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const orders[] = { "cost", "peer", "samples", "stores" };
	/* Source lines are for the shared lines' code: the second pass. */
	struct spe_view_run vr = { .cmd = "c2c" };
	struct option opts[SPE_PERF_GETOPT_MAX];
	char shorts[64];
	struct spe_perf_opts po = { 0 };
	enum spe_c2c_order order = SPE_C2C_COST;
	struct spe_c2c *c = NULL;
	struct spe_output *out = NULL;
	const char *path = NULL;
	size_t top = 0;
	enum spe_view_unresolved unresolved = SPE_VIEW_UNRESOLVED_PAGE;
	bool virt = false;
	int ch, status;

	spe_perf_getopt(SPE_PERF_CMD_C2C, own, "i:j:h" SPE_CLI_FILTER_SHORT, opts, shorts);
	while ((ch = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		int k = spe_view_option(&vr, ch, optarg);

		if (!k)
			k = spe_perf_option(&po, SPE_PERF_CMD_C2C, "c2c", ch, optarg);

		if (k < 0)
			return 2;
		if (k)
			continue;
		switch (ch) {
		case 'O': {
			size_t k;

			for (k = 0; k < 4 && strcmp(optarg, orders[k]); k++)
				;
			if (k == 4) {
				fprintf(stderr, "spe-decode c2c: unknown --order '%s' (cost, peer, "
					"samples, stores)\n", optarg);
				return 2;
			}
			order = (enum spe_c2c_order)k;
			break;
		}
		case 't':
			if (spe_cli_top("c2c", optarg, &top))
				return 2;
			break;
		case 'V':
			virt = true;
			break;
		case SPE_OPT_UNRESOLVED:
			if (spe_cli_unresolved("c2c", optarg, &unresolved))
				return 2;
			break;
		default:
			return spe_cli_help_or_bad(ch, usage);
		}
	}
	if (spe_cli_input(argc, argv, &vr.path, usage))
		return 2;
	spe_perf_notes(&po, "c2c");
	path = vr.path;
	if (!spe_view_input_rereadable("c2c", path))
		return 2;
	if (spe_c2c_new(&c, virt)) {
		fprintf(stderr, "spe-decode c2c: out of memory\n");
		status = 1;
		goto done;
	}
	spe_c2c_set_unresolved(c, unresolved);
	vr.ctx = c;
	vr.on_view = on_scan;
	status = spe_view_run_execute(&vr);
	spe_view_run_free(&vr);
	/* A file that breaks part-way: the lines of what decoded before it. */
	if (status > 1 || (status == 1 && !vr.r.nr_samples))
		goto done;
	if (spe_c2c_select(c)) {
		fprintf(stderr, "spe-decode c2c: out of memory\n");
		status = 1;
		goto done;
	}
	spe_view_release_freed();
	vr.on_view = on_detail;
	vr.wants = wants_detail;
	vr.want_srcline = true;
	vr.again = true;
	if (spe_view_run_execute(&vr) && !status)
		status = 1;
	out = malloc(sizeof(*out));
	if (!out) {
		status = 1;
		goto done;
	}
	spe_output_init(out, STDOUT_FILENO);
	spe_output_printf(out, "# spe-decode c2c of %s\n", path);
	/* A write error is the output's: spe_output_flush() reports it. */
	if (spe_c2c_print(c, order, top, spe_output_sink, out) == SPE_ERR_NOMEM) {
		fprintf(stderr, "spe-decode c2c: out of memory\n");
		status = 1;
	}
	if (spe_output_flush(out, "c2c") && !status)
		status = 1;
done:
	spe_view_run_free(&vr);
	spe_c2c_free(c);
	free(out);
	return status;
}

const struct spe_cli_command spe_cmd_c2c = {
	.name = "c2c",
	.summary = "cache lines shared between CPUs, with their offsets and code",
	.run = run,
};
