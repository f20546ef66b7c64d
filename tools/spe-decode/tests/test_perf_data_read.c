// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf.data reader: files written by the writer read back record by record,
 * perf's pipe format from a real pipe, every attribute size, and corrupt
 * files that must fail with the right offset (perf.data-file-format.txt).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe_perf_data.h"
#include "support/temp_file.h"
#include "tap.h"

static const uint64_t spe_id = 21, dummy_id = 22;
static const unsigned char aux[13] = { 0xb0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0x71, 9, 9, 9 };

/* A file with one record of each kind SPE decoding needs. */
static void write_sample_file(int fd)
{
	struct spe_perf_writer_info info = { .arch = "aarch64", .cpuid = "0x00000000410fd0c0",
				     .nr_cpus_avail = 8, .nr_cpus_online = 8 };
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr spe = { .type = 8, .sample_type = st, .sample_id_all = 1 };
	struct perf_event_attr dummy = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
					 .sample_type = st, .sample_id_all = 1 };
	struct spe_perf_writer_sample_id sid = { .pid = 10, .tid = 11, .time = 500, .id = dummy_id, .cpu = 2 };
	struct spe_time_conv tc = { .time_shift = 3, .time_mult = 7, .long_form = true,
				    .cap_user_time_zero = true };
	struct spe_perf_writer_sample s = { .id = dummy_id, .ip = 0x1000, .pid = 10, .tid = 11,
				    .time = 0x0100000000000384ULL, .cpu = 2 };	/* top byte set */
	struct spe_perf_writer *w;

	if (spe_perf_writer_create(&w, fd, &info) ||
	    spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", &spe_id, 1) ||
	    spe_perf_writer_add_attr(w, &dummy, "dummy:u", &dummy_id, 1) ||
	    spe_perf_writer_time_conv(w, &tc) ||
	    spe_perf_writer_auxtrace_info_v1(w, 8, true) ||
	    spe_perf_writer_comm(w, 10, 11, "worker", true, &sid) ||
	    spe_perf_writer_mmap2(w, PERF_RECORD_MISC_USER, 10, 11, 0x400000, 0x1000, 0, "/bin/true", &sid) ||
	    spe_perf_writer_switch(w, true, true, 12, 13, &sid) ||
	    spe_perf_writer_auxtrace(w, aux, sizeof(aux), 0, 0, 2, (uint32_t)-1, 2))
		abort();
	sid.id = spe_id;
	sid.time = 600;
	if (spe_perf_writer_aux(w, 0, sizeof(aux), PERF_AUX_FLAG_COLLISION, &sid) ||
	    spe_perf_writer_lost(w, spe_id, 3, &sid) ||
	    spe_perf_writer_sample(w, &s) ||
	    spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
}

static void test_round_trip(void)
{
	int fd = test_temp_fd();
	static const uint32_t want[] = {
		SPE_PERF_RECORD_TIME_CONV, SPE_PERF_RECORD_AUXTRACE_INFO, PERF_RECORD_COMM,
		PERF_RECORD_MMAP2, PERF_RECORD_SWITCH_CPU_WIDE, SPE_PERF_RECORD_AUXTRACE,
		PERF_RECORD_AUX, PERF_RECORD_LOST, PERF_RECORD_SAMPLE,
		SPE_PERF_RECORD_FINISHED_ROUND,
	};
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	unsigned n = 0, in_order = 1;
	int ret;

	write_sample_file(fd);
	CHECK_EQ(spe_perf_reader_open(&r, fd), 0, "a written file opens");
	CHECK(!spe_perf_reader_is_pipe(r), "a regular file is read in file mode");
	CHECK_EQ(spe_perf_reader_nr_attrs(r), 2, "two attributes");
	CHECK_EQ(spe_perf_reader_attr(r, 0)->attr.type, 8, "first attribute is the SPE PMU type");
	CHECK(spe_perf_reader_attr_by_id(r, dummy_id) == spe_perf_reader_attr(r, 1), "attribute found by id");
	CHECK(!strcmp(spe_perf_reader_info(r)->cpuid, "0x00000000410fd0c0"), "CPUID feature read");
	CHECK(!strcmp(spe_perf_reader_info(r)->arch, "aarch64"), "ARCH feature read");
	CHECK_EQ(spe_perf_reader_info(r)->nr_cpus_online, 8, "NRCPUS feature read");

	while ((ret = spe_perf_reader_next(r, &ev)) == 1) {
		const struct perf_event_header *h = ev.header;

		if (n < sizeof(want) / sizeof(want[0]) && h->type != want[n])
			in_order = 0;
		if (h->type == SPE_PERF_RECORD_TIME_CONV) {
			struct spe_time_conv tc;

			CHECK(!spe_parse_time_conv(h, &tc) && tc.long_form && tc.time_mult == 7 &&
			      tc.time_shift == 3 && tc.cap_user_time_zero,
			      "TIME_CONV long form parsed");
		} else if (h->type == SPE_PERF_RECORD_AUXTRACE_INFO) {
			struct spe_auxtrace_info ai;
			const char *why;

			CHECK(!spe_parse_auxtrace_info(h, &ai, &why) && ai.version == 1 &&
			      ai.pmu_type == 8 && ai.per_cpu_mmaps, "AUXTRACE_INFO v1 parsed");
		} else if (h->type == PERF_RECORD_COMM) {
			CHECK(ev.sid.has_time && ev.sid.time == 500 && ev.sid.cpu == 2 &&
			      ev.sid.tid == 11 && ev.attr == spe_perf_reader_attr(r, 1),
			      "COMM: sample_id trailer gives time, cpu, tid and the dummy attribute");
			CHECK(!strcmp((const char *)h + 16, "worker"), "COMM name");
		} else if (h->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			CHECK(h->misc & PERF_RECORD_MISC_SWITCH_OUT, "SWITCH_CPU_WIDE keeps misc (out)");
		} else if (h->type == SPE_PERF_RECORD_AUXTRACE) {
			unsigned char got[32] = { 0 };
			long k;

			CHECK_EQ(ev.aux_data_size, 16, "AUXTRACE data size (padded)");
			CHECK_EQ(ev.aux_data_offset, ev.offset + 48, "AUXTRACE data follows its record");
			k = spe_perf_reader_aux_read(r, got, 5);
			k += spe_perf_reader_aux_read(r, got + 5, sizeof(got) - 5);
			CHECK(k == 16 && !memcmp(got, aux, sizeof(aux)), "AUXTRACE data read back in two pieces");
		} else if (h->type == PERF_RECORD_AUX) {
			CHECK(ev.attr == spe_perf_reader_attr(r, 0) && ev.sid.time == 600,
			      "AUX belongs to the SPE attribute, time 600");
		} else if (h->type == PERF_RECORD_SAMPLE) {
			CHECK(ev.sid.time == 0x0100000000000384ULL && ev.sid.cpu == 2 &&
			      ev.sid.id == dummy_id,
			      "SAMPLE leading fields parsed, TIME as a whole 64-bit field");
		}
		n++;
	}
	CHECK_EQ(ret, 0, "the data section ends cleanly");
	CHECK(in_order && n == sizeof(want) / sizeof(want[0]), "every record, in file order");
	spe_perf_reader_close(r);
	close(fd);
}

