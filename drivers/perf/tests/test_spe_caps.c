// SPDX-License-Identifier: GPL-2.0
/*
 * Capabilities from ID registers and their intersection over CPUs
 * (DDI 0586A §4.3.1, §4.3.11; DDI 0487 PMSIDR_EL1), from spe_caps.c.
 */
#include <string.h>

#include "spe_caps.h"
#include "spe/packet.h"
#include "tap.h"

static u64 dfr0(u32 pmsver)
{
	return SPE_FIELD_PREP(SPE_ID_AA64DFR0_PMSVER_MASK, pmsver) | 0x6ull;
}

/* An SPEv1p1 unit like Neoverse N1: 12-bit counters, 64-byte records. */
static struct spe_cpu_regs n1_like(void)
{
	struct spe_cpu_regs r = {
		.dfr0 = dfr0(SPE_PMSVER_V1P1),
		.pmsidr = SPE_PMSIDR_FE | SPE_PMSIDR_FT | SPE_PMSIDR_FL |
			  SPE_PMSIDR_ARCHINST | SPE_PMSIDR_LDS | SPE_PMSIDR_ERND |
			  SPE_FIELD_PREP(SPE_PMSIDR_INTERVAL_MASK, 3) |
			  SPE_FIELD_PREP(SPE_PMSIDR_MAXSIZE_MASK, 6) |
			  SPE_FIELD_PREP(SPE_PMSIDR_COUNTSIZE_MASK, 2),
		.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 0),
		.evfr_impl = 0x00000000000018aaull,	/* N1: 1, 3, 5, 7, 11, 12 */
		.nevfr_impl = 0,
	};
	return r;
}

static void test_from_regs(void)
{
	struct spe_cpu_regs r = n1_like();
	struct spe_caps c;

	CHECK_EQ(spe_caps_from_regs(&r, &c), SPE_CAPS_OK, "SPEv1p1 unit is usable");
	CHECK_EQ(c.features, SPE_FEAT_FILT_EVT | SPE_FEAT_FILT_TYP |
			     SPE_FEAT_FILT_LAT | SPE_FEAT_ARCH_INST |
			     SPE_FEAT_LDS | SPE_FEAT_ERND,
		 "PMSIDR FE/FT/FL/ArchInst/LDS/ERnd become features, no v1p2 ones");
	CHECK_EQ(c.min_interval, 768, "PMSIDR.Interval 0b0011 -> 768");
	CHECK_EQ(c.counter_bits, 12, "CountSize 0b0010 -> 12-bit");
	CHECK_EQ(c.max_record, 64, "MaxSize 6 -> 64-byte records");
	CHECK_EQ(c.align, 1, "PMBIDR.Align 0 -> byte alignment");
	CHECK_EQ(c.evfr_mask, 0x18aa, "implemented PMSEVFR bits from read-back");

	r.pmsidr |= SPE_PMSIDR_FNE | SPE_PMSIDR_FDS | SPE_PMSIDR_EFT;
	spe_caps_from_regs(&r, &c);
	CHECK(!(c.features & (SPE_FEAT_INV_FILT_EVT | SPE_FEAT_FDS | SPE_FEAT_EFT)),
	      "FnE/FDS/EFT bits ignored before SPEv1p2 (RES0 there)");
	CHECK(!(c.features & SPE_FEAT_DISCARD), "no discard mode before SPEv1p2");

	r.dfr0 = dfr0(SPE_PMSVER_V1P2);
	r.nevfr_impl = 0x2;
	spe_caps_from_regs(&r, &c);
	CHECK(c.features & SPE_FEAT_INV_FILT_EVT, "SPEv1p2 with FnE: inverted filter");
	CHECK(c.features & SPE_FEAT_DISCARD, "SPEv1p2: discard mode");
	CHECK_EQ(c.nevfr_mask, 0x2, "implemented PMSNEVFR bits from read-back");

	r = n1_like();
	r.pmsidr &= ~SPE_PMSIDR_FE;
	spe_caps_from_regs(&r, &c);
	CHECK_EQ(c.evfr_mask, 0, "no event filter bits without PMSIDR.FE");

	r = n1_like();
	r.pmsidr |= SPE_FIELD_PREP(SPE_PMSIDR_COUNTSIZE_MASK, 3);
	spe_caps_from_regs(&r, &c);
	CHECK_EQ(c.counter_bits, 16, "CountSize 0b0011 -> 16-bit");

	r = n1_like();
	r.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 0xb);
	spe_caps_from_regs(&r, &c);
	CHECK_EQ(c.align, 2048, "PMBIDR.Align 0b1011 -> 2 KiB");
}

