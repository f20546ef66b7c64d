// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cli/line_format.h: script's hand-built number and padding writers give
 * what printf gives for the same conversion (%*lld, %-*lld, %*llx,
 * %0*llu, perf's "%5lu.%06lu" time), at the edges of each digit count and
 * for random values, and never write past LINE_SLACK bytes beyond what
 * they append.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/line_format.h"
#include "tap.h"

#define ROOM	(LINE_MAX_BYTES + LINE_SLACK)
#define CANARY	0x5a

static char buf[ROOM + 64];

/* A fresh line whose buffer is filled with the canary byte. */
static struct line fresh(void)
{
	memset(buf, CANARY, sizeof(buf));
	return (struct line){ .b = buf, .n = 0 };
}

/* What was appended equals want, and nothing past the slack changed. */
static int same(const struct line *l, const char *want)
{
	size_t n = strlen(want);

	if (l->n != n || memcmp(l->b, want, n))
		return 0;
	for (size_t i = n + LINE_SLACK; i < sizeof(buf); i++)
		if ((unsigned char)buf[i] != CANARY)
			return 0;
	return 1;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	/* xorshift64: values of every digit count, reproducible */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state >> (rnd_state & 63);
}

/* Edge values: 0, and 10^k - 1, 10^k, 16^k - 1, 16^k for every k. */
static int edges(uint64_t *v)
{
	int n = 0;

	v[n++] = 0;
	for (uint64_t p = 10; p > 1 && n < 60; p = p <= UINT64_MAX / 10 ? p * 10 : 0) {
		v[n++] = p - 1;
		v[n++] = p;
	}
	for (int k = 1; k < 16; k++) {
		v[n++] = (1ull << (4 * k)) - 1;
		v[n++] = 1ull << (4 * k);
	}
	v[n++] = UINT64_MAX;
	v[n++] = (uint64_t)INT64_MAX;
	v[n++] = (uint64_t)INT64_MIN;
	return n;
}

int main(void)
{
	static const int widths[] = { 0, 1, 3, 5, 10, 16, 17, 24, -5, -16, -20 };
	uint64_t vals[200];
	int nv = edges(vals), bad_dec = 0, bad_hex = 0, bad_fixed = 0, bad_time = 0;
	char want[128];
	struct line l;

	while (nv < 200)
		vals[nv++] = rnd();

	for (int i = 0; i < nv; i++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			int64_t v = (int64_t)vals[i];

			l = fresh();
			l_dec(&l, v, widths[w]);
			snprintf(want, sizeof(want), "%*" PRId64, widths[w], v);
			if (!same(&l, want) && bad_dec++ < 3)
				printf("#   l_dec(%" PRId64 ", %d): '%.*s', printf: '%s'\n",
				       v, widths[w], (int)l.n, l.b, want);
			if (widths[w] < 0)
				continue;
			l = fresh();
			l_hex(&l, vals[i], widths[w]);
			snprintf(want, sizeof(want), "%*" PRIx64, widths[w], vals[i]);
			if (!same(&l, want) && bad_hex++ < 3)
				printf("#   l_hex(%#" PRIx64 ", %d): '%.*s', printf: '%s'\n",
				       vals[i], widths[w], (int)l.n, l.b, want);
		}
	CHECK(!bad_dec, "l_dec equals %*lld and %-*lld (edges of each digit count, negatives, random)");
	CHECK(!bad_hex, "l_hex equals %*llx");

	for (int i = 0; i < nv; i++)
		for (int d = 1; d <= 9; d++) {
			uint64_t p = 1;

			for (int k = 0; k < d; k++)
				p *= 10;
			l = fresh();
			l_fixed(&l, vals[i] % p, d);
			snprintf(want, sizeof(want), "%0*" PRIu64, d, vals[i] % p);
			if (!same(&l, want) && bad_fixed++ < 3)
				printf("#   l_fixed(%" PRIu64 ", %d): '%.*s'\n", vals[i] % p, d,
				       (int)l.n, l.b);
		}
	CHECK(!bad_fixed, "l_fixed equals %0*llu for 1 to 9 digits");

	for (int i = 0; i < nv; i++) {
		uint64_t t = vals[i];

		l = fresh();
		l_time(&l, false, t);
		snprintf(want, sizeof(want), "%5" PRIu64 ".%06" PRIu64, t / 1000000000,
			 t % 1000000000 / 1000);
		bad_time += !same(&l, want);
		l = fresh();
		l_time(&l, true, t);
		snprintf(want, sizeof(want), "%5" PRIu64 ".%09" PRIu64, t / 1000000000,
			 t % 1000000000);
		bad_time += !same(&l, want);
	}
	CHECK(!bad_time, "l_time equals perf's %5lu.%06lu and, with --ns, %5lu.%09lu");

	/* Appending goes on from where the line is; padding keeps what is there. */
	l = fresh();
	l_str(&l, "spin");
	l_pad(&l, 4, 6);
	l_dec(&l, 42, -4);
	l_rstr(&l, "ab", 4);
	l_hex(&l, 0xbeef, 6);
	CHECK(same(&l, "spin  42    ab  beef"), "writers append in turn: str, pad, dec, rstr, hex");

	/* A line padded near its end stays within the slack. */
	l = fresh();
	memset(buf, 'x', LINE_MAX_BYTES - 8);
	l.n = LINE_MAX_BYTES - 8;
	l_dec(&l, 7, 8);
	buf[LINE_MAX_BYTES] = 0;
	CHECK(l.n == LINE_MAX_BYTES && !strcmp(buf + LINE_MAX_BYTES - 8, "       7") &&
	      (unsigned char)buf[ROOM] == CANARY,
	      "padding at the line's end writes nothing past LINE_SLACK");
	return tap_done();
}
