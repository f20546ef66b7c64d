// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's perf glue (spe_core.c, spe_aux.c, spe_irq.c, spe_unit.c), compiled
 * unchanged against host stand-ins of the kernel APIs (host-kernel/) and run
 * against a fake backend that records every register access and barrier,
 * and a fake perf AUX handle.  This checks the register sequences of
 * DDI 0586A §3.5 and §3.6 and the AUX bookkeeping, which no machine here can
 * check on hardware.
 */
#include <stdarg.h>

#include "spe_pmu.h"	/* first: brings in host_kernel.h (__percpu) */
#include "spe_backend.h"
#include "spe_unit.h"
#include "spe/regs.h"
#include "tap.h"

/* ---- Recording fake backend -------------------------------------------- */

enum op { OP_W, OP_R, OP_PSB, OP_ISB, OP_DSB };
struct ent { enum op op; enum spe_sysreg reg; u64 val; };

static struct ent tr[512];
static unsigned int ntr;
static u64 regs[SPE_REG_NR];
static unsigned int warnings, errors;

static void rec(enum op op, enum spe_sysreg reg, u64 val)
{
	if (ntr < sizeof(tr) / sizeof(tr[0]))
		tr[ntr++] = (struct ent){ op, reg, val };
}

u64 spe_read(enum spe_sysreg reg) { rec(OP_R, reg, regs[reg]); return regs[reg]; }
void spe_write(enum spe_sysreg reg, u64 val) { regs[reg] = val; rec(OP_W, reg, val); }
void spe_psb_csync(void) { rec(OP_PSB, 0, 0); }
void spe_isb(void) { rec(OP_ISB, 0, 0); }
void spe_dsb_nsh(void) { rec(OP_DSB, 0, 0); }

/* Index of the first entry at or after from matching, or -1. */
static int find(unsigned int from, enum op op, int reg, int has_val, u64 val)
{
	for (unsigned int i = from; i < ntr; i++)
		if (tr[i].op == op && (reg < 0 || tr[i].reg == (enum spe_sysreg)reg) &&
		    (!has_val || tr[i].val == val))
			return (int)i;
	return -1;
}

static int last_write(void)
{
	for (int i = (int)ntr - 1; i >= 0; i--)
		if (tr[i].op == OP_W)
			return i;
	return -1;
}

/* ---- Kernel stand-ins ---------------------------------------------------- */

const struct attribute_group *spe_attr_groups[] = { NULL };
static bool capable_perfmon;

void host_kernel_warn(const char *file, int line) { warnings++; printf("# WARN at %s:%d\n", file, line); }
void host_kernel_log_err(const char *fmt, ...) { (void)fmt; errors++; }
void *kzalloc_node(size_t size, int gfp, int node) { (void)gfp; (void)node; return calloc(1, size); }
void *kcalloc(size_t n, size_t size, int gfp) { (void)gfp; return calloc(n, size); }
void kfree(const void *p) { free((void *)p); }
void *vmap(struct page **pages, unsigned int count, unsigned long flags, int prot)
{
	(void)pages; (void)flags; (void)prot;
	return calloc(count, PAGE_SIZE);
}
void vunmap(const void *addr) { free((void *)addr); }
int smp_processor_id(void) { return 0; }
bool perfmon_capable(void) { return capable_perfmon; }

/* ---- Fake perf AUX ring ---------------------------------------------------- */

static struct {
	unsigned long head;	/* rb->aux_head */
	unsigned long size;	/* free space offered at begin */
	unsigned long wakeup;
	bool no_buffer;
	bool overwrite;		/* snapshot: perf takes the head from the driver */
	unsigned int ends;
	unsigned long end_size;
	u64 end_flags;
} ring;

void *perf_aux_output_begin(struct perf_output_handle *h, struct perf_event *e)
{
	if (ring.no_buffer)
		return NULL;
	h->event = e;
	h->aux_flags = 0;
	h->head = ring.head;
	h->size = ring.size;
	h->wakeup = ring.wakeup;
	return h->aux_priv;
}

void perf_aux_output_end(struct perf_output_handle *h, unsigned long size)
{
	ring.ends++;
	ring.end_size = size;
	ring.end_flags = h->aux_flags;
	if (ring.overwrite)
		ring.head = h->head;
	else
		ring.head += size;
	h->event = NULL;
}

