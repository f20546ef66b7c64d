// SPDX-License-Identifier: GPL-2.0
/*
 * Records through the whole path: perf_event_open() for this task, the
 * perf ring and AUX buffer mmap'ed, a workload run, and the AUX data
 * decoded in place with the project's decoder (tools/spe-decode):
 *   - records arrive and decode without an error;
 *   - exclude_kernel: every PC is at EL0 and inside this program's text
 *     (or the vDSO it calls for the time), most inside the spin loop;
 *   - exclude_user: every PC is a kernel address at EL1/EL2;
 *   - load_filter: every record is a load (DDI 0586A §4.3.9 PMSFCR_EL1.LD);
 *   - min_latency=N: every record's total latency is at least N;
 *   - timestamps never go back; CONTEXT (CONTEXTIDR_EL1, or _EL2 under
 *     VHE) is this task's PID (CONFIG_PID_IN_CONTEXTIDR, CX is set for a
 *     privileged owner); a kernel built without that option (Debian's
 *     5.10) gets no CONTEXT packets at all.
 * Skips when there is no arm_spe PMU.
 */
#include "spe_selftest.h"
#include "spe_decode.h"

#include <fcntl.h>

#define RING_PAGES	16
#define AUX_PAGES	64	/* 256 KiB */
#define MIN_LATENCY	16

extern const char __executable_start[], etext[];
extern const char __start_spe_spin_text[], __stop_spe_spin_text[];

struct tally {
	unsigned long records, errors, pcs, not_el0, outside_text, in_spin;
	unsigned long not_kernel, ops, not_load, lat, below_lat;
	unsigned long ts, ts_back, ctx, ctx_wrong;
	uint64_t first_outside, first_not_kernel;
	uint32_t first_bad_ctx;
};

static uint64_t vdso_lo, vdso_hi;

static void find_vdso(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	unsigned long lo, hi;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			vdso_lo = lo;
			vdso_hi = hi;
		}
	fclose(f);
}

static bool in_text(uint64_t pc)
{
	return (pc >= (uintptr_t)__executable_start && pc < (uintptr_t)etext) ||
	       (pc >= (uintptr_t)__start_spe_spin_text &&
		pc < (uintptr_t)__stop_spe_spin_text) ||
	       (pc >= vdso_lo && pc < vdso_hi);
}

static void tally(const uint8_t *buf, size_t len, struct tally *t)
{
	struct spe_decoder dec;
	struct spe_record r;
	uint64_t last_ts = 0;
	pid_t pid = getpid();
	int ret;

	memset(t, 0, sizeof(*t));
	spe_decoder_init(&dec, NULL, buf, len, 0);
	while ((ret = spe_decoder_next(&dec, &r)) != 0) {
		if (ret < 0) {
			if (!t->errors)
				tap_diag("decode error %s at offset %llu", spe_strerror(ret),
					 (unsigned long long)spe_decoder_error_offset(&dec));
			t->errors++;
			continue;
		}
		t->records++;
		if (r.present & SPE_REC_PC) {
			uint64_t pc = r.pc.addr;

			t->pcs++;
			if (r.pc.el != 0)
				t->not_el0++;
			if (!in_text(pc)) {
				if (!t->outside_text++)
					t->first_outside = pc;
			}
			if (pc >= (uintptr_t)__start_spe_spin_text &&
			    pc < (uintptr_t)__stop_spe_spin_text)
				t->in_spin++;
			if ((pc >> 48) != 0xffff || (r.pc.el != 1 && r.pc.el != 2)) {
				if (!t->not_kernel++)
					t->first_not_kernel = pc;
			}
		}
		if (r.present & SPE_REC_OP_TYPE) {
			t->ops++;
			/* Load/store class, subclass bit 0 clear = load. */
			if (r.op_class != 1 || (r.op_subclass & 1))
				t->not_load++;
		}
		if (r.present & SPE_REC_LAT_TOTAL) {
			t->lat++;
			if (r.lat_total < MIN_LATENCY)
				t->below_lat++;
		}
		if (r.present & SPE_REC_TIMESTAMP) {
			t->ts++;
			if (r.timestamp < last_ts)
				t->ts_back++;
			last_ts = r.timestamp;
		}
		/*
		 * The PID is in CONTEXTIDR_EL1 when the kernel runs at EL1;
		 * a VHE kernel (at EL2) writes it to CONTEXTIDR_EL2, and the
		 * unit reports that one (index 1) for its own EL.
		 */
		if (r.present & (SPE_REC_CONTEXT_EL1 | SPE_REC_CONTEXT_EL2)) {
			uint32_t ctx = (r.present & SPE_REC_CONTEXT_EL1) ?
				       r.context_el1 : r.context_el2;

			t->ctx++;
			if (ctx != (uint32_t)pid) {
				if (t->ctx_wrong++ == 0)
					t->first_bad_ctx = ctx;
			}
		}
	}
}

/* Many system calls: kernel time for exclude_user. */
static void syscalls(double secs)
{
	static char buf[65536];
	double end = spe_now() + secs;
	int fd = open("/dev/zero", O_RDONLY);

	while (spe_now() < end)
		if (read(fd, buf, sizeof(buf)) < 0)
			break;
	close(fd);
}

