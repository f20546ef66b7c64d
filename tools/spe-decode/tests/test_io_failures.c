// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Failures of the calls the perf.data layers make: each allocation, mmap
 * and read in turn is made to fail while a session reads a file (from a
 * file with and without decoding threads, and from a pipe).  Every run
 * must either end with an error that names the problem, or, when the
 * library can do without (an interrupted read is retried; decoding
 * threads are optional), give exactly the records of a run without
 * failures: never a crash, never a silent partial answer.
 *
 * The calls are replaced at link time (ld --wrap, see the Makefile): the
 * test's __wrap_X counts the library's calls and fails the chosen one.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spe_decode.h"
#include "spe_data_source.h"
#include "spe_report.h"
#include "spe_session.h"
#include "tap.h"

enum fault { F_NONE, F_ALLOC, F_MMAP, F_READ };

static _Atomic int fault_kind = F_NONE;
static atomic_long fault_at;	/* fail the Nth call of that kind (1-based) */
static atomic_long fault_calls;
static _Atomic int fault_errno;	/* errno of the failed call */
static _Atomic int fault_fired;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __real_read(int fd, void *buf, size_t n);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_read(int fd, void *buf, size_t n);

/* True when this call of kind k is the one to fail. */
static bool fail_now(enum fault k)
{
	if (atomic_load(&fault_kind) != (int)k)
		return false;
	if (atomic_fetch_add(&fault_calls, 1) + 1 != atomic_load(&fault_at))
		return false;
	atomic_store(&fault_fired, 1);
	errno = atomic_load(&fault_errno);
	return true;
}

void *__wrap_malloc(size_t n)
{
	return fail_now(F_ALLOC) ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now(F_ALLOC) ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now(F_ALLOC) ? NULL : __real_realloc(p, n);
}

/*
 * Every mapping of a file gets an inaccessible page after it, so that a
 * read past the end of a file that is a whole number of pages faults
 * instead of reading whatever mapping happens to follow.
 */
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), span = (len + page - 1) & ~(page - 1);
	char *base;

	if (fail_now(F_MMAP))
		return MAP_FAILED;
	if (addr || fd < 0 || (flags & MAP_FIXED))
		return __real_mmap(addr, len, prot, flags, fd, off);
	base = __real_mmap(NULL, span + page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return MAP_FAILED;
	return __real_mmap(base, len, prot, flags | MAP_FIXED, fd, off);
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	return fail_now(F_READ) ? -1 : __real_pread(fd, buf, n, off);
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	return fail_now(F_READ) ? -1 : __real_read(fd, buf, n);
}

/* ---- The recording every run reads ----------------------------------------- */

#define NR_TASKS 200	/* more threads than the tid map's first table holds */

static size_t rec(uint8_t *p, uint64_t pc, uint64_t ts)
{
	size_t n = 0;

	p[n++] = 0xb0;
	pc |= 1ULL << 63;
	memcpy(p + n, &pc, 8);
	n += 8;
	p[n++] = 0x71;
	memcpy(p + n, &ts, 8);
	return n + 8;
}