int perf_aux_output_skip(struct perf_output_handle *h, unsigned long size)
{
	if (size > h->size)
		return -ENOSPC;
	h->head += size;
	h->size -= size;
	ring.head += size;
	return 0;
}

void *perf_get_aux(struct perf_output_handle *h) { return h->event ? h->aux_priv : NULL; }
void perf_aux_output_flag(struct perf_output_handle *h, u64 flags) { h->aux_flags |= flags; }

/* ---- Fixture ------------------------------------------------------------- */

#define NR_PAGES	16

static struct spe_pmu spe;
static struct perf_output_handle handle;
static struct perf_event ev;
static struct spe_aux_buf *buf;

static void reset_trace(void) { ntr = 0; }

static void setup(u64 config)
{
	static void *pages[NR_PAGES];
	static struct platform_device pdev;

	memset(&spe, 0, sizeof(spe));
	memset(&handle, 0, sizeof(handle));
	memset(&ev, 0, sizeof(ev));
	memset(regs, 0, sizeof(regs));
	memset(&ring, 0, sizeof(ring));
	spe.caps = (struct spe_caps){
		.pmsver = SPE_PMSVER_V1P2, .features = SPE_FEAT_ALL,
		.min_interval = 1024, .counter_bits = 12, .max_record = 64,
		.align = 1, .evfr_mask = ~0ull, .nevfr_mask = ~0ull,
	};
	spe.supported_cpus.bits[0] = 1;
	spe.ready_cpus.bits[0] = 1;
	spe.handle = &handle;
	spe.pdev = &pdev;
	spe_pmu_init_callbacks(&spe);
	spe.pmu.type = 42;

	ev.attr.type = 42;
	ev.attr.config = config;
	ev.attr.sample_period = 4096;
	ev.hw.sample_period = 4096;
	ev.pmu = &spe.pmu;
	ev.cpu = 0;

	if (buf)
		spe.pmu.free_aux(buf);
	buf = spe.pmu.setup_aux(&ev, pages, NR_PAGES, false);
	handle.aux_priv = buf;
	ring.size = NR_PAGES * PAGE_SIZE;
	ring.wakeup = ~0ul;
	reset_trace();
}

static u64 base(void) { return (u64)(unsigned long)buf->base; }

/* ---- Tests -------------------------------------------------------------- */

static void test_setup_aux(void)
{
	void *pages[3] = { 0 };

	setup(0);
	CHECK(buf && buf->size == NR_PAGES * PAGE_SIZE && !buf->snapshot,
	      "setup_aux maps all pages as one buffer");
	CHECK(!spe.pmu.setup_aux(&ev, pages, 1, false), "setup_aux refuses a single page");
	CHECK(!spe.pmu.setup_aux(&ev, pages, 3, true),
	      "setup_aux refuses an odd page count in snapshot mode");
}

static void test_event_init(void)
{
	setup(0);
	ev.attr.type = 7;
	CHECK_EQ(spe.pmu.event_init(&ev), (u64)-ENOENT, "event of another PMU: -ENOENT");
	ev.attr.type = 42;
	ev.cpu = 3;
	CHECK_EQ(spe.pmu.event_init(&ev), (u64)-ENOENT, "CPU outside the PMU's cpumask: -ENOENT");
	ev.cpu = 0;
	ev.attr.freq = 1;
	CHECK_EQ(spe.pmu.event_init(&ev), (u64)-EINVAL, "frequency mode: -EINVAL");
	ev.attr.freq = 0;
	ev.attr.exclude_idle = 1;
	CHECK_EQ(spe.pmu.event_init(&ev), (u64)-EOPNOTSUPP, "exclude_idle: -EOPNOTSUPP");
	ev.attr.exclude_idle = 0;
	ev.attr.config = SPE_BIT(1);		/* pa_enable */
	capable_perfmon = false;
	CHECK_EQ(spe.pmu.event_init(&ev), (u64)-EACCES,
		 "pa_enable without CAP_PERFMON: -EACCES");
	capable_perfmon = true;
	ev.hw.sample_period = 5000;
	ev.attr.exclude_kernel = 1;
	CHECK_EQ(spe.pmu.event_init(&ev), 0, "pa_enable with CAP_PERFMON accepted");
	CHECK_EQ(ev.hw.config, SPE_PMSCR_PA | SPE_PMSCR_E0SPE,
		 "event_init keeps the PMSCR value (no CX without PID_IN_CONTEXTIDR)");
	CHECK_EQ(ev.hw.sample_period, 4864, "event_init rounds the period to 256");
	capable_perfmon = false;
	CHECK_EQ(spe.pmu.add(&ev, 0), 0, "add without START leaves the event stopped");
	CHECK(ev.hw.state & PERF_HES_STOPPED, "state is STOPPED after add without START");
}

