/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libspe-decode: decode Arm Statistical Profiling Extension (SPE) data.
 *
 * The library's public API is the headers make install puts in
 * include/spe-decode/ (PUBLIC_HEADERS in the Makefile), one per layer;
 * spe_sample_time.h and spe_sym_mapping.h are the tools' own, and the
 * views (cost tables, c2c, the HTML page, source lines) are not in the
 * library at all: they are the command's libspe-views.a (views/, its
 * header views/spe_views.h).  This one is the
 * SPE decoder itself and the errors of every layer.  The decoder is
 * layered, one source file per layer, each with a small
 * streaming API:
 *
 *   bytes   --spe_pkt_decode()-->      packets  (lib/packet.c)
 *   packets --spe_decoder_next()-->    records  (lib/record.c)
 *   packets --spe_pkt_desc()-->        text     (lib/packet_print.c)
 *
 * Conventions (libipt style):
 *  - every function that can fail returns a negative SPE_ERR_* code, and a
 *    non-negative count or flag otherwise; spe_strerror() names the code
 *    (see "Errors" below: one error space for every layer);
 *  - the library allocates nothing and keeps no global mutable state: all
 *    state lives in caller-allocated structures;
 *  - input is never read past the length the caller gives;
 *  - configuration structures carry their own size so that fields can be
 *    appended without breaking callers built against an older header.
 *
 * Byte offsets are "stream offsets": the position of a byte in the SPE
 * profiling buffer stream, i.e. the caller's base offset plus the index in
 * the buffer handed to the library.  The Alignment command (DDI 0586A
 * §5.3.2) is defined relative to the stream, so the offset matters for
 * decoding, not only for reporting.
 *
 * Specification: DDI 0586A (SPE supplement 2017) §5, DDI 0487 (Arm ARM
 * D18.1, record format version 0, and the D18 packets for the SPEv1p1..v1p5
 * fields); Documentation/dev-tools/references.rst lists them.
 * Packet encodings live in include/spe/packet.h.
 */
#ifndef SPE_DECODE_H
#define SPE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spe_decode_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------ */

/*
 * One error space for the whole library: the decoder, the perf.data reader
 * and writer, the session (and the command's views) return a negative enum
 * spe_error, and spe_strerror() names every code.  A code says what went
 * wrong in the library's terms; the detail (the offset of a bad field, the
 * system's reason behind SPE_ERR_IO) is in the message of the object that
 * failed: spe_perf_reader_errmsg(), spe_perf_writer_errmsg(), spe_session_errmsg().
 *
 * The codes lie below -SPE_ERR_BASE, outside -1..-4095 where Linux keeps
 * -errno values (MAX_ERRNO): a caller's callback (an spe_write_fn, a
 * session's on_record) may fail with its own negative value, typically
 * -errno, which the library hands back unchanged.  The two kinds cannot be
 * confused, and spe_strerror() names an -errno value too, by strerror().
 */
#define SPE_ERR_BASE		4096

