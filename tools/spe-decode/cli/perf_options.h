/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf's own options on spe-decode's report, c2c and script command lines,
 * so that a perf user's script runs unchanged: one table (perf_options.c)
 * says which command takes which option, with perf's spelling and
 * meaning, and whether spe-decode acts on it or only accepts it (an
 * option with no meaning for SPE data: said once on stderr, as perf says
 * of the options it ignores).
 *
 * A command merges the table's getopt entries into its own
 * (spe_perf_getopt()) and hands every code its switch does not know to
 * spe_perf_option(), which fills in struct spe_perf_opts.
 */
#ifndef SPE_DECODE_CLI_PERF_OPTIONS_H
#define SPE_DECODE_CLI_PERF_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

/* The commands, as bits of the table's masks. */
enum spe_perf_cmd {
	SPE_PERF_CMD_REPORT = 1u << 0,
	SPE_PERF_CMD_C2C = 1u << 1,
	SPE_PERF_CMD_SCRIPT = 1u << 2,
};

/* What the options that spe-decode acts on asked for. */
struct spe_perf_opts {
	bool header;		/* --header: the file's header, then the report */
	bool header_only;	/* --header-only: the header alone */
	bool dump;		/* report -D: spe-decode dump of the input */
	const char *sort;	/* report -s KEYS (perf's spelling of --sort) */
	const char *separator;	/* report -t SEP: the --sort table's columns */
	const char *symbols;	/* script -S LIST: only samples in these symbols */
	bool reltime;		/* script --reltime: time since the first sample */
	bool deltatime;		/* script --deltatime: time since the previous one */
	unsigned side_events;	/* script --show-task/mmap-events: SPE_SIDE_* */
	unsigned notes;		/* the accepted options to say a word about */
};

/* Long-option codes of the table (above every command's own codes). */
enum {
	SPE_POPT_STDIO = 0x5400, SPE_POPT_HEADER, SPE_POPT_HEADER_ONLY,
	SPE_POPT_RELTIME, SPE_POPT_DELTATIME, SPE_POPT_TASK_EVENTS, SPE_POPT_MMAP_EVENTS,
};

/* Room for a command's merged getopt table: its own entries, the
 * table's, and the terminating zero entry. */
#define SPE_PERF_GETOPT_MAX	64

/*
 * Copies the command's entries @own (ending with a zero entry) and the
 * table's entries for @cmd into @out (SPE_PERF_GETOPT_MAX of room), and
 * @own_short and the table's short options for @cmd into @shorts (64
 * bytes).  A command's own entry of the same long name wins.
 */
void spe_perf_getopt(enum spe_perf_cmd cmd, const struct option *own, const char *own_short,
		     struct option *out, char *shorts);

/*
 * getopt code @c with @arg: 1 when it is one of the table's options for
 * @cmd (done: *po filled in, or its note kept for spe_perf_notes()), 0
 * when it is none, -1 after "spe-decode CMDNAME: ..." for a bad argument.
 */
int spe_perf_option(struct spe_perf_opts *po, enum spe_perf_cmd cmd, const char *cmdname,
		    int c, const char *arg);

/* After the command line: the note of each option accepted without
 * effect, once, unless -q/--quiet came too (in any order). */
void spe_perf_notes(const struct spe_perf_opts *po, const char *cmdname);

/* -q/--quiet was given: warnings and notes are not printed (args.c's
 * spe_cli_warn() asks). */
bool spe_perf_quiet(void);

#endif /* SPE_DECODE_CLI_PERF_OPTIONS_H */
