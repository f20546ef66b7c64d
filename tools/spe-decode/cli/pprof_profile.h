/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A pprof profile of SPE records (pprof_profile.c), for spe-decode pprof.
 * Sample types: samples, latency (cycles, total latency; saturated
 * counters left out as in report), l1d-miss, llc-miss, tlb-walk,
 * mispredict.  One location per instruction address in its mapping, with
 * its inline chain (functions, files, lines) from DWARF (per 4 KiB page
 * for code without symbols, unless spe_pprof_set_unresolved() asks for
 * addresses); mappings as the recording has them, with build ids; labels
 * "op" and "data_src".
 */
#ifndef SPE_DECODE_CLI_PPROF_PROFILE_H
#define SPE_DECODE_CLI_PPROF_PROFILE_H

#include <stdbool.h>

#include "spe_views.h"

struct spe_pprof;

int spe_pprof_new(struct spe_pprof **out);
void spe_pprof_free(struct spe_pprof *p);
/* Addresses without a symbol by page (the default) or by address; before
 * the first record. */
void spe_pprof_set_unresolved(struct spe_pprof *p, enum spe_view_unresolved u);
/* One record; its mapping from syms and its lines from sl (either NULL:
 * none known), the same objects for every record (their names are
 * compared by address).  -ENOMEM (and spe_pprof_oom()) when memory ran
 * out. */
int spe_pprof_add(struct spe_pprof *p, const struct spe_view_sample *vs,
		  struct spe_symbols *syms, struct spe_srcline *sl);
bool spe_pprof_oom(const struct spe_pprof *p);
/* Builds, packs and gzips the profile into fd (comment_path names the
 * input in the profile's comment).  0, -ENOMEM or -EIO. */
int spe_pprof_write(struct spe_pprof *p, const char *comment_path, int fd);

#endif /* SPE_DECODE_CLI_PPROF_PROFILE_H */
