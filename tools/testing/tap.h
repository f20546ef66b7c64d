/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one TAP producer of the userspace unit tests (the decoder, the SPU
 * model, the driver's host tests): each CHECK is one test point,
 * named after the rule it checks.  tap_done() prints the plan and returns
 * the exit status (non-zero when anything failed).
 */
#ifndef SPE_TESTING_TAP_H
#define SPE_TESTING_TAP_H

#include <stdio.h>

static int tap_count, tap_failed;

static inline int tap_check(int ok, const char *name, const char *file, int line)
{
	tap_count++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tap_count, name);
	if (!ok) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return ok;
}

/* CHECK(condition, "name of the rule") */
#define CHECK(cond, name)	tap_check(!!(cond), (name), __FILE__, __LINE__)

/* CHECK_EQ for unsigned 64-bit values; prints both on failure. */
#define CHECK_EQ(got, want, name) do {					\
	unsigned long long g_ = (unsigned long long)(got);		\
	unsigned long long w_ = (unsigned long long)(want);		\
	if (!tap_check(g_ == w_, (name), __FILE__, __LINE__))		\
		printf("#   got 0x%llx, want 0x%llx\n", g_, w_);		\
} while (0)

static inline void tap_skip(const char *name, const char *why)
{
	tap_count++;
	printf("ok %d - %s # SKIP %s\n", tap_count, name, why);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif /* SPE_TESTING_TAP_H */
