// SPDX-License-Identifier: GPL-2.0
/*
 * The PC-sample PMU's perf callbacks (pcsample/pcsample_pmu.c) and its
 * sampling round (pcsample/pcsample_round.c), compiled unchanged against
 * host stand-ins, over a fake register frame that behaves as DDI 0487
 * describes PMPCSR: a read of PMPCSR[31:0] latches the sample and its
 * context into PMPCSR[63:32], PMCID1SR, PMCID2SR and PMVIDSR, unless the
 * Software Lock is locked; any access while the core is off is an
 * external abort (a failed check here).
 */
#include <stdarg.h>

#include "pcsample/pcsample.h"
#include "pcsample/regs.h"
#include "tap.h"

/* ---- host stand-ins the compiled files call ---- */

static int warnings, errors, cur_cpu, kicks;
static bool capable_perfmon;
static u64 now_ns = 1000000;

void host_kernel_warn(const char *file, int line)
{
	warnings++;
	printf("# WARN at %s:%d\n", file, line);
}

void host_kernel_log_err(const char *fmt, ...)
{
	va_list ap;

	errors++;
	printf("# err: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* The allocation that fails: 1 the next one, 2 the one after; 0 none. */
static int fail_alloc;

static bool alloc_fails(void)
{
	return fail_alloc && --fail_alloc == 0;
}

void *kzalloc(size_t size, int gfp) { (void)gfp; return alloc_fails() ? NULL : calloc(1, size); }
void *kzalloc_node(size_t size, int gfp, int node) { (void)node; return kzalloc(size, gfp); }
void *kcalloc(size_t n, size_t size, int gfp)
{
	(void)gfp;
	return alloc_fails() ? NULL : calloc(n, size);
}
void kfree(const void *p) { free((void *)p); }
static unsigned char aux_pages[4][PAGE_SIZE];
void *vmap(struct page **pages, unsigned int count, unsigned long flags, int prot)
{
	(void)flags; (void)prot;
	return count <= 4 && (void *)pages[0] == aux_pages[0] ? aux_pages : NULL;
}
void vunmap(const void *addr) { (void)addr; }
int smp_processor_id(void) { return cur_cpu; }
bool perfmon_capable(void) { return capable_perfmon; }
u64 ktime_get_ns(void) { return now_ns; }
void pcs_sampler_kick(struct pcs_dev *pd) { (void)pd; kicks++; }
static u64 fake_clock(void) { return now_ns + 7; }

/* perf's AUX output: one handle per target, space set by the test. */
static bool aux_available = true;
static unsigned long aux_head, aux_space, aux_ended_size;
static u64 aux_flags_seen;
static int aux_begins, aux_ends;
static struct pcs_aux_buf *aux_buf;

void *perf_aux_output_begin(struct perf_output_handle *h, struct perf_event *e)
{
	if (!aux_available)
		return NULL;
	aux_begins++;
	h->event = e;
	h->head = aux_head;
	h->size = aux_space;
	h->aux_flags = 0;
	return aux_buf;
}

void perf_aux_output_flag(struct perf_output_handle *h, u64 flags)
{
	h->aux_flags |= flags;
}

void perf_aux_output_end(struct perf_output_handle *h, unsigned long size)
{
	aux_ends++;
	aux_ended_size = size;
	aux_flags_seen = h->aux_flags;
	h->event = NULL;
}

/* ---- the fake frame ---- */

struct fake_frame {
	bool off;		/* reading it now is an external abort */
	bool locked;		/* Software Lock: SLI and SLK */
	u32 devid;		/* PMDEVID or EDDEVID */
	u32 devid1;
	u32 edprsr;
	/* the live sample, latched on a PMPCSR[31:0] read */
	u32 live_lo, live_hi, live_cid1, live_cid2, live_vid;
	u32 hi, cid1, cid2, vid;
	u32 log[32];		/* offsets accessed, writes with bit 31 */
	int nlog;
	int aborts;
};

static struct fake_frame frames[4];
static bool debug_kind;

static struct fake_frame *frame_of(struct pcs_target *t)
{
	return &frames[t->cpu];
}

static void fake_log(struct fake_frame *f, u32 off)
{
	if (f->off)
		f->aborts++;
	if (f->nlog < 32)
		f->log[f->nlog++] = off;
}

u32 pcs_reg_read32(struct pcs_target *t, u32 off)
{
	struct fake_frame *f = frame_of(t);
	u32 lo_off = debug_kind ? PCS_DBG_EDPCSR_LO : PCS_PMU_PMPCSR_LO;

	fake_log(f, off);
	if (off == lo_off) {
		if (!f->locked) {
			f->hi = f->live_hi;
			f->cid1 = f->live_cid1;
			f->cid2 = f->live_cid2;
			f->vid = f->live_vid;
		}
		return f->live_lo;
	}
	if (debug_kind) {
		switch (off) {
		case PCS_DBG_EDPCSR_HI: return f->hi;
		case PCS_DBG_EDCIDSR: return f->cid1;
		case PCS_DBG_EDVIDSR: return f->vid;
		case PCS_DBG_EDPRSR: return f->edprsr;
		case PCS_DBG_EDDEVID: return f->devid;
		case PCS_DBG_EDDEVID1: return f->devid1;
		}
	} else {
		switch (off) {
		case PCS_PMU_PMPCSR_HI: return f->hi;
		case PCS_PMU_PMCID1SR: return f->cid1;
		case PCS_PMU_PMCID2SR: return f->cid2;
		case PCS_PMU_PMVIDSR: return f->vid;
		case PCS_PMU_PMDEVID: return f->devid;
		}
	}
	if (off == PCS_LSR)
		return PCS_LSR_SLI | (f->locked ? PCS_LSR_SLK : 0);
	return 0xdeadbeef;
}

u64 pcs_reg_read64(struct pcs_target *t, u32 off)
{
	u32 lo = pcs_reg_read32(t, off);

	return (u64)frame_of(t)->hi << 32 | lo;
}

void pcs_reg_write32(struct pcs_target *t, u32 off, u32 val)
{
	struct fake_frame *f = frame_of(t);

	fake_log(f, off | 0x80000000u);
	if (off == PCS_LAR && val == PCS_LAR_KEY)
		f->locked = false;
}

/* ---- fixtures ---- */

static struct pcs_dev pd;
static struct pcs_target targets[4];
static struct pcs_target *target_ptrs[4];
static struct perf_event ev;

static void free_aux_buf(void)
{
	if (aux_buf)
		pd.pmu.free_aux(aux_buf);
	aux_buf = NULL;
}

static void reset(bool debug)
{
	int i;

	free_aux_buf();
	memset(&pd, 0, sizeof(pd));
	memset(targets, 0, sizeof(targets));
	memset(frames, 0, sizeof(frames));
	memset(&ev, 0, sizeof(ev));
	memset(aux_pages, 0, sizeof(aux_pages));
	debug_kind = debug;
	pcs_pmu_init(&pd);
	pd.pmu.type = 42;
	pd.kind = debug ? PCS_FRAME_DEBUG : PCS_FRAME_PMU;
	pd.host.kernel_el = 1;
	pd.host.pid_in_contextidr = true;
	pd.hk_cpu = 0;
	pd.targets = target_ptrs;
	for (i = 0; i < 4; i++) {
		targets[i].cpu = i;
		targets[i].online = true;
		targets[i].unlock_pending = true;
		raw_spin_lock_init(&targets[i].lock);
		target_ptrs[i] = &targets[i];
		frames[i].devid = debug ? PCS_EDDEVID_PCSAMPLE_CID_VID : PCS_PMDEVID_PCSAMPLE_IMPL;
		frames[i].devid1 = PCS_PCSROFFSET_NONE;
		frames[i].edprsr = PCS_EDPRSR_PU;
		if (i)
			pd.supported.bits[0] |= 1UL << i;
	}
	ev.pmu = &pd.pmu;
	ev.attr.type = 42;
	ev.attr.sample_period = 100000;
	ev.attr.exclude_kernel = 1;
	ev.cpu = 2;
	ev.clock = fake_clock;
	aux_available = true;
	aux_head = 0;
	aux_space = 4 * PAGE_SIZE;
	aux_begins = aux_ends = 0;
	aux_ended_size = 0;
	aux_flags_seen = 0;
	kicks = 0;
	capable_perfmon = true;
	now_ns = 1000000;
	cur_cpu = 0;
}

static void set_live(struct fake_frame *f, u32 lo, u32 hi, u32 cid1, u32 vid)
{
	f->live_lo = lo;
	f->live_hi = hi;
	f->live_cid1 = cid1;
	f->live_cid2 = cid1 + 1;
	f->live_vid = vid;
}

/* Start @ev on CPU 2, as perf core does there. */
static int start_on_target(void)
{
	static void *pages[4] = { aux_pages[0], aux_pages[1], aux_pages[2], aux_pages[3] };

	int ret;

	ret = pd.pmu.event_init(&ev);
	if (ret)
		return ret;
	aux_buf = pd.pmu.setup_aux(&ev, pages, 4, false);
	cur_cpu = 2;
	ret = pd.pmu.add(&ev, PERF_EF_START);
	cur_cpu = 0;	/* the sampler runs on the housekeeping CPU */
	return ret;
}

static void stop_on_target(void)
{
	cur_cpu = 2;
	pd.pmu.del(&ev, PERF_EF_UPDATE);
	cur_cpu = 0;
}

static bool record_at(unsigned long off, struct pcs_record *rec)
{
	return pcs_record_unpack((u8 *)aux_pages + off, rec);
}

/* ---- tests ---- */

static void test_event_init(void)
{
	reset(false);
	ev.attr.type = 7;
	CHECK_EQ(pd.pmu.event_init(&ev), -ENOENT, "another PMU's type is not ours");
	ev.attr.type = 42;
	ev.cpu = -1;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "a per-task event (cpu -1) is refused");
	ev.cpu = 0;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "the housekeeping CPU is not sampled");
	ev.cpu = 9;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "a CPU without a frame is refused");
	ev.cpu = 2;
	ev.attr.config = 1;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "config bits are refused (none defined)");
	ev.attr.config = 0;
	ev.attr.config1 = 1;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "config1 bits are refused");
	ev.attr.config1 = 0;
	ev.attr.config2 = 1;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "config2 bits are refused");
	ev.attr.config2 = 0;
	ev.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "a branch stack is refused");
	ev.attr.sample_type = 0;
	ev.attr.sample_period = 0;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "a counting event (no period) is refused");
	ev.attr.sample_period = 5000;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "a 5 us period is refused (10 us minimum)");
	ev.attr.freq = 1;
	ev.attr.sample_freq = 200000;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "200 kHz is refused");
	ev.attr.sample_freq = 4000;
	ev.attr.exclude_kernel = 0;
	capable_perfmon = false;
	CHECK_EQ(pd.pmu.event_init(&ev), -EACCES,
		 "kernel samples need the privilege perf_event_paranoid asks for");
	CHECK_EQ(atomic_read(&pd.nr_events), 0, "refused events are not counted");
	capable_perfmon = true;
	CHECK_EQ(pd.pmu.event_init(&ev), 0, "a privileged -F 4000 event on CPU 2 is accepted");
	CHECK_EQ(ev.hw.config, 250000, "its interval is 250 us");
	CHECK(atomic_read(&pd.nr_events) == 1 && kicks == 1,
	      "the event is counted and the sampler woken");
	ev.destroy(&ev);
	CHECK_EQ(atomic_read(&pd.nr_events), 0, "destroy uncounts it");

	/* CPU 0 is an ordinary CPU when another one keeps house. */
	pd.hk_cpu = 3;
	pd.supported.bits[0] = 0x7;
	ev.cpu = 0;
	CHECK_EQ(pd.pmu.event_init(&ev), 0, "CPU 0 is sampled when CPU 3 is the housekeeper");
	ev.destroy(&ev);
	ev.cpu = 3;
	CHECK_EQ(pd.pmu.event_init(&ev), -EINVAL, "and CPU 3 is not");
}