enum spe_error {
	SPE_OK			= 0,
	/* An argument is invalid (NULL pointer, config->size too small). */
	SPE_ERR_INVAL		= -(SPE_ERR_BASE + 1),
	/* The input ends inside a packet, a record or a perf.data record. */
	SPE_ERR_TRUNCATED	= -(SPE_ERR_BASE + 2),
	/*
	 * A header whose payload size cannot be determined: an extended
	 * header prefix (0x20-0x3f) followed by another prefix byte.  Every
	 * other header byte is decodable or skippable (DDI 0487 D18.1.3).
	 */
	SPE_ERR_BAD_HEADER	= -(SPE_ERR_BASE + 3),
	/*
	 * A record breaks the framing rules: it grows past the largest record
	 * a unit can write (SPE_RECORD_MAX_BYTES, 2^PMSIDR_EL1.MaxSize) without
	 * an End or Timestamp packet.
	 */
	SPE_ERR_BAD_RECORD	= -(SPE_ERR_BASE + 4),
	/* The decoder stopped at an earlier error (strict mode). */
	SPE_ERR_STOPPED		= -(SPE_ERR_BASE + 5),
	/*
	 * -(SPE_ERR_BASE + 6) is no library code: it was SPE_ERR_SYNTAX, the
	 * golden-vector encoder's, which left the library for the command's
	 * views (views/spe_vector.h, SPE_VEC_ERR_SYNTAX).  The other codes
	 * keep their values; this one is never reused.
	 */
	/* The output buffer is too small. */
	SPE_ERR_NOSPACE		= -(SPE_ERR_BASE + 7),
	/* Memory ran out; the object is left as it was before the call. */
	SPE_ERR_NOMEM		= -(SPE_ERR_BASE + 8),
	/*
	 * Reading or writing a file failed (or it changed size under us);
	 * the object's message holds the system's reason.
	 */
	SPE_ERR_IO		= -(SPE_ERR_BASE + 9),
	/*
	 * A perf.data file or stream breaks its format: a size, offset or
	 * count that does not fit what encloses it.
	 */
	SPE_ERR_BAD_FILE	= -(SPE_ERR_BASE + 10),
	/*
	 * Valid input the library does not handle: another AUXTRACE type,
	 * a compressed or big-endian perf.data, random access to a pipe.
	 */
	SPE_ERR_UNSUPPORTED	= -(SPE_ERR_BASE + 11),
	/* The asked-for item (feature section, sample id) does not exist. */
	SPE_ERR_NOT_FOUND	= -(SPE_ERR_BASE + 12),
	/*
	 * Windowed decoding (spe_decoder_window()): the answer depends on
	 * bytes past the window, and more follow.  Nothing is lost: give a
	 * window that starts at or before spe_decoder_keep_offset() and
	 * reaches further, and call again.
	 */
	SPE_ERR_MORE		= -(SPE_ERR_BASE + 13),
	/* One past the last code; new codes go before it. */
	SPE_ERR_END		= -(SPE_ERR_BASE + 14),
};

/*
 * A static English description of @err; never NULL.  Knows every
 * enum spe_error, names -errno values by strerror(), and says so when
 * @err is neither.
 */
const char *spe_strerror(int err);

/* ------------------------------------------------------------------------
 * Packets (lib/packet.c)
 * ------------------------------------------------------------------------ */

enum spe_pkt_type {
	SPE_PKT_UNKNOWN = 0,	/* valid size, unknown type: skip it */
	SPE_PKT_PAD,		/* 0x00, one byte */
	SPE_PKT_END,		/* 0x01 */
	SPE_PKT_TIMESTAMP,	/* 0x71 + 64-bit payload */
	SPE_PKT_EVENTS,		/* 0x42/52/62/72 + 1/2/4/8 bytes */
	/* 0x43/53 + 1/2 bytes; 0x63/73 (reserved 4/8-byte sizes) decode here
	 * too, as perf decodes them, and records skip them as unknown. */
	SPE_PKT_DATA_SOURCE,
	/* 0x64/65 + 32-bit payload; 0x66/67 (reserved indexes) likewise. */
	SPE_PKT_CONTEXT,
	SPE_PKT_OP_TYPE,	/* 0x48..0x4b + 1 byte */
	SPE_PKT_ADDRESS,	/* short 0xb0..b7 or extended 0x20..23 0xb0..b7 */
	SPE_PKT_COUNTER,	/* short 0x98..9f or extended 0x20..23 0x98..9f */
	SPE_PKT_ALIGNMENT,	/* SPEv1 0x2N 0x00: skip to a 2^(N+1) boundary */
	SPE_PKT_NR_TYPES
};

/*
 * One decoded packet.  Everything a formatter or the record layer needs is
 * here; the bytes themselves stay in the caller's buffer.
 */
