// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests for lib/record.c: packets grouped into sample records. */
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"
#include "spe_vector.h"
#include "spe/packet.h"
#include "tap.h"

static uint8_t *buf;		/* exactly-sized heap copy of the stream */
static size_t len;

/* Encode a vector text into an exactly-sized buffer (ASan sees overreads). */
static void enc(const char *text)
{
	uint8_t tmp[8192];
	long n = spe_vec_encode(text, strlen(text), tmp, sizeof(tmp), NULL, NULL);

	free(buf);
	if (n < 0 || n > (long)sizeof(tmp)) {
		printf("# bad test vector: %s\n", text);
		n = 0;
	}
	len = (size_t)n;
	buf = malloc(len ? len : 1);
	memcpy(buf, tmp, len);
}

static int start(struct spe_decoder *d, uint32_t flags, uint64_t base)
{
	struct spe_decoder_config c = SPE_DECODER_CONFIG_INIT;

	c.flags = flags;
	return spe_decoder_init(d, &c, buf, len, base);
}

static void records_end_at_end_or_timestamp(void)
{
	struct spe_decoder d;
	struct spe_record r;

	enc("pc 0x400000 el=0 ns=1\nend\npc 0x400004 el=0 ns=1\nts 12345\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == 1 && r.end == SPE_REC_END_END &&
	      r.offset == 0 && r.size == 10 && r.n_packets == 2,
	      "an End packet ends a record (DDI 0487 D18.1.2)");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.end == SPE_REC_END_TIMESTAMP &&
	      r.offset == 10 && r.size == 18 && (r.present & SPE_REC_TIMESTAMP) &&
	      r.timestamp == 12345,
	      "a Timestamp packet ends a record and carries its time (DDI 0487 D18.1.2)");
	CHECK(spe_decoder_next(&d, &r) == 0 && spe_decoder_offset(&d) == len,
	      "the end of the input after a whole record is a clean end");
}

/*
 * The record decoder has a fast path (a packet with 8 readable bytes after
 * its header) and a careful one (the last bytes of the buffer): every
 * packet kind must give the same fields on both.  The same packets are
 * decoded in two orders, each alone in the buffer (its tail on the careful
 * path) and followed by padding (every packet on the fast path).
 */
static const char *const every_packet_layouts[] = {
	"pc 0xffff800008001234 el=1 ns=1 nse=1\n"
	"ctx 0x80001235\nctx 0x5678 el2\n"
	"op st sve=512 pred\n"
	"ev retired l1d-access l2d-miss size=4\n"
	"lat iss 3\nlat tot 4095\nlat xlat 17 ext\n"
	"tgt 0x400000 el=0 ns=0\npbt 0x400100 el=2 ns=1\n"
	"va 0xffff00001000 tag=0xf0\n"
	"pa 0x80001000 ns=1 ch=1 pat=3\n"
	"ds 0x1234 size=2\n"
	"addr 9 0x99\nlat 5 55\nraw 0x02\n"
	"end\n",
	"pc 0xffff800008001234 el=1 ns=1 nse=1\n"
	"tgt 0x400000 el=0 ns=0\npbt 0x400100 el=2 ns=1\n"
	"va 0xffff00001000 tag=0xf0\n"
	"pa 0x80001000 ns=1 ch=1 pat=3\n"
	"addr 9 0x99\nraw 0x02\nds 0x1234 size=2\n"
	"lat 5 55\nlat xlat 17 ext\nlat iss 3\n"
	"ev retired l1d-access l2d-miss size=4\n"
	"ctx 0x5678 el2\nctx 0x80001235\nlat tot 4095\n"
	"op st sve=512 pred\n"
	"end\n",
};

