// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* lib/sink_printf.c: formatted text reaches the sink whole, however long. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/sink_printf.h"
#include "tap.h"

struct sink {
	char *text;
	size_t len;
	unsigned int calls;
};

static int collect(void *ctx, const char *text, size_t len)
{
	struct sink *s = ctx;
	char *p = realloc(s->text, s->len + len + 1);

	if (!p)
		return -1;
	memcpy(p + s->len, text, len);
	s->len += len;
	p[s->len] = 0;
	s->text = p;
	s->calls++;
	return 0;
}

/* Takes two writes, then fails as a full disk would. */
static int fail_third(void *ctx, const char *text, size_t len)
{
	unsigned int *calls = ctx;

	(void)text;
	(void)len;
	return ++*calls > 2 ? -28 : 0;	/* -ENOSPC */
}

static int sprint(struct sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sprint(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = spe_sink_vprintf(collect, s, fmt, ap);
	va_end(ap);
	return ret;
}

int main(void)
{
	struct sink s = { 0 };
	char *name = malloc(5001);

	memset(name, 'x', 5000);
	name[5000] = 0;
	CHECK(sprint(&s, "%s+0x%x", "short", 4) == 0 && s.calls == 1 &&
	      !strcmp(s.text, "short+0x4"), "a short line reaches the sink in one write");
	free(s.text);
	s = (struct sink){ 0 };
	CHECK(sprint(&s, "[%s]", name) == 0 && s.len == 5002 && s.text[0] == '[' &&
	      s.text[5001] == ']', "a 5002-byte line is not cut (the old writers cut at 512 to 4096)");
	free(s.text);
	s = (struct sink){ 0 };
	CHECK(sprint(&s, "%s", "") == 0 && s.calls == 0, "empty text writes nothing");
	free(name);

	{
		unsigned int calls = 0;
		struct spe_sink k = { fail_third, &calls, 0 };

		for (int i = 0; i < 5; i++)
			spe_sink_printf(&k, "line %d\n", i);
		CHECK(k.err == -28 && calls == 3,
		      "a sink keeps its writer's first error as it is and writes nothing after it");
		k = (struct spe_sink){ fail_third, &calls, 0 };
		calls = 0;
		spe_sink_put(&k, "", 0);
		CHECK(!k.err && calls == 0, "an empty put does not reach the writer");
	}
	return tap_done();
}
