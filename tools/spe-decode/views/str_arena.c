// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A string arena (str_arena.h). */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "str_arena.h"

#define CHUNK	65536

const char *spe_str_arena_copy(struct spe_str_arena *a, const char *s, size_t len)
{
	char *p;

	if (len > a->left) {
		/* A string longer than a chunk gets a chunk its size. */
		size_t size = len > CHUNK ? len : CHUNK;

		if (SPE_GROW(a->chunks, a->cap_chunks, a->nr_chunks, 16) ||
		    !(a->chunks[a->nr_chunks] = malloc(size ? size : 1)))
			return NULL;
		a->next = a->chunks[a->nr_chunks++];
		a->left = size;
	}
	p = a->next;
	memcpy(p, s, len);
	a->next += len;
	a->left -= len;
	return p;
}

void spe_str_arena_free(struct spe_str_arena *a)
{
	for (size_t i = 0; i < a->nr_chunks; i++)
		free(a->chunks[i]);
	free(a->chunks);
	*a = (struct spe_str_arena){ 0 };
}
