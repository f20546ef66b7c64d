// SPDX-License-Identifier: GPL-2.0
/*
 * Profiling Buffer placement inside the perf AUX buffer.
 *
 * The driver calls spe_aux_next() repeatedly: while it answers PAD the
 * driver zeroes the bytes (perf's snapshot-wrap detection and the decoder
 * both treat zero as padding) and consumes them, then asks again; LIMIT
 * gives the window to program; FULL means no room for even one record.
 *
 * Rules (DDI 0586A §3.4.1, §3.5.2):
 *  - PMBPTR must be aligned to 2^PMBIDR.Align when the buffer is first
 *    configured, and at least one maximum-size record below the limit;
 *  - PMBLIMITR.LIMIT has page granularity and is one past the last byte;
 *  - never overwrite data user space has not consumed (the tail);
 *  - stop at the page after the wakeup index so the interrupt wakes the
 *    reader in time.
 */
#include "spe_aux_window.h"

u64 spe_aux_off(const struct spe_aux_geom *g, u64 idx)
{
	return idx % g->buf_size;
}

static u64 spe_round_down(u64 v, u64 a)
{
	return v - v % a;
}

static u64 spe_round_up(u64 v, u64 a)
{
	return spe_round_down(v + a - 1, a);
}

static u64 spe_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static void spe_step_pad(struct spe_aux_step *s, enum spe_aux_kind kind,
			 u64 len)
{
	s->kind = kind;
	s->len = len;
	s->limit = 0;
	s->new_head = 0;
}

/*
 * Overwrite mode: user space reads the buffer only after stopping it, and
 * records cannot be parsed backwards, so the unit fills one half at a time;
 * at worst the older half is lost, never all but one record.
 */
static void spe_aux_next_snapshot(const struct spe_aux_geom *g,
				  const struct spe_aux_pos *p,
				  struct spe_aux_step *s)
{
	u64 half = g->buf_size / 2;
	u64 head = spe_aux_off(g, p->head);
	u64 limit = head < half ? half : g->buf_size;
	u64 aligned = spe_round_up(head, g->align);

	/*
	 * The in-tree driver does not realign in this mode; after a buffer
	 * full event PMBPTR may sit anywhere, so pad to the alignment too.
	 */
	if (aligned != head && aligned < limit) {
		spe_step_pad(s, SPE_AUX_PAD, aligned - head);
		s->new_head = p->head + (aligned - head);
		return;
	}
	if (limit - head < g->max_record) {
		spe_step_pad(s, SPE_AUX_PAD, limit - head);
		s->new_head = spe_aux_off(g, limit);
		return;
	}
	s->kind = SPE_AUX_LIMIT;
	s->len = 0;
	s->limit = limit;
	s->new_head = p->head;
}

void spe_aux_next(const struct spe_aux_geom *g, const struct spe_aux_pos *p,
		  struct spe_aux_step *s)
{
	u64 head, tail, wake, limit, wake_limit, delta;

	if (g->snapshot) {
		spe_aux_next_snapshot(g, p, s);
		return;
	}

	/*
	 * The head is misaligned after a buffer full event (PMBPTR is left
	 * just after the last record) or after perf's space accounting left
	 * a byte free; pad to the next boundary (never past the free space).
	 */
	head = spe_aux_off(g, p->head);
	delta = spe_round_up(head, g->align) - head;
	if (delta && p->size) {
		spe_step_pad(s, SPE_AUX_PAD, spe_min_u64(delta, p->size));
		return;
	}
	if (!p->size) {
		spe_step_pad(s, SPE_AUX_FULL, 0);
		return;
	}

	/*
	 * head == tail with space left means an empty buffer; head > tail
	 * means the free space wraps, so the end of the buffer is the limit.
	 */
	tail = spe_aux_off(g, p->head + p->size);
	limit = g->buf_size;
	if (head < tail)
		limit = spe_round_down(tail, g->page_size);

	/*
	 * A wakeup due before the free space runs out, and in this lap of
	 * the buffer, moves the limit to the page boundary after it.  Unlike
	 * the in-tree driver, a wakeup at the head on a page boundary still
	 * leaves one page to write instead of reporting no space.
	 */
	wake = spe_aux_off(g, p->wakeup);
	if (p->wakeup < p->head + p->size && head <= wake) {
		wake_limit = spe_round_up(wake, g->page_size);
		if (wake_limit <= head)
			wake_limit = spe_round_down(head, g->page_size) +
				     g->page_size;
		limit = spe_min_u64(limit, wake_limit);
	}

	if (limit <= head) {
		/* The free space is a partial page before the tail. */
		spe_step_pad(s, SPE_AUX_FULL, p->size);
		return;
	}

	/*
	 * Less than a record before the limit: a record could not be
	 * written, so skip to the limit (the end of the buffer, the wakeup
	 * page or the tail) and try again from there.
	 */
	if (limit - head < g->max_record) {
		spe_step_pad(s, SPE_AUX_PAD, spe_min_u64(limit - head, p->size));
		return;
	}

	s->kind = SPE_AUX_LIMIT;
	s->len = 0;
	s->limit = limit;
	s->new_head = p->head;
}