/* ---- Files built by hand ------------------------------------------------- */

struct buf {
	unsigned char b[32768];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (n > sizeof(b->b) - b->n)
		abort();
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

/* header | one attr entry of attr_size bytes | data: records */
static int hand_file(uint32_t attr_size, const struct buf *data, uint64_t lie_data_size)
{
	struct buf f = { .n = 0 };
	struct spe_perf_file_header h = { .magic = SPE_PERF_MAGIC2, .size = sizeof(h) };
	unsigned char attr[512] = { 0 };
	uint32_t type = 8;
	uint64_t config = 0x1234, sample_type = PERF_SAMPLE_TIME, flags = 0;
	int fd = test_temp_fd();

	h.attr_size = attr_size + 16;
	h.attrs.offset = sizeof(h);
	h.attrs.size = h.attr_size;
	h.data.offset = h.attrs.offset + h.attrs.size;
	h.data.size = lie_data_size ? lie_data_size : data->n;
	memcpy(attr, &type, 4);
	memcpy(attr + 4, &attr_size, 4);
	memcpy(attr + 8, &config, 8);
	memcpy(attr + 24, &sample_type, 8);
	memcpy(attr + 40, &flags, 8);
	put(&f, &h, sizeof(h));
	put(&f, attr, attr_size);
	put64(&f, 0);	/* ids section: none */
	put64(&f, 0);
	put(&f, data->b, data->n);
	if (write(fd, f.b, f.n) != (ssize_t)f.n)
		abort();
	return fd;
}

static void put_round(struct buf *b)
{
	struct perf_event_header h = { .type = SPE_PERF_RECORD_FINISHED_ROUND, .size = 8 };

	put(b, &h, 8);
}

static void test_attr_sizes(void)
{
	static const uint32_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136 };
	struct buf d = { .n = 0 };

	put_round(&d);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char name[80];
		struct spe_perf_reader *r;
		int fd = hand_file(sizes[i], &d, 0);
		int ok = !spe_perf_reader_open(&r, fd) && spe_perf_reader_nr_attrs(r) == 1 &&
			 spe_perf_reader_attr(r, 0)->attr.config == 0x1234 &&
			 spe_perf_reader_attr(r, 0)->attr.type == 8 &&
			 spe_perf_reader_attr(r, 0)->file_size == sizes[i];

		snprintf(name, sizeof(name), "perf_event_attr of %u bytes is read", sizes[i]);
		CHECK(ok, name);
		spe_perf_reader_close(r);
		close(fd);
	}
}

static int open_expect_error(const struct buf *d, uint64_t lie, int *nrec, uint64_t *off,
			     char *msg, size_t cap)
{
	int fd = hand_file(128, d, lie);
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	int ret = spe_perf_reader_open(&r, fd);

	*nrec = 0;
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			(*nrec)++;
	*off = r ? spe_perf_reader_error_offset(r) : 0;
	snprintf(msg, cap, "%s", spe_perf_reader_errmsg(r));
	spe_perf_reader_close(r);
	close(fd);
	return ret;
}

