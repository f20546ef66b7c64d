// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An arm_spe recording: the records `perf record -e arm_spe_0//` writes
 * around SPE data (spe_perf_recording.h), on the perf.data writer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spe_decode.h"
#include "spe_perf_recording.h"

/* Event ids: the arm_spe event's and the dummy's, plus the CPU (0 for a
 * per-thread recording). */
#define REC_SPE_ID_BASE		100
#define REC_DUMMY_ID_BASE	200
/* Bytes read from a caller's buffer at a time. */
#define REC_IO_CHUNK		(1u << 20)

/* The arm_spe format attributes (include/spe/format_table.h, the driver's
 * one table): fmt_lo_<name> is an attribute's lowest bit in its word. */
enum {
#define SPE_FMT(name, word, lo, hi, feat)	fmt_lo_##name = (lo),
#include "spe/format_table.h"
#undef SPE_FMT
};

void spe_perf_recording_init(struct spe_perf_recording *rec)
{
	*rec = (struct spe_perf_recording){
		.size = sizeof(*rec), .pmu_type = 8,
		.config = (1ULL << fmt_lo_ts_enable) | (1ULL << fmt_lo_pa_enable),
		.period = 4096, .midr = 0x413fd0c1, .auxtrace_info_version = 1,
		.nr_cpus = 1, .pid = -1, .tid = -1,
		.tc = { .time_mult = 1, .cap_user_time_zero = true, .long_form = true },
	};
}

static bool rec_valid(const struct spe_perf_recording *rec)
{
	if (!rec || rec->size < sizeof(*rec) || !rec->period ||
	    (rec->auxtrace_info_version != 1 && rec->auxtrace_info_version != 2) ||
	    !rec->nr_cpus || rec->nr_cpus > SPE_AUXINFO_MAX_CPUS ||
	    (rec->nr_mmaps && !rec->mmaps) || (rec->nr_switches && !rec->switches) ||
	    (rec->nr_build_ids && !rec->build_ids))
		return false;
	for (uint32_t i = 0; i < rec->nr_build_ids; i++)
		if (!rec->build_ids[i].len || rec->build_ids[i].len > 20 ||
		    !rec->build_ids[i].path)
			return false;
	for (uint32_t i = 0; i < rec->nr_mmaps; i++)
		if (!rec->mmaps[i].path)
			return false;
	return true;
}

int spe_perf_recording_create(struct spe_perf_writer **out, int fd, bool pipe,
			      const struct spe_perf_recording *rec)
{
	const char *pmu_name = "arm_spe_0";
	char cpuid[32];
	struct spe_perf_writer_info info = {
		.hostname = "spe-decode", .os_release = "6.1.0",
		.perf_version = "6.1.0", .arch = "aarch64", .cpuid = cpuid,
		.nr_pmus = 1, .pmu_names = &pmu_name,
	};

	if (!out)
		return SPE_ERR_INVAL;
	*out = NULL;
	if (!rec_valid(rec))
		return SPE_ERR_INVAL;
	snprintf(cpuid, sizeof(cpuid), "0x%016" PRIx64, rec->midr);
	info.nr_cpus_avail = info.nr_cpus_online = rec->nr_cpus;
	info.pmu_types = &rec->pmu_type;
	return pipe ? spe_perf_writer_create_pipe(out, fd, &info) :
		      spe_perf_writer_create(out, fd, &info);
}

/* The BUILD_ID feature section: one build_id_event per file (header, pid
 * -1, the id in 24 bytes with its size in the 21st, the name padded to 8). */
static int rec_build_ids(struct spe_perf_writer *w, const struct spe_perf_recording *rec)
{
	size_t len = 0, cap = 0;
	unsigned char *sec = NULL;
	int err;

	for (uint32_t i = 0; i < rec->nr_build_ids; i++) {
		const struct spe_perf_recording_build_id *b = &rec->build_ids[i];
		size_t name = strlen(b->path) + 1, size = 36 + ((name + 7) & ~(size_t)7);
		struct perf_event_header h = {
			.misc = (uint16_t)(PERF_RECORD_MISC_USER | (1u << 15)),
			.size = (uint16_t)size,
		};
		int32_t pid = -1;

		if (size > UINT16_MAX) {
			free(sec);
			return SPE_ERR_INVAL;
		}
		if (len + size > cap) {
			unsigned char *n = realloc(sec, cap = (len + size) * 2);

			if (!n) {
				free(sec);
				return SPE_ERR_NOMEM;
			}
			sec = n;
		}
		memset(sec + len, 0, size);
		memcpy(sec + len, &h, sizeof(h));
		memcpy(sec + len + 8, &pid, 4);
		memcpy(sec + len + 12, b->id, b->len);
		sec[len + 12 + 20] = (unsigned char)b->len;
		memcpy(sec + len + 36, b->path, name);
		len += size;
	}
	err = spe_perf_writer_copy_feature(w, SPE_HEADER_BUILD_ID, sec, len);
	free(sec);
	return err;
}

