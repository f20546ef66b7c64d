/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * printf into a text sink (a write callback and its context), as the
 * report, cost-table, c2c and HTML writers print.  Not a public header.
 */
#ifndef SPE_SINK_PRINTF_H
#define SPE_SINK_PRINTF_H

#include <stdarg.h>
#include <stddef.h>

typedef int (*spe_sink_write_fn)(void *ctx, const char *text, size_t len);

/*
 * Formats and hands the whole text to @write, however long (a symbol name
 * or path is never cut).  Returns what @write returned, 0 for empty text,
 * SPE_ERR_INVAL when the text cannot be formatted or SPE_ERR_NOMEM when
 * it cannot be allocated.
 */
int spe_sink_vprintf(spe_sink_write_fn write, void *ctx, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * A sink that keeps its first error: the writer's own (a negative value it
 * returned, e.g. -errno, kept as it is; a positive one becomes
 * SPE_ERR_IO), or SPE_ERR_NOMEM.  After it, further text is dropped, so a
 * writer prints everything unchecked and looks at .err once at the end.
 */
struct spe_sink {
	spe_sink_write_fn write;
	void *ctx;
	int err;
};

void spe_sink_put(struct spe_sink *s, const char *text, size_t len);
void spe_sink_printf(struct spe_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* SPE_SINK_PRINTF_H */