/* perf core can add an event before the driver's hotplug set-up ran. */
static void test_add_before_cpu_ready(void)
{
	setup(0);
	spe.pmu.event_init(&ev);
	spe.ready_cpus.bits[0] = 0;
	reset_trace();
	CHECK_EQ(spe.pmu.add(&ev, PERF_EF_START), (u64)-ENOENT,
		 "add on a CPU whose set-up has not run (or was torn down): -ENOENT");
	CHECK(last_write() < 0 && ring.ends == 0,
	      "nothing is programmed and no AUX session is opened there");
}

static void test_disable_sequence(void)
{
	int i;

	setup(0);
	spe_unit_disable_and_drain();
	i = find(0, OP_W, SPE_REG_PMSCR_EL1, 1, 0);
	CHECK(i == 0 && tr[1].op == OP_ISB && tr[2].op == OP_PSB &&
	      tr[3].op == OP_DSB && tr[4].op == OP_W && tr[4].reg == SPE_REG_PMBLIMITR_EL1 &&
	      tr[4].val == 0 && tr[5].op == OP_ISB && ntr == 6,
	      "§3.6 disable: PMSCR=0, ISB, PSB CSYNC, DSB, PMBLIMITR=0, ISB");
}

static void test_start(void)
{
	int ptr, lim, scr, fcr, icr;

	setup(SPE_BIT(0) | SPE_BIT(33));	/* ts_enable, load_filter */
	ev.attr.config1 = 0x2;			/* event_filter: retired */
	ring.head = 3 * PAGE_SIZE + 100;
	ring.size = 4 * PAGE_SIZE;
	CHECK_EQ(spe.pmu.event_init(&ev), 0, "ts+load filter+event filter accepted");
	reset_trace();
	CHECK_EQ(spe.pmu.add(&ev, PERF_EF_START), 0, "add with START succeeds");
	ptr = find(0, OP_W, SPE_REG_PMBPTR_EL1, 0, 0);
	lim = find(0, OP_W, SPE_REG_PMBLIMITR_EL1, 0, 0);
	fcr = find(0, OP_W, SPE_REG_PMSFCR_EL1, 0, 0);
	icr = find(0, OP_W, SPE_REG_PMSICR_EL1, 0, 0);
	scr = find(0, OP_W, SPE_REG_PMSCR_EL1, 0, 0);
	CHECK(ptr >= 0 && tr[ptr].val == base() + 3 * PAGE_SIZE + 100,
	      "PMBPTR is the buffer address of perf's head");
	CHECK(lim >= 0 && tr[lim].val == ((base() + 7 * PAGE_SIZE) | SPE_PMBLIMITR_E),
	      "PMBLIMITR is the page below the tail, enabled, fill mode");
	CHECK(fcr >= 0 && tr[fcr].val == (SPE_PMSFCR_LD | SPE_PMSFCR_FT | SPE_PMSFCR_FE),
	      "PMSFCR gets the load type filter and the event filter");
	CHECK(find(0, OP_W, SPE_REG_PMSEVFR_EL1, 1, 0x2) >= 0, "PMSEVFR gets event_filter");
	CHECK(find(0, OP_W, SPE_REG_PMSIRR_EL1, 1, 4096) >= 0, "PMSIRR gets the interval");
	CHECK(scr == last_write() && scr > icr && icr > fcr && fcr > lim && lim > ptr,
	      "order: PMBPTR, PMBLIMITR, filters, PMSICR, and PMSCR last");
	CHECK(find((unsigned int)icr, OP_ISB, -1, 0, 0) >= 0 &&
	      find((unsigned int)icr, OP_ISB, -1, 0, 0) < scr,
	      "an ISB separates the set-up from the PMSCR write that starts sampling");
	CHECK_EQ(tr[scr].val, SPE_PMSCR_TS | SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE,
		 "PMSCR enables EL0 and EL1 with timestamps");
	CHECK(!(ev.hw.state & PERF_HES_STOPPED), "the event runs");

	/*
	 * PMSNEVFR_EL1 and PMSDSFR_EL1 exist only with FEAT_SPE_FnE and
	 * FEAT_SPE_FDS (DDI 0487 D18.3): a unit without them never sees those
	 * registers written; one with them gets both.
	 */
	spe.pmu.del(&ev, 0);
	spe.caps.features &= ~(SPE_FEAT_INV_FILT_EVT | SPE_FEAT_FDS);
	reset_trace();
	spe.pmu.add(&ev, PERF_EF_START);
	CHECK(find(0, OP_W, SPE_REG_PMSEVFR_EL1, 0, 0) >= 0 && find(0, OP_W, SPE_REG_PMSNEVFR_EL1, 0, 0) < 0 &&
	      find(0, OP_W, SPE_REG_PMSDSFR_EL1, 0, 0) < 0,
	      "without FnE and FDS, PMSNEVFR and PMSDSFR are never written");
	spe.pmu.del(&ev, 0);
	spe.caps.features |= SPE_FEAT_INV_FILT_EVT | SPE_FEAT_FDS;
	reset_trace();
	spe.pmu.add(&ev, PERF_EF_START);
	CHECK(find(0, OP_W, SPE_REG_PMSNEVFR_EL1, 0, 0) >= 0 && find(0, OP_W, SPE_REG_PMSDSFR_EL1, 0, 0) >= 0,
	      "with FnE and FDS, both are written");
	spe.pmu.del(&ev, 0);
}

