// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf.data reader (perf.data-file-format.txt): the file header, the
 * attributes of any size from 64 bytes up, the feature sections SPE decoding needs, and the
 * records of the data section one by one through a fixed buffer.  Also
 * perf's pipe format, where attributes and features arrive as records.
 *
 * Everything read is checked against what encloses it (header sizes against
 * the file, records against the data section, AUXTRACE data against both);
 * a violation stops the reader with a message naming the file offset.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spe_perf_data.h"

#define PDR_BUF_SIZE	(256u * 1024)	/* > largest record (64 KiB) */
#define PDR_MAX_ATTRS	256
#define PDR_MAX_IDS	(1u << 20)
#define PDR_MSG_SIZE	256

struct spe_perf_reader {
	int fd;
	bool pipe;			/* not seekable: read as a stream */
	bool pipe_fmt;			/* perf's pipe format (maybe saved to a file) */
	uint64_t file_size;		/* file mode */
	uint64_t data_off, data_end;	/* data section; pipe: end = ~0 */

	/* Sequential window: buf[0] is at file offset boff. */
	unsigned char *buf;
	size_t bpos, blen;
	uint64_t boff;
	bool eof;			/* pipe/stream end seen */
	uint64_t pos;			/* file offset of the next record */

	/* AUXTRACE data of the last record still unread (sequential). */
	uint64_t aux_left;
	uint64_t aux_next;		/* file offset of its next byte */

	uint64_t *scratch;		/* 8-aligned copy of a misaligned record */

	struct spe_perf_reader_attr attrs[PDR_MAX_ATTRS];
	uint32_t nr_attrs;
	struct spe_perf_reader_info info;
	/* File mode: every feature section the header lists (size 0: none). */
	struct spe_perf_file_section feat_sec[SPE_HEADER_FEAT_BITS];

	/* An AUXTRACE record cut by the end of the file: its record offset
	 * and full size, reported after its data is delivered. */
	uint64_t cut_at, cut_size;

	int err;
	uint64_t err_off;
	char msg[PDR_MSG_SIZE];
};

