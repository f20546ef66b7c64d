// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Tracepoint samples of a perf.data, named and formatted by libtraceevent
 * from the event formats of the file's TRACING_DATA section
 * (tracing_data.c reads it), as perf script prints them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "spe_symbols.h"
#include "tp_buffer.h"
#include "tracepoints.h"
#include "tracing_data.h"

#ifdef HAVE_LIBTRACEEVENT
#include <event-parse.h>
#include <trace-seq.h>

struct spe_tracepoints {
	struct tep_handle *tep;		/* NULL: no usable tracing data */
	struct trace_seq seq;
	int name_width;			/* of the file's tracepoint events */
	char name[256];			/* spe_tracepoints_name()'s answer */
	struct spe_symbols *syms;	/* kernel functions of %ps, or NULL */
};

/* libtraceevent's question for a kernel address a format prints as a
 * function (%ps, %pS): answered as perf answers it, from the kernel
 * symbols the SPE samples are symbolised with. */
static char *resolve_kernel(void *priv, unsigned long long *addrp, char **modp)
{
	struct spe_tracepoints *tp = priv;
	struct spe_sym sym;

	spe_symbols_lookup(tp->syms, -1, *addrp, PERF_RECORD_MISC_KERNEL, &sym);
	if (!sym.has_sym || !sym.name)
		return NULL;
	*addrp -= sym.offset;
	*modp = NULL;
	return (char *)sym.name;
}

void spe_tracepoints_set_symbols(struct spe_tracepoints *tp, struct spe_symbols *syms)
{
	if (!tp || !tp->tep)
		return;
	tp->syms = syms;
	tep_set_function_resolver(tp->tep, resolve_kernel, tp);
}

bool spe_tracepoints_available(void)
{
	return true;
}

/* The longest name of the file's tracepoint events: perf script pads
 * every event name to the longest of the file's events. */
static int names_width(struct spe_tracepoints *tp, const char *path)
{
	struct spe_perf_reader *rd = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), w = 0;

	if (fd < 0)
		return 0;
	if (!spe_perf_reader_open(&rd, fd)) {
		for (uint32_t i = 0; i < spe_perf_reader_nr_attrs(rd); i++) {
			const struct perf_event_attr *a = &spe_perf_reader_attr(rd, i)->attr;
			const char *name = a->type == PERF_TYPE_TRACEPOINT ?
				spe_tracepoints_name(tp, a->config) : NULL;

			if (name && (int)strlen(name) > w)
				w = (int)strlen(name);
		}
	}
	spe_perf_reader_close(rd);
	close(fd);
	return w;
}

int spe_tracepoints_open(struct spe_tracepoints **out, const char *path, char *err,
			 size_t errlen)
{
	struct spe_tracepoints *tp = calloc(1, sizeof(*tp));
	int ret;

	*out = tp;
	if (!tp)
		return -1;
	trace_seq_init(&tp->seq);
	ret = spe_tracing_data_read(path, &tp->tep, err, errlen);
	if (tp->tep)
		tp->name_width = names_width(tp, path);
	return ret;
}

int spe_tracepoints_name_width(const struct spe_tracepoints *tp)
{
	return tp ? tp->name_width : 0;
}

void spe_tracepoints_free(struct spe_tracepoints *tp)
{
	if (!tp)
		return;
	trace_seq_destroy(&tp->seq);
	if (tp->tep)
		tep_free(tp->tep);
	free(tp);
}

const char *spe_tracepoints_name(struct spe_tracepoints *tp, uint64_t config)
{
	struct tep_event *e;

	if (!tp || !tp->tep || config > INT32_MAX)
		return NULL;
	e = tep_find_event(tp->tep, (int)config);
	if (!e)
		return NULL;
	snprintf(tp->name, sizeof(tp->name), "%s:%s", e->system, e->name);
	return tp->name;
}

/* The fields of the event (not the common_* ones every event has), as a
 * JSON object. */
static int put_fields(struct spe_tracepoints *tp, struct tep_event *e, struct tep_record *rec,
		      char **buf, size_t *len, size_t *cap)
{
	char num[32];
	const char *sep = "{";

	for (struct tep_format_field *f = e->format.fields; f; f = f->next) {
		unsigned long long v;

		if (spe_tp_put(buf, len, cap, sep, 1) || spe_tp_put_json(buf, len, cap, f->name) ||
		    spe_tp_put(buf, len, cap, ":", 1))
			return -1;
		sep = ",";
		if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) &&
		    f->size <= 8 && !tep_read_number_field(f, rec->data, &v)) {
			int n;

			if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && f->size > 0 &&
			    (v >> (f->size * 8 - 1) & 1))
				v |= ~0ULL << (f->size * 8);	/* sign-extended */
			if (f->flags & TEP_FIELD_IS_SIGNED)
				n = snprintf(num, sizeof(num), "%lld", (long long)v);
			else
				n = snprintf(num, sizeof(num), "%llu", v);
			if (spe_tp_put(buf, len, cap, num, (size_t)n))
				return -1;
			continue;
		}
		trace_seq_reset(&tp->seq);
		tep_print_field_content(&tp->seq, rec->data, rec->size, f);
		trace_seq_terminate(&tp->seq);
		if (tp->seq.state != TRACE_SEQ__GOOD ||
		    spe_tp_put_json(buf, len, cap, tp->seq.buffer))
			return -1;
	}
	return spe_tp_put(buf, len, cap, *sep == '{' ? "{}" : "}", *sep == '{' ? 2 : 1);
}

