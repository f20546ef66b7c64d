// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode dump FILE.data: for each AUXTRACE record, perf report -D's
 * header lines and one line per packet (the packet lines come from the
 * decoder's spe_dump(), offsets counted from each record's data as perf
 * does); plus the AUXTRACE_INFO and AUX records SPE decoding depends on.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "input.h"
#include "perf_dump.h"
#include "spe_session.h"

struct pdump {
	struct spe_output *out;
	struct spe_dump_config cfg;
	uint64_t bad, truncated;
	int first_error;
	uint64_t first_error_off;
	const struct spe_filter *filter;
	enum spe_desc_style style;
	uint64_t skipped_per_cpu;	/* buffers --pid/--tid cannot select */
	struct spe_session *session;	/* the CPUs' MIDRs */
};

/* Neoverse N1, any variant and revision: implementer 0x41, part 0xd0c. */
static bool midr_is_neoverse_n1(uint64_t midr)
{
	return (midr & 0xff00fff0u) == 0x4100d0c0u;
}

/* Whether the AUX buffer of this CPU / thread is wanted. */
static bool buffer_wanted(struct pdump *d, uint32_t cpu, uint32_t tid)
{
	const struct spe_filter *f = d->filter;
	bool by_thread = f && (f->nr_pids || f->nr_tids);
	bool in = !by_thread;

	if (!f)
		return true;
	if (f->cpu_set && (cpu >= SPE_FILTER_CPUS || !f->cpus[cpu]))
		return false;
	if (by_thread && tid == UINT32_MAX) {
		d->skipped_per_cpu++;
		return false;
	}
	for (int i = 0; i < f->nr_tids && !in; i++)
		in = (uint32_t)f->tids[i] == tid;
	for (int i = 0; i < f->nr_pids && !in; i++)
		in = (uint32_t)f->pids[i] == tid;	/* a process's first thread */
	return in;
}

#define DUMP_PIECE	(4u << 20)

/*
 * End of the piece of data[start..size) to dump next: the first record
 * boundary DUMP_PIECE bytes on, if every record up to it decoded cleanly;
 * otherwise (or near the end) the end of the buffer.
 */
static uint64_t dump_cut(const uint8_t *data, uint64_t size, uint64_t start, uint64_t base)
{
	struct spe_decoder dec;
	struct spe_record rec;

	if (size - start <= 2 * (uint64_t)DUMP_PIECE)
		return size;
	if (spe_decoder_init(&dec, NULL, data + start, (size_t)(size - start), base + start))
		return size;
	for (;;) {
		int ret = spe_decoder_next(&dec, &rec);
		uint64_t at = spe_decoder_offset(&dec) - base;

		if (ret <= 0 || at >= size)
			return size;
		if (at - start >= DUMP_PIECE)
			return at;
	}
}

/* Give back the mapped pages wholly inside [p, p + n). */
static void drop_pages(const uint8_t *p, uint64_t n)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)p + n) & ~(page - 1);

	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

static int on_auxtrace(void *ctx, const struct spe_perf_reader_event *ev, const uint8_t *data,
		       uint64_t size)
{
	struct pdump *d = ctx;
	const struct spe_perf_auxtrace_event *a = (const void *)ev->header;
	struct spe_dump_stats st;

	if (!buffer_wanted(d, a->cpu, a->tid))
		return 0;
	spe_output_printf(d->out,
			  "\n%#" PRIx64 " [%#x]: PERF_RECORD_AUXTRACE size: %#" PRIx64
			  "  offset: %#" PRIx64 "  ref: %#" PRIx64 "  idx: %u  tid: %d  cpu: %d\n",
			  ev->offset, ev->header->size, a->size, a->offset, a->reference,
			  a->idx, (int)a->tid, (int)a->cpu);
	/* perf prints offset 0 as "0", not "0x0". */
	spe_output_printf(d->out, ".\n. ... ARM SPE data: size %#" PRIx64 " bytes\n", size);
	/*
	 * A large buffer is dumped in pieces cut at record boundaries (where
	 * a stretch decoded without error, so perf's packet walk meets the
	 * same boundary), and each piece's pages are given back: memory stays
	 * small whatever the buffer size.
	 */
	for (uint64_t start = 0; start < size;) {
		uint64_t cut = dump_cut(data, size, start, a->offset);

		d->cfg.print_offset = start;
		/* perf 7.3 names Neoverse N1's IMPDEF event; the buffer's
		 * CPU says which core wrote it (as perf reads its MIDR). */
		d->cfg.style = d->style;
		if (midr_is_neoverse_n1(spe_session_midr(d->session, (int)a->cpu)))
			d->cfg.style |= SPE_DESC_NEOVERSE_N1;
		spe_dump(&d->cfg, data + start, (size_t)(cut - start), a->offset + start, &st);
		d->bad += st.bad;
		d->truncated += st.truncated;
		if (st.first_error && !d->first_error) {
			d->first_error = st.first_error;
			d->first_error_off = ev->aux_data_offset +
					     (st.first_error_offset - a->offset);
		}
		drop_pages(data + start, cut - start);
		start = cut;
	}
	return d->out->err ? 1 : 0;
}

