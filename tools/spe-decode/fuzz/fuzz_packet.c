// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target for the packet layer and its text: decode every packet
 * of the input, describe it in every style, and dump the whole input.
 * Invariants checked: a decode consumes 1..len bytes or fails cleanly, a
 * description fits SPE_PKT_DESC_MAX, the dump never fails on data.
 */
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"

static int null_sink(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	(void)text;
	return len ? 0 : -1;	/* empty writes are a bug */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spe_dump_config cfg = SPE_DUMP_CONFIG_INIT;
	static const enum spe_desc_style styles[] = {
		SPE_DESC_PERF, SPE_DESC_FULL, SPE_DESC_PERF_6_12, SPE_DESC_PERF_7_3,
		SPE_DESC_PERF_7_3 | SPE_DESC_NEOVERSE_N1,
	};
	char desc[SPE_PKT_DESC_MAX];
	uint64_t base;
	size_t pos = 0;

	/* The first 2 bytes choose the stream offset (for Alignment). */
	if (size < 2)
		return 0;
	base = (uint64_t)data[0] << 8 | data[1];
	data += 2;
	size -= 2;

	while (pos < size) {
		struct spe_pkt pkt;
		int ret = spe_pkt_decode(data + pos, size - pos, base + pos, &pkt);

		if (ret > 0) {
			if ((size_t)ret > size - pos || pkt.size != (uint32_t)ret)
				abort();
			for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
				if (spe_pkt_desc(&pkt, styles[i], desc, sizeof(desc)) < 0)
					abort();
			pos += (size_t)ret;
		} else if (ret == SPE_ERR_TRUNCATED) {
			break;
		} else if (ret == SPE_ERR_BAD_HEADER) {
			pos++;
		} else {
			abort();
		}
	}

	cfg.write = null_sink;
	cfg.style = styles[size % (sizeof(styles) / sizeof(styles[0]))];
	if (spe_dump(&cfg, data, size, base, NULL))
		abort();
	return 0;
}
