// SPDX-License-Identifier: GPL-2.0
/*
 * pcsample-record's AUX walk over buffers of records packed by the
 * driver's own pcs_record_pack(): order, wrap-around at the buffer's end,
 * slots that are not records, a trailing partial record, bad arguments.
 */
#include <string.h>

#include "pcsample_aux.h"
#include "tap.h"

#define SIZE 256	/* 8 records */

static uint64_t seen[16];
static int nseen;

static void collect(const struct pcs_record *r, void *arg)
{
	(void)arg;
	if (nseen < 16)
		seen[nseen++] = r->s.ip;
}

static void put(uint8_t *aux, uint64_t pos, uint64_t ip)
{
	struct pcs_record r = { .time = ip * 10, .cpu = 3,
				.s = { .ip = ip, .pid = 9, .el = 0, .mode = PCS_MODE_USER } };

	pcs_record_pack(&r, aux + (pos & (SIZE - 1)));
}

int main(void)
{
	uint8_t aux[SIZE];
	struct pcs_aux_walk w;

	memset(aux, 0, sizeof(aux));
	put(aux, 0, 0x100);
	put(aux, 32, 0x200);
	nseen = 0;
	CHECK_EQ(pcs_aux_walk(aux, SIZE, 0, 64, collect, NULL, &w), 0, "a walk of two records");
	CHECK(w.records == 2 && nseen == 2 && seen[0] == 0x100 && seen[1] == 0x200,
	      "both records, in buffer order");

	/* Six records from position 192: three before the end, three after. */
	memset(aux, 0, sizeof(aux));
	for (int i = 0; i < 6; i++)
		put(aux, 192 + 32 * i, 0x1000 + i);
	nseen = 0;
	pcs_aux_walk(aux, SIZE, 192, 192 + 6 * 32, collect, NULL, &w);
	CHECK(w.records == 6 && seen[1] == 0x1001 && seen[2] == 0x1002 && seen[5] == 0x1005,
	      "the walk wraps at the end of the buffer, in order");

	memset(aux + 32, 0xab, 32);
	nseen = 0;
	pcs_aux_walk(aux, SIZE, 192, 192 + 6 * 32, collect, NULL, &w);
	CHECK(w.records == 5 && w.bad == 1 && seen[3] == 0x1004,
	      "a slot without the magic is counted bad and skipped, the next still read");

	nseen = 0;
	pcs_aux_walk(aux, SIZE, 0, 40, collect, NULL, &w);
	CHECK_EQ(w.partial, 8, "8 bytes short of a record are reported, not read");

	CHECK_EQ(pcs_aux_walk(aux, 96, 0, 32, collect, NULL, &w), -1,
		 "a buffer size that is not a power of two is refused");
	CHECK_EQ(pcs_aux_walk(aux, SIZE, 0, SIZE + 32, collect, NULL, &w), -1,
		 "a range longer than the buffer is refused");
	CHECK_EQ(pcs_aux_walk(aux, SIZE, 64, 32, collect, NULL, &w), -1,
		 "a range that ends before it starts is refused");
	nseen = 0;
	CHECK(pcs_aux_walk(aux, SIZE, 100, 100, collect, NULL, &w) == 0 && w.records == 0 &&
	      nseen == 0, "an empty range walks nothing");

	CHECK(!strcmp(pcs_mode_name(PCS_MODE_GUEST_KERNEL), "guest-kernel") &&
	      !strcmp(pcs_mode_name(7), "?"), "mode names, and \"?\" for an unknown mode");
	return tap_done();
}
