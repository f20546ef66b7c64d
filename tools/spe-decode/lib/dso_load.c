// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A dso's symbols from its ELF files, through libdwfl (elfutils).
 *
 * The file a mapping names is looked for where perf looks: with the build
 * id the recording has for it, first in perf's build-id cache
 * (BUILDID_DIR/.build-id/xx/rest/elf, BUILDID_DIR/PATH/ID/elf), then
 * at its path under the symfs prefix.  A file whose build id is not the
 * recorded one is never used: another build's symbols would be silently
 * wrong (perf rejects it too).  libdwfl then reads the symbol table: the
 * file's own .symtab, or that of a separate debug file found by the
 * find_debuginfo callback below in perf's order (.gnu_debuglink beside the
 * file, in .debug/ and under /usr/lib/debug; the cache's ID/debug;
 * /usr/lib/debug/.build-id/xx/rest.debug; /usr/lib/debug/PATH.debug and
 * /usr/lib/debug/PATH), or .gnu_debugdata, or .dynsym.  libdwfl also
 * relates the debug file's addresses to the mapped file's.
 *
 * perf keeps functions, data objects and untyped labels in text sections;
 * so does this, with names demangled as perf prints them.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "spe_decode.h"
#include "symtab.h"

struct search_ctx {
	const struct spe_dso_search *where;
	const char *path;		/* as the mapping names it */
	const char *main_file;		/* the file reported to libdwfl */
	const uint8_t *id;		/* the main file's build id */
	size_t id_len;
	char *debug_file;		/* the debug file find_debuginfo chose */
};

#define PATH_SIZE 4096

/* A path from a format; false when it does not fit (then it is skipped). */
__attribute__((format(printf, 2, 3)))
static bool fmt_path(char *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, PATH_SIZE, fmt, ap);
	va_end(ap);
	return n >= 0 && n < PATH_SIZE;
}

static void hex(char *out, const uint8_t *id, size_t len)
{
	for (size_t i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * len] = '\0';
}

/* The build id of an open ELF file; 0 when it has none. */
static size_t file_build_id(Elf *e, const uint8_t **id)
{
	const void *p = NULL;
	ssize_t n = dwelf_elf_gnu_build_id(e, &p);

	*id = p;
	return n > 0 ? (size_t)n : 0;
}

enum check { FILE_OK, FILE_ABSENT, FILE_OTHER_BUILD, FILE_NOT_ELF };

/* Whether the file at path is an ELF file of the build id (any file when
 * id_len is 0); its own build id in hex when it is another build's. */
