// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Command-line parts the subcommands share (args.h). */
#include <getopt.h>

#include "args.h"

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
	case 'k':
		cfg->kallsyms = optarg;
		return true;
	case 's':
		cfg->symfs = optarg;
		return true;
	}
	return false;
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
