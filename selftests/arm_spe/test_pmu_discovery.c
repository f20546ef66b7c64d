// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery of SPE PMUs by the perf tool's rules (perf-arm-spe.txt): every PMU
 * named arm_spe_<n> under /sys/bus/event_source/devices must give perf
 * what it reads before opening an event — a dynamic type, a cpumask, the
 * minimum sampling interval in caps/ and the format/ attributes with
 * their ABI bit positions — and must accept an event built from them.
 *
 * Skips when no arm_spe PMU is registered (a machine without SPE, or no
 * SPE driver loaded), which is the expected result in QEMU.
 *
 * SPE_SELFTEST_PMU_DIR replaces /sys/bus/event_source/devices, so that the
 * checks themselves can be tested on a made-up tree.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spe/regs.h"
#include "spe_tap.h"

#define SYSFS_PMU_DIR	"/sys/bus/event_source/devices"
#define MAX_PMUS	64
#define CHECKS_PER_PMU	7

static const char *pmu_dir = SYSFS_PMU_DIR;

/* The format attributes of the perf ABI, from the driver's own table. */
struct fmt_attr {
	const char *name;
	const char *word;
	unsigned int lo, hi;
	bool always;		/* no SPE feature needed: always present */
};

#define SPE_FMT(n, w, l, h, feat) { #n, #w, l, h, !strcmp(#feat, "0") },
static const struct fmt_attr fmt_attrs[] = {
#include "spe/format_table.h"
};
#undef SPE_FMT

#define N_FMT (sizeof(fmt_attrs) / sizeof(fmt_attrs[0]))

/* Read a small sysfs file into buf without the trailing newline. */
static int read_attr(const char *pmu, const char *attr, char *buf, size_t len)
{
	char path[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s/%s", pmu_dir, pmu, attr);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static bool parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, base);
	return !errno && !*end;
}

/* First CPU of a cpumask list ("0-3,6"); false when malformed or empty. */
static bool cpumask_first(const char *list, long ncpus, int *first)
{
	const char *p = list;
	long lo, hi;
	char *end;

	*first = -1;
	while (*p) {
		lo = strtol(p, &end, 10);
		if (end == p || lo < 0)
			return false;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo)
				return false;
		}
		if (hi >= ncpus)
			return false;
		if (*first < 0)
			*first = (int)lo;
		if (*end == ',')
			end++;
		else if (*end)
			return false;
		p = end;
	}
	return *first >= 0;
}

/* Is v a minimum interval PMSIDR_EL1.INTERVAL can encode? (DDI 0586A §4.3.11) */
static bool is_min_interval(uint64_t v)
{
	uint64_t code;

	for (code = 0; code < 16; code++)
		if (spe_pmsidr_min_interval(code << 8) == v)
			return true;
	return false;
}

static bool check_formats(const char *pmu)
{
	char path[512], buf[64], want[64];
	bool good = true;
	size_t i;

	for (i = 0; i < N_FMT; i++) {
		const struct fmt_attr *a = &fmt_attrs[i];

		snprintf(path, sizeof(path), "format/%s", a->name);
		if (read_attr(pmu, path, buf, sizeof(buf))) {
			if (a->always) {
				tap_diag("%s: format/%s missing", pmu, a->name);
				good = false;
			}
			continue;
		}
		if (a->lo == a->hi)
			snprintf(want, sizeof(want), "%s:%u", a->word, a->lo);
		else
			snprintf(want, sizeof(want), "%s:%u-%u", a->word, a->lo, a->hi);
		if (strcmp(buf, want)) {
			tap_diag("%s: format/%s is \"%s\", the ABI says \"%s\"",
				 pmu, a->name, buf, want);
			good = false;
		}
	}
	return good;
}

static int open_event(struct perf_event_attr *attr, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, -1, 0);
}

static void check_pmu(const char *pmu, long ncpus)
{
	char buf[256];
	uint64_t type = 0, interval = 0;
	struct perf_event_attr attr;
	bool have_type, have_cpu, have_interval;
	int cpu = -1, fd;

	have_type = !read_attr(pmu, "type", buf, sizeof(buf)) &&
		    parse_u64(buf, 10, &type) && type > 0 && type <= UINT32_MAX;
	tap_check(have_type, "%s: type is a dynamic PMU type (%s)", pmu,
		  have_type ? buf : "unreadable or invalid");

	have_cpu = !read_attr(pmu, "cpumask", buf, sizeof(buf)) &&
		   cpumask_first(buf, ncpus, &cpu);
	tap_check(have_cpu, "%s: cpumask lists online-range CPUs (%s)", pmu,
		  have_cpu ? buf : "unreadable or invalid");

	have_interval = !read_attr(pmu, "caps/min_interval", buf, sizeof(buf)) &&
			parse_u64(buf, 10, &interval) && is_min_interval(interval);
	tap_check(have_interval, "%s: caps/min_interval is an architected interval (%s)",
		  pmu, have_interval ? buf : "unreadable or invalid");

	tap_check(check_formats(pmu), "%s: format/ attributes match the perf ABI", pmu);

	if (!read_attr(pmu, "caps/count_size", buf, sizeof(buf))) {
		uint64_t bits;

		tap_check(parse_u64(buf, 10, &bits) && (bits == 12 || bits == 16),
			  "%s: caps/count_size is 12 or 16 (%s)", pmu, buf);
	} else {
		tap_check(false, "%s: caps/count_size exists", pmu);
	}

	if (!have_type || !have_cpu || !have_interval) {
		tap_skip("type, cpumask or min_interval unusable",
			 "%s: event with the minimum interval opens", pmu);
		tap_skip("type, cpumask or min_interval unusable",
			 "%s: frequency mode is refused with EINVAL", pmu);
		return;
	}

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)type;
	attr.sample_period = interval;
	attr.disabled = 1;
	fd = open_event(&attr, cpu);
	if (!tap_check(fd >= 0, "%s: event with the minimum interval opens on CPU %d",
		       pmu, cpu))
		tap_diag("perf_event_open: %s", strerror(errno));
	if (fd >= 0)
		close(fd);

	/* perf-arm-spe.txt: SPE samples by count only. */
	attr.freq = 1;
	attr.sample_freq = 1000;
	fd = open_event(&attr, cpu);
	tap_check(fd < 0 && errno == EINVAL, "%s: frequency mode is refused with EINVAL (%s)",
		  pmu, fd < 0 ? strerror(errno) : "accepted");
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char pmus[MAX_PMUS][sizeof(((struct dirent *)0)->d_name)];
	unsigned int n = 0, i;
	struct dirent *de;
	long ncpus;
	DIR *dir;

	if (getenv("SPE_SELFTEST_PMU_DIR"))
		pmu_dir = getenv("SPE_SELFTEST_PMU_DIR");
	dir = opendir(pmu_dir);
	if (!dir)
		tap_skip_all("%s not readable: %s", pmu_dir, strerror(errno));
	while ((de = readdir(dir)) && n < MAX_PMUS)
		if (!strncmp(de->d_name, "arm_spe_", 8))
			snprintf(pmus[n++], sizeof(pmus[0]), "%s", de->d_name);
	closedir(dir);
	if (!n)
		tap_skip_all("no arm_spe PMU registered (no SPE on this machine, or no SPE driver loaded)");

	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	tap_plan(n * CHECKS_PER_PMU);
	for (i = 0; i < n; i++)
		check_pmu(pmus[i], ncpus);
	return tap_exit();
}
