// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The symbol sources of a recording: default kernel symbols and build ids
 * (kernel_symbols.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "args.h"
#include "kernel_symbols.h"
#include "perf_dir.h"
#include "spe_perf_data.h"

#define BUILD_ID_SIZE_FLAG	(1u << 15)	/* PERF_RECORD_MISC_BUILD_ID_SIZE */

/* A feature section of @r, NUL-terminated, or NULL. */
static char *feature(struct spe_perf_reader *r, int feat, size_t *len)
{
	uint64_t off, size;
	char *buf;

	if (spe_perf_reader_feature_section(r, feat, &off, &size) || size > (16u << 20))
		return NULL;
	buf = malloc(size + 1);
	if (!buf)
		return NULL;
	if (spe_perf_reader_pread(r, buf, size, off)) {
		free(buf);
		return NULL;
	}
	buf[size] = '\0';
	*len = size;
	return buf;
}

/* perf's string feature: u32 length, then the string. */
static const char *feature_string(const char *sec, size_t len)
{
	return sec && len > 4 ? sec + 4 : "";
}

/* The cached kallsyms of the kernel the BUILD_ID feature names. */
static const char *from_build_id_cache(struct spe_perf_reader *r, char *buf, size_t bufsize)
{
	const char *home = getenv("HOME");
	size_t len = 0, pos = 0;
	char *sec = feature(r, SPE_HEADER_BUILD_ID, &len);
	const char *found = NULL;

	while (sec && home && !found && pos + 36 <= len) {
		struct perf_event_header h;
		const unsigned char *id = (const unsigned char *)sec + pos + 12;
		unsigned idlen = 20;
		char hex[2 * 20 + 1];

		memcpy(&h, sec + pos, sizeof(h));
		if (h.size < 36 || pos + h.size > len)
			break;
		if (h.misc & BUILD_ID_SIZE_FLAG)
			idlen = id[20] <= 20 ? id[20] : 20;
		if (!strncmp(sec + pos + 36, "[kernel.kallsyms]", h.size - 36)) {
			for (unsigned i = 0; i < idlen; i++)
				sprintf(hex + 2 * i, "%02x", id[i]);
			hex[2 * idlen] = '\0';
			snprintf(buf, bufsize, "%s/.debug/[kernel.kallsyms]/%s/kallsyms", home, hex);
			if (!access(buf, R_OK))
				found = buf;
		}
		pos += h.size;
	}
	free(sec);
	return found;
}

/* /proc/kallsyms, if this recording is of this machine's running kernel
 * and the addresses are shown (not all zero). */
static const char *from_proc(struct spe_perf_reader *r)
{
	size_t hl = 0, rl = 0;
	char *host = feature(r, SPE_HEADER_HOSTNAME, &hl), *rel = feature(r, SPE_HEADER_OSRELEASE, &rl);
	struct utsname u;
	const char *ret = NULL;

	if (host && rel && !uname(&u) && !strcmp(feature_string(host, hl), u.nodename) &&
	    !strcmp(feature_string(rel, rl), u.release)) {
		FILE *f = fopen("/proc/kallsyms", "r");
		unsigned long long a = 0;

		if (f && fscanf(f, "%llx", &a) == 1 && a)
			ret = "/proc/kallsyms";
		if (f)
			fclose(f);
	}
	free(host);
	free(rel);
	return ret;
}

/* The perf.data file at @path opened for its header (a regular file, not
 * a pipe); false when there is none. */
static bool open_recording(const char *path, struct spe_perf_reader **r, int *fd)
{
	char *data = NULL;
	struct stat st;

	*r = NULL;
	*fd = -1;
	if (!path || !strcmp(path, "-"))
		return false;
	if (spe_perf_dir_is(path) && asprintf(&data, "%s/data", path) >= 0)
		path = data;
	/* Never a FIFO: reading it here would take the data from the decode. */
	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		free(data);
		return false;
	}
	*fd = open(path, O_RDONLY);
	free(data);
	if (*fd < 0)
		return false;
	if (spe_perf_reader_open(r, *fd) || spe_perf_reader_is_pipe(*r)) {
		spe_perf_reader_close(*r);
		close(*fd);
		*r = NULL;
		*fd = -1;
		return false;
	}
	return true;
}

const char *spe_default_kallsyms(const char *path, char *buf, size_t size)
{
	struct spe_perf_reader *r;
	const char *ret;
	int fd;

	if (!open_recording(path, &r, &fd))
		return NULL;
	ret = from_build_id_cache(r, buf, size);
	if (!ret)
		ret = from_proc(r);
	spe_perf_reader_close(r);
	close(fd);
	return ret;
}

void spe_recording_build_ids(const char *path, struct spe_symbols *s)
{
	struct spe_perf_reader *r;
	size_t len = 0;
	char *sec;
	int fd;

	if (!open_recording(path, &r, &fd))
		return;
	sec = feature(r, SPE_HEADER_BUILD_ID, &len);
	if (sec)
		spe_symbols_build_id_section(s, sec, len);
	free(sec);
	spe_perf_reader_close(r);
	close(fd);
}

int spe_cli_symbols_new(struct spe_symbols **out, struct spe_sym_config *cfg,
			const char *cmd, const char *path, char *err, size_t errlen)
{
	return spe_cli_symbols_share(out, cfg, cmd, path, NULL, err, errlen);
}

int spe_cli_symbols_share(struct spe_symbols **out, struct spe_sym_config *cfg,
			  const char *cmd, const char *path, const struct spe_symbols *share_of,
			  char *err, size_t errlen)
{
	int ret;

	cfg->warn = spe_cli_warn;
	cfg->warn_ctx = (void *)cmd;
	ret = share_of ? spe_symbols_new_sharing(out, cfg, share_of, err, errlen) :
			  spe_symbols_new(out, cfg, err, errlen);
	if (!ret)
		spe_recording_build_ids(path, *out);
	return ret;
}