static void test_irq_buffer_full(void)
{
	int rd_sr, rd_ptr, w_ptr, w_lim, clr;

	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	regs[SPE_REG_PMBPTR_EL1] = base() + 16 * PAGE_SIZE - 40;
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S | SPE_PMBSR_BSC_FULL;
	reset_trace();
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_HANDLED, "buffer full is handled");
	rd_sr = find(0, OP_R, SPE_REG_PMBSR_EL1, 0, 0);
	CHECK(rd_sr == 3 && tr[0].op == OP_PSB && tr[1].op == OP_DSB && tr[2].op == OP_ISB,
	      "§3.6: PSB CSYNC, DSB, ISB before reading PMBSR");
	rd_ptr = find(0, OP_R, SPE_REG_PMBPTR_EL1, 0, 0);
	CHECK(rd_ptr > rd_sr, "PMBPTR read after synchronising");
	CHECK(ring.ends == 1 && ring.end_size == 16 * PAGE_SIZE - 40 && ring.end_flags == 0,
	      "the AUX record ends at PMBPTR, unflagged");
	w_ptr = find((unsigned int)rd_ptr, OP_W, SPE_REG_PMBPTR_EL1, 0, 0);
	w_lim = find((unsigned int)rd_ptr, OP_W, SPE_REG_PMBLIMITR_EL1, 0, 0);
	clr = find(0, OP_W, SPE_REG_PMBSR_EL1, 1, 0);
	CHECK(w_ptr > 0 && w_lim > w_ptr && clr > w_lim && clr == last_write(),
	      "§3.5: the next window is programmed before PMBSR is cleared");
	CHECK(w_ptr > 0 && tr[w_ptr].val == base(),
	      "after padding the tail of the buffer, the next window starts at its start");
	CHECK(!(ev.hw.state & PERF_HES_STOPPED), "profiling continues");
	CHECK(!ev.pending_disable && !ev.pending_irq.queued,
	      "perf core's disable state is left alone");
}