/*
 * Each PMSIDR_EL1 feature bit (DDI 0586A §4.3.11; FnE, FDS, EFT from
 * SPEv1p2, DDI 0487 D18.3) gives its feature and only it: every bit alone,
 * and every bit missing from a unit that has all the others.
 */
static void test_each_feature_bit(void)
{
	static const struct {
		u64 idr;
		u32 feat;
	} bits[] = {
		{ SPE_PMSIDR_FE, SPE_FEAT_FILT_EVT },
		{ SPE_PMSIDR_FT, SPE_FEAT_FILT_TYP },
		{ SPE_PMSIDR_FL, SPE_FEAT_FILT_LAT },
		{ SPE_PMSIDR_ARCHINST, SPE_FEAT_ARCH_INST },
		{ SPE_PMSIDR_LDS, SPE_FEAT_LDS },
		{ SPE_PMSIDR_ERND, SPE_FEAT_ERND },
		{ SPE_PMSIDR_FNE, SPE_FEAT_INV_FILT_EVT },
		{ SPE_PMSIDR_FDS, SPE_FEAT_FDS },
		{ SPE_PMSIDR_EFT, SPE_FEAT_EFT },
	};
	const size_t nr = sizeof(bits) / sizeof(bits[0]);
	u64 all_idr = 0;
	u32 all_feat = 0;
	int bad = 0;

	for (size_t i = 0; i < nr; i++) {
		all_idr |= bits[i].idr;
		all_feat |= bits[i].feat;
	}
	for (size_t i = 0; i < nr; i++) {
		struct spe_cpu_regs r = n1_like();
		struct spe_caps c;

		r.dfr0 = dfr0(SPE_PMSVER_V1P2);
		r.pmsidr = (r.pmsidr & ~all_idr) | bits[i].idr;
		r.nevfr_impl = 0x2;
		bad += spe_caps_from_regs(&r, &c) != SPE_CAPS_OK ||
		       (c.features & ~SPE_FEAT_DISCARD) != bits[i].feat;
		r.pmsidr = (r.pmsidr & ~all_idr) | (all_idr & ~bits[i].idr);
		bad += spe_caps_from_regs(&r, &c) != SPE_CAPS_OK ||
		       (c.features & ~SPE_FEAT_DISCARD) != (all_feat & ~bits[i].feat);
	}
	CHECK_EQ(bad, 0, "each PMSIDR feature bit alone gives its feature only; each missing one is missing");
}

/* ID register fields at their largest legal values (DDI 0586A §4.3.11,
 * §4.3.1): MaxSize 11 (2 KiB records), Align 11 (2 KiB), 16-bit counters. */
static void test_largest_fields(void)
{
	struct spe_cpu_regs r = n1_like();
	struct spe_caps c;

	r.pmsidr = (r.pmsidr & ~(SPE_PMSIDR_MAXSIZE_MASK | SPE_PMSIDR_COUNTSIZE_MASK)) |
		   SPE_FIELD_PREP(SPE_PMSIDR_MAXSIZE_MASK, 11) |
		   SPE_FIELD_PREP(SPE_PMSIDR_COUNTSIZE_MASK, 3);
	r.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 11);
	CHECK(spe_caps_from_regs(&r, &c) == SPE_CAPS_OK && c.max_record == 2048 &&
	      c.align == 2048 && c.counter_bits == 16,
	      "MaxSize 11, Align 11 and CountSize 0b0011 are accepted: 2 KiB, 2 KiB, 16 bits");
}

