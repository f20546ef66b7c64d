/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * script --show-task-events / --show-mmap-events: perf script's text of
 * the records that describe tasks (COMM, FORK, EXIT) and mappings (MMAP,
 * MMAP2), after the line start every perf script line has.
 */
#ifndef SPE_DECODE_CLI_SIDE_EVENTS_H
#define SPE_DECODE_CLI_SIDE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

/* Which records to show. */
enum { SPE_SIDE_TASK = 1, SPE_SIDE_MMAP = 2 };

/*
 * perf's text of record @h ("PERF_RECORD_COMM exec: prog:77/77", no
 * newline) into @buf when @show (SPE_SIDE_* bits) asks for its kind.
 * Returns its length, 0 when it is not shown (or malformed: too short
 * for its fields, or a name without its NUL).
 */
size_t spe_side_event_text(const struct perf_event_header *h, unsigned show, char *buf,
			   size_t len);

/*
 * The thread perf script names on record @h's line: the one the record
 * describes (its own pid/tid fields), not the sample_id's, whose tid
 * fills the tid column.  @fallback for a record of another kind.
 */
int32_t spe_side_event_tid(const struct perf_event_header *h, int32_t fallback);

#endif /* SPE_DECODE_CLI_SIDE_EVENTS_H */