static void every_field_is_filled_in(const char *layout, const char *after)
{
	struct spe_decoder d;
	struct spe_record r;
	char text[1024];
	size_t alone;

	enc(layout);
	alone = len;
	snprintf(text, sizeof(text), "%s%s", layout, after);
	enc(text);
	start(&d, 0, 0);
	if (!CHECK(spe_decoder_next(&d, &r) == 1, "a record with every packet decodes"))
		return;
	CHECK(r.pc.addr == 0xffff800008001234ULL && r.pc.el == 1 && r.pc.ns && r.pc.nse,
	      "PC: address sign-extended from bit 55, EL bits 62:61, NS bit 63, NSE bit 60");
	CHECK(r.context_el1 == 0x80001235 && r.context_el2 == 0x5678 &&
	      (r.present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2)) ==
	      (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2),
	      "Context index 0 fills CONTEXTIDR_EL1 (all 32 bits, top and bottom), index 1 CONTEXTIDR_EL2");
	CHECK(r.op_class == SPE_OP_CLASS_LDST && r.op_subclass == 0x4d,
	      "Operation Type keeps its class and raw payload byte");
	CHECK(r.events == (SPE_EV_RETIRED | SPE_EV_L1D_ACCESS | SPE_EV_L2D_MISS) &&
	      r.events_size == 4,
	      "Events keeps every bit, including SPEv1p4 ones, and its payload size");
	CHECK(r.lat_issue == 3 && r.lat_total == 4095 && r.lat_xlat == 17 &&
	      (r.present & SPE_REC_LAT_XLAT),
	      "issue, total and (extended-header) translation latencies");
	CHECK(r.br_target.addr == 0x400000 && !r.br_target.ns &&
	      r.prev_br_target.addr == 0x400100 && r.prev_br_target.el == 2,
	      "branch target and previous branch target (FEAT_SPE_PBT, index 4)");
	CHECK(r.data_va == 0xffff00001000ULL && r.data_va_tag == 0xf0,
	      "data VA: bits 55:0 and the top-byte tag (DDI 0487 D18, Address packet)");
	CHECK(r.data_pa == 0x80001000 && r.data_pa_ns && r.data_pa_ch && r.data_pa_pat == 3,
	      "data PA: NS bit 63, CH bit 62, PAT bits 59:56");
	CHECK(r.data_source == 0x1234 && r.data_source_size == 2,
	      "16-bit data source");
	CHECK(r.n_impdef_addr == 1 && r.impdef_addr[0].index == 9 &&
	      r.impdef_addr[0].value == 0x99 && r.n_impdef_cnt == 1 &&
	      r.impdef_cnt[0].index == 5 && r.impdef_cnt[0].value == 55,
	      "IMPLEMENTATION DEFINED address and counter indexes are kept with their index");
	CHECK(r.n_unknown == 1, "an unknown packet inside a record is counted and skipped");
	CHECK(!(r.present & SPE_REC_TIMESTAMP) && r.end == SPE_REC_END_END,
	      "no timestamp bit for a record ended by End");
	CHECK(r.size == alone && r.n_packets == 17,
	      "the record's size and packet count include End (DDI 0586A §5.2)");
}

static void every_field_is_filled(void)
{
	for (size_t i = 0; i < sizeof(every_packet_layouts) / sizeof(every_packet_layouts[0]); i++) {
		every_field_is_filled_in(every_packet_layouts[i], "");
		every_field_is_filled_in(every_packet_layouts[i], "pad 16\n");
	}
}

static void impdef_overflow_is_counted(void)
{
	struct spe_decoder d;
	struct spe_record r;

	enc("addr 5 1\naddr 6 2\naddr 7 3\naddr 8 4\naddr 9 5\naddr 10 6\nend\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == 1 && r.n_impdef_addr == 6 &&
	      r.impdef_addr[SPE_REC_MAX_IMPDEF - 1].value == 4,
	      "more IMPDEF addresses than the array holds: all counted, the first kept");
}

static void framing_between_records_is_skipped(void)
{
	struct spe_decoder d;
	struct spe_record r;

	enc("pad 7\npc 0x400000 el=0 ns=1\nend\nalign 64 fill=0x71\npad 3\n"
	    "pc 0x400004 el=0 ns=1\nend\npad 100\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == 1 && r.offset == 7,
	      "Padding before a record is skipped (DDI 0586A §5.1.4)");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.offset == 67 && r.pc.addr == 0x400004,
	      "an Alignment command between records skips its UNKNOWN bytes (DDI 0586A §5.3.2)");
	CHECK(spe_decoder_next(&d, &r) == 0, "trailing Padding is not a record");
}

