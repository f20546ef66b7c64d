/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Strings kept until the end, copied into 64 KiB chunks that never move:
 * no allocation and no malloc header per string (the views' row keys).
 */
#ifndef SPE_STR_ARENA_H
#define SPE_STR_ARENA_H

#include <stddef.h>

struct spe_str_arena {
	char **chunks;
	size_t nr_chunks, cap_chunks;
	char *next;			/* where the next string goes */
	size_t left;			/* bytes from next to the chunk's end */
};

/* A copy of the len bytes at s (len counts the NUL if the caller wants
 * one); NULL without memory. */
const char *spe_str_arena_copy(struct spe_str_arena *a, const char *s, size_t len);
void spe_str_arena_free(struct spe_str_arena *a);

#endif /* SPE_STR_ARENA_H */
