// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Packet layer: one SPE packet from bytes (DDI 0586A §5, DDI 0487 D18.1).
 *
 * Classification of the first header byte is a compile-time table so the
 * hot path has no chain of mask-and-compare branches; the 16-bit headers
 * (extended Address/Counter, Alignment) take the slower path in
 * packet_internal.h.
 */
#include "packet_internal.h"

/* What an 8-bit header byte is (DDI 0586A §5.2.1, DDI 0487 Table D18-1). */
#define HC_TYPE(b)							\
	((b) == SPE_HDR_PADDING ? SPE_PKT_PAD :				\
	 (b) == SPE_HDR_END ? SPE_PKT_END :				\
	 (b) <= SPE_HDR_NO_PAYLOAD_MAX ? SPE_PKT_UNKNOWN :		\
	 SPE_HDR_IS_EXTENDED(b) ? SPE_HC_EXTENDED :			\
	 (b) == SPE_HDR_TIMESTAMP ? SPE_PKT_TIMESTAMP :			\
	 ((b) & SPE_EVENTS_HDR_MASK) == SPE_EVENTS_HDR ? SPE_PKT_EVENTS : \
	 ((b) & SPE_DATA_SOURCE_HDR_MASK) == SPE_DATA_SOURCE_HDR ?	\
		SPE_PKT_DATA_SOURCE :					\
	 ((b) & SPE_CONTEXT_HDR_MASK) == SPE_CONTEXT_HDR ? SPE_PKT_CONTEXT : \
	 ((b) & SPE_OP_HDR_MASK) == SPE_OP_HDR ? SPE_PKT_OP_TYPE :	\
	 ((b) & SPE_ADDR_HDR_MASK) == SPE_ADDR_HDR ? SPE_PKT_ADDRESS :	\
	 ((b) & SPE_CNT_HDR_MASK) == SPE_CNT_HDR ? SPE_PKT_COUNTER :	\
	 SPE_PKT_UNKNOWN)

#define HC_PLEN(b)							\
	((b) <= SPE_HDR_NO_PAYLOAD_MAX || SPE_HDR_IS_EXTENDED(b) ? 0 :	\
	 SPE_HDR_PAYLOAD_SIZE(b))

#define HC_INDEX(b)							\
	(HC_TYPE(b) == SPE_PKT_ADDRESS || HC_TYPE(b) == SPE_PKT_COUNTER ? \
		(b) & SPE_SHORT_INDEX_MASK :				\
	 HC_TYPE(b) == SPE_PKT_CONTEXT ? (b) & SPE_CONTEXT_INDEX_MASK :	\
	 HC_TYPE(b) == SPE_PKT_OP_TYPE ? (b) & SPE_OP_CLASS_MASK : 0)

/* The record decoder's dispatch value (enum spe_rec_kind). */
#define HC_REC(b)							\
	(HC_TYPE(b) == SPE_HC_EXTENDED ? SPE_RK_SLOW :			\
	 SPE_REC_KIND(HC_TYPE(b), HC_INDEX(b), HC_PLEN(b)))

#define HC(b)	[b] = { HC_TYPE(b), HC_PLEN(b), HC_INDEX(b), HC_REC(b) }
#define HC4(b)	HC(b), HC((b) + 1), HC((b) + 2), HC((b) + 3)
#define HC16(b)	HC4(b), HC4((b) + 4), HC4((b) + 8), HC4((b) + 12)
#define HC64(b)	HC16(b), HC16((b) + 16), HC16((b) + 32), HC16((b) + 48)

const struct spe_hdr_class spe_hdr_table[256] = {
	HC64(0x00), HC64(0x40), HC64(0x80), HC64(0xc0),
};

/*
 * The record decoder's fast path moves past an 8-bit header by the size
 * its kind implies (SPE_RK_FIXED_PLEN): check every header byte's payload
 * size against it here, so that a table change that breaks it cannot build.
 * FIXED_OK: the fixed size plus one picks a bit of a mask that has bit 0
 * (the size varies) and bit HC_PLEN + 1 (the size agrees): the header's
 * classification is expanded once, not once per comparison.
 */
#define FIXED_OK(b)							\
	((1u | 2u << HC_PLEN(b)) >> (SPE_RK_FIXED_PLEN(HC_REC(b)) + 1) & 1)
#define FIXED_OK4(b)	(FIXED_OK(b) && FIXED_OK((b) + 1) && FIXED_OK((b) + 2) && FIXED_OK((b) + 3))
#define FIXED_OK16(b)	(FIXED_OK4(b) && FIXED_OK4((b) + 4) && FIXED_OK4((b) + 8) && FIXED_OK4((b) + 12))
#define FIXED_OK64(b)	(FIXED_OK16(b) && FIXED_OK16((b) + 16) && FIXED_OK16((b) + 32) && \
			 FIXED_OK16((b) + 48))
_Static_assert(FIXED_OK64(0x00) && FIXED_OK64(0x40) && FIXED_OK64(0x80) && FIXED_OK64(0xc0),
	       "SPE_RK_FIXED_PLEN disagrees with a header's payload size");

int spe_pkt_decode(const uint8_t *buf, size_t len, uint64_t stream_offset,
		   struct spe_pkt *pkt)
{
	if (!buf || !pkt || !len)
		return SPE_ERR_INVAL;
	return spe_pkt_decode_fast(buf, len, stream_offset, pkt);
}

const char *spe_pkt_type_name(enum spe_pkt_type type)
{
	static const char *const names[SPE_PKT_NR_TYPES] = {
		[SPE_PKT_UNKNOWN]	= "UNKNOWN",
		[SPE_PKT_PAD]		= "PAD",
		[SPE_PKT_END]		= "END",
		[SPE_PKT_TIMESTAMP]	= "TIMESTAMP",
		[SPE_PKT_EVENTS]	= "EVENTS",
		[SPE_PKT_DATA_SOURCE]	= "DATA_SOURCE",
		[SPE_PKT_CONTEXT]	= "CONTEXT",
		[SPE_PKT_OP_TYPE]	= "OP_TYPE",
		[SPE_PKT_ADDRESS]	= "ADDRESS",
		[SPE_PKT_COUNTER]	= "COUNTER",
		[SPE_PKT_ALIGNMENT]	= "ALIGNMENT",
	};

	if ((unsigned int)type >= SPE_PKT_NR_TYPES)
		return "INVALID";
	return names[type];
}
