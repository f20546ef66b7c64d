// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Packet text: the description `perf report -D` prints after a packet's
 * bytes, as perf 6.1, 6.12 or 7.3 prints it, and the whole dump line.
 *
 * The strings are the facts perf's output shows (checked against host
 * perf 6.1 and the build roots' perf 6.12 and 7.3 by
 * scripts/suites/12-decoder-perf-diff.sh), formatted by hand
 * rather than with printf: the dump prints millions of lines and printf's
 * format parsing dominated it.
 */
#include <stdbool.h>
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
};

#define EV(bit, s)	[bit] = { s, sizeof(s) - 1 }

/* The event bits every perf release names (DDI 0487 D18): 0-11, 17, 18. */
#define EV_PERF_6_1							\
	EV(0, " EXCEPTION-GEN"), EV(1, " RETIRED"), EV(2, " L1D-ACCESS"),	\
	EV(3, " L1D-REFILL"), EV(4, " TLB-ACCESS"), EV(5, " TLB-REFILL"),	\
	EV(6, " NOT-TAKEN"), EV(7, " MISPRED"), EV(8, " LLC-ACCESS"),	\
	EV(9, " LLC-REFILL"), EV(10, " REMOTE-ACCESS"), EV(11, " ALIGNMENT"), \
	EV(17, " SVE-PARTIAL-PRED"), EV(18, " SVE-EMPTY-PRED")
/* TME (16), SPEv1p4 (19-23) and SME (24, 25) events. */
#define EV_NEWER(sve_mode)						\
	EV(16, " TXN"), EV(19, " L2D-ACCESS"), EV(20, " L2D-MISS"),	\
	EV(21, " HITM"), EV(22, " LFB"), EV(23, " SNOOPED"),		\
	EV(24, sve_mode), EV(25, " SMCU")

static const struct ev_name ev_names_6_1[64] = { EV_PERF_6_1 };
static const struct ev_name ev_names_full[64] = {
	EV_PERF_6_1, EV_NEWER(" STREAMED-SVE")
};
static const struct ev_name ev_names_7_3[64] = {
	EV_PERF_6_1, EV_NEWER(" STREAMING-SVE")
};

/* How the bits no name covers are printed. */
enum impdef_text {
	IMPDEF_NONE,		/* perf 6.1, 6.12: not at all */
	IMPDEF_HEX,		/* --full: " IMPDEF 0x..." of bits 12-15, 26-31, 48-63 */
	IMPDEF_LIST,		/* perf 7.3: " IMPDEF:12,13,..." of every other bit */
};

/*
 * What each style names: one row per style, each formatter asks its row.
 * perf 6.12 (as Debian's 6.12.117, with the stable fixes) and 7.3 come
 * from their `perf report -D` output on the golden vectors (suite 12);
 * the fields are those of DDI 0487 D18 they learnt to name.
 */
struct desc_rules {
	const struct ev_name *events;
	uint8_t impdef;		/* enum impdef_text */
	bool n1_late_prefetch;	/* event 12 on a Neoverse N1: LATE-PREFETCH */
	bool pbt;		/* Address index 4: "PBT" as PC and TGT */
	bool br_hints;		/* "IND" for bit 1 alone, GCS, CR-BL, CR-RET, ... */
	bool ldst_mte_memcpy;	/* MTE-TAG, MEMCPY, MEMSET */
	bool ldst_gcs;		/* GCS [COMM] */
	bool ldst_sve_label;	/* "SVE-SME-REG" before EVLEN */
	bool other_sme;		/* SME-OTHER ETS n */
	uint8_t other_plain;	/* enum other_plain_text */
};

enum other_plain_text {
	OTHER_PLAIN_61,		/* "OTHER COND-SELECT|INSN-OTHER", whatever else is set */
	OTHER_PLAIN_FULL,	/* ... then " FP", " ASE" of a plain operation */
	OTHER_PLAIN_73,		/* "OTHER [ASE] [FP] COND-SELECT|INSN-OTHER", plain only */
};

