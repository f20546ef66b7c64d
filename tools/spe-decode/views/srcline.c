// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Source lines: an ELF address of a dso -> "file.c:LINE" from the file's
 * DWARF line table, through libdw (elfutils, the library the symboliser's
 * libelf comes from).  Each dso is opened once; each address is looked up
 * once and its answer kept, since SPE samples the same hot instructions
 * again and again.  A file without DWARF, or an address outside its line
 * table, has no source line (NULL), as perf prints "??:0".  The file read
 * is the one the symboliser chose by build id (spe_sym.file): the mapped
 * file or its separate debug file (.gnu_debuglink, /usr/lib/debug, the
 * build-id cache), so that lines are of the build that ran.
 *
 * The inline chain of an address (spe_srcline_frames(), for pprof's
 * locations) is read off the DWARF scopes that hold it (scopes_at()),
 * innermost first: each inlined subroutine is a frame at the line the
 * address has in it, and its call site (DW_AT_call_file, DW_AT_call_line)
 * is the line of the frame that encloses it, up to the subprogram (DWARF
 * 5 §3.3.8.2).  As the lines, each chain is looked up once per address
 * and kept; its names and paths are kept once per dso.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "grow.h"
#include "spe_views.h"
#include "str_arena.h"
#include "symtab.h"

struct line_ent {
	uint64_t addr;
	const char *text;		/* NULL: no line */
	bool used;
};

/* An address's inline chain: frames [first, first + n) of its dso. */
struct chain_ent {
	uint64_t addr;
	uint32_t first, n;
	bool used;
};

struct sl_dso {
	char *path;			/* as the symboliser names it */
	Dwarf *dw;			/* NULL when the file has no DWARF */
	int fd;
	struct line_ent *lines;		/* open addressing on addr */
	size_t cap, used;
	struct chain_ent *chains;	/* open addressing on addr */
	size_t chains_cap, chains_used;
	struct spe_src_frame *frames;	/* the chains' frames, one after the other */
	size_t nr_frames, frames_cap;
	/* Each distinct text (lines, names, paths) once: an open-addressing
	 * set of pointers into the arena. */
	const char **strings;
	size_t strings_cap, nr_strings;
	struct spe_str_arena arena;
	bool oom;			/* an intern() failed */
	struct sl_dso *next;
};

struct spe_srcline {
	char *symfs;
	bool demangle;
	struct sl_dso *dsos;
	struct sl_dso *last;		/* the dso of the previous lookup */
};

int spe_srcline_new(struct spe_srcline **out, const char *symfs)
{
	struct spe_srcline *sl = calloc(1, sizeof(*sl));

	*out = sl;
	if (!sl)
		return SPE_ERR_NOMEM;
	if (symfs && !(sl->symfs = strdup(symfs)))
		return SPE_ERR_NOMEM;
	sl->demangle = true;
	return 0;
}

void spe_srcline_set_demangle(struct spe_srcline *sl, bool demangle)
{
	sl->demangle = demangle;
}

void spe_srcline_free(struct spe_srcline *sl)
{
	if (!sl)
		return;
	for (struct sl_dso *d = sl->dsos, *n; d; d = n) {
		n = d->next;
		if (d->dw)
			dwarf_end(d->dw);
		if (d->fd >= 0)
			close(d->fd);
		spe_str_arena_free(&d->arena);
		free(d->strings);
		free(d->chains);
		free(d->frames);
		free(d->lines);
		free(d->path);
		free(d);
	}
	free(sl->symfs);
	free(sl);
}

/* The dso named path (the key), read from file: the full path of the
 * file, or its debug file, that the symboliser chose by build id. */
static struct sl_dso *open_dso(struct spe_srcline *sl, const char *path, const char *file)
{
	struct sl_dso *d;
	char full[4096];

	if (sl->last && !strcmp(sl->last->path, path))
		return sl->last;
	for (d = sl->dsos; d; d = d->next)
		if (!strcmp(d->path, path))
			return sl->last = d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		return NULL;
	}
	d->cap = 64;
	d->lines = calloc(d->cap, sizeof(*d->lines));
	if (!d->lines) {
		free(d->path);
		free(d);
		return NULL;
	}
	snprintf(full, sizeof(full), "%s", file);
	d->fd = open(full, O_RDONLY);
	if (d->fd >= 0)
		d->dw = dwarf_begin(d->fd, DWARF_C_READ);
	d->next = sl->dsos;
	sl->dsos = d;
	return sl->last = d;
}