/* The attributes perf record creates for -e arm_spe//: the SPE event and
 * the dummy event that tracks comm/mmap/task/switch. */
static int rec_attrs(struct spe_perf_writer *w, const struct spe_perf_recording *rec)
{
	uint32_t nr_ids = rec->per_thread ? 1 : rec->nr_cpus;
	uint64_t *ids = calloc(2 * (size_t)nr_ids, sizeof(*ids));
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr spe = { 0 }, dummy = { 0 };
	int err;

	if (!ids)
		return SPE_ERR_NOMEM;
	for (uint32_t i = 0; i < nr_ids; i++) {
		ids[i] = REC_SPE_ID_BASE + i;
		ids[nr_ids + i] = REC_DUMMY_ID_BASE + i;
	}
	if (!rec->per_thread)
		st |= PERF_SAMPLE_CPU;

	spe.type = rec->pmu_type;
	spe.config = rec->config;
	spe.sample_period = rec->period;
	spe.sample_type = st | PERF_SAMPLE_PERIOD;
	if (rec->config & (1ULL << fmt_lo_pa_enable))	/* perf records PHYS_ADDR then */
		spe.sample_type |= PERF_SAMPLE_PHYS_ADDR;
	spe.disabled = 1;
	spe.exclude_guest = 1;
	spe.sample_id_all = 1;
	err = spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", ids, nr_ids);

	dummy.type = PERF_TYPE_SOFTWARE;
	dummy.config = PERF_COUNT_SW_DUMMY;
	dummy.sample_period = 1;
	dummy.sample_type = st;
	dummy.disabled = 1;
	dummy.exclude_guest = 1;
	dummy.mmap = 1;
	dummy.mmap2 = 1;
	dummy.comm = 1;
	dummy.comm_exec = 1;
	dummy.task = 1;
	dummy.context_switch = !rec->per_thread;
	dummy.sample_id_all = 1;
	if (!err)
		err = spe_perf_writer_add_attr(w, &dummy, "dummy:u", ids + nr_ids, nr_ids);
	free(ids);
	return err;
}

static int rec_auxtrace_info(struct spe_perf_writer *w, const struct spe_perf_recording *rec)
{
	struct spe_perf_writer_cpu_meta *meta;
	int err;

	if (rec->auxtrace_info_version == 1)
		return spe_perf_writer_auxtrace_info_v1(w, rec->pmu_type, !rec->per_thread);
	meta = calloc(rec->nr_cpus, sizeof(*meta));
	if (!meta)
		return SPE_ERR_NOMEM;
	for (uint32_t cpu = 0; cpu < rec->nr_cpus; cpu++)
		meta[cpu] = (struct spe_perf_writer_cpu_meta){
			.cpu = cpu, .midr = rec->midr, .pmu_type = rec->pmu_type,
			.min_interval = 256, .event_filter = 0x7f0ffULL,
		};
	err = spe_perf_writer_auxtrace_info_v2(w, rec->pmu_type, meta, rec->nr_cpus,
					       SPE_AUXINFO_V2_NR_PARAMS);
	free(meta);
	return err;
}

