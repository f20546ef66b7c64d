/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The packet decoder's hot path, shared by the packet layer (packet.c,
 * which exports it as spe_pkt_decode) and the record layer (record.c, which
 * inlines it into its loop so that a packet costs a table lookup, a load
 * and a switch).  Not a public header.
 *
 * Header classification follows DDI 0487 D18.1.1 / DDI 0586A §5.2: every
 * first byte either is a known header, an extended-header prefix, or an
 * unknown header whose bits 5:4 give the payload size, which software must
 * use to skip it (DDI 0487 D18.1.3).
 */
#ifndef SPE_PACKET_INTERNAL_H
#define SPE_PACKET_INTERNAL_H

#include <string.h>

#include "spe_decode.h"
#include "spe/packet.h"

/* Pseudo type in the first-byte table: a 16-bit header, look at byte 1. */
#define SPE_HC_EXTENDED		0xffu

/*
 * What the record decoder does with a packet, by its first header byte:
 * the packet type and, for Address, Counter and Context, the index folded
 * into one value, so its hot loop dispatches once per packet.  16-bit
 * headers take the general path (SPE_RK_SLOW).
 */
enum spe_rec_kind {
	SPE_RK_PAD, SPE_RK_EVENTS, SPE_RK_DS, SPE_RK_OP,
	SPE_RK_CTX_EL1, SPE_RK_CTX_EL2, SPE_RK_CTX_OTHER,
	SPE_RK_PC, SPE_RK_TGT, SPE_RK_VA, SPE_RK_PA, SPE_RK_PBT, SPE_RK_ADDR_OTHER,
	SPE_RK_LAT_TOT, SPE_RK_LAT_ISS, SPE_RK_LAT_XLAT, SPE_RK_CNT_OTHER,
	SPE_RK_UNKNOWN,
	/*
	 * Last, what leaves the fast path's packet switch: the 16-bit
	 * headers and the record's end.  One compare tells them from the
	 * rest.
	 */
	SPE_RK_SLOW, SPE_RK_TS, SPE_RK_END,
};

/*
 * The enum spe_rec_kind of a packet of type @t (enum spe_pkt_type) with
 * index @i (Address/Counter index, Context index) and payload size @n:
 * a constant expression, so packet.c builds the first-byte table with it
 * and the record decoder classifies its slower 16-bit packets with the
 * same rules.  Padding and Alignment are framing (SPE_RK_PAD); a Data
 * Source wider than 16 bits is undefined (DDI 0586A §5.3.5).
 */
#define SPE_REC_KIND(t, i, n)						\
	((t) == SPE_PKT_PAD || (t) == SPE_PKT_ALIGNMENT ? SPE_RK_PAD :	\
	 (t) == SPE_PKT_END ? SPE_RK_END :				\
	 (t) == SPE_PKT_TIMESTAMP ? SPE_RK_TS :				\
	 (t) == SPE_PKT_EVENTS ? SPE_RK_EVENTS :			\
	 (t) == SPE_PKT_DATA_SOURCE ? ((n) <= 2 ? SPE_RK_DS : SPE_RK_UNKNOWN) : \
	 (t) == SPE_PKT_OP_TYPE ? SPE_RK_OP :				\
	 (t) == SPE_PKT_CONTEXT ?					\
		((i) == SPE_CONTEXT_EL1 ? SPE_RK_CTX_EL1 :		\
		 (i) == SPE_CONTEXT_EL2 ? SPE_RK_CTX_EL2 : SPE_RK_CTX_OTHER) : \
	 (t) == SPE_PKT_ADDRESS ?					\
		((i) == SPE_ADDR_PC ? SPE_RK_PC :			\
		 (i) == SPE_ADDR_BR_TARGET ? SPE_RK_TGT :		\
		 (i) == SPE_ADDR_DATA_VA ? SPE_RK_VA :			\
		 (i) == SPE_ADDR_DATA_PA ? SPE_RK_PA :			\
		 (i) == SPE_ADDR_PREV_BR_TARGET ? SPE_RK_PBT : SPE_RK_ADDR_OTHER) : \
	 (t) == SPE_PKT_COUNTER ?					\
		((i) == SPE_CNT_TOTAL ? SPE_RK_LAT_TOT :		\
		 (i) == SPE_CNT_ISSUE ? SPE_RK_LAT_ISS :		\
		 (i) == SPE_CNT_TRANSLATION ? SPE_RK_LAT_XLAT : SPE_RK_CNT_OTHER) : \
	 SPE_RK_UNKNOWN)

