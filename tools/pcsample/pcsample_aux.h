/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking the records arm_pcsample writes into a perf AUX buffer: 32-byte
 * records (include/pcsample/record.h) between two positions
 * of the buffer's free-running head, wrapping at its power-of-two size.
 */
#ifndef PCSAMPLE_AUX_H
#define PCSAMPLE_AUX_H

#include <stddef.h>
#include <stdint.h>

#include "pcsample/record.h"

typedef void (*pcs_record_fn)(const struct pcs_record *rec, void *arg);

struct pcs_aux_walk {
	uint64_t records;	/* passed to the callback */
	uint64_t bad;		/* 32-byte slots that are not a record */
	uint64_t partial;	/* trailing bytes short of a record */
};

/*
 * Call @fn for each record in [@from, @to) of the @size-byte buffer @aux.
 * Returns -1 (and walks nothing) if @size is not a power of two multiple
 * of the record size, or the range is longer than the buffer.
 */
int pcs_aux_walk(const uint8_t *aux, uint64_t size, uint64_t from, uint64_t to,
		 pcs_record_fn fn, void *arg, struct pcs_aux_walk *out);

const char *pcs_mode_name(unsigned int mode);

#endif /* PCSAMPLE_AUX_H */
