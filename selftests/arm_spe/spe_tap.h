/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP output for the arm_spe selftests (written for this project).
 *
 * A test program plans its checks, reports each one, and ends with
 * tap_exit(), whose exit status follows the kselftest convention so that
 * the kernel's run_kselftest.sh can run these programs too:
 *   0 every check passed, 1 a check failed, 4 everything was skipped.
 *
 *	tap_plan(3);
 *	tap_check(fd >= 0, "event opens on CPU %d", cpu);
 *	tap_skip("no filter support", "event_filter is rejected");
 *	return tap_exit();
 *
 * When the feature under test is absent, tap_skip_all() prints the plan
 * "1..0 # SKIP <reason>" and exits with 4 at once.
 */
#ifndef SPE_SELFTEST_TAP_H
#define SPE_SELFTEST_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define TAP_EXIT_PASS	0
#define TAP_EXIT_FAIL	1
#define TAP_EXIT_SKIP	4

struct tap_state {
	unsigned int planned;
	unsigned int run;
	unsigned int failed;
	unsigned int skipped;
};

/* One test program per process: the counters are the program's result. */
static struct tap_state tap;

static inline void tap_plan(unsigned int n)
{
	tap.planned = n;
	printf("TAP version 13\n1..%u\n", n);
	fflush(stdout);
}

static inline void tap_vline(const char *status, const char *directive,
			     const char *fmt, va_list ap)
{
	tap.run++;
	printf("%s %u - ", status, tap.run);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s", directive);
	printf("\n");
	fflush(stdout);
}

/* Report one check; returns cond so callers can stop dependent checks. */
__attribute__((format(printf, 2, 3)))
static inline int tap_check(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(cond ? "ok" : "not ok", NULL, fmt, ap);
	va_end(ap);
	if (!cond)
		tap.failed++;
	return cond;
}

/* A diagnostic line, shown with the results (e.g. why a check failed). */
__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
}

/* Skip one planned check, saying why. */
__attribute__((format(printf, 2, 3)))
static inline void tap_skip(const char *reason, const char *fmt, ...)
{
	char directive[256];
	va_list ap;

	snprintf(directive, sizeof(directive), "SKIP %s", reason);
	va_start(ap, fmt);
	tap_vline("ok", directive, fmt, ap);
	va_end(ap);
	tap.skipped++;
}

/* Nothing to test here: plan no checks, say why, exit "skipped". */
__attribute__((format(printf, 1, 2), noreturn))
static inline void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("TAP version 13\n1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(TAP_EXIT_SKIP);
}

/* The exit status of the program; a plan not followed is a failure. */
static inline int tap_exit(void)
{
	if (tap.run != tap.planned) {
		tap_diag("planned %u checks, ran %u", tap.planned, tap.run);
		return TAP_EXIT_FAIL;
	}
	if (tap.failed)
		return TAP_EXIT_FAIL;
	if (tap.skipped == tap.run)
		return TAP_EXIT_SKIP;
	return TAP_EXIT_PASS;
}

#endif /* SPE_SELFTEST_TAP_H */
