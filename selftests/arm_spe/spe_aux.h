/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the AUX-buffer selftests share: the PERF_RECORD_AUX records of a
 * session's ring (perf_event.h PERF_RECORD_AUX: offset, size, flags), and
 * the AUX bytes decoded with the project's record layer (records, errors, timestamps).
 *
 * Header-only, after spe_selftest.h; the program links the decoder.
 */
#ifndef SPE_AUX_H
#define SPE_AUX_H

#include "spe_selftest.h"
#include "spe_decode.h"

/* The PERF_RECORD_AUX records seen, with the first ones kept as text. */
struct spe_aux_records {
	unsigned long aux_records, truncated, partial, collision;
	char log[256];		/* " offset+size/flags" each, for a diagnosis */
};

/* An spe_ring_fn: count one ring record into a struct spe_aux_records. */
static inline void spe_aux_on_record(const struct perf_event_header *h,
				     void *ctx)
{
	struct spe_aux_records *f = ctx;
	const struct {
		struct perf_event_header h;
		uint64_t aux_offset, aux_size, flags;
	} *aux = (const void *)h;
	size_t used = strlen(f->log);

	if (h->type != PERF_RECORD_AUX)
		return;
	f->aux_records++;
	if (aux->flags & PERF_AUX_FLAG_TRUNCATED)
		f->truncated++;
	if (aux->flags & PERF_AUX_FLAG_PARTIAL)
		f->partial++;
	if (aux->flags & PERF_AUX_FLAG_COLLISION)
		f->collision++;
	if (used < sizeof(f->log) - 40)
		snprintf(f->log + used, sizeof(f->log) - used, " %llu+%llu/0x%llx",
			 (unsigned long long)aux->aux_offset,
			 (unsigned long long)aux->aux_size,
			 (unsigned long long)aux->flags);
}

/* What a stretch of AUX data decodes to. */
struct spe_aux_decoded {
	unsigned long records, errors;
	uint64_t ts_min, ts_max;
	uint64_t gap, gap_at;	/* largest step between successive timestamps */
	unsigned long backsteps;	/* timestamps older than the one before */
};

static inline void spe_aux_decode(const uint8_t *buf, size_t len,
				  struct spe_aux_decoded *d)
{
	struct spe_decoder dec;
	struct spe_record r;
	uint64_t last = 0;
	int ret;

	memset(d, 0, sizeof(*d));
	d->ts_min = UINT64_MAX;
	spe_decoder_init(&dec, NULL, buf, len, 0);
	while ((ret = spe_decoder_next(&dec, &r)) != 0) {
		if (ret < 0) {
			if (!d->errors++)
				tap_diag("decode error %s at offset %llu", spe_strerror(ret),
					 (unsigned long long)spe_decoder_error_offset(&dec));
			continue;
		}
		d->records++;
		if (!(r.present & SPE_REC_TIMESTAMP))
			continue;
		d->backsteps += r.timestamp < last;
		if (last && r.timestamp > last && r.timestamp - last > d->gap) {
			d->gap = r.timestamp - last;
			d->gap_at = last;
		}
		last = r.timestamp;
		if (r.timestamp < d->ts_min)
			d->ts_min = r.timestamp;
		if (r.timestamp > d->ts_max)
			d->ts_max = r.timestamp;
	}
}

/*
 * Where the first whole record of a wrapped buffer starts.  A unit that
 * wrapped round an overwrite-mode buffer left its oldest bytes inside a
 * record it partly overwrote, and records cannot be parsed backwards.
 * Decoded from there, the fragment can read as a record with any
 * timestamp (a Timestamp header found in an address payload takes the
 * next eight bytes), or as an Alignment packet that skips the rest of the
 * buffer.  With timestamps on, every record ends with a Timestamp packet
 * (DDI 0586A §5.1.2): the first one timed within [lo, hi], when the
 * session ran, ends a record, and the next starts right after it.
 * Returns that offset, or len when there is none.
 */
static inline size_t spe_aux_first_record(const uint8_t *buf, size_t len, uint64_t lo,
					  uint64_t hi)
{
	struct spe_pkt pkt;

	for (size_t i = 0; i < len; i++) {
		int size;

		if (buf[i] != SPE_HDR_TIMESTAMP)
			continue;
		size = spe_pkt_decode(buf + i, len - i, i, &pkt);
		if (size > 0 && pkt.type == SPE_PKT_TIMESTAMP &&
		    pkt.payload >= lo && pkt.payload <= hi)
			return i + (size_t)size;
	}
	return len;
}

/* The AUX bytes [from, to) of the stream, unwrapped into out. */
static inline size_t spe_aux_copy(const struct spe_session *s, uint64_t from,
				  uint64_t to, uint8_t *out)
{
	uint64_t i;

	if (to - from > s->aux_size)
		from = to - s->aux_size;
	for (i = from; i < to; i++)
		out[i - from] = s->aux[i % s->aux_size];
	return to - from;
}

#endif /* SPE_AUX_H */
