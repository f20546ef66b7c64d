/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * spe-gen --binary: a real ELF program whose functions the generated user
 * PCs are placed in, so a generated recording symbolises.  Read with
 * <elf.h> alone (spe-gen needs no libelf): the executable PT_LOAD segment,
 * mapped where a loader would put it, its build id and the function
 * symbols (.symtab, else .dynsym) inside the segment.
 */
#ifndef SPE_GEN_BINARY_H
#define SPE_GEN_BINARY_H

#include <stddef.h>
#include <stdint.h>

/* A function at its run-time address. */
struct gen_func {
	uint64_t start, size;
};

struct gen_binary {
	char *path;			/* absolute, for the MMAP2 record */
	const char *comm;		/* its base name, into path */
	/* The text segment's mapping (PERF_RECORD_MMAP2 start, len, pgoff). */
	uint64_t start, len, pgoff;
	uint8_t build_id[20];		/* NT_GNU_BUILD_ID, as perf record reads it */
	uint32_t build_id_len;		/* 0: the program has none */
	struct gen_func *funcs;		/* by address, no two overlapping */
	size_t nr_funcs;
	uint64_t *ends;			/* ends[i]: bytes of funcs[0..i] together */
	uint64_t total;			/* ends[nr_funcs - 1] */
};

/*
 * Reads @path.  Returns 0, or -1 with a message naming the problem in
 * @err (the file, not an ELF64 little-endian program, no executable
 * segment, no function symbols).
 */
int gen_binary_load(struct gen_binary *b, const char *path, char *err, size_t errlen);
void gen_binary_free(struct gen_binary *b);

/*
 * The address of the program's functions, laid end to end, at @offset
 * (taken modulo their total size): the same offset always gives the same
 * address, and neighbouring offsets neighbouring addresses within a
 * function.
 */
uint64_t gen_binary_pc(const struct gen_binary *b, uint64_t offset);

#endif /* SPE_GEN_BINARY_H */