static int reader_error(struct spe_perf_reader *r, int err, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->err)
		return r->err;
	r->err = err;
	r->err_off = off;
	n = snprintf(r->msg, sizeof(r->msg), "offset %#llx: ", (unsigned long long)off);
	va_start(ap, fmt);
	vsnprintf(r->msg + n, sizeof(r->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

const char *spe_perf_reader_errmsg(const struct spe_perf_reader *r)
{
	return r && r->err ? r->msg : "no error";
}

uint64_t spe_perf_reader_error_offset(const struct spe_perf_reader *r)
{
	return r->err_off;
}

bool spe_perf_reader_is_pipe(const struct spe_perf_reader *r)
{
	return r->pipe;
}

uint64_t spe_perf_reader_file_size(const struct spe_perf_reader *r)
{
	return r->pipe ? 0 : r->file_size;
}

const struct spe_perf_reader_info *spe_perf_reader_info(const struct spe_perf_reader *r)
{
	return &r->info;
}

uint32_t spe_perf_reader_nr_attrs(const struct spe_perf_reader *r)
{
	return r->nr_attrs;
}

const struct spe_perf_reader_attr *spe_perf_reader_attr(const struct spe_perf_reader *r, uint32_t i)
{
	return i < r->nr_attrs ? &r->attrs[i] : NULL;
}

const struct spe_perf_reader_attr *spe_perf_reader_attr_by_id(const struct spe_perf_reader *r,
	uint64_t id)
{
	for (uint32_t i = 0; i < r->nr_attrs; i++)
		for (uint32_t j = 0; j < r->attrs[i].nr_ids; j++)
			if (r->attrs[i].ids[j] == id)
				return &r->attrs[i];
	return NULL;
}

/*
 * pread all of n bytes at off; short reads are the caller's error.  A failed
 * read returns -errno, which the callers turn into SPE_ERR_IO and a message.
 */
static ssize_t reader_pread_full(int fd, void *buf, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t k = pread(fd, (char *)buf + done, n - done, (off_t)(off + done));

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			break;
		done += (size_t)k;
	}
	return (ssize_t)done;
}

int spe_perf_reader_pread(struct spe_perf_reader *r, void *buf, size_t n, uint64_t off)
{
	ssize_t k;

	if (r->pipe)
		return SPE_ERR_UNSUPPORTED;
	if (off > r->file_size || n > r->file_size - off)
		return reader_error(r, SPE_ERR_BAD_FILE, off, "read of %zu bytes past the end of the file", n);
	k = reader_pread_full(r->fd, buf, n, off);
	if (k < 0)
		return reader_error(r, SPE_ERR_IO, off, "read: %s", strerror((int)-k));
	if ((size_t)k != n)
		return reader_error(r, SPE_ERR_IO, off + (uint64_t)k, "file shrank while reading");
	return 0;
}

/*
 * Make at least `need` bytes available at buf[bpos] (need <= PDR_BUF_SIZE/2).
 * Returns the number available (may be less at the end of input) or an error.
 */
static long reader_fill(struct spe_perf_reader *r, size_t need)
{
	size_t avail = r->blen - r->bpos;

	if (avail >= need)
		return (long)avail;
	memmove(r->buf, r->buf + r->bpos, avail);
	r->boff += r->bpos;
	r->bpos = 0;
	r->blen = avail;
	while (r->blen < need && !r->eof) {
		ssize_t k;

		if (r->pipe) {
			k = read(r->fd, r->buf + r->blen, PDR_BUF_SIZE - r->blen);
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				return reader_error(r, SPE_ERR_IO, r->boff + r->blen, "read: %s",
						    strerror(errno));
		} else {
			uint64_t at = r->boff + r->blen;
			size_t want = PDR_BUF_SIZE - r->blen;

			if (at >= r->data_end) {
				r->eof = true;
				break;
			}
			if (want > r->data_end - at)
				want = (size_t)(r->data_end - at);
			k = reader_pread_full(r->fd, r->buf + r->blen, want, at);
			if (k < 0)
				return reader_error(r, SPE_ERR_IO, at, "read: %s",
						    strerror((int)-k));
		}
		if (k == 0)
			r->eof = true;
		r->blen += (size_t)k;
	}
	return (long)(r->blen - r->bpos);
}

/* Consume n bytes of the sequential stream (pipe mode skipping). */
static int reader_skip(struct spe_perf_reader *r, uint64_t n)
{
	while (n) {
		long avail = reader_fill(r, 1);
		size_t c;

		if (avail < 0)
			return (int)avail;
		if (avail == 0)
			return SPE_ERR_TRUNCATED;
		c = (uint64_t)avail < n ? (size_t)avail : (size_t)n;
		r->bpos += c;
		n -= c;
	}
	return 0;
}

long spe_perf_reader_aux_read(struct spe_perf_reader *r, void *buf, size_t n)
{
	if (r->err)
		return r->err;
	if (n > r->aux_left)
		n = (size_t)r->aux_left;
	if (!n)
		return 0;
	if (r->pipe) {
		size_t done = 0;

		while (done < n) {
			long avail = reader_fill(r, 1);
			size_t c;

			if (avail < 0)
				return avail;
			if (avail == 0)
				return reader_error(r, SPE_ERR_TRUNCATED, r->aux_next,
						    "AUXTRACE data cut by the end of input");
			c = (size_t)avail < n - done ? (size_t)avail : n - done;
			memcpy((char *)buf + done, r->buf + r->bpos, c);
			r->bpos += c;
			done += c;
			r->aux_next += c;
		}
	} else {
		int err = spe_perf_reader_pread(r, buf, n, r->aux_next);

		if (err)
			return err;
		r->aux_next += n;
	}
	r->aux_left -= n;
	return (long)n;
}

/* ---- Attributes ---------------------------------------------------------- */

static int reader_add_attr(struct spe_perf_reader *r, const unsigned char *p, size_t avail,
			   uint64_t off, const uint64_t *ids, uint32_t nr_ids)
{
	struct spe_perf_reader_attr *a;
	uint32_t size;

	if (r->nr_attrs == PDR_MAX_ATTRS)
		return reader_error(r, -E2BIG, off, "more than %d attributes", PDR_MAX_ATTRS);
	if (avail < PERF_ATTR_SIZE_VER0)
		return reader_error(r, SPE_ERR_BAD_FILE, off, "attribute shorter than %d bytes",
				    PERF_ATTR_SIZE_VER0);
	memcpy(&size, p + 4, 4);
	if (!size)
		size = PERF_ATTR_SIZE_VER0;	/* perf: size 0 means the first ABI */
	if (size < PERF_ATTR_SIZE_VER0 || size > avail || (size & 7))
		return reader_error(r, SPE_ERR_BAD_FILE, off, "attribute size %u invalid (room for %zu)",
				    size, avail);
	a = &r->attrs[r->nr_attrs];
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, p, size < sizeof(a->attr) ? size : sizeof(a->attr));
	a->file_size = size;
	a->attr.size = sizeof(a->attr);
	if (nr_ids) {
		a->ids = malloc(nr_ids * sizeof(*ids));
		if (!a->ids)
			return reader_error(r, SPE_ERR_NOMEM, off, "out of memory");
		memcpy(a->ids, ids, nr_ids * sizeof(*ids));
		a->nr_ids = nr_ids;
	}
	r->nr_attrs++;
	return 0;
}

