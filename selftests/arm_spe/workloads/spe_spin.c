// SPDX-License-Identifier: GPL-2.0
/*
 * A user-space workload for the SPE guest tests: loads, stores and
 * branches over an array for a given number of seconds, then prints how
 * many loop iterations per second it managed.  Comparing that rate with
 * and without profiling measures what sampling costs the CPU it runs on.
 *
 * With --iterations it does a fixed amount of work instead, however long
 * that takes: two recordings of it then hold the same operations whatever
 * the machine's load, which a comparison of their contents needs.
 *
 * Usage: spe_spin SECONDS
 *        spe_spin --iterations N   (N rounded up to a multiple of 4096)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	double secs = 1.0, start, t;
	unsigned long iters = 0, i, x = 1, sum = 0, work = 0;
	char *end = NULL;

	if (argc > 2 && !strcmp(argv[1], "--iterations")) {
		work = strtoul(argv[2], &end, 0);
		secs = 0;
		if (*end || !work)
			end = NULL;
	} else if (argc > 1) {
		secs = strtod(argv[1], &end);
		if (*end || secs <= 0)
			end = NULL;
	}
	if (argc > 1 && !end) {
		fprintf(stderr, "usage: spe_spin SECONDS | spe_spin --iterations N\n");
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
	} while (work ? iters < work : t < secs);
	printf("%.0f iterations/s (checksum %lu)\n", iters / t, sum & 0xff);
	return 0;
}
