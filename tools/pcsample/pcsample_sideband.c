// SPDX-License-Identifier: GPL-2.0
/*
 * The side band of a PC-sample recording: /proc snapshots and the kernel
 * records drained from the events' rings (see pcsample_sideband.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "pcsample_sideband.h"

static bool snapshot_has_tid(const struct pcs_snapshot *s, uint32_t tid)
{
	for (size_t i = 0; i < s->nr_threads; i++)
		if (s->threads[i].tid == tid)
			return true;
	return false;
}

static bool snapshot_has_pid(const struct pcs_snapshot *s, uint32_t pid)
{
	for (size_t i = 0; i < s->nr_threads; i++)
		if (s->threads[i].pid == pid)
			return true;
	return false;
}

static bool parse_id(const char *name, uint32_t *id)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)name[0]))
		return false;
	v = strtoul(name, &end, 10);
	if (*end || v > UINT32_MAX)
		return false;
	*id = (uint32_t)v;
	return true;
}

/* /proc/PID/task/TID/comm without its newline; "" when it vanished. */
static void read_comm(const char *proc, uint32_t pid, uint32_t tid, char comm[16])
{
	char path[128];
	FILE *f;

	comm[0] = '\0';
	snprintf(path, sizeof(path), "%s/%" PRIu32 "/task/%" PRIu32 "/comm", proc, pid, tid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(comm, 16, f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
}

static int add_thread(struct pcs_snapshot *s, uint32_t pid, uint32_t tid, const char *comm)
{
	struct pcs_thread *t;

	if (SPE_GROW(s->threads, s->cap_threads, s->nr_threads, 64)) {
		errno = ENOMEM;
		return -1;
	}
	t = &s->threads[s->nr_threads++];
	t->pid = pid;
	t->tid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return 0;
}

static int add_threads(struct pcs_snapshot *s, const char *proc, uint32_t pid)
{
	char path[128], comm[16];
	struct dirent *de;
	uint32_t tid;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%" PRIu32 "/task", proc, pid);
	d = opendir(path);
	if (!d)
		return 0;	/* exited meanwhile */
	while (!ret && (de = readdir(d))) {
		if (!parse_id(de->d_name, &tid) || snapshot_has_tid(s, tid))
			continue;
		read_comm(proc, pid, tid, comm);
		if (comm[0])
			ret = add_thread(s, pid, tid, comm);
	}
	closedir(d);
	return ret;
}

/* Executable file mappings (and the vDSO) of @pid, as perf record lists them. */
static int add_maps(struct pcs_snapshot *s, const char *proc, uint32_t pid)
{
	char path[128], line[4096 + 128];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%" PRIu32 "/maps", proc, pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		char perms[8], *file;
		struct pcs_map *m;
		int name_at = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff,
			   &name_at) < 4 || !name_at || end <= start || perms[2] != 'x')
			continue;
		file = line + name_at;
		file[strcspn(file, "\n")] = '\0';
		if (file[0] != '/' && strcmp(file, "[vdso]"))
			continue;
		if (SPE_GROW(s->maps, s->cap_maps, s->nr_maps, 64)) {
			errno = ENOMEM;
			ret = -1;
			break;
		}
		m = &s->maps[s->nr_maps];
		m->path = strdup(file);
		if (!m->path) {
			errno = ENOMEM;
			ret = -1;
			break;
		}
		m->pid = pid;
		m->start = start;
		m->len = end - start;
		m->pgoff = pgoff;
		s->nr_maps++;
	}
	fclose(f);
	return ret;
}

/* The kernel's _text, when kallsyms shows addresses (kptr_restrict). */
static uint64_t kernel_text(const char *proc)
{
	char path[128], line[256], name[128], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms", proc);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) == 3 &&
		    (type == 'T' || type == 't') && !strcmp(name, "_text")) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

int pcs_snapshot_add(struct pcs_snapshot *s, const char *proc)
{
	struct dirent *de;
	uint32_t pid;
	DIR *d;
	int ret = 0;

	d = opendir(proc);
	if (!d)
		return -1;
	if (!s->kernel_start)
		s->kernel_start = kernel_text(proc);
	while (!ret && (de = readdir(d))) {
		bool known;

		if (!parse_id(de->d_name, &pid))
			continue;
		/* A process seen before keeps its maps; only new threads join. */
		known = snapshot_has_pid(s, pid);
		ret = add_threads(s, proc, pid);
		if (!ret && !known)
			ret = add_maps(s, proc, pid);
	}
	closedir(d);
	return ret;
}

void pcs_snapshot_free(struct pcs_snapshot *s)
{
	for (size_t i = 0; i < s->nr_maps; i++)
		free(s->maps[i].path);
	free(s->maps);
	free(s->threads);
	memset(s, 0, sizeof(*s));
}

/* Room for @n more bytes in @ev. */
static int events_reserve(struct pcs_events *ev, size_t n)
{
	size_t cap = ev->cap ? ev->cap : 4096;
	uint8_t *p;

	while (cap - ev->len < n) {
		if (cap > SIZE_MAX / 2) {
			errno = ENOMEM;
			return -1;
		}
		cap *= 2;
	}
	if (cap == ev->cap)
		return 0;
	p = realloc(ev->data, cap);
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	ev->data = p;
	ev->cap = cap;
	return 0;
}

int pcs_events_append(struct pcs_events *ev, const void *rec, size_t len)
{
	struct perf_event_header h;

	if (len < sizeof(h)) {
		errno = EBADMSG;
		return -1;
	}
	memcpy(&h, rec, sizeof(h));
	if (h.size != len) {
		errno = EBADMSG;
		return -1;
	}
	if (events_reserve(ev, len))
		return -1;
	memcpy(ev->data + ev->len, rec, len);
	ev->len += len;
	ev->nr++;
	return 0;
}

void pcs_events_free(struct pcs_events *ev)
{
	free(ev->data);
	memset(ev, 0, sizeof(*ev));
}

const void *pcs_events_next(const struct pcs_events *ev, size_t *pos)
{
	struct perf_event_header h;
	const void *rec;

	if (ev->len - *pos < sizeof(h))
		return NULL;
	memcpy(&h, ev->data + *pos, sizeof(h));
	if (h.size < sizeof(h) || h.size > ev->len - *pos)
		return NULL;
	rec = ev->data + *pos;
	*pos += h.size;
	return rec;
}

bool pcs_events_truncated(const struct pcs_events *ev)
{
	size_t pos = 0;
	const void *rec;

	while ((rec = pcs_events_next(ev, &pos))) {
		struct perf_event_header h;
		uint64_t flags;

		memcpy(&h, rec, sizeof(h));
		/* PERF_RECORD_AUX: header, aux_offset, aux_size, flags. */
		if (h.type != PERF_RECORD_AUX || h.size < sizeof(h) + 24)
			continue;
		memcpy(&flags, (const uint8_t *)rec + sizeof(h) + 16, sizeof(flags));
		if (flags & PERF_AUX_FLAG_TRUNCATED)
			return true;
	}
	return false;
}
