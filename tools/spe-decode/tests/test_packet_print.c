// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests for lib/packet_print.c: the descriptions and lines of
 * `perf report -D` (perf 6.1, arm-spe-pkt-decoder.c), and the richer style.
 */
#include <string.h>

#include "spe_decode.h"
#include "tap.h"

static const char *desc_of(const uint8_t *b, size_t n, enum spe_desc_style s)
{
	static char out[SPE_PKT_DESC_MAX];
	struct spe_pkt pkt;

	if (spe_pkt_decode(b, n, 0, &pkt) < 0 || spe_pkt_desc(&pkt, s, out, sizeof(out)) < 0)
		return "(error)";
	return out;
}

#define DESC(s, ...) desc_of((const uint8_t[]){ __VA_ARGS__ }, \
			     sizeof((const uint8_t[]){ __VA_ARGS__ }), s)

static void check_desc(const char *got, const char *want, const char *name)
{
	if (!CHECK(!strcmp(got, want), name))
		printf("#   got \"%s\", want \"%s\"\n", got, want);
}

static void perf_61_strings(void)
{
	check_desc(DESC(SPE_DESC_PERF, 0xb0, 0xd0, 0xc2, 0xa1, 0xed, 0x66, 0xba, 0xff, 0xc0),
		   "PC 0xffba66eda1c2d0 el2 ns=1", "PC: bits 55:0, EL and NS as perf prints them");
	check_desc(DESC(SPE_DESC_PERF, 0x65, 0x80, 0x5f, 0, 0), "CONTEXT 0x5f80 el2",
		   "Context: hex value and el<index+1>");
	check_desc(DESC(SPE_DESC_PERF, 0x49, 0x00), "LD GP-REG", "load, general-purpose registers");
	check_desc(DESC(SPE_DESC_PERF, 0x52, 0x16, 0x00), "EV RETIRED L1D-ACCESS TLB-ACCESS",
		   "events in bit order");
	check_desc(DESC(SPE_DESC_PERF, 0x98, 0x0c, 0x00), "LAT 12 TOT", "total latency");
	check_desc(DESC(SPE_DESC_PERF, 0x9b, 0x05, 0x00), "LAT 5 ",
		   "an IMPDEF counter keeps perf's trailing space");
	check_desc(DESC(SPE_DESC_PERF, 0xb2, 0x28, 0x6b, 0x09, 0x03, 0x37, 0x0e, 0xff, 0x00),
		   "VA 0xff0e3703096b28", "VA prints the whole payload, tag included");
	check_desc(DESC(SPE_DESC_PERF, 0x43, 0x00), "DATA-SOURCE 0", "data source in decimal");
	check_desc(DESC(SPE_DESC_PERF, 0x71, 0x2e, 0x65, 0x2f, 0x6a, 0x0a, 0, 0, 0), "TS 44731163950",
		   "timestamp in decimal");
	check_desc(DESC(SPE_DESC_PERF, 0x71, 0, 0, 0, 0, 0, 0, 0, 0x80), "TS -9223372036854775808",
		   "timestamp with bit 63 set prints signed, as perf's %lld does");
	check_desc(DESC(SPE_DESC_PERF, 0xb3, 0, 0x10, 0, 0x80, 0, 0, 0, 0xc3),
		   "PA 0x80001000 ns=1 ch=1 pat=3", "PA with NS, CH and PAT");
	check_desc(DESC(SPE_DESC_PERF, 0xb4, 1, 0, 0, 0, 0, 0, 0, 0x80), "ADDR 0x8000000000000001 (4)",
		   "perf 6.1 does not name index 4 (PBT): generic ADDR line");
	check_desc(DESC(SPE_DESC_PERF, 0x4b, 0x5a), "OP-TYPE 0x5a (3)", "reserved op class 3");
	check_desc(DESC(SPE_DESC_PERF, 0x4a, 0x0b), "B COND",
		   "perf 6.1 calls a branch indirect only if no bit but COND is set too");
	check_desc(DESC(SPE_DESC_PERF, 0x49, 0x4d), "ST EVLEN 512 PRED", "SVE store: EVL and predicate");
	check_desc(DESC(SPE_DESC_PERF, 0x49, 0x1f), "ST AT EXCL AR", "atomic, exclusive, acquire/release");
	check_desc(DESC(SPE_DESC_PERF, 0x49, 0x14), "LD", "perf 6.1 does not name MTE tag accesses");
	check_desc(DESC(SPE_DESC_PERF, 0x48, 0x1e), "SVE-OTHER EVLEN 64 FP PRED", "SVE other");
	check_desc(DESC(SPE_DESC_PERF, 0x42, 0xff), "EV EXCEPTION-GEN RETIRED L1D-ACCESS L1D-REFILL TLB-ACCESS TLB-REFILL NOT-TAKEN MISPRED",
		   "all eight events of a 1-byte payload");
}

