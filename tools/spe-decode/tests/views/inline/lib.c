// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The shared library of suite 28's inlining test: lib_leaf inlined into
 * lib_sum. */
long lib_sum(const long *a, int n);

static inline __attribute__((always_inline)) long lib_leaf(const long *a, int n)
{
	long s = 1;

	for (int i = 0; i < n; i++)
		s = s * 31 + a[i];	/* LIB-LEAF */
	return s;
}

long lib_sum(const long *a, int n)
{
	return lib_leaf(a, n) + lib_leaf(a, n / 2);	/* LIB-CALL */
}
