/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the arm_spe selftests share: finding the arm_spe_0 PMU and the
 * simulated profile, opening events, a user-space workload, and a session
 * with the perf ring and AUX buffers mmap'ed (include/uapi/linux/perf_event.h).
 *
 * Header-only (static functions): every test is one static program.
 */
#ifndef SPE_SELFTEST_H
#define SPE_SELFTEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "spe_tap.h"
#include "spe/spu_model.h"

#define SPE_PMU_DIR		"/sys/bus/event_source/devices/arm_spe_0"
#define SPE_SIM_PROFILE		"/sys/module/arm_spe_sim/parameters/profile"

/*
 * The perf ABI's format attributes, from the driver's own table
 * (include/spe/format_table.h): spe_fmt_lo_<name> is the attribute's lowest
 * bit in its config word.  test_format_attrs.c checks the table against
 * the ABI with its own, independent copy of the numbers.
 */
enum {
#define SPE_FMT(name, word, lo, hi, feat)	spe_fmt_lo_##name = (lo),
#include "spe/format_table.h"
#undef SPE_FMT
};

/* Bits of perf_event_attr.config the tests set. */
#define CFG_TS_ENABLE		(1ULL << spe_fmt_lo_ts_enable)
#define CFG_PA_ENABLE		(1ULL << spe_fmt_lo_pa_enable)
#define CFG_PCT_ENABLE		(1ULL << spe_fmt_lo_pct_enable)
#define CFG_JITTER		(1ULL << spe_fmt_lo_jitter)
#define CFG_BRANCH_FILTER	(1ULL << spe_fmt_lo_branch_filter)
#define CFG_LOAD_FILTER		(1ULL << spe_fmt_lo_load_filter)
#define CFG_STORE_FILTER	(1ULL << spe_fmt_lo_store_filter)
#define CFG_DISCARD		(1ULL << spe_fmt_lo_discard)

/*
 * What the simulated unit implements, read off the ID registers of the SPU
 * model's profile (drivers/perf/sim/spe_spu_model.c, the one list of profiles,
 * linked in): caps[] are the values caps/ must show, in the order of
 * spe_caps_names[].  The driver reads the same registers in spe_caps.c; the
 * rules are restated here from DDI 0487 PMSIDR_EL1 so that a mistake there
 * shows.
 */
struct spe_profile {
	const char *name;
	char caps[4][24];
	bool discard;	/* SPEv1p2 and later: PMBLIMITR.FM discard */
	bool fne;	/* PMSIDR.FnE: inverted event filter */
	bool fds;	/* PMSIDR.FDS: data source filter */
	bool eft;	/* PMSIDR.EFT: SIMD/float filters and masks */
};

static const char * const spe_caps_names[4] = {
	"min_interval", "count_size", "ernd", "arch_inst"
};

static inline void spe_profile_from_model(struct spe_profile *p,
					  const struct spe_spu_config *cfg)
{
	uint64_t idr = cfg->pmsidr;
	/* Bits 6, 7 and 26 of PMSIDR are RES0 before SPEv1p2. */
	bool v1p2 = cfg->pmsver >= SPE_PMSVER_V1P2;
	unsigned int cntsz = SPE_FIELD_GET(SPE_PMSIDR_COUNTSIZE_MASK, idr);

	p->name = cfg->name;
	snprintf(p->caps[0], sizeof(p->caps[0]), "%u", spe_pmsidr_min_interval(idr));
	snprintf(p->caps[1], sizeof(p->caps[1]), "%s",
		 cntsz == SPE_PMSIDR_COUNTSIZE_16_SAT ? "16" :
		 cntsz == SPE_PMSIDR_COUNTSIZE_12_SAT ? "12" : "(bad CountSize)");
	snprintf(p->caps[2], sizeof(p->caps[2]), "%d", !!(idr & SPE_PMSIDR_ERND));
	snprintf(p->caps[3], sizeof(p->caps[3]), "%d", !!(idr & SPE_PMSIDR_ARCHINST));
	p->discard = v1p2;
	p->fne = v1p2 && (idr & SPE_PMSIDR_FNE);
	p->fds = v1p2 && (idr & SPE_PMSIDR_FDS);
	p->eft = v1p2 && (idr & SPE_PMSIDR_EFT);
}

