// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cli/event_desc.c: the longest event name of a perf.data's EVENT_DESC
 * section, which perf script pads every event name to; 0, never a read
 * past the section, when the section is cut short or missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../cli/event_desc.h"
#include "spe_perf_data.h"
#include "support/temp_file.h"
#include "tap.h"

/* A recording's events as perf record names them: SPE with its
 * modifiers, and the dummy event of the side band. */
static int write_file(int fd)
{
	struct spe_perf_writer_info info = { .arch = "aarch64", .nr_cpus_avail = 2,
					     .nr_cpus_online = 2 };
	struct perf_event_attr spe = { .type = 8, .sample_type = PERF_SAMPLE_IDENTIFIER,
				       .sample_id_all = 1 };
	struct perf_event_attr dummy = { .type = PERF_TYPE_SOFTWARE,
					 .config = PERF_COUNT_SW_DUMMY,
					 .sample_type = PERF_SAMPLE_IDENTIFIER, .sample_id_all = 1 };
	const uint64_t spe_ids[2] = { 3, 4 }, dummy_ids[2] = { 5, 6 };
	struct spe_perf_writer *w;
	int ret;

	if (spe_perf_writer_create(&w, fd, &info))
		return -1;
	/* One record: a data section of 0 bytes is a file perf record left
	 * unfinished, whose features are not read. */
	ret = spe_perf_writer_add_attr(w, &spe, "arm_spe/ts_enable=1/u", spe_ids, 2) ||
	      spe_perf_writer_add_attr(w, &dummy, "dummy:u", dummy_ids, 2) ||
	      spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w);
	spe_perf_writer_free(w);
	return ret ? -1 : 0;
}

static const char *fd_path(int fd)
{
	static char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return path;
}

int main(void)
{
	int fd = test_temp_fd(), cut;
	struct spe_perf_file_header h;
	struct spe_perf_file_section sec[64];
	unsigned char *f;
	size_t len;
	unsigned int bit, nsec = 0;

	CHECK(!write_file(fd), "a file with two named events is written");
	CHECK_EQ(spe_event_desc_name_width(fd_path(fd)), 21,
		 "the longest name is the SPE event's, \"arm_spe/ts_enable=1/u\" (21)");

	/* The EVENT_DESC section's place, to cut the file inside it. */
	f = test_slurp(fd, &len);
	memcpy(&h, f, sizeof(h));
	for (bit = 0; bit < 64 && bit <= SPE_HEADER_EVENT_DESC; bit++)
		if (h.features[bit / 64] & (1ULL << (bit % 64)))
			nsec++;
	memcpy(sec, f + h.data.offset + h.data.size, nsec * sizeof(sec[0]));
	for (cut = 1; cut < 5; cut++) {
		int t = test_temp_fd();
		uint64_t end = sec[nsec - 1].offset + sec[nsec - 1].size * cut / 5;
		char what[96];

		/* The section table says more than the file holds. */
		if (write(t, f, end) != (ssize_t)end)
			abort();
		snprintf(what, sizeof(what), "a file cut at %d/5 of its EVENT_DESC section gives 0",
			 cut);
		CHECK_EQ(spe_event_desc_name_width(fd_path(t)), 0, what);
		close(t);
	}
	/* A section whose event count claims more events than it holds. */
	{
		int t = test_temp_fd();
		uint32_t many = 1000;

		memcpy(f + sec[nsec - 1].offset, &many, 4);
		if (write(t, f, len) != (ssize_t)len)
			abort();
		CHECK_EQ(spe_event_desc_name_width(fd_path(t)), 0,
			 "an EVENT_DESC of 1000 events in the bytes of two gives 0");
		close(t);
	}
	CHECK_EQ(spe_event_desc_name_width("/nonexistent/perf.data"), 0, "no file gives 0");
	/* A FIFO with no writer: opening it would block, reading it would
	 * take the decode's bytes. */
	{
		char fifo[64] = "/tmp/test_event_desc.XXXXXX";

		if (!mkdtemp(fifo))
			abort();
		strcat(fifo, "/f");
		if (mkfifo(fifo, 0600))
			abort();
		CHECK_EQ(spe_event_desc_name_width(fifo), 0,
			 "a FIFO gives 0 and is neither opened nor read");
		unlink(fifo);
		fifo[strlen(fifo) - 2] = 0;
		rmdir(fifo);
	}
	free(f);
	close(fd);
	return tap_done();
}
