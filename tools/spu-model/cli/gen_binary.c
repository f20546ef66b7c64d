// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The program spe-gen --binary places user PCs in: its executable segment
 * and function symbols, read from the ELF64 headers (System V gABI, "ELF
 * Header", "Program Header", "Symbol Table").  Every offset and count read
 * from the file is checked against its size before use.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_binary.h"

/*
 * Where a position-independent program is loaded: the first page of the
 * region Linux/arm64 puts PIE programs at with 48-bit VAs (ELF_ET_DYN_BASE,
 * two thirds of TASK_SIZE), so generated addresses look like arm64 ones.
 */
#define PIE_BASE	0x0000aaaaaaaa0000ULL
#define PAGE		4096ULL

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* [off, off + n * size) lies within a file of @len bytes. */
static bool in_file(uint64_t len, uint64_t off, uint64_t n, uint64_t size)
{
	return off <= len && (size == 0 || n <= (len - off) / size);
}

static int by_start(const void *a, const void *b)
{
	const struct gen_func *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Of aliases, the longest first: it is the one kept. */
	return x->size > y->size ? -1 : x->size < y->size;
}

/* The function symbols of the section table's symbol table @want inside
 * the segment [lo, hi) (ELF addresses), at their run-time addresses.
 * Returns 0, -1 for a table outside the file, or -ENOMEM. */
static int read_funcs(struct gen_binary *b, const uint8_t *f, uint64_t len,
		      const Elf64_Ehdr *eh, uint32_t want, uint64_t lo, uint64_t hi,
		      uint64_t bias)
{
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);

	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		uint64_t n;

		if (sh[i].sh_type != want || sh[i].sh_entsize != sizeof(Elf64_Sym))
			continue;
		n = sh[i].sh_size / sizeof(Elf64_Sym);
		if (!in_file(len, sh[i].sh_offset, n, sizeof(Elf64_Sym)) ||
		    sh[i].sh_offset % _Alignof(Elf64_Sym))
			return -1;
		sym = (const Elf64_Sym *)(f + sh[i].sh_offset);
		b->funcs = calloc(n ? n : 1, sizeof(*b->funcs));
		if (!b->funcs)
			return -ENOMEM;
		for (uint64_t k = 0; k < n; k++) {
			const Elf64_Sym *s = &sym[k];

			if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
			    !s->st_size || s->st_value < lo || s->st_value >= hi ||
			    s->st_size > hi - s->st_value)
				continue;
			b->funcs[b->nr_funcs++] = (struct gen_func){ bias + s->st_value, s->st_size };
		}
		return 0;
	}
	return 0;
}

/*
 * The GNU build id from the PT_NOTE segments (gABI "Note Section": namesz,
 * descsz, type, then name and desc each padded to 4 bytes; LSB "Note
 * Types": NT_GNU_BUILD_ID with name "GNU").  A program without one, or
 * with a damaged note, has none: perf names its file by path alone.
 */
static void read_build_id(struct gen_binary *b, const uint8_t *f, uint64_t len,
			  const Elf64_Phdr *ph, unsigned phnum)
{
	for (unsigned i = 0; i < phnum; i++) {
		uint64_t off = ph[i].p_offset, end;

		if (ph[i].p_type != PT_NOTE || off > len || ph[i].p_filesz > len - off)
			continue;
		end = off + ph[i].p_filesz;
		while (end - off >= sizeof(Elf64_Nhdr)) {
			Elf64_Nhdr nh;
			uint64_t name, desc;

			memcpy(&nh, f + off, sizeof(nh));
			name = off + sizeof(nh);
			desc = name + (((uint64_t)nh.n_namesz + 3) & ~3ULL);
			if (desc > end || ((uint64_t)nh.n_descsz + 3) / 4 > (end - desc) / 4)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(f + name, "GNU", 4) && nh.n_descsz &&
			    nh.n_descsz <= sizeof(b->build_id)) {
				memcpy(b->build_id, f + desc, nh.n_descsz);
				b->build_id_len = nh.n_descsz;
				return;
			}
			off = desc + (((uint64_t)nh.n_descsz + 3) & ~3ULL);
		}
	}
}