static const struct desc_rules rules[] = {
	[SPE_DESC_PERF] = {
		.events = ev_names_6_1,
	},
	[SPE_DESC_PERF_6_12] = {
		.events = ev_names_6_1, .pbt = true, .br_hints = true,
		.ldst_mte_memcpy = true,
	},
	[SPE_DESC_PERF_7_3] = {
		.events = ev_names_7_3, .impdef = IMPDEF_LIST, .n1_late_prefetch = true,
		.pbt = true, .br_hints = true, .ldst_mte_memcpy = true, .ldst_gcs = true,
		.ldst_sve_label = true, .other_sme = true, .other_plain = OTHER_PLAIN_73,
	},
	[SPE_DESC_FULL] = {
		.events = ev_names_full, .impdef = IMPDEF_HEX, .pbt = true,
		.br_hints = true, .ldst_mte_memcpy = true, .ldst_gcs = true,
		.other_sme = true, .other_plain = OTHER_PLAIN_FULL,
	},
};

static char *desc_events(char *p, uint64_t v, const struct desc_rules *r, bool n1)
{
	uint64_t bits = v, left = v;

	p = PUT_LIT(p, "EV");
	/* Visit only the set bits, lowest first (perf's order). */
	while (bits) {
		int bit = __builtin_ctzll(bits);
		const struct ev_name *e = &r->events[bit];

		bits &= bits - 1;
		if (!e->len)
			continue;
		/* The longest description plus 24 stays below SPE_PKT_DESC_MAX. */
		memcpy(p, e->name, sizeof(e->name));
		p += e->len;
		left &= ~(1ull << bit);
	}
	/* perf 7.3 names one IMPDEF event, Neoverse N1's, after the others. */
	if (n1 && r->n1_late_prefetch && (left & SPE_EV_N1_LATE_PREFETCH)) {
		p = PUT_LIT(p, " LATE-PREFETCH");
		left &= ~SPE_EV_N1_LATE_PREFETCH;
	}
	if (r->impdef == IMPDEF_HEX) {
		left &= SPE_EV_IMPDEF_12_15 | SPE_EV_IMPDEF_26_31 | SPE_EV_IMPDEF_48_63;
		if (left) {
			p = PUT_LIT(p, " IMPDEF ");
			p = put_0x(p, left);
		}
	} else if (r->impdef == IMPDEF_LIST && left) {
		p = PUT_LIT(p, " IMPDEF:");
		while (left) {
			p = put_udec(p, (uint64_t)__builtin_ctzll(left));
			left &= left - 1;
			if (left)
				*p++ = ',';
		}
	}
	return p;
}

/* NULL: perf 7.3 writes no text for this operation (see spe_put_desc). */
static char *desc_op_other(char *p, uint64_t v, const struct desc_rules *r)
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
	if (r->other_sme && SPE_OP_OTHER_IS_SME(v)) {
		p = PUT_LIT(p, "SME-OTHER ETS ");
		p = put_udec(p, SPE_OP_OTHER_SME_ETS(v));
		if (v & SPE_OP_OTHER_FP)
			p = PUT_LIT(p, " FP");
		return p;
	}
	p = PUT_LIT(p, "OTHER");
	if (r->other_plain == OTHER_PLAIN_73) {
		if (!SPE_OP_OTHER_IS_PLAIN(v))
			return NULL;
		if (v & SPE_OP_OTHER_ASE)
			p = PUT_LIT(p, " ASE");
		if (v & SPE_OP_OTHER_FP)
			p = PUT_LIT(p, " FP");
	}
	if (v & SPE_OP_OTHER_COND)
		p = PUT_LIT(p, " COND-SELECT");
	else
		p = PUT_LIT(p, " INSN-OTHER");
	if (r->other_plain == OTHER_PLAIN_FULL && SPE_OP_OTHER_IS_PLAIN(v)) {
		if (v & SPE_OP_OTHER_FP)
			p = PUT_LIT(p, " FP");
		if (v & SPE_OP_OTHER_ASE)
			p = PUT_LIT(p, " ASE");
	}
	return p;
}

