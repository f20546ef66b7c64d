// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Parallel decoding of the AUX queues (decode_workers.h).
 *
 * Per-CPU queues are independent until the time-ordered merge, so their
 * records can be decoded ahead on other cores.  Each queue has a ring of
 * NR_SLOTS batches of up to BATCH items: `filled` counts the batches
 * written, `consumed` those the consumer has given back, so the ring holds
 * filled - consumed of them.  Whoever holds a queue's `busy` claim (a
 * worker, or the consumer itself) decodes its next batch with the queue's
 * own decoder, so one thread at a time touches a decoder, in order.  The
 * consumer reads batches in order; when the batch it needs is not there
 * and nobody is decoding it, it decodes it itself rather than wait.
 *
 * The hand-over is two counters per queue, no lock: a lock taken per batch,
 * and the sleeping and waking it leads to (a futex round trip each), cost
 * more than decoding the batch on a 1 GB file.  A thread sleeps only after
 * polling for about a batch's decoding time: a worker when every ring is
 * full or being filled, the consumer when a worker is filling the batch it
 * needs.  The mutex and the two condition variables serve only those
 * sleeps; the flags `sleepers` and `waiting` with sequentially consistent
 * accesses on both sides make sure no wake-up is lost.
 *
 * Memory: NR_SLOTS * BATCH items per queue, whatever the size of the file.
 */
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "decode_workers.h"

#define NR_SLOTS	4
#define BATCH		128
#define SPINS		2000	/* polls before sleeping: about a batch's decoding */
#define DROP_STEP	(1u << 20)	/* give decoded pages back every 1 MiB: the
				 * batches ahead must not cost more */

struct batch {
	struct spe_dw_item *items;
	uint32_t n;
	bool last;			/* the queue ends after it */
};

struct chan {
	/* The queue's buffers and decoder: used by the claim's holder only. */
	struct spe_dw_buf *bufs;
	uint32_t nbufs, next_buf;
	bool active, done;		/* done: the last batch is written */
	struct spe_decoder dec;
	struct spe_dw_buf cur;
	uint64_t dropped;
	struct batch slot[NR_SLOTS];
	/* Shared, atomic; a cache line of their own, apart from what the
	 * consumer writes per item. */
	alignas(64) uint32_t filled, consumed;	/* batches written / given back */
	bool busy;			/* a thread is decoding the next batch */
	bool finished;			/* copy of done for the other threads */
	/* The consumer's own: */
	alignas(64) uint32_t pos;	/* next item in batch `consumed` */
	bool exhausted;
};

struct spe_dw {
	pthread_mutex_t lock;		/* only for the sleeps below */
	pthread_cond_t work;		/* workers wait for a slot to fill */
	pthread_cond_t ready;		/* the consumer waits for a batch */
	uint32_t sleepers;		/* workers asleep or about to be */
	bool waiting;			/* the consumer asleep or about to be */
	bool quit;
	struct chan *ch;
	uint32_t nq;
	pthread_t *threads;
	unsigned nthreads;
	const uint8_t *map;
	long page;
};

#define LOAD(p, o)	__atomic_load_n((p), __ATOMIC_##o)
#define STORE(p, v, o)	__atomic_store_n((p), (v), __ATOMIC_##o)

static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
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
				b->last = true;
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

/*
 * Wakes whoever sleeps on cond, if flag says someone may.  The caller's
 * store before it and this load are sequentially consistent, as are the
 * sleeper's store of the flag and its check: one of the two sides sees the
 * other's store, so no wake-up is lost.
 */
static void wake(struct spe_dw *dw, const void *flag, size_t size, pthread_cond_t *cond)
{
	if (size == 1 ? !LOAD((const bool *)flag, SEQ_CST) : !LOAD((const uint32_t *)flag, SEQ_CST))
		return;
	pthread_mutex_lock(&dw->lock);
	pthread_cond_broadcast(cond);
	pthread_mutex_unlock(&dw->lock);
}

/*
 * Claims queue c and decodes its next batch if its ring has room.
 * Returns true if it decoded one.
 */
static bool try_fill(struct spe_dw *dw, struct chan *c)
{
	uint32_t f;
	struct batch *b;

	if (LOAD(&c->finished, ACQUIRE) || LOAD(&c->busy, RELAXED) ||
	    __atomic_exchange_n(&c->busy, true, __ATOMIC_ACQUIRE))
		return false;
	f = LOAD(&c->filled, RELAXED);	/* only the claim's holder writes it */
	if (c->done || f - LOAD(&c->consumed, ACQUIRE) >= NR_SLOTS) {
		STORE(&c->busy, false, RELEASE);
		return false;
	}
	b = &c->slot[f % NR_SLOTS];
	fill(dw, c, b);
	if (b->last) {
		c->done = true;
		STORE(&c->finished, true, RELEASE);
	}
	STORE(&c->filled, f + 1, SEQ_CST);
	STORE(&c->busy, false, RELEASE);
	wake(dw, &dw->waiting, 1, &dw->ready);
	return true;
}

