// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests for lib/error.c: one error space for the library.  Every code
 * has its own description, and no code can be mistaken for a -errno value
 * (Linux keeps those in -1..-4095), which callbacks may pass through.
 */
#include <errno.h>
#include <string.h>

#include "spe_decode.h"
#include "tap.h"

/*
 * The one value of the codes' range that is no library code: the
 * golden-vector encoder's syntax error, which left the library with the
 * encoder (views/spe_vector.h) and keeps its value there.
 */
#define RETIRED_CODE	(-(SPE_ERR_BASE + 6))

/* Every code from SPE_OK down to the last one. */
static void error_strings(void)
{
	int dup = 0, empty = 0, unknown = 0, n = 0;

	for (int a = SPE_OK; a > SPE_ERR_END; a = a == SPE_OK ? -(SPE_ERR_BASE + 1) : a - 1) {
		const char *s = spe_strerror(a);

		if (a == RETIRED_CODE)
			continue;
		n++;
		if (!s || !*s)
			empty++;
		else if (!strcmp(s, spe_strerror(SPE_ERR_END)))
			unknown++;
		for (int b = SPE_OK; b > a; b = b == SPE_OK ? -(SPE_ERR_BASE + 1) : b - 1)
			if (b != RETIRED_CODE && s && !strcmp(s, spe_strerror(b)))
				dup++;
	}
	CHECK_EQ(n, -SPE_ERR_END - SPE_ERR_BASE - 1,
		 "the loop saw SPE_OK and every SPE_ERR_* code (all but the retired value)");
	CHECK_EQ(empty, 0, "every error code has a non-empty description");
	CHECK_EQ(unknown, 0, "spe_strerror() knows every error code");
	CHECK_EQ(dup, 0, "every error code has its own description");
}

/* The invariant that makes one error space possible. */
static void no_errno_overlap(void)
{
	static const int codes[] = {
		SPE_ERR_INVAL, SPE_ERR_TRUNCATED, SPE_ERR_BAD_HEADER,
		SPE_ERR_BAD_RECORD, SPE_ERR_STOPPED,
		SPE_ERR_NOSPACE, SPE_ERR_NOMEM, SPE_ERR_IO, SPE_ERR_BAD_FILE,
		SPE_ERR_UNSUPPORTED, SPE_ERR_NOT_FOUND,
	};
	int overlap = 0;

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i] >= -4095)
			overlap++;
	CHECK_EQ(overlap, 0, "no library error code lies in -1..-4095, the -errno range");
	CHECK(SPE_ERR_INVAL != -EPERM && SPE_ERR_INVAL != -EINVAL,
	      "SPE_ERR_INVAL is neither -EPERM nor -EINVAL");
	CHECK(!strcmp(spe_strerror(-ENOSPC), strerror(ENOSPC)),
	      "a -errno passed back from a callback is named by strerror()");
	CHECK(strcmp(spe_strerror(-EPERM), spe_strerror(SPE_ERR_INVAL)),
	      "-EPERM and SPE_ERR_INVAL read differently");
	CHECK(!strcmp(spe_strerror(SPE_ERR_END), "unknown error") &&
	      !strcmp(spe_strerror(1), "unknown error"),
	      "a value that is no code still gets a string");
	CHECK(!strcmp(spe_strerror(RETIRED_CODE), "unknown error"),
	      "the retired -(SPE_ERR_BASE + 6) is no library code: \"unknown error\"");
}

int main(void)
{
	error_strings();
	no_errno_overlap();
	return tap_done();
}
