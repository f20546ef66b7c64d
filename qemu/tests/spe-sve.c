// SPDX-License-Identifier: GPL-2.0
/*
 * spe-sve SECONDS: an SVE workload for suite 59 (QEMU's emulated SPU):
 * contiguous loads and stores, gather loads and scatter stores, and SVE
 * data processing (integer and floating point) over two static arrays,
 * for SECONDS seconds.  Prints the vector length in bits (what the
 * records' EVLEN must say), then the arrays' bounds, for the host to
 * check the sampled data addresses against.
 *
 * Built with -march=armv8.2-a+sve (ACLE intrinsics, <arm_sve.h>).
 */
#include <arm_sve.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WORDS	4096

static uint64_t src[WORDS], dst[WORDS];
static double fsrc[WORDS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One pass: every SVE form the suite looks for. */
static uint64_t pass(void)
{
	svuint64_t acc = svdup_u64(0);
	svfloat64_t facc = svdup_f64(0);

	for (uint64_t i = 0; i < WORDS; i += svcntd()) {
		svbool_t pg = svwhilelt_b64(i, (uint64_t)WORDS);
		svuint64_t v = svld1_u64(pg, &src[i]);			/* contiguous load */
		svuint64_t idx = svand_n_u64_x(pg, svmul_n_u64_x(pg, v, 7), WORDS - 1);
		svuint64_t g = svld1_gather_u64index_u64(pg, src, idx);	/* gather */

		acc = svadd_u64_m(pg, acc, g);
		svst1_u64(pg, &dst[i], svadd_u64_x(pg, v, g));		/* contiguous store */
		svst1_scatter_u64index_u64(pg, dst, idx, v);		/* scatter */
		facc = svmla_f64_m(pg, facc, svld1_f64(pg, &fsrc[i]), svdup_f64(1.5));
	}
	return svaddv_u64(svptrue_b64(), acc) + (uint64_t)svaddv_f64(svptrue_b64(), facc);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1, start;
	uint64_t sum = 0, passes = 0;

	for (int i = 0; i < WORDS; i++) {
		src[i] = (uint64_t)i * 2654435761u;
		fsrc[i] = i;
	}
	printf("vl %u\n", (unsigned int)svcntb() * 8);
	printf("src %p %zu\ndst %p %zu\nfsrc %p %zu\n", (void *)src, sizeof(src), (void *)dst,
	       sizeof(dst), (void *)fsrc, sizeof(fsrc));
	fflush(stdout);
	start = now();
	do {
		for (int k = 0; k < 16; k++, passes++)
			sum += pass();
	} while (now() - start < secs);
	printf("%llu passes (checksum %llu)\n", (unsigned long long)passes,
	       (unsigned long long)(sum & 0xffff));
	return 0;
}
