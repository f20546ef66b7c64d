// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests for lib/packet.c: one SPE packet from bytes. */
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"
#include "spe/packet.h"
#include "tap.h"

/* Decode from an exactly-sized heap copy, so a read past the end is an
 * ASan error in the sanitizer build. */
static int decode_exact(const uint8_t *bytes, size_t len, uint64_t off,
			struct spe_pkt *pkt)
{
	uint8_t *copy = malloc(len ? len : 1);
	int ret;

	memcpy(copy, bytes, len);
	ret = spe_pkt_decode(copy, len, off, pkt);
	free(copy);
	return ret;
}

static void header_sizes_follow_d18_1_1(void)
{
	/* DDI 0487 D18.1.1: 0x00-0x1f no payload; else bits 5:4 = log2 size */
	int bad = 0;

	for (unsigned int b = 0; b < 256; b++) {
		uint8_t buf[16] = { (uint8_t)b };
		struct spe_pkt pkt;
		int want, ret;

		if (SPE_HDR_IS_EXTENDED(b))
			continue;
		want = b < 0x20 ? 1 : 1 + (1 << ((b >> 4) & 3));
		ret = decode_exact(buf, sizeof(buf), 0, &pkt);
		if (ret != want || pkt.size != (uint32_t)want || pkt.hdr_len != 1)
			bad++;
	}
	CHECK_EQ(bad, 0, "every 8-bit header's size is 1 + the payload size its bits 5:4 encode (DDI 0487 D18.1.1)");
}

static void known_headers_classified(void)
{
	static const struct { uint8_t b; enum spe_pkt_type t; uint8_t idx; } cases[] = {
		{ 0x00, SPE_PKT_PAD, 0 }, { 0x01, SPE_PKT_END, 0 },
		{ 0x71, SPE_PKT_TIMESTAMP, 0 },
		{ 0x42, SPE_PKT_EVENTS, 0 }, { 0x52, SPE_PKT_EVENTS, 0 },
		{ 0x62, SPE_PKT_EVENTS, 0 }, { 0x72, SPE_PKT_EVENTS, 0 },
		{ 0x43, SPE_PKT_DATA_SOURCE, 0 }, { 0x53, SPE_PKT_DATA_SOURCE, 0 },
		{ 0x64, SPE_PKT_CONTEXT, 0 }, { 0x65, SPE_PKT_CONTEXT, 1 },
		{ 0x48, SPE_PKT_OP_TYPE, 0 }, { 0x49, SPE_PKT_OP_TYPE, 1 },
		{ 0x4a, SPE_PKT_OP_TYPE, 2 }, { 0x4b, SPE_PKT_OP_TYPE, 3 },
		{ 0xb0, SPE_PKT_ADDRESS, 0 }, { 0xb3, SPE_PKT_ADDRESS, 3 },
		{ 0xb7, SPE_PKT_ADDRESS, 7 },
		{ 0x98, SPE_PKT_COUNTER, 0 }, { 0x9a, SPE_PKT_COUNTER, 2 },
		{ 0x02, SPE_PKT_UNKNOWN, 0 }, { 0x40, SPE_PKT_UNKNOWN, 0 },
		{ 0x58, SPE_PKT_UNKNOWN, 0 }, { 0x88, SPE_PKT_UNKNOWN, 0 },
		{ 0xb8, SPE_PKT_UNKNOWN, 0 }, { 0xff, SPE_PKT_UNKNOWN, 0 },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t buf[16] = { cases[i].b };
		struct spe_pkt pkt;

		if (decode_exact(buf, sizeof(buf), 0, &pkt) < 0 ||
		    pkt.type != cases[i].t || pkt.index != cases[i].idx)
			bad++;
	}
	CHECK_EQ(bad, 0, "8-bit headers classify as DDI 0586A §5.2.1 says (events, data source, context, op type, short address/counter)");
}

