// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * views/c2c.c: the entries of a shared line, one per (offset, ip), when hot
 * lines gather thousands of them and sixteen lines share the same offsets
 * and code.  Each access must land in its own line's entry for its offset
 * and ip, whatever index finds the entry.  The code has no symbols: by
 * default its entries are per (offset, 4 KiB page of the code), with
 * --unresolved address per (offset, ip).
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
	/* prog is mapped at 0x400000 - 0x1000 (its page 0x1000 at 0x400000) */
	a->sym = (struct spe_sym){ .dso = "prog", .name = "[unknown]",
				   .elf_addr = a->s.ip - 0x400000 + 0x1000 };
	a->vs = (struct spe_view_sample){ .s = &a->s, .sym = &a->sym };
}

/* Both of c2c's passes over accesses 0..n-1; whether every call succeeded. */
static bool run_passes(struct spe_c2c *c, unsigned n)
{
	struct access a;
	bool ok = true;

	for (unsigned k = 0; k < n; k++) {
		make_access(&a, k);
		ok &= !spe_c2c_scan(c, &a.vs);
	}
	ok &= !spe_c2c_select(c);
	for (unsigned k = 0; k < n; k++) {
		make_access(&a, k);
		ok &= !spe_c2c_detail(c, &a.vs);
	}
	return ok;
}

/*
 * By page: an offset's ips (ip % 64 == offset) fall in the code's pages
 * 0x1000-0x3fff (1024 ips each, 16 of them at each offset) and 0x4000
 * (128 ips, 2 at each offset): 4 entries per offset, named by their page.
 */
static void by_page(void)
{
	const unsigned n = NR_LINES * NR_IPS * PASSES_PER_IP;
	struct spe_c2c_line_view *lines = NULL;
	struct spe_c2c_entry_view *entries = NULL;
	struct spe_c2c *c;
	long nl;
	int ok_pass = 1, bad = 0;
	char why[160], name[64];

	if (spe_c2c_new(&c, false)) {
		CHECK(0, "by page: a table");
		return;
	}
	ok_pass &= run_passes(c, n);
	nl = spe_c2c_lines(c, SPE_C2C_COST, 0, &lines, &entries);
	for (long i = 0; i < nl; i++) {
		const struct spe_c2c_line_view *l = &lines[i];

		bad += l->nr_entries != 64 * 4 || l->loads != NR_IPS || l->stores != NR_IPS;
		for (size_t j = 0; j < l->nr_entries; j++) {
			const struct spe_c2c_entry_view *e = &entries[l->first_entry + j];
			uint64_t want = e->ip == 0x4000 ? 2 : 16;

			snprintf(name, sizeof(name), "unknown-page@prog+0x%llx",
				 (unsigned long long)e->ip);
			bad += e->ip < 0x1000 || e->ip > 0x4000 || e->ip % 4096 ||
			       e->loads != want || e->stores != want || strcmp(e->sym, name) ||
			       e->srcline;
		}
	}
	snprintf(why, sizeof(why), "by page (the default): %d ips at each line's 64 offsets make 4 entries per offset, one per page (%ld lines, %d wrong)",
		 NR_IPS, nl, bad);
	CHECK(ok_pass && nl == NR_LINES && !bad, why);
	free(lines);
	free(entries);
	spe_c2c_free(c);
}

int main(void)
{
	const unsigned n = NR_LINES * NR_IPS * PASSES_PER_IP;
	struct spe_c2c_line_view *lines = NULL;
	struct spe_c2c_entry_view *entries = NULL;
	struct spe_c2c *c;
	static unsigned char seen[NR_IPS];
	long nl;
	int ok_pass = 1, bad_entries = 0, dup = 0;

	if (spe_c2c_new(&c, false))
		return 1;
	spe_c2c_set_unresolved(c, SPE_VIEW_UNRESOLVED_ADDRESS);
	ok_pass &= run_passes(c, n);
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
	by_page();
	return tap_done();
}
