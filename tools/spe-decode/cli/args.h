/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the subcommands' command lines have in common: -h/--help and
 * unknown options, the one input file (an operand, or -i as perf spells
 * it), and the parsers of the arguments of the options several commands
 * share (their table: common_options.c).
 */
#ifndef SPE_DECODE_CLI_ARGS_H
#define SPE_DECODE_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spe_symbols.h"
#include "spe_views.h"

typedef void (*spe_usage_fn)(FILE *f);

/* Values of the shared long-only options (common_options.c): not letters,
 * which perf's options (perf_options.h) use as codes (-k is perf's
 * --vmlinux, -s its --sort, -t its --field-separator). */
enum {
	SPE_OPT_BUILDID_DIR = 0x5300, SPE_OPT_NO_DEMANGLE, SPE_OPT_UNRESOLVED,
	SPE_OPT_KALLSYMS, SPE_OPT_SYMFS, SPE_OPT_TOP, SPE_OPT_VIRTUAL,
};

/*
 * The default case of a getopt switch: -h prints the usage on stdout and
 * the command succeeds (0); any other option prints it on stderr (2).
 * Returns the command's exit status.
 */
int spe_cli_help_or_bad(int c, spe_usage_fn usage);

/* A symbol option into cfg; false when c is none.  Also makes cfg's
 * warnings go to stderr. */
bool spe_cli_symbol_option(int c, struct spe_sym_config *cfg);

/* A spe_sym_config warning on stderr; ctx is the command's name. */
void spe_cli_warn(void *ctx, const char *msg);

/*
 * The one input file: *path when -i gave it, else the only operand, else
 * perf.data as for perf.  Returns 0, or prints the usage on stderr and
 * returns 2 when there is more than one.
 */
int spe_cli_input(int argc, char **argv, const char **path, spe_usage_fn usage);

/* Parses N of -j N (1..1024) into *threads; prints the reason and returns
 * 2 when it is not a number in range. */
int spe_cli_jobs(const char *cmd, const char *arg, unsigned *threads);

/* Parses the argument of --unresolved page|address (the views' rows of
 * addresses without a symbol, spe_views.h) into *u; prints the reason (and
 * the values, for the bash completion) and returns 2 when it is neither
 * "page" nor "address". */
int spe_cli_unresolved(const char *cmd, const char *arg, enum spe_view_unresolved *u);

/* Parses N of --top N (1..1000000) into *top; 2 when it is not. */
int spe_cli_top(const char *cmd, const char *arg, size_t *top);

/* Parses V of --perf-version V (6.1, 6.12 or 7.3) into *version (an enum
 * spe_perf_version); prints the reason and returns 2 when it is none. */
int spe_cli_perf_version(const char *cmd, const char *arg, int *version);

/* One thread per online CPU. */
unsigned spe_cli_default_threads(void);

/*
 * A whole number in [min, max] (decimal or 0x hex) for option @opt;
 * anything else ("10x", "", "-1") prints "spe-decode CMD: OPT: ..." and
 * returns -1.
 */
int spe_cli_number(const char *cmd, const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint64_t *out);

#endif /* SPE_DECODE_CLI_ARGS_H */
