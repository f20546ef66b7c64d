// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests for lib/decode_workers.c: the items of every queue, decoded
 * by worker threads, come out exactly as the sequential decoder gives them
 * - also when workers stop in the middle of batches and the consumer takes
 * those batches over, and when the data is read through windows smaller
 * than a buffer, which only a batch's start may move on.
 *
 * The file is included with test hooks: a worker can be made to stall in
 * a batch, and the consumer's take-overs are counted.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "spe_decode.h"
#include "spe/packet.h"
#include "tap.h"
#include "support/temp_file.h"

static atomic_int stall_every;		/* a worker stalls in 1 batch of N (0: never) */
static atomic_uint fills, steals;

static void stall(bool by_worker, uint32_t n)
{
	if (!by_worker || n != 7 || !atomic_load(&stall_every))
		return;
	if (atomic_fetch_add(&fills, 1) % (unsigned)atomic_load(&stall_every) == 0)
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
}

#define DW_TEST_FILL_HOOK(by_worker, n)	stall((by_worker), (n))
#define DW_TEST_STEAL_HOOK()		atomic_fetch_add(&steals, 1)
#include "../lib/decode_workers.c"

#define NQ		3
#define RECS		20000	/* per buffer: several hundred batches, and
				 * several windows of AUX_WINDOW_MIN */
#define NBUF		2	/* buffers per queue */
#define REC_BYTES	21

/* One record: PC, total latency, timestamp (its end); REC_BYTES bytes,
 * and 9 more with an IMPLEMENTATION DEFINED address (index 6) first. */
static size_t put_record(uint8_t *p, uint64_t pc, uint16_t lat, uint64_t ts, bool impdef)
{
	size_t n = 0;

	if (impdef) {
		p[n++] = 0xb6;
		memcpy(p + n, &ts, 8);
		n += 8;
	}
	p[n++] = 0xb0;				/* Address, index 0: PC */
	memcpy(p + n, &pc, 8);
	n += 8;
	p[n++] = 0x98;				/* Counter, index 0: total */
	memcpy(p + n, &lat, 2);
	n += 2;
	p[n++] = SPE_HDR_TIMESTAMP;
	memcpy(p + n, &ts, 8);
	return n + 8;
}

struct item { struct spe_record rec; uint64_t data_off, error_off; uint8_t kind; uint32_t end; };

/* What the sequential decoder gives for queue q's buffers. */
static size_t reference(const uint8_t *map, const struct spe_dw_buf *bufs, struct item *out)
{
	size_t n = 0;

	for (int b = 0; b < NBUF; b++) {
		struct spe_decoder dec;
		struct spe_record rec;
		int ret;

		spe_decoder_init(&dec, NULL, map + bufs[b].data_off, (size_t)bufs[b].size,
				 bufs[b].aux_off);
		while ((memset(&rec, 0, sizeof(rec)), ret = spe_decoder_next(&dec, &rec)) != 0) {
			out[n] = (struct item){ .rec = rec, .data_off = bufs[b].data_off,
						.kind = ret == 1 ? SPE_DW_RECORD : SPE_DW_PARTIAL,
						.end = rec.end };
			if (ret != 1 && rec.end == SPE_REC_END_ERROR)
				out[n].error_off = bufs[b].data_off +
					(spe_decoder_error_offset(&dec) - bufs[b].aux_off);
			n++;
		}
	}
	return n;
}

static bool same(const struct spe_dw_item *it, const struct item *want)
{
	const struct spe_record *rec = &it->rec;

	if (it->kind != want->kind || it->data_off != want->data_off)
		return false;
	if (it->kind == SPE_DW_PARTIAL)
		return rec->end == want->end &&
		       (rec->end != SPE_REC_END_ERROR || it->error_file_off == want->error_off);
	/* The fields its packets fill; the others are undefined. */
	return rec->offset == want->rec.offset && rec->size == want->rec.size &&
	       rec->present == want->rec.present && rec->end == want->rec.end &&
	       rec->pc.addr == want->rec.pc.addr && rec->pc.el == want->rec.pc.el &&
	       rec->pc.ns == want->rec.pc.ns && rec->lat_total == want->rec.lat_total &&
	       rec->timestamp == want->rec.timestamp && rec->n_unknown == want->rec.n_unknown &&
	       rec->n_packets == want->rec.n_packets &&
	       rec->n_impdef_addr == want->rec.n_impdef_addr &&
	       rec->n_impdef_cnt == want->rec.n_impdef_cnt &&
	       (!want->rec.n_impdef_addr ||
		(rec->impdef_addr[0].index == want->rec.impdef_addr[0].index &&
		 rec->impdef_addr[0].value == want->rec.impdef_addr[0].value));
}

