/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fixed-width types for code shared between the kernel module and userspace.
 *
 * Every header under include/spe/ and the SPU model include only this file,
 * so the same source compiles unchanged with the kernel's headers and with a
 * hosted C11 compiler.
 */
#ifndef SPE_TYPES_H
#define SPE_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

/* GENMASK/BIT equivalents that do not depend on either environment. */
#define SPE_BIT(n)		(1ULL << (n))
#define SPE_GENMASK(h, l)	((~0ULL >> (63 - (h))) & (~0ULL << (l)))

/* Extract or build a field given its mask; the mask must be non-zero. */
#define SPE_FIELD_GET(mask, v)	(((v) & (mask)) / ((mask) & ~((mask) << 1)))
#define SPE_FIELD_PREP(mask, v)	(((uint64_t)(v) * ((mask) & ~((mask) << 1))) & (mask))

#endif /* SPE_TYPES_H */