static void test_setup_aux(void)
{
	void *pages[4] = { aux_pages[0], aux_pages[1], aux_pages[2], aux_pages[3] };
	struct pcs_aux_buf *b;

	reset(false);
	CHECK(pd.pmu.setup_aux(&ev, pages, 4, true) == NULL, "snapshot mode is refused");
	CHECK(pd.pmu.setup_aux(&ev, pages, 3, false) == NULL, "3 pages (not a power of 2) refused");
	CHECK(pd.pmu.setup_aux(&ev, pages, 0, false) == NULL, "0 pages refused");
	b = pd.pmu.setup_aux(&ev, pages, 4, false);
	CHECK(b && b->size == 4 * PAGE_SIZE && b->base == (u8 *)aux_pages,
	      "4 pages map into one 16 KiB buffer");
	if (b)
		pd.pmu.free_aux(b);
	/* Failures free what was allocated (ASan reports a leak otherwise). */
	fail_alloc = 1;
	CHECK(pd.pmu.setup_aux(&ev, pages, 4, false) == NULL, "no memory for the buffer: NULL");
	fail_alloc = 2;
	CHECK(pd.pmu.setup_aux(&ev, pages, 4, false) == NULL, "no memory for the page list: NULL");
	fail_alloc = 0;
	pages[0] = aux_pages[1];
	CHECK(pd.pmu.setup_aux(&ev, pages, 4, false) == NULL, "vmap fails: NULL");
}

