// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests for views/vector.c: the golden-vector text -> bytes. */
#include <string.h>

#include "spe_decode.h"
#include "spe_vector.h"
#include "tap.h"

static int enc_is(const char *line, uint64_t off, const uint8_t *want, size_t n)
{
	uint8_t out[128];
	int ret = spe_vec_encode_line(line, strlen(line), off, out, sizeof(out), NULL);

	if (ret != (int)n || memcmp(out, want, n)) {
		printf("#   '%s' -> %d bytes:", line, ret);
		for (int i = 0; i < ret && i < 16; i++)
			printf(" %02x", out[i]);
		printf("\n");
		return 0;
	}
	return 1;
}

#define ENC(line, off, ...) enc_is(line, off, (const uint8_t[]){ __VA_ARGS__ }, \
				   sizeof((const uint8_t[]){ __VA_ARGS__ }))

int main(void)
{
	const char *why = NULL;
	unsigned int line = 0;
	uint8_t out[64];

	CHECK(ENC("pc 0xffba66eda1c2d0 el=2 ns=1", 0, 0xb0, 0xd0, 0xc2, 0xa1, 0xed, 0x66, 0xba, 0xff, 0xc0),
	      "pc: short Address header index 0, EL in bits 62:61, NS bit 63");
	CHECK(ENC("tgt 0x10 el=0 ns=0 ext", 0, 0x20, 0xb1, 0x10, 0, 0, 0, 0, 0, 0, 0),
	      "ext forces the 16-bit Address header");
	CHECK(ENC("addr 9 0x1", 0, 0x21, 0xb1, 1, 0, 0, 0, 0, 0, 0, 0),
	      "an index above 7 needs the extended header (INDEX[4:3] in byte 0)");
	CHECK(ENC("va 0x1000 tag=0xf0", 0, 0xb2, 0, 0x10, 0, 0, 0, 0, 0, 0xf0),
	      "va: tag in the top byte");
	CHECK(ENC("pa 0x1000 ns=1 ch=1 pat=3", 0, 0xb3, 0, 0x10, 0, 0, 0, 0, 0, 0xc3),
	      "pa: NS, CH and PAT");
	CHECK(ENC("lat tot 12", 0, 0x98, 12, 0) && ENC("lat xlat 1 ext", 0, 0x20, 0x9a, 1, 0),
	      "lat: short and extended Counter headers");
	CHECK(ENC("ev retired l1d-access tlb-access", 0, 0x52, 0x16, 0x00) &&
	      ENC("ev retired size=1", 0, 0x42, 0x02) &&
	      ENC("ev 0x100000000", 0, 0x72, 0, 0, 0, 0, 1, 0, 0, 0),
	      "ev: names or numbers, 16-bit by default, widened to fit");
	CHECK(ENC("ds 8", 0, 0x43, 8) && ENC("ds 0x1234", 0, 0x53, 0x34, 0x12),
	      "ds: 8-bit, or 16-bit when the value needs it");
	CHECK(ENC("ctx 0x5f80 el2", 0, 0x65, 0x80, 0x5f, 0, 0), "ctx el2 uses index 1");
	CHECK(ENC("op ld gp", 0, 0x49, 0x00) && ENC("op st sve=512 pred", 0, 0x49, 0x4d) &&
	      ENC("op b cond call", 0, 0x4a, 0x09) && ENC("op other cond", 0, 0x48, 0x01) &&
	      ENC("op st memset", 0, 0x49, 0x25) && ENC("op 3 0x5a", 0, 0x4b, 0x5a),
	      "op: symbolic load/store, branch, other, and raw class + byte");
	CHECK(ENC("ts 1", 0, 0x71, 1, 0, 0, 0, 0, 0, 0, 0) && ENC("end", 0, 0x01) &&
	      ENC("pad 3", 0, 0, 0, 0),
	      "framing: ts, end, pad N");
	CHECK(ENC("align 16 fill=0xee", 10, 0x23, 0x00, 0xee, 0xee, 0xee, 0xee),
	      "align pads from the stream offset to the boundary (DDI 0586A §5.3.2)");
	CHECK(ENC("raw 0x20 0x21", 0, 0x20, 0x21) &&
	      spe_vec_encode_line("  # only a comment", 18, 0, out, sizeof(out), NULL) == 0,
	      "raw bytes; comment lines encode to nothing");
	CHECK(spe_vec_encode_line("pc", 2, 0, out, sizeof(out), &why) == SPE_VEC_ERR_SYNTAX && why,
	      "a missing operand is a syntax error with a reason");
	CHECK(spe_vec_encode_line("bogus 1", 7, 0, out, sizeof(out), NULL) == SPE_VEC_ERR_SYNTAX &&
	      spe_vec_encode_line("lat tot 70000", 13, 0, out, sizeof(out), NULL) == SPE_VEC_ERR_SYNTAX &&
	      spe_vec_encode_line("align 12", 8, 0, out, sizeof(out), NULL) == SPE_VEC_ERR_SYNTAX,
	      "unknown keywords and out-of-range values are refused");
	CHECK(spe_vec_encode_line("ts 1", 4, 0, out, 4, NULL) == SPE_ERR_NOSPACE,
	      "a full output buffer is SPE_ERR_NOSPACE");
	CHECK(spe_vec_encode("end\n\npad 2\nbad\n", 15, out, sizeof(out), &line, &why) == SPE_VEC_ERR_SYNTAX &&
	      line == 4,
	      "spe_vec_encode reports the 1-based line of a syntax error");
	CHECK(spe_vec_encode("pad 40\nend\n", 11, out, 8, NULL, NULL) == 41,
	      "spe_vec_encode returns the size needed even when the buffer is smaller");
	CHECK(!strcmp(spe_vec_strerror(SPE_VEC_ERR_SYNTAX), "syntax error in vector text") &&
	      !strcmp(spe_vec_strerror(SPE_ERR_NOSPACE), spe_strerror(SPE_ERR_NOSPACE)),
	      "spe_vec_strerror names the encoder's syntax error, and the library's codes as spe_strerror");
	CHECK(!strcmp(spe_strerror(SPE_VEC_ERR_SYNTAX), "unknown error") &&
	      SPE_VEC_ERR_SYNTAX < -4095,
	      "SPE_VEC_ERR_SYNTAX is neither a library code nor an -errno value");
	return tap_done();
}
