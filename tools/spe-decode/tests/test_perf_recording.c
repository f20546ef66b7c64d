// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An arm_spe recording (lib/perf_recording.c): written to a temporary file,
 * then read back with the library's perf.data reader, record by record, as
 * perf record -e arm_spe// lays it out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe_decode.h"
#include "spe_perf_recording.h"
#include "support/temp_file.h"
#include "tap.h"

/* Two SPE buffers of odd sizes, filled with a pattern.  Each AUXTRACE
 * record's data is zero-padded to 8 bytes, as perf pads it. */
#define PAD8(n)		(((n) + 7) & ~(size_t)7)

static unsigned char buf0[21], buf2[13];

static void fill(void)
{
	for (size_t i = 0; i < sizeof(buf0); i++)
		buf0[i] = (unsigned char)(0x40 + i);
	for (size_t i = 0; i < sizeof(buf2); i++)
		buf2[i] = (unsigned char)(0xa0 + i);
}

/* A read callback over memory, @step bytes at a time at most. */
struct mem_reader {
	const unsigned char *p;
	size_t left, step;
	long fail;		/* returned once the data is used up, when not 0 */
};

static long mem_read(void *ctx, void *buf, size_t n)
{
	struct mem_reader *r = ctx;

	if (!r->left)
		return r->fail;
	if (n > r->step)
		n = r->step;
	if (n > r->left)
		n = r->left;
	memcpy(buf, r->p, n);
	r->p += n;
	r->left -= n;
	return (long)n;
}

static const struct spe_perf_recording_mmap maps[] = {
	{ .start = 0x400000, .len = 0x1000, .pgoff = 0, .path = "/usr/bin/app" },
	{ .start = 0xffff800008000000ULL, .len = 0x100000, .path = "[kernel.kallsyms]_text",
	  .kernel = true },
};
static const struct spe_perf_recording_switch switches[] = {
	{ .cpu = 2, .time = 1234, .pid = 7, .tid = 8 },
};
static const struct spe_perf_recording_build_id ids[] = {
	{ .id = { 0xde, 0xad, 0xbe, 0xef }, .len = 4, .path = "/usr/bin/app" },
};

/* A per-CPU recording of CPUs 0 and 2 out of 3, in 8-byte chunks. */
static void per_cpu_recording(struct spe_perf_recording *rec)
{
	spe_perf_recording_init(rec);
	rec->nr_cpus = 3;
	rec->pmu_type = 11;
	rec->period = 1024;
	rec->midr = 0x410fd4f1;
	rec->pid = 7;
	rec->tid = 8;
	rec->comm = "app";
	rec->sideband_cpu = 2;
	rec->chunk = 8;
	rec->aux_flags = PERF_AUX_FLAG_PARTIAL;
	rec->mmaps = maps;
	rec->nr_mmaps = 2;
	rec->switches = switches;
	rec->nr_switches = 1;
	rec->build_ids = ids;
	rec->nr_build_ids = 1;
}

/* Writes @rec with buf0 on CPU 0 (from memory) and buf2 on CPU 2 (through
 * a callback @step bytes at a time); -1 on failure. */
static int write_recording(int fd, bool pipe, const struct spe_perf_recording *rec, size_t step)
{
	struct spe_perf_writer *w;
	struct mem_reader r = { .p = buf2, .left = sizeof(buf2), .step = step };
	int err = spe_perf_recording_create(&w, fd, pipe, rec);

	if (!err)
		err = spe_perf_recording_begin(w, rec);
	if (!err)
		err = spe_perf_recording_aux_mem(w, rec, 0, buf0, sizeof(buf0));
	if (!err)
		err = spe_perf_recording_aux(w, rec, 2, sizeof(buf2), mem_read, &r);
	if (!err)
		err = spe_perf_writer_finish(w);
	spe_perf_writer_free(w);
	return err ? -1 : 0;
}

/* The records of a file, by type, in order, and the AUX data read back. */
struct seen {
	uint32_t types[64];
	int n;
	unsigned char aux[2][64];
	uint64_t aux_size[2], aux_offset[2][4];
	uint32_t aux_cpu[2], aux_tid[2], aux_idx[2];
	int aux_chunks[2];
	uint64_t aux_flags;
	uint32_t comm_pid, comm_tid, comm_cpu;
	uint32_t kmap_pid, umap_pid;
	uint32_t switch_cpu, switch_next_tid;
	struct spe_auxtrace_info info;
	uint64_t v2_midr;
	struct spe_time_conv tc;
};

