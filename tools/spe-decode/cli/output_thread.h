/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A thread that writes a command's output while the command formats more.
 *
 * `script` prints hundreds of megabytes; the write(2) that copies them into
 * the page cache or a pipe costs about a third of its time, and on the
 * command's own thread that time adds to the decoding's.  With decoding
 * threads the blocks the command fills are handed to another thread
 * instead, which writes them in order while the next ones are filled:
 * the writer's own thread, or, with no core to spare for one, a decoding
 * thread in the time it has nothing to decode (spe_output_thread_help()).
 * Memory: NR_BLOCKS blocks of the size asked for.
 */
#ifndef SPE_DECODE_CLI_OUTPUT_THREAD_H
#define SPE_DECODE_CLI_OUTPUT_THREAD_H

#include <stdbool.h>
#include <stddef.h>

struct spe_output_thread;

/*
 * Starts the writer on @fd with blocks of @block_size bytes.  Returns NULL
 * when it cannot (no memory, no thread): the caller then writes itself.
 */
struct spe_output_thread *spe_output_thread_start(int fd, size_t block_size);

/*
 * The same without a thread of its own: the blocks are written by
 * spe_output_thread_help(), and by the filler itself when every block is
 * in flight or at the end.  NULL when out of memory.
 */
struct spe_output_thread *spe_output_thread_start_shared(int fd, size_t block_size);

/*
 * Writes the oldest submitted block, unless none is waiting or another
 * thread is writing one; returns whether it wrote.  For any thread, at
 * any time (a spe_session_config.idle_work).
 */
bool spe_output_thread_help(void *t);

/* The first empty block to fill. */
char *spe_output_thread_block(struct spe_output_thread *t);

/*
 * Hands the block being filled (@len bytes of it) to the writer and
 * returns the next empty one, waiting for the writer when every block is
 * in flight.  After a failed write, blocks are taken and dropped.
 */
char *spe_output_thread_submit(struct spe_output_thread *t, size_t len);

/* Waits until every submitted block is written (writes them, shared). */
void spe_output_thread_wait(struct spe_output_thread *t);

/* Whether a write has failed (EPIPE from `| head`, ENOSPC): stop early. */
bool spe_output_thread_failed(struct spe_output_thread *t);

/*
 * Writes what was submitted, stops the thread and frees everything.
 * Returns 0, or the errno of the first failed write.
 */
int spe_output_thread_stop(struct spe_output_thread *t);

#endif /* SPE_DECODE_CLI_OUTPUT_THREAD_H */
