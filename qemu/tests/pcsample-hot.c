// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of the PC-sampling guest tests (scripts/suites/61): it
 * spends its time in two known functions, hot_hash() and hot_walk(), so
 * that the host can check that the samples of the core it runs on name
 * them (their addresses come from this static binary's symbol table).
 * Prints how many rounds per second it managed: comparing that rate with
 * and without sampling measures what sampling costs the sampled core.
 *
 * Usage: pcsample-hot SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WALK_WORDS	4096
#define CHECK_EVERY	64	/* rounds between clock reads */

static unsigned long table[WALK_WORDS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* About two thirds of a round: arithmetic only. */
__attribute__((noinline)) static unsigned long hot_hash(unsigned long x)
{
	int i;

	for (i = 0; i < 2048; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

/* About a third: loads and stores over a small table. */
__attribute__((noinline)) static unsigned long hot_walk(unsigned long x)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < 1024; i++) {
		sum += table[(x + i * 7) % WALK_WORDS];
		table[(x + i) % WALK_WORDS] = sum;
	}
	return sum;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, start, t;
	unsigned long rounds = 0, x = 1, sum = 0;
	int i;

	if (secs <= 0) {
		fprintf(stderr, "usage: pcsample-hot SECONDS\n");
		return 2;
	}
	start = now();
	do {
		for (i = 0; i < CHECK_EVERY; i++) {
			x = hot_hash(x);
			sum += hot_walk(x);
		}
		rounds += CHECK_EVERY;
		t = now() - start;
	} while (t < secs);
	printf("%.0f rounds/s (checksum %lu)\n", rounds / t, sum & 0xff);
	return 0;
}
