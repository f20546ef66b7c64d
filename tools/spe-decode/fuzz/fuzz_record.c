// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target for the record layer.  Invariants checked: records and
 * errors come in increasing stream order and lie inside the input, a
 * record is never larger than the input, decoding always terminates,
 * strict mode stops at its first error, and the same input read through
 * windows (spe_decoder_window(), windows of a size the input chooses, each
 * a copy of its own) gives exactly the same records and errors.
 */
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"

struct outcome {
	int ret;
	uint64_t err_off;
	struct spe_record rec;
};

static int next(struct spe_decoder *dec, struct outcome *o)
{
	memset(&o->rec, 0, sizeof(o->rec));
	o->ret = spe_decoder_next(dec, &o->rec);
	o->err_off = o->ret < 0 ? spe_decoder_error_offset(dec) : 0;
	return o->ret;
}

/*
 * Decodes data through windows that start at the keep offset and are
 * win bytes long (twice as long each time one made no progress), and
 * aborts where an outcome differs from decoding it whole.
 */
static void windows_match(const struct spe_decoder_config *cfg, const uint8_t *data,
			  size_t size, uint64_t base, size_t win)
{
	struct spe_decoder whole, dec;
	struct outcome want, got;
	uint8_t *copy = NULL;
	uint64_t last_keep = ~0ull, last_end = 0;

	spe_decoder_init(&whole, cfg, data, size, base);
	spe_decoder_init(&dec, cfg, NULL, 0, base);
	got.ret = SPE_ERR_MORE;		/* the first window, then as asked */
	for (;;) {
		if (got.ret == SPE_ERR_MORE) {
			uint64_t keep = spe_decoder_keep_offset(&dec), end;

			if (keep < base || keep > base + size)
				abort();
			end = keep + win > base + size ? base + size : keep + win;
			if (keep == last_keep && end <= last_end) {
				/* No progress: a longer window. */
				win *= 2;
				end = keep + win > base + size ? base + size : keep + win;
			}
			last_keep = keep;
			last_end = end;
			free(copy);
			copy = malloc(end - keep ? end - keep : 1);
			memcpy(copy, data + (keep - base), end - keep);
			if (spe_decoder_window(&dec, copy, end - keep, keep, end < base + size))
				abort();
			next(&dec, &got);
			continue;
		}
		next(&whole, &want);
		if (got.ret != want.ret || got.err_off != want.err_off ||
		    memcmp(&got.rec, &want.rec, sizeof(got.rec)))
			abort();
		if (got.ret == 0 || got.ret == SPE_ERR_STOPPED)
			break;
		next(&dec, &got);
	}
	free(copy);
}

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
	/* Byte 1's low bits also choose the window: 1 to 64 bytes. */
	windows_match(&cfg, data, size, base, 1 + (base >> 8 & 63));
	return 0;
}