static void alignment_honours_base_offset(void)
{
	struct spe_decoder d;
	struct spe_record r;
	static const uint8_t stream[] = {
		/* at stream offset 0x1000a: Alignment to 16 -> next at 0x10010 */
		0x23, 0x00, 0xee, 0xee, 0xee, 0xee,
		0xb0, 0, 0, 0x40, 0, 0, 0, 0, 0x80, 0x01,
	};

	free(buf);
	len = sizeof(stream);
	buf = malloc(len);
	memcpy(buf, stream, len);
	start(&d, 0, 0x1000a);
	CHECK(spe_decoder_next(&d, &r) == 1 && r.offset == 0x10010 && r.size == 10,
	      "record offsets are stream offsets, and Alignment is computed from them");

	/* The same Alignment after a first record, and one whose boundary
	 * lies past the end of the input (DDI 0586A §5.3.2). */
	{
		static const uint8_t two[] = {
			0xb0, 0, 0, 0x40, 0, 0, 0, 0, 0x80, 0x01,
			/* at stream offset 0x1000a: to 16 -> 0x10010 */
			0x23, 0x00, 0xee, 0xee, 0xee, 0xee,
			0xb0, 4, 0, 0x40, 0, 0, 0, 0, 0x80, 0x01,
			/* at 0x1001a: to 16 -> 0x10020, past the end */
			0x23, 0x00, 0xee,
		};

		free(buf);
		len = sizeof(two);
		buf = malloc(len);
		memcpy(buf, two, len);
		start(&d, 0, 0x10000);
		CHECK(spe_decoder_next(&d, &r) == 1 && r.offset == 0x10000, "first record");
		CHECK(spe_decoder_next(&d, &r) == 1 && r.offset == 0x10010 && r.pc.addr == 0x400004,
		      "an Alignment after a record skips to the boundary of its stream offset");
		CHECK(spe_decoder_next(&d, &r) == 0 && spe_decoder_offset(&d) == 0x10000 + len,
		      "an Alignment whose boundary is past the end ends the input cleanly, at its end");
	}
}

static void truncated_record_keeps_what_was_decoded(void)
{
	struct spe_decoder d;
	struct spe_record r;

	enc("pc 0x400000 el=0 ns=1\nend\npc 0x400004 el=0 ns=1\nev retired\nraw 0x71 1 2 3\n");
	start(&d, 0, 0x100);
	spe_decoder_next(&d, &r);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_TRUNCATED &&
	      r.end == SPE_REC_END_TRUNCATED && r.pc.addr == 0x400004 &&
	      (r.present & SPE_REC_EVENTS) && r.offset == 0x10a && r.size == 12,
	      "a packet cut by the end of input: SPE_ERR_TRUNCATED with the partial record");
	CHECK_EQ(spe_decoder_error_offset(&d), 0x116,
		 "the truncation is reported at the stream offset of the cut packet");
	CHECK(spe_decoder_next(&d, &r) == 0, "after a truncation the input is finished");

	enc("pc 0x400004 el=0 ns=1\nop ld gp\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_TRUNCATED && r.end == SPE_REC_END_TRUNCATED &&
	      (r.present & SPE_REC_OP_TYPE) && r.size == 11,
	      "a record cut between packets (no End/Timestamp yet) is truncated too");
}

/*
 * A 16-bit header cut by the end of input between records is a truncated
 * packet like any other, not framing to skip: only an Alignment's UNKNOWN
 * bytes may run to the end (DDI 0586A §5.3.2).
 */
static void cut_extended_header_between_records(void)
{
	struct spe_decoder d;
	struct spe_record r;

	enc("pc 0x400000 el=0 ns=1\nend\nraw 0x20\n");
	start(&d, 0, 0x100);
	CHECK(spe_decoder_next(&d, &r) == 1, "the record before the cut header");
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_TRUNCATED,
	      "a lone extended-header prefix at the end of input is a truncation");
	CHECK_EQ(spe_decoder_error_offset(&d), 0x100 + 10,
		 "the truncation is reported at the prefix byte");
}

