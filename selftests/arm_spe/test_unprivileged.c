// SPDX-License-Identifier: GPL-2.0
/*
 * arm_spe_0 for an unprivileged user (perf-arm-spe.txt: pa_enable and
 * pct_enable need permission to profile the kernel, CONTEXTIDR only for a
 * privileged owner), run as root which sets kernel.perf_event_paranoid and
 * drops to nobody (65534) in a child:
 *   - paranoid=2: pa_enable, pct_enable refused with EACCES, an event
 *     including the kernel refused; a user-only event records, with no
 *     CONTEXT packet and no kernel PC;
 *   - paranoid=3 (Debian's default, its kernels' perf_event_paranoid
 *     patch): any perf_event_open() by the unprivileged user is refused.
 * paranoid is restored afterwards.  Skips when there is no arm_spe PMU or
 * the program is not root.
 */
#include "spe_selftest.h"
#include "spe_decode.h"

#include <sys/wait.h>

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define NOBODY		65534

/* What the unprivileged child saw, in memory shared with the parent. */
struct child_result {
	int done;
	int pa, pct, kernel, user, paranoid3;
	unsigned long records, errors, ctx, not_el0;
};

static void record_user(int type, struct child_result *r)
{
	struct perf_event_attr a;
	struct spe_session s;
	struct spe_decoder dec;
	struct spe_record rec;
	uint64_t head;
	int ret;

	spe_attr_init(&a, type, CFG_TS_ENABLE);
	r->user = spe_session_open(&s, &a, 0, -1, 8, 16, false);
	if (r->user)
		return;
	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	spe_spin(0.5);
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
	head = spe_aux_head(&s);
	spe_decoder_init(&dec, NULL, s.aux, head < s.aux_size ? head : s.aux_size, 0);
	while ((ret = spe_decoder_next(&dec, &rec)) != 0) {
		if (ret < 0) {
			r->errors++;
			continue;
		}
		r->records++;
		if (rec.present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2))
			r->ctx++;
		if (!(rec.present & SPE_REC_PC) || rec.pc.el != 0)
			r->not_el0++;
	}
	spe_session_close(&s);
}

static int open_as(int type, uint64_t config, bool kernel)
{
	struct perf_event_attr a;
	int fd;

	spe_attr_init(&a, type, config);
	a.exclude_kernel = !kernel;
	fd = spe_open(&a, 0, -1);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

/* Run fn as nobody in a child; 0 when the child finished. */
static int as_nobody(int type, int paranoid, struct child_result *r)
{
	char val[8];
	pid_t pid;
	int status;

	snprintf(val, sizeof(val), "%d", paranoid);
	if (spe_write_str(PARANOID, val))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		if (paranoid == 3) {
			r->paranoid3 = open_as(type, CFG_TS_ENABLE, false);
		} else {
			r->pa = open_as(type, CFG_PA_ENABLE, false);
			r->pct = open_as(type, CFG_PCT_ENABLE, false);
			r->kernel = open_as(type, CFG_TS_ENABLE, true);
			record_user(type, r);
		}
		r->done = 1;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return r->done ? 0 : -1;
}

int main(void)
{
	int type = spe_pmu_type_or_skip();
	struct child_result *r;
	char saved[16];

	if (geteuid() != 0)
		tap_skip_all("needs root to set %s and become nobody", PARANOID);
	if (spe_read_str(PARANOID, saved, sizeof(saved)))
		tap_skip_all("no %s", PARANOID);
	r = mmap(NULL, sizeof(*r) * 2, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		tap_skip_all("no shared memory: %s", strerror(errno));

	tap_plan(7);
	if (!tap_check(!as_nobody(type, 2, &r[0]), "paranoid=2: a child runs as nobody")) {
		tap_skip("child failed", "pa_enable refused");
		tap_skip("child failed", "pct_enable refused");
		tap_skip("child failed", "kernel sampling refused");
		tap_skip("child failed", "user-only event records, no CONTEXT, no kernel PC");
	} else {
		tap_check(r[0].pa == -EACCES, "paranoid=2, nobody: pa_enable refused with EACCES (%d)",
			  r[0].pa);
		tap_check(r[0].pct == -EACCES, "paranoid=2, nobody: pct_enable refused with EACCES (%d)",
			  r[0].pct);
		tap_check(r[0].kernel == -EACCES,
			  "paranoid=2, nobody: an event including the kernel refused with EACCES (%d)",
			  r[0].kernel);
		tap_check(!r[0].user && r[0].records > 0 && !r[0].errors && !r[0].ctx &&
			  !r[0].not_el0,
			  "paranoid=2, nobody: a user-only event records (%lu records, %lu errors) "
			  "with no CONTEXT (%lu) and every PC at EL0 (%lu not) (open %d)",
			  r[0].records, r[0].errors, r[0].ctx, r[0].not_el0, r[0].user);
	}
	if (!tap_check(!as_nobody(type, 3, &r[1]), "paranoid=3: a child runs as nobody"))
		tap_skip("child failed", "perf_event_open refused");
	else
		tap_check(r[1].paranoid3 == -EACCES,
			  "paranoid=3 (Debian's default), nobody: perf_event_open refused with EACCES (%d)",
			  r[1].paranoid3);
	spe_write_str(PARANOID, saved);
	return tap_exit();
}
