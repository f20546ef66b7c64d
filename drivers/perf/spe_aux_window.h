/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the Profiling Buffer may write next: PMBPTR_EL1 and PMBLIMITR_EL1
 * from the state of a perf AUX handle.
 *
 * Portable.  All sizes and offsets are u64, so AUX buffers of 2 GiB and
 * more work (the in-tree driver keeps the page count in an int and
 * shifts it by PAGE_SHIFT).
 */
#ifndef SPE_AUX_WINDOW_H
#define SPE_AUX_WINDOW_H

#include <linux/types.h>

/* The buffer and the hardware's constraints. */
struct spe_aux_geom {
	u64 buf_size;		/* bytes, a multiple of page_size */
	u64 page_size;		/* PMBLIMITR.LIMIT granule */
	u32 align;		/* 2^PMBIDR.Align */
	u32 max_record;		/* 2^PMSIDR.MaxSize */
	bool snapshot;		/* overwrite mode */
};

/* The perf handle's free-running indices (struct perf_output_handle). */
struct spe_aux_pos {
	u64 head;
	u64 size;	/* bytes free after head (not used in snapshot) */
	u64 wakeup;	/* index at which user space wants a wakeup */
};

enum spe_aux_kind {
	SPE_AUX_PAD,	/* zero len bytes at head, advance, ask again */
	SPE_AUX_LIMIT,	/* program PMBPTR = head, PMBLIMITR = limit */
	SPE_AUX_FULL,	/* no room: zero len bytes, end truncated */
};

struct spe_aux_step {
	enum spe_aux_kind kind;
	u64 len;	/* PAD / FULL: bytes to zero from the head offset */
	u64 limit;	/* LIMIT: buffer offset of PMBLIMITR (page aligned) */
	u64 new_head;	/* snapshot PAD: head index after the pad */
};

u64 spe_aux_off(const struct spe_aux_geom *g, u64 idx);
void spe_aux_next(const struct spe_aux_geom *g, const struct spe_aux_pos *p,
		  struct spe_aux_step *step);

#endif /* SPE_AUX_WINDOW_H */
