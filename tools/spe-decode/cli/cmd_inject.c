// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode inject -o out.data in.data: a perf.data holding the samples
 * synthesised from the SPE data as ordinary PERF_RECORD_SAMPLE events, one
 * attribute per sample group (named like perf's), plus the COMM, MMAP,
 * MMAP2, FORK and EXIT records of the input, so that perf report, perf
 * script and perf mem report read it without any SPE support.
 *
 * Weights are PERF_SAMPLE_WEIGHT_STRUCT: total latency in var1 (perf's
 * "weight"), issue latency in var2 (perf's "ins_lat") and translation
 * latency in var3 (perf's "p_stage_cyc").
 *
 * Without --itrace only the "memory" group is written, one sample per load
 * or store.  perf c2c report counts every sample of the file, whatever its
 * event (builtin-c2c.c process_sample_event has no event filter), while on
 * the SPE recording it synthesises the memory group alone (its
 * itrace_synth_opts: mem only).  A file of several groups, as
 * perf inject --itrace writes, has it count each load once per group that
 * holds it, and branch samples (data source 0) as "Unable to parse data
 * source".  --itrace chooses perf's groups for perf report and perf script.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "commands.h"
#include "common_options.h"
#include "filter.h"
#include "kernel_symbols.h"
#include "output_file.h"
#include "perf_dir.h"
#include "samples.h"

#define INJ_ID_BASE	1000	/* sample group k has id INJ_ID_BASE + k */
#define INJ_TRACK_ID	999	/* the tracking (dummy) attribute */
#define INJ_ROUND	4096	/* FINISHED_ROUND after this many samples */

struct inject {
	struct spe_perf_writer *w;
	struct spe_itrace it;
	struct spe_filter filter;
	bool filtering;			/* any filter given */
	/* Only for --comm and --dso: the threads' names and the code's dso. */
	struct spe_symbols *syms;
	uint64_t since_round, written;
	int err;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode inject -o OUT.data|- [--itrace=OPTS] [--branch-miss]\n"
"                         [--perf-version=6.1|6.12|7.3] [filters] [-i] [IN.data|-]\n"
"Write the samples synthesised from the SPE data of IN as ordinary samples\n"
"(with the tracking records they need) that stock perf report / script /\n"
"mem report read.  --itrace, --branch-miss and --perf-version as for\n"
"'script'; without --itrace only the memory group (M) is written, the\n"
"samples perf c2c report counts on the recording itself.  The filters choose\n"
"the samples written; the tracking records are all kept.\n"
SPE_CLI_FILTER_HELP);
}

static int on_sample(void *ctx, const struct spe_sample *s)
{
	struct inject *in = ctx;
	struct spe_perf_writer_branch_entry br[2];
	struct spe_perf_writer_sample ps = {
		.misc = s->cpumode, .id = INJ_ID_BASE + s->kind, .ip = s->ip,
		.pid = (uint32_t)s->pid, .tid = (uint32_t)s->tid, .time = s->time,
		.addr = s->addr, .cpu = (uint32_t)(s->cpu < 0 ? 0 : s->cpu), .period = s->period,
		.weight_var1 = s->weight, .weight_var2 = s->issue_lat,
		.weight_var3 = s->xlat_lat, .data_src = s->data_src,
		.phys_addr = s->phys_addr,
	};

	if (in->filtering && (!spe_filter_sample(&in->filter, s) ||
			      !spe_filter_names_of(&in->filter, in->syms, s, NULL)))
		return 0;
	if (in->it.last_branch) {
		for (uint32_t i = 0; i < s->nr_branches; i++) {
			br[i].from = s->branches[i].from;
			br[i].to = s->branches[i].to;
			/* perf_branch_entry: bit 0 mispred, bit 1 predicted */
			br[i].flags = s->branches[i].mispred ? 1 : 2;
		}
		ps.nr_branches = s->nr_branches;
		ps.branches = br;
	}
	in->err = spe_perf_writer_sample(in->w, &ps);
	in->written++;
	if (!in->err && ++in->since_round >= INJ_ROUND) {
		in->since_round = 0;
		in->err = spe_perf_writer_finished_round(in->w);
	}
	return in->err ? 1 : 0;
}

/* Tracking records are rewritten with the sample_id of the new file. */
static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	struct inject *in = ctx;
	const struct perf_event_header *h = ev->header;
	const unsigned char *p = (const unsigned char *)(h + 1);
	size_t body = h->size - sizeof(*h);
	struct spe_perf_writer_sample_id sid = {
		.pid = ev->sid.pid, .tid = ev->sid.tid, .time = ev->sid.time,
		.id = INJ_TRACK_ID, .cpu = ev->sid.cpu,
	};
	uint32_t u[4];
	uint64_t q[3];

	if (in->syms)
		spe_symbols_event(in->syms, ev);
	switch (h->type) {
	case PERF_RECORD_COMM:
		if (body < 9 || !memchr(p + 8, 0, body - 8))
			return 0;
		memcpy(u, p, 8);
		in->err = spe_perf_writer_comm(in->w, u[0], u[1], (const char *)p + 8,
					       h->misc & PERF_RECORD_MISC_COMM_EXEC, &sid);
		break;
	case PERF_RECORD_MMAP2:
		if (body < 65 || !memchr(p + 64, 0, body - 64))
			return 0;
		memcpy(u, p, 8);
		memcpy(q, p + 8, 24);
		in->err = spe_perf_writer_mmap2(in->w, h->misc, u[0], u[1], q[0], q[1], q[2],
						(const char *)p + 64, &sid);
		break;
	case PERF_RECORD_MMAP:
		if (body < 33 || !memchr(p + 32, 0, body - 32))
			return 0;
		memcpy(u, p, 8);
		memcpy(q, p + 8, 24);
		in->err = spe_perf_writer_mmap2(in->w, h->misc, u[0], u[1], q[0], q[1], q[2],
						(const char *)p + 32, &sid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (body < 24)
			return 0;
		memcpy(u, p, 16);
		memcpy(q, p + 16, 8);
		in->err = spe_perf_writer_task(in->w, h->type, u[0], u[1], u[2], u[3], q[0], &sid);
		break;
	default:
		return 0;
	}
	return in->err ? 1 : 0;
}

static int add_attrs(struct inject *in, bool per_cpu)
{
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		      PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
		      PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT_STRUCT |
		      PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR;
	struct perf_event_attr track = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1, .sample_id_all = 1, .comm = 1, .mmap = 1,
		.mmap2 = 1, .task = 1, .comm_exec = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
	};
	uint64_t id = INJ_TRACK_ID;
	int err;

	(void)per_cpu;
	for (int k = 0; k < SPE_S_NR; k++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_HARDWARE,
			.config = k == SPE_S_INSTRUCTIONS ? PERF_COUNT_HW_INSTRUCTIONS : 0,
			.sample_period = k == SPE_S_INSTRUCTIONS ? in->it.period : 1,
			.sample_type = st, .sample_id_all = 1,
		};

		if (!in->it.want[k])
			continue;
		if (in->it.last_branch) {
			a.sample_type |= PERF_SAMPLE_BRANCH_STACK;
			a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		}
		id = INJ_ID_BASE + (uint64_t)k;
		err = spe_perf_writer_add_attr(in->w, &a,
					       spe_sample_name(&in->it,
						       (enum spe_sample_kind)k), &id, 1);
		if (err)
			return err;
	}
	id = INJ_TRACK_ID;
	return spe_perf_writer_add_attr(in->w, &track, "dummy:u", &id, 1);
}