static void test_sampling(void)
{
	struct fake_frame *f = &frames[2];
	struct pcs_target *t = &targets[2];
	struct pcs_record rec;
	static const u32 first_round[] = {
		PCS_PMU_PMDEVID, PCS_LSR, PCS_LAR | 0x80000000u, PCS_PMU_PMPCSR_LO,
		PCS_PMU_PMPCSR_HI, PCS_PMU_PMCID1SR, PCS_PMU_PMCID2SR, PCS_PMU_PMVIDSR,
	};
	u64 next;
	int i, same;

	reset(false);
	f->locked = true;
	set_live(f, 0x00401000, PCS_PCSR_HI_NS, 321, 0);
	CHECK_EQ(start_on_target(), 0, "add with PERF_EF_START on the target");
	CHECK(t->event == &ev && aux_begins == 1, "start arms the target with an AUX handle");
	CHECK_EQ(ev.hw.state, 0, "the event runs");

	next = pcs_round(&pd);
	same = f->nlog == 8;
	for (i = 0; same && i < 8; i++)
		same = f->log[i] == first_round[i];
	CHECK(same, "first read: PMDEVID checked, Software Lock opened, then PMPCSR[31:0] "
		    "before PMPCSR[63:32], PMCID1SR, PMCID2SR, PMVIDSR");
	if (!same)
		for (i = 0; i < f->nlog; i++)
			printf("#   access %d: 0x%x\n", i, f->log[i]);
	CHECK(record_at(0, &rec), "a record at the handle's head");
	CHECK(rec.s.ip == 0x00401000 && rec.s.pid == 321 && rec.cpu == 2 &&
	      rec.s.mode == PCS_MODE_USER && rec.time == now_ns + 7,
	      "the record: address, PID from PMCID1SR, target CPU, user mode, event clock");
	CHECK_EQ(next, now_ns + 100000, "next due one interval later");

	f->nlog = 0;
	now_ns += 50000;
	pcs_round(&pd);
	CHECK_EQ(f->nlog, 0, "not due yet: the frame is not touched");

	now_ns += 50000;
	set_live(f, 0x00402000, PCS_PCSR_HI_NS, 322, 0);
	pcs_round(&pd);
	CHECK(f->nlog == 5 && f->log[0] == PCS_PMU_PMPCSR_LO,
	      "later reads: the five sample registers only, PMPCSR[31:0] first");
	CHECK(record_at(32, &rec) && rec.s.ip == 0x00402000 && rec.s.pid == 322,
	      "the second record follows the first");

	f->nlog = 0;
	now_ns += 100000;
	t->pm_off = true;
	f->off = true;
	pcs_round(&pd);
	CHECK(f->nlog == 0 && f->aborts == 0 && t->not_readable == 1,
	      "a core in an idle power-down state is not read");
	t->pm_off = false;
	t->online = false;
	now_ns += 100000;
	pcs_round(&pd);
	CHECK(f->nlog == 0 && f->aborts == 0 && t->not_readable == 2,
	      "an offline core is not read, even after CPU_PM_EXIT");
	t->online = true;
	t->unlock_pending = true;	/* as the power callbacks set it */
	f->off = false;
	f->locked = true;		/* the Software Lock resets with the core */
	now_ns += 100000;
	set_live(f, 0x00403000, PCS_PCSR_HI_NS, 323, 0);
	pcs_round(&pd);
	CHECK(f->nlog == 7 && f->log[0] == PCS_LSR && f->log[1] == (PCS_LAR | 0x80000000u),
	      "powered up again: the Software Lock is checked and opened first");
	CHECK(record_at(64, &rec) && rec.s.pid == 323,
	      "and the context is the new sample's, not stale");

	f->nlog = 0;
	now_ns += 100000;
	cur_cpu = 3;
	next = pcs_round(&pd);
	CHECK(f->nlog == 0 && next == now_ns + PCS_IDLE_POLL_NS,
	      "a sampler moved off the housekeeping CPU reads nothing");
	cur_cpu = 0;

	now_ns += 100000;
	set_live(f, PCS_NO_SAMPLE, PCS_PCSR_HI_NS, 1, 0);
	pcs_round(&pd);
	now_ns += 100000;
	set_live(f, 0xffff8000, PCS_PCSR_HI_NS | (1u << PCS_PCSR_HI_EL_SHIFT), 1, 0);
	pcs_round(&pd);
	now_ns += 100000;
	set_live(f, 0x1000, 0, 1, 0);
	pcs_round(&pd);
	CHECK(t->verdicts[PCS_NONE] == 1 && t->verdicts[PCS_EXCLUDED] == 1 &&
	      t->verdicts[PCS_SECURE] == 1 && t->verdicts[PCS_OK] == 3,
	      "no-sample, excluded kernel and Secure captures are counted, not written");
	CHECK(!record_at(96, &rec), "and leave no record");

	stop_on_target();
	CHECK(aux_ends == 1 && aux_ended_size == 3 * PCS_RECORD_SIZE && aux_flags_seen == 0,
	      "stop on the target ends the AUX handle with the 3 records");
	CHECK_EQ(ev.count.counter, 3, "the event counts the records written");
	CHECK(t->event == NULL && (ev.hw.state & PERF_HES_STOPPED), "the target is disarmed");
	f->nlog = 0;
	now_ns += 100000;
	pcs_round(&pd);
	CHECK_EQ(f->nlog, 0, "a stopped target is not read");
	stop_on_target();
	CHECK_EQ(aux_ends, 1, "a second stop does nothing");
	CHECK_EQ(ev.count.counter, 3, "and counts nothing");
}

