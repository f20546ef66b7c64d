// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Parallel decoding of the AUX queues (decode_workers.h).
 *
 * Per-CPU queues are independent until the time-ordered merge, so their
 * records can be decoded ahead on other cores.  Each queue has a ring of
 * NR_SLOTS batches of up to BATCH items.  A queue with a free slot and no
 * fill in flight is "listed"; a worker takes a listed queue, decodes the
 * next batch with the queue's own decoder (only one thread at a time
 * touches a queue's decoder), and lists the queue again while slots are
 * free.  The consumer reads batches in order and frees each when it moves
 * on; when the batch it needs is listed but no worker has taken it (the
 * workers are busy or not scheduled), it decodes the batch itself rather
 * than sleep.  One mutex guards the flags and slot states; batches are
 * large enough that it is taken rarely.  Memory: NR_SLOTS * BATCH items
 * per queue, whatever the size of the file.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "decode_workers.h"

#define NR_SLOTS	4
#define BATCH		512
#define DROP_STEP	(1u << 20)	/* give decoded pages back every 1 MiB: the
				 * batches ahead must not cost more */

struct batch {
	struct spe_dw_item *items;
	uint32_t n;
	bool ready;			/* filled, not yet released */
	bool last;			/* the queue ends after it */
};

struct chan {
	/* The queue's buffers and decoder: used by the filling thread only. */
	struct spe_dw_buf *bufs;
	uint32_t nbufs, next_buf;
	bool active;
	struct spe_decoder dec;
	struct spe_dw_buf cur;
	uint64_t dropped;
	/* Ring: guarded by the pool's lock. */
	struct batch slot[NR_SLOTS];
	uint32_t fill_at;		/* next slot to fill */
	uint32_t take_at;		/* slot the consumer reads */
	uint32_t pos;			/* consumer's next item in it */
	bool owned;			/* the consumer holds slot take_at */
	bool filling, listed, exhausted;
	bool done;			/* the last batch is filled */
};

struct spe_dw {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* workers wait for a listed queue */
	pthread_cond_t ready;		/* the consumer waits for a batch */
	struct chan *ch;
	uint32_t nq;
	uint32_t nlisted, scan;		/* listed queues; where workers look next */
	bool quit;
	pthread_t *threads;
	unsigned nthreads;
	const uint8_t *map;
	long page;
};

/* Puts queue qi on the work list if it can be filled (lock held). */
static void maybe_list(struct spe_dw *dw, uint32_t qi)
{
	struct chan *c = &dw->ch[qi];

	if (c->done || c->filling || c->listed || c->slot[c->fill_at].ready)
		return;
	c->listed = true;
	dw->nlisted++;
	pthread_cond_signal(&dw->work);
}

static void drop_pages(struct spe_dw *dw, struct chan *c, bool all)
{
	uint64_t done = spe_decoder_offset(&c->dec) - c->cur.aux_off, from, to;

	if (!all && done - c->dropped < DROP_STEP)
		return;
	from = (c->cur.data_off + c->dropped) & ~(uint64_t)(dw->page - 1);
	to = (c->cur.data_off + done) & ~(uint64_t)(dw->page - 1);
	if (to > from)
		madvise((void *)(dw->map + from), to - from, MADV_DONTNEED);
	c->dropped = done;
}

/* Decodes up to BATCH items of c into b, exactly as the sequential
 * decoder walks the buffers. */
static void fill(struct spe_dw *dw, struct chan *c, struct batch *b)
{
	b->n = 0;
	b->last = false;
	while (b->n < BATCH) {
		struct spe_dw_item *it = &b->items[b->n];
		int ret;

		if (!c->active) {
			if (c->next_buf == c->nbufs) {
				b->last = true;	/* c->done follows under the lock */
				return;
			}
			c->cur = c->bufs[c->next_buf++];
			c->dropped = 0;
			spe_decoder_init(&c->dec, NULL, dw->map + c->cur.data_off,
					 (size_t)c->cur.size, c->cur.aux_off);
			c->active = true;
		}
		ret = spe_decoder_next(&c->dec, &it->rec);
		if (ret == 0) {
			drop_pages(dw, c, true);
			c->active = false;
			continue;
		}
		it->data_off = c->cur.data_off;
		it->aux_off = c->cur.aux_off;
		if (ret == 1) {
			it->kind = SPE_DW_RECORD;
			drop_pages(dw, c, false);
		} else {
			it->kind = SPE_DW_PARTIAL;
			if (it->rec.end == SPE_REC_END_ERROR)
				it->error_file_off = c->cur.data_off +
					(spe_decoder_error_offset(&c->dec) - c->cur.aux_off);
		}
		b->n++;
	}
}

/* Takes listed queue qi for filling (lock held). */
static struct batch *take(struct spe_dw *dw, uint32_t qi)
{
	struct chan *c = &dw->ch[qi];

	c->listed = false;
	dw->nlisted--;
	c->filling = true;
	return &c->slot[c->fill_at];
}

