// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX walk of pcsample-record.  A slot that does not unpack (no
 * magic, an impossible EL or mode) is counted and skipped: the driver only
 * writes whole records at 32-byte positions, so the next slot is the next
 * record.
 */
#include "pcsample_aux.h"

int pcs_aux_walk(const uint8_t *aux, uint64_t size, uint64_t from, uint64_t to,
		 pcs_record_fn fn, void *arg, struct pcs_aux_walk *out)
{
	struct pcs_record rec;
	uint64_t pos;

	out->records = out->bad = out->partial = 0;
	if (size < PCS_RECORD_SIZE || (size & (size - 1)) || to < from || to - from > size)
		return -1;
	for (pos = from; to - pos >= PCS_RECORD_SIZE; pos += PCS_RECORD_SIZE) {
		uint64_t off = pos & (size - 1);

		/* Records start at multiples of 32 and never straddle the end. */
		if (off % PCS_RECORD_SIZE == 0 && pcs_record_unpack(aux + off, &rec)) {
			out->records++;
			fn(&rec, arg);
		} else {
			out->bad++;
		}
	}
	out->partial = to - pos;
	return 0;
}

const char *pcs_mode_name(unsigned int mode)
{
	static const char *const names[] = {
		[PCS_MODE_USER] = "user",
		[PCS_MODE_KERNEL] = "kernel",
		[PCS_MODE_HYPERVISOR] = "hypervisor",
		[PCS_MODE_GUEST_KERNEL] = "guest-kernel",
	};

	return mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "?";
}
