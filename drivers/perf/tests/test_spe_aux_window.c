// SPDX-License-Identifier: GPL-2.0
/*
 * Profiling Buffer window inside the perf AUX buffer (DDI 0586A §3.4.1,
 * §3.5.2), from the driver's spe_aux_window.c, driven the way spe_aux.c
 * drives it: PAD answers are carried out with perf_aux_output_skip()
 * semantics until a LIMIT or FULL answer.
 */
#include <stdlib.h>
#include <string.h>

#include "spe_aux_window.h"
#include "tap.h"

#define PAGE	4096ull

struct handle {
	u64 head, size, wakeup, watermark;
	u64 padded;		/* bytes zeroed */
	unsigned int steps;
};

/* perf_aux_output_skip(): consume bytes, move the wakeup past them. */
static void skip(struct handle *h, u64 len)
{
	h->head += len;
	h->size -= len;
	while (h->wakeup <= h->head)
		h->wakeup += h->watermark;
}

/* Run the driver's loop; returns the final step. */
static struct spe_aux_step run(const struct spe_aux_geom *g, struct handle *h)
{
	struct spe_aux_step s;
	struct spe_aux_pos p;

	for (h->steps = 0; h->steps < 8; h->steps++) {
		p.head = h->head;
		p.size = h->size;
		p.wakeup = h->wakeup;
		spe_aux_next(g, &p, &s);
		if (s.kind != SPE_AUX_PAD)
			return s;
		h->padded += s.len;
		if (g->snapshot)
			h->head = s.new_head;
		else
			skip(h, s.len);
	}
	return s;
}

static struct spe_aux_geom geom(u64 pages, u32 align, u32 max_record)
{
	struct spe_aux_geom g = {
		.buf_size = pages * PAGE, .page_size = PAGE, .align = align,
		.max_record = max_record, .snapshot = false,
	};
	return g;
}

static void test_basic(void)
{
	struct spe_aux_geom g = geom(16, 1, 64);
	struct handle h = { 0, 16 * PAGE, 1ull << 40, 16 * PAGE, 0, 0 };
	struct spe_aux_step s = run(&g, &h);

	CHECK(s.kind == SPE_AUX_LIMIT && s.limit == 16 * PAGE && h.head == 0,
	      "empty buffer: PMBPTR at start, PMBLIMITR at the end");

	h = (struct handle){ 0, 16 * PAGE, 5000, 8 * PAGE, 0, 0 };
	s = run(&g, &h);
	CHECK_EQ(s.limit, 2 * PAGE, "limit is the page boundary after the wakeup");

	h = (struct handle){ 0, 10000, 1ull << 40, 1ull << 40, 0, 0 };
	s = run(&g, &h);
	CHECK_EQ(s.limit, 2 * PAGE, "limit stops at the page below the tail");

	h = (struct handle){ 4 * PAGE, 3000, 1ull << 40, 1ull << 40, 0, 0 };
	s = run(&g, &h);
	CHECK(s.kind == SPE_AUX_FULL && s.len == 3000,
	      "less than a page before the tail: FULL, the rest is padded");
}

static void test_alignment(void)
{
	struct spe_aux_geom g = geom(16, 64, 64);
	struct handle h = { 100, 8 * PAGE, 1ull << 40, 1ull << 40, 0, 0 };
	struct spe_aux_step s = run(&g, &h);

	CHECK_EQ(h.head, 128, "§3.4.1 PMBPTR padded up to 2^PMBIDR.Align");
	CHECK_EQ(h.padded, 28, "alignment padding is the distance to the boundary");
	CHECK(s.kind == SPE_AUX_LIMIT, "aligned head then gets a window");

	h = (struct handle){ 100, 10, 1ull << 40, 1ull << 40, 0, 0 };
	s = run(&g, &h);
	CHECK(s.kind == SPE_AUX_FULL && h.padded == 10,
	      "alignment padding never exceeds the free space");
}

static void test_end_of_buffer(void)
{
	struct spe_aux_geom g = geom(4, 1, 64);
	struct handle h = { 4 * PAGE - 32, 4 * PAGE - 32, 1ull << 40, 1ull << 40, 0, 0 };
	struct spe_aux_step s = run(&g, &h);

	CHECK_EQ(h.padded, 32, "less than a record before the end: pad to the end");
	CHECK(s.kind == SPE_AUX_LIMIT && h.head % g.buf_size == 0,
	      "then wrap to the start of the buffer");
	CHECK_EQ(s.limit, 4 * PAGE - PAGE,
		 "after wrapping, the limit is the page below the tail");
}

/* Exactly one largest record of room before the end is enough: the
 * window reaches the end, nothing is padded (DDI 0586A §3.4.1). */
static void test_exactly_one_record_left(void)
{
	struct spe_aux_geom g = geom(4, 1, 64);
	struct handle h = { 4 * PAGE - 64, 4 * PAGE - 64, 1ull << 40, 1ull << 40, 0, 0 };
	struct spe_aux_step s = run(&g, &h);

	CHECK(s.kind == SPE_AUX_LIMIT && h.padded == 0 && h.head == 4 * PAGE - 64 &&
	      s.limit == 4 * PAGE,
	      "room for exactly one largest record before the end: no padding, window to the end");

	g = geom(8, 1, 64);
	g.snapshot = true;
	h = (struct handle){ 4 * PAGE - 64, 0, 0, 0, 0, 0 };
	s = run(&g, &h);
	CHECK(s.kind == SPE_AUX_LIMIT && h.padded == 0 && s.limit == 4 * PAGE,
	      "snapshot: room for exactly one largest record before the half: no padding");

	/* Unaligned, 8 bytes before the end: the padding is the same whether
	 * it is seen as alignment or as no room; the head wraps to 0. */
	g.align = 64;
	h = (struct handle){ 8 * PAGE - 8, 0, 0, 0, 0, 0 };
	s = run(&g, &h);
	CHECK(s.kind == SPE_AUX_LIMIT && h.padded == 8 && h.head == 0 && s.limit == 4 * PAGE,
	      "snapshot: an unaligned head just before the end pads to the end and wraps to 0");
}

