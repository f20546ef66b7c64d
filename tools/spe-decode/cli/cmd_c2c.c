// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode c2c: cache lines more than one CPU touches with at least one
 * store (false and true sharing), their offsets and the code at each, from
 * the data addresses of SPE's load and store records (views/c2c.c).  Reads
 * the file twice, so it takes a file, not a pipe.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common_options.h"
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

/* --order KEY */
static int own_option(void *ctx, int c, const char *arg)
{
	static const char *const orders[] = { "cost", "peer", "samples", "stores" };
	enum spe_c2c_order *order = ctx;
	size_t k;

	(void)c;	/* the only one */
	for (k = 0; k < 4 && strcmp(arg, orders[k]); k++)
		;
	if (k == 4) {
		fprintf(stderr, "spe-decode c2c: unknown --order '%s' (cost, peer, "
			"samples, stores)\n", arg);
		return 2;
	}
	*order = (enum spe_c2c_order)k;
	return 0;
}

static int run(int argc, char **argv)
{
	static const struct option own[] = {
		{ "order", required_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct spe_cli_line line = {
		.cmd = SPE_CLI_C2C, .name = "c2c", .perf = SPE_PERF_CMD_C2C, .own = own,
		.own_short = "", .own_option = own_option, .usage = usage,
	};
	/* Source lines are for the shared lines' code: the second pass. */
	struct spe_view_run vr = { .cmd = "c2c" };
	struct spe_cli_opts o;
	enum spe_c2c_order order = SPE_C2C_COST;
	struct spe_c2c *c = NULL;
	struct spe_output *out = NULL;
	const char *path = NULL;
	int status;

	status = spe_cli_parse(&line, argc, argv, &o, &order);
	if (status != SPE_CLI_GO)
		return status;
	spe_view_run_options(&vr, &o);
	path = vr.path;
	if (!spe_view_input_rereadable("c2c", path))
		return 2;
	if (spe_c2c_new(&c, o.virt)) {
		fprintf(stderr, "spe-decode c2c: out of memory\n");
		status = 1;
		goto done;
	}
	spe_c2c_set_unresolved(c, o.unresolved);
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
	if (spe_c2c_print(c, order, o.top, spe_output_sink, out) == SPE_ERR_NOMEM) {
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
