// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The queues' time-order heap (queue_heap.h). */
#include "queue_heap.h"

static void heap_place(struct spe_qheap_item *h, uint32_t pos, uint32_t qi, uint64_t ord)
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

void spe_qheap_push(struct spe_qheap_item *h, uint32_t *n, uint32_t qi, uint64_t ord)
{
	heap_place(h, (*n)++, qi, ord);
}

void spe_qheap_pop(struct spe_qheap_item *h, uint32_t *n)
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
	heap_place(h, pos, h[cnt - 1].qi, h[cnt - 1].ord);
}
