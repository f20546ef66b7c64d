// SPDX-License-Identifier: GPL-2.0
/*
 * The failing-instructions workload of the QEMU sampling suite
 * (scripts/suites/59): a loop of seven instructions, two of which do not
 * complete normally, run a given number of times (a fixed amount of work,
 * not of time: on a debug kernel each abort's signal costs far more).
 *
 *   failing_ldr    a load from a page mapped PROT_NONE: it takes a Data
 *                  Abort every time (the SIGSEGV handler steps over it),
 *                  so its records complete with an exception, E[0] and
 *                  E[1], and have no physical address (DDI 0586A
 *                  §5.3.7, §5.3.1);
 *   failing_csel   a CSEL whose condition (EQ) fails: E[6] "not taken"
 *                  (§5.3.7: a conditional select or compare that fails
 *                  its condition code check);
 *   passing_ccmp   a CCMP whose condition (NE) holds: E[6] clear.
 *
 * The loop also has a load from a mapped page (passing_ldr), whose
 * records carry a physical address and no exception, and its branch.
 * The host reads the four symbols' addresses from this static binary.
 *
 * Usage: spe-failing ITERATIONS (a multiple of 1000)
 * Prints "N iterations" and the seconds they took.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define INNER	1000UL	/* loop iterations between clock reads */

static unsigned long mapped_word;

/* The abort of failing_ldr: resume at the next instruction. */
static void step_over(int sig, siginfo_t *si, void *uc_v)
{
	ucontext_t *uc = uc_v;

	(void)sig;
	(void)si;
	uc->uc_mcontext.pc += 4;
}

/* INNER iterations of the seven-instruction loop. */
static void __attribute__((noinline)) failing_round(const unsigned long *guard)
{
	unsigned long n = INNER, a = 1, b = 2, v = 0, w = 0, r = 0;

	asm volatile(
		"	cmp	%[a], %[b]\n"
		"1:\n"
		".globl passing_ldr\n"
		"passing_ldr:\n"
		"	ldr	%[v], [%[ok]]\n"
		".globl failing_ldr\n"
		"failing_ldr:\n"
		"	ldr	%[w], [%[bad]]\n"
		"	cmp	%[a], %[b]\n"
		".globl failing_csel\n"
		"failing_csel:\n"
		"	csel	%[r], %[a], %[b], eq\n"
		".globl passing_ccmp\n"
		"passing_ccmp:\n"
		"	ccmp	%[a], %[b], #0, ne\n"
		"	sub	%[n], %[n], #1\n"
		"	cbnz	%[n], 1b\n"
		: [n] "+r"(n), [v] "+r"(v), [w] "+r"(w), [r] "+r"(r)
		: [a] "r"(a), [b] "r"(b), [ok] "r"(&mapped_word), [bad] "r"(guard)
		: "cc", "memory");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc == 2 ? atol(argv[1]) : 0;
	double start;
	struct sigaction sa = { .sa_sigaction = step_over, .sa_flags = SA_SIGINFO };
	unsigned long rounds = 0;
	void *guard;

	if (argc != 2 || n <= 0 || n % (long)INNER) {
		fprintf(stderr, "usage: spe-failing ITERATIONS (a multiple of %lu)\n", INNER);
		return 2;
	}
	guard = mmap(NULL, getpagesize(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED) {
		perror("spe-failing: mmap");
		return 1;
	}
	if (sigaction(SIGSEGV, &sa, NULL)) {
		perror("spe-failing: sigaction");
		return 1;
	}
	start = now();
	for (; rounds * INNER < (unsigned long)n; rounds++)
		failing_round(guard);
	printf("%lu iterations in %.2f s\n", rounds * INNER, now() - start);
	return 0;
}
