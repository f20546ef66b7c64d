// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of a dso's symbol table (lib/symtab.c): the ends of unsized
 * symbols and the synthesised PLT entries, laid out as an AArch64 PIE has
 * them (.init with an unsized _init, .plt of a 32-byte header and 16-byte
 * entries, then .text).  Host perf 6.1's answers for such a file are
 * checked by suite 19; these are the same rules on a table built by hand.
 */
#include <gelf.h>
#include <stdio.h>
#include <string.h>

#include "../lib/symtab.h"
#include "tap.h"

/* The name at addr, "-" for none, and its offset in *off. */
static const char *at(struct spe_symtab *t, uint64_t addr, uint64_t *off)
{
	const struct spe_symtab_ent *e = spe_symtab_find(t, addr);

	*off = e ? addr - e->start : 0;
	return e ? e->name : "-";
}

static void check_at(struct spe_symtab *t, uint64_t addr, const char *name, uint64_t off,
		     const char *what)
{
	uint64_t got_off;
	const char *got = at(t, addr, &got_off);
	char msg[256];

	snprintf(msg, sizeof(msg), "%#llx: %s+%#llx (%s)", (unsigned long long)addr, name,
		 (unsigned long long)off, what);
	CHECK(!strcmp(got, name) && got_off == off, msg);
	if (strcmp(got, name) || got_off != off)
		fprintf(stderr, "# got %s+%#llx\n", got, (unsigned long long)got_off);
}

int main(void)
{
	struct spe_symtab t = { 0 };
	static const char *const plt[] = { "strlen@plt", "abort@plt", "puts@plt", "fgets@plt" };

	/* .init 0x660 (_init unsized), .plt 0x680..0x6e0, .text from 0x700 */
	CHECK(!spe_symtab_add(&t, 0x660, 0, "_init", STB_GLOBAL), "_init added");
	CHECK(!spe_symtab_add(&t, 0x700, 0x34, "_start", STB_GLOBAL), "_start added");
	CHECK(!spe_symtab_add(&t, 0x740, 0, "main", STB_GLOBAL), "main added");
	for (int i = 0; i < 4; i++)
		CHECK(!spe_symtab_add_plt(&t, 0x6a0 + 16 * (uint64_t)i, 16, plt[i], i == 0),
		      "a PLT entry added");
	/* A PLT entry at a symbol's address does not displace it. */
	CHECK(!spe_symtab_add_plt(&t, 0x740, 16, "clash@plt", true), "a clashing entry added");
	spe_symtab_finish(&t, false);

	check_at(&t, 0x664, "_init", 0x4, ".init");
	check_at(&t, 0x690, "_init", 0x30, "the table's header: _init's, its end the next function's");
	check_at(&t, 0x6a8, "_init", 0x48, "the first entry: _init's, as perf's lookup finds");
	check_at(&t, 0x6b0, "abort@plt", 0, "the second entry");
	check_at(&t, 0x6cc, "puts@plt", 0xc, "the third entry's last instruction");
	check_at(&t, 0x6d4, "fgets@plt", 0x4, "the last entry");
	check_at(&t, 0x6e0, "-", 0, "past the table: nobody's, as perf");
	check_at(&t, 0x6fc, "-", 0, "the padding before .text");
	check_at(&t, 0x704, "_start", 0x4, ".text");
	check_at(&t, 0x744, "main", 0x4, "a symbol and an entry at one address: the symbol");
	check_at(&t, 0x1fff, "main", 0x18bf, "the last unsized symbol runs to the end of its page + 1");
	spe_symtab_free(&t);

	/* No unsized symbol before the table: the first entry is its own. */
	CHECK(!spe_symtab_add(&t, 0x660, 0x18, "_init", STB_GLOBAL), "a sized _init added");
	CHECK(!spe_symtab_add_plt(&t, 0x6a0, 16, "strlen@plt", true), "one entry added");
	spe_symtab_finish(&t, false);
	check_at(&t, 0x6a4, "strlen@plt", 0x4, "the first entry, _init sized");
	check_at(&t, 0x690, "-", 0, "the header, _init sized: nobody's");
	spe_symtab_free(&t);
	return tap_done();
}
