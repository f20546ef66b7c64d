// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The first and last timestamp of raw SPE buffers, for the SAMPLE_TIME
 * header feature perf reads for --time=PERCENT (perf's
 * tools/perf/Documentation/perf.data-file-format.txt, HEADER_SAMPLE_TIME:
 * u64 first and last sample time).  A perf record writes it from the
 * samples it saw; the samples of SPE data are its records, so their
 * Timestamp packets (DDI 0487 D18.2) give the range.
 */
#include "spe_decode.h"
#include "spe_perf_time.h"
#include "spe_sample_time.h"

void spe_sample_time_scan(const void *buf, size_t len, struct spe_sample_time *t)
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

int spe_sample_time_write(struct spe_perf_writer *w, const struct spe_time_conv *tc,
			  const struct spe_sample_time *t)
{
	uint64_t range[2];

	if (!t->any)
		return 0;
	range[0] = spe_time_to_perf(tc, t->first);
	range[1] = spe_time_to_perf(tc, t->last);
	return spe_perf_writer_copy_feature(w, SPE_HEADER_SAMPLE_TIME, range, sizeof(range));
}
