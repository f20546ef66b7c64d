/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Rows found by a text key, for the views' tables (the cost table's rows,
 * the HTML report's data sources per symbol).  Rows of a fixed size live
 * in blocks of 1024 that never move, in order of first appearance, each
 * starting with its key (a const char *, in a string arena); the index is
 * open addressing on 64-bit words, the key's hash << 32 | row + 1, so a
 * probe reads a row only when the hashes are equal.  Memory grows with the
 * rows and their keys, not with the lookups.  Not a public header.
 */
#ifndef SPE_KEYED_ROWS_H
#define SPE_KEYED_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "str_arena.h"

#define SPE_KEYED_ROWS_SHIFT	10	/* rows per block: 1024 */

struct spe_keyed_rows {
	size_t row_size;
	char **blocks;
	size_t nr_blocks, cap_blocks;
	size_t used;			/* rows */
	uint64_t *index;
	size_t cap;
	struct spe_str_arena keys;
	size_t maxkey;			/* the longest key, with its NUL */
};

/* Rows of row_size bytes whose first member is their const char *key.
 * Returns 0 or SPE_ERR_NOMEM. */
int spe_keyed_rows_init(struct spe_keyed_rows *kr, size_t row_size);
void spe_keyed_rows_free(struct spe_keyed_rows *kr);

/*
 * The number of the row with this key; a new row, zeroed but for its key,
 * when there is none.  Returns SPE_ERR_NOMEM (negative) without memory or
 * past 2^32 - 2 rows, the table unchanged.
 */
long spe_keyed_rows_find(struct spe_keyed_rows *kr, const char *key);

static inline void *spe_keyed_rows_at(const struct spe_keyed_rows *kr, size_t i)
{
	return kr->blocks[i >> SPE_KEYED_ROWS_SHIFT] +
	       (i & ((1u << SPE_KEYED_ROWS_SHIFT) - 1)) * kr->row_size;
}

#endif /* SPE_KEYED_ROWS_H */
