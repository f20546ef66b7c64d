// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The TRACING_DATA feature section of a perf.data: read, checked and
 * parsed into libtraceevent's event formats (see tracing_data.h).
 *
 * The section's layout (perf's tracing data, read by perf's
 * trace-event-read.c and written by its trace-event-info.c; all integers
 * in the endianness the section states):
 *   "\x17\x08\x44tracing", a version string ("0.6"), NUL
 *   u8 big endian, u8 sizeof(long), u32 page size
 *   "header_page" NUL, u64 size, the ring buffer's page header format
 *   "header_event" NUL, u64 size, the ring buffer's event header format
 *   u32 count, then count times: u64 size, an ftrace event's format file
 *   u32 systems, then per system: its name NUL, u32 count, then count
 *     times: u64 size, an event's format file
 *   u32 size, /proc/kallsyms
 *   u32 size, the kernel's printk formats
 *   (version 0.6 and later) u64 size, the saved cmdlines
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "spe_perf_data.h"
#include "tracing_data.h"

#ifdef HAVE_LIBTRACEEVENT
#include <event-parse.h>
#endif

bool spe_tracepoints_seekable(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode);
}

#ifdef HAVE_LIBTRACEEVENT

/* The section being read, and the first problem found in it. */
struct td_reader {
	const uint8_t *b;
	size_t n, at;
	bool swap;			/* the section's endianness is not ours */
	const char *where;		/* the part being read, for messages */
	char *err;
	size_t errlen;
	uint64_t file_off;
};

static int td_fail(struct td_reader *r, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "TRACING_DATA section (file offset %#" PRIx64 ", %zu bytes): "
		 "%s at byte %zu of the section", r->file_off, r->n, what, r->at);
	return -1;
}

static int td_bytes(struct td_reader *r, size_t n, const uint8_t **p)
{
	*p = NULL;
	if (n > r->n - r->at)
		return td_fail(r, "truncated in %s (%zu bytes wanted, %zu left)", r->where, n,
			       r->n - r->at);
	*p = r->b + r->at;
	r->at += n;
	return 0;
}

static int td_u32(struct td_reader *r, uint32_t *v)
{
	const uint8_t *p;

	if (td_bytes(r, 4, &p))
		return -1;
	memcpy(v, p, 4);
	if (r->swap)
		*v = __builtin_bswap32(*v);
	return 0;
}

static int td_u64(struct td_reader *r, uint64_t *v)
{
	const uint8_t *p;

	if (td_bytes(r, 8, &p))
		return -1;
	memcpy(v, p, 8);
	if (r->swap)
		*v = __builtin_bswap64(*v);
	return 0;
}

/* A NUL-terminated string inside the section. */
static int td_str(struct td_reader *r, const char **s)
{
	const uint8_t *nul = memchr(r->b + r->at, 0, r->n - r->at);

	if (!nul)
		return td_fail(r, "truncated in %s (no NUL)", r->where);
	*s = (const char *)r->b + r->at;
	r->at = (size_t)(nul - r->b) + 1;
	return 0;
}

/* A block of @n bytes, copied with a NUL after it: libtraceevent's text
 * parsers read strings. */
static int td_text(struct td_reader *r, uint64_t n, char **text)
{
	const uint8_t *p;

	if (n > r->n - r->at)
		return td_fail(r, "truncated in %s (%" PRIu64 " bytes wanted, %zu left)",
			       r->where, n, r->n - r->at);
	if (td_bytes(r, (size_t)n, &p))
		return -1;
	*text = malloc((size_t)n + 1);
	if (!*text)
		return td_fail(r, "out of memory");
	memcpy(*text, p, (size_t)n);
	(*text)[n] = 0;
	return 0;
}

/* A counted format file parsed as an event of @sys.  A format that
 * libtraceevent cannot parse is no fault of the section: that event's
 * samples print as libtraceevent's "[FAILED TO PARSE]", as in perf. */
static int td_format(struct td_reader *r, struct tep_handle *tep, const char *sys)
{
	uint64_t n;
	char *text;

	if (td_u64(r, &n) || td_text(r, n, &text))
		return -1;
	tep_parse_event(tep, text, (unsigned long)n, sys);
	free(text);
	return 0;
}

/* "ffffffff81000000 T _text" (and a module in brackets after a tab),
 * as /proc/kallsyms. */
