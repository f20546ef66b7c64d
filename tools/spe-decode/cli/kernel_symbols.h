/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where kernel symbols come from when --kallsyms is not given, as perf
 * finds them: the build-id cache perf record fills (~/.debug/[kernel.
 * kallsyms]/BUILD_ID/kallsyms, by the kernel build id the recording's
 * BUILD_ID feature names), else /proc/kallsyms when the recording was made
 * on this machine (same host name and kernel release) and its addresses
 * are not hidden.
 */
#ifndef SPE_DECODE_CLI_KERNEL_SYMBOLS_H
#define SPE_DECODE_CLI_KERNEL_SYMBOLS_H

#include <stddef.h>

#include "spe_symbols.h"

/* The kallsyms file for the perf.data at @path ("-": none), in @buf; NULL
 * when there is none. */
const char *spe_default_kallsyms(const char *path, char *buf, size_t size);

/* The build ids of the perf.data at @path (its BUILD_ID feature section)
 * into @s, so that files of another build are not used; nothing for a
 * pipe ("-"), whose build ids come as events. */
void spe_recording_build_ids(const char *path, struct spe_symbols *s);

/* spe_symbols_new() for command @cmd reading @path: warnings on stderr,
 * the recording's build ids fed. */
int spe_cli_symbols_new(struct spe_symbols **out, struct spe_sym_config *cfg,
			const char *cmd, const char *path, char *err, size_t errlen);
/* The same, sharing share_of's symbol tables (NULL: tables of its own),
 * for sessions side by side (spe_symbols_new_sharing()). */
int spe_cli_symbols_share(struct spe_symbols **out, struct spe_sym_config *cfg,
			  const char *cmd, const char *path, const struct spe_symbols *share_of,
			  char *err, size_t errlen);

#endif /* SPE_DECODE_CLI_KERNEL_SYMBOLS_H */
