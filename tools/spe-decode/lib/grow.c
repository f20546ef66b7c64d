// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Growable arrays (grow.h).  Doubling keeps appending n elements O(n)
 * overall; the checks keep ncap * elem from wrapping.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "spe_decode.h"

int spe_grow(void *arrp, size_t *cap, size_t nr, size_t elem, size_t first, size_t max)
{
	void *arr, *n;
	size_t ncap;

	if (nr < *cap)
		return 0;
	if (*cap > SIZE_MAX / 2)
		return SPE_ERR_NOMEM;
	ncap = *cap ? *cap * 2 : first;
	if (ncap > max)
		ncap = max;
	if (ncap <= nr || ncap > SIZE_MAX / elem)
		return SPE_ERR_NOMEM;
	/* The caller's pointer is a T *, read and written as its bytes. */
	memcpy(&arr, arrp, sizeof(arr));
	n = realloc(arr, ncap * elem);
	if (!n)
		return SPE_ERR_NOMEM;
	memcpy(arrp, &n, sizeof(n));
	*cap = ncap;
	return 0;
}