/*
 * Profile this task for secs seconds of work and decode its AUX data;
 * 0 or -errno.
 */
static int record(int type, uint64_t config, uint64_t config2, bool kernel,
		  double secs, struct tally *t)
{
	struct perf_event_attr a;
	struct spe_session s;
	uint64_t head;
	int ret;

	memset(t, 0, sizeof(*t));
	spe_attr_init(&a, type, config);
	a.config2 = config2;
	if (kernel) {
		a.exclude_kernel = 0;
		a.exclude_user = 1;
	}
	ret = spe_session_open(&s, &a, 0, -1, RING_PAGES, AUX_PAGES, false);
	if (ret)
		return ret;
	ioctl(s.fd, PERF_EVENT_IOC_ENABLE, 0);
	if (kernel)
		syscalls(secs);
	else
		spe_spin(secs);
	ioctl(s.fd, PERF_EVENT_IOC_DISABLE, 0);
	head = spe_aux_head(&s);
	tally(s.aux, head < s.aux_size ? head : s.aux_size, t);
	spe_session_close(&s);
	return 0;
}

int main(void)
{
	int type = spe_pmu_type_or_skip();
	int ret, pid_in_contextidr;
	struct tally t;

	find_vdso();
	pid_in_contextidr = spe_kernel_config("CONFIG_PID_IN_CONTEXTIDR");
	tap_plan(12);

	ret = record(type, CFG_TS_ENABLE, 0, false, 0.5, &t);
	tap_check(!ret && t.records > 20 && !t.errors,
		  "exclude_kernel: records arrive and decode cleanly (%lu records, %lu errors, ret %d)",
		  t.records, t.errors, ret);
	tap_check(t.pcs == t.records && t.pcs && !t.not_el0,
		  "exclude_kernel: every record has a PC at EL0 (%lu PCs, %lu not EL0)",
		  t.pcs, t.not_el0);
	tap_check(t.pcs && !t.outside_text && t.in_spin * 2 > t.pcs,
		  "exclude_kernel: every PC is in this program's text or vDSO, most in the spin loop "
		  "(%lu outside, first 0x%llx; %lu of %lu in the loop)", t.outside_text,
		  (unsigned long long)t.first_outside, t.in_spin, t.pcs);
	tap_check(t.ts == t.records && t.ts && !t.ts_back,
		  "ts_enable: every record has a timestamp and they never go back (%lu, %lu backwards)",
		  t.ts, t.ts_back);
	tap_check(t.not_load > 0 && t.below_lat > 0,
		  "without filters some records are not loads (%lu) and some have a total latency "
		  "below %d (%lu): the filter checks below can fail", t.not_load, MIN_LATENCY,
		  t.below_lat);
	if (pid_in_contextidr > 0)
		tap_check(t.ctx == t.records && t.ctx && !t.ctx_wrong,
			  "CONTEXT is this task's PID %d in every record (%lu with context, %lu wrong, first %u)",
			  getpid(), t.ctx, t.ctx_wrong, t.first_bad_ctx);
	else if (!pid_in_contextidr)
		tap_check(!t.ctx,
			  "no CONTEXT packets: without CONFIG_PID_IN_CONTEXTIDR the register holds no PID, so CX stays clear (%lu with context)",
			  t.ctx);
	else
		tap_skip("the kernel's configuration is unreadable (/proc/config.gz, /boot/config-RELEASE)",
			 "CONTEXT is this task's PID in every record");

	ret = record(type, CFG_TS_ENABLE, 0, true, 0.5, &t);
	tap_check(!ret && t.records > 0 && !t.errors,
		  "exclude_user: records arrive while the task is in system calls (%lu, %lu errors, ret %d)",
		  t.records, t.errors, ret);
	tap_check(t.pcs && !t.not_kernel,
		  "exclude_user: every PC is a kernel address at EL1/EL2 (%lu PCs, %lu not, first 0x%llx)",
		  t.pcs, t.not_kernel, (unsigned long long)t.first_not_kernel);

	ret = record(type, CFG_TS_ENABLE | CFG_LOAD_FILTER, 0, false, 0.5, &t);
	tap_check(!ret && t.records > 0 && !t.errors,
		  "load_filter: records arrive (%lu, %lu errors, ret %d)", t.records, t.errors, ret);
	tap_check(t.ops == t.records && !t.not_load,
		  "load_filter: every record is a load (%lu records, %lu ops, %lu not loads)",
		  t.records, t.ops, t.not_load);

	ret = record(type, CFG_TS_ENABLE, MIN_LATENCY, false, 0.5, &t);
	tap_check(!ret && t.records > 0 && !t.errors,
		  "min_latency=%d: records arrive (%lu, %lu errors, ret %d)", MIN_LATENCY,
		  t.records, t.errors, ret);
	tap_check(t.lat == t.records && !t.below_lat,
		  "min_latency=%d: every record has a total latency >= %d (%lu with latency, %lu below)",
		  MIN_LATENCY, MIN_LATENCY, t.lat, t.below_lat);
	return tap_exit();
}
