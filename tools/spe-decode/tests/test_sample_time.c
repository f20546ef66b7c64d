// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib/sample_time.c: the first and last Timestamp of raw SPE records,
 * whatever their order and past a corrupt stretch, and the SAMPLE_TIME
 * feature they make (perf.data-file-format.txt: u64 first, u64 last, in
 * perf time), or none without a timestamp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe_decode.h"
#include "spe_perf_recording.h"
#include "spe_perf_time.h"
#include "spe_sample_time.h"
#include "support/temp_file.h"
#include "tap.h"

/* One record: an Address packet (PC, DDI 0487 D18.2.1: header 0xb0, 8
 * bytes) and a Timestamp packet (0x71, 8 bytes) that ends it. */
static size_t put_record(unsigned char *p, uint64_t pc, uint64_t ts)
{
	p[0] = 0xb0;
	for (int i = 0; i < 8; i++)
		p[1 + i] = (unsigned char)(pc >> (8 * i));
	p[9] = 0x71;
	for (int i = 0; i < 8; i++)
		p[10 + i] = (unsigned char)(ts >> (8 * i));
	return 18;
}

/* The SAMPLE_TIME section of a recording written with @t, as read back:
 * 1 with @range set, 0 when there is none, -1 on a failure. */
static int written_range(const struct spe_sample_time *t, const struct spe_time_conv *tc,
			 uint64_t range[2])
{
	struct spe_perf_recording rec;
	struct spe_perf_writer *w = NULL;
	struct spe_perf_reader *r = NULL;
	int fd = test_temp_fd(), err, ret = -1;
	uint64_t off, size;

	spe_perf_recording_init(&rec);
	rec.tc = *tc;
	err = spe_perf_recording_create(&w, fd, false, &rec);
	if (!err)
		err = spe_sample_time_write(w, &rec.tc, t);
	if (!err)
		err = spe_perf_recording_begin(w, &rec);
	if (!err)
		err = spe_perf_writer_finish(w);
	spe_perf_writer_free(w);
	if (!err && lseek(fd, 0, SEEK_SET) == 0 && !spe_perf_reader_open(&r, fd)) {
		err = spe_perf_reader_feature_section(r, SPE_HEADER_SAMPLE_TIME, &off, &size);
		if (err == SPE_ERR_NOT_FOUND)
			ret = 0;
		else if (!err && size == 16 && pread(fd, range, 16, (off_t)off) == 16)
			ret = 1;
	}
	spe_perf_reader_close(r);
	close(fd);
	return ret;
}

int main(void)
{
	static const uint64_t ts[] = { 5000, 1200, 90000, 7000 };
	struct spe_time_conv tc = { .time_shift = 4, .time_mult = 40, .time_zero = 123456,
				    .cap_user_time_zero = true, .long_form = true };
	struct spe_sample_time t = { 0 }, none = { 0 };
	unsigned char buf[256];
	uint64_t range[2] = { 0, 0 };
	size_t n = 0;

	for (int i = 0; i < 4; i++) {
		n += put_record(buf + n, 0x400000 + 4 * (uint64_t)i, ts[i]);
		/* after the second record, bytes that are no packet */
		if (i == 1) {
			memset(buf + n, 0xff, 5);
			n += 5;
		}
	}
	spe_sample_time_scan(buf, n, &t);
	CHECK(t.any && t.first == 1200 && t.last == 90000,
	      "scan: the smallest and largest timestamp, records out of order, past bytes that are no packet");

	spe_sample_time_scan(buf, 18, &none);
	CHECK(none.any && none.first == 5000 && none.last == 5000,
	      "scan: one record is its own first and last");
	none = (struct spe_sample_time){ 0 };
	put_record(buf, 0x400000, 0);
	buf[9] = 0x01;		/* End instead of Timestamp: no time */
	spe_sample_time_scan(buf, 10, &none);
	spe_sample_time_scan(buf, 0, &none);
	CHECK(!none.any, "scan: records without a Timestamp packet, or no bytes: no time");

	CHECK(written_range(&t, &tc, range) == 1 && range[0] == spe_time_to_perf(&tc, 1200) &&
	      range[1] == spe_time_to_perf(&tc, 90000) && range[0] < range[1],
	      "write: SAMPLE_TIME holds first and last in perf time (TIME_CONV)");
	CHECK(written_range(&none, &tc, range) == 0, "write: no timestamp, no SAMPLE_TIME section");
	return tap_done();
}
