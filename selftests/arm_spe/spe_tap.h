/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arm_spe selftests' checks, reported through the kernel's kselftest.h
 * (tools/testing/selftests/kselftest.h of the kernel the tests are built
 * with: in a kernel tree, or fetched from Debian's linux-source by
 * scripts/fetch-kselftest.sh).  These few wrappers only add what the tests
 * need on top of it: printf-style names without a trailing newline, a skip
 * that names its reason, and an exit status that is "skipped" when every
 * check was skipped.
 *
 *	tap_plan(3);
 *	tap_check(fd >= 0, "event opens on CPU %d", cpu);
 *	tap_skip("no filter support", "event_filter is rejected");
 *	return tap_exit();
 *
 * Exit status (kselftest's): KSFT_PASS, KSFT_FAIL, or KSFT_SKIP when the
 * feature under test is absent (tap_skip_all()) or every check skipped.
 */
#ifndef SPE_SELFTEST_TAP_H
#define SPE_SELFTEST_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "kselftest.h"

#define TAP_EXIT_PASS	KSFT_PASS
#define TAP_EXIT_FAIL	KSFT_FAIL
#define TAP_EXIT_SKIP	KSFT_SKIP

/* A check's name is at most this long; longer ones are cut, not lost. */
#define TAP_NAME_MAX	512

static inline void tap_plan(unsigned int n)
{
	ksft_print_header();
	ksft_set_plan(n);
}

/* Report one check; returns cond so callers can stop dependent checks. */
__attribute__((format(printf, 2, 3)))
static inline int tap_check(int cond, const char *fmt, ...)
{
	char name[TAP_NAME_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (cond)
		ksft_test_result_pass("%s\n", name);
	else
		ksft_test_result_fail("%s\n", name);
	return cond;
}

/* A diagnostic line, shown with the results (e.g. why a check failed). */
__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	char line[TAP_NAME_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ksft_print_msg("%s\n", line);
}

/* Skip one planned check: "ok N # SKIP <name>: <reason>". */
__attribute__((format(printf, 2, 3)))
static inline void tap_skip(const char *reason, const char *fmt, ...)
{
	char name[TAP_NAME_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	ksft_test_result_skip("%s: %s\n", name, reason);
}

/* Nothing to test here: plan no checks, say why, exit "skipped". */
__attribute__((format(printf, 1, 2), noreturn))
static inline void tap_skip_all(const char *fmt, ...)
{
	char why[TAP_NAME_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ksft_print_header();
	ksft_exit_skip("%s\n", why);
	exit(KSFT_SKIP);	/* ksft_exit_skip() is not noreturn on 6.1 */
}

/* The exit status of the program; a plan not followed is a failure. */
static inline int tap_exit(void)
{
	unsigned int run = ksft_test_num();

	ksft_print_cnts();	/* says so too when the plan was not followed */
	if (run != ksft_plan || ksft_get_fail_cnt() || ksft_get_error_cnt())
		return KSFT_FAIL;
	if ((unsigned int)ksft_get_xskip_cnt() == run)
		return KSFT_SKIP;
	return KSFT_PASS;
}

#endif /* SPE_SELFTEST_TAP_H */
