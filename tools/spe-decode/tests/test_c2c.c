// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib/c2c.c: the entries of a shared line, one per (offset, ip), when hot
 * lines gather thousands of them and sixteen lines share the same offsets
 * and code.  Each access must land in its own line's entry for its offset
 * and ip, whatever index finds the entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe/packet.h"
#include "spe_decode.h"
#include "spe_session.h"
#include "spe_sample_synth.h"
#include "spe_symbols.h"
#include "spe_views.h"
#include "tap.h"

enum { NR_IPS = 3200, NR_LINES = 16, PASSES_PER_IP = 2 };

struct access {
	struct spe_record rec;
	struct spe_qrecord qr;
	struct spe_sample s;
	struct spe_sym sym;
	struct spe_view_sample vs;
};

/* Access k: line k % NR_LINES, ip k / NR_LINES % NR_IPS, offset from the
 * ip; a store on CPU 0 on the first pass, a load on CPU 1 on the second. */
static void make_access(struct access *a, unsigned k)
{
	unsigned line = k % NR_LINES, ip = k / NR_LINES % NR_IPS;
	bool store = k / (NR_LINES * NR_IPS) == 0;

	memset(a, 0, sizeof(*a));
	a->rec.present = SPE_REC_OP_TYPE | SPE_REC_DATA_VA;
	a->rec.op_class = SPE_OP_CLASS_LDST;
	a->rec.op_subclass = store ? SPE_OP_LDST_ST : 0;
	a->rec.data_va = 0x10000 + line * 64 + ip % 64;
	a->qr = (struct spe_qrecord){ .rec = &a->rec, .cpu = store ? 0 : 1, .pid = 7, .tid = 7,
				      .seq = k + 1 };
	a->s = (struct spe_sample){ .kind = SPE_S_INSTRUCTIONS, .cpu = a->qr.cpu, .pid = 7,
				    .tid = 7, .ip = 0x400000 + 4 * ip, .addr = a->rec.data_va,
				    .period = 1, .qr = &a->qr };
	a->sym = (struct spe_sym){ .dso = "prog", .name = "[unknown]" };
	a->vs = (struct spe_view_sample){ .s = &a->s, .sym = &a->sym };
}

int main(void)
{
	const unsigned n = NR_LINES * NR_IPS * PASSES_PER_IP;
	struct spe_c2c_line_view *lines = NULL;
	struct spe_c2c_entry_view *entries = NULL;
	struct spe_c2c *c;
	struct access a;
	static unsigned char seen[NR_IPS];
	long nl;
	int ok_pass = 1, bad_entries = 0, dup = 0;

	if (spe_c2c_new(&c, false))
		return 1;
	for (unsigned k = 0; k < n; k++) {
		make_access(&a, k);
		ok_pass &= !spe_c2c_scan(c, &a.vs);
	}
	ok_pass &= !spe_c2c_select(c);
	for (unsigned k = 0; k < n; k++) {
		make_access(&a, k);
		ok_pass &= !spe_c2c_detail(c, &a.vs);
	}
	CHECK(ok_pass, "two passes over 102400 accesses");

	nl = spe_c2c_lines(c, SPE_C2C_COST, 0, &lines, &entries);
	CHECK_EQ(nl, NR_LINES, "every line is shared (two CPUs, stores)");
	for (long i = 0; i < nl; i++) {
		const struct spe_c2c_line_view *l = &lines[i];

		if (l->nr_entries != NR_IPS || l->loads != NR_IPS || l->stores != NR_IPS)
			bad_entries++;
		for (size_t j = 0; j < l->nr_entries; j++) {
			const struct spe_c2c_entry_view *e = &entries[l->first_entry + j];

			if (e->loads != 1 || e->stores != 1 ||
			    e->offset != (e->ip - 0x400000) / 4 % 64)
				bad_entries++;
			/* The offset is the ip's: one entry per ip. */
			if (e->ip >= 0x400000 && (e->ip - 0x400000) / 4 < NR_IPS)
				dup += seen[(e->ip - 0x400000) / 4]++ != 0;
		}
		memset(seen, 0, sizeof(seen));
	}
	CHECK(nl == NR_LINES && !bad_entries,
	      "each line has one entry per (offset, ip), with its one load and one store");
	CHECK(!dup, "no (offset, ip) has two entries in a line");
	free(lines);
	free(entries);
	spe_c2c_free(c);
	return tap_done();
}
