// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target for the analysis views: the bytes become a perf.data
 * file (memfd) whose records, as the views' instructions samples (every
 * record once), feed two cost tables (every key with a raw-key cache, and
 * pid,comm without), the c2c scan, the HTML report and the pprof profile;
 * a second pass over the file feeds the c2c detail and the report's own
 * c2c, as the commands do.  Then every table is printed, the page written
 * and the profile written and read back.
 *
 * Beyond the sanitizers, it checks what must hold whatever the input:
 * each table counts every sample it was given, the second pass sees as
 * many samples as the first, the page is whole (it ends with </html>),
 * and the profile unpacks (protobuf-c) to as many samples as were added.  Built with -fsanitize=fuzzer,address,undefined by
 * scripts/suites/23-perfdata-fuzz.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "profile.pb-c.h"

#include "spe_decode.h"
#include "spe_session.h"
#include "spe_sample_synth.h"
#include "spe_symbols.h"
#include "spe_views.h"
#include "pprof_profile.h"

/* Sort keys of the two tables: every key but srcline (it reads DWARF from
 * files, and the fuzzer has none), and the two that go without the
 * raw-key cache. */
#define KEYS_CACHED	"sym,dso,symbol_daddr,data_src,op,cpu"
#define KEYS_UNCACHED	"pid,comm"

struct fz {
	struct spe_synth synth;
	struct spe_symbols *syms;
	struct spe_cost_table *cached, *uncached;
	struct spe_c2c *c2c;
	struct spe_html *html;
	struct spe_pprof *pprof;
	int pass;			/* 1 or 2 */
	uint64_t added, pass_samples[2];
};

/* Counts the text: a page that is cut short would end elsewhere. */
struct text {
	size_t len;
	char tail[8];
};

static int sink(void *ctx, const char *text, size_t len)
{
	struct text *t = ctx;

	if (!t)
		return 0;
	t->len += len;
	if (len >= sizeof(t->tail)) {
		memcpy(t->tail, text + len - sizeof(t->tail), sizeof(t->tail));
	} else {
		memmove(t->tail, t->tail + len, sizeof(t->tail) - len);
		memcpy(t->tail + sizeof(t->tail) - len, text, len);
	}
	return 0;
}

static int emit(void *ctx, const struct spe_sample *s)
{
	struct fz *f = ctx;
	struct spe_sym sym, dsym;
	struct spe_view_sample vs = { .s = s, .sym = &sym };

	if (s->kind != SPE_S_INSTRUCTIONS)
		return 0;
	f->pass_samples[f->pass - 1]++;
	spe_symbols_lookup(f->syms, s->pid, s->ip, s->cpumode, &sym);
	if (s->addr) {
		spe_symbols_lookup(f->syms, s->pid, s->addr, s->cpumode, &dsym);
		vs.dsym = &dsym;
	}
	vs.comm = spe_symbols_comm(f->syms, s->tid);
	if (f->pass == 2) {
		if (spe_c2c_wants(f->c2c, s))
			spe_c2c_detail(f->c2c, &vs);
		if (spe_c2c_wants(spe_html_c2c(f->html), s))
			spe_c2c_detail(spe_html_c2c(f->html), &vs);
		return 0;
	}
	/* Inputs are small: memory never runs out, every add succeeds. */
	if (spe_cost_add(f->cached, &vs) || spe_cost_add(f->uncached, &vs))
		abort();
	f->added++;
	spe_c2c_scan(f->c2c, &vs);
	spe_html_add(f->html, &vs);
	if (spe_pprof_add(f->pprof, &vs, f->syms, NULL))
		abort();
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
	if (f->pass == 1)
		spe_html_event(f->html, ev);
	return 0;
}

/* One pass over the file, with its own symbols and synthesis state as
 * the commands' passes have; the session's stats after it. */
