// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Record layer: groups packets into sample records (DDI 0487 D18.1.2: a
 * record is a sequence of packets ended by an End or a Timestamp packet;
 * only Padding and Alignment commands may sit between records, DDI 0586A
 * §5.1.4) and fills struct spe_record.
 *
 * Errors never abort decoding: the error is returned with its offset and
 * the part of the record decoded so far, then the next call resynchronises
 * at the next record boundary (see resync()).  Strict mode stops instead.
 */
#include "packet_internal.h"

_Static_assert(SPE_DECODER_WINDOW_MIN >= SPE_RECORD_MAX_BYTES + 65536u + 16u,
	       "a window holds a whole record and the longest Alignment skip");

/* Payload masks by payload length 0..8 (only 0, 1, 2, 4, 8 occur). */
static const uint64_t len_mask[9] = {
	0, 0xff, 0xffff, 0, 0xffffffff, 0, 0, 0, ~0ULL,
};

static void insn_addr(struct spe_insn_addr *a, uint64_t payload)
{
	a->addr = spe_addr_sign_extend(payload);
	a->el = (uint8_t)SPE_FIELD_GET(SPE_ADDR_INSN_EL_MASK, payload);
	a->ns = !!(payload & SPE_ADDR_INSN_NS);
	a->nse = !!(payload & SPE_ADDR_INSN_NSE);
}

static void add_impdef(struct spe_impdef_value *arr, uint8_t *n, unsigned int index,
		       uint64_t value)
{
	if (*n < SPE_REC_MAX_IMPDEF) {
		arr[*n].index = (uint8_t)index;
		arr[*n].value = value;
	}
	if (*n < UINT8_MAX)
		(*n)++;
}

/*
 * Store one packet into the record: the one place that knows which field
 * each packet fills.  @kind is the packet's enum spe_rec_kind, @index its
 * Address or Counter index or Operation Type class, @v its payload (on the
 * fast path the 8 bytes after the header, masked here to @plen where the
 * field is wider than the payload can be) and @plen its size.  Returns
 * @present with the field's bit added (the caller keeps it in a register:
 * stores through @rec could alias the buffer being decoded).  Padding
 * stores nothing; End and Timestamp, which end the record, are the
 * caller's.
 *
 * @pos, on the fast path (NULL on the other), is moved past the packet.
 * For the kinds whose 8-bit header fixes the payload size it moves by that
 * constant (SPE_RK_FIXED_PLEN), inside the case: the next packet's position
 * then hangs on the predicted branch, not on the header byte just loaded,
 * and the core fetches the next header without waiting for this one.  The
 * chain load-header, size, add was what bounded the loop: 11 cycles a
 * packet even with every branch predicted.
 */
#define REC_ADVANCE(pos, kind, plen)					\
	do {								\
		if (pos)						\
			*(pos) += 1 + (SPE_RK_FIXED_PLEN(kind) >= 0 ?	\
				       (unsigned int)SPE_RK_FIXED_PLEN(kind) : (plen)); \
	} while (0)

