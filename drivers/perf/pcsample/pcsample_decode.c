// SPDX-License-Identifier: GPL-2.0
/*
 * PC-sample decoding and the rules the sampler follows (DDI 0487, External
 * Registers, PMPCSR; DDI 0487 Part H, "The PC Sample-based Profiling
 * Extension").
 *
 * Policy:
 *  - PMPCSR[31:0] = 0xFFFFFFFF is no sample (Debug state, or profiling
 *    prohibited), never the address 0x...FFFFFFFF.
 *  - Only Non-secure samples are reported: NS/NSE other than Non-secure
 *    (Secure, Root, Realm) and EL3 belong to software a Non-secure kernel
 *    must not disclose, whatever the caller's privileges.
 *  - EL0 is user; the kernel's own EL (EL1, or EL2 with VHE) is kernel;
 *    EL2 under an EL1 kernel is the hypervisor; EL1 under an EL2 kernel is
 *    a guest's kernel.  Each honours the event's exclude_* bit, and
 *    exclude_kernel (what perf_event_paranoid imposes) also excludes the
 *    hypervisor and guest kernels, as privileged as the host's own.
 *  - The address is PCSample[55:0] sign-extended from bit 55, the bit that
 *    selects the upper (TTBR1) or lower (TTBR0) VA range.
 *  - With CONFIG_PID_IN_CONTEXTIDR the kernel writes the current PID to
 *    CONTEXTIDR of its own EL: PMCID1SR for an EL1 kernel, PMCID2SR under
 *    VHE (the EL1 register name is redirected to EL2).
 *
 * Portable.
 */
#include "pcsample_decode.h"
#include "pcsample/regs.h"

/* @pc has bits [63:56] clear: PCSample[55:0] only. */
static u64 pcs_sign_extend55(u64 pc)
{
	if (pc & (1ull << 55))
		pc |= ~((1ull << 56) - 1);
	return pc;
}

enum pcs_mode pcs_mode_of(u8 el, const struct pcs_host *host)
{
	if (el == 0)
		return PCS_MODE_USER;
	if (el == host->kernel_el)
		return PCS_MODE_KERNEL;
	if (el == 2)
		return PCS_MODE_HYPERVISOR;
	return PCS_MODE_GUEST_KERNEL;
}

bool pcs_mode_excluded(enum pcs_mode mode, const struct pcs_filter *filter)
{
	switch (mode) {
	case PCS_MODE_USER:
		return filter->exclude_user;
	case PCS_MODE_KERNEL:
		return filter->exclude_kernel;
	case PCS_MODE_HYPERVISOR:
		return filter->exclude_hv || filter->exclude_kernel;
	case PCS_MODE_GUEST_KERNEL:
		return filter->exclude_guest || filter->exclude_kernel;
	}
	return true;
}

static enum pcs_verdict pcs_finish(u64 ip, u8 el, u32 pid, u16 vmid,
				   const struct pcs_host *host,
				   const struct pcs_filter *filter,
				   struct pcs_sample *out)
{
	enum pcs_mode mode;

	if (el == 3)
		return PCS_EL3;
	mode = pcs_mode_of(el, host);
	if (pcs_mode_excluded(mode, filter))
		return PCS_EXCLUDED;
	out->ip = ip;
	out->el = el;
	out->mode = mode;
	out->pid = host->pid_in_contextidr ? pid : PCS_PID_UNKNOWN;
	out->vmid = vmid;
	return PCS_OK;
}

enum pcs_verdict pcs_decode_pmu(const struct pcs_raw *raw,
				const struct pcs_host *host,
				const struct pcs_filter *filter,
				struct pcs_sample *out)
{
	u32 hi = raw->pcsr_hi;
	u64 pc;
	u8 el;

	if (raw->pcsr_lo == PCS_NO_SAMPLE)
		return PCS_NONE;
	/* NSE:NS = 0:1 is Non-secure; 0:0 Secure, 1:0 Root, 1:1 Realm. */
	if (!(hi & PCS_PCSR_HI_NS) || (hi & PCS_PCSR_HI_NSE))
		return PCS_SECURE;
	el = (hi & PCS_PCSR_HI_EL_MASK) >> PCS_PCSR_HI_EL_SHIFT;
	pc = ((u64)(hi & PCS_PCSR_HI_PC_MASK) << 32) | raw->pcsr_lo;
	return pcs_finish(pcs_sign_extend55(pc), el,
			  host->kernel_el == 2 ? raw->cid2 : raw->cid1,
			  raw->vid & PCS_VIDSR_VMID_MASK, host, filter, out);
}

/*
 * The debug block before Armv8.2: EDPCSRhi is PC[63:32], the Security state
 * and EL2/EL3 come from EDVIDSR, and EL0 and EL1 are told apart by the VA
 * range (EL0 runs from TTBR0, an EL1 kernel from TTBR1), as that layout
 * has no EL field.  Armv8.0 has no VHE, so CONTEXTIDR_EL1 holds the PID.
 * AArch64 samples are the instruction's address; an AArch32 sample may
 * carry the AArch32 PC offset, as EDDEVID1.PCSROffset says: with
 * PCSROffset = 0 bit 0 tells T32 (+4) from A32 (+8), with 2 the sample
 * lacks the instruction set state and is dropped.
 */
