// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Decode queues: records of several CPUs merged in timestamp order, SPE
 * timestamps converted with TIME_CONV, pid/tid from CONTEXT packets or from
 * context switches, AUX flags and LOST counted, no record stitched across
 * AUXTRACE buffers (perf.data-file-format.txt).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spe_decode.h"
#include "spe/packet.h"
#include "spe_data_source.h"
#include "spe_session.h"
#include "support/temp_file.h"
#include "tap.h"

#define MAXR 64

struct seen {
	uint64_t time[MAXR], pc[MAXR];
	int32_t cpu[MAXR], tid[MAXR], pid[MAXR];
	enum spe_ds_table ds[MAXR];
	uint64_t off[MAXR];
	int n;
};

/* on_record asks the session to stop after this many records (0: never). */
static int stop_after;

static int on_record(void *ctx, const struct spe_qrecord *qr)
{
	struct seen *s = ctx;

	if (s->n < MAXR) {
		s->time[s->n] = qr->time;
		s->pc[s->n] = qr->rec->pc.addr;
		s->cpu[s->n] = qr->cpu;
		s->tid[s->n] = qr->tid;
		s->pid[s->n] = qr->pid;
		s->ds[s->n] = qr->ds_table;
		s->off[s->n] = qr->file_offset;
		s->n++;
	}
	return stop_after && s->n >= stop_after;
}

/* PC, optional CONTEXT, TS: one record (DDI 0586A §5). */
static size_t rec(uint8_t *p, uint64_t pc, int64_t ctx, uint64_t ts)
{
	size_t n = 0;

	p[n++] = 0xb0;
	pc |= 1ULL << 63;
	memcpy(p + n, &pc, 8);
	n += 8;
	if (ctx >= 0) {
		uint32_t c = (uint32_t)ctx;

		p[n++] = 0x65;
		memcpy(p + n, &c, 4);
		n += 4;
	}
	p[n++] = 0x71;
	memcpy(p + n, &ts, 8);
	return n + 8;
}

/* Each record delivered starts, at its file offset, with its PC packet. */
static bool records_at_offsets(int fd, const struct seen *s)
{
	for (int i = 0; i < s->n; i++) {
		uint8_t b[9];
		uint64_t pc = s->pc[i] | 1ULL << 63;

		if (pread(fd, b, 9, (off_t)s->off[i]) != 9 || b[0] != 0xb0 || memcmp(b + 1, &pc, 8))
			return false;
	}
	return s->n > 0;
}

static struct spe_perf_writer *writer(int fd, bool v2)
{
	struct spe_perf_writer_info info = { .cpuid = "0x00000000410fd030" };	/* Cortex-A53 */
	uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr spe = { .type = 8, .sample_type = st, .sample_id_all = 1 };
	struct perf_event_attr dummy = { .type = 1, .config = 9, .sample_type = st, .sample_id_all = 1 };
	uint64_t sid[2] = { 1, 2 }, did[2] = { 11, 12 };
	struct spe_time_conv tc = { .time_shift = 1, .time_mult = 10, .time_zero = 7, .long_form = true };
	struct spe_perf_writer_cpu_meta m[2] = {
		{ .cpu = 0, .midr = 0x410fd0c0, .pmu_type = 8 },	/* N1: common table */
		{ .cpu = 1, .midr = 0xc00fac30, .pmu_type = 8 },	/* AmpereOne */
	};
	struct spe_perf_writer *w;

	if (spe_perf_writer_create(&w, fd, &info) || spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", sid, 2) ||
	    spe_perf_writer_add_attr(w, &dummy, "dummy:u", did, 2) || spe_perf_writer_time_conv(w, &tc))
		abort();
	if (v2 ? spe_perf_writer_auxtrace_info_v2(w, 8, m, 2, SPE_AUXINFO_V2_NR_PARAMS) :
		 spe_perf_writer_auxtrace_info_v1(w, 8, true))
		abort();
	return w;
}

static void run(int fd, struct seen *s, struct spe_session_stats *st)
{
	struct spe_session_config cfg = { .on_record = on_record, .ctx = s };
	struct spe_session *ss;

	memset(s, 0, sizeof(*s));
	lseek(fd, 0, SEEK_SET);
	if (spe_session_open(&ss, fd, &cfg) || spe_session_run(ss))
		abort();
	*st = *spe_session_stats(ss);
	spe_session_close(ss);
}

static void test_merge(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, true);
	uint8_t a[256], b[256];
	size_t na = 0, nb = 0;
	struct spe_perf_writer_sample_id aux0 = { .id = 1, .cpu = 0 }, lost = { .id = 1 };
	struct seen s;
	struct spe_session_stats st;
	bool sorted = true;

	/* CPU 0 at ts 10, 30, 50; CPU 1 at 20, 40 (CONTEXT 7 then none). */
	na += rec(a + na, 0x1000, 5, 10);
	na += rec(a + na, 0x1004, 5, 30);
	na += rec(a + na, 0x1008, 5, 50);
	nb += rec(b + nb, 0x2000, 7, 20);
	nb += rec(b + nb, 0x2004, -1, 40);
	if (spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_aux(w, 0, na, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL, &aux0) ||
	    spe_perf_writer_auxtrace(w, b, nb, 0, 0, 1, (uint32_t)-1, 1) ||
	    spe_perf_writer_lost(w, 1, 3, &lost) || spe_perf_writer_lost(w, 1, 1ull << 56, &lost) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK_EQ(s.n, 5, "five records from two queues");
	for (int i = 1; i < s.n; i++)
		sorted &= s.time[i - 1] <= s.time[i];
	CHECK(sorted && s.pc[0] == 0x1000 && s.pc[1] == 0x2000 && s.pc[2] == 0x1004 &&
	      s.pc[3] == 0x2004 && s.pc[4] == 0x1008, "records merged across CPUs in timestamp order");
	CHECK_EQ(s.time[1], 7 + (20 >> 1) * 10, "SPE timestamp 20 -> perf time 7 + 10 * 20 / 2");
	CHECK(s.cpu[0] == 0 && s.cpu[1] == 1, "cpu from the AUXTRACE record");
	CHECK(s.tid[0] == 5 && s.tid[1] == 7 && s.tid[3] == 7,
	      "tid from CONTEXT; a record without one keeps its queue's last CONTEXT (as perf)");
	CHECK(s.ds[0] == SPE_DS_TABLE_COMMON && s.ds[1] == SPE_DS_TABLE_AMPEREONE,
	      "v2 metadata: each CPU's MIDR picks its data-source table");
	CHECK(st.truncated == 1 && st.partial == 1 && st.collision == 0 && st.aux_records == 1,
	      "AUX flags counted");
	CHECK(st.lost_events == 3 + (1ull << 56) && st.lost_records == 2,
	      "LOST records counted, each count read as a whole 64-bit field");
	CHECK(records_at_offsets(fd, &s), "each record's file offset is where its bytes are in the file");
	close(fd);
}

