// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* lib/tid_map.c: thread id -> process id, as COMM/FORK/EXIT records set it. */
#include "../lib/tid_map.h"
#include "tap.h"

int main(void)
{
	struct spe_tid_map m = { 0 };
	uint32_t gen;
	int ok = 1;

	CHECK(spe_tid_map_pid(&m, 5) == -1, "an empty map knows no thread");
	CHECK(!spe_tid_map_set(&m, 0, 0), "tid 0 (the idle task) can be stored");
	CHECK(spe_tid_map_pid(&m, 0) == 0, "and is found, not taken for an empty slot");
	CHECK(spe_tid_map_pid(&m, -1) == -1, "a negative tid (no CONTEXT) is unknown");
	gen = m.gen;
	spe_tid_map_set(&m, 100, 90);
	spe_tid_map_set(&m, 100, 91);
	CHECK(spe_tid_map_pid(&m, 100) == 91 && m.gen == gen + 2,
	      "a tid set again takes the new pid; every update changes gen");
	/* Far past the first table (256 slots, grown at half full). */
	for (uint32_t t = 1000; t < 6000; t++)
		ok &= !spe_tid_map_set(&m, t, (int32_t)(t / 10));
	for (uint32_t t = 1000; t < 6000; t++)
		ok &= spe_tid_map_pid(&m, (int32_t)t) == (int32_t)(t / 10);
	CHECK(ok && spe_tid_map_pid(&m, 100) == 91 && spe_tid_map_pid(&m, 0) == 0,
	      "5000 threads: every pid survives the growth, old entries too");
	CHECK(m.used * 2 <= m.cap, "the table stays at most half full");
	CHECK(spe_tid_map_pid(&m, 999) == -1 && spe_tid_map_pid(&m, 6000) == -1,
	      "a tid never set is still unknown");
	spe_tid_map_free(&m);
	CHECK(!m.cap && spe_tid_map_pid(&m, 100) == -1, "a freed map is empty");
	return tap_done();
}
