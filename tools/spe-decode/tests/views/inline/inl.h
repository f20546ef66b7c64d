/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The program suite 28 profiles (with main.c and lib.c): functions inlined
 * two deep, from a header, so that an instruction's inline chain crosses
 * files.  Compiled, never run.
 */
#ifndef SPE_TEST_INL_H
#define SPE_TEST_INL_H

static inline __attribute__((always_inline)) long leaf(const long *a, int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += a[i] * 3 + (a[i] >> 2);	/* LEAF-BODY */
	return s;
}

#endif
