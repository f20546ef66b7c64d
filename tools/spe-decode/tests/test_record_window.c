// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests for windowed decoding (spe_decoder_window() in lib/record.c):
 * a stream read in pieces must give exactly the records, errors and error
 * offsets of the same stream decoded whole, wherever the windows start and
 * end: inside a packet, a record, a padding run, an Alignment's skip, or
 * the search for the next record after corruption.
 */
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"
#include "spe_vector.h"
#include "tap.h"

/* A small deterministic generator: the tests must not depend on libc's. */
static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33) % n;
}

struct stream {
	uint8_t *b;
	size_t len, cap;
};

static void put(struct stream *s, const char *line)
{
	uint8_t tmp[70000];
	int n = spe_vec_encode_line(line, strlen(line), s->len, tmp, sizeof(tmp), NULL);

	if (n <= 0)
		return;
	if (s->len + (size_t)n > s->cap) {
		s->cap = (s->len + (size_t)n) * 2;
		s->b = realloc(s->b, s->cap);
	}
	memcpy(s->b + s->len, tmp, (size_t)n);
	s->len += (size_t)n;
}

static void put_zeros(struct stream *s, size_t n)
{
	if (s->len + n > s->cap) {
		s->cap = (s->len + n) * 2;
		s->b = realloc(s->b, s->cap);
	}
	memset(s->b + s->len, 0, n);
	s->len += n;
}

/*
 * About @bytes of records of every packet kind, with padding runs (some
 * longer than a window), Alignment commands, 16-bit headers, records past
 * the size limit, and @flips corrupted bytes, so that every path of the
 * decoder meets a window's end somewhere.
 */
static struct stream make_stream(size_t bytes, unsigned int flips)
{
	static const char *const pkts[] = {
		"pc 0x%x el=0 ns=1", "pc 0xffff8000%x el=1 ns=1 ext", "tgt 0x%x el=0 ns=1",
		"va 0xffff0000%x", "pa 0x8%x ns=1", "lat tot %u", "lat iss %u ext",
		"lat xlat %u", "ev 0x%x", "ds 0x%x", "ctx 0x%x", "op ld gp", "op st simd",
		"op b cond", "addr 9 0x%x", "lat 7 %u", "raw 0x%x",
	};
	enum { RAW = sizeof(pkts) / sizeof(pkts[0]) - 1 };
	struct stream s = { 0 };
	char line[80];

	while (s.len < bytes) {
		unsigned int n = 1 + rnd(12), big = rnd(400) == 0;

		for (unsigned int i = 0; i < n; i++) {
			unsigned int k = rnd(sizeof(pkts) / sizeof(pkts[0])), v = rnd(1u << 16);

			/* raw takes one byte: any header, known or not. */
			snprintf(line, sizeof(line), pkts[k], k == RAW ? v & 0xff : v);
			put(&s, line);
		}
		/* A record grown past 2048 bytes: the size limit's error. */
		for (unsigned int i = 0; big && i < 300; i++)
			put(&s, "pc 0x4000 el=0 ns=1");
		if (rnd(3)) {
			put(&s, "end");
		} else {
			snprintf(line, sizeof(line), "ts %u", rnd(1u << 30));
			put(&s, line);
		}
		switch (rnd(500)) {
		case 0:
			put_zeros(&s, SPE_DECODER_WINDOW_MIN + rnd(3 * SPE_DECODER_WINDOW_MIN));
			break;
		case 1:
			snprintf(line, sizeof(line), "align %u", 2u << rnd(16));
			put(&s, line);
			break;
		default:
			put_zeros(&s, rnd(4) ? 0 : rnd(40));
		}
	}
	for (unsigned int i = 0; i < flips && s.len; i++)
		s.b[rnd((uint32_t)s.len)] = (uint8_t)rnd(256);
	return s;
}

#define GUARD	16

struct outcome {
	int ret;
	uint64_t err_off;
	struct spe_record rec;
};

/* Decodes @s whole: the reference. */
static size_t decode_whole(const struct stream *s, uint64_t base, uint32_t flags,
			   struct outcome *out, size_t max)
{
	struct spe_decoder_config c = SPE_DECODER_CONFIG_INIT;
	struct spe_decoder d;
	size_t n = 0;

	c.flags = flags;
	spe_decoder_init(&d, &c, s->b, s->len, base);
	while (n < max) {
		memset(&out[n].rec, 0, sizeof(out[n].rec));
		out[n].ret = spe_decoder_next(&d, &out[n].rec);
		out[n].err_off = out[n].ret < 0 ? spe_decoder_error_offset(&d) : 0;
		if (out[n++].ret == 0 || out[n - 1].ret == SPE_ERR_STOPPED)
			break;
	}
	return n;
}

/*
 * Decodes @s through windows of @min_win to 2 x @min_win bytes, each a
 * fresh copy (so a read past the window is a different byte, or an ASan
 * report), starting anywhere between the last window's start and the
 * keep offset.  Compares each outcome with @want; returns the number of
 * mismatches, *windows the number of windows used.
 */
