// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The growable text buffer of tracepoint lines and its JSON string
 * quoting (see tp_buffer.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_buffer.h"

int spe_tp_put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = *cap ? *cap : 256;
		char *b;

		while (c < *len + n + 1)
			c *= 2;
		b = realloc(*buf, c);
		if (!b)
			return -1;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
	return 0;
}

/* @s as a JSON string: quotes, backslashes and control bytes escaped. */
int spe_tp_put_json(char **buf, size_t *len, size_t *cap, const char *s)
{
	if (spe_tp_put(buf, len, cap, "\"", 1))
		return -1;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];
		size_t n = 1;

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			n = 2;
		} else if (c < 0x20 || c == 0x7f) {
			n = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", c);
		} else {
			esc[0] = (char)c;
		}
		if (spe_tp_put(buf, len, cap, esc, n))
			return -1;
	}
	return spe_tp_put(buf, len, cap, "\"", 1);
}