static int read_back(int fd, struct spe_perf_reader **rp, struct seen *s)
{
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r;
	int cur = -1, rc;

	memset(s, 0, sizeof(*s));
	lseek(fd, 0, SEEK_SET);
	if (spe_perf_reader_open(&r, fd)) {
		spe_perf_reader_close(r);
		return -1;
	}
	while ((rc = spe_perf_reader_next(r, &ev)) == 1) {
		const struct perf_event_header *h = ev.header;
		const char *why;

		if (s->n < 64)
			s->types[s->n++] = h->type;
		if (h->type == SPE_PERF_RECORD_AUXTRACE_INFO) {
			struct spe_perf_writer_cpu_meta meta;

			spe_parse_auxtrace_info(h, &s->info, &why);
			if (s->info.version == 2 && !spe_auxtrace_info_cpu(h, 1, &meta, &why))
				s->v2_midr = meta.midr;
		} else if (h->type == SPE_PERF_RECORD_TIME_CONV) {
			spe_parse_time_conv(h, &s->tc);
		} else if (h->type == SPE_PERF_RECORD_AUXTRACE) {
			const struct spe_perf_auxtrace_event *a = (const void *)h;
			int b = a->cpu == 2 || (a->cpu == UINT32_MAX && s->aux_chunks[0] && a->offset == 0);
			long got;

			cur = b;
			if (s->aux_chunks[b] < 4)
				s->aux_offset[b][s->aux_chunks[b]] = a->offset;
			s->aux_chunks[b]++;
			s->aux_cpu[b] = a->cpu;
			s->aux_tid[b] = a->tid;
			s->aux_idx[b] = a->idx;
			if (a->offset + a->size <= sizeof(s->aux[b])) {
				got = spe_perf_reader_aux_read(r, s->aux[b] + a->offset, a->size);
				if (got > 0)
					s->aux_size[b] += (uint64_t)got;
			}
		} else if (h->type == PERF_RECORD_AUX) {
			memcpy(&s->aux_flags, (const unsigned char *)h + 24, 8);
		} else if (h->type == PERF_RECORD_COMM) {
			memcpy(&s->comm_pid, (const unsigned char *)h + 8, 4);
			memcpy(&s->comm_tid, (const unsigned char *)h + 12, 4);
			s->comm_cpu = ev.sid.cpu;
		} else if (h->type == PERF_RECORD_MMAP2) {
			uint32_t pid;

			memcpy(&pid, (const unsigned char *)h + 8, 4);
			if (h->misc & PERF_RECORD_MISC_KERNEL)
				s->kmap_pid = pid;
			else
				s->umap_pid = pid;
		} else if (h->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			s->switch_cpu = ev.sid.cpu;
			memcpy(&s->switch_next_tid, (const unsigned char *)h + 12, 4);
		}
	}
	(void)cur;
	*rp = r;
	return rc;
}

