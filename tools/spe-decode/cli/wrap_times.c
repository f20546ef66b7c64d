// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode wrap: the first and last timestamp of the wrapped buffers,
 * for the SAMPLE_TIME header feature perf reads for --time=PERCENT
 * (perf's tools/perf/Documentation/perf.data-file-format.txt,
 * HEADER_SAMPLE_TIME: u64 first and last sample time).  A perf record
 * writes it from the samples it saw; the samples of SPE data are its
 * records, so their Timestamp packets (DDI 0487 D18.2) give the range.
 * spe-gen --perf-data links this file too: it writes what wrap writes.
 */
#include <errno.h>
#include <sys/mman.h>

#include "spe_decode.h"
#include "spe_perf_time.h"
#include "wrap_times.h"

void spe_wrap_scan_mem(const void *buf, size_t len, struct spe_wrap_times *t)
{
	struct spe_decoder dec;
	struct spe_record rec;
	int rc;

	if (!len || spe_decoder_init(&dec, NULL, buf, len, 0))
		return;
	/* Errors are skipped: the decoder carries on at the next record. */
	while ((rc = spe_decoder_next(&dec, &rec)) != 0) {
		if (rc != 1 || !(rec.present & SPE_REC_TIMESTAMP))
			continue;
		if (!t->any || rec.timestamp < t->first)
			t->first = rec.timestamp;
		if (!t->any || rec.timestamp > t->last)
			t->last = rec.timestamp;
		t->any = true;
	}
}

int spe_wrap_scan_times(int fd, uint64_t size, struct spe_wrap_times *t)
{
	void *map;

	if (!size)
		return 0;
	if (size > SIZE_MAX)
		return -EFBIG;
	map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	spe_wrap_scan_mem(map, (size_t)size, t);
	munmap(map, (size_t)size);
	return 0;
}

int spe_wrap_sample_time(struct spe_perf_writer *w, const struct spe_time_conv *tc,
			 const struct spe_wrap_times *t)
{
	uint64_t range[2];

	if (!t->any)
		return 0;
	range[0] = spe_time_to_perf(tc, t->first);
	range[1] = spe_time_to_perf(tc, t->last);
	return spe_perf_writer_copy_feature(w, SPE_HEADER_SAMPLE_TIME, range, sizeof(range));
}
