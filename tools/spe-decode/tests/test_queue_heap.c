// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib/queue_heap.h: the queues' time-order heap.  Its tie order is
 * perf's, which suite 21 checks against perf itself; here, the heap rules.
 */
#include <stdlib.h>

#include "../lib/queue_heap.h"
#include "tap.h"

int main(void)
{
	static struct spe_qheap_item h[4096];
	uint64_t prev = 0, seen = 0;
	uint32_t n = 0;
	int ordered = 1;

	srand(7);
	for (uint32_t i = 0; i < 4096; i++)
		spe_qheap_push(h, &n, i, (uint64_t)(rand() % 500));
	CHECK(n == 4096, "every push adds one item");
	while (n) {
		ordered &= h[0].ord >= prev;
		prev = h[0].ord;
		seen ^= h[0].qi;
		spe_qheap_pop(h, &n);
	}
	/* XOR of 0..4095 is 0: each queue came out once (with the order). */
	CHECK(ordered && !seen, "4096 queues pop in ascending key order, each once");

	spe_qheap_push(h, &n, 1, 10);
	spe_qheap_push(h, &n, 2, 5);
	spe_qheap_pop(h, &n);
	spe_qheap_push(h, &n, 3, 7);
	CHECK(n == 2 && h[0].qi == 3 && h[0].ord == 7,
	      "a queue pushed back with a smaller key than the rest is next");
	spe_qheap_pop(h, &n);
	CHECK(n == 1 && h[0].qi == 1, "and the remaining one follows");
	spe_qheap_pop(h, &n);
	CHECK(n == 0, "popping the last item empties the heap");
	return tap_done();
}
