// SPDX-License-Identifier: GPL-2.0
/*
 * The PC-sample driver's pure logic (drivers/perf/pcsample/pcsample_decode.c):
 * PMPCSR/EDPCSR decoding (DDI 0487, External Registers, PMPCSR), the rules
 * on when the sample registers may be read, the frame ID checks, the
 * period conversion and the AUX record format.
 */
#include <string.h>

#include "pcsample/pcsample_decode.h"
#include "pcsample/regs.h"
#include "tap.h"

static const struct pcs_host el1_pid = { .kernel_el = 1, .pid_in_contextidr = true };
static const struct pcs_host vhe_pid = { .kernel_el = 2, .pid_in_contextidr = true };
static const struct pcs_host el1_nopid = { .kernel_el = 1 };
static const struct pcs_filter all;

static u32 pcsr_hi(u32 ns, u32 nse, u32 el, u32 pc_hi)
{
	return (ns ? PCS_PCSR_HI_NS : 0) | (nse ? PCS_PCSR_HI_NSE : 0) |
	       (el << PCS_PCSR_HI_EL_SHIFT) | (pc_hi & PCS_PCSR_HI_PC_MASK);
}

static void test_pmu_fields(void)
{
	struct pcs_raw r = {
		.pcsr_lo = 0x81234560, .pcsr_hi = pcsr_hi(1, 0, 1, 0xff8000),
		.cid1 = 1234, .cid2 = 5678, .vid = 0xabcd0007,
	};
	struct pcs_sample s;

	memset(&s, 0x5a, sizeof(s));
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_OK,
		 "a Non-secure EL1 sample decodes");
	CHECK_EQ(s.ip, 0xffff800081234560ull,
		 "PCSample[55:0] sign-extends from bit 55 (kernel VA)");
	CHECK_EQ(s.el, 1, "EL from PMPCSR[62:61]");
	CHECK_EQ(s.mode, PCS_MODE_KERNEL, "EL1 under an EL1 kernel is kernel");
	CHECK_EQ(s.pid, 1234, "PID from PMCID1SR under an EL1 kernel");
	CHECK_EQ(s.vmid, 7, "VMID is PMVIDSR[15:0]");

	r.pcsr_hi = pcsr_hi(1, 0, 0, 0x0000aa);
	r.pcsr_lo = 0x00401000;
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_OK, "an EL0 sample decodes");
	CHECK_EQ(s.ip, 0x000000aa00401000ull, "bit 55 clear: a TTBR0 address, not extended");
	CHECK_EQ(s.mode, PCS_MODE_USER, "EL0 is user");

	r.pcsr_hi = pcsr_hi(1, 0, 0, 0x800000);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_OK, "bit 55 alone set");
	CHECK_EQ(s.ip, 0xff80000000401000ull, "bit 55 alone: extended into bits [63:56]");
	r.pcsr_hi = pcsr_hi(1, 0, 0, 0x400000);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_OK, "bit 54 alone set");
	CHECK_EQ(s.ip, 0x0040000000401000ull, "bit 54 alone: not extended");
	r.pcsr_hi = pcsr_hi(1, 0, 0, 0x0000aa);
	r.pcsr_hi |= PCS_PCSR_HI_T | (0x7u << 24);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_OK,
		 "T and RES0 bits do not change the verdict");
	CHECK_EQ(s.ip, 0x000000aa00401000ull, "T and bits [58:56] are not address bits");

	CHECK_EQ(pcs_decode_pmu(&r, &el1_nopid, &all, &s), PCS_OK, "decodes without PID");
	CHECK_EQ(s.pid, PCS_PID_UNKNOWN,
		 "without PID_IN_CONTEXTIDR the context registers name no PID");

	r.pcsr_hi = pcsr_hi(1, 0, 2, 0xff0000);
	CHECK_EQ(pcs_decode_pmu(&r, &vhe_pid, &all, &s), PCS_OK, "an EL2 sample under VHE");
	CHECK_EQ(s.mode, PCS_MODE_KERNEL, "EL2 is the kernel under VHE");
	CHECK_EQ(s.pid, 5678, "PID from PMCID2SR under VHE (CONTEXTIDR_EL2)");

	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_OK, "EL2 under an EL1 kernel");
	CHECK_EQ(s.mode, PCS_MODE_HYPERVISOR, "EL2 under an EL1 kernel is the hypervisor");

	r.pcsr_hi = pcsr_hi(1, 0, 1, 0xff0000);
	CHECK_EQ(pcs_decode_pmu(&r, &vhe_pid, &all, &s), PCS_OK, "EL1 under VHE");
	CHECK_EQ(s.mode, PCS_MODE_GUEST_KERNEL, "EL1 under a VHE kernel is a guest's kernel");
}

