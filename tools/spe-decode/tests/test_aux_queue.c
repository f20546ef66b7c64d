// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Decode queues: records of several CPUs merged in timestamp order, SPE
 * timestamps converted with TIME_CONV, pid/tid from CONTEXT packets or from
 * context switches, AUX flags and LOST counted, no record stitched across
 * AUXTRACE buffers (perf.data-file-format.txt).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spe_decode.h"
#include "spe_data_source.h"
#include "spe_session.h"
#include "tap.h"

#define MAXR 64

struct seen {
	uint64_t time[MAXR], pc[MAXR];
	int32_t cpu[MAXR], tid[MAXR], pid[MAXR];
	enum spe_ds_table ds[MAXR];
	uint64_t off[MAXR];
	int n;
};

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
	return 0;
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

static int tmpfd(void)
{
	char name[] = "/tmp/spe-q-XXXXXX";
	int fd = mkstemp(name);

	if (fd < 0)
		abort();
	unlink(name);
	return fd;
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

	if (spe_perf_writer_create(&w, fd, &info) || spe_perf_writer_add_attr(w, &spe,
		"arm_spe_0//", sid, 2) ||
	    spe_perf_writer_add_attr(w, &dummy, "dummy:u", did, 2) || spe_perf_writer_time_conv(w,
		    &tc))
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
	int fd = tmpfd();
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
	CHECK(s.off[0] > 0 && s.off[1] > s.off[4], "records carry their file offsets");
	close(fd);
}

static void test_switch_and_truncation(void)
{
	int fd = tmpfd();
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
	    spe_perf_writer_switch(w, true, true, 40, 41,
				   &sw) || spe_perf_writer_finished_round(w) ||
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
	int fd = tmpfd();
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
	close(fd);
}

int main(void)
{
	test_plain_switch_out();
	test_merge();
	test_switch_and_truncation();
	return tap_done();
}
