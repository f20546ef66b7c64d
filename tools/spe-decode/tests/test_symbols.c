// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Symbolisation: an ip inside an MMAP2 mapping resolves through the ELF
 * file's segments to its symbol (this test program itself is the ELF);
 * absent files give [unknown]; kallsyms resolves kernel addresses; COMM and
 * FORK name threads and copy mappings.
 */
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "spe_symbols.h"
#include "tap.h"

/* A function with a known name whose address we can take. */
__attribute__((noinline)) int spe_test_marker_function(int x)
{
	return x * 3 + 1;
}

static uintptr_t load_base;
static uint64_t text_off, text_vaddr;

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (info->dlpi_name[0])	/* the main program comes first, unnamed */
		return 0;
	load_base = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			text_off = ph->p_offset;
			text_vaddr = ph->p_vaddr;
		}
	}
	return 1;
}

static uint8_t own_id[20];
static size_t own_id_len;

/* The main program's build id, from its NT_GNU_BUILD_ID note in memory. */
static int note_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (info->dlpi_name[0])
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const void *)(info->dlpi_addr + ph->p_vaddr);
		size_t off = 0;

		while (ph->p_type == PT_NOTE && off + 12 <= ph->p_memsz) {
			uint32_t nsz, dsz, type;

			memcpy(&nsz, p + off, 4);
			memcpy(&dsz, p + off + 4, 4);
			memcpy(&type, p + off + 8, 4);
			if (type == NT_GNU_BUILD_ID && nsz == 4 && !memcmp(p + off + 12, "GNU", 4) &&
			    dsz <= sizeof(own_id)) {
				memcpy(own_id, p + off + 16, dsz);
				own_id_len = dsz;
				return 1;
			}
			off += 12 + ((nsz + 3) & ~3u) + ((dsz + 3) & ~3u);
		}
	}
	return 1;
}

static char warned[8192];

static void on_warn(void *ctx, const char *msg)
{
	(void)ctx;
	snprintf(warned, sizeof(warned), "%s", msg);
}

/* A record of type `type` with `body` bytes, in an event for the symbols. */
static void feed(struct spe_symbols *s, uint32_t type, uint16_t misc, const void *body,
		 size_t n)
{
	uint64_t buf[64] = { 0 };
	struct perf_event_header *h = (void *)buf;
	struct spe_perf_reader_event ev = { .header = h };

	h->misc = misc;
	h->type = type;
	h->size = (uint16_t)(sizeof(*h) + ((n + 7) & ~7ul));
	memcpy(h + 1, body, n);
	spe_symbols_event(s, &ev);
}

/* An MMAP2 record; with a build id when id_len, a kernel map when pid is -1. */
static void mmap2_id(struct spe_symbols *s, uint32_t pid, uint64_t start, uint64_t len,
		     const char *path, const uint8_t *id, size_t id_len)
{
	unsigned char b[256] = { 0 };
	uint16_t misc = pid == (uint32_t)-1 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &start, 8);
	memcpy(b + 16, &len, 8);
	if (id_len) {
		misc |= 1 << 14;	/* PERF_RECORD_MISC_MMAP_BUILD_ID */
		b[32] = (uint8_t)id_len;
		memcpy(b + 36, id, id_len);
	}
	strcpy((char *)b + 64, path);
	feed(s, PERF_RECORD_MMAP2, misc, b, 64 + strlen(path) + 1);
}

