/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The library's growable arrays: one routine makes room for the next
 * element, doubling the capacity, so that no layer writes its own
 * realloc() loop.
 */
#ifndef SPE_GROW_H
#define SPE_GROW_H

#include <stddef.h>
#include <stdint.h>

/*
 * Room for element nr of the array *arrp (a T ** as void *) that holds
 * *cap elements of elem bytes: when nr == *cap it is reallocated to twice
 * *cap (first when empty), but never past max elements.  Returns 0, or
 * SPE_ERR_NOMEM with the array and *cap unchanged (out of memory, or max
 * reached).
 */
int spe_grow(void *arrp, size_t *cap, size_t nr, size_t elem, size_t first, size_t max);

/* spe_grow() for an array pointer arr with its size_t capacity cap. */
#define SPE_GROW(arr, cap, nr, first)	\
	spe_grow(&(arr), &(cap), (nr), sizeof(*(arr)), (first), SIZE_MAX)
#define SPE_GROW_MAX(arr, cap, nr, first, max)	\
	spe_grow(&(arr), &(cap), (nr), sizeof(*(arr)), (first), (max))

#endif /* SPE_GROW_H */
