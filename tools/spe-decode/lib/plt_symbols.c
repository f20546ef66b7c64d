// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * "NAME@plt" symbols for the entries of a dynamically linked file's
 * procedure linkage table, which no symbol table names.  perf makes them
 * (symbol-elf.c, dso__synthesize_plt_symbols, as of perf 6.1), so a sample
 * in a PLT stub prints "fgets@plt+0x8" rather than the label before the
 * table ("_init+0x46c").  Its rules, followed here:
 *   - the relocations are .rela.plt (else .rel.plt), whose sh_link must
 *     be the .dynsym section; the table is the section named .plt;
 *   - the table starts with a header, then one entry per relocation, in
 *     the relocations' order; header and entry sizes by machine (AArch64
 *     32 and 16 bytes, Arm 20 and 12, SPARC 48 and 12, SPARC V9 128 and
 *     32; others: .plt's sh_entsize for both);
 *   - an entry is named after the .dynsym symbol of its relocation,
 *     demangled as the other symbols are, with "@plt" appended.
 * The ELF gABI (relocation and symbol table entries) and the AArch64 ELF
 * ABI (IHI 0056, "Procedure Linkage Table") describe the layout.
 */
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"
#include "symtab.h"

#ifndef EM_SPARCV9
#define EM_SPARCV9 43
#endif

/* The section named name, its header in *sh and its index in *idx. */
static Elf_Scn *section(Elf *e, size_t shstrndx, const char *name, GElf_Shdr *sh, size_t *idx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(e, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

static void plt_sizes(unsigned machine, const GElf_Shdr *plt, uint64_t *header, uint64_t *entry)
{
	switch (machine) {
	case EM_AARCH64:
		*header = 32;
		*entry = 16;
		break;
	case EM_ARM:
		*header = 20;
		*entry = 12;
		break;
	case EM_SPARC:
		*header = 48;
		*entry = 12;
		break;
	case EM_SPARCV9:
		*header = 128;
		*entry = 32;
		break;
	default:
		*header = *entry = plt->sh_entsize;
		break;
	}
}

/* The name of relocation i's symbol, or NULL once the relocations end. */
static const char *reloc_name(Elf *e, Elf_Data *rel, bool rela, int i, Elf_Data *dynsym,
			      size_t strndx)
{
	GElf_Rela ra;
	GElf_Rel r;
	GElf_Sym sym;
	uint64_t info;
	const char *name;

	if (rela) {
		if (!gelf_getrela(rel, i, &ra))
			return NULL;
		info = ra.r_info;
	} else {
		if (!gelf_getrel(rel, i, &r))
			return NULL;
		info = r.r_info;
	}
	/* A symbol index or name out of range names nothing: "@plt". */
	if (!gelf_getsym(dynsym, (int)GELF_R_SYM(info), &sym))
		return "";
	name = elf_strptr(e, strndx, sym.st_name);
	return name ? name : "";
}

int spe_plt_symbols(struct spe_symtab *t, Elf *e, bool demangle)
{
	GElf_Ehdr eh;
	GElf_Shdr dsh, rsh, psh;
	Elf_Scn *dyn, *rel;
	Elf_Data *rdata, *ddata;
	size_t shstrndx, dynidx = 0, nr;
	uint64_t header, entry, addr;
	bool rela = true;

	if (!gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx))
		return 0;
	dyn = section(e, shstrndx, ".dynsym", &dsh, &dynidx);
	if (!dyn || dsh.sh_type != SHT_DYNSYM)
		return 0;
	rel = section(e, shstrndx, ".rela.plt", &rsh, NULL);
	if (!rel) {
		rel = section(e, shstrndx, ".rel.plt", &rsh, NULL);
		rela = false;
	}
	/* A debug file's copy has the sections but not their bits. */
	if (!rel || rsh.sh_link != dynidx || !rsh.sh_entsize || rsh.sh_type == SHT_NOBITS ||
	    !section(e, shstrndx, ".plt", &psh, NULL))
		return 0;
	if (rsh.sh_type == SHT_RELA)
		rela = true;
	else if (rsh.sh_type == SHT_REL)
		rela = false;
	else
		return 0;
	rdata = elf_getdata(rel, NULL);
	ddata = elf_getdata(dyn, NULL);
	if (!rdata || !ddata)
		return 0;
	plt_sizes(eh.e_machine, &psh, &header, &entry);
	if (!entry)
		return 0;
	nr = rsh.sh_size / rsh.sh_entsize;
	addr = psh.sh_addr + header;
	for (size_t i = 0; i < nr && i < INT32_MAX; i++, addr += entry) {
		const char *name = reloc_name(e, rdata, rela, (int)i, ddata, dsh.sh_link);
		char *dm, *full;
		int err;

		if (!name)
			break;		/* the section's data is shorter than its size */
		dm = demangle && name[0] ? spe_demangle(name) : NULL;
		if (asprintf(&full, "%s@plt", dm ? dm : name) < 0) {
			free(dm);
			return SPE_ERR_NOMEM;
		}
		free(dm);
		err = spe_symtab_add_plt(t, addr, entry, full, i == 0);
		free(full);
		if (err)
			return err;
	}
	return 0;
}
