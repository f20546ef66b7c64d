/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * report --header / --header-only: the perf.data header's lines that perf
 * report prints there, as far as spe-decode knows them (perf_header.c says
 * which; spe-decode.txt lists the difference).
 */
#ifndef SPE_DECODE_CLI_PERF_HEADER_H
#define SPE_DECODE_CLI_PERF_HEADER_H

#include <stdio.h>

/* Prints the header of perf.data @path on @f.  Returns the exit status:
 * 0, or 1 after "spe-decode CMD: ..." when the file has no header
 * (a pipe) or a broken one (what it could read printed). */
int spe_perf_header_print(FILE *f, const char *cmd, const char *path);

#endif /* SPE_DECODE_CLI_PERF_HEADER_H */
