// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Registers as software sees them: reset values (DDI 0586A §4.2), RES0 bits
 * and read-only ID registers (DDI 0586A §4.3, DDI 0487), and the profiles' ID
 * values.
 */
#include <stdio.h>

#include "tap.h"
#include "support/spu_test.h"

#define RD(u, r)	spe_spu_read_reg(&(u)->spu, r)

static uint64_t write_ones(struct t_unit *u, enum spe_sysreg r)
{
	spe_spu_write_reg(&u->spu, r, ~0ULL);
	return RD(u, r);
}

static void test_res0(void)
{
	struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V1_MIN);
	const struct spe_spu_config *v1 = spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);

	CHECK_EQ(RD(u, SPE_REG_PMBLIMITR_EL1) & SPE_PMBLIMITR_E, 0,
		 "§4.2 PMBLIMITR_EL1.E resets to 0");
	CHECK_EQ(write_ones(u, SPE_REG_PMSCR_EL1), SPE_GENMASK(6, 3) | SPE_GENMASK(1, 0),
		 "§4.3.5 PMSCR_EL1 bits 63:7 and 2 are RES0 without FEAT_ECV");
	CHECK_EQ(write_ones(u, SPE_REG_PMSIRR_EL1), SPE_GENMASK(31, 8) | 1,
		 "§4.3.12 PMSIRR_EL1 bits 63:32 and 7:1 are RES0");
	CHECK_EQ(write_ones(u, SPE_REG_PMSFCR_EL1), SPE_GENMASK(18, 16) | SPE_GENMASK(2, 0),
		 "§4.3.9 PMSFCR_EL1 bits 63:19 and 15:3 are RES0 on SPEv1");
	CHECK_EQ(write_ones(u, SPE_REG_PMSEVFR_EL1), v1->pmsevfr_impl,
		 "§4.3.8 PMSEVFR_EL1 reads back only the implemented event bits");
	CHECK_EQ(write_ones(u, SPE_REG_PMSLATFR_EL1), 0xfff,
		 "§4.3.13 PMSLATFR_EL1.MINLAT is 12 bits with 12-bit counters");
	CHECK_EQ(write_ones(u, SPE_REG_PMSICR_EL1), 0xffffffffULL,
		 "§4.3.10 PMSICR_EL1.ECOUNT is RES0 when ERnd=0");
	CHECK_EQ(write_ones(u, SPE_REG_PMBSR_EL1), SPE_GENMASK(31, 26) | SPE_GENMASK(19, 0),
		 "§4.3.4 PMBSR_EL1 bits 63:32 and 25:20 are RES0");
	CHECK_EQ(write_ones(u, SPE_REG_PMBLIMITR_EL1),
		 SPE_GENMASK(63, 12) | SPE_GENMASK(2, 0),
		 "§4.3.2 PMBLIMITR_EL1 bits 11:3 are RES0");
	CHECK_EQ(write_ones(u, SPE_REG_PMBPTR_EL1), ~0ULL,
		 "§4.3.3 PMBPTR_EL1 is a 64-bit pointer");
	CHECK_EQ(write_ones(u, SPE_REG_PMSCR_EL2), SPE_GENMASK(6, 3) | SPE_GENMASK(1, 0),
		 "§4.3.7 PMSCR_EL2.{E2SPE,E0HSPE} keep their value while EL1 owns the buffer");
	CHECK(spe_spu_write_reg(&u->spu, SPE_REG_PMSNEVFR_EL1, 1) == SPE_SPU_EINVAL,
	      "DDI 0487 PMSNEVFR_EL1 does not exist without FnE");
	CHECK(spe_spu_write_reg(&u->spu, SPE_REG_PMSDSFR_EL1, 1) == SPE_SPU_EINVAL,
	      "DDI 0487 PMSDSFR_EL1 does not exist without FDS");
	t_unit_free(u);

	u = t_unit_new(SPE_SPU_PROFILE_V2);
	CHECK_EQ(write_ones(u, SPE_REG_PMSICR_EL1), 0xff000000ffffffffULL,
		 "§4.3.10 PMSICR_EL1 holds ECOUNT (63:56) and COUNT (31:0) when ERnd=1");
	CHECK_EQ(write_ones(u, SPE_REG_PMSFCR_EL1),
		 SPE_GENMASK(18, 16) | SPE_GENMASK(3, 0),
		 "DDI 0487 PMSFCR_EL1.FnE is writable with PMSIDR.FnE");
	t_unit_free(u);

	u = t_unit_new(SPE_SPU_PROFILE_FULL);
	CHECK_EQ(write_ones(u, SPE_REG_PMSCR_EL1), SPE_GENMASK(7, 3) | SPE_GENMASK(1, 0),
		 "DDI 0487 PMSCR_EL1.PCT is bits 7:6 with FEAT_ECV");
	CHECK_EQ(write_ones(u, SPE_REG_PMSFCR_EL1),
		 SPE_GENMASK(52, 48) | SPE_GENMASK(20, 16) | SPE_GENMASK(4, 0),
		 "DDI 0487 PMSFCR_EL1 EFT bits (SIMD, FP, masks) and FDS with the features");
	CHECK_EQ(write_ones(u, SPE_REG_PMSLATFR_EL1), 0xffff,
		 "DDI 0487 MINLAT is 16 bits with 16-bit counters");
	CHECK_EQ(write_ones(u, SPE_REG_PMSDSFR_EL1), ~0ULL,
		 "DDI 0487 PMSDSFR_EL1 has one bit per data source");
	t_unit_free(u);

	{
		struct spe_spu_config cfg = *v1;

		cfg.have_el2 = 0;
		u = t_unit_new_cfg(&cfg);
		spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL1, 0);
		CHECK_EQ(RD(u, SPE_REG_PMSCR_EL1), SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, 1),
			 "§4.3.5 PMSCR_EL1.PCT is RES1 when EL2 is not implemented");
		CHECK_EQ(write_ones(u, SPE_REG_PMSCR_EL2), 0,
			 "§4.3.7 PMSCR_EL2 is RES0 when EL2 is not implemented");
		t_unit_free(u);
	}
}

