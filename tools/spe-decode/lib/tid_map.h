/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Thread id -> process id, as the COMM, FORK and EXIT records of a
 * perf.data tell it: an open-addressing hash map that grows by doubling.
 * Not a public header.
 */
#ifndef SPE_TID_MAP_H
#define SPE_TID_MAP_H

#include <stdint.h>

struct spe_tid_map {
	uint32_t *tid;			/* 0 = empty slot; stored as tid + 1 */
	int32_t *pid;
	uint32_t cap, used;
	uint32_t gen;			/* changes with every update */
};

/* Sets (or replaces) the pid of @tid; 0 or SPE_ERR_NOMEM. */
int spe_tid_map_set(struct spe_tid_map *m, uint32_t tid, int32_t pid);
/* The pid of @tid, -1 when unknown. */
int32_t spe_tid_map_pid(const struct spe_tid_map *m, int32_t tid);
void spe_tid_map_free(struct spe_tid_map *m);

#endif /* SPE_TID_MAP_H */