static void test_add_without_start(void)
{
	int w0;

	reset(false);
	CHECK_EQ(pd.pmu.event_init(&ev), 0, "event_init");
	aux_buf = pd.pmu.setup_aux(&ev, (void *[]){ aux_pages[0], aux_pages[1] }, 2, false);
	cur_cpu = 2;
	CHECK_EQ(pd.pmu.add(&ev, 0), 0, "add without PERF_EF_START");
	CHECK(targets[2].event == NULL && aux_begins == 0 &&
	      ev.hw.state == (PERF_HES_STOPPED | PERF_HES_UPTODATE),
	      "leaves the event stopped and up to date, with no AUX handle");
	pd.pmu.del(&ev, PERF_EF_UPDATE);
	CHECK_EQ(aux_ends, 0, "and del of a stopped event ends no handle");

	/* A CPU the driver has no frame for: perf core never starts one there. */
	target_ptrs[1] = NULL;
	cur_cpu = 1;
	w0 = warnings;
	pd.pmu.start(&ev, PERF_EF_RELOAD);
	CHECK(warnings == w0 + 1 && aux_begins == 0 && (ev.hw.state & PERF_HES_STOPPED),
	      "start on a CPU without a frame warns and stays stopped");
	warnings = w0;
	target_ptrs[1] = &targets[1];
	cur_cpu = 0;
}