static enum pcs_verdict pcs_aarch32_pc(u64 *pc, u32 pcsroffset)
{
	switch (pcsroffset) {
	case PCS_PCSROFFSET_ISA:
		if (*pc & 1)
			*pc = (*pc & ~1ull) - 4;
		else
			*pc = (*pc & ~3ull) - 8;
		return PCS_OK;
	case PCS_PCSROFFSET_NONE:
		return PCS_OK;
	}
	return PCS_AARCH32;
}

enum pcs_verdict pcs_decode_debug(const struct pcs_raw *raw, u32 pcsroffset,
				  const struct pcs_host *host,
				  const struct pcs_filter *filter,
				  struct pcs_sample *out)
{
	u32 vid = raw->vid;
	enum pcs_verdict v;
	u64 pc;
	u8 el;

	if (raw->pcsr_lo == PCS_NO_SAMPLE)
		return PCS_NONE;
	if (!(vid & PCS_EDVIDSR_NS))
		return PCS_SECURE;
	pc = ((u64)raw->pcsr_hi << 32) | raw->pcsr_lo;
	if (!(vid & PCS_EDVIDSR_HV)) {
		pc &= 0xffffffffu;	/* an AArch32 sample */
		v = pcs_aarch32_pc(&pc, pcsroffset);
		if (v != PCS_OK)
			return v;
	}
	if (vid & PCS_EDVIDSR_E3)
		el = 3;
	else if (vid & PCS_EDVIDSR_E2)
		el = 2;
	else
		el = (pc & (1ull << 55)) ? 1 : 0;
	return pcs_finish(pc, el, raw->cid1, vid & PCS_VIDSR_VMID_MASK,
			  host, filter, out);
}

const char *pcs_verdict_name(enum pcs_verdict v)
{
	switch (v) {
	case PCS_OK:
		return "sampled";
	case PCS_NONE:
		return "no sample (Debug state or prohibited)";
	case PCS_SECURE:
		return "not Non-secure";
	case PCS_EL3:
		return "EL3";
	case PCS_EXCLUDED:
		return "excluded by the event";
	case PCS_AARCH32:
		return "AArch32 without its instruction set state";
	case PCS_NR_VERDICTS:
		break;
	}
	return "?";
}

/*
 * The sample registers are in the Core power domain, and an access while
 * the core is off, or its OS Lock or OS Double Lock is set, gets an error
 * response, which the reading CPU takes as an external abort.  The kernel
 * knows when a core is on (hotplug, and CPU PM notifiers around idle power
 * down); EDPRSR, in the Debug power domain, confirms it when the debug block
 * is described.
 */
enum pcs_access pcs_access_check(bool kernel_says_powered, bool have_edprsr,
				 u32 edprsr)
{
	if (!kernel_says_powered)
		return PCS_ACCESS_POWERED_DOWN;
	if (!have_edprsr)
		return PCS_ACCESS_READ;
	if (!(edprsr & PCS_EDPRSR_PU))
		return PCS_ACCESS_POWERED_DOWN;
	if (edprsr & PCS_EDPRSR_DLK)
		return PCS_ACCESS_DOUBLE_LOCKED;
	if (edprsr & PCS_EDPRSR_OSLK)
		return PCS_ACCESS_OS_LOCKED;
	return PCS_ACCESS_READ;
}

/*
 * With the Software Lock implemented and locked, a read of PMPCSR[31:0]
 * has no side effect: the context registers would be stale.
 */
bool pcs_needs_unlock(u32 lsr)
{
	return (lsr & PCS_LSR_SLI) && (lsr & PCS_LSR_SLK);
}

const char *pcs_check_pmu_frame(u32 pmdevid)
{
	if ((pmdevid & PCS_DEVID_PCSAMPLE_MASK) != PCS_PMDEVID_PCSAMPLE_IMPL)
		return "PMDEVID.PCSample is not 1: no PMPCSR in this PMU block";
	return NULL;
}

const char *pcs_check_debug_frame(u32 eddevid, u32 eddevid1)
{
	u32 pcs = eddevid & PCS_DEVID_PCSAMPLE_MASK;

	if (pcs == 0)
		return "EDDEVID.PCSample is 0: no EDPCSR in this debug block";
	if (pcs != PCS_EDDEVID_PCSAMPLE_CID_VID)
		return "EDDEVID.PCSample is not 3: no EDVIDSR, so no Security state";
	if (pcs_pcsroffset(eddevid1) > PCS_PCSROFFSET_NO_AARCH32)
		return "EDDEVID1.PCSROffset is reserved (above 2)";
	return NULL;
}

u32 pcs_pcsroffset(u32 eddevid1)
{
	return eddevid1 & PCS_DEVID_PCSAMPLE_MASK;
}

const char *pcs_interval_ns(bool freq, u64 value, u64 *ns)
{
	const u64 nsec_per_sec = 1000000000ull;

	if (value == 0)
		return freq ? "sampling frequency is 0" : "sampling period is 0";
	if (freq) {
		if (value > nsec_per_sec / PCS_MIN_INTERVAL_NS)
			return "sampling frequency above 100000 Hz";
		*ns = nsec_per_sec / value;
		return NULL;
	}
	if (value < PCS_MIN_INTERVAL_NS)
		return "sampling period below 10000 ns";
	if (value > PCS_MAX_INTERVAL_NS)
		return "sampling period above 1000000000 ns";
	*ns = value;
	return NULL;
}

u64 pcs_next_due(u64 due, u64 interval, u64 now, u64 *missed)
{
	u64 periods;

	*missed = 0;
	if (now < due)
		return due;
	if (interval == 0)
		return now;
	periods = (now - due) / interval + 1;
	*missed = periods - 1;
	return due + periods * interval;
}