/*
 * What is wrong with a sample's raw data for event @e, or NULL: libtraceevent
 * reads fields where the format says, and strings up to their NUL, without
 * checking either against the record (libtraceevent 1.7.1).
 */
static const char *raw_fault(struct tep_handle *tep, struct tep_event *e,
			     struct tep_record *rec)
{
	const uint8_t *d = rec->data;
	uint32_t n = (uint32_t)rec->size;

	for (int pass = 0; pass < 2; pass++) {
		for (struct tep_format_field *f = pass ? e->format.fields : e->format.common_fields;
		     f; f = f->next) {
			unsigned long long v;
			uint32_t off, len;

			if (f->offset < 0 || f->size < 0 || (uint64_t)f->offset + (uint64_t)f->size > n)
				return "a tracepoint sample whose raw data is shorter than its format";
			if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
				continue;
			v = tep_read_number(tep, d + f->offset, f->size < 4 ? f->size : 4);
			off = (uint32_t)(v & 0xffff);
			len = (uint32_t)(v >> 16 & 0xffff);
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += (uint32_t)(f->offset + f->size);
			if ((uint64_t)off + len > n)
				return "a tracepoint sample whose dynamic field runs past its raw data";
			if (strstr(f->type, "char") && !memchr(d + off, 0, n - off))
				return "a tracepoint sample whose string field has no NUL";
		}
	}
	if (n < 2 || tep_data_type(tep, rec) != e->id)
		return "a tracepoint sample whose common_type is not its event's id";
	return NULL;
}

int spe_tracepoints_format(struct spe_tracepoints *tp, uint64_t config,
			   const struct spe_tp_sample *s, bool fields, char **buf, size_t *len,
			   size_t *cap, const char **why)
{
	struct tep_record rec = { .ts = s->time, .cpu = s->cpu, .size = (int)s->raw_size,
				  .data = (void *)s->raw };
	struct tep_event *e;
	size_t start = *len;

	if (!tp || !tp->tep || config > INT32_MAX)
		return -1;
	e = tep_find_event(tp->tep, (int)config);
	if (!e)
		return -1;
	if (!s->raw) {
		*why = "a tracepoint sample without PERF_SAMPLE_RAW";
		return 1;
	}
	*why = raw_fault(tp->tep, e, &rec);
	if (*why)
		return 1;
	if (fields) {
		if (put_fields(tp, e, &rec, buf, len, cap)) {
			*len = start;
			return -1;
		}
		return 0;
	}
	/* perf script: the event's print format, as "%s" of TEP_PRINT_INFO. */
	trace_seq_reset(&tp->seq);
	tep_print_event(tp->tep, &tp->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&tp->seq);
	if (tp->seq.state != TRACE_SEQ__GOOD)
		return -1;
	return spe_tp_put(buf, len, cap, tp->seq.buffer, tp->seq.len);
}

#else /* !HAVE_LIBTRACEEVENT */

/* Without the library nothing reads the formats: the samples are only
 * recognised and counted. */
struct spe_tracepoints {
	int name_width;
};

void spe_tracepoints_set_symbols(struct spe_tracepoints *tp, struct spe_symbols *syms)
{
	(void)tp;
	(void)syms;
}

int spe_tracepoints_name_width(const struct spe_tracepoints *tp)
{
	return tp ? tp->name_width : 0;
}

bool spe_tracepoints_available(void)
{
	return false;
}

int spe_tracepoints_open(struct spe_tracepoints **out, const char *path, char *err,
			 size_t errlen)
{
	(void)path;
	(void)err;
	(void)errlen;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -1;
}

void spe_tracepoints_free(struct spe_tracepoints *tp)
{
	free(tp);
}

const char *spe_tracepoints_name(struct spe_tracepoints *tp, uint64_t config)
{
	(void)tp;
	(void)config;
	return NULL;
}

int spe_tracepoints_format(struct spe_tracepoints *tp, uint64_t config,
			   const struct spe_tp_sample *s, bool fields, char **buf, size_t *len,
			   size_t *cap, const char **why)
{
	(void)why;
	(void)tp;
	(void)config;
	(void)s;
	(void)fields;
	(void)buf;
	(void)len;
	(void)cap;
	return -1;
}

#endif /* HAVE_LIBTRACEEVENT */