/*
 * The payload size in bytes that every 8-bit header of record kind @k has
 * (DDI 0586A §5.3: an Address packet always carries 8 bytes, a Counter 2,
 * a Context 4, an Operation Type 1, a Timestamp 8; Padding and End none),
 * or -1 where it varies with the header's bits 5:4 (Events, Data Source,
 * unknown headers).  packet.c checks it against the first-byte table at
 * compile time; the record decoder's fast path moves on by it.
 */
#define SPE_RK_FIXED_PLEN(k)						\
	((int)((0x953210ull >> 4 * ((SPE_RK_PLEN_CODES >> 3 * (k)) & 7)) & 0xf) - 1)

/*
 * SPE_RK_FIXED_PLEN's table: 3 bits a kind, a code whose size is the
 * code'th nibble of 0x953210 less one (0: varies; 1: 0; 2: 1; 3: 2; 4: 4;
 * 5: 8 bytes).  Packed so that the macro names @k once: packet.c checks
 * every header with it, and an expression that repeats its argument
 * grows with each nesting (the table check once took 190 MB of source).
 */
#define SPE_RK_CODE(k, code)	((unsigned long long)(code) << 3 * (k))
#define SPE_RK_PLEN_CODES						\
	(SPE_RK_CODE(SPE_RK_PAD, 1) | SPE_RK_CODE(SPE_RK_END, 1) |	\
	 SPE_RK_CODE(SPE_RK_OP, 2) |					\
	 SPE_RK_CODE(SPE_RK_LAT_TOT, 3) | SPE_RK_CODE(SPE_RK_LAT_ISS, 3) | \
	 SPE_RK_CODE(SPE_RK_LAT_XLAT, 3) | SPE_RK_CODE(SPE_RK_CNT_OTHER, 3) | \
	 SPE_RK_CODE(SPE_RK_CTX_EL1, 4) | SPE_RK_CODE(SPE_RK_CTX_EL2, 4) | \
	 SPE_RK_CODE(SPE_RK_CTX_OTHER, 4) |				\
	 SPE_RK_CODE(SPE_RK_PC, 5) | SPE_RK_CODE(SPE_RK_TGT, 5) |	\
	 SPE_RK_CODE(SPE_RK_VA, 5) | SPE_RK_CODE(SPE_RK_PA, 5) |	\
	 SPE_RK_CODE(SPE_RK_PBT, 5) | SPE_RK_CODE(SPE_RK_ADDR_OTHER, 5) | \
	 SPE_RK_CODE(SPE_RK_TS, 5))
_Static_assert(SPE_RK_END * 3 + 3 <= 64, "3 bits a kind fit in SPE_RK_PLEN_CODES");

struct spe_hdr_class {
	uint8_t type;		/* enum spe_pkt_type or SPE_HC_EXTENDED */
	uint8_t payload_len;
	uint8_t index;
	uint8_t rec_kind;	/* enum spe_rec_kind */
};

/* First-byte table, built at compile time in packet.c. */
extern const struct spe_hdr_class spe_hdr_table[256];

/* Payload size an 8-bit header (or byte 1 of a 16-bit one) encodes. */
static inline unsigned int spe_hdr_payload_len(uint8_t b)
{
	return b <= SPE_HDR_NO_PAYLOAD_MAX ? 0 : SPE_HDR_PAYLOAD_SIZE(b);
}

static inline uint64_t spe_load_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/*
 * Read an n-byte little-endian payload.  When at least 8 bytes remain an
 * unaligned 8-byte load plus a mask replaces the byte loop.
 */
static inline uint64_t spe_load_payload(const uint8_t *p, size_t avail,
					unsigned int n)
{
	if (avail >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		return n >= 8 ? v : v & ((1ULL << (8 * n)) - 1);
	}
	return spe_load_le(p, n);
}

/*
 * Index of the first non-Padding byte at or after @pos (or @len).  Units
 * pad every record to their alignment (PMBIDR_EL1.Align), so runs of zero
 * bytes are common: test eight at a time.
 */
