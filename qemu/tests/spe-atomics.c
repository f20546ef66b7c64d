// SPDX-License-Identifier: GPL-2.0
/*
 * The atomics workload of the QEMU sampling suite (scripts/suites/59):
 * a loop of exactly ten instructions, three of them atomics (LDADD, SWP,
 * CAS: DDI 0487 C6.2), a prefetch (PRFM) and six ALU and branch
 * instructions, run for a number of seconds.  The statistical profiling
 * unit counts every executed instruction the same way, so each of the ten
 * PCs should get about a tenth of the samples, whatever the emulator does
 * with atomics; the three atomics are loads with the atomic subclass bit
 * (DDI 0586A §5.3.8: "0 Load or swap"), with a Data Source packet
 * (§5.3.5); the prefetch is an "other" operation (§2.3.4), which the load
 * filter does not take.
 *
 * The loop lies between the global symbols atomics_loop and
 * atomics_loop_end (the host reads them from this static binary's symbol
 * table); its data words are atomics_data[], one cache line each.
 *
 * With "split", the CAS works on a word 4 bytes off its alignment (still
 * within 16 bytes, which FEAT_LSE2 makes single-copy atomic): QEMU's TCG
 * cannot do that atomically in parallel code, so it stops the other
 * vCPUs and runs the CAS again alone (EXCP_ATOMIC), the path that must
 * not count it twice.
 *
 * Usage: spe-atomics SECONDS [split]
 * Prints "N iterations" and the address of the data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INNER	(1UL << 20)	/* loop iterations between clock reads */

/* Three words, 64 bytes apart: LDADD's, SWP's and CAS's. */
unsigned long atomics_data[24] __attribute__((aligned(64)));

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* INNER iterations of the ten-instruction loop. */
static void atomics_round(int split)
{
	unsigned long *ldadd_at = &atomics_data[0];
	unsigned long *swp_at = &atomics_data[8];
	unsigned long *cas_at = (unsigned long *)((char *)&atomics_data[16] +
						  (split ? 4 : 0));
	unsigned long n = INNER, a = 1, b = 2, c = 0, d = 3, x = 0, y = 0;

	asm volatile(
		".globl atomics_loop\n"
		".type atomics_loop, %%function\n"
		"atomics_loop:\n"
		"	ldadd	%[a], %[b], [%[p0]]\n"
		"	swp	%[a], %[d], [%[p1]]\n"
		"	cas	%[c], %[d], [%[p2]]\n"
		"	add	%[x], %[x], #1\n"
		"	prfm	pldl1keep, [%[p0]]\n"
		"	add	%[y], %[y], %[x]\n"
		"	orr	%[c], %[c], %[x]\n"
		"	lsl	%[b], %[b], #1\n"
		"	sub	%[n], %[n], #1\n"
		"	cbnz	%[n], atomics_loop\n"
		".globl atomics_loop_end\n"
		"atomics_loop_end:\n"
		".size atomics_loop, atomics_loop_end - atomics_loop\n"
		: [n] "+r"(n), [b] "+r"(b), [c] "+r"(c), [d] "+r"(d),
		  [x] "+r"(x), [y] "+r"(y)
		: [a] "r"(a), [p0] "r"(ldadd_at), [p1] "r"(swp_at),
		  [p2] "r"(cas_at)
		: "memory");
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0, end;
	int split = argc == 3 && strcmp(argv[2], "split") == 0;
	unsigned long rounds = 0;

	if (argc < 2 || argc > 3 || seconds <= 0 || (argc == 3 && !split)) {
		fprintf(stderr, "usage: spe-atomics SECONDS [split]\n");
		return 2;
	}
	end = now() + seconds;
	do {
		atomics_round(split);
		rounds++;
	} while (now() < end);
	printf("%lu iterations\n", rounds * INNER);
	printf("data %p\n", (void *)atomics_data);
	return 0;
}
