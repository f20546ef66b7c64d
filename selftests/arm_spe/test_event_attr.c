// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open() on every arm_spe PMU enforces the rules of the SPE
 * perf ABI (Linux perf-arm-spe.txt):
 *   - exclude_idle is refused with EOPNOTSUPP;
 *   - event_filter bits outside caps/event_filter are refused (EOPNOTSUPP);
 *   - a format attribute the PMU hides (feature missing) is refused
 *     (EOPNOTSUPP) when its bits are set anyway;
 *   - ts_enable, jitter and the available type filters open together;
 *   - without permission to profile the kernel (an unprivileged user at
 *     perf_event_paranoid 2) a user-only event opens, but pa_enable, which
 *     exposes physical addresses, is refused with EACCES.
 *
 * Skips when no arm_spe PMU is registered.  Needs root (it lowers
 * privileges itself and sets perf_event_paranoid for the last checks,
 * restoring it afterwards).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spe_tap.h"

#define PMU_DIR		"/sys/bus/event_source/devices"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define MAX_PMUS	64
#define CHECKS_PER_PMU	6
#define NOBODY		65534

struct fmt_attr {
	const char *name;
	const char *word;
	unsigned int lo, hi;
};

#define SPE_FMT(n, w, l, h, feat) { #n, #w, l, h },
static const struct fmt_attr fmt_attrs[] = {
#include "spe/format_table.h"
};
#undef SPE_FMT

#define N_FMT (sizeof(fmt_attrs) / sizeof(fmt_attrs[0]))

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		ret = -EIO;
	if (fclose(f))
		ret = -errno;
	return ret;
}