static void test_pmu_refusals(void)
{
	struct pcs_raw r = { .pcsr_lo = PCS_NO_SAMPLE, .pcsr_hi = pcsr_hi(1, 0, 0, 0) };
	struct pcs_sample s;
	struct pcs_filter f;

	memset(&s, 0x5a, sizeof(s));
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_NONE,
		 "PMPCSR[31:0] = 0xFFFFFFFF is no sample");
	CHECK_EQ(s.ip, 0x5a5a5a5a5a5a5a5aull, "no sample leaves the output untouched");

	r.pcsr_lo = 0x1000;
	r.pcsr_hi = pcsr_hi(0, 0, 1, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_SECURE, "NSE:NS = 0:0 Secure is refused");
	r.pcsr_hi = pcsr_hi(0, 1, 1, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_SECURE, "NSE:NS = 1:0 Root is refused");
	r.pcsr_hi = pcsr_hi(1, 1, 1, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_SECURE, "NSE:NS = 1:1 Realm is refused");
	r.pcsr_hi = pcsr_hi(1, 0, 3, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &all, &s), PCS_EL3, "EL3 is never disclosed");

	memset(&f, 0, sizeof(f));
	f.exclude_kernel = true;
	r.pcsr_hi = pcsr_hi(1, 0, 1, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &f, &s), PCS_EXCLUDED, "exclude_kernel drops EL1");
	r.pcsr_hi = pcsr_hi(1, 0, 0, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &f, &s), PCS_OK, "exclude_kernel keeps EL0");
	r.pcsr_hi = pcsr_hi(1, 0, 1, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &vhe_pid, &f, &s), PCS_EXCLUDED,
		 "exclude_kernel drops a guest kernel too");
	r.pcsr_hi = pcsr_hi(1, 0, 2, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &f, &s), PCS_EXCLUDED,
		 "exclude_kernel drops the hypervisor (EL2 under an EL1 kernel) too");
	memset(&f, 0, sizeof(f));
	f.exclude_user = true;
	r.pcsr_hi = pcsr_hi(1, 0, 0, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &f, &s), PCS_EXCLUDED, "exclude_user drops EL0");
	memset(&f, 0, sizeof(f));
	f.exclude_hv = true;
	r.pcsr_hi = pcsr_hi(1, 0, 2, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &f, &s), PCS_EXCLUDED,
		 "exclude_hv drops EL2 under an EL1 kernel");
	CHECK_EQ(pcs_decode_pmu(&r, &vhe_pid, &f, &s), PCS_OK,
		 "exclude_hv keeps EL2 when EL2 is the kernel");
	memset(&f, 0, sizeof(f));
	f.exclude_guest = true;
	r.pcsr_hi = pcsr_hi(1, 0, 1, 0);
	CHECK_EQ(pcs_decode_pmu(&r, &vhe_pid, &f, &s), PCS_EXCLUDED, "exclude_guest drops a guest kernel");
	CHECK_EQ(pcs_decode_pmu(&r, &el1_pid, &f, &s), PCS_OK,
		 "exclude_guest keeps the host's own EL1 kernel");
}

