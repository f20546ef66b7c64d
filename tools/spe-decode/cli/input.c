// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Mapped input files and buffered output for the subcommands. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "perf_dir.h"
#include "spe_perf_data.h"

static int spool(const char *cmd, struct spe_source *src);

/* Maps the regular file on fd (which stays open). */
static int map_fd(const char *cmd, const char *path, int fd, struct spe_input *in)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, path,
			S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
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
			return -1;
		}
		in->map_len = (size_t)st.st_size;
		madvise(in->map, in->map_len, MADV_SEQUENTIAL);
		in->data = in->map;
		in->len = in->map_len;
	}
	return 0;
}

int spe_spool_stream(const char *cmd, const char *name, int in)
{
	struct spe_source src = { .name = name, .fd = in };

	if (spool(cmd, &src))
		return -1;
	return src.fd;
}

/* The rest of a stream into an unlinked file in $TMPDIR, read from there. */
static int spool(const char *cmd, struct spe_source *src)
{
	const char *dir = getenv("TMPDIR");
	char *name = NULL, *buf = malloc(1 << 16);
	int fd = -1;
	ssize_t n;

	if (!buf || asprintf(&name, "%s/spe-decode.XXXXXX", dir && *dir ? dir : "/tmp") < 0) {
		name = NULL;
		errno = ENOMEM;
		goto fail;
	}
	fd = mkstemp(name);
	if (fd < 0)
		goto fail;
	unlink(name);
	if (write(fd, src->head, src->head_len) != (ssize_t)src->head_len)
		goto fail;
	while ((n = read(src->fd, buf, 1 << 16)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(fd, buf, (size_t)n) != n)
			goto fail;
	}
	if (lseek(fd, 0, SEEK_SET))
		goto fail;
	free(buf);
	free(name);
	spe_source_close(src);
	src->fd = fd;
	src->stream = false;
	src->head_len = 0;
	return 0;
fail:
	fprintf(stderr, "spe-decode %s: %s: copying the stream to a temporary file: %s\n",
		cmd, src->name, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	free(name);
	spe_source_close(src);
	return -1;
}

int spe_source_open(const char *cmd, const char *path, struct spe_source *src)
{
	struct stat st;
	uint64_t magic = 0;

	memset(src, 0, sizeof(*src));
	src->path = path;
	src->name = strcmp(path, "-") ? path : "stdin";
	/* perf record --threads' directory: joined into one file first. */
	if (strcmp(path, "-") && spe_perf_dir_is(path)) {
		src->fd = spe_perf_dir_join(cmd, path);
		src->perf_data = src->fd >= 0;
		return src->fd >= 0 ? 0 : -1;
	}
	src->fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	if (src->fd < 0) {
		fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	if (fstat(src->fd, &st) < 0) {
		fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, src->name, strerror(errno));
		spe_source_close(src);
		return -1;
	}
	/* A device (a terminal, /dev/zero) is no recording: refuse it. */
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, src->name,
			S_ISDIR(st.st_mode) ? "is a directory" :
			"not a regular file, pipe or socket");
		spe_source_close(src);
		return -1;
	}
	src->stream = !S_ISREG(st.st_mode);
	if (!src->stream) {
		src->perf_data = pread(src->fd, &magic, 8, 0) == 8 && magic == SPE_PERF_MAGIC2;
		return 0;
	}
	while (src->head_len < sizeof(src->head)) {
		ssize_t n = read(src->fd, src->head + src->head_len,
				 sizeof(src->head) - src->head_len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, src->name,
				strerror(errno));
			spe_source_close(src);
			return -1;
		}
		if (n == 0)
			break;
		src->head_len += (size_t)n;
	}
	memcpy(&magic, src->head, sizeof(magic));
	src->perf_data = src->head_len >= 8 && magic == SPE_PERF_MAGIC2;
	if (src->perf_data && src->head_len == 16) {
		uint64_t size;

		memcpy(&size, src->head + 8, sizeof(size));
		if (size != sizeof(struct spe_perf_pipe_file_header))
			return spool(cmd, src);
	}
	return 0;
}

void spe_source_close(struct spe_source *src)
{
	if (src->fd >= 0 && src->fd != STDIN_FILENO)
		close(src->fd);
	src->fd = -1;
}

int spe_input_from_source(const char *cmd, struct spe_source *src, struct spe_input *in)
{
	size_t cap = 1 << 20;
	unsigned char *buf;

	if (!src->stream)
		return map_fd(cmd, src->name, src->fd, in);
	memset(in, 0, sizeof(*in));
	buf = malloc(cap);
	if (!buf)
		goto nomem;
	memcpy(buf, src->head, src->head_len);
	in->len = src->head_len;
	for (;;) {
		ssize_t n;

		if (in->len == cap) {
			unsigned char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				goto nomem;
			buf = bigger;
			cap *= 2;
		}
		n = read(src->fd, buf + in->len, cap - in->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, src->name,
				strerror(errno));
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		in->len += (size_t)n;
	}
	in->heap = buf;
	in->data = buf;
	return 0;
nomem:
	free(buf);
	fprintf(stderr, "spe-decode %s: %s: out of memory\n", cmd, src->name);
	return -1;
}

int spe_input_open(const char *cmd, const char *path, struct spe_input *in)
{
	int fd, ret;

	memset(in, 0, sizeof(*in));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	ret = map_fd(cmd, path, fd, in);
	close(fd);
	return ret;
}

void spe_input_close(struct spe_input *in)
{
	if (in->map)
		munmap(in->map, in->map_len);
	free(in->heap);
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