static int reader_read_attrs(struct spe_perf_reader *r, const struct spe_perf_file_header *h)
{
	unsigned char entry[512];
	uint64_t nr;

	if (h->attr_size < PERF_ATTR_SIZE_VER0 + 16 || h->attr_size > sizeof(entry))
		return reader_error(r, SPE_ERR_BAD_FILE, 16, "attribute entry size %llu invalid",
				    (unsigned long long)h->attr_size);
	if (h->attrs.size % h->attr_size)
		return reader_error(r, SPE_ERR_BAD_FILE, 32, "attribute section size %llu is not a multiple of %llu",
				    (unsigned long long)h->attrs.size,
				    (unsigned long long)h->attr_size);
	nr = h->attrs.size / h->attr_size;
	if (!nr)
		return reader_error(r, SPE_ERR_BAD_FILE, 32, "no attributes");
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t off = h->attrs.offset + i * h->attr_size;
		struct spe_perf_file_section ids;
		uint64_t *idv = NULL;
		uint32_t size;
		int err;

		err = spe_perf_reader_pread(r, entry, h->attr_size, off);
		if (err)
			return err;
		memcpy(&size, entry + 4, 4);
		if (!size)
			size = PERF_ATTR_SIZE_VER0;
		if (size < PERF_ATTR_SIZE_VER0 || (uint64_t)size + 16 > h->attr_size)
			return reader_error(r, SPE_ERR_BAD_FILE, off + 4,
					    "attribute size %u does not fit its %llu-byte entry",
					    size, (unsigned long long)h->attr_size);
		memcpy(&ids, entry + size, sizeof(ids));
		if (ids.size % 8 || ids.size / 8 > PDR_MAX_IDS ||
		    ids.offset > r->file_size || ids.size > r->file_size - ids.offset)
			return reader_error(r, SPE_ERR_BAD_FILE, off + size,
					    "attribute ids section (%#llx, %llu bytes) outside the file",
					    (unsigned long long)ids.offset,
					    (unsigned long long)ids.size);
		if (ids.size) {
			idv = malloc(ids.size);
			if (!idv)
				return reader_error(r, SPE_ERR_NOMEM, off, "out of memory");
			err = spe_perf_reader_pread(r, idv, ids.size, ids.offset);
			if (!err)
				err = reader_add_attr(r, entry, size, off, idv,
						      (uint32_t)(ids.size / 8));
			free(idv);
		} else {
			err = reader_add_attr(r, entry, size, off, NULL, 0);
		}
		if (err)
			return err;
	}
	return 0;
}

/* ---- Features -------------------------------------------------------------- */

/* perf's string: u32 length then that many bytes, NUL-terminated inside. */
static void reader_feat_string(const unsigned char *p, size_t n, char *out, size_t cap)
{
	uint32_t len;

	out[0] = '\0';
	if (n < 4)
		return;
	memcpy(&len, p, 4);
	if (len > n - 4)
		len = (uint32_t)(n - 4);
	if (len >= cap)
		len = (uint32_t)cap - 1;
	memcpy(out, p + 4, len);
	out[len] = '\0';
}

static void reader_feature(struct spe_perf_reader *r, int feat, const unsigned char *p, size_t n)
{
	switch (feat) {
	case SPE_HEADER_ARCH:
		reader_feat_string(p, n, r->info.arch, sizeof(r->info.arch));
		break;
	case SPE_HEADER_CPUID:
		reader_feat_string(p, n, r->info.cpuid, sizeof(r->info.cpuid));
		r->info.has_cpuid = r->info.cpuid[0] != '\0';
		break;
	case SPE_HEADER_NRCPUS:
		if (n >= 8) {
			memcpy(&r->info.nr_cpus_avail, p, 4);
			memcpy(&r->info.nr_cpus_online, p + 4, 4);
			r->info.has_nrcpus = true;
		}
		break;
	case SPE_HEADER_AUXTRACE:
		/* u64 nr, then {offset, size} per AUXTRACE record. */
		if (n >= 8) {
			memcpy(&r->info.nr_auxtrace_index, p, 8);
			r->info.has_auxtrace_index = true;
		}
		break;
	}
}

static void reader_feature_at(struct spe_perf_reader *r, int feat, uint64_t off, uint64_t size)
{
	if (feat == SPE_HEADER_AUXTRACE) {
		r->info.auxtrace_index_offset = off + 8;
		/* Only as many entries as the section holds. */
		if (size < 8 || r->info.nr_auxtrace_index > (size - 8) / 16)
			r->info.has_auxtrace_index = false;
	}
}