static void test_late_and_atomic64(void)
{
	struct fake_frame *f = &frames[2];
	struct pcs_record rec;

	reset(false);
	pd.atomic64 = true;
	set_live(f, 0x5000, PCS_PCSR_HI_NS | 0x12, 8, 0);
	start_on_target();
	pcs_round(&pd);
	f->nlog = 0;
	now_ns += 350000;	/* 3.5 periods late */
	pcs_round(&pd);
	CHECK_EQ(targets[2].missed, 2, "late by 3.5 periods: 2 whole periods counted missed");
	CHECK(f->nlog == 4 && f->log[0] == PCS_PMU_PMPCSR_LO && f->log[1] == PCS_PMU_PMCID1SR,
	      "arm,pcsr-64bit-atomic: one 64-bit PMPCSR read, no separate PMPCSR[63:32] read");
	CHECK(record_at(32, &rec) && rec.s.ip == 0x0000001200005000ull,
	      "and its upper half is the sample's");
	stop_on_target();

	reset(true);
	start_on_target();
	targets[2].pm_off = true;
	frames[2].off = true;
	pcs_round(&pd);
	CHECK(frames[2].nlog == 0 && frames[2].aborts == 0,
	      "debug block of a core the kernel knows is off: not even EDPRSR is read");
	stop_on_target();
}