static void corrupt_byte_then_resync(void)
{
	struct spe_decoder d;
	struct spe_record r;

	enc("pc 0x400000 el=0 ns=1\nop ld gp\nraw 0x20 0x21\nev retired\nend\n"
	    "pc 0x400004 el=0 ns=1\nts 9\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_HEADER &&
	      r.end == SPE_REC_END_ERROR && (r.present & SPE_REC_OP_TYPE) && r.size == 11,
	      "a bad header mid-record returns the error and the record decoded so far");
	CHECK_EQ(spe_decoder_error_offset(&d), 11, "the bad header's byte offset is reported");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x400004 && r.timestamp == 9,
	      "decoding resumes at the next record boundary after the corrupt one");
	CHECK(spe_decoder_next(&d, &r) == 0, "and reaches the end normally");
}

static void resync_skips_false_end_bytes(void)
{
	struct spe_decoder d;
	struct spe_record r;

	/* After the bad header, 0x01 0x55 looks like End + a record that only
	 * decodes as unknown packets: not a boundary. */
	enc("pc 0x400008 el=0 ns=1\nraw 0x3f 0x3f 0x01 0x55\nend\npc 0x40000c el=0 ns=1\nts 77\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_HEADER, "bad header found");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x40000c && r.timestamp == 77,
	      "resync rejects an End-like payload byte whose follower is not a clean record");
}

static void resync_after_timestamp_with_high_byte(void)
{
	struct spe_decoder d;
	struct spe_record r;

	/*
	 * A record boundary is right after End or after a Timestamp packet's
	 * 8-byte payload (DDI 0586A §5.2).  The Timestamps here have a
	 * non-zero top byte, so no zero (Padding) byte hides a boundary
	 * found one byte off.
	 */
	enc("pc 0x400000 el=0 ns=1\nraw 0x20 0x21\nop ld gp\nts 0xff00000000000005\n"
	    "pc 0x400004 el=0 ns=1\nop st gp\nts 0xee00000000000006\n"
	    "pc 0x400008 el=0 ns=1\nts 0xdd00000000000007\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_HEADER, "bad header found");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.offset == 22 && r.pc.addr == 0x400004 &&
	      r.timestamp == 0xee00000000000006ULL && r.size == 20,
	      "resync resumes right after the corrupt record's Timestamp (top byte non-zero)");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x400008 &&
	      r.timestamp == 0xdd00000000000007ULL,
	      "and the record after it decodes whole");
	CHECK(spe_decoder_next(&d, &r) == 0, "then the clean end of the input");
}

static void resync_checks_the_record_size_limit(void)
{
	struct spe_decoder d;
	struct spe_record r;
	char *text = malloc(150 * 32 + 250 * 24 + 256), *p = text;
	int good = 0, ret;

	/*
	 * Far into the stream, a corrupt record, then an End followed by a
	 * run of packets longer than 2^MaxSize bytes (DDI 0487 D18.3): no
	 * record can start there, so resync must go on to the record after
	 * the run.
	 */
	for (int i = 0; i < 150; i++)
		p += sprintf(p, "pc 0x%x el=0 ns=1\nend\n", 0x400000 + 4 * i);
	p += sprintf(p, "pc 0x400800 el=0 ns=1\nraw 0x20 0x21\nend\n");
	for (int i = 0; i < 250; i++)
		p += sprintf(p, "pc 0x%x el=0 ns=1\n", 0x600000 + 4 * i);
	sprintf(p, "end\npc 0x500000 el=0 ns=1\nts 0x42\n");
	enc(text);
	free(text);
	start(&d, 0, 0);
	while ((ret = spe_decoder_next(&d, &r)) == 1)
		good++;
	CHECK(good == 150 && ret == SPE_ERR_BAD_HEADER, "150 records, then the bad header");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x500000 && r.timestamp == 0x42,
	      "resync skips a candidate boundary followed by more than 2^MaxSize bytes without End");
	CHECK(spe_decoder_next(&d, &r) == 0, "then the clean end of the input");
}

