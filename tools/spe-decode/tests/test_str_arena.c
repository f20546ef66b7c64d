// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * views/str_arena.c: the views' string arena.  Every copy keeps its text
 * while thousands more are added across chunks, a string longer than a
 * chunk gets one of its own, and copies never overlap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../views/str_arena.h"
#include "tap.h"

int main(void)
{
	enum { N = 20000 };
	struct spe_str_arena a = { 0 };
	const char **got = malloc(N * sizeof(*got));
	char buf[64], *big = malloc(200000);
	const char *b, *after;
	int ok = 1;

	if (!got || !big)
		return 1;
	for (int i = 0; i < N && ok; i++) {
		int n = snprintf(buf, sizeof(buf), "[.] 0x%016x key %d", i * 7919, i);

		got[i] = spe_str_arena_copy(&a, buf, (size_t)n + 1);
		ok = got[i] != NULL;
	}
	CHECK(ok, "20000 keys are copied");
	for (int i = 0; i < N && ok; i++) {
		snprintf(buf, sizeof(buf), "[.] 0x%016x key %d", i * 7919, i);
		ok = !strcmp(got[i], buf);
	}
	CHECK(ok, "every copy keeps its text after the others (over several chunks)");
	CHECK(a.nr_chunks > 1, "the keys span more than one chunk");

	memset(big, 'x', 199999);
	big[199999] = 0;
	b = spe_str_arena_copy(&a, big, 200000);
	after = spe_str_arena_copy(&a, "after", 6);
	CHECK(b && strlen(b) == 199999 && b[0] == 'x', "a string longer than a chunk is copied whole");
	CHECK(after && !strcmp(after, "after") && strlen(b) == 199999,
	      "the next copy does not overwrite it");
	CHECK(!strcmp(got[0], "[.] 0x0000000000000000 key 0") && !strcmp(got[N - 1], buf),
	      "earlier copies survive the big one");
	spe_str_arena_free(&a);
	CHECK(a.nr_chunks == 0 && a.chunks == NULL && a.left == 0, "freed, the arena is empty again");
	free(got);
	free(big);
	return tap_done();
}
