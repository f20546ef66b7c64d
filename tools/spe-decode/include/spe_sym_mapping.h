/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The mapping a sampled address is in, as the recording describes it
 * (lib/symbols.c), for the views that name mappings (pprof's Mapping
 * messages).  Not installed: the library's users have spe_symbols_lookup().
 */
#ifndef SPE_SYM_MAPPING_H
#define SPE_SYM_MAPPING_H

#include <stddef.h>
#include <stdint.h>

#include "spe_symbols.h"

struct spe_sym_mapping {
	uint64_t start, limit;		/* [start, limit): 0, 0 when unknown */
	uint64_t pgoff;			/* file offset of start */
	const char *path;		/* the file as recorded (the dso of
					 * spe_symbols_lookup()); "[unknown]"
					 * outside any mapping */
	const uint8_t *build_id;	/* the file's build id in the recording
					 * (BUILD_ID section, MMAP2), NULL: none */
	size_t build_id_len;
};

/*
 * The mapping of ip in process pid (cpumode as spe_symbols_lookup()): an
 * MMAP or MMAP2 record's start, length and page offset, or the kernel's
 * map (the span of its symbols when the recording has no kernel map).
 * Its pointers live as long as s.
 */
void spe_symbols_mapping(struct spe_symbols *s, int32_t pid, uint64_t ip, uint16_t cpumode,
			 struct spe_sym_mapping *out);

#endif /* SPE_SYM_MAPPING_H */
