/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf's sample filters, the one set every command that reads samples
 * takes (script, report and its --sort table, c2c, html, pprof, inject;
 * dump per AUX buffer): --pid, --tid, -C/--cpu, --comm(s), --dso(s),
 * --time, in perf's syntax and with perf's meaning.
 *
 *   --pid/--tid/--comm/--dso   comma-separated lists; a dso matches by
 *                              its full path or its file name, as perf's
 *                              --dsos matches a dso's long or short name
 *   -C, --cpu                  CPU list: 0,2-3
 *   --time                     start,stop in seconds (sec.nsec; either may be
 *                              empty), or percentages of the recording:
 *                              10%/2 (the second tenth), 0%-10%, several
 *                              separated by commas
 */
#ifndef SPE_DECODE_CLI_FILTER_H
#define SPE_DECODE_CLI_FILTER_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "spe_sample_synth.h"
#include "spe_symbols.h"

#define SPE_FILTER_MAX		64	/* entries per list */
#define SPE_FILTER_CPUS		4096
#define SPE_FILTER_NAME_BYTES	8192	/* the --comm and --dso names, NUL-ended */

struct spe_time_range {
	double from, to;		/* percent ranges, until resolved */
	uint64_t start, stop;		/* ns, stop 0 = open */
};

struct spe_filter {
	int nr_pids, nr_tids, nr_comms, nr_dsos, nr_times;
	int32_t pids[SPE_FILTER_MAX], tids[SPE_FILTER_MAX];
	const char *comms[SPE_FILTER_MAX], *dsos[SPE_FILTER_MAX];
	bool cpu_set;
	bool cpus[SPE_FILTER_CPUS];
	bool time_percent;		/* ranges wait for spe_filter_resolve_time */
	struct spe_time_range times[SPE_FILTER_MAX];
	char name_store[SPE_FILTER_NAME_BYTES];	/* comms[] and dsos[] point here */
	size_t name_used;
};

/* getopt codes of the long options (and 'C'); their entries are in the
 * table of common_options.c. */
enum {
	FILTER_OPT_PID = 0x1000, FILTER_OPT_TID, FILTER_OPT_COMM, FILTER_OPT_DSO,
	FILTER_OPT_TIME,
};

/* Help text lines of the filter options (a printf format: % doubled). */
#define SPE_CLI_FILTER_HELP						\
"Filters (as perf's; only the samples that pass every one count):\n"	\
"  --pid=PID[,..] --tid=TID[,..] -C, --cpu=LIST (0,2-3)\n"		\
"  --comm, --comms=NAME[,..]  threads by command name\n"		\
"  --dso, --dsos=DSO[,..]     code in these files (full path or file name)\n" \
"  --time=START,STOP  seconds (either may be empty), or percentages:\n"	\
"                     10%%/2 (the second tenth), 0%%-10%%[,..]\n"

/*
 * Handles getopt code @c with @arg: 1 when it was a filter option, 0 when
 * not, -1 after "spe-decode CMD: ..." for a bad value.
 */
int spe_filter_option(struct spe_filter *f, const char *cmd, int c, const char *arg);

bool spe_filter_active(const struct spe_filter *f);
/* Filters that need a symbol lookup (comm, dso). */
bool spe_filter_needs_names(const struct spe_filter *f);

/* Percentages into times, given the first and last sample time. */
void spe_filter_resolve_time(struct spe_filter *f, uint64_t first, uint64_t last);
/*
 * For --time percentages: a first pass over @path (a file, not a stream)
 * for the first and last sample time, then spe_filter_resolve_time().
 * Returns 0, or 1 after a message.
 */
int spe_filter_prepare(struct spe_filter *f, const char *cmd, const char *path,
		       const struct spe_itrace *it);

/* pid, tid, cpu and time only (cheap). */
bool spe_filter_sample(const struct spe_filter *f, const struct spe_sample *s);
/* comm and dso, once the sample's comm (may be NULL) and dso are known. */
bool spe_filter_names(const struct spe_filter *f, const char *comm, const char *dso);
/*
 * comm and dso of SPE sample @s, for the commands that have its code
 * symbol (@sym, from spe_symbols_lookup()) or can look it up (@sym NULL:
 * looked up in @syms only for --dso).  True at once without either filter,
 * so that a run without them pays for no lookup.
 */
bool spe_filter_names_of(const struct spe_filter *f, struct spe_symbols *syms,
			 const struct spe_sample *s, const struct spe_sym *sym);

#endif /* SPE_DECODE_CLI_FILTER_H */
