// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-modifying code under QEMU's multi-threaded TCG: one thread
 * rewrites an instruction that the other threads keep executing, and
 * after each rewrite every checker must run the new instruction.
 *
 * The rules (DDI 0487, B2.2.5 "Concurrent modification and execution of
 * instructions"): the writer stores the new instruction and cleans it to
 * the point of unification (__builtin___clear_cache(), which with
 * CTR_EL0.IDC and DIC set is a DSB), then publishes a generation number
 * with a store-release; a checker that has read that generation with a
 * load-acquire and then executed an ISB must fetch the new instruction.
 * Linux's static keys rely on the same rule when they patch a branch
 * while other CPUs run through it.
 *
 * The hammer threads call the function all the time, so that when the
 * writer's store invalidates QEMU's translation of it, another vCPU
 * translates it again at once, racing with the store.  A checker that
 * still gets the old value after its ISB ran a translation of the old
 * instruction that outlived the write.
 *
 * Usage: cross-modify [GENERATIONS [SECONDS [CHECKERS [HAMMERS]]]]
 * Prints "cross-modify: G generations, C checkers, H hammers: S stale"
 * and exits 1 when S > 0, 2 on a setup error.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

typedef uint32_t (*code_fn)(void);

static uint32_t *code;
static atomic_uint generation;
static atomic_uint checked;
static atomic_int stop;
static atomic_ulong stale;

/* MOVZ W0, #imm16 */
static uint32_t movz_w0(uint32_t imm)
{
	return 0x52800000u | ((imm & 0xffffu) << 5);
}

static void *hammer(void *arg)
{
	code_fn f = (code_fn)(uintptr_t)code;
	volatile uint32_t sink = 0;

	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		sink += f();
	return NULL;
}

static void *checker(void *arg)
{
	code_fn f = (code_fn)(uintptr_t)code;
	unsigned int seen = 0;

	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		unsigned int g = atomic_load_explicit(&generation, memory_order_acquire);
		uint32_t v;

		if (g == seen) {
			sched_yield();
			continue;
		}
		__asm__ volatile("isb" ::: "memory");
		v = f();
		if (v != (g & 0xffffu)) {
			unsigned long n = atomic_fetch_add(&stale, 1) + 1;

			if (n <= 3) {
				uint32_t again;

				for (int i = 0; i < 1000; i++) {
					__asm__ volatile("isb" ::: "memory");
					again = f();
				}
				fprintf(stderr, "cross-modify: generation %u ran the old instruction (%u); "
					"1000 calls later, each after an ISB: %u\n", g, v, again);
			}
		}
		seen = g;
		atomic_fetch_add_explicit(&checked, 1, memory_order_release);
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long generations = argc > 1 ? strtoul(argv[1], NULL, 0) : 4000;
	double seconds = argc > 2 ? strtod(argv[2], NULL) : 120;
	int checkers = argc > 3 ? atoi(argv[3]) : 2;
	int hammers = argc > 4 ? atoi(argv[4]) : 1;
	pthread_t threads[16];
	unsigned long done = 0;
	unsigned int g = 0;
	int nthreads = 0;
	double end = now() + seconds;

	if (checkers < 1 || hammers < 0 || checkers + hammers > 16) {
		fprintf(stderr, "cross-modify: 1 to 16 threads\n");
		return 2;
	}
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("cross-modify: mmap RWX");
		return 2;
	}
	code[0] = movz_w0(0);
	code[1] = 0xd65f03c0;	/* RET */
	__builtin___clear_cache((char *)code, (char *)(code + 2));

	for (int i = 0; i < hammers; i++)
		if (pthread_create(&threads[nthreads++], NULL, hammer, NULL))
			return 2;
	for (int i = 0; i < checkers; i++)
		if (pthread_create(&threads[nthreads++], NULL, checker, NULL))
			return 2;

	while (done < generations && now() < end) {
		/* 0 is the initial value: skip it when the 16 bits wrap. */
		if (((++g) & 0xffffu) == 0)
			g++;
		atomic_store_explicit(&checked, 0, memory_order_relaxed);
		__atomic_store_n(&code[0], movz_w0(g), __ATOMIC_RELAXED);
		__builtin___clear_cache((char *)code, (char *)(code + 2));
		atomic_store_explicit(&generation, g, memory_order_release);
		while (atomic_load_explicit(&checked, memory_order_acquire) < (unsigned int)checkers)
			sched_yield();
		done++;
	}
	atomic_store(&stop, 1);
	for (int i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	printf("cross-modify: %lu generations, %d checkers, %d hammers: %lu stale\n",
	       done, checkers, hammers, atomic_load(&stale));
	return atomic_load(&stale) ? 1 : 0;
}