static void payload_little_endian(void)
{
	static const uint8_t ev8[] = { 0x72, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t ev2[] = { 0x52, 0x16, 0x00 };
	static const uint8_t ctx[] = { 0x65, 0x80, 0x5f, 0x00, 0x00 };
	struct spe_pkt pkt;

	CHECK(decode_exact(ev8, sizeof(ev8), 0, &pkt) == 9 &&
	      pkt.payload == 0x0807060504030201ULL && pkt.payload_len == 8,
	      "an 8-byte payload is read little-endian (DDI 0487 D18.1.2)");
	CHECK(decode_exact(ev2, sizeof(ev2), 0, &pkt) == 3 && pkt.payload == 0x16,
	      "a 16-bit Events payload is read little-endian");
	CHECK(decode_exact(ctx, sizeof(ctx), 0, &pkt) == 5 && pkt.payload == 0x5f80 &&
	      pkt.index == SPE_CONTEXT_EL2,
	      "Context index 1 is CONTEXTIDR_EL2 with a 32-bit payload (DDI 0586A §5.3.3)");
}

static void extended_headers(void)
{
	static const uint8_t addr[] = { 0x23, 0xb7, 1, 0, 0, 0, 0, 0, 0, 0x80 };
	static const uint8_t cnt[] = { 0x21, 0x9a, 0x34, 0x12 };
	static const uint8_t unk[] = { 0x24, 0xb0, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t bad[] = { 0x20, 0x21, 0x00 };
	struct spe_pkt pkt;

	CHECK(decode_exact(addr, sizeof(addr), 0, &pkt) == 10 &&
	      pkt.type == SPE_PKT_ADDRESS && pkt.index == 31 && pkt.hdr_len == 2 &&
	      pkt.payload == 0x8000000000000001ULL,
	      "extended Address header: INDEX[4:3] in byte 0, INDEX[2:0] in byte 1 (DDI 0586A §5.2.2)");
	CHECK(decode_exact(cnt, sizeof(cnt), 0, &pkt) == 4 &&
	      pkt.type == SPE_PKT_COUNTER && pkt.index == 10 && pkt.payload == 0x1234,
	      "extended Counter header carries a 16-bit payload and a 5-bit index");
	CHECK(decode_exact(unk, sizeof(unk), 0, &pkt) == 10 && pkt.type == SPE_PKT_UNKNOWN,
	      "an unknown 16-bit header is skipped by the size in byte 1 (DDI 0487 D18.1.3)");
	CHECK(decode_exact(bad, sizeof(bad), 0, &pkt) == SPE_ERR_BAD_HEADER && pkt.size == 1,
	      "an extended prefix followed by another prefix is a bad header, stepped over one byte");
}

static void alignment_uses_stream_offset(void)
{
	static const uint8_t a16[16] = { 0x23, 0x00 };
	struct spe_pkt pkt;

	CHECK(decode_exact(a16, 16, 0, &pkt) == 16 && pkt.type == SPE_PKT_ALIGNMENT,
	      "Alignment SIZE=3 at stream offset 0 skips to offset 16 (DDI 0586A §5.3.2)");
	CHECK(decode_exact(a16, 16, 10, &pkt) == 6,
	      "Alignment SIZE=3 at stream offset 10 skips to 16: the skip comes from the stream offset");
	CHECK(decode_exact(a16, 16, 0x1000e, &pkt) == 2,
	      "Alignment ending on a boundary skips nothing");
	CHECK(decode_exact(a16, 5, 0, &pkt) == SPE_ERR_TRUNCATED,
	      "Alignment whose boundary lies past the end of the input is truncated");
	CHECK(decode_exact((const uint8_t[]){ 0x20, 0x00 }, 2, 0, &pkt) == 2 &&
	      pkt.type == SPE_PKT_UNKNOWN,
	      "Alignment SIZE=0 is reserved: skipped as an unknown 2-byte packet");
}

static void truncation_never_reads_past_end(void)
{
	static const uint8_t pkts[][10] = {
		{ 0x71, 1, 2, 3, 4, 5, 6, 7, 8 },
		{ 0xb0, 1, 2, 3, 4, 5, 6, 7, 8 },
		{ 0x20, 0xb0, 1, 2, 3, 4, 5, 6, 7, 8 },
		{ 0x98, 1, 2 },
		{ 0x62, 1, 2, 3, 4 },
	};
	static const size_t sizes[] = { 9, 9, 10, 3, 5 };
	int bad = 0;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct spe_pkt pkt;

		for (size_t len = 1; len < sizes[i]; len++)
			if (decode_exact(pkts[i], len, 0, &pkt) != SPE_ERR_TRUNCATED)
				bad++;
		if (decode_exact(pkts[i], sizes[i], 0, &pkt) != (int)sizes[i])
			bad++;
	}
	CHECK_EQ(bad, 0, "every prefix of a packet is reported truncated, the whole packet decodes (ASan: no overread)");
}

static void bad_arguments(void)
{
	struct spe_pkt pkt;
	uint8_t b = 0;

	CHECK(spe_pkt_decode(&b, 0, 0, &pkt) == SPE_ERR_INVAL &&
	      spe_pkt_decode(NULL, 1, 0, &pkt) == SPE_ERR_INVAL &&
	      spe_pkt_decode(&b, 1, 0, NULL) == SPE_ERR_INVAL,
	      "empty input and NULL pointers are SPE_ERR_INVAL");
	CHECK(!strcmp(spe_pkt_type_name(SPE_PKT_ADDRESS), "ADDRESS") &&
	      !strcmp(spe_pkt_type_name((enum spe_pkt_type)99), "INVALID"),
	      "packet type names, and an out-of-range type does not index past the table");
	CHECK(!strcmp(spe_pkt_type_name(SPE_PKT_ALIGNMENT), "ALIGNMENT") &&
	      !strcmp(spe_pkt_type_name(SPE_PKT_NR_TYPES), "INVALID"),
	      "the last type has its name; the first value past the types is INVALID");
}

int main(void)
{
	header_sizes_follow_d18_1_1();
	known_headers_classified();
	payload_little_endian();
	extended_headers();
	alignment_uses_stream_offset();
	truncation_never_reads_past_end();
	bad_arguments();
	return tap_done();
}
