/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A line of perf script's layout built by hand: printf per field is most
 * of the cost of printing millions of samples.  The writers append to
 * struct line, whose buffer must have LINE_MAX_BYTES + LINE_SLACK bytes
 * of room from the line's start: fixed-size stores (a 16-byte run of
 * padding) may write up to LINE_SLACK bytes past what they append.
 * Their output equals printf's for the same conversions
 * (tests/test_line_format.c).
 */
#ifndef SPE_CLI_LINE_FORMAT_H
#define SPE_CLI_LINE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LINE_MAX_BYTES	1024	/* longest line of the perf layout */
#define LINE_SLACK	64	/* what fixed-size stores may write past a line */

struct line {
	char *b;
	size_t n;
};

static inline void l_str(struct line *l, const char *s)
{
	size_t k = strnlen(s, LINE_MAX_BYTES - l->n - LINE_SLACK);

	memcpy(l->b + l->n, s, k);
	l->n += k;
}

static inline void l_pad(struct line *l, size_t used, int width)
{
	if ((int)used < width) {
		/* Most widths are 16 or less: one fixed-size store, which
		 * LINE_SLACK leaves room for past any line. */
		if (width <= 16)
			memset(l->b + l->n, ' ', 16);
		else
			memset(l->b + l->n, ' ', (size_t)width - used);
		l->n += (size_t)width - used;
	}
}

/* right-aligned in width, like %*s */
static inline void l_rstr(struct line *l, const char *s, int width)
{
	size_t k = strnlen(s, 256);

	l_pad(l, k, width);
	l_str(l, s);
}

/* Two digits per division: a line has up to half a dozen numbers. */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/* The digits of u without a loop over them: with b bits, u has t or
 * t + 1 digits, t = floor(b * log10(2)) (1233 / 4096 for log10(2) gives
 * the same t for every b up to 64), and one compare tells which.  u | 1
 * has the digits of u: no even number is one less than a power of ten. */
static inline size_t dec_digits(uint64_t u)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL,
	};
	size_t bits = (size_t)(64 - __builtin_clzll(u | 1));
	size_t t = (bits * 1233) >> 12;

	return t + ((u | 1) >= pow10[t]);
}

/* The k = dec_digits(u) digits of u at p, two per division, written
 * where they go: no copy of a variable length. */
static inline void put_digits(char *p, size_t k, uint64_t u)
{
	p += k;
	for (; u >= 100; u /= 100) {
		p -= 2;
		memcpy(p, &digit_pairs[(u % 100) * 2], 2);
	}
	if (u >= 10)
		memcpy(p - 2, &digit_pairs[u * 2], 2);
	else
		p[-1] = (char)('0' + u);
}

/* %*d (right) or %-*d (left, width < 0) */
static inline void l_dec(struct line *l, int64_t v, int width)
{
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	size_t neg = v < 0, k = neg + dec_digits(u);

	if (width > 0)
		l_pad(l, k, width);
	if (neg)
		l->b[l->n] = '-';
	put_digits(l->b + l->n + neg, k - neg, u);
	l->n += k;
	if (width < 0)
		l_pad(l, k, -width);
}

/* %*lx */
static inline void l_hex(struct line *l, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	size_t k = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
	char *p;

	l_pad(l, k, width);
	p = l->b + l->n + k;
	l->n += k;
	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
}

/* "%0*lu" for v below 10^digits: exactly `digits` digits. */
static inline void l_fixed(struct line *l, uint64_t v, int digits)
{
	char *p = l->b + l->n + digits;

	l->n += (size_t)digits;
	for (; digits >= 2; digits -= 2, v /= 100) {
		p -= 2;
		memcpy(p, &digit_pairs[(v % 100) * 2], 2);
	}
	if (digits)
		p[-1] = (char)('0' + v % 10);
}

/* "%5lu.%06lu" or with --ns "%5lu.%09lu" */
static inline void l_time(struct line *l, bool ns, uint64_t t)
{
	l_dec(l, (int64_t)(t / 1000000000), 5);
	l->b[l->n++] = '.';
	if (ns)
		l_fixed(l, t % 1000000000, 9);
	else
		l_fixed(l, t % 1000000000 / 1000, 6);
}

#endif /* SPE_CLI_LINE_FORMAT_H */
