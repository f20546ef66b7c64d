// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* spe-decode dump: one `perf report -D` line per packet of a raw SPE file. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "commands.h"
#include "common_options.h"
#include "filter.h"
#include "input.h"
#include "perf_dump.h"
#include "spe_decode.h"
#include "spe_sample_synth.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode dump [--strict] [--full | --perf-version=V] [-i] [FILE|-]\n"
"\n"
"Print every packet of FILE (raw SPE profiling-buffer bytes, or the arm_spe\n"
"AUX data of a perf.data; default perf.data, - for stdin) as one line in\n"
"the format of `perf report -D`: offset, bytes, description.  Undecodable\n"
"bytes print \"Bad packet!\" and decoding continues at the next byte; a\n"
"packet cut by the end of the file prints TRUNCATED.  Exit status 1 if the\n"
"data had errors (reported on stderr after the dump), 2 on usage errors.\n"
"\n"
"  --strict   stop at the first error\n"
"  --full     also name fields newer than perf 6.1 (PBT, GCS, call/return\n"
"             hints, MTE/memcpy/memset, SME, events 16 and 19-25)\n"
"  --perf-version=V\n"
"             the packet text of perf V's report -D: 6.1 (default), 6.12\n"
"             or 7.3 (which also names Neoverse N1's event 12 in a perf.data)\n"
"  -i FILE    the input, as perf spells it\n"
"  -C, --cpu=LIST, --pid=PID[,..], --tid=TID[,..]\n"
"             only the AUX buffers of these CPUs / threads (perf.data)\n"
"  -h, --help this text\n");
}

/* What dump's own options ask for. */
struct dump_options {
	struct spe_dump_config *cfg;
	bool full;		/* --full */
	int version;		/* --perf-version, -1: not given */
};

static int own_option(void *ctx, int c, const char *arg)
{
	struct dump_options *d = ctx;

	switch (c) {
	case 's':
		d->cfg->flags |= SPE_DUMP_STRICT;
		break;
	case 'f':
		d->full = true;
		break;
	case 'V':
		return spe_cli_perf_version("dump", arg, &d->version);
	}
	return 0;
}

static int run(int argc, char **argv)
{
	static const struct option own[] = {
		{ "strict", no_argument, NULL, 's' },
		{ "full", no_argument, NULL, 'f' },
		{ "perf-version", required_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct spe_cli_line line = {
		.cmd = SPE_CLI_DUMP, .name = "dump", .own = own,
		.own_option = own_option, .usage = usage,
	};
	struct spe_dump_config cfg = SPE_DUMP_CONFIG_INIT;
	struct dump_options d = { .cfg = &cfg, .version = -1 };
	struct spe_dump_stats st;
	struct spe_output *out;
	struct spe_source src;
	struct spe_input in;
	struct spe_cli_opts o;
	int ret;

	cfg.style = SPE_DESC_PERF;
	ret = spe_cli_parse(&line, argc, argv, &o, &d);
	if (ret != SPE_CLI_GO)
		return ret;
	if (d.full && d.version >= 0) {
		fprintf(stderr, "spe-decode dump: --full and --perf-version choose the text two "
			"ways: give one\n");
		return 2;
	}
	if (d.full)
		cfg.style = SPE_DESC_FULL;
	else if (d.version == SPE_PERF_6_12)
		cfg.style = SPE_DESC_PERF_6_12;
	else if (d.version == SPE_PERF_7_3)
		cfg.style = SPE_DESC_PERF_7_3;
	/* Packets are dumped buffer by buffer, before any sample exists. */
	if (o.filter.nr_comms || o.filter.nr_dsos || o.filter.nr_times) {
		fprintf(stderr, "spe-decode dump: --comm, --dso and --time select samples: "
			"use them with script or report\n");
		return 2;
	}
	if (spe_source_open("dump", o.path, &src))
		return 1;
	/* A perf.data (or perf's pipe format on stdin): dump its AUX data. */
	if (src.perf_data) {
		ret = spe_perf_dump(&src, cfg.style, cfg.flags & SPE_DUMP_STRICT, &o.filter);
		spe_source_close(&src);
		return ret;
	}
	if (spe_filter_active(&o.filter)) {
		fprintf(stderr, "spe-decode dump: %s: raw SPE bytes have no CPU or thread to "
			"filter by\n", src.name);
		spe_source_close(&src);
		return 2;
	}
	ret = spe_input_from_source("dump", &src, &in);
	spe_source_close(&src);
	if (ret)
		return 1;
	/* Nothing to dump is not a dump of nothing: say so, as the other
	 * commands refuse an empty file. */
	if (!in.len) {
		fprintf(stderr, "spe-decode dump: %s: empty: neither a perf.data nor SPE data\n",
			src.name);
		spe_input_close(&in);
		return 1;
	}
	out = malloc(sizeof(*out));
	if (!out) {
		fprintf(stderr, "spe-decode dump: out of memory\n");
		spe_input_close(&in);
		return 1;
	}
	spe_output_init(out, STDOUT_FILENO);
	cfg.write = spe_output_sink;
	cfg.ctx = out;
	spe_dump(&cfg, in.data, in.len, 0, &st);
	if (spe_output_flush(out, "dump"))
		ret = 1;
	if (st.first_error) {
		fprintf(stderr,
			"spe-decode dump: %s: %llu bad byte(s)%s; first error at offset 0x%llx: %s\n",
			src.name, (unsigned long long)st.bad,
			st.truncated ? ", truncated at the end" : "",
			(unsigned long long)st.first_error_offset,
			spe_strerror(st.first_error));
		ret = 1;
	}
	free(out);
	spe_input_close(&in);
	return ret;
}

const struct spe_cli_command spe_cmd_dump = {
	.name = "dump",
	.summary = "print every packet like `perf report -D`",
	.run = run,
};
