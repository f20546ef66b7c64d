// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cli/tracing_data.c and cli/tracepoints.c: a TRACING_DATA section (perf's
 * tracing data layout, see tracing_data.c) is read into event formats
 * that name and format samples as perf script does; a section cut
 * anywhere, or with a list line libtraceevent would misread, is refused
 * with a message that names the section; a sample's raw data that does
 * not fit its format is refused; the PERF_SAMPLE_* walk
 * (cli/tracepoint_sample.c) finds RAW behind every field before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/tracepoints.h"
#include "spe_perf_data.h"
#include "tap.h"
#include "support/temp_file.h"

#define EVENT_ID	42

static const char format_text[] =
	"name: test_event\n"
	"ID: 42\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] msg;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"value=%d msg=%s\", REC->value, __get_str(msg)\n";

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char printk_ok[] = "0xffffffff81000000 : \"hello %d\\n\"\n";

struct blob {
	unsigned char b[8192];
	size_t n;
};

static void put(struct blob *x, const void *p, size_t n)
{
	memcpy(x->b + x->n, p, n);
	x->n += n;
}

static void put32(struct blob *x, uint32_t v)
{
	put(x, &v, 4);
}

static void put64(struct blob *x, uint64_t v)
{
	put(x, &v, 8);
}

/* A little-endian version 0.6 section with one event, system "sched". */
static void make_section(struct blob *x, const char *printk)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	static const char header_event[] = "# compressed entry header\n";
	unsigned char endian_long[2] = { 0, 8 };

	x->n = 0;
	put(x, magic, sizeof(magic));
	put(x, "0.6", 4);
	put(x, endian_long, 2);
	put32(x, 4096);
	put(x, "header_page", 12);
	put64(x, sizeof(header_page) - 1);
	put(x, header_page, sizeof(header_page) - 1);
	put(x, "header_event", 13);
	put64(x, sizeof(header_event) - 1);
	put(x, header_event, sizeof(header_event) - 1);
	put32(x, 0);				/* ftrace formats */
	put32(x, 1);				/* systems */
	put(x, "sched", 6);
	put32(x, 1);
	put64(x, sizeof(format_text) - 1);
	put(x, format_text, sizeof(format_text) - 1);
	put32(x, 0);				/* kallsyms */
	put32(x, (uint32_t)strlen(printk));
	put(x, printk, strlen(printk));
	put64(x, 0);				/* saved cmdlines */
}

/* A perf.data with a tracepoint attribute and @len bytes of @sec as its
 * TRACING_DATA; its path through /proc/self/fd. */
static int make_file(const unsigned char *sec, size_t len, char *path, size_t pathlen)
{
	struct perf_event_attr a = { .type = PERF_TYPE_TRACEPOINT, .config = EVENT_ID,
				     .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME,
				     .sample_period = 1, .sample_id_all = 1 };
	struct spe_perf_writer_info info = { .arch = "aarch64" };
	struct spe_perf_writer *w;
	uint64_t id = 7;
	int fd = test_temp_fd();

	if (spe_perf_writer_create(&w, fd, &info) ||
	    spe_perf_writer_copy_feature(w, SPE_HEADER_TRACING_DATA, sec, len) ||
	    spe_perf_writer_add_attr(w, &a, "sched:test_event", &id, 1) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w)) {
		fprintf(stderr, "writer: %s\n", spe_perf_writer_errmsg(w));
		abort();
	}
	spe_perf_writer_free(w);
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

/* The raw data of a test_event: value, then msg at offset 16. */
static size_t make_raw(unsigned char *raw, uint16_t type, int32_t value, const char *msg,
		       uint16_t msg_len)
{
	uint32_t loc = 16u | (uint32_t)msg_len << 16;

	memset(raw, 0, 64);
	memcpy(raw, &type, 2);
	memcpy(raw + 8, &value, 4);
	memcpy(raw + 12, &loc, 4);
	memcpy(raw + 16, msg, strlen(msg) + 1);
	return 16 + strlen(msg) + 1;
}

