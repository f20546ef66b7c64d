// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests for lib/dump.c: a whole buffer as `perf report -D` lines. */
#include <string.h>

#include "spe_decode.h"
#include "tap.h"

struct sink {
	char text[1 << 16];
	size_t len;
	int calls, fail;
};

static int sink_write(void *ctx, const char *t, size_t n)
{
	struct sink *s = ctx;

	s->calls++;
	if (s->fail)
		return -42;
	if (s->len + n < sizeof(s->text)) {
		memcpy(s->text + s->len, t, n);
		s->len += n;
		s->text[s->len] = '\0';
	}
	return 0;
}

static int lines(const char *t)
{
	int n = 0;

	for (; *t; t++)
		n += *t == '\n';
	return n;
}

static int dump_style(struct sink *s, const uint8_t *b, size_t n, uint32_t flags,
		      enum spe_desc_style style, struct spe_dump_stats *st)
{
	struct spe_dump_config c = SPE_DUMP_CONFIG_INIT;

	memset(s, 0, sizeof(*s));
	c.flags = flags;
	c.style = style;
	c.write = sink_write;
	c.ctx = s;
	return spe_dump(&c, b, n, 0, st);
}

static int dump(struct sink *s, const uint8_t *b, size_t n, uint32_t flags,
		struct spe_dump_stats *st)
{
	struct spe_dump_config c = SPE_DUMP_CONFIG_INIT;

	memset(s, 0, sizeof(*s));
	c.flags = flags;
	c.write = sink_write;
	c.ctx = s;
	return spe_dump(&c, b, n, 0, st);
}

int main(void)
{
	static struct sink s;
	struct spe_dump_stats st;
	uint8_t pads[40] = { 0 };
	static const uint8_t bad[] = { 0x20, 0x20, 0x01, 0x01 };
	static const uint8_t cut[] = { 0x01, 0x71, 1, 2 };

	CHECK(dump(&s, pads, sizeof(pads), 0, &st) == 0 && lines(s.text) == 3 &&
	      st.packets == 3,
	      "Padding runs share a line up to 16 bytes, as perf prints them");
	{
		/* An Other operation of no subclass perf 7.3 knows, after an
		 * Events packet and a bad byte: it prints the last text again. */
		static const uint8_t other[] = { 0x52, 0x02, 0x00, 0x12, 0x48, 0x10, 0x48, 0x00 };

		CHECK(dump_style(&s, other, sizeof(other), 0, SPE_DESC_PERF_7_3, &st) == 0 &&
		      strstr(s.text, "00000004:  48 10                                           EV RETIRED\n") &&
		      strstr(s.text, "OTHER INSN-OTHER\n"),
		      "perf 7.3 style: an unknown Other subclass repeats the previous description");
		CHECK(dump_style(&s, other, sizeof(other), 0, SPE_DESC_PERF, &st) == 0 &&
		      !strstr(s.text, "48 10                                           EV"),
		      "perf 6.1 style describes it itself");
		CHECK(dump_style(&s, other, sizeof(other), 0, (enum spe_desc_style)7, &st) ==
		      SPE_ERR_INVAL, "an unknown style is refused");
	}
	CHECK(dump(&s, bad, sizeof(bad), 0, &st) == 0 && lines(s.text) == 3 &&
	      st.bad == 1 && st.first_error == SPE_ERR_BAD_HEADER && st.first_error_offset == 0 &&
	      strstr(s.text, "Bad packet!\n") && strstr(s.text, "00000001:  20 01") && strstr(s.text, "00000003:  01"),
	      "a bad header byte prints Bad packet!, is counted, and the dump goes on at the next byte");
	CHECK(dump(&s, bad, sizeof(bad), SPE_DUMP_STRICT, &st) == 0 && lines(s.text) == 1,
	      "strict mode stops after the first error line");
	CHECK(dump(&s, cut, sizeof(cut), 0, &st) == 0 && st.truncated == 1 &&
	      st.first_error == SPE_ERR_TRUNCATED && st.first_error_offset == 1 &&
	      strstr(s.text, "71 01 02") && strstr(s.text, "TRUNCATED"),
	      "a packet cut by the end prints its bytes as TRUNCATED and is counted");
	s.fail = 1;
	{
		struct spe_dump_config c = SPE_DUMP_CONFIG_INIT;

		c.write = sink_write;
		c.ctx = &s;
		CHECK(spe_dump(&c, pads, sizeof(pads), 0, NULL) == -42,
		      "a write error from the sink is returned");
		c.size = 8;
		CHECK(spe_dump(&c, pads, sizeof(pads), 0, NULL) == SPE_ERR_INVAL,
		      "a config with a too-small size is rejected");
	}
	return tap_done();
}