static void resync_boundaries_follow_the_rule(void)
{
	struct spe_decoder d;
	struct spe_record r;
	char *text = malloc(300 * 24 + 256), *p = text;

	/*
	 * A candidate followed by a record one byte over 2^MaxSize (its End
	 * 2048 bytes in) is no record start for resync either: the decoder
	 * would refuse that record (DDI 0487 D18.3 PMSIDR_EL1.MaxSize).
	 */
	p += sprintf(p, "pc 0x400000 el=0 ns=1\nraw 0x20 0x21\nend\n");
	for (int i = 0; i < 227; i++)
		p += sprintf(p, "pc 0x%x el=0 ns=1\n", 0x600000 + 4 * i);
	sprintf(p, "pad 5\nend\npc 0x500000 el=0 ns=1\nend\n");
	enc(text);
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_HEADER, "bad header found");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x500000,
	      "resync does not stop before a record of 2^MaxSize + 1 bytes");

	/*
	 * An over-long record refused exactly where a Timestamp packet starts:
	 * the boundary is right after that Timestamp (DDI 0586A §5.2).
	 */
	p = text;
	for (int i = 0; i < 227; i++)
		p += sprintf(p, "pc 0x%x el=0 ns=1\n", 0x600000 + 4 * i);
	sprintf(p, "pad 5\nts 0x77\npc 0x500004 el=0 ns=1\nend\n");
	enc(text);
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_RECORD &&
	      spe_decoder_error_offset(&d) == SPE_RECORD_MAX_BYTES,
	      "a record reaching 2^MaxSize bytes is refused at the packet that starts there");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x500004,
	      "resync resumes right after the Timestamp the refused record ended with");

	/*
	 * A Timestamp header byte that is the payload of a packet before the
	 * corruption is not a boundary: only whole packets after the bad
	 * header count.
	 */
	enc("pc 0x400000 el=0 ns=1\nctx 0x71000000\nraw 0x20 0x21 0x02 0x02 0x02 0x02 0x02 0x02\n"
	    "pc 0x400008 el=0 ns=1\nend\npc 0x40000c el=0 ns=1\nend\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_HEADER, "bad header found");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x40000c,
	      "a 0x71 payload byte before the bad header does not make a boundary");

	/*
	 * An over-long record refused exactly at an End packet: the boundary
	 * is the byte after that End.
	 */
	p = text;
	for (int i = 0; i < 227; i++)
		p += sprintf(p, "pc 0x%x el=0 ns=1\n", 0x600000 + 4 * i);
	sprintf(p, "pad 5\nend\npc 0x500008 el=0 ns=1\nend\n");
	enc(text);
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_RECORD, "over-long record refused");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x500008,
	      "resync resumes right after the End the refused record reached");

	/*
	 * The record after the corrupt one starts with an Alignment command,
	 * whose length depends on its stream offset (DDI 0586A §5.3.2): resync
	 * must size it from that offset to see the record behind it.
	 */
	enc("pc 0x400000 el=0 ns=1\nraw 0x20 0x21 0x22\nend\nalign 16 fill=0xee\n"
	    "pc 0x400010 el=0 ns=1\nend\npc 0x400014 el=0 ns=1\nend\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_HEADER, "bad header found");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x400010 && r.offset % 16 == 0,
	      "resync finds a record behind an Alignment command, on its boundary");

	/*
	 * The packet at which a record went over 2^MaxSize still belongs to
	 * that bad record, even when the byte before it looks like End (here
	 * a CONTEXT payload): decoding resumes at the next boundary.
	 */
	p = text;
	for (int i = 0; i < 226; i++)
		p += sprintf(p, "pc 0x%x el=0 ns=1\n", 0x600000 + 4 * i);
	sprintf(p, "pad 9\nctx 0x01000000\npc 0x500010 el=0 ns=1\nend\npc 0x500014 el=0 ns=1\nend\n");
	enc(text);
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_RECORD &&
	      spe_decoder_error_offset(&d) == SPE_RECORD_MAX_BYTES, "over-long record refused at 2 KiB");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x500014,
	      "resync does not restart at the refused packet itself");

	/* A record cut by the end of the input after resync: truncated. */
	enc("pc 0x400000 el=0 ns=1\nraw 0x20 0x21\nend\npc 0x400004 el=0 ns=1\nraw 0xb0 1 2 3\n");
	start(&d, 0, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_HEADER, "bad header found");
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_TRUNCATED && r.pc.addr == 0x400004,
	      "after resync a record cut by the end of the input is reported truncated");
	free(text);
}