static uint64_t hash_text(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static size_t string_slot(const char **t, size_t cap, const char *s)
{
	size_t i = (size_t)hash_text(s) & (cap - 1);

	while (t[i] && strcmp(t[i], s))
		i = (i + 1) & (cap - 1);
	return i;
}

/* The dso's copy of s, kept once; NULL without memory. */
static const char *intern(struct sl_dso *d, const char *s)
{
	size_t i;

	if ((d->nr_strings + 1) * 2 > d->strings_cap) {
		size_t ncap = d->strings_cap ? d->strings_cap * 2 : 64;
		const char **n = calloc(ncap, sizeof(*n));

		if (!n) {
			d->oom = true;
			return NULL;
		}
		for (size_t k = 0; k < d->strings_cap; k++)
			if (d->strings[k])
				n[string_slot(n, ncap, d->strings[k])] = d->strings[k];
		free(d->strings);
		d->strings = n;
		d->strings_cap = ncap;
	}
	i = string_slot(d->strings, d->strings_cap, s);
	if (!d->strings[i]) {
		d->strings[i] = spe_str_arena_copy(&d->arena, s, strlen(s) + 1);
		if (!d->strings[i]) {
			d->oom = true;
			return NULL;
		}
		d->nr_strings++;
	}
	return d->strings[i];
}

static size_t line_slot(const struct line_ent *t, size_t cap, uint64_t addr)
{
	size_t i = (size_t)((addr >> 2) * 0x9e3779b97f4a7c15ull) & (cap - 1);

	while (t[i].used && t[i].addr != addr)
		i = (i + 1) & (cap - 1);
	return i;
}

/* The line of addr from the DWARF, interned in d; NULL when none. */
static const char *lookup(struct sl_dso *d, uint64_t addr)
{
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file, *base;
	int lineno;
	char buf[512];

	if (!d->dw || !dwarf_addrdie(d->dw, addr, &cu))
		return NULL;
	line = dwarf_getsrc_die(&cu, addr);
	if (!line || dwarf_lineno(line, &lineno) || !(file = dwarf_linesrc(line, NULL, NULL))) {
		/* A unit without a line for it (startup code): its file, line 0,
		 * as addr2line answers. */
		file = dwarf_diename(&cu);
		lineno = 0;
		if (!file)
			return NULL;
	}
	base = strrchr(file, '/');
	snprintf(buf, sizeof(buf), "%s:%d", base ? base + 1 : file, lineno);
	return intern(d, buf);
}

/* The dso of sym with its DWARF, or NULL. */
static struct sl_dso *dwarf_dso(struct spe_srcline *sl, const struct spe_sym *sym)
{
	struct sl_dso *d;

	if (!sym->dso || sym->dso[0] != '/')
		return NULL;	/* [unknown], [kernel.kallsyms]: no file */
	/* Without a file the symboliser found (absent, or of another build:
	 * its lines would be wrong), no line. */
	if (!sym->file)
		return NULL;
	d = open_dso(sl, sym->dso, sym->file);
	return d && d->dw ? d : NULL;
}

const char *spe_srcline_get(struct spe_srcline *sl, const struct spe_sym *sym)
{
	struct sl_dso *d = dwarf_dso(sl, sym);
	size_t i;

	if (!d)
		return NULL;
	i = line_slot(d->lines, d->cap, sym->elf_addr);
	if (d->lines[i].used)
		return d->lines[i].text;
	if ((d->used + 1) * 2 > d->cap) {
		size_t ncap = d->cap * 2;
		struct line_ent *n = calloc(ncap, sizeof(*n));

		if (!n)
			return lookup(d, sym->elf_addr);
		for (size_t k = 0; k < d->cap; k++)
			if (d->lines[k].used)
				n[line_slot(n, ncap, d->lines[k].addr)] = d->lines[k];
		free(d->lines);
		d->lines = n;
		d->cap = ncap;
		i = line_slot(d->lines, d->cap, sym->elf_addr);
	}
	d->lines[i] = (struct line_ent){ .addr = sym->elf_addr, .used = true,
					 .text = lookup(d, sym->elf_addr) };
	d->used++;
	return d->lines[i].text;
}

/* ---- Inline chains ----------------------------------------------------------- */

/* A path of the unit's line table or file list, whole: a relative one is
 * taken from the unit's compilation directory, as the compiler saw it. */
static const char *full_path(struct sl_dso *d, Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute a;
	const char *dir;
	char buf[4096];

	if (!file)
		return NULL;
	if (file[0] == '/' || !(dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a))))
		return intern(d, file);
	snprintf(buf, sizeof(buf), "%s/%s", dir, file);
	return intern(d, buf);
}

/* The name of a subprogram or inlined subroutine (through its abstract
 * origin): the linkage name, demangled as the symbols are, else the
 * name. */
static const char *scope_name(struct spe_srcline *sl, struct sl_dso *d, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *ln = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	const char *name;
	char *dm;

	if (!ln)
		ln = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (ln && sl->demangle && (dm = spe_demangle(ln))) {
		name = intern(d, dm);
		free(dm);
		return name;
	}
	if (ln)
		return intern(d, ln);
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	return name ? intern(d, name) : NULL;
}

/* Where an inlined subroutine was called: its file and line in the
 * scope around it. */
static void call_site(struct sl_dso *d, Dwarf_Die *cu, Dwarf_Die *die, const char **file,
		      unsigned *line)
{
	Dwarf_Attribute a;
	Dwarf_Word idx, ln;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (!dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &ln))
		*line = (unsigned)ln;
	if (!dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &idx) &&
	    !dwarf_getsrcfiles(cu, &files, &nfiles) && idx < nfiles)
		*file = full_path(d, cu, dwarf_filesrc(files, idx, NULL, NULL));
}