/* Runs nthreads workers over the file and checks every queue's items,
 * read round-robin as the merge reads them. */
static void run(const char *what, int fd, struct spe_dw_buf bufs[NQ][NBUF],
		struct item *want[NQ], const size_t nwant[NQ], unsigned nthreads)
{
	const struct spe_dw_buf *bp[NQ];
	uint32_t nb[NQ];
	size_t got[NQ] = { 0 };
	bool done[NQ] = { false }, ok = true;
	struct spe_dw *dw;
	char name[160];
	int left = NQ;

	for (int q = 0; q < NQ; q++) {
		bp[q] = bufs[q];
		nb[q] = NBUF;
	}
	CHECK_EQ(spe_dw_start(&dw, nthreads, NQ, bp, nb, fd, AUX_WINDOW_MIN, NULL, NULL), 0, "workers start");
	if (!dw)
		return;
	while (left && ok) {
		for (int q = 0; q < NQ; q++) {
			const struct spe_dw_item *it;

			if (done[q])
				continue;
			it = spe_dw_next(dw, q);
			if (!it) {
				done[q] = true;
				left--;
				continue;
			}
			if (got[q] >= nwant[q] || !same(it, &want[q][got[q]]))
				ok = false;
			/* A consumer slower than the workers, now and then, so
			 * that they fill ahead (and stall in batches it needs). */
			if (++got[q] % 512 == 0)
				nanosleep(&(struct timespec){ .tv_nsec = 300000 }, NULL);
		}
	}
	spe_dw_stop(dw);
	for (int q = 0; q < NQ; q++)
		ok = ok && got[q] == nwant[q];
	snprintf(name, sizeof(name), "%s: every queue's records, partial records and errors as decoded sequentially",
		 what);
	CHECK(ok, name);
}

int main(void)
{
	size_t cap = (size_t)NQ * NBUF * (RECS * (REC_BYTES + 9) + 64), len = 0;
	uint8_t *data = calloc(1, cap), *map;
	struct spe_dw_buf bufs[NQ][NBUF];
	struct item *want[NQ];
	size_t nwant[NQ];
	int fd = test_temp_fd();

	for (int q = 0; q < NQ; q++)
		for (int b = 0; b < NBUF; b++) {
			size_t start = len;

			for (int r = 0; r < RECS; r++)
				len += put_record(data + len, (0x400000 + 4 * (uint64_t)r) | 1ull << 63 |
						  (uint64_t)(r & 3) << 61, (uint16_t)r,
						  1000 + (uint64_t)(b * RECS + r), r % 97 == 5);
			bufs[q][b] = (struct spe_dw_buf){ .data_off = start, .size = len - start,
							  .aux_off = (uint64_t)b << 20 };
		}
	/* Queue 1: a bad 16-bit header mid-buffer, and a record cut at its
	 * buffer's end. */
	{
		size_t at = bufs[1][0].data_off;

		for (int r = 0; r < 1000; r++)	/* record 1000's first byte */
			at += REC_BYTES + (r % 97 == 5 ? 9 : 0);
		data[at] = 0x20;
		data[at + 1] = 0x20;
	}
	bufs[1][1].size -= 5;
	if (write(fd, data, len) != (ssize_t)len)
		abort();
	/* The reference decodes the whole file through a mapping; the
	 * workers read it through windows. */
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		abort();
	for (int q = 0; q < NQ; q++) {
		want[q] = malloc(NBUF * RECS * sizeof(**want));
		nwant[q] = reference(map, bufs[q], want[q]);
	}
	{
		size_t errors = 0, cut = 0;

		for (size_t i = 0; i < nwant[1]; i++) {
			errors += want[1][i].kind == SPE_DW_PARTIAL && want[1][i].end == SPE_REC_END_ERROR;
			cut += want[1][i].kind == SPE_DW_PARTIAL &&
			       want[1][i].end == SPE_REC_END_TRUNCATED;
		}
		CHECK(errors && cut, "the damaged queue has a record with an error and a cut one");
	}

	run("1 worker", fd, bufs, want, nwant, 1);
	run("3 workers", fd, bufs, want, nwant, 3);
	atomic_store(&stall_every, 3);
	run("workers stalled in one batch of 3", fd, bufs, want, nwant, 2);
	CHECK(atomic_load(&steals) > 0, "the consumer took over batches of stalled workers");
	{
		size_t with = 0;

		for (size_t i = 0; i < nwant[0]; i++)
			with += want[0][i].rec.n_impdef_addr == 1;
		CHECK(with > 100, "records with IMPLEMENTATION DEFINED values were among them");
	}

	for (int q = 0; q < NQ; q++)
		free(want[q]);
	munmap(map, len);
	free(data);
	close(fd);
	return tap_done();
}