static int reader_read_features(struct spe_perf_reader *r, const struct spe_perf_file_header *h)
{
	static const int wanted[] = { SPE_HEADER_ARCH, SPE_HEADER_NRCPUS, SPE_HEADER_CPUID,
				      SPE_HEADER_AUXTRACE };
	uint64_t index = r->data_end;
	int nth = 0;

	for (int f = 0; f < SPE_HEADER_FEAT_BITS; f++) {
		struct spe_perf_file_section sec;
		unsigned char small[256];
		bool want = false;
		size_t n;
		int err;

		uint64_t at = index + (uint64_t)nth * sizeof(sec);

		if (!(h->features[f / 64] & (1ULL << (f % 64))))
			continue;
		for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
			want |= wanted[i] == f;
		/* Where every other section is, for spe_perf_reader_feature_section(). */
		if (!want && !spe_perf_reader_pread(r, &sec, sizeof(sec), at) &&
		    sec.offset <= r->file_size && sec.size <= r->file_size - sec.offset)
			r->feat_sec[f] = sec;
		if (want) {
			err = spe_perf_reader_pread(r, &sec, sizeof(sec), at);
			if (err)
				return reader_error(r, SPE_ERR_BAD_FILE, at,
						    "feature index entry %d cut by the end of the file", f);
			if (sec.offset > r->file_size || sec.size > r->file_size - sec.offset)
				return reader_error(r, SPE_ERR_BAD_FILE, at,
						    "feature %d section (%#llx, %llu bytes) outside the file",
						    f, (unsigned long long)sec.offset,
						    (unsigned long long)sec.size);
			n = sec.size < sizeof(small) ? (size_t)sec.size : sizeof(small);
			err = spe_perf_reader_pread(r, small, n, sec.offset);
			if (err)
				return err;
			reader_feature(r, f, small, n);
			reader_feature_at(r, f, sec.offset, sec.size);
			r->feat_sec[f] = sec;
		}
		nth++;
	}
	return 0;
}

int spe_perf_reader_feature_section(const struct spe_perf_reader *r, int feat, uint64_t *off,
				    uint64_t *size)
{
	if (feat < 0 || feat >= SPE_HEADER_FEAT_BITS || !r->feat_sec[feat].size)
		return SPE_ERR_NOT_FOUND;
	*off = r->feat_sec[feat].offset;
	*size = r->feat_sec[feat].size;
	return 0;
}

/* ---- Open ------------------------------------------------------------------ */

static int reader_open_file(struct spe_perf_reader *r)
{
	struct spe_perf_file_header h;
	int err;

	err = spe_perf_reader_pread(r, &h, sizeof(h), 0);
	if (err)
		return reader_error(r, SPE_ERR_BAD_FILE, 0,
				    "file header cut: the file has %llu bytes",
				    (unsigned long long)r->file_size);
	if (h.size != sizeof(h))
		return reader_error(r, SPE_ERR_BAD_FILE, 8, "file header size %llu, expected %zu",
				    (unsigned long long)h.size, sizeof(h));
	if (h.data.offset < sizeof(h) || h.data.offset > r->file_size)
		return reader_error(r, SPE_ERR_BAD_FILE, 40,
				    "data section offset %#llx outside the %llu-byte file",
				    (unsigned long long)h.data.offset,
				    (unsigned long long)r->file_size);
	/*
	 * A data section longer than the file is a truncated file, and size 0
	 * is what perf record leaves when it dies before rewriting the
	 * header: read the records up to the end of the file, so what is
	 * there is decoded and the cut is reported where it is.
	 */
	if (!h.data.size || h.data.size > r->file_size - h.data.offset) {
		r->info.truncated_file = h.data.size != 0;
		h.data.size = r->file_size - h.data.offset;
		memset(h.features, 0, sizeof(h.features));	/* not there */
	}
	if (h.attrs.offset > r->file_size || h.attrs.size > r->file_size - h.attrs.offset)
		return reader_error(r, SPE_ERR_BAD_FILE, 24,
				    "attribute section (%#llx, %llu bytes) outside the file",
				    (unsigned long long)h.attrs.offset,
				    (unsigned long long)h.attrs.size);
	r->data_off = h.data.offset;
	r->data_end = h.data.offset + h.data.size;
	err = reader_read_attrs(r, &h);
	if (!err)
		err = reader_read_features(r, &h);
	r->boff = r->pos = r->data_off;
	return err;
}

int spe_perf_reader_open(struct spe_perf_reader **out, int fd)
{
	return spe_perf_reader_open_stream(out, fd, NULL, 0);
}

