// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests for lib/version.c: the version the library reports at run time
 * is the one its public header declares, in numbers and as the string
 * spe-decode --version prints.
 */
#include <stdio.h>
#include <string.h>

#include "spe_decode.h"
#include "tap.h"

int main(void)
{
	const struct spe_decode_version_info *v = spe_decode_version();
	char want[64];

	CHECK(v != NULL, "spe_decode_version() returns the version");
	if (!v)
		return tap_done();
	CHECK(v == spe_decode_version(), "the same constant structure on every call");
	CHECK_EQ(v->major, SPE_DECODE_VERSION_MAJOR, "major number from the header");
	CHECK_EQ(v->minor, SPE_DECODE_VERSION_MINOR, "minor number from the header");
	CHECK_EQ(v->patch, SPE_DECODE_VERSION_PATCH, "patch number from the header");
	snprintf(want, sizeof(want), "%u.%u.%u", v->major, v->minor, v->patch);
	CHECK(v->string && !strcmp(v->string, want), "the string is MAJOR.MINOR.PATCH");
	return tap_done();
}
