// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* perf's options on spe-decode's command lines: the table (perf_options.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "optstring.h"
#include "perf_options.h"
#include "side_events.h"

/* What spe-decode does with an option of the table. */
enum action {
	ACT_NONE,		/* what spe-decode does anyway: nothing to say */
	ACT_NOTE,		/* no meaning for SPE data here: said once */
	ACT_VMLINUX,		/* a note, once the file is there (as perf checks) */
	ACT_HEADER, ACT_HEADER_ONLY, ACT_DUMP, ACT_SORT, ACT_SEPARATOR, ACT_QUIET, ACT_SYMBOLS,
	ACT_RELTIME, ACT_DELTATIME, ACT_TASK_EVENTS, ACT_MMAP_EVENTS,
};

struct perf_option {
	const char *name;	/* perf's long name */
	int short_name;		/* perf's letter, or 0 */
	int code;		/* getopt's value for the long name */
	int has_arg;
	unsigned cmds;		/* enum spe_perf_cmd bits */
	enum action act;
	const char *note;	/* ACT_NOTE: why it changes nothing */
};

#define REPORT	SPE_PERF_CMD_REPORT
#define C2C	SPE_PERF_CMD_C2C
#define SCRIPT	SPE_PERF_CMD_SCRIPT

/*
 * perf 6.1's options (perf-report.txt, perf-c2c.txt, perf-script.txt).
 * An option's letter is also its code, so a command's own long options
 * must not use these letters as codes (they use codes >= 0x100).
 */
static const struct perf_option table[] = {
	{ "stdio", 0, SPE_POPT_STDIO, no_argument, REPORT | C2C, ACT_NONE, NULL },
	{ "header", 0, SPE_POPT_HEADER, no_argument, REPORT, ACT_HEADER, NULL },
	{ "header-only", 0, SPE_POPT_HEADER_ONLY, no_argument, REPORT, ACT_HEADER_ONLY, NULL },
	{ "dump-raw-trace", 'D', 'D', no_argument, REPORT, ACT_DUMP, NULL },
	{ "sort", 's', 's', required_argument, REPORT, ACT_SORT, NULL },
	{ "field-separator", 't', 't', required_argument, REPORT, ACT_SEPARATOR, NULL },
	{ "vmlinux", 'k', 'k', required_argument, REPORT | C2C | SCRIPT, ACT_VMLINUX,
	  "-k/--vmlinux is accepted, but kernel symbols come from kallsyms "
	  "(--kallsyms FILE); the vmlinux file is not read" },
	{ "force", 'f', 'f', no_argument, REPORT | C2C | SCRIPT, ACT_NOTE,
	  "-f/--force changes nothing: spe-decode reads files of any owner" },
	{ "quiet", 'q', 'q', no_argument, REPORT | C2C | SCRIPT, ACT_QUIET, NULL },
	{ "show-nr-samples", 'n', 'n', no_argument, REPORT, ACT_NOTE,
	  "-n/--show-nr-samples changes nothing: the sample counts are always shown" },
	{ "symbols", 'S', 'S', required_argument, SCRIPT, ACT_SYMBOLS, NULL },
	{ "reltime", 0, SPE_POPT_RELTIME, no_argument, SCRIPT, ACT_RELTIME, NULL },
	{ "deltatime", 0, SPE_POPT_DELTATIME, no_argument, SCRIPT, ACT_DELTATIME, NULL },
	{ "show-task-events", 0, SPE_POPT_TASK_EVENTS, no_argument, SCRIPT, ACT_TASK_EVENTS, NULL },
	{ "show-mmap-events", 0, SPE_POPT_MMAP_EVENTS, no_argument, SCRIPT, ACT_MMAP_EVENTS, NULL },
	{ "hide-call-graph", 'G', 'G', no_argument, SCRIPT, ACT_NOTE,
	  "-G/--hide-call-graph changes nothing: SPE samples have no call graph" },
};

#define N_TABLE	(sizeof(table) / sizeof(table[0]))

static bool quiet;

void spe_perf_getopt(enum spe_perf_cmd cmd, const struct option *own, const char *own_short,
		     struct option *out, char *shorts)
{
	size_t n = 0, ns = strlen(own_short);

	memcpy(shorts, own_short, ns);
	for (; own[n].name && n < SPE_PERF_GETOPT_MAX - 1; n++) {
		out[n] = own[n];
		/* A command's long option whose code is one of the table's
		 * letters would be taken for perf's option: a bug here. */
		for (size_t i = 0; i < N_TABLE; i++)
			if ((table[i].cmds & cmd) && own[n].val == table[i].code && table[i].short_name &&
			    strcmp(own[n].name, table[i].name)) {
				fprintf(stderr, "spe-decode: internal error: --%s has the code of "
					"perf's -%c\n", own[n].name, table[i].short_name);
				abort();
			}
	}
	for (size_t i = 0; i < N_TABLE && n < SPE_PERF_GETOPT_MAX - 1; i++) {
		const struct perf_option *p = &table[i];
		bool mine = false;

		if (!(p->cmds & cmd))
			continue;
		for (size_t j = 0; own[j].name; j++)
			mine |= !strcmp(own[j].name, p->name);
		if (!mine)
			out[n++] = (struct option){ p->name, p->has_arg, NULL, p->code };
		spe_cli_optstring_add(shorts, &ns, p->short_name, p->has_arg);
	}
	out[n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = 0;
}

int spe_perf_option(struct spe_perf_opts *po, enum spe_perf_cmd cmd, const char *cmdname,
		    int c, const char *arg)
{
	for (size_t i = 0; i < N_TABLE; i++) {
		const struct perf_option *p = &table[i];

		if (p->code != c || !(p->cmds & cmd))
			continue;
		switch (p->act) {
		case ACT_NONE:
			break;
		case ACT_VMLINUX:
			if (access(arg, R_OK)) {
				fprintf(stderr, "spe-decode %s: -k/--vmlinux: %s: %s\n", cmdname,
					arg, strerror(errno));
				return -1;
			}
			/* fall through */
		case ACT_NOTE:
			po->notes |= 1u << i;
			break;
		case ACT_HEADER:
			po->header = true;
			break;
		case ACT_HEADER_ONLY:
			po->header_only = true;
			break;
		case ACT_DUMP:
			po->dump = true;
			break;
		case ACT_SORT:
			po->sort = arg;
			break;
		case ACT_SEPARATOR:
			po->separator = arg;
			break;
		case ACT_QUIET:
			quiet = true;
			break;
		case ACT_SYMBOLS:
			po->symbols = arg;
			break;
		case ACT_RELTIME:
			po->reltime = true;
			break;
		case ACT_DELTATIME:
			po->deltatime = true;
			break;
		case ACT_TASK_EVENTS:
			po->side_events |= SPE_SIDE_TASK;
			break;
		case ACT_MMAP_EVENTS:
			po->side_events |= SPE_SIDE_MMAP;
			break;
		}
		return 1;
	}
	return 0;
}

void spe_perf_notes(const struct spe_perf_opts *po, const char *cmdname)
{
	if (quiet)
		return;
	for (size_t i = 0; i < N_TABLE; i++)
		if (po->notes >> i & 1)
			fprintf(stderr, "spe-decode %s: %s\n", cmdname, table[i].note);
}

bool spe_perf_quiet(void)
{
	return quiet;
}