/* Subclass names by the byte without its store bit (DDI 0487 D18). */
static const char *const ldst_subclass[128] = {
	[SPE_OP_LDST_GP_REG >> 1] = " GP-REG",
	[SPE_OP_LDST_SIMD_FP >> 1] = " SIMD-FP",
	[SPE_OP_LDST_UNSPEC_REG >> 1] = " UNSPEC-REG",
	[SPE_OP_LDST_NV_SYSREG >> 1] = " NV-SYSREG",
};
/* Those perf learnt after 6.1 (ldst_mte_memcpy). */
static const char *const ldst_subclass_newer[128] = {
	[SPE_OP_LDST_MTE_TAG >> 1] = " MTE-TAG",
	[SPE_OP_LDST_MEMCPY >> 1] = " MEMCPY",
};

static char *desc_op_ldst(char *p, uint64_t v, const struct desc_rules *r)
{
	unsigned int sub = SPE_OP_LDST_SUBCLASS(v) >> 1;

	p = v & SPE_OP_LDST_ST ? PUT_LIT(p, "ST") : PUT_LIT(p, "LD");
	/* The subclasses exclude each other, so one test each suffices. */
	if (SPE_OP_LDST_IS_EXTENDED(v)) {
		if (v & SPE_OP_LDST_EXT_AT)
			p = PUT_LIT(p, " AT");
		if (v & SPE_OP_LDST_EXT_EXCL)
			p = PUT_LIT(p, " EXCL");
		if (v & SPE_OP_LDST_EXT_AR)
			p = PUT_LIT(p, " AR");
	} else if (ldst_subclass[sub]) {
		p = put_str(p, ldst_subclass[sub]);
	} else if (r->ldst_mte_memcpy && ldst_subclass_newer[sub]) {
		p = put_str(p, ldst_subclass_newer[sub]);
	} else if (r->ldst_mte_memcpy && v == SPE_OP_LDST_MEMSET) {
		p = PUT_LIT(p, " MEMSET");
	} else if (r->ldst_gcs && SPE_OP_LDST_IS_GCS(v)) {
		p = put_str(p, v & SPE_OP_LDST_GCS_COMM ? " GCS COMM" : " GCS");
	} else if (SPE_OP_LDST_IS_SVE_SME(v)) {
		if (r->ldst_sve_label)
			p = PUT_LIT(p, " SVE-SME-REG");
		p = PUT_LIT(p, " EVLEN ");
		p = put_udec(p, SPE_OP_LDST_SVE_EVL(v));
		if (v & SPE_OP_LDST_SVE_PRED)
			p = PUT_LIT(p, " PRED");
		if (v & SPE_OP_LDST_SVE_SG)
			p = PUT_LIT(p, " SG");
	}
	return p;
}

static char *desc_op_branch(char *p, uint64_t v, const struct desc_rules *r)
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
	if (r->br_hints ? (v & SPE_OP_BR_INDIRECT) : (v & 0xfe) == SPE_OP_BR_INDIRECT)
		p = PUT_LIT(p, " IND");
	if (r->br_hints) {
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
			  const struct desc_rules *r)
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
		if (r->pbt)
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

bool spe_desc_style_valid(enum spe_desc_style style)
{
	unsigned int s = (unsigned int)style & ~(unsigned int)SPE_DESC_NEOVERSE_N1;

	return s < sizeof(rules) / sizeof(rules[0]) && rules[s].events;
}

char *spe_put_desc(char *p, const struct spe_pkt *pkt, enum spe_desc_style style)
{
	const struct desc_rules *r =
		&rules[(unsigned int)style & ~(unsigned int)SPE_DESC_NEOVERSE_N1];
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
		return desc_events(p, v, r, style & SPE_DESC_NEOVERSE_N1);
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
			return desc_op_other(p, v, r);
		case SPE_OP_CLASS_LDST:
			return desc_op_ldst(p, v, r);
		case SPE_OP_CLASS_BRANCH:
			return desc_op_branch(p, v, r);
		default:
			return desc_raw(p, "OP-TYPE", pkt);
		}
	case SPE_PKT_ADDRESS:
		return desc_address(p, pkt, r);
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
	char *p, *end;
	size_t n;

	if (!pkt || !buf || !spe_desc_style_valid(style))
		return SPE_ERR_INVAL;
	p = size >= SPE_PKT_DESC_MAX ? buf : tmp;
	end = spe_put_desc(p, pkt, style);
	/* perf 7.3 writes no text of its own: an empty description. */
	n = end ? (size_t)(end - p) : 0;
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