static void test_aux_space(void)
{
	struct fake_frame *f = &frames[2];
	struct pcs_record rec;
	int i;

	reset(false);
	aux_head = 4 * PAGE_SIZE - PCS_RECORD_SIZE;	/* one record before the end */
	aux_space = 3 * PCS_RECORD_SIZE;
	set_live(f, 0x2000, PCS_PCSR_HI_NS, 5, 0);
	start_on_target();
	for (i = 0; i < 4; i++) {
		now_ns += 100000;
		f->live_lo = 0x2000 + i;
		pcs_round(&pd);
	}
	CHECK(record_at(4 * PAGE_SIZE - PCS_RECORD_SIZE, &rec) && rec.s.ip == 0x2000,
	      "the first record ends the buffer");
	CHECK(record_at(0, &rec) && rec.s.ip == 0x2001, "the next wraps to its start");
	CHECK(record_at(32, &rec) && rec.s.ip == 0x2002, "then follows");
	CHECK(targets[2].truncated, "a fourth record finds no space: truncated");
	stop_on_target();
	CHECK(aux_ended_size == 3 * PCS_RECORD_SIZE &&
	      (aux_flags_seen & PERF_AUX_FLAG_TRUNCATED),
	      "stop reports the 3 records and PERF_AUX_FLAG_TRUNCATED");

	reset(false);
	aux_available = false;
	CHECK_EQ(start_on_target(), 0,
		 "no AUX buffer: add still succeeds (a failure would start perf's "
		 "rotation hrtimer on the sampled CPU)");
	CHECK(targets[2].event == NULL && (ev.hw.state & PERF_HES_STOPPED),
	      "and the target stays disarmed");
}

