// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode wrap --features-from: when the data has CPUs past the
 * NRCPUS of the file the features come from, NRCPUS is raised, and
 * HEADER_CPU_TOPOLOGY, whose per-CPU part has NRCPUS (available) entries,
 * must grow with it or perf reads past its end.  Its layout
 * (tools/perf/Documentation/perf.data-file-format.txt, HEADER_CPU_TOPOLOGY):
 *
 *   string list  sibling cores (sockets)    u32 nr, then nr strings
 *   string list  sibling threads            (string: u32 len, len bytes)
 *   { u32 core_id, socket_id; } [nr_cpus]   optional, in newer files
 *   string list  sibling dies               optional, after the above
 *   u32 die_id[nr_cpus]
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wrap_topology.h"

/* The length of the string list at @p, or 0 if it passes @end. */
static size_t string_list_len(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q = p;
	uint32_t nr, len;

	if (end - q < 4)
		return 0;
	memcpy(&nr, q, 4);
	q += 4;
	for (uint32_t i = 0; i < nr; i++) {
		if (end - q < 4)
			return 0;
		memcpy(&len, q, 4);
		q += 4;
		if ((size_t)(end - q) < len)
			return 0;
		q += len;
	}
	return (size_t)(q - p);
}

int spe_wrap_extend_topology(const uint8_t *sec, size_t len, uint32_t old_nr,
			     uint32_t new_nr, uint8_t **out, size_t *out_len)
{
	const uint8_t *p = sec, *end = sec + len;
	size_t lists, cpus = 0, dies = 0, n;
	uint8_t *o, *q;

	n = string_list_len(p, end);
	lists = n ? n + string_list_len(p + n, end) : 0;
	if (!lists || lists == n)
		return -EINVAL;
	p += lists;
	if (p < end) {
		cpus = (size_t)old_nr * 8;
		if ((size_t)(end - p) < cpus)
			return -EINVAL;
		p += cpus;
	}
	if (p < end) {
		dies = string_list_len(p, end);
		if (!dies || (size_t)(end - p - dies) != (size_t)old_nr * 4)
			return -EINVAL;
	} else if (p != end) {
		return -EINVAL;
	}
	o = malloc(len + (size_t)(new_nr - old_nr) * 12);
	if (!o)
		return -ENOMEM;
	/* Lists and the CPUs there were; -1 bytes for the others. */
	q = o;
	memcpy(q, sec, lists + cpus);
	q += lists + cpus;
	if (cpus) {
		memset(q, 0xff, (size_t)(new_nr - old_nr) * 8);
		q += (size_t)(new_nr - old_nr) * 8;
	}
	if (dies) {
		memcpy(q, sec + lists + cpus, dies + (size_t)old_nr * 4);
		q += dies + (size_t)old_nr * 4;
		memset(q, 0xff, (size_t)(new_nr - old_nr) * 4);
		q += (size_t)(new_nr - old_nr) * 4;
	}
	*out = o;
	*out_len = (size_t)(q - o);
	return 0;
}