/* Fills b of queue qi without the lock, then publishes it. */
static void fill_unlocked(struct spe_dw *dw, uint32_t qi, struct batch *b)
{
	struct chan *c = &dw->ch[qi];

	pthread_mutex_unlock(&dw->lock);
	fill(dw, c, b);
	pthread_mutex_lock(&dw->lock);
	b->ready = true;
	c->done = b->last;
	c->fill_at = (c->fill_at + 1) % NR_SLOTS;
	c->filling = false;
	maybe_list(dw, qi);
	pthread_cond_broadcast(&dw->ready);
}

static void *worker(void *arg)
{
	struct spe_dw *dw = arg;

	pthread_mutex_lock(&dw->lock);
	for (;;) {
		uint32_t qi;

		while (!dw->quit && !dw->nlisted)
			pthread_cond_wait(&dw->work, &dw->lock);
		if (dw->quit)
			break;
		for (qi = dw->scan; !dw->ch[qi].listed; qi = (qi + 1) % dw->nq)
			;
		dw->scan = (qi + 1) % dw->nq;
		fill_unlocked(dw, qi, take(dw, qi));
	}
	pthread_mutex_unlock(&dw->lock);
	return NULL;
}

const struct spe_dw_item *spe_dw_next(struct spe_dw *dw, uint32_t qi)
{
	struct chan *c = &dw->ch[qi];
	struct batch *b = &c->slot[c->take_at];

	if (c->exhausted)
		return NULL;
	/* A batch the consumer took under the lock is its own: no lock. */
	if (c->owned && c->pos < b->n)
		return &b->items[c->pos++];
	pthread_mutex_lock(&dw->lock);
	for (;;) {
		b = &c->slot[c->take_at];
		if (c->owned) {
			/* Used up: free the slot, then take the next. */
			bool last = b->last;

			b->ready = false;
			c->owned = false;
			c->pos = 0;
			c->take_at = (c->take_at + 1) % NR_SLOTS;
			maybe_list(dw, qi);
			if (last) {
				c->exhausted = true;
				pthread_mutex_unlock(&dw->lock);
				return NULL;
			}
			continue;
		}
		if (b->ready) {
			c->owned = true;
			if (c->pos < b->n)
				break;
			continue;
		}
		if (c->listed)
			fill_unlocked(dw, qi, take(dw, qi));	/* no worker on it: decode here */
		else
			pthread_cond_wait(&dw->ready, &dw->lock);
	}
	pthread_mutex_unlock(&dw->lock);
	return &b->items[c->pos++];
}

void spe_dw_stop(struct spe_dw *dw)
{
	if (!dw)
		return;
	pthread_mutex_lock(&dw->lock);
	dw->quit = true;
	pthread_cond_broadcast(&dw->work);
	pthread_mutex_unlock(&dw->lock);
	for (unsigned i = 0; i < dw->nthreads; i++)
		pthread_join(dw->threads[i], NULL);
	for (uint32_t q = 0; dw->ch && q < dw->nq; q++) {
		for (int s = 0; s < NR_SLOTS; s++)
			free(dw->ch[q].slot[s].items);
		free(dw->ch[q].bufs);
	}
	free(dw->ch);
	free(dw->threads);
	pthread_cond_destroy(&dw->work);
	pthread_cond_destroy(&dw->ready);
	pthread_mutex_destroy(&dw->lock);
	free(dw);
}

int spe_dw_start(struct spe_dw **out, unsigned nthreads, uint32_t nq,
		 const struct spe_dw_buf *const *bufs, const uint32_t *nbufs,
		 const uint8_t *map, long page)
{
	struct spe_dw *dw = calloc(1, sizeof(*dw));

	*out = NULL;
	if (!dw)
		return SPE_ERR_NOMEM;
	pthread_mutex_init(&dw->lock, NULL);
	pthread_cond_init(&dw->work, NULL);
	pthread_cond_init(&dw->ready, NULL);
	dw->nq = nq;
	dw->map = map;
	dw->page = page;
	dw->ch = calloc(nq ? nq : 1, sizeof(*dw->ch));
	dw->threads = calloc(nthreads, sizeof(*dw->threads));
	if (!dw->ch || !dw->threads)
		goto fail;
	for (uint32_t q = 0; q < nq; q++) {
		struct chan *c = &dw->ch[q];

		c->nbufs = nbufs[q];
		if (c->nbufs) {
			c->bufs = malloc(c->nbufs * sizeof(*c->bufs));
			if (!c->bufs)
				goto fail;
			memcpy(c->bufs, bufs[q], c->nbufs * sizeof(*c->bufs));
		}
		/* A queue's slots are allocated only if it has data. */
		for (int s = 0; c->nbufs && s < NR_SLOTS; s++)
			if (!(c->slot[s].items = malloc(BATCH * sizeof(struct spe_dw_item))))
				goto fail;
		if (!c->nbufs) {
			c->done = c->exhausted = true;
		}
	}
	pthread_mutex_lock(&dw->lock);
	for (uint32_t q = 0; q < nq; q++)
		maybe_list(dw, q);
	pthread_mutex_unlock(&dw->lock);
	for (; dw->nthreads < nthreads; dw->nthreads++)
		if (pthread_create(&dw->threads[dw->nthreads], NULL, worker, dw))
			break;
	if (!dw->nthreads)
		goto fail;
	*out = dw;
	return 0;
fail:
	spe_dw_stop(dw);
	return SPE_ERR_NOMEM;
}
