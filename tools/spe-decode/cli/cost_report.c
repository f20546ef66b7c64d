// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* spe-decode report --sort KEYS: the cost table of views/cost_table.c. */
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

/*
 * The table of a span of the file (views.h, part_new): of the keys of the
 * options, added into the whole's (part_merge) as its session ends.
 */
static void *part_new(void *arg)
{
	const struct spe_cost_report_opts *o = arg;
	struct spe_cost_table *t;
	char why[8];

	if (spe_cost_new(&t, o->sort, why, sizeof(why))) {
		spe_cost_free(t);
		return NULL;
	}
	spe_cost_set_unresolved(t, o->unresolved);
	return t;
}

static int part_merge(void *ctx, void *part)
{
	return spe_cost_merge(ctx, part);
}

static void part_free(void *part)
{
	spe_cost_free(part);
}

/* A share in percent, as the table prints it. */
static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void put_percentile(struct spe_output *out, const char *sep, unsigned v, bool valid)
{
	if (!valid)
		spe_output_printf(out, "%s-", sep);
	else if (v == SPE_COST_SAT)
		spe_output_printf(out, "%ssat", sep);
	else
		spe_output_printf(out, "%s%u", sep, v);
}

/*
 * perf's -t SEP: the table's columns, and its header's names, split by
 * SEP with no padding (perf report -t: for scripts that split the lines).
 * The values are the table's (spe_cost_print()'s precision); the rows in
 * its order.
 */
static int print_separated(struct spe_output *out, const struct spe_cost_table *t,
			   const struct spe_cost_report_opts *o, enum spe_cost_col order)
{
	static const char *const cols[] = {
		"samples", "samp%", "latency", "lat%", "mean", "p50", "p90", "p99", "issue",
		"xlat", "sat", "l1d%", "llc%", "walk%", "rem%", "misp%",
	};
	const char *sep = o->separator;
	struct spe_cost_row_view *rows;
	struct spe_cost_totals tot;
	long n = spe_cost_rows(t, order, o->percent_limit, o->top, &rows);

	if (n < 0)
		return SPE_ERR_NOMEM;
	spe_cost_totals(t, &tot);
	spe_output_printf(out, "# ");
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		spe_output_printf(out, "%s%s", c ? sep : "", cols[c]);
	for (unsigned k = 0; k < spe_cost_nkeys(t); k++)
		spe_output_printf(out, "%s%s", sep, spe_cost_key_name(t, k));
	spe_output_printf(out, "\n");
	for (long i = 0; i < n; i++) {
		const struct spe_cost_row_view *v = &rows[i];
		const uint64_t *s = v->lat_sum, *c = v->lat_n;

		spe_output_printf(out, "%llu%s%.2f%%%s%llu%s%.2f%%%s%.1f",
				  (unsigned long long)v->samples, sep, pct(v->samples, tot.samples),
				  sep, (unsigned long long)s[0], sep, pct(s[0], tot.lat_sum), sep,
				  c[0] ? (double)s[0] / (double)c[0] : 0.0);
		put_percentile(out, sep, v->p50, v->p_valid);
		put_percentile(out, sep, v->p90, v->p_valid);
		put_percentile(out, sep, v->p99, v->p_valid);
		spe_output_printf(out, "%s%.1f%s%.1f%s%llu%s%.1f%%%s%.1f%%%s%.1f%%%s%.1f%%%s%.1f%%",
				  sep, c[1] ? (double)s[1] / (double)c[1] : 0.0,
				  sep, c[2] ? (double)s[2] / (double)c[2] : 0.0,
				  sep, (unsigned long long)(v->lat_sat[0] + v->lat_sat[1] + v->lat_sat[2]),
				  sep, pct(v->l1d_miss, tot.l1d_miss), sep, pct(v->llc_miss, tot.llc_miss),
				  sep, pct(v->tlb_walk, tot.tlb_walk), sep, pct(v->remote, tot.remote),
				  sep, pct(v->mispred, tot.mispred));
		for (unsigned k = 0; k < spe_cost_nkeys(t); k++)
			spe_output_printf(out, "%s%s", sep, v->key[k]);
		spe_output_printf(out, "\n");
	}
	free(rows);
	return 0;
}

int spe_cli_cost_report(const struct spe_cost_report_opts *o)
{
	struct spe_view_run vr = { .cmd = "report", .path = o->path, .symcfg = o->symcfg,
				   .on_view = on_view, .threads = o->threads,
				   .verbose = o->verbose };
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
	/* a pid's text is "pid:comm" */
	vr.want_comm = spe_cost_uses(t, SPE_KEY_COMM) || spe_cost_uses(t, SPE_KEY_PID);
	/* Tables of parts of the records add up, but for the keys named by
	 * their first sample (spe_cost_mergeable()). */
	if (spe_cost_mergeable(t)) {
		vr.part_new = part_new;
		vr.part_merge = part_merge;
		vr.part_free = part_free;
		vr.part_arg = (void *)o;
	}
	status = spe_view_run_execute(&vr);
	t = vr.ctx;	/* a new one if the sessions side by side started again */
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
	if ((o->separator ? print_separated(out, t, o, (enum spe_cost_col)order) :
	     spe_cost_print(t, (enum spe_cost_col)order, o->percent_limit, o->top,
			    spe_output_sink, out)) == SPE_ERR_NOMEM) {
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