static enum check check_file(const char *path, const uint8_t *id, size_t id_len,
			     char *found, size_t found_size)
{
	/* Never blocks: a recording may name a FIFO or a device. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	enum check ret = FILE_OK;
	const uint8_t *fid;
	struct stat st;
	size_t flen;
	Elf *e;

	if (fd < 0)
		return FILE_ABSENT;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return FILE_NOT_ELF;
	}
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		ret = FILE_NOT_ELF;
	} else if (id_len) {
		flen = file_build_id(e, &fid);
		if (flen != id_len || memcmp(fid, id, id_len)) {
			ret = FILE_OTHER_BUILD;
			if (found && flen && found_size > 2 * flen)
				hex(found, fid, flen);
			else if (found && found_size)
				snprintf(found, found_size, "%s", flen ? "too long" : "none");
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/* perf's build-id cache: BUILDID_DIR/.build-id/xx/rest links to the
 * directory BUILDID_DIR/PATH/ID holding "elf" and "debug" (an older cache
 * links to the file itself). */
static size_t cache_paths(char out[3][PATH_SIZE], const struct spe_dso_search *w,
			  const char *path, const char *idhex, const char *leaf)
{
	size_t n = 0;

	if (!strcmp(leaf, "elf"))
		n += fmt_path(out[n], "%s/.build-id/%.2s/%s", w->buildid_dir, idhex, idhex + 2);
	n += fmt_path(out[n], "%s/.build-id/%.2s/%s/%s", w->buildid_dir, idhex, idhex + 2, leaf);
	n += fmt_path(out[n], "%s%s/%s/%s", w->buildid_dir, path, idhex, leaf);
	return n;
}

/* The debug file of the module, in perf's order; its fd or -1. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink,
			  GElf_Word crc, char **debuginfo_file_name)
{
	struct search_ctx *c = *userdata;
	const char *symfs = c->where->symfs ? c->where->symfs : "";
	char cand[10][PATH_SIZE], idhex[2 * 64 + 1] = "", dir[PATH_SIZE], tmp[PATH_SIZE];
	size_t n = 0;

	(void)mod;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)crc;	/* perf does not check it: the build id decides */

	snprintf(tmp, sizeof(tmp), "%s", c->path);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	if (c->id_len && c->id_len <= 64)
		hex(idhex, c->id, c->id_len);
	if (debuglink && !strchr(debuglink, '/')) {
		n += fmt_path(cand[n], "%s%s/%s", symfs, dir, debuglink);
		n += fmt_path(cand[n], "%s%s/.debug/%s", symfs, dir, debuglink);
		n += fmt_path(cand[n], "%s/usr/lib/debug%s/%s", symfs, dir, debuglink);
	}
	if (idhex[0] && c->where->buildid_dir) {
		char cp[3][PATH_SIZE];
		size_t k = cache_paths(cp, c->where, c->path, idhex, "debug");

		for (size_t i = 0; i < k; i++)
			memcpy(cand[n++], cp[i], PATH_SIZE);
	}
	if (idhex[0])
		n += fmt_path(cand[n], "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs,
			 idhex, idhex + 2);
	n += fmt_path(cand[n], "%s/usr/lib/debug%s.debug", symfs, c->path);
	n += fmt_path(cand[n], "%s/usr/lib/debug%s", symfs, c->path);
	for (size_t i = 0; i < n; i++) {
		struct stat a, b;

		/* Not the mapped file itself (a debuglink naming its own file). */
		if (!stat(cand[i], &a) && !stat(c->main_file, &b) && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev)
			continue;
		if (check_file(cand[i], c->id, c->id_len, NULL, 0) != FILE_OK)
			continue;
		*debuginfo_file_name = strdup(cand[i]);
		free(c->debug_file);
		c->debug_file = strdup(cand[i]);
		return open(cand[i], O_RDONLY);
	}
	return -1;
}

/* Untyped labels count when they are in a text section, as in perf. */
static bool text_section(Elf *e, GElf_Word shndx)
{
	Elf_Scn *scn = elf_getscn(e, shndx);
	size_t shstrndx;
	GElf_Shdr sh;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(e, &shstrndx))
		return false;
	name = elf_strptr(e, shstrndx, sh.sh_name);
	return name && strstr(name, "text");
}

static bool wanted(const GElf_Sym *sym, const char *name, GElf_Word shndx, Elf *e,
		   unsigned machine)
{
	int type = GELF_ST_TYPE(sym->st_info);
	int vis = GELF_ST_VISIBILITY(sym->st_other);

	if (!name || !name[0] || shndx == SHN_UNDEF)
		return false;
	/* Arm mapping symbols ($x, $d, ...) mark code and data, not functions. */
	if ((machine == EM_AARCH64 || machine == EM_ARM) && name[0] == '$' &&
	    name[1] && strchr("adtx", name[1]) && (!name[2] || name[2] == '.'))
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)
		return true;
	return type == STT_NOTYPE && shndx != SHN_ABS && vis != STV_HIDDEN &&
	       vis != STV_INTERNAL && text_section(e, shndx);
}

