/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Symbols of sampled addresses (lib/symbols.c): the maps and build ids a
 * perf.data records, resolved as perf report does.
 */
#ifndef SPE_SYMBOLS_H
#define SPE_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spe_perf_data.h"

struct spe_symbols;

struct spe_sym_config {
	const char *kallsyms;		/* kernel symbols ("addr type name"), or NULL */
	const char *symfs;		/* prefix for the paths of MMAP2 records, or NULL */
	const char *buildid_dir;	/* perf's build-id cache; NULL: ~/.debug */
	bool no_demangle;		/* ELF names as they are (perf --no-demangle) */
	/* Called with a message for what the user must know (a file of
	 * another build not used); NULL: silent. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

/* Where an ip is: dso and symbol, "[unknown]" when not known. */
struct spe_sym {
	const char *dso;
	const char *name;
	uint64_t offset;		/* ip - symbol start */
	uint64_t elf_addr;		/* ip as an address in the dso's ELF file
					 * (for DWARF lookups; the ip for kernel) */
	bool has_sym;
	const char *file;		/* the ELF file (or its debug file) the
					 * symbols came from, for DWARF; NULL */
};

int spe_symbols_new(struct spe_symbols **out, const struct spe_sym_config *cfg,
		    char *err, size_t errlen);
/*
 * As spe_symbols_new(), but sharing share_of's symbol tables: its kallsyms
 * table (cfg->kallsyms is not read again) and those of the files either
 * one loads, each loaded once, for objects used side by side in threads
 * of their own.  Their maps and threads stay each object's own.  cfg must
 * search files as share_of's did (symfs, build-id cache, demangling).
 * Either may be freed first.
 */
int spe_symbols_new_sharing(struct spe_symbols **out, const struct spe_sym_config *cfg,
			    const struct spe_symbols *share_of, char *err, size_t errlen);
void spe_symbols_free(struct spe_symbols *s);
/* The build id the recording has for a file (BUILD_ID feature section,
 * MMAP2 with a build id): a file of another build is not used. */
int spe_symbols_build_id(struct spe_symbols *s, const char *path, const uint8_t *id,
			 size_t len);
/* Every entry of a BUILD_ID feature section. */
int spe_symbols_build_id_section(struct spe_symbols *s, const void *sec, size_t len);
/* Feed COMM, FORK, MMAP, MMAP2 and HEADER_BUILD_ID records (others are
 * ignored). */
int spe_symbols_event(struct spe_symbols *s, const struct spe_perf_reader_event *ev);
/* The command name of a thread, NULL when no COMM named it. */
const char *spe_symbols_comm(const struct spe_symbols *s, int32_t tid);
void spe_symbols_lookup(struct spe_symbols *s, int32_t pid, uint64_t ip,
			uint16_t cpumode, struct spe_sym *out);

#endif /* SPE_SYMBOLS_H */