static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	struct pdump *d = ctx;
	const struct perf_event_header *h = ev->header;

	if (h->type == SPE_PERF_RECORD_AUXTRACE_INFO) {
		struct spe_auxtrace_info ai;
		const char *why;

		if (spe_parse_auxtrace_info(h, &ai, &why))
			return 0;
		spe_output_printf(d->out,
				  "\n%#" PRIx64 " [%#x]: PERF_RECORD_AUXTRACE_INFO type: 4\n"
				  "  Version            %u\n  PMU Type           %u\n",
				  ev->offset, h->size, ai.version, ai.pmu_type);
		for (uint32_t i = 0; i < ai.nr_cpus; i++) {
			struct spe_perf_writer_cpu_meta m;

			if (spe_auxtrace_info_cpu(h, i, &m, &why))
				break;
			spe_output_printf(d->out,
					  "  CPU %-4" PRIu64 " MIDR %#" PRIx64 " PMU type %" PRId64
					  " min interval %" PRIu64 " event filter %#" PRIx64 "\n",
					  m.cpu, m.midr, (int64_t)m.pmu_type, m.min_interval,
					  m.event_filter);
		}
	} else if (h->type == PERF_RECORD_AUX && h->size >= 32 &&
		   (!d->filter || !d->filter->cpu_set || !ev->sid.has_cpu ||
		    (ev->sid.cpu < SPE_FILTER_CPUS && d->filter->cpus[ev->sid.cpu]))) {
		const uint64_t *p = (const uint64_t *)(h + 1);

		spe_output_printf(d->out,
				  "\n%#" PRIx64 " [%#x]: PERF_RECORD_AUX offset: %#" PRIx64
				  " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s%s]\n",
				  ev->offset, h->size, p[0], p[1], p[2],
				  (p[2] & PERF_AUX_FLAG_TRUNCATED) ? "T" : "",
				  (p[2] & PERF_AUX_FLAG_OVERWRITE) ? "O" : "",
				  (p[2] & PERF_AUX_FLAG_PARTIAL) ? "P" : "",
				  (p[2] & PERF_AUX_FLAG_COLLISION) ? "C" : "");
	}
	return d->out->err ? 1 : 0;
}

int spe_perf_dump(struct spe_source *src, enum spe_desc_style style, bool strict,
		  const struct spe_filter *filter)
{
	const char *path = src->name;
	struct pdump d = { .filter = filter };
	struct spe_session_config cfg = {
		.on_event = on_event, .on_auxtrace = on_auxtrace, .ctx = &d, .no_decode = true,
	};
	struct spe_dump_config dc = SPE_DUMP_CONFIG_INIT;
	struct spe_session *s;
	int err, status = 0;

	cfg.head = src->head;
	cfg.head_len = src->head_len;
	d.out = malloc(sizeof(*d.out));
	if (!d.out)
		return 1;
	spe_output_init(d.out, STDOUT_FILENO);
	dc.style = style;
	dc.flags = strict ? SPE_DUMP_STRICT : 0;
	dc.write = spe_output_sink;
	dc.ctx = d.out;
	d.cfg = dc;
	d.style = style;
	err = spe_session_open(&s, src->fd, &cfg);
	d.session = s;
	if (!err)
		err = spe_session_run(s);
	if (spe_output_flush(d.out, "dump"))
		status = 1;
	if (err) {
		fprintf(stderr, "spe-decode dump: %s: %s\n", path,
			s ? spe_session_errmsg(s) : spe_strerror(err));
		status = 1;
	}
	if (d.first_error) {
		fprintf(stderr,
			"spe-decode dump: %s: %" PRIu64 " bad byte(s)%s; first error at file offset %#"
			PRIx64 ": %s\n", path, d.bad, d.truncated ? ", truncated packets" : "",
			d.first_error_off, spe_strerror(d.first_error));
		status = 1;
	}
	if (d.skipped_per_cpu)
		fprintf(stderr, "spe-decode dump: --pid/--tid select the buffers of per-thread "
			"recordings; %" PRIu64 " per-CPU buffers left out (script --pid/--tid "
			"selects samples)\n", d.skipped_per_cpu);
	if (!err && s && !spe_session_stats(s)->aux_bytes) {
		fprintf(stderr, "spe-decode dump: no arm_spe AUX data in %s\n", path);
		status = 1;
	}
	spe_session_close(s);
	free(d.out);
	return status;
}
