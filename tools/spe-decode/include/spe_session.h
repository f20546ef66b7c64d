/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A decode session over one perf.data (lib/session.c) and its decode
 * queues (lib/aux_queue.c): the SPE records of every AUX buffer in time
 * order, with the sideband perf gives them (perf.data-file-format.txt,
 * perf arm-spe.c).
 */
#ifndef SPE_SESSION_H
#define SPE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spe_data_source.h"
#include "spe_perf_data.h"

struct spe_record;
struct spe_session;

/* A record as it comes out of the queues, with the context perf gives it. */
struct spe_qrecord {
	const struct spe_record *rec;
	uint64_t time;			/* perf time (ns) */
	int32_t cpu;			/* -1 in per-thread recordings */
	int32_t pid, tid;		/* -1 when unknown */
	uint64_t midr;			/* of the recording CPU */
	enum spe_ds_table ds_table;
	uint32_t queue;
	uint64_t file_offset;		/* of the record's first byte */
	uint64_t seq;			/* 1, 2, ... in delivery order */
};

/* Counters reported at the end. */
struct spe_session_stats {
	uint64_t auxtrace_records, aux_bytes;
	uint64_t aux_records, truncated, partial, collision, overwrite;
	uint64_t lost_records, lost_events;
	uint64_t records;		/* complete SPE records decoded */
	uint64_t partial_records;	/* cut by an error or the end of a buffer */
	uint64_t decode_errors;
	uint64_t first_decode_error_offset;	/* file offset */
	uint32_t nr_queues;
	/*
	 * What ties queues together: from the first record with a CONTEXT
	 * packet on (ctx_seen, at perf time ctx_time, 0 for a record without
	 * a time), context switches no longer name the threads, in every
	 * queue (perf's rule).  Sessions over sets of queues compare these
	 * to know whether each named its threads as one session would have:
	 * switch_applied says a switch named one, the last at perf time
	 * last_switch_time (0: a switch without a time).
	 */
	bool ctx_seen, switch_applied;
	uint64_t ctx_time, last_switch_time;
};

struct spe_session_config {
	/* Called for every complete record in timestamp order across queues
	 * (file input) or buffer by buffer (pipe input).  Non-zero stops. */
	int (*on_record)(void *ctx, const struct spe_qrecord *qr);
	/* Called for every perf.data record but AUXTRACE, after the SPE
	 * records that precede it in time (timed records are ordered as perf
	 * orders them, by FINISHED_ROUND); may be NULL. */
	int (*on_event)(void *ctx, const struct spe_perf_reader_event *ev);
	/* Called for every AUXTRACE record with its data (dump); may be NULL.
	 * In file input `data` is mapped from the file. */
	int (*on_auxtrace)(void *ctx, const struct spe_perf_reader_event *ev,
			   const uint8_t *data, uint64_t size);
	void *ctx;
	bool no_decode;			/* only the callbacks above, no records */
	/* Decoding threads (a file with an AUXTRACE index only), the
	 * caller's included: N > 1 starts N - 1 workers, and the caller
	 * decodes too when they are behind; 0 or 1 decode in the caller's
	 * thread alone.  The records come out the same. */
	unsigned threads;
	/* A stream's first bytes, already read by the caller (at most 16). */
	const void *head;
	size_t head_len;
	/*
	 * The AUX queues to decode: bit (idx % 64) of word idx / 64 set for
	 * queue idx (SPE_SESSION_QUEUE_WORDS words); NULL decodes them all.
	 * Every AUXTRACE record is counted either way.  A queue's records,
	 * pids and tids depend on its own data and the sideband alone, so
	 * sessions over disjoint sets of queues of one file can run side by
	 * side and their order-independent results be added up.
	 */
	const uint64_t *queue_set;
};

#define SPE_SESSION_MAX_QUEUES	4096
#define SPE_SESSION_QUEUE_WORDS	(SPE_SESSION_MAX_QUEUES / 64)

/* Opens the perf.data on fd (a file or perf's pipe format on a stream). */
int spe_session_open(struct spe_session **out, int fd, const struct spe_session_config *cfg);
/* Reads everything, delivering records and events.  On a reader error the
 * records queued before it are still delivered, then the error returns. */
int spe_session_run(struct spe_session *s);
/*
 * The bytes of AUX data each queue holds, from the file's AUXTRACE index:
 * bytes[idx] for idx < n (zeroed first).  Returns the number of queues
 * with data, 0 without an index (or from a pipe), or a negative error.
 */
int spe_session_queue_bytes(struct spe_session *s, uint64_t *bytes, uint32_t n);
void spe_session_close(struct spe_session *s);

const struct spe_session_stats *spe_session_stats(const struct spe_session *s);
/*
 * Did n sessions over disjoint sets of one file's queues, whose stats these
 * are, name every record's thread as one session over all of them would
 * have?  Not when one named a thread by a context switch at or after
 * another's first CONTEXT packet: one session stops listening to switches
 * there (perf's rule).  Times of 0 (a record or switch without one) count
 * as late.  When false, decode in one session.
 */
bool spe_session_split_agrees(const struct spe_session_stats *st, unsigned n);
const char *spe_session_errmsg(const struct spe_session *s);
struct spe_perf_reader *spe_session_reader(const struct spe_session *s);
/* The AUXTRACE_INFO seen (version 0 until then). */
const struct spe_auxtrace_info *spe_session_auxtrace_info(const struct spe_session *s);
/* The MIDR the data-source table is chosen by for this CPU. */
uint64_t spe_session_midr(const struct spe_session *s, int cpu);

#endif /* SPE_SESSION_H */
