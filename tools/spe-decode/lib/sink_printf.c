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
