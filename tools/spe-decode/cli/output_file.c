// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Output files written to a temporary name and renamed on success. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_file.h"

static bool same_file(const struct stat *a, const char *path)
{
	struct stat b;

	return !stat(path, &b) && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* True (after a message) when writing @path, or moving it to @old, would
 * replace one of the inputs. */
static bool clobbers_input(const char *cmd, const char *path, const char *old,
			   const char *const *inputs, int nr_inputs)
{
	struct stat out, oldst;
	bool have_out = !stat(path, &out), have_old = !stat(old, &oldst);

	for (int i = 0; i < nr_inputs; i++) {
		if (!inputs[i] || !strcmp(inputs[i], "-"))
			continue;
		if (!strcmp(inputs[i], path) || (have_out && same_file(&out, inputs[i]))) {
			fprintf(stderr, "spe-decode %s: output %s is also an input; "
				"choose another output name\n", cmd, path);
			return true;
		}
		if (have_out && out.st_size > 0 &&
		    (!strcmp(inputs[i], old) || (have_old && same_file(&oldst, inputs[i])))) {
			fprintf(stderr, "spe-decode %s: keeping the existing %s as %s would "
				"replace the input %s; choose another output name\n",
				cmd, path, old, inputs[i]);
			return true;
		}
	}
	return false;
}

static char *old_name(const char *path)
{
	size_t n = strlen(path);
	char *old = malloc(n + 5);

	if (old)
		memcpy(mempcpy(old, path, n), ".old", 5);
	return old;
}

/* The process's umask (read by setting it, then put back: at startup,
 * before any thread). */
static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

int spe_out_file_open(struct spe_out_file *of, const char *cmd, const char *path,
		      const char *const *inputs, int nr_inputs, enum spe_out_mode mode)
{
	char *copy1 = NULL, *copy2 = NULL, *old = NULL;
	struct stat st;
	int ret = -1;

	memset(of, 0, sizeof(*of));
	of->path = path;
	of->fd = -1;
	if (!strcmp(path, "-")) {
		of->is_stdout = true;
		of->fd = STDOUT_FILENO;
		return 0;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "spe-decode %s: output %s is a directory\n", cmd, path);
		return -1;
	}
	copy1 = strdup(path);
	copy2 = strdup(path);
	old = old_name(path);
	if (!copy1 || !copy2 || !old) {
		fprintf(stderr, "spe-decode %s: out of memory\n", cmd);
		goto out;
	}
	if (clobbers_input(cmd, path, old, inputs, nr_inputs))
		goto out;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		of->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (of->fd < 0) {
			fprintf(stderr, "spe-decode %s: cannot open %s: %s\n", cmd, path,
				strerror(errno));
			goto out;
		}
		of->in_place = true;
		ret = 0;
		goto out;
	}
	/* dirname/basename may modify their argument: one copy each. */
	if (asprintf(&of->tmp, "%s/.%s.XXXXXX", dirname(copy1), basename(copy2)) < 0) {
		of->tmp = NULL;
		fprintf(stderr, "spe-decode %s: out of memory\n", cmd);
		goto out;
	}
	of->fd = mkstemp(of->tmp);	/* mode 0600 */
	if (of->fd < 0) {
		fprintf(stderr, "spe-decode %s: cannot create %s: %s\n", cmd, path,
			strerror(errno));
		free(of->tmp);
		of->tmp = NULL;
		goto out;
	}
	/* Before anything is written: the file is never more open than asked. */
	if (mode == SPE_OUT_UMASK && fchmod(of->fd, 0666 & ~current_umask())) {
		fprintf(stderr, "spe-decode %s: cannot set the mode of %s: %s\n", cmd, of->tmp,
			strerror(errno));
		spe_out_file_abort(of);
		goto out;
	}
	ret = 0;
out:
	free(copy1);
	free(copy2);
	free(old);
	return ret;
}

bool spe_out_file_is_stream(const struct spe_out_file *of)
{
	return of->is_stdout || (of->in_place && lseek(of->fd, 0, SEEK_CUR) < 0);
}

void spe_out_file_abort(struct spe_out_file *of)
{
	if (of->in_place && of->fd >= 0) {
		close(of->fd);
		of->fd = -1;
	}
	if (of->is_stdout || !of->tmp)
		return;
	if (of->fd >= 0)
		close(of->fd);
	unlink(of->tmp);
	free(of->tmp);
	of->tmp = NULL;
	of->fd = -1;
}

int spe_out_file_commit(struct spe_out_file *of, const char *cmd)
{
	struct stat st;
	char *old;
	int fd = of->fd;

	if (of->is_stdout)
		return 0;
	of->fd = -1;
	/* fd -1: the caller closed it (through fclose) and checked that. */
	if (fd >= 0 && close(fd)) {
		fprintf(stderr, "spe-decode %s: writing %s: %s\n", cmd, of->path, strerror(errno));
		spe_out_file_abort(of);
		return -1;
	}
	if (of->in_place)
		return 0;
	old = old_name(of->path);
	if (!old) {
		fprintf(stderr, "spe-decode %s: out of memory\n", cmd);
		spe_out_file_abort(of);
		return -1;
	}
	/* perf's habit: an existing non-empty output becomes OUT.old. */
	if (!stat(of->path, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    rename(of->path, old)) {
		fprintf(stderr, "spe-decode %s: cannot keep %s as %s: %s\n", cmd, of->path,
			old, strerror(errno));
		free(old);
		spe_out_file_abort(of);
		return -1;
	}
	free(old);
	if (rename(of->tmp, of->path)) {
		fprintf(stderr, "spe-decode %s: cannot rename %s to %s: %s\n", cmd, of->tmp,
			of->path, strerror(errno));
		spe_out_file_abort(of);
		return -1;
	}
	free(of->tmp);
	of->tmp = NULL;
	return 0;
}

int spe_out_file_finish(struct spe_out_file *of, const char *cmd, bool ok)
{
	if (!ok || (!of->is_stdout && !of->in_place && !of->tmp)) {
		spe_out_file_abort(of);
		return 0;
	}
	return spe_out_file_commit(of, cmd);
}