static void test_corrupt(void)
{
	const uint64_t data_off = 104 + 128 + 16;
	struct buf d = { .n = 0 };
	char msg[256];
	uint64_t off;
	int nrec, ret;

	/* Unknown record type after one good record. */
	put_round(&d);
	{
		struct perf_event_header h = { .type = 200, .size = 16 };

		put(&d, &h, 8);
		put64(&d, 0);
	}
	ret = open_expect_error(&d, 0, &nrec, &off, msg, sizeof(msg));
	CHECK(ret == SPE_ERR_BAD_FILE && nrec == 1 && off == data_off + 8 && strstr(msg, "unknown record type 200"),
	      "unknown record type: error at its offset after the good record");

	/* A record longer than the data left. */
	d.n = 0;
	put_round(&d);
	{
		struct perf_event_header h = { .type = PERF_RECORD_COMM, .size = 64 };

		put(&d, &h, 8);
		put64(&d, 0);
	}
	ret = open_expect_error(&d, 0, &nrec, &off, msg, sizeof(msg));
	CHECK(ret == SPE_ERR_BAD_FILE && nrec == 1 && off == data_off + 8 && strstr(msg, "cut by the end"),
	      "truncated record: error at its offset, earlier records kept");

	/* header.size smaller than the header itself: would loop forever. */
	d.n = 0;
	{
		struct perf_event_header h = { .type = PERF_RECORD_COMM, .size = 4 };

		put(&d, &h, 8);
	}
	ret = open_expect_error(&d, 0, &nrec, &off, msg, sizeof(msg));
	CHECK(ret == SPE_ERR_BAD_FILE && off == data_off && strstr(msg, "less than its header"),
	      "record size below 8 is refused, not looped on");

	/* AUXTRACE data past the end of the file. */
	d.n = 0;
	{
		struct spe_perf_auxtrace_event a = {
			.header = { .type = SPE_PERF_RECORD_AUXTRACE, .size = sizeof(a) },
			.size = 4096,
		};

		put(&d, &a, sizeof(a));
		put64(&d, 0);
	}
	/* perf reads what is there of it: the record comes with the 8 bytes
	 * the file has, then the cut is the error, at the record. */
	ret = open_expect_error(&d, 0, &nrec, &off, msg, sizeof(msg));
	CHECK(ret == SPE_ERR_BAD_FILE && nrec == 1 && off == data_off &&
	      strstr(msg, "cut by the end of the file"),
	      "AUXTRACE data cut by the end of the file: its part delivered, then the error at the record");

	/* Data section size lying about the file: read to the end, the cut
	 * record reported. */
	d.n = 0;
	put_round(&d);
	{
		struct perf_event_header h = { .type = PERF_RECORD_COMM, .size = 64 };

		put(&d, &h, 8);
	}
	ret = open_expect_error(&d, 1 << 20, &nrec, &off, msg, sizeof(msg));
	CHECK(ret == SPE_ERR_BAD_FILE && nrec == 1 && off == data_off + 8 && strstr(msg, "cut by the end"),
	      "a data section larger than the file: records up to the cut, then its offset");

	/* Wrong magic. */
	{
		int fd = test_temp_fd();
		struct spe_perf_reader *r;

		if (write(fd, "PERFFILE\x68\0\0\0\0\0\0\0", 16) != 16)
			abort();
		ret = spe_perf_reader_open(&r, fd);
		CHECK(ret == SPE_ERR_BAD_FILE && spe_perf_reader_error_offset(r) == 0 &&
		      strstr(spe_perf_reader_errmsg(r), "bad magic"), "wrong magic is refused at offset 0");
		spe_perf_reader_close(r);
		close(fd);

		fd = test_temp_fd();
		if (write(fd, "PERF", 4) != 4)
			abort();
		ret = spe_perf_reader_open(&r, fd);
		CHECK(ret == SPE_ERR_BAD_FILE && strstr(spe_perf_reader_errmsg(r), "only 4 bytes"),
		      "a 4-byte file is refused");
		spe_perf_reader_close(r);
		close(fd);
	}
}

/*
 * Reads of the file's byte ranges (AUX data is read this way) stay inside
 * the file: a range that ends past the end is refused, naming its offset,
 * and one that ends exactly at the end is read.
 */
static void test_ranges(void)
{
	int fd = test_temp_fd();
	struct spe_perf_reader *r;
	unsigned char b[32];
	uint64_t size;

	write_sample_file(fd);
	size = (uint64_t)lseek(fd, 0, SEEK_END);
	if (spe_perf_reader_open(&r, fd)) {
		CHECK(0, "a written file opens");
		return;
	}
	CHECK(spe_perf_reader_pread(r, b, 8, size - 8) == 0 && spe_perf_reader_pread(r, b, 0, size) == 0,
	      "a read ending exactly at the end of the file succeeds");
	CHECK(spe_perf_reader_pread(r, b, 16, size - 8) == SPE_ERR_BAD_FILE &&
	      spe_perf_reader_error_offset(r) == size - 8,
	      "a read starting inside the file but ending past it is refused at its offset");
	CHECK(spe_perf_reader_pread(r, b, 1, size + 1) == SPE_ERR_BAD_FILE,
	      "a read starting past the end of the file is refused");
	spe_perf_reader_close(r);
	close(fd);

}

/* perf_event_attr.size 0 means the first ABI, 64 bytes (perf_event_open(2));
 * a HEADER_ATTR record in a pipe may carry one. */
static void test_pipe_attr_size_zero(void)
{
	struct buf s = { .n = 0 };
	unsigned char attr[64] = { 0 };
	uint32_t type = 8;
	struct perf_event_header h;
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	int p[2], ret, n = 0;

	put64(&s, SPE_PERF_MAGIC2);
	put64(&s, 16);
	memcpy(attr, &type, 4);		/* size (bytes 4..7) stays 0 */
	h = (struct perf_event_header){ .type = SPE_PERF_RECORD_HEADER_ATTR, .size = 8 + 64 + 8 };
	put(&s, &h, 8);
	put(&s, attr, 64);
	put64(&s, 99);	/* its id */
	put_round(&s);
	if (pipe(p) || write(p[1], s.b, s.n) != (ssize_t)s.n)
		abort();
	close(p[1]);
	ret = spe_perf_reader_open(&r, p[0]);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			n++;
	CHECK(ret == 0 && n == 2 && spe_perf_reader_nr_attrs(r) == 1 &&
	      spe_perf_reader_attr(r, 0)->file_size == 64 && spe_perf_reader_attr(r, 0)->ids[0] == 99,
	      "HEADER_ATTR with attr.size 0 is read as the 64-byte first ABI, its id after it");
	spe_perf_reader_close(r);
	close(p[0]);
}

/* A pipe stream: header, then HEADER_ATTR records of one 64-byte
 * attribute each (sample_type st, sample_id_all), ids 1000, 1001, ... */
static void pipe_attrs(struct buf *s, int nr, uint64_t st)
{
	put64(s, SPE_PERF_MAGIC2);
	put64(s, 16);
	for (int i = 0; i < nr; i++) {
		struct perf_event_attr a = { .type = 8, .size = 64, .sample_type = st,
					     .sample_id_all = 1 };
		struct perf_event_header h = { .type = SPE_PERF_RECORD_HEADER_ATTR,
					       .size = 8 + 64 + 8 };

		put(s, &h, 8);
		put(s, &a, 64);
		put64(s, 1000 + (uint64_t)i);
	}
}

