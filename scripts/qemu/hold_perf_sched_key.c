// SPDX-License-Identifier: GPL-2.0
/*
 * Keep perf core's scheduling static key (perf_sched_events) switched on
 * for the life of a test guest, so that the kernel does not patch its two
 * call sites in the scheduler while tests run.
 *
 * QEMU 7.2's multi-threaded TCG can miss such a patch on a vCPU that is
 * translating the same kernel text at that moment: one call site then runs
 * the new code and the other the old, so perf core schedules a task's
 * events out but not in again (or the reverse) and warns in
 * event_function() or ctx_sched_in(), whoever's events they are
 * (Documentation/dev-tools/arm-spe-sim.rst, "Known issues").  perf core
 * switches the key on while any per-task event exists and off about a
 * second after the last one is freed; one per-task software event held
 * here keeps it on.
 *
 * Started by the guest's /init before anything else, with the other CPUs
 * offline (init.sh says why); it creates the file named by its argument
 * once the event is open, for /init to bring them back, and never returns.
 */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	long fd;
	int ready;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		perror("hold_perf_sched_key: perf_event_open");
		return 1;
	}
	if (argc > 1) {
		/* Without it /init waits, then goes on: keep the key. */
		ready = open(argv[1], O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (ready < 0)
			perror(argv[1]);
		else
			close(ready);
	}
	for (;;)
		pause();
}
