// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf script's lines of task and mapping records (side_events.h), in
 * perf 6.1's spelling (checked against it by suite 21).  The record
 * layouts are the kernel's (include/uapi/linux/perf_event.h).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "side_events.h"

/* The name at @off of a record of @size bytes, or NULL without its NUL. */
static const char *name_at(const struct perf_event_header *h, size_t off)
{
	const char *p = (const char *)h + off;

	if (h->size <= off || !memchr(p, 0, h->size - off))
		return NULL;
	return p;
}

static int hex(char *b, size_t n, uint64_t v)
{
	/* perf's "%#lx": 0 is "0", anything else "0x..." */
	return v ? snprintf(b, n, "%#" PRIx64, v) : snprintf(b, n, "0");
}

static size_t mmap2_text(const struct perf_event_header *h, char *buf, size_t len)
{
	/* pid, tid, addr, len, pgoff, then maj/min/ino/ino_generation or
	 * a build id, prot, flags, filename */
	struct {
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		union {
			struct {
				uint32_t maj, min;
				uint64_t ino, ino_generation;
			};
			struct {
				uint8_t build_id_size, reserved[3];
				uint8_t build_id[20];
			};
		};
		uint32_t prot, flags;
	} m;
	const char *name = name_at(h, sizeof(*h) + sizeof(m));
	char a[24], l[24], o[24], id[48] = "";
	int n;

	if (!name)
		return 0;
	memcpy(&m, h + 1, sizeof(m));
	hex(a, sizeof(a), m.addr);
	hex(l, sizeof(l), m.len);
	hex(o, sizeof(o), m.pgoff);
	if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		size_t k = m.build_id_size < 20 ? m.build_id_size : 20;

		for (size_t i = 0; i < k; i++)
			snprintf(id + 2 * i, sizeof(id) - 2 * i, "%02x", m.build_id[i]);
		n = snprintf(buf, len, "PERF_RECORD_MMAP2 %d/%d: [%s(%s) @ %s <%s>]: %c%c%c%c %s",
			     (int32_t)m.pid, (int32_t)m.tid, a, l, o, id,
			     (m.prot & PROT_READ) ? 'r' : '-', (m.prot & PROT_WRITE) ? 'w' : '-',
			     (m.prot & PROT_EXEC) ? 'x' : '-', (m.flags & MAP_SHARED) ? 's' : 'p',
			     name);
	} else {
		n = snprintf(buf, len, "PERF_RECORD_MMAP2 %d/%d: [%s(%s) @ %s %02x:%02x %" PRIu64
			     " %" PRIu64 "]: %c%c%c%c %s", (int32_t)m.pid, (int32_t)m.tid, a, l, o, m.maj, m.min,
			     m.ino, m.ino_generation,
			     (m.prot & PROT_READ) ? 'r' : '-', (m.prot & PROT_WRITE) ? 'w' : '-',
			     (m.prot & PROT_EXEC) ? 'x' : '-', (m.flags & MAP_SHARED) ? 's' : 'p',
			     name);
	}
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

size_t spe_side_event_text(const struct perf_event_header *h, unsigned show, char *buf,
			   size_t len)
{
	const uint32_t *u = (const uint32_t *)(h + 1);
	const char *name;
	int n = -1;

	if (!len)
		return 0;
	switch (h->type) {
	case PERF_RECORD_COMM:
		/* pid, tid, comm */
		name = name_at(h, sizeof(*h) + 8);
		if (!(show & SPE_SIDE_TASK) || !name)
			return 0;
		n = snprintf(buf, len, "PERF_RECORD_COMM%s: %s:%d/%d",
			     (h->misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "", name,
			     (int32_t)u[0], (int32_t)u[1]);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		/* pid, ppid, tid, ptid, time */
		if (!(show & SPE_SIDE_TASK) || h->size < sizeof(*h) + 16)
			return 0;
		n = snprintf(buf, len, "PERF_RECORD_%s(%d:%d):(%d:%d)",
			     h->type == PERF_RECORD_FORK ? "FORK" : "EXIT", (int32_t)u[0],
			     (int32_t)u[2], (int32_t)u[1], (int32_t)u[3]);
		break;
	case PERF_RECORD_MMAP: {
		/* pid, tid, addr, len, pgoff, filename */
		uint64_t v[3];
		char a[24], l[24], o[24];

		name = name_at(h, sizeof(*h) + 32);
		if (!(show & SPE_SIDE_MMAP) || !name)
			return 0;
		memcpy(v, u + 2, sizeof(v));
		hex(a, sizeof(a), v[0]);
		hex(l, sizeof(l), v[1]);
		hex(o, sizeof(o), v[2]);
		n = snprintf(buf, len, "PERF_RECORD_MMAP %d/%d: [%s(%s) @ %s]: %c %s",
			     (int32_t)u[0], (int32_t)u[1],
			     a, l, o, (h->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x', name);
		break;
	}
	case PERF_RECORD_MMAP2:
		if (!(show & SPE_SIDE_MMAP))
			return 0;
		return mmap2_text(h, buf, len);
	default:
		return 0;
	}
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

int32_t spe_side_event_tid(const struct perf_event_header *h, int32_t fallback)
{
	const uint32_t *u = (const uint32_t *)(h + 1);

	switch (h->type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		/* pid, tid, ... */
		return h->size >= sizeof(*h) + 8 ? (int32_t)u[1] : fallback;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		/* pid, ppid, tid, ... */
		return h->size >= sizeof(*h) + 12 ? (int32_t)u[2] : fallback;
	default:
		return fallback;
	}
}