static void test_switch_and_truncation(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id sw = { .time = 7 + 25 * 5, .id = 11, .cpu = 0 };
	struct spe_perf_writer_sample_id comm = { .pid = 40, .tid = 41, .time = 8, .id = 11 };
	uint8_t a[256], b[64];
	size_t na = 0, nb;
	struct seen s;
	struct spe_session_stats st;

	na += rec(a + na, 0x1000, -1, 10);
	na += rec(a + na, 0x1004, -1, 30);
	nb = rec(b, 0x1008, -1, 40);
	/* Context switch at perf time of ts 25 to 40/41; it comes before
	 * the data in the file, as perf record writes it. */
	if (spe_perf_writer_comm(w, 40, 41, "worker", false, &comm) ||
	    spe_perf_writer_switch(w, true, true, 40, 41, &sw) || spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_auxtrace(w, a, na - 4, 0, 0, 0, (uint32_t)-1, 0) ||	/* cut in the TS */
	    spe_perf_writer_auxtrace(w, b, nb, na, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK_EQ(s.n, 2, "a record cut by the end of its buffer is not delivered");
	CHECK(st.partial_records == 1, "and counted as partial");
	CHECK(s.pc[1] == 0x1008, "the next buffer starts fresh: nothing stitched across buffers");
	CHECK(s.tid[0] == -1 && s.pid[0] == -1, "before the switch: tid unknown");
	CHECK(s.tid[1] == 41 && s.pid[1] == 40, "after SWITCH_CPU_WIDE out: the next task's tid, pid from COMM");
	close(fd);
}

/*
 * A per-thread SWITCH out record names no next task: it leaves the CPU's
 * task as it was (perf ignores it too).
 */
static void test_plain_switch_out(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, true);
	struct spe_perf_writer_sample_id sw = { .time = 7 + 5 * 5, .id = 11, .cpu = 0, .pid = 60, .tid = 61 };
	uint8_t a[64], b[64];
	size_t na = rec(a, 0x1000, -1, 10), nb = rec(b, 0x2000, -1, 40);
	struct seen s;
	struct spe_session_stats st;

	if (spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_switch(w, true, false, 0, 0, &sw) ||
	    spe_perf_writer_auxtrace(w, b, nb, na, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK(s.n == 2 && s.tid[0] == -1 && s.tid[1] == -1 && s.pc[1] == 0x2000,
	      "a per-thread SWITCH out record (no next task) does not change the CPU's task");
	CHECK(records_at_offsets(fd, &s),
	      "a record of a buffer at a non-zero AUX offset: its file offset is where its bytes are");
	close(fd);
}

/* perf time of SPE timestamp ts with writer()'s TIME_CONV. */
static uint64_t ptime(uint64_t ts)
{
	return 7 + (ts >> 1) * 10;
}

/*
 * FORK gives a new thread its process (its tid is the third field, after
 * pid and ppid); a switch to the idle task (pid 0, tid 0) is a real
 * task, not "unknown" (perf_event_open(2), PERF_RECORD_FORK and
 * PERF_RECORD_SWITCH_CPU_WIDE).
 */
static void test_fork_and_idle(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id fork = { .pid = 70, .tid = 72, .time = ptime(2), .id = 11 };
	struct spe_perf_writer_sample_id sw1 = { .time = ptime(20), .id = 11, .cpu = 0 };
	struct spe_perf_writer_sample_id sw2 = { .time = ptime(40), .id = 11, .cpu = 0 };
	uint8_t a[256];
	size_t na = 0;
	struct seen s;
	struct spe_session_stats st;

	na += rec(a + na, 0x1000, -1, 10);
	na += rec(a + na, 0x1004, -1, 30);
	na += rec(a + na, 0x1008, -1, 50);
	if (spe_perf_writer_task(w, PERF_RECORD_FORK, 70, 1, 72, 70, ptime(2), &fork) ||
	    spe_perf_writer_switch(w, true, true, 70, 72, &sw1) ||
	    spe_perf_writer_switch(w, true, true, 0, 0, &sw2) || spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK(s.n == 3 && s.tid[0] == -1, "three records; before any switch the task is unknown");
	CHECK(s.tid[1] == 72 && s.pid[1] == 70, "a thread created by FORK (tid 72 of pid 70) has its process");
	CHECK(s.tid[2] == 0 && s.pid[2] == 0, "after a switch to the idle task: tid 0, pid 0");
	close(fd);
}

/*
 * A CPU going back and forth between threads every record, more threads
 * than the queue's tid -> pid cache has slots, three of them in one slot
 * (tids 3, 11, 19), and a COMM half way that gives tid 11 another
 * process: every record's pid is the thread map's at its time.
 */
static void test_pid_of_alternating_threads(void)
{
	static const int32_t tids[5] = { 3, 11, 19, 4, 12 };
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id sid = { .time = ptime(1), .id = 11 };
	uint8_t a[40 * 32];
	size_t na = 0;
	struct seen s;
	struct spe_session_stats st;
	int bad = 0;

	for (int k = 0; k < 5; k++) {
		sid.pid = 100 + (uint32_t)tids[k];
		sid.tid = (uint32_t)tids[k];
		if (spe_perf_writer_comm(w, sid.pid, sid.tid, "t", false, &sid))
			abort();
	}
	sid = (struct spe_perf_writer_sample_id){ .pid = 500, .tid = 11, .time = ptime(25) - 1, .id = 11 };
	if (spe_perf_writer_comm(w, 500, 11, "t", false, &sid))
		abort();
	for (int i = 0; i < 40; i++)
		na += rec(a + na, 0x1000 + 4 * (uint64_t)i, tids[i % 5], 10 + (uint64_t)i);
	if (spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	for (int i = 0; i < 40 && i < s.n; i++) {
		int32_t tid = tids[i % 5], want = tid == 11 && 10 + i >= 25 ? 500 : 100 + tid;

		if (s.tid[i] != tid || s.pid[i] != want) {
			printf("# record %d: tid %d pid %d, want tid %d pid %d\n", i, s.tid[i],
			       s.pid[i], tid, want);
			bad++;
		}
	}
	CHECK(s.n == 40 && !bad,
	      "threads alternating every record, three sharing a cache slot, one changing process: every pid right");
	close(fd);
}

/*
 * A queue keeps the CPU and thread of its first AUXTRACE buffer, as perf
 * does: a later buffer of the same queue naming another CPU changes
 * neither the samples' CPU nor the data-source table (its MIDR).
 */
static void test_queue_keeps_first_cpu(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, true);
	uint8_t a[64], b[64];
	size_t na = rec(a, 0x1000, -1, 10), nb = rec(b, 0x1004, -1, 20);
	struct seen s;
	struct spe_session_stats st;

	if (spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, 33, 0) ||
	    spe_perf_writer_auxtrace(w, b, nb, na, 0, 0, 44, 1) ||	/* same queue, "CPU 1" */
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK(s.n == 2 && s.cpu[0] == 0 && s.cpu[1] == 0 && st.nr_queues == 1,
	      "both buffers of queue 0 give CPU 0, the first buffer's");
	CHECK(s.ds[1] == SPE_DS_TABLE_COMMON && s.tid[1] == 33,
	      "and CPU 0's data-source table and the first buffer's tid");
	close(fd);
}

/*
 * AUX and LOST records of an attribute without sample_id_all have no
 * trailer: they are exactly 32 and 24 bytes, and still counted.
 */
static void test_records_without_trailer(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer_info info = { .cpuid = "0x00000000410fd0c0" };
	struct perf_event_attr spe = { .type = 8, .sample_type = PERF_SAMPLE_TIME };
	uint64_t id = 1;
	struct { struct perf_event_header h; uint64_t off, size, flags; } aux = {
		{ PERF_RECORD_AUX, 0, 32 }, 0, 64,
		PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_OVERWRITE | PERF_AUX_FLAG_COLLISION
	};
	struct { struct perf_event_header h; uint64_t id, lost; } lost = {
		{ PERF_RECORD_LOST, 0, 24 }, 1, 5
	};
	struct spe_perf_writer *w;
	struct seen s;
	struct spe_session_stats st;

	if (spe_perf_writer_create(&w, fd, &info) || spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", &id, 1) ||
	    spe_perf_writer_write_event(w, &aux) || spe_perf_writer_write_event(w, &lost) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK(st.aux_records == 1 && st.truncated == 1 && st.overwrite == 1 && st.collision == 1 &&
	      st.partial == 0, "a 32-byte AUX record is counted with each of its flags");
	CHECK(st.lost_records == 1 && st.lost_events == 5, "a 24-byte LOST record is counted");
	close(fd);
}

/*
 * A callback that asks to stop ends the session early but is not an
 * error, also when the stop comes while a timed record is delivered.
 */
static void test_stop_is_not_an_error(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id comm = { .pid = 40, .tid = 41, .time = ptime(40), .id = 11 };
	uint8_t a[128];
	size_t na = 0;
	struct spe_session_config cfg = { .on_record = on_record };
	struct spe_session *ss;
	struct seen s = { .n = 0 };
	int err;

	na += rec(a + na, 0x1000, -1, 10);
	na += rec(a + na, 0x1004, -1, 30);
	na += rec(a + na, 0x1008, -1, 50);
	if (spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_comm(w, 40, 41, "late", false, &comm) || spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	cfg.ctx = &s;
	stop_after = 1;
	lseek(fd, 0, SEEK_SET);
	err = spe_session_open(&ss, fd, &cfg);
	if (!err)
		err = spe_session_run(ss);
	stop_after = 0;
	CHECK(err == 0 && s.n == 1, "stopped by its callback after one record: no error, no more records");
	spe_session_close(ss);
	close(fd);
}

/* no_decode: the AUXTRACE data goes to on_auxtrace only, nothing is
 * queued (also from the AUXTRACE index) and no record is decoded. */
static int count_aux(void *ctx, const struct spe_perf_reader_event *ev, const uint8_t *data, uint64_t size)
{
	(void)ev;
	(void)data;
	*(uint64_t *)ctx += size;
	return 0;
}

static void test_no_decode(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	uint8_t a[64];
	size_t na = rec(a, 0x1000, -1, 10);
	uint64_t bytes = 0;
	struct spe_session_config cfg = { .on_auxtrace = count_aux, .ctx = &bytes,
					   .no_decode = true, .threads = 2 };
	struct spe_session *ss;
	int err;

	if (spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	lseek(fd, 0, SEEK_SET);
	err = spe_session_open(&ss, fd, &cfg);
	if (!err)
		err = spe_session_run(ss);
	CHECK(err == 0 && bytes >= na && spe_session_stats(ss)->auxtrace_records == 1 &&
	      spe_session_stats(ss)->records == 0 && spe_session_stats(ss)->nr_queues == 0,
	      "no_decode: the data reaches on_auxtrace, no queue and no record");
	spe_session_close(ss);
	close(fd);
}

/* Records of a round are handed on in time order, not file order
 * (perf's ordered events): the two COMMs come out by their times. */
static uint32_t event_pids[8];
static int nr_event_pids;

static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	(void)ctx;
	if (ev->header->type == PERF_RECORD_COMM && nr_event_pids < 8)
		event_pids[nr_event_pids++] = ((const uint32_t *)(ev->header + 1))[0];
	return 0;
}

static void test_round_in_time_order(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id late = { .pid = 2, .tid = 2, .time = 300, .id = 11 };
	struct spe_perf_writer_sample_id early = { .pid = 1, .tid = 1, .time = 100, .id = 11 };
	struct spe_session_config cfg = { .on_event = on_event };
	struct spe_session *ss;
	int err;

	if (spe_perf_writer_comm(w, 2, 2, "late", false, &late) ||
	    spe_perf_writer_comm(w, 1, 1, "early", false, &early) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	nr_event_pids = 0;
	lseek(fd, 0, SEEK_SET);
	err = spe_session_open(&ss, fd, &cfg);
	if (!err)
		err = spe_session_run(ss);
	CHECK(err == 0 && nr_event_pids == 2 && event_pids[0] == 1 && event_pids[1] == 2,
	      "two COMMs written time 300 then 100: handed on by time, 100 first");
	spe_session_close(ss);
	close(fd);
}

/*
 * A record longer than any SPE record can be (no End or Timestamp packet
 * within SPE_RECORD_MAX_BYTES) is one decode error, at its file offset;
 * a record cut by the end of its buffer is partial, not an error.  The
 * same in the caller's thread and with decoding threads.
 */
static void test_decode_error_offset(void)
{
	for (unsigned threads = 0; threads <= 2; threads += 2) {
		int fd = test_temp_fd();
		struct spe_perf_writer *w = writer(fd, false);
		static uint8_t a[4096];
		size_t na = rec(a, 0x1000, -1, 10), good = na;
		struct spe_session_config cfg = { .on_record = on_record, .threads = threads };
		const struct spe_session_stats *st;
		struct spe_session *ss;
		struct seen s = { .n = 0 };
		uint64_t data_off, at;
		char name[160];
		int err;

		while (na - good < SPE_RECORD_MAX_BYTES + 64) {	/* PC packets, no end */
			uint64_t pc = 0x2000 | 1ULL << 63;

			a[na++] = 0xb0;
			memcpy(a + na, &pc, 8);
			na += 8;
		}
		na += rec(a + na, 0x1004, -1, 20);
		a[na++] = 0xb0;		/* cut by the end of the buffer */
		a[na++] = 0x01;
		if (spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0))
			abort();
		data_off = spe_perf_writer_offset(w) - ((na + 7) & ~(size_t)7);
		if (spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
			abort();
		spe_perf_writer_free(w);
		cfg.ctx = &s;
		lseek(fd, 0, SEEK_SET);
		err = spe_session_open(&ss, fd, &cfg);
		if (!err)
			err = spe_session_run(ss);
		st = spe_session_stats(ss);
		at = st->first_decode_error_offset;
		snprintf(name, sizeof(name),
			 "%u threads: a record past the size limit is one decode error, at its offset; a cut one is partial",
			 threads);
		CHECK(err == 0 && st->decode_errors == 1 && st->partial_records >= 2 &&
		      at >= data_off + good && at <= data_off + good + SPE_RECORD_MAX_BYTES + 9 &&
		      s.n >= 1 && s.pc[0] == 0x1000, name);
		spe_session_close(ss);
		close(fd);
	}
}

/* on_auxtrace can stop the session: nothing is decoded after it. */
static int stop_aux(void *ctx, const struct spe_perf_reader_event *ev, const uint8_t *data, uint64_t size)
{
	(void)ev;
	(void)data;
	(void)size;
	++*(int *)ctx;
	return 1;
}

static void test_stop_from_auxtrace(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	uint8_t a[64];
	size_t na = rec(a, 0x1000, -1, 10);
	int calls = 0;
	struct seen s = { .n = 0 };
	struct spe_session_config cfg = { .on_record = on_record, .on_auxtrace = stop_aux, .ctx = &calls };
	struct spe_session *ss;
	int err;

	if (spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_auxtrace(w, a, na, na, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	(void)s;
	lseek(fd, 0, SEEK_SET);
	err = spe_session_open(&ss, fd, &cfg);
	if (!err)
		err = spe_session_run(ss);
	CHECK(err == 0 && calls == 1 && spe_session_stats(ss)->records == 0,
	      "on_auxtrace stops at the first buffer: no second call, no record decoded");
	spe_session_close(ss);
	close(fd);
}

/*
 * perf's pipe format carries the CPUID in a HEADER_FEATURE record: the
 * data-source table follows it.  A kernel mapping (pid -1) names no
 * process for its tid.
 */
static void test_pipe_cpuid_and_kernel_mmap(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer_info info = { .cpuid = "0x00000000410fd0c0" };	/* N1 */
	uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr spe = { .type = 8, .sample_type = st, .sample_id_all = 1 };
	struct spe_perf_writer_sample_id kid = { .pid = (uint32_t)-1, .tid = 0, .time = 1, .id = 1 };
	uint64_t id = 1;
	uint8_t a[64];
	size_t na = rec(a, 0x1000, 0, 10);	/* CONTEXT 0: the kernel's tid */
	struct spe_perf_writer *w;
	struct seen s;
	struct spe_session_stats sst;

	if (spe_perf_writer_create_pipe(&w, fd, &info) || spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", &id, 1) ||
	    spe_perf_writer_auxtrace_info_v1(w, 8, true) ||
	    spe_perf_writer_mmap2(w, PERF_RECORD_MISC_KERNEL, (uint32_t)-1, 0, 0xffff800008000000ull,
			  0x100000, 0, "[kernel.kallsyms]_text", &kid) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &sst);
	CHECK(s.n == 1 && s.ds[0] == SPE_DS_TABLE_COMMON,
	      "pipe format: the CPUID feature record (Neoverse N1) picks the common data-source table");
	CHECK(s.n == 1 && s.tid[0] == 0 && s.pid[0] == -1,
	      "a kernel mapping (pid -1) gives tid 0 no process");
	close(fd);
}

/* AUXTRACE idx is a queue number below 4096: the largest is decoded, the
 * next refused with a message naming it. */
static void test_queue_index_limit(void)
{
	for (uint32_t idx = 4095; idx <= 4096; idx++) {
		int fd = test_temp_fd();
		struct spe_perf_writer *w = writer(fd, false);
		uint8_t a[64];
		size_t na = rec(a, 0x1000, -1, 10);
		struct seen s = { .n = 0 };
		struct spe_session_config cfg = { .on_record = on_record, .ctx = &s };
		struct spe_session *ss;
		int err;

		if (spe_perf_writer_auxtrace(w, a, na, 0, 0, idx, (uint32_t)-1, 0) ||
		    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
			abort();
		spe_perf_writer_free(w);
		lseek(fd, 0, SEEK_SET);
		err = spe_session_open(&ss, fd, &cfg);
		if (!err)
			err = spe_session_run(ss);
		if (idx == 4095)
			CHECK(err == 0 && s.n == 1, "AUXTRACE idx 4095, the last queue: decoded");
		else
			CHECK(err != 0 && strstr(spe_session_errmsg(ss), "idx 4096"),
			      "AUXTRACE idx 4096: refused, naming the index");
		spe_session_close(ss);
		close(fd);
	}
}

/* A thread's process learnt from its mappings alone (a recording with no
 * COMM, as perf does); and a COMM of 16 bytes (an empty name) still
 * names its thread's process. */
static void test_process_from_mmap_and_short_comm(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id sid = { .pid = 70, .tid = 72, .time = ptime(2), .id = 11 };
	struct { struct perf_event_header h; uint32_t pid, tid; uint64_t sid[4]; } comm = {
		{ PERF_RECORD_COMM, 0, 16 + 32 }, 80, 81, { 0, 0, 0, 11 }
	};
	uint8_t a[64];
	size_t na = 0;
	struct seen s;
	struct spe_session_stats st;

	na += rec(a + na, 0x1000, 72, 10);
	na += rec(a + na, 0x1004, 81, 20);
	comm.sid[0] = 80 | (uint64_t)81 << 32;	/* trailer: pid/tid, time, cpu, id */
	comm.sid[1] = ptime(3);
	if (spe_perf_writer_mmap2(w, PERF_RECORD_MISC_USER, 70, 72, 0x400000, 0x1000, 0,
				  "/bin/app", &sid) ||
	    spe_perf_writer_write_event(w, &comm) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK(s.n == 2 && s.tid[0] == 72 && s.pid[0] == 70,
	      "no COMM: tid 72's process (70) comes from its MMAP2");
	CHECK(s.n == 2 && s.tid[1] == 81 && s.pid[1] == 80,
	      "a 16-byte COMM (empty name) gives tid 81 its process (80)");
	close(fd);
}

/* A per-CPU entry of a version-2 AUXTRACE_INFO that is not one (bad
 * magic) stops the session with an error naming the record's offset. */
static void test_bad_cpu_metadata(void)
{
	static uint8_t f[1 << 16];
	const uint64_t magic = SPE_AUXINFO_V2_CPU_MAGIC;
	int fd = test_temp_fd(), err, seen = 0;
	struct spe_perf_writer *w = writer(fd, true);
	struct spe_session_config cfg = { .on_record = on_record };
	struct spe_session *ss;
	struct seen s = { .n = 0 };
	ssize_t n;

	if (spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	n = pread(fd, f, sizeof(f), 0);
	for (ssize_t i = 0; i + 8 <= n; i += 8)
		if (!memcmp(f + i, &magic, 8) && seen++ == 1) {
			uint64_t bad = magic + 1;

			if (pwrite(fd, &bad, 8, (off_t)i) != 8)
				abort();
		}
	cfg.ctx = &s;
	lseek(fd, 0, SEEK_SET);
	err = spe_session_open(&ss, fd, &cfg);
	if (!err)
		err = spe_session_run(ss);
	CHECK(seen == 2 && err != 0 && strstr(spe_session_errmsg(ss), "offset 0x"),
	      "a second CPU entry with a bad magic: the session fails, naming the record's offset");
	spe_session_close(ss);
	close(fd);
}

static int count_mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0, c;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* A closed session gives its file mapping back: fifty sessions opened
 * and closed leave the process's mappings as they were.  Not under ASan,
 * whose allocator maps memory of its own while freed blocks wait in its
 * quarantine: there the count says nothing of the session's mappings. */
static void test_close_unmaps(void)
{
#ifdef __SANITIZE_ADDRESS__
	tap_skip("fifty sessions opened and closed leave no mapping behind",
		 "ASan's allocator maps memory of its own");
	return;
#endif
	int fd = test_temp_fd(), before, after;
	struct spe_perf_writer *w = writer(fd, false);
	uint8_t a[64];
	size_t na = rec(a, 0x1000, -1, 10);
	struct seen s;
	struct spe_session_stats st;

	if (spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	before = count_mappings();
	for (int i = 0; i < 50; i++)
		run(fd, &s, &st);
	after = count_mappings();
	CHECK(before > 0 && after == before, "fifty sessions opened and closed leave no mapping behind");
	close(fd);
}

/*
 * With an AUXTRACE index all the data is queued before the first record
 * is read (as perf does), so a switch that comes rounds before the data
 * in the file still applies only to records after its time.
 */
static void test_index_queues_data_first(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id sw = { .time = ptime(20), .id = 11, .cpu = 0 };
	uint8_t a[128];
	size_t na = 0;
	struct seen s;
	struct spe_session_stats st;

	na += rec(a + na, 0x1000, -1, 10);
	na += rec(a + na, 0x1004, -1, 30);
	if (spe_perf_writer_switch(w, true, true, 40, 41, &sw) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK(s.n == 2 && s.tid[0] == -1 && s.tid[1] == 41,
	      "data after the switch in the file, before it in time: the record before the switch keeps the old task");
	close(fd);
}

/*
 * A FORK alone names a new thread's process (its tid is the third field,
 * after pid and ppid) when the thread is known only from CONTEXT
 * packets; and a switch naming a CPU beyond the session's table is
 * ignored, not written past it.
 */
static void test_fork_alone_and_wild_cpu(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id fork = { .pid = 90, .tid = 92, .time = ptime(2), .id = 11 };
	struct spe_perf_writer_sample_id sw = { .time = ptime(3), .id = 11, .cpu = 0x7fffffff };
	uint8_t a[64];
	size_t na = rec(a, 0x1000, 92, 10);
	struct seen s;
	struct spe_session_stats st;

	if (spe_perf_writer_task(w, PERF_RECORD_FORK, 90, 1, 92, 91, ptime(2), &fork) ||
	    spe_perf_writer_switch(w, true, true, 5, 6, &sw) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run(fd, &s, &st);
	CHECK(s.n == 1 && s.tid[0] == 92 && s.pid[0] == 90,
	      "CONTEXT 92 after FORK(pid 90, ppid 1, tid 92, ptid 91): pid 90; a switch on CPU 0x7fffffff is ignored");
	close(fd);
}

/* a on queue 0 (CPU 0) and b on queue 1 (CPU 1) after what w holds, then
 * the file is finished. */
static void finish_two_queues(struct spe_perf_writer *w, const uint8_t *a, size_t na,
			      const uint8_t *b, size_t nb)
{
	if (spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_auxtrace(w, b, nb, 0, 0, 1, (uint32_t)-1, 1) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
}

/* A session over the queues in set (NULL: all). */
static void run_set(int fd, const uint64_t *set, struct seen *s, struct spe_session_stats *st)
{
	struct spe_session_config cfg = { .on_record = on_record, .ctx = s, .queue_set = set };
	struct spe_session *ss;

	memset(s, 0, sizeof(*s));
	lseek(fd, 0, SEEK_SET);
	if (spe_session_open(&ss, fd, &cfg) || spe_session_run(ss))
		abort();
	*st = *spe_session_stats(ss);
	spe_session_close(ss);
}

/* Are cpu c's records in a the records of b, with the same threads? */
static bool same_records_of_cpu(const struct seen *a, const struct seen *b, int32_t c)
{
	int j = 0;

	for (int i = 0; i < a->n; i++) {
		if (a->cpu[i] != c)
			continue;
		while (j < b->n && b->cpu[j] != c)
			j++;
		if (j == b->n || a->pc[i] != b->pc[j] || a->time[i] != b->time[j] ||
		    a->tid[i] != b->tid[j] || a->pid[i] != b->pid[j])
			return false;
		j++;
	}
	for (; j < b->n; j++)
		if (b->cpu[j] == c)
			return false;
	return true;
}

/*
 * Sessions over sets of queues (queue_set): CPU 0 names its thread by
 * CONTEXT packets from ts 30 on, CPU 1 by context switches, the second of
 * them at ts late_ts.  One session stops listening to switches at ts 30,
 * so a switch after it is heard only by the session of CPU 1 alone:
 * spe_session_split_agrees() must say so; a switch before it is heard by
 * all, and each queue's records come out as one session gives them.
 */
static void queue_sets_case(uint64_t late_ts, bool agree)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id sw1 = { .time = ptime(15), .id = 11, .cpu = 1 };
	struct spe_perf_writer_sample_id sw2 = { .time = ptime(late_ts), .id = 11, .cpu = 1 };
	uint64_t set0[SPE_SESSION_QUEUE_WORDS] = { 1 }, set1[SPE_SESSION_QUEUE_WORDS] = { 2 };
	uint64_t bytes[4];
	uint8_t a[128], b[128];
	size_t na = 0, nb = 0;
	struct seen all, s0, s1;
	struct spe_session_stats st_all, st[2];
	struct spe_session *ss;
	struct spe_session_config cfg = { .no_decode = true };
	char name[200];

	na += rec(a + na, 0x1000, -1, 10);
	na += rec(a + na, 0x1004, 5, 30);
	na += rec(a + na, 0x1008, 5, 50);
	nb += rec(b + nb, 0x2000, -1, 20);
	nb += rec(b + nb, 0x2004, -1, 40);
	nb += rec(b + nb, 0x2008, -1, 60);
	if (spe_perf_writer_switch(w, true, true, 40, 41, &sw1) ||
	    spe_perf_writer_switch(w, true, true, 50, 51, &sw2))
		abort();
	finish_two_queues(w, a, na, b, nb);
	run_set(fd, NULL, &all, &st_all);
	run_set(fd, set0, &s0, &st[0]);
	run_set(fd, set1, &s1, &st[1]);
	snprintf(name, sizeof(name), "queue sets, a switch at ts %llu: sessions agree with one session: %s",
		 (unsigned long long)late_ts, agree ? "yes" : "no");
	CHECK(spe_session_split_agrees(st, 2) == agree && spe_session_split_agrees(&st_all, 1), name);
	CHECK(same_records_of_cpu(&all, &s0, 0) && s0.n == 3,
	      "the session of queue 0 alone gives queue 0's records as one session does");
	snprintf(name, sizeof(name), "the session of queue 1 alone names its threads as one session does: %s",
		 agree ? "yes" : "no");
	CHECK(same_records_of_cpu(&all, &s1, 1) == agree && s1.n == 3, name);
	CHECK(st[0].records + st[1].records == st_all.records && st[0].nr_queues == 1 &&
	      st[1].nr_queues == 1 && st[0].auxtrace_records == 2 && st[1].auxtrace_records == 2,
	      "each session counts its own queues' records and every AUXTRACE record");
	lseek(fd, 0, SEEK_SET);
	if (spe_session_open(&ss, fd, &cfg))
		abort();
	/* AUXTRACE data is padded to 8 bytes in the file. */
	CHECK(spe_session_queue_bytes(ss, bytes, 4) == 2 && bytes[0] == ((na + 7) & ~7ul) &&
	      bytes[1] == ((nb + 7) & ~7ul) &&
	      !bytes[2] && !bytes[3], "the index gives each queue's bytes");
	spe_session_close(ss);
	close(fd);
}

/*
 * A switch on a CPU none of a session's queues is on names no thread of
 * its records unless it teaches a thread's process: only then is it
 * noted for spe_session_split_agrees().
 */
static void queue_sets_other_cpu(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id comm = { .pid = 40, .tid = 41, .time = ptime(1), .id = 11 };
	struct spe_perf_writer_sample_id known = { .time = ptime(45), .id = 11, .cpu = 2 };
	struct spe_perf_writer_sample_id learn = { .time = ptime(55), .id = 11, .cpu = 2 };
	uint64_t set1[SPE_SESSION_QUEUE_WORDS] = { 2 };
	uint8_t a[64], b[64];
	size_t na = rec(a, 0x1000, 5, 30), nb = rec(b, 0x2000, -1, 20);
	struct seen s;
	struct spe_session_stats st[2];

	if (spe_perf_writer_comm(w, 40, 41, "worker", false, &comm) ||
	    spe_perf_writer_switch(w, true, true, 40, 41, &known))
		abort();
	finish_two_queues(w, a, na, b, nb);
	run_set(fd, set1, &s, &st[1]);
	memset(&st[0], 0, sizeof(st[0]));
	st[0].ctx_seen = true;
	st[0].ctx_time = ptime(30);
	CHECK(!st[1].switch_applied && spe_session_split_agrees(st, 2),
	      "a switch on another CPU to a known thread is not noted");
	close(fd);

	fd = test_temp_fd();
	w = writer(fd, false);
	if (spe_perf_writer_switch(w, true, true, 60, 61, &learn))
		abort();
	finish_two_queues(w, a, na, b, nb);
	run_set(fd, set1, &s, &st[1]);
	CHECK(st[1].switch_applied && st[1].last_switch_time == ptime(55) &&
	      !spe_session_split_agrees(st, 2),
	      "a switch on another CPU that teaches a thread's process is noted, after the other set's CONTEXT: no agreement");
	close(fd);
}

/*
 * What is noted is a record's use of a switch, not the switch: CPU 0 names
 * its threads by CONTEXT from ts 30 on; CPU 1 switches at ts 45, after it,
 * and its record at ts 60 then either names its own thread by CONTEXT (the
 * switch named nothing: the sessions agree) or takes it from the CPU, which
 * the switch left unknown (tid -1: the record falls to the queue's own
 * thread, where one session gives the thread of the switch at ts 15).
 */
static void queue_sets_switch_use(bool ctx_after, const char *name)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	struct spe_perf_writer_sample_id sw1 = { .time = ptime(15), .id = 11, .cpu = 1 };
	struct spe_perf_writer_sample_id sw2 = { .time = ptime(45), .id = 11, .cpu = 1 };
	uint64_t set0[SPE_SESSION_QUEUE_WORDS] = { 1 }, set1[SPE_SESSION_QUEUE_WORDS] = { 2 };
	uint8_t a[64], b[64];
	size_t na = 0, nb = 0;
	struct seen all, s0, s1;
	struct spe_session_stats st_all, st[2];

	na += rec(a + na, 0x1000, 5, 30);
	nb += rec(b + nb, 0x2000, ctx_after ? 8 : -1, 60);
	if (spe_perf_writer_switch(w, true, true, 40, 41, &sw1) ||
	    spe_perf_writer_switch(w, true, true, (uint32_t)-1, (uint32_t)-1, &sw2))
		abort();
	finish_two_queues(w, a, na, b, nb);
	run_set(fd, NULL, &all, &st_all);
	run_set(fd, set0, &s0, &st[0]);
	run_set(fd, set1, &s1, &st[1]);
	CHECK(spe_session_split_agrees(st, 2) == ctx_after &&
	      same_records_of_cpu(&all, &s1, 1) == ctx_after && s1.n == 1, name);
	close(fd);
}

static void test_queue_sets(void)
{
	queue_sets_case(45, false);
	queue_sets_case(25, true);
	queue_sets_other_cpu();
	queue_sets_switch_use(true,
			      "a late switch on a CPU whose record names its own thread: sessions agree");
	queue_sets_switch_use(false,
			      "a late switch to no task, then a record without CONTEXT: no agreement, and one session names it otherwise");
}

/* ---- Queues cut between sessions (cfg.cuts) ---------------------------------- */

/*
 * What a session reads: the file at fd from its start, or (stream) a pipe
 * a child process fills with it, as perf record -o - | spe-decode.
 */
static int input(int fd, bool stream, pid_t *child)
{
	int p[2];

	*child = -1;
	lseek(fd, 0, SEEK_SET);
	if (!stream)
		return fd;
	if (pipe(p))
		abort();
	*child = fork();
	if (*child < 0)
		abort();
	if (!*child) {
		char buf[4096];
		ssize_t n;

		close(p[0]);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

/* A session over part [from, to) of queue 0 (to 0: all of every queue). */
static void run_cut(int fd, bool stream, uint64_t from, uint64_t to, unsigned threads,
		    struct seen *s, struct spe_session_stats *st)
{
	static const uint64_t set0[SPE_SESSION_QUEUE_WORDS] = { 1 };
	struct spe_session_cut cut = { .queue = 0, .from = from, .to = to };
	struct spe_session_config cfg = { .on_record = on_record, .ctx = s, .threads = threads };
	struct spe_session *ss;
	pid_t child;
	int in = input(fd, stream, &child);

	if (to) {
		cfg.queue_set = set0;
		cfg.cuts = &cut;
		cfg.nr_cuts = 1;
	}
	memset(s, 0, sizeof(*s));
	if (spe_session_open(&ss, in, &cfg) || spe_session_run(ss))
		abort();
	*st = *spe_session_stats(ss);
	spe_session_close(ss);
	if (stream) {
		close(in);
		waitpid(child, NULL, 0);
	}
}

/* Are the records of a, then those of b, the records of whole? */
static bool parts_give(const struct seen *whole, const struct seen *a, const struct seen *b)
{
	for (int i = 0; i < whole->n; i++) {
		const struct seen *p = i < a->n ? a : b;
		int k = i < a->n ? i : i - a->n;

		if (k >= p->n || p->pc[k] != whole->pc[i] || p->time[k] != whole->time[i] ||
		    p->tid[k] != whole->tid[i] || p->pid[k] != whole->pid[i] ||
		    p->off[k] != whole->off[i])
			return false;
	}
	return a->n + b->n == whole->n;
}

/*
 * One queue of two buffers, its threads named by CONTEXT packets but in
 * the third record, after a switch to 41 that one session stops hearing at
 * the first CONTEXT packet.  Cut after the first record (the second has a
 * CONTEXT packet) or between the buffers, the two parts give the records
 * of the whole and join; cut before the third (which takes its thread from
 * the second) they do not, and the third record's thread shows why; cut
 * inside a record, the first part does not end cleanly.
 */
enum cut_input { CUT_FILE, CUT_FILE_NO_INDEX, CUT_STREAM };

static void cuts_case(enum cut_input how_in, unsigned threads)
{
	static const char *const hows[] = {
		"file", "file in pipe format (no index)", "stream",
	};
	int fd = test_temp_fd();
	bool stream = how_in == CUT_STREAM;
	struct spe_perf_writer_info info = { .cpuid = "0x00000000410fd0c0" };
	struct spe_perf_writer_sample_id sw = { .time = ptime(5), .id = 11, .cpu = 0 };
	struct spe_perf_writer *w;
	uint8_t a[128], b[64];
	size_t na = 0, nb = 0, r1, r2, pa;
	struct seen whole, s0, s1;
	struct spe_session_stats st_whole, st[2];
	struct spe_session_cut_state parts[2];
	const char *how = threads > 1 ? "file, decoding threads" : hows[how_in];
	char name[240];

	if (how_in != CUT_FILE) {
		uint64_t t = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
		struct perf_event_attr spe = { .type = 8, .sample_type = t, .sample_id_all = 1 };
		struct perf_event_attr dummy = { .type = 1, .config = 9, .sample_type = t,
						 .sample_id_all = 1 };
		uint64_t sid = 1, did = 11;
		struct spe_time_conv tc = { .time_shift = 1, .time_mult = 10, .time_zero = 7,
					    .long_form = true };

		if (spe_perf_writer_create_pipe(&w, fd, &info) ||
		    spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", &sid, 1) ||
		    spe_perf_writer_add_attr(w, &dummy, "dummy:u", &did, 1) ||
		    spe_perf_writer_time_conv(w, &tc) || spe_perf_writer_auxtrace_info_v1(w, 8, true))
			abort();
	} else {
		w = writer(fd, false);
	}
	r1 = rec(a, 0x1000, 5, 10);
	r2 = rec(a + r1, 0x1004, 6, 20);
	na = r1 + r2;
	na += rec(a + na, 0x1008, -1, 30);
	nb += rec(b + nb, 0x100c, 7, 40);
	nb += rec(b + nb, 0x1010, -1, 50);
	pa = (na + 7) & ~(size_t)7;	/* AUXTRACE data is padded to 8 bytes */
	if (spe_perf_writer_switch(w, true, true, 40, 41, &sw) ||
	    spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_auxtrace(w, b, nb, pa, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	run_cut(fd, stream, 0, 0, threads, &whole, &st_whole);
	if (whole.n != 5 || whole.tid[2] != 6)
		abort();

	/* After the first record: the second names its thread. */
	run_cut(fd, stream, 0, r1, threads, &s0, &st[0]);
	run_cut(fd, stream, r1, UINT64_MAX, threads, &s1, &st[1]);
	parts[0] = st[0].cut[0];
	parts[1] = st[1].cut[0];
	snprintf(name, sizeof(name),
		 "%s: cut where the second record starts, the parts give the whole's records and join", how);
	CHECK(parts_give(&whole, &s0, &s1) && parts[0].clean_end && parts[1].records &&
	      parts[1].first_ctx && spe_session_cuts_join(parts, 2), name);
	snprintf(name, sizeof(name), "%s: the queue is counted by its first part's session", how);
	CHECK(st[0].nr_queues == 1 && st[1].nr_queues == 0 &&
	      st[0].records + st[1].records == st_whole.records &&
	      st[1].auxtrace_records == st_whole.auxtrace_records, name);

	/* Between the buffers. */
	run_cut(fd, stream, 0, pa, threads, &s0, &st[0]);
	run_cut(fd, stream, pa, UINT64_MAX, threads, &s1, &st[1]);
	parts[0] = st[0].cut[0];
	parts[1] = st[1].cut[0];
	snprintf(name, sizeof(name), "%s: cut between the buffers, the parts give the whole's records and join", how);
	CHECK(parts_give(&whole, &s0, &s1) && s0.n == 3 && spe_session_cuts_join(parts, 2), name);

	/* Before the third record, which has no CONTEXT packet. */
	run_cut(fd, stream, 0, r1 + r2, threads, &s0, &st[0]);
	run_cut(fd, stream, r1 + r2, UINT64_MAX, threads, &s1, &st[1]);
	parts[0] = st[0].cut[0];
	parts[1] = st[1].cut[0];
	snprintf(name, sizeof(name),
		 "%s: cut before a record without CONTEXT after one with: no join (it took thread %d, not %d)",
		 how, s1.n ? s1.tid[0] : -2, whole.tid[2]);
	CHECK(parts[0].clean_end && parts[0].last_ctx_tid == 6 && !parts[1].first_ctx &&
	      !spe_session_cuts_join(parts, 2) && s1.n == 3 && s1.tid[0] == 41, name);

	/* Inside the second record. */
	run_cut(fd, stream, 0, r1 + 3, threads, &s0, &st[0]);
	parts[0] = st[0].cut[0];
	parts[1] = (struct spe_session_cut_state){ .last_ctx_tid = -1 };
	snprintf(name, sizeof(name), "%s: cut inside a record: the first part does not end cleanly", how);
	CHECK(!parts[0].clean_end && st[0].partial_records == 1 && s0.n == 1 &&
	      !spe_session_cuts_join(parts, 2), name);
	close(fd);
}

/* spe_session_cuts_join() over states made by hand. */
static void cuts_join_rules(void)
{
	struct spe_session_cut_state p[3] = {
		{ .records = true, .first_ctx = true, .first_limit = UINT64_MAX, .clean_end = true,
		  .last_ctx_tid = 9, .last_ts = 100 },
		{ .records = false, .clean_end = true, .last_ctx_tid = -1 },
		{ .records = true, .first_ctx = true, .first_limit = 101, .clean_end = false,
		  .last_ctx_tid = 9, .last_ts = 200 },
	};

	CHECK(spe_session_cuts_join(p, 3),
	      "cuts join: a part without records passes the state of the one before on");
	p[2].first_limit = 100;
	CHECK(!spe_session_cuts_join(p, 3),
	      "cuts join: not when sideband is timed at the newest timestamp before the part");
	p[2].first_limit = 101;
	p[2].first_ctx = false;
	CHECK(!spe_session_cuts_join(p, 3),
	      "cuts join: not when the part's first record lacks the CONTEXT the thread came from");
	p[0].last_ctx_tid = -1;
	CHECK(spe_session_cuts_join(p, 3), "cuts join: a first record without CONTEXT after none");
	p[1].clean_end = false;
	CHECK(!spe_session_cuts_join(p, 3), "cuts join: not after a part that did not end cleanly");
}

/* Where a cut may go, and the cuts a session refuses. */
static void cut_points_and_limits(void)
{
	int fd = test_temp_fd();
	struct spe_perf_writer *w = writer(fd, false);
	static const uint64_t set0[SPE_SESSION_QUEUE_WORDS] = { 1 };
	struct spe_session_cut cuts[3] = {
		{ .queue = 0, .from = 0, .to = 10 }, { .queue = 1, .from = 0, .to = 10 },
		{ .queue = 2, .from = 0, .to = 10 },
	};
	struct spe_session_config cfg = { .no_decode = true };
	struct spe_session *ss;
	uint8_t a[256];
	size_t na = 0, ends[8];
	uint64_t at[4];
	int n = 0, err[4];

	for (int i = 0; i < 8; i++) {
		na += rec(a + na, 0x1000 + 4 * (unsigned)i, i % 2 ? 5 : -1, 10 * (unsigned)i + 10);
		ends[n++] = na;
	}
	if (spe_perf_writer_finished_round(w) ||
	    spe_perf_writer_auxtrace(w, a, na, 0, 0, 0, (uint32_t)-1, 0) ||
	    spe_perf_writer_finished_round(w) || spe_perf_writer_finish(w))
		abort();
	spe_perf_writer_free(w);
	lseek(fd, 0, SEEK_SET);
	if (spe_session_open(&ss, fd, &cfg))
		abort();
	err[0] = spe_session_cut_point(ss, 0, 0, &at[0]);
	err[1] = spe_session_cut_point(ss, 0, ends[1] - 5, &at[1]);
	err[2] = spe_session_cut_point(ss, 0, ends[2] + 1, &at[2]);
	err[3] = spe_session_cut_point(ss, 0, 1u << 20, &at[3]);
	spe_session_close(ss);
	/* ends[1] starts record 2, without CONTEXT; ends[2] record 3, with. */
	CHECK(!err[0] && !err[1] && !err[2] && !err[3] && at[0] == 0 && at[1] == ends[2] &&
	      at[2] == ends[4] && at[3] == ((na + 7) & ~(size_t)7),
	      "cut points: a buffer's start, the next record start with CONTEXT, the queue's end");

	lseek(fd, 0, SEEK_SET);
	cfg = (struct spe_session_config){ .queue_set = set0, .cuts = cuts, .nr_cuts = 3 };
	err[0] = spe_session_open(&ss, fd, &cfg);
	spe_session_close(ss);
	cfg.nr_cuts = 2;
	err[1] = spe_session_open(&ss, fd, &cfg);	/* queue 1 is not selected */
	spe_session_close(ss);
	cuts[0].from = 10;
	cfg.nr_cuts = 1;
	err[2] = spe_session_open(&ss, fd, &cfg);	/* empty */
	spe_session_close(ss);
	cuts[1].queue = 0;
	cuts[0].from = 0;
	cfg = (struct spe_session_config){ .cuts = cuts, .nr_cuts = 2 };
	err[3] = spe_session_open(&ss, fd, &cfg);	/* two of one queue */
	spe_session_close(ss);
	CHECK(err[0] == SPE_ERR_INVAL && err[1] == SPE_ERR_INVAL && err[2] == SPE_ERR_INVAL &&
	      err[3] == SPE_ERR_INVAL,
	      "cuts refused: too many, of a queue not selected, empty, two of one queue");
	close(fd);
}

static void test_queue_cuts(void)
{
	cuts_case(CUT_FILE, 1);
	cuts_case(CUT_FILE, 2);
	cuts_case(CUT_FILE_NO_INDEX, 1);
	cuts_case(CUT_STREAM, 1);
	cuts_join_rules();
	cut_points_and_limits();
}

int main(void)
{
	test_queue_cuts();
	test_queue_sets();
	test_plain_switch_out();
	test_merge();
	test_switch_and_truncation();
	test_fork_and_idle();
	test_pid_of_alternating_threads();
	test_queue_keeps_first_cpu();
	test_records_without_trailer();
	test_stop_is_not_an_error();
	test_no_decode();
	test_round_in_time_order();
	test_decode_error_offset();
	test_stop_from_auxtrace();
	test_pipe_cpuid_and_kernel_mmap();
	test_queue_index_limit();
	test_process_from_mmap_and_short_comm();
	test_bad_cpu_metadata();
	test_close_unmaps();
	test_index_queues_data_first();
	test_fork_alone_and_wild_cpu();
	return tap_done();
}