/* Build ids: the recording's decides which file is used. */
static void test_build_ids(const char *exe, uint64_t ip)
{
	struct spe_sym_config cfg = { .warn = on_warn, .buildid_dir = "/nonexistent" };
	uint8_t wrong[20];
	unsigned char sec[128] = { 0 };
	struct perf_event_header h = { .misc = 1 << 15, .size = 0 };
	struct spe_symbols *s;
	struct spe_sym sym;
	char err[256];
	size_t n = strlen(exe) + 1;

	dl_iterate_phdr(note_cb, NULL);
	if (!own_id_len) {
		CHECK(1, "# SKIP the test program has no build id");
		return;
	}
	memcpy(wrong, own_id, own_id_len);
	wrong[0] ^= 0xff;

	CHECK(!spe_symbols_new(&s, &cfg, err, sizeof(err)), "a symboliser with a warning callback");
	mmap2_id(s, 42, 0x10000000, 0x10000000, exe, own_id, own_id_len);
	spe_symbols_lookup(s, 42, ip, PERF_RECORD_MISC_USER, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "spe_test_marker_function") && !warned[0],
	      "MMAP2 with the file's own build id: its symbols, no warning");
	spe_symbols_free(s);

	/* The BUILD_ID feature section: one entry, the id's size in byte 20. */
	h.size = (uint16_t)(36 + ((n + 7) & ~(size_t)7));
	if (h.size > sizeof(sec))
		return;
	memcpy(sec, &h, sizeof(h));
	memcpy(sec + 12, wrong, own_id_len);
	sec[32] = (unsigned char)own_id_len;
	memcpy(sec + 36, exe, n);
	CHECK(!spe_symbols_new(&s, &cfg, err, sizeof(err)), "a second symboliser");
	CHECK(!spe_symbols_build_id_section(s, sec, h.size), "a BUILD_ID section is read");
	mmap2_id(s, 42, 0x10000000, 0x10000000, exe, NULL, 0);
	spe_symbols_lookup(s, 42, ip, PERF_RECORD_MISC_USER, &sym);
	CHECK(!sym.has_sym && !strcmp(sym.name, "[unknown]") && !strcmp(sym.dso, exe),
	      "a file of another build is not used: [unknown], the path as dso");
	CHECK(strstr(warned, exe) && strstr(warned, "build id"),
	      "the mismatch is a warning naming the file");
	spe_symbols_free(s);
}

/* Kernel maps: a module's map names its dso [module] with its kallsyms
 * symbols; the kernel's map spans the kernel's symbols. */
static void test_kernel_maps(void)
{
	char ks[] = "/tmp/spe-ks-XXXXXX", err[256];
	struct spe_sym_config cfg = { .kallsyms = ks };
	struct spe_symbols *s;
	struct spe_sym sym;
	int fd = mkstemp(ks);
	FILE *f = fdopen(fd, "w");

	fprintf(f, "ffff800008000000 T _stext\nffff800008001000 T schedule\n"
		   "ffff800009000000 t mod_probe\t[my_mod]\n"
		   "ffff800009000100 t mod_irq\t[my_mod]\n"
		   "ffff80000a000000 t other_fn\t[other]\n");
	fclose(f);
	CHECK(!spe_symbols_new(&s, &cfg, err, sizeof(err)), "kallsyms with module symbols loads");
	unlink(ks);
	mmap2_id(s, (uint32_t)-1, 0xffff800008000000ULL, 0x100000, "[kernel.kallsyms]_text",
		 NULL, 0);
	mmap2_id(s, (uint32_t)-1, 0xffff800009000000ULL, 0x1000,
		 "/lib/modules/6.1.0/extra/my-mod.ko", NULL, 0);
	spe_symbols_lookup(s, 42, 0xffff800009000104ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "mod_irq") && sym.offset == 4 &&
	      !strcmp(sym.dso, "[my_mod]"), "a module ip: [my_mod] and its symbol");
	spe_symbols_lookup(s, 42, 0xffff800008001010ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "schedule") && !strcmp(sym.dso, "[kernel.kallsyms]"),
	      "a kernel ip beside module maps: [kernel.kallsyms]");
	spe_symbols_lookup(s, 42, 0xffff80000a000010ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(!sym.has_sym && !strcmp(sym.dso, "[unknown]"),
	      "a module symbol without its module's map: [unknown], as perf");

	/* Another object with the same kernel symbols, not read again (the
	 * file is gone), and maps of its own; freed first, it leaves the
	 * first one's symbols whole. */
	{
		struct spe_symbols *b = NULL;
		struct spe_sym bsym;

		CHECK(!spe_symbols_new_sharing(&b, &cfg, s, err, sizeof(err)),
		      "kernel symbols shared, the kallsyms file not read again");
		mmap2_id(b, (uint32_t)-1, 0xffff800008000000ULL, 0x100000, "[kernel.kallsyms]_text",
			 NULL, 0);
		spe_symbols_lookup(b, 42, 0xffff800008001010ULL, PERF_RECORD_MISC_KERNEL, &bsym);
		spe_symbols_lookup(b, 42, 0xffff800009000104ULL, PERF_RECORD_MISC_KERNEL, &sym);
		CHECK(bsym.has_sym && !strcmp(bsym.name, "schedule") &&
		      !strcmp(bsym.dso, "[kernel.kallsyms]") && !sym.has_sym,
		      "shared kernel symbols resolve through the object's own maps (no module map: [unknown])");
		spe_symbols_free(b);
		spe_symbols_lookup(s, 42, 0xffff800009000104ULL, PERF_RECORD_MISC_KERNEL, &sym);
		CHECK(sym.has_sym && !strcmp(sym.name, "mod_irq"),
		      "the first object's kernel symbols outlive the one that shared them");
		/* ... and the other way round. */
		CHECK(!spe_symbols_new_sharing(&b, &cfg, s, err, sizeof(err)),
		      "another one shares them");
		spe_symbols_free(s);
		s = NULL;
		mmap2_id(b, (uint32_t)-1, 0xffff800008000000ULL, 0x100000, "[kernel.kallsyms]_text",
			 NULL, 0);
		spe_symbols_lookup(b, 42, 0xffff800008001010ULL, PERF_RECORD_MISC_KERNEL, &bsym);
		CHECK(bsym.has_sym && !strcmp(bsym.name, "schedule"),
		      "shared kernel symbols outlive the object they were loaded for");
		spe_symbols_free(b);
	}
	spe_symbols_free(s);
}

