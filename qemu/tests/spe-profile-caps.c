// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Print, as shell assignments, what a driver should find on a unit of the
 * SPU model's implementation profile PROFILE: the ID register values and
 * the caps/ files the SPE PMU drivers derive from them.  The guest suite of
 * the emulated unit compares the guest's sysfs with this, so the expected
 * values come from the same profile table QEMU is built with.
 *
 * Usage: spe-profile-caps PROFILE
 */
#include <stdio.h>
#include <stdlib.h>

#include "spe/spu_model.h"

int main(int argc, char **argv)
{
	const struct spe_spu_config *cfg;
	struct spe_spu spu;
	unsigned int count_size;

	if (argc != 2) {
		fprintf(stderr, "usage: spe-profile-caps v1-min|n1|v2|full\n");
		return 2;
	}
	cfg = spe_spu_profile_find(argv[1]);
	if (!cfg) {
		fprintf(stderr, "spe-profile-caps: no profile '%s' (v1-min, n1, v2, full)\n",
			argv[1]);
		return 2;
	}
	/* What software reads back: the model masks unimplemented bits. */
	if (spe_spu_init(&spu, cfg, spe_spu_flat_translate, NULL)) {
		fprintf(stderr, "spe-profile-caps: profile '%s' is not usable\n", argv[1]);
		return 1;
	}
	spe_spu_write_reg(&spu, SPE_REG_PMSEVFR_EL1, ~0ULL);
	count_size = SPE_FIELD_GET(SPE_PMSIDR_COUNTSIZE_MASK, cfg->pmsidr) ==
		     SPE_PMSIDR_COUNTSIZE_16_SAT ? 16 : 12;

	printf("pmsver=%llu\n", (unsigned long long)cfg->pmsver);
	printf("pmsidr=0x%llx\n", (unsigned long long)cfg->pmsidr);
	printf("pmbidr=0x%llx\n", (unsigned long long)cfg->pmbidr);
	printf("arch_inst=%d\n", !!(cfg->pmsidr & SPE_PMSIDR_ARCHINST));
	printf("ernd=%d\n", !!(cfg->pmsidr & SPE_PMSIDR_ERND));
	printf("count_size=%u\n", count_size);
	printf("min_interval=%u\n", spe_pmsidr_min_interval(cfg->pmsidr));
	/* The register keeps what it implements, RES0 bits it lets be set too. */
	printf("pmsevfr_writable=0x%llx\n", (cfg->pmsidr & SPE_PMSIDR_FE) ?
	       (unsigned long long)spe_spu_read_reg(&spu, SPE_REG_PMSEVFR_EL1) : 0ULL);
	/* arm_spe's caps/event_filter: only the bits the PMSVer may implement
	 * (spe_evfr_filterable(), the rule of the driver and the model). */
	printf("event_filter=0x%llx\n", (cfg->pmsidr & SPE_PMSIDR_FE) ?
	       (unsigned long long)(spe_spu_read_reg(&spu, SPE_REG_PMSEVFR_EL1) &
				    spe_evfr_filterable(cfg->pmsver)) : 0ULL);
	return 0;
}
