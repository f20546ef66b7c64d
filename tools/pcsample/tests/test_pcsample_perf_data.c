// SPDX-License-Identifier: GPL-2.0
/*
 * pcsample-record's perf.data output, from a recording made up here: the
 * /proc snapshot of this very process, samples at this program's own
 * hot_loop() (so that perf report, run on the file by suite 48, must name
 * it), and kernel side-band records as the ring would hold them.  The file
 * is read back record by record: what is kept, what is dropped, the time
 * order, and the thread and process each sample is given.
 *
 *   test_pcsample_perf_data [FILE]   also leaves the file at FILE
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcsample_perf_data.h"
#include "tap.h"

#define NR_HOT		90
#define PMU_TYPE	42
#define FORKED_TID	999999	/* a thread only the side band knows */
#define FORKED_PID	999990

static uint32_t test_cpus[2] = { 1, 3 };
static uint64_t test_ids[2] = { 1001, 1003 };

/* The code the samples point at; global and noinline so that it has its
 * own symbol for perf report to name. */
unsigned long hot_loop(unsigned long n);
__attribute__((noinline)) unsigned long hot_loop(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i * i;
	return s;
}

/* A kernel record with the PCS_SAMPLE_TYPE trailer, appended to @ev. */
static void put_record(struct pcs_events *ev, uint32_t type, const void *body, size_t len,
		       uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu, uint64_t id)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)(sizeof(h) + len + 32) };
	uint32_t pidtid[2] = { pid, tid }, cpures[2] = { cpu, 0 };

	ev->data = realloc(ev->data, ev->len + h.size);
	if (!ev->data)
		abort();
	memcpy(ev->data + ev->len, &h, sizeof(h));
	memcpy(ev->data + ev->len + sizeof(h), body, len);
	memcpy(ev->data + ev->len + sizeof(h) + len, pidtid, 8);
	memcpy(ev->data + ev->len + sizeof(h) + len + 8, &time, 8);
	memcpy(ev->data + ev->len + sizeof(h) + len + 16, cpures, 8);
	memcpy(ev->data + ev->len + sizeof(h) + len + 24, &id, 8);
	ev->len += h.size;
	ev->cap = ev->len;
	ev->nr++;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (buf && read(fd, buf, (size_t)st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

struct seen {
	unsigned int samples, comm, mmap2, fork, lost, aux, other;
	unsigned int hot, kernel_mode, unplaced, forked, own, wrong_id, period;
	bool ordered;
};

/* Walks the data section: what each record is, and each sample's fields. */
static void walk(const uint8_t *f, size_t len, uint64_t hot_ip, struct seen *s)
{
	uint64_t data_off, data_size, last_time = 0, pos;

	memset(s, 0, sizeof(*s));
	s->ordered = true;
	if (len < 104)
		return;
	memcpy(&data_off, f + 40, 8);
	memcpy(&data_size, f + 48, 8);
	if (data_off > len || data_size > len - data_off)
		return;
	for (pos = data_off; pos + 8 <= data_off + data_size;) {
		struct perf_event_header h;
		/* IDENTIFIER, IP, PID TID, TIME, CPU RES, PERIOD */
		uint64_t id, ip, time, period;
		uint32_t pidtid[2];

		memcpy(&h, f + pos, sizeof(h));
		if (h.size < sizeof(h))
			break;
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			s->samples++;
			memcpy(&id, f + pos + 8, 8);
			memcpy(&ip, f + pos + 16, 8);
			memcpy(pidtid, f + pos + 24, 8);
			memcpy(&time, f + pos + 32, 8);
			memcpy(&period, f + pos + 48, 8);
			s->hot += ip == hot_ip;
			s->kernel_mode += (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
					  PERF_RECORD_MISC_KERNEL;
			s->unplaced += pidtid[0] == UINT32_MAX && pidtid[1] == UINT32_MAX;
			s->forked += pidtid[0] == FORKED_PID && pidtid[1] == FORKED_TID;
			s->own += pidtid[0] == (uint32_t)getpid() && ip == hot_ip;
			s->wrong_id += id != test_ids[0] && id != test_ids[1];
			s->period += period == 250000;
			if (time < last_time)
				s->ordered = false;
			last_time = time;
			break;
		case PERF_RECORD_COMM: s->comm++; break;
		case PERF_RECORD_MMAP2: s->mmap2++; break;
		case PERF_RECORD_FORK: s->fork++; break;
		case PERF_RECORD_LOST: s->lost++; break;
		case PERF_RECORD_AUX: s->aux++; break;
		default: s->other++; break;
		}
		pos += h.size;
	}
}

int main(int argc, char **argv)
{
	const char *keep = argc > 1 ? argv[1] : NULL;
	char path[] = "/tmp/test_pcsample_perf_data.XXXXXX";
	struct pcs_record samples[NR_HOT + 10];
	struct pcs_events sideband[2];
	struct pcs_snapshot snap;
	struct pcs_recording rec;
	struct pcs_perf_data_stats st;
	uint64_t hot_ip = (uint64_t)(uintptr_t)&hot_loop + 4;
	uint32_t self = (uint32_t)getpid();
	char err[256];
	struct seen s;
	size_t len, n = 0;
	uint8_t *f;
	int fd;

	hot_loop(10);
	memset(&snap, 0, sizeof(snap));
	memset(sideband, 0, sizeof(sideband));
	CHECK(pcs_snapshot_add(&snap, "/proc") == 0, "the /proc snapshot is read");
	bool found_self = false, found_map = false;

	for (size_t i = 0; i < snap.nr_threads; i++)
		found_self |= snap.threads[i].tid == self && snap.threads[i].pid == self;
	for (size_t i = 0; i < snap.nr_maps; i++)
		found_map |= snap.maps[i].pid == self && hot_ip >= snap.maps[i].start &&
			     hot_ip - snap.maps[i].start < snap.maps[i].len;
	CHECK(found_self, "the snapshot has this process's main thread");
	CHECK(found_map, "the snapshot has the executable mapping holding hot_loop()");
	size_t threads = snap.nr_threads;

	CHECK(pcs_snapshot_add(&snap, "/proc") == 0 && snap.nr_threads >= threads &&
	      snap.nr_threads <= threads + 8, "a second snapshot adds only threads not seen");

	/* Samples: most in hot_loop() of this process, on CPUs 1 and 3. */
	for (int i = 0; i < NR_HOT; i++)
		samples[n++] = (struct pcs_record){ .time = 1000 + 10 * (uint64_t)i,
			.cpu = test_cpus[i & 1],
			.s = { .ip = hot_ip, .pid = self, .el = 0, .mode = PCS_MODE_USER } };
	for (int i = 0; i < 4; i++)
		samples[n++] = (struct pcs_record){ .time = 1005 + 10 * (uint64_t)i, .cpu = 1,
			.s = { .ip = 0xffff800080001000ull, .pid = 0, .el = 1,
			       .mode = PCS_MODE_KERNEL } };
	for (int i = 0; i < 3; i++)
		samples[n++] = (struct pcs_record){ .time = 2000 + (uint64_t)i, .cpu = 3,
			.s = { .ip = 0x400000, .pid = FORKED_TID, .mode = PCS_MODE_USER } };
	for (int i = 0; i < 3; i++)
		samples[n++] = (struct pcs_record){ .time = 2100 + (uint64_t)i, .cpu = 1,
			.s = { .ip = 0x400000, .pid = PCS_PID_UNKNOWN, .mode = PCS_MODE_USER } };

	/* Side band: a fork only the kernel saw, an AUX record, a loss. */
	uint32_t fork_body[6] = { FORKED_PID, FORKED_PID, FORKED_TID, FORKED_PID, 1500, 0 };
	uint64_t aux_body[3] = { 0, 4096, PERF_AUX_FLAG_TRUNCATED };
	uint64_t lost_body[2] = { test_ids[1], 7 };

	put_record(&sideband[1], PERF_RECORD_FORK, fork_body, sizeof(fork_body), FORKED_PID,
		   FORKED_TID, 1500, 3, test_ids[1]);
	put_record(&sideband[0], PERF_RECORD_AUX, aux_body, sizeof(aux_body), self, self, 1600, 1,
		   test_ids[0]);
	put_record(&sideband[1], PERF_RECORD_LOST, lost_body, sizeof(lost_body), self, self, 1700,
		   3, test_ids[1]);
	CHECK(pcs_events_truncated(&sideband[0]), "a TRUNCATED AUX record is noticed");
	CHECK(!pcs_events_truncated(&sideband[1]), "a ring without one is not truncated");

	memset(&rec, 0, sizeof(rec));
	rec.attr.size = sizeof(rec.attr);
	rec.attr.type = PMU_TYPE;
	rec.attr.sample_period = 250000;
	rec.attr.sample_type = PCS_SAMPLE_TYPE;
	rec.attr.sample_id_all = 1;
	rec.pmu_name = "arm_pcsample";
	rec.nr_events = 2;
	rec.ids = test_ids;
	rec.cpus = test_cpus;
	rec.period_ns = 250000;
	rec.samples = samples;
	rec.nr_samples = n;
	rec.snap = &snap;
	rec.sideband = sideband;

	fd = mkstemp(path);
	close(fd);
	CHECK(pcs_perf_data_write(path, &rec, &st, err, sizeof(err)) == 0, "the file is written");
	CHECK_EQ(st.samples, n, "every sample is counted");
	CHECK_EQ(st.unplaced, 3, "samples without a CONTEXTIDR pid are counted unplaced");
	CHECK_EQ(st.lost, 7, "the kernel's lost side-band records are counted");
	CHECK_EQ(st.sideband, 2, "FORK and LOST are copied; the AUX record is not");

	f = read_file(path, &len);
	CHECK(f && len >= 104 && !memcmp(f, "PERFILE2", 8), "the file starts with PERFILE2");
	walk(f, f ? len : 0, hot_ip, &s);
	CHECK_EQ(s.samples, n, "one PERF_RECORD_SAMPLE per PC sample");
	CHECK_EQ(s.hot, NR_HOT, "the samples keep their addresses");
	CHECK_EQ(s.own, NR_HOT, "a sample's thread is placed in its process");
	CHECK_EQ(s.forked, 3, "a thread known only from a FORK record gets that process");
	CHECK_EQ(s.unplaced, 3, "an unknown thread is pid/tid -1");
	CHECK_EQ(s.kernel_mode, 4, "kernel samples say PERF_RECORD_MISC_KERNEL");
	CHECK_EQ(s.wrong_id, 0, "each sample names its CPU's event id");
	CHECK_EQ(s.period, n, "each sample's period is the interval in ns");
	CHECK(s.ordered, "samples are in time order across CPUs");
	CHECK(s.comm >= snap.nr_threads, "a COMM record per thread of the snapshot");
	CHECK(s.mmap2 >= 1, "MMAP2 records for the executable mappings");
	CHECK_EQ(s.fork, 1, "the kernel's FORK record is kept");
	CHECK_EQ(s.lost, 1, "the kernel's LOST record is kept");
	CHECK_EQ(s.aux, 0, "no AUX record: the file carries no AUX data");
	CHECK_EQ(s.other, 0, "no other record type");
	free(f);

	/* Errors: no events; a directory that does not exist. */
	rec.nr_events = 0;
	CHECK(pcs_perf_data_write(path, &rec, &st, err, sizeof(err)) == -1 &&
	      strstr(err, "no event"), "a recording without events is refused, saying so");
	rec.nr_events = 2;
	CHECK(pcs_perf_data_write("/nonexistent-dir/x.data", &rec, &st, err, sizeof(err)) == -1 &&
	      strstr(err, "nonexistent-dir"), "an unwritable path is named in the error");
	samples[0].cpu = 7;
	CHECK(pcs_perf_data_write(path, &rec, &st, err, sizeof(err)) == -1 && strstr(err, "CPU 7"),
	      "a sample of a CPU without an event is refused, naming it");
	f = read_file(path, &len);
	walk(f, f ? len : 0, hot_ip, &s);
	CHECK_EQ(s.samples, n, "a failed write leaves the earlier file whole");
	free(f);
	samples[0].cpu = test_cpus[0];

	if (keep && pcs_perf_data_write(keep, &rec, &st, err, sizeof(err)))
		printf("# writing %s: %s\n", keep, err);
	unlink(path);
	pcs_snapshot_free(&snap);
	free(sideband[0].data);
	free(sideband[1].data);
	return tap_done();
}