static void test_errors(void)
{
	struct spe_cpu_regs r = n1_like();
	struct spe_caps c;

	r.dfr0 = dfr0(0);
	CHECK_EQ(spe_caps_from_regs(&r, &c), SPE_CAPS_NO_SPE,
		 "PMSVer 0 (QEMU's CPUs) means no SPE");
	CHECK(strstr(spe_caps_err_str(SPE_CAPS_NO_SPE), "PMSVer"),
	      "no-SPE message names ID_AA64DFR0_EL1.PMSVer");

	r = n1_like();
	r.pmbidr |= SPE_PMBIDR_P;
	CHECK_EQ(spe_caps_from_regs(&r, &c), SPE_CAPS_BUF_PROHIBITED,
		 "§4.3.1 PMBIDR.P: buffer owned by a higher EL is refused");

	r = n1_like();
	r.pmsidr &= ~SPE_PMSIDR_COUNTSIZE_MASK;
	CHECK_EQ(spe_caps_from_regs(&r, &c), SPE_CAPS_BAD_COUNTSIZE,
		 "unknown CountSize refused");

	r = n1_like();
	r.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 0xc);
	CHECK_EQ(spe_caps_from_regs(&r, &c), SPE_CAPS_BAD_ALIGN,
		 "reserved PMBIDR.Align refused");

	r = n1_like();
	r.pmsidr = (r.pmsidr & ~SPE_PMSIDR_MAXSIZE_MASK) |
		   SPE_FIELD_PREP(SPE_PMSIDR_MAXSIZE_MASK, 12);
	CHECK_EQ(spe_caps_from_regs(&r, &c), SPE_CAPS_BAD_MAXSIZE,
		 "record size above 2 KiB refused");
}

static void test_merge(void)
{
	struct spe_cpu_regs a = n1_like(), b = n1_like();
	struct spe_caps ca, cb, acc;
	u32 diff;

	spe_caps_from_regs(&a, &ca);
	acc = ca;
	CHECK_EQ(spe_caps_merge(&acc, &ca), 0, "identical CPUs do not differ");
	CHECK(!memcmp(&acc, &ca, sizeof(acc)), "merging identical CPUs changes nothing");

	b.pmsidr &= ~(SPE_PMSIDR_FL | SPE_PMSIDR_INTERVAL_MASK | SPE_PMSIDR_MAXSIZE_MASK);
	b.pmsidr |= SPE_FIELD_PREP(SPE_PMSIDR_INTERVAL_MASK, 8) |
		    SPE_FIELD_PREP(SPE_PMSIDR_MAXSIZE_MASK, 7);
	b.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 6);
	b.evfr_impl = 0x0f0f;
	spe_caps_from_regs(&b, &cb);

	diff = spe_caps_merge(&acc, &cb);
	CHECK_EQ(diff, SPE_CAPS_DIFF_FEATURES | SPE_CAPS_DIFF_INTERVAL |
		       SPE_CAPS_DIFF_RECORD | SPE_CAPS_DIFF_ALIGN | SPE_CAPS_DIFF_EVFR,
		 "merge reports which properties differ");
	CHECK(!(acc.features & SPE_FEAT_FILT_LAT),
	      "a feature one CPU lacks is dropped from the PMU");
	CHECK_EQ(acc.min_interval, 4096, "the larger minimum interval wins");
	CHECK_EQ(acc.max_record, 128, "the larger record size wins (padding)");
	CHECK_EQ(acc.align, 64, "the stricter alignment wins");
	/* 0x0f0f on SPEv1p1: only 1, 3 and 11 may be implemented. */
	CHECK_EQ(acc.evfr_mask, 0x18aa & 0x080a, "only filter bits all CPUs implement");
}

