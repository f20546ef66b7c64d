/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in: the kernel types the driver's portable files use (spe_caps.c,
 * spe_format.c, spe_aux_window.c, spe_pmbsr.c), so the unit tests compile
 * those files unchanged.  The system's own <linux/types.h> comes first
 * because libc headers include it too.
 */
#ifndef SPE_SHIM_LINUX_TYPES_H
#define SPE_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#endif