static void test_debug_block(void)
{
	struct pcs_raw r = {
		.pcsr_lo = 0x00080000, .pcsr_hi = 0xffff0000, .cid1 = 42,
		.vid = PCS_EDVIDSR_NS | PCS_EDVIDSR_HV | 3,
	};
	struct pcs_sample s;

	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_OK, "an EDPCSR sample decodes");
	CHECK_EQ(s.ip, 0xffff000000080000ull, "EDPCSRhi is PC[63:32]");
	CHECK_EQ(s.el, 1, "upper VA range without E2/E3 is EL1");
	CHECK_EQ(s.pid, 42, "PID from EDCIDSR");
	CHECK_EQ(s.vmid, 3, "VMID from EDVIDSR[15:0]");
	r.pcsr_hi = 0;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_OK, "a lower-range sample");
	CHECK_EQ(s.el, 0, "lower VA range without E2/E3 is EL0");
	r.pcsr_hi = 0x01000000;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_OK, "a sample with a top-byte tag");
	CHECK_EQ(s.el, 0, "bit 55 alone picks the VA range: a tag in bits [63:56] is still EL0");
	r.pcsr_hi = 0x00800000;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_OK, "bit 55 set, top byte clear");
	CHECK_EQ(s.el, 1, "bit 55 set is the upper range: EL1");
	r.vid = PCS_EDVIDSR_NS | PCS_EDVIDSR_HV | PCS_EDVIDSR_E2;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_OK, "an EL2 sample");
	CHECK_EQ(s.mode, PCS_MODE_HYPERVISOR, "EDVIDSR.E2 is EL2");
	r.vid = PCS_EDVIDSR_NS | PCS_EDVIDSR_E3;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_EL3, "EDVIDSR.E3 is refused");
	r.vid = PCS_EDVIDSR_HV;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_SECURE, "EDVIDSR.NS = 0 is refused");
	r.vid = PCS_EDVIDSR_NS;
	r.pcsr_hi = 0x12345678;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_OK, "an AArch32 sample");
	CHECK_EQ(s.ip, 0x00080000, "HV = 0: an AArch32 sample keeps 32 address bits");
	r.pcsr_lo = 0x00080009;		/* T32, bit 0 set */
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_ISA, &el1_pid, &all, &s), PCS_OK,
		 "PCSROffset = 0: a T32 sample");
	CHECK_EQ(s.ip, 0x00080004, "T32: bit 0 cleared and 4 subtracted");
	r.pcsr_lo = 0x00080008;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_ISA, &el1_pid, &all, &s), PCS_OK,
		 "PCSROffset = 0: an A32 sample");
	CHECK_EQ(s.ip, 0x00080000, "A32: 8 subtracted");
	r.pcsr_lo = 0x0008000e;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_ISA, &el1_pid, &all, &s), PCS_OK,
		 "an A32 sample with bits [3:1] set");
	CHECK_EQ(s.ip, 0x00080004, "A32: bits [1:0] cleared, only those, then 8 subtracted");
	r.pcsr_lo = 0x00080008;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_OK,
		 "PCSROffset = 1: an A32 sample");
	CHECK_EQ(s.ip, 0x00080008, "PCSROffset = 1: no offset removed");
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NO_AARCH32, &el1_pid, &all, &s),
		 PCS_AARCH32, "PCSROffset = 2: an AArch32 sample is dropped");
	r.vid |= PCS_EDVIDSR_HV;
	r.pcsr_hi = 0;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_ISA, &el1_pid, &all, &s), PCS_OK,
		 "PCSROffset = 0: an AArch64 sample");
	CHECK_EQ(s.ip, 0x00080008, "AArch64 samples never carry the offset");
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NO_AARCH32, &el1_pid, &all, &s), PCS_OK,
		 "PCSROffset = 2: an AArch64 sample is kept");
	r.pcsr_lo = PCS_NO_SAMPLE;
	CHECK_EQ(pcs_decode_debug(&r, PCS_PCSROFFSET_NONE, &el1_pid, &all, &s), PCS_NONE,
		 "EDPCSRlo = 0xFFFFFFFF is no sample");
}

