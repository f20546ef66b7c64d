// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX buffer's flow control (perf_event.h: PERF_RECORD_AUX flags,
 * snapshot mode in halves, zero padding):
 *   - a 2-page AUX buffer nobody reads fills up: a PERF_RECORD_AUX with
 *     TRUNCATED follows, what was written decodes cleanly, and once the
 *     reader catches up the next data decodes cleanly too;
 *   - snapshot (overwrite, read-only AUX mapping) keeps the newest data:
 *     after the buffer wrapped it holds records from the last quarter of
 *     the run, none from its first tenth;
 *   - aux_watermark: poll() wakes the reader once that much data is there,
 *     not before, and long before the buffer is full.
 * Timestamps are generic timer ticks (the simulated unit follows CNTPCT),
 * compared with CNTVCT read at EL0: equal without a virtual offset.
 * Skips when there is no arm_spe PMU.
 */
#include "spe_aux.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

/*
 * Spin and yield for at least secs, and on until the snapshot buffer has
 * wrapped `wraps` times or limit seconds passed; returns the wraps seen.
 * In overwrite mode perf publishes where the unit stopped (an offset in the
 * buffer) at every sched-out, so a smaller offset than the last one means
 * the unit went round.  A fixed run is not enough: on a busy host the guest
 * may write too little in it to wrap the buffer at all.
 */
static unsigned int spin_until_wrapped(const struct spe_session *s, double secs,
				       unsigned int wraps, double limit)
{
	double start = spe_now();
	uint64_t last = spe_aux_head(s), head;
	unsigned int seen = 0;

	while (spe_now() < start + limit &&
	       (spe_now() < start + secs || seen < wraps)) {
		spe_spin(0.02);
		usleep(1000);
		head = spe_aux_head(s);
		if (head < last)
			seen++;
		last = head;
	}
	return seen;
}

static void check_truncated(int type)
{
	struct perf_event_attr a;
	struct spe_session s;
	struct spe_aux_records f = { 0 };
	struct spe_aux_decoded d1, d2;
	uint8_t *copy;
	uint64_t head1, head2, times[2][3] = { { 0 } };
	unsigned int reenabled = 0;
	size_t n;
	int ret;

	spe_attr_init(&a, type, CFG_TS_ENABLE);
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	ret = spe_session_open(&s, &a, 0, -1, 4, 2, false);
	if (!tap_check(!ret, "a 2-page AUX buffer maps (%d)", ret)) {
		tap_skip("no session", "TRUNCATED reported");
		tap_skip("no session", "data before the loss decodes cleanly");
		tap_skip("no session", "data after the reader caught up decodes cleanly");
		return;
	}
	copy = malloc(s.aux_size);
	/* Until the buffer is reported full; a busy host slows the guest. */
	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 0; i < 30 && !f.truncated; i++) {
		spe_spin(0.1);
		spe_ring_drain(&s, spe_aux_on_record, &f);
	}
	head1 = spe_aux_head(&s);
	tap_check(f.truncated > 0 && head1 <= s.aux_size,
		  "nobody reads a full 2-page buffer: PERF_RECORD_AUX with TRUNCATED "
		  "(%lu AUX records, %lu truncated, head %llu of %zu)", f.aux_records,
		  f.truncated, (unsigned long long)head1, s.aux_size);
	n = spe_aux_copy(&s, 0, head1, copy);
	spe_aux_decode(copy, n, &d1);
	if (!tap_check(d1.records > 0 && !d1.errors,
		       "the data before the loss decodes cleanly (%lu records, %lu errors)",
		       d1.records, d1.errors) || !f.truncated)
		tap_diag("AUX records (offset+size/flags):%s", f.log);

	/*
	 * The reader catches up and enables the event again: perf core
	 * disables an event whose AUX data was truncated.  Nobody reads
	 * during the next half second, so the 2-page buffer fills and the
	 * event is disabled again; enable it whenever it was found off, as
	 * a reader keeping up would.
	 */
	spe_aux_consume(&s, head1);
	read(s.fd, times[0], sizeof(times[0]));
	{
		double end = spe_now() + 0.5;
		uint64_t prev = 0, now[3];

		while (spe_now() < end) {
			if (read(s.fd, now, sizeof(now)) == sizeof(now)) {
				if (prev && now[1] == prev)
					reenabled++;
				prev = now[1];
			}
			ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
			spe_spin(0.02);
			usleep(1000);
		}
	}
	read(s.fd, times[1], sizeof(times[1]));
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
	if (reenabled)
		tap_diag("the event was found disabled %u times after the reader re-enabled it",
			 reenabled);
	head2 = spe_aux_head(&s);
	memset(&f, 0, sizeof(f));
	spe_ring_drain(&s, spe_aux_on_record, &f);
	if (head2 == head1)
		tap_diag("after re-enable: time enabled +%llu ns, running +%llu ns; "
			 "%lu AUX records (%lu truncated) since the first check",
			 (unsigned long long)(times[1][1] - times[0][1]),
			 (unsigned long long)(times[1][2] - times[0][2]),
			 f.aux_records, f.truncated);
	n = spe_aux_copy(&s, head1, head2, copy);
	spe_aux_decode(copy, n, &d2);
	tap_check(head2 > head1 && d2.records > 0 && !d2.errors,
		  "after the reader caught up, new data decodes cleanly "
		  "(%llu new bytes, %lu records, %lu errors)",
		  (unsigned long long)(head2 - head1), d2.records, d2.errors);
	free(copy);
	spe_session_close(&s);
}