int spe_perf_reader_open_stream(struct spe_perf_reader **out, int fd, const void *head,
				size_t head_len)
{
	struct spe_perf_reader *r = calloc(1, sizeof(*r));
	struct stat st;
	uint64_t magic_size[2];
	long avail;

	*out = r;
	if (!r)
		return SPE_ERR_NOMEM;
	r->fd = fd;
	r->buf = malloc(PDR_BUF_SIZE);
	r->scratch = malloc(65536);
	if (!r->buf || !r->scratch)
		return reader_error(r, SPE_ERR_NOMEM, 0, "out of memory");
	if (fstat(fd, &st))
		return reader_error(r, SPE_ERR_IO, 0, "stat: %s", strerror(errno));
	r->file_size = (uint64_t)st.st_size;
	/* A regular file is read with pread; anything else as a stream. */
	r->pipe = !S_ISREG(st.st_mode) || head_len;
	if (head_len > 16)
		return reader_error(r, SPE_ERR_INVAL, 0, "more than 16 bytes read ahead");
	if (!r->pipe) {
		if (r->file_size < 16)
			return reader_error(r, SPE_ERR_BAD_FILE, 0, "not a perf.data file: only %llu bytes",
					    (unsigned long long)r->file_size);
		if (reader_pread_full(fd, magic_size, 16, 0) != 16)
			return reader_error(r, SPE_ERR_IO, 0, "cannot read the file header");
	} else {
		r->data_end = UINT64_MAX;
		if (head_len)	/* what the caller read ahead (head may be NULL) */
			memcpy(r->buf, head, head_len);
		r->blen = head_len;
		avail = reader_fill(r, 16);
		if (avail < 0)
			return (int)avail;
		if (avail < 16)
			return reader_error(r, SPE_ERR_BAD_FILE, 0, "not a perf.data stream: only %ld bytes", avail);
		memcpy(magic_size, r->buf, 16);
	}
	if (magic_size[0] != SPE_PERF_MAGIC2) {
		if (magic_size[0] == __builtin_bswap64(SPE_PERF_MAGIC2))
			return reader_error(r, SPE_ERR_BAD_FILE, 0, "big-endian perf.data is not supported");
		return reader_error(r, SPE_ERR_BAD_FILE, 0, "not a perf.data file: bad magic %#llx",
				    (unsigned long long)magic_size[0]);
	}
	if (magic_size[1] == sizeof(struct spe_perf_pipe_file_header)) {
		/* perf's pipe format, from a pipe or saved in a file. */
		r->pipe_fmt = true;
		if (!r->pipe) {
			r->data_end = r->file_size;
			r->boff = 16;
		} else {
			r->bpos = 16;
		}
		r->data_off = r->pos = 16;
		return 0;
	}
	if (r->pipe)
		return reader_error(r, SPE_ERR_BAD_FILE, 8,
				    "a stream must use perf's pipe format (header size 16, found %llu)",
				    (unsigned long long)magic_size[1]);
	return reader_open_file(r);
}

void spe_perf_reader_close(struct spe_perf_reader *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->nr_attrs; i++)
		free(r->attrs[i].ids);
	free(r->scratch);
	free(r->buf);
	free(r);
}

/* ---- Records ---------------------------------------------------------------- */

static bool reader_known_type(uint32_t type)
{
	return (type >= 1 && type < PERF_RECORD_MAX) ||
	       (type >= SPE_PERF_RECORD_HEADER_ATTR && type < SPE_PERF_RECORD_USER_MAX);
}

/* The attribute whose sample type lays out this record's sample fields. */
static const struct spe_perf_reader_attr *reader_owner(const struct spe_perf_reader *r,
						       const unsigned char *p, size_t size)
{
	const struct spe_perf_reader_attr *first = r->nr_attrs ? &r->attrs[0] : NULL;
	const struct perf_event_header *h = (const void *)p;
	uint64_t id;

	if (!first)
		return NULL;
	if (r->nr_attrs == 1 || !(first->attr.sample_type & PERF_SAMPLE_IDENTIFIER))
		return first;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (size < 16)
			return NULL;
		memcpy(&id, p + 8, 8);
	} else {
		if (!first->attr.sample_id_all || size < 16)
			return NULL;
		memcpy(&id, p + size - 8, 8);
	}
	return spe_perf_reader_attr_by_id(r, id);
}

static size_t reader_trailer_size(uint64_t t)
{
	return 8 * (!!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) +
		    !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID) +
		    !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_IDENTIFIER));
}