struct spe_pkt {
	enum spe_pkt_type type;
	uint8_t hdr[2];		/* header bytes (hdr[1] = 0 for 1-byte headers) */
	uint8_t hdr_len;	/* 1 or 2 */
	uint8_t payload_len;	/* 0, 1, 2, 4 or 8 */
	/*
	 * Address/counter: INDEX (5 bits, extended headers carry bits 4:3);
	 * context: index (0 = CONTEXTIDR_EL1, 1 = CONTEXTIDR_EL2);
	 * operation type: class (0 other, 1 load/store, 2 branch);
	 * alignment: SIZE field; other types: 0.
	 */
	uint8_t index;
	/*
	 * Bytes this packet occupies in the stream: hdr_len + payload_len,
	 * or for an Alignment command the header plus the UNKNOWN bytes it
	 * skips.  Always >= 1, so a decode loop always advances.
	 */
	uint32_t size;
	uint64_t payload;	/* little-endian payload value, zero-extended */
};

/*
 * Decode the packet at @buf (@len bytes available).  @stream_offset is the
 * stream offset of buf[0]; it is used only for the Alignment command.
 *
 * Returns the number of bytes consumed (== pkt->size, >= 1), or
 * SPE_ERR_TRUNCATED when the packet continues past @len (nothing beyond
 * @len is read), SPE_ERR_BAD_HEADER for an undecodable header (pkt->size
 * is then 1 so a dump can step over the byte), SPE_ERR_INVAL for bad
 * arguments or @len == 0.
 */
int spe_pkt_decode(const uint8_t *buf, size_t len, uint64_t stream_offset,
		   struct spe_pkt *pkt);

/* Short stable name of a packet type ("PAD", "ADDRESS", ...). */
const char *spe_pkt_type_name(enum spe_pkt_type type);

/* ------------------------------------------------------------------------
 * Packet text (lib/packet_print.c)
 * ------------------------------------------------------------------------ */

/*
 * Description styles.  SPE_DESC_PERF reproduces host perf 6.1's
 * `perf report -D` text exactly for every packet perf decodes (including
 * its generic "ADDR 0x... (4)" for indexes it does not name); packets perf
 * rejects as "Bad packet!" but the specification defines or lets software
 * skip (Alignment, unknown-but-sized packets) are described in the same
 * style.  SPE_DESC_PERF_6_12 and SPE_DESC_PERF_7_3 reproduce perf 6.12's
 * and 7.3's text the same way (previous branch target, GCS, call/return
 * hints, MTE/memcpy/memset; 7.3 also SME, events 16 and 19-25 and the
 * other bits as "IMPDEF:n,m").  SPE_DESC_FULL names every field newer than
 * perf 6.1 in spe-decode's own words (events as " IMPDEF 0x...").
 *
 * SPE_DESC_NEOVERSE_N1 may be OR'ed into a style: the data comes from a
 * Neoverse N1, whose IMPDEF event 12 perf 7.3 names LATE-PREFETCH.
 */
enum spe_desc_style {
	SPE_DESC_PERF = 0,
	SPE_DESC_FULL = 1,
	SPE_DESC_PERF_6_12 = 2,
	SPE_DESC_PERF_7_3 = 3,
	SPE_DESC_NEOVERSE_N1 = 0x100,
};

/*
 * Describe @pkt ("PC 0x... el1 ns=1", "EV RETIRED L1D-ACCESS", "LAT 12 TOT"
 * ...) in @style.  Writes at most @size bytes including the NUL; returns
 * the length written (without NUL), or SPE_ERR_NOSPACE when @size is
 * smaller than SPE_PKT_DESC_MAX and the text did not fit.
 */
int spe_pkt_desc(const struct spe_pkt *pkt, enum spe_desc_style style,
		 char *buf, size_t size);

/* A buffer of this size always holds a description / a dump line (the
 * longest, perf 7.3's Events text with all 64 bits set, is 368 bytes). */
#define SPE_PKT_DESC_MAX	400
#define SPE_DUMP_LINE_MAX	(SPE_PKT_DESC_MAX + 80)