/*
 * Conditionally RES0 bits keep what was written: PMSCR_EL2.E2SPE written
 * while EL1 owns the buffer enables EL2 once MDCR_EL2.E2PB gives it to
 * EL2 (the unit reads ownership at each register access, as QEMU does).
 */
static void test_pmscr_el2_kept(void)
{
	struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V2);
	struct t_unit *u = t_unit_new_cfg(&cfg);

	t_enable(u, 0, 1024 << 8, T_BUF_SIZE);
	spe_spu_write_reg(&u->spu, SPE_REG_PMSCR_EL2, SPE_PMSCR_E2SPE);
	CHECK(!(u->spu.el_enabled & 4), "§3.2.1 PMSCR_EL2.E2SPE has no effect while EL1 owns the buffer");
	spe_spu_set_pe_controls(&u->spu, 1, 1);
	CHECK(u->spu.el_enabled & 4,
	      "§3.2.1 the E2SPE written while EL1 owned the buffer enables EL2 once EL2 owns it");
	t_unit_free(u);
}

/*
 * The PMSEVFR_EL1 bits each version makes filterable (DDI 0586A §4.3.8,
 * DDI 0487 PMSEVFR_EL1), by bit number: a unit listing every bit keeps
 * only these.
 */
static void test_evfr_by_version(void)
{
	const uint64_t v1 = SPE_BIT(1) | SPE_BIT(3) | SPE_BIT(5) | SPE_BIT(7) |
			    SPE_GENMASK(15, 12) | SPE_GENMASK(31, 24) | SPE_GENMASK(63, 48);
	const uint64_t v1p1 = v1 | SPE_BIT(11) | SPE_BIT(17) | SPE_BIT(18);
	const uint64_t v1p2 = v1p1 | SPE_BIT(6) | SPE_BIT(16);
	const uint64_t v1p4 = v1p2 | SPE_BIT(2) | SPE_BIT(4) | SPE_GENMASK(10, 8) |
			      SPE_GENMASK(23, 19);
	static const struct { uint64_t pmsver; const char *name; } vers[] = {
		{ SPE_PMSVER_V1, "SPEv1" }, { SPE_PMSVER_V1P1, "SPEv1p1" },
		{ SPE_PMSVER_V1P2, "SPEv1p2" }, { SPE_PMSVER_V1P3, "SPEv1p3" },
		{ SPE_PMSVER_V1P4, "SPEv1p4" }, { SPE_PMSVER_V1P5, "SPEv1p5" },
	};
	const uint64_t want[] = { v1, v1p1, v1p2, v1p2, v1p4, v1p4 };
	char what[160];
	unsigned int i;

	for (i = 0; i < sizeof(vers) / sizeof(vers[0]); i++) {
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_FULL);
		struct t_unit *u;

		cfg.pmsver = vers[i].pmsver;
		cfg.pmsevfr_impl = ~0ULL;
		u = t_unit_new_cfg(&cfg);
		snprintf(what, sizeof(what), "§4.3.8 %s: PMSEVFR_EL1 filters only on the events of its version",
			 vers[i].name);
		CHECK_EQ(write_ones(u, SPE_REG_PMSEVFR_EL1), want[i], what);
		t_unit_free(u);
	}
	{
		struct t_unit *u = t_unit_new(SPE_SPU_PROFILE_V2);

		CHECK_EQ(write_ones(u, SPE_REG_PMSEVFR_EL1) & ~v1p2, 0,
			 "§4.3.8 the v2 profile (SPEv1p2) has no PMSEVFR bit of a later version");
		t_unit_free(u);
	}
}