static void test_per_cpu(void)
{
	struct spe_perf_recording rec;
	const struct spe_perf_reader_attr *spe, *dummy;
	const struct spe_perf_reader_info *info;
	struct spe_perf_reader *r;
	struct seen s;
	uint64_t off, size;
	int fd = test_temp_fd();
	/* What perf record writes before the data, then per buffer
	 * ITRACE_START and per chunk AUXTRACE, AUX, FINISHED_ROUND. */
	static const uint32_t want[] = {
		SPE_PERF_RECORD_TIME_CONV, SPE_PERF_RECORD_AUXTRACE_INFO, PERF_RECORD_COMM,
		PERF_RECORD_MMAP2, PERF_RECORD_MMAP2, PERF_RECORD_SWITCH_CPU_WIDE,
		SPE_PERF_RECORD_FINISHED_ROUND,
		PERF_RECORD_ITRACE_START,
		SPE_PERF_RECORD_AUXTRACE, PERF_RECORD_AUX, SPE_PERF_RECORD_FINISHED_ROUND,
		SPE_PERF_RECORD_AUXTRACE, PERF_RECORD_AUX, SPE_PERF_RECORD_FINISHED_ROUND,
		SPE_PERF_RECORD_AUXTRACE, PERF_RECORD_AUX, SPE_PERF_RECORD_FINISHED_ROUND,
		PERF_RECORD_ITRACE_START,
		SPE_PERF_RECORD_AUXTRACE, PERF_RECORD_AUX, SPE_PERF_RECORD_FINISHED_ROUND,
		SPE_PERF_RECORD_AUXTRACE, PERF_RECORD_AUX, SPE_PERF_RECORD_FINISHED_ROUND,
	};

	per_cpu_recording(&rec);
	CHECK(!write_recording(fd, false, &rec, 5), "a per-CPU recording of two buffers is written");
	CHECK_EQ(read_back(fd, &r, &s), 0, "it reads back to the end");
	if (!r)
		return;
	CHECK(s.n == (int)(sizeof(want) / sizeof(want[0])) && !memcmp(s.types, want, sizeof(want)),
	      "records in perf record's order: side band, then per buffer ITRACE_START and per 8-byte chunk AUXTRACE, AUX, FINISHED_ROUND");

	info = spe_perf_reader_info(r);
	CHECK(!strcmp(info->arch, "aarch64"), "ARCH is aarch64");
	CHECK(!strcmp(info->cpuid, "0x00000000410fd4f1"), "CPUID is the MIDR");
	CHECK(info->nr_cpus_avail == 3 && info->nr_cpus_online == 3, "NRCPUS is nr_cpus");
	CHECK(info->has_auxtrace_index, "the AUXTRACE index is written");
	CHECK(!spe_perf_reader_feature_section(r, SPE_HEADER_PMU_MAPPINGS, &off, &size) && size,
	      "PMU_MAPPINGS is written");
	CHECK(!spe_perf_reader_feature_section(r, SPE_HEADER_BUILD_ID, &off, &size) &&
	      size == 36 + 16, "BUILD_ID holds one build_id_event with the name padded to 8");

	CHECK_EQ(spe_perf_reader_nr_attrs(r), 2, "two attributes: arm_spe and dummy");
	spe = spe_perf_reader_attr(r, 0);
	dummy = spe_perf_reader_attr(r, 1);
	CHECK(spe && spe->attr.type == 11 && spe->attr.config == rec.config &&
	      spe->attr.sample_period == 1024, "arm_spe: the PMU type, config and period");
	CHECK(spe && (spe->attr.sample_type & PERF_SAMPLE_CPU) &&
	      (spe->attr.sample_type & PERF_SAMPLE_PHYS_ADDR),
	      "arm_spe samples CPU (per-CPU) and PHYS_ADDR (pa_enable)");
	CHECK(spe && spe->nr_ids == 3 && dummy && dummy->nr_ids == 3, "one id per CPU per event");
	CHECK(dummy && dummy->attr.type == PERF_TYPE_SOFTWARE &&
	      dummy->attr.config == PERF_COUNT_SW_DUMMY && dummy->attr.context_switch &&
	      dummy->attr.mmap2 && dummy->attr.comm, "dummy tracks mmap2, comm and switches");

	CHECK(s.info.version == 1 && s.info.pmu_type == 11 && s.info.per_cpu_mmaps,
	      "AUXTRACE_INFO version 1, the PMU type, per-CPU mmaps");
	CHECK(s.tc.time_mult == 1 && s.tc.cap_user_time_zero, "TIME_CONV: the defaults");
	CHECK(s.comm_pid == 7 && s.comm_tid == 8 && s.comm_cpu == 2,
	      "COMM of the thread, on the side-band CPU");
	CHECK(s.umap_pid == 7 && s.kmap_pid == UINT32_MAX,
	      "MMAP2: the thread's map has its pid, a kernel map pid -1");
	CHECK(s.switch_cpu == 2 && s.switch_next_tid == 8, "SWITCH_CPU_WIDE on its CPU, to its thread");
	CHECK(s.aux_chunks[0] == 3 && s.aux_offset[0][0] == 0 && s.aux_offset[0][1] == 8 &&
	      s.aux_offset[0][2] == 16, "CPU 0's 21 bytes: chunks at offsets 0, 8, 16");
	CHECK(s.aux_chunks[1] == 2 && s.aux_cpu[1] == 2 && s.aux_idx[1] == 2 &&
	      s.aux_tid[1] == UINT32_MAX, "CPU 2's buffer: idx and cpu 2, tid -1");
	CHECK(s.aux_size[0] == PAD8(sizeof(buf0)) && !memcmp(s.aux[0], buf0, sizeof(buf0)),
	      "CPU 0's data, from memory, reads back unchanged");
	CHECK(s.aux_size[1] == PAD8(sizeof(buf2)) && !memcmp(s.aux[1], buf2, sizeof(buf2)),
	      "CPU 2's data, from a callback 5 bytes at a time, reads back unchanged");
	CHECK_EQ(s.aux_flags, PERF_AUX_FLAG_PARTIAL, "AUX records carry aux_flags");
	spe_perf_reader_close(r);
	close(fd);
}

