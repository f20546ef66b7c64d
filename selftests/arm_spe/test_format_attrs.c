// SPDX-License-Identifier: GPL-2.0
/*
 * The perf ABI of arm_spe_0 (Linux perf-arm-spe.txt), through perf_event_open()
 * with the PMU's dynamic type, as root:
 *   - every format attribute is shown with its bits when the unit has the
 *     feature, hidden otherwise, and an event setting it opens, or fails
 *     with -EOPNOTSUPP when the feature is missing;
 *   - caps/ match the simulated profile; every caps/event_filter bit opens
 *     and every other PMSEVFR bit fails with -EOPNOTSUPP;
 *   - misuse fails with the errno §3 names: frequency mode and excluding
 *     both ELs -EINVAL, exclude_idle -EOPNOTSUPP, reserved config bits
 *     -EINVAL, a CPU that does not exist refused.
 * Skips when there is no arm_spe PMU; the profile checks skip on hardware.
 */
#include "spe_selftest.h"


enum need { ALWAYS, DISCARD, FNE, FDS, EFT };

struct fmt {
	const char *name, *sysfs;	/* sysfs: the format file's text */
	int word;			/* config, config1..config4 */
	uint64_t value;			/* a value to open with */
	enum need need;
};

/*
 * The perf ABI, written out here on purpose rather than taken from the
 * driver's include/spe/format_table.h: this test checks that table (and
 * the sysfs files made from it) against the numbers perf relies on.
 */
static const struct fmt fmts[] = {
	{ "ts_enable", "config:0", 0, 1ULL << 0, ALWAYS },
	{ "pa_enable", "config:1", 0, 1ULL << 1, ALWAYS },
	{ "pct_enable", "config:2", 0, 1ULL << 2, ALWAYS },
	{ "jitter", "config:16", 0, 1ULL << 16, ALWAYS },
	{ "branch_filter", "config:32", 0, 1ULL << 32, ALWAYS },
	{ "load_filter", "config:33", 0, 1ULL << 33, ALWAYS },
	{ "store_filter", "config:34", 0, 1ULL << 34, ALWAYS },
	{ "discard", "config:35", 0, 1ULL << 35, DISCARD },
	{ "branch_filter_mask", "config:36", 0, 1ULL << 36, EFT },
	{ "load_filter_mask", "config:37", 0, 1ULL << 37, EFT },
	{ "store_filter_mask", "config:38", 0, 1ULL << 38, EFT },
	{ "simd_filter", "config:39", 0, 1ULL << 39, EFT },
	{ "simd_filter_mask", "config:40", 0, 1ULL << 40, EFT },
	{ "float_filter", "config:41", 0, 1ULL << 41, EFT },
	{ "float_filter_mask", "config:42", 0, 1ULL << 42, EFT },
	{ "event_filter", "config1:0-63", 1, 1ULL << 1, ALWAYS },
	{ "min_latency", "config2:0-11", 2, 100, ALWAYS },
	{ "inv_event_filter", "config3:0-63", 3, 1ULL << 1, FNE },
	{ "inv_data_src_filter", "config4:0-63", 4, 1, FDS },
};
#define NR_FMTS	(sizeof(fmts) / sizeof(fmts[0]))

static int open_with(int type, int word, uint64_t v);

/*
 * Config words this kernel's perf_event_attr has: config3 came with 6.3
 * (PERF_ATTR_SIZE_VER8), config4 later (PERF_ATTR_SIZE_VER9; Debian's 7.3
 * has it).  The driver hides an attribute in a missing word, and perf core
 * refuses non-zero bytes past its attr with E2BIG: asked of a software
 * event, which reads no config word, that refusal tells the attr's size.
 */
static int kernel_cfg_words(void)
{
	int word, fd;

	for (word = 3; word <= 4; word++) {
		fd = open_with(PERF_TYPE_SOFTWARE, word, 1);
		if (fd == -E2BIG)
			return word;
		if (fd >= 0)
			close(fd);
	}
	return 5;
}

static bool has(const struct spe_profile *p, enum need n)
{
	switch (n) {
	case DISCARD: return p->discard;
	case FNE: return p->fne;
	case FDS: return p->fds;
	case EFT: return p->eft;
	default: return true;
	}
}

/* config3/config4 are past PERF_ATTR_SIZE_VER7 on older uapi headers. */
static void set_word(struct perf_event_attr *a, int word, uint64_t v)
{
	__u64 *w[] = { &a->config, &a->config1, &a->config2 };

	if (word < 3) {
		*w[word] |= v;
		return;
	}
	/* config3 follows sig_data (PERF_ATTR_SIZE_VER8, 6.3) and config4
	 * config3 (VER9); the uapi headers built with may have neither. */
	{
		__u64 *base = (__u64 *)((uint8_t *)a + 128);

		base[word - 3] |= v;
	}
}

static struct {
	struct perf_event_attr a;
	uint64_t extra[2];
} big;

static int open_with(int type, int word, uint64_t v)
{
	spe_attr_init(&big.a, type, 0);
	if (type == PERF_TYPE_SOFTWARE)
		big.a.config = PERF_COUNT_SW_DUMMY;
	memset(big.extra, 0, sizeof(big.extra));
	if (word >= 3)
		big.a.size = 128 + 8 * (word - 2);
	set_word(&big.a, word, v);
	return spe_open(&big.a, 0, -1);
}