static int load(struct gen_binary *b, const uint8_t *f, uint64_t len, char *err, size_t errlen)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
	const Elf64_Phdr *ph, *text = NULL;
	uint64_t bias, lo, hi, sum = 0;
	size_t kept = 0;
	int rc;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return fail(err, errlen, "not an ELF file");
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return fail(err, errlen, "not a 64-bit little-endian ELF file");
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return fail(err, errlen, "not a program or shared object (ELF type %u)", eh->e_type);
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff % 8 ||
	    !in_file(len, eh->e_phoff, eh->e_phnum, sizeof(Elf64_Phdr)))
		return fail(err, errlen, "program headers outside the file");
	if (eh->e_shnum && (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff % 8 ||
			    !in_file(len, eh->e_shoff, eh->e_shnum, sizeof(Elf64_Shdr))))
		return fail(err, errlen, "section headers outside the file");
	ph = (const Elf64_Phdr *)(f + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum && !text; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X))
			text = &ph[i];
	if (!text || !text->p_memsz)
		return fail(err, errlen, "no executable segment");
	/* mmap(2) maps whole pages: the address and the file offset of the
	 * segment must agree within a page. */
	if ((text->p_vaddr - text->p_offset) % PAGE || text->p_offset > len ||
	    text->p_memsz > UINT64_MAX - PAGE - PIE_BASE ||
	    text->p_vaddr > UINT64_MAX - PAGE - PIE_BASE - text->p_memsz)
		return fail(err, errlen, "executable segment cannot be mapped");
	bias = eh->e_type == ET_DYN ? PIE_BASE : 0;
	lo = text->p_vaddr;
	hi = text->p_vaddr + text->p_memsz;
	b->start = bias + (lo & ~(PAGE - 1));
	b->pgoff = text->p_offset & ~(PAGE - 1);
	b->len = ((hi + PAGE - 1) & ~(PAGE - 1)) - (lo & ~(PAGE - 1));

	read_build_id(b, f, len, ph, eh->e_phnum);
	rc = read_funcs(b, f, len, eh, SHT_SYMTAB, lo, hi, bias);
	if (!rc && !b->nr_funcs) {
		free(b->funcs);
		b->funcs = NULL;
		rc = read_funcs(b, f, len, eh, SHT_DYNSYM, lo, hi, bias);
	}
	if (rc == -ENOMEM)
		return fail(err, errlen, "out of memory");
	if (rc)
		return fail(err, errlen, "symbol table outside the file or misaligned");
	if (!b->nr_funcs)
		return fail(err, errlen, "no function symbols in its executable segment (stripped?)");
	/* By address; of aliases and overlaps the first (longest) kept. */
	qsort(b->funcs, b->nr_funcs, sizeof(*b->funcs), by_start);
	for (size_t i = 0; i < b->nr_funcs; i++)
		if (!kept || b->funcs[i].start >= b->funcs[kept - 1].start + b->funcs[kept - 1].size)
			b->funcs[kept++] = b->funcs[i];
	b->nr_funcs = kept;
	b->ends = malloc(kept * sizeof(*b->ends));
	if (!b->ends)
		return fail(err, errlen, "out of memory");
	for (size_t i = 0; i < kept; i++) {
		sum += b->funcs[i].size;
		b->ends[i] = sum;
	}
	b->total = sum;
	return 0;
}

int gen_binary_load(struct gen_binary *b, const char *path, char *err, size_t errlen)
{
	struct stat st;
	void *map;
	int fd, rc;
	char *slash;

	memset(b, 0, sizeof(*b));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		rc = errno;
		close(fd);
		return fail(err, errlen, "%s: %s", path, strerror(rc));
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return fail(err, errlen, "%s: not a regular file", path);
	}
	b->path = realpath(path, NULL);
	if (!b->path) {
		close(fd);
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	}
	slash = strrchr(b->path, '/');
	b->comm = slash ? slash + 1 : b->path;
	if (!st.st_size) {
		close(fd);
		fail(err, errlen, "%s: not an ELF file (empty)", path);
		gen_binary_free(b);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		fail(err, errlen, "%s: %s", path, strerror(errno));
		gen_binary_free(b);
		return -1;
	}
	rc = load(b, map, (uint64_t)st.st_size, err, errlen);
	munmap(map, (size_t)st.st_size);
	if (rc) {
		/* The message names the file. */
		char what[256];

		snprintf(what, sizeof(what), "%s", err);
		snprintf(err, errlen, "%s: %s", path, what);
		gen_binary_free(b);
	}
	return rc;
}

void gen_binary_free(struct gen_binary *b)
{
	free(b->path);
	free(b->funcs);
	free(b->ends);
	memset(b, 0, sizeof(*b));
}

uint64_t gen_binary_pc(const struct gen_binary *b, uint64_t offset)
{
	size_t lo = 0, hi = b->nr_funcs - 1;

	offset %= b->total;
	/* The first function whose end is past @offset. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->ends[mid] > offset)
			hi = mid;
		else
			lo = mid + 1;
	}
	return b->funcs[lo].start + b->funcs[lo].size - (b->ends[lo] - offset);
}
