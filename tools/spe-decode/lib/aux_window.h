/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading an AUXTRACE buffer's data through a window (lib/aux_window.c),
 * for the decode queues and their threads.
 *
 * The data is read into a small buffer with pread(), not decoded through
 * a mapping of the file: a mapping costs a page fault per few pages, a TLB
 * miss per page and the hardware prefetcher's stop at every page boundary,
 * and the pages must be given back (madvise, a TLB shootdown on every core
 * the process runs on) to keep memory bounded.  A read copies the page
 * cache in large blocks into a buffer that stays in the cache, and costs
 * nothing to give back.  Measured on a 1 GB AUX file: touching every cache
 * line through the mapping 0.46 s, reading it in 256 KiB blocks 0.07 s.
 */
#ifndef SPE_DECODE_AUX_WINDOW_H
#define SPE_DECODE_AUX_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "spe_decode.h"

/*
 * The window's size: what a budget allows for nq queues at once, never
 * less than two of the decoder's minimum windows, never more than 256 KiB.
 * The decoder reads each window right after pread() wrote it: a window
 * that fits in a core's L2 cache with room to spare is read from there.
 * With 1 MiB windows, report on a 1 GB file took 5% longer (0.642 s
 * against 0.609 s, mean of 8 interleaved runs at 2 threads) and a third
 * more system time, as the copy's lines were evicted before the decoder
 * got to them.
 */
#define AUX_WINDOW_MIN		(2 * SPE_DECODER_WINDOW_MIN)
#define AUX_WINDOW_MAX		(256u << 10)
#define AUX_WINDOW_BUDGET	(32u << 20)

struct aux_window {
	uint8_t *mem;		/* cap bytes */
	size_t cap;
	int fd;
	uint64_t data_off;	/* file offset of the buffer's data */
	uint64_t aux_off;	/* stream offset of its first byte */
	uint64_t size;		/* its bytes */
	uint64_t start;		/* stream offset of mem[0] */
	size_t len;		/* bytes of the stream in mem */
	int err;		/* errno of a failed read, 0 if none */
};

/* The window size for nq queues decoded side by side. */
size_t aux_window_size(uint32_t nq);

/* Allocates a window of cap bytes reading from fd; SPE_ERR_NOMEM. */
int aux_window_init(struct aux_window *w, int fd, size_t cap);
void aux_window_free(struct aux_window *w);

/*
 * Starts decoding a buffer of @size bytes at file offset @data_off, stream
 * offset @aux_off: initialises @dec on the first window.  Returns 0, or
 * SPE_ERR_IO when the file cannot be read (w->err says why; the file
 * offset is aux_window_file_offset()).
 */
int aux_window_begin(struct aux_window *w, struct spe_decoder *dec, uint64_t data_off,
		     uint64_t size, uint64_t aux_off);

/* After spe_decoder_next() returned SPE_ERR_MORE: moves the window on to
 * what the decoder still needs and reads on.  0 or SPE_ERR_IO. */
int aux_window_advance(struct aux_window *w, struct spe_decoder *dec);

/* The file offset of the first byte not yet read (where a read failed). */
uint64_t aux_window_file_offset(const struct aux_window *w);

#endif /* SPE_DECODE_AUX_WINDOW_H */