static inline __attribute__((always_inline)) uint32_t
rec_store(struct spe_record *rec, uint32_t present, unsigned int kind, unsigned int index,
	  uint64_t v, unsigned int plen, size_t *pos)
{
	switch (kind) {
	case SPE_RK_PC:
		REC_ADVANCE(pos, SPE_RK_PC, plen);
		insn_addr(&rec->pc, v);
		return present | SPE_REC_PC;
	case SPE_RK_TGT:
		REC_ADVANCE(pos, SPE_RK_TGT, plen);
		insn_addr(&rec->br_target, v);
		return present | SPE_REC_BR_TARGET;
	case SPE_RK_PBT:
		REC_ADVANCE(pos, SPE_RK_PBT, plen);
		insn_addr(&rec->prev_br_target, v);
		return present | SPE_REC_PREV_BR_TARGET;
	case SPE_RK_VA:
		REC_ADVANCE(pos, SPE_RK_VA, plen);
		rec->data_va = spe_addr_sign_extend(v);
		rec->data_va_tag = (uint8_t)SPE_FIELD_GET(SPE_ADDR_VA_TAG_MASK, v);
		return present | SPE_REC_DATA_VA;
	case SPE_RK_PA:
		REC_ADVANCE(pos, SPE_RK_PA, plen);
		rec->data_pa = v & SPE_ADDR_VALUE_MASK;
		rec->data_pa_ns = !!(v & SPE_ADDR_PA_NS);
		rec->data_pa_ch = !!(v & SPE_ADDR_PA_CH);
		rec->data_pa_pat = (uint8_t)SPE_FIELD_GET(SPE_ADDR_PA_PAT_MASK, v);
		return present | SPE_REC_DATA_PA;
	case SPE_RK_LAT_TOT:
		REC_ADVANCE(pos, SPE_RK_LAT_TOT, plen);
		rec->lat_total = (uint16_t)v;
		return present | SPE_REC_LAT_TOTAL;
	case SPE_RK_LAT_ISS:
		REC_ADVANCE(pos, SPE_RK_LAT_ISS, plen);
		rec->lat_issue = (uint16_t)v;
		return present | SPE_REC_LAT_ISSUE;
	case SPE_RK_LAT_XLAT:
		REC_ADVANCE(pos, SPE_RK_LAT_XLAT, plen);
		rec->lat_xlat = (uint16_t)v;
		return present | SPE_REC_LAT_XLAT;
	case SPE_RK_EVENTS:
		REC_ADVANCE(pos, SPE_RK_EVENTS, plen);
		rec->events = v & len_mask[plen];
		rec->events_size = (uint8_t)plen;
		return present | SPE_REC_EVENTS;
	case SPE_RK_OP:
		REC_ADVANCE(pos, SPE_RK_OP, plen);
		rec->op_class = (uint8_t)index;
		rec->op_subclass = (uint8_t)v;
		return present | SPE_REC_OP_TYPE;
	case SPE_RK_DS:
		REC_ADVANCE(pos, SPE_RK_DS, plen);
		rec->data_source = (uint16_t)(v & len_mask[plen]);
		rec->data_source_size = (uint8_t)plen;
		return present | SPE_REC_DATA_SOURCE;
	case SPE_RK_CTX_EL1:
		REC_ADVANCE(pos, SPE_RK_CTX_EL1, plen);
		rec->context_el1 = (uint32_t)v;
		return present | SPE_REC_CONTEXT_EL1;
	case SPE_RK_CTX_EL2:
		REC_ADVANCE(pos, SPE_RK_CTX_EL2, plen);
		rec->context_el2 = (uint32_t)v;
		return present | SPE_REC_CONTEXT_EL2;
	case SPE_RK_ADDR_OTHER:
		REC_ADVANCE(pos, SPE_RK_ADDR_OTHER, plen);
		add_impdef(rec->impdef_addr, &rec->n_impdef_addr, index, v);
		return present;
	case SPE_RK_CNT_OTHER:
		REC_ADVANCE(pos, SPE_RK_CNT_OTHER, plen);
		add_impdef(rec->impdef_cnt, &rec->n_impdef_cnt, index, v & len_mask[plen]);
		return present;
	case SPE_RK_PAD:
		REC_ADVANCE(pos, SPE_RK_PAD, plen);
		return present;
	default:	/* unknown packets, reserved Context indexes */
		REC_ADVANCE(pos, SPE_RK_UNKNOWN, plen);
		rec->n_unknown++;
		return present;
	}
}

int spe_decoder_init(struct spe_decoder *dec,
		     const struct spe_decoder_config *config,
		     const uint8_t *buf, size_t len, uint64_t base_offset)
{
	if (!dec || (!buf && len))
		return SPE_ERR_INVAL;
	/* An older caller's config may be shorter; never read past it. */
	if (config && config->size < offsetof(struct spe_decoder_config, flags) +
				     sizeof(config->flags))
		return SPE_ERR_INVAL;
	memset(dec, 0, sizeof(*dec));
	dec->buf = buf;
	dec->len = len;
	dec->base = base_offset;
	dec->flags = config ? config->flags : 0;
	return 0;
}

