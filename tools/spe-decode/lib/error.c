// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Names of the library's error codes. */
#include "spe_decode.h"

const char *spe_strerror(int err)
{
	switch (err) {
	case SPE_OK:
		return "success";
	case SPE_ERR_INVAL:
		return "invalid argument";
	case SPE_ERR_TRUNCATED:
		return "truncated: input ends inside a packet or record";
	case SPE_ERR_BAD_HEADER:
		return "bad packet header: extended header prefix followed by another prefix";
	case SPE_ERR_BAD_RECORD:
		return "bad record: no End or Timestamp within the maximum record size";
	case SPE_ERR_STOPPED:
		return "decoder stopped at an earlier error (strict mode)";
	case SPE_ERR_SYNTAX:
		return "syntax error in vector text";
	case SPE_ERR_NOSPACE:
		return "output buffer too small";
	default:
		return "unknown error";
	}
}