static void test_late_cpu(void)
{
	struct spe_cpu_regs a = n1_like(), b = n1_like();
	struct spe_caps pmu, cpu;

	spe_caps_from_regs(&a, &pmu);
	CHECK(spe_caps_covers(&pmu, &pmu), "an identical late CPU joins the PMU");

	b.pmsidr |= SPE_FIELD_PREP(SPE_PMSIDR_COUNTSIZE_MASK, 3);
	b.evfr_impl = ~0ull;
	spe_caps_from_regs(&b, &cpu);
	CHECK(spe_caps_covers(&cpu, &pmu),
	      "a late CPU with more (wider counters, more filter bits) joins");

	b = n1_like();
	b.pmsidr &= ~SPE_PMSIDR_FL;
	spe_caps_from_regs(&b, &cpu);
	CHECK(!spe_caps_covers(&cpu, &pmu),
	      "a late CPU without the latency filter the PMU advertises is kept out");

	b = n1_like();
	b.pmbidr = SPE_FIELD_PREP(SPE_PMBIDR_ALIGN_MASK, 4);
	spe_caps_from_regs(&b, &cpu);
	CHECK(!spe_caps_covers(&cpu, &pmu),
	      "a late CPU needing stricter buffer alignment is kept out");

	/* Every capability, one at a time, narrower on the late CPU. */
	{
		int bad = 0;

		for (int k = 0; k < 8; k++) {
			struct spe_caps p = pmu, c = pmu;

			p.counter_bits = 16;
			p.evfr_mask = 0x18aa;
			p.nevfr_mask = 0x2;
			c = p;
			switch (k) {
			case 0: c.pmsver = p.pmsver - 1; break;
			case 1: c.features &= ~SPE_FEAT_LDS; break;
			case 2: c.min_interval = p.min_interval * 2; break;
			case 3: c.counter_bits = 12; break;
			case 4: c.max_record = p.max_record * 2; break;
			case 5: c.align = p.align * 2; break;
			case 6: c.evfr_mask &= ~0x2ull; break;
			case 7: c.nevfr_mask = 0; break;
			}
			bad += spe_caps_covers(&c, &p);
			bad += !spe_caps_covers(&p, &p);
		}
		CHECK_EQ(bad, 0, "a late CPU with any one capability narrower (version, feature, interval, counter, record, alignment, filters) is kept out");
	}
}

/* A RES0 filter bit that reads back as written is not advertised. */
static void test_evfr_res0(void)
{
	struct spe_cpu_regs r = n1_like();
	struct spe_caps c;

	r.dfr0 = dfr0(SPE_PMSVER_V1);
	r.evfr_impl = ~0ull;
	spe_caps_from_regs(&r, &c);
	CHECK_EQ(c.evfr_mask, 0xffff0000ff00f0aaull,
		 "SPEv1, all-ones read-back: only 1, 3, 5, 7 and the IMPDEF ranges "
		 "(47:32, 23:16, 11:8, 6, 4, 2, 0 are RES0)");

	r.dfr0 = dfr0(SPE_PMSVER_V1P1);
	r.evfr_impl = 0xaaa;
	spe_caps_from_regs(&r, &c);
	CHECK_EQ(c.evfr_mask, 0x8aa,
		 "SPEv1p1: bit 9 (LLC miss, filterable from SPEv1p4) read back is dropped, 11 kept");

	r.dfr0 = dfr0(SPE_PMSVER_V1P2);
	r.pmsidr |= SPE_PMSIDR_FNE;
	r.evfr_impl = ~0ull;
	r.nevfr_impl = ~0ull;
	spe_caps_from_regs(&r, &c);
	CHECK_EQ(c.evfr_mask, 0xffff0000ff07f8eaull,
		 "SPEv1p2: adds not-taken (6), transactional (16), SVE predicates (18:17), alignment (11)");
	CHECK_EQ(c.nevfr_mask, c.evfr_mask, "PMSNEVFR is bounded by the same mask");

	r.dfr0 = dfr0(SPE_PMSVER_V1P4);
	spe_caps_from_regs(&r, &c);
	CHECK_EQ(c.evfr_mask, 0xffff0000fffffffeull,
		 "SPEv1p4: every event but 0 below 32 may be filtered");
	CHECK_EQ(spe_evfr_filterable(SPE_PMSVER_V1P5), spe_evfr_filterable(SPE_PMSVER_V1P4),
		 "SPEv1p5 adds no filter bits");
}

int main(void)
{
	test_evfr_res0();
	test_late_cpu();
	test_from_regs();
	test_each_feature_bit();
	test_largest_fields();
	test_errors();
	test_merge();
	return tap_done();
}