static void test_irq_fault(void)
{
	int dis, clr;

	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	regs[SPE_REG_PMBPTR_EL1] = base() + 512;
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S |
		SPE_FIELD_PREP(SPE_PMBSR_EC_MASK, SPE_PMBSR_EC_FAULT_S1) |
		SPE_FSC_TRANSLATION(3);
	errors = 0;
	reset_trace();
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_HANDLED, "stage 1 fault is handled");
	CHECK(ring.ends == 1 && (ring.end_flags & PERF_AUX_FLAG_TRUNCATED) &&
	      ring.end_size == 512,
	      "the AUX record ends TRUNCATED with the data before the fault");
	dis = find(0, OP_W, SPE_REG_PMBLIMITR_EL1, 1, 0);
	clr = find(0, OP_W, SPE_REG_PMBSR_EL1, 1, 0);
	CHECK(dis >= 0 && clr > dis, "the buffer is disabled before PMBSR is cleared");
	CHECK(find(0, OP_W, SPE_REG_PMSCR_EL1, 1, 0) >= 0, "sampling is switched off");
	CHECK(ev.hw.state & PERF_HES_STOPPED, "the event is stopped");
	CHECK(!ev.pending_disable && !ev.pending_irq.queued,
	      "perf core's disable state is left alone: the TRUNCATED end is the request");
	CHECK_EQ(errors, 1, "one (rate-limited) register dump is logged");
}

static void test_irq_flags(void)
{
	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	regs[SPE_REG_PMBPTR_EL1] = base() + 1000;
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S | SPE_PMBSR_DL | SPE_PMBSR_COLL |
			  SPE_PMBSR_BSC_FULL;
	reset_trace();
	spe_irq_handler(0, &handle);
	CHECK_EQ(ring.end_flags, PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL |
				 PERF_AUX_FLAG_COLLISION,
		 "DL and COLL become TRUNCATED|PARTIAL|COLLISION on the record");
	CHECK(find(0, OP_W, SPE_REG_PMBPTR_EL1, 0, 0) < 0,
	      "after a truncation no new window is opened (perf disables the event)");
	CHECK(find(0, OP_W, SPE_REG_PMSCR_EL1, 1, 0) >= 0 &&
	      find(0, OP_W, SPE_REG_PMBLIMITR_EL1, 1, 0) >= 0 &&
	      find(0, OP_W, SPE_REG_PMBLIMITR_EL1, 1, 0) < find(0, OP_W, SPE_REG_PMBSR_EL1, 1, 0) &&
	      find(0, OP_W, SPE_REG_PMBSR_EL1, 1, 0) == last_write(),
	      "DL: sampling and the buffer are off before PMBSR is cleared, so the "
	      "unit cannot resume into the closed session");
	CHECK(ev.hw.state & PERF_HES_STOPPED, "DL: the event is stopped");
}

/* spe_aux_end() finds PMBPTR outside the window: the session is truncated. */
static void test_irq_truncated_by_aux_end(void)
{
	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	regs[SPE_REG_PMBPTR_EL1] = base() + 64 * PAGE_SIZE;	/* past the buffer */
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S | SPE_PMBSR_BSC_FULL;
	reset_trace();
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_HANDLED, "buffer full, PMBPTR outside: handled");
	CHECK(ring.ends == 1 && ring.end_size == 0 &&
	      ring.end_flags == PERF_AUX_FLAG_TRUNCATED,
	      "the AUX record ends empty and TRUNCATED");
	CHECK(find(0, OP_W, SPE_REG_PMBPTR_EL1, 0, 0) < 0 && ring.ends == 1,
	      "a truncation found while ending the session opens no new one");
	CHECK(regs[SPE_REG_PMBLIMITR_EL1] == 0 && regs[SPE_REG_PMSCR_EL1] == 0 &&
	      find(0, OP_W, SPE_REG_PMBLIMITR_EL1, 1, 0) < find(0, OP_W, SPE_REG_PMBSR_EL1, 1, 0),
	      "the unit is off before PMBSR is cleared");
	CHECK(ev.hw.state & PERF_HES_STOPPED, "the event is stopped");
}

static void test_irq_spurious_and_stray(void)
{
	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	regs[SPE_REG_PMBSR_EL1] = 0;
	reset_trace();
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_NONE, "PMBSR.S = 0: IRQ_NONE");
	CHECK(last_write() < 0 && ring.ends == 0, "a spurious interrupt changes nothing");

	setup(0);
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S;
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_HANDLED,
		 "PMBIRQ without a session is handled");
	CHECK(regs[SPE_REG_PMBSR_EL1] == 0 && regs[SPE_REG_PMBLIMITR_EL1] == 0,
	      "a stray PMBIRQ is released with the buffer off");
}

