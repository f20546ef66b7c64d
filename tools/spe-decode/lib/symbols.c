// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Symbolisation: ip -> dso and symbol, as perf resolves it.  User
 * addresses go through the process's MMAP/MMAP2 records to a file offset,
 * then through the ELF file's PT_LOAD segments to an ELF address, then to
 * the file's symbols (dso_load.c: the file is chosen by the build id the
 * recording has, from MMAP2 or the BUILD_ID feature section, and read
 * through libdwfl with its separate debug file).  A file that is not
 * there, or is another build, leaves the dso name and "[unknown]" as the
 * symbol.  Kernel addresses use a kallsyms file: an address in a kernel
 * module's map (an MMAP of the kernel with a module's path) is that
 * module's, named "[module]" as perf names it.  Thread names come from
 * COMM records.
 */
#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "grow.h"
#include "spe_sym_mapping.h"
#include "spe_symbols.h"
#include "sym_store.h"
#include "symtab.h"

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID	(1 << 14)
#endif
#define BUILD_ID_SIZE_FLAG		(1 << 15)	/* PERF_RECORD_MISC_BUILD_ID_SIZE */
#define RECORD_HEADER_BUILD_ID		67		/* PERF_RECORD_HEADER_BUILD_ID */

struct dso {
	char *path;
	uint8_t id[SYM_MAX_BUILD_ID];
	size_t id_len;
	bool loaded;
	struct spe_symtab tab;
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
	size_t last;			/* the map of the previous lookup */
	bool overlap;			/* some mapping shadows part of another */
	struct proc *next;
};

struct thread {
	int32_t tid;
	char comm[32];
	struct thread *next;
};

/* A kernel map: the kernel's own ([kernel.kallsyms]_text) or a module's. */
struct kmap {
	uint64_t start, len, pgoff;
	char *name;			/* "[module]"; NULL for the kernel */
};

#define HASH 1024

struct spe_symbols {
	struct spe_dso_search where;
	char *symfs, *buildid_dir;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	struct dso *dsos;
	struct proc *procs[HASH];
	struct thread *threads[HASH];
	/*
	 * The files' and the kernel's tables are loaded into a store that
	 * objects made by spe_symbols_new_sharing() share; the struct
	 * spe_symtab here (a dso's tab, kernel) are views of them.
	 */
	struct sym_store *store;
	struct spe_symtab kernel;	/* kallsyms; module symbols included */
	bool have_kernel;
	uint64_t kernel_start, kernel_end;	/* of its kernel (not module) symbols */
	struct kmap *kmaps;
	size_t nr_kmaps;
};

/* ---- kallsyms ---------------------------------------------------------------- */

/* perf's kallsyms symbols: text, weak, data and bss, global or local
 * (perf 6.1 also resolves data addresses); module symbols keep their
 * "\t[module]" until finished. */
static int load_kallsyms(struct spe_symtab *t, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return SPE_ERR_IO;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[512], mod[256] = "";
		int k = sscanf(line, "%llx %c %511s %255s", &addr, &type, name, mod);

		if (k < 3)
			continue;
		if (!type || !strchr("TtWwDdBb", type))
			continue;
		if (mod[0] == '[') {
			size_t n = strlen(name);

			snprintf(name + n, sizeof(name) - n, "\t%s", mod);
		}
		/* perf's bindings of kallsyms types, for its choice among aliases. */
		if (spe_symtab_add(t, addr, 0, name, type == 'W' || type == 'w' ? STB_WEAK :
						   isupper((unsigned char)type) ? STB_GLOBAL :
						   STB_LOCAL)) {
			fclose(f);
			snprintf(err, errlen, "out of memory reading %s", path);
			return SPE_ERR_NOMEM;
		}
	}
	fclose(f);
	spe_symtab_finish(t, true);
	/* "name\t[module]" -> "name", the module name after its NUL. */
	for (size_t i = 0; i < t->nr; i++) {
		char *tab = strchr(t->syms[i].name, '\t');

		if (tab) {
			*tab = '\0';
			t->syms[i].module = true;
		}
	}
	return 0;
}

/* The span of the kernel's own symbols: perf's kernel map once kallsyms
 * is loaded. */
static void kernel_span(struct spe_symbols *s)
{
	bool first = true;

	for (size_t i = 0; i < s->kernel.nr; i++) {
		const struct spe_symtab_ent *e = &s->kernel.syms[i];

		if (e->module)
			continue;
		if (first)
			s->kernel_start = e->start;
		first = false;
		s->kernel_end = e->end;
	}
}