static void check_snapshot(int type)
{
	struct perf_event_attr a;
	struct spe_session s;
	struct spe_aux_decoded d;
	uint64_t t0, t1, head, slack;
	unsigned int wraps;
	uint8_t *copy;
	size_t n, skip;
	int ret;

	spe_attr_init(&a, type, CFG_TS_ENABLE);
	ret = spe_session_open(&s, &a, 0, -1, 4, 2, true);
	if (!tap_check(!ret, "snapshot mode: a read-only 2-page AUX mapping opens (%d)", ret)) {
		tap_skip("no session", "snapshot wraps and keeps the newest data");
		return;
	}
	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = spe_cntvct();
	wraps = spin_until_wrapped(&s, 1.0, 2, 10.0);
	t1 = spe_cntvct();
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
	/*
	 * The newest record is within a quarter of the run of its end: the
	 * guest's CPUs are host threads and may stall on a busy host.
	 */
	slack = (t1 - t0) / 4;
	head = spe_aux_head(&s);
	copy = malloc(s.aux_size);
	/*
	 * In overwrite mode aux_head is where the unit stopped (perf core
	 * takes the driver's handle->head, an offset in the buffer): the
	 * oldest data starts there and wraps round to it.
	 */
	for (n = 0; n < s.aux_size; n++)
		copy[n] = s.aux[(head + n) % s.aux_size];
	/* The whole records: from the first boundary after the fragment. */
	skip = spe_aux_first_record(copy, n, t0, t1 + slack);
	spe_aux_decode(copy + skip, n - skip, &d);
	tap_check(skip <= SPE_RECORD_MAX_BYTES && d.records > s.aux_size / 2 / 128 &&
		  !d.errors && !d.backsteps &&
		  d.ts_min > t0 + (t1 - t0) / 10 && d.ts_max + slack >= t1 && d.ts_max <= t1 + slack,
		  "snapshot: the buffer (head %llu, %zu bytes, wrapped %u times) keeps the newest "
		  "records: after %zu bytes of a partly overwritten one, %lu records from %+.3f s "
		  "to %+.3f s of a %.3f s run, in time order (%lu steps back), %lu decode errors",
		  (unsigned long long)head, s.aux_size, wraps, skip, d.records,
		  ((double)d.ts_min - t0) / spe_cntfrq(), ((double)d.ts_max - t0) / spe_cntfrq(),
		  ((double)t1 - t0) / spe_cntfrq(), d.backsteps, d.errors);
	tap_diag("snapshot: largest gap between records %.3f s, after +%.3f s",
		 (double)d.gap / spe_cntfrq(), ((double)d.gap_at - t0) / spe_cntfrq());
	free(copy);
	spe_session_close(&s);
}

static void check_watermark(int type)
{
	struct perf_event_attr a;
	struct spe_session s;
	struct pollfd pfd;
	uint64_t head;
	pid_t child;
	int ret, status, pr;
	unsigned int wakes = 0;
	double deadline;
	size_t mark;

	/* The child spins until it is killed below; see the deadline. */
	child = fork();
	if (child == 0) {
		usleep(100000);
		spe_spin(60.0);
		_exit(0);
	}
	spe_attr_init(&a, type, CFG_TS_ENABLE);
	a.disabled = 0;
	mark = 4 * sysconf(_SC_PAGESIZE);
	a.aux_watermark = mark;
	ret = spe_session_open(&s, &a, child, -1, 4, 16, false);
	if (!tap_check(!ret, "aux_watermark=%zu on a 16-page AUX buffer opens for a child (%d)",
		       mark, ret)) {
		tap_skip("no session", "watermark wakes the reader");
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		return;
	}
	/*
	 * The ordinary ring wakes the reader too (its ITRACE_START and AUX
	 * records): consume it and wait again until the AUX data reaches the
	 * watermark.  The reader must then be awake with the buffer not yet
	 * full.  Four pages take well under a second of the child's running;
	 * the deadline is 30 s of the guest's clock because that clock
	 * follows the host's, and a starved host may not run the child's
	 * vCPU for seconds.
	 */
	pfd.fd = s.fd;
	pfd.events = POLLIN;
	deadline = spe_now() + 30.0;
	do {
		int left_ms = (int)((deadline - spe_now()) * 1000);

		pr = poll(&pfd, 1, left_ms > 0 ? left_ms : 0);
		head = spe_aux_head(&s);
		if (pr == 1 && head < mark) {
			wakes++;
			__atomic_store_n(&s.up->data_tail,
					 __atomic_load_n(&s.up->data_head, __ATOMIC_ACQUIRE),
					 __ATOMIC_RELEASE);
		}
	} while (pr == 1 && head < mark && spe_now() < deadline);
	tap_check(pr == 1 && head >= mark && head < s.aux_size,
		  "poll() wakes once aux_watermark bytes are there, before the buffer is full "
		  "(poll %d, head %llu, watermark %zu, buffer %zu, %u earlier wakeups by the ring)",
		  pr, (unsigned long long)head, mark, s.aux_size, wakes);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	spe_session_close(&s);
}

int main(void)
{
	int type = spe_pmu_type_or_skip();

	tap_plan(4 + 2 + 2);
	check_truncated(type);
	check_snapshot(type);
	check_watermark(type);
	return tap_exit();
}