static int read_pipe(const struct buf *s, struct spe_perf_reader **r, struct spe_perf_reader_event *last_comm)
{
	struct spe_perf_reader_event ev;
	int p[2], ret;

	if (pipe(p) || write(p[1], s->b, s->n) != (ssize_t)s->n)
		abort();
	close(p[1]);
	ret = spe_perf_reader_open(r, p[0]);
	if (!ret)
		while ((ret = spe_perf_reader_next(*r, &ev)) == 1)
			if (ev.header->type == PERF_RECORD_COMM)
				*last_comm = ev;
	close(p[0]);
	return ret;
}

/* A record whose size is not a multiple of 8 leaves the next one
 * misaligned in the read buffer, so the reader reads it from its aligned
 * copy: a HEADER_ATTR there keeps its attribute and every id. */
static void test_pipe_attr_misaligned(void)
{
	struct buf s = { .n = 0 };
	struct perf_event_attr a = { .type = 8, .size = 64, .sample_type = PERF_SAMPLE_TIME,
				     .config = 0x1234 };
	struct perf_event_header h = { .type = SPE_PERF_RECORD_FINISHED_ROUND, .size = 12 };
	const struct spe_perf_reader_attr *ra;
	struct spe_perf_reader_event comm = { 0 };
	struct spe_perf_reader *r = NULL;
	int ret;

	put64(&s, SPE_PERF_MAGIC2);
	put64(&s, 16);
	put(&s, &h, 8);
	put(&s, "\0\0\0\0", 4);
	h = (struct perf_event_header){ .type = SPE_PERF_RECORD_HEADER_ATTR, .size = 8 + 64 + 24 };
	put(&s, &h, 8);
	put(&s, &a, 64);
	put64(&s, 1000);
	put64(&s, 1001);
	put64(&s, 1002);
	ret = read_pipe(&s, &r, &comm);
	ra = ret ? NULL : spe_perf_reader_attr(r, 0);
	CHECK(ra && spe_perf_reader_nr_attrs(r) == 1 && ra->attr.type == 8 &&
	      ra->attr.config == 0x1234 && ra->attr.sample_type == PERF_SAMPLE_TIME &&
	      ra->nr_ids == 3 && ra->ids[0] == 1000 && ra->ids[1] == 1001 && ra->ids[2] == 1002,
	      "a misaligned HEADER_ATTR in a pipe: its attribute and all its ids");
	spe_perf_reader_close(r);
}

/*
 * The sample_id trailer of a non-sample record holds, in order, the
 * fields its attribute's sample_type selects among TID, TIME, ID,
 * STREAM_ID, CPU, IDENTIFIER (perf_event_open(2)): without CPU there is
 * no CPU field.  And an attribute table has a limit, refused past it.
 */
static void test_trailer_and_attr_limit(void)
{
	struct buf s = { .n = 0 };
	struct spe_perf_reader_event comm = { 0 };
	struct spe_perf_reader *r = NULL;
	struct perf_event_header h = { .type = PERF_RECORD_COMM, .size = 8 + 8 + 8 + 24 };
	uint32_t pt[2] = { 5, 6 };
	int ret;

	pipe_attrs(&s, 1, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER);
	put(&s, &h, 8);
	put(&s, pt, 8);
	put(&s, "task\0\0\0\0", 8);
	pt[0] = 7;
	pt[1] = 8;
	put(&s, pt, 8);			/* trailer: pid/tid */
	put64(&s, 123456789);		/* time */
	put64(&s, 1000);		/* identifier */
	/* PERF_RECORD_SWITCH is nothing but its header and the trailer. */
	h = (struct perf_event_header){ .type = PERF_RECORD_SWITCH, .size = 8 + 24 };
	put(&s, &h, 8);
	put(&s, pt, 8);
	put64(&s, 123456790);
	put64(&s, 1000);
	ret = read_pipe(&s, &r, &comm);
	CHECK(ret == 0 && comm.header && comm.sid.has_tid && comm.sid.tid == 8 &&
	      comm.sid.pid == 7 && comm.sid.time == 123456789 && !comm.sid.has_cpu,
	      "sample_id trailer without CPU: tid and time read from their own places; a SWITCH of header and trailer only is accepted");
	spe_perf_reader_close(r);

	s.n = 0;
	r = NULL;
	pipe_attrs(&s, 257, PERF_SAMPLE_TIME);
	ret = read_pipe(&s, &r, &comm);
	CHECK(ret == -E2BIG && r && strstr(spe_perf_reader_errmsg(r), "more than 256 attributes"),
	      "more attributes than the table holds: refused, with the limit named");
	spe_perf_reader_close(r);
}