static unsigned int decode_windowed(const struct stream *s, uint64_t base, uint32_t flags,
				    size_t min_win, const struct outcome *want, size_t nwant,
				    unsigned int *windows, unsigned int *bad_window)
{
	struct spe_decoder_config c = SPE_DECODER_CONFIG_INIT;
	struct spe_decoder d;
	uint8_t *win = NULL;
	uint64_t wstart = base;
	size_t i = 0;
	unsigned int mismatches = 0;

	c.flags = flags;
	*windows = 0;
	spe_decoder_init(&d, &c, NULL, 0, base);
	for (;;) {
		struct outcome got;
		uint64_t keep = spe_decoder_keep_offset(&d), at = spe_decoder_offset(&d);
		uint64_t lo = wstart, from, wlen;

		/* A new window: from somewhere in [wstart, keep], near enough
		 * to reach past the decoder's position; half the time the
		 * keep offset itself, the tightest window allowed. */
		if (at - lo > min_win / 2)
			lo = at - min_win / 2 < keep ? at - min_win / 2 : keep;
		from = rnd(2) ? keep : lo + (keep > lo ? rnd((uint32_t)(keep - lo + 1)) : 0);
		wlen = min_win + rnd((uint32_t)min_win);
		if (from - base + wlen > s->len)
			wlen = s->len - (from - base);
		/* Guard bytes around the copy: Timestamp and End headers, so
		 * that a look outside the window changes what is decoded. */
		free(win);
		win = malloc(wlen + 2 * GUARD);
		for (size_t k = 0; k < GUARD; k++)
			win[k] = win[GUARD + wlen + k] = k & 1 ? 0x71 : 0x01;
		memcpy(win + GUARD, s->b + (from - base), wlen);
		if (spe_decoder_window(&d, win + GUARD, wlen, from, from - base + wlen < s->len)) {
			printf("#   window at %#llx refused (keep %#llx)\n",
			       (unsigned long long)from, (unsigned long long)keep);
			(*bad_window)++;
			break;
		}
		wstart = from;
		(*windows)++;
		for (;;) {
			memset(&got.rec, 0, sizeof(got.rec));
			got.ret = spe_decoder_next(&d, &got.rec);
			if (got.ret == SPE_ERR_MORE)
				break;
			got.err_off = got.ret < 0 ? spe_decoder_error_offset(&d) : 0;
			if (i >= nwant || got.ret != want[i].ret || got.err_off != want[i].err_off ||
			    memcmp(&got.rec, &want[i].rec, sizeof(got.rec))) {
				if (!mismatches)
					printf("#   outcome %zu differs: ret %d/%d at offset %#llx\n", i,
					       got.ret, i < nwant ? want[i].ret : 99,
					       (unsigned long long)got.rec.offset);
				mismatches++;
			}
			i++;
			if (got.ret == 0 || got.ret == SPE_ERR_STOPPED || i > nwant) {
				free(win);
				if (i != nwant)
					printf("#   %zu outcomes, %zu whole\n", i, nwant);
				return mismatches + (i != nwant);
			}
		}
	}
	free(win);
	return mismatches + 1;
}

static void windows_match_whole(const char *name, size_t bytes, unsigned int flips,
				uint32_t flags, size_t min_win, unsigned int rounds)
{
	unsigned int bad = 0, windows = 0, bad_window = 0, errors = 0;
	size_t outcomes = 0;

	for (unsigned int r = 0; r < rounds; r++) {
		struct stream s = make_stream(bytes, flips);
		size_t max = s.len + 2;
		struct outcome *want = malloc(max * sizeof(*want));
		uint64_t base = rnd(1u << 20);
		size_t n = decode_whole(&s, base, flags, want, max);
		unsigned int w = 0;

		for (size_t k = 0; k < n; k++)
			errors += want[k].ret < 0;
		outcomes += n;
		bad += decode_windowed(&s, base, flags, min_win, want, n, &w, &bad_window);
		windows += w;
		free(want);
		free(s.b);
	}
	printf("# %s: %zu outcomes (%u errors) through %u windows\n", name, outcomes, errors,
	       windows);
	CHECK(!bad && !bad_window && windows >= rounds * (flags & SPE_DEC_STRICT ? 1 : bytes / (2 * min_win)) &&
	      (!flips || errors), name);
}

/* The keep offset and the window's rules. */
static void window_rules(void)
{
	struct spe_decoder d;
	struct spe_record r;
	uint8_t b[16] = { 0x01 };	/* End, then padding */

	spe_decoder_init(&d, NULL, NULL, 0, 100);
	CHECK(spe_decoder_keep_offset(&d) == 100, "a new decoder keeps from its base offset");
	CHECK(spe_decoder_window(&d, b, sizeof(b), 101, true) == SPE_ERR_INVAL,
	      "a window that starts after the keep offset is refused");
	CHECK(spe_decoder_window(&d, b, 0, 90, true) == SPE_ERR_INVAL,
	      "a window that ends before the decoder's position is refused");
	CHECK(spe_decoder_window(&d, b, sizeof(b), 100, true) == 0 &&
	      spe_decoder_next(&d, &r) == 1 && spe_decoder_next(&d, &r) == SPE_ERR_MORE &&
	      spe_decoder_keep_offset(&d) == 116,
	      "padding up to the window's end is consumed, then more is asked for");
	CHECK(spe_decoder_window(&d, NULL, 0, 116, false) == 0 && spe_decoder_next(&d, &r) == 0,
	      "the last window ends the stream cleanly");
	CHECK(!strcmp(spe_strerror(SPE_ERR_MORE),
		      "the decoding window ends before the record does: more input needed"),
	      "SPE_ERR_MORE has a name");
}

int main(void)
{
	rng_state = 1;
	window_rules();
	windows_match_whole("clean streams through windows decode as whole ones",
			    1 << 20, 0, 0, SPE_DECODER_WINDOW_MIN, 6);
	windows_match_whole("corrupt streams (resync across windows) decode as whole ones",
			    1 << 20, 3000, 0, SPE_DECODER_WINDOW_MIN, 6);
	windows_match_whole("corrupt streams in strict mode decode as whole ones",
			    1 << 19, 200, SPE_DEC_STRICT, SPE_DECODER_WINDOW_MIN, 4);
	windows_match_whole("heavily corrupt streams decode as whole ones",
			    1 << 19, 60000, 0, SPE_DECODER_WINDOW_MIN, 4);
	return tap_done();
}