static int read_symbols(struct spe_symtab *t, Dwfl_Module *m, bool demangle)
{
	int n = dwfl_module_getsymtab(m);
	GElf_Addr bias;
	Elf *main_elf = dwfl_module_getelf(m, &bias);
	GElf_Ehdr eh;
	size_t nph = 0;

	if (!main_elf || !gelf_getehdr(main_elf, &eh))
		return 0;
	if (!elf_getphdrnum(main_elf, &nph) && nph) {
		t->segs = calloc(nph, sizeof(*t->segs));
		if (!t->segs)
			return SPE_ERR_NOMEM;
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(main_elf, (int)i, &ph) && ph.p_type == PT_LOAD)
				t->segs[t->nr_segs++] = (struct spe_symtab_seg){
					.offset = ph.p_offset, .vaddr = ph.p_vaddr,
					.filesz = ph.p_filesz,
				};
		}
	}
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *e = NULL;
		Dwarf_Addr b;
		const char *name = dwfl_module_getsym_info(m, i, &sym, &addr, &shndx, &e, &b);
		char *dm;
		int err;

		if (!wanted(&sym, name, shndx, e, eh.e_machine))
			continue;
		dm = demangle ? spe_demangle(name) : NULL;
		err = spe_symtab_add(t, addr - bias, sym.st_size, dm ? dm : name,
				     GELF_ST_BIND(sym.st_info));
		free(dm);
		if (err)
			return err;
	}
	/* perf names the PLT entries of a file whose symbols it read, from
	 * the file itself (a debug file's .plt has no contents). */
	return t->nr ? spe_plt_symbols(t, main_elf, demangle) : 0;
}

enum spe_dso_status spe_dso_load(struct spe_symtab *t, const char *path,
				 const uint8_t *id, size_t id_len,
				 const struct spe_dso_search *where,
				 char *found_id, size_t found_id_size)
{
	static const Dwfl_Callbacks cb = {
		.find_debuginfo = find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	char cand[5][PATH_SIZE], idhex[2 * 64 + 1] = "";
	struct search_ctx ctx = { .where = where, .path = path, .id = id, .id_len = id_len };
	enum spe_dso_status status = SPE_DSO_NOT_FOUND;
	size_t n = 0;
	Dwfl *dwfl;
	Dwfl_Module *m;
	void **ud;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return SPE_DSO_NOT_ELF;
	if (id_len > 64)
		id_len = 0;
	if (id_len)
		hex(idhex, id, id_len);
	if (id_len && where->buildid_dir) {
		char cp[3][PATH_SIZE];
		size_t k = cache_paths(cp, where, path, idhex, "elf");

		for (size_t i = 0; i < k; i++)
			memcpy(cand[n++], cp[i], PATH_SIZE);
	}
	n += fmt_path(cand[n], "%s%s", where->symfs ? where->symfs : "", path);
	for (size_t i = 0; i < n && !ctx.main_file; i++) {
		char seen[2 * 64 + 8] = "";

		switch (check_file(cand[i], id, id_len, seen, sizeof(seen))) {
		case FILE_OK:
			ctx.main_file = cand[i];
			break;
		case FILE_OTHER_BUILD:
			status = SPE_DSO_BUILD_ID_MISMATCH;
			snprintf(found_id, found_id_size, "%s", seen);
			break;
		case FILE_NOT_ELF:
			if (status == SPE_DSO_NOT_FOUND)
				status = SPE_DSO_NOT_ELF;
			break;
		case FILE_ABSENT:
			break;
		}
	}
	if (!ctx.main_file)
		return status;
	dwfl = dwfl_begin(&cb);
	if (!dwfl)
		return SPE_DSO_NOT_FOUND;
	dwfl_report_begin(dwfl);
	/* At base 0: module addresses are the file's own ELF addresses. */
	m = dwfl_report_elf(dwfl, path, ctx.main_file, -1, 0, true);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!m) {
		dwfl_end(dwfl);
		return SPE_DSO_NOT_ELF;
	}
	dwfl_module_info(m, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = &ctx;
	if (!ctx.id_len) {
		/* No recorded build id: a debug file must match the file's own. */
		const unsigned char *bits;
		GElf_Addr vaddr, bias;
		int len;

		dwfl_module_getelf(m, &bias);
		len = dwfl_module_build_id(m, &bits, &vaddr);
		if (len > 0 && len <= 64) {
			ctx.id = bits;
			ctx.id_len = (size_t)len;
		}
	}
	if (read_symbols(t, m, where->demangle)) {
		dwfl_end(dwfl);
		spe_symtab_free(t);
		free(ctx.debug_file);
		return SPE_DSO_NOT_FOUND;
	}
	dwfl_end(dwfl);
	spe_symtab_finish(t, false);
	/* Source lines come from the same build: its debug file when the
	 * symbols came from one, else the file itself. */
	t->dwarf_file = ctx.debug_file ? ctx.debug_file : strdup(ctx.main_file);
	return SPE_DSO_OK;
}