static void test_pipe(void)
{
	struct buf s = { .n = 0 };
	unsigned char attr[128] = { 0 };
	uint32_t size = 128, type = 8;
	uint64_t st = PERF_SAMPLE_TIME;
	struct perf_event_header h;
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	int p[2], ret, n = 0, got_aux = 0, skipped_ok = 0;

	put64(&s, SPE_PERF_MAGIC2);
	put64(&s, 16);
	memcpy(attr, &type, 4);
	memcpy(attr + 4, &size, 4);
	memcpy(attr + 24, &st, 8);
	h = (struct perf_event_header){ .type = SPE_PERF_RECORD_HEADER_ATTR, .size = 8 + 128 + 8 };
	put(&s, &h, 8);
	put(&s, attr, 128);
	put64(&s, 77);	/* its id */
	h = (struct perf_event_header){ .type = SPE_PERF_RECORD_HEADER_FEATURE, .size = 16 + 4 + 20 };
	put(&s, &h, 8);
	put64(&s, SPE_HEADER_CPUID);
	{
		uint32_t len = 20;

		put(&s, &len, 4);
		put(&s, "0x00000000413fd0c1\0\0", 20);
	}
	for (int i = 0; i < 2; i++) {
		struct spe_perf_auxtrace_event a = {
			.header = { .type = SPE_PERF_RECORD_AUXTRACE, .size = sizeof(a) },
			.size = 16, .cpu = (uint32_t)i,
		};

		put(&s, &a, sizeof(a));
		put(&s, "0123456789abcdef", 16);
	}
	put_round(&s);

	if (pipe(p) || write(p[1], s.b, s.n) != (ssize_t)s.n)
		abort();
	close(p[1]);
	ret = spe_perf_reader_open(&r, p[0]);
	CHECK(!ret && spe_perf_reader_is_pipe(r), "perf's pipe format is read from a pipe");
	while (spe_perf_reader_is_pipe(r) && (ret = spe_perf_reader_next(r, &ev)) == 1) {
		n++;
		if (ev.header->type == SPE_PERF_RECORD_AUXTRACE) {
			char d[16];

			/* Read the first buffer, leave the second to be skipped. */
			if (!got_aux++)
				skipped_ok = spe_perf_reader_aux_read(r, d, 16) == 16 && !memcmp(d, "0123", 4) &&
					     spe_perf_reader_aux_read(r, d, 16) == 0;
		}
	}
	CHECK_EQ(ret, 0, "pipe stream ends cleanly");
	CHECK_EQ(n, 5, "attr, feature, two AUXTRACE, round");
	CHECK(skipped_ok && got_aux == 2,
	      "AUXTRACE data is read from the stream (then 0: all consumed), or skipped");
	CHECK(spe_perf_reader_nr_attrs(r) == 1 && spe_perf_reader_attr(r, 0)->ids[0] == 77,
	      "HEADER_ATTR adds an attribute with its id");
	CHECK(!strcmp(spe_perf_reader_info(r)->cpuid, "0x00000000413fd0c1"), "HEADER_FEATURE CPUID read");
	spe_perf_reader_close(r);
	close(p[0]);
}