/*
 * Would a record start at @pos?  Padding, then known packets without
 * error up to an End or Timestamp within the record size limit.  Running
 * out of input counts as yes: the caller reports the truncation; running
 * out of a window the stream goes on after (dec->more) is -1: the answer
 * needs the bytes after it.
 */
static int record_starts_at(const struct spe_decoder *dec, size_t pos)
{
	const uint8_t *buf = dec->buf;
	size_t len = dec->len, start;
	struct spe_pkt pkt;
	int ret;

	pos = spe_skip_padding(buf, pos, len);
	start = pos;
	while (pos < len) {
		/* The same limit as spe_decoder_next(): no packet may start
		 * 2^MaxSize bytes or more into a record. */
		if (pos - start >= SPE_RECORD_MAX_BYTES)
			return 0;
		ret = spe_pkt_decode_fast(buf + pos, len - pos, dec->base + pos, &pkt);
		if (ret == SPE_ERR_TRUNCATED)
			return dec->more ? -1 : 1;
		/*
		 * Unknown packets are legal, but right after corruption a
		 * byte run that decodes only as "unknown" is more likely
		 * garbage than a record: wait for a cleaner boundary.
		 */
		if (ret < 0 || pkt.type == SPE_PKT_UNKNOWN)
			return 0;
		if (pkt.type == SPE_PKT_END || pkt.type == SPE_PKT_TIMESTAMP)
			return 1;
		pos += (size_t)ret;
	}
	return dec->more ? -1 : 1;
}

/*
 * After an error at stream offset dec->resync_bad, find the next record
 * boundary from index @from on: a position right after an End byte or
 * after a Timestamp packet's 9 bytes, from which a whole record decodes.
 * Payload bytes can look like an End header, so every candidate is checked
 * by decoding the record that would follow it.  When the window ends
 * before the answer (dec->more), *more is set and the index returned is
 * where the search goes on once the window reaches further.
 */
static size_t resync(const struct spe_decoder *dec, size_t from, bool *more)
{
	const uint8_t *buf = dec->buf;
	size_t len = dec->len;

	for (size_t q = from; q < len; q++) {
		bool after_end = buf[q - 1] == SPE_HDR_END;
		bool after_ts = dec->base + q >= dec->resync_bad + 9 &&
				buf[q - 9] == SPE_HDR_TIMESTAMP;
		int starts;

		if (!after_end && !after_ts)
			continue;
		starts = record_starts_at(dec, q);
		if (starts < 0) {
			*more = true;
			return q;
		}
		if (starts)
			return q;
	}
	*more = dec->more;
	return len;
}

static int fail(struct spe_decoder *dec, struct spe_record *rec, int err,
		size_t at, size_t start, enum spe_rec_end end)
{
	rec->end = end;
	rec->size = (uint32_t)(at - start);
	dec->error = err;
	dec->error_offset = dec->base + at;
	if (dec->flags & SPE_DEC_STRICT) {
		dec->stopped = true;
	} else if (err == SPE_ERR_TRUNCATED) {
		dec->pos = dec->len;
	} else {
		dec->pos = at;
		dec->resync_bad = dec->base + at;
		dec->need_resync = true;
	}
	return err;
}

/* The window ends before the record does: decode it again from @start
 * once the window reaches further. */
static int need_more(struct spe_decoder *dec, size_t start)
{
	dec->pos = start;
	return SPE_ERR_MORE;
}

/*
 * Between records only Padding and Alignment may sit (DDI 0586A §5.1.4):
 * skip them.  Returns where the next record starts, or @len.  An Alignment
 * cut by the end of a window the stream goes on after is left for the next
 * window: *more is set and its position returned.
 */
