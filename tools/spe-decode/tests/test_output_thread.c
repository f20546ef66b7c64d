// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cli/output_thread.c: the blocks reach the file whole and in the order
 * they were submitted, whoever writes them - the writer's own thread, a
 * helper (spe_output_thread_help(), as script's decoding thread calls
 * it), or the filler itself when every block is in flight; a failed write
 * is reported, and stops nothing that is still to be submitted.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/output_thread.h"
#include "tap.h"
#include "support/temp_file.h"

#define BLOCK	4096
#define NR	40		/* blocks a run submits: ten times the ring */

/* Block i of a run: its length and bytes differ from its neighbours'. */
static size_t fill_block(char *b, unsigned i)
{
	size_t n = 1 + (i * 577u) % BLOCK;

	for (size_t k = 0; k < n; k++)
		b[k] = (char)('a' + (i + k / 7) % 26);
	return n;
}

/* The file holds blocks 0..nr-1, in order. */
static int file_is_blocks(int fd, unsigned nr)
{
	size_t len, at = 0;
	unsigned char *got = test_slurp(fd, &len);
	char want[BLOCK];
	int ok = 1;

	for (unsigned i = 0; ok && i < nr; i++) {
		size_t n = fill_block(want, i);

		ok = at + n <= len && !memcmp(got + at, want, n);
		at += n;
	}
	free(got);
	return ok && at == len;
}

static void submit_all(struct spe_output_thread *t, unsigned nr)
{
	char *b = spe_output_thread_block(t);

	for (unsigned i = 0; i < nr; i++)
		b = spe_output_thread_submit(t, fill_block(b, i));
}

static int helper_stop;

static void *helper_loop(void *t)
{
	while (!__atomic_load_n(&helper_stop, __ATOMIC_ACQUIRE))
		spe_output_thread_help(t);
	return NULL;
}

static void *help_once(void *t)
{
	return spe_output_thread_help(t) ? t : NULL;
}

int main(void)
{
	struct spe_output_thread *t;
	pthread_t th;
	void *ret;
	int fd, p[2];

	/* The writer's own thread. */
	fd = test_temp_fd();
	t = spe_output_thread_start(fd, BLOCK);
	CHECK(t != NULL, "writer thread: starts");
	submit_all(t, NR);
	spe_output_thread_wait(t);
	CHECK(file_is_blocks(fd, NR), "writer thread: every block, in order, after wait");
	CHECK_EQ(spe_output_thread_stop(t), 0, "writer thread: no error");
	close(fd);

	/* Shared, nobody helps: the filler writes when the ring is full. */
	fd = test_temp_fd();
	t = spe_output_thread_start_shared(fd, BLOCK);
	CHECK(t != NULL, "shared: starts");
	submit_all(t, NR);
	CHECK_EQ(spe_output_thread_stop(t), 0, "shared, no helper: no error");
	CHECK(file_is_blocks(fd, NR), "shared, no helper: every block, in order");
	close(fd);

	/* Shared: one help writes the oldest block, and only it. */
	fd = test_temp_fd();
	t = spe_output_thread_start_shared(fd, BLOCK);
	CHECK(!spe_output_thread_help(t), "shared: help with nothing submitted writes nothing");
	submit_all(t, 3);	/* fewer than the ring's blocks: none written yet */
	CHECK(file_is_blocks(fd, 0), "shared: submitting into a free ring writes nothing");
	pthread_create(&th, NULL, help_once, t);
	pthread_join(th, &ret);
	CHECK(ret == t, "shared: help from another thread writes a block");
	CHECK(file_is_blocks(fd, 1), "shared: ... the oldest one");
	spe_output_thread_wait(t);
	CHECK(file_is_blocks(fd, 3), "shared: wait writes the rest");
	CHECK_EQ(spe_output_thread_stop(t), 0, "shared: no error");
	close(fd);

	/* Shared, a helper polling all along: order kept between the two. */
	fd = test_temp_fd();
	t = spe_output_thread_start_shared(fd, BLOCK);
	helper_stop = 0;
	pthread_create(&th, NULL, helper_loop, t);
	submit_all(t, 10 * NR);
	spe_output_thread_wait(t);
	__atomic_store_n(&helper_stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	CHECK(file_is_blocks(fd, 10 * NR), "shared, polling helper: every block, in order");
	CHECK_EQ(spe_output_thread_stop(t), 0, "shared, polling helper: no error");
	close(fd);

	/* A reader that went away (| head): the error is kept and returned. */
	signal(SIGPIPE, SIG_IGN);
	if (pipe(p))
		abort();
	close(p[0]);
	t = spe_output_thread_start_shared(p[1], BLOCK);
	CHECK(!spe_output_thread_failed(t), "shared, closed pipe: no failure before a write");
	submit_all(t, NR);
	CHECK(spe_output_thread_failed(t), "shared, closed pipe: the failure is seen");
	CHECK_EQ(spe_output_thread_stop(t), EPIPE, "shared, closed pipe: stop returns EPIPE");
	close(p[1]);
	return tap_done();
}
