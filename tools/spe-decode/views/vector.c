// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Golden-vector encoder (spe_vector.h): one line of text describing a
 * packet -> its bytes.
 *
 * The text format (grammar in Documentation/spe-decode.txt) lets tests,
 * benchmarks and other tools write SPE streams readably, including streams
 * no real unit would write (reserved encodings, cut packets, raw bytes).
 * Encodings come from include/spe/packet.h only.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"
#include "spe_vector.h"
#include "spe/packet.h"

#define MAX_TOKENS	24
#define MAX_TOKEN_LEN	63
/* The largest line output: an Alignment to 64 KiB (or pad 65536). */
#define MAX_LINE_BYTES	(65536 + 2)

struct line {
	char tok[MAX_TOKENS][MAX_TOKEN_LEN + 1];
	int n;
};

struct enc {
	uint8_t *out;
	size_t cap;
	size_t n;
	const char *why;
};

static int put(struct enc *e, uint8_t b)
{
	if (e->n >= e->cap)
		return SPE_ERR_NOSPACE;
	e->out[e->n++] = b;
	return 0;
}

static int put_le(struct enc *e, uint64_t v, unsigned int bytes)
{
	for (unsigned int i = 0; i < bytes; i++)
		if (put(e, (uint8_t)(v >> (8 * i))))
			return SPE_ERR_NOSPACE;
	return 0;
}

static int syntax(struct enc *e, const char *why)
{
	e->why = why;
	return SPE_VEC_ERR_SYNTAX;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

/* "key=value" -> value when the token starts with key=. */
static const char *opt(const char *tok, const char *key)
{
	size_t n = strlen(key);

	if (!strncmp(tok, key, n) && tok[n] == '=')
		return tok + n + 1;
	return NULL;
}

static int tokenize(const char *s, size_t len, struct line *l)
{
	size_t i = 0;

	l->n = 0;
	while (i < len) {
		size_t k = 0;

		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i >= len || s[i] == '#')
			break;
		if (l->n == MAX_TOKENS)
			return -1;
		while (i < len && !isspace((unsigned char)s[i]) && s[i] != '#') {
			if (k == MAX_TOKEN_LEN)
				return -1;
			l->tok[l->n][k++] = (char)tolower((unsigned char)s[i++]);
		}
		l->tok[l->n++][k] = '\0';
	}
	return 0;
}

/* Options common to several packets: size=N (payload bytes), ext. */
struct opts {
	unsigned int size;	/* 0: default */
	bool ext;
};

static int payload_size_bits(unsigned int size)
{
	switch (size) {
	case 1: return SPE_HDR_SZ_1;
	case 2: return SPE_HDR_SZ_2;
	case 4: return SPE_HDR_SZ_4;
	case 8: return SPE_HDR_SZ_8;
	default: return -1;
	}
}

static unsigned int min_size(uint64_t v, unsigned int floor)
{
	unsigned int s = floor;

	while (s < 8 && (v >> (8 * s)))
		s *= 2;
	return s;
}

/* Address or counter: short header for INDEX < 8 unless 'ext' is asked. */
static int put_indexed(struct enc *e, uint8_t hdr, unsigned int index,
		       bool ext, uint64_t payload, unsigned int bytes)
{
	if (index > 31)
		return syntax(e, "index must be 0..31");
	if (index > 7 || ext) {
		if (put(e, (uint8_t)(SPE_EXT_HDR_B0 | (index >> 3))))
			return SPE_ERR_NOSPACE;
	}
	if (put(e, (uint8_t)(hdr | (index & SPE_SHORT_INDEX_MASK))))
		return SPE_ERR_NOSPACE;
	return put_le(e, payload, bytes);
}

struct name_bit {
	const char *name;
	uint64_t bit;
};

