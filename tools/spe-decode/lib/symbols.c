// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Symbolisation: ip -> dso and symbol.  User addresses go through the
 * process's MMAP/MMAP2 records to a file offset, then through the ELF
 * file's PT_LOAD segments to an ELF address, then to its .symtab (or
 * .dynsym) read with libelf.  A file that is not there leaves the dso name
 * and "[unknown]" as the symbol.  Kernel addresses use a kallsyms file.
 * Thread names come from COMM records.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "spe_perf_synth.h"

struct sym_ent {
	uint64_t start, size;
	const char *name;		/* into the dso's string pool */
};

struct seg {
	uint64_t offset, vaddr, filesz;
};

struct dso {
	char *path;
	bool loaded;
	struct sym_ent *syms;
	size_t nr_syms;
	char *names;			/* string pool */
	struct seg *segs;
	size_t nr_segs;
	struct dso *next;
};

struct map {
	uint64_t start, len, pgoff;
	struct dso *dso;
};

struct proc {
	int32_t pid;
	struct map *maps;
	size_t nr, cap;
	struct proc *next;
};

struct thread {
	int32_t tid;
	char comm[32];
	struct thread *next;
};

#define HASH 1024

struct spe_symbols {
	char *symfs;
	struct dso *dsos;
	struct proc *procs[HASH];
	struct thread *threads[HASH];
	struct dso kernel;		/* kallsyms, no segments */
	bool have_kernel;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym_ent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* ---- kallsyms ---------------------------------------------------------------- */

static int load_kallsyms(struct dso *d, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, pool_cap = 0, pool_len = 0;
	char line[512];

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return SPE_ERR_IO;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		size_t n;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (d->nr_syms == cap) {
			cap = cap ? cap * 2 : 4096;
			d->syms = realloc(d->syms, cap * sizeof(*d->syms));
		}
		n = strlen(name) + 1;
		if (pool_len + n > pool_cap) {
			pool_cap = pool_cap ? pool_cap * 2 : 65536;
			d->names = realloc(d->names, pool_cap);
		}
		if (!d->syms || !d->names) {
			fclose(f);
			snprintf(err, errlen, "out of memory reading %s", path);
			return SPE_ERR_NOMEM;
		}
		memcpy(d->names + pool_len, name, n);
		/* names are fixed up to pointers after the pool stops moving */
		d->syms[d->nr_syms++] = (struct sym_ent){ .start = addr,
							  .name = (const char *)(uintptr_t)pool_len };
		pool_len += n;
	}
	fclose(f);
	for (size_t i = 0; i < d->nr_syms; i++)
		d->syms[i].name = d->names + (uintptr_t)d->syms[i].name;
	qsort(d->syms, d->nr_syms, sizeof(*d->syms), cmp_sym);
	d->path = strdup("[kernel.kallsyms]");
	d->loaded = true;
	return 0;
}

/* ---- ELF ------------------------------------------------------------------------ */

static void load_elf(struct dso *d, const char *symfs)
{
	char path[4096];
	Elf *e = NULL;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	size_t nphdr, pool_len = 0, pool_cap = 0;
	int fd;

	d->loaded = true;
	snprintf(path, sizeof(path), "%s%s", symfs ? symfs : "", d->path);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	if (elf_version(EV_CURRENT) == EV_NONE)
		goto out;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF)
		goto out;
	if (!elf_getphdrnum(e, &nphdr) && nphdr) {
		d->segs = calloc(nphdr, sizeof(*d->segs));
		for (size_t i = 0; d->segs && i < nphdr; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
				d->segs[d->nr_segs++] = (struct seg){
					.offset = ph.p_offset, .vaddr = ph.p_vaddr,
					.filesz = ph.p_filesz,
				};
		}
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn;
	}
	scn = symtab ? symtab : dynsym;
	if (scn) {
		GElf_Shdr sh;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n;

		gelf_getshdr(scn, &sh);
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		d->syms = calloc(n ? n : 1, sizeof(*d->syms));
		for (size_t i = 0; data && d->syms && i < n; i++) {
			GElf_Sym sym;
			const char *name;
			size_t len;

			if (!gelf_getsym(data, (int)i, &sym) || !sym.st_value ||
			    (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
			     GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC))
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name)
				continue;
			len = strlen(name) + 1;
			if (pool_len + len > pool_cap) {
				char *np;

				pool_cap = (pool_cap + len) * 2;
				np = realloc(d->names, pool_cap);
				if (!np)
					break;
				d->names = np;
			}
			memcpy(d->names + pool_len, name, len);
			d->syms[d->nr_syms++] = (struct sym_ent){
				.start = sym.st_value, .size = sym.st_size,
				.name = (const char *)(uintptr_t)pool_len,
			};
			pool_len += len;
		}
		for (size_t i = 0; i < d->nr_syms; i++)
			d->syms[i].name = d->names + (uintptr_t)d->syms[i].name;
		qsort(d->syms, d->nr_syms, sizeof(*d->syms), cmp_sym);
	}