static void test_wakeup_at_head(void)
{
	struct spe_aux_geom g = geom(8, 1, 64);
	struct handle h = { 2 * PAGE, 6 * PAGE, 2 * PAGE, 2 * PAGE, 0, 0 };
	struct spe_aux_step s = run(&g, &h);

	CHECK(s.kind == SPE_AUX_LIMIT && s.limit == 3 * PAGE,
	      "a wakeup due at a page-aligned head still leaves one page");
}

static void test_snapshot(void)
{
	struct spe_aux_geom g = geom(8, 1, 64);
	struct handle h = { 0, 0, 0, 0, 0, 0 };
	struct spe_aux_step s;

	g.snapshot = true;
	s = run(&g, &h);
	CHECK(s.kind == SPE_AUX_LIMIT && s.limit == 4 * PAGE,
	      "snapshot: the first half is the window");

	h.head = 4 * PAGE - 16;
	h.padded = 0;
	s = run(&g, &h);
	CHECK(s.kind == SPE_AUX_LIMIT && h.head == 4 * PAGE && s.limit == 8 * PAGE,
	      "snapshot: near the half, pad over and use the second half");
	CHECK_EQ(h.padded, 16, "snapshot: the padding zeroes exactly the bytes up to the half");

	h.head = 8 * PAGE - 16;
	h.padded = 0;
	s = run(&g, &h);
	CHECK(s.kind == SPE_AUX_LIMIT && h.head == 0 && s.limit == 4 * PAGE,
	      "snapshot: near the end, wrap to the first half");
	CHECK_EQ(h.padded, 16, "snapshot: the padding zeroes exactly the bytes up to the end");

	g.align = 64;
	h.head = 1000;
	h.padded = 0;
	s = run(&g, &h);
	CHECK(h.head == 1024 && s.kind == SPE_AUX_LIMIT,
	      "snapshot: head realigned after a buffer full event");
	CHECK_EQ(h.padded, 24, "snapshot: the realignment zeroes exactly the 24 bytes skipped");

	/* The same in a later lap of the ring: head indexes keep growing. */
	h.head = 3 * 8 * PAGE + 1000;
	h.padded = 0;
	s = run(&g, &h);
	CHECK(h.head == 3 * 8 * PAGE + 1024 && h.padded == 24 && s.kind == SPE_AUX_LIMIT,
	      "snapshot: realignment in a later lap keeps the lap in the head index");
}

static void test_large_buffer(void)
{
	struct spe_aux_geom g = geom(1ull << 20, 1, 64);	/* 4 GiB */
	u64 head = (3ull << 30) + 100;
	struct handle h = { head, (1ull << 30) - 100 + (1ull << 29), 1ull << 50,
			    1ull << 50, 0, 0 };
	struct spe_aux_step s = run(&g, &h);

	CHECK(s.kind == SPE_AUX_LIMIT && s.limit == 4ull << 30,
	      "4 GiB buffer: a window above 2 GiB ends at the 4 GiB end");
	h.head = (5ull << 32) + (1ull << 31);	/* fifth lap, 2 GiB in */
	h.size = 1ull << 30;
	s = run(&g, &h);
	CHECK(s.kind == SPE_AUX_LIMIT && s.limit == (1ull << 31) + (1ull << 30),
	      "free-running head beyond 2^32 maps into the buffer");
}

/*
 * Random handle states: whatever the answer, the window must respect
 * every rule of the profiling buffer and of perf's ring.
 */
static void test_random_states(void)
{
	unsigned int n, bad = 0, seed = 12345;

	for (n = 0; n < 20000; n++) {
		u64 pages = 2 + (seed = seed * 1103515245u + 12345u) % 63;
		u32 align = 1u << ((seed >> 8) % 12);
		u32 rec = 1u << (4 + (seed >> 12) % 7);
		struct spe_aux_geom g = geom(pages, align, rec);
		struct handle h;
		struct spe_aux_step s;
		u64 off;

		seed = seed * 1103515245u + 12345u;
		h.head = ((u64)seed << 7) + seed % 4096;
		seed = seed * 1103515245u + 12345u;
		h.size = seed % (g.buf_size + 1);
		seed = seed * 1103515245u + 12345u;
		h.watermark = PAGE * (1 + seed % pages);
		h.wakeup = h.head + seed % (2 * g.buf_size);
		h.padded = 0;
		{
			u64 start_free = h.size, start_head = h.head;

			s = run(&g, &h);
			off = h.head % g.buf_size;
			if (h.steps >= 8)
				bad++;
			else if (h.head - start_head != h.padded ||
				 h.padded > start_free)
				bad++;
			else if (s.kind == SPE_AUX_LIMIT &&
				 (off % align || s.limit % PAGE ||
				  s.limit > g.buf_size || s.limit <= off ||
				  s.limit - off < rec || s.limit - off > h.size))
				bad++;
		}
	}
	CHECK_EQ(bad, 0, "20000 random states: aligned PMBPTR, page-granular limit, room for a record, never past the free space");
}

int main(void)
{
	test_basic();
	test_alignment();
	test_exactly_one_record_left();
	test_end_of_buffer();
	test_wakeup_at_head();
	test_snapshot();
	test_large_buffer();
	test_random_states();
	return tap_done();
}
