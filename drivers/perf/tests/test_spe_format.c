// SPDX-License-Identifier: GPL-2.0
/*
 * The SPE PMU's user ABI (Linux perf-arm-spe.txt): the format table, event
 * validation and the config -> register conversion, compiled from the
 * driver's own spe_format.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "spe_format.h"
#include "tap.h"

/* perf-arm-spe.txt format table: name, config word, lo, hi. */
static const struct {
	const char *name;
	unsigned int word, lo, hi;
} abi[] = {
	{ "ts_enable", 0, 0, 0 },	{ "pa_enable", 0, 1, 1 },
	{ "pct_enable", 0, 2, 2 },	{ "jitter", 0, 16, 16 },
	{ "branch_filter", 0, 32, 32 },	{ "load_filter", 0, 33, 33 },
	{ "store_filter", 0, 34, 34 },	{ "discard", 0, 35, 35 },
	{ "branch_filter_mask", 0, 36, 36 },
	{ "load_filter_mask", 0, 37, 37 },
	{ "store_filter_mask", 0, 38, 38 },
	{ "simd_filter", 0, 39, 39 },	{ "simd_filter_mask", 0, 40, 40 },
	{ "float_filter", 0, 41, 41 },	{ "float_filter_mask", 0, 42, 42 },
	{ "event_filter", 1, 0, 63 },	{ "min_latency", 2, 0, 11 },
	{ "inv_event_filter", 3, 0, 63 },
	{ "inv_data_src_filter", 4, 0, 63 },
};

/* A Neoverse-N1-like SPEv1p1 unit plus everything newer, for the tests. */
static struct spe_caps full_caps(void)
{
	struct spe_caps c = {
		.pmsver = SPE_PMSVER_V1P2,
		.features = SPE_FEAT_ALL,
		.min_interval = 768,
		.counter_bits = 12,
		.max_record = 64,
		.align = 1,
		.evfr_mask = 0x0000000000000ffaull,
		.nevfr_mask = 0x0000000000000ffaull,
	};
	return c;
}

static struct spe_event_req base_req(void)
{
	struct spe_event_req r;

	memset(&r, 0, sizeof(r));
	r.nr_cfg_words = SPE_NR_CFG_WORDS;
	r.period = 4096;
	r.kernel_allowed = true;
	return r;
}

static void set_fmt(struct spe_event_req *r, enum spe_fmt_id id, u64 v)
{
	const struct spe_format_field *f = &spe_format_fields[id];

	r->config[f->word] |= v << f->lo;
}

static void test_table_is_the_abi(void)
{
	unsigned int i, ok = 1;

	CHECK_EQ(SPE_NR_FMT, sizeof(abi) / sizeof(abi[0]),
		 "format table has every attribute of perf-arm-spe.txt");
	for (i = 0; i < SPE_NR_FMT && i < sizeof(abi) / sizeof(abi[0]); i++) {
		const struct spe_format_field *f = &spe_format_fields[i];

		if (strcmp(f->name, abi[i].name) || f->word != abi[i].word ||
		    f->lo != abi[i].lo || f->hi != abi[i].hi) {
			printf("# mismatch at %s\n", f->name);
			ok = 0;
		}
	}
	CHECK(ok, "format names and bits match perf-arm-spe.txt exactly");
	CHECK(!strcmp(spe_cfg_word_name(0), "config") &&
	      !strcmp(spe_cfg_word_name(4), "config4"),
	      "config word names are perf's sysfs names");
	CHECK(!strcmp(spe_cfg_word_name(SPE_NR_CFG_WORDS), "?"),
	      "the first word past config4 has no name (no read past the table)");
}

static void test_fields_disjoint_and_extracted(void)
{
	unsigned int i, j, ok_get = 1, ok_iso = 1, ok_disj = 1;

	for (i = 0; i < SPE_NR_FMT; i++) {
		const struct spe_format_field *f = &spe_format_fields[i];
		u64 cfg[SPE_NR_CFG_WORDS] = { 0 };
		u64 width_mask = SPE_GENMASK(f->hi - f->lo, 0);

		cfg[f->word] = SPE_GENMASK(f->hi, f->lo);
		if (spe_fmt_get(cfg, (enum spe_fmt_id)i) != width_mask)
			ok_get = 0;
		cfg[f->word] = ~SPE_GENMASK(f->hi, f->lo);
		if (spe_fmt_get(cfg, (enum spe_fmt_id)i) != 0)
			ok_iso = 0;
		for (j = i + 1; j < SPE_NR_FMT; j++) {
			const struct spe_format_field *g = &spe_format_fields[j];

			if (g->word == f->word &&
			    (SPE_GENMASK(g->hi, g->lo) & SPE_GENMASK(f->hi, f->lo)))
				ok_disj = 0;
		}
	}
	CHECK(ok_get, "spe_fmt_get returns every bit of its field");
	CHECK(ok_iso, "spe_fmt_get ignores bits outside its field");
	CHECK(ok_disj, "no two format attributes share a config bit");
}

