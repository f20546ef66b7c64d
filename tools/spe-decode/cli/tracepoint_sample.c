// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Tracepoint samples: which records they are and the walk of their
 * PERF_SAMPLE_* fields up to RAW (see tracepoint_sample.h).
 */
#include <string.h>

#include <linux/perf_event.h>

#include "tracepoint_sample.h"

bool spe_tp_is_sample(const struct spe_perf_reader_event *ev)
{
	return ev->header->type == PERF_RECORD_SAMPLE && ev->attr &&
	       ev->attr->attr.type == PERF_TYPE_TRACEPOINT;
}

int spe_tp_parse_sample(const struct spe_perf_reader_event *ev, struct spe_tp_sample *out,
			const char **why)
{
	const uint8_t *p = (const uint8_t *)(ev->header + 1);
	const uint8_t *end = (const uint8_t *)ev->header + ev->header->size;
	uint64_t t = ev->attr->attr.sample_type;
	uint64_t u;

	*out = (struct spe_tp_sample){ .pid = -1, .tid = -1, .cpu = -1 };
/* The fields before RAW, in PERF_SAMPLE_* bit order (perf_event.h). */
#define TAKE(bit, n) do {						\
	if (t & (bit)) {						\
		if ((size_t)(end - p) < (n))				\
			goto short_sample;				\
		p += (n);						\
	}								\
} while (0)
	TAKE(PERF_SAMPLE_IDENTIFIER, 8);
	TAKE(PERF_SAMPLE_IP, 8);
	if (t & PERF_SAMPLE_TID) {
		if (end - p < 8)
			goto short_sample;
		memcpy(&out->pid, p, 4);
		memcpy(&out->tid, p + 4, 4);
		p += 8;
	}
	if (t & PERF_SAMPLE_TIME) {
		if (end - p < 8)
			goto short_sample;
		memcpy(&out->time, p, 8);
		p += 8;
	}
	TAKE(PERF_SAMPLE_ADDR, 8);
	TAKE(PERF_SAMPLE_ID, 8);
	TAKE(PERF_SAMPLE_STREAM_ID, 8);
	if (t & PERF_SAMPLE_CPU) {
		if (end - p < 8)
			goto short_sample;
		memcpy(&out->cpu, p, 4);
		p += 8;
	}
	TAKE(PERF_SAMPLE_PERIOD, 8);
#undef TAKE
	if (t & PERF_SAMPLE_READ) {
		*why = "a tracepoint sample with PERF_SAMPLE_READ (not supported)";
		return -1;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (end - p < 8)
			goto short_sample;
		memcpy(&u, p, 8);
		p += 8;
		if (u > (uint64_t)(end - p) / 8)
			goto short_sample;
		p += u * 8;
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t n;

		if (end - p < 4)
			goto short_sample;
		memcpy(&n, p, 4);
		p += 4;
		if (n > (uint64_t)(end - p))
			goto short_sample;
		out->raw = p;
		out->raw_size = n;
	}
	return 0;
short_sample:
	*why = "a tracepoint sample shorter than its sample type says";
	return -1;
}
