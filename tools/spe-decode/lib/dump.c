// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Dump layer: a whole buffer as `perf report -D` packet lines.
 *
 * Lines are built in place in a stack buffer and handed to the caller's
 * sink in large blocks, so the cost per packet is the decode plus a few
 * stores, not a printf and a write.
 */
#include <stdio.h>
#include <string.h>

#include "print_internal.h"

#define OUT_BUF_SIZE	(64 * 1024)

struct dump_out {
	char buf[OUT_BUF_SIZE];
	size_t used;
	const struct spe_dump_config *cfg;
	int err;
	/* perf 7.3 style: the last description, which perf prints again for
	 * an operation it writes no text for (spe_put_desc() NULL). */
	bool keep_prev;
	size_t prev_len;
	char prev[SPE_PKT_DESC_MAX];
};

/* The description of @pkt after the prefix at @p; returns its end. */
static char *put_desc(struct dump_out *o, char *p, const struct spe_pkt *pkt)
{
	char *end = spe_put_desc(p, pkt, o->cfg->style);

	if (!o->keep_prev)
		return end;
	if (!end) {
		memcpy(p, o->prev, o->prev_len);
		return p + o->prev_len;
	}
	/* perf calls these "Bad packet!" and leaves its text alone. */
	if (pkt->type == SPE_PKT_UNKNOWN || pkt->type == SPE_PKT_ALIGNMENT)
		return end;
	o->prev_len = (size_t)(end - p);
	memcpy(o->prev, p, o->prev_len);
	return end;
}

static void flush(struct dump_out *o)
{
	if (o->used && !o->err)
		o->err = o->cfg->write(o->cfg->ctx, o->buf, o->used);
	o->used = 0;
}

/* Room for one more line; returns where to write it. */
static char *line_start(struct dump_out *o)
{
	if (OUT_BUF_SIZE - o->used < SPE_DUMP_LINE_MAX)
		flush(o);
	return o->buf + o->used;
}

static void line_end(struct dump_out *o, char *end)
{
	*end++ = '\n';
	o->used = (size_t)(end - o->buf);
}

/* Bytes that are not packets (alignment skip, truncated tail), 16 a line. */
static void raw_lines(struct dump_out *o, const uint8_t *b, size_t n,
		      uint64_t print_off, const char *text)
{
	while (n) {
		size_t k = n < 16 ? n : 16;
		char *p = spe_put_dump_prefix(line_start(o), b, k, print_off);
		size_t tlen = strlen(text);

		memcpy(p, text, tlen);
		line_end(o, p + tlen);
		b += k;
		n -= k;
		print_off += k;
	}
}

static void note_error(struct spe_dump_stats *st, int err, uint64_t off)
{
	if (!st->first_error) {
		st->first_error = err;
		st->first_error_offset = off;
	}
}

int spe_dump(const struct spe_dump_config *cfg, const uint8_t *buf,
	     size_t len, uint64_t stream_offset, struct spe_dump_stats *stats)
{
	struct spe_dump_stats local;
	struct dump_out o;
	struct spe_pkt pkt;
	size_t pos = 0;

	if (!cfg || cfg->size < sizeof(*cfg) || !cfg->write || (!buf && len) ||
	    !spe_desc_style_valid(cfg->style))
		return SPE_ERR_INVAL;
	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	o.used = 0;
	o.cfg = cfg;
	o.err = 0;
	/* Where a buffer starts with such an operation, perf prints whatever
	 * its stack held; an empty text here. */
	o.keep_prev = ((unsigned int)cfg->style & ~(unsigned int)SPE_DESC_NEOVERSE_N1) ==
		      SPE_DESC_PERF_7_3;
	o.prev_len = 0;

	while (pos < len && !o.err) {
		const uint8_t *b = buf + pos;
		uint64_t poff = cfg->print_offset + pos;
		int ret = spe_pkt_decode_fast(b, len - pos, stream_offset + pos, &pkt);
		char *p;

		if (ret > 0) {
			size_t n = (size_t)ret;

			stats->packets++;
			if (pkt.type == SPE_PKT_PAD) {
				/* perf puts up to 16 Padding bytes on a line */
				while (n < 16 && pos + n < len && !b[n])
					n++;
			}
			/* An Alignment's skipped bytes follow on lines of their own. */
			p = spe_put_dump_prefix(line_start(&o), b,
						pkt.type == SPE_PKT_ALIGNMENT ?
						pkt.hdr_len : n, poff);
			line_end(&o, put_desc(&o, p, &pkt));
			if (pkt.type == SPE_PKT_ALIGNMENT)
				raw_lines(&o, b + 2, n - 2, poff + 2,
					  "(alignment bytes)");
			pos += n;
			continue;
		}
		if (ret == SPE_ERR_TRUNCATED) {
			char text[96];

			snprintf(text, sizeof(text),
				 "TRUNCATED %s packet: %u bytes, %zu left",
				 spe_pkt_type_name(pkt.type), pkt.size, len - pos);
			raw_lines(&o, b, len - pos, poff, text);
			stats->truncated = 1;
			note_error(stats, ret, stream_offset + pos);
			break;
		}
		/* SPE_ERR_BAD_HEADER: step one byte, as perf does. */
		p = spe_put_dump_prefix(line_start(&o), b, 1, poff);
		memcpy(p, SPE_BAD_PACKET_TEXT, sizeof(SPE_BAD_PACKET_TEXT) - 1);
		line_end(&o, p + sizeof(SPE_BAD_PACKET_TEXT) - 1);
		stats->bad++;
		note_error(stats, ret, stream_offset + pos);
		pos++;
		if (cfg->flags & SPE_DUMP_STRICT)
			break;
	}
	flush(&o);
	return o.err;
}
