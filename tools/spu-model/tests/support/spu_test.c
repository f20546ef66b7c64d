// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>

#include "spu_test.h"

static void t_hook(void *ctx, const struct spe_op *op, enum spe_spu_outcome what,
		   uint64_t addr, uint32_t len)
{
	struct t_unit *u = ctx;

	(void)op; (void)addr; (void)len;
	switch (what) {
	case SPE_SPU_SAMPLED:	u->sampled++; break;
	case SPE_SPU_COLLIDED:	u->collided++; break;
	case SPE_SPU_FILTERED:	u->filtered++; break;
	case SPE_SPU_WRITTEN:	u->written++; break;
	case SPE_SPU_DISCARDED:	u->discarded++; break;
	}
}

struct t_unit *t_unit_new_cfg(const struct spe_spu_config *cfg)
{
	struct t_unit *u = calloc(1, sizeof(*u));

	if (!u)
		abort();
	memset(u->buf, T_CANARY, sizeof(u->buf));
	u->mem.base = T_BUF_BASE;
	u->mem.host = u->buf;
	u->mem.size = sizeof(u->buf);
	if (spe_spu_init(&u->spu, cfg, spe_spu_flat_translate, &u->mem)) {
		fprintf(stderr, "spe_spu_init failed for %s\n", cfg->name);
		abort();
	}
	u->spu.hook = t_hook;
	u->spu.hook_ctx = u;
	return u;
}

struct t_unit *t_unit_new(enum spe_spu_profile_id id)
{
	return t_unit_new_cfg(spe_spu_profile(id));
}

void t_unit_free(struct t_unit *u)
{
	free(u);
}

void t_enable(struct t_unit *u, uint64_t pmscr, uint64_t pmsirr, uint64_t size)
{
	struct spe_spu *s = &u->spu;

	spe_spu_write_reg(s, SPE_REG_PMBPTR_EL1, T_BUF_BASE);
	spe_spu_write_reg(s, SPE_REG_PMSIRR_EL1, pmsirr);
	spe_spu_write_reg(s, SPE_REG_PMSICR_EL1, 0);
	spe_spu_write_reg(s, SPE_REG_PMSCR_EL2, SPE_PMSCR_PA |
			  SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, 1));
	spe_spu_write_reg(s, SPE_REG_PMSCR_EL1, pmscr);
	spe_spu_write_reg(s, SPE_REG_PMBLIMITR_EL1,
			  (T_BUF_BASE + size) | SPE_PMBLIMITR_E);
}

static struct spe_op t_op_base(void)
{
	struct spe_op op;

	memset(&op, 0, sizeof(op));
	op.pc = 0x0000aaaabbbb1000ULL;
	op.el = 0;
	op.target_el = 0;
	op.flags = SPE_OPF_NS | SPE_OPF_TARGET_NS;
	op.context[0] = 0x1234;
	op.context[1] = 0x5678;
	op.cycles = 1;
	op.lat_total = 10;
	op.lat_issue = 2;
	op.events = SPE_EV_RETIRED;
	return op;
}

struct spe_op t_op_other(void)
{
	struct spe_op op = t_op_base();

	op.cls = SPE_OP_CLASS_OTHER;
	return op;
}

struct spe_op t_op_load(void)
{
	struct spe_op op = t_op_base();

	op.cls = SPE_OP_CLASS_LDST;
	op.subclass = SPE_OP_LDST_GP_REG;
	op.va = 0x0000ffffcafe0008ULL;
	op.pa = 0x0000000080001008ULL;
	op.lat_xlat = 3;
	op.events |= SPE_EV_L1D_ACCESS | SPE_EV_TLB_ACCESS;
	op.data_source = SPE_DS_COMMON_L2;
	op.flags |= SPE_OPF_HAS_DS | SPE_OPF_PA_NS;
	return op;
}

struct spe_op t_op_store(void)
{
	struct spe_op op = t_op_load();

	op.subclass = SPE_OP_LDST_GP_REG | SPE_OP_LDST_ST;
	op.flags &= (uint8_t)~SPE_OPF_HAS_DS;
	return op;
}

struct spe_op t_op_branch(void)
{
	struct spe_op op = t_op_base();

	op.cls = SPE_OP_CLASS_BRANCH;
	op.subclass = SPE_OP_BR_COND;
	op.target = 0x0000aaaabbbb0f00ULL;
	return op;
}

void t_run(struct t_unit *u, const struct spe_op *op)
{
	spe_spu_step(&u->spu, op);
	spe_spu_psb_csync(&u->spu);
}

uint64_t t_used(const struct t_unit *u)
{
	return spe_spu_read_reg(&u->spu, SPE_REG_PMBPTR_EL1) - T_BUF_BASE;
}

uint64_t t_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

const uint8_t *t_find_packet(const uint8_t *rec, size_t len, uint8_t mask,
			     uint8_t hdr, unsigned int *size)
{
	size_t i = 0;

	while (i < len) {
		uint8_t b = rec[i];
		size_t hlen = 1;
		unsigned int psz;

		if (b <= 0x1f) {
			psz = 0;
		} else if ((b & 0xe0) == 0x20) {
			if (i + 1 >= len)
				return NULL;
			hlen = 2;
			psz = 1u << ((rec[i + 1] >> 4) & 3);
			b = rec[i + 1];	/* match extended packets on byte 1 */
		} else {
			psz = 1u << ((b >> 4) & 3);
		}
		if ((b & mask) == hdr) {
			*size = psz;
			return rec + i + hlen;
		}
		i += hlen + psz;
	}
	return NULL;
}
