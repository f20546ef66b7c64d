// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests for lib/error.c: the error code names. */
#include <string.h>

#include "spe_decode.h"
#include "tap.h"

static void error_strings(void)
{
	static const int codes[] = {
		SPE_OK, SPE_ERR_INVAL, SPE_ERR_TRUNCATED, SPE_ERR_BAD_HEADER,
		SPE_ERR_BAD_RECORD, SPE_ERR_STOPPED, SPE_ERR_SYNTAX, SPE_ERR_NOSPACE,
	};
	int dup = 0;

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(spe_strerror(codes[i]), spe_strerror(codes[j])))
				dup++;
	CHECK_EQ(dup, 0, "every error code has its own description");
	CHECK(!strcmp(spe_strerror(-1000), "unknown error"),
	      "an unknown error code still gets a string");
}

int main(void)
{
	error_strings();
	return tap_done();
}
