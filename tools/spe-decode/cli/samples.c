// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The perf.data -> samples pipeline shared by script, report and inject. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "input.h"
#include "samples.h"

struct run_ctx {
	struct spe_samples_run *run;
	struct spe_synth synth;
};

static int emit(void *ctx, const struct spe_sample *s)
{
	struct run_ctx *c = ctx;

	c->run->nr_samples++;
	return c->run->on_sample ? c->run->on_sample(c->run->ctx, s) : 0;
}

static int on_record(void *ctx, const struct spe_qrecord *qr)
{
	struct run_ctx *c = ctx;

	return spe_synth_record(&c->synth, qr, emit, c);
}

static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	struct run_ctx *c = ctx;

	return c->run->on_event ? c->run->on_event(c->run->ctx, ev) : 0;
}

int spe_samples_parse_itrace(const char *cmd, const char *arg, struct spe_itrace *it)
{
	const char *why = "";

	if (spe_itrace_parse(arg, it, &why)) {
		fprintf(stderr, "spe-decode %s: --itrace=%s: %s\n", cmd, arg, why);
		return 2;
	}
	return 0;
}

void spe_samples_summary(const struct spe_samples_run *run)
{
	const struct spe_session_stats *st = &run->stats;

	if (st->truncated || st->partial || st->collision || st->lost_events ||
	    st->decode_errors || st->partial_records)
		fprintf(stderr,
			"spe-decode %s: %llu AUX records: %llu truncated, %llu partial, %llu collision; "
			"%llu events lost; %llu SPE records, %llu partial/corrupt records skipped, "
			"%llu decode errors\n",
			run->cmd, (unsigned long long)st->aux_records,
			(unsigned long long)st->truncated, (unsigned long long)st->partial,
			(unsigned long long)st->collision, (unsigned long long)st->lost_events,
			(unsigned long long)st->records,
			(unsigned long long)st->partial_records,
			(unsigned long long)st->decode_errors);
}

/* An error message: to stderr, or kept for the caller (run->errbuf). */
static void __attribute__((format(printf, 2, 3)))
say(struct spe_samples_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (run->errbuf)
		vsnprintf(run->errbuf, run->errlen, fmt, ap);
	else
		vfprintf(stderr, fmt, ap);
	va_end(ap);
}

int spe_samples_decode_errors(struct spe_samples_run *run)
{
	const struct spe_session_stats *st = &run->stats;
	const char *name = strcmp(run->path, "-") ? run->path : "stdin";

	if (!st->decode_errors)
		return 0;
	say(run, "spe-decode %s: %s: %llu SPE decode errors (bytes that are not SPE packets, "
	    "decoded around); first SPE decode error at file offset %#llx\n", run->cmd, name,
	    (unsigned long long)st->decode_errors,
	    (unsigned long long)st->first_decode_error_offset);
	return 1;
}

int spe_samples_execute(struct spe_samples_run *run)
{
	struct run_ctx c = { .run = run };
	struct spe_session_config cfg = {
		.on_record = on_record, .on_event = on_event, .ctx = &c,
		.queue_set = run->queue_set, .cuts = run->cuts, .nr_cuts = run->nr_cuts,
	};
	struct spe_session *s;
	struct spe_source src;
	int err, status = 0;

	if (spe_source_open(run->cmd, run->path, &src))
		return 1;
	/* Not a perf.data: the reader says so, with the offset and magic. */
	cfg.head = src.head;
	cfg.head_len = src.head_len;
	cfg.threads = run->threads ? run->threads : spe_cli_default_threads();
	cfg.idle_work = run->idle_work;
	cfg.idle_ctx = run->idle_ctx;
	spe_synth_init(&c.synth, &run->itrace);
	/* Records without samples: straight from the session, and so the
	 * events too (they share its context). */
	if (run->on_record) {
		cfg.on_record = run->on_record;
		cfg.on_event = run->on_event;
		cfg.ctx = run->ctx;
	}
	err = spe_session_open(&s, src.fd, &cfg);
	if (!err)
		err = spe_session_run(s);
	if (s) {
		run->stats = *spe_session_stats(s);
		if (run->on_record)	/* one a record, as with --itrace=i1i */
			run->nr_samples = run->stats.records;
		run->info = *spe_session_auxtrace_info(s);
		run->midr = spe_session_midr(s, 0);
	}
	if (err) {
		say(run, "spe-decode %s: %s: %s\n", run->cmd, src.name,
		    s ? spe_session_errmsg(s) : spe_strerror(err));
		status = 1;
	} else if (s && !run->info.version && run->stats.auxtrace_records) {
		say(run, "spe-decode %s: %s: AUXTRACE data without ARM SPE AUXTRACE_INFO\n",
		    run->cmd, src.name);
		run->no_spe = true;
		status = 1;
	} else if (s && !run->stats.aux_bytes) {
		/* perf would print nothing; say why there is nothing. */
		say(run, "spe-decode %s: no arm_spe AUX data in %s\n", run->cmd, src.name);
		run->no_spe = true;
		status = 1;
	}
	/* After the error that stopped the run, if any (errbuf keeps only
	 * one message: that error's). */
	if (s && !run->defer_decode_errors && (!status || !run->errbuf) &&
	    spe_samples_decode_errors(run))
		status = 1;
	if (!run->quiet)
		spe_samples_summary(run);
	spe_session_close(s);
	spe_synth_free(&c.synth);
	spe_source_close(&src);
	return status;
}