static void test_visibility(void)
{
	struct spe_caps c = full_caps();

	CHECK(spe_fmt_supported(&c, 5, SPE_FMT_inv_data_src_filter),
	      "inv_data_src_filter shown with FDS and config4");
	CHECK(!spe_fmt_supported(&c, 4, SPE_FMT_inv_data_src_filter),
	      "inv_data_src_filter hidden on a kernel without config4");
	CHECK(!spe_fmt_supported(&c, 3, SPE_FMT_inv_event_filter),
	      "inv_event_filter hidden on a kernel without config3 (6.1)");
	c.features &= ~SPE_FEAT_FILT_TYP;
	CHECK(!spe_fmt_supported(&c, 5, SPE_FMT_load_filter),
	      "load_filter hidden without PMSIDR.FT");
	CHECK(spe_fmt_supported(&c, 5, SPE_FMT_ts_enable),
	      "ts_enable always shown");
	c.features &= ~SPE_FEAT_DISCARD;
	CHECK(!spe_fmt_supported(&c, 5, SPE_FMT_discard),
	      "discard hidden before SPEv1p2");
}

static void test_validate_errors(void)
{
	struct spe_caps c = full_caps();
	struct spe_event_req r;
	const char *why;

	r = base_req();
	CHECK_EQ(spe_event_validate(&c, &r, &why), 0, "plain event accepted");

	r = base_req();
	r.freq = true;
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EINVAL,
		 "frequency mode rejected with -EINVAL");

	r = base_req();
	r.exclude_idle = true;
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EOPNOTSUPP,
		 "exclude_idle rejected with -EOPNOTSUPP");

	r = base_req();
	r.exclude_user = r.exclude_kernel = true;
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EINVAL,
		 "excluding user and kernel rejected: nothing to sample");

	r = base_req();
	r.config[0] = SPE_BIT(3);
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EINVAL,
		 "reserved config bit rejected");

	r = base_req();
	r.nr_cfg_words = 3;
	set_fmt(&r, SPE_FMT_inv_event_filter, 0x2);
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EINVAL,
		 "config3 rejected on a kernel without it");

	r = base_req();
	set_fmt(&r, SPE_FMT_pa_enable, 1);
	r.kernel_allowed = false;
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EACCES,
		 "pa_enable without kernel permission: -EACCES");
	r.kernel_allowed = true;
	CHECK_EQ(spe_event_validate(&c, &r, &why), 0,
		 "pa_enable with kernel permission accepted");

	r = base_req();
	set_fmt(&r, SPE_FMT_pct_enable, 1);
	r.kernel_allowed = false;
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EACCES,
		 "pct_enable without kernel permission: -EACCES");

	r = base_req();
	set_fmt(&r, SPE_FMT_event_filter, SPE_BIT(0));
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EOPNOTSUPP,
		 "event_filter bit not implemented (read back 0): -EOPNOTSUPP");
	r = base_req();
	set_fmt(&r, SPE_FMT_event_filter, SPE_BIT(1) | SPE_BIT(3));
	CHECK_EQ(spe_event_validate(&c, &r, &why), 0,
		 "event_filter with implemented bits accepted");

	r = base_req();
	set_fmt(&r, SPE_FMT_inv_event_filter, SPE_BIT(63));
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EOPNOTSUPP,
		 "inv_event_filter bit not implemented: -EOPNOTSUPP");

	c.features &= ~SPE_FEAT_FILT_TYP;
	r = base_req();
	set_fmt(&r, SPE_FMT_branch_filter, 1);
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EOPNOTSUPP,
		 "branch_filter without PMSIDR.FT: -EOPNOTSUPP");
	CHECK(why && !strcmp(why, "branch_filter"),
	      "rejection names the attribute");

	c = full_caps();
	c.features &= ~SPE_FEAT_DISCARD;
	r = base_req();
	set_fmt(&r, SPE_FMT_discard, 1);
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EOPNOTSUPP,
		 "discard before SPEv1p2: -EOPNOTSUPP");

	c = full_caps();
	c.features &= ~SPE_FEAT_FILT_LAT;
	r = base_req();
	set_fmt(&r, SPE_FMT_min_latency, 10);
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EOPNOTSUPP,
		 "min_latency without PMSIDR.FL: -EOPNOTSUPP");

	c = full_caps();
	r = base_req();
	set_fmt(&r, SPE_FMT_min_latency, 0xfff);
	CHECK_EQ(spe_event_validate(&c, &r, &why), 0,
		 "min_latency 4095 fits a 12-bit counter");

	/* DDI 0487 D18.3 (PMSLATFR_EL1.MINLAT): the format field is 12 bits,
	 * so 4096 can only be asked for through a reserved config2 bit. */
	c = full_caps();
	r = base_req();
	r.config[SPE_CFG_WORD_config2] = 0x1000;
	CHECK_EQ(spe_event_validate(&c, &r, &why), -EINVAL,
		 "min_latency 4096 (config2 bit 12) is a reserved bit: -EINVAL");
}

