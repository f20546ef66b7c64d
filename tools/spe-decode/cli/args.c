// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Command-line parts the subcommands share (args.h). */
#include <errno.h>
#include <sched.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "perf_options.h"
#include "spe_sample_synth.h"

int spe_cli_help_or_bad(int c, spe_usage_fn usage)
{
	if (c == 'h') {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}

bool spe_cli_symbol_option(int c, struct spe_sym_config *cfg)
{
	switch (c) {
	case SPE_OPT_KALLSYMS:
		cfg->kallsyms = optarg;
		return true;
	case SPE_OPT_SYMFS:
		cfg->symfs = optarg;
		return true;
	case SPE_OPT_BUILDID_DIR:
		cfg->buildid_dir = optarg;
		return true;
	case SPE_OPT_NO_DEMANGLE:
		cfg->no_demangle = true;
		return true;
	}
	return false;
}

/*
 * Each warning once: sessions side by side (report -j N) and the views
 * that read a file twice load the same files again.  Those sessions run
 * in threads, hence the lock; the few messages live as long as the run.
 */
struct said {
	struct said *next;
	char msg[];
};

static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct said *said;

void spe_cli_warn(void *ctx, const char *msg)
{
	struct said *w;

	if (spe_perf_quiet())		/* perf's -q: no warnings */
		return;
	pthread_mutex_lock(&warn_lock);
	for (w = said; w && strcmp(w->msg, msg); w = w->next)
		;
	if (!w) {
		size_t len = strlen(msg) + 1;

		/* Without memory to remember it, it may be said again. */
		w = malloc(sizeof(*w) + len);
		if (w) {
			memcpy(w->msg, msg, len);
			w->next = said;
			said = w;
		}
		fprintf(stderr, "spe-decode %s: warning: %s\n", (const char *)ctx, msg);
	}
	pthread_mutex_unlock(&warn_lock);
}

int spe_cli_input(int argc, char **argv, const char **path, spe_usage_fn usage)
{
	if (!*path && optind < argc)
		*path = argv[optind++];
	if (!*path)
		*path = "perf.data";	/* as perf */
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	return 0;
}

int spe_cli_jobs(const char *cmd, const char *arg, unsigned *threads)
{
	uint64_t n;

	if (spe_cli_number(cmd, "-j", arg, 1, 1024, &n))
		return 2;
	*threads = (unsigned)n;
	return 0;
}

int spe_cli_top(const char *cmd, const char *arg, size_t *top)
{
	uint64_t n;

	if (spe_cli_number(cmd, "--top", arg, 1, 1000000, &n))
		return 2;
	*top = (size_t)n;
	return 0;
}

int spe_cli_unresolved(const char *cmd, const char *arg, enum spe_view_unresolved *u)
{
	if (spe_view_unresolved_parse(arg, u))
		return 0;
	fprintf(stderr, "spe-decode %s: unknown --unresolved '%s' (page, address)\n", cmd, arg);
	return 2;
}

int spe_cli_perf_version(const char *cmd, const char *arg, int *version)
{
	int v = spe_perf_version_parse(arg);

	if (v < 0) {
		fprintf(stderr, "spe-decode %s: --perf-version: '%s' is not 6.1, 6.12 or 7.3\n",
			cmd, arg);
		return 2;
	}
	*version = v;
	return 0;
}

unsigned spe_cli_default_threads(void)
{
	/* The CPUs this process may run on (taskset, cpusets), not all
	 * those online: more threads than those only take turns. */
	cpu_set_t set;
	long n = sched_getaffinity(0, sizeof(set), &set) ? sysconf(_SC_NPROCESSORS_ONLN) :
		 CPU_COUNT(&set);

	return n > 1 ? (unsigned)(n > 64 ? 64 : n) : 1;
}

int spe_cli_number(const char *cmd, const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (!*arg || *end || errno || arg[strspn(arg, " \t")] == '-' || v < min || v > max) {
		fprintf(stderr, "spe-decode %s: %s: '%s' is not a number from %" PRIu64
			" to %" PRIu64 "\n", cmd, opt, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}