static void test_stop_with_pending_event(void)
{
	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	regs[SPE_REG_PMBPTR_EL1] = base() + 2048;
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S | SPE_PMBSR_BSC_FULL | SPE_PMBSR_COLL;
	regs[SPE_REG_PMSICR_EL1] = 77;
	reset_trace();
	spe.pmu.del(&ev, 0);
	CHECK(ring.ends == 1 && ring.end_size == 2048 &&
	      ring.end_flags == PERF_AUX_FLAG_COLLISION,
	      "stop ends the AUX record at PMBPTR with the pending event's flags");
	CHECK_EQ(regs[SPE_REG_PMBSR_EL1], 0, "stop clears the pending management event");
	CHECK_EQ(ev.hw.period_left.counter, 77, "stop keeps PMSICR for the next start");
	CHECK(find(0, OP_W, SPE_REG_PMSCR_EL1, 1, 0) == 0, "stop begins by switching sampling off");
}

static void test_stop_with_collision_only(void)
{
	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	regs[SPE_REG_PMBPTR_EL1] = base() + 512;
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_COLL;	/* §3.1.4: no management event */
	reset_trace();
	spe.pmu.del(&ev, 0);
	CHECK(ring.ends == 1 && ring.end_size == 512 &&
	      ring.end_flags == PERF_AUX_FLAG_COLLISION,
	      "stop reports a collision the unit noted without a management event");
	CHECK_EQ(regs[SPE_REG_PMBSR_EL1], 0, "stop clears COLL for the next session");

	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_COLL;
	reset_trace();
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_NONE,
		 "COLL alone raises no PMBIRQ: the handler does not claim one");
	CHECK(ring.ends == 0 && regs[SPE_REG_PMBSR_EL1] == SPE_PMBSR_COLL,
	      "the interrupt path leaves COLL for the stop path to report");
}

static void test_no_room(void)
{
	setup(0);
	spe.pmu.event_init(&ev);
	ring.head = 100;
	ring.size = 200;		/* less than a page before the tail */
	reset_trace();
	CHECK(spe.pmu.add(&ev, PERF_EF_START) != 0,
	      "no room for a record: add fails, so perf core keeps the event out");
	CHECK(ring.ends == 1 && ring.end_size == 0 &&
	      ring.end_flags == PERF_AUX_FLAG_TRUNCATED,
	      "the session ends empty and TRUNCATED");
	CHECK(find(0, OP_W, SPE_REG_PMSCR_EL1, 0, 0) < 0 && regs[SPE_REG_PMBLIMITR_EL1] == 0 &&
	      (ev.hw.state & PERF_HES_STOPPED),
	      "neither sampling nor the buffer is enabled");
	CHECK(!ev.pending_disable && !ev.pending_irq.queued,
	      "a failed add leaves nothing pending in perf core");

	setup(0);
	spe.pmu.event_init(&ev);
	ring.no_buffer = true;
	CHECK(spe.pmu.add(&ev, PERF_EF_START) != 0, "no AUX buffer mapped: add fails");
	CHECK(!ev.pending_irq.queued && ring.ends == 0 && regs[SPE_REG_PMBLIMITR_EL1] == 0,
	      "no AUX buffer: no session, the buffer off, nothing queued");

	/* Not one free byte: perf core noted its own request (a CPU number). */
	setup(0);
	spe.pmu.event_init(&ev);
	ring.no_buffer = true;
	ev.pending_disable = 3;
	spe.pmu.add(&ev, PERF_EF_START);
	CHECK(ev.pending_disable == 3 && !ev.pending_irq.queued,
	      "perf core's own request is left as perf core wrote it");
}

/*
 * PMBIRQ on a CPU whose event has no AUX buffer any more (the session
 * already ended): the unit is still reset, so the interrupt is released,
 * and nothing is reported to a buffer that is gone.
 */
static void test_irq_without_aux(void)
{
	int ends;

	setup(0);
	spe.pmu.event_init(&ev);
	spe.pmu.add(&ev, PERF_EF_START);
	ends = ring.ends;
	handle.aux_priv = NULL;		/* the event stays, its buffer is gone */
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S | SPE_PMBSR_BSC_FULL;
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_HANDLED, "no AUX buffer: the PMBIRQ is handled");
	CHECK(regs[SPE_REG_PMBSR_EL1] == 0 && regs[SPE_REG_PMBLIMITR_EL1] == 0 && ring.ends == ends,
	      "no AUX buffer: the unit is reset, no AUX record is ended");
	regs[SPE_REG_PMBSR_EL1] = 0;
	reset_trace();
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_NONE, "no AUX buffer, PMBSR.S = 0: not ours");
	CHECK(last_write() < 0, "no AUX buffer, PMBSR.S = 0: no register written");
}