static int push_frame(struct sl_dso *d, const char *func, const char *file, unsigned line)
{
	if (d->nr_frames >= UINT32_MAX || SPE_GROW(d->frames, d->frames_cap, d->nr_frames, 64))
		return SPE_ERR_NOMEM;
	d->frames[d->nr_frames++] = (struct spe_src_frame){ .func = func, .file = file,
							     .line = line };
	return 0;
}

/* Scopes deeper than this are left out of a chain (its innermost ones). */
#define MAX_DEPTH	256

/*
 * The scopes of the unit's tree below parent that hold addr, outermost
 * first, from path[depth] on: functions, inlined subroutines and blocks
 * by their addresses, namespaces and modules (which have none, and hold
 * the functions of some languages) searched.  Returns the depth reached.
 * A walk down the tree, not libdw's dwarf_getscopes(), which goes on
 * from an inlined subroutine's abstract origin (not where it was
 * inlined), nor dwarf_getscopes_die(), which reads the unit up to the
 * scope: that was four times the time of the whole pprof command.
 */
static int scopes_at(Dwarf_Die *parent, uint64_t addr, Dwarf_Die *path, int depth)
{
	Dwarf_Die child;
	int found;

	if (depth >= MAX_DEPTH || dwarf_child(parent, &child))
		return depth;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, addr) == 1) {
				path[depth] = child;
				return scopes_at(&child, addr, path, depth + 1);
			}
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
			found = scopes_at(&child, addr, path, depth);
			if (found > depth)
				return found;
			break;
		default:
			break;
		}
	} while (!dwarf_siblingof(&child, &child));
	return depth;
}

/* The chain of addr appended to d->frames; its length, or SPE_ERR_NOMEM
 * (what was appended is then dropped by the caller). */
static long chain_lookup(struct spe_srcline *sl, struct sl_dso *d, uint64_t addr)
{
	size_t first = d->nr_frames;
	Dwarf_Die cu, path[MAX_DEPTH];
	Dwarf_Line *line;
	const char *file = NULL;
	unsigned lineno = 0;
	int n, err = 0;

	if (!dwarf_addrdie(d->dw, addr, &cu))
		return 0;
	d->oom = false;
	line = dwarf_getsrc_die(&cu, addr);
	if (line) {
		int l;

		file = full_path(d, &cu, dwarf_linesrc(line, NULL, NULL));
		if (!dwarf_lineno(line, &l) && l > 0)
			lineno = (unsigned)l;
	}
	/* Innermost first: each function at the line it is at, then the
	 * line it was called from in the one around it. */
	n = scopes_at(&cu, addr, path, 0);
	for (int i = n - 1; i >= 0 && !err; i--) {
		int tag = dwarf_tag(&path[i]);

		if (tag == DW_TAG_lexical_block)
			continue;
		err = push_frame(d, scope_name(sl, d, &path[i]), file, lineno);
		if (tag == DW_TAG_subprogram)
			break;
		call_site(d, &cu, &path[i], &file, &lineno);
	}
	/* An address in no function of the unit (startup code): its line
	 * alone. */
	if (!err && d->nr_frames == first && (file || lineno))
		err = push_frame(d, NULL, file, lineno);
	if (d->oom)
		err = SPE_ERR_NOMEM;
	return err ? err : (long)(d->nr_frames - first);
}

static size_t chain_slot(const struct chain_ent *t, size_t cap, uint64_t addr)
{
	size_t i = (size_t)((addr >> 2) * 0x9e3779b97f4a7c15ull) & (cap - 1);

	while (t[i].used && t[i].addr != addr)
		i = (i + 1) & (cap - 1);
	return i;
}

long spe_srcline_frames(struct spe_srcline *sl, const struct spe_sym *sym,
			const struct spe_src_frame **frames)
{
	struct sl_dso *d = dwarf_dso(sl, sym);
	size_t i, first;
	long n;

	*frames = NULL;
	if (!d)
		return 0;
	if ((d->chains_used + 1) * 2 > d->chains_cap) {
		size_t ncap = d->chains_cap ? d->chains_cap * 2 : 64;
		struct chain_ent *t = calloc(ncap, sizeof(*t));

		if (!t)
			return SPE_ERR_NOMEM;
		for (size_t k = 0; k < d->chains_cap; k++)
			if (d->chains[k].used)
				t[chain_slot(t, ncap, d->chains[k].addr)] = d->chains[k];
		free(d->chains);
		d->chains = t;
		d->chains_cap = ncap;
	}
	i = chain_slot(d->chains, d->chains_cap, sym->elf_addr);
	if (!d->chains[i].used) {
		first = d->nr_frames;
		n = chain_lookup(sl, d, sym->elf_addr);
		if (n < 0) {
			d->nr_frames = first;
			return n;
		}
		d->chains[i] = (struct chain_ent){ .addr = sym->elf_addr, .first = (uint32_t)first,
						   .n = (uint32_t)n, .used = true };
		d->chains_used++;
	}
	*frames = d->frames + d->chains[i].first;
	return d->chains[i].n;
}
