// SPDX-License-Identifier: GPL-2.0
/*
 * Profiling Buffer management events (DDI 0586A §3.5, §4.3.4) decoded by the
 * driver's spe_pmbsr.c into actions and PERF_AUX_FLAG_* values.
 */
#include <string.h>

#include "spe_pmbsr.h"
#include "spe/regs.h"
#include "tap.h"

static u64 pmbsr(u32 ec, u32 mss, u64 bits)
{
	return SPE_FIELD_PREP(SPE_PMBSR_EC_MASK, ec) |
	       SPE_FIELD_PREP(SPE_PMBSR_MSS_MASK, mss) | bits;
}

static void test_buffer_events(void)
{
	struct spe_pmbsr_info i;

	spe_pmbsr_decode(pmbsr(0, 1, 0), &i);
	CHECK_EQ(i.action, SPE_PMBSR_SPURIOUS, "S = 0 is no management event");
	CHECK_EQ(i.aux_flags, 0, "S = 0 and nothing else: no flag");

	spe_pmbsr_decode(SPE_PMBSR_COLL, &i);
	CHECK(i.action == SPE_PMBSR_SPURIOUS && i.aux_flags == SPE_AUX_FLAG_COLLISION,
	      "§3.1.4: COLL without S is still a collision, with no management event");

	spe_pmbsr_decode(pmbsr(SPE_PMBSR_EC_BUF, SPE_PMBSR_BSC_FULL, SPE_PMBSR_S), &i);
	CHECK_EQ(i.action, SPE_PMBSR_RESTART, "§3.5.2 buffer full restarts");
	CHECK_EQ(i.aux_flags, 0, "buffer full without DL leaves the record whole");

	spe_pmbsr_decode(pmbsr(SPE_PMBSR_EC_BUF, SPE_PMBSR_BSC_FULL,
			       SPE_PMBSR_S | SPE_PMBSR_DL), &i);
	CHECK_EQ(i.aux_flags, SPE_AUX_FLAG_TRUNCATED | SPE_AUX_FLAG_PARTIAL,
		 "DL marks the record TRUNCATED|PARTIAL");

	spe_pmbsr_decode(pmbsr(SPE_PMBSR_EC_BUF, SPE_PMBSR_BSC_FULL,
			       SPE_PMBSR_S | SPE_PMBSR_COLL), &i);
	CHECK_EQ(i.aux_flags, SPE_AUX_FLAG_COLLISION, "COLL marks the record COLLISION");
	CHECK_EQ(i.action, SPE_PMBSR_RESTART, "a collision alone does not stop profiling");

	spe_pmbsr_decode(pmbsr(SPE_PMBSR_EC_BUF, SPE_PMBSR_BSC_NOT_FULL,
			       SPE_PMBSR_S | SPE_PMBSR_DL), &i);
	CHECK_EQ(i.action, SPE_PMBSR_RESTART,
		 "§3.6.1 discard with BSC=0 keeps the buffer usable");
	CHECK_EQ(i.aux_flags, SPE_AUX_FLAG_TRUNCATED | SPE_AUX_FLAG_PARTIAL,
		 "§3.6.1 discard with DL flags the loss");

	spe_pmbsr_decode(pmbsr(SPE_PMBSR_EC_BUF, 0x2, SPE_PMBSR_S), &i);
	CHECK_EQ(i.action, SPE_PMBSR_STOP, "reserved BSC stops the event");
	CHECK(i.aux_flags & SPE_AUX_FLAG_TRUNCATED, "reserved BSC reports truncation");
}

static void test_faults(void)
{
	static const struct {
		u32 fsc;
		const char *cause;
		int level;
	} f[] = {
		{ 0x02, "address size fault", 2 },
		{ 0x06, "translation fault", 2 },
		{ 0x0b, "access flag fault", 3 },
		{ 0x0c, "permission fault", 0 },
		{ 0x10, "synchronous external abort on write", -1 },
		{ 0x11, "asynchronous external abort on write", -1 },
		{ 0x15, "synchronous external abort on translation table walk", 1 },
		{ 0x21, "alignment fault", -1 },
		{ 0x30, "TLB conflict fault", -1 },
		{ 0x35, "unsupported access fault", -1 },
		{ 0x3f, "reserved fault status code", -1 },
	};
	struct spe_pmbsr_info i;
	unsigned int n, ok_cause = 1, ok_level = 1, ok_stop = 1;

	for (n = 0; n < sizeof(f) / sizeof(f[0]); n++) {
		u32 ec = n & 1 ? SPE_PMBSR_EC_FAULT_S2 : SPE_PMBSR_EC_FAULT_S1;

		spe_pmbsr_decode(pmbsr(ec, f[n].fsc, SPE_PMBSR_S), &i);
		if (strcmp(i.cause, f[n].cause)) {
			printf("# fsc 0x%x: %s\n", f[n].fsc, i.cause);
			ok_cause = 0;
		}
		if (f[n].level < 0 ? i.has_level :
		    (!i.has_level || i.level != (u32)f[n].level))
			ok_level = 0;
		if (i.action != SPE_PMBSR_STOP ||
		    !(i.aux_flags & SPE_AUX_FLAG_TRUNCATED))
			ok_stop = 0;
	}
	CHECK(ok_cause, "§4.3.4 every FSC class decoded by name");
	CHECK(ok_level, "level-coded FSCs report the translation level");
	CHECK(ok_stop, "stage 1/2 aborts stop the event and truncate");
}

static void test_other_classes(void)
{
	struct spe_pmbsr_info i;

	spe_pmbsr_decode(pmbsr(SPE_PMBSR_EC_BUF, SPE_PMBSR_BSC_FULL,
			       SPE_PMBSR_S | SPE_PMBSR_EA), &i);
	CHECK_EQ(i.action, SPE_PMBSR_STOP, "§3.5.4 external abort stops the event");

	spe_pmbsr_decode(pmbsr(SPE_PMBSR_EC_GPC, 0, SPE_PMBSR_S), &i);
	CHECK(i.action == SPE_PMBSR_STOP &&
	      !strcmp(i.cause, "granule protection check fault"),
	      "GPC fault class decoded and stops");

	spe_pmbsr_decode(pmbsr(SPE_PMBSR_EC_IMPDEF, 0x1234, SPE_PMBSR_S), &i);
	CHECK(i.action == SPE_PMBSR_STOP && i.mss == 0x1234,
	      "IMPLEMENTATION DEFINED class stops and keeps MSS for the dump");

	spe_pmbsr_decode(pmbsr(0x10, 0, SPE_PMBSR_S), &i);
	CHECK(i.action == SPE_PMBSR_STOP &&
	      !strcmp(i.cause, "reserved exception class"),
	      "reserved EC stops");
}

int main(void)
{
	test_buffer_events();
	test_faults();
	test_other_classes();
	return tap_done();
}