static void test_bad_frame(void)
{
	struct fake_frame *f = &frames[2];

	reset(false);
	f->devid = 0;
	start_on_target();
	errors = 0;
	pcs_round(&pd);
	CHECK(f->nlog == 1 && f->log[0] == PCS_PMU_PMDEVID && errors == 1,
	      "PMDEVID.PCSample = 0: refused with an error, PMPCSR never read");
	f->nlog = 0;
	now_ns += 100000;
	pcs_round(&pd);
	CHECK(f->nlog == 0 && errors == 1, "and never touched again, nor logged again");
	stop_on_target();
}

static void test_debug_frame(void)
{
	struct fake_frame *f = &frames[2];
	struct pcs_record rec;

	reset(true);
	f->edprsr = PCS_EDPRSR_PU | PCS_EDPRSR_OSLK;
	set_live(f, 0x80001000, 0xffff8000,
		 77, PCS_EDVIDSR_NS | PCS_EDVIDSR_HV);
	ev.attr.exclude_kernel = 0;
	start_on_target();
	pcs_round(&pd);
	CHECK(f->nlog == 1 && f->log[0] == PCS_DBG_EDPRSR && targets[2].not_readable == 1,
	      "debug block: EDPRSR.OSLK set, so only EDPRSR is read");
	f->nlog = 0;
	f->edprsr = PCS_EDPRSR_PU;
	now_ns += 100000;
	pcs_round(&pd);
	CHECK(f->nlog == 8 && f->log[0] == PCS_DBG_EDPRSR && f->log[1] == PCS_DBG_EDDEVID &&
	      f->log[2] == PCS_DBG_EDDEVID1 && f->log[3] == PCS_LSR &&
	      f->log[4] == PCS_DBG_EDPCSR_LO && f->log[5] == PCS_DBG_EDPCSR_HI,
	      "EDPRSR, EDDEVID/EDDEVID1, Software Lock, then EDPCSRlo before EDPCSRhi");
	CHECK(record_at(0, &rec) && rec.s.ip == 0xffff800080001000ull && rec.s.el == 1 &&
	      rec.s.pid == 77, "an EDPCSR sample: 64-bit PC, EL1 from the VA range, EDCIDSR");
	stop_on_target();

	/* The frame's EDDEVID1.PCSROffset decides what an AArch32 sample is. */
	reset(true);
	f->devid1 = PCS_PCSROFFSET_NO_AARCH32;
	set_live(f, 0x8000, 0, 77, PCS_EDVIDSR_NS);
	start_on_target();
	pcs_round(&pd);
	CHECK(targets[2].verdicts[PCS_AARCH32] == 1 && !record_at(0, &rec),
	      "EDDEVID1.PCSROffset = 2: an AArch32 sample is counted, not written");
	stop_on_target();
	reset(true);
	f->devid1 = PCS_PCSROFFSET_ISA;
	set_live(f, 0x8008, 0, 77, PCS_EDVIDSR_NS);
	start_on_target();
	pcs_round(&pd);
	CHECK(record_at(0, &rec) && rec.s.ip == 0x8000,
	      "EDDEVID1.PCSROffset = 0: the A32 offset is removed");
	stop_on_target();
}

int main(void)
{
	test_event_init();
	test_setup_aux();
	test_sampling();
	test_add_without_start();
	test_late_and_atomic64();
	test_aux_space();
	test_bad_frame();
	test_debug_frame();
	free_aux_buf();
	CHECK_EQ(warnings, 0, "no WARN and every lock released");
	return tap_done();
}
