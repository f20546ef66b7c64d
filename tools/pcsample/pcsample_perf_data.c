// SPDX-License-Identifier: GPL-2.0
/*
 * A PC-sample recording written as perf.data (see pcsample_perf_data.h),
 * through the decoder library's perf.data writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "pcsample_perf_data.h"
#include "spe_perf_data.h"

/* Kernel records that only describe the AUX buffer, which the file does
 * not carry: its samples replace it. */
#define RECORD_AUX_OUTPUT_HW_ID	21

/* The sample_id_all trailer of PCS_SAMPLE_TYPE: TID, TIME, CPU, IDENTIFIER. */
#define TRAILER_SIZE		32
#define TRAILER_TIME_FROM_END	24

struct order {
	uint64_t time;
	uint32_t kind;		/* 0: side band (first at equal times), 1: sample */
	uint32_t event;		/* side band: which event's records */
	size_t pos;		/* side band: record offset; sample: index */
};

struct tid_pid {
	uint32_t tid, pid;
};

static int order_cmp(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int tid_cmp(const void *a, const void *b)
{
	const struct tid_pid *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static uint16_t cpumode(unsigned int mode)
{
	switch (mode) {
	case PCS_MODE_USER: return PERF_RECORD_MISC_USER;
	case PCS_MODE_KERNEL: return PERF_RECORD_MISC_KERNEL;
	case PCS_MODE_HYPERVISOR: return PERF_RECORD_MISC_HYPERVISOR;
	case PCS_MODE_GUEST_KERNEL: return PERF_RECORD_MISC_GUEST_KERNEL;
	}
	return PERF_RECORD_MISC_CPUMODE_UNKNOWN;
}

static bool sideband_kept(const struct perf_event_header *h)
{
	return h->type != PERF_RECORD_AUX && h->type != PERF_RECORD_ITRACE_START &&
	       h->type != RECORD_AUX_OUTPUT_HW_ID && h->size >= sizeof(*h) + TRAILER_SIZE;
}

static uint64_t sideband_time(const void *rec)
{
	struct perf_event_header h;
	uint64_t t;

	memcpy(&h, rec, sizeof(h));
	memcpy(&t, (const uint8_t *)rec + h.size - TRAILER_TIME_FROM_END, sizeof(t));
	return t;
}

/* Every thread's process: the snapshot's, then COMM and FORK records'. */
static struct tid_pid *thread_table(const struct pcs_recording *rec, size_t *nr)
{
	size_t n = rec->snap->nr_threads, cap = n + 1, pos;
	struct tid_pid *t = malloc(cap * sizeof(*t));
	const uint8_t *r;

	if (!t)
		return NULL;
	for (size_t i = 0; i < rec->snap->nr_threads; i++)
		t[i] = (struct tid_pid){ rec->snap->threads[i].tid, rec->snap->threads[i].pid };
	for (uint32_t e = 0; e < rec->nr_events; e++) {
		for (pos = 0; (r = pcs_events_next(&rec->sideband[e], &pos));) {
			struct perf_event_header h;
			uint32_t ids[4];

			memcpy(&h, r, sizeof(h));
			if ((h.type != PERF_RECORD_COMM && h.type != PERF_RECORD_FORK) ||
			    h.size < sizeof(h) + sizeof(ids))
				continue;
			/* COMM: pid, tid.  FORK: pid, ppid, tid, ptid. */
			memcpy(ids, r + sizeof(h), sizeof(ids));
			if (n == cap) {
				struct tid_pid *bigger = realloc(t, 2 * cap * sizeof(*t));

				if (!bigger) {
					free(t);
					return NULL;
				}
				t = bigger;
				cap *= 2;
			}
			t[n++] = h.type == PERF_RECORD_COMM ? (struct tid_pid){ ids[1], ids[0] } :
							      (struct tid_pid){ ids[2], ids[0] };
		}
	}
	qsort(t, n, sizeof(*t), tid_cmp);
	*nr = n;
	return t;
}

static uint32_t pid_of(const struct tid_pid *t, size_t n, uint32_t tid)
{
	struct tid_pid key = { tid, 0 };
	const struct tid_pid *hit = bsearch(&key, t, n, sizeof(*t), tid_cmp);

	/* Not seen: a thread that began and ended within the recording,
	 * most likely its process's only thread. */
	return hit ? hit->pid : tid;
}

/* MIDR_EL1 as perf's CPUID header says it, on arm64; else NULL. */
static const char *read_cpuid(char *buf, size_t len)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	unsigned long long midr;
	int ok;

	if (!f)
		return NULL;
	ok = fscanf(f, "%llx", &midr) == 1;
	fclose(f);
	if (!ok)
		return NULL;
	snprintf(buf, len, "0x%016llx", midr);
	return buf;
}

static int write_synthesized(struct spe_perf_writer *w, const struct pcs_recording *rec)
{
	const struct pcs_snapshot *s = rec->snap;
	struct spe_perf_writer_sample_id sid = {
		.id = rec->ids[0], .cpu = rec->cpus[0], .time = 0,
	};
	int err = 0;

	if (s->kernel_start) {
		/* What perf record writes for the kernel: pgoff is _text. */
		sid.pid = sid.tid = UINT32_MAX;
		err = spe_perf_writer_mmap2(w, PERF_RECORD_MISC_KERNEL, UINT32_MAX, UINT32_MAX,
					    s->kernel_start, ~0ULL - s->kernel_start,
					    s->kernel_start, "[kernel.kallsyms]_text", &sid);
	}
	for (size_t i = 0; !err && i < s->nr_threads; i++) {
		sid.pid = s->threads[i].pid;
		sid.tid = s->threads[i].tid;
		err = spe_perf_writer_comm(w, sid.pid, sid.tid, s->threads[i].comm, false, &sid);
	}
	for (size_t i = 0; !err && i < s->nr_maps; i++) {
		const struct pcs_map *m = &s->maps[i];

		sid.pid = sid.tid = m->pid;
		err = spe_perf_writer_mmap2(w, PERF_RECORD_MISC_USER, m->pid, m->pid, m->start,
					    m->len, m->pgoff, m->path, &sid);
	}
	return err;
}

static struct order *merge_order(const struct pcs_recording *rec, size_t *nr,
				 struct pcs_perf_data_stats *stats)
{
	size_t n = rec->nr_samples, pos;
	struct order *o;
	const uint8_t *r;

	for (uint32_t e = 0; e < rec->nr_events; e++)
		n += rec->sideband[e].nr;
	o = malloc((n ? n : 1) * sizeof(*o));
	if (!o)
		return NULL;
	n = 0;
	for (uint32_t e = 0; e < rec->nr_events; e++) {
		for (pos = 0; ; ) {
			size_t at = pos;
			struct perf_event_header h;

			r = pcs_events_next(&rec->sideband[e], &pos);
			if (!r)
				break;
			memcpy(&h, r, sizeof(h));
			if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
				uint64_t lost;

				memcpy(&lost, r + sizeof(h) + 8, sizeof(lost));
				stats->lost += lost;
			}
			if (sideband_kept(&h))
				o[n++] = (struct order){ sideband_time(r), 0, e, at };
		}
	}
	for (size_t i = 0; i < rec->nr_samples; i++)
		o[n++] = (struct order){ rec->samples[i].time, 1, 0, i };
	qsort(o, n, sizeof(*o), order_cmp);
	*nr = n;
	return o;
}

