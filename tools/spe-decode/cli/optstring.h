/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * getopt's optstring, built from an option table: shared by the table of
 * the commands' common options and perf's (common_options.c,
 * perf_options.c), which each merge theirs into it.
 */
#ifndef SPE_CLI_OPTSTRING_H
#define SPE_CLI_OPTSTRING_H

#include <getopt.h>
#include <stddef.h>

/* Appends option letter @c (none when 0), with ':' when it takes an
 * argument, to getopt's optstring @shorts of 64 bytes, *@ns of them used. */
static inline void spe_cli_optstring_add(char *shorts, size_t *ns, int c, int has_arg)
{
	if (!c || *ns + 3 >= 64)	/* the tables are far smaller */
		return;
	shorts[(*ns)++] = (char)c;
	if (has_arg == required_argument)
		shorts[(*ns)++] = ':';
}

#endif