static void test_per_thread_v2(void)
{
	struct spe_perf_recording rec;
	const struct spe_perf_reader_attr *spe, *dummy;
	struct spe_perf_reader *r;
	struct seen s;
	int fd = test_temp_fd();

	spe_perf_recording_init(&rec);
	rec.per_thread = true;
	rec.pid = 30;
	rec.tid = 31;
	rec.nr_cpus = 2;
	rec.auxtrace_info_version = 2;
	rec.midr = 0x413fd0c1;
	rec.config = 0;
	CHECK(!write_recording(fd, false, &rec, 100), "a per-thread recording is written");
	CHECK_EQ(read_back(fd, &r, &s), 0, "it reads back to the end");
	if (!r)
		return;
	spe = spe_perf_reader_attr(r, 0);
	dummy = spe_perf_reader_attr(r, 1);
	CHECK(spe && !(spe->attr.sample_type & PERF_SAMPLE_CPU) &&
	      !(spe->attr.sample_type & PERF_SAMPLE_PHYS_ADDR),
	      "per-thread: no CPU in samples; no PHYS_ADDR without pa_enable");
	CHECK(spe && spe->nr_ids == 1 && dummy && dummy->nr_ids == 1 &&
	      !dummy->attr.context_switch, "per-thread: one id per event, no context switches");
	CHECK(s.info.version == 2 && s.info.nr_cpus == 2 && s.v2_midr == 0x413fd0c1,
	      "AUXTRACE_INFO version 2: one block per CPU with the MIDR");
	CHECK(s.aux_chunks[0] == 1 && s.aux_tid[0] == 31 && s.aux_cpu[0] == UINT32_MAX &&
	      s.aux_idx[0] == 0, "per-thread AUXTRACE: idx 0, the tid, cpu -1");
	spe_perf_reader_close(r);
	close(fd);
}

/* The pipe format (perf record -o -) of the same recording, read back by
 * the reader. */
static void test_pipe(void)
{
	struct spe_perf_recording rec;
	struct spe_perf_reader *r;
	struct seen s;
	unsigned char *head;
	size_t len;
	int fd = test_temp_fd();

	per_cpu_recording(&rec);
	CHECK(!write_recording(fd, true, &rec, 3), "the pipe format is written");
	CHECK_EQ(read_back(fd, &r, &s), 0, "it reads back to the end");
	if (!r)
		return;
	head = test_slurp(fd, &len);
	CHECK(len > 16 && !memcmp(head, "PERFILE2", 8) && head[8] == 16 && !head[9],
	      "the file is in the pipe format: a 16-byte header");
	free(head);
	CHECK(s.aux_size[0] == PAD8(sizeof(buf0)) && !memcmp(s.aux[0], buf0, sizeof(buf0)) &&
	      s.aux_size[1] == PAD8(sizeof(buf2)) && !memcmp(s.aux[1], buf2, sizeof(buf2)),
	      "both buffers read back unchanged from the pipe format");
	spe_perf_reader_close(r);
	close(fd);
}

/* The callback's data and the memory's give the same file. */
static void test_callback_is_memory(void)
{
	struct spe_perf_recording rec;
	struct spe_perf_writer *w;
	struct mem_reader rd = { .p = buf0, .left = sizeof(buf0), .step = 1 };
	int a = test_temp_fd(), b = test_temp_fd(), err;
	unsigned char *fa, *fb;
	size_t la, lb;

	per_cpu_recording(&rec);
	err = spe_perf_recording_create(&w, a, false, &rec);
	if (!err)
		err = spe_perf_recording_begin(w, &rec);
	if (!err)
		err = spe_perf_recording_aux_mem(w, &rec, 0, buf0, sizeof(buf0));
	if (!err)
		err = spe_perf_writer_finish(w);
	spe_perf_writer_free(w);
	err = err ? err : spe_perf_recording_create(&w, b, false, &rec);
	if (!err)
		err = spe_perf_recording_begin(w, &rec);
	if (!err)
		err = spe_perf_recording_aux(w, &rec, 0, sizeof(buf0), mem_read, &rd);
	if (!err)
		err = spe_perf_writer_finish(w);
	spe_perf_writer_free(w);
	CHECK_EQ(err, 0, "the same buffer written from memory and byte by byte");
	fa = test_slurp(a, &la);
	fb = test_slurp(b, &lb);
	CHECK(la == lb && !memcmp(fa, fb, la), "both files are the same bytes");
	free(fa);
	free(fb);
	close(a);
	close(b);
}

