// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EVENT_DESC, as perf record writes it: u32 number of events, u32 size of
 * an attribute; then per event the attribute, u32 number of ids, the name
 * as a perf header string (u32 length, then that many bytes: the name,
 * NUL-padded), and the ids (u64 each).  Only the names are read here.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event_desc.h"
#include "spe_perf_data.h"

/* Far more than perf writes: a section claiming more is not read. */
#define EVENT_DESC_MAX_BYTES	(16u << 20)

static int get_u32(const uint8_t *buf, uint64_t size, uint64_t *pos, uint32_t *v)
{
	if (size - *pos < 4)
		return -1;
	memcpy(v, buf + *pos, 4);
	*pos += 4;
	return 0;
}

static int longest_name(const uint8_t *buf, uint64_t size)
{
	uint32_t nr, attr_size, nr_ids, len;
	uint64_t pos = 0;
	int width = 0;

	if (get_u32(buf, size, &pos, &nr) || get_u32(buf, size, &pos, &attr_size))
		return 0;
	for (uint32_t i = 0; i < nr; i++) {
		if (size - pos < attr_size)
			return 0;
		pos += attr_size;
		if (get_u32(buf, size, &pos, &nr_ids) || get_u32(buf, size, &pos, &len) ||
		    size - pos < len)
			return 0;
		/* The name ends at its first NUL, or with the string. */
		size_t n = strnlen((const char *)buf + pos, len);

		if ((int)n > width)
			width = (int)n;
		pos += len;
		if ((size - pos) / 8 < nr_ids)
			return 0;
		pos += (uint64_t)nr_ids * 8;
	}
	return width;
}

int spe_event_desc_name_width(const char *path)
{
	struct spe_perf_reader *rd = NULL;
	uint64_t off, size;
	uint8_t *buf = NULL;
	struct stat st;
	int fd, width = 0;

	/* A pipe or FIFO is read once, by the decode: not opened here. */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (!spe_perf_reader_open(&rd, fd) && !spe_perf_reader_is_pipe(rd) &&
	    !spe_perf_reader_feature_section(rd, SPE_HEADER_EVENT_DESC, &off, &size) &&
	    size <= EVENT_DESC_MAX_BYTES && (buf = malloc(size ? size : 1)) &&
	    !spe_perf_reader_pread(rd, buf, size, off))
		width = longest_name(buf, size);
	free(buf);
	spe_perf_reader_close(rd);
	close(fd);
	return width;
}