static int event_of_cpu(const struct pcs_recording *rec, uint32_t cpu)
{
	for (uint32_t e = 0; e < rec->nr_events; e++)
		if (rec->cpus[e] == cpu)
			return (int)e;
	return -1;
}

/* Returns 0, -1 having said why in @err, or the writer's error code. */
static int write_records(struct spe_perf_writer *w, const struct pcs_recording *rec,
			 struct pcs_perf_data_stats *stats, char *err, size_t err_len)
{
	size_t nr_order = 0, nr_threads = 0;
	struct tid_pid *threads = thread_table(rec, &nr_threads);
	struct order *order = merge_order(rec, &nr_order, stats);
	int ret = 0;

	if (!threads || !order) {
		snprintf(err, err_len, "out of memory ordering %zu samples", rec->nr_samples);
		ret = -1;
		goto out;
	}
	for (size_t i = 0; !ret && i < nr_order; i++) {
		const struct order *o = &order[i];
		const struct pcs_record *p;
		struct spe_perf_writer_sample s;
		int e;

		if (o->kind == 0) {
			ret = spe_perf_writer_write_event(w, rec->sideband[o->event].data + o->pos);
			stats->sideband++;
			continue;
		}
		p = &rec->samples[o->pos];
		e = event_of_cpu(rec, p->cpu);
		if (e < 0) {
			snprintf(err, err_len, "a sample of CPU %u, which was not recorded", p->cpu);
			ret = -1;
			break;
		}
		memset(&s, 0, sizeof(s));
		s.misc = cpumode(p->s.mode);
		s.id = rec->ids[e];
		s.ip = p->s.ip;
		s.time = p->time;
		s.cpu = p->cpu;
		s.period = rec->period_ns;
		if (p->s.pid == PCS_PID_UNKNOWN) {
			s.pid = s.tid = UINT32_MAX;
			stats->unplaced++;
		} else {
			s.tid = p->s.pid;
			s.pid = pid_of(threads, nr_threads, p->s.pid);
		}
		ret = spe_perf_writer_sample(w, &s);
		stats->samples++;
	}
out:
	free(order);
	free(threads);
	return ret;
}

