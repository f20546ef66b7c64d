/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The spe-decode subcommands.  Each lives in its own cli/cmd_<name>.c and is
 * listed once in the table in cli/main.c.
 */
#ifndef SPE_DECODE_CLI_COMMANDS_H
#define SPE_DECODE_CLI_COMMANDS_H

struct spe_cli_command {
	const char *name;
	const char *summary;	/* one line for 'spe-decode --help' */
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
};

/* Each cmd_<name>.c defines one of these. */
extern const struct spe_cli_command spe_cmd_dump;
extern const struct spe_cli_command spe_cmd_records;
extern const struct spe_cli_command spe_cmd_encode;
extern const struct spe_cli_command spe_cmd_wrap;
extern const struct spe_cli_command spe_cmd_script;
extern const struct spe_cli_command spe_cmd_inject;
extern const struct spe_cli_command spe_cmd_report;
extern const struct spe_cli_command spe_cmd_c2c;
extern const struct spe_cli_command spe_cmd_pprof;
extern const struct spe_cli_command spe_cmd_html;

#endif /* SPE_DECODE_CLI_COMMANDS_H */