static void strict_mode_stops(void)
{
	struct spe_decoder d;
	struct spe_record r;

	enc("pc 0x400000 el=0 ns=1\nraw 0x20 0x21\nend\npc 0x400004 el=0 ns=1\nend\n");
	start(&d, SPE_DEC_STRICT, 0);
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_BAD_HEADER, "strict mode reports the error");
	CHECK(spe_decoder_next(&d, &r) == SPE_ERR_STOPPED &&
	      spe_decoder_next(&d, &r) == SPE_ERR_STOPPED,
	      "strict mode then stops for good");
}

static void record_size_is_bounded(void)
{
	struct spe_decoder d;
	struct spe_record r;
	char *text = malloc(300 * 24 + 64), *p = text;
	int ret;

	for (int i = 0; i < 300; i++)
		p += sprintf(p, "pc 0x%x el=0 ns=1\n", 0x400000 + 4 * i);
	strcpy(p, "end\npc 0x500000 el=0 ns=1\nend\n");
	enc(text);
	free(text);
	start(&d, 0, 0);
	ret = spe_decoder_next(&d, &r);
	CHECK(ret == SPE_ERR_BAD_RECORD && r.end == SPE_REC_END_ERROR && r.size >= SPE_RECORD_MAX_BYTES,
	      "a record longer than 2^MaxSize (2 KiB) bytes without End is a bad record");
	CHECK(spe_decoder_next(&d, &r) == 1 && r.pc.addr == 0x500000,
	      "after an over-long record decoding resumes at the next boundary");
}

/*
 * A record of @size bytes: PC packets, padding, End; then @after.  The
 * decoder accepts records up to 2^MaxSize bytes (SPE_RECORD_MAX_BYTES, the
 * largest PMSIDR_EL1.MaxSize, DDI 0487 D18.3) and refuses longer ones.
 */
static int decode_record_of_size(unsigned int size, const char *after,
				 struct spe_record *r)
{
	unsigned int pcs = (size - 1) / 9, pad = size - 1 - 9 * pcs;
	char *text = malloc(pcs * 24 + 64 + strlen(after)), *p = text;
	struct spe_decoder d;

	for (unsigned int i = 0; i < pcs; i++)
		p += sprintf(p, "pc 0x%x el=0 ns=1\n", 0x400000 + 4 * i);
	if (pad)
		p += sprintf(p, "pad %u\n", pad);
	sprintf(p, "end\n%s", after);
	enc(text);
	free(text);
	start(&d, 0, 0);
	return spe_decoder_next(&d, r);
}

static void record_size_limit_is_exact(void)
{
	static const char *const after[] = { "", "pc 0x500000 el=0 ns=1\nend\n" };
	struct spe_record r;

	for (int i = 0; i < 2; i++) {
		const char *where = i ? "followed by a record" : "at the end of the buffer";
		char name[160];

		snprintf(name, sizeof(name), "the largest record (2^MaxSize bytes) is accepted, %s", where);
		CHECK(decode_record_of_size(SPE_RECORD_MAX_BYTES, after[i], &r) == 1 &&
		      r.size == SPE_RECORD_MAX_BYTES && r.end == SPE_REC_END_END, name);
		snprintf(name, sizeof(name), "a record one byte over 2^MaxSize is a bad record, %s", where);
		CHECK(decode_record_of_size(SPE_RECORD_MAX_BYTES + 1, after[i], &r) ==
		      SPE_ERR_BAD_RECORD, name);
		snprintf(name, sizeof(name), "a record 8 bytes under the limit is accepted whole, %s", where);
		CHECK(decode_record_of_size(SPE_RECORD_MAX_BYTES - 8, after[i], &r) == 1 &&
		      r.size == SPE_RECORD_MAX_BYTES - 8, name);
	}
}