static const struct name_bit ev_names[] = {
	{ "exception-gen", SPE_EV_EXCEPTION_GEN },
	{ "retired", SPE_EV_RETIRED },
	{ "l1d-access", SPE_EV_L1D_ACCESS },
	{ "l1d-refill", SPE_EV_L1D_REFILL },
	{ "tlb-access", SPE_EV_TLB_ACCESS },
	{ "tlb-refill", SPE_EV_TLB_WALK },
	{ "tlb-walk", SPE_EV_TLB_WALK },
	{ "not-taken", SPE_EV_NOT_TAKEN },
	{ "mispred", SPE_EV_MISPRED },
	{ "llc-access", SPE_EV_LLC_ACCESS },
	{ "llc-refill", SPE_EV_LLC_MISS },
	{ "llc-miss", SPE_EV_LLC_MISS },
	{ "remote-access", SPE_EV_REMOTE_ACCESS },
	{ "alignment", SPE_EV_ALIGNMENT },
	{ "late-prefetch", SPE_EV_N1_LATE_PREFETCH },
	{ "txn", SPE_EV_TRANSACTIONAL },
	{ "sve-partial-pred", SPE_EV_SVE_PARTIAL_PRED },
	{ "sve-empty-pred", SPE_EV_SVE_EMPTY_PRED },
	{ "l2d-access", SPE_EV_L2D_ACCESS },
	{ "l2d-miss", SPE_EV_L2D_MISS },
	{ "hitm", SPE_EV_CACHE_DATA_MODIFIED },
	{ "lfb", SPE_EV_RECENTLY_FETCHED },
	{ "snooped", SPE_EV_DATA_SNOOPED },
	{ "streamed-sve", SPE_EV_STREAMING_SVE },
	{ "smcu", SPE_EV_SMCU },
};

static int enc_events(struct enc *e, const struct line *l)
{
	uint64_t v = 0, x;
	unsigned int size = 0;

	for (int i = 1; i < l->n; i++) {
		const char *t = l->tok[i], *o;
		size_t k;

		if ((o = opt(t, "size"))) {
			if (!parse_u64(o, &x) || payload_size_bits((unsigned int)x) < 0)
				return syntax(e, "size must be 1, 2, 4 or 8");
			size = (unsigned int)x;
			continue;
		}
		if (parse_u64(t, &x)) {
			v |= x;
			continue;
		}
		for (k = 0; k < sizeof(ev_names) / sizeof(ev_names[0]); k++)
			if (!strcmp(t, ev_names[k].name))
				break;
		if (k == sizeof(ev_names) / sizeof(ev_names[0]))
			return syntax(e, "unknown event name");
		v |= ev_names[k].bit;
	}
	if (!size)
		size = min_size(v, 2);
	if (put(e, (uint8_t)(SPE_EVENTS_HDR | payload_size_bits(size))))
		return SPE_ERR_NOSPACE;
	return put_le(e, v, size);
}

/* Sizeable packet with one value: ds VALUE [size=N]. */
static int enc_sized(struct enc *e, const struct line *l, uint8_t hdr,
		     unsigned int dflt_floor)
{
	uint64_t v, x;
	unsigned int size = 0;

	if (l->n < 2 || !parse_u64(l->tok[1], &v))
		return syntax(e, "expected a value");
	for (int i = 2; i < l->n; i++) {
		const char *o = opt(l->tok[i], "size");

		if (!o || !parse_u64(o, &x) || payload_size_bits((unsigned int)x) < 0)
			return syntax(e, "expected size=1|2|4|8");
		size = (unsigned int)x;
	}
	if (!size)
		size = min_size(v, dflt_floor);
	if (put(e, (uint8_t)(hdr | payload_size_bits(size))))
		return SPE_ERR_NOSPACE;
	return put_le(e, v, size);
}

static int enc_context(struct enc *e, const struct line *l)
{
	uint64_t v, idx = SPE_CONTEXT_EL1;

	if (l->n < 2 || !parse_u64(l->tok[1], &v) || v > UINT32_MAX)
		return syntax(e, "expected a 32-bit value");
	for (int i = 2; i < l->n; i++) {
		const char *o;

		if (!strcmp(l->tok[i], "el1"))
			idx = SPE_CONTEXT_EL1;
		else if (!strcmp(l->tok[i], "el2"))
			idx = SPE_CONTEXT_EL2;
		else if ((o = opt(l->tok[i], "idx")) && parse_u64(o, &idx) && idx < 4)
			;
		else
			return syntax(e, "expected el1, el2 or idx=0..3");
	}
	if (put(e, (uint8_t)(SPE_CONTEXT_HDR | idx)))
		return SPE_ERR_NOSPACE;
	return put_le(e, v, 4);
}