static int pmu_attr(const char *pmu, const char *attr, char *buf, size_t len)
{
	char path[1024];

	if (snprintf(path, sizeof(path), PMU_DIR "/%s/%s", pmu, attr) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return read_text(path, buf, len);
}

static bool pmu_has_format(const char *pmu, const char *name)
{
	char path[1024];

	if (snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", pmu, name) >= (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

/* Set the lowest bit of format attribute a in attr. */
static void set_fmt_bit(struct perf_event_attr *attr, const struct fmt_attr *a)
{
	uint64_t bit = 1ULL << a->lo;

	if (!strcmp(a->word, "config"))
		attr->config |= bit;
	else if (!strcmp(a->word, "config1"))
		attr->config1 |= bit;
	else if (!strcmp(a->word, "config2"))
		attr->config2 |= bit;
#ifdef PERF_ATTR_SIZE_VER8
	else if (!strcmp(a->word, "config3"))
		attr->config3 |= bit;
#endif
}

static const struct fmt_attr *fmt(const char *name)
{
	size_t i;

	for (i = 0; i < N_FMT; i++)
		if (!strcmp(fmt_attrs[i].name, name))
			return &fmt_attrs[i];
	return NULL;
}

/* 0 when the event opens (and is closed again), else -errno. */
static int try_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void base_attr(struct perf_event_attr *attr, uint32_t type, uint64_t period)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->sample_period = period;
	attr->disabled = 1;
}

static bool check_errno(int got, int want, const char *what, const char *pmu)
{
	if (!tap_check(got == -want, "%s: %s is refused with %s", pmu, what, strerror(want))) {
		tap_diag("got %s", got ? strerror(-got) : "success");
		return false;
	}
	return true;
}

/*
 * Open attr as user nobody in a child, for this process (a per-task
 * event); returns 0 or -errno as seen by the child.
 */
static int try_open_unprivileged(struct perf_event_attr *attr)
{
	int pipefd[2], status, ret = -EIO;
	pid_t child;

	if (pipe(pipefd))
		return -errno;
	child = fork();
	if (child < 0)
		return -errno;
	if (!child) {
		close(pipefd[0]);
		if (setgid(NOBODY) || setuid(NOBODY))
			ret = -EPERM - 1000;	/* cannot drop privileges */
		else
			ret = try_open(attr, 0, -1);
		if (write(pipefd[1], &ret, sizeof(ret)) != sizeof(ret))
			_exit(2);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &ret, sizeof(ret)) != sizeof(ret))
		ret = -EIO;
	close(pipefd[0]);
	waitpid(child, &status, 0);
	return ret;
}

static void check_pmu(const char *pmu)
{
	struct perf_event_attr attr;
	char buf[128], saved[16];
	uint64_t type, period, evfr = 0;
	const struct fmt_attr *hidden = NULL;
	bool have_evfr;
	size_t i;
	int ret;

	if (pmu_attr(pmu, "type", buf, sizeof(buf)) ||
	    sscanf(buf, "%" SCNu64, &type) != 1 ||
	    pmu_attr(pmu, "caps/min_interval", buf, sizeof(buf)) ||
	    sscanf(buf, "%" SCNu64, &period) != 1) {
		for (i = 0; i < CHECKS_PER_PMU; i++)
			tap_skip("type or caps/min_interval unreadable", "%s: check %zu", pmu, i + 1);
		return;
	}

	base_attr(&attr, (uint32_t)type, period);
	attr.exclude_idle = 1;
	check_errno(try_open(&attr, -1, 0), EOPNOTSUPP, "exclude_idle", pmu);

	have_evfr = pmu_has_format(pmu, "event_filter") &&
		    !pmu_attr(pmu, "caps/event_filter", buf, sizeof(buf)) &&
		    sscanf(buf, "%" SCNx64, &evfr) == 1;
	if (!have_evfr) {
		tap_skip("no event filtering on this PMU",
			 "%s: unimplemented event_filter bits are refused", pmu);
	} else if (evfr == ~0ULL) {
		tap_skip("every event_filter bit is implemented",
			 "%s: unimplemented event_filter bits are refused", pmu);
	} else {
		base_attr(&attr, (uint32_t)type, period);
		attr.config1 = ~evfr & -~evfr;	/* lowest unimplemented bit */
		check_errno(try_open(&attr, -1, 0), EOPNOTSUPP,
			    "an event_filter bit outside caps/event_filter", pmu);
	}

	for (i = 0; i < N_FMT && !hidden; i++)
		if (!pmu_has_format(pmu, fmt_attrs[i].name) &&
		    strcmp(fmt_attrs[i].word, "config3") &&
		    strcmp(fmt_attrs[i].word, "config4"))
			hidden = &fmt_attrs[i];
	if (!hidden) {
		tap_skip("the PMU hides no format attribute",
			 "%s: a hidden format attribute is refused", pmu);
	} else {
		base_attr(&attr, (uint32_t)type, period);
		set_fmt_bit(&attr, hidden);
		char what[128];

		snprintf(what, sizeof(what), "hidden format attribute %s", hidden->name);
		check_errno(try_open(&attr, -1, 0), EOPNOTSUPP, what, pmu);
	}

	base_attr(&attr, (uint32_t)type, period);
	set_fmt_bit(&attr, fmt("ts_enable"));
	set_fmt_bit(&attr, fmt("jitter"));
	if (pmu_has_format(pmu, "load_filter")) {
		set_fmt_bit(&attr, fmt("branch_filter"));
		set_fmt_bit(&attr, fmt("load_filter"));
		set_fmt_bit(&attr, fmt("store_filter"));
	}
	ret = try_open(&attr, -1, 0);
	if (!tap_check(!ret, "%s: ts_enable, jitter and the type filters open together", pmu))
		tap_diag("perf_event_open: %s", strerror(-ret));

	/* The last two need paranoid 2: user-space profiling without privilege. */
	if (read_text(PARANOID, saved, sizeof(saved)) || write_text(PARANOID, "2")) {
		tap_skip("cannot set " PARANOID, "%s: unprivileged user-only event opens", pmu);
		tap_skip("cannot set " PARANOID, "%s: unprivileged pa_enable is refused", pmu);
		return;
	}
	base_attr(&attr, (uint32_t)type, period);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	set_fmt_bit(&attr, fmt("ts_enable"));
	ret = try_open_unprivileged(&attr);
	if (!tap_check(!ret, "%s: unprivileged user-only event opens", pmu))
		tap_diag("perf_event_open as uid %d: %s", NOBODY, strerror(-ret));
	set_fmt_bit(&attr, fmt("pa_enable"));
	check_errno(try_open_unprivileged(&attr), EACCES, "unprivileged pa_enable", pmu);
	write_text(PARANOID, saved);
}

int main(void)
{
	char pmus[MAX_PMUS][sizeof(((struct dirent *)0)->d_name)];
	unsigned int n = 0, i;
	struct dirent *de;
	DIR *dir;

	dir = opendir(PMU_DIR);
	if (!dir)
		tap_skip_all("%s not readable: %s", PMU_DIR, strerror(errno));
	while ((de = readdir(dir)) && n < MAX_PMUS)
		if (!strncmp(de->d_name, "arm_spe_", 8))
			snprintf(pmus[n++], sizeof(pmus[0]), "%s", de->d_name);
	closedir(dir);
	if (!n)
		tap_skip_all("no arm_spe PMU registered (no SPE on this machine, or no SPE driver loaded)");
	if (geteuid())
		tap_skip_all("needs root (it drops privileges itself for the permission checks)");

	tap_plan(n * CHECKS_PER_PMU);
	for (i = 0; i < n; i++)
		check_pmu(pmus[i]);
	return tap_exit();
}
