// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* spe-decode records: one line (text or JSON) per sample record. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "commands.h"
#include "common_options.h"
#include "input.h"
#include "spe_decode.h"

static const char *const end_names[] = {
	[SPE_REC_END_END] = "end",
	[SPE_REC_END_TIMESTAMP] = "ts",
	[SPE_REC_END_TRUNCATED] = "truncated",
	[SPE_REC_END_ERROR] = "error",
};

static const char *const op_class_names[] = { "other", "ldst", "branch", "class3" };

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode records [--json | --count] [--strict] [-i] [FILE|-]\n"
"\n"
"Group the packets of FILE (raw SPE profiling-buffer bytes; - for stdin) into sample\n"
"records and print one line per record: its offset, size, how it ended and\n"
"every field present.  A corrupt packet is reported inline with its offset,\n"
"the part of the record before it is still printed, and decoding resumes at\n"
"the next record boundary.  Exit status 1 if the data had errors.\n"
"\n"
"  --json     one JSON object per line instead of key=value text\n"
"  --count    decode only; print the number of records, errors and bytes\n"
"  --strict   stop at the first error\n"
"  -h, --help this text\n");
}

static void text_insn(struct spe_output *o, const char *k,
		      const struct spe_insn_addr *a)
{
	spe_output_printf(o, " %s=0x%" PRIx64 ",el%u,ns=%u%s", k, a->addr,
			  a->el, a->ns, a->nse ? ",nse=1" : "");
}

static void print_text(struct spe_output *o, const struct spe_record *r)
{
	uint32_t p = r->present;

	spe_output_printf(o, "0x%08" PRIx64 " size=%u end=%s", r->offset,
			  r->size, end_names[r->end]);
	if (p & SPE_REC_PC)
		text_insn(o, "pc", &r->pc);
	if (p & SPE_REC_BR_TARGET)
		text_insn(o, "tgt", &r->br_target);
	if (p & SPE_REC_PREV_BR_TARGET)
		text_insn(o, "pbt", &r->prev_br_target);
	if (p & SPE_REC_OP_TYPE)
		spe_output_printf(o, " op=%s:0x%02x", op_class_names[r->op_class & 3],
				  r->op_subclass);
	if (p & SPE_REC_EVENTS)
		spe_output_printf(o, " ev=0x%" PRIx64, r->events);
	if (p & SPE_REC_LAT_TOTAL)
		spe_output_printf(o, " lat_tot=%u", r->lat_total);
	if (p & SPE_REC_LAT_ISSUE)
		spe_output_printf(o, " lat_iss=%u", r->lat_issue);
	if (p & SPE_REC_LAT_XLAT)
		spe_output_printf(o, " lat_xlat=%u", r->lat_xlat);
	if (p & SPE_REC_DATA_VA)
		spe_output_printf(o, " va=0x%" PRIx64 ",tag=0x%02x", r->data_va,
				  r->data_va_tag);
	if (p & SPE_REC_DATA_PA)
		spe_output_printf(o, " pa=0x%" PRIx64 ",ns=%u,ch=%u,pat=%u",
				  r->data_pa, r->data_pa_ns, r->data_pa_ch,
				  r->data_pa_pat);
	if (p & SPE_REC_DATA_SOURCE)
		spe_output_printf(o, " ds=%u", r->data_source);
	if (p & SPE_REC_CONTEXT_EL1)
		spe_output_printf(o, " ctx_el1=0x%x", r->context_el1);
	if (p & SPE_REC_CONTEXT_EL2)
		spe_output_printf(o, " ctx_el2=0x%x", r->context_el2);
	for (unsigned int i = 0; i < r->n_impdef_addr && i < SPE_REC_MAX_IMPDEF; i++)
		spe_output_printf(o, " addr%u=0x%" PRIx64, r->impdef_addr[i].index,
				  r->impdef_addr[i].value);
	for (unsigned int i = 0; i < r->n_impdef_cnt && i < SPE_REC_MAX_IMPDEF; i++)
		spe_output_printf(o, " cnt%u=%" PRIu64, r->impdef_cnt[i].index,
				  r->impdef_cnt[i].value);
	if (r->n_unknown)
		spe_output_printf(o, " unknown=%u", r->n_unknown);
	if (p & SPE_REC_TIMESTAMP)
		spe_output_printf(o, " ts=%" PRIu64, r->timestamp);
	spe_output_write(o, "\n", 1);
}

