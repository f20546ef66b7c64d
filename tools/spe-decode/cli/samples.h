/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pipeline the perf.data subcommands share: open a perf.data (a path,
 * or "-" for perf's pipe format on stdin), run the decode queues, synthesise
 * perf's samples, and report what went wrong with the file offset.
 */
#ifndef SPE_DECODE_CLI_SAMPLES_H
#define SPE_DECODE_CLI_SAMPLES_H

#include "spe_session.h"
#include "spe_sample_synth.h"

struct spe_samples_run {
	const char *cmd;		/* for messages: "spe-decode <cmd>: ..." */
	const char *path;		/* "-" = stdin */
	struct spe_itrace itrace;
	/* Each synthesised sample; non-zero stops. */
	int (*on_sample)(void *ctx, const struct spe_sample *s);
	/* Or, instead of samples, each record once, as decoded (itrace
	 * unused): for counts that need no sample's fields but its
	 * spe_synth_cpumode() and spe_synth_data_src(). */
	int (*on_record)(void *ctx, const struct spe_qrecord *qr);
	/* Every perf.data record, in time order with the samples (may be NULL). */
	int (*on_event)(void *ctx, const struct spe_perf_reader_event *ev);
	void *ctx;
	bool quiet;			/* no end-of-run summary on stderr */
	unsigned threads;		/* decoding threads, 0: one per CPU it may run on */
	bool (*idle_work)(void *ctx);	/* for them when idle (spe_session_config) */
	void *idle_ctx;
	const uint64_t *queue_set;	/* the queues to decode (spe_session_config) */
	const struct spe_session_cut *cuts;	/* parts of them (spe_session_config) */
	unsigned nr_cuts;
	/* Where the error messages go when not NULL (errlen bytes), rather
	 * than to stderr: sessions side by side say each error once. */
	char *errbuf;
	size_t errlen;
	/* Decode errors are the caller's to say and fail on (a span of a
	 * split decode, whose sum is; a first pass, whose second pass says). */
	bool defer_decode_errors;
	/* Filled in by spe_samples_execute(): */
	struct spe_session_stats stats;
	struct spe_auxtrace_info info;
	uint64_t midr;			/* of CPU 0 (or the CPUID feature) */
	uint64_t nr_samples;
	bool no_spe;			/* a perf.data without arm_spe AUX data */
};

/* Returns the exit status: 0, 1 on a data error (after delivering all that
 * decoded before it) or when the file holds no arm_spe AUX data ("no
 * arm_spe AUX data in FILE", no_spe set), 2 on usage errors. */
int spe_samples_execute(struct spe_samples_run *run);
/*
 * Bytes of the AUX data that are not SPE packets are a fault of the input
 * as any other: every command decodes around them, says how many and where
 * the first one is, and exits 1 (as dump does).  Returns 1 after saying so
 * (to the run's errbuf, if any), 0 without decode errors.
 */
int spe_samples_decode_errors(struct spe_samples_run *run);
/* The end-of-run summary on stderr (lost data, skipped records, errors),
 * for a run that was quiet so as to print it itself. */
void spe_samples_summary(const struct spe_samples_run *run);

/* "--itrace=..." / "--itrace ..." parsing shared by the commands; returns
 * 0 or prints the reason and returns 2. */
int spe_samples_parse_itrace(const char *cmd, const char *arg, struct spe_itrace *it);

#endif /* SPE_DECODE_CLI_SAMPLES_H */