static size_t skip_framing(const struct spe_decoder *dec, size_t pos, bool *more)
{
	const uint8_t *buf = dec->buf;
	size_t len = dec->len;
	struct spe_pkt pkt;
	int ret;

	/*
	 * Most records follow the last one straight away: say so by a
	 * branch, so that the record's first packet is loaded at once, not
	 * after the padding scan's load and count of zero bytes.
	 */
	if (pos < len && buf[pos] != SPE_HDR_PADDING &&
	    spe_hdr_table[buf[pos]].type != SPE_HC_EXTENDED)
		return pos;
	for (;;) {
		pos = spe_skip_padding(buf, pos, len);
		if (pos >= len || spe_hdr_table[buf[pos]].type != SPE_HC_EXTENDED)
			return pos;
		ret = spe_pkt_decode_fast(buf + pos, len - pos, dec->base + pos, &pkt);
		if (ret > 0 && pkt.type == SPE_PKT_ALIGNMENT) {
			pos += (size_t)ret;
			continue;
		}
		/* The UNKNOWN bytes an Alignment skips may run to the end. */
		if (ret == SPE_ERR_TRUNCATED && pkt.type == SPE_PKT_ALIGNMENT) {
			*more = dec->more;
			return dec->more ? pos : len;
		}
		return pos;
	}
}

/*
 * The fast path: packets with a 1-byte header and 8 readable bytes after
 * it, so that each payload is one unaligned load and a mask, stored by
 * rec_store().  Stops before a 16-bit header, at @lim, or after the
 * record's End or Timestamp (then returns true, with rec->end set).
 *
 * Why a switch and not a branch-free store: keeping each payload in a
 * slot indexed by its kind, moving on by the size in the header's bits
 * 5:4 and filling the fields once the record has ended leaves nothing to
 * mispredict, but then every packet waits for the one before it (load the
 * header, size, add: about 10 cycles on a Zen 2 core).  Measured there on
 * 3.2 M records of the views benchmark, decoded from memory: 42 ns a
 * record with the switch, 69 ns with slots; on 2 M copies of one record,
 * where the switch is always predicted, 35 ns and 69 ns.
 */
static inline __attribute__((always_inline)) bool
decode_short_packets(const uint8_t *buf, size_t *posp, size_t lim,
				 struct spe_record *rec)
{
	uint32_t present = rec->present;
	unsigned int npk = rec->n_packets;
	size_t pos = *posp;
	bool ended = false;

