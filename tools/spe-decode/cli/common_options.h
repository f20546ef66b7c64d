/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The options that several spe-decode commands take the same way (-i, -o,
 * -h, -j, -v, --top, --virtual, --unresolved, the symbol options and perf's
 * filters): one table (common_options.c) says which command takes which,
 * with its getopt entry and what it sets in struct spe_cli_opts, so that a
 * command's run() names only the options no other command has.
 *
 * spe_cli_parse() reads a whole command line: the table's options for the
 * command, perf's (perf_options.h) for report, c2c and script, and the
 * command's own, whose codes it hands to the command's function.
 */
#ifndef SPE_DECODE_CLI_COMMON_OPTIONS_H
#define SPE_DECODE_CLI_COMMON_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "args.h"
#include "filter.h"
#include "perf_options.h"
#include "spe_symbols.h"
#include "spe_views.h"

/* The commands, as bits of the table's masks. */
enum spe_cli_cmd {
	SPE_CLI_DUMP = 1u << 0,
	SPE_CLI_RECORDS = 1u << 1,
	SPE_CLI_INJECT = 1u << 2,
	SPE_CLI_SCRIPT = 1u << 3,
	SPE_CLI_REPORT = 1u << 4,
	SPE_CLI_C2C = 1u << 5,
	SPE_CLI_HTML = 1u << 6,
	SPE_CLI_PPROF = 1u << 7,
};

/* What the table's options asked for. */
struct spe_cli_opts {
	const char *path;		/* -i FILE, else the operand, else perf.data */
	const char *output;		/* -o FILE; NULL: not given */
	unsigned threads;		/* -j N; 0: one per usable CPU */
	struct spe_sym_config symcfg;	/* --kallsyms, --symfs, --buildid-dir, --no-demangle */
	struct spe_filter filter;	/* --pid, --tid, -C, --comm(s), --dso(s), --time */
	size_t top;			/* --top N; 0: not given */
	bool virt;			/* --virtual */
	enum spe_view_unresolved unresolved;	/* --unresolved; page when not given */
	bool verbose;			/* -v, --verbose */
	struct spe_perf_opts perf;	/* perf's options (perf_options.h) */
};

/* A command's command line. */
struct spe_cli_line {
	enum spe_cli_cmd cmd;
	const char *name;		/* "c2c": what messages start with */
	enum spe_perf_cmd perf;		/* whose of perf's options it takes; 0: none */
	/* The command's own options, if any: getopt entries (ending with a
	 * zero entry; codes that are not the table's) and short letters. */
	const struct option *own;
	const char *own_short;
	/* One of those with its argument, into @ctx: 0, or the exit
	 * status (2) after saying what is wrong with it. */
	int (*own_option)(void *ctx, int c, const char *arg);
	spe_usage_fn usage;
	/* The message when -o is missing; NULL: -o is not required. */
	const char *no_output;
};

/* spe_cli_parse(): the command line was read; the command goes on. */
#define SPE_CLI_GO	(-1)

/*
 * Reads the command line into *o (and the command's own options into
 * @ctx), then the one input (args.h's spe_cli_input()), perf's notes and
 * the -o the command needs.  Returns SPE_CLI_GO, or the exit status the
 * command returns at once: 0 after -h (the usage on stdout), 2 after a
 * usage error (the reason, or the usage, on stderr).
 */
int spe_cli_parse(const struct spe_cli_line *cl, int argc, char **argv,
		  struct spe_cli_opts *o, void *ctx);

#endif /* SPE_DECODE_CLI_COMMON_OPTIONS_H */