static void fast_and_slow_paths_agree(void)
{
	struct spe_decoder d;
	struct spe_record a, b;
	static const char *text =
		"pc 0xffff800008001234 el=1 ns=1\nctx 0x42\nop ld gp\nev retired\n"
		"lat tot 7\nva 0x1000 tag=1\npa 0x2000 ns=1\nds 3\nts 99\n";

	/* Last record in the buffer: its tail decodes on the careful path. */
	enc(text);
	start(&d, 0, 0);
	spe_decoder_next(&d, &a);
	{
		char twice[512];

		snprintf(twice, sizeof(twice), "%s%s", text, text);
		enc(twice);
	}
	start(&d, 0, 0);
	spe_decoder_next(&d, &b);
	CHECK(a.present == b.present && a.pc.addr == b.pc.addr &&
	      a.context_el1 == b.context_el1 && a.events == b.events &&
	      a.lat_total == b.lat_total && a.data_va == b.data_va &&
	      a.data_va_tag == b.data_va_tag && a.data_pa == b.data_pa &&
	      a.data_source == b.data_source && a.timestamp == b.timestamp &&
	      a.size == b.size && a.n_packets == b.n_packets,
	      "a record decodes the same near the end of the buffer as in the middle");
}

static void init_rules(void)
{
	struct spe_decoder d;
	struct spe_record r;
	struct spe_decoder_config small = { .size = 4 };
	uint8_t b = 1;

	CHECK(spe_decoder_init(&d, &small, &b, 1, 0) == SPE_ERR_INVAL,
	      "a config whose size does not cover the flags is rejected (size-carrying ABI)");
	CHECK(spe_decoder_init(&d, NULL, &b, 1, 0) == 0 && spe_decoder_next(&d, &r) == 1,
	      "a NULL config means the defaults");
	CHECK(spe_decoder_init(&d, NULL, NULL, 0, 0) == 0 && spe_decoder_next(&d, &r) == 0,
	      "an empty input has no records");
	CHECK(spe_decoder_init(NULL, NULL, &b, 1, 0) == SPE_ERR_INVAL &&
	      spe_decoder_next(&d, NULL) == SPE_ERR_INVAL,
	      "NULL decoder or record is SPE_ERR_INVAL");
}

static void matches_packet_layer_on_generated_stream(void)
{
	/* Count End/Timestamp packets with the packet layer; the record layer
	 * must find as many records, covering every non-padding byte. */
	static const char *rec[] = {
		"pc 0x400000 el=0 ns=1\nop b cond\nev retired\nlat tot 3\ntgt 0x400100 el=0 ns=1\nend\n",
		"pad 13\n",
		"pc 0x400010 el=0 ns=1\nctx 7\nop ld gp\nev retired l1d-access\nlat iss 1\nlat tot 40\nva 0x7fff0000 tag=2\nlat xlat 3\npa 0x9000 ns=1\nds 8\nts 1000\n",
		"align 32\n",
	};
	char text[4096] = "";
	struct spe_decoder d;
	struct spe_record r;
	size_t pos = 0;
	uint64_t ends = 0, recs = 0, covered = 0;
	int ret;

	for (int i = 0; i < 12; i++)
		strcat(text, rec[i % 4]);
	enc(text);
	while (pos < len) {
		struct spe_pkt p;

		ret = spe_pkt_decode(buf + pos, len - pos, pos, &p);
		if (ret < 0)
			break;
		ends += p.type == SPE_PKT_END || p.type == SPE_PKT_TIMESTAMP;
		pos += (size_t)ret;
	}
	start(&d, 0, 0);
	while (spe_decoder_next(&d, &r) == 1) {
		recs++;
		covered += r.size;
	}
	CHECK(ends == 6 && recs == ends && covered == 3 * (10 + 2 + 3 + 3 + 9) + 3 * (9 + 5 + 2 + 3 + 3 + 3 + 9 + 3 + 9 + 2 + 9),
	      "the record layer finds one record per End/Timestamp packet, covering all their bytes");
}

int main(void)
{
	records_end_at_end_or_timestamp();
	every_field_is_filled();
	impdef_overflow_is_counted();
	framing_between_records_is_skipped();
	alignment_honours_base_offset();
	truncated_record_keeps_what_was_decoded();
	cut_extended_header_between_records();
	corrupt_byte_then_resync();
	resync_skips_false_end_bytes();
	resync_after_timestamp_with_high_byte();
	resync_checks_the_record_size_limit();
	resync_boundaries_follow_the_rule();
	strict_mode_stops();
	record_size_is_bounded();
	record_size_limit_is_exact();
	fast_and_slow_paths_agree();
	init_rules();
	matches_packet_layer_on_generated_stream();
	free(buf);
	return tap_done();
}
