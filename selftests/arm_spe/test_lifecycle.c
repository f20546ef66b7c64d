// SPDX-License-Identifier: GPL-2.0
/*
 * The life of arm_spe_0 events:
 *   - the PMU is exclusive (Linux arm_spe_pmu.c): a second event on a CPU that
 *     has one is refused with EBUSY, and opens once the first is closed;
 *     perf core keeps per-task and per-CPU events of an exclusive PMU
 *     apart, so a per-task event is refused while a per-CPU one exists;
 *   - 100 open / mmap / record / close cycles all work and most yield data;
 *   - CPU 1 goes offline and online while a per-CPU event on it records,
 *     then again while a per-task event records: the task's event keeps
 *     recording (consumed and enabled again: a unit at full speed fills
 *     the buffer during the hotplug), a new event on CPU 1 opens and records
 *     once it is back
 *     (the guest suite checks the kernel log for warnings afterwards).
 *
 *   test_lifecycle --hold SECS   keeps an enabled event open SECS seconds
 *                                (the guest script tries rmmod meanwhile)
 * Skips when there is no arm_spe PMU; the hotplug checks skip with one CPU
 * or without CPU 1's online file.
 */
#include "spe_selftest.h"
#include "spe_decode.h"

#include <sched.h>
#include <sys/wait.h>

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static int hold(double secs)
{
	struct perf_event_attr a;
	int type = spe_pmu_type_or_skip();
	int fd;

	spe_attr_init(&a, type, CFG_TS_ENABLE);
	a.disabled = 0;
	fd = spe_open(&a, 0, -1);
	printf("hold: fd %d\n", fd);
	fflush(stdout);
	if (fd < 0)
		return 1;
	spe_spin(secs);
	close(fd);
	return 0;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void unpin(void)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void check_exclusive(int type)
{
	struct perf_event_attr a;
	int fd1, fd2;

	spe_attr_init(&a, type, 0);
	fd1 = spe_open(&a, -1, 0);
	fd2 = spe_open(&a, -1, 0);
	tap_check(fd1 >= 0 && fd2 == -EBUSY,
		  "exclusive: a second per-CPU event on CPU 0 is refused with EBUSY (%d, %d)",
		  fd1, fd2);
	if (fd2 >= 0)
		close(fd2);
	fd2 = spe_open(&a, 0, -1);
	tap_check(fd1 >= 0 && fd2 == -EBUSY,
		  "exclusive: a per-task event is refused with EBUSY while a per-CPU one exists (%d)",
		  fd2);
	if (fd2 >= 0)
		close(fd2);
	if (fd1 >= 0)
		close(fd1);
	fd2 = spe_open(&a, -1, 0);
	tap_check(fd2 >= 0, "exclusive: once the first is closed, another opens (%d)", fd2);
	if (fd2 >= 0)
		close(fd2);
}

/*
 * Spin until the event has been running secs (its time_running; the
 * event's read_format is PERF_FORMAT_TOTAL_TIME_RUNNING alone), or AUX data
 * came, or limit seconds of wall time passed: on a busy host the guest's
 * CPU may get much less than the wall time, and a unit sampling at full
 * speed (hardware, QEMU's) fills the small buffer at once, after which
 * perf core disables the event and time_running stops.
 */
static uint64_t spin_running(const struct spe_session *s, double secs, double limit)
{
	double end = spe_now() + limit;
	uint64_t v[2] = { 0, 0 };

	do {
		spe_spin(0.005);
		if (read(s->fd, v, sizeof(v)) != sizeof(v))
			return 0;
	} while (v[1] < (uint64_t)(secs * 1e9) && !spe_aux_head(s) && spe_now() < end);
	return v[1];
}

static void check_cycles(int type)
{
	struct perf_event_attr a;
	struct spe_session s;
	uint64_t running;
	unsigned int i, opened = 0, with_data = 0, starved = 0;
	int first_err = 0;

	for (i = 0; i < 100; i++) {
		int ret;

		spe_attr_init(&a, type, CFG_TS_ENABLE);
		a.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING;
		ret = spe_session_open(&s, &a, 0, -1, 2, 4, false);
		if (ret) {
			if (!first_err)
				first_err = ret;
			continue;
		}
		opened++;
		ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
		running = spin_running(&s, 0.05, 2.0);
		ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
		if (spe_aux_head(&s))
			with_data++;
		else if (running < 50000000)
			starved++;
		spe_session_close(&s);
	}
	tap_check(opened == 100, "100 open/mmap/record/close cycles all open (%u, first error %d)",
		  opened, first_err);
	/*
	 * About fifteen records in 50 ms of running at the simulated rate.
	 * A cycle whose event did not run 50 ms within 2 s of the guest's
	 * clock (a vCPU the host did not schedule: the guest's clock follows
	 * the host's) says nothing about the driver; it is left out, up to
	 * half of them.
	 */
	tap_check(starved <= 50 && with_data * 4 >= (opened - starved) * 3,
		  "at least 3 in 4 of the cycles that ran 50 ms got AUX data (%u of %u; %u did not run 50 ms in 2 s)",
		  with_data, opened - starved, starved);
}

static unsigned long decode_count(const struct spe_session *s, unsigned long *errors)
{
	uint64_t head = spe_aux_head(s);
	struct spe_decoder dec;
	struct spe_record r;
	unsigned long n = 0;
	int ret;

	*errors = 0;
	spe_decoder_init(&dec, NULL, s->aux, head < s->aux_size ? head : s->aux_size, 0);
	while ((ret = spe_decoder_next(&dec, &r)) != 0) {
		if (ret < 0)
			(*errors)++;
		else
			n++;
	}
	return n;
}

/* Take CPU 1 offline and back online from a child while this task spins on it. */
static int hotplug_while_spinning(void)
{
	pid_t child;
	int status, rc = -1;

	fflush(stdout);
	child = fork();
	if (child == 0) {
		usleep(200000);
		if (spe_write_str(CPU1_ONLINE, "0"))
			_exit(1);
		usleep(200000);
		_exit(spe_write_str(CPU1_ONLINE, "1") ? 2 : 0);
	}
	pin(1);
	spe_spin(0.7);
	unpin();
	if (waitpid(child, &status, 0) == child && WIFEXITED(status))
		rc = WEXITSTATUS(status);
	return rc;
}

static void check_hotplug(int type)
{
	struct perf_event_attr a;
	struct spe_session s;
	uint64_t head;
	unsigned long recs, errs;
	int ret, rc;
	char buf[8];

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || spe_read_str(CPU1_ONLINE, buf, sizeof(buf))) {
		for (int i = 0; i < 6; i++)
			tap_skip("no CPU 1 to take offline", "hotplug check %d", i + 1);
		return;
	}

	/* A per-CPU event on the CPU that goes away. */
	spe_attr_init(&a, type, CFG_TS_ENABLE);
	ret = spe_session_open(&s, &a, -1, 1, 4, 16, false);
	if (!ret)
		ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	rc = hotplug_while_spinning();
	if (!ret) {
		ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
		recs = decode_count(&s, &errs);
		spe_session_close(&s);
	}
	tap_check(!ret && rc == 0 && !errs,
		  "CPU 1 goes offline and online while a per-CPU event on it records "
		  "(open %d, hotplug status %d, %lu records, %lu errors)", ret, rc,
		  ret ? 0 : recs, ret ? 0 : errs);

	/* A per-task event: the task moves off CPU 1 and back. */
	spe_attr_init(&a, type, CFG_TS_ENABLE);
	ret = spe_session_open(&s, &a, 0, -1, 4, 64, false);
	if (!ret)
		ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	rc = hotplug_while_spinning();
	tap_check(!ret && rc == 0,
		  "CPU 1 goes offline and online while a per-task event records (open %d, hotplug status %d)",
		  ret, rc);
	if (ret) {
		tap_skip("no event", "its data decodes cleanly");
		tap_skip("no event", "the per-task event records after the hotplug");
	} else {
		recs = decode_count(&s, &errs);
		tap_check(recs > 0 && !errs,
			  "the per-task event's data across the hotplug decodes cleanly (%lu records, %lu errors)",
			  recs, errs);
		/*
		 * A unit sampling at full speed (hardware, QEMU's) fills
		 * the buffer long before the hotplug is over; the session
		 * then ends TRUNCATED and perf core disables the event.
		 * Consume everything and enable it again, on CPU 1.
		 */
		head = spe_aux_head(&s);
		spe_aux_consume(&s, head);
		pin(1);
		ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
		spe_spin(0.3);
		unpin();
		ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
		tap_check(spe_aux_head(&s) > head,
			  "the per-task event records on CPU 1 after it came back (%llu -> %llu bytes)",
			  (unsigned long long)head, (unsigned long long)spe_aux_head(&s));
		spe_session_close(&s);
	}

	/* A new per-CPU event on the CPU that came back. */
	spe_attr_init(&a, type, CFG_TS_ENABLE);
	ret = spe_session_open(&s, &a, -1, 1, 4, 16, false);
	tap_check(!ret, "a new per-CPU event opens on CPU 1 after it came back (%d)", ret);
	if (ret) {
		tap_skip("no event", "it records");
		return;
	}
	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	pin(1);
	spe_spin(0.3);
	unpin();
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
	recs = decode_count(&s, &errs);
	tap_check(recs > 0 && !errs,
		  "the new per-CPU event on CPU 1 records (%lu records, %lu errors)", recs, errs);
	spe_session_close(&s);
}

int main(int argc, char **argv)
{
	int type;

	if (argc == 3 && !strcmp(argv[1], "--hold"))
		return hold(atof(argv[2]));
	type = spe_pmu_type_or_skip();
	tap_plan(3 + 2 + 6);
	check_exclusive(type);
	check_cycles(type);
	check_hotplug(type);
	return tap_exit();
}