static int reader_sample_id(struct spe_perf_reader *r, struct spe_perf_reader_event *ev,
			    const unsigned char *p, size_t size)
{
	const struct spe_perf_reader_attr *a = ev->attr;
	struct spe_perf_reader_sample_id *s = &ev->sid;
	uint64_t t;
	size_t q;

	memset(s, 0, sizeof(*s));
	if (!a)
		return 0;
	t = a->attr.sample_type;
	if (ev->header->type == PERF_RECORD_SAMPLE) {
		/* Leading fields: IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU. */
		size_t need = 8 * (1 + !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
				   !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) +
				   !!(t & PERF_SAMPLE_ADDR) + !!(t & PERF_SAMPLE_ID) +
				   !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU));

		if (size < need)
			return reader_error(r, SPE_ERR_BAD_FILE, ev->offset,
					    "sample of %zu bytes too short for its sample type", size);
		q = 8;
		if (t & PERF_SAMPLE_IDENTIFIER) {
			memcpy(&s->id, p + q, 8);
			s->has_id = true;
			q += 8;
		}
		q += (t & PERF_SAMPLE_IP) ? 8 : 0;
		if (t & PERF_SAMPLE_TID) {
			memcpy(&s->pid, p + q, 4);
			memcpy(&s->tid, p + q + 4, 4);
			s->has_tid = true;
			q += 8;
		}
		if (t & PERF_SAMPLE_TIME) {
			memcpy(&s->time, p + q, 8);
			s->has_time = true;
			q += 8;
		}
		q += (t & PERF_SAMPLE_ADDR) ? 8 : 0;
		if (t & PERF_SAMPLE_ID) {
			memcpy(&s->id, p + q, 8);
			s->has_id = true;
			q += 8;
		}
		q += (t & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
		if (t & PERF_SAMPLE_CPU) {
			memcpy(&s->cpu, p + q, 4);
			s->has_cpu = true;
		}
		return 0;
	}
	if (ev->header->type >= SPE_PERF_RECORD_HEADER_ATTR || !a->attr.sample_id_all)
		return 0;
	if (size < sizeof(struct perf_event_header) + reader_trailer_size(t))
		return reader_error(r, SPE_ERR_BAD_FILE, ev->offset,
				    "record type %u of %zu bytes too short for its sample_id",
				    ev->header->type, size);
	/* Walk back from the end: IDENTIFIER CPU STREAM_ID ID TIME TID. */
	q = size;
	if (t & PERF_SAMPLE_IDENTIFIER) {
		q -= 8;
		memcpy(&s->id, p + q, 8);
		s->has_id = true;
	}
	if (t & PERF_SAMPLE_CPU) {
		q -= 8;
		memcpy(&s->cpu, p + q, 4);
		s->has_cpu = true;
	}
	if (t & PERF_SAMPLE_STREAM_ID)
		q -= 8;
	if (t & PERF_SAMPLE_ID) {
		q -= 8;
		memcpy(&s->id, p + q, 8);
		s->has_id = true;
	}
	if (t & PERF_SAMPLE_TIME) {
		q -= 8;
		memcpy(&s->time, p + q, 8);
		s->has_time = true;
	}
	if (t & PERF_SAMPLE_TID) {
		q -= 8;
		memcpy(&s->pid, p + q, 4);
		memcpy(&s->tid, p + q + 4, 4);
		s->has_tid = true;
	}
	return 0;
}

/* Pipe mode: attributes and features arrive as records. */
static int reader_pipe_header_record(struct spe_perf_reader *r,
				     const struct spe_perf_reader_event *ev,
				     const unsigned char *p, size_t size)
{
	if (ev->header->type == SPE_PERF_RECORD_HEADER_ATTR) {
		uint32_t asz;
		size_t nr_ids;

		if (size < 8 + PERF_ATTR_SIZE_VER0)
			return reader_error(r, SPE_ERR_BAD_FILE, ev->offset, "HEADER_ATTR record too short");
		memcpy(&asz, p + 12, 4);
		if (!asz)
			asz = PERF_ATTR_SIZE_VER0;
		if (asz > size - 8 || asz < PERF_ATTR_SIZE_VER0 || (asz & 7))
			return reader_error(r, SPE_ERR_BAD_FILE, ev->offset,
					    "HEADER_ATTR attribute size %u does not fit the record", asz);
		nr_ids = (size - 8 - asz) / 8;
		/* p is 8-aligned (a misaligned record is read from its
		 * aligned copy in r->scratch) and asz a multiple of 8: the
		 * ids are read in place, never copied over the attribute. */
		return reader_add_attr(r, p + 8, asz, ev->offset,
				       (const uint64_t *)(const void *)(p + 8 + asz), (uint32_t)nr_ids);
	}
	if (ev->header->type == SPE_PERF_RECORD_HEADER_FEATURE && size >= 16) {
		uint64_t feat;

		memcpy(&feat, p + 8, 8);
		if (feat < SPE_HEADER_FEAT_BITS)
			reader_feature(r, (int)feat, p + 16, size - 16);
	}
	return 0;
}