static inline int spe_read_str(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

static inline int spe_write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fputs(s, f) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* Scan a kernel configuration for OPT: 1 set (y or m), 0 not, -1 empty. */
static inline int spe_config_scan(FILE *f, const char *opt)
{
	size_t len = strlen(opt);
	char line[512];
	int found = -1;

	while (fgets(line, sizeof(line), f)) {
		if (found < 0 && !strncmp(line, "CONFIG_", 7))
			found = 0;	/* a configuration, not an empty pipe */
		if (!strncmp(line, opt, len) && line[len] == '=' &&
		    (line[len + 1] == 'y' || line[len + 1] == 'm'))
			found = 1;
	}
	return found;
}

/*
 * Is kernel option OPT ("CONFIG_FOO") built in or a module: 1, 0 when the
 * kernel was built without it, -1 when its configuration cannot be read.
 * It is read where distributions and kselftests look: /proc/config.gz
 * (CONFIG_IKCONFIG_PROC, through gzip -dc) and /boot/config-RELEASE.
 */
static inline int spe_kernel_config(const char *opt)
{
	char path[300];
	struct utsname u;
	int found = -1;
	FILE *f;

	if (!access("/proc/config.gz", R_OK)) {
		f = popen("gzip -dc /proc/config.gz 2>/dev/null", "r");
		if (f) {
			found = spe_config_scan(f, opt);
			pclose(f);
		}
	}
	if (found < 0 && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		f = fopen(path, "r");
		if (f) {
			found = spe_config_scan(f, opt);
			fclose(f);
		}
	}
	return found;
}

/* The arm_spe_0 PMU's type, or skip the whole program saying why. */
static inline int spe_pmu_type_or_skip(void)
{
	char buf[32];

	if (spe_read_str(SPE_PMU_DIR "/type", buf, sizeof(buf)))
		tap_skip_all("no arm_spe PMU (%s/type missing)", SPE_PMU_DIR);
	return atoi(buf);
}

/* The simulated profile loaded, or NULL (hardware, or unknown name). */
static inline const struct spe_profile *spe_sim_profile(void)
{
	static struct spe_profile prof;
	const struct spe_spu_config *cfg;
	char name[32];

	if (spe_read_str(SPE_SIM_PROFILE, name, sizeof(name)))
		return NULL;
	cfg = spe_spu_profile_find(name);
	if (!cfg)
		return NULL;
	spe_profile_from_model(&prof, cfg);
	return &prof;
}

/*
 * caps/ of arm_spe_0 against profile @p: four checks.  Without a profile
 * (hardware) each file need only be there.
 */
static inline void spe_check_caps(const struct spe_profile *p)
{
	char path[256], got[64];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), SPE_PMU_DIR "/caps/%s", spe_caps_names[i]);
		if (spe_read_str(path, got, sizeof(got)))
			strcpy(got, "(missing)");
		if (!p)
			tap_check(strcmp(got, "(missing)"), "caps/%s present (%s)",
				  spe_caps_names[i], got);
		else
			tap_check(!strcmp(got, p->caps[i]), "caps/%s is %s for profile %s (got %s)",
				  spe_caps_names[i], p->caps[i], p->name, got);
	}
}

/* Disabled, user-space only, period 1024: the base every test changes. */
static inline void spe_attr_init(struct perf_event_attr *a, int type,
				 uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->sample_period = 1024;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

/* perf_event_open(); the fd or -errno. */
static inline int spe_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	int fd = syscall(__NR_perf_event_open, a, pid, cpu, -1, 0);

	return fd < 0 ? -errno : fd;
}

