// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode html: one self-contained HTML page of an SPE recording
 * (views/html_report.c).  Reads the file twice (the second pass collects
 * the shared cache lines' code), so it takes a file, not a pipe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common_options.h"
#include "input.h"
#include "output_file.h"
#include "views.h"

static int on_view(void *ctx, const struct spe_view_sample *vs)
{
	return spe_html_add(ctx, vs);
}

static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	return spe_html_event(ctx, ev);
}

static int on_detail(void *ctx, const struct spe_view_sample *vs)
{
	return spe_c2c_detail(spe_html_c2c(ctx), vs);
}

static bool wants_detail(void *ctx, const struct spe_sample *s)
{
	return spe_c2c_wants(spe_html_c2c(ctx), s);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode html -o FILE [--top N] [--virtual] [--unresolved page|address]\n"
"                       [--kallsyms FILE] [--symfs DIR]\n"
"                       [--buildid-dir DIR] [--no-demangle] [filters] perf.data\n"
"Write one self-contained HTML page (no network, no external files): the\n"
"recording's metadata, latency histograms per operation type, data sources per\n"
"symbol, the cost table by symbol (sortable), the shared cache lines and a\n"
"per-CPU timeline of samples and AUX flags.\n"
"  -o, --output FILE   the page (written to a temporary file, then renamed)\n"
"  --top N             at most N rows per table (default 50, cost table 200)\n"
"  --virtual           shared lines by virtual address, as perf c2c\n"
"  --unresolved page|address\n"
"                      rows of code without symbols: one per 4 KiB page of each\n"
"                      file (default), or one per address\n"
"  -j, --jobs N        decoding threads (default: one per usable CPU)\n"
SPE_CLI_FILTER_HELP);
}

static int run(int argc, char **argv)
{
	static const struct spe_cli_line line = {
		.cmd = SPE_CLI_HTML, .name = "html", .usage = usage,
		.no_output = "-o FILE is required",
	};
	/* Source lines are for the shared lines' code: the second pass. */
	struct spe_view_run vr = { .cmd = "html", .on_view = on_view,
				   .on_event = on_event };
	struct spe_out_file of = { .fd = -1 };
	struct spe_html_meta meta = { 0 };
	struct spe_html *h = NULL;
	struct spe_output *out = NULL;
	struct spe_cli_opts o;
	const char *path = NULL;
	bool keep = false;
	int status;

	status = spe_cli_parse(&line, argc, argv, &o, NULL);
	if (status != SPE_CLI_GO)
		return status;
	spe_view_run_options(&vr, &o);
	path = vr.path;
	meta.top = o.top;
	if (!spe_view_input_rereadable("html", path))
		return 2;
	/* An output that cannot be written (or is the input) is a failed
	 * run, 1, as in inject and wrap; not a usage error. */
	if (spe_out_file_open(&of, "html", o.output, &path, 1, SPE_OUT_UMASK)) {
		status = 1;
		goto done;
	}
	if (spe_html_new(&h, o.virt) || !(out = malloc(sizeof(*out)))) {
		fprintf(stderr, "spe-decode html: out of memory\n");
		status = 1;
		goto done;
	}
	spe_html_set_unresolved(h, o.unresolved);
	vr.ctx = h;
	status = spe_view_run_execute(&vr);
	meta.path = path;
	meta.stats = &vr.r.stats;
	meta.info = &vr.r.info;
	meta.midr = vr.r.midr;
	/* A file that gave nothing leaves an existing page alone; one that
	 * failed part-way gets the page of what decoded, and the error. */
	if (status > 1 || (status == 1 && !vr.r.nr_samples))
		goto done;
	spe_view_run_free(&vr);
	if (spe_html_select(h, meta.top)) {
		fprintf(stderr, "spe-decode html: out of memory\n");
		status = 1;
		goto done;
	}
	spe_view_release_freed();
	vr.on_view = on_detail;
	vr.wants = wants_detail;
	vr.on_event = NULL;
	vr.want_srcline = true;
	vr.again = true;
	if (spe_view_run_execute(&vr) && !status)
		status = 1;
	spe_output_init(out, of.fd);
	if (spe_html_write(h, &meta, spe_output_sink, out)) {
		if (!out->err)
			fprintf(stderr, "spe-decode html: out of memory\n");
		status = 1;
	}
	keep = !spe_output_flush(out, "html") && !(status == 1 && !vr.r.nr_samples);
	if (!keep)
		status = 1;
done:
	if (spe_out_file_finish(&of, "html", keep) && !status)
		status = 1;
	spe_view_run_free(&vr);
	spe_html_free(h);
	free(out);
	return status;
}

const struct spe_cli_command spe_cmd_html = {
	.name = "html",
	.summary = "write a self-contained HTML report",
	.run = run,
};