/* log2(evl / base) if it is 0..nmax-1, else -1. */
static int evl_field(uint64_t evl, unsigned int base, int nmax)
{
	for (int f = 0; f < nmax; f++)
		if ((uint64_t)base << f == evl)
			return f;
	return -1;
}

static int enc_op(struct enc *e, const struct line *l)
{
	const char *kind;
	uint64_t v = 0, x;
	unsigned int cls;
	int i = 2;

	if (l->n < 2)
		return syntax(e, "expected op CLASS ...");
	kind = l->tok[1];
	/* Raw form: op CLASS BYTE. */
	if (parse_u64(kind, &x)) {
		if (x > 3 || l->n != 3 || !parse_u64(l->tok[2], &v) || v > 0xff)
			return syntax(e, "expected op 0..3 BYTE");
		cls = (unsigned int)x;
		goto out;
	}
	if (!strcmp(kind, "ld") || !strcmp(kind, "st")) {
		cls = SPE_OP_CLASS_LDST;
		v = !strcmp(kind, "st") ? SPE_OP_LDST_ST : 0;
		for (; i < l->n; i++) {
			const char *t = l->tok[i], *o;

			if (!strcmp(t, "gp"))
				v |= SPE_OP_LDST_GP_REG;
			else if (!strcmp(t, "simd"))
				v |= SPE_OP_LDST_SIMD_FP;
			else if (!strcmp(t, "unspec"))
				v |= SPE_OP_LDST_UNSPEC_REG;
			else if (!strcmp(t, "nv-sysreg"))
				v |= SPE_OP_LDST_NV_SYSREG;
			else if (!strcmp(t, "mte"))
				v |= SPE_OP_LDST_MTE_TAG;
			else if (!strcmp(t, "memcpy"))
				v |= SPE_OP_LDST_MEMCPY;
			else if (!strcmp(t, "memset"))
				v = SPE_OP_LDST_MEMSET;
			else if (!strcmp(t, "gcs"))
				v |= 0x40;
			else if (!strcmp(t, "comm"))
				v |= SPE_OP_LDST_GCS_COMM;
			else if (!strcmp(t, "at"))
				v |= 0x02 | SPE_OP_LDST_EXT_AT;
			else if (!strcmp(t, "excl"))
				v |= 0x02 | SPE_OP_LDST_EXT_EXCL;
			else if (!strcmp(t, "ar"))
				v |= 0x02 | SPE_OP_LDST_EXT_AR;
			else if ((o = opt(t, "sve"))) {
				int f = parse_u64(o, &x) ? evl_field(x, 32, 8) : -1;

				if (f < 0)
					return syntax(e, "sve=EVL: 32..4096");
				v |= 0x08 | (uint64_t)f << 4;
			} else if (!strcmp(t, "pred"))
				v |= SPE_OP_LDST_SVE_PRED;
			else if (!strcmp(t, "sg"))
				v |= SPE_OP_LDST_SVE_SG;
			else
				return syntax(e, "unknown load/store attribute");
		}
	} else if (!strcmp(kind, "b")) {
		cls = SPE_OP_CLASS_BRANCH;
		for (; i < l->n; i++) {
			const char *t = l->tok[i];

			if (!strcmp(t, "cond"))
				v |= SPE_OP_BR_COND;
			else if (!strcmp(t, "ind"))
				v |= SPE_OP_BR_INDIRECT;
			else if (!strcmp(t, "gcs"))
				v |= SPE_OP_BR_GCS;
			else if (!strcmp(t, "call"))
				v |= SPE_OP_BR_HINT_CALL << 3;
			else if (!strcmp(t, "ret"))
				v |= SPE_OP_BR_HINT_RET << 3;
			else if (!strcmp(t, "nonlink-ret"))
				v |= SPE_OP_BR_HINT_NONLINK_RET << 3;
			else
				return syntax(e, "unknown branch attribute");
		}
	} else if (!strcmp(kind, "other") || !strcmp(kind, "sve") ||
		   !strcmp(kind, "sme")) {
		cls = SPE_OP_CLASS_OTHER;
		if (!strcmp(kind, "sve"))
			v = 0x08;
		else if (!strcmp(kind, "sme"))
			v = 0x88;
		for (; i < l->n; i++) {
			const char *t = l->tok[i], *o;

			if (!strcmp(t, "cond") && kind[1] == 't')
				v |= SPE_OP_OTHER_COND;
			else if (!strcmp(t, "fp"))
				v |= SPE_OP_OTHER_FP;
			else if (!strcmp(t, "ase") && kind[1] == 't')
				v |= SPE_OP_OTHER_ASE;
			else if (!strcmp(t, "pred") && kind[1] == 'v')
				v |= SPE_OP_OTHER_SVE_PRED;
			else if ((o = opt(t, "evl")) && kind[1] == 'v') {
				int f = parse_u64(o, &x) ? evl_field(x, 32, 8) : -1;

				if (f < 0)
					return syntax(e, "evl: 32..4096");
				v |= (uint64_t)f << 4;
			} else if ((o = opt(t, "ets")) && kind[1] == 'm') {
				int f = parse_u64(o, &x) ? evl_field(x, 128, 16) : -1;

				if (f < 0 || f > 15)
					return syntax(e, "ets: 128 << 0..15");
				v |= (uint64_t)(f >> 1) << 4 | (uint64_t)(f & 1) << 2;
			} else
				return syntax(e, "unknown attribute");
		}
	} else {
		return syntax(e, "op class: ld, st, b, other, sve, sme or 0..3");
	}
out:
	if (put(e, (uint8_t)(SPE_OP_HDR | cls)))
		return SPE_ERR_NOSPACE;
	return put(e, (uint8_t)v);
}

