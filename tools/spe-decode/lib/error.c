// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Names of the library's error codes: one table for every layer.  A value
 * of the codes' range that is no code (-(SPE_ERR_BASE + 6), retired) has
 * no name here and reads as "unknown error".
 */
#include <string.h>

#include "spe_decode.h"

/* -errno values, which a caller's callback may return through the library. */
#define SPE_MAX_ERRNO	4095

_Static_assert(SPE_ERR_BASE > SPE_MAX_ERRNO,
	       "library error codes must not overlap -errno values");

static const char *const spe_error_names[] = {
	[-SPE_OK] = "success",
	[-SPE_ERR_INVAL - SPE_ERR_BASE] = "invalid argument",
	[-SPE_ERR_TRUNCATED - SPE_ERR_BASE] =
		"truncated: input ends inside a packet or record",
	[-SPE_ERR_BAD_HEADER - SPE_ERR_BASE] =
		"bad packet header: extended header prefix followed by another prefix",
	[-SPE_ERR_BAD_RECORD - SPE_ERR_BASE] =
		"bad record: no End or Timestamp within the maximum record size",
	[-SPE_ERR_STOPPED - SPE_ERR_BASE] =
		"decoder stopped at an earlier error (strict mode)",
	[-SPE_ERR_NOSPACE - SPE_ERR_BASE] = "output buffer too small",
	[-SPE_ERR_NOMEM - SPE_ERR_BASE] = "out of memory",
	[-SPE_ERR_IO - SPE_ERR_BASE] = "input/output error",
	[-SPE_ERR_BAD_FILE - SPE_ERR_BASE] =
		"malformed perf.data: a size, offset or count does not fit",
	[-SPE_ERR_UNSUPPORTED - SPE_ERR_BASE] = "not supported by this library",
	[-SPE_ERR_NOT_FOUND - SPE_ERR_BASE] =
		"not found: no such feature section or sample id",
	[-SPE_ERR_MORE - SPE_ERR_BASE] =
		"the decoding window ends before the record does: more input needed",
};

_Static_assert(sizeof(spe_error_names) / sizeof(spe_error_names[0]) ==
	       (size_t)(-SPE_ERR_END - SPE_ERR_BASE),
	       "every error code has a name");

const char *spe_strerror(int err)
{
	if (err == SPE_OK)
		return spe_error_names[0];
	if (err < -SPE_ERR_BASE && err > SPE_ERR_END && spe_error_names[-err - SPE_ERR_BASE])
		return spe_error_names[-err - SPE_ERR_BASE];
	if (err < 0 && err >= -SPE_MAX_ERRNO)
		return strerror(-err);
	return "unknown error";
}