/* The generic timer as EL0 reads it: what ts_enable timestamps count. */
static inline uint64_t spe_cntvct(void)
{
	uint64_t v;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

static inline uint64_t spe_cntfrq(void)
{
	uint64_t v;

	asm volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

static inline double spe_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Loads, stores and branches in user space for about secs seconds.  Kept
 * out of line and in its own section so a test knows its text range.
 */
__attribute__((noinline, unused, section("spe_spin_text")))
static void spe_spin(double secs)
{
	static volatile unsigned long array[4096];
	unsigned long x = 1, i;
	double end = spe_now() + secs;

	do {
		for (i = 0; i < 100000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			array[x % 4096] += array[(x >> 12) % 4096];
		}
	} while (spe_now() < end);
}

/* A mapped event: the perf ring (metadata + records) and the AUX buffer. */
struct spe_session {
	int fd;
	long page;
	size_t ring_size, aux_size;
	struct perf_event_mmap_page *up;
	uint8_t *aux;
};

/*
 * Open attr for (pid, cpu) and map ring_pages data pages of ring and
 * aux_pages of AUX buffer (overwrite: read-only AUX = snapshot mode).
 * Returns 0 or -errno; on failure nothing is left open.
 */
static inline int spe_session_open(struct spe_session *s,
				   struct perf_event_attr *a, pid_t pid,
				   int cpu, size_t ring_pages,
				   size_t aux_pages, bool overwrite)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->page = sysconf(_SC_PAGESIZE);
	s->fd = spe_open(a, pid, cpu);
	if (s->fd < 0)
		return s->fd;
	s->ring_size = (ring_pages + 1) * s->page;
	s->aux_size = aux_pages * s->page;
	s->up = mmap(NULL, s->ring_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		     s->fd, 0);
	if (s->up == MAP_FAILED)
		goto fail_close;
	s->up->aux_offset = s->ring_size;
	s->up->aux_size = s->aux_size;
	s->aux = mmap(NULL, s->aux_size,
		      overwrite ? PROT_READ : PROT_READ | PROT_WRITE,
		      MAP_SHARED, s->fd, s->ring_size);
	if (s->aux == MAP_FAILED)
		goto fail_unmap;
	return 0;

fail_unmap:
	ret = -errno;
	munmap(s->up, s->ring_size);
	close(s->fd);
	return ret;
fail_close:
	ret = -errno;
	close(s->fd);
	return ret;
}

static inline void spe_session_close(struct spe_session *s)
{
	munmap(s->aux, s->aux_size);
	munmap(s->up, s->ring_size);
	close(s->fd);
}

static inline uint64_t spe_aux_head(const struct spe_session *s)
{
	return __atomic_load_n(&s->up->aux_head, __ATOMIC_ACQUIRE);
}

/* Tell the kernel the AUX data up to tail was consumed. */
static inline void spe_aux_consume(struct spe_session *s, uint64_t tail)
{
	__atomic_store_n(&s->up->aux_tail, tail, __ATOMIC_RELEASE);
}

/*
 * Walk the perf ring's records from data_tail to data_head, calling fn on
 * each, and consume them.  Records never wrap here: callers size the ring
 * so a whole record fits (perf's own records are 8-byte aligned).
 */
typedef void (*spe_ring_fn)(const struct perf_event_header *h, void *ctx);

static inline void spe_ring_drain(struct spe_session *s, spe_ring_fn fn,
				  void *ctx)
{
	uint8_t *data = (uint8_t *)s->up + s->page;
	uint64_t size = s->ring_size - s->page;
	uint64_t head = __atomic_load_n(&s->up->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = s->up->data_tail;
	uint8_t rec[512];

	while (tail < head) {
		const struct perf_event_header *h;
		size_t off = tail % size, n, first;

		h = (const void *)(data + off);
		n = h->size;
		if (!n || n > sizeof(rec))
			break;
		first = n < size - off ? n : size - off;
		memcpy(rec, data + off, first);
		memcpy(rec + first, data, n - first);
		fn((const void *)rec, ctx);
		tail += n;
	}
	__atomic_store_n(&s->up->data_tail, tail, __ATOMIC_RELEASE);
}

#endif /* SPE_SELFTEST_H */