static void full_style_names_newer_fields(void)
{
	check_desc(DESC(SPE_DESC_FULL, 0xb4, 0, 1, 0x40, 0, 0, 0, 0, 0xc0), "PBT 0x400100 el2 ns=1",
		   "previous branch target (FEAT_SPE_PBT)");
	check_desc(DESC(SPE_DESC_FULL, 0x4a, 0x0e), "B IND GCS CR-BL", "branch: indirect, GCS, call hint");
	check_desc(DESC(SPE_DESC_FULL, 0x49, 0x25), "ST MEMSET", "memset");
	check_desc(DESC(SPE_DESC_FULL, 0x49, 0x20), "LD MEMCPY", "memcpy");
	check_desc(DESC(SPE_DESC_FULL, 0x49, 0x15), "ST MTE-TAG", "MTE tag store");
	check_desc(DESC(SPE_DESC_FULL, 0x49, 0x45), "ST GCS COMM", "GCS common store");
	check_desc(DESC(SPE_DESC_FULL, 0x48, 0x9a), "SME-OTHER ETS 512 FP", "SME data processing tile size");
	check_desc(DESC(SPE_DESC_FULL, 0x62, 0x00, 0x00, 0x38, 0x00), "EV L2D-ACCESS L2D-MISS HITM",
		   "SPEv1p4 events");
}

