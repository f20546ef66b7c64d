// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* printf into a text sink (sink_printf.h). */
#include <stdio.h>
#include <stdlib.h>

#include "sink_printf.h"
#include "spe_decode.h"

int spe_sink_vprintf(spe_sink_write_fn write, void *ctx, const char *fmt, va_list ap)
{
	char buf[512], *p = buf;
	va_list again;
	int n, ret;

	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0) {
		va_end(again);
		return SPE_ERR_INVAL;
	}
	/* Most lines fit on the stack; a longer one gets a buffer its size. */
	if ((size_t)n >= sizeof(buf)) {
		p = malloc((size_t)n + 1);
		if (!p) {
			va_end(again);
			return SPE_ERR_NOMEM;
		}
		vsnprintf(p, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	ret = n ? write(ctx, p, (size_t)n) : 0;
	if (p != buf)
		free(p);
	return ret;
}

void spe_sink_put(struct spe_sink *s, const char *text, size_t len)
{
	int err;

	if (s->err || !len)
		return;
	err = s->write(s->ctx, text, len);
	if (err)
		s->err = err < 0 ? err : SPE_ERR_IO;
}

static int sink_put(void *ctx, const char *text, size_t len)
{
	spe_sink_put(ctx, text, len);
	return 0;
}

void spe_sink_printf(struct spe_sink *s, const char *fmt, ...)
{
	va_list ap;
	int err;

	if (s->err)
		return;
	va_start(ap, fmt);
	err = spe_sink_vprintf(sink_put, s, fmt, ap);
	va_end(ap);
	if (err < 0 && !s->err)
		s->err = err;
}