/*
 * Format one `perf report -D` line for the @nbytes (<= 16) bytes at @bytes
 * at stream offset @offset, followed by @desc (NULL: "Bad packet!"):
 * ".  OOOOOOOO:  bb bb ... <bytes padded to 16 columns> desc\n".
 * Returns the length written (without NUL) or SPE_ERR_NOSPACE / _INVAL.
 */
int spe_dump_line(const uint8_t *bytes, size_t nbytes, uint64_t offset,
		  const char *desc, char *out, size_t size);

/* ------------------------------------------------------------------------
 * Packet dump of a whole buffer (lib/dump.c)
 * ------------------------------------------------------------------------ */

/* Output sink: write @len bytes of text; return 0 or a negative error. */
typedef int (*spe_write_fn)(void *ctx, const char *text, size_t len);

#define SPE_DUMP_STRICT		(1u << 0)	/* stop after the first error */

struct spe_dump_config {
	size_t size;		/* sizeof(struct spe_dump_config) */
	uint32_t flags;		/* SPE_DUMP_* */
	enum spe_desc_style style;
	/*
	 * Offset printed for buf[0].  perf prints offsets from 0 for each
	 * AUXTRACE record, while the Alignment command needs the offset in
	 * the profiling buffer stream: the two can differ.
	 */
	uint64_t print_offset;
	spe_write_fn write;
	void *ctx;
};

#define SPE_DUMP_CONFIG_INIT	{ .size = sizeof(struct spe_dump_config) }

struct spe_dump_stats {
	uint64_t packets;	/* lines describing a decoded packet */
	uint64_t bad;		/* undecodable header bytes ("Bad packet!") */
	uint64_t truncated;	/* 1 when the buffer ends inside a packet */
	int first_error;	/* first SPE_ERR_* met, 0 if none */
	uint64_t first_error_offset;	/* its stream offset */
};

/*
 * Print every packet of @buf (stream offset @stream_offset) one line each
 * in `perf report -D` format: runs of Padding share a line (up to 16
 * bytes, as perf does); an Alignment command prints its header then the
 * bytes it skips; an undecodable byte prints "Bad packet!" and decoding
 * resumes at the next byte (as perf does); a packet cut by the end of the
 * buffer prints its bytes and "TRUNCATED ...".  Data errors are reported
 * inline and in @stats (may be NULL); the return value is 0, a negative
 * error from config->write, or SPE_ERR_INVAL.  With SPE_DUMP_STRICT the
 * dump stops after the first error line.
 */
int spe_dump(const struct spe_dump_config *config, const uint8_t *buf,
	     size_t len, uint64_t stream_offset, struct spe_dump_stats *stats);

/* ------------------------------------------------------------------------
 * Records (lib/record.c)
 * ------------------------------------------------------------------------ */

/* Bits of spe_record.present: which fields a record carried. */
enum spe_rec_field {
	SPE_REC_PC		= 1u << 0,
	SPE_REC_BR_TARGET	= 1u << 1,
	SPE_REC_PREV_BR_TARGET	= 1u << 2,	/* FEAT_SPE_PBT */
	SPE_REC_DATA_VA		= 1u << 3,
	SPE_REC_DATA_PA		= 1u << 4,
	SPE_REC_LAT_TOTAL	= 1u << 5,
	SPE_REC_LAT_ISSUE	= 1u << 6,
	SPE_REC_LAT_XLAT	= 1u << 7,
	SPE_REC_EVENTS		= 1u << 8,
	SPE_REC_OP_TYPE		= 1u << 9,
	SPE_REC_DATA_SOURCE	= 1u << 10,
	SPE_REC_CONTEXT_EL1	= 1u << 11,
	SPE_REC_CONTEXT_EL2	= 1u << 12,
	SPE_REC_TIMESTAMP	= 1u << 13,
};