out:
	if (e)
		elf_end(e);
	close(fd);
}

static const struct sym_ent *find_sym(const struct dso *d, uint64_t addr)
{
	size_t lo = 0, hi = d->nr_syms;

	/* Last symbol starting at or before addr. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	lo--;
	if (d->syms[lo].size && addr >= d->syms[lo].start + d->syms[lo].size)
		return NULL;
	return &d->syms[lo];
}

/* ---- Processes, threads, maps -------------------------------------------------- */

static struct proc *find_proc(struct spe_symbols *s, int32_t pid, bool create)
{
	struct proc **pp = &s->procs[(uint32_t)pid % HASH], *p;

	for (p = *pp; p; p = p->next)
		if (p->pid == pid)
			return p;
	if (!create)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->next = *pp;
	*pp = p;
	return p;
}

static struct dso *find_dso(struct spe_symbols *s, const char *path)
{
	struct dso *d;

	for (d = s->dsos; d; d = d->next)
		if (!strcmp(d->path, path))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->path = strdup(path);
	if (!d->path) {
		free(d);
		return NULL;
	}
	d->next = s->dsos;
	s->dsos = d;
	return d;
}

static int add_map(struct spe_symbols *s, int32_t pid, uint64_t start, uint64_t len,
		   uint64_t pgoff, const char *path)
{
	struct proc *p = find_proc(s, pid, true);
	struct dso *d = find_dso(s, path);

	if (!p || !d)
		return SPE_ERR_NOMEM;
	if (p->nr == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 16;
		struct map *nm = realloc(p->maps, ncap * sizeof(*nm));

		if (!nm)
			return SPE_ERR_NOMEM;
		p->maps = nm;
		p->cap = ncap;
	}
	/* Newer mappings shadow older ones: lookups scan from the end. */
	p->maps[p->nr++] = (struct map){ .start = start, .len = len, .pgoff = pgoff, .dso = d };
	return 0;
}

static void set_comm(struct spe_symbols *s, int32_t tid, const char *comm, size_t max)
{
	struct thread **pp = &s->threads[(uint32_t)tid % HASH], *t;
	size_t n = strnlen(comm, max);

	for (t = *pp; t && t->tid != tid; t = t->next)
		;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return;
		t->tid = tid;
		t->next = *pp;
		*pp = t;
	}
	if (n >= sizeof(t->comm))
		n = sizeof(t->comm) - 1;
	memcpy(t->comm, comm, n);
	t->comm[n] = '\0';
}

const char *spe_symbols_comm(const struct spe_symbols *s, int32_t tid)
{
	const struct thread *t;

	for (t = s->threads[(uint32_t)tid % HASH]; t; t = t->next)
		if (t->tid == tid)
			return t->comm;
	return NULL;
}