int spe_perf_recording_begin(struct spe_perf_writer *w, const struct spe_perf_recording *rec)
{
	uint32_t cpu;
	struct spe_perf_writer_sample_id sid;
	int err = 0;

	if (!w || !rec_valid(rec) || (!rec->per_thread && rec->sideband_cpu >= rec->nr_cpus))
		return SPE_ERR_INVAL;
	/* A per-thread recording has one dummy event, CPU 0's. */
	for (uint32_t i = 0; i < rec->nr_switches; i++)
		if (rec->switches[i].cpu >= (rec->per_thread ? 1 : rec->nr_cpus))
			return SPE_ERR_INVAL;
	cpu = rec->per_thread ? 0 : rec->sideband_cpu;
	sid = (struct spe_perf_writer_sample_id){
		.pid = (uint32_t)rec->pid, .tid = (uint32_t)rec->tid,
		.id = REC_DUMMY_ID_BASE + cpu, .cpu = cpu,
	};
	if (rec->nr_build_ids)
		err = rec_build_ids(w, rec);
	if (!err)
		err = rec_attrs(w, rec);
	/* TIME_CONV first: perf copies it when it reads AUXTRACE_INFO. */
	if (!err)
		err = spe_perf_writer_time_conv(w, &rec->tc);
	if (!err)
		err = rec_auxtrace_info(w, rec);
	if (!err && rec->comm && rec->pid != -1)
		err = spe_perf_writer_comm(w, (uint32_t)rec->pid, (uint32_t)rec->tid, rec->comm,
					   true, &sid);
	for (uint32_t i = 0; !err && i < rec->nr_mmaps; i++) {
		const struct spe_perf_recording_mmap *m = &rec->mmaps[i];
		uint32_t pid = m->kernel ? UINT32_MAX : (uint32_t)rec->pid;
		uint32_t tid = m->kernel ? UINT32_MAX : (uint32_t)rec->tid;

		err = spe_perf_writer_mmap2(w,
					    m->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
					    pid, tid, m->start, m->len, m->pgoff, m->path, &sid);
	}
	for (uint32_t i = 0; !err && i < rec->nr_switches; i++) {
		const struct spe_perf_recording_switch *s = &rec->switches[i];
		struct spe_perf_writer_sample_id ssid = {
			.pid = UINT32_MAX, .tid = UINT32_MAX, .time = s->time,
			.id = REC_DUMMY_ID_BASE + (uint64_t)s->cpu, .cpu = s->cpu,
		};

		err = spe_perf_writer_switch(w, true, true, (uint32_t)s->pid, (uint32_t)s->tid,
					     &ssid);
	}
	if (!err)
		err = spe_perf_writer_finished_round(w);
	return err;
}

/* One buffer, from @mem or else through @read into a bounce buffer. */
static int rec_aux(struct spe_perf_writer *w, const struct spe_perf_recording *rec,
		   uint32_t cpu, uint64_t size, const unsigned char *mem,
		   spe_perf_recording_read_fn read, void *ctx)
{
	uint32_t idx = rec->per_thread ? 0 : cpu;
	struct spe_perf_writer_sample_id sid = {
		.pid = (uint32_t)rec->pid, .tid = (uint32_t)rec->tid,
		.id = REC_SPE_ID_BASE + idx, .cpu = idx,
	};
	uint64_t aux_off = 0, left = size, chunk = rec->chunk ? rec->chunk : UINT64_MAX;
	unsigned char *buf = NULL;
	int err;

	if (!w || !rec_valid(rec) || (!rec->per_thread && cpu >= rec->nr_cpus))
		return SPE_ERR_INVAL;
	if (!mem && size) {
		buf = malloc(size < REC_IO_CHUNK ? (size_t)size : REC_IO_CHUNK);
		if (!buf)
			return SPE_ERR_NOMEM;
	}
	err = spe_perf_writer_itrace_start(w, (uint32_t)rec->pid, (uint32_t)rec->tid, &sid);
	while (!err && left) {
		/* One AUXTRACE record per chunk. */
		uint64_t n = left < chunk ? left : chunk, got = 0;

		/* perf record: per-CPU buffers have tid -1, per-thread the tid. */
		err = spe_perf_writer_auxtrace_begin(w, n, aux_off, aux_off, idx,
						     rec->per_thread ? (uint32_t)rec->tid : UINT32_MAX,
						     rec->per_thread ? UINT32_MAX : cpu);
		if (mem && !err) {
			err = spe_perf_writer_auxtrace_data(w, mem + aux_off, n);
			got = n;
		}
		while (!err && got < n) {
			size_t want = n - got < REC_IO_CHUNK ? (size_t)(n - got) : REC_IO_CHUNK;
			long r = read(ctx, buf, want);

			if (r < 0)
				err = (int)r;
			else if (r == 0 || (size_t)r > want)
				err = SPE_ERR_TRUNCATED;
			else
				err = spe_perf_writer_auxtrace_data(w, buf, (uint64_t)r);
			got += r > 0 ? (uint64_t)r : 0;
		}
		if (!err)
			err = spe_perf_writer_aux(w, aux_off, n, rec->aux_flags, &sid);
		if (!err)
			err = spe_perf_writer_finished_round(w);
		aux_off += n;
		left -= n;
	}
	free(buf);
	return err;
}

int spe_perf_recording_aux(struct spe_perf_writer *w, const struct spe_perf_recording *rec,
			   uint32_t cpu, uint64_t size, spe_perf_recording_read_fn read,
			   void *ctx)
{
	if (!read)
		return SPE_ERR_INVAL;
	return rec_aux(w, rec, cpu, size, NULL, read, ctx);
}

int spe_perf_recording_aux_mem(struct spe_perf_writer *w, const struct spe_perf_recording *rec,
			       uint32_t cpu, const void *data, uint64_t size)
{
	if (!data && size)
		return SPE_ERR_INVAL;
	return rec_aux(w, rec, cpu, size, data, NULL, NULL);
}