int spe_perf_reader_next(struct spe_perf_reader *r, struct spe_perf_reader_event *ev)
{
	struct perf_event_header h;
	const unsigned char *p;
	uint64_t trailing = 0;
	long avail;
	int err;

	if (r->err)
		return r->err;
	if (r->cut_size)
		return reader_error(r, SPE_ERR_BAD_FILE, r->cut_at,
				    "AUXTRACE data of %llu bytes cut by the end of the file (%#llx); "
				    "the part before it was read",
				    (unsigned long long)r->cut_size, (unsigned long long)r->data_end);
	/* Whatever the caller left of the previous AUXTRACE data. */
	if (r->aux_left) {
		if (r->pipe) {
			if (reader_skip(r, r->aux_left))
				return reader_error(r, SPE_ERR_TRUNCATED, r->aux_next,
						    "AUXTRACE data cut by the end of input");
		}
		r->aux_left = 0;
	}
	if (!r->pipe) {
		/* File mode: reposition the window to r->pos. */
		if (r->pos < r->boff || r->pos > r->boff + r->blen) {
			r->boff = r->pos;
			r->bpos = r->blen = 0;
			r->eof = false;
		} else {
			r->bpos = (size_t)(r->pos - r->boff);
		}
	}
	avail = reader_fill(r, sizeof(h));
	if (avail < 0)
		return (int)avail;
	if (avail == 0)
		return 0;
	r->pos = r->boff + r->bpos;
	if ((size_t)avail < sizeof(h))
		return reader_error(r, SPE_ERR_BAD_FILE, r->pos,
				    "record header cut by the end of the data (%ld bytes left)", avail);
	memcpy(&h, r->buf + r->bpos, sizeof(h));
	if (h.size < sizeof(h))
		return reader_error(r, SPE_ERR_BAD_FILE, r->pos, "record type %u has size %u, less than its header",
				    h.type, h.size);
	if (!reader_known_type(h.type))
		return reader_error(r, SPE_ERR_BAD_FILE, r->pos, "unknown record type %u (size %u)",
				    h.type, h.size);
	if (h.type == SPE_PERF_RECORD_COMPRESSED)
		return reader_error(r, SPE_ERR_UNSUPPORTED, r->pos,
				    "compressed records (perf record -z) are not supported");
	avail = reader_fill(r, h.size);
	if (avail < 0)
		return (int)avail;
	if ((size_t)avail < h.size)
		return reader_error(r, SPE_ERR_BAD_FILE, r->pos,
				    "record type %u of %u bytes cut by the end of the data (%ld left)",
				    h.type, h.size, avail);
	p = r->buf + r->bpos;
	if ((uintptr_t)p & 7) {
		memcpy(r->scratch, p, h.size);
		p = (const unsigned char *)r->scratch;
	}
	memset(ev, 0, sizeof(*ev));
	ev->offset = r->pos;
	ev->header = (const void *)p;

	if (h.type == SPE_PERF_RECORD_AUXTRACE) {
		struct spe_perf_auxtrace_event a;

		if (h.size < sizeof(a))
			return reader_error(r, SPE_ERR_BAD_FILE, r->pos, "AUXTRACE record of %u bytes, expected %zu",
					    h.size, sizeof(a));
		memcpy(&a, p, sizeof(a));
		trailing = a.size;
		ev->aux_data_offset = r->pos + h.size;
		ev->aux_data_size = a.size;
		/*
		 * Cut by the end of the file (a recording that was not
		 * finished): deliver the bytes that are there, as perf does,
		 * and report the cut at the next call.
		 */
		if (!r->pipe && trailing > r->data_end - ev->aux_data_offset &&
		    r->data_end == r->file_size && ev->aux_data_offset <= r->data_end) {
			r->cut_at = r->pos;
			r->cut_size = a.size;
			trailing = r->data_end - ev->aux_data_offset;
			ev->aux_data_size = trailing;
		}
		if (!r->pipe && (trailing > r->data_end - ev->aux_data_offset))
			return reader_error(r, SPE_ERR_BAD_FILE, r->pos,
					    "AUXTRACE data of %llu bytes runs past the end of the %s (%#llx)",
					    (unsigned long long)a.size,
					    r->data_end == r->file_size ? "file" : "data section",
					    (unsigned long long)r->data_end);
		r->aux_left = trailing;
		r->aux_next = ev->aux_data_offset;
	} else if (h.type == SPE_PERF_RECORD_HEADER_TRACING_DATA) {
		uint32_t sz = 0;

		if (h.size >= 12)
			memcpy(&sz, p + 8, 4);
		trailing = sz;
		if (!r->pipe && trailing > r->data_end - (r->pos + h.size))
			return reader_error(r, SPE_ERR_BAD_FILE, r->pos, "tracing data runs past the end of the file");
		r->aux_left = trailing;	/* skipped like AUXTRACE data */
		r->aux_next = r->pos + h.size;
	}
	ev->attr = reader_owner(r, p, h.size);
	err = reader_sample_id(r, ev, p, h.size);
	if (err)
		return err;
	if (r->pipe_fmt) {
		err = reader_pipe_header_record(r, ev, p, h.size);
		if (err)
			return err;
	}
	r->bpos += h.size;
	r->pos += h.size + trailing;
	return 1;
}