static int enc_address(struct enc *e, const struct line *l, unsigned int index)
{
	uint64_t a, v, x;
	bool ext = false;

	if (l->n < 2 || !parse_u64(l->tok[1], &a))
		return syntax(e, "expected an address");
	v = index == SPE_ADDR_DATA_VA ? a : a & SPE_ADDR_VALUE_MASK;
	for (int i = 2; i < l->n; i++) {
		const char *t = l->tok[i], *o;
		bool insn = index != SPE_ADDR_DATA_VA && index != SPE_ADDR_DATA_PA;

		if (!strcmp(t, "ext")) {
			ext = true;
			continue;
		}
		if ((o = opt(t, "el")) && insn && parse_u64(o, &x) && x < 4)
			v = (v & ~SPE_ADDR_INSN_EL_MASK) | SPE_FIELD_PREP(SPE_ADDR_INSN_EL_MASK, x);
		else if ((o = opt(t, "ns")) && index != SPE_ADDR_DATA_VA &&
			 parse_u64(o, &x) && x < 2)
			v = (v & ~SPE_ADDR_INSN_NS) | (x ? SPE_ADDR_INSN_NS : 0);
		else if ((o = opt(t, "nse")) && insn && parse_u64(o, &x) && x < 2)
			v = (v & ~SPE_ADDR_INSN_NSE) | (x ? SPE_ADDR_INSN_NSE : 0);
		else if ((o = opt(t, "ch")) && index == SPE_ADDR_DATA_PA &&
			 parse_u64(o, &x) && x < 2)
			v = (v & ~SPE_ADDR_PA_CH) | (x ? SPE_ADDR_PA_CH : 0);
		else if ((o = opt(t, "pat")) && index == SPE_ADDR_DATA_PA &&
			 parse_u64(o, &x) && x < 16)
			v = (v & ~SPE_ADDR_PA_PAT_MASK) | SPE_FIELD_PREP(SPE_ADDR_PA_PAT_MASK, x);
		else if ((o = opt(t, "tag")) && index == SPE_ADDR_DATA_VA &&
			 parse_u64(o, &x) && x < 256)
			v = (v & SPE_ADDR_VALUE_MASK) | SPE_FIELD_PREP(SPE_ADDR_VA_TAG_MASK, x);
		else
			return syntax(e, "bad address attribute");
	}
	return put_indexed(e, SPE_ADDR_HDR, index, ext, v, 8);
}