/* The module of a kallsyms symbol ("[name]"), NULL for the kernel's. */
static const char *kallsyms_module(const struct spe_symtab_ent *e)
{
	return e->module ? e->name + strlen(e->name) + 1 : NULL;
}

/* ---- Build ids ------------------------------------------------------------------ */

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

int spe_symbols_build_id(struct spe_symbols *s, const char *path, const uint8_t *id,
			 size_t len)
{
	struct dso *d;

	if (!len || len > SYM_MAX_BUILD_ID)
		return 0;
	d = find_dso(s, path);
	if (!d)
		return SPE_ERR_NOMEM;
	if (!d->loaded) {
		memcpy(d->id, id, len);
		d->id_len = len;
	}
	return 0;
}

/* One build_id_event: header, pid, 24 id bytes (the size in the 21st when
 * BUILD_ID_SIZE_FLAG), the file name. */
static int build_id_entry(struct spe_symbols *s, const unsigned char *p, size_t size,
			  uint16_t misc)
{
	size_t len = SYM_MAX_BUILD_ID;
	const char *name = (const char *)p + 36;

	if (size < 37 || strnlen(name, size - 36) == size - 36)
		return 0;
	if (misc & BUILD_ID_SIZE_FLAG)
		len = p[12 + 20] <= SYM_MAX_BUILD_ID ? p[12 + 20] : SYM_MAX_BUILD_ID;
	return spe_symbols_build_id(s, name, p + 12, len);
}

int spe_symbols_build_id_section(struct spe_symbols *s, const void *sec, size_t len)
{
	const unsigned char *p = sec;
	size_t pos = 0;

	while (pos + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		int err;

		memcpy(&h, p + pos, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - pos)
			break;
		err = build_id_entry(s, p + pos, h.size, h.misc);
		if (err)
			return err;
		pos += h.size;
	}
	return 0;
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

static int add_map(struct spe_symbols *s, int32_t pid, uint64_t start, uint64_t len,
		   uint64_t pgoff, const char *path)
{
	struct proc *p = find_proc(s, pid, true);
	struct dso *d = find_dso(s, path);

	if (!p || !d)
		return SPE_ERR_NOMEM;
	if (SPE_GROW(p->maps, p->cap, p->nr, 16))
		return SPE_ERR_NOMEM;
	/* Newer mappings shadow older ones: lookups scan from the end. */
	for (size_t i = 0; i < p->nr && !p->overlap; i++)
		p->overlap = start < p->maps[i].start + p->maps[i].len &&
			     p->maps[i].start < start + len;
	p->maps[p->nr++] = (struct map){ .start = start, .len = len, .pgoff = pgoff, .dso = d };
	p->last = p->nr - 1;
	return 0;
}

/* perf's name of a kernel module's dso: "[name]" from .../name.ko[.xz],
 * with '-' as '_'. */
static char *module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;
	char *out;

	if (path[0] == '[')
		return strdup(path);
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	out = malloc(n + 3);
	if (!out)
		return NULL;
	out[0] = '[';
	for (size_t i = 0; i < n; i++)
		out[i + 1] = base[i] == '-' ? '_' : base[i];
	out[n + 1] = ']';
	out[n + 2] = '\0';
	return out;
}

static int add_kernel_map(struct spe_symbols *s, uint64_t start, uint64_t len, uint64_t pgoff,
			  const char *path)
{
	struct kmap *k = realloc(s->kmaps, (s->nr_kmaps + 1) * sizeof(*k));

	if (!k)
		return SPE_ERR_NOMEM;
	s->kmaps = k;
	k = &s->kmaps[s->nr_kmaps];
	*k = (struct kmap){ .start = start, .len = len, .pgoff = pgoff };
	if (strncmp(path, "[kernel.kallsyms]", 17)) {
		k->name = module_name(path);
		if (!k->name)
			return SPE_ERR_NOMEM;
	}
	s->nr_kmaps++;
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
	/* The idle task has no COMM record; perf names it as the kernel does. */
	return tid == 0 ? "swapper" : NULL;
}