static void mmap2(struct spe_symbols *s, uint32_t pid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *path)
{
	unsigned char b[256] = { 0 };

	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &start, 8);
	memcpy(b + 16, &len, 8);
	memcpy(b + 24, &pgoff, 8);
	strcpy((char *)b + 64, path);
	feed(s, PERF_RECORD_MMAP2, 0, b, 64 + strlen(path) + 1);
}

int main(void)
{
	char exe[4096], err[256] = "", ks[] = "/tmp/spe-ks-XXXXXX";
	struct spe_sym_config cfg = { 0 };
	struct spe_symbols *s;
	struct spe_sym sym;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uint64_t vaddr, off, ip;
	int fd;
	FILE *f;

	if (n <= 0)
		return 1;
	exe[n] = '\0';
	dl_iterate_phdr(phdr_cb, NULL);
	vaddr = (uintptr_t)&spe_test_marker_function - load_base;
	off = vaddr - text_vaddr + text_off;

	fd = mkstemp(ks);
	f = fdopen(fd, "w");
	fprintf(f, "ffff800008000000 T _stext\nffff800008010000 t do_page_fault\n"
		   "ffff800008020000 D some_data\nffff800008028000 r some_rodata\n"
		   "ffff800008030000 T schedule\n");
	fclose(f);
	cfg.kallsyms = ks;
	CHECK(!spe_symbols_new(&s, &cfg, err, sizeof(err)), "kallsyms file loads");
	unlink(ks);

	/* The program mapped (as a whole file) at 0x10000000 in pid 42. */
	mmap2(s, 42, 0x10000000, 0x10000000, 0, exe);
	ip = 0x10000000 + off + 4;
	spe_symbols_lookup(s, 42, ip, PERF_RECORD_MISC_USER, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "spe_test_marker_function") && sym.offset == 4 &&
	      !strcmp(sym.dso, exe),
	      "ip -> file offset -> ELF address -> the function's symbol and offset");
	/* Another object sharing the tables: the file is not loaded again
	 * (the name is the same string), and outlives the first one. */
	{
		struct spe_symbols *b = NULL;
		struct spe_sym bsym;

		CHECK(!spe_symbols_new_sharing(&b, &cfg, s, err, sizeof(err)) && b,
		      "a symboliser sharing the first one's tables");
		mmap2(b, 42, 0x10000000, 0x10000000, 0, exe);
		spe_symbols_lookup(b, 42, ip, PERF_RECORD_MISC_USER, &bsym);
		CHECK(bsym.has_sym && bsym.name == sym.name && bsym.offset == 4,
		      "a shared file's table is loaded once: the same symbol, the same string");
		spe_symbols_free(b);
	}
	spe_symbols_lookup(s, 42, 0x30000000, PERF_RECORD_MISC_USER, &sym);
	CHECK(!sym.has_sym && !strcmp(sym.name, "[unknown]") && !strcmp(sym.dso, "[unknown]"),
	      "an ip outside every mapping is [unknown]");
	spe_symbols_lookup(s, 43, ip, PERF_RECORD_MISC_USER, &sym);
	CHECK(!sym.has_sym, "another process does not see pid 42's mappings");

	mmap2(s, 42, 0x50000000, 0x1000, 0, "/nonexistent/libgone.so");
	spe_symbols_lookup(s, 42, 0x50000010, PERF_RECORD_MISC_USER, &sym);
	CHECK(!sym.has_sym && !strcmp(sym.dso, "/nonexistent/libgone.so") &&
	      !strcmp(sym.name, "[unknown]"), "an absent file: its name as dso, [unknown] symbol");

	/* perf makes the kernel's map from its MMAP record only: until then
	 * no kernel ip has a symbol, whatever kallsyms says. */
	spe_symbols_lookup(s, 42, 0xffff800008010040ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(!sym.has_sym && !strcmp(sym.name, "[unknown]") && !strcmp(sym.dso, "[unknown]"),
	      "no kernel map: a kernel ip is [unknown] ([unknown]), as perf");
	mmap2_id(s, (uint32_t)-1, 0xffff800008000000ULL, 0x100000, "[kernel.kallsyms]_text",
		 NULL, 0);
	spe_symbols_lookup(s, 42, 0xffff800008010040ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "do_page_fault") && sym.offset == 0x40 &&
	      !strcmp(sym.dso, "[kernel.kallsyms]"), "kernel ip resolved from kallsyms");
	spe_symbols_lookup(s, 42, 0xffff800008020010ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "some_data"),
	      "data symbols (D) count, as in perf 6.1 (data addresses resolve)");
	spe_symbols_lookup(s, 42, 0xffff800008028010ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "some_data") && sym.offset == 0x8010,
	      "read-only data symbols (r) do not count, as in perf");

	{
		unsigned char c[24] = { 0 };
		uint32_t pid = 42, tid = 44;

		memcpy(c, &pid, 4);
		memcpy(c + 4, &tid, 4);
		strcpy((char *)c + 8, "worker");
		feed(s, PERF_RECORD_COMM, 0, c, 8 + 7);
		CHECK(spe_symbols_comm(s, 44) && !strcmp(spe_symbols_comm(s, 44), "worker"),
		      "COMM names a thread");
		CHECK(!spe_symbols_comm(s, 45), "an unnamed thread has no comm");
	}
	{
		uint32_t fk[4] = { 50, 42, 50, 44 };	/* pid, ppid, tid, ptid */
		uint64_t t = 0;
		unsigned char b[24];

		memcpy(b, fk, 16);
		memcpy(b + 16, &t, 8);
		feed(s, PERF_RECORD_FORK, 0, b, 24);
		spe_symbols_lookup(s, 50, ip, PERF_RECORD_MISC_USER, &sym);
		CHECK(sym.has_sym && !strcmp(sym.name, "spe_test_marker_function"),
		      "FORK copies the parent's mappings to the child");
		CHECK(spe_symbols_comm(s, 50) && !strcmp(spe_symbols_comm(s, 50), "worker"),
		      "FORK gives the child the parent's name");
	}
	/* A newer mapping over the one the previous lookup used wins. */
	spe_symbols_lookup(s, 42, ip, PERF_RECORD_MISC_USER, &sym);
	mmap2(s, 42, ip & ~0xfffull, 0x1000, 0, "/nonexistent/shadow.so");
	spe_symbols_lookup(s, 42, ip, PERF_RECORD_MISC_USER, &sym);
	CHECK(!strcmp(sym.dso, "/nonexistent/shadow.so") && !sym.has_sym,
	      "a newer overlapping mapping shadows the older one");
	spe_symbols_lookup(s, 42, ip + 0x1000, PERF_RECORD_MISC_USER, &sym);
	CHECK(!strcmp(sym.dso, exe), "outside it, the older mapping still answers");
	spe_symbols_lookup(s, 42, ip, PERF_RECORD_MISC_USER, &sym);
	CHECK(!strcmp(sym.dso, "/nonexistent/shadow.so"),
	      "the older mapping, used last, does not answer for the newer one's range");
	spe_symbols_free(s);

	test_build_ids(exe, ip);
	test_kernel_maps();

	cfg.kallsyms = "/nonexistent/kallsyms";
	CHECK(spe_symbols_new(&s, &cfg, err, sizeof(err)) < 0 && strstr(err, "/nonexistent/kallsyms"),
	      "a missing kallsyms file is an error naming it");
	spe_symbols_free(s);
	return tap_done() | (spe_test_marker_function(1) != 4);
}