static bool kallsyms_line(const char *l, size_t n)
{
	size_t i = 0;

	while (i < n && isxdigit((unsigned char)l[i]))
		i++;
	return i && i + 3 < n && l[i] == ' ' && l[i + 1] != ' ' && l[i + 2] == ' ' &&
	       l[i + 3] != ' ';
}

/* "0xffffffff8281a569 : "format"", as the kernel's printk_formats. */
static bool printk_line(const char *l, size_t n)
{
	size_t i = 2;

	if (n < 2 || l[0] != '0' || l[1] != 'x')
		return false;
	while (i < n && isxdigit((unsigned char)l[i]))
		i++;
	return i > 2 && i + 4 < n && !memcmp(l + i, " : \"", 4) && l[n - 1] == '"';
}

/*
 * libtraceevent's parsers of these lists trust their input: a printk
 * format line without " : " has it read past the end of its copy
 * (libtraceevent 1.7.1).  Every non-empty line is checked first.
 */
static int td_lines(struct td_reader *r, const char *text, size_t n,
		    bool (*ok)(const char *, size_t), const char *layout)
{
	unsigned line = 1;

	for (size_t i = 0; i < n; line++) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - text) : n;

		if (end > i && !ok(text + i, end - i)) {
			r->at = r->at - n + i;
			return td_fail(r, "%s: line %u is not \"%s\"", r->where, line, layout);
		}
		if (memchr(text + i, 0, end - i)) {
			r->at = r->at - n + i;
			return td_fail(r, "%s: a NUL byte in line %u", r->where, line);
		}
		i = end + 1;
	}
	return 0;
}

static int td_parse(struct td_reader *r, struct tep_handle *tep)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint8_t *p;
	const char *version, *s;
	uint32_t page_size, count, systems;
	uint64_t n;
	char *text;
	int long_size;
	bool v06;

	r->where = "the magic";
	if (td_bytes(r, sizeof(magic), &p))
		return -1;
	if (memcmp(p, magic, sizeof(magic))) {
		r->at = 0;
		return td_fail(r, "no tracing data magic (\\x17\\x08Dtracing)");
	}
	r->where = "the version";
	if (td_str(r, &version))
		return -1;
	v06 = strcmp(version, "0.6") >= 0;
	r->where = "the endianness, long size and page size";
	if (td_bytes(r, 2, &p))
		return -1;
	if (p[0] > 1 || (p[1] != 4 && p[1] != 8)) {
		r->at -= 2;
		return td_fail(r, "big endian flag %u and long size %u: not tracing data", p[0], p[1]);
	}
	r->swap = p[0] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	tep_set_file_bigendian(tep, p[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	long_size = p[1];
	tep_set_long_size(tep, long_size);
	if (td_u32(r, &page_size))
		return -1;
	tep_set_page_size(tep, (int)page_size);

	r->where = "the header_page format";
	if (td_bytes(r, 12, &p))
		return -1;
	if (memcmp(p, "header_page", 12)) {
		r->at -= 12;
		return td_fail(r, "no header_page format");
	}
	if (td_u64(r, &n) || td_text(r, n, &text))
		return -1;
	tep_parse_header_page(tep, text, (unsigned long)n, long_size);
	free(text);
	r->where = "the header_event format";
	if (td_bytes(r, 13, &p))
		return -1;
	if (memcmp(p, "header_event", 13)) {
		r->at -= 13;
		return td_fail(r, "no header_event format");
	}
	if (td_u64(r, &n))
		return -1;
	if (n > r->n - r->at)
		return td_fail(r, "truncated in %s (%" PRIu64 " bytes wanted, %zu left)",
			       r->where, n, r->n - r->at);
	r->at += (size_t)n;	/* perf script does not use it either */

	r->where = "the ftrace event formats";
	if (td_u32(r, &count))
		return -1;
	for (uint32_t i = 0; i < count; i++)
		if (td_format(r, tep, "ftrace"))
			return -1;

	r->where = "the event formats";
	if (td_u32(r, &systems))
		return -1;
	for (uint32_t sy = 0; sy < systems; sy++) {
		char where[96];

		r->where = "a system name";
		if (td_str(r, &s))
			return -1;
		snprintf(where, sizeof(where), "the event formats of system '%.64s'", s);
		r->where = where;
		if (td_u32(r, &count))
			return -1;
		for (uint32_t i = 0; i < count; i++)
			if (td_format(r, tep, s))
				return -1;
	}
	r->where = "kallsyms";
	if (td_u32(r, &count) || td_text(r, count, &text))
		return -1;
	if (td_lines(r, text, count, kallsyms_line, "ADDRESS TYPE NAME")) {
		free(text);
		return -1;
	}
	tep_parse_kallsyms(tep, text);
	free(text);
	r->where = "the printk formats";
	if (td_u32(r, &count) || td_text(r, count, &text))
		return -1;
	if (td_lines(r, text, count, printk_line, "ADDRESS : \"FORMAT\"")) {
		free(text);
		return -1;
	}
	tep_parse_printk_formats(tep, text);
	free(text);
	if (v06) {
		r->where = "the saved cmdlines";
		if (td_u64(r, &n) || td_text(r, n, &text))
			return -1;
		tep_parse_saved_cmdlines(tep, text);
		free(text);
	}
	return 0;
}

/*
 * libtraceevent's format parser trusts the format files: a mangled one
 * can make it dereference NULL (libtraceevent 1.7.1, a field type of
 * stray bytes).  So a child process parses the section first, and this
 * one only after the child came through.  Called before script starts
 * its threads.  Returns 0, or -1 with the reason in r->err.
 */
static int td_survives(struct td_reader *r)
{
	int status, null;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;	/* no check possible: parse as perf does */
	if (!pid) {
		struct tep_handle *tep = tep_alloc();
		char e[1];

		null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDERR_FILENO);	/* a sanitizer's report */
		r->err = e;
		r->errlen = sizeof(e);
		_exit(tep && td_parse(r, tep) ? 3 : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3))
		return 0;	/* 3: td_parse() fails here too, and says why */
	r->at = 0;
	if (WIFSIGNALED(status))
		return td_fail(r, "its event formats crash libtraceevent's parser (signal %d)",
			       WTERMSIG(status));
	return td_fail(r, "its event formats make libtraceevent's parser fail (a sanitizer's "
		       "exit status %d)", WEXITSTATUS(status));
}

