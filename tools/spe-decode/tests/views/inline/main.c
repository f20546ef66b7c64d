// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The executable of suite 28's inlining test: leaf (inl.h) inlined into
 * middle, inlined into outer; lib_sum comes from libinl.so (lib.c). */
#include "inl.h"

long lib_sum(const long *a, int n);

static inline __attribute__((always_inline)) long middle(const long *a, int n)
{
	return leaf(a, n) ^ leaf(a + 1, n - 1);	/* MIDDLE-CALL */
}

__attribute__((noinline)) long outer(const long *a, int n)
{
	return middle(a, n) * 2;	/* OUTER-CALL */
}

int main(int argc, char **argv)
{
	long a[64];

	(void)argv;
	for (int i = 0; i < 64; i++)
		a[i] = i * argc;
	return (int)(outer(a, 64) + lib_sum(a, 64));
}