static int enc_addr_raw(struct enc *e, const struct line *l)
{
	uint64_t idx, v;
	bool ext = l->n == 4 && !strcmp(l->tok[3], "ext");

	if ((l->n != 3 && !ext) || !parse_u64(l->tok[1], &idx) ||
	    !parse_u64(l->tok[2], &v))
		return syntax(e, "expected addr INDEX PAYLOAD [ext]");
	return put_indexed(e, SPE_ADDR_HDR, (unsigned int)(idx > 31 ? 32 : idx),
			   ext, v, 8);
}

static int enc_counter(struct enc *e, const struct line *l)
{
	uint64_t idx, v;
	bool ext = l->n == 4 && !strcmp(l->tok[3], "ext");
	const char *k;

	if ((l->n != 3 && !ext) || !parse_u64(l->tok[2], &v) || v > 0xffff)
		return syntax(e, "expected lat tot|iss|xlat|INDEX VALUE [ext]");
	k = l->tok[1];
	if (!strcmp(k, "tot"))
		idx = SPE_CNT_TOTAL;
	else if (!strcmp(k, "iss"))
		idx = SPE_CNT_ISSUE;
	else if (!strcmp(k, "xlat"))
		idx = SPE_CNT_TRANSLATION;
	else if (!parse_u64(k, &idx))
		return syntax(e, "counter: tot, iss, xlat or an index");
	return put_indexed(e, SPE_CNT_HDR, (unsigned int)(idx > 31 ? 32 : idx),
			   ext, v, 2);
}

static int enc_align(struct enc *e, const struct line *l, uint64_t offset)
{
	uint64_t bytes, fill = 0, after, next;
	unsigned int size = 0;

	if (l->n < 2 || !parse_u64(l->tok[1], &bytes))
		return syntax(e, "expected align BYTES [fill=B]");
	while (size < 16 && (1ULL << (size + 1)) != bytes)
		size++;
	if (size == 0 || size > 15)
		return syntax(e, "align: 4, 8, ... 65536 bytes");
	if (l->n == 3) {
		const char *o = opt(l->tok[2], "fill");

		if (!o || !parse_u64(o, &fill) || fill > 0xff)
			return syntax(e, "expected fill=BYTE");
	} else if (l->n > 3) {
		return syntax(e, "expected align BYTES [fill=B]");
	}
	if (put(e, (uint8_t)(SPE_ALIGN_B0 | size)) || put(e, SPE_ALIGN_B1))
		return SPE_ERR_NOSPACE;
	after = offset + 2;
	next = (after + bytes - 1) & ~(bytes - 1);
	for (; after < next; after++)
		if (put(e, (uint8_t)fill))
			return SPE_ERR_NOSPACE;
	return 0;
}

