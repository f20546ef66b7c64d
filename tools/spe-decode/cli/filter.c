// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* perf's sample filters (filter.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "samples.h"

struct span {
	uint64_t first, last;
	bool any;
};

static int span_sample(void *ctx, const struct spe_sample *s)
{
	struct span *sp = ctx;

	if (!sp->any || s->time < sp->first)
		sp->first = s->time;
	if (!sp->any || s->time > sp->last)
		sp->last = s->time;
	sp->any = true;
	return 0;
}

int spe_filter_prepare(struct spe_filter *f, const char *cmd, const char *path,
		       const struct spe_itrace *it)
{
	struct span sp = { 0 };
	struct spe_samples_run r = {
		.cmd = cmd, .path = path, .itrace = *it, .on_sample = span_sample,
		.ctx = &sp, .quiet = true,
		/* The pass that follows says them and fails on them. */
		.defer_decode_errors = true,
	};
	int status;

	if (!f->time_percent)
		return 0;
	if (!strcmp(path, "-")) {
		fprintf(stderr, "spe-decode %s: --time percentages need a file, not stdin "
			"(they are of the whole recording)\n", cmd);
		return 1;
	}
	status = spe_samples_execute(&r);
	if (status)
		return status;
	spe_filter_resolve_time(f, sp.first, sp.last);
	return 0;
}

static int bad(const char *cmd, const char *opt, const char *arg, const char *why)
{
	fprintf(stderr, "spe-decode %s: --%s=%s: %s\n", cmd, opt, arg, why);
	return -1;
}

/* Whole decimal numbers, comma-separated, into @out. */
static int parse_ints(const char *cmd, const char *opt, const char *arg, int32_t *out, int *nr)
{
	const char *p = arg;

	for (;;) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v < -1 || v > INT32_MAX || (*end && *end != ','))
			return bad(cmd, opt, arg, "expected numbers separated by commas");
		if (*nr == SPE_FILTER_MAX)
			return bad(cmd, opt, arg, "too many entries");
		out[(*nr)++] = (int32_t)v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/*
 * "a,b,c": each name is copied into the filter's own store (no heap, so
 * nothing to free); copies of the filter share it with the original,
 * which the commands keep for their whole run.
 */
static int parse_names(struct spe_filter *f, const char *cmd, const char *opt,
		       const char *arg, const char **out, int *nr)
{
	for (const char *p = arg; *p; p += *p == ',') {
		size_t n = strcspn(p, ",");
		char *name;

		if (!n)
			continue;
		if (*nr == SPE_FILTER_MAX)
			return bad(cmd, opt, arg, "too many entries");
		if (n + 1 > sizeof(f->name_store) - f->name_used)
			return bad(cmd, opt, arg, "names too long");
		name = f->name_store + f->name_used;
		memcpy(name, p, n);
		name[n] = '\0';
		f->name_used += n + 1;
		out[(*nr)++] = name;
		p += n;
	}
	if (!*nr)
		return bad(cmd, opt, arg, "expected names separated by commas");
	return 0;
}

static int parse_cpus(struct spe_filter *f, const char *cmd, const char *arg)
{
	const char *p = arg;

	for (;;) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		b = a;
		if (end != p && *end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
		}
		if (end == p || errno || a < 0 || b < a || b >= SPE_FILTER_CPUS ||
		    (*end && *end != ','))
			return bad(cmd, "cpu", arg, "expected a CPU list such as 0,2-3");
		for (long c = a; c <= b; c++)
			f->cpus[c] = true;
		if (!*end)
			break;
		p = end + 1;
	}
	f->cpu_set = true;
	return 0;
}

