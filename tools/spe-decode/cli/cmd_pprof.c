// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode pprof: the SPE records as a gzip-compressed pprof profile
 * (profile.proto) for `go tool pprof`, Parca and Pyroscope; the profile
 * itself is built in pprof_profile.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common_options.h"
#include "pprof_profile.h"
#include "output_file.h"
#include "views.h"

struct pprof_run {
	struct spe_pprof *p;
	struct spe_view_run *vr;
};

/* The symboliser gives the mapping, the source lines the inline chain,
 * of the addresses that make a new location only (not per record). */
static int on_view(void *ctx, const struct spe_view_sample *vs)
{
	struct pprof_run *pr = ctx;

	return spe_pprof_add(pr->p, vs, pr->vr->syms, pr->vr->sl);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode pprof -o FILE [--unresolved page|address] [--kallsyms FILE] [--symfs DIR] [--buildid-dir DIR]\n"
"                        [--no-demangle] [filters] perf.data|-\n"
"Write the SPE records as a gzip-compressed pprof profile (profile.proto) for\n"
"go tool pprof, Parca or Pyroscope.  Sample types: samples, latency (cycles),\n"
"l1d-miss, llc-miss, tlb-walk, mispredict; labels op and data_src.  Locations\n"
"carry their inline chains and whole source paths from DWARF, mappings the\n"
"recording's start, end, file offset and build id.\n"
"  -o, --output FILE   the profile (written to a temporary file, then renamed)\n"
"  --unresolved page|address\n"
"                      locations of code without symbols: one per 4 KiB page of\n"
"                      each file (default), or one per address\n"
"  -j, --jobs N        decoding threads (default: one per usable CPU)\n"
SPE_CLI_FILTER_HELP);
}

static int run(int argc, char **argv)
{
	static const struct spe_cli_line line = {
		.cmd = SPE_CLI_PPROF, .name = "pprof", .usage = usage,
		.no_output = "-o FILE is required",
	};
	struct spe_pprof *p = NULL;
	struct spe_view_run vr = { .cmd = "pprof", .on_view = on_view };
	struct pprof_run pr = { .vr = &vr };
	struct spe_out_file of = { .fd = -1 };
	struct spe_cli_opts o;
	const char *path = NULL;
	bool keep = false;
	int err;
	int status;

	status = spe_cli_parse(&line, argc, argv, &o, NULL);
	if (status != SPE_CLI_GO)
		return status;
	spe_view_run_options(&vr, &o);
	path = vr.path;
	/* An output that cannot be written (or is the input) is a failed
	 * run, 1, as in inject and wrap; not a usage error. */
	if (spe_out_file_open(&of, "pprof", o.output, &path, 1, SPE_OUT_UMASK)) {
		status = 1;
		goto done;
	}
	if (spe_pprof_new(&p)) {
		fprintf(stderr, "spe-decode pprof: out of memory\n");
		status = 1;
		goto done;
	}
	spe_pprof_set_unresolved(p, o.unresolved);
	pr.p = p;
	vr.ctx = &pr;
	status = spe_view_run_execute(&vr);
	/* What decoded before a data error is still written (and the error
	 * reported); a file that gave nothing leaves the old output alone. */
	keep = !spe_pprof_oom(p) && status <= 1 && (status == 0 || vr.r.nr_samples);
	if (keep && (err = spe_pprof_write(p, path, of.fd))) {
		if (err == -EIO)
			fprintf(stderr, "spe-decode pprof: %s: write error\n", o.output);
		status = 1;
		keep = false;
	}
	if (spe_pprof_oom(p)) {
		fprintf(stderr, "spe-decode pprof: out of memory\n");
		status = 1;
	}
	if (spe_out_file_finish(&of, "pprof", keep) && !status)
		status = 1;
done:
	spe_out_file_finish(&of, "pprof", false);
	spe_view_run_free(&vr);
	spe_pprof_free(p);
	return status;
}

const struct spe_cli_command spe_cmd_pprof = {
	.name = "pprof",
	.summary = "write a pprof profile (latency, misses, mispredicts by line)",
	.run = run,
};