static int enc_line(struct enc *e, const struct line *l, uint64_t offset)
{
	const char *k = l->tok[0];
	uint64_t v;

	if (!strcmp(k, "pad")) {
		uint64_t n = 1;

		if (l->n > 2 || (l->n == 2 && (!parse_u64(l->tok[1], &n) ||
					       n < 1 || n > 65536)))
			return syntax(e, "expected pad [1..65536]");
		while (n--)
			if (put(e, SPE_HDR_PADDING))
				return SPE_ERR_NOSPACE;
		return 0;
	}
	if (!strcmp(k, "end"))
		return l->n == 1 ? put(e, SPE_HDR_END) : syntax(e, "end takes nothing");
	if (!strcmp(k, "ts")) {
		if (l->n != 2 || !parse_u64(l->tok[1], &v))
			return syntax(e, "expected ts VALUE");
		return put(e, SPE_HDR_TIMESTAMP) ? SPE_ERR_NOSPACE : put_le(e, v, 8);
	}
	if (!strcmp(k, "ev"))
		return enc_events(e, l);
	if (!strcmp(k, "ds"))
		return enc_sized(e, l, SPE_DATA_SOURCE_HDR, 1);
	if (!strcmp(k, "ctx"))
		return enc_context(e, l);
	if (!strcmp(k, "op"))
		return enc_op(e, l);
	if (!strcmp(k, "pc"))
		return enc_address(e, l, SPE_ADDR_PC);
	if (!strcmp(k, "tgt"))
		return enc_address(e, l, SPE_ADDR_BR_TARGET);
	if (!strcmp(k, "pbt"))
		return enc_address(e, l, SPE_ADDR_PREV_BR_TARGET);
	if (!strcmp(k, "va"))
		return enc_address(e, l, SPE_ADDR_DATA_VA);
	if (!strcmp(k, "pa"))
		return enc_address(e, l, SPE_ADDR_DATA_PA);
	if (!strcmp(k, "addr"))
		return enc_addr_raw(e, l);
	if (!strcmp(k, "lat"))
		return enc_counter(e, l);
	if (!strcmp(k, "align"))
		return enc_align(e, l, offset);
	if (!strcmp(k, "raw")) {
		if (l->n < 2)
			return syntax(e, "expected raw BYTE...");
		for (int i = 1; i < l->n; i++) {
			if (!parse_u64(l->tok[i], &v) || v > 0xff)
				return syntax(e, "raw takes bytes 0..0xff");
			if (put(e, (uint8_t)v))
				return SPE_ERR_NOSPACE;
		}
		return 0;
	}
	return syntax(e, "unknown packet keyword");
}

int spe_vec_encode_line(const char *text, size_t text_len, uint64_t offset,
			uint8_t *out, size_t cap, const char **why)
{
	struct enc e = { .out = out, .cap = cap };
	struct line l;
	int ret;

	if (!text || (!out && cap))
		return SPE_ERR_INVAL;
	if (tokenize(text, text_len, &l)) {
		if (why)
			*why = "too many or too long words";
		return SPE_VEC_ERR_SYNTAX;
	}
	if (!l.n)
		return 0;
	ret = enc_line(&e, &l, offset);
	if (ret == SPE_VEC_ERR_SYNTAX && why)
		*why = e.why;
	return ret < 0 ? ret : (int)e.n;
}

long spe_vec_encode(const char *text, size_t text_len, uint8_t *out,
		    size_t cap, unsigned int *err_line, const char **why)
{
	static const size_t scratch_size = MAX_LINE_BYTES + 64;
	uint8_t *scratch = NULL;
	size_t total = 0, pos = 0;
	unsigned int lineno = 0;

	if (!text || (!out && cap))
		return SPE_ERR_INVAL;
	while (pos < text_len) {
		const char *nl = memchr(text + pos, '\n', text_len - pos);
		size_t ll = nl ? (size_t)(nl - (text + pos)) : text_len - pos;
		uint8_t *dst;
		size_t room;
		int n;

		lineno++;
		/* Encode straight into @out while it has room for any line. */
		if (total <= cap && cap - total >= scratch_size) {
			dst = out + total;
			room = cap - total;
		} else {
			if (!scratch && !(scratch = malloc(scratch_size)))
				return SPE_ERR_NOSPACE;
			dst = scratch;
			room = scratch_size;
		}
		n = spe_vec_encode_line(text + pos, ll, total, dst, room, why);
		if (n < 0) {
			free(scratch);
			if (err_line)
				*err_line = lineno;
			return n;
		}
		if (dst == scratch && total < cap)
			memcpy(out + total, scratch,
			       cap - total < (size_t)n ? cap - total : (size_t)n);
		total += (size_t)n;
		pos += ll + 1;
	}
	free(scratch);
	return (long)total;
}

const char *spe_vec_strerror(int err)
{
	return err == SPE_VEC_ERR_SYNTAX ? "syntax error in vector text" : spe_strerror(err);
}