/* "sec[.frac]" as perf reads it (up to 9 fraction digits) into ns. */
static int parse_seconds(const char *s, size_t n, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0;
	int digits = 0;

	if (!n)
		return -1;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	if (i == 0 || sec > 18000000000ULL)
		return -1;
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9' && digits < 9; i++, digits++)
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (i != n)
		return -1;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

static int parse_percent(const char *s, size_t n, double *v)
{
	char buf[32], *end;

	if (!n || n >= sizeof(buf) || s[n - 1] != '%')
		return -1;
	memcpy(buf, s, n - 1);
	buf[n - 1] = '\0';
	*v = strtod(buf, &end);
	return (end == buf || *end || *v < 0 || *v > 100) ? -1 : 0;
}

static int parse_time(struct spe_filter *f, const char *cmd, const char *arg)
{
	const char *comma = strchr(arg, ',');

	if (!strchr(arg, '%')) {
		struct spe_time_range *t = &f->times[0];
		size_t n1 = comma ? (size_t)(comma - arg) : strlen(arg);

		if (!comma || strchr(comma + 1, ','))
			return bad(cmd, "time", arg, "expected START,STOP (seconds; either may be empty)");
		*t = (struct spe_time_range){ 0 };
		if ((n1 && parse_seconds(arg, n1, &t->start)) ||
		    (comma[1] && parse_seconds(comma + 1, strlen(comma + 1), &t->stop)) ||
		    (t->stop && t->stop < t->start))
			return bad(cmd, "time", arg, "expected START,STOP in seconds, START <= STOP");
		f->nr_times = 1;
		return 0;
	}
	/* Percentages: "X%/N" or "A%-B%", comma-separated. */
	f->nr_times = 0;
	for (const char *p = arg; *p;) {
		size_t n = strcspn(p, ",");
		const char *slash = memchr(p, '/', n), *dash = memchr(p, '-', n);
		struct spe_time_range *t = &f->times[f->nr_times];
		double a, b;

		if (f->nr_times == SPE_FILTER_MAX)
			return bad(cmd, "time", arg, "too many ranges");
		if (slash) {
			char *end;
			long k = strtol(slash + 1, &end, 10);

			if (parse_percent(p, (size_t)(slash - p), &a) || end != p + n || k < 1 ||
			    a <= 0 || a * (double)k > 100.0 + 1e-9)
				return bad(cmd, "time", arg, "expected X%/N, the N-th slice of X%");
			t->from = a * (double)(k - 1);
			t->to = a * (double)k;
		} else if (dash) {
			if (parse_percent(p, (size_t)(dash - p), &a) ||
			    parse_percent(dash + 1, n - (size_t)(dash + 1 - p), &b) || b < a)
				return bad(cmd, "time", arg, "expected A%-B%");
			t->from = a;
			t->to = b;
		} else {
			return bad(cmd, "time", arg, "expected X%/N or A%-B%");
		}
		f->nr_times++;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!f->nr_times)
		return bad(cmd, "time", arg, "no range");
	f->time_percent = true;
	return 0;
}

int spe_filter_option(struct spe_filter *f, const char *cmd, int c, const char *arg)
{
	switch (c) {
	case FILTER_OPT_PID:
		return parse_ints(cmd, "pid", arg, f->pids, &f->nr_pids) ? -1 : 1;
	case FILTER_OPT_TID:
		return parse_ints(cmd, "tid", arg, f->tids, &f->nr_tids) ? -1 : 1;
	case 'C':
		return parse_cpus(f, cmd, arg) ? -1 : 1;
	case FILTER_OPT_COMM:
		return parse_names(f, cmd, "comm", arg, f->comms, &f->nr_comms) ? -1 : 1;
	case FILTER_OPT_DSO:
		return parse_names(f, cmd, "dso", arg, f->dsos, &f->nr_dsos) ? -1 : 1;
	case FILTER_OPT_TIME:
		return parse_time(f, cmd, arg) ? -1 : 1;
	}
	return 0;
}

bool spe_filter_active(const struct spe_filter *f)
{
	return f->nr_pids || f->nr_tids || f->cpu_set || f->nr_times ||
	       spe_filter_needs_names(f);
}

bool spe_filter_needs_names(const struct spe_filter *f)
{
	return f->nr_comms || f->nr_dsos;
}

void spe_filter_resolve_time(struct spe_filter *f, uint64_t first, uint64_t last)
{
	double span = last > first ? (double)(last - first) : 0.0;

	if (!f->time_percent)
		return;
	for (int i = 0; i < f->nr_times; i++) {
		struct spe_time_range *t = &f->times[i];

		t->start = first + (uint64_t)(span * t->from / 100.0);
		t->stop = first + (uint64_t)(span * t->to / 100.0);
		if (t->to >= 100.0)
			t->stop = last;
	}
	f->time_percent = false;
}

static bool in_list(const int32_t *v, int n, int32_t x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

bool spe_filter_sample(const struct spe_filter *f, const struct spe_sample *s)
{
	if (f->nr_pids && !in_list(f->pids, f->nr_pids, s->pid))
		return false;
	if (f->nr_tids && !in_list(f->tids, f->nr_tids, s->tid))
		return false;
	if (f->cpu_set && (s->cpu < 0 || s->cpu >= SPE_FILTER_CPUS || !f->cpus[s->cpu]))
		return false;
	if (f->nr_times) {
		bool in = false;

		for (int i = 0; i < f->nr_times && !in; i++)
			in = s->time >= f->times[i].start &&
			     (!f->times[i].stop || s->time <= f->times[i].stop);
		if (!in)
			return false;
	}
	return true;
}

bool spe_filter_names(const struct spe_filter *f, const char *comm, const char *dso)
{
	bool ok = !f->nr_comms;

	for (int i = 0; i < f->nr_comms && !ok; i++)
		ok = comm && !strcmp(comm, f->comms[i]);
	if (!ok)
		return false;
	ok = !f->nr_dsos;
	for (int i = 0; i < f->nr_dsos && !ok; i++) {
		const char *base = dso ? strrchr(dso, '/') : NULL;

		ok = dso && (!strcmp(dso, f->dsos[i]) || (base && !strcmp(base + 1, f->dsos[i])));
	}
	return ok;
}

bool spe_filter_names_of(const struct spe_filter *f, struct spe_symbols *syms,
			 const struct spe_sample *s, const struct spe_sym *sym)
{
	struct spe_sym own;
	const char *comm = NULL;
	char unnamed[16];

	if (!spe_filter_needs_names(f))
		return true;
	if (!sym && f->nr_dsos) {
		spe_symbols_lookup(syms, s->pid, s->ip, s->cpumode, &own);
		sym = &own;
	}
	if (f->nr_comms) {
		comm = spe_symbols_comm(syms, s->tid);
		/* A thread no COMM named is ":TID" to perf, also for --comm. */
		if (!comm) {
			snprintf(unnamed, sizeof(unnamed), ":%d", s->tid);
			comm = unnamed;
		}
	}
	return spe_filter_names(f, comm, sym ? sym->dso : NULL);
}