static void json_insn(struct spe_output *o, const char *k,
		      const struct spe_insn_addr *a)
{
	spe_output_printf(o, ",\"%s\":{\"addr\":\"0x%" PRIx64 "\",\"el\":%u,\"ns\":%u,\"nse\":%u}",
			  k, a->addr, a->el, a->ns, a->nse);
}

static void print_json(struct spe_output *o, const struct spe_record *r)
{
	uint32_t p = r->present;

	spe_output_printf(o, "{\"offset\":%" PRIu64 ",\"size\":%u,\"end\":\"%s\"",
			  r->offset, r->size, end_names[r->end]);
	if (p & SPE_REC_PC)
		json_insn(o, "pc", &r->pc);
	if (p & SPE_REC_BR_TARGET)
		json_insn(o, "tgt", &r->br_target);
	if (p & SPE_REC_PREV_BR_TARGET)
		json_insn(o, "pbt", &r->prev_br_target);
	if (p & SPE_REC_OP_TYPE)
		spe_output_printf(o, ",\"op\":{\"class\":\"%s\",\"subclass\":%u}",
				  op_class_names[r->op_class & 3], r->op_subclass);
	if (p & SPE_REC_EVENTS)
		spe_output_printf(o, ",\"events\":\"0x%" PRIx64 "\"", r->events);
	if (p & SPE_REC_LAT_TOTAL)
		spe_output_printf(o, ",\"lat_tot\":%u", r->lat_total);
	if (p & SPE_REC_LAT_ISSUE)
		spe_output_printf(o, ",\"lat_iss\":%u", r->lat_issue);
	if (p & SPE_REC_LAT_XLAT)
		spe_output_printf(o, ",\"lat_xlat\":%u", r->lat_xlat);
	if (p & SPE_REC_DATA_VA)
		spe_output_printf(o, ",\"va\":{\"addr\":\"0x%" PRIx64 "\",\"tag\":%u}",
				  r->data_va, r->data_va_tag);
	if (p & SPE_REC_DATA_PA)
		spe_output_printf(o, ",\"pa\":{\"addr\":\"0x%" PRIx64 "\",\"ns\":%u,\"ch\":%u,\"pat\":%u}",
				  r->data_pa, r->data_pa_ns, r->data_pa_ch,
				  r->data_pa_pat);
	if (p & SPE_REC_DATA_SOURCE)
		spe_output_printf(o, ",\"ds\":%u", r->data_source);
	if (p & SPE_REC_CONTEXT_EL1)
		spe_output_printf(o, ",\"ctx_el1\":%u", r->context_el1);
	if (p & SPE_REC_CONTEXT_EL2)
		spe_output_printf(o, ",\"ctx_el2\":%u", r->context_el2);
	if (r->n_impdef_addr || r->n_impdef_cnt) {
		spe_output_printf(o, ",\"impdef\":[");
		for (unsigned int i = 0; i < r->n_impdef_addr && i < SPE_REC_MAX_IMPDEF; i++)
			spe_output_printf(o, "%s{\"addr\":%u,\"value\":\"0x%" PRIx64 "\"}",
					  i ? "," : "", r->impdef_addr[i].index,
					  r->impdef_addr[i].value);
		for (unsigned int i = 0; i < r->n_impdef_cnt && i < SPE_REC_MAX_IMPDEF; i++)
			spe_output_printf(o, "%s{\"cnt\":%u,\"value\":%" PRIu64 "}",
					  i || r->n_impdef_addr ? "," : "",
					  r->impdef_cnt[i].index, r->impdef_cnt[i].value);
		spe_output_printf(o, "]");
	}
	if (r->n_unknown)
		spe_output_printf(o, ",\"unknown\":%u", r->n_unknown);
	if (p & SPE_REC_TIMESTAMP)
		spe_output_printf(o, ",\"ts\":%" PRIu64, r->timestamp);
	spe_output_write(o, "}\n", 2);
}

