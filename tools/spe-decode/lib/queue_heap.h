/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A binary min-heap of decode queues keyed by the timestamp of their next
 * record, which the session pops to merge the queues in time order.  It
 * behaves exactly like perf's auxtrace heap, ties included (a new item
 * stays below an equal parent; popping promotes the right child on a
 * tie), so that records with equal timestamps come out in perf's order.
 * The caller owns the array and sizes it for every queue.  Not a public
 * header.
 */
#ifndef SPE_QUEUE_HEAP_H
#define SPE_QUEUE_HEAP_H

#include <stdint.h>

struct spe_qheap_item {
	uint32_t qi;			/* the queue's index */
	uint64_t ord;			/* its key */
};

/* Adds queue @qi with key @ord to the @n items of @h. */
void spe_qheap_push(struct spe_qheap_item *h, uint32_t *n, uint32_t qi, uint64_t ord);
/* Removes h[0], the item with the smallest key; *n must not be 0. */
void spe_qheap_pop(struct spe_qheap_item *h, uint32_t *n);

#endif /* SPE_QUEUE_HEAP_H */