static void test_period(void)
{
	struct spe_caps c = full_caps();

	CHECK_EQ(spe_period_to_interval(&c, 0), 768,
		 "period 0 becomes the minimum interval");
	CHECK_EQ(spe_period_to_interval(&c, 100), 768,
		 "period below PMSIDR.Interval minimum is raised to it");
	CHECK_EQ(spe_period_to_interval(&c, 1000), 768,
		 "period rounded down to a multiple of 256");
	CHECK_EQ(spe_period_to_interval(&c, 4097), 4096,
		 "4097 rounds down to 4096");
	CHECK_EQ(spe_period_to_interval(&c, 1ull << 40), 0xffffff00ull,
		 "period above 2^32-256 clamped to PMSIRR.INTERVAL maximum");
}

static void test_to_regs(void)
{
	struct spe_caps c = full_caps();
	struct spe_event_regs g;
	struct spe_event_req r;

	r = base_req();
	spe_event_to_regs(&c, &r, &g);
	CHECK_EQ(g.pmscr, SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE,
		 "default event samples EL0 and EL1, nothing else in PMSCR");
	CHECK_EQ(g.pmsfcr, 0, "no filter: PMSFCR is 0");
	CHECK_EQ(g.pmsirr, 4096, "period 4096 -> PMSIRR 0x1000, RND clear");
	CHECK_EQ(g.pmblimitr_fm, 0, "fill mode by default");

	r = base_req();
	r.exclude_kernel = true;
	r.cx_allowed = true;
	set_fmt(&r, SPE_FMT_ts_enable, 1);
	set_fmt(&r, SPE_FMT_pa_enable, 1);
	set_fmt(&r, SPE_FMT_pct_enable, 1);
	set_fmt(&r, SPE_FMT_jitter, 1);
	spe_event_to_regs(&c, &r, &g);
	CHECK_EQ(g.pmscr, SPE_PMSCR_E0SPE | SPE_PMSCR_CX | SPE_PMSCR_TS |
			  SPE_PMSCR_PA | (1ull << 6),
		 "ts/pa/pct/cx/exclude_kernel map to PMSCR TS, PA, PCT=01, CX, E0SPE only");
	CHECK_EQ(g.pmsirr, 4096 | SPE_PMSIRR_RND, "jitter sets PMSIRR.RND");

	r = base_req();
	set_fmt(&r, SPE_FMT_load_filter, 1);
	set_fmt(&r, SPE_FMT_store_filter, 1);
	spe_event_to_regs(&c, &r, &g);
	CHECK_EQ(g.pmsfcr, SPE_PMSFCR_LD | SPE_PMSFCR_ST | SPE_PMSFCR_FT,
		 "load+store filter -> PMSFCR LD|ST|FT");

	r = base_req();
	set_fmt(&r, SPE_FMT_branch_filter_mask, 1);
	set_fmt(&r, SPE_FMT_simd_filter, 1);
	set_fmt(&r, SPE_FMT_float_filter_mask, 1);
	spe_event_to_regs(&c, &r, &g);
	CHECK_EQ(g.pmsfcr, SPE_PMSFCR_BM | SPE_PMSFCR_SIMD | SPE_PMSFCR_FPM |
			   SPE_PMSFCR_FT,
		 "EFT filter and mask bits land in PMSFCR with FT");

	r = base_req();
	set_fmt(&r, SPE_FMT_event_filter, 0x22);
	set_fmt(&r, SPE_FMT_inv_event_filter, 0x8);
	set_fmt(&r, SPE_FMT_min_latency, 0x123);
	set_fmt(&r, SPE_FMT_inv_data_src_filter, 0x1);
	spe_event_to_regs(&c, &r, &g);
	CHECK_EQ(g.pmsfcr, SPE_PMSFCR_FE | SPE_PMSFCR_FNE | SPE_PMSFCR_FL |
			   SPE_PMSFCR_FDS,
		 "event, inverted event, latency, data-source filters enable FE|FnE|FL|FDS");
	CHECK_EQ(g.pmsevfr, 0x22, "event_filter -> PMSEVFR");
	CHECK_EQ(g.pmsnevfr, 0x8, "inv_event_filter -> PMSNEVFR");
	CHECK_EQ(g.pmslatfr, 0x123, "min_latency -> PMSLATFR.MINLAT");
	CHECK_EQ(g.pmsdsfr, ~1ull, "inv_data_src_filter written inverted to PMSDSFR");

	r = base_req();
	set_fmt(&r, SPE_FMT_discard, 1);
	spe_event_to_regs(&c, &r, &g);
	CHECK_EQ(g.pmblimitr_fm, 2ull << 1, "discard -> PMBLIMITR.FM = 0b10");
}

int main(void)
{
	test_table_is_the_abi();
	test_fields_disjoint_and_extracted();
	test_visibility();
	test_validate_errors();
	test_period();
	test_to_regs();
	return tap_done();
}