/*
 * The input's feature sections (machine description, topology, build ids,
 * command line ...) go through unchanged, so that perf c2c, perf mem and
 * perf report find in the output what they found in the input.  Features
 * that describe the input's own layout are the writer's to fill in.  A
 * stream cannot be read twice: from stdin only the defaults are written.
 */
static int copy_features(const char *path, struct spe_perf_writer *w)
{
	struct spe_perf_reader *r;
	int fd, err;

	char *data = NULL;
	struct stat st;

	if (!strcmp(path, "-"))
		return 0;
	/* perf record --threads' directory: the features are in DIR/data. */
	if (spe_perf_dir_is(path) && asprintf(&data, "%s/data", path) >= 0)
		path = data;
	/* A FIFO is read once, by the decode: its features are not copied. */
	fd = stat(path, &st) || !S_ISREG(st.st_mode) ? -1 : open(path, O_RDONLY);
	free(data);
	if (fd < 0)
		return 0;	/* the decode reports it */
	err = spe_perf_reader_open(&r, fd);
	if (!err)
		err = spe_perf_writer_copy_features(w, r, 0);
	else
		err = 0;	/* an unreadable header is the decode's to report */
	spe_perf_reader_close(r);
	close(fd);
	return err;
}

/* What inject's own options ask for. */
struct inject_options {
	struct spe_itrace *it;
	bool branch_miss;	/* --branch-miss */
	int perf_version;	/* --perf-version, -1: not given */
};

static int own_option(void *ctx, int c, const char *arg)
{
	struct inject_options *io = ctx;

	switch (c) {
	case 'I':
		return spe_samples_parse_itrace("inject", arg, io->it) ? 2 : 0;
	case 'B':
		io->branch_miss = true;
		break;
	case 'P':
		return spe_cli_perf_version("inject", arg, &io->perf_version);
	}
	return 0;
}

