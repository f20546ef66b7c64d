/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Parallel decoding of the AUX queues (lib/decode_workers.c), for
 * lib/aux_queue.c.  Each queue's buffers are decoded in order by one
 * worker at a time into a small ring of batches; the session's single
 * consumer takes the items of each queue in the same order the sequential
 * decoder would have produced them, and does all the bookkeeping itself,
 * so the output does not depend on the number of threads.
 */
#ifndef SPE_DECODE_WORKERS_H
#define SPE_DECODE_WORKERS_H

#include <stdbool.h>
#include <stdint.h>

#include "spe_decode.h"

/* A buffer of a queue: its data in the mapped file. */
struct spe_dw_buf {
	uint64_t data_off, size, aux_off;
};

/* SPE_DW_READ_FAILED: the file could not be read at error_file_off
 * (errno in read_errno); the queue ends with it. */
enum spe_dw_kind { SPE_DW_RECORD, SPE_DW_PARTIAL, SPE_DW_READ_FAILED };

struct spe_dw_item {
	/* Before the record, so that an item's header shares a cache line
	 * with the record's first fields (see struct spe_record). */
	uint64_t data_off, aux_off;	/* of the buffer it came from */
	uint64_t error_file_off;	/* SPE_DW_PARTIAL ended by an error,
					 * SPE_DW_READ_FAILED */
	uint8_t kind;
	int read_errno;			/* SPE_DW_READ_FAILED */
	struct spe_record rec;		/* SPE_DW_RECORD; .end for a partial one */
};

struct spe_dw;

/*
 * Starts nthreads workers over nq queues; bufs[i] (nbufs[i] entries) is
 * queue i's buffer list, copied.  The data is read from fd through a
 * window of window bytes per queue (lib/aux_window.c).  A worker with
 * nothing to decode calls idle_work(idle_ctx) when it is not NULL
 * (spe_session_config.idle_work) before it waits.
 * Returns 0 or SPE_ERR_NOMEM (the caller then decodes sequentially).
 */
int spe_dw_start(struct spe_dw **out, unsigned nthreads, uint32_t nq,
		 const struct spe_dw_buf *const *bufs, const uint32_t *nbufs,
		 int fd, size_t window, bool (*idle_work)(void *ctx), void *idle_ctx);
/* The next item of queue qi, NULL when the queue is exhausted.  The item
 * stays valid until the next call for the same queue. */
const struct spe_dw_item *spe_dw_next(struct spe_dw *dw, uint32_t qi);
/* Stops the workers and frees everything. */
void spe_dw_stop(struct spe_dw *dw);

#endif /* SPE_DECODE_WORKERS_H */
