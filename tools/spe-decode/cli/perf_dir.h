/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf's directory format (perf record --threads): DIR/data holds the
 * header, attributes, features and the main thread's records; DIR/data.N
 * hold the records (AUX data included) each record thread wrote, with no
 * header of their own.
 */
#ifndef SPE_DECODE_CLI_PERF_DIR_H
#define SPE_DECODE_CLI_PERF_DIR_H

#include <stdbool.h>

/* True when @path is a directory holding a perf.data's "data" file. */
bool spe_perf_dir_is(const char *path);

/*
 * Joins the files of the directory into one perf.data in perf's pipe
 * format, in an unlinked temporary file: the attributes and features of
 * DIR/data, its records, then those of each DIR/data.N in turn.  Returns
 * the file's descriptor (at offset 0), or -1 after "spe-decode CMD: ...".
 */
int spe_perf_dir_join(const char *cmd, const char *path);

#endif /* SPE_DECODE_CLI_PERF_DIR_H */
