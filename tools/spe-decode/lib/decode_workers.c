// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Parallel decoding of the AUX queues (decode_workers.h).
 *
 * Per-CPU queues are independent until the time-ordered merge, so their
 * records can be decoded ahead on other cores.  Each queue has a ring of
 * NR_SLOTS batches of up to BATCH items: `filled` counts the batches
 * written, `consumed` those the consumer has given back, so the ring holds
 * filled - consumed of them.  Whoever holds a queue's claim (a
 * worker, or the consumer itself) decodes its next batch with the queue's
 * own decoder, so one thread at a time touches a decoder, in order.  The
 * consumer reads batches in order; when the batch it needs is not there
 * and nobody is decoding it, it decodes it itself rather than wait.
 *
 * The hand-over is two counters per queue, no lock: a lock taken per batch,
 * and the sleeping and waking it leads to (a futex round trip each), cost
 * more than decoding the batch on a 1 GB file.  A worker with nothing to
 * fill polls a little, then naps for about half the time the consumer,
 * at the pace it was seen to go, takes to empty the emptiest ring: nobody
 * has to wake it, so the consumer, the thread everything waits for, makes
 * no system call to hand work over.  The consumer sleeps only when a worker is filling the
 * batch it needs and cannot be taken over (below); the mutex and condition
 * variable serve only that sleep, and the flag `waiting`, accessed
 * sequentially consistently on both sides, makes sure no wake-up is lost.
 *
 * On a machine busier than its cores, the scheduler can stop a worker in
 * the middle of the very batch the consumer needs next, for a whole time
 * slice.  The consumer then takes the batch over: a worker decodes from a
 * copy of the queue's decoder state into a buffer it noted at the start,
 * and publishes both only if nobody took the batch meanwhile (the claim
 * word's epoch, below).  The consumer decodes the same batch from the
 * state as it was into its spare buffer, which it swaps into the slot; the
 * loser's buffer becomes the spare once the loser has let go of it.  The
 * records are the same whoever decodes them, so the output does not
 * change.
 *
 * A queue's data is read through one window (lib/aux_window.c), which
 * only the claim's holder moves on, before its batch may be taken over and
 * when no worker that lost a batch still reads it (prepare()): a batch
 * ends where the decoder asks for more, so both a worker and the consumer
 * that takes its batch over decode from the window as it was published.
 *
 * Memory: NR_SLOTS + 1 buffers of BATCH items and one window per queue
 * (the spare one included), whatever the size of the file.
 */
#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aux_window.h"
#include "decode_workers.h"

#define NR_SLOTS	16
#define BATCH		128
#define SPINS		1000	/* polls before sleeping: a few batches' decoding */
#define STEAL_SPINS	200	/* polls before the consumer takes a batch over */
#define IDLE_SPINS	100	/* a worker's scans for work before it naps */
#define NAP_GUESS_NS	4000	/* the merge's time per batch, until measured */
#define NAP_MIN_NS	20000	/* a worker's shortest and longest nap */
#define NAP_MAX_NS	2000000

/* The claim word of a queue: an epoch, bumped whenever a batch is published
 * or taken over, and two flags. */
#define CLAIM_HELD	1u	/* someone decodes the next batch */
#define CLAIM_STEALABLE	2u	/* ...a worker, past its start: it may be taken over */
#define CLAIM_EPOCH	4u

struct batch {
	struct spe_dw_item *items;
	uint32_t n;
	bool last;			/* the queue ends after it */
};

/*
 * Test hooks: tests/test_decode_workers.c includes this file with its own,
 * to stop workers in the middle of batches and count take-overs.
 */
#ifndef DW_TEST_FILL_HOOK
#define DW_TEST_FILL_HOOK(by_worker, n)	((void)0)
#endif
#ifndef DW_TEST_STEAL_HOOK
#define DW_TEST_STEAL_HOOK()		((void)0)
#endif

/* Where a queue's decoding stands between batches. */
struct fill_state {
	uint32_t next_buf;
	bool active, done;		/* done: the last batch is written */
	bool want_more;			/* the decoder asked for more of the window */
	int read_errno;			/* the window could not be read: ... */
	uint64_t read_err_off;		/* ...at this file offset */
	struct spe_decoder dec;
	struct spe_dw_buf cur;
};

struct chan {
	struct spe_dw_buf *bufs;
	uint32_t nbufs;
	/* As of the last published batch: read and written by the claim's
	 * holder only, who decodes from a copy. */
	struct fill_state st;
	struct aux_window win;		/* what st.dec reads: moved by prepare() */
	struct batch slot[NR_SLOTS];	/* .items: swapped by the consumer only */
	struct spe_dw_item *spare;	/* the consumer's, for a batch it takes over */
	/* Shared, atomic; a cache line of their own, apart from what the
	 * consumer writes per item. */
	alignas(64) uint32_t filled, consumed;	/* batches written / given back */
	uint32_t claim;			/* CLAIM_* */
	bool finished;			/* the last batch is published */
	bool spare_busy;		/* a worker that lost a batch still writes the spare */
	/* The consumer's own: */
	alignas(64) uint32_t pos;	/* next item in batch `consumed` */
	bool exhausted;
};

struct spe_dw {
	pthread_mutex_t lock;		/* only for the consumer's sleep */
	pthread_cond_t ready;		/* the consumer waits for a batch */
	bool waiting;			/* the consumer asleep or about to be */
	bool quit;
	struct chan *ch;
	uint32_t nq;
	pthread_t *threads;
	unsigned nthreads;
	bool (*idle_work)(void *ctx);	/* the caller's, when nothing to fill */
	void *idle_ctx;
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

/*
 * Decodes up to BATCH items of queue q from state c into items, exactly as
 * the sequential decoder walks the buffers; returns how many, *last when
 * the queue ends after them.  The batch ends early where the window must
 * be read on (a new buffer, or the decoder asks for more): prepare() does
 * that before the next batch.
 */
static uint32_t fill(const struct chan *q, struct fill_state *c, struct spe_dw_item *items,
		     bool *last, bool by_worker)
{
	uint32_t n = 0;

	*last = false;
	(void)by_worker;
	while (n < BATCH) {
		struct spe_dw_item *it = &items[n];
		int ret;

		DW_TEST_FILL_HOOK(by_worker, n);

		if (c->read_errno) {
			/* The queue ends with the failed read. */
			it->kind = SPE_DW_READ_FAILED;
			it->read_errno = c->read_errno;
			it->error_file_off = c->read_err_off;
			c->read_errno = 0;
			c->active = false;
			c->next_buf = q->nbufs;
			*last = true;
			return n + 1;
		}
		if (!c->active) {
			*last = c->next_buf == q->nbufs;
			return n;
		}
		if (c->want_more)
			return n;
		ret = spe_decoder_next(&c->dec, &it->rec);
		if (ret == SPE_ERR_MORE) {
			c->want_more = true;
			return n;
		}
		if (ret == 0) {
			c->active = false;
			continue;
		}
		it->data_off = c->cur.data_off;
		it->aux_off = c->cur.aux_off;
		if (ret == 1) {
			it->kind = SPE_DW_RECORD;
		} else {
			it->kind = SPE_DW_PARTIAL;
			if (it->rec.end == SPE_REC_END_ERROR)
				it->error_file_off = c->cur.data_off +
					(spe_decoder_error_offset(&c->dec) - c->cur.aux_off);
		}
		n++;
	}
	return n;
}

/*
 * Reads what queue c's next batch needs into its window: the start of its
 * next buffer, or more of the current one.  Called by the claim's holder
 * before anyone can take the batch over; returns false while a worker that
 * lost a batch may still read the window (the caller lets go and retries).
 */
static bool prepare(struct chan *c)
{
	struct fill_state *st = &c->st;
	int err;

	if (st->active ? !st->want_more : st->next_buf == c->nbufs)
		return true;
	if (LOAD(&c->spare_busy, ACQUIRE))
		return false;
	if (!st->active) {
		st->cur = c->bufs[st->next_buf++];
		st->active = true;
		err = aux_window_begin(&c->win, &st->dec, st->cur.data_off, st->cur.size,
				       st->cur.aux_off);
	} else {
		st->want_more = false;
		err = aux_window_advance(&c->win, &st->dec);
	}
	if (err) {
		st->read_errno = c->win.err ? c->win.err : EIO;
		st->read_err_off = aux_window_file_offset(&c->win);
	}
	return true;
}

/*
 * Wakes whoever sleeps on cond, if flag says someone may.  The caller's
 * store before it and this load are sequentially consistent, as are the
 * sleeper's store of the flag and its check: one of the two sides sees the
 * other's store, so no wake-up is lost.
 */
static void wake_consumer(struct spe_dw *dw)
{
	if (!LOAD(&dw->waiting, SEQ_CST))
		return;
	pthread_mutex_lock(&dw->lock);
	pthread_cond_broadcast(&dw->ready);
	pthread_mutex_unlock(&dw->lock);
}

/* Publishes batch f of c, decoded from state st (the claim held). */
static void publish(struct spe_dw *dw, struct chan *c, uint32_t f, const struct fill_state *st,
		    uint32_t n, bool last, uint32_t release)
{
	struct batch *b = &c->slot[f % NR_SLOTS];

	c->st = *st;
	b->n = n;
	b->last = last;
	if (last) {
		c->st.done = true;
		STORE(&c->finished, true, RELEASE);
	}
	STORE(&c->filled, f + 1, SEQ_CST);
	STORE(&c->claim, release, SEQ_CST);
	wake_consumer(dw);
}

/*
 * Claims queue c and decodes its next batch if its ring has room.
 * Returns true if it decoded one.
 */
static bool try_fill(struct spe_dw *dw, struct chan *c, bool consumer)
{
	uint32_t f, w = LOAD(&c->claim, ACQUIRE), n;
	struct fill_state st;
	struct spe_dw_item *items;
	bool last;

	if ((w & CLAIM_HELD) || LOAD(&c->finished, ACQUIRE) ||
	    !__atomic_compare_exchange_n(&c->claim, &w, w | CLAIM_HELD, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return false;
	f = LOAD(&c->filled, RELAXED);	/* only the claim's holder writes it */
	if (c->st.done || f - LOAD(&c->consumed, ACQUIRE) >= NR_SLOTS || !prepare(c)) {
		STORE(&c->claim, w, RELEASE);
		return false;
	}
	st = c->st;
	items = c->slot[f % NR_SLOTS].items;
	if (consumer) {
		/* Nobody can take it from the consumer: decode in place. */
		n = fill(c, &st, items, &last, false);
		publish(dw, c, f, &st, n, last, w + CLAIM_EPOCH);
		return true;
	}
	/* From here on the consumer may take the batch over. */
	STORE(&c->claim, w | CLAIM_HELD | CLAIM_STEALABLE, SEQ_CST);
	n = fill(c, &st, items, &last, true);
	{
		uint32_t expect = w | CLAIM_HELD | CLAIM_STEALABLE;

		if (!__atomic_compare_exchange_n(&c->claim, &expect, (w + CLAIM_EPOCH) | CLAIM_HELD,
						 false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
			/* Taken over: what was written goes nowhere; the
			 * buffer is the consumer's spare again. */
			STORE(&c->spare_busy, false, SEQ_CST);
			wake_consumer(dw);
			return false;
		}
	}
	publish(dw, c, f, &st, n, last, w + CLAIM_EPOCH);
	return true;
}

/*
 * The consumer takes over the batch a stopped worker is decoding: decodes
 * it from the published state into its spare buffer and swaps that into
 * the slot.  Returns true if it did.
 */

static bool steal(struct spe_dw *dw, struct chan *c)
{
	uint32_t w = LOAD(&c->claim, SEQ_CST), f, n;
	struct fill_state st;
	struct spe_dw_item *items;
	bool last;

	if (!(w & CLAIM_STEALABLE) || LOAD(&c->spare_busy, ACQUIRE))
		return false;
	/* Marked before the claim changes hands, so that the loser's
	 * "let go" comes after it. */
	STORE(&c->spare_busy, true, SEQ_CST);
	if (!__atomic_compare_exchange_n(&c->claim, &w,
					 ((w & ~(CLAIM_EPOCH - 1)) + CLAIM_EPOCH) | CLAIM_HELD,
					 false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
		STORE(&c->spare_busy, false, RELAXED);
		return false;
	}
	f = LOAD(&c->filled, RELAXED);
	st = c->st;
	items = c->spare;
	c->spare = c->slot[f % NR_SLOTS].items;	/* the loser's, until it lets go */
	c->slot[f % NR_SLOTS].items = items;
	n = fill(c, &st, items, &last, false);
	publish(dw, c, f, &st, n, last, (w & ~(CLAIM_EPOCH - 1)) + CLAIM_EPOCH);
	DW_TEST_STEAL_HOOK();
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

		if (LOAD(&c->finished, RELAXED) || (LOAD(&c->claim, RELAXED) & CLAIM_HELD))
			continue;
		n = LOAD(&c->filled, ACQUIRE) - LOAD(&c->consumed, ACQUIRE);
		if (n < best_n) {
			best = c;
			best_n = n;
		}
	}
	return best;
}

/* The batches the merge has taken, all queues together. */
static uint64_t consumed_total(struct spe_dw *dw)
{
	uint64_t n = 0;

	for (uint32_t q = 0; q < dw->nq; q++)
		n += LOAD(&dw->ch[q].consumed, RELAXED);
	return n;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * How long a worker can nap before the merge may run out of batches: half
 * the time the merge takes for what the emptiest ring holds (rings being
 * refilled count as empty), at the pace it was seen to take batches -
 * which depends on the command (script formats every sample, report only
 * counts) and on how much of a core the merge gets.
 */
static long nap_ns(struct spe_dw *dw, uint64_t per_batch_ns)
{
	uint32_t least = NR_SLOTS;
	uint64_t ns;

	for (uint32_t q = 0; q < dw->nq; q++) {
		struct chan *c = &dw->ch[q];
		uint32_t n;

		if (LOAD(&c->finished, RELAXED))
			continue;
		n = (LOAD(&c->claim, RELAXED) & CLAIM_HELD) ? 0 :
		    LOAD(&c->filled, RELAXED) - LOAD(&c->consumed, RELAXED);
		if (n < least)
			least = n;
	}
	ns = least * per_batch_ns / 2;
	return ns < NAP_MIN_NS ? NAP_MIN_NS : ns > NAP_MAX_NS ? NAP_MAX_NS : (long)ns;
}

static void *worker(void *arg)
{
	struct spe_dw *dw = arg;
	uint64_t per_batch_ns = NAP_GUESS_NS;
	int idle = 0;

	while (!LOAD(&dw->quit, ACQUIRE)) {
		struct chan *c = pick(dw);

		if (c && try_fill(dw, c, false)) {
			idle = 0;
			continue;
		}
		/* Every ring full (or being filled): the caller's other work
		 * first, then polls, then a nap. */
		if (dw->idle_work && dw->idle_work(dw->idle_ctx)) {
			idle = 0;
			continue;
		}
		if (++idle < IDLE_SPINS) {
			spin_pause();
			continue;
		}
		/*
		 * Nothing to fill for a while: nap rather than wait to be
		 * woken, so that the consumer, the busier side, never makes
		 * a system call to wake a worker; when a worker naps too
		 * long the consumer decodes the batch itself.
		 */
		{
			uint64_t t0 = now_ns(), n0 = consumed_total(dw), dn;

			nanosleep(&(struct timespec){ .tv_nsec = nap_ns(dw, per_batch_ns) }, NULL);
			dn = consumed_total(dw) - n0;
			/* The merge's pace, smoothed; a nap in which it took
			 * nothing says only that a batch takes longer. */
			if (dn)
				per_batch_ns = (per_batch_ns + (now_ns() - t0) / dn) / 2;
			else
				per_batch_ns *= 2;
			if (per_batch_ns > NAP_MAX_NS)
				per_batch_ns = NAP_MAX_NS;
		}
		idle = 0;
	}
	return NULL;
}

const struct spe_dw_item *spe_dw_next(struct spe_dw *dw, uint32_t qi)
{
	struct chan *c = &dw->ch[qi];

	while (!c->exhausted) {
		uint32_t k = c->consumed;	/* only the consumer writes it */
		struct batch *b = &c->slot[k % NR_SLOTS];
		int spins = 0;

		if (LOAD(&c->filled, ACQUIRE) != k) {
			if (c->pos < b->n)
				return &b->items[c->pos++];
			/* Used up (or empty: a batch may end where the window
			 * is read on): give the slot back, then take the next. */
			c->pos = 0;
			c->exhausted = b->last;
			STORE(&c->consumed, k + 1, RELEASE);
			continue;
		}
		while (LOAD(&c->filled, ACQUIRE) == k) {
			/* Not decoded yet: decode it here if nobody is; if a
			 * worker is and takes long (stopped by the scheduler),
			 * take it over. */
			if (try_fill(dw, c, true))
				break;
			if (++spins < STEAL_SPINS || (spins < SPINS && !steal(dw, c))) {
				spin_pause();
				continue;
			}
			if (LOAD(&c->filled, ACQUIRE) != k)
				break;
			pthread_mutex_lock(&dw->lock);
			STORE(&dw->waiting, true, SEQ_CST);
			while (LOAD(&c->filled, SEQ_CST) == k && (LOAD(&c->claim, SEQ_CST) & CLAIM_HELD) &&
			       !((LOAD(&c->claim, SEQ_CST) & CLAIM_STEALABLE) &&
				 !LOAD(&c->spare_busy, SEQ_CST)))
				pthread_cond_wait(&dw->ready, &dw->lock);
			STORE(&dw->waiting, false, RELAXED);
			pthread_mutex_unlock(&dw->lock);
			spins = 0;
		}
	}
	return NULL;
}

void spe_dw_stop(struct spe_dw *dw)
{
	if (!dw)
		return;
	STORE(&dw->quit, true, RELEASE);
	for (unsigned i = 0; i < dw->nthreads; i++)
		pthread_join(dw->threads[i], NULL);
	for (uint32_t q = 0; dw->ch && q < dw->nq; q++) {
		for (int s = 0; s < NR_SLOTS; s++)
			free(dw->ch[q].slot[s].items);
		free(dw->ch[q].spare);
		free(dw->ch[q].bufs);
		aux_window_free(&dw->ch[q].win);
	}
	free(dw->ch);
	free(dw->threads);
	pthread_cond_destroy(&dw->ready);
	pthread_mutex_destroy(&dw->lock);
	free(dw);
}

int spe_dw_start(struct spe_dw **out, unsigned nthreads, uint32_t nq,
		 const struct spe_dw_buf *const *bufs, const uint32_t *nbufs,
		 int fd, size_t window, bool (*idle_work)(void *ctx), void *idle_ctx)
{
	struct spe_dw *dw = calloc(1, sizeof(*dw));

	*out = NULL;
	if (!dw)
		return SPE_ERR_NOMEM;
	dw->idle_work = idle_work;
	dw->idle_ctx = idle_ctx;
	pthread_mutex_init(&dw->lock, NULL);
	pthread_cond_init(&dw->ready, NULL);
	dw->nq = nq;
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
		if (c->nbufs && !(c->spare = malloc(BATCH * sizeof(struct spe_dw_item))))
			goto fail;
		if (c->nbufs && aux_window_init(&c->win, fd, window))
			goto fail;
		if (!c->nbufs)
			c->st.done = c->finished = c->exhausted = true;
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
