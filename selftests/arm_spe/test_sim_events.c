// SPDX-License-Identifier: GPL-2.0
/*
 * The arm_spe_0 PMU over the simulated SPU (arm_spe_sim.ko), from user
 * space through perf_event_open() alone:
 *   - caps/ are those of the simulated profile;
 *   - event attributes are accepted or refused with the errno of the perf
 *     ABI (Linux arm_spe_pmu.c): frequency mode and both excludes -EINVAL,
 *     exclude_idle and unimplemented filters -EOPNOTSUPP;
 *   - a per-task event with an mmap'ed ring and AUX buffer yields records
 *     while this process loops: with exclude_kernel every PC is at EL0,
 *     with load_filter every record is a load.
 * The records are decoded by the project's record layer, as the other
 * AUX tests do (spe_aux.h); the decoder has its own tests.
 *
 * Skips when arm_spe_sim is not loaded: on real hardware the profile
 * checks have nothing to compare with.
 */
#include "spe_selftest.h"
#include "spe_aux.h"

#define RING_PAGES	16
#define AUX_PAGES	64	/* 256 KiB: a second of samples at most */

static void check_errno(int type, const struct spe_profile *p)
{
	struct perf_event_attr a;
	int fd;

	spe_attr_init(&a, type, CFG_TS_ENABLE);
	fd = spe_open(&a, 0, -1);
	tap_check(fd >= 0, "ts_enable=1 with exclude_kernel opens (%d)", fd);
	if (fd >= 0)
		close(fd);

	spe_attr_init(&a, type, 0);
	a.freq = 1;
	a.sample_freq = 1000;
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EINVAL, "frequency mode is refused with EINVAL (%d)", fd);

	spe_attr_init(&a, type, 0);
	a.exclude_user = 1;
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EINVAL, "exclude_user and exclude_kernel together: EINVAL (%d)", fd);

	spe_attr_init(&a, type, 0);
	a.exclude_idle = 1;
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EOPNOTSUPP, "exclude_idle: EOPNOTSUPP (%d)", fd);

	/* Bit 63 of PMSEVFR is IMPLEMENTATION DEFINED and no profile has it. */
	spe_attr_init(&a, type, 0);
	a.config1 = 1ULL << 63;
	fd = spe_open(&a, 0, -1);
	tap_check(fd == -EOPNOTSUPP, "event_filter bit the unit lacks: EOPNOTSUPP (%d)", fd);

	spe_attr_init(&a, type, CFG_DISCARD);
	fd = spe_open(&a, 0, -1);
	if (p->discard) {
		tap_check(fd >= 0, "discard opens on %s (SPEv1p2) (%d)", p->name, fd);
	} else {
		tap_check(fd == -EOPNOTSUPP, "discard on %s (before SPEv1p2): EOPNOTSUPP (%d)",
			  p->name, fd);
	}
	if (fd >= 0)
		close(fd);
}

struct walk {
	unsigned long records, errors, pcs, not_el0, ops, not_load;
};

/* What the records say: PCs and their EL, operation types (DDI 0487 D18.2). */
static void walk_records(const uint8_t *p, size_t len, struct walk *w)
{
	struct spe_decoder dec;
	struct spe_record r;
	int ret;

	spe_decoder_init(&dec, NULL, p, len, 0);
	while ((ret = spe_decoder_next(&dec, &r)) != 0) {
		if (ret < 0) {
			w->errors++;
			continue;
		}
		w->records++;
		if (r.present & SPE_REC_PC) {
			w->pcs++;
			w->not_el0 += r.pc.el != 0;
		}
		if (r.present & SPE_REC_OP_TYPE) {
			w->ops++;
			w->not_load += r.op_class != SPE_OP_CLASS_LDST ||
				       (r.op_subclass & SPE_OP_LDST_ST);
		}
	}
}

/* Profile this process for secs seconds; walk what the AUX buffer got. */
static int record(int type, uint64_t config, double secs, struct walk *w)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *up;
	struct perf_event_attr a;
	size_t ring = (RING_PAGES + 1) * page, aux = AUX_PAGES * page;
	uint8_t *auxp;
	uint64_t head;
	int fd;

	memset(w, 0, sizeof(*w));
	spe_attr_init(&a, type, config);
	fd = spe_open(&a, 0, -1);
	if (fd < 0)
		return fd;
	up = mmap(NULL, ring, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (up == MAP_FAILED)
		goto out_close;
	up->aux_offset = ring;
	up->aux_size = aux;
	auxp = mmap(NULL, aux, PROT_READ | PROT_WRITE, MAP_SHARED, fd, ring);
	if (auxp == MAP_FAILED)
		goto out_unmap;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spe_spin(secs);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = __atomic_load_n(&up->aux_head, __ATOMIC_ACQUIRE);
	walk_records(auxp, head < aux ? head : aux, w);
	munmap(auxp, aux);
	munmap(up, ring);
	close(fd);
	return 0;

out_unmap:
	munmap(up, ring);
out_close:
	close(fd);
	return -errno;
}

static void check_records(int type)
{
	struct walk w;
	int ret;

	ret = record(type, CFG_TS_ENABLE, 1.0, &w);
	tap_check(!ret && w.records > 20 && !w.errors,
		  "per-task ring and AUX mmap: records while this task loops (%lu, %lu decode errors, ret %d)",
		  w.records, w.errors, ret);
	tap_check(!ret && w.pcs == w.records && !w.not_el0,
		  "exclude_kernel: every record has a PC and it is at EL0 (%lu PCs, %lu not EL0)",
		  w.pcs, w.not_el0);

	ret = record(type, CFG_TS_ENABLE | CFG_LOAD_FILTER, 1.0, &w);
	tap_check(!ret && w.records > 0 && w.ops == w.records && !w.not_load,
		  "load_filter: every record is a load (%lu records, %lu not loads)",
		  w.records, w.not_load);
}

int main(void)
{
	const struct spe_profile *p;
	char name[32];
	int type;

	if (spe_read_str(SPE_SIM_PROFILE, name, sizeof(name)))
		tap_skip_all("arm_spe_sim is not loaded");
	type = spe_pmu_type_or_skip();
	p = spe_sim_profile();
	if (!p)
		tap_skip_all("unknown simulated profile %s", name);

	tap_plan(4 + 6 + 3);
	spe_check_caps(p);
	check_errno(type, p);
	check_records(type);
	return tap_exit();
}
