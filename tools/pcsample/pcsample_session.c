// SPDX-License-Identifier: GPL-2.0
/*
 * The events of a pcsample-record recording, through libperf 6.1
 * (scripts/fetch-libperf.sh): perf_evlist__open opens the event on every
 * CPU, perf_evlist__mmap maps one ring per CPU, perf_mmap__read_event
 * reads the side band out of it; see pcsample_session.h.
 *
 * What libperf 6.1 does not do, this file does itself:
 *   - the AUX buffer: libperf has no AUX API (perf maps AUX areas in its
 *     own tools/perf/util/auxtrace.c, not in libperf), so it is mapped on
 *     the fd of libperf's ring as the kernel's perf_event_open(2) page
 *     describes: aux_offset and aux_size written into the ring's user
 *     page, then mmap at aux_offset;
 *   - the fd, the user page and the CPU of a ring: libperf 6.1 exports no
 *     accessor for them, so they are read from its struct perf_mmap
 *     (internal/mmap.h).  That is why libperf is linked statically at one
 *     version: the layout of that struct is fixed with it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/event.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>
#include <internal/mmap.h>

#include "pcsample_session.h"

/* libperf reports through a callback that prints every level, debug
 * included, by default: only its warnings and errors reach stderr. */
static int libperf_print(enum libperf_print_level level, const char *fmt, va_list ap)
{
	if (level > LIBPERF_WARN)
		return 0;
	fputs("libperf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

static size_t page_bytes(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* perf_evlist__open says why, not where: each CPU alone, in the order
 * given, finds the first that refuses the event. */
static void name_refusing_cpu(struct pcs_session *s, int open_err, char *err, size_t errlen)
{
	int failed = -1, e = -open_err;
	const char *hint;

	for (int i = 0; i < s->nr && failed < 0; i++) {
		char one[16];
		struct perf_cpu_map *map;
		int r;

		snprintf(one, sizeof(one), "%d", s->ev[i].cpu);
		map = perf_cpu_map__new(one);
		if (!map)
			break;
		r = perf_evsel__open(s->evsel, map, perf_evsel__threads(s->evsel));
		perf_evsel__close(s->evsel);
		perf_cpu_map__put(map);
		if (r < 0) {
			failed = s->ev[i].cpu;
			e = -r;
		}
	}
	hint = e == EACCES ? " (CPU-wide events need CAP_PERFMON or a low "
			     "perf_event_paranoid; -u drops kernel samples)" :
	       e == EINVAL ? " (CPU not in the PMU's cpumask, or period out of 10 us..1 s)" :
	       "";
	if (failed >= 0)
		snprintf(err, errlen, "CPU %d: perf_event_open: %s%s", failed, strerror(e), hint);
	else
		snprintf(err, errlen, "perf_event_open: %s%s", strerror(e), hint);
}

/* The AUX buffer of @e, after its ring: the kernel reads where and how
 * large from the ring's user page (perf_event_open(2), "aux_offset"). */
static int map_aux(struct pcs_cpu_event *e, int ring_pages, size_t aux_pages, char *err,
		   size_t errlen)
{
	struct perf_event_mmap_page *pg = e->ring->base;
	void *aux;

	e->aux_size = aux_pages * page_bytes();
	pg->aux_offset = (uint64_t)page_bytes() * (1 + (uint64_t)ring_pages);
	pg->aux_size = e->aux_size;
	/* Writable: the driver does not support overwrite (snapshot) mode. */
	aux = mmap(NULL, e->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, e->ring->fd,
		   (off_t)pg->aux_offset);
	if (aux == MAP_FAILED) {
		snprintf(err, errlen, "CPU %d: mapping a %zu-byte AUX buffer: %s", e->cpu,
			 e->aux_size, strerror(errno));
		return -1;
	}
	e->aux = aux;
	return 0;
}

int pcs_session_open(struct pcs_session *s, const struct perf_event_attr *attr,
		     const int *cpus, int nr, int ring_pages, size_t aux_pages,
		     char *err, size_t errlen)
{
	struct perf_event_attr a = *attr;
	struct perf_cpu_map *cpu_map = NULL;
	struct perf_thread_map *threads;
	struct perf_mmap *map;
	char *list;
	size_t len = 0;
	int ret;

	memset(s, 0, sizeof(*s));
	libperf_init(libperf_print);
	s->ev = calloc((size_t)nr, sizeof(*s->ev));
	list = malloc((size_t)nr * 12 + 1);
	if (!s->ev || !list) {
		free(list);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->nr = nr;
	list[0] = '\0';
	for (int i = 0; i < nr; i++) {
		s->ev[i].cpu = cpus[i];
		for (int j = 0; j < i; j++) {
			if (cpus[j] == cpus[i]) {
				free(list);
				snprintf(err, errlen, "CPU %d is listed twice", cpus[i]);
				return -1;
			}
		}
		len += (size_t)sprintf(list + len, "%s%d", i ? "," : "", cpus[i]);
	}
	cpu_map = perf_cpu_map__new(list);
	free(list);
	threads = perf_thread_map__new_dummy();		/* pid -1: the whole CPU */
	s->evlist = perf_evlist__new();
	s->evsel = perf_evsel__new(&a);
	if (!cpu_map || !threads || !s->evlist || !s->evsel) {
		perf_cpu_map__put(cpu_map);
		perf_thread_map__put(threads);
		perf_evsel__delete(s->evsel);
		s->evsel = NULL;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	perf_evlist__add(s->evlist, s->evsel);
	perf_evlist__set_maps(s->evlist, cpu_map, threads);	/* takes references */
	perf_cpu_map__put(cpu_map);
	perf_thread_map__put(threads);

	ret = perf_evlist__open(s->evlist);
	if (ret < 0) {
		name_refusing_cpu(s, ret, err, errlen);
		return -1;
	}
	if (perf_evlist__mmap(s->evlist, ring_pages)) {
		snprintf(err, errlen, "mapping the ring buffers: %s", strerror(errno));
		return -1;
	}
	/* One ring per CPU, in libperf's (sorted) CPU order. */
	perf_evlist__for_each_mmap(s->evlist, map, false) {
		for (int i = 0; i < nr; i++)
			if (s->ev[i].cpu == map->cpu.cpu)
				s->ev[i].ring = map;
	}
	for (int i = 0; i < nr; i++) {
		struct pcs_cpu_event *e = &s->ev[i];

		if (!e->ring) {
			snprintf(err, errlen, "CPU %d: libperf mapped no ring buffer", e->cpu);
			return -1;
		}
		e->user_page = e->ring->base;
		if (ioctl(e->ring->fd, PERF_EVENT_IOC_ID, &e->id)) {
			snprintf(err, errlen, "CPU %d: PERF_EVENT_IOC_ID: %s", e->cpu,
				 strerror(errno));
			return -1;
		}
		if (aux_pages && map_aux(e, ring_pages, aux_pages, err, errlen))
			return -1;
	}
	return 0;
}

void pcs_session_enable(struct pcs_session *s)
{
	perf_evlist__enable(s->evlist);
}

void pcs_session_disable(struct pcs_session *s)
{
	perf_evlist__disable(s->evlist);
}

int pcs_session_drain(struct pcs_session *s, int i, char *err, size_t errlen)
{
	struct pcs_cpu_event *e = &s->ev[i];
	union perf_event *event;
	int ret = 0;

	if (perf_mmap__read_init(e->ring) < 0)
		return 0;	/* empty */
	while ((event = perf_mmap__read_event(e->ring))) {
		if (pcs_events_append(&e->sideband, event, event->header.size)) {
			snprintf(err, errlen, "CPU %d: reading the ring buffer: %s", e->cpu,
				 strerror(errno));
			ret = -1;
			break;
		}
		perf_mmap__consume(e->ring);
	}
	/* read_event stops at a record size the ring cannot hold as it does
	 * at the end: only the positions tell them apart. */
	if (!ret && e->ring->end - e->ring->start >= sizeof(struct perf_event_header)) {
		snprintf(err, errlen, "CPU %d: reading the ring buffer: %s", e->cpu,
			 strerror(EBADMSG));
		ret = -1;
	}
	perf_mmap__read_done(e->ring);
	return ret;
}

void pcs_session_close(struct pcs_session *s)
{
	for (int i = 0; i < s->nr; i++) {
		pcs_events_free(&s->ev[i].sideband);
		if (s->ev[i].aux)
			munmap((void *)s->ev[i].aux, s->ev[i].aux_size);
	}
	/* Unmaps the rings, closes the events, frees the evsel and the
	 * evlist's references to the maps.  libperf 6.1's perf_evsel__delete
	 * keeps the evsel's own references: they are dropped here. */
	if (s->evsel && s->evlist) {
		struct perf_cpu_map *cpus = perf_evsel__cpus(s->evsel);
		struct perf_thread_map *threads = perf_evsel__threads(s->evsel);

		perf_evlist__delete(s->evlist);
		perf_cpu_map__put(cpus);
		perf_thread_map__put(threads);
	} else {
		perf_evlist__delete(s->evlist);
	}
	free(s->ev);
	memset(s, 0, sizeof(*s));
}