static void test_access_rules(void)
{
	CHECK_EQ(pcs_access_check(false, false, 0), PCS_ACCESS_POWERED_DOWN,
		 "a core the kernel knows is off is not read");
	CHECK_EQ(pcs_access_check(false, true, PCS_EDPRSR_PU), PCS_ACCESS_POWERED_DOWN,
		 "the kernel's word wins over a stale EDPRSR.PU");
	CHECK_EQ(pcs_access_check(true, false, 0), PCS_ACCESS_READ,
		 "without a debug block the kernel's word decides");
	CHECK_EQ(pcs_access_check(true, true, 0), PCS_ACCESS_POWERED_DOWN,
		 "EDPRSR.PU = 0: Core power domain off");
	CHECK_EQ(pcs_access_check(true, true, PCS_EDPRSR_PU | PCS_EDPRSR_OSLK),
		 PCS_ACCESS_OS_LOCKED, "EDPRSR.OSLK: an access would get an error response");
	CHECK_EQ(pcs_access_check(true, true, PCS_EDPRSR_PU | PCS_EDPRSR_DLK | PCS_EDPRSR_OSLK),
		 PCS_ACCESS_DOUBLE_LOCKED, "EDPRSR.DLK: the OS Double Lock is reported first");
	CHECK_EQ(pcs_access_check(true, true, PCS_EDPRSR_PU), PCS_ACCESS_READ,
		 "powered up and unlocked: read");

	CHECK(pcs_needs_unlock(PCS_LSR_SLI | PCS_LSR_SLK), "implemented and locked: unlock first");
	CHECK(!pcs_needs_unlock(PCS_LSR_SLI), "implemented, unlocked: nothing to do");
	CHECK(!pcs_needs_unlock(PCS_LSR_SLK), "SLK without SLI: no Software Lock to open");
}

static void test_frame_ids(void)
{
	CHECK(pcs_check_pmu_frame(0x1) == NULL, "PMDEVID.PCSample = 1 is accepted");
	CHECK(pcs_check_pmu_frame(0xf0) != NULL, "PMDEVID.PCSample = 0 is refused");
	CHECK(pcs_check_pmu_frame(0x2) != NULL, "a reserved PMDEVID.PCSample is refused");
	CHECK(pcs_check_debug_frame(0x3, 0x2) == NULL,
	      "EDDEVID.PCSample = 3 with no offset is accepted");
	CHECK(pcs_check_debug_frame(0x0, 0x2) != NULL &&
	      strstr(pcs_check_debug_frame(0x0, 0x2), "is 0"), "EDDEVID.PCSample = 0 is refused");
	CHECK(pcs_check_debug_frame(0x2, 0x2) != NULL &&
	      strstr(pcs_check_debug_frame(0x2, 0x2), "not 3"),
	      "EDDEVID.PCSample = 2 (no EDVIDSR) is refused");
	CHECK(pcs_check_debug_frame(0x3, 0x0) == NULL && pcs_check_debug_frame(0x3, 0x1) == NULL,
	      "EDDEVID1.PCSROffset = 0 and 1 are accepted");
	CHECK(pcs_check_debug_frame(0x3, 0x3) != NULL, "a reserved EDDEVID1.PCSROffset is refused");
	CHECK_EQ(pcs_pcsroffset(0xfffffff2), 2, "PCSROffset is EDDEVID1[3:0]");
}

static void test_interval(void)
{
	u64 ns = 0;

	CHECK(pcs_interval_ns(true, 4000, &ns) == NULL && ns == 250000,
	      "-F 4000 is every 250 us");
	CHECK(pcs_interval_ns(false, 100000, &ns) == NULL && ns == 100000,
	      "-c 100000 is every 100 us");
	CHECK(pcs_interval_ns(true, 0, &ns) != NULL, "frequency 0 is refused");
	CHECK(pcs_interval_ns(false, 0, &ns) != NULL, "period 0 is refused");
	CHECK(pcs_interval_ns(true, 100001, &ns) != NULL, "above 100 kHz is refused");
	CHECK(pcs_interval_ns(true, 100000, &ns) == NULL && ns == PCS_MIN_INTERVAL_NS,
	      "100 kHz is the limit");
	CHECK(pcs_interval_ns(false, 9999, &ns) != NULL, "a period below 10 us is refused");
	CHECK(pcs_interval_ns(false, PCS_MIN_INTERVAL_NS, &ns) == NULL && ns == PCS_MIN_INTERVAL_NS,
	      "a period of exactly 10 us is accepted");
	CHECK(pcs_interval_ns(false, PCS_MAX_INTERVAL_NS, &ns) == NULL && ns == PCS_MAX_INTERVAL_NS,
	      "a period of exactly 1 s is accepted");
	CHECK(pcs_interval_ns(false, PCS_MAX_INTERVAL_NS + 1, &ns) != NULL,
	      "a period above 1 s is refused");
	CHECK(pcs_interval_ns(true, 1, &ns) == NULL && ns == PCS_MAX_INTERVAL_NS,
	      "1 Hz is every second");
}

