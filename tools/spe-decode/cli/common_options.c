// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The options several commands share: the table and its parser (common_options.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common_options.h"
#include "optstring.h"

/* What an option of the table does. */
enum action {
	ACT_OUTPUT, ACT_INPUT, ACT_HELP, ACT_JOBS, ACT_VERBOSE, ACT_TOP, ACT_VIRTUAL,
	ACT_UNRESOLVED, ACT_SYMBOL, ACT_FILTER,
};

struct common_option {
	const char *name;	/* the long name */
	int short_name;		/* its letter, or 0 */
	int code;		/* getopt's value for the long name */
	int has_arg;
	unsigned cmds;		/* enum spe_cli_cmd bits */
	enum action act;
};

#define DUMP	SPE_CLI_DUMP
#define RECORDS	SPE_CLI_RECORDS
#define INJECT	SPE_CLI_INJECT
#define SCRIPT	SPE_CLI_SCRIPT
#define REPORT	SPE_CLI_REPORT
#define C2C	SPE_CLI_C2C
#define HTML	SPE_CLI_HTML
#define PPROF	SPE_CLI_PPROF
/* The views of the SPE samples with their symbols. */
#define SYMBOLIC	(SCRIPT | REPORT | C2C | HTML | PPROF)
/* Every command that reads samples (dump: per AUX buffer). */
#define SAMPLES		(DUMP | INJECT | SYMBOLIC)
#define ALL		(RECORDS | SAMPLES)

/*
 * In the order getopt_long() gets them, after the command's own options
 * and before perf's: the order in which getopt lists the options an
 * abbreviation could be ("--t": --top, --tid, --time).
 */
static const struct common_option table[] = {
	{ "output", 'o', 'o', required_argument, INJECT | HTML | PPROF, ACT_OUTPUT },
	{ "top", 0, SPE_OPT_TOP, required_argument, REPORT | C2C | HTML, ACT_TOP },
	{ "virtual", 0, SPE_OPT_VIRTUAL, no_argument, C2C | HTML, ACT_VIRTUAL },
	{ "unresolved", 0, SPE_OPT_UNRESOLVED, required_argument, REPORT | C2C | HTML | PPROF,
	  ACT_UNRESOLVED },
	{ "kallsyms", 0, SPE_OPT_KALLSYMS, required_argument, SYMBOLIC, ACT_SYMBOL },
	{ "symfs", 0, SPE_OPT_SYMFS, required_argument, SYMBOLIC, ACT_SYMBOL },
	{ "buildid-dir", 0, SPE_OPT_BUILDID_DIR, required_argument, SYMBOLIC, ACT_SYMBOL },
	{ "no-demangle", 0, SPE_OPT_NO_DEMANGLE, no_argument, SYMBOLIC, ACT_SYMBOL },
	{ "jobs", 'j', 'j', required_argument, SYMBOLIC, ACT_JOBS },
	{ "pid", 0, FILTER_OPT_PID, required_argument, SAMPLES, ACT_FILTER },
	{ "tid", 0, FILTER_OPT_TID, required_argument, SAMPLES, ACT_FILTER },
	{ "cpu", 'C', 'C', required_argument, SAMPLES, ACT_FILTER },
	{ "comm", 0, FILTER_OPT_COMM, required_argument, SAMPLES, ACT_FILTER },
	{ "comms", 0, FILTER_OPT_COMM, required_argument, SAMPLES, ACT_FILTER },
	{ "dso", 0, FILTER_OPT_DSO, required_argument, SAMPLES, ACT_FILTER },
	{ "dsos", 0, FILTER_OPT_DSO, required_argument, SAMPLES, ACT_FILTER },
	{ "time", 0, FILTER_OPT_TIME, required_argument, SAMPLES, ACT_FILTER },
	{ "input", 'i', 'i', required_argument, ALL, ACT_INPUT },
	{ "verbose", 'v', 'v', no_argument, REPORT, ACT_VERBOSE },
	{ "help", 'h', 'h', no_argument, ALL, ACT_HELP },
};

#define N_TABLE	(sizeof(table) / sizeof(table[0]))

/* The command's own entries, then the table's for it; the same for the
 * short letters.  An own code that is also one of the table's would never
 * reach the command: a bug here. */
