/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TRACING_DATA feature section of a perf.data (perf's tracing data:
 * the event formats of its tracepoints, kallsyms, printk formats, saved
 * cmdlines), read and checked before libtraceevent parses it: a section
 * cut anywhere, a list line libtraceevent would misread, or formats that
 * crash its parser are refused with a message naming the section.
 */
#ifndef SPE_DECODE_CLI_TRACING_DATA_H
#define SPE_DECODE_CLI_TRACING_DATA_H

#include <stdbool.h>
#include <stddef.h>

/* Is @path a regular file, whose TRACING_DATA can be read before the
 * decode reads it?  Not "-", a FIFO or a device: those are read once. */
bool spe_tracepoints_seekable(const char *path);

#ifdef HAVE_LIBTRACEEVENT
struct tep_handle;

/*
 * The section of the perf.data at @path parsed into a new libtraceevent
 * handle *tep, NULL when there is none to read ("-", a stream, not a
 * perf.data, no tracepoints).  Returns 0, or -1 with *tep NULL and a
 * message in @err naming what is wrong with the section.
 */
int spe_tracing_data_read(const char *path, struct tep_handle **tep, char *err, size_t errlen);
#endif

#endif /* SPE_DECODE_CLI_TRACING_DATA_H */
