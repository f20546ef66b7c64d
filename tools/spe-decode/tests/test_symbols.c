// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Symbolisation: an ip inside an MMAP2 mapping resolves through the ELF
 * file's segments to its symbol (this test program itself is the ELF);
 * absent files give [unknown]; kallsyms resolves kernel addresses; COMM and
 * FORK name threads and copy mappings.
 */
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "spe_perf_synth.h"
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

/* A record of type `type` with `body` bytes, in an event for the symbols. */
static void feed(struct spe_symbols *s, uint32_t type, const void *body, size_t n)
{
	uint64_t buf[64] = { 0 };
	struct perf_event_header *h = (void *)buf;
	struct spe_pdr_event ev = { .header = h };

	h->type = type;
	h->size = (uint16_t)(sizeof(*h) + ((n + 7) & ~7ul));
	memcpy(h + 1, body, n);
	spe_symbols_event(s, &ev);
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
	feed(s, PERF_RECORD_MMAP2, b, 64 + strlen(path) + 1);
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
		   "ffff800008020000 D some_data\nffff800008030000 T schedule\n");
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
	spe_symbols_lookup(s, 42, 0x30000000, PERF_RECORD_MISC_USER, &sym);
	CHECK(!sym.has_sym && !strcmp(sym.name, "[unknown]") && !strcmp(sym.dso, "[unknown]"),
	      "an ip outside every mapping is [unknown]");
	spe_symbols_lookup(s, 43, ip, PERF_RECORD_MISC_USER, &sym);
	CHECK(!sym.has_sym, "another process does not see pid 42's mappings");

	mmap2(s, 42, 0x50000000, 0x1000, 0, "/nonexistent/libgone.so");
	spe_symbols_lookup(s, 42, 0x50000010, PERF_RECORD_MISC_USER, &sym);
	CHECK(!sym.has_sym && !strcmp(sym.dso, "/nonexistent/libgone.so") &&
	      !strcmp(sym.name, "[unknown]"), "an absent file: its name as dso, [unknown] symbol");

	spe_symbols_lookup(s, 42, 0xffff800008010040ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "do_page_fault") && sym.offset == 0x40 &&
	      !strcmp(sym.dso, "[kernel.kallsyms]"), "kernel ip resolved from kallsyms");
	spe_symbols_lookup(s, 42, 0xffff800008020010ULL, PERF_RECORD_MISC_KERNEL, &sym);
	CHECK(sym.has_sym && !strcmp(sym.name, "do_page_fault"),
	      "data symbols (D) are not functions: the preceding text symbol");

	{
		unsigned char c[24] = { 0 };
		uint32_t pid = 42, tid = 44;

		memcpy(c, &pid, 4);
		memcpy(c + 4, &tid, 4);
		strcpy((char *)c + 8, "worker");
		feed(s, PERF_RECORD_COMM, c, 8 + 7);
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
		feed(s, PERF_RECORD_FORK, b, 24);
		spe_symbols_lookup(s, 50, ip, PERF_RECORD_MISC_USER, &sym);
		CHECK(sym.has_sym && !strcmp(sym.name, "spe_test_marker_function"),
		      "FORK copies the parent's mappings to the child");
		CHECK(spe_symbols_comm(s, 50) && !strcmp(spe_symbols_comm(s, 50), "worker"),
		      "FORK gives the child the parent's name");
	}
	spe_symbols_free(s);

	cfg.kallsyms = "/nonexistent/kallsyms";
	CHECK(spe_symbols_new(&s, &cfg, err, sizeof(err)) < 0 && strstr(err, "/nonexistent/kallsyms"),
	      "a missing kallsyms file is an error naming it");
	spe_symbols_free(s);
	return tap_done() | (spe_test_marker_function(1) != 4);
}
