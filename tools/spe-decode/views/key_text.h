/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Building and hashing the text keys the views group by (the cost table's
 * rows, the HTML report's symbols, c2c's code): appended piece by piece
 * without printf, which was a fifth of the time per record, and truncated
 * as snprintf would.  Not a public header.
 */
#ifndef SPE_KEY_TEXT_H
#define SPE_KEY_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A NUL-terminated text of at most len - 1 bytes being built in buf. */
struct spe_key_text {
	char *buf;
	size_t len, pos;
};

/* Appends what fits of the n bytes at s before the buffer's last byte. */
static inline void spe_key_put(struct spe_key_text *t, const char *s, size_t n)
{
	if (t->pos + n >= t->len)
		n = t->len - 1 - t->pos;
	memcpy(t->buf + t->pos, s, n);
	t->pos += n;
	t->buf[t->pos] = 0;
}

static inline void spe_key_put_str(struct spe_key_text *t, const char *s)
{
	spe_key_put(t, s, strlen(s));
}

/* v in lower-case hex, at least width digits ("%0*" PRIx64). */
static inline void spe_key_put_hex(struct spe_key_text *t, uint64_t v, int width)
{
	char d[16];
	int i = 16;

	do {
		d[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v || 16 - i < width);
	spe_key_put(t, d + i, (size_t)(16 - i));
}

/* v in decimal ("%d"). */
static inline void spe_key_put_int(struct spe_key_text *t, int32_t v)
{
	char d[12];
	int i = 12;
	uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;

	do {
		d[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		d[--i] = '-';
	spe_key_put(t, d + i, (size_t)(12 - i));
}

/* FNV-1a of the string s (NULL: none of its bytes), continuing from h;
 * start from SPE_KEY_HASH_SEED. */
#define SPE_KEY_HASH_SEED	1469598103934665603ull
static inline uint64_t spe_key_hash(const char *s, uint64_t h)
{
	for (; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

#endif /* SPE_KEY_TEXT_H */
