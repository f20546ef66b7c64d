// SPDX-License-Identifier: GPL-2.0
/*
 * Every management event the simulated unit can be made to raise (its
 * debugfs "inject" file, Documentation/dev-tools/arm-spe-sim.rst), seen
 * from user space through a per-CPU event on CPU 0, where this process
 * spins:
 *   - stage 1 and stage 2 translation faults, synchronous and asynchronous
 *     external aborts (DDI 0586A §3.5.3, §3.5.4): the AUX record is
 *     TRUNCATED, the driver logs "profiling stopped" with the cause and
 *     PMBSR_EL1's EC, the event stops (no data while still enabled), and
 *     enabling it again records clean data.  A per-CPU event, because
 *     what restarts a stopped per-task event depends on the kernel: perf
 *     core starts it again at its next sched-in on the Debian kernels,
 *     and disables it (until enabled again) from upstream's "perf/aux:
 *     Properly launch pending disable flow" on; a per-CPU event stays
 *     stopped on both;
 *   - forced collisions (§2.2.4, §3.1.4): the AUX record has COLLISION and
 *     nothing else, nothing is logged, and recording goes on;
 *   - each time the data written decodes cleanly and the unit's count
 *     (faults_injected, sample_collision) moved.
 * Skips unless arm_spe_sim is loaded with its debugfs files.
 */
#include "spe_aux.h"

#include <fcntl.h>
#include <sched.h>

#define SIM_CPU0	"/sys/kernel/debug/arm_spe_sim/cpu0/"
#define AUX_PAGES	64	/* 256 KiB: no buffer-full loss in a case */

struct fault_case {
	const char *inject;	/* what is written to the inject file */
	const char *stat;	/* the stats line that counts it */
	const char *cause;	/* in the driver's message; NULL: no message */
	const char *ec;		/* PMBSR_EL1.EC as the message prints it */
	unsigned int flags;	/* PERF_AUX_FLAG_* some AUX record must have */
};

static const struct fault_case cases[] = {
	{ "s1", "faults_injected", "translation fault at level 3", "EC 0x24",
	  PERF_AUX_FLAG_TRUNCATED },
	{ "s2", "faults_injected", "translation fault at level 3", "EC 0x25",
	  PERF_AUX_FLAG_TRUNCATED },
	{ "ea", "faults_injected", "external abort on write", "EC 0x24",
	  PERF_AUX_FLAG_TRUNCATED },
	{ "ea-async", "faults_injected", "external abort on write", "EC 0x24",
	  PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL },
	{ "collision 3", "sample_collision", NULL, NULL, PERF_AUX_FLAG_COLLISION },
};

static long long sim_stat(const char *key)
{
	char line[128];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen(SIM_CPU0 "stats", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ')
			v = atoll(line + n + 1);
	fclose(f);
	return v;
}

/* /dev/kmsg positioned at its end: only what is logged from now on. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* The first new kernel message containing what, copied to out. */
static bool kmsg_find(int fd, const char *what, char *out, size_t len)
{
	char rec[1024];
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) != 0) {
		if (n < 0) {
			if (errno == EPIPE)	/* overwritten: read on */
				continue;
			break;
		}
		rec[n] = '\0';
		if (strstr(rec, what)) {
			const char *text = strchr(rec, ';') ? strchr(rec, ';') + 1 : rec;
			size_t m = strcspn(text, "\n");

			if (m >= len)
				m = len - 1;
			memcpy(out, text, m);
			out[m] = '\0';
			return true;
		}
	}
	return false;
}

/* Checks of one case: a fault has one more (enabling again). */
static unsigned int case_checks(const struct fault_case *c)
{
	return c->cause ? 7 : 6;
}

/*
 * Record 0.2 s, inject, record 0.5 s more, disable.  perf publishes
 * aux_head only when a session ends, so everything is judged after the
 * disable, and "when" by the records' timestamps (the generic timer's
 * virtual count, as CNTVCT_EL0 reads here).
 */
