// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target for the perf.data reader and everything behind it: the
 * bytes become a file (memfd), which goes through the decode queues, sample
 * synthesis, symbolisation (no files exist, so only the maps), the report
 * aggregation and the perf.data packet dump.  Built with
 * -fsanitize=fuzzer,address,undefined by scripts/suites/23-perfdata-fuzz.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "spe_decode.h"
#include "spe_session.h"
#include "spe_sample_synth.h"
#include "spe_symbols.h"
#include "spe_report.h"

struct fz {
	struct spe_synth synth;
	struct spe_symbols *syms;
	struct spe_report *rep;
};

static int sink(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	(void)text;
	(void)len;
	return 0;
}

static int emit(void *ctx, const struct spe_sample *s)
{
	struct fz *f = ctx;
	struct spe_sym sym;

	spe_symbols_lookup(f->syms, s->pid, s->ip, s->cpumode, &sym);
	if (s->kind == SPE_S_INSTRUCTIONS)
		spe_report_add(f->rep, s, &sym);
	return 0;
}

static int on_record(void *ctx, const struct spe_qrecord *qr)
{
	struct fz *f = ctx;

	return spe_synth_record(&f->synth, qr, emit, f);
}

static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	struct fz *f = ctx;

	spe_symbols_event(f->syms, ev);
	return 0;
}

static int on_auxtrace(void *ctx, const struct spe_perf_reader_event *ev, const uint8_t *data,
		       uint64_t size)
{
	struct spe_dump_config dc = SPE_DUMP_CONFIG_INIT;

	(void)ctx;
	(void)ev;
	dc.write = sink;
	spe_dump(&dc, data, (size_t)size, 0, NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spe_session_config cfg = {
		.on_record = on_record, .on_event = on_event, .on_auxtrace = on_auxtrace,
	};
	struct spe_itrace it;
	struct spe_session *s;
	struct fz f = { 0 };
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	spe_itrace_parse("ibfmtaMl", &it, &(const char *){ NULL });
	spe_synth_init(&f.synth, &it);
	spe_symbols_new(&f.syms, NULL, NULL, 0);
	spe_report_new(&f.rep);
	cfg.ctx = &f;
	if (!spe_session_open(&s, fd, &cfg))
		spe_session_run(s);
	spe_report_print(f.rep, s ? spe_session_stats(s) : NULL, 5, sink, NULL);
	spe_session_close(s);
	spe_report_free(f.rep);
	spe_symbols_free(f.syms);
	spe_synth_free(&f.synth);
	close(fd);
	return 0;
}