static void test_id_regs(void)
{
	static const enum spe_sysreg ro[] = {
		SPE_REG_PMSIDR_EL1, SPE_REG_PMBIDR_EL1, SPE_REG_ID_AA64DFR0_EL1,
	};
	unsigned int p, i;

	for (p = 0; p < SPE_SPU_PROFILE_NR; p++) {
		const struct spe_spu_config *cfg = spe_spu_profile(p);
		struct t_unit *u = t_unit_new(p);
		char name[128];
		int ok = 1;

		for (i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
			uint64_t v = RD(u, ro[i]);

			ok &= spe_spu_write_reg(&u->spu, ro[i], ~v) == SPE_SPU_EROFS;
			ok &= RD(u, ro[i]) == v;
		}
		snprintf(name, sizeof(name),
			 "§4.1 %s: PMSIDR, PMBIDR, ID_AA64DFR0 are read-only", cfg->name);
		CHECK(ok, name);
		snprintf(name, sizeof(name),
			 "§4.3.11 %s: PMSIDR.FE, FT, FL read as one", cfg->name);
		CHECK_EQ(RD(u, SPE_REG_PMSIDR_EL1) & 7, 7, name);
		snprintf(name, sizeof(name),
			 "DDI 0487 %s: ID_AA64DFR0_EL1.PMSVer reads the profile's version",
			 cfg->name);
		CHECK_EQ(SPE_FIELD_GET(SPE_ID_AA64DFR0_PMSVER_MASK,
				       RD(u, SPE_REG_ID_AA64DFR0_EL1)), cfg->pmsver, name);
		snprintf(name, sizeof(name), "profile %s is found by its name", cfg->name);
		CHECK(spe_spu_profile_find(cfg->name) == cfg, name);
		t_unit_free(u);
	}
	CHECK(spe_spu_profile_find("nope") == NULL, "an unknown profile name is refused");
	{
		struct spe_spu spu;
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);

		cfg.pmsidr = (cfg.pmsidr & ~SPE_PMSIDR_MAXSIZE_MASK) |
			     SPE_FIELD_PREP(SPE_PMSIDR_MAXSIZE_MASK, 4);
		CHECK(spe_spu_init(&spu, &cfg, spe_spu_flat_translate, NULL) == SPE_SPU_EINVAL,
		      "§4.3.11 a configuration whose records exceed 2^MaxSize is refused");
	}
	{
		/* PMBIDR_EL1.Align: 2^Align bytes, up to 2 KiB (0b1011); larger
		 * values are reserved (DDI 0586A §4.3.1). */
		struct spe_spu spu;
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);
		int ok11, bad12;

		cfg.pmbidr = (cfg.pmbidr & ~SPE_PMBIDR_ALIGN_MASK) |
			     SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 11);
		ok11 = spe_spu_init(&spu, &cfg, spe_spu_flat_translate, NULL);
		cfg.pmbidr = (cfg.pmbidr & ~SPE_PMBIDR_ALIGN_MASK) |
			     SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 12);
		bad12 = spe_spu_init(&spu, &cfg, spe_spu_flat_translate, NULL);
		CHECK(ok11 == 0 && bad12 == SPE_SPU_EINVAL,
		      "PMBIDR_EL1.Align 11 (2 KiB) is accepted, the reserved 12 refused");
	}
}