/* A queue a worker could fill now: the one with the fewest batches ready. */
static struct chan *pick(struct spe_dw *dw)
{
	struct chan *best = NULL;
	uint32_t best_n = NR_SLOTS;

	for (uint32_t q = 0; q < dw->nq; q++) {
		struct chan *c = &dw->ch[q];
		uint32_t n;

		if (LOAD(&c->finished, RELAXED) || LOAD(&c->busy, RELAXED))
			continue;
		n = LOAD(&c->filled, ACQUIRE) - LOAD(&c->consumed, ACQUIRE);
		if (n < best_n) {
			best = c;
			best_n = n;
		}
	}
	return best;
}

/* A queue with half its ring or more to fill: worth waking up for. */
static bool pick_half(struct spe_dw *dw)
{
	for (uint32_t q = 0; q < dw->nq; q++) {
		struct chan *c = &dw->ch[q];

		if (!LOAD(&c->finished, SEQ_CST) &&
		    LOAD(&c->filled, SEQ_CST) - LOAD(&c->consumed, SEQ_CST) <= NR_SLOTS / 2)
			return true;
	}
	return false;
}

static void *worker(void *arg)
{
	struct spe_dw *dw = arg;
	int idle = 0;

	while (!LOAD(&dw->quit, ACQUIRE)) {
		struct chan *c = pick(dw);

		if (c && try_fill(dw, c)) {
			idle = 0;
			continue;
		}
		if (++idle < SPINS) {
			spin_pause();
			continue;
		}
		/* Nothing to fill for a while: sleep until a slot frees. */
		pthread_mutex_lock(&dw->lock);
		__atomic_fetch_add(&dw->sleepers, 1, __ATOMIC_SEQ_CST);
		while (!LOAD(&dw->quit, SEQ_CST) && !pick_half(dw))
			pthread_cond_wait(&dw->work, &dw->lock);
		__atomic_fetch_sub(&dw->sleepers, 1, __ATOMIC_SEQ_CST);
		pthread_mutex_unlock(&dw->lock);
		idle = 0;
	}
	return NULL;
}

const struct spe_dw_item *spe_dw_next(struct spe_dw *dw, uint32_t qi)
{
	struct chan *c = &dw->ch[qi];
	uint32_t k;
	struct batch *b;
	int spins = 0;

	if (c->exhausted)
		return NULL;
	k = c->consumed;	/* only the consumer writes it */
	b = &c->slot[k % NR_SLOTS];
	if (LOAD(&c->filled, ACQUIRE) != k) {
		if (c->pos < b->n)
			return &b->items[c->pos++];
		/* Used up: give the slot back, then take the next. */
		c->pos = 0;
		if (b->last) {
			c->exhausted = true;
			STORE(&c->consumed, k + 1, RELEASE);
			return NULL;
		}
		STORE(&c->consumed, ++k, SEQ_CST);
		/* Waking costs the consumer, the busier side: only once the
		 * worker has several batches to decode in a row. */
		if (LOAD(&c->filled, RELAXED) - k <= NR_SLOTS / 2)
			wake(dw, &dw->sleepers, 4, &dw->work);
		b = &c->slot[k % NR_SLOTS];
	}
	while (LOAD(&c->filled, ACQUIRE) == k) {
		/* Not decoded yet: decode it here if nobody is, else wait. */
		if (try_fill(dw, c))
			break;
		if (++spins < SPINS) {
			spin_pause();
			continue;
		}
		pthread_mutex_lock(&dw->lock);
		STORE(&dw->waiting, true, SEQ_CST);
		while (LOAD(&c->filled, SEQ_CST) == k && LOAD(&c->busy, SEQ_CST))
			pthread_cond_wait(&dw->ready, &dw->lock);
		STORE(&dw->waiting, false, RELAXED);
		pthread_mutex_unlock(&dw->lock);
		spins = 0;
	}
	/* A queue's last batch may be empty. */
	if (!b->n) {
		c->exhausted = true;
		STORE(&c->consumed, k + 1, RELEASE);
		return NULL;
	}
	return &b->items[c->pos++];
}

void spe_dw_stop(struct spe_dw *dw)
{
	if (!dw)
		return;
	pthread_mutex_lock(&dw->lock);
	STORE(&dw->quit, true, SEQ_CST);
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
	/* Aligned, so that the shared counters share no line with others. */
	dw->ch = aligned_alloc(alignof(struct chan), (nq ? nq : 1) * sizeof(*dw->ch));
	if (dw->ch)
		memset(dw->ch, 0, (nq ? nq : 1) * sizeof(*dw->ch));
	dw->threads = calloc(nthreads ? nthreads : 1, sizeof(*dw->threads));
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
		if (!c->nbufs)
			c->done = c->finished = c->exhausted = true;
	}
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
