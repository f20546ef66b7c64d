// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The library's version at run time, from the macros of its public header. */
#include "spe_decode_version.h"

#define SPE_STR_(x) #x
#define SPE_STR(x) SPE_STR_(x)

static const struct spe_decode_version_info spe_version_info = {
	.major = SPE_DECODE_VERSION_MAJOR,
	.minor = SPE_DECODE_VERSION_MINOR,
	.patch = SPE_DECODE_VERSION_PATCH,
	.string = SPE_STR(SPE_DECODE_VERSION_MAJOR) "." SPE_STR(SPE_DECODE_VERSION_MINOR)
		  "." SPE_STR(SPE_DECODE_VERSION_PATCH),
};

const struct spe_decode_version_info *spe_decode_version(void)
{
	return &spe_version_info;
}
