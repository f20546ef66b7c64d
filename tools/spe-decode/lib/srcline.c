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
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdw.h>

#include "grow.h"
#include "spe_views.h"

struct line_ent {
	uint64_t addr;
	const char *text;		/* NULL: no line */
	bool used;
};

struct sl_dso {
	char *path;			/* as the symboliser names it */
	Dwarf *dw;			/* NULL when the file has no DWARF */
	int fd;
	struct line_ent *lines;		/* open addressing on addr */
	size_t cap, used;
	char **strings;			/* each distinct text, owned */
	size_t nr_strings, strings_cap;
	struct sl_dso *next;
};

struct spe_srcline {
	char *symfs;
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
	return 0;
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
		for (size_t i = 0; i < d->nr_strings; i++)
			free(d->strings[i]);
		free(d->strings);
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
	for (size_t i = 0; i < d->nr_strings; i++)
		if (!strcmp(d->strings[i], buf))
			return d->strings[i];
	if (SPE_GROW(d->strings, d->strings_cap, d->nr_strings, 16))
		return NULL;
	d->strings[d->nr_strings] = strdup(buf);
	return d->strings[d->nr_strings] ? d->strings[d->nr_strings++] : NULL;
}

const char *spe_srcline_get(struct spe_srcline *sl, const struct spe_sym *sym)
{
	struct sl_dso *d;
	size_t i;

	if (!sym->dso || sym->dso[0] != '/')
		return NULL;	/* [unknown], [kernel.kallsyms]: no file */
	/* Without a file the symboliser found (absent, or of another build:
	 * its lines would be wrong), no line. */
	if (!sym->file)
		return NULL;
	d = open_dso(sl, sym->dso, sym->file);
	if (!d || !d->dw)
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