static void check_formats(int type, const struct spe_profile *p)
{
	char path[256], got[64];
	int nwords = kernel_cfg_words();
	unsigned int i;
	int fd;

	for (i = 0; i < NR_FMTS; i++) {
		const struct fmt *f = &fmts[i];
		bool in_attr = f->word < nwords;
		bool want = in_attr && (!p || has(p, f->need));
		int exist;

		snprintf(path, sizeof(path), SPE_PMU_DIR "/format/%s", f->name);
		exist = !spe_read_str(path, got, sizeof(got));
		if (!in_attr)
			tap_check(!exist, "format/%s is hidden: config%d is not in this kernel's attr",
				  f->name, f->word);
		else if (!p && !exist)
			tap_skip("hardware without the feature", "format/%s", f->name);
		else if (want)
			tap_check(exist && !strcmp(got, f->sysfs), "format/%s is %s (got %s)",
				  f->name, f->sysfs, exist ? got : "(hidden)");
		else
			tap_check(!exist, "format/%s is hidden: profile %s lacks it",
				  f->name, p->name);

		fd = open_with(type, f->word, f->value);
		if (!in_attr) {
			tap_check(fd == -E2BIG, "%s: config%d past this kernel's attr: E2BIG (%d)",
				  f->name, f->word, fd);
		} else if (!p && !exist) {
			tap_skip("hardware without the feature", "%s opens", f->name);
		} else if (want) {
			tap_check(fd >= 0, "%s=0x%llx opens (%d: %s)", f->name,
				  (unsigned long long)f->value, fd,
				  fd < 0 ? strerror(-fd) : "ok");
		} else {
			tap_check(fd == -EOPNOTSUPP, "%s on profile %s: EOPNOTSUPP (%d)",
				  f->name, p->name, fd);
		}
		if (fd >= 0)
			close(fd);
	}
}

/* Every PMSEVFR bit opens exactly when caps/event_filter has it. */
static void check_event_filter(int type)
{
	char got[64];
	uint64_t mask, bad_ok = 0, good_fail = 0;
	unsigned int bit;
	int fd;

	if (spe_read_str(SPE_PMU_DIR "/caps/event_filter", got, sizeof(got))) {
		tap_check(0, "caps/event_filter present");
		return;
	}
	mask = strtoull(got, NULL, 0);
	for (bit = 0; bit < 64; bit++) {
		fd = open_with(type, 1, 1ULL << bit);
		if (fd >= 0)
			close(fd);
		if ((mask >> bit) & 1) {
			if (fd < 0)
				good_fail |= 1ULL << bit;
		} else if (fd != -EOPNOTSUPP) {
			bad_ok |= 1ULL << bit;
		}
	}
	tap_check(mask && !bad_ok && !good_fail,
		  "event_filter: the %s bits of caps/event_filter open, others EOPNOTSUPP "
		  "(wrongly accepted 0x%llx, wrongly refused 0x%llx)", got,
		  (unsigned long long)bad_ok, (unsigned long long)good_fail);
}

static void check_errnos(int type)
{
	struct perf_event_attr a;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	int fd;

	spe_attr_init(&a, type, 0);
	a.freq = 1;
	a.sample_freq = 1000;
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EINVAL, "frequency mode: EINVAL (%d)", fd);

	spe_attr_init(&a, type, 0);
	a.exclude_user = 1;
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EINVAL, "exclude_user with exclude_kernel: EINVAL (%d)", fd);

	spe_attr_init(&a, type, 0);
	a.exclude_idle = 1;
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EOPNOTSUPP, "exclude_idle: EOPNOTSUPP (%d)", fd);

	spe_attr_init(&a, type, 1ULL << 3);
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EINVAL, "reserved config bit 3: EINVAL (%d)", fd);

	spe_attr_init(&a, type, 0);
	a.config2 = 1ULL << 12;
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EINVAL, "config2 bit 12, past min_latency: EINVAL (%d)", fd);

	spe_attr_init(&a, type, 0);
	a.config2 = 4095;
	fd = spe_open(&a, 0, -1);
	tap_check(fd >= 0, "min_latency=4095 (the largest 12-bit value) opens (%d)", fd);
	if (fd >= 0)
		close(fd);

	/* A CPU that does not exist: perf core refuses it before the PMU. */
	spe_attr_init(&a, type, 0);
	fd = spe_open(&a, -1, (int)ncpus + 8);
	tap_check(fd == -EINVAL || fd == -ENODEV || fd == -ENOENT,
		  "CPU %ld (absent) refused (%d)", ncpus + 8, fd);
	if (fd >= 0)
		close(fd);

	/* Every CPU is supported: a per-CPU event opens on each. */
	{
		int cpu, bad = -1;

		for (cpu = 0; cpu < ncpus; cpu++) {
			spe_attr_init(&a, type, 0);
			fd = spe_open(&a, -1, cpu);
			if (fd < 0 && bad < 0)
				bad = cpu;
			if (fd >= 0)
				close(fd);
		}
		tap_check(bad < 0, "a per-CPU event opens on each of the %ld CPUs (first refused %d)",
			  ncpus, bad);
	}

	spe_attr_init(&a, type + 1000, 0);
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -ENOENT, "a type no PMU has: ENOENT (%d)", fd);
}

int main(void)
{
	const struct spe_profile *p;
	int type = spe_pmu_type_or_skip();

	p = spe_sim_profile();
	tap_plan(2 * NR_FMTS + 4 + 1 + 9);
	if (p)
		tap_diag("simulated profile %s", p->name);
	check_formats(type, p);
	spe_check_caps(p);
	check_event_filter(type);
	check_errnos(type);
	return tap_exit();
}