static void run_case(int type, const struct fault_case *c)
{
	struct spe_aux_records f = { 0 };
	struct spe_aux_decoded d;
	struct perf_event_attr a;
	struct spe_session s;
	uint64_t head1, head2, t_inj, freq = spe_cntfrq();
	long long before, after;
	bool logged;
	char msg[512] = "";
	uint8_t *copy;
	int kfd, ret;
	unsigned int i;

	spe_attr_init(&a, type, CFG_TS_ENABLE);
	ret = spe_session_open(&s, &a, -1, 0, 16, AUX_PAGES, false);
	if (!tap_check(!ret, "%s: a per-CPU event on CPU 0 opens and maps (%d)", c->inject, ret)) {
		for (i = 1; i < case_checks(c); i++)
			tap_skip("no session", "%s: check %u", c->inject, i + 1);
		return;
	}
	copy = malloc(s.aux_size);
	kfd = kmsg_open();
	before = sim_stat(c->stat);

	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	spe_spin(0.2);
	t_inj = spe_cntvct();
	spe_write_str(SIM_CPU0 "inject", c->inject);
	spe_spin(0.5);
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
	head1 = spe_aux_head(&s);
	spe_ring_drain(&s, spe_aux_on_record, &f);
	after = sim_stat(c->stat);
	spe_write_str(SIM_CPU0 "inject", "none");

	spe_aux_decode(copy, spe_aux_copy(&s, 0, head1, copy), &d);
	tap_check(d.records > 0 && !d.errors,
		  "%s: the data written decodes cleanly (%lu records, %lu errors)",
		  c->inject, d.records, d.errors);
	tap_check(after > before,
		  "%s: the unit counted it (%s %lld -> %lld)", c->inject, c->stat, before, after);
	tap_check((c->flags & PERF_AUX_FLAG_TRUNCATED ? f.truncated : f.collision) &&
		  (!(c->flags & PERF_AUX_FLAG_PARTIAL) || f.partial) &&
		  (c->flags & PERF_AUX_FLAG_TRUNCATED || !f.truncated),
		  "%s: PERF_RECORD_AUX flags%s%s%s (AUX records:%s)", c->inject,
		  c->flags & PERF_AUX_FLAG_TRUNCATED ? " TRUNCATED" : "",
		  c->flags & PERF_AUX_FLAG_PARTIAL ? " PARTIAL" : "",
		  c->flags & PERF_AUX_FLAG_COLLISION ? " COLLISION, not TRUNCATED" : "",
		  f.log);
	logged = kfd >= 0 && kmsg_find(kfd, "profiling stopped", msg, sizeof(msg));

	if (c->cause) {
		tap_check(logged && strstr(msg, c->cause) && strstr(msg, c->ec),
			  "%s: the driver logs \"%s\" with %s (\"%s\")", c->inject,
			  c->cause, c->ec, msg);
		/* The fault strikes at the next write, a tick or so later. */
		tap_check(d.ts_max != 0 && d.ts_max < t_inj + freq / 10,
			  "%s: the event stops: the last record is %+.3f s from the injection, "
			  "in 0.5 s of running enabled", c->inject,
			  ((double)d.ts_max - (double)t_inj) / freq);
		/*
		 * Stopped since the fault; disabling and enabling starts over.
		 * The simulated unit samples on the guest's timer ticks, which
		 * a busy host delivers late: spin until the unit has written
		 * two records (0.2 s at a time, up to 3 s) rather than for a
		 * fixed time.
		 */
		before = sim_stat("records");
		ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
		for (i = 0; i < 15 && sim_stat("records") < before + 2; i++)
			spe_spin(0.2);
		ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
		head2 = spe_aux_head(&s);
		spe_aux_decode(copy, spe_aux_copy(&s, head1, head2, copy), &d);
		tap_check(head2 > head1 && d.records > 0 && !d.errors,
			  "%s: enabled again, it records clean data (%llu bytes, %lu records, %lu errors)",
			  c->inject, (unsigned long long)(head2 - head1), d.records, d.errors);
	} else {
		tap_check(kfd >= 0 && !logged, "%s: nothing logged (%s)", c->inject,
			  logged ? msg : "no message");
		tap_check(d.ts_max > t_inj + freq * 3 / 10,
			  "%s: recording goes on: the last record is %+.3f s from the injection",
			  c->inject, ((double)d.ts_max - (double)t_inj) / freq);
	}
	if (kfd >= 0)
		close(kfd);
	free(copy);
	spe_session_close(&s);
}

int main(void)
{
	int type = spe_pmu_type_or_skip();
	cpu_set_t cpu0;
	unsigned int i, n;

	if (!spe_sim_profile())
		tap_skip_all("arm_spe_sim is not loaded");
	if (access(SIM_CPU0 "inject", W_OK))
		tap_skip_all("no %sinject (debugfs not mounted, or not root)", SIM_CPU0);
	/* The injection is armed on CPU 0: the sampled task runs there. */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		tap_skip_all("cannot run on CPU 0: %s", strerror(errno));

	for (i = 0, n = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		n += case_checks(&cases[i]);
	tap_plan(n);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(type, &cases[i]);
	return tap_exit();
}
