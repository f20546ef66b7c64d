// SPDX-License-Identifier: GPL-2.0
/*
 * A user-space workload for the SPE guest tests: loads, stores and
 * branches over an array for a given number of seconds, then prints how
 * many loop iterations per second it managed.  Comparing that rate with
 * and without profiling measures what sampling costs the CPU it runs on.
 *
 * Usage: spe_spin SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ARRAY_WORDS	(64 * 1024)	/* 512 KiB: misses in L1, some in L2 */
#define CHECK_EVERY	4096		/* iterations between clock reads */

static unsigned long array[ARRAY_WORDS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, start, t;
	unsigned long iters = 0, i, x = 1, sum = 0;

	if (secs <= 0) {
		fprintf(stderr, "usage: spe_spin SECONDS\n");
		return 2;
	}
	start = now();
	do {
		for (i = 0; i < CHECK_EVERY; i++) {
			/* xorshift: an unpredictable index and branch */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			sum += array[x % ARRAY_WORDS];
			if (x & 1)
				array[(x >> 8) % ARRAY_WORDS] = sum;
		}
		iters += CHECK_EVERY;
		t = now() - start;
	} while (t < secs);
	printf("%.0f iterations/s (checksum %lu)\n", iters / t, sum & 0xff);
	return 0;
}
