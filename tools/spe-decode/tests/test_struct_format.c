// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cli/struct_format.h: script --json/--csv's hand-built values.  Numbers
 * equal printf's (%lu, "0x%lx") at the edges of each digit count and for
 * random values; names quoted as JSON (RFC 8259 §7) and CSV (RFC 4180 §2)
 * read back, through a reader written from the RFCs here, as every byte
 * string they were made from (quotes, backslashes, each control
 * character, commas, line breaks, UTF-8); strings that need no quoting
 * are copied as they are; nothing is written past LINE_SLACK.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/struct_format.h"
#include "tap.h"

#define CANARY	0x5a

/* Room for the longest name here quoted (quoted_max(255)) and the slack. */
static char buf[2048];

static struct line fresh(void)
{
	memset(buf, CANARY, sizeof(buf));
	return (struct line){ .b = buf, .n = 0 };
}

/* Nothing changed past the appended text's LINE_SLACK. */
static int within_slack(const struct line *l)
{
	for (size_t i = l->n + LINE_SLACK; i < sizeof(buf); i++)
		if ((unsigned char)buf[i] != CANARY)
			return 0;
	return 1;
}

static int same(const struct line *l, const char *want)
{
	size_t n = strlen(want);

	return l->n == n && !memcmp(l->b, want, n) && within_slack(l);
}

static uint64_t rnd_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state >> (rnd_state & 63);
}

/* A JSON string read back (RFC 8259 §7) into out; its length, or -1 if
 * it is not one string of the grammar, unescaped control characters
 * included. */
static int json_read(const char *p, size_t n, char *out)
{
	size_t i = 0;
	int k = 0;

	if (n < 2 || p[0] != '"' || p[n - 1] != '"')
		return -1;
	for (i = 1; i < n - 1; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 || c == '"')
			return -1;
		if (c != '\\') {
			out[k++] = (char)c;
			continue;
		}
		if (++i >= n - 1)
			return -1;
		switch (p[i]) {
		case '"': case '\\': case '/':
			out[k++] = p[i];
			break;
		case 'b': out[k++] = '\b'; break;
		case 'f': out[k++] = '\f'; break;
		case 'n': out[k++] = '\n'; break;
		case 'r': out[k++] = '\r'; break;
		case 't': out[k++] = '\t'; break;
		case 'u': {
			char hex[5] = { 0 };
			char *end;
			unsigned long v;

			if (i + 4 >= n - 1)
				return -1;
			memcpy(hex, p + i + 1, 4);
			v = strtoul(hex, &end, 16);
			if (*end || v > 0x7f)	/* the writer escapes ASCII only */
				return -1;
			out[k++] = (char)v;
			i += 4;
			break;
		}
		default:
			return -1;
		}
	}
	return k;
}

/* A CSV field read back (RFC 4180 §2): quoted with doubled quotes, or
 * bare with no comma, quote or line break.  Its length, or -1. */
static int csv_read(const char *p, size_t n, char *out)
{
	int k = 0;

	if (!n || p[0] != '"') {
		for (size_t i = 0; i < n; i++) {
			if (strchr(",\"\r\n", p[i]))
				return -1;
			out[k++] = p[i];
		}
		return k;
	}
	if (n < 2 || p[n - 1] != '"')
		return -1;
	for (size_t i = 1; i < n - 1; i++) {
		if (p[i] == '"') {
			if (i + 1 >= n - 1 || p[i + 1] != '"')
				return -1;
			i++;
		}
		out[k++] = p[i];
	}
	return k;
}

/* 64 names of random bytes 1..255 with the awkward ones more likely. */
static void random_name(char *s, size_t max)
{
	static const char awkward[] = "\"\\,\r\n\x01\x1f\x7f\xc3\xa9 ";
	size_t n = rnd() % max;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = rnd();

		s[i] = (r & 1) ? awkward[(r >> 1) % (sizeof(awkward) - 1)] : (char)(1 + (r >> 8) % 255);
	}
	s[n] = 0;
}

