// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target for the record layer.  Invariants checked: records and
 * errors come in increasing stream order and lie inside the input, a
 * record is never larger than the input, decoding always terminates, and
 * strict mode stops at its first error.
 */
#include <stdlib.h>

#include "spe_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spe_decoder_config cfg = SPE_DECODER_CONFIG_INIT;
	struct spe_decoder dec;
	struct spe_record rec;
	uint64_t base, last = 0, calls = 0;
	int ret, errors = 0;

	/* Byte 0: flags; bytes 1-2: stream offset of the buffer. */
	if (size < 3)
		return 0;
	cfg.flags = data[0] & SPE_DEC_STRICT;
	base = (uint64_t)data[1] << 8 | data[2];
	data += 3;
	size -= 3;

	if (spe_decoder_init(&dec, &cfg, data, size, base))
		abort();
	last = base;
	while ((ret = spe_decoder_next(&dec, &rec)) != 0) {
		if (++calls > size + 2)
			abort();	/* no progress */
		if (ret == SPE_ERR_STOPPED) {
			if (!(cfg.flags & SPE_DEC_STRICT) || errors != 1)
				abort();
			break;
		}
		if (ret < 0) {
			uint64_t off = spe_decoder_error_offset(&dec);

			if (off < last || off > base + size)
				abort();
			errors++;
			last = off;
			continue;
		}
		if (rec.offset < last || rec.offset + rec.size > base + size ||
		    rec.size == 0)
			abort();
		last = rec.offset + rec.size;
	}
	return 0;
}
