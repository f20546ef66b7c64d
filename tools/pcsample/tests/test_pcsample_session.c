// SPDX-License-Identifier: GPL-2.0
/*
 * pcsample_session.c, the events of a recording through libperf, on a
 * PMU every Linux has: a CPU-wide software "dummy" event that only
 * carries the side band pcsample-record asks for (COMM, FORK, EXIT,
 * MMAP2).  Children forked here must show up in the rings, in the order
 * the kernel wrote them, including across the ring's wrap (so libperf's
 * reading and the consumption of what was read both work), each CPU's
 * event must stay in the order the CPUs were given, and the AUX buffer
 * must be requested from the kernel on libperf's fd (a software event has
 * no AUX area: the kernel refuses, naming the CPU).
 *
 * Needs CPU-wide events (root, CAP_PERFMON or perf_event_paranoid <= 0):
 * skipped, saying why, when the system refuses to open the event.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pcsample_session.h"
#include "tap.h"

#define CHILDREN	1000	/* FORK + EXIT of each: 128 KB, several times 8-page rings */
#define DRAIN_EVERY	25

static void dummy_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CPU;
	a->sample_id_all = 1;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->task = 1;
	a->comm = 1;
	a->mmap = 1;
	a->mmap2 = 1;
}

/* The CPUs this process may run on, last first (its children inherit
 * them, so their records land in these CPUs' rings). */
static int my_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = CPU_SETSIZE - 1; c >= 0 && n < max; c--)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

struct seen {
	pid_t kids[CHILDREN];
	int forks, exits, lost, bad_size;
};

static int is_kid(const struct seen *s, uint32_t pid)
{
	for (int i = 0; i < CHILDREN; i++)
		if (s->kids[i] == (pid_t)pid)
			return 1;
	return 0;
}

static void count(const struct pcs_events *ev, struct seen *s)
{
	size_t pos = 0;
	const void *rec;

	while ((rec = pcs_events_next(ev, &pos))) {
		struct perf_event_header h;
		uint32_t pid;

		memcpy(&h, rec, sizeof(h));
		if (h.type == PERF_RECORD_LOST)
			s->lost++;
		if (h.type != PERF_RECORD_FORK && h.type != PERF_RECORD_EXIT)
			continue;
		/* pid, ppid, tid, ptid, time: then the sample_id trailer */
		if (h.size < sizeof(h) + 24) {
			s->bad_size++;
			continue;
		}
		memcpy(&pid, (const uint8_t *)rec + sizeof(h), sizeof(pid));
		if (is_kid(s, pid))
			h.type == PERF_RECORD_FORK ? s->forks++ : s->exits++;
	}
	if (pos != ev->len)
		s->bad_size++;
}

int main(void)
{
	static struct seen seen;
	struct perf_event_attr attr;
	struct pcs_session s;
	int cpus[64], n, ok = 1, drained = 1;
	char err[256];

	struct pcs_events ev = { 0 };
	struct perf_event_header h = { .type = PERF_RECORD_EXIT, .size = sizeof(h) };

	CHECK(!pcs_events_append(&ev, &h, sizeof(h)) && ev.nr == 1 && ev.len == sizeof(h),
	      "a record whose size is its header's is appended");
	errno = 0;
	CHECK(pcs_events_append(&ev, &h, sizeof(h) + 8) == -1 && errno == EBADMSG && ev.nr == 1,
	      "a record whose header says another size is refused (EBADMSG)");
	pcs_events_free(&ev);

	dummy_attr(&attr);
	n = my_cpus(cpus, 64);
	CHECK(n > 0, "the test knows its CPUs");
	if (n <= 0)
		return tap_done();

	int twice[2] = { cpus[0], cpus[0] };
	CHECK(pcs_session_open(&s, &attr, twice, 2, 8, 0, err, sizeof(err)) == -1 &&
	      strstr(err, "is listed twice"), "a CPU given twice is refused, named");
	pcs_session_close(&s);

	if (pcs_session_open(&s, &attr, cpus, n, 8, 0, err, sizeof(err))) {
		pcs_session_close(&s);
		/* Refused by the system (paranoia, a seccomp filter, no perf
		 * events): nothing this code can be blamed for. */
		if (strstr(err, "perf_event_open")) {
			tap_skip("the side band of forked children comes through libperf", err);
			return tap_done();
		}
		CHECK(0, "a CPU-wide dummy event opens through libperf");
		printf("#   %s\n", err);
		return tap_done();
	}
	CHECK(1, "a CPU-wide dummy event opens through libperf");
	for (int i = 0; i < n; i++)
		ok &= s.ev[i].cpu == cpus[i] && s.ev[i].id && s.ev[i].user_page &&
		      (!i || s.ev[i].id != s.ev[i - 1].id);
	CHECK(ok, "one event per CPU, in the order given, each with its id and ring");

	pcs_session_enable(&s);
	for (int k = 0; k < CHILDREN; k++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		seen.kids[k] = pid;
		if (pid > 0)
			waitpid(pid, NULL, 0);
		/* Often enough that the ring never fills: nothing is lost. */
		for (int i = 0; drained && (k + 1) % DRAIN_EVERY == 0 && i < n; i++)
			drained = !pcs_session_drain(&s, i, err, sizeof(err));
	}
	pcs_session_disable(&s);
	for (int i = 0; drained && i < n; i++)
		drained = !pcs_session_drain(&s, i, err, sizeof(err));
	if (!CHECK(drained, "the rings drain while recording"))
		printf("#   %s\n", err);

	size_t bytes = 0;
	for (int i = 0; i < n; i++) {
		count(&s.ev[i].sideband, &seen);
		bytes += s.ev[i].sideband.len;
	}
	CHECK(bytes > (size_t)n * 8 * (size_t)sysconf(_SC_PAGESIZE),
	      "more side band than all the rings hold at once: one at least wrapped");
	CHECK_EQ(seen.forks, CHILDREN, "a FORK record for each child");
	CHECK_EQ(seen.exits, CHILDREN, "an EXIT record for each child");
	CHECK_EQ(seen.lost + seen.bad_size, 0, "no record lost or cut");
	pcs_session_close(&s);

	/* The AUX request goes to the kernel on libperf's fd. */
	CHECK(pcs_session_open(&s, &attr, cpus, 1, 8, 4, err, sizeof(err)) == -1 &&
	      strstr(err, "AUX buffer"),
	      "an AUX buffer on an event without one is refused, named");
	printf("# %s\n", err);
	pcs_session_close(&s);
	return tap_done();
}