	while (pos < lim) {
		uint8_t b = buf[pos];
		const struct spe_hdr_class *hc = &spe_hdr_table[b];
		uint64_t v;

		memcpy(&v, buf + pos + 1, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		if (hc->rec_kind >= SPE_RK_SLOW) {
			if (hc->rec_kind == SPE_RK_SLOW)
				break;
			npk++;
			if (hc->rec_kind == SPE_RK_TS) {
				pos += 1 + SPE_RK_FIXED_PLEN(SPE_RK_TS);
				rec->timestamp = v;
				present |= SPE_REC_TIMESTAMP;
				rec->end = SPE_REC_END_TIMESTAMP;
			} else {
				pos += 1 + SPE_RK_FIXED_PLEN(SPE_RK_END);
				rec->end = SPE_REC_END_END;
			}
			ended = true;
			break;
		}
		npk += hc->rec_kind != SPE_RK_PAD;	/* framing, not content */
		/*
		 * The payload size, from the table (the header's bits 5:4,
		 * DDI 0586A §5.2.1), is read only by the kinds whose size
		 * varies (Events, Data Source, unknown headers); the others
		 * move on by a constant in rec_store().
		 */
		present = rec_store(rec, present, hc->rec_kind, hc->index, v, hc->payload_len, &pos);
	}
	rec->present = present;
	rec->n_packets = (uint16_t)npk;
	*posp = pos;
	return ended;
}

int spe_decoder_next(struct spe_decoder *dec, struct spe_record *rec)
{
	const uint8_t *buf;
	size_t len, pos, start, lim;
	struct spe_pkt pkt;
	unsigned int kind;
	bool more = false;
	int ret;

	if (!dec || !rec)
		return SPE_ERR_INVAL;
	if (dec->stopped)
		return SPE_ERR_STOPPED;
	if (dec->need_resync) {
		/* Right after the error the search starts one byte on; after
		 * a window ran out, where it stopped. */
		size_t from = dec->base + dec->pos == dec->resync_bad ? dec->pos + 1 : dec->pos;

		dec->pos = resync(dec, from, &more);
		if (more)
			return SPE_ERR_MORE;
		dec->need_resync = false;
	}
	buf = dec->buf;
	len = dec->len;
	pos = skip_framing(dec, dec->pos, &more);
	if (more || (pos >= len && dec->more))
		return need_more(dec, pos);
	if (pos >= len) {
		dec->pos = len;
		return 0;
	}

	start = pos;
	rec->offset = dec->base + start;
	rec->present = 0;
	rec->n_impdef_addr = 0;
	rec->n_impdef_cnt = 0;
	rec->n_unknown = 0;
	rec->n_packets = 0;

	/* Fast path while 9 bytes are readable and inside the size limit. */
	lim = len >= 9 ? len - 8 : 0;
	if (lim > start + SPE_RECORD_MAX_BYTES)
		lim = start + SPE_RECORD_MAX_BYTES;
	while (!decode_short_packets(buf, &pos, lim, rec)) {
		/* One packet the general way: a 16-bit header, or near an end. */
		if (pos >= len)
			return dec->more ? need_more(dec, start) :
			       fail(dec, rec, SPE_ERR_TRUNCATED, pos, start,
				    SPE_REC_END_TRUNCATED);
		if (pos - start >= SPE_RECORD_MAX_BYTES)
			return fail(dec, rec, SPE_ERR_BAD_RECORD, pos, start,
				    SPE_REC_END_ERROR);
		ret = spe_pkt_decode_fast(buf + pos, len - pos, dec->base + pos, &pkt);
		if (ret == SPE_ERR_TRUNCATED && dec->more)
			return need_more(dec, start);
		if (ret < 0)
			return fail(dec, rec, ret, pos, start,
				    ret == SPE_ERR_TRUNCATED ?
				    SPE_REC_END_TRUNCATED : SPE_REC_END_ERROR);
		pos += (size_t)ret;
		rec->n_packets++;
		kind = SPE_REC_KIND(pkt.type, pkt.index, pkt.payload_len);
		if (kind == SPE_RK_END) {
			rec->end = SPE_REC_END_END;
			break;
		}
		if (kind == SPE_RK_TS) {
			rec->timestamp = pkt.payload;
			rec->present |= SPE_REC_TIMESTAMP;
			rec->end = SPE_REC_END_TIMESTAMP;
			break;
		}
		rec->n_packets -= kind == SPE_RK_PAD;	/* framing */
		rec->present = rec_store(rec, rec->present, kind, pkt.index,
					 pkt.payload, pkt.payload_len, NULL);
	}
	rec->size = (uint32_t)(pos - start);
	dec->pos = pos;
	return 1;
}

uint64_t spe_decoder_keep_offset(const struct spe_decoder *dec)
{
	uint64_t at = dec->base + dec->pos, from;

	if (!dec->need_resync)
		return at;
	/* resync() looks back 1 byte, or 9 (a Timestamp) no further back
	 * than the error. */
	from = at == dec->resync_bad ? at + 1 : at;
	return from > dec->resync_bad + 9 ? from - 9 : dec->resync_bad;
}

int spe_decoder_window(struct spe_decoder *dec, const uint8_t *buf, size_t len,
		       uint64_t base_offset, bool more)
{
	uint64_t at;

	if (!dec || (!buf && len))
		return SPE_ERR_INVAL;
	at = dec->base + dec->pos;
	if (base_offset > spe_decoder_keep_offset(dec) || at - base_offset > len)
		return SPE_ERR_INVAL;
	dec->buf = buf;
	dec->len = len;
	dec->pos = (size_t)(at - base_offset);
	dec->base = base_offset;
	dec->more = more;
	return 0;
}

uint64_t spe_decoder_error_offset(const struct spe_decoder *dec)
{
	return dec->error_offset;
}

uint64_t spe_decoder_offset(const struct spe_decoder *dec)
{
	return dec->base + dec->pos;
}