/* How a record ended. */
enum spe_rec_end {
	SPE_REC_END_END = 0,	/* End packet (0x01) */
	SPE_REC_END_TIMESTAMP,	/* Timestamp packet (0x71) */
	SPE_REC_END_TRUNCATED,	/* input ended inside the record */
	SPE_REC_END_ERROR,	/* a corrupt packet ended it (see decoder) */
};

/* An instruction address: PC, branch target, previous branch target. */
struct spe_insn_addr {
	uint64_t addr;		/* bits 55:0, sign-extended from bit 55 */
	uint8_t el;		/* exception level, payload bits 62:61 */
	bool ns;		/* non-secure, bit 63 */
	bool nse;		/* FEAT_RME, bit 60 (with ns: the PA space) */
};

/* Address or counter packets whose INDEX is IMPLEMENTATION DEFINED. */
#define SPE_REC_MAX_IMPDEF	4
struct spe_impdef_value {
	uint8_t index;		/* INDEX field of the packet */
	uint64_t value;		/* raw payload */
};

/*
 * One sample record (DDI 0487 D18.1.2): every packet between two record
 * boundaries, by field.  A field is meaningful only when its bit is set in
 * @present.  When a packet kind repeats inside one record the last one wins.
 */
struct spe_record {
	/*
	 * The fields every sample reads come first, in one 64-byte cache
	 * line; the rest of the common ones fill the second.  Decoding
	 * threads hand records to the merging thread through memory, so
	 * the lines a record spans are what crosses between cores.
	 */
	uint64_t offset;	/* stream offset of the first packet */
	uint32_t size;		/* bytes up to and including End/Timestamp */
	uint32_t present;	/* SPE_REC_* bits */
	struct spe_insn_addr pc;
	uint64_t data_va;	/* bits 55:0, sign-extended from bit 55 */
	uint64_t events;	/* Events packet bits, SPE_EV_* */
	uint64_t timestamp;	/* Timestamp packet (also ends the record) */
	uint16_t lat_total;	/* counters: saturate at 12 or 16 bits */
	uint16_t lat_issue;
	uint16_t lat_xlat;	/* translation latency */
	uint8_t op_class;	/* SPE_OP_CLASS_*: 0 other, 1 ld/st, 2 branch */
	uint8_t op_subclass;	/* raw payload byte of the Operation Type */

	struct spe_insn_addr br_target;
	uint64_t data_pa;	/* bits 55:0 */
	struct spe_insn_addr prev_br_target;
	uint32_t context_el1;	/* CONTEXTIDR_EL1 */
	uint32_t context_el2;	/* CONTEXTIDR_EL2 */
	uint16_t data_source;	/* IMPLEMENTATION DEFINED value */
	uint8_t data_source_size; /* payload bytes: 1 or 2 */
	uint8_t events_size;	/* payload bytes: 1, 2, 4 or 8 */
	uint8_t data_va_tag;	/* top-byte tag, payload bits 63:56 */
	bool data_pa_ns;	/* bit 63 */
	bool data_pa_ch;	/* bit 62: checked (MTE) access */
	uint8_t data_pa_pat;	/* bits 59:56: physical address tag */
	uint8_t end;		/* enum spe_rec_end */
	uint8_t n_impdef_addr, n_impdef_cnt;
	uint16_t n_unknown;	/* unknown packets skipped by size */
	uint16_t n_packets;	/* packets in the record, End/Timestamp too */

	/* IMPLEMENTATION DEFINED (or not yet defined) address/counter
	 * indexes: the first SPE_REC_MAX_IMPDEF of each kept, all counted. */
	struct spe_impdef_value impdef_addr[SPE_REC_MAX_IMPDEF];
	struct spe_impdef_value impdef_cnt[SPE_REC_MAX_IMPDEF];
};

/* Decoder options. */
#define SPE_DEC_STRICT		(1u << 0)	/* stop at the first error */

struct spe_decoder_config {
	/* sizeof(struct spe_decoder_config) as the caller knows it. */
	size_t size;
	uint32_t flags;		/* SPE_DEC_* */
};