enum mode { MODE_TEXT, MODE_JSON, MODE_COUNT };

/* What records' own options ask for. */
struct records_options {
	enum mode mode;
	struct spe_decoder_config *cfg;
};

static int own_option(void *ctx, int c, const char *arg)
{
	struct records_options *ro = ctx;

	(void)arg;	/* none takes one */
	switch (c) {
	case 'j':
		ro->mode = MODE_JSON;
		break;
	case 'c':
	case 'q':
		ro->mode = MODE_COUNT;
		break;
	case 's':
		ro->cfg->flags |= SPE_DEC_STRICT;
		break;
	}
	return 0;
}

static int run(int argc, char **argv)
{
	static const struct option own[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "count", no_argument, NULL, 'c' },
		{ "strict", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct spe_cli_line line = {
		.cmd = SPE_CLI_RECORDS, .name = "records", .own = own, .own_short = "q",
		.own_option = own_option, .usage = usage,
	};
	struct spe_decoder_config cfg = SPE_DECODER_CONFIG_INIT;
	struct records_options ro = { .mode = MODE_TEXT, .cfg = &cfg };
	uint64_t nrec = 0, nerr = 0, first_off = 0;
	int first_err = 0, ret, status = 0;
	enum mode mode;
	struct spe_output *out;
	struct spe_decoder dec;
	struct spe_record rec;
	struct spe_source src;
	struct spe_input in;
	struct spe_cli_opts o;

	ret = spe_cli_parse(&line, argc, argv, &o, &ro);
	if (ret != SPE_CLI_GO)
		return ret;
	mode = ro.mode;
	if (spe_source_open("records", o.path, &src))
		return 1;
	if (src.perf_data) {
		fprintf(stderr, "spe-decode records: %s is a perf.data; records reads raw SPE "
			"bytes (for a perf.data: spe-decode script, or dump)\n", src.name);
		spe_source_close(&src);
		return 1;
	}
	ret = spe_input_from_source("records", &src, &in);
	spe_source_close(&src);
	if (ret)
		return 1;
	out = malloc(sizeof(*out));
	if (!out) {
		fprintf(stderr, "spe-decode records: out of memory\n");
		spe_input_close(&in);
		return 1;
	}
	spe_output_init(out, STDOUT_FILENO);
	spe_decoder_init(&dec, &cfg, in.data, in.len, 0);

	while ((ret = spe_decoder_next(&dec, &rec)) != 0) {
		if (ret == SPE_ERR_STOPPED)
			break;
		if (ret > 0) {
			nrec++;
		} else {
			uint64_t off = spe_decoder_error_offset(&dec);

			if (!nerr++) {
				first_err = ret;
				first_off = off;
			}
			if (mode == MODE_COUNT)
				continue;
			/* The partial record first: nothing decoded is lost. */
			if (rec.size || rec.n_packets) {
				if (mode == MODE_JSON)
					print_json(out, &rec);
				else
					print_text(out, &rec);
			}
			if (mode == MODE_JSON)
				spe_output_printf(out, "{\"error\":\"%s\",\"offset\":%" PRIu64 "}\n",
						  spe_strerror(ret), off);
			else
				spe_output_printf(out, "# error at 0x%08" PRIx64 ": %s\n",
						  off, spe_strerror(ret));
			continue;
		}
		if (mode == MODE_JSON)
			print_json(out, &rec);
		else if (mode == MODE_TEXT)
			print_text(out, &rec);
	}
	if (mode == MODE_COUNT)
		spe_output_printf(out, "records %" PRIu64 " errors %" PRIu64 " bytes %zu\n",
				  nrec, nerr, in.len);
	if (spe_output_flush(out, "records"))
		status = 1;
	if (nerr) {
		fprintf(stderr, "spe-decode records: %s: %" PRIu64 " error(s); first at offset 0x%" PRIx64 ": %s\n",
			src.name, nerr, first_off, spe_strerror(first_err));
		status = 1;
	}
	free(out);
	spe_input_close(&in);
	return status;
}

const struct spe_cli_command spe_cmd_records = {
	.name = "records",
	.summary = "print one line (or JSON object) per sample record",
	.run = run,
};
