// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* perf's directory format joined into one pipe-format file (perf_dir.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf_dir.h"
#include "spe_perf_data.h"

bool spe_perf_dir_is(const char *path)
{
	char *data = NULL;
	struct stat st;
	bool yes;

	if (stat(path, &st) || !S_ISDIR(st.st_mode) || asprintf(&data, "%s/data", path) < 0)
		return false;
	yes = !stat(data, &st) && S_ISREG(st.st_mode);
	free(data);
	return yes;
}

static int tmp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char *name = NULL;
	int fd;

	if (asprintf(&name, "%s/spe-decode.XXXXXX", dir && *dir ? dir : "/tmp") < 0)
		return -1;
	fd = mkstemp(name);
	if (fd >= 0)
		unlink(name);
	free(name);
	return fd;
}

/* The main file's attributes, features and records into @w. */
static int copy_main(struct spe_perf_reader *r, struct spe_perf_writer *w, const char **why)
{
	struct spe_perf_reader_event ev;
	unsigned char *buf = NULL;
	int err = 0, k;

	for (uint32_t i = 0; !err && i < spe_perf_reader_nr_attrs(r); i++) {
		const struct spe_perf_reader_attr *a = spe_perf_reader_attr(r, i);
		struct perf_event_attr attr = a->attr;

		attr.size = 0;	/* the writer's own size; the rest is zero-extended */
		err = spe_perf_writer_add_attr(w, &attr, NULL, a->ids, a->nr_ids);
		if (err)
			*why = "an event attribute this tool cannot rewrite";
	}
	if (!err)
		err = spe_perf_writer_copy_features(w, r, 0);
	while (!err && (k = spe_perf_reader_next(r, &ev)) != 0) {
		if (k < 0) {
			*why = spe_perf_reader_errmsg(r);
			err = k;
			break;
		}
		if (ev.header->type != SPE_PERF_RECORD_AUXTRACE) {
			err = spe_perf_writer_write_event(w, ev.header);
			continue;
		}
		{
			const struct spe_perf_auxtrace_event *a = (const void *)ev.header;
			long n;

			if (!buf && !(buf = malloc(1 << 16))) {
				err = SPE_ERR_NOMEM;
				break;
			}
			err = spe_perf_writer_auxtrace_begin(w, ev.aux_data_size, a->offset,
				a->reference,
							     a->idx, a->tid, a->cpu);
			while (!err && (n = spe_perf_reader_aux_read(r, buf, 1 << 16)) > 0)
				err = spe_perf_writer_auxtrace_data(w, buf, (uint64_t)n);
		}
	}
	free(buf);
	return err;
}

/* The records of one DIR/data.N (no header) into @w. */
static int copy_thread_file(const char *path, struct spe_perf_writer *w, const char **why)
{
	int fd = open(path, O_RDONLY), err = 0;
	const unsigned char *p;
	struct stat st;
	uint64_t pos = 0;

	if (fd < 0 || fstat(fd, &st)) {
		*why = strerror(errno);
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	if (!st.st_size) {
		close(fd);
		return 0;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		*why = strerror(errno);
		return -errno;
	}
	while (!err && pos + sizeof(struct perf_event_header) <= (uint64_t)st.st_size) {
		struct perf_event_header h;
		uint64_t end;

		memcpy(&h, p + pos, sizeof(h));
		end = pos + h.size;
		if (h.size < sizeof(h) || (h.size & 7) || end > (uint64_t)st.st_size) {
			*why = "a record cut or malformed (the thread file ends there)";
			err = SPE_ERR_BAD_FILE;
			break;
		}
		if (h.type == SPE_PERF_RECORD_AUXTRACE && h.size >= sizeof(struct spe_perf_auxtrace_event)) {
			struct spe_perf_auxtrace_event a;
			uint64_t n;

			memcpy(&a, p + pos, sizeof(a));
			/* Data cut by the end of the file: what is there. */
			n = a.size < (uint64_t)st.st_size - end ? a.size : (uint64_t)st.st_size - end;
			err = spe_perf_writer_auxtrace_begin(w, n, a.offset, a.reference, a.idx, a.tid, a.cpu);
			if (!err)
				err = spe_perf_writer_auxtrace_data(w, p + end, n);
			end += n;
		} else {
			uint64_t rec[65536 / 8];	/* 8-aligned copy */

			memcpy(rec, p + pos, h.size);
			err = spe_perf_writer_write_event(w, rec);
		}
		pos = end;
	}
	munmap((void *)p, (size_t)st.st_size);
	return err;
}

static int by_number(const struct dirent **a, const struct dirent **b)
{
	return atoi((*a)->d_name + 5) - atoi((*b)->d_name + 5);
}

static int is_thread_file(const struct dirent *d)
{
	const char *n = d->d_name;

	return !strncmp(n, "data.", 5) && n[5] && strspn(n + 5, "0123456789") == strlen(n + 5);
}

int spe_perf_dir_join(const char *cmd, const char *path)
{
	struct spe_perf_writer_info info = { 0 };
	struct dirent **files = NULL;
	struct spe_perf_reader *r = NULL;
	struct spe_perf_writer *w = NULL;
	const char *why = NULL, *where = "data";
	char *data = NULL, *file = NULL;
	int in = -1, out, nr = 0, err;

	out = tmp_file();
	if (out < 0 || asprintf(&data, "%s/data", path) < 0) {
		fprintf(stderr, "spe-decode %s: %s: temporary file: %s\n", cmd, path,
			strerror(errno));
		if (out >= 0)
			close(out);
		return -1;
	}
	in = open(data, O_RDONLY);
	err = in < 0 ? -errno : spe_perf_reader_open(&r, in);
	if (err && r)
		why = spe_perf_reader_errmsg(r);
	if (!err)
		err = spe_perf_writer_create_pipe(&w, out, &info);
	if (!err)
		err = copy_main(r, w, &why);
	if (!err) {
		nr = scandir(path, &files, is_thread_file, by_number);
		if (nr < 0)
			err = -errno;
	}
	for (int i = 0; !err && i < nr; i++) {
		free(file);
		file = NULL;
		if (asprintf(&file, "%s/%s", path, files[i]->d_name) < 0) {
			err = SPE_ERR_NOMEM;
			break;
		}
		where = files[i]->d_name;
		err = copy_thread_file(file, w, &why);
	}
	if (!err)
		err = spe_perf_writer_finish(w);
	if (err)
		fprintf(stderr, "spe-decode %s: %s/%s: %s\n", cmd, path, where,
			why ? why : spe_strerror(err));
	for (int i = 0; i < nr; i++)
		free(files[i]);
	free(files);
	free(file);
	free(data);
	spe_perf_writer_free(w);
	spe_perf_reader_close(r);
	if (in >= 0)
		close(in);
	if (err || lseek(out, 0, SEEK_SET)) {
		close(out);
		return -1;
	}
	return out;
}
