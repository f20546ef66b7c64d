// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target for the golden-vector encoder (a text parser other
 * tools reuse).  Invariants: encoding never writes past the buffer, the
 * size returned does not depend on the buffer size, and the bytes written
 * into a small buffer are a prefix of those written into a large one.
 */
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"
#include "spe_vector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t big[1 << 20], small[64];
	const char *text = (const char *)data;
	long a, b;

	a = spe_vec_encode(text, size, big, sizeof(big), NULL, NULL);
	b = spe_vec_encode(text, size, small, sizeof(small), NULL, NULL);
	if (a != b)
		abort();
	if (a > 0 && memcmp(big, small, (size_t)a < sizeof(small) ? (size_t)a : sizeof(small)))
		abort();
	return 0;
}
