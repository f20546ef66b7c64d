// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* spe-decode encode: golden-vector text -> raw SPE bytes. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "output_file.h"
#include "spe_decode.h"
#include "spe_vector.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode encode [-o OUT] VECTOR\n"
"\n"
"Turn a vector file (one packet per line, e.g. \"pc 0x400000 el=0 ns=1\",\n"
"\"ev retired l1d-access\", \"lat tot 12\", \"end\"; see spe-decode(1)) into\n"
"raw SPE bytes.  VECTOR may be - for stdin; it is read line by line, so\n"
"inputs of any size work.  Output goes to OUT or stdout.\n"
"\n"
"  -o OUT     write the bytes to OUT\n"
"  -h, --help this text\n");
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outpath = NULL, *inpath, *why = NULL;
	static uint8_t bytes[65536 + 64];
	FILE *in, *out = stdout;
	struct spe_out_file of = { .is_stdout = true };
	unsigned long lineno = 0;
	uint64_t offset = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int c, status = 0;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		default:
			return spe_cli_help_or_bad(c, usage);
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	inpath = argv[optind];
	in = strcmp(inpath, "-") ? fopen(inpath, "r") : stdin;
	if (!in) {
		fprintf(stderr, "spe-decode encode: %s: %s\n", inpath, strerror(errno));
		return 1;
	}
	if (outpath && (spe_out_file_open(&of, "encode", outpath, &inpath, 1, SPE_OUT_PRIVATE) ||
			(!of.is_stdout && !(out = fdopen(of.fd, "wb"))))) {
		if (!of.is_stdout)
			spe_out_file_abort(&of);
		if (in != stdin)
			fclose(in);
		return 1;
	}
	while ((n = getline(&line, &cap, in)) >= 0) {
		int k = spe_vec_encode_line(line, (size_t)n, offset, bytes,
					    sizeof(bytes), &why);

		lineno++;
		if (k < 0) {
			fprintf(stderr, "spe-decode encode: %s:%lu: %s%s%s\n",
				inpath, lineno, spe_vec_strerror(k), why ? ": " : "",
				why ? why : "");
			status = 1;
			break;
		}
		if (k && fwrite(bytes, 1, (size_t)k, out) != (size_t)k)
			break;
		offset += (uint64_t)k;
	}
	free(line);
	if (ferror(in)) {
		fprintf(stderr, "spe-decode encode: %s: read error\n", inpath);
		status = 1;
	}
	if (in != stdin)
		fclose(in);
	if (fflush(out) || ferror(out)) {
		fprintf(stderr, "spe-decode encode: %s: write error\n",
			outpath ? outpath : "stdout");
		status = 1;
	}
	if (out != stdout) {
		if (fclose(out) && !status) {
			fprintf(stderr, "spe-decode encode: %s: write error\n", outpath);
			status = 1;
		}
		of.fd = -1;
		/* A bad vector leaves no output behind, nor replaces one. */
		if (status)
			spe_out_file_abort(&of);
		else if (spe_out_file_commit(&of, "encode"))
			status = 1;
	}
	return status;
}

const struct spe_cli_command spe_cmd_encode = {
	.name = "encode",
	.summary = "turn a golden-vector text into raw SPE bytes",
	.run = run,
};
