// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Thread id -> process id (tid_map.h). */
#include <stdlib.h>

#include "spe_decode.h"
#include "tid_map.h"

static uint32_t tm_slot(const struct spe_tid_map *m, uint32_t tid)
{
	uint32_t h = (tid * 2654435761u) & (m->cap - 1);

	while (m->tid[h] && m->tid[h] != tid + 1)
		h = (h + 1) & (m->cap - 1);
	return h;
}

int spe_tid_map_set(struct spe_tid_map *m, uint32_t tid, int32_t pid)
{
	uint32_t h;

	m->gen++;
	if ((m->used + 1) * 2 > m->cap) {
		struct spe_tid_map n = { .cap = m->cap ? m->cap * 2 : 256 };

		n.tid = calloc(n.cap, sizeof(*n.tid));
		n.pid = calloc(n.cap, sizeof(*n.pid));
		if (!n.tid || !n.pid) {
			free(n.tid);
			free(n.pid);
			return SPE_ERR_NOMEM;
		}
		for (uint32_t i = 0; i < m->cap; i++)
			if (m->tid[i]) {
				uint32_t k = tm_slot(&n, m->tid[i] - 1);

				n.tid[k] = m->tid[i];
				n.pid[k] = m->pid[i];
				n.used++;
			}
		free(m->tid);
		free(m->pid);
		*m = n;
	}
	h = tm_slot(m, tid);
	if (!m->tid[h]) {
		m->tid[h] = tid + 1;
		m->used++;
	}
	m->pid[h] = pid;
	return 0;
}

int32_t spe_tid_map_pid(const struct spe_tid_map *m, int32_t tid)
{
	uint32_t h;

	if (!m->cap || tid < 0)
		return -1;
	h = tm_slot(m, (uint32_t)tid);
	return m->tid[h] ? m->pid[h] : -1;
}

void spe_tid_map_free(struct spe_tid_map *m)
{
	free(m->tid);
	free(m->pid);
	*m = (struct spe_tid_map){ 0 };
}
