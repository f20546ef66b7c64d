// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode wrap: the first and last timestamp of the wrapped buffers,
 * for the SAMPLE_TIME header feature perf reads for --time=PERCENT
 * (perf's tools/perf/Documentation/perf.data-file-format.txt,
 * HEADER_SAMPLE_TIME).  A perf record writes it from the samples it saw;
 * the samples of SPE data are its records, so their Timestamp packets
 * (DDI 0487 D18.2) give the range.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>

#include "spe_decode.h"
#include "wrap_times.h"

int spe_wrap_scan_times(int fd, uint64_t size, struct spe_wrap_times *t)
{
	struct spe_decoder dec;
	struct spe_record rec;
	void *map;
	int rc;

	if (!size)
		return 0;
	if (size > SIZE_MAX)
		return -EFBIG;
	map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	if (spe_decoder_init(&dec, NULL, map, (size_t)size, 0)) {
		munmap(map, (size_t)size);
		return -EINVAL;
	}
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
	munmap(map, (size_t)size);
	return 0;
}