/* The section's bytes, or *buf NULL when the file has none. */
static int read_section(const char *path, uint8_t **buf, size_t *len, uint64_t *off,
			char *err, size_t errlen)
{
	struct spe_perf_reader *rd = NULL;
	uint64_t size;
	int fd, ret = 0;

	*buf = NULL;
	*len = 0;
	if (!spe_tracepoints_seekable(path))
		return 0;	/* a stream: read once, by the decode */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* the decode says why */
	if (spe_perf_reader_open(&rd, fd) ||
	    spe_perf_reader_feature_section(rd, SPE_HEADER_TRACING_DATA, off, &size))
		goto out;	/* not a perf.data, or no tracepoints */
	if (size > SIZE_MAX / 2 || !(*buf = malloc(size ? (size_t)size : 1))) {
		snprintf(err, errlen, "TRACING_DATA section (file offset %#" PRIx64 ", %" PRIu64
			 " bytes): out of memory", *off, size);
		ret = -1;
		goto out;
	}
	if (spe_perf_reader_pread(rd, *buf, (size_t)size, *off)) {
		snprintf(err, errlen, "TRACING_DATA section (file offset %#" PRIx64 ", %" PRIu64
			 " bytes): runs past the end of the file", *off, size);
		free(*buf);
		*buf = NULL;
		ret = -1;
		goto out;
	}
	*len = (size_t)size;
out:
	spe_perf_reader_close(rd);
	close(fd);
	return ret;
}

int spe_tracing_data_read(const char *path, struct tep_handle **tep, char *err, size_t errlen)
{
	struct td_reader r = { .err = err, .errlen = errlen };
	uint8_t *buf;
	int ret;

	*tep = NULL;
	ret = read_section(path, &buf, &r.n, &r.file_off, err, errlen);
	if (ret || !buf)
		return ret;
	r.b = buf;
	/* Its messages about formats it cannot parse: perf's -v only. */
	tep_set_loglevel(TEP_LOG_NONE);
	*tep = tep_alloc();
	if (!*tep) {
		snprintf(err, errlen, "out of memory");
		ret = -1;
	} else if (td_survives(&r) || td_parse(&r, *tep)) {
		tep_free(*tep);
		*tep = NULL;
		ret = -1;
	}
	free(buf);
	return ret;
}

#endif /* HAVE_LIBTRACEEVENT */