int main(void)
{
	static const char *const names[] = {
		"", "main", "a,\"b", "a\\b\x01\"c\x1f", "caf\xc3\xa9 \xe2\x82\xac", "\r\n",
		"[kernel.kallsyms]", "\"", "\\", "\x7f", "tab\there",
	};
	uint64_t vals[200];
	int nv = 0, bad_u64 = 0, bad_hex = 0, bad_json = 0, bad_csv = 0, bad_room = 0;
	char want[128], name[256], back[256];
	struct line l;

	vals[nv++] = 0;
	for (uint64_t p = 10; p; p = p <= UINT64_MAX / 10 ? p * 10 : 0) {
		vals[nv++] = p - 1;
		vals[nv++] = p;
		vals[nv++] = p + 1;
	}
	for (int k = 1; k < 64; k++) {
		vals[nv++] = (1ull << k) - 1;
		vals[nv++] = 1ull << k;
	}
	vals[nv++] = UINT64_MAX;
	vals[nv++] = UINT64_MAX - 1;
	vals[nv++] = (uint64_t)-1;		/* a tid of -1 as the u64 it is stored in */
	while (nv < 200)
		vals[nv++] = rnd();

	for (int i = 0; i < nv; i++) {
		l = fresh();
		put_u64(&l, vals[i]);
		snprintf(want, sizeof(want), "%" PRIu64, vals[i]);
		if (!same(&l, want) && bad_u64++ < 3)
			printf("#   put_u64(%s): '%.*s'\n", want, (int)l.n, l.b);
		l = fresh();
		put_hex(&l, false, vals[i]);
		snprintf(want, sizeof(want), "0x%" PRIx64, vals[i]);
		if (!same(&l, want) && bad_hex++ < 3)
			printf("#   put_hex(%s): '%.*s'\n", want, (int)l.n, l.b);
		l = fresh();
		put_hex(&l, true, vals[i]);
		snprintf(want, sizeof(want), "\"0x%" PRIx64 "\"", vals[i]);
		if (!same(&l, want) && bad_hex++ < 3)
			printf("#   put_hex(json, %s): '%.*s'\n", want, (int)l.n, l.b);
	}
	CHECK(!bad_u64, "put_u64 equals %lu: 0, 10^k - 1, 10^k, 10^k + 1, 2^k - 1, 2^k, UINT64_MAX, random");
	CHECK(!bad_hex, "put_hex equals 0x%lx, and in JSON \"0x%lx\", for the same values");

	/* Negative numbers (tid -1, cpu -1) go through line_format.h's l_dec. */
	l = fresh();
	l_dec(&l, -1, 0);
	l_dec(&l, INT64_MIN, 0);
	snprintf(want, sizeof(want), "%d%" PRId64, -1, INT64_MIN);
	CHECK(same(&l, want), "l_dec with no width writes -1 and INT64_MIN as %ld");

	/* The escapes the RFCs name, spelled out. */
	l = fresh();
	json_str(&l, "a\"b\\c\x01\x1f/\x7f\xc3\xa9");
	CHECK(same(&l, "\"a\\\"b\\\\c\\u0001\\u001f/\x7f\xc3\xa9\""),
	      "JSON: \" and \\ escaped, controls as \\u00XX, / DEL and UTF-8 as they are");
	l = fresh();
	csv_str(&l, "a,\"b\"");
	CHECK(same(&l, "\"a,\"\"b\"\"\""), "CSV: a field with , and \" quoted, its quotes doubled");
	l = fresh();
	csv_str(&l, "line\r\nbreak");
	CHECK(same(&l, "\"line\r\nbreak\""), "CSV: a field with a line break quoted");
	l = fresh();
	csv_str(&l, "caf\xc3\xa9 \\x\x01");
	CHECK(same(&l, "caf\xc3\xa9 \\x\x01"), "CSV: a field with none of , \" CR LF as it is");
	l = fresh();
	json_str(&l, "");
	csv_str(&l, "");
	CHECK(same(&l, "\"\""), "empty names: \"\" in JSON, nothing in CSV");

	/* Every single byte, the names above and random ones read back. */
	for (int i = 0; i < 255 + 11 + 2000; i++) {
		const char *s = name;
		int n;

		if (i < 255) {
			name[0] = (char)(i + 1);
			name[1] = 0;
		} else if (i < 255 + 11) {
			s = names[i - 255];
		} else {
			random_name(name, sizeof(name));
		}
		l = fresh();
		json_str(&l, s);
		n = json_read(l.b, l.n, back);
		if ((n != (int)strlen(s) || memcmp(back, s, strlen(s))) && bad_json++ < 3)
			printf("#   JSON of byte string %d does not read back\n", i);
		bad_room += l.n > quoted_max(strlen(s)) || !within_slack(&l);
		l = fresh();
		csv_str(&l, s);
		n = csv_read(l.b, l.n, back);
		if ((n != (int)strlen(s) || memcmp(back, s, strlen(s))) && bad_csv++ < 3)
			printf("#   CSV of byte string %d does not read back\n", i);
		bad_room += l.n > quoted_max(strlen(s)) || !within_slack(&l);
	}
	CHECK(!bad_json, "JSON strings read back as each byte 1..255, odd names and 2000 random ones");
	CHECK(!bad_csv, "CSV fields read back as the same strings");
	CHECK(!bad_room, "no quoted name is longer than quoted_max() or writes past the slack");

	/* Appending goes on from where the line is. */
	l = fresh();
	PUT_LIT(&l, "{\"ip\":");
	put_hex(&l, true, 0xffff800008000000ull);
	PUT_LIT(&l, ",\"comm\":");
	json_str(&l, "a\"b");
	PUT_LIT(&l, ",\"period\":");
	put_u64(&l, 1);
	CHECK(same(&l, "{\"ip\":\"0xffff800008000000\",\"comm\":\"a\\\"b\",\"period\":1"),
	      "writers append in turn: literal, hex, name, number");
	return tap_done();
}
