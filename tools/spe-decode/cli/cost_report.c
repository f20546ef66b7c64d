// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* spe-decode report --sort KEYS: the cost table of lib/cost_table.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cost_report.h"
#include "input.h"
#include "views.h"

static int on_view(void *ctx, const struct spe_view_sample *vs)
{
	struct spe_cost_table *t = ctx;

	if (spe_cost_add(t, vs)) {
		fprintf(stderr, "spe-decode report: out of memory\n");
		return -ENOMEM;
	}
	return 0;
}

int spe_cli_cost_report(const struct spe_cost_report_opts *o)
{
	struct spe_view_run vr = { .cmd = "report", .path = o->path, .symcfg = o->symcfg,
				   .on_view = on_view, .threads = o->threads };
	struct spe_cost_table *t;
	struct spe_output *out = NULL;
	char why[256] = "";
	int order = spe_cost_col_by_name(o->order ? o->order : "overhead");
	int status;

	if (order < 0) {
		fprintf(stderr, "spe-decode report: unknown --order column '%s' (overhead, samples, "
			"latency, mean, p50, p90, p99, issue, xlat, sat, l1d-miss, llc-miss, tlb-walk, remote, "
			"mispred)\n", o->order);
		return 2;
	}
	if (spe_cost_new(&t, o->sort, why, sizeof(why))) {
		fprintf(stderr, "spe-decode report: --sort: %s\n", why[0] ? why : "out of memory");
		spe_cost_free(t);
		return why[0] ? 2 : 1;
	}
	spe_cost_set_unresolved(t, o->unresolved);
	if (o->filter)
		vr.filter = *o->filter;
	vr.ctx = t;
	vr.want_srcline = spe_cost_uses(t, SPE_KEY_SRCLINE);
	vr.want_dsym = spe_cost_uses(t, SPE_KEY_SYMBOL_DADDR);
	status = spe_view_run_execute(&vr);
	out = malloc(sizeof(*out));
	if (!out) {
		status = 1;
		goto done;
	}
	spe_output_init(out, STDOUT_FILENO);
	spe_output_printf(out, "# spe-decode report of %s\n", o->path);
	/* Those the filters kept: the rows add up to it. */
	spe_output_printf(out, "# SPE records: %llu\n", (unsigned long long)vr.nr_kept);
	/* A write error is the output's: spe_output_flush() reports it. */
	if (spe_cost_print(t, (enum spe_cost_col)order, o->percent_limit, o->top,
			   spe_output_sink, out) == SPE_ERR_NOMEM) {
		fprintf(stderr, "spe-decode report: out of memory\n");
		status = 1;
	}
	if (spe_output_flush(out, "report") && !status)
		status = 1;
done:
	free(out);
	spe_view_run_free(&vr);
	spe_cost_free(t);
	return status;
}