static void test_format(void)
{
	struct spe_tracepoints *tp;
	struct blob x;
	char path[64], err[512] = "", *buf = NULL;
	size_t len = 0, cap = 0;
	unsigned char raw[64];
	struct spe_tp_sample s = { .time = 1, .pid = 1, .tid = 1, .cpu = 0, .raw = raw };
	const char *why = NULL;
	int fd;

	make_section(&x, printk_ok);
	fd = make_file(x.b, x.n, path, sizeof(path));
	CHECK(!spe_tracepoints_open(&tp, path, err, sizeof(err)) && tp,
	      "a well-formed section opens");
	CHECK(spe_tracepoints_name(tp, EVENT_ID) &&
	      !strcmp(spe_tracepoints_name(tp, EVENT_ID), "sched:test_event"),
	      "the event is named system:name");
	CHECK(!spe_tracepoints_name(tp, EVENT_ID + 1), "an id the section lacks has no name");
	CHECK_EQ(spe_tracepoints_name_width(tp), strlen("sched:test_event"),
		 "the name width is that of the file's tracepoint event");

	s.raw_size = (uint32_t)make_raw(raw, EVENT_ID, -5, "hello", 6);
	CHECK(!spe_tracepoints_format(tp, EVENT_ID, &s, false, &buf, &len, &cap, &why) &&
	      buf && !strcmp(buf, "value=-5 msg=hello"), "the print format applied to the fields");
	len = 0;
	CHECK(!spe_tracepoints_format(tp, EVENT_ID, &s, true, &buf, &len, &cap, &why) &&
	      !strcmp(buf, "{\"value\":-5,\"msg\":\"hello\"}"),
	      "the fields as JSON: a signed number, a string");

	len = 0;
	s.raw_size = (uint32_t)make_raw(raw, EVENT_ID, 1, "hello", 40);
	CHECK(spe_tracepoints_format(tp, EVENT_ID, &s, false, &buf, &len, &cap, &why) == 1 &&
	      why && strstr(why, "dynamic field") && !len,
	      "a dynamic field past the raw data is refused, nothing appended");
	s.raw_size = (uint32_t)make_raw(raw, EVENT_ID, 1, "hello", 6);
	raw[21] = 'x';				/* the NUL of "hello" */
	CHECK(spe_tracepoints_format(tp, EVENT_ID, &s, false, &buf, &len, &cap, &why) == 1 &&
	      why && strstr(why, "NUL"), "a string without its NUL is refused");
	s.raw_size = (uint32_t)make_raw(raw, EVENT_ID + 1, 1, "hello", 6);
	CHECK(spe_tracepoints_format(tp, EVENT_ID, &s, false, &buf, &len, &cap, &why) == 1 &&
	      why && strstr(why, "common_type"), "another event's common_type is refused");
	s.raw_size = 10;
	CHECK(spe_tracepoints_format(tp, EVENT_ID, &s, false, &buf, &len, &cap, &why) == 1 &&
	      why && strstr(why, "shorter than its format"), "raw data shorter than the format");
	CHECK(spe_tracepoints_format(tp, EVENT_ID + 1, &s, false, &buf, &len, &cap, &why) == -1,
	      "an event the section lacks is not formatted");
	free(buf);
	spe_tracepoints_free(tp);
	close(fd);
}

/* Every cut of the section is refused and named; no cut crashes. */
static void test_cuts(void)
{
	struct blob x;
	char path[64], err[512];
	size_t bad = 0, first_bad = 0;

	make_section(&x, printk_ok);
	for (size_t n = 1; n < x.n; n++) {	/* 0: no section, nothing to refuse */
		struct spe_tracepoints *tp;
		int fd = make_file(x.b, n, path, sizeof(path));
		bool ok;

		err[0] = 0;
		ok = spe_tracepoints_open(&tp, path, err, sizeof(err)) == -1 && tp &&
		     !strncmp(err, "TRACING_DATA section (file offset 0x", 36) &&
		     !spe_tracepoints_name(tp, EVENT_ID);
		if (!ok && !bad++)
			first_bad = n;
		spe_tracepoints_free(tp);
		close(fd);
	}
	CHECK(!bad, "a section cut at any of its bytes is refused, naming TRACING_DATA");
	if (bad)
		printf("#   %zu cuts not refused, the first at %zu of %zu bytes\n", bad, first_bad,
		       x.n);
}

