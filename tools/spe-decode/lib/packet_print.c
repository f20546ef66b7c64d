// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Packet text: the description `perf report -D` (perf 6.1) prints after a
 * packet's bytes, and the whole dump line.
 *
 * The strings are the facts perf's output shows (checked against host
 * perf 6.1 by scripts/suites/12-decoder-perf-diff.sh), formatted by hand
 * rather than with printf: the dump prints millions of lines and printf's
 * format parsing dominated it.
 */
#include <string.h>

#include "print_internal.h"

static const char hexdig[16] = "0123456789abcdef";

/* Two lowercase hex digits per byte value, for the byte columns. */
#define HEXC(n)	((char)((n) < 10 ? '0' + (n) : 'a' - 10 + (n)))
#define H2(b)	{ HEXC((b) >> 4), HEXC((b) & 15) }
#define H2_4(b)	H2(b), H2((b) + 1), H2((b) + 2), H2((b) + 3)
#define H2_16(b) H2_4(b), H2_4((b) + 4), H2_4((b) + 8), H2_4((b) + 12)
#define H2_64(b) H2_16(b), H2_16((b) + 16), H2_16((b) + 32), H2_16((b) + 48)
static const char hex2[256][2] = {
	H2_64(0), H2_64(64), H2_64(128), H2_64(192),
};

/* Literal strings: the length is known at compile time. */
#define PUT_LIT(p, s)	(memcpy((p), (s), sizeof(s) - 1), (p) + sizeof(s) - 1)

static inline char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *put_hex(char *p, uint64_t v)
{
	/* Number of hex digits without leading zeros (at least one). */
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1;

	for (int i = n - 1; i >= 0; i--) {
		p[i] = hexdig[v & 0xf];
		v >>= 4;
	}
	return p + n;
}

/* "0x" + lowercase hex without leading zeros, as printf's %#llx but 0x0. */
static char *put_0x(char *p, uint64_t v)
{
	*p++ = '0';
	*p++ = 'x';
	return put_hex(p, v);
}

