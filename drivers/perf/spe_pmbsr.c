// SPDX-License-Identifier: GPL-2.0
/*
 * PMBSR_EL1 decoding (DDI 0586A §3.5, §4.3.4; DDI 0487 PMBSR_EL1 for the GPC
 * and IMPLEMENTATION DEFINED classes).
 *
 * Policy:
 *  - DL (partial record lost) marks the AUX record TRUNCATED|PARTIAL:
 *    PMBPTR may not follow a complete record (§3.4.1 forbids resuming
 *    from it), so the consumer must resynchronise.  The action stays
 *    RESTART (the buffer itself is sound), but the interrupt path opens
 *    no new session after a truncation: perf disables such an event.
 *  - COLL marks the record COLLISION (samples were dropped, data is fine).
 *    The unit sets COLL without raising a management event (DDI 0586A
 *    §3.1.4), so it is decoded even when S = 0: the stop path must report
 *    it, or a collision is only seen if the buffer happens to fill.
 *  - A full buffer restarts in the next free window (§3.5.2).
 *  - A buffer-not-full event with S set is the UNPREDICTABLE discard of
 *    §3.6.1: the records already written are sound, so restart.
 *  - Any abort, external abort, GPC fault, IMPDEF or reserved class
 *    stops the event: the buffer memory is perf's and always mapped, so a
 *    fault means something is wrong that retrying will not fix.
 */
#include "spe_pmbsr.h"
#include "spe/regs.h"

static const char *spe_fsc_cause(u32 fsc, u32 *level, bool *has_level)
{
	*has_level = true;
	*level = fsc & 3u;
	switch (fsc & ~3u) {
	case SPE_FSC_ADDR_SIZE(0):
		return "address size fault";
	case SPE_FSC_TRANSLATION(0):
		return "translation fault";
	case SPE_FSC_ACCESS_FLAG(0):
		return "access flag fault";
	case SPE_FSC_PERMISSION(0):
		return "permission fault";
	case SPE_FSC_SYNC_EXT_ABORT_TTW(0):
		return "synchronous external abort on translation table walk";
	}
	*has_level = false;
	*level = 0;
	switch (fsc) {
	case SPE_FSC_SYNC_EXT_ABORT:
		return "synchronous external abort on write";
	case SPE_FSC_ASYNC_EXT_ABORT:
		return "asynchronous external abort on write";
	case SPE_FSC_ALIGNMENT:
		return "alignment fault";
	case SPE_FSC_TLB_CONFLICT:
		return "TLB conflict fault";
	case SPE_FSC_UNSUPPORTED_ACCESS:
		return "unsupported access fault";
	}
	return "reserved fault status code";
}

void spe_pmbsr_decode(u64 pmbsr, struct spe_pmbsr_info *info)
{
	info->aux_flags = 0;
	info->ec = (u32)SPE_FIELD_GET(SPE_PMBSR_EC_MASK, pmbsr);
	info->mss = (u32)SPE_FIELD_GET(SPE_PMBSR_MSS_MASK, pmbsr);
	info->level = 0;
	info->has_level = false;

	if (pmbsr & SPE_PMBSR_COLL)
		info->aux_flags |= SPE_AUX_FLAG_COLLISION;

	if (!(pmbsr & SPE_PMBSR_S)) {
		info->action = SPE_PMBSR_SPURIOUS;
		info->cause = "no management event (PMBSR_EL1.S = 0)";
		return;
	}

	if (pmbsr & SPE_PMBSR_DL)
		info->aux_flags |= SPE_AUX_FLAG_TRUNCATED | SPE_AUX_FLAG_PARTIAL;

	/*
	 * DDI 0586A §3.5.4: an external abort reported to SPE sets EA; if it
	 * was asynchronous nothing in the buffer can be trusted.
	 */
	if (pmbsr & SPE_PMBSR_EA) {
		info->action = SPE_PMBSR_STOP;
		info->aux_flags |= SPE_AUX_FLAG_TRUNCATED;
		info->cause = "external abort on write to the profiling buffer";
		return;
	}

	switch (info->ec) {
	case SPE_PMBSR_EC_BUF:
		switch (info->mss & SPE_PMBSR_BSC_MASK) {
		case SPE_PMBSR_BSC_FULL:
			info->action = SPE_PMBSR_RESTART;
			info->cause = "buffer full";
			return;
		case SPE_PMBSR_BSC_NOT_FULL:
			info->action = SPE_PMBSR_RESTART;
			info->cause = "records discarded, buffer not full";
			return;
		}
		info->action = SPE_PMBSR_STOP;
		info->aux_flags |= SPE_AUX_FLAG_TRUNCATED;
		info->cause = "reserved buffer status code";
		return;
	case SPE_PMBSR_EC_FAULT_S1:
	case SPE_PMBSR_EC_FAULT_S2:
		info->action = SPE_PMBSR_STOP;
		info->aux_flags |= SPE_AUX_FLAG_TRUNCATED;
		info->cause = spe_fsc_cause(info->mss & SPE_PMBSR_FSC_MASK,
					    &info->level, &info->has_level);
		return;
	case SPE_PMBSR_EC_GPC:
		info->action = SPE_PMBSR_STOP;
		info->aux_flags |= SPE_AUX_FLAG_TRUNCATED;
		info->cause = "granule protection check fault";
		return;
	case SPE_PMBSR_EC_IMPDEF:
		info->action = SPE_PMBSR_STOP;
		info->aux_flags |= SPE_AUX_FLAG_TRUNCATED;
		info->cause = "IMPLEMENTATION DEFINED management event";
		return;
	}
	info->action = SPE_PMBSR_STOP;
	info->aux_flags |= SPE_AUX_FLAG_TRUNCATED;
	info->cause = "reserved exception class";
}
