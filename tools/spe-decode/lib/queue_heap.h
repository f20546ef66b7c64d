/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A binary min-heap of decode queues keyed by the timestamp of their next
 * record, which the session pops to merge the queues in time order.  It
 * behaves exactly like perf's auxtrace heap, ties included (a new item
 * stays below an equal parent; popping promotes the right child on a
 * tie), so that records with equal timestamps come out in perf's order.
 * The caller owns the array and sizes it for every queue.  Inline: the
 * queues pop and push it about once per record they merge.  Not a public
 * header.
 */
#ifndef SPE_QUEUE_HEAP_H
#define SPE_QUEUE_HEAP_H

#include <stdint.h>

struct spe_qheap_item {
	uint32_t qi;			/* the queue's index */
	uint64_t ord;			/* its key */
};

static inline void spe_qheap_place(struct spe_qheap_item *h, uint32_t pos, uint32_t qi,
				   uint64_t ord)
{
	while (pos) {
		uint32_t parent = (pos - 1) >> 1;

		if (h[parent].ord <= ord)
			break;
		h[pos] = h[parent];
		pos = parent;
	}
	h[pos].qi = qi;
	h[pos].ord = ord;
}

/* Adds queue @qi with key @ord to the @n items of @h. */
static inline void spe_qheap_push(struct spe_qheap_item *h, uint32_t *n, uint32_t qi,
				  uint64_t ord)
{
	spe_qheap_place(h, (*n)++, qi, ord);
}

/* Removes h[0], the item with the smallest key; *n must not be 0. */
static inline void spe_qheap_pop(struct spe_qheap_item *h, uint32_t *n)
{
	uint32_t cnt = *n, pos = 0;

	--*n;
	for (;;) {
		uint32_t left = (pos << 1) + 1, right = left + 1;

		if (left >= cnt)
			break;
		if (right >= cnt) {
			h[pos] = h[left];
			return;
		}
		if (h[left].ord < h[right].ord) {
			h[pos] = h[left];
			pos = left;
		} else {
			h[pos] = h[right];
			pos = right;
		}
	}
	spe_qheap_place(h, pos, h[cnt - 1].qi, h[cnt - 1].ord);
}

#endif /* SPE_QUEUE_HEAP_H */