static void test_discard(void)
{
	setup(SPE_BIT(35));
	CHECK_EQ(spe.pmu.event_init(&ev), 0, "discard accepted on SPEv1p2");
	CHECK_EQ(spe.pmu.add(&ev, PERF_EF_START), 0, "discard starts without AUX space");
	CHECK_EQ(regs[SPE_REG_PMBLIMITR_EL1],
		 SPE_FIELD_PREP(SPE_PMBLIMITR_FM_MASK, SPE_PMBLIMITR_FM_DISCARD) |
		 SPE_PMBLIMITR_E,
		 "discard: PMBLIMITR = FM discard | E, no window");
	CHECK(find(0, OP_W, SPE_REG_PMBPTR_EL1, 0, 0) < 0 && ring.ends == 0,
	      "discard opens no AUX session");
	/* A PMBIRQ with no AUX session to report to: released all the same. */
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S | SPE_PMBSR_BSC_FULL;
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_HANDLED, "discard: an asserted PMBIRQ is handled");
	CHECK(regs[SPE_REG_PMBSR_EL1] == 0 && ring.ends == 0,
	      "discard: the unit is reset (PMBSR cleared), no AUX record is ended");
	reset_trace();
	CHECK_EQ(spe_irq_handler(0, &handle), IRQ_NONE, "discard: PMBSR.S = 0 is not ours");
	CHECK(last_write() < 0, "discard: a spurious interrupt writes no register");
	spe.pmu.del(&ev, 0);
	CHECK(ring.ends == 0 && regs[SPE_REG_PMBLIMITR_EL1] == 0,
	      "stopping a discard event ends no session");
}

static void test_snapshot(void)
{
	static void *pages[NR_PAGES];
	int w;

	setup(0);
	spe.pmu.free_aux(buf);
	buf = spe.pmu.setup_aux(&ev, pages, NR_PAGES, true);
	handle.aux_priv = buf;
	ring.overwrite = true;
	spe.pmu.event_init(&ev);
	reset_trace();
	CHECK_EQ(spe.pmu.add(&ev, PERF_EF_START), 0, "snapshot event starts");
	CHECK_EQ(regs[SPE_REG_PMBLIMITR_EL1], (base() + NR_PAGES / 2 * PAGE_SIZE) | SPE_PMBLIMITR_E,
		 "snapshot: the first window is the first half");

	/* The unit filled the first half up to 30 bytes before its end. */
	regs[SPE_REG_PMBPTR_EL1] = base() + NR_PAGES / 2 * PAGE_SIZE - 30;
	regs[SPE_REG_PMBSR_EL1] = SPE_PMBSR_S | SPE_PMBSR_BSC_FULL;
	reset_trace();
	spe_irq_handler(0, &handle);
	w = find(0, OP_W, SPE_REG_PMBPTR_EL1, 0, 0);
	CHECK(w >= 0 && tr[w].val == base() + NR_PAGES / 2 * PAGE_SIZE &&
	      regs[SPE_REG_PMBLIMITR_EL1] == ((base() + NR_PAGES * PAGE_SIZE) | SPE_PMBLIMITR_E),
	      "snapshot: the tail of the half is padded and the second half follows");
	CHECK(!memcmp((char *)buf->base + NR_PAGES / 2 * PAGE_SIZE - 30,
		      "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 30),
	      "snapshot padding is zero bytes");
}

int main(void)
{
	test_snapshot();
	test_setup_aux();
	test_event_init();
	test_add_before_cpu_ready();
	test_disable_sequence();
	test_start();
	test_irq_buffer_full();
	test_irq_fault();
	test_irq_flags();
	test_irq_truncated_by_aux_end();
	test_irq_spurious_and_stray();
	test_irq_without_aux();
	test_stop_with_pending_event();
	test_stop_with_collision_only();
	test_no_room();
	test_discard();
	CHECK_EQ(warnings, 0, "no WARN fired");
	if (buf)
		spe.pmu.free_aux(buf);
	return tap_done();
}