/* A read that fails or ends early stops the recording with its error. */
static void test_read_errors(void)
{
	struct spe_perf_recording rec;
	struct spe_perf_writer *w;
	struct mem_reader rd = { .p = buf0, .left = 4, .step = 4 };
	int fd = test_temp_fd(), err;

	spe_perf_recording_init(&rec);
	err = spe_perf_recording_create(&w, fd, false, &rec);
	if (!err)
		err = spe_perf_recording_begin(w, &rec);
	CHECK_EQ(err, 0, "a recording begins");
	CHECK_EQ(spe_perf_recording_aux(w, &rec, 0, 10, mem_read, &rd), SPE_ERR_TRUNCATED,
		 "data that ends before its size: SPE_ERR_TRUNCATED");
	spe_perf_writer_free(w);

	rd = (struct mem_reader){ .p = buf0, .left = 2, .step = 4, .fail = -EIO };
	err = spe_perf_recording_create(&w, fd, false, &rec);
	if (!err)
		err = spe_perf_recording_begin(w, &rec);
	CHECK_EQ(spe_perf_recording_aux(w, &rec, 0, 10, mem_read, &rd), -EIO,
		 "the callback's own error comes back unchanged");
	spe_perf_writer_free(w);
	close(fd);
}

static void test_invalid(void)
{
	struct spe_perf_recording rec, bad;
	struct spe_perf_recording_build_id id0 = { .len = 0, .path = "/x" };
	struct spe_perf_writer *w = NULL;
	int fd = test_temp_fd();

	spe_perf_recording_init(&rec);
	bad = rec;
	bad.auxtrace_info_version = 3;
	CHECK_EQ(spe_perf_recording_create(&w, fd, false, &bad), SPE_ERR_INVAL,
		 "AUXTRACE_INFO version 3 is refused");
	CHECK(!w, "no writer after a refusal");
	bad = rec;
	bad.nr_cpus = 0;
	CHECK_EQ(spe_perf_recording_create(&w, fd, false, &bad), SPE_ERR_INVAL,
		 "no CPU is refused");
	bad = rec;
	bad.size = sizeof(bad) - 1;
	CHECK_EQ(spe_perf_recording_create(&w, fd, false, &bad), SPE_ERR_INVAL,
		 "a structure smaller than this library's is refused");
	bad = rec;
	bad.period = 0;
	CHECK_EQ(spe_perf_recording_create(&w, fd, false, &bad), SPE_ERR_INVAL,
		 "period 0 is refused");
	bad = rec;
	bad.build_ids = &id0;
	bad.nr_build_ids = 1;
	CHECK_EQ(spe_perf_recording_create(&w, fd, false, &bad), SPE_ERR_INVAL,
		 "an empty build id is refused");

	CHECK_EQ(spe_perf_recording_create(&w, fd, false, &rec), 0, "a valid recording opens");
	bad = rec;
	bad.switches = switches;	/* CPU 2 of 1 */
	bad.nr_switches = 1;
	CHECK_EQ(spe_perf_recording_begin(w, &bad), SPE_ERR_INVAL,
		 "a switch on a CPU past nr_cpus is refused");
	bad = rec;
	bad.sideband_cpu = 1;
	CHECK_EQ(spe_perf_recording_begin(w, &bad), SPE_ERR_INVAL,
		 "a side-band CPU past nr_cpus is refused");
	CHECK_EQ(spe_perf_recording_begin(w, &rec), 0, "then the valid one begins");
	CHECK_EQ(spe_perf_recording_aux_mem(w, &rec, 1, buf0, 4), SPE_ERR_INVAL,
		 "a buffer of a CPU past nr_cpus is refused");
	CHECK_EQ(spe_perf_recording_aux(w, &rec, 0, 4, NULL, NULL), SPE_ERR_INVAL,
		 "a buffer without a read callback is refused");
	spe_perf_writer_free(w);
	close(fd);
}

int main(void)
{
	fill();
	test_per_cpu();
	test_per_thread_v2();
	test_pipe();
	test_callback_is_memory();
	test_read_errors();
	test_invalid();
	return tap_done();
}
