// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Record layer: groups packets into sample records (seed 003 D18.1.2: a
 * record is a sequence of packets ended by an End or a Timestamp packet;
 * only Padding and Alignment commands may sit between records, seed 000
 * §5.1.4) and fills struct spe_record.
 *
 * Errors never abort decoding: the error is returned with its offset and
 * the part of the record decoded so far, then the next call resynchronises
 * at the next record boundary (see resync()).  Strict mode stops instead.
 */
#include "packet_internal.h"

/*
 * What a record does with a packet, by first header byte: the packet type
 * and, for Address/Counter/Context, the index folded into one value, so
 * the hot loop dispatches once per packet.  16-bit headers take the
 * general path.
 */
enum rec_kind {
	K_SLOW,		/* 16-bit header: decode with the packet layer */
	K_PAD, K_END, K_TS, K_EVENTS, K_DS, K_OP,
	K_CTX_EL1, K_CTX_EL2, K_CTX_OTHER,
	K_PC, K_TGT, K_VA, K_PA, K_PBT, K_ADDR_OTHER,
	K_LAT_TOT, K_LAT_ISS, K_LAT_XLAT, K_CNT_OTHER,
	K_UNKNOWN,
};

#define RK(b)								\
	[b] = (SPE_HDR_IS_EXTENDED(b) ? K_SLOW :			\
	       (b) == SPE_HDR_PADDING ? K_PAD :				\
	       (b) == SPE_HDR_END ? K_END :				\
	       (b) <= SPE_HDR_NO_PAYLOAD_MAX ? K_UNKNOWN :		\
	       (b) == SPE_HDR_TIMESTAMP ? K_TS :			\
	       ((b) & SPE_EVENTS_HDR_MASK) == SPE_EVENTS_HDR ? K_EVENTS : \
	       ((b) & SPE_DATA_SOURCE_HDR_MASK) == SPE_DATA_SOURCE_HDR ? \
		(SPE_HDR_PAYLOAD_SIZE(b) <= 2 ? K_DS : K_UNKNOWN) :	\
	       ((b) & SPE_CONTEXT_HDR_MASK) == SPE_CONTEXT_HDR ?	\
		((b) == (SPE_CONTEXT_HDR | SPE_CONTEXT_EL1) ? K_CTX_EL1 :	\
		 (b) == (SPE_CONTEXT_HDR | SPE_CONTEXT_EL2) ? K_CTX_EL2 :	\
		 K_CTX_OTHER) :						\
	       ((b) & SPE_OP_HDR_MASK) == SPE_OP_HDR ? K_OP :		\
	       ((b) & SPE_ADDR_HDR_MASK) == SPE_ADDR_HDR ?		\
		((b) & 7) == SPE_ADDR_PC ? K_PC :			\
		((b) & 7) == SPE_ADDR_BR_TARGET ? K_TGT :		\
		((b) & 7) == SPE_ADDR_DATA_VA ? K_VA :			\
		((b) & 7) == SPE_ADDR_DATA_PA ? K_PA :			\
		((b) & 7) == SPE_ADDR_PREV_BR_TARGET ? K_PBT : K_ADDR_OTHER : \
	       ((b) & SPE_CNT_HDR_MASK) == SPE_CNT_HDR ?		\
		((b) & 7) == SPE_CNT_TOTAL ? K_LAT_TOT :		\
		((b) & 7) == SPE_CNT_ISSUE ? K_LAT_ISS :		\
		((b) & 7) == SPE_CNT_TRANSLATION ? K_LAT_XLAT : K_CNT_OTHER : \
	       K_UNKNOWN)
#define RK4(b)	RK(b), RK((b) + 1), RK((b) + 2), RK((b) + 3)
#define RK16(b)	RK4(b), RK4((b) + 4), RK4((b) + 8), RK4((b) + 12)
#define RK64(b)	RK16(b), RK16((b) + 16), RK16((b) + 32), RK16((b) + 48)

static const uint8_t rec_kind[256] = {
	RK64(0x00), RK64(0x40), RK64(0x80), RK64(0xc0),
};

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

static void add_impdef(struct spe_impdef_value *arr, uint8_t *n,
		       const struct spe_pkt *pkt)
{
	if (*n < SPE_REC_MAX_IMPDEF) {
		arr[*n].index = pkt->index;
		arr[*n].value = pkt->payload;
	}
	if (*n < UINT8_MAX)
		(*n)++;
}

