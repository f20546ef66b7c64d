/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The samples of tracepoint events in a perf.data: which records they are
 * and where their fields are (the PERF_SAMPLE_* walk up to the RAW data
 * that libtraceevent formats, cli/tracepoints.h).  Needs no library.
 */
#ifndef SPE_DECODE_CLI_TRACEPOINT_SAMPLE_H
#define SPE_DECODE_CLI_TRACEPOINT_SAMPLE_H

#include <stdint.h>

#include "spe_perf_data.h"

/* A tracepoint sample's fields, as its record carries them. */
struct spe_tp_sample {
	uint64_t time;
	int32_t pid, tid, cpu;		/* -1 when the sample type has none */
	const void *raw;		/* PERF_SAMPLE_RAW: the event's fields */
	uint32_t raw_size;
};

/* Is this record a sample of a tracepoint event? */
bool spe_tp_is_sample(const struct spe_perf_reader_event *ev);

/*
 * The PERF_SAMPLE_* fields of tracepoint sample @ev into *out.  Returns 0,
 * or -1 with the reason in @why when the sample is shorter than its type
 * says or has a field this reader does not walk (PERF_SAMPLE_READ).
 */
int spe_tp_parse_sample(const struct spe_perf_reader_event *ev, struct spe_tp_sample *out,
			const char **why);

#endif /* SPE_DECODE_CLI_TRACEPOINT_SAMPLE_H */