static void test_next_due(void)
{
	u64 missed = 99;

	CHECK_EQ(pcs_next_due(1000, 100, 900, &missed), 1000, "not yet due: unchanged");
	CHECK_EQ(missed, 0, "not yet due: nothing missed");
	CHECK_EQ(pcs_next_due(1000, 100, 1000, &missed), 1100, "due now: one period on");
	CHECK_EQ(missed, 0, "on time: nothing missed");
	CHECK_EQ(pcs_next_due(1000, 100, 1350, &missed), 1400,
		 "late: the next period boundary after now");
	CHECK_EQ(missed, 3, "late by 3.5 periods: 3 missed, not caught up");
	CHECK_EQ(pcs_next_due(1000, 0, 2000, &missed), 2000,
		 "a zero interval (never validated so) does not divide by zero: now");
	CHECK_EQ(missed, 0, "and misses nothing");
}

static void test_record(void)
{
	struct pcs_record in = {
		.time = 0x0102030405060708ull, .cpu = 3,
		.s = { .ip = 0xffff800080001234ull, .pid = 77, .vmid = 5, .el = 1,
		       .mode = PCS_MODE_KERNEL },
	}, out;
	u8 buf[PCS_RECORD_SIZE];

	memset(buf, 0xee, sizeof(buf));
	pcs_record_pack(&in, buf);
	CHECK_EQ(buf[0], 0x08, "time is little-endian at offset 0");
	CHECK_EQ(buf[20], 3, "cpu at offset 20");
	CHECK_EQ(buf[28] | buf[29] << 8 | buf[30] << 16 | (u32)buf[31] << 24, PCS_RECORD_MAGIC,
		 "the magic closes the record");
	memset(&out, 0, sizeof(out));
	CHECK(pcs_record_unpack(buf, &out), "a packed record unpacks");
	CHECK(out.time == in.time && out.cpu == in.cpu && out.s.ip == in.s.ip &&
	      out.s.pid == in.s.pid && out.s.vmid == in.s.vmid && out.s.el == in.s.el &&
	      out.s.mode == in.s.mode, "pack then unpack is the identity");
	/* Every byte of every field, and the largest valid EL and mode. */
	in.time = 0xf1e2d3c4b5a69788ull;
	in.cpu = 0x9abcdef0;
	in.s.ip = 0x8877665544332211ull;
	in.s.pid = 0x12345678;
	in.s.vmid = 0xbeef;
	in.s.el = 2;
	in.s.mode = PCS_MODE_GUEST_KERNEL;
	pcs_record_pack(&in, buf);
	memset(&out, 0, sizeof(out));
	CHECK(pcs_record_unpack(buf, &out), "EL 2 and the guest-kernel mode unpack");
	CHECK(out.time == in.time && out.cpu == in.cpu && out.s.ip == in.s.ip &&
	      out.s.pid == in.s.pid && out.s.vmid == in.s.vmid && out.s.el == 2 &&
	      out.s.mode == PCS_MODE_GUEST_KERNEL,
	      "all-bytes values survive pack then unpack, EL and mode not swapped");
	CHECK(buf[16] == 0x78 && buf[19] == 0x12 && buf[24] == 0xef && buf[25] == 0xbe,
	      "pid at offset 16 and vmid at 24, little-endian");
	buf[26] = 3;
	CHECK(!pcs_record_unpack(buf, &out), "EL 3 is refused (never written)");
	buf[26] = 2;
	buf[30] ^= 1;
	CHECK(!pcs_record_unpack(buf, &out), "a bad magic is refused");
	buf[30] ^= 1;
	buf[27] = 9;
	CHECK(!pcs_record_unpack(buf, &out), "an unknown mode is refused");
}

int main(void)
{
	test_pmu_fields();
	test_pmu_refusals();
	test_debug_block();
	test_access_rules();
	test_frame_ids();
	test_interval();
	test_next_due();
	test_record();
	return tap_done();
}