static void run_pass(struct fz *f, int fd, struct spe_session_stats *stats)
{
	struct spe_session_config cfg = {
		.on_record = on_record, .on_event = on_event, .ctx = f,
	};
	struct spe_itrace it;
	struct spe_session *s = NULL;

	if (spe_itrace_parse("i1i", &it, &(const char *){ NULL }) ||
	    spe_synth_init(&f->synth, &it) || spe_symbols_new(&f->syms, NULL, NULL, 0))
		abort();
	/* A session that failed to open still holds its error message. */
	if (lseek(fd, 0, SEEK_SET) == 0 && !spe_session_open(&s, fd, &cfg)) {
		spe_session_run(s);
		if (stats)
			*stats = *spe_session_stats(s);
	}
	spe_session_close(s);
	spe_symbols_free(f->syms);
	f->syms = NULL;
	spe_synth_free(&f->synth);
}

/* The samples of the profile gzipped in fd: the sum of its "samples"
 * values (the first sample type).  Aborts when it does not unpack.  The
 * buffer is far larger than the profile of a 16 KB input can be. */
static uint64_t profile_samples(int fd)
{
	static uint8_t buf[1 << 22];
	Perftools__Profiles__Profile *prof;
	uint64_t n = 0;
	gzFile gz;
	int len;

	if (lseek(fd, 0, SEEK_SET) || !(gz = gzdopen(dup(fd), "rb")))
		abort();
	len = gzread(gz, buf, sizeof(buf));
	gzclose(gz);
	if (len < 0 || len == (int)sizeof(buf))
		abort();
	prof = perftools__profiles__profile__unpack(NULL, (size_t)len, buf);
	if (!prof || prof->n_sample_type < 1)
		abort();
	for (size_t i = 0; i < prof->n_sample; i++) {
		if (prof->sample[i]->n_value != prof->n_sample_type)
			abort();
		n += (uint64_t)prof->sample[i]->value[0];
	}
	perftools__profiles__profile__free_unpacked(prof, NULL);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spe_session_stats stats = { 0 };
	struct spe_cost_totals tot;
	struct fz f = { 0 };
	struct text page = { 0 };
	struct spe_html_meta meta = { .path = "fuzz.data", .stats = &stats };
	char why[128];
	int fd = memfd_create("fuzz", 0), pfd = memfd_create("profile", 0);

	if (fd < 0 || pfd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size ||
	    spe_cost_new(&f.cached, KEYS_CACHED, why, sizeof(why)) ||
	    spe_cost_new(&f.uncached, KEYS_UNCACHED, why, sizeof(why)) ||
	    /* c2c by physical or (odd sizes) virtual line */
	    spe_c2c_new(&f.c2c, size & 1) || spe_html_new(&f.html, false) ||
	    spe_pprof_new(&f.pprof))
		abort();

	f.pass = 1;
	run_pass(&f, fd, &stats);
	spe_cost_totals(f.cached, &tot);
	if (tot.samples != f.added)
		abort();
	spe_cost_totals(f.uncached, &tot);
	if (tot.samples != f.added)
		abort();
	if (spe_c2c_select(f.c2c) || spe_html_select(f.html, 0))
		abort();
	f.pass = 2;
	run_pass(&f, fd, NULL);
	/* The second pass reads the same file: the same samples. */
	if (f.pass_samples[1] != f.pass_samples[0])
		abort();

	spe_cost_print(f.cached, SPE_COL_LAT, 0.0, 0, sink, NULL);
	spe_cost_print(f.uncached, SPE_COL_P99, 1.0, 3, sink, NULL);
	spe_c2c_print(f.c2c, SPE_C2C_COST, 0, sink, NULL);
	if (spe_html_write(f.html, &meta, sink, &page) ||
	    memcmp(page.tail + sizeof(page.tail) - 8, "</html>\n", 8))
		abort();
	if (spe_pprof_write(f.pprof, "fuzz.data", pfd) || profile_samples(pfd) != f.added)
		abort();

	spe_pprof_free(f.pprof);
	spe_html_free(f.html);
	spe_c2c_free(f.c2c);
	spe_cost_free(f.cached);
	spe_cost_free(f.uncached);
	close(pfd);
	close(fd);
	return 0;
}