/* What perf 6.12 and 7.3 print (their report -D on the golden vectors). */
static void newer_perf_strings(void)
{
	static const uint8_t all_ev[] = { 0x72, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const char all_ev_common[] =
		"EV EXCEPTION-GEN RETIRED L1D-ACCESS L1D-REFILL TLB-ACCESS TLB-REFILL NOT-TAKEN "
		"MISPRED LLC-ACCESS LLC-REFILL REMOTE-ACCESS ALIGNMENT TXN SVE-PARTIAL-PRED "
		"SVE-EMPTY-PRED L2D-ACCESS L2D-MISS HITM LFB SNOOPED STREAMING-SVE SMCU";
	char want[SPE_PKT_DESC_MAX];
	const char *got;

	check_desc(DESC(SPE_DESC_PERF_6_12, 0xb4, 0, 1, 0x40, 0, 0, 0, 0, 0x80), "PBT 0x400100 el0 ns=1",
		   "6.12: previous branch target");
	check_desc(DESC(SPE_DESC_PERF, 0x4a, 0x12), "B", "6.1: a return is no indirect branch");
	check_desc(DESC(SPE_DESC_PERF_6_12, 0x4a, 0x12), "B IND CR-RET", "6.12: indirect return");
	check_desc(DESC(SPE_DESC_PERF_6_12, 0x4a, 0x05), "B COND GCS", "6.12: conditional GCS branch");
	check_desc(DESC(SPE_DESC_PERF_6_12, 0x49, 0x25), "ST MEMSET", "6.12: memset");
	check_desc(DESC(SPE_DESC_PERF_6_12, 0x49, 0x45), "ST", "6.12 does not name GCS accesses");
	check_desc(DESC(SPE_DESC_PERF_6_12, 0x49, 0x4c), "LD EVLEN 512 PRED", "6.12: SVE load");
	check_desc(DESC(SPE_DESC_PERF_6_12, 0x48, 0x06), "OTHER INSN-OTHER", "6.12: no ASE/FP");
	check_desc(DESC(SPE_DESC_PERF_6_12, 0x62, 0x00, 0x10, 0xf9, 0x03), "EV",
		   "6.12 names no event newer than 6.1's");
	check_desc(DESC(SPE_DESC_PERF_7_3, 0x49, 0x4c), "LD SVE-SME-REG EVLEN 512 PRED", "7.3: SVE load");
	check_desc(DESC(SPE_DESC_PERF_7_3, 0x49, 0x45), "ST GCS COMM", "7.3: GCS common store");
	check_desc(DESC(SPE_DESC_PERF_7_3, 0x48, 0x06), "OTHER ASE FP INSN-OTHER", "7.3: ASE before FP");
	check_desc(DESC(SPE_DESC_PERF_7_3, 0x48, 0xfc), "SME-OTHER ETS 4194304", "7.3: largest SME tile");
	check_desc(DESC(SPE_DESC_PERF_7_3, 0x48, 0x10), "", "7.3: no text of its own for an unknown subclass");
	check_desc(DESC(SPE_DESC_PERF_7_3, 0x62, 0x00, 0x10, 0xf9, 0x03),
		   "EV TXN L2D-ACCESS L2D-MISS HITM LFB SNOOPED STREAMING-SVE SMCU IMPDEF:12",
		   "7.3: newer events; 12 is IMPDEF but on a Neoverse N1");
	check_desc(DESC(SPE_DESC_PERF_7_3 | SPE_DESC_NEOVERSE_N1, 0x62, 0x00, 0x10, 0xf9, 0x03),
		   "EV TXN L2D-ACCESS L2D-MISS HITM LFB SNOOPED STREAMING-SVE SMCU LATE-PREFETCH",
		   "7.3 on a Neoverse N1: LATE-PREFETCH after the common events");
	check_desc(DESC(SPE_DESC_PERF_7_3, 0x72, 0x02, 0, 0, 0, 0, 0, 0x01, 0x80), "EV RETIRED IMPDEF:48,63",
		   "7.3: IMPDEF bits as a comma list");
	/* All 64 bits: the longest description there is. */
	got = desc_of(all_ev, sizeof(all_ev), SPE_DESC_PERF_7_3 | SPE_DESC_NEOVERSE_N1);
	strcpy(want, all_ev_common);
	strcat(want, " LATE-PREFETCH IMPDEF:13,14,15");
	for (int i = 26; i < 64; i++)
		sprintf(want + strlen(want), ",%d", i);
	check_desc(got, want, "7.3, every event bit on a Neoverse N1");
	CHECK(strlen(got) < SPE_PKT_DESC_MAX, "the longest description fits SPE_PKT_DESC_MAX");
	{
		struct spe_pkt pkt;
		char out[SPE_PKT_DESC_MAX];

		spe_pkt_decode(all_ev, sizeof(all_ev), 0, &pkt);
		CHECK(spe_pkt_desc(&pkt, (enum spe_desc_style)4, out, sizeof(out)) == SPE_ERR_INVAL,
		      "an unknown style is refused");
	}
}

static void non_perf_packets(void)
{
	check_desc(DESC(SPE_DESC_PERF, 0x40, 0x05), "UNKNOWN hdr 0x40 payload 0x5 (skipped)",
		   "unknown sized packet says it was skipped");
	check_desc(DESC(SPE_DESC_PERF, 0x23, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14),
		   "ALIGN 16 skip 14", "Alignment says its boundary and skip");
}

static void buffers_and_lines(void)
{
	static const uint8_t pc[] = { 0xb0, 0xd0, 0xc2, 0xa1, 0xed, 0x66, 0xba, 0xff, 0xc0 };
	char small[8], line[SPE_DUMP_LINE_MAX];
	struct spe_pkt pkt;

	spe_pkt_decode(pc, sizeof(pc), 0, &pkt);
	CHECK(spe_pkt_desc(&pkt, SPE_DESC_PERF, small, sizeof(small)) == SPE_ERR_NOSPACE,
	      "a description that does not fit is SPE_ERR_NOSPACE, not a cut string");
	CHECK(spe_dump_line(pc, sizeof(pc), 0, "PC 0xffba66eda1c2d0 el2 ns=1", line, sizeof(line)) > 0 &&
	      !strcmp(line, ".  00000000:  b0 d0 c2 a1 ed 66 ba ff c0                      PC 0xffba66eda1c2d0 el2 ns=1\n"),
	      "a dump line is '.  OFFSET: ' + bytes padded to 16 columns + description (perf arm-spe-pkt-decoder.c)");
	CHECK(spe_dump_line(pc, 1, 0x123456789ULL, NULL, line, sizeof(line)) > 0 &&
	      !strncmp(line, ".  123456789:  b0 ", 18) && strstr(line, " Bad packet!\n"),
	      "offsets wider than 8 digits grow, NULL text is perf's Bad packet!");
	CHECK(spe_dump_line(pc, 17, 0, "x", line, sizeof(line)) == SPE_ERR_INVAL,
	      "more than 16 bytes on one line is refused");
}

int main(void)
{
	perf_61_strings();
	full_style_names_newer_fields();
	newer_perf_strings();
	non_perf_packets();
	buffers_and_lines();
	return tap_done();
}