static inline size_t spe_skip_padding(const uint8_t *buf, size_t pos,
				      size_t len)
{
	while (len - pos >= 8) {
		uint64_t w;

		memcpy(&w, buf + pos, 8);
		if (w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			return pos + (size_t)(__builtin_clzll(w) >> 3);
#else
			return pos + (size_t)(__builtin_ctzll(w) >> 3);
#endif
		}
		pos += 8;
	}
	while (pos < len && buf[pos] == SPE_HDR_PADDING)
		pos++;
	return pos;
}

/* The 16-bit header path (DDI 0586A §5.2.2, §5.3.2). */
static inline int spe_pkt_decode_ext(const uint8_t *buf, size_t len,
				     uint64_t stream_offset,
				     struct spe_pkt *pkt)
{
	uint8_t b0 = buf[0], b1;
	unsigned int plen;

	pkt->type = SPE_PKT_UNKNOWN;
	pkt->index = 0;
	pkt->payload_len = 0;
	pkt->payload = 0;
	pkt->hdr[1] = 0;
	pkt->hdr_len = 1;
	pkt->size = 1;
	if (len < 2)
		return SPE_ERR_TRUNCATED;
	b1 = buf[1];
	/* Byte 1 must say how long the payload is: another prefix does not. */
	if (SPE_HDR_IS_EXTENDED(b1))
		return SPE_ERR_BAD_HEADER;
	pkt->hdr[1] = b1;
	pkt->hdr_len = 2;
	if (b1 == SPE_ALIGN_B1 && (b0 & SPE_ALIGN_B0_MASK) == SPE_ALIGN_B0 &&
	    (b0 & SPE_ALIGN_SIZE_MASK)) {
		/*
		 * Alignment: the next protocol byte is at the next multiple
		 * of 2^(SIZE+1) after the command, in stream terms.
		 */
		uint64_t align = SPE_ALIGN_BYTES(b0);
		uint64_t after = stream_offset + 2;
		uint64_t next = (after + align - 1) & ~(align - 1);

		pkt->type = SPE_PKT_ALIGNMENT;
		pkt->index = b0 & SPE_ALIGN_SIZE_MASK;
		pkt->size = (uint32_t)(next - stream_offset);
		if (len < pkt->size)
			return SPE_ERR_TRUNCATED;
		return (int)pkt->size;
	}
	plen = spe_hdr_payload_len(b1);
	pkt->payload_len = (uint8_t)plen;
	pkt->size = 2 + plen;
	if ((b0 & SPE_EXT_HDR_B0_MASK) == SPE_EXT_HDR_B0) {
		if ((b1 & SPE_ADDR_HDR_MASK) == SPE_ADDR_HDR) {
			pkt->type = SPE_PKT_ADDRESS;
			pkt->index = SPE_EXT_INDEX(b0, b1);
		} else if ((b1 & SPE_CNT_HDR_MASK) == SPE_CNT_HDR) {
			pkt->type = SPE_PKT_COUNTER;
			pkt->index = SPE_EXT_INDEX(b0, b1);
		}
	}
	if (len < pkt->size)
		return SPE_ERR_TRUNCATED;
	pkt->payload = spe_load_payload(buf + 2, len - 2, plen);
	return (int)pkt->size;
}

/*
 * Decode one packet; see spe_pkt_decode() in spe_decode.h.  On an error
 * pkt->size says how many bytes a dump should step over (1 for a bad or
 * cut header).
 */
static inline int spe_pkt_decode_fast(const uint8_t *buf, size_t len,
				      uint64_t stream_offset,
				      struct spe_pkt *pkt)
{
	const struct spe_hdr_class *hc = &spe_hdr_table[buf[0]];
	unsigned int plen = hc->payload_len;

	pkt->hdr[0] = buf[0];
	if (hc->type == SPE_HC_EXTENDED)
		return spe_pkt_decode_ext(buf, len, stream_offset, pkt);
	pkt->hdr[1] = 0;
	pkt->hdr_len = 1;
	pkt->type = (enum spe_pkt_type)hc->type;
	pkt->index = hc->index;
	pkt->payload_len = (uint8_t)plen;
	pkt->size = 1 + plen;
	if (len < 1 + plen) {
		pkt->payload = 0;
		return SPE_ERR_TRUNCATED;
	}
	pkt->payload = plen ? spe_load_payload(buf + 1, len - 1, plen) : 0;
	return (int)(1 + plen);
}

#endif /* SPE_PACKET_INTERNAL_H */
