// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cli/wrap_topology.c: a CPU_TOPOLOGY section grows by -1 entries for the
 * CPUs added, in each of its per-CPU parts, the rest kept byte for byte;
 * a section that is not laid out as perf.data-file-format.txt describes
 * is refused, never read past.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/wrap_topology.h"
#include "tap.h"

struct buf {
	uint8_t b[256];
	size_t n;
};

static void put_u32(struct buf *s, uint32_t v)
{
	memcpy(s->b + s->n, &v, 4);
	s->n += 4;
}

/* A string list of one string (with its NUL, as perf writes it). */
static void put_list(struct buf *s, const char *str)
{
	put_u32(s, 1);
	put_u32(s, (uint32_t)strlen(str) + 1);
	memcpy(s->b + s->n, str, strlen(str) + 1);
	s->n += strlen(str) + 1;
}

static uint32_t u32_at(const uint8_t *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

int main(void)
{
	struct buf s = { .n = 0 };
	size_t lists, olen;
	uint8_t *o = NULL;
	int err;

	/* 2 CPUs: sockets, threads; core/socket ids; dies; die ids. */
	put_list(&s, "0-1");
	put_list(&s, "0-1");
	lists = s.n;
	put_u32(&s, 0); put_u32(&s, 0);
	put_u32(&s, 1); put_u32(&s, 0);
	put_list(&s, "0-1");
	put_u32(&s, 0); put_u32(&s, 0);

	err = spe_wrap_extend_topology(s.b, s.n, 2, 4, &o, &olen);
	CHECK_EQ(err, 0, "a full section extends");
	CHECK_EQ(olen, s.n + 2 * 8 + 2 * 4, "by 8 bytes a CPU of ids and 4 of die id");
	if (!err) {
		CHECK(!memcmp(o, s.b, lists + 16), "the lists and the CPUs there were kept");
		CHECK(u32_at(o, lists + 16) == UINT32_MAX && u32_at(o, lists + 28) == UINT32_MAX,
		      "the CPUs added: core and socket -1");
		CHECK(!memcmp(o + lists + 32, s.b + lists + 16, s.n - lists - 16),
		      "the dies and their ids kept, after the CPUs");
		CHECK(u32_at(o, olen - 8) == UINT32_MAX && u32_at(o, olen - 4) == UINT32_MAX,
		      "the CPUs added: die -1");
	}
	free(o);
	o = NULL;

	/* An old perf's section: the lists only. */
	err = spe_wrap_extend_topology(s.b, lists, 2, 4, &o, &olen);
	CHECK(!err && olen == lists && !memcmp(o, s.b, lists),
	      "a section of the sibling lists only is kept as it is");
	free(o);
	o = NULL;

	/* Every cut that is not a part's end is refused. */
	err = 0;
	for (size_t n = 0; n < s.n; n++) {
		int e = spe_wrap_extend_topology(s.b, n, 2, 4, &o, &olen);

		if (n == lists || n == lists + 16) {
			free(o);
			o = NULL;
			continue;
		}
		if (e != -EINVAL)
			err = 1;
		free(o);
		o = NULL;
	}
	CHECK(!err, "a section cut inside a part is refused (-EINVAL)");

	/* A string longer than the section. */
	s.b[4] = 200;
	CHECK_EQ(spe_wrap_extend_topology(s.b, s.n, 2, 4, &o, &olen), -EINVAL,
		 "a string past the section's end is refused");
	free(o);
	return tap_done();
}
