// SPDX-License-Identifier: GPL-2.0
/*
 * Does perf core schedule a task's context in after the perf_sched_events
 * static key was switched off and on again?  No SPE and no module of this
 * project involved: a software event (task-clock) on the calling task.
 *
 * perf core turns the key off about a second after the last per-task event
 * is freed, and on again when the next is opened; both call sites in the
 * scheduler (sched-out in prepare_task_switch, sched-in in
 * finish_task_switch) are patched each time.  Each round here waits for
 * the key to go off, opens a per-task task-clock event, spins (with short
 * sleeps, so the task is switched out and in), and reads the event's
 * enabled and running times: a task whose context is not scheduled in
 * again after a switch counts enabled time but (nearly) no running time,
 * and its PERF_EVENT_IOC_DISABLE makes perf core warn in event_function().
 *
 * Usage: sw_event_sched_in ROUNDS [GAP_SECONDS]
 * Prints one line per bad round and a summary; exits 1 if any round saw
 * running time below half the enabled time.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin_with_switches(double secs)
{
	double end = now() + secs;
	volatile unsigned long x = 0;

	while (now() < end) {
		for (int i = 0; i < 100000; i++)
			x += i;
		usleep(500);
	}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	double gap = argc > 2 ? atof(argv[2]) : 1.3;
	int bad = 0;

	for (int r = 0; r < rounds; r++) {
		struct perf_event_attr a;
		uint64_t v[3];
		int fd;

		/* No per-task event for over a second: the key goes off. */
		usleep((useconds_t)(gap * 1e6));
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd < 0) {
			perror("perf_event_open");
			return 2;
		}
		spin_with_switches(0.2);
		if (read(fd, v, sizeof(v)) != sizeof(v)) {
			perror("read");
			return 2;
		}
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		close(fd);
		if (v[2] * 2 < v[1]) {
			bad++;
			printf("round %d: enabled %llu ns, running %llu ns: the context was not scheduled in\n",
			       r, (unsigned long long)v[1], (unsigned long long)v[2]);
			fflush(stdout);
		}
	}
	printf("sw_event_sched_in: %d of %d rounds bad\n", bad, rounds);
	return bad ? 1 : 0;
}