/* ---- Parsed records --------------------------------------------------------- */

int spe_parse_auxtrace_info(const struct perf_event_header *h,
			    struct spe_auxtrace_info *info, const char **why)
{
	const struct spe_perf_auxtrace_info_event *e = (const void *)h;
	const uint64_t *priv = (const uint64_t *)(e + 1);
	size_t nr = (h->size - sizeof(*e)) / 8;

	memset(info, 0, sizeof(*info));
	if (h->size < sizeof(*e)) {
		*why = "AUXTRACE_INFO shorter than its fixed part";
		return SPE_ERR_BAD_FILE;
	}
	if (e->type != SPE_PERF_AUXTRACE_ARM_SPE) {
		*why = "AUXTRACE type is not ARM SPE (4)";
		return SPE_ERR_UNSUPPORTED;
	}
	/* Version 1 is exactly two u64; version 2 starts with version = 2. */
	if (nr == SPE_AUXINFO_V1_NR_PRIV) {
		info->version = 1;
		info->pmu_type = (uint32_t)priv[0];
		info->per_cpu_mmaps = priv[1] != 0;
		return 0;
	}
	if (nr < SPE_AUXINFO_V2_HDR_SIZE || priv[0] != SPE_AUXINFO_V2 ||
	    priv[1] != SPE_AUXINFO_V2_HDR_SIZE) {
		*why = "ARM SPE AUXTRACE_INFO is neither version 1 nor version 2";
		return SPE_ERR_BAD_FILE;
	}
	info->version = 2;
	info->pmu_type = (uint32_t)priv[2];
	info->per_cpu_mmaps = true;
	if (priv[3] > SPE_AUXINFO_MAX_CPUS) {
		*why = "ARM SPE AUXTRACE_INFO claims too many CPUs";
		return SPE_ERR_BAD_FILE;
	}
	info->nr_cpus = (uint32_t)priv[3];
	return 0;
}

int spe_auxtrace_info_cpu(const struct perf_event_header *h, uint32_t i,
			  struct spe_perf_writer_cpu_meta *meta, const char **why)
{
	const uint64_t *priv = (const uint64_t *)((const char *)h +
				sizeof(struct spe_perf_auxtrace_info_event));
	size_t nr = (h->size - sizeof(struct spe_perf_auxtrace_info_event)) / 8;
	size_t q = SPE_AUXINFO_V2_HDR_SIZE;

	/* Entries are variable-sized (nr_params), so walk to the i-th. */
	for (uint32_t k = 0; ; k++) {
		uint64_t np;

		if (q + SPE_AUXINFO_V2_CPU_FIXED > nr) {
			*why = "per-CPU metadata runs past the AUXTRACE_INFO record";
			return SPE_ERR_BAD_FILE;
		}
		if (priv[q] != SPE_AUXINFO_V2_CPU_MAGIC) {
			*why = "per-CPU metadata lacks its magic";
			return SPE_ERR_BAD_FILE;
		}
		np = priv[q + 2];
		if (np < SPE_AUXINFO_V2_NR_PARAMS_OLD || np > nr - q - SPE_AUXINFO_V2_CPU_FIXED) {
			*why = "per-CPU metadata parameter count does not fit the record";
			return SPE_ERR_BAD_FILE;
		}
		if (k == i) {
			meta->cpu = priv[q + 1];
			meta->midr = priv[q + 3];
			meta->pmu_type = priv[q + 4];
			meta->min_interval = priv[q + 5];
			meta->event_filter = np > 3 ? priv[q + 6] : 0;
			return 0;
		}
		q += SPE_AUXINFO_V2_CPU_FIXED + np;
	}
}

int spe_parse_time_conv(const struct perf_event_header *h, struct spe_time_conv *tc)
{
	struct spe_perf_time_conv_event e = { 0 };

	if (h->size < SPE_TIME_CONV_SHORT_SIZE)
		return SPE_ERR_BAD_FILE;
	memcpy(&e, h, h->size < sizeof(e) ? h->size : sizeof(e));
	memset(tc, 0, sizeof(*tc));
	tc->time_shift = e.time_shift;
	tc->time_mult = e.time_mult;
	tc->time_zero = e.time_zero;
	if (h->size >= sizeof(e)) {
		tc->long_form = true;
		tc->time_cycles = e.time_cycles;
		tc->time_mask = e.time_mask;
		tc->cap_user_time_zero = e.cap_user_time_zero;
		tc->cap_user_time_short = e.cap_user_time_short;
	}
	return 0;
}