static void write_recording(int fd, bool pipe_format)
{
	struct spe_perf_writer_info info = { .cpuid = "0x00000000410fd0c0" };
	uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr spe = { .type = 8, .sample_type = st, .sample_id_all = 1 };
	struct perf_event_attr dummy = { .type = 1, .config = 9, .sample_type = st, .sample_id_all = 1 };
	uint64_t sid[2] = { 1, 2 }, did[2] = { 11, 12 };
	struct spe_perf_writer_cpu_meta m[2] = {
		{ .cpu = 0, .midr = 0x410fd0c0, .pmu_type = 8 },
		{ .cpu = 1, .midr = 0x410fd0c0, .pmu_type = 8 },
	};
	static uint8_t a[2][64 * 26];
	size_t na[2] = { 0, 0 };
	struct spe_perf_writer *w;
	int err;

	err = pipe_format ? spe_perf_writer_create_pipe(&w, fd, &info) : spe_perf_writer_create(&w, fd, &info);
	if (err || spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", sid, 2) ||
	    spe_perf_writer_add_attr(w, &dummy, "dummy:u", did, 2) ||
	    spe_perf_writer_auxtrace_info_v2(w, 8, m, 2, SPE_AUXINFO_V2_NR_PARAMS))
		abort();
	for (uint32_t t = 0; t < NR_TASKS; t++) {
		struct spe_perf_writer_sample_id id = { .pid = 1000 + t, .tid = 1000 + t, .time = 1 + t, .id = 11 };

		if (spe_perf_writer_comm(w, 1000 + t, 1000 + t, "task", false, &id))
			abort();
	}
	for (int i = 0; i < 64; i++)
		for (int c = 0; c < 2; c++)
			na[c] += rec(a[c] + na[c], 0x400000 + (uint64_t)(c * 0x1000 + i * 4),
				     1000 + (uint64_t)(i * 2 + c));
	for (int c = 0; c < 2; c++) {
		struct spe_perf_writer_sample_id sw = { .time = 1000 + (uint64_t)c, .id = 11, .cpu = (uint32_t)c };

		if (spe_perf_writer_switch(w, true, true, 1000 + (uint32_t)c, 1000 + (uint32_t)c, &sw))
			abort();
	}
	if (spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_auxtrace(w, a[0], na[0], 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_auxtrace(w, a[1], na[1], 0, 1, 1, (uint32_t)-1, 1) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
}

/* ---- One session, its outcome ------------------------------------------------ */

struct outcome {
	int err;
	char msg[256];
	uint64_t records, digest;
};

static int on_record(void *ctx, const struct spe_qrecord *qr)
{
	struct outcome *o = ctx;

	o->records++;
	o->digest = o->digest * 1000003 ^ qr->rec->pc.addr ^ (uint64_t)qr->tid << 32 ^
		    (uint64_t)qr->pid << 48 ^ qr->time ^ (uint64_t)qr->cpu;
	return 0;
}

/* Reads the recording: from fd at offset 0, or from a pipe fed by a child. */
static struct outcome run_session(int file_fd, bool from_pipe, unsigned threads)
{
	struct outcome o = { .err = 0 };
	struct spe_session_config cfg = { .on_record = on_record, .ctx = &o, .threads = threads };
	struct spe_session *s = NULL;
	pid_t child = -1;
	int fd = file_fd, p[2];

	if (from_pipe) {
		if (pipe(p))
			abort();
		child = fork();
		if (child == 0) {
			static char buf[1 << 16];
			off_t off = 0;
			ssize_t k;

			close(p[0]);
			while ((k = __real_pread(file_fd, buf, sizeof(buf), off)) > 0) {
				off += k;
				if (write(p[1], buf, (size_t)k) != k)
					_exit(1);
			}
			_exit(0);
		}
		close(p[1]);
		fd = p[0];
	} else {
		lseek(file_fd, 0, SEEK_SET);
	}
	o.err = spe_session_open(&s, fd, &cfg);
	if (!o.err)
		o.err = spe_session_run(s);
	snprintf(o.msg, sizeof(o.msg), "%s", o.err ? spe_session_errmsg(s) : "");
	spe_session_close(s);
	if (from_pipe) {
		close(p[0]);
		waitpid(child, NULL, 0);
	}
	return o;
}

static struct outcome run_with_fault(int fd, bool from_pipe, unsigned threads,
				     enum fault k, long nth, int err)
{
	struct outcome o;

	atomic_store(&fault_calls, 0);
	atomic_store(&fault_at, nth);
	atomic_store(&fault_errno, err);
	atomic_store(&fault_fired, 0);
	atomic_store(&fault_kind, k);
	o = run_session(fd, from_pipe, threads);
	atomic_store(&fault_kind, F_NONE);
	return o;
}

/*
 * Fail the 1st, 2nd, ... call of kind k until a run makes fewer calls
 * than that.  A run that failed must say so (error and message); a run
 * that succeeded must give the clean run's records.
 */
static void sweep(const char *what, int fd, bool from_pipe, unsigned threads,
		  enum fault k, int err, int want_err)
{
	struct outcome clean = run_session(fd, from_pipe, threads);
	long nth, failed = 0, recovered = 0, bad = 0;
	char name[200];

	for (nth = 1; nth < 100000; nth++) {
		struct outcome o = run_with_fault(fd, from_pipe, threads, k, nth, err);

		if (!atomic_load(&fault_fired))
			break;
		if (o.err) {
			failed++;
			if (o.err != want_err || !o.msg[0]) {
				if (!bad++)
					fprintf(stderr, "# %s: call %ld: error %d (%s), want %d\n",
						what, nth, o.err, o.msg, want_err);
			}
		} else if (o.records != clean.records || o.digest != clean.digest) {
			if (!bad++)
				fprintf(stderr, "# %s: call %ld failed, yet the run succeeded with %llu records (clean: %llu)\n",
					what, nth, (unsigned long long)o.records,
					(unsigned long long)clean.records);
		} else {
			recovered++;
		}
	}
	snprintf(name, sizeof(name),
		 "%s: each of %ld calls failed in turn: %ld runs end with the error and a message, %ld give the clean run's %llu records",
		 what, nth - 1, failed, recovered, (unsigned long long)clean.records);
	CHECK(clean.err == 0 && clean.records == 128 && nth > 1 && bad == 0, name);
}

/*
 * An AUXTRACE index entry pointing 8 bytes before the end of the file
 * (no room for an AUXTRACE record) is not followed: the index is ignored
 * and the records are read as they come, all of them.  The file is made a
 * whole number of pages, so a read past its end hits the guard page.
 */
static void test_index_entry_at_the_end(int clean_fd)
{
	char name[] = "/tmp/spe-iofail-idx-XXXXXX";
	int fd = mkstemp(name);
	long page = sysconf(_SC_PAGESIZE);
	const struct spe_perf_reader_info *info;
	struct spe_perf_reader *r;
	struct outcome o, clean = run_session(clean_fd, false, 0);
	uint64_t at, size;

	if (fd < 0)
		abort();
	unlink(name);
	write_recording(fd, false);
	lseek(fd, 0, SEEK_SET);
	if (spe_perf_reader_open(&r, fd))
		abort();
	info = spe_perf_reader_info(r);
	at = info->auxtrace_index_offset;
	if (!info->has_auxtrace_index || !info->nr_auxtrace_index)
		abort();
	spe_perf_reader_close(r);
	size = ((uint64_t)lseek(fd, 0, SEEK_END) + (uint64_t)page) & ~(uint64_t)(page - 1);
	if (ftruncate(fd, (off_t)size))
		abort();
	size -= 8;
	if (pwrite(fd, &size, 8, (off_t)at) != 8)
		abort();
	o = run_session(fd, false, 0);
	CHECK(o.err == 0 && o.records == clean.records && o.digest == clean.digest,
	      "an index entry 8 bytes before the end of the file is not followed: the records are read from the file");
	close(fd);
}

/*
 * After a read error in the middle of a pipe's AUXTRACE data, the reader
 * stays failed: a later read returns the same error, never bytes from
 * further down the stream (which would be taken for the rest of the
 * buffer).
 */
static void test_pipe_error_sticks(void)
{
	static uint8_t big[256 << 10], got[256 << 10];
	char name[] = "/tmp/spe-iofail-sticky-XXXXXX";
	struct spe_perf_writer_info info = { .cpuid = "0x00000000410fd0c0" };
	struct perf_event_attr spe = { .type = 8, .sample_type = PERF_SAMPLE_TIME };
	struct spe_perf_reader_event ev;
	struct spe_perf_reader *r = NULL;
	struct spe_perf_writer *w;
	uint64_t id = 1;
	long k1 = 0, k2 = 0;
	int fd = mkstemp(name), p[2], ret, comms_in_order = 0;
	pid_t child;

	if (fd < 0)
		abort();
	unlink(name);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7 + i / 251);
	if (spe_perf_writer_create_pipe(&w, fd, &info) ||
	    spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", &id, 1))
		abort();
	/* 2000 COMMs of 40 bytes, 80 KiB: some straddle the pipe's reads. */
	for (uint32_t i = 0; i < 2000; i++)
		if (spe_perf_writer_comm(w, 1000 + i, 1000 + i, "straddling-record", false, NULL))
			abort();
	if (spe_perf_writer_auxtrace(w, big, sizeof(big), 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	if (pipe(p))
		abort();
	child = fork();
	if (child == 0) {
		static char buf[1 << 16];
		off_t off = 0;
		ssize_t k;

		close(p[0]);
		while ((k = __real_pread(fd, buf, sizeof(buf), off)) > 0) {
			off += k;
			if (write(p[1], buf, (size_t)k) != k)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	ret = spe_perf_reader_open(&r, p[0]);
	if (!ret)
		while ((ret = spe_perf_reader_next(r, &ev)) == 1) {
			if (ev.header->type == PERF_RECORD_COMM) {
				const uint32_t *pt = (const void *)(ev.header + 1);

				comms_in_order += pt[0] == 1000 + (uint32_t)comms_in_order &&
						  !strcmp((const char *)(pt + 2), "straddling-record");
			}
			if (ev.header->type == SPE_PERF_RECORD_AUXTRACE) {
				/* First a clean read across several pipe reads. */
				long k0 = spe_perf_reader_aux_read(r, got, sizeof(got) / 2);

				CHECK(k0 == (long)sizeof(got) / 2 && !memcmp(got, big, sizeof(got) / 2),
				      "128 KiB of a pipe's AUXTRACE data read back byte for byte");
				atomic_store(&fault_calls, 0);
				atomic_store(&fault_at, 1);
				atomic_store(&fault_errno, EIO);
				atomic_store(&fault_kind, F_READ);
				k1 = spe_perf_reader_aux_read(r, got, sizeof(got));
				atomic_store(&fault_kind, F_NONE);
				k2 = spe_perf_reader_aux_read(r, got, 16);
				break;
			}
		}
	CHECK_EQ(comms_in_order, 2000, "2000 COMMs through a pipe, across its reads, each whole and in order");
	CHECK(k1 == SPE_ERR_IO && k2 == SPE_ERR_IO,
	      "a read error inside a pipe's AUXTRACE data sticks: the next read fails the same way");
	spe_perf_reader_close(r);
	close(p[0]);
	waitpid(child, NULL, 0);
	close(fd);
}

/* Arms the Nth call of kind k to fail with err (F_NONE: none). */
static void arm_fault(enum fault k, long nth, int err)
{
	atomic_store(&fault_calls, 0);
	atomic_store(&fault_at, nth);
	atomic_store(&fault_errno, err);
	atomic_store(&fault_fired, 0);
	atomic_store(&fault_kind, k);
}

/*
 * spe_report_new() with each of its allocations failing in turn, then its
 * mapping: SPE_ERR_NOMEM and no crash, and spe_report_free() of what it
 * left in *out gives everything back (the unit tests link LeakSanitizer).
 */
static void test_report_new_fails(void)
{
	struct spe_report *r;
	int bad = 0, runs = 0, err, fired;

	for (long at = 1; at < 64; at++) {
		arm_fault(F_ALLOC, at, ENOMEM);
		err = spe_report_new(&r);
		fired = atomic_load(&fault_fired);
		arm_fault(F_NONE, 0, 0);
		spe_report_free(r);
		if (!fired) {
			bad += err != 0;
			break;
		}
		runs++;
		bad += err != SPE_ERR_NOMEM;
	}
	arm_fault(F_MMAP, 1, ENOMEM);
	err = spe_report_new(&r);
	arm_fault(F_NONE, 0, 0);
	spe_report_free(r);
	bad += err != SPE_ERR_NOMEM;
	CHECK(runs >= 2 && !bad,
	      "spe_report_new(): each allocation and the mapping failing in turn is SPE_ERR_NOMEM, freed cleanly");
}

int main(void)
{
	char name[] = "/tmp/spe-iofail-XXXXXX", pname[] = "/tmp/spe-iofail-pipe-XXXXXX";
	int fd = mkstemp(name), pfd = mkstemp(pname);
	struct outcome o;

	if (fd < 0 || pfd < 0)
		abort();
	unlink(name);
	unlink(pname);
	write_recording(fd, false);
	write_recording(pfd, true);

	sweep("allocation, file", fd, false, 0, F_ALLOC, ENOMEM, SPE_ERR_NOMEM);
	sweep("allocation, file, 2 decoding threads", fd, false, 2, F_ALLOC, ENOMEM, SPE_ERR_NOMEM);
	sweep("allocation, pipe", pfd, true, 0, F_ALLOC, ENOMEM, SPE_ERR_NOMEM);
	sweep("pread EIO, file", fd, false, 0, F_READ, EIO, SPE_ERR_IO);
	sweep("read EIO, pipe", pfd, true, 0, F_READ, EIO, SPE_ERR_IO);
	/* An interrupted read is retried: every run gives the clean records. */
	sweep("pread EINTR, file", fd, false, 0, F_READ, EINTR, 0);
	sweep("read EINTR, pipe", pfd, true, 0, F_READ, EINTR, 0);

	o = run_with_fault(fd, false, 0, F_MMAP, 1, ENOMEM);
	CHECK(o.err == SPE_ERR_IO && strstr(o.msg, "mmap") && strstr(o.msg, strerror(ENOMEM)),
	      "mmap of the file fails: the session says so (mmap and the reason)");
	test_index_entry_at_the_end(fd);
	test_pipe_error_sticks();
	test_report_new_fails();
	close(fd);
	close(pfd);
	return tap_done();
}
