/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internal to the symboliser (symbols.c): the sorted function and object
 * symbols of one dso (symtab.c), their loading from ELF files through
 * libdwfl (dso_load.c) and name demangling (demangle.c).
 */
#ifndef SPE_SYMTAB_H
#define SPE_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spe_symtab_ent {
	uint64_t start, end;		/* [start, end) once finished */
	const char *name;		/* into the table's pool once finished */
	uint8_t binding;		/* STB_*, to choose among aliases */
	bool module;			/* kallsyms: "[module]" follows the name */
	bool plt;			/* a synthesised NAME@plt entry */
	bool plt_first;			/* ... the first of its table */
};

/* A file offset range of a PT_LOAD segment and its ELF address. */
struct spe_symtab_seg {
	uint64_t offset, vaddr, filesz;
};

struct spe_symtab {
	struct spe_symtab_ent *syms;
	size_t nr, cap;
	char *pool;
	size_t pool_len, pool_cap;
	struct spe_symtab_seg *segs;
	size_t nr_segs;
	char *dwarf_file;		/* the debug file used, else the file; or NULL */
	struct spe_symtab_hit *hits;	/* recent lookups, for big tables */
	size_t nr_hits;			/* a power of 2 */
};

struct spe_symtab_hit {
	uint64_t addr;
	uint32_t idx;			/* + 1; 0: no symbol; the slot is unused
					 * when addr is 0 and idx 0 */
};

/* Appends a symbol (end == start when its size is unknown); the name is
 * copied.  -ENOMEM on failure. */
int spe_symtab_add(struct spe_symtab *t, uint64_t start, uint64_t size, const char *name,
		   uint8_t binding);
/* Appends the PLT entry symbol name (its size known; first: the table's
 * first entry).  perf adds these after it has settled the other symbols'
 * ends: an unsized symbol before the table (_init) still runs to the next
 * symbol that is not a PLT entry.  See search() in symtab.c for which of
 * the two perf finds where they overlap. */
int spe_symtab_add_plt(struct spe_symtab *t, uint64_t start, uint64_t size, const char *name,
		       bool first);
/* The NAME@plt symbols of an ELF file's PLT entries (plt_symbols.c), as
 * perf synthesises them; none when it has no .plt, .rela.plt/.rel.plt and
 * .dynsym.  0 or SPE_ERR_NOMEM. */
typedef struct Elf Elf;
int spe_plt_symbols(struct spe_symtab *t, Elf *e, bool demangle);
/* Sorts, keeps one symbol per address (perf's choice among aliases) and
 * gives unsized symbols an end as perf does; kallsyms tables keep the gap
 * between kernel and module symbols unfilled. */
void spe_symtab_finish(struct spe_symtab *t, bool kallsyms);
/* The symbol containing addr, or NULL.  Not thread-safe: it caches. */
const struct spe_symtab_ent *spe_symtab_find(struct spe_symtab *t, uint64_t addr);
/* A file offset of the mapped file as an ELF address (the offset itself
 * when no segment holds it). */
uint64_t spe_symtab_elf_addr(const struct spe_symtab *t, uint64_t offset);
void spe_symtab_free(struct spe_symtab *t);

/* Where dso files are looked for, as perf looks. */
struct spe_dso_search {
	const char *symfs;		/* prefix of every system path, or NULL */
	const char *buildid_dir;	/* perf's build-id cache, or NULL */
	bool demangle;
};

/* Why a dso has no symbols, for a warning. */
enum spe_dso_status {
	SPE_DSO_OK,
	SPE_DSO_NOT_FOUND,		/* no file anywhere */
	SPE_DSO_BUILD_ID_MISMATCH,	/* only files of another build */
	SPE_DSO_NOT_ELF,
};

/* Loads the symbols and segments of the file a mapping names, choosing it
 * by build id when id_len > 0.  On a mismatch, found_id holds the build id
 * of the file that was rejected (hex, NUL-terminated). */
enum spe_dso_status spe_dso_load(struct spe_symtab *t, const char *path,
				 const uint8_t *id, size_t id_len,
				 const struct spe_dso_search *where,
				 char *found_id, size_t found_id_size);

/* The demangled form of an ELF symbol name as perf prints it (C++ without
 * parameters, Rust without the hash), malloc()ed; NULL when it is not a
 * mangled name. */
char *spe_demangle(const char *name);

#endif
