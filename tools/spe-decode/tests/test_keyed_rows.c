// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * views/keyed_rows.c: the views' rows by text key.  A key finds the same row
 * however many rows are added after it (across blocks and index growth), a
 * new row is zeroed but for its key, rows keep the order of first
 * appearance, and colliding keys that share a prefix stay apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../views/keyed_rows.h"
#include "tap.h"

struct row {
	const char *key;
	unsigned long count;
	char pad[40];
};

int main(void)
{
	enum { N = 5000 };
	struct spe_keyed_rows kr;
	char buf[64];
	int ok = 1, zeroed = 1;

	CHECK(spe_keyed_rows_init(&kr, sizeof(struct row)) == 0, "a table of 64-byte rows");
	for (int i = 0; i < N && ok; i++) {
		long r;

		snprintf(buf, sizeof(buf), "[.] 0x%016x\x1f" "dso%d", i * 7919, i % 7);
		r = spe_keyed_rows_find(&kr, buf);
		ok = r == i;
		if (ok) {
			struct row *row = spe_keyed_rows_at(&kr, (size_t)r);

			zeroed &= row->count == 0 && row->pad[39] == 0 && !strcmp(row->key, buf);
			row->count = (unsigned long)i + 1;
		}
	}
	CHECK(ok, "5000 new keys get rows 0 to 4999, in order of first appearance");
	CHECK(zeroed, "a new row is zeroed but for its key");
	CHECK(kr.nr_blocks == 5 && kr.used == N, "the rows span five blocks of 1024");
	for (int i = N - 1; i >= 0 && ok; i--) {
		long r;

		snprintf(buf, sizeof(buf), "[.] 0x%016x\x1f" "dso%d", i * 7919, i % 7);
		r = spe_keyed_rows_find(&kr, buf);
		ok = r == i && ((struct row *)spe_keyed_rows_at(&kr, (size_t)r))->count ==
			       (unsigned long)i + 1;
	}
	CHECK(ok && kr.used == N, "every key finds its own row again after the index grew");
	CHECK(spe_keyed_rows_find(&kr, "[.] 0x0000000000000000") == N &&
	      spe_keyed_rows_find(&kr, "[.] 0x0000000000000000\x1f" "dso0") == 0,
	      "a key that is a prefix of another gets a row of its own");
	CHECK(kr.maxkey == strlen("[.] 0x0000000000000000\x1f" "dso0") + 1,
	      "the longest key's length is kept, with its NUL");
	spe_keyed_rows_free(&kr);
	CHECK(kr.used == 0 && kr.blocks == NULL && kr.index == NULL, "freed, the table is empty");
	return tap_done();
}
