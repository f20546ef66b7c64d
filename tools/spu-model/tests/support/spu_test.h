/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers shared by the SPU model's rule tests: a unit with a flat buffer,
 * ready-made operations, and a packet walker that knows only the header
 * size rules of DDI 0487 D18.1.1 (so the tests do not depend on the
 * decoder they are meant to check).
 */
#ifndef SPU_TEST_H
#define SPU_TEST_H

#include <stdint.h>
#include <string.h>

#include "spe/spu_model.h"

#define T_BUF_BASE	0xffff000010000000ULL
#define T_BUF_SIZE	(64 * 1024)
#define T_CANARY	0xa5

struct t_unit {
	struct spe_spu spu;
	struct spe_spu_flat_mem mem;
	uint8_t buf[T_BUF_SIZE + 4096];	/* canary bytes after the limit */
	/* Outcomes seen by the hook. */
	unsigned long sampled, collided, filtered, written, discarded;
};

/* A unit of the given profile (id or config) with its buffer mapped. */
struct t_unit *t_unit_new(enum spe_spu_profile_id id);
struct t_unit *t_unit_new_cfg(const struct spe_spu_config *cfg);
void t_unit_free(struct t_unit *u);

/*
 * Program a session the way a driver does: PMBPTR at the buffer base,
 * PMBLIMITR = base + size with E = 1, PMSIRR = interval (bits 31:8 and RND),
 * PMSICR = 0, PMSCR = pmscr (PMSCR_EL2 gets PA and PCT so EL1's choice rules).
 */
void t_enable(struct t_unit *u, uint64_t pmscr, uint64_t pmsirr, uint64_t size);

/* Operations. */
struct spe_op t_op_other(void);
struct spe_op t_op_load(void);
struct spe_op t_op_store(void);
struct spe_op t_op_branch(void);

/* Step one operation sampled on its own (interval 0) and drain it. */
void t_run(struct t_unit *u, const struct spe_op *op);

/* Bytes written so far (PMBPTR - base). */
uint64_t t_used(const struct t_unit *u);

/*
 * Find the first packet whose first header byte matches (b & mask) == hdr
 * in the record at rec[0..len): returns a pointer to its payload and its
 * payload size in *size, or NULL.
 */
const uint8_t *t_find_packet(const uint8_t *rec, size_t len, uint8_t mask,
			     uint8_t hdr, unsigned int *size);
uint64_t t_le(const uint8_t *p, unsigned int n);

#endif