static int run(int argc, char **argv)
{
	static const struct option own[] = {
		{ "itrace", required_argument, NULL, 'I' },
		{ "branch-miss", no_argument, NULL, 'B' },
		{ "perf-version", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct spe_cli_line line = {
		.cmd = SPE_CLI_INJECT, .name = "inject", .own = own, .own_option = own_option,
		.usage = usage, .no_output = "missing -o OUT.data (- for stdout)",
	};
	struct inject in = { 0 };
	struct inject_options io = { .it = &in.it, .perf_version = -1 };
	struct spe_samples_run r = { .cmd = "inject", .on_sample = on_sample,
				     .on_event = on_event, .ctx = &in };
	struct spe_perf_writer_info info = { .hostname = "spe-decode", .arch = "aarch64",
				     .perf_version = "spe-decode inject" };
	struct spe_cli_opts o;
	const char *out, *path;
	struct spe_out_file of;
	struct spe_sym_config symcfg = { 0 };
	char why[256] = "";
	int c, k, status, err;

	/* perf c2c report's and perf mem report -D's choice: memory only. */
	memset(&in.it, 0, sizeof(in.it));
	in.it.period = 1;
	in.it.want[SPE_S_MEMORY] = true;
	status = spe_cli_parse(&line, argc, argv, &o, &io);
	if (status != SPE_CLI_GO)
		return status;
	out = o.output;
	path = o.path;
	in.filter = o.filter;
	in.it.branch_miss = io.branch_miss;
	if (io.perf_version >= 0)
		spe_itrace_for_perf(&in.it, (enum spe_perf_version)io.perf_version,
				    false, !io.branch_miss);
	/* Before the output is created: a filter that cannot apply leaves
	 * nothing behind. */
	if (spe_filter_prepare(&in.filter, "inject", path, &in.it))
		return 1;
	in.filtering = spe_filter_active(&in.filter);
	/* Names need no symbol tables: the recording's maps and comms. */
	if (spe_filter_needs_names(&in.filter) &&
	    spe_cli_symbols_new(&in.syms, &symcfg, "inject", path, why, sizeof(why))) {
		fprintf(stderr, "spe-decode inject: %s\n", why[0] ? why : "out of memory");
		return 1;
	}
	if (spe_out_file_open(&of, "inject", out, &path, 1, SPE_OUT_PRIVATE)) {
		spe_symbols_free(in.syms);
		return 1;
	}
	err = spe_out_file_is_stream(&of) ? spe_perf_writer_create_pipe(&in.w, of.fd, &info) :
			     spe_perf_writer_create(&in.w, of.fd, &info);
	if (!err)
		err = copy_features(path, in.w);
	if (!err)
		err = add_attrs(&in, true);
	if (err) {
		fprintf(stderr, "spe-decode inject: %s: %s\n", out,
			spe_perf_writer_errmsg(in.w) ? spe_perf_writer_errmsg(in.w) : spe_strerror(err));
		spe_perf_writer_free(in.w);
		spe_symbols_free(in.syms);
		spe_out_file_abort(&of);
		return 1;
	}
	r.path = path;
	r.itrace = in.it;
	status = spe_samples_execute(&r);
	/* Even after a data error, what was synthesised is kept. */
	err = in.err ? in.err : spe_perf_writer_finished_round(in.w);
	if (!err)
		err = spe_perf_writer_finish(in.w);
	if (err) {
		fprintf(stderr, "spe-decode inject: writing %s: %s\n", out,
			spe_perf_writer_errmsg(in.w) ? spe_perf_writer_errmsg(in.w) : spe_strerror(err));
		status = 1;
	}
	spe_perf_writer_free(in.w);
	spe_symbols_free(in.syms);
	/*
	 * No SPE data, or nothing written: the output is not created (and an
	 * existing file of that name is left alone).  After a data error
	 * part-way, the samples before it are kept.
	 */
	if (err || (status && !r.nr_samples) || r.no_spe) {
		spe_out_file_abort(&of);
		return 1;
	}
	if (spe_out_file_commit(&of, "inject"))
		return 1;
	if (!of.is_stdout)
		fprintf(stderr, "spe-decode inject: %" PRIu64 " samples written to %s\n",
			in.written, out);
	for (k = 0, c = 0; k < SPE_S_NR; k++)
		c += in.it.want[k];
	if (c > 1)
		fprintf(stderr, "spe-decode inject: %d sample groups: perf c2c report counts a "
			"record once per group that holds it (--itrace=M for perf c2c)\n", c);
	return status ? 1 : 0;
}
const struct spe_cli_command spe_cmd_inject = {
	.name = "inject",
	.summary = "write the SPE samples as a perf.data stock perf reads",
	.run = run,
};