int spe_symbols_event(struct spe_symbols *s, const struct spe_pdr_event *ev)
{
	const struct perf_event_header *h = ev->header;
	const unsigned char *p = (const unsigned char *)(h + 1);
	size_t body = h->size - sizeof(*h);
	uint32_t pid, tid, ppid;
	uint64_t start, len, pgoff;

	switch (h->type) {
	case PERF_RECORD_COMM:
		if (body < 9)
			return 0;
		memcpy(&tid, p + 4, 4);
		set_comm(s, (int32_t)tid, (const char *)p + 8, body - 8);
		return 0;
	case PERF_RECORD_FORK:
		if (body < 16)
			return 0;
		memcpy(&pid, p, 4);
		memcpy(&ppid, p + 4, 4);
		memcpy(&tid, p + 8, 4);
		{
			struct thread *t;
			const char *pc = NULL;
			uint32_t ptid;

			/* The child inherits the parent thread's name and, for
			 * a new process, a copy of its mappings. */
			memcpy(&ptid, p + 12, 4);
			for (t = s->threads[ptid % HASH]; t; t = t->next)
				if (t->tid == (int32_t)ptid)
					pc = t->comm;
			if (pc)
				set_comm(s, (int32_t)tid, pc, sizeof(t->comm));
		}
		if (pid != ppid) {
			struct proc *parent = find_proc(s, (int32_t)ppid, false);
			struct proc *child;

			if (!parent || !parent->nr)
				return 0;
			child = find_proc(s, (int32_t)pid, true);
			if (!child)
				return SPE_ERR_NOMEM;
			for (size_t i = 0; i < parent->nr; i++) {
				const struct map *m = &parent->maps[i];
				int err = add_map(s, (int32_t)pid, m->start, m->len, m->pgoff,
						  m->dso->path);

				if (err)
					return err;
			}
		}
		return 0;
	case PERF_RECORD_MMAP:
		if (body < 33)
			return 0;
		memcpy(&pid, p, 4);
		memcpy(&start, p + 8, 8);
		memcpy(&len, p + 16, 8);
		memcpy(&pgoff, p + 24, 8);
		return add_map(s, (int32_t)pid, start, len, pgoff, (const char *)p + 32);
	case PERF_RECORD_MMAP2:
		if (body < 65)
			return 0;
		memcpy(&pid, p, 4);
		memcpy(&start, p + 8, 8);
		memcpy(&len, p + 16, 8);
		memcpy(&pgoff, p + 24, 8);
		if (strnlen((const char *)p + 64, body - 64) == body - 64)
			return 0;	/* unterminated name */
		return add_map(s, (int32_t)pid, start, len, pgoff, (const char *)p + 64);
	default:
		return 0;
	}
}

void spe_symbols_lookup(struct spe_symbols *s, int32_t pid, uint64_t ip,
			uint16_t cpumode, struct spe_sym *out)
{
	const struct sym_ent *sym;
	struct proc *p;

	out->dso = "[unknown]";
	out->name = "[unknown]";
	out->offset = 0;
	out->elf_addr = ip;
	out->has_sym = false;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		if (!s->have_kernel)
			return;
		out->dso = s->kernel.path;
		sym = find_sym(&s->kernel, ip);
		if (sym) {
			out->name = sym->name;
			out->offset = ip - sym->start;
			out->has_sym = true;
		}
		return;
	}
	p = find_proc(s, pid, false);
	if (!p)
		return;
	for (size_t i = p->nr; i-- > 0;) {
		const struct map *m = &p->maps[i];
		struct dso *d = m->dso;
		uint64_t off, addr;

		if (ip < m->start || ip - m->start >= m->len)
			continue;
		out->dso = d->path;
		if (!d->loaded)
			load_elf(d, s->symfs);
		off = ip - m->start + m->pgoff;
		addr = off;
		for (size_t k = 0; k < d->nr_segs; k++)
			if (off >= d->segs[k].offset && off - d->segs[k].offset < d->segs[k].filesz) {
				addr = off - d->segs[k].offset + d->segs[k].vaddr;
				break;
			}
		out->elf_addr = addr;
		sym = find_sym(d, addr);
		if (sym) {
			out->name = sym->name;
			out->offset = addr - sym->start;
			out->has_sym = true;
		}
		return;
	}
}

int spe_symbols_new(struct spe_symbols **out, const struct spe_sym_config *cfg,
		    char *err, size_t errlen)
{
	struct spe_symbols *s = calloc(1, sizeof(*s));

	*out = s;
	if (!s)
		return SPE_ERR_NOMEM;
	if (cfg && cfg->symfs) {
		s->symfs = strdup(cfg->symfs);
		if (!s->symfs)
			return SPE_ERR_NOMEM;
	}
	if (cfg && cfg->kallsyms) {
		int ret = load_kallsyms(&s->kernel, cfg->kallsyms, err, errlen);

		if (ret)
			return ret;
		s->have_kernel = true;
	}
	return 0;
}

static void free_dso(struct dso *d)
{
	free(d->path);
	free(d->syms);
	free(d->names);
	free(d->segs);
}

void spe_symbols_free(struct spe_symbols *s)
{
	if (!s)
		return;
	for (struct dso *d = s->dsos, *n; d; d = n) {
		n = d->next;
		free_dso(d);
		free(d);
	}
	for (int i = 0; i < HASH; i++) {
		for (struct proc *p = s->procs[i], *n; p; p = n) {
			n = p->next;
			free(p->maps);
			free(p);
		}
		for (struct thread *t = s->threads[i], *n; t; t = n) {
			n = t->next;
			free(t);
		}
	}
	free_dso(&s->kernel);
	free(s->symfs);
	free(s);
}