static void test_bad_lists(void)
{
	static const char *const bad[] = {
		"0xffffffff81000000 \"no colon\"\n",
		"0xffffffff81000000 : \"unterminated\n",
		"ffffffff81000000 : \"no 0x\"\n",
	};
	struct spe_tracepoints *tp;
	struct blob x;
	char path[64], err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int fd;

		make_section(&x, bad[i]);
		fd = make_file(x.b, x.n, path, sizeof(path));
		err[0] = 0;
		CHECK(spe_tracepoints_open(&tp, path, err, sizeof(err)) == -1 &&
		      strstr(err, "the printk formats: line 1 is not"),
		      "a printk format line libtraceevent would misread is refused");
		spe_tracepoints_free(tp);
		close(fd);
	}
}

/* A PERF_RECORD_SAMPLE of sample type @t: every field before RAW, then
 * RAW of @raw_size bytes; @cut bytes short of whole. */
static void test_parse_sample(void)
{
	uint64_t rec[32] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	struct spe_perf_reader_attr a = { .attr = { .type = PERF_TYPE_TRACEPOINT } };
	struct spe_perf_reader_event ev = { .header = h, .attr = &a };
	struct spe_tp_sample s;
	const char *why = NULL;
	uint32_t raw_size = 12, pid_tid[2] = { 10, 11 }, cpu[2] = { 3, 0 };
	size_t n = 1;

	a.attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			     PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			     PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	rec[n++] = 7;				/* identifier */
	rec[n++] = 0x1234;			/* ip */
	memcpy(&rec[n++], pid_tid, 8);
	rec[n++] = 555;				/* time */
	n += 3;					/* addr, id, stream_id */
	memcpy(&rec[n++], cpu, 8);
	rec[n++] = 1;				/* period */
	rec[n++] = 2;				/* callchain: two ips */
	n += 2;
	memcpy(&rec[n], &raw_size, 4);
	memcpy((char *)&rec[n] + 4, "0123456789AB", 12);
	h->type = PERF_RECORD_SAMPLE;
	h->size = (uint16_t)(n * 8 + 16);
	CHECK(spe_tp_is_sample(&ev), "a sample of a tracepoint attribute is one");
	CHECK(!spe_tp_parse_sample(&ev, &s, &why) && s.pid == 10 && s.tid == 11 &&
	      s.time == 555 && s.cpu == 3 && s.raw_size == 12 &&
	      !memcmp(s.raw, "0123456789AB", 12),
	      "RAW found behind every field before it, callchain included");
	h->size = (uint16_t)(n * 8 + 8);
	CHECK(spe_tp_parse_sample(&ev, &s, &why) == -1 && why && strstr(why, "shorter"),
	      "RAW longer than the record is refused");
	a.attr.sample_type |= PERF_SAMPLE_READ;
	CHECK(spe_tp_parse_sample(&ev, &s, &why) == -1 && why && strstr(why, "READ"),
	      "PERF_SAMPLE_READ is refused by name");
	a.attr.type = PERF_TYPE_HARDWARE;
	CHECK(!spe_tp_is_sample(&ev), "a sample of another attribute is not one");
}

int main(void)
{
	test_parse_sample();
	if (spe_tracepoints_available()) {
		test_format();
		test_cuts();
		test_bad_lists();
	} else {
		tap_skip("formatting tracepoint samples", "built without libtraceevent");
	}
	return tap_done();
}