static int on_fork(struct spe_symbols *s, const unsigned char *p)
{
	uint32_t pid, tid, ppid, ptid;
	struct thread *t;
	const char *pc = NULL;

	memcpy(&pid, p, 4);
	memcpy(&ppid, p + 4, 4);
	memcpy(&tid, p + 8, 4);
	memcpy(&ptid, p + 12, 4);
	/* The child inherits the parent thread's name and, for a new process,
	 * a copy of its mappings. */
	for (t = s->threads[ptid % HASH]; t; t = t->next)
		if (t->tid == (int32_t)ptid)
			pc = t->comm;
	if (pc)
		set_comm(s, (int32_t)tid, pc, sizeof(t->comm));
	if (pid != ppid) {
		struct proc *parent = find_proc(s, (int32_t)ppid, false);

		if (!parent || !parent->nr)
			return 0;
		if (!find_proc(s, (int32_t)pid, true))
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
}

/* An MMAP or MMAP2 record's mapping; the kernel's own (pid -1, kernel
 * mode) go to the kernel maps. */
static int on_mmap(struct spe_symbols *s, uint16_t misc, const unsigned char *p,
		   const char *name, const uint8_t *id, size_t id_len)
{
	uint32_t pid;
	uint64_t start, len, pgoff;

	memcpy(&pid, p, 4);
	memcpy(&start, p + 8, 8);
	memcpy(&len, p + 16, 8);
	memcpy(&pgoff, p + 24, 8);
	if ((misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL &&
	    pid == (uint32_t)-1)
		return add_kernel_map(s, start, len, pgoff, name);
	if (id_len) {
		int err = spe_symbols_build_id(s, name, id, id_len);

		if (err)
			return err;
	}
	return add_map(s, (int32_t)pid, start, len, pgoff, name);
}

int spe_symbols_event(struct spe_symbols *s, const struct spe_perf_reader_event *ev)
{
	const struct perf_event_header *h = ev->header;
	const unsigned char *p = (const unsigned char *)(h + 1);
	size_t body = h->size - sizeof(*h);
	uint32_t tid;

	switch (h->type) {
	case PERF_RECORD_COMM:
		if (body < 9)
			return 0;
		memcpy(&tid, p + 4, 4);
		set_comm(s, (int32_t)tid, (const char *)p + 8, body - 8);
		return 0;
	case PERF_RECORD_FORK:
		return body < 16 ? 0 : on_fork(s, p);
	case PERF_RECORD_MMAP:
		if (body < 33 || strnlen((const char *)p + 32, body - 32) == body - 32)
			return 0;
		return on_mmap(s, h->misc, p, (const char *)p + 32, NULL, 0);
	case PERF_RECORD_MMAP2:
		if (body < 65 || strnlen((const char *)p + 64, body - 64) == body - 64)
			return 0;	/* unterminated name */
		/* With MMAP_BUILD_ID, the device and inode fields are the
		 * build id: a size byte, 3 reserved, 20 id bytes. */
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
			return on_mmap(s, h->misc, p, (const char *)p + 64, p + 36,
				       p[32] <= SYM_MAX_BUILD_ID ? p[32] : SYM_MAX_BUILD_ID);
		return on_mmap(s, h->misc, p, (const char *)p + 64, NULL, 0);
	case RECORD_HEADER_BUILD_ID:
		/* A pipe's BUILD_ID feature: one entry, header included. */
		return build_id_entry(s, (const unsigned char *)h, h->size, h->misc);
	default:
		return 0;
	}
}

/* ---- Lookup -------------------------------------------------------------------- */

static void load_dso(struct spe_symbols *s, struct dso *d)
{
	char found[2 * 64 + 8] = "", msg[4096 + 256], want[2 * SYM_MAX_BUILD_ID + 1];
	enum spe_dso_status st;

	d->loaded = true;
	st = sym_store_dso(s->store, d->path, d->id, d->id_len, &s->where, &d->tab, found,
			   sizeof(found));
	if (st != SPE_DSO_BUILD_ID_MISMATCH || !s->warn)
		return;
	for (size_t i = 0; i < d->id_len; i++)
		sprintf(want + 2 * i, "%02x", d->id[i]);
	want[2 * d->id_len] = '\0';
	snprintf(msg, sizeof(msg), "%s: build id %s in the recording, the file's is %s: "
		 "not used, its symbols are [unknown]", d->path, want, found);
	s->warn(s->warn_ctx, msg);
}

/* A kernel ip, as perf: an ip in a module's map is that module's; the
 * kernel's map, once kallsyms is loaded, spans its symbols; an ip in no
 * map is [unknown], and so is every kernel ip of a recording without
 * kernel maps (perf record could not read the kernel's addresses): perf
 * makes the kernel's map from its MMAP record only, whatever kallsyms it
 * is given. */
static void lookup_kernel(struct spe_symbols *s, uint64_t ip, struct spe_sym *out)
{
	const struct spe_symtab_ent *sym;
	const char *mod_map = NULL, *mod;
	bool in_kernel = false;

	/* perf: without kernel symbols, no kernel map (nor module) loads. */
	if (!s->have_kernel)
		return;
	for (size_t i = s->nr_kmaps; i-- > 0;) {
		const struct kmap *k = &s->kmaps[i];

		if (ip - k->start >= k->len && k->name)
			continue;
		if (k->name) {
			mod_map = k->name;
			break;
		}
		in_kernel = ip >= s->kernel_start && ip < s->kernel_end;
	}
	if (mod_map)
		out->dso = mod_map;
	else if (in_kernel)
		out->dso = "[kernel.kallsyms]";
	else
		return;
	sym = spe_symtab_find(&s->kernel, ip);
	if (!sym)
		return;
	mod = kallsyms_module(sym);
	if (mod_map ? !mod || strcmp(mod, mod_map) : mod != NULL)
		return;		/* a symbol of no map, or of another one */
	if (mod)
		out->dso = mod;
	out->name = sym->name;
	out->offset = ip - sym->start;
	out->has_sym = true;
}

/* The mapping of a process that holds ip, or NULL. */
static const struct map *find_map(struct proc *p, uint64_t ip)
{
	/* SPE samples stay in one mapping for long runs: try it first, when
	 * no mapping can shadow it (none overlaps another, or it is the
	 * newest). */
	if (p->last < p->nr && ip - p->maps[p->last].start < p->maps[p->last].len &&
	    (!p->overlap || p->last == p->nr - 1))
		return &p->maps[p->last];
	for (size_t i = p->nr; i-- > 0;)
		if (ip - p->maps[i].start < p->maps[i].len) {
			p->last = i;
			return &p->maps[i];
		}
	return NULL;
}

/*
 * A user-space ip of process p: out (as spe_symbols_lookup() set it) gets
 * its dso and symbol.  Apart, so that a lookup that finds no process
 * (or a kernel one, also a call of its own) costs no saving of the
 * registers this one needs: every record of a recording without
 * mappings comes here.
 */
static __attribute__((noinline)) void lookup_user(struct spe_symbols *s, struct proc *p,
						  uint64_t ip, struct spe_sym *out)
{
	const struct spe_symtab_ent *sym;
	const struct map *m = find_map(p, ip);
	struct dso *d;
	uint64_t off;

	if (!m)
		return;
	d = m->dso;
	out->dso = d->path;
	if (!d->loaded)
		load_dso(s, d);
	out->file = d->tab.dwarf_file;
	off = ip - m->start + m->pgoff;
	out->elf_addr = spe_symtab_elf_addr(&d->tab, off);
	sym = spe_symtab_find(&d->tab, out->elf_addr);
	if (sym) {
		out->name = sym->name;
		out->offset = out->elf_addr - sym->start;
		out->has_sym = true;
	}
}

void spe_symbols_lookup(struct spe_symbols *s, int32_t pid, uint64_t ip,
			uint16_t cpumode, struct spe_sym *out)
{
	struct proc *p;

	out->dso = "[unknown]";
	out->name = "[unknown]";
	out->offset = 0;
	out->elf_addr = ip;
	out->has_sym = false;
	out->file = NULL;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		lookup_kernel(s, ip, out);
		return;
	}
	p = find_proc(s, pid, false);
	if (p)
		lookup_user(s, p, ip, out);
}

/* The recorded build id of the dso named path, if any. */
static void recorded_build_id(const struct spe_symbols *s, const char *path,
			      struct spe_sym_mapping *out)
{
	for (const struct dso *d = s->dsos; d; d = d->next)
		if (!strcmp(d->path, path)) {
			if (d->id_len) {
				out->build_id = d->id;
				out->build_id_len = d->id_len;
			}
			return;
		}
}

/* A kernel ip's mapping: the kernel map (or module map) of the recording
 * that lookup_kernel() chose, else the span of the kernel's symbols. */
static void kernel_mapping(struct spe_symbols *s, uint64_t ip, struct spe_sym_mapping *out)
{
	struct spe_sym sym = { .dso = "[unknown]" };
	bool kernel;

	lookup_kernel(s, ip, &sym);
	out->path = sym.dso;
	if (!strcmp(sym.dso, "[unknown]"))
		return;
	kernel = !strcmp(sym.dso, "[kernel.kallsyms]");
	for (size_t i = s->nr_kmaps; i-- > 0;) {
		const struct kmap *k = &s->kmaps[i];

		if (kernel ? !k->name : ip - k->start < k->len && k->name) {
			out->start = k->start;
			out->limit = k->start + k->len;
			out->pgoff = k->pgoff;
			break;
		}
	}
	if (kernel && !s->nr_kmaps) {
		out->start = s->kernel_start;
		out->limit = s->kernel_end;
	}
	if (kernel)
		recorded_build_id(s, sym.dso, out);
}

void spe_symbols_mapping(struct spe_symbols *s, int32_t pid, uint64_t ip, uint16_t cpumode,
			 struct spe_sym_mapping *out)
{
	const struct map *m;
	struct proc *p;

	*out = (struct spe_sym_mapping){ .path = "[unknown]" };
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		kernel_mapping(s, ip, out);
		return;
	}
	p = find_proc(s, pid, false);
	m = p ? find_map(p, ip) : NULL;
	if (!m)
		return;
	out->start = m->start;
	out->limit = m->start + m->len;
	out->pgoff = m->pgoff;
	out->path = m->dso->path;
	if (m->dso->id_len) {
		out->build_id = m->dso->id;
		out->build_id_len = m->dso->id_len;
	}
}