/* Store one packet's content into the record. */
static void rec_add(struct spe_record *rec, const struct spe_pkt *pkt)
{
	uint64_t v = pkt->payload;

	switch (pkt->type) {
	case SPE_PKT_ADDRESS:
		switch (pkt->index) {
		case SPE_ADDR_PC:
			insn_addr(&rec->pc, v);
			rec->present |= SPE_REC_PC;
			break;
		case SPE_ADDR_BR_TARGET:
			insn_addr(&rec->br_target, v);
			rec->present |= SPE_REC_BR_TARGET;
			break;
		case SPE_ADDR_PREV_BR_TARGET:
			insn_addr(&rec->prev_br_target, v);
			rec->present |= SPE_REC_PREV_BR_TARGET;
			break;
		case SPE_ADDR_DATA_VA:
			rec->data_va = spe_addr_sign_extend(v);
			rec->data_va_tag = (uint8_t)SPE_FIELD_GET(SPE_ADDR_VA_TAG_MASK, v);
			rec->present |= SPE_REC_DATA_VA;
			break;
		case SPE_ADDR_DATA_PA:
			rec->data_pa = v & SPE_ADDR_VALUE_MASK;
			rec->data_pa_ns = !!(v & SPE_ADDR_PA_NS);
			rec->data_pa_ch = !!(v & SPE_ADDR_PA_CH);
			rec->data_pa_pat = (uint8_t)SPE_FIELD_GET(SPE_ADDR_PA_PAT_MASK, v);
			rec->present |= SPE_REC_DATA_PA;
			break;
		default:
			add_impdef(rec->impdef_addr, &rec->n_impdef_addr, pkt);
			break;
		}
		break;
	case SPE_PKT_COUNTER:
		switch (pkt->index) {
		case SPE_CNT_TOTAL:
			rec->lat_total = (uint16_t)v;
			rec->present |= SPE_REC_LAT_TOTAL;
			break;
		case SPE_CNT_ISSUE:
			rec->lat_issue = (uint16_t)v;
			rec->present |= SPE_REC_LAT_ISSUE;
			break;
		case SPE_CNT_TRANSLATION:
			rec->lat_xlat = (uint16_t)v;
			rec->present |= SPE_REC_LAT_XLAT;
			break;
		default:
			add_impdef(rec->impdef_cnt, &rec->n_impdef_cnt, pkt);
			break;
		}
		break;
	case SPE_PKT_EVENTS:
		rec->events = v;
		rec->events_size = pkt->payload_len;
		rec->present |= SPE_REC_EVENTS;
		break;
	case SPE_PKT_OP_TYPE:
		rec->op_class = pkt->index;
		rec->op_subclass = (uint8_t)v;
		rec->present |= SPE_REC_OP_TYPE;
		break;
	case SPE_PKT_DATA_SOURCE:
		/* Only 8- and 16-bit payloads are defined (seed 000 §5.3.5). */
		if (pkt->payload_len > 2) {
			rec->n_unknown++;
			break;
		}
		rec->data_source = (uint16_t)v;
		rec->data_source_size = pkt->payload_len;
		rec->present |= SPE_REC_DATA_SOURCE;
		break;
	case SPE_PKT_CONTEXT:
		if (pkt->index == SPE_CONTEXT_EL1) {
			rec->context_el1 = (uint32_t)v;
			rec->present |= SPE_REC_CONTEXT_EL1;
		} else if (pkt->index == SPE_CONTEXT_EL2) {
			rec->context_el2 = (uint32_t)v;
			rec->present |= SPE_REC_CONTEXT_EL2;
		} else {
			rec->n_unknown++;	/* reserved index */
		}
		break;
	case SPE_PKT_UNKNOWN:
		rec->n_unknown++;
		break;
	default:	/* PAD, ALIGNMENT: framing, no content */
		break;
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
 * out of input counts as yes: the caller reports the truncation.
 */
static bool record_starts_at(const struct spe_decoder *dec, size_t pos)
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
			return false;
		ret = spe_pkt_decode_fast(buf + pos, len - pos, dec->base + pos, &pkt);
		if (ret == SPE_ERR_TRUNCATED)
			return true;
		/*
		 * Unknown packets are legal, but right after corruption a
		 * byte run that decodes only as "unknown" is more likely
		 * garbage than a record: wait for a cleaner boundary.
		 */
		if (ret < 0 || pkt.type == SPE_PKT_UNKNOWN)
			return false;
		if (pkt.type == SPE_PKT_END || pkt.type == SPE_PKT_TIMESTAMP)
			return true;
		pos += (size_t)ret;
	}
	return true;
}