static void test_auxtrace_info_v2(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer_cpu_meta m[2] = {
		{ .cpu = 0, .midr = 0x410fd0c0, .pmu_type = 8, .min_interval = 1024, .event_filter = 0xff },
		{ .cpu = 5, .midr = 0xc00fac30, .pmu_type = 9, .min_interval = 256 },
	};
	struct spe_perf_file_header h;
	struct perf_event_attr a = { .type = 8 };
	uint64_t id = 1;
	struct spe_perf_writer *w;
	struct spe_perf_reader *r;
	struct spe_perf_reader_event ev;
	struct spe_auxtrace_info ai;
	struct spe_perf_writer_cpu_meta got;
	const char *why;

	if (spe_perf_writer_create(&w, fd, NULL) || spe_perf_writer_add_attr(w, &a, "x", &id, 1) ||
	    spe_perf_writer_auxtrace_info_v2(w, 8, m, 2, SPE_AUXINFO_V2_NR_PARAMS_OLD) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	(void)h;
	CHECK(!spe_perf_reader_open(&r, fd) && spe_perf_reader_next(r, &ev) == 1, "v2 file read");
	CHECK(!spe_parse_auxtrace_info(ev.header, &ai, &why) && ai.version == 2 && ai.nr_cpus == 2 &&
	      ai.pmu_type == 8, "v2 header parsed");
	CHECK(!spe_auxtrace_info_cpu(ev.header, 1, &got, &why) && got.cpu == 5 &&
	      got.midr == 0xc00fac30 && got.pmu_type == 9 && got.event_filter == 0,
	      "v2 per-CPU entry of the 2024 layout (no event filter)");
	CHECK(spe_auxtrace_info_cpu(ev.header, 2, &got, &why) == SPE_ERR_BAD_FILE,
	      "a CPU entry past the record is refused");
	spe_perf_reader_close(r);
	close(fd);
}

/* Opens fd and reads it to the end; the error (0 if none) and its offset. */
static int read_all(int fd, uint64_t *off, char *msg, size_t cap)
{
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	int ret;

	lseek(fd, 0, SEEK_SET);
	ret = spe_perf_reader_open(&r, fd);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			;
	*off = r ? spe_perf_reader_error_offset(r) : 0;
	snprintf(msg, cap, "%s", r && ret ? spe_perf_reader_errmsg(r) : "");
	spe_perf_reader_close(r);
	return ret;
}

static void pwrite64_at(int fd, uint64_t v, uint64_t off)
{
	if (pwrite(fd, &v, 8, (off_t)off) != 8)
		abort();
}

/*
 * The file header's sections (perf.data-file-format.txt): an attribute
 * entry larger than any perf_event_attr the reader knows, and an
 * attribute section past the end of the file, are refused naming the
 * header field (attr_size at byte 16, attrs at byte 24).
 */
static void test_header_fields(void)
{
	uint64_t off, size;
	char msg[256];
	int fd = test_temp_fd(), ret;

	write_sample_file(fd);
	size = (uint64_t)lseek(fd, 0, SEEK_END);
	pwrite64_at(fd, 512 + 8, 16);
	ret = read_all(fd, &off, msg, sizeof(msg));
	CHECK(ret == SPE_ERR_BAD_FILE && off == 16 && strstr(msg, "attribute entry size 520"),
	      "an attribute entry of 520 bytes (more than the reader's 512) is refused at byte 16");
	close(fd);

	/* The largest entry read, 512 bytes (a 496-byte perf_event_attr and
	 * its ids section), and one byte more. */
	{
		struct buf none = { .n = 0 };
		struct spe_perf_reader *r;

		put_round(&none);
		fd = hand_file(496, &none, 0);
		ret = spe_perf_reader_open(&r, fd);
		CHECK(ret == 0 && spe_perf_reader_attr(r, 0)->file_size == 496 &&
		      spe_perf_reader_attr(r, 0)->attr.config == 0x1234,
		      "an attribute entry of exactly 512 bytes is read");
		spe_perf_reader_close(r);
		close(fd);
		fd = hand_file(497, &none, 0);
		ret = read_all(fd, &off, msg, sizeof(msg));
		CHECK(ret == SPE_ERR_BAD_FILE && off == 16 && strstr(msg, "attribute entry size 513"),
		      "an attribute entry of 513 bytes is refused at byte 16");
		close(fd);
	}

	fd = test_temp_fd();
	write_sample_file(fd);
	pwrite64_at(fd, size, 32);	/* attrs.size: the whole file, from byte 104 on */
	ret = read_all(fd, &off, msg, sizeof(msg));
	CHECK(ret == SPE_ERR_BAD_FILE && off == 24 && strstr(msg, "attribute section"),
	      "an attribute section running past the end of the file is refused at byte 24");
	close(fd);
}

/*
 * A string feature's length says more than its section holds: the
 * string is read to the section's end, every byte of it (perf's
 * do_read_string reads the length given; the reader bounds it).
 */
static void test_feature_string_bounds(void)
{
	static unsigned char f[1 << 16];
	const char *cpuid = "0x00000000410fd0c0";
	uint64_t off, size, hdr[2];
	uint32_t len = 100;
	struct spe_perf_reader *r;
	int fd = test_temp_fd();
	ssize_t n;
	bool patched = false;

	write_sample_file(fd);
	n = pread(fd, f, sizeof(f), 0);
	if (n <= 0 || spe_perf_reader_open(&r, fd))
		abort();
	if (spe_perf_reader_feature_section(r, SPE_HEADER_CPUID, &off, &size))
		abort();
	spe_perf_reader_close(r);
	/* The section table entry {off, size}: make the section exactly the
	 * length field and the 18 characters, no NUL; the length says 100. */
	for (ssize_t i = 0; i + 16 <= n; i += 8) {
		memcpy(hdr, f + i, 16);
		if (hdr[0] == off && hdr[1] == size) {
			pwrite64_at(fd, 4 + strlen(cpuid), (uint64_t)i + 8);
			patched = true;
			break;
		}
	}
	if (!patched || pwrite(fd, &len, 4, (off_t)off) != 4 ||
	    pwrite(fd, cpuid, strlen(cpuid), (off_t)off + 4) != (ssize_t)strlen(cpuid))
		abort();
	lseek(fd, 0, SEEK_SET);
	CHECK(!spe_perf_reader_open(&r, fd) && !strcmp(spe_perf_reader_info(r)->cpuid, cpuid),
	      "a string feature whose length passes its section: all of the section's 18 characters read");
	spe_perf_reader_close(r);
	close(fd);
}

/*
 * Only the features the reader uses (ARCH, NRCPUS, CPUID, AUXTRACE) must
 * be sound: another one whose section lies outside the file is left out
 * (spe_perf_reader_feature_section() does not give it, so it is not
 * copied by inject) and the file is still read, with the features used.
 */
static void test_unused_feature_outside_file(void)
{
	static unsigned char f[1 << 16];
	uint64_t off, size, hdr[2], end;
	struct spe_perf_reader *r;
	int fd = test_temp_fd(), ret;
	ssize_t n;
	bool patched = false;

	write_sample_file(fd);
	n = pread(fd, f, sizeof(f), 0);
	end = (uint64_t)lseek(fd, 0, SEEK_END);
	if (n <= 0 || spe_perf_reader_open(&r, fd))
		abort();
	if (spe_perf_reader_feature_section(r, SPE_HEADER_EVENT_DESC, &off, &size))
		abort();
	spe_perf_reader_close(r);
	/* Its section table entry {off, size}: move it past the end. */
	for (ssize_t i = 0; i + 16 <= n; i += 8) {
		memcpy(hdr, f + i, 16);
		if (hdr[0] == off && hdr[1] == size) {
			pwrite64_at(fd, end + 4096, (uint64_t)i);
			patched = true;
			break;
		}
	}
	if (!patched)
		abort();
	lseek(fd, 0, SEEK_SET);
	ret = spe_perf_reader_open(&r, fd);
	CHECK(ret == 0 && !strcmp(spe_perf_reader_info(r)->cpuid, "0x00000000410fd0c0") &&
	      spe_perf_reader_info(r)->nr_cpus_online == 8,
	      "an EVENT_DESC section outside the file: the file is read, CPUID and NRCPUS too");
	CHECK(ret == 0 && spe_perf_reader_feature_section(r, SPE_HEADER_EVENT_DESC, &off, &size) ==
			  SPE_ERR_NOT_FOUND,
	      "an EVENT_DESC section outside the file is not given as its section");
	spe_perf_reader_close(r);
	close(fd);
}

/*
 * Which attribute a record belongs to comes from its IDENTIFIER, the
 * last 8 bytes of a non-sample record: also for a record of 16 bytes,
 * a SWITCH of header and identifier only.  A sample without IP has its
 * TID, TIME and CPU right after the header.
 */
static void test_identifier_and_sample_fields(void)
{
	struct buf s = { .n = 0 };
	struct perf_event_header h = { .type = PERF_RECORD_SWITCH, .size = 16 };
	const struct spe_perf_reader_attr *sw_attr = NULL;
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	uint32_t pt[2] = { 7, 8 };
	bool sample_ok = false;
	int p[2], ret;

	pipe_attrs(&s, 2, PERF_SAMPLE_IDENTIFIER);
	put(&s, &h, 8);
	put64(&s, 1001);
	if (pipe(p) || write(p[1], s.b, s.n) != (ssize_t)s.n)
		abort();
	close(p[1]);
	ret = spe_perf_reader_open(&r, p[0]);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			if (ev.header->type == PERF_RECORD_SWITCH)
				sw_attr = ev.attr;
	CHECK(ret == 0 && sw_attr && sw_attr == spe_perf_reader_attr(r, 1),
	      "a 16-byte SWITCH belongs to the attribute its identifier names");
	spe_perf_reader_close(r);
	close(p[0]);

	s.n = 0;
	pipe_attrs(&s, 1, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
	h = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE, .size = 8 + 24 };
	put(&s, &h, 8);
	put(&s, pt, 8);
	put64(&s, 0x123456789);
	put64(&s, 3);
	if (pipe(p) || write(p[1], s.b, s.n) != (ssize_t)s.n)
		abort();
	close(p[1]);
	ret = spe_perf_reader_open(&r, p[0]);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			if (ev.header->type == PERF_RECORD_SAMPLE)
				sample_ok = ev.sid.has_tid && ev.sid.pid == 7 && ev.sid.tid == 8 &&
					    ev.sid.time == 0x123456789 && ev.sid.cpu == 3;
	CHECK(ret == 0 && sample_ok, "a sample without IP: pid/tid, time and cpu from their places");
	spe_perf_reader_close(r);
	close(p[0]);
}

/* HEADER_TRACING_DATA is followed by its data, whose size it gives:
 * data that runs past the end of the file is refused at the record. */
static void test_tracing_data_bounds(void)
{
	const uint64_t data_off = 104 + 128 + 16;
	struct buf d = { .n = 0 };
	struct perf_event_header h = { .type = SPE_PERF_RECORD_HEADER_TRACING_DATA, .size = 16 };
	uint32_t sz[2] = { 4096, 0 };
	char msg[256];
	uint64_t off;
	int nrec, ret;

	put(&d, &h, 8);
	put(&d, sz, 8);
	put64(&d, 0);
	ret = open_expect_error(&d, 0, &nrec, &off, msg, sizeof(msg));
	CHECK(ret == SPE_ERR_BAD_FILE && off == data_off && strstr(msg, "tracing data runs past"),
	      "tracing data running past the end of the file is refused at its record");
}

/* AUXTRACE data cut by the end of a pipe: the read that meets the end
 * fails, and so does every later one (the reader's error sticks). */
static void test_pipe_aux_cut(void)
{
	struct buf s = { .n = 0 };
	struct spe_perf_auxtrace_event a = {
		.header = { .type = SPE_PERF_RECORD_AUXTRACE, .size = sizeof(a) },
		.size = 4096,
	};
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	char d[64];
	long k1 = 1, k2 = 1;
	int p[2], ret;

	pipe_attrs(&s, 1, PERF_SAMPLE_TIME);
	put(&s, &a, sizeof(a));
	put64(&s, 0x1234);		/* 8 of the 4096 bytes */
	if (pipe(p) || write(p[1], s.b, s.n) != (ssize_t)s.n)
		abort();
	close(p[1]);
	ret = spe_perf_reader_open(&r, p[0]);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			if (ev.header->type == SPE_PERF_RECORD_AUXTRACE) {
				k1 = spe_perf_reader_aux_read(r, d, sizeof(d));
				k2 = spe_perf_reader_aux_read(r, d, sizeof(d));
				break;
			}
	CHECK(k1 == SPE_ERR_TRUNCATED && k2 == SPE_ERR_TRUNCATED &&
	      strstr(spe_perf_reader_errmsg(r), "cut by the end of input"),
	      "AUXTRACE data cut by the end of a pipe: that read fails, and the next one too");
	spe_perf_reader_close(r);
	close(p[0]);
}

/*
 * Exact sizes in the pipe format: a SWITCH whose attribute has TID and
 * TIME but no IDENTIFIER is 8 + 16 bytes, all of them its trailer; a
 * HEADER_FEATURE string runs to the end of its record and no further.
 */
static void test_pipe_exact_sizes(void)
{
	struct buf s = { .n = 0 };
	struct perf_event_header h = { .type = PERF_RECORD_SWITCH, .size = 8 + 16 };
	const char *cpuid = "0x00000000410fd0c0ab";	/* 20 characters, no NUL */
	uint32_t pt[2] = { 7, 0x01000008 }, len = 100;
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	bool sw_ok = false;
	int p[2], ret;

	pipe_attrs(&s, 1, PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	h = (struct perf_event_header){ .type = SPE_PERF_RECORD_HEADER_FEATURE, .size = 8 + 8 + 4 + 20 };
	put(&s, &h, 8);
	put64(&s, SPE_HEADER_CPUID);
	put(&s, &len, 4);
	put(&s, cpuid, 20);
	h = (struct perf_event_header){ .type = PERF_RECORD_SWITCH, .size = 8 + 16 };
	put(&s, &h, 8);
	put(&s, pt, 8);
	put64(&s, 4242);
	put_round(&s);
	if (pipe(p) || write(p[1], s.b, s.n) != (ssize_t)s.n)
		abort();
	close(p[1]);
	ret = spe_perf_reader_open(&r, p[0]);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			if (ev.header->type == PERF_RECORD_SWITCH)
				sw_ok = ev.sid.has_tid && ev.sid.tid == 0x01000008 && ev.sid.time == 4242;
	CHECK(ret == 0 && sw_ok,
	      "a 24-byte SWITCH of TID and TIME only is read, its tid (all 32 bits) and time found");
	CHECK(!strcmp(spe_perf_reader_info(r)->cpuid, cpuid),
	      "a HEADER_FEATURE string that fills its record: all 20 characters, nothing after");
	spe_perf_reader_close(r);
	close(p[0]);
}

/*
 * File mode: records after AUXTRACE data larger than the reader's window
 * (256 KiB) are found where they are, the data skipped unread; and a
 * tracing-data size of 16 MiB is read as all four bytes of it.
 */
static void test_records_after_large_data(void)
{
	static uint8_t big[300 << 10];
	struct spe_perf_writer_info info = { .cpuid = "0x00000000410fd0c0" };
	uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	struct perf_event_attr spe = { .type = 8, .sample_type = st, .sample_id_all = 1 };
	struct spe_perf_writer_sample_id sid = { .pid = 5, .tid = 6, .time = 9, .id = 1 };
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	struct spe_perf_writer *w;
	uint64_t id = 1;
	int fd = test_temp_fd(), ret, comms = 0;

	if (spe_perf_writer_create(&w, fd, &info) ||
	    spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", &id, 1) ||
	    spe_perf_writer_auxtrace(w, big, sizeof(big), 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_comm(w, 5, 6, "after", false, &sid) ||
	    spe_perf_writer_auxtrace(w, big, sizeof(big), sizeof(big), 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_comm(w, 5, 6, "after2", false, &sid) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	lseek(fd, 0, SEEK_SET);
	ret = spe_perf_reader_open(&r, fd);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			comms += ev.header->type == PERF_RECORD_COMM &&
				 !strcmp((const char *)ev.header + 16, comms ? "after2" : "after");
	CHECK(ret == 0 && comms == 2,
	      "a COMM after each of two 300 KiB AUXTRACE buffers (unread) is found and read whole");
	spe_perf_reader_close(r);
	close(fd);

	{
		const uint64_t data_off = 104 + 128 + 16;
		struct buf d = { .n = 0 };
		struct perf_event_header h = { .type = SPE_PERF_RECORD_HEADER_TRACING_DATA, .size = 16 };
		uint32_t sz[2] = { 1u << 24, 0 };
		char msg[256];
		uint64_t off;
		int nrec;

		put(&d, &h, 8);
		put(&d, sz, 8);
		ret = open_expect_error(&d, 0, &nrec, &off, msg, sizeof(msg));
		CHECK(ret == SPE_ERR_BAD_FILE && off == data_off && strstr(msg, "tracing data runs past"),
		      "tracing data of 16 MiB (the size's top byte set) past the end is refused");
	}
}

/*
 * Bounds of the reader's own fields: a CPUID longer than its 128-byte
 * field is cut to 127 characters; a file-format header (size 104) on a
 * stream is refused at byte 8; a sample trailer's tid is all 32 bits;
 * AUXTRACE_INFO's per-CPU flag is its own word, not the PMU type.
 */
static void test_reader_field_bounds(void)
{
	struct buf s = { .n = 0 };
	char cpuid[200];
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	struct perf_event_header h;
	uint32_t len = 199, pt[2] = { 7, 0x01000008 };
	bool tid_ok = false;
	int p[2], ret;

	memset(cpuid, 'a', sizeof(cpuid));
	pipe_attrs(&s, 1, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
	h = (struct perf_event_header){ .type = SPE_PERF_RECORD_HEADER_FEATURE, .size = 8 + 8 + 4 + 204 };
	put(&s, &h, 8);
	put64(&s, SPE_HEADER_CPUID);
	put(&s, &len, 4);
	put(&s, cpuid, 200);
	put(&s, "\0\0\0\0", 4);
	h = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE, .size = 8 + 24 };
	put(&s, &h, 8);
	put(&s, pt, 8);
	put64(&s, 5);
	put64(&s, 1);
	if (pipe(p) || write(p[1], s.b, s.n) != (ssize_t)s.n)
		abort();
	close(p[1]);
	ret = spe_perf_reader_open(&r, p[0]);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1)
			if (ev.header->type == PERF_RECORD_SAMPLE)
				tid_ok = ev.sid.tid == 0x01000008 && ev.sid.pid == 7;
	CHECK(ret == 0 && strlen(spe_perf_reader_info(r)->cpuid) == 127,
	      "a 199-character CPUID is cut to the 127 its field holds");
	CHECK(tid_ok, "a sample's tid 0x01000008: all four bytes read");
	spe_perf_reader_close(r);
	close(p[0]);

	{
		int fd = test_temp_fd();
		static unsigned char f[1 << 16];
		ssize_t n;

		write_sample_file(fd);
		n = pread(fd, f, sizeof(f), 0);
		close(fd);
		if (n <= 0 || pipe(p))
			abort();
		if (write(p[1], f, 4096) != 4096)
			abort();
		close(p[1]);
		ret = spe_perf_reader_open(&r, p[0]);
		CHECK(ret == SPE_ERR_BAD_FILE && spe_perf_reader_error_offset(r) == 8 &&
		      strstr(spe_perf_reader_errmsg(r), "pipe format"),
		      "a file-format header on a stream is refused at byte 8, naming the pipe format");
		spe_perf_reader_close(r);
		close(p[0]);
	}
	{
		int fd = test_temp_fd();
		struct spe_perf_writer_info info = { .cpuid = "0x00000000410fd0c0" };
		struct perf_event_attr spe = { .type = 8, .sample_type = PERF_SAMPLE_TIME };
		struct spe_auxtrace_info ai = { .per_cpu_mmaps = true };
		struct spe_perf_writer *w;
		uint64_t id = 1;
		const char *why;
		bool parsed = false;

		if (spe_perf_writer_create(&w, fd, &info) ||
		    spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", &id, 1) ||
		    spe_perf_writer_auxtrace_info_v1(w, 8, false) || spe_perf_writer_finish(w))
			abort();
		spe_perf_writer_free(w);
		lseek(fd, 0, SEEK_SET);
		ret = spe_perf_reader_open(&r, fd);
		if (!ret)
			while ((ret = spe_perf_reader_next(r, &ev)) == 1)
				if (ev.header->type == SPE_PERF_RECORD_AUXTRACE_INFO)
					parsed = !spe_parse_auxtrace_info(ev.header, &ai, &why);
		CHECK(parsed && ai.pmu_type == 8 && !ai.per_cpu_mmaps,
		      "AUXTRACE_INFO v1 of a per-thread recording: PMU type 8, per-CPU mmaps off");
		spe_perf_reader_close(r);
		close(fd);
	}
}

int main(void)
{
	test_round_trip();
	test_attr_sizes();
	test_corrupt();
	test_ranges();
	test_pipe();
	test_pipe_attr_size_zero();
	test_pipe_attr_misaligned();
	test_trailer_and_attr_limit();
	test_auxtrace_info_v2();
	test_header_fields();
	test_feature_string_bounds();
	test_unused_feature_outside_file();
	test_identifier_and_sample_fields();
	test_tracing_data_bounds();
	test_pipe_aux_cut();
	test_pipe_exact_sizes();
	test_records_after_large_data();
	test_reader_field_bounds();
	return tap_done();
}
