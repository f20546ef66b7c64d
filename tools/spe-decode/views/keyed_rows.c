// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Rows found by a text key (keyed_rows.h). */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "key_text.h"
#include "keyed_rows.h"
#include "spe_decode.h"

#define BLOCK	(1u << SPE_KEYED_ROWS_SHIFT)

int spe_keyed_rows_init(struct spe_keyed_rows *kr, size_t row_size)
{
	*kr = (struct spe_keyed_rows){ .row_size = row_size, .cap = 256 };
	kr->index = calloc(kr->cap, sizeof(*kr->index));
	return kr->index ? 0 : SPE_ERR_NOMEM;
}

void spe_keyed_rows_free(struct spe_keyed_rows *kr)
{
	for (size_t i = 0; i < kr->nr_blocks; i++)
		free(kr->blocks[i]);
	free(kr->blocks);
	free(kr->index);
	spe_str_arena_free(&kr->keys);
	*kr = (struct spe_keyed_rows){ 0 };
}

static const char *key_of(const struct spe_keyed_rows *kr, uint64_t slot)
{
	return *(const char *const *)spe_keyed_rows_at(kr, (uint32_t)slot - 1);
}

/* The slot of key (hash h): its row's, or the empty one to take.  key
 * NULL: the first empty slot (rehashing, where keys are distinct). */
static size_t slot(const struct spe_keyed_rows *kr, const uint64_t *index, size_t cap,
		   uint32_t h, const char *key)
{
	size_t i = h & (cap - 1);

	while (index[i]) {
		if (key && index[i] >> 32 == h && !strcmp(key_of(kr, index[i]), key))
			break;
		i = (i + 1) & (cap - 1);
	}
	return i;
}

static int grow_index(struct spe_keyed_rows *kr)
{
	size_t ncap = kr->cap * 2;
	uint64_t *n = calloc(ncap, sizeof(*n));

	if (!n)
		return SPE_ERR_NOMEM;
	for (size_t i = 0; i < kr->cap; i++)
		if (kr->index[i])
			n[slot(kr, n, ncap, (uint32_t)(kr->index[i] >> 32), NULL)] = kr->index[i];
	free(kr->index);
	kr->index = n;
	kr->cap = ncap;
	return 0;
}

long spe_keyed_rows_find(struct spe_keyed_rows *kr, const char *key)
{
	uint64_t h64 = spe_key_hash(key, SPE_KEY_HASH_SEED);
	uint32_t h = (uint32_t)(h64 ^ h64 >> 32);
	size_t i, len;
	const char *k;
	char *row;

	if ((kr->used + 1) * 2 > kr->cap && grow_index(kr))
		return SPE_ERR_NOMEM;
	i = slot(kr, kr->index, kr->cap, h, key);
	if (kr->index[i])
		return (long)((uint32_t)kr->index[i] - 1);
	if (kr->used >= UINT32_MAX - 1)
		return SPE_ERR_NOMEM;
	if (kr->used == kr->nr_blocks * BLOCK) {
		if (SPE_GROW(kr->blocks, kr->cap_blocks, kr->nr_blocks, 16) ||
		    !(kr->blocks[kr->nr_blocks] = malloc(BLOCK * kr->row_size)))
			return SPE_ERR_NOMEM;
		kr->nr_blocks++;
	}
	len = strlen(key) + 1;
	if (!(k = spe_str_arena_copy(&kr->keys, key, len)))
		return SPE_ERR_NOMEM;
	row = spe_keyed_rows_at(kr, kr->used);
	memset(row, 0, kr->row_size);
	memcpy(row, &k, sizeof(k));
	kr->index[i] = (uint64_t)h << 32 | (uint32_t)++kr->used;
	if (len > kr->maxkey)
		kr->maxkey = len;
	return (long)kr->used - 1;
}