static int write_file(int fd, const struct pcs_recording *rec,
		      struct pcs_perf_data_stats *stats, char *err, size_t err_len)
{
	struct utsname u;
	char cpuid[32];
	uint32_t type = rec->attr.type;
	const char *pmu_names[] = { rec->pmu_name };
	long ncpus = sysconf(_SC_NPROCESSORS_CONF), online = sysconf(_SC_NPROCESSORS_ONLN);
	struct spe_perf_writer_info info = {
		.perf_version = "pcsample-record",
		.cpuid = read_cpuid(cpuid, sizeof(cpuid)),
		.nr_cpus_avail = ncpus > 0 ? (uint32_t)ncpus : 1,
		.nr_cpus_online = online > 0 ? (uint32_t)online : 1,
		.nr_pmus = 1, .pmu_types = &type, .pmu_names = pmu_names,
	};
	struct spe_perf_writer *w = NULL;
	char event_name[64];
	int ret;

	if (!uname(&u)) {
		info.hostname = u.nodename;
		info.os_release = u.release;
		info.arch = u.machine;
	}
	snprintf(event_name, sizeof(event_name), "%s//", rec->pmu_name);
	ret = spe_perf_writer_create(&w, fd, &info);
	if (!ret)
		ret = spe_perf_writer_add_attr(w, &rec->attr, event_name, rec->ids, rec->nr_events);
	if (!ret)
		ret = write_synthesized(w, rec);
	/* -1: write_records() said what; else the writer's own code. */
	if (!ret)
		ret = write_records(w, rec, stats, err, err_len);
	if (!ret)
		ret = spe_perf_writer_finish(w);
	if (ret && ret != -1)
		snprintf(err, err_len, "%s", spe_perf_writer_errmsg(w) ? spe_perf_writer_errmsg(w) :
						  spe_strerror(ret));
	spe_perf_writer_free(w);
	return ret ? -1 : 0;
}

int pcs_perf_data_write(const char *path, const struct pcs_recording *rec,
			struct pcs_perf_data_stats *stats, char *err, size_t err_len)
{
	char tmp[PATH_MAX];
	int fd;

	memset(stats, 0, sizeof(*stats));
	if (!rec->nr_events) {
		snprintf(err, err_len, "no event was recorded");
		return -1;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, err_len, "%s: path too long", path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, err_len, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (write_file(fd, rec, stats, err, err_len)) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) || rename(tmp, path)) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
