// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The analysis views' pipeline and their output files (views.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "views.h"

static int on_sample(void *ctx, const struct spe_sample *s)
{
	struct spe_view_run *vr = ctx;
	struct spe_sym sym, dsym;
	struct spe_view_sample vs = { .s = s, .sym = &sym };

	spe_symbols_lookup(vr->syms, s->pid, s->ip, s->cpumode, &sym);
	if (vr->want_srcline)
		vs.srcline = spe_srcline_get(vr->sl, &sym);
	if (vr->want_dsym && s->addr) {
		spe_symbols_lookup(vr->syms, s->pid, s->addr, s->cpumode, &dsym);
		vs.dsym = &dsym;
	}
	vs.comm = spe_symbols_comm(vr->syms, s->tid);
	return vr->on_view(vr->ctx, &vs);
}

static int on_event(void *ctx, const struct spe_pdr_event *ev)
{
	struct spe_view_run *vr = ctx;

	spe_symbols_event(vr->syms, ev);
	return vr->on_event ? vr->on_event(vr->ctx, ev) : 0;
}

int spe_view_run_execute(struct spe_view_run *vr)
{
	char err[256] = "";

	if (spe_symbols_new(&vr->syms, &vr->symcfg, err, sizeof(err)) ||
	    spe_srcline_new(&vr->sl, vr->symcfg.symfs)) {
		fprintf(stderr, "spe-decode %s: %s\n", vr->cmd, err[0] ? err : "out of memory");
		return 1;
	}
	vr->r = (struct spe_samples_run){
		.cmd = vr->cmd, .path = vr->path, .on_sample = on_sample,
		.on_event = on_event, .ctx = vr, .quiet = true, .threads = vr->threads,
	};
	/* Every record once: its instructions sample, period 1. */
	spe_itrace_parse("i1i", &vr->r.itrace, &(const char *){ NULL });
	return spe_samples_execute(&vr->r);
}

void spe_view_run_free(struct spe_view_run *vr)
{
	spe_symbols_free(vr->syms);
	spe_srcline_free(vr->sl);
	vr->syms = NULL;
	vr->sl = NULL;
}

int spe_out_file_open(struct spe_out_file *of, const char *cmd, const char *path,
		      const char *input)
{
	struct stat so, si;
	const char *slash;
	size_t dlen;

	memset(of, 0, sizeof(*of));
	of->fd = -1;
	if (input && strcmp(input, "-") && !stat(path, &so) && !stat(input, &si) &&
	    so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
		fprintf(stderr, "spe-decode %s: refusing to write the output over the input %s\n",
			cmd, input);
		return 2;
	}
	slash = strrchr(path, '/');
	dlen = slash ? (size_t)(slash - path) + 1 : 0;
	of->path = strdup(path);
	of->tmp = malloc(dlen + strlen(path) + 32);
	if (!of->path || !of->tmp) {
		fprintf(stderr, "spe-decode %s: out of memory\n", cmd);
		return 1;
	}
	snprintf(of->tmp, dlen + strlen(path) + 32, "%.*s.%s.XXXXXX", (int)dlen, path,
		 path + dlen);
	of->fd = mkstemp(of->tmp);
	if (of->fd < 0) {
		fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, path, strerror(errno));
		return 1;
	}
	/* mkstemp makes it 0600; an output is an ordinary file. */
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(of->fd, 0666 & ~um);
	}
	return 0;
}

int spe_out_file_close(struct spe_out_file *of, const char *cmd, bool ok)
{
	int status = 0;

	if (of->fd >= 0) {
		if (ok && fsync(of->fd) && errno != EINVAL) {
			fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, of->path, strerror(errno));
			ok = false;
		}
		if (close(of->fd) && ok) {
			fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, of->path, strerror(errno));
			ok = false;
		}
		if (ok && rename(of->tmp, of->path)) {
			fprintf(stderr, "spe-decode %s: %s: %s\n", cmd, of->path, strerror(errno));
			ok = false;
		}
		if (!ok)
			unlink(of->tmp);
		status = !ok;
	}
	free(of->path);
	free(of->tmp);
	of->fd = -1;
	of->path = of->tmp = NULL;
	return status;
}