/*
 * After an error at index @bad, find the next record boundary: a position
 * right after an End byte or after a Timestamp packet's 9 bytes, from which
 * a whole record decodes.  Payload bytes can look like an End header, so
 * every candidate is checked by decoding the record that would follow it.
 */
static size_t resync(const struct spe_decoder *dec, size_t bad)
{
	const uint8_t *buf = dec->buf;
	size_t len = dec->len;

	for (size_t q = bad + 1; q < len; q++) {
		bool after_end = buf[q - 1] == SPE_HDR_END;
		bool after_ts = q >= bad + 9 && buf[q - 9] == SPE_HDR_TIMESTAMP;

		if ((after_end || after_ts) && record_starts_at(dec, q))
			return q;
	}
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
		dec->need_resync = true;
	}
	return err;
}

int spe_decoder_next(struct spe_decoder *dec, struct spe_record *rec)
{
	const uint8_t *buf;
	size_t len, pos, start;
	struct spe_pkt pkt;
	int ret;

	if (!dec || !rec)
		return SPE_ERR_INVAL;
	if (dec->stopped)
		return SPE_ERR_STOPPED;
	if (dec->need_resync) {
		dec->pos = resync(dec, dec->pos);
		dec->need_resync = false;
	}
	buf = dec->buf;
	len = dec->len;
	pos = dec->pos;

	/* Between records: Padding and Alignment commands only. */
	for (;;) {
		pos = spe_skip_padding(buf, pos, len);
		if (pos >= len) {
			dec->pos = pos;
			return 0;
		}
		if (spe_hdr_table[buf[pos]].type != SPE_HC_EXTENDED)
			break;
		ret = spe_pkt_decode_fast(buf + pos, len - pos, dec->base + pos, &pkt);
		if (ret > 0 && pkt.type == SPE_PKT_ALIGNMENT) {
			pos += (size_t)ret;
			continue;
		}
		/* The UNKNOWN bytes an Alignment skips may run to the end. */
		if (ret == SPE_ERR_TRUNCATED && pkt.type == SPE_PKT_ALIGNMENT) {
			dec->pos = len;
			return 0;
		}
		break;
	}

	start = pos;
	rec->offset = dec->base + start;
	rec->present = 0;
	rec->n_impdef_addr = 0;
	rec->n_impdef_cnt = 0;
	rec->n_unknown = 0;
	rec->n_packets = 0;

	for (;;) {
		/*
		 * Fast path: a 1-byte header with 8 readable bytes after it,
		 * so the payload is one unaligned load and a mask.
		 */
		/* pos < lim: 9 readable bytes and still inside the size limit */
		size_t lim = len >= 9 ? len - 8 : 0;

		if (lim > start + SPE_RECORD_MAX_BYTES)
			lim = start + SPE_RECORD_MAX_BYTES;
		/* Kept in registers: stores through rec could alias buf. */
		uint32_t present = rec->present;
		unsigned int npk = rec->n_packets;

		while (pos < lim) {
			uint8_t b = buf[pos];
			unsigned int kind = rec_kind[b];
			unsigned int plen = spe_hdr_table[b].payload_len;
			uint64_t v;

			if (kind == K_SLOW)
				break;
			memcpy(&v, buf + pos + 1, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			v = __builtin_bswap64(v);
#endif
			v &= len_mask[plen];
			pos += 1 + plen;
			npk++;
			switch (kind) {
			case K_PC:
				insn_addr(&rec->pc, v);
				present |= SPE_REC_PC;
				break;
			case K_TGT:
				insn_addr(&rec->br_target, v);
				present |= SPE_REC_BR_TARGET;
				break;
			case K_PBT:
				insn_addr(&rec->prev_br_target, v);
				present |= SPE_REC_PREV_BR_TARGET;
				break;
			case K_VA:
				rec->data_va = spe_addr_sign_extend(v);
				rec->data_va_tag = (uint8_t)(v >> 56);
				present |= SPE_REC_DATA_VA;
				break;
			case K_PA:
				rec->data_pa = v & SPE_ADDR_VALUE_MASK;
				rec->data_pa_ns = !!(v & SPE_ADDR_PA_NS);
				rec->data_pa_ch = !!(v & SPE_ADDR_PA_CH);
				rec->data_pa_pat = (uint8_t)SPE_FIELD_GET(SPE_ADDR_PA_PAT_MASK, v);
				present |= SPE_REC_DATA_PA;
				break;
			case K_LAT_TOT:
				rec->lat_total = (uint16_t)v;
				present |= SPE_REC_LAT_TOTAL;
				break;
			case K_LAT_ISS:
				rec->lat_issue = (uint16_t)v;
				present |= SPE_REC_LAT_ISSUE;
				break;
			case K_LAT_XLAT:
				rec->lat_xlat = (uint16_t)v;
				present |= SPE_REC_LAT_XLAT;
				break;
			case K_EVENTS:
				rec->events = v;
				rec->events_size = (uint8_t)plen;
				present |= SPE_REC_EVENTS;
				break;
			case K_OP:
				rec->op_class = b & SPE_OP_CLASS_MASK;
				rec->op_subclass = (uint8_t)v;
				present |= SPE_REC_OP_TYPE;
				break;
			case K_DS:
				rec->data_source = (uint16_t)v;
				rec->data_source_size = (uint8_t)plen;
				present |= SPE_REC_DATA_SOURCE;
				break;
			case K_CTX_EL1:
				rec->context_el1 = (uint32_t)v;
				present |= SPE_REC_CONTEXT_EL1;
				break;
			case K_CTX_EL2:
				rec->context_el2 = (uint32_t)v;
				present |= SPE_REC_CONTEXT_EL2;
				break;
			case K_TS:
				rec->timestamp = v;
				present |= SPE_REC_TIMESTAMP;
				rec->end = SPE_REC_END_TIMESTAMP;
				rec->present = present;
				rec->n_packets = (uint16_t)npk;
				goto done;
			case K_END:
				rec->end = SPE_REC_END_END;
				rec->present = present;
				rec->n_packets = (uint16_t)npk;
				goto done;
			case K_PAD:
				npk--;	/* framing, not content */
				break;
			case K_ADDR_OTHER:
			case K_CNT_OTHER: {
				struct spe_pkt pkt = {
					.type = kind == K_ADDR_OTHER ?
						SPE_PKT_ADDRESS : SPE_PKT_COUNTER,
					.index = b & SPE_SHORT_INDEX_MASK,
					.payload = v,
				};

				rec->present = present;
				rec_add(rec, &pkt);
				break;
			}
			default:	/* K_UNKNOWN, K_CTX_OTHER */
				rec->n_unknown++;
				break;
			}
		}
		rec->present = present;
		rec->n_packets = (uint16_t)npk;
		if (pos >= len)
			return fail(dec, rec, SPE_ERR_TRUNCATED, pos, start,
				    SPE_REC_END_TRUNCATED);
		if (pos - start >= SPE_RECORD_MAX_BYTES)
			return fail(dec, rec, SPE_ERR_BAD_RECORD, pos, start,
				    SPE_REC_END_ERROR);
		ret = spe_pkt_decode_fast(buf + pos, len - pos, dec->base + pos, &pkt);
		if (ret < 0)
			return fail(dec, rec, ret, pos, start,
				    ret == SPE_ERR_TRUNCATED ?
				    SPE_REC_END_TRUNCATED : SPE_REC_END_ERROR);
		pos += (size_t)ret;
		rec->n_packets++;
		if (pkt.type == SPE_PKT_END) {
			rec->end = SPE_REC_END_END;
			break;
		}
		if (pkt.type == SPE_PKT_TIMESTAMP) {
			rec->timestamp = pkt.payload;
			rec->present |= SPE_REC_TIMESTAMP;
			rec->end = SPE_REC_END_TIMESTAMP;
			break;
		}
		if (pkt.type != SPE_PKT_PAD && pkt.type != SPE_PKT_ALIGNMENT)
			rec_add(rec, &pkt);
		else
			rec->n_packets--;
	}
done:
	rec->size = (uint32_t)(pos - start);
	dec->pos = pos;
	return 1;
}

uint64_t spe_decoder_error_offset(const struct spe_decoder *dec)
{
	return dec->error_offset;
}

uint64_t spe_decoder_offset(const struct spe_decoder *dec)
{
	return dec->base + dec->pos;
}
