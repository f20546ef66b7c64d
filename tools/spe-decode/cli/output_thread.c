// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The output writer thread (output_thread.h).
 *
 * The blocks form a ring: the command fills block `filled % NR_BLOCKS`,
 * the writer writes blocks `written` up to `filled`.  One mutex guards the
 * two counters; a block is a megabyte (the caller's choice), so taking it
 * once per block costs nothing beside the write itself.  Each block is a
 * write and a wake-up on both sides: 256 KiB blocks made script 10%
 * slower than 1 MiB ones on 2 cores.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "output_thread.h"

/* Enough for the writer to be one block behind and one in the kernel. */
#define NR_BLOCKS	4

struct spe_output_thread {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake_writer, wake_filler;
	int fd;
	char *block[NR_BLOCKS];
	size_t len[NR_BLOCKS];
	unsigned long filled, written;	/* blocks submitted / done */
	bool quit;
	int err;			/* errno of the first failed write */
};

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static void *writer(void *arg)
{
	struct spe_output_thread *t = arg;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		unsigned long k;
		int err;

		while (t->written == t->filled && !t->quit)
			pthread_cond_wait(&t->wake_writer, &t->lock);
		if (t->written == t->filled)
			break;
		k = t->written % NR_BLOCKS;
		err = t->err;
		pthread_mutex_unlock(&t->lock);
		/* After a failure the rest is dropped: the command stops soon. */
		if (!err)
			err = write_all(t->fd, t->block[k], t->len[k]);
		pthread_mutex_lock(&t->lock);
		if (err && !t->err)	/* read unlocked by ..._failed() */
			__atomic_store_n(&t->err, err, __ATOMIC_RELAXED);
		t->written++;
		pthread_cond_signal(&t->wake_filler);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static void free_thread(struct spe_output_thread *t)
{
	for (int i = 0; i < NR_BLOCKS; i++)
		free(t->block[i]);
	pthread_cond_destroy(&t->wake_filler);
	pthread_cond_destroy(&t->wake_writer);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

struct spe_output_thread *spe_output_thread_start(int fd, size_t block_size)
{
	struct spe_output_thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->fd = fd;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake_writer, NULL);
	pthread_cond_init(&t->wake_filler, NULL);
	for (int i = 0; i < NR_BLOCKS; i++)
		if (!(t->block[i] = malloc(block_size)))
			goto fail;
	if (pthread_create(&t->thread, NULL, writer, t))
		goto fail;
	return t;
fail:
	free_thread(t);
	return NULL;
}

char *spe_output_thread_block(struct spe_output_thread *t)
{
	return t->block[t->filled % NR_BLOCKS];	/* only this thread moves filled */
}

char *spe_output_thread_submit(struct spe_output_thread *t, size_t len)
{
	char *next;

	pthread_mutex_lock(&t->lock);
	t->len[t->filled % NR_BLOCKS] = len;
	t->filled++;
	pthread_cond_signal(&t->wake_writer);
	while (t->filled - t->written == NR_BLOCKS)
		pthread_cond_wait(&t->wake_filler, &t->lock);
	next = t->block[t->filled % NR_BLOCKS];
	pthread_mutex_unlock(&t->lock);
	return next;
}

void spe_output_thread_wait(struct spe_output_thread *t)
{
	pthread_mutex_lock(&t->lock);
	while (t->written != t->filled)
		pthread_cond_wait(&t->wake_filler, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

bool spe_output_thread_failed(struct spe_output_thread *t)
{
	return __atomic_load_n(&t->err, __ATOMIC_RELAXED) != 0;
}

int spe_output_thread_stop(struct spe_output_thread *t)
{
	int err;

	pthread_mutex_lock(&t->lock);
	t->quit = true;
	pthread_cond_signal(&t->wake_writer);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	err = t->err;
	free_thread(t);
	return err;
}
