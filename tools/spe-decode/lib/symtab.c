// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The symbols of one dso, sorted by address, for a binary search per
 * sample.  Aliases (several symbols at one address) and unsized symbols
 * are settled once, the way perf settles them, so that the names printed
 * are perf's.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "spe_decode.h"
#include "symtab.h"

int spe_symtab_add(struct spe_symtab *t, uint64_t start, uint64_t size, const char *name,
		   uint8_t binding)
{
	size_t n = strlen(name) + 1;

	if (SPE_GROW(t->syms, t->cap, t->nr, 256))
		return SPE_ERR_NOMEM;
	if (t->pool_len + n > t->pool_cap) {
		size_t cap = (t->pool_cap + n) * 2;
		char *p = realloc(t->pool, cap);

		if (!p)
			return SPE_ERR_NOMEM;
		t->pool = p;
		t->pool_cap = cap;
	}
	memcpy(t->pool + t->pool_len, name, n);
	/* An offset into the pool until the pool stops moving. */
	t->syms[t->nr++] = (struct spe_symtab_ent){
		.start = start, .end = start + size,
		.name = (const char *)(uintptr_t)t->pool_len, .binding = binding,
	};
	t->pool_len += n;
	return 0;
}

int spe_symtab_add_plt(struct spe_symtab *t, uint64_t start, uint64_t size, const char *name,
		       bool first)
{
	int err = spe_symtab_add(t, start, size, name, STB_GLOBAL);

	if (!err) {
		t->syms[t->nr - 1].plt = true;
		t->syms[t->nr - 1].plt_first = first;
	}
	return err;
}

static int by_start(const void *a, const void *b)
{
	const struct spe_symtab_ent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Stable among aliases: the choice below must not depend on qsort. */
	return x < y ? -1 : x > y;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Whether alias b is a better name than a: sized over unsized, strong over
 * weak, global over local, fewer leading underscores, the longer name;
 * otherwise the first (perf's choose_best_symbol order). */
static bool better(const struct spe_symtab_ent *a, const struct spe_symtab_ent *b)
{
	bool asz = a->end > a->start, bsz = b->end > b->start;
	size_t au, bu, al, bl;

	if (asz != bsz)
		return bsz;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return a->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return b->binding == STB_GLOBAL;
	au = leading_underscores(a->name);
	bu = leading_underscores(b->name);
	if (au != bu)
		return bu < au;
	al = strlen(a->name);
	bl = strlen(b->name);
	return bl > al;
}

/* A module symbol of kallsyms ends its name with "\t[module]". */
static bool is_module_sym(const struct spe_symtab_ent *e)
{
	return strchr(e->name, '[') != NULL;
}

void spe_symtab_finish(struct spe_symtab *t, bool kallsyms)
{
	size_t out = 0;

	for (size_t i = 0; i < t->nr; i++)
		t->syms[i].name = t->pool + (uintptr_t)t->syms[i].name;
	if (t->nr > 1)		/* an empty table has no array: qsort(NULL) */
		qsort(t->syms, t->nr, sizeof(*t->syms), by_start);
	for (size_t i = 0; i < t->nr; i++) {
		if (out && t->syms[out - 1].start == t->syms[i].start) {
			/* A PLT entry never displaces a symbol of the file:
			 * perf inserts it after them, and its lookup meets
			 * the older one first. */
			if (t->syms[i].plt)
				continue;
			if (t->syms[out - 1].plt || better(&t->syms[out - 1], &t->syms[i]))
				t->syms[out - 1] = t->syms[i];
			continue;
		}
		t->syms[out++] = t->syms[i];
	}
	t->nr = out;
	/* An unsized symbol runs to the next one; the last one, and in
	 * kallsyms the last before the kernel/module boundary, to the end of
	 * its page plus one page. */
	for (size_t i = 0; i < t->nr; i++) {
		struct spe_symtab_ent *e = &t->syms[i];
		size_t next = i + 1;

		if (e->end > e->start)
			continue;
		/* PLT entries come after perf's fixing of the ends. */
		while (next < t->nr && t->syms[next].plt)
			next++;
		if (next == t->nr)
			e->end = ((e->start + 4095) & ~4095ull) + 4096;
		else if (kallsyms && is_module_sym(e) != is_module_sym(&t->syms[next]))
			e->end = (e->start + 4096 + 4095) & ~4095ull;
		else
			e->end = t->syms[next].start;
	}
}

#define HITS_FROM	256		/* tables this big get the cache ... */
#define HITS_BIG	16384		/* ... of 4096 slots from this size, else 1024 */

static const struct spe_symtab_ent *search(const struct spe_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	/* The last symbol starting at or before addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/*
	 * Where an unsized symbol before a PLT (_init, run on to the next
	 * function) spans the table, perf's answer is that of its lookup in
	 * a red-black tree: the first symbol containing the address on the
	 * search path.  The entries, inserted last and in increasing order,
	 * are rebalanced above _init but for the first, its successor, which
	 * stays below it: the table's header and first entry are _init's,
	 * the other entries their own, and the addresses past the table
	 * (padding up to .text) nobody's, as perf 6.1 prints them.
	 */
	if (t->syms[lo - 1].plt_first && lo >= 2 && !t->syms[lo - 2].plt &&
	    addr < t->syms[lo - 2].end)
		return &t->syms[lo - 2];
	if (addr >= t->syms[lo - 1].end)
		return NULL;
	return &t->syms[lo - 1];
}

/* SPE samples the same hot instructions again and again: a direct-mapped
 * cache of recent answers spares the binary search over a big table (a
 * kernel's kallsyms has 10^5 symbols) its cache misses. */
const struct spe_symtab_ent *spe_symtab_find(struct spe_symtab *t, uint64_t addr)
{
	const struct spe_symtab_ent *e;
	struct spe_symtab_hit *h;

	if (t->nr < HITS_FROM)
		return search(t, addr);
	if (!t->hits) {
		/* 16 or 64 KiB: a process maps many dsos, the kernel is one. */
		t->nr_hits = t->nr >= HITS_BIG ? 4096 : 1024;
		t->hits = calloc(t->nr_hits, sizeof(*t->hits));
		if (!t->hits)
			return search(t, addr);
	}
	h = &t->hits[((addr >> 2) * 0x9e3779b97f4a7c15ull) >> 52 & (t->nr_hits - 1)];
	if (h->addr == addr && (addr || h->idx))
		return h->idx ? &t->syms[h->idx - 1] : NULL;
	e = search(t, addr);
	h->addr = addr;
	h->idx = e ? (uint32_t)(e - t->syms) + 1 : 0;
	return e;
}

uint64_t spe_symtab_elf_addr(const struct spe_symtab *t, uint64_t offset)
{
	for (size_t k = 0; k < t->nr_segs; k++)
		if (offset >= t->segs[k].offset && offset - t->segs[k].offset < t->segs[k].filesz)
			return offset - t->segs[k].offset + t->segs[k].vaddr;
	return offset;
}

void spe_symtab_free(struct spe_symtab *t)
{
	free(t->syms);
	free(t->pool);
	free(t->segs);
	free(t->dwarf_file);
	free(t->hits);
	memset(t, 0, sizeof(*t));
}
