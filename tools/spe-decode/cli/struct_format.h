/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The values of script --json and --csv lines built by hand: unsigned
 * decimals, "0x" hexadecimals, and names quoted as JSON strings (RFC 8259
 * §7) or CSV fields (RFC 4180 §2).  printf per field made these formats
 * cost 40 times perf's layout.  The writers append to struct line
 * (line_format.h) and rely on its LINE_SLACK; the caller leaves room:
 * 20 digits, 2 + 18 for a quoted hexadecimal, quoted_max() for a name.
 * tests/test_struct_format.c holds them to printf and to the RFCs.
 */
#ifndef SPE_CLI_STRUCT_FORMAT_H
#define SPE_CLI_STRUCT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "line_format.h"

/* The most a quoted string of @len bytes takes: \u00XX for each byte. */
static inline size_t quoted_max(size_t len)
{
	return 6 * len + 2;
}

/* A string constant (l_str() would bound it by LINE_MAX_BYTES). */
#define PUT_LIT(l, lit)	do {						\
	memcpy((l)->b + (l)->n, lit, sizeof(lit) - 1);			\
	(l)->n += sizeof(lit) - 1;					\
} while (0)

/* %lu */
static inline void put_u64(struct line *l, uint64_t u)
{
	size_t k = dec_digits(u);

	put_digits(l->b + l->n, k, u);
	l->n += k;
}

/* Each byte's two hexadecimal digits, byte b at [2b]. */
static const char hex_pairs[] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* "0x%lx", in JSON as a string ("\"0x%lx\"").  Two digits a step: a line
 * has four or five 12-digit addresses. */
static inline void put_hex(struct line *l, bool json, uint64_t v)
{
	size_t k = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
	char *p;

	if (json)
		l->b[l->n++] = '"';
	PUT_LIT(l, "0x");
	p = l->b + l->n + k;
	l->n += k;
	for (; v >= 0x100; v >>= 8) {
		p -= 2;
		memcpy(p, &hex_pairs[(v & 0xff) * 2], 2);
	}
	if (v >= 0x10)
		memcpy(p - 2, &hex_pairs[v * 2], 2);
	else
		p[-1] = hex_pairs[v * 2 + 1];
	if (json)
		l->b[l->n++] = '"';
}

/* A JSON string (RFC 8259 §7): " and \ escaped, control characters as
 * \u00XX, every other byte (UTF-8 included) as it is. */
static inline void json_str(struct line *l, const char *s)
{
	char *p = l->b + l->n;

	*p++ = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c < 0x20) {
			memcpy(p, "\\u00", 4);
			memcpy(p + 4, &hex_pairs[c * 2], 2);
			p += 6;
		} else {
			*p++ = (char)c;
		}
	}
	*p++ = '"';
	l->n = (size_t)(p - l->b);
}

/* A CSV field (RFC 4180 §2): one with a comma, quote or line break is
 * quoted, its quotes doubled; any other as it is. */
static inline void csv_str(struct line *l, const char *s)
{
	size_t len = strcspn(s, ",\"\r\n");
	char *p = l->b + l->n;

	if (!s[len]) {
		memcpy(p, s, len);
		l->n += len;
		return;
	}
	*p++ = '"';
	for (; *s; s++) {
		if (*s == '"')
			*p++ = '"';
		*p++ = *s;
	}
	*p++ = '"';
	l->n = (size_t)(p - l->b);
}

#endif /* SPE_CLI_STRUCT_FORMAT_H */