/*
 * §4.3.11 PMSIDR_EL1.MaxSize bounds every record.  The largest record a
 * configuration can write (DDI 0586A §5.3): PC 9, CONTEXTIDR_EL1 5 (and
 * CONTEXTIDR_EL2 5 with EL2), Operation Type 2, Events 1 + its payload,
 * three counters 3 each, data VA 9, PA 9, Data Source 3 (with LDS),
 * Timestamp 9.  A configuration is refused exactly when that exceeds
 * 2^MaxSize; the sizes around 64 bytes are all tried.
 */
static void test_worst_record_bound(void)
{
	int bad = 0;

	for (int el2 = 0; el2 <= 1; el2++)
		for (int lds = 0; lds <= 1; lds++)
			for (uint32_t min = 2; min <= 8; min *= 2) {
				struct spe_spu spu;
				struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);
				uint32_t worst = 9 + 5 + 2 + (1 + min) + 3 * 3 + 9 + 9 + 9 +
						 (el2 ? 5 : 0) + (lds ? 3 : 0);
				int want = worst > 64 ? SPE_SPU_EINVAL : 0;

				cfg.have_el2 = (uint8_t)el2;
				cfg.pmsidr = (cfg.pmsidr & ~(SPE_PMSIDR_LDS | SPE_PMSIDR_MAXSIZE_MASK)) |
					     (lds ? SPE_PMSIDR_LDS : 0) |
					     SPE_FIELD_PREP(SPE_PMSIDR_MAXSIZE_MASK, 6);
				cfg.events_min_bytes = min;
				if (spe_spu_init(&spu, &cfg, spe_spu_flat_translate, NULL) != want) {
					printf("# el2 %d lds %d events %u bytes: worst %u\n",
					       el2, lds, min, worst);
					bad++;
				}
			}
	CHECK_EQ(bad, 0, "§4.3.11 a configuration is refused exactly when its largest record exceeds 2^MaxSize");

	/* Whatever MaxSize allows, the model builds a record in a
	 * SPE_RECORD_MAX_BYTES / 16 (128-byte) scratch: a configuration
	 * whose largest record is 128 bytes is taken, 129 refused. */
	for (uint32_t evb = 75; evb <= 76; evb++) {
		struct spe_spu spu;
		struct spe_spu_config cfg = *spe_spu_profile(SPE_SPU_PROFILE_V1_MIN);
		int ret;

		cfg.have_el2 = 0;
		cfg.pmsidr = (cfg.pmsidr & ~(SPE_PMSIDR_LDS | SPE_PMSIDR_MAXSIZE_MASK)) |
			     SPE_FIELD_PREP(SPE_PMSIDR_MAXSIZE_MASK, 11);
		cfg.events_min_bytes = evb;	/* largest record: 53 + evb bytes */
		ret = spe_spu_init(&spu, &cfg, spe_spu_flat_translate, NULL);
		CHECK(evb == 75 ? ret == 0 : ret == SPE_SPU_EINVAL,
		      evb == 75 ? "a largest record of 128 bytes fits the model's record scratch" :
				  "a largest record of 129 bytes is refused, whatever MaxSize allows");
	}
}

int main(void)
{
	test_res0();
	test_pmscr_el2_kept();
	test_evfr_by_version();
	test_id_regs();
	test_worst_record_bound();
	return tap_done();
}
