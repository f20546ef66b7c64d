/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The tracepoint samples of a perf.data recorded with arm_spe and
 * tracepoints together (perf record -e arm_spe// -e sched:sched_switch):
 * their event names, and each sample's fields formatted by libtraceevent
 * as perf script prints them, from the event formats of the file's
 * TRACING_DATA feature section (tracing_data.h reads it).  Which records
 * are tracepoint samples and where their fields are: tracepoint_sample.h.
 * Built without libtraceevent, the samples are still recognised and
 * counted, and spe_tracepoints_available() says they cannot be formatted.
 */
#ifndef SPE_DECODE_CLI_TRACEPOINTS_H
#define SPE_DECODE_CLI_TRACEPOINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracepoint_sample.h"

struct spe_tracepoints;

/*
 * Reads the event formats of the perf.data at @path (a file; "-" and
 * files without TRACING_DATA give an empty set).  Returns 0 with *out set,
 * or -1 with *out set and a message in @err naming what is wrong with the
 * section (*out then formats nothing); *out is NULL only without memory.
 */
int spe_tracepoints_open(struct spe_tracepoints **out, const char *path, char *err,
			 size_t errlen);
void spe_tracepoints_free(struct spe_tracepoints *tp);

/* Kernel addresses that formats print as functions (%ps) are named
 * from @syms, as perf names them from its kernel map; @syms outlives @tp. */
struct spe_symbols;
void spe_tracepoints_set_symbols(struct spe_tracepoints *tp, struct spe_symbols *syms);

/* The longest name of the file's tracepoint events (0: none known). */
int spe_tracepoints_name_width(const struct spe_tracepoints *tp);

/* Built with libtraceevent? */
bool spe_tracepoints_available(void);

/* perf's name of tracepoint id @config ("sched:sched_switch"), or NULL
 * when the tracing data has no such event. */
const char *spe_tracepoints_name(struct spe_tracepoints *tp, uint64_t config);

/*
 * Appends what perf script prints after "event: " for sample @s of
 * tracepoint @config (the event's print format applied to its fields) to
 * the growable buffer *buf (*len bytes used, *cap allocated).  With
 * @fields, instead a JSON object of the fields: numbers as numbers,
 * anything else as the text libtraceevent makes of it.  Returns 0; 1
 * with the reason in *why when the sample's raw data does not fit its
 * event's format (fields past its end, a string without its NUL, another
 * event's id); -1 when out of memory or the event is unknown.  Nothing
 * is appended unless it returns 0.
 */
int spe_tracepoints_format(struct spe_tracepoints *tp, uint64_t config,
			   const struct spe_tp_sample *s, bool fields, char **buf, size_t *len,
			   size_t *cap, const char **why);

#endif /* SPE_DECODE_CLI_TRACEPOINTS_H */