/* A new object: its store share_of's (NULL: a store of its own, with
 * cfg->kallsyms loaded into it). */
static int symbols_new(struct spe_symbols **out, const struct spe_sym_config *cfg,
		       const struct spe_symbols *share_of, char *err, size_t errlen)
{
	struct spe_symbols *s = calloc(1, sizeof(*s));
	const char *bdir = cfg ? cfg->buildid_dir : NULL, *home = getenv("HOME");

	*out = s;
	if (!s)
		return SPE_ERR_NOMEM;
	s->store = share_of ? sym_store_get(share_of->store) : sym_store_new();
	if (!s->store || (cfg && cfg->symfs && !(s->symfs = strdup(cfg->symfs))))
		return SPE_ERR_NOMEM;
	/* perf's build-id cache: --buildid-dir, else ~/.debug. */
	if (bdir)
		s->buildid_dir = strdup(bdir);
	else if (home && asprintf(&s->buildid_dir, "%s/.debug", home) < 0)
		s->buildid_dir = NULL;
	s->where = (struct spe_dso_search){
		.symfs = s->symfs, .buildid_dir = s->buildid_dir,
		.demangle = !(cfg && cfg->no_demangle),
	};
	if (cfg) {
		s->warn = cfg->warn;
		s->warn_ctx = cfg->warn_ctx;
	}
	if (!share_of && cfg && cfg->kallsyms) {
		struct spe_symtab t = { 0 };
		int ret = load_kallsyms(&t, cfg->kallsyms, err, errlen);

		if (ret) {
			spe_symtab_free(&t);
			return ret;
		}
		sym_store_set_kernel(s->store, &t);
	}
	if (sym_store_kernel(s->store, &s->kernel)) {
		s->have_kernel = true;
		kernel_span(s);
	}
	return 0;
}

int spe_symbols_new(struct spe_symbols **out, const struct spe_sym_config *cfg,
		    char *err, size_t errlen)
{
	return symbols_new(out, cfg, NULL, err, errlen);
}

int spe_symbols_new_sharing(struct spe_symbols **out, const struct spe_sym_config *cfg,
			    const struct spe_symbols *share_of, char *err, size_t errlen)
{
	return symbols_new(out, cfg, share_of, err, errlen);
}

void spe_symbols_free(struct spe_symbols *s)
{
	if (!s)
		return;
	for (struct dso *d = s->dsos, *n; d; d = n) {
		n = d->next;
		free(d->path);
		sym_store_view_free(&d->tab);
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
	for (size_t i = 0; i < s->nr_kmaps; i++)
		free(s->kmaps[i].name);
	free(s->kmaps);
	sym_store_view_free(&s->kernel);
	sym_store_put(s->store);
	free(s->symfs);
	free(s->buildid_dir);
	free(s);
}
