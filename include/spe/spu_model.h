/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A software model of the Statistical Profiling Unit (SPU).
 *
 * The model follows DDI 0586A (the SPE supplement, 2017) and DDI 0487 (Arm ARM
 * D17.1) rule by rule, plus the newer fields of DDI 0487.  It is the
 * ground truth for the decoder's round-trip tests, the generator of
 * benchmark traces, and the simulated hardware under the kernel driver.
 *
 * The same source (drivers/perf/sim/spe_spu_model.c) compiles unchanged in
 * userspace and in a kernel module: no libc, no floating point, no global
 * mutable state.  All state lives in a caller-allocated struct spe_spu and
 * the model is deterministic given its configuration (including the seed).
 *
 * How software drives it (the driver's view):
 *   spe_spu_init()          power-on: ID registers from a profile, PMBLIMITR.E=0
 *   spe_spu_write_reg()     MSR to a PMS or PMB register
 *   spe_spu_read_reg()      MRS
 *   spe_spu_psb_csync()     PSB CSYNC: drain sampled operations in flight
 *   spe_spu_irq()           the level of PMBIRQ (== PMBSR_EL1.S)
 * How the simulated CPU drives it:
 *   spe_spu_step()          one operation of the sample population
 *   spe_spu_step_batch()    many, faster
 *   spe_spu_advance()       time passes without operations (a timer tick)
 * The buffer memory is reached through spe_spu_translate_fn, which maps a
 * PMBPTR virtual address to host memory or reports a fault.
 *
 * Documentation/dev-tools/spe-spu-model.rst explains the API for a driver
 * backend and lists the choices made where the architecture leaves one.
 */
#ifndef SPE_SPU_MODEL_H
#define SPE_SPU_MODEL_H

#include "types.h"
#include "regs.h"
#include "packet.h"

/* Errors returned by the register interface. */
#define SPE_SPU_EINVAL		(-22)	/* no such register */
#define SPE_SPU_EROFS		(-30)	/* write to a read-only ID register */

/*
 * An implementation: the values of its ID registers and the
 * IMPLEMENTATION DEFINED choices the registers do not show.
 */
struct spe_spu_config {
	const char *name;
	uint64_t pmsidr;		/* PMSIDR_EL1 */
	uint64_t pmbidr;		/* PMBIDR_EL1 (P as read at the owning EL) */
	uint64_t pmsver;		/* ID_AA64DFR0_EL1.PMSVer, SPE_PMSVER_* */
	uint64_t pmsevfr_impl;		/* PMSEVFR/PMSNEVFR bits that filter (clipped
					 * to those pmsver makes filterable) */
	uint64_t events_impl;		/* Events packet bits the unit reports */
	uint8_t events_min_bytes;	/* smallest Events payload written */
	uint8_t max_inflight;		/* sampled operations in flight, 1..8 */
	uint8_t have_el2;		/* EL2 implemented */
	uint8_t owner_el2;		/* buffer owned by EL2: MDCR_EL2.E2PB = 0b00 */
	uint8_t tge;			/* HCR_EL2.TGE: EL0 is a host's (VHE), not a guest's */
	uint8_t ecv;			/* FEAT_ECV: PMSCR_ELx.PCT is bits 7:6, else bit 6 */
	uint8_t tbi;			/* bit 0 TBI0, bit 1 TBI1 (Linux: TBI0 only) */
	uint8_t tick_shift;		/* CNTPCT advances once per 2^tick_shift cycles */
	uint64_t seed;			/* random number generator seed */
};

#define SPE_SPU_MAX_INFLIGHT	8

/* Ready-made implementations. */
enum spe_spu_profile_id {
	SPE_SPU_PROFILE_V1_MIN,		/* SPEv1 minimal: DDI 0586A only */
	SPE_SPU_PROFILE_N1,		/* Neoverse-N1-like (SPEv1p1) */
	SPE_SPU_PROFILE_V2,		/* Neoverse-V2-like (SPEv1p2, FnE, ERnd) */
	SPE_SPU_PROFILE_FULL,		/* every optional feature (FDS, EFT, ...) */
	SPE_SPU_PROFILE_NR
};
const struct spe_spu_config *spe_spu_profile(enum spe_spu_profile_id id);
/* Look a profile up by name ("v1-min", "n1", "v2", "full"); NULL if unknown. */
const struct spe_spu_config *spe_spu_profile_find(const char *name);

/*
 * One step of xorshift64*, the random number generator of the model and of
 * its operation generator: *state must be non-zero.  The result's high bits
 * are the good ones.
 */
static inline uint64_t spe_spu_xorshift64s(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* ---- Operations in ----------------------------------------------------- */

/* struct spe_op.flags */
#define SPE_OPF_NS		0x01u	/* executed in Non-secure state */
#define SPE_OPF_TARGET_NS	0x02u	/* branch target in Non-secure state */
#define SPE_OPF_PA_NS		0x04u	/* data PA in the Non-secure PA space */
#define SPE_OPF_HAS_DS		0x08u	/* the load returned a data source */
#define SPE_OPF_NO_PA		0x10u	/* the PA was not produced (aborted access) */

/*
 * One member of the sample population, as the pipeline would describe it.
 * cls/subclass are the Operation Type packet's class and payload byte
 * (packet.h SPE_OP_*), events are Events packet bits (SPE_EV_*).
 */
struct spe_op {
	uint64_t pc;		/* virtual address of the operation */
	uint64_t target;	/* branch target (class BRANCH) */
	uint64_t va;		/* data virtual address incl. top-byte tag (LDST) */
	uint64_t pa;		/* data physical address (LDST) */
	uint64_t events;
	uint32_t context[2];	/* CONTEXTIDR_EL1, CONTEXTIDR_EL2 */
	uint32_t cycles;	/* cycles since the previous operation */
	uint32_t lat_total;	/* cycles, before saturation */
	uint32_t lat_issue;
	uint32_t lat_xlat;	/* LDST */
	uint16_t data_source;	/* with SPE_OPF_HAS_DS */
	uint8_t cls;		/* SPE_OP_CLASS_* */
	uint8_t subclass;	/* Operation Type payload */
	uint8_t el;		/* 0..2 */
	uint8_t target_el;
	uint8_t flags;		/* SPE_OPF_* */
	uint8_t pad;
};

/* ---- Profiling Buffer memory ------------------------------------------- */

/* How a translation failed (struct spe_spu_xlat.fault). */
enum spe_spu_fault {
	SPE_SPU_XLAT_OK,
	SPE_SPU_XLAT_FAULT_S1,		/* MMU fault, stage 1 (FSC in .fsc) */
	SPE_SPU_XLAT_FAULT_S2,		/* MMU fault, stage 2 */
	SPE_SPU_XLAT_EA_SYNC,		/* external abort, reported synchronously */
	SPE_SPU_XLAT_EA_ASYNC,		/* external abort, reported asynchronously */
};

struct spe_spu_xlat {
	uint8_t *host;		/* host address of the translated byte */
	uint64_t len;		/* bytes contiguous from there (>= 1) */
	uint8_t fault;		/* enum spe_spu_fault */
	uint8_t fsc;		/* PMBSR_EL1.FSC for a fault or abort */
	uint8_t stage2;		/* external abort: report as stage 2 */
};

/*
 * Translate the buffer address va for a write.  Returns 0 and fills host/len,
 * or returns non-zero and fills fault/fsc.  This is where the kernel backend
 * maps PMBPTR to the vmap'd AUX buffer and where tests inject faults.
 */
typedef int (*spe_spu_translate_fn)(void *ctx, uint64_t va,
				    struct spe_spu_xlat *out);

/*
 * A ready translator: one flat mapping [base, base + size) -> host, plus up
 * to four injected faults on address ranges.  Anything outside the mapping
 * is a stage 1 level 3 translation fault (DDI 0586A §3.5.3, Table 6).
 */
struct spe_spu_flat_fault {
	uint64_t va, len;
	uint8_t fault;		/* enum spe_spu_fault */
	uint8_t fsc;
	uint8_t stage2;
};
struct spe_spu_flat_mem {
	uint64_t base;
	uint8_t *host;
	uint64_t size;
	unsigned int nr_faults;
	struct spe_spu_flat_fault faults[4];
};
int spe_spu_flat_translate(void *ctx, uint64_t va, struct spe_spu_xlat *out);

/* ---- The unit ------------------------------------------------------------ */

/* What happened to a sampled operation (for tests; see spe_spu.hook). */
enum spe_spu_outcome {
	SPE_SPU_SAMPLED,		/* chosen, now in flight (SAMPLE_FEED) */
	SPE_SPU_COLLIDED,		/* chosen, but too many in flight */
	SPE_SPU_FILTERED,		/* completed, removed by a filter */
	SPE_SPU_WRITTEN,		/* record written at addr, len bytes */
	SPE_SPU_DISCARDED,		/* passed the filters, not written */
};
typedef void (*spe_spu_hook_fn)(void *ctx, const struct spe_op *op,
				enum spe_spu_outcome what, uint64_t addr,
				uint32_t len);

/*
 * PMBIRQ changed level (DDI 0586A §3.5: a level interrupt driven by
 * PMBSR_EL1.S).  Called from a management event inside step/advance/
 * psb_csync, and from spe_spu_write_reg() when software changes S.
 */
typedef void (*spe_spu_irq_fn)(void *ctx, int level);

/* The SPU PMU events of DDI 0586A §2.6, Table 1. */
enum spe_spu_pmu_event {
	SPE_SPU_SAMPLE_POP,
	SPE_SPU_SAMPLE_FEED,
	SPE_SPU_SAMPLE_FILTRATE,
	SPE_SPU_SAMPLE_COLLISION,
	SPE_SPU_PMU_NR
};

struct spe_spu_inflight {
	struct spe_op op;
	uint64_t done;		/* cycle at which the record is captured */
	uint64_t cycle;		/* cycle at which it was sampled */
};

struct spe_spu {
	struct spe_spu_config cfg;

	/* Programmer-visible registers. */
	uint64_t pmscr_el1, pmscr_el2, pmsirr, pmsfcr, pmsevfr, pmsnevfr;
	uint64_t pmslatfr, pmsdsfr, pmblimitr, pmbptr, pmbsr;
	uint32_t count;		/* PMSICR_EL1.COUNT */
	uint8_t ecount;		/* PMSICR_EL1.ECOUNT */
	uint8_t ecount_armed;	/* the secondary counter is running */

	/* Derived from the registers on every write. */
	uint8_t el_enabled;	/* bit n: profiling enabled at ELn */
	uint8_t was_enabled;	/* for §3.1.1 (re)initialisation */
	uint32_t record_max;	/* 2^PMSIDR.MaxSize */
	uint32_t align;		/* 2^PMBIDR.Align */
	uint32_t cnt_max;	/* saturated counter value */
	uint64_t pmsevfr_mask;	/* writable bits of PMSEVFR/PMSNEVFR */

	/* Time. */
	uint64_t now;		/* cycles */
	uint64_t cnt_base;	/* CNTPCT_EL0 at cycle 0 */
	uint64_t cntvoff;	/* CNTVOFF_EL2 */
	uint64_t cntpoff;	/* the physical offset: CNTPOFF_EL2 where it applies */

	uint64_t rng;

	unsigned int inflight_head, inflight_nr;
	struct spe_spu_inflight inflight[SPE_SPU_MAX_INFLIGHT];

	uint64_t pmu[SPE_SPU_PMU_NR];
	uint64_t records, bytes;	/* written to the buffer, incl. padding */

	spe_spu_translate_fn translate;
	void *mem_ctx;
	spe_spu_hook_fn hook;
	void *hook_ctx;
	spe_spu_irq_fn irq_changed;
	void *irq_ctx;
	uint8_t irq_level;	/* last level reported */
};

/*
 * Reset to the power-on state of cfg (DDI 0586A §4.2: PMBLIMITR_EL1.E = 0,
 * everything else zero).  Returns 0, or SPE_SPU_EINVAL if cfg is not usable
 * (e.g. the largest record does not fit 2^MaxSize bytes).
 */
int spe_spu_init(struct spe_spu *spu, const struct spe_spu_config *cfg,
		 spe_spu_translate_fn translate, void *mem_ctx);

int spe_spu_write_reg(struct spe_spu *spu, enum spe_sysreg reg, uint64_t val);
uint64_t spe_spu_read_reg(const struct spe_spu *spu, enum spe_sysreg reg);

/*
 * The PE's controls of the unit that are not the unit's registers: whether
 * EL2 owns the buffer (MDCR_EL2.E2PB) and HCR_EL2.TGE.  An emulator calls
 * this when either changes; which ELs are sampled follows at once (DDI
 * 0586A §3.2.1 Table 3).
 */
void spe_spu_set_pe_controls(struct spe_spu *spu, int owner_el2, int tge);

/* PSB CSYNC (DDI 0586A §3.6): write out every sampled operation in flight. */
void spe_spu_psb_csync(struct spe_spu *spu);

/* PMBIRQ, a level interrupt driven by PMBSR_EL1.S (DDI 0586A §3.5). */
static inline int spe_spu_irq(const struct spe_spu *spu)
{
	return !!(spu->pmbsr & SPE_PMBSR_S);
}

void spe_spu_step(struct spe_spu *spu, const struct spe_op *op);
void spe_spu_step_batch(struct spe_spu *spu, const struct spe_op *ops,
			unsigned long nr);
/*
 * Count up to nr operations at exception level el that the interval counter
 * does not select; returns how many, fewer than nr when the next one is
 * selected.  For callers (the kernel's simulated backend) that know only
 * how many operations ran, and describe only the selected one.
 */
uint64_t spe_spu_skip(struct spe_spu *spu, uint64_t nr, unsigned int el);
/* Let cycles pass with no operation; in-flight records may complete. */
void spe_spu_advance(struct spe_spu *spu, uint64_t cycles);

/* Physical count of the generic timer as the unit sees it now. */
static inline uint64_t spe_spu_cntpct(const struct spe_spu *spu)
{
	return spu->cnt_base + (spu->now >> spu->cfg.tick_shift);
}

static inline uint64_t spe_spu_pmu_count(const struct spe_spu *spu,
					 enum spe_spu_pmu_event ev)
{
	return spu->pmu[ev];
}

#endif /* SPE_SPU_MODEL_H */
