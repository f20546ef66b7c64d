// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* lib/grow.c: the library's growable arrays. */
#include <stdint.h>
#include <stdlib.h>

#include "../lib/grow.h"
#include "spe_decode.h"
#include "tap.h"

int main(void)
{
	uint32_t *a = NULL, *kept;
	size_t cap = 0, nr = 0;
	int ok = 1;

	CHECK(SPE_GROW(a, cap, nr, 4) == 0 && a && cap == 4, "an empty array gets the first capacity");
	for (nr = 0; nr < 4; nr++)
		a[nr] = (uint32_t)nr * 7;
	CHECK(SPE_GROW(a, cap, 3, 4) == 0 && cap == 4, "no reallocation while there is room");
	CHECK(SPE_GROW(a, cap, nr, 4) == 0 && cap == 8, "a full array doubles");
	for (uint32_t i = 0; i < 4; i++)
		ok &= a[i] == i * 7;
	CHECK(ok, "the elements survive the reallocation");

	kept = a;
	CHECK(SPE_GROW_MAX(a, cap, 8, 4, 8) == SPE_ERR_NOMEM && a == kept && cap == 8,
	      "at its maximum the array is refused and left as it was");
	CHECK(SPE_GROW_MAX(a, cap, 8, 4, 12) == 0 && cap == 12,
	      "the last doubling stops at the maximum");
	kept = a;
	cap = SIZE_MAX / 2 + 1;
	CHECK(spe_grow(&a, &cap, cap, sizeof(*a), 4, SIZE_MAX) == SPE_ERR_NOMEM &&
	      cap == SIZE_MAX / 2 + 1 && a == kept,
	      "a capacity whose size would wrap is refused");
	free(a);
	return tap_done();
}