static char *put_udec(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* perf prints timestamps and data sources with %lld. */
static char *put_sdec(char *p, uint64_t v)
{
	if ((int64_t)v < 0) {
		*p++ = '-';
		v = -v;
	}
	return put_udec(p, v);
}

struct ev_name {
	char name[24];		/* copied whole: a fixed-size copy is inlined */
	uint8_t len;		/* 0: no name */
	uint8_t full_only;	/* not printed by perf 6.1 */
};

#define EV(bit, full, s)	[bit] = { s, sizeof(s) - 1, full }

/* Event names by bit; perf 6.1 names bits 0-11, 17 and 18 (DDI 0487 D18). */
static const struct ev_name ev_names[64] = {
	EV(0, 0, " EXCEPTION-GEN"),
	EV(1, 0, " RETIRED"),
	EV(2, 0, " L1D-ACCESS"),
	EV(3, 0, " L1D-REFILL"),
	EV(4, 0, " TLB-ACCESS"),
	EV(5, 0, " TLB-REFILL"),
	EV(6, 0, " NOT-TAKEN"),
	EV(7, 0, " MISPRED"),
	EV(8, 0, " LLC-ACCESS"),
	EV(9, 0, " LLC-REFILL"),
	EV(10, 0, " REMOTE-ACCESS"),
	EV(11, 0, " ALIGNMENT"),
	EV(16, 1, " TXN"),
	EV(17, 0, " SVE-PARTIAL-PRED"),
	EV(18, 0, " SVE-EMPTY-PRED"),
	EV(19, 1, " L2D-ACCESS"),
	EV(20, 1, " L2D-MISS"),
	EV(21, 1, " HITM"),
	EV(22, 1, " LFB"),
	EV(23, 1, " SNOOPED"),
	EV(24, 1, " STREAMED-SVE"),
	EV(25, 1, " SMCU"),
};

static char *desc_events(char *p, uint64_t v, enum spe_desc_style style)
{
	uint64_t bits = v;

	p = PUT_LIT(p, "EV");
	/* Visit only the set bits, lowest first (perf's order). */
	while (bits) {
		const struct ev_name *e = &ev_names[__builtin_ctzll(bits)];

		bits &= bits - 1;
		if (!e->len || (e->full_only && style != SPE_DESC_FULL))
			continue;
		/* The longest description plus 24 stays below SPE_PKT_DESC_MAX. */
		memcpy(p, e->name, sizeof(e->name));
		p += e->len;
	}
	if (style == SPE_DESC_FULL) {
		uint64_t impdef = v & (SPE_EV_IMPDEF_12_15 | SPE_EV_IMPDEF_26_31 |
				       SPE_EV_IMPDEF_48_63);

		if (impdef) {
			p = PUT_LIT(p, " IMPDEF ");
			p = put_0x(p, impdef);
		}
	}
	return p;
}

static char *desc_op_other(char *p, uint64_t v, enum spe_desc_style style)
{
	if (SPE_OP_OTHER_IS_SVE(v)) {
		p = PUT_LIT(p, "SVE-OTHER EVLEN ");
		p = put_udec(p, SPE_OP_OTHER_SVE_EVL(v));
		if (v & SPE_OP_OTHER_FP)
			p = PUT_LIT(p, " FP");
		if (v & SPE_OP_OTHER_SVE_PRED)
			p = PUT_LIT(p, " PRED");
		return p;
	}
	if (style == SPE_DESC_FULL && SPE_OP_OTHER_IS_SME(v)) {
		p = PUT_LIT(p, "SME-OTHER ETS ");
		p = put_udec(p, SPE_OP_OTHER_SME_ETS(v));
		if (v & SPE_OP_OTHER_FP)
			p = PUT_LIT(p, " FP");
		return p;
	}
	if (v & SPE_OP_OTHER_COND)
		p = PUT_LIT(p, "OTHER COND-SELECT");
	else
		p = PUT_LIT(p, "OTHER INSN-OTHER");
	if (style == SPE_DESC_FULL && SPE_OP_OTHER_IS_PLAIN(v)) {
		if (v & SPE_OP_OTHER_FP)
			p = PUT_LIT(p, " FP");
		if (v & SPE_OP_OTHER_ASE)
			p = PUT_LIT(p, " ASE");
	}
	return p;
}

static char *desc_op_ldst(char *p, uint64_t v, enum spe_desc_style style)
{
	unsigned int sub = SPE_OP_LDST_SUBCLASS(v);

	p = v & SPE_OP_LDST_ST ? PUT_LIT(p, "ST") : PUT_LIT(p, "LD");
	if (SPE_OP_LDST_IS_EXTENDED(v)) {
		if (v & SPE_OP_LDST_EXT_AT)
			p = PUT_LIT(p, " AT");
		if (v & SPE_OP_LDST_EXT_EXCL)
			p = PUT_LIT(p, " EXCL");
		if (v & SPE_OP_LDST_EXT_AR)
			p = PUT_LIT(p, " AR");
	}
	if (sub == SPE_OP_LDST_SIMD_FP)
		p = PUT_LIT(p, " SIMD-FP");
	else if (sub == SPE_OP_LDST_GP_REG)
		p = PUT_LIT(p, " GP-REG");
	else if (sub == SPE_OP_LDST_UNSPEC_REG)
		p = PUT_LIT(p, " UNSPEC-REG");
	else if (sub == SPE_OP_LDST_NV_SYSREG)
		p = PUT_LIT(p, " NV-SYSREG");
	else if (style == SPE_DESC_FULL && sub == SPE_OP_LDST_MTE_TAG)
		p = PUT_LIT(p, " MTE-TAG");
	else if (style == SPE_DESC_FULL && sub == SPE_OP_LDST_MEMCPY)
		p = PUT_LIT(p, " MEMCPY");
	else if (style == SPE_DESC_FULL && v == SPE_OP_LDST_MEMSET)
		p = PUT_LIT(p, " MEMSET");
	else if (style == SPE_DESC_FULL && SPE_OP_LDST_IS_GCS(v))
		p = put_str(p, v & SPE_OP_LDST_GCS_COMM ? " GCS COMM" : " GCS");

	if (SPE_OP_LDST_IS_SVE_SME(v)) {
		p = PUT_LIT(p, " EVLEN ");
		p = put_udec(p, SPE_OP_LDST_SVE_EVL(v));
		if (v & SPE_OP_LDST_SVE_PRED)
			p = PUT_LIT(p, " PRED");
		if (v & SPE_OP_LDST_SVE_SG)
			p = PUT_LIT(p, " SG");
	}
	return p;
}

static char *desc_op_branch(char *p, uint64_t v, enum spe_desc_style style)
{
	static const char *const hint[] = {
		"", " CR-BL", " CR-RET", " CR-NON-BL-RET"
	};

	p = PUT_LIT(p, "B");
	if (v & SPE_OP_BR_COND)
		p = PUT_LIT(p, " COND");
	/*
	 * perf 6.1 calls a branch indirect only when no other bit but COND
	 * is set; the architecture defines bit 1 alone (DDI 0487 D18,
	 * Operation Type packet).
	 */
	if (style == SPE_DESC_FULL ? (v & SPE_OP_BR_INDIRECT) :
	    (v & 0xfe) == SPE_OP_BR_INDIRECT)
		p = PUT_LIT(p, " IND");
	if (style == SPE_DESC_FULL) {
		if (v & SPE_OP_BR_GCS)
			p = PUT_LIT(p, " GCS");
		p = put_str(p, hint[SPE_OP_BR_HINT(v)]);
	}
	return p;
}

/* perf's fallback for what it decodes but cannot name: "NAME 0x.. (idx)". */
static char *desc_raw(char *p, const char *name, const struct spe_pkt *pkt)
{
	p = put_str(p, name);
	*p++ = ' ';
	p = put_0x(p, pkt->payload);
	p = PUT_LIT(p, " (");
	p = put_udec(p, pkt->index);
	*p++ = ')';
	return p;
}

/* @name: two or three letters and a space ("PC ", "TGT ", "PBT "). */
static char *desc_insn_addr(char *p, const char name[4], uint64_t v)
{
	memcpy(p, name, 4);
	p += name[2] == ' ' ? 3 : 4;
	p = put_0x(p, v & SPE_ADDR_VALUE_MASK);
	p = PUT_LIT(p, " el");
	p = put_udec(p, SPE_FIELD_GET(SPE_ADDR_INSN_EL_MASK, v));
	return v & SPE_ADDR_INSN_NS ? PUT_LIT(p, " ns=1") : PUT_LIT(p, " ns=0");
}

static char *desc_address(char *p, const struct spe_pkt *pkt,
			  enum spe_desc_style style)
{
	uint64_t v = pkt->payload;

	switch (pkt->index) {
	case SPE_ADDR_PC:
		return desc_insn_addr(p, "PC  ", v);
	case SPE_ADDR_BR_TARGET:
		return desc_insn_addr(p, "TGT ", v);
	case SPE_ADDR_DATA_VA:
		p = PUT_LIT(p, "VA ");
		return put_0x(p, v);
	case SPE_ADDR_DATA_PA:
		p = PUT_LIT(p, "PA ");
		p = put_0x(p, v & SPE_ADDR_VALUE_MASK);
		p = v & SPE_ADDR_PA_NS ? PUT_LIT(p, " ns=1") : PUT_LIT(p, " ns=0");
		p = v & SPE_ADDR_PA_CH ? PUT_LIT(p, " ch=1") : PUT_LIT(p, " ch=0");
		p = PUT_LIT(p, " pat=");
		return put_hex(p, SPE_FIELD_GET(SPE_ADDR_PA_PAT_MASK, v));
	case SPE_ADDR_PREV_BR_TARGET:
		if (style == SPE_DESC_FULL)
			return desc_insn_addr(p, "PBT ", v);
		/* fall through */
	default:
		return desc_raw(p, "ADDR", pkt);
	}
}

static char *desc_counter(char *p, const struct spe_pkt *pkt)
{
	p = PUT_LIT(p, "LAT ");
	p = put_udec(p, (uint16_t)pkt->payload);
	switch (pkt->index) {
	case SPE_CNT_TOTAL:
		return PUT_LIT(p, " TOT");
	case SPE_CNT_ISSUE:
		return PUT_LIT(p, " ISSUE");
	case SPE_CNT_TRANSLATION:
		return PUT_LIT(p, " XLAT");
	default:
		return PUT_LIT(p, " ");	/* perf's trailing space */
	}
}

/* Packets perf 6.1 rejects as "Bad packet!" but the specification defines. */
static char *desc_unknown(char *p, const struct spe_pkt *pkt)
{
	p = PUT_LIT(p, "UNKNOWN hdr ");
	p = put_0x(p, pkt->hdr[0]);
	if (pkt->hdr_len == 2) {
		*p++ = ' ';
		p = put_0x(p, pkt->hdr[1]);
	}
	if (pkt->payload_len) {
		p = PUT_LIT(p, " payload ");
		p = put_0x(p, pkt->payload);
	}
	return PUT_LIT(p, " (skipped)");
}

char *spe_put_desc(char *p, const struct spe_pkt *pkt, enum spe_desc_style style)
{
	uint64_t v = pkt->payload;

	switch (pkt->type) {
	case SPE_PKT_PAD:
		return PUT_LIT(p, "PAD");
	case SPE_PKT_END:
		return PUT_LIT(p, "END");
	case SPE_PKT_TIMESTAMP:
		p = PUT_LIT(p, "TS ");
		return put_sdec(p, v);
	case SPE_PKT_EVENTS:
		return desc_events(p, v, style);
	case SPE_PKT_DATA_SOURCE:
		p = PUT_LIT(p, "DATA-SOURCE ");
		return put_sdec(p, v);
	case SPE_PKT_CONTEXT:
		p = PUT_LIT(p, "CONTEXT ");
		p = put_0x(p, v);
		p = PUT_LIT(p, " el");
		return put_udec(p, pkt->index + 1u);
	case SPE_PKT_OP_TYPE:
		switch (pkt->index) {
		case SPE_OP_CLASS_OTHER:
			return desc_op_other(p, v, style);
		case SPE_OP_CLASS_LDST:
			return desc_op_ldst(p, v, style);
		case SPE_OP_CLASS_BRANCH:
			return desc_op_branch(p, v, style);
		default:
			return desc_raw(p, "OP-TYPE", pkt);
		}
	case SPE_PKT_ADDRESS:
		return desc_address(p, pkt, style);
	case SPE_PKT_COUNTER:
		return desc_counter(p, pkt);
	case SPE_PKT_ALIGNMENT:
		p = PUT_LIT(p, "ALIGN ");
		p = put_udec(p, SPE_ALIGN_BYTES(pkt->hdr[0]));
		p = PUT_LIT(p, " skip ");
		return put_udec(p, pkt->size - pkt->hdr_len);
	case SPE_PKT_UNKNOWN:
	default:
		return desc_unknown(p, pkt);
	}
}

int spe_pkt_desc(const struct spe_pkt *pkt, enum spe_desc_style style,
		 char *buf, size_t size)
{
	char tmp[SPE_PKT_DESC_MAX];
	char *p;
	size_t n;

	if (!pkt || !buf)
		return SPE_ERR_INVAL;
	p = size >= SPE_PKT_DESC_MAX ? buf : tmp;
	n = (size_t)(spe_put_desc(p, pkt, style) - p);
	if (p == tmp) {
		if (n >= size)
			return SPE_ERR_NOSPACE;
		memcpy(buf, tmp, n);
	}
	buf[n] = '\0';
	return (int)n;
}

char *spe_put_dump_prefix(char *p, const uint8_t *bytes, size_t nbytes,
			  uint64_t offset)
{
	/* 49 blanks (16 columns and the separator) rounded up to 64 so the
	 * copy is a few vector stores; the description overwrites the rest. */
	static const char blanks[64] = "                                                                ";
	int digits = 8;

	p = PUT_LIT(p, ".  ");
	while (digits < 16 && (offset >> (4 * digits)))
		digits++;
	for (int i = digits - 2; i >= 0; i -= 2) {
		memcpy(p, hex2[(offset >> (4 * i)) & 0xff], 2);
		p += 2;
	}
	if (digits & 1)		/* odd width: the lowest digit alone */
		*p++ = hexdig[offset & 0xf];
	p = PUT_LIT(p, ": ");
	if (nbytes > 16)
		nbytes = 16;
	/* Blank all 16 columns and the separator with one fixed-size copy,
	 * then fill the used columns, one 4-byte store each. */
	memcpy(p, blanks, sizeof(blanks));
	for (size_t i = 0; i < nbytes; i++) {
		char col[4] = { ' ', hex2[bytes[i]][0], hex2[bytes[i]][1], ' ' };

		memcpy(p + 3 * i, col, 4);
	}
	p += 49;
	return p;
}

int spe_dump_line(const uint8_t *bytes, size_t nbytes, uint64_t offset,
		  const char *text, char *out, size_t size)
{
	size_t tlen;
	char *p;

	if (!out || (!bytes && nbytes) || nbytes > 16)
		return SPE_ERR_INVAL;
	if (!text)
		text = SPE_BAD_PACKET_TEXT;
	tlen = strlen(text);
	if (size < SPE_DUMP_PREFIX_MAX + tlen + 2 || size < SPE_DUMP_PREFIX_SCRATCH)
		return SPE_ERR_NOSPACE;
	p = spe_put_dump_prefix(out, bytes, nbytes, offset);
	memcpy(p, text, tlen);
	p += tlen;
	*p++ = '\n';
	*p = '\0';
	return (int)(p - out);
}
