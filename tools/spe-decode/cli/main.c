// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* spe-decode: dispatch to a subcommand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "spe_decode_version.h"

static const struct spe_cli_command *const commands[] = {
	&spe_cmd_dump,
	&spe_cmd_records,
	&spe_cmd_encode,
	&spe_cmd_wrap,
	&spe_cmd_script,
	&spe_cmd_inject,
	&spe_cmd_report,
	&spe_cmd_c2c,
	&spe_cmd_pprof,
	&spe_cmd_html,
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: spe-decode <command> [options] [-i] [FILE]\n"
		"       spe-decode --version\n\n"
		"FILE defaults to perf.data; - is stdin.\n\ncommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\n'spe-decode <command> --help' describes a command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v")) {
		printf("spe-decode %s\n", spe_decode_version()->string);
		return 0;
	}
	for (size_t i = 0; i < N_COMMANDS; i++) {
		char *name;

		if (strcmp(argv[1], commands[i]->name))
			continue;
		/* getopt names argv[0] in its messages: "spe-decode script: ..." */
		if (asprintf(&name, "spe-decode %s", commands[i]->name) >= 0)
			argv[1] = name;
		return commands[i]->run(argc - 1, argv + 1);
	}
	fprintf(stderr, "spe-decode: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