static void merge(const struct spe_cli_line *cl, struct option *out, char *shorts)
{
	const char *own_short = cl->own_short ? cl->own_short : "";
	size_t n = 0, ns = strlen(own_short);

	memcpy(shorts, own_short, ns);
	for (; cl->own && cl->own[n].name && n < SPE_PERF_GETOPT_MAX - 1; n++) {
		out[n] = cl->own[n];
		for (size_t i = 0; i < N_TABLE; i++)
			if ((table[i].cmds & cl->cmd) && cl->own[n].val == table[i].code) {
				fprintf(stderr, "spe-decode %s: internal error: --%s has the code "
					"of --%s\n", cl->name, cl->own[n].name, table[i].name);
				abort();
			}
	}
	for (size_t i = 0; i < N_TABLE && n < SPE_PERF_GETOPT_MAX - 1; i++) {
		const struct common_option *p = &table[i];

		if (!(p->cmds & cl->cmd))
			continue;
		out[n++] = (struct option){ p->name, p->has_arg, NULL, p->code };
		spe_cli_optstring_add(shorts, &ns, p->short_name, p->has_arg);
	}
	out[n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = 0;
}

/* getopt's table for the command: the merge, and perf's options. */
static void getopt_table(const struct spe_cli_line *cl, struct option *out, char *shorts)
{
	struct option mine[SPE_PERF_GETOPT_MAX];
	char mine_short[64];

	if (!cl->perf) {
		merge(cl, out, shorts);
		return;
	}
	merge(cl, mine, mine_short);
	spe_perf_getopt(cl->perf, mine, mine_short, out, shorts);
}

/*
 * getopt code @c into *o when it is one of the table's options for the
 * command: true, with *status SPE_CLI_GO, or the exit status when it ends
 * the command line (-h: 0, a bad argument: 2).
 */
static bool table_option(const struct spe_cli_line *cl, struct spe_cli_opts *o, int c,
			 const char *arg, int *status)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < N_TABLE && !((table[i].cmds & cl->cmd) && table[i].code == c); i++)
		;
	if (i == N_TABLE)
		return false;
	switch (table[i].act) {
	case ACT_OUTPUT:
		o->output = arg;
		break;
	case ACT_INPUT:
		o->path = arg;
		break;
	case ACT_HELP:
		cl->usage(stdout);
		*status = 0;
		return true;
	case ACT_JOBS:
		bad = spe_cli_jobs(cl->name, arg, &o->threads);
		break;
	case ACT_VERBOSE:
		o->verbose = true;
		break;
	case ACT_TOP:
		bad = spe_cli_top(cl->name, arg, &o->top);
		break;
	case ACT_VIRTUAL:
		o->virt = true;
		break;
	case ACT_UNRESOLVED:
		bad = spe_cli_unresolved(cl->name, arg, &o->unresolved);
		break;
	case ACT_SYMBOL:
		spe_cli_symbol_option(c, &o->symcfg);
		break;
	case ACT_FILTER:
		bad = spe_filter_option(&o->filter, cl->name, c, arg) < 0;
		break;
	}
	*status = bad ? 2 : SPE_CLI_GO;
	return true;
}

/* Whether @c is one of the command's own options. */
static bool own_code(const struct spe_cli_line *cl, int c)
{
	for (size_t i = 0; cl->own && cl->own[i].name; i++)
		if (cl->own[i].val == c)
			return true;
	return c > 0 && c != ':' && cl->own_short && strchr(cl->own_short, c);
}

int spe_cli_parse(const struct spe_cli_line *cl, int argc, char **argv,
		  struct spe_cli_opts *o, void *ctx)
{
	struct option opts[SPE_PERF_GETOPT_MAX];
	char shorts[64];
	int c;

	*o = (struct spe_cli_opts){ .unresolved = SPE_VIEW_UNRESOLVED_PAGE };
	getopt_table(cl, opts, shorts);
	while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		int status = SPE_CLI_GO, k;

		if (table_option(cl, o, c, optarg, &status))
			;
		else if (cl->perf && (k = spe_perf_option(&o->perf, cl->perf, cl->name, c, optarg)))
			status = k < 0 ? 2 : SPE_CLI_GO;
		else if (own_code(cl, c))
			status = (k = cl->own_option(ctx, c, optarg)) ? k : SPE_CLI_GO;
		else
			status = spe_cli_help_or_bad(c, cl->usage);
		if (status != SPE_CLI_GO)
			return status;
	}
	if (spe_cli_input(argc, argv, &o->path, cl->usage))
		return 2;
	if (cl->perf)
		spe_perf_notes(&o->perf, cl->name);
	if (cl->no_output && !o->output) {
		fprintf(stderr, "spe-decode %s: %s\n", cl->name, cl->no_output);
		cl->usage(stderr);
		return 2;
	}
	return SPE_CLI_GO;
}