/* Initialise a config: struct spe_decoder_config c = SPE_DECODER_CONFIG_INIT; */
#define SPE_DECODER_CONFIG_INIT	{ .size = sizeof(struct spe_decoder_config) }

/*
 * Record decoder state.  Caller-allocated; the members are private (use the
 * functions below), they are visible only so it can live on the stack.
 */
struct spe_decoder {
	const uint8_t *buf;
	size_t len;
	size_t pos;		/* next byte to decode, index into buf */
	uint64_t base;		/* stream offset of buf[0] */
	uint32_t flags;
	int error;		/* last error, 0 if none */
	uint64_t error_offset;	/* stream offset of the last error */
	bool stopped;		/* strict mode hit an error */
	bool need_resync;	/* after an error: find the next record */
	bool more;		/* windowed: the stream goes on after buf[len] */
	uint64_t resync_bad;	/* stream offset of the error resync started from */
};

/*
 * Prepare @dec to decode @len bytes at @buf, whose first byte is at stream
 * offset @base_offset.  @config may be NULL for the defaults.  The buffer
 * must stay valid while @dec is used.  Returns 0 or SPE_ERR_INVAL.
 */
int spe_decoder_init(struct spe_decoder *dec,
		     const struct spe_decoder_config *config,
		     const uint8_t *buf, size_t len, uint64_t base_offset);

/*
 * Decode the next record into @rec.
 *
 * Returns 1 when @rec holds a complete record, 0 at the end of the input,
 * or a negative error.  On an error, spe_decoder_error_offset() is the
 * stream offset of the offending packet (for SPE_ERR_TRUNCATED: of the
 * packet cut by the end of input, or the end of input when the record
 * stops between packets; for SPE_ERR_BAD_RECORD: of the packet that
 * crosses SPE_RECORD_MAX_BYTES) and @rec holds the part of the record
 * decoded before it, with rec->end SPE_REC_END_ERROR or
 * SPE_REC_END_TRUNCATED, so nothing decoded is lost.  The next call then
 * resynchronises at the next record boundary and carries on; in strict
 * mode every further call returns SPE_ERR_STOPPED.
 *
 * Padding and Alignment commands between records are skipped.
 */
int spe_decoder_next(struct spe_decoder *dec, struct spe_record *rec);

/*
 * Windowed decoding, for a stream read in pieces rather than held whole:
 * @buf holds the stream's bytes from offset @base_offset on, @len of them,
 * and @more says whether the stream goes on after them.  Called after
 * spe_decoder_init() (with any buffer, even NULL and 0) for the first
 * window, and whenever spe_decoder_next() returns SPE_ERR_MORE for the
 * next one, which must start at or before spe_decoder_keep_offset() and
 * may start anywhere after the bytes already decoded.  The records and
 * errors are exactly those of the whole stream decoded at once.  A window
 * needs room for one record and an Alignment's skip, SPE_DECODER_WINDOW_MIN
 * bytes, past the keep offset, or no progress is certain.
 * Returns 0, or SPE_ERR_INVAL for a window that starts too late.
 */
#define SPE_DECODER_WINDOW_MIN	(2048u + 65536u + 64u)	/* record, Alignment, slack */
int spe_decoder_window(struct spe_decoder *dec, const uint8_t *buf, size_t len,
		       uint64_t base_offset, bool more);

/*
 * The stream offset of the first byte the decoder may still look at: a
 * window given to spe_decoder_window() must start at or before it.
 */
uint64_t spe_decoder_keep_offset(const struct spe_decoder *dec);

/* Stream offset of the last error returned by spe_decoder_next(). */
uint64_t spe_decoder_error_offset(const struct spe_decoder *dec);

/* Stream offset of the next byte spe_decoder_next() will look at. */
uint64_t spe_decoder_offset(const struct spe_decoder *dec);

#ifdef __cplusplus
}
#endif

#endif /* SPE_DECODE_H */
