/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in: BIT() as in the kernel's <linux/bits.h>. */
#ifndef SPE_SHIM_LINUX_BITS_H
#define SPE_SHIM_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))

#endif
