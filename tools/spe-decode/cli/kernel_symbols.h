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

/* The kallsyms file for the perf.data at @path ("-": none), in @buf; NULL
 * when there is none. */
const char *spe_default_kallsyms(const char *path, char *buf, size_t size);

#endif /* SPE_DECODE_CLI_KERNEL_SYMBOLS_H */
