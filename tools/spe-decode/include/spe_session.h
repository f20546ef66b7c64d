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

/*
 * A part of one queue: the AUX data of queue `queue` from byte `from` up
 * to byte `to`, counting the data of its AUXTRACE records end to end, in
 * the order of the file's AUXTRACE index (or of the records without one).
 */
struct spe_session_cut {
	uint32_t queue;
	uint64_t from, to;
};

#define SPE_SESSION_MAX_CUTS	2

/*
 * What a session saw at the ends of its part of a queue, to tell whether
 * the parts, decoded apart, gave what decoding the queue whole gives
 * (spe_session_cuts_join()).  A queue's records carry two things from one
 * to the next: the thread its last CONTEXT packet named, and its newest
 * timestamp, which places its records among the sideband.
 */
struct spe_session_cut_state {
	bool records;		/* the part gave a complete record */
	bool first_ctx;		/* its first record had a CONTEXT packet */
	/*
	 * That record was delivered before the sideband record at this
	 * time, the first timed after it (in SPE timestamps; UINT64_MAX:
	 * after all of them).  Whole, it would have been delivered at the
	 * first one timed after the newest timestamp of the parts before.
	 */
	uint64_t first_limit;
	/*
	 * The part ended where a record did: its end is the end of an
	 * AUXTRACE buffer (records are never stitched across buffers), or
	 * its last record, complete, ended right there.  Then that end is a
	 * record boundary of the whole queue too, and the next part, which
	 * starts there, decodes as the whole queue would.
	 */
	bool clean_end;
	int32_t last_ctx_tid;	/* after the part: -1 when none named one */
	uint64_t last_ts;	/* the newest timestamp seen, 0: none */
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
	 * queue (perf's rule).  Sessions over parts of a file compare these
	 * to know whether each named its threads as one session would have:
	 * switch_applied says a record took its thread from a switch (or a
	 * switch taught a thread's process), the latest such switch at perf
	 * time last_switch_time (UINT64_MAX: one without a time).
	 */
	bool ctx_seen, switch_applied;
	uint64_t ctx_time, last_switch_time;
	/* How each of the config's cuts began and ended (see there). */
	struct spe_session_cut_state cut[SPE_SESSION_MAX_CUTS];
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
	/*
	 * Other work for the decoding threads, done while every queue is
	 * decoded as far ahead as it may be (script writes its output
	 * there): returns whether it found some.  Workers may call it at
	 * the same time.  NULL: none.
	 */
	bool (*idle_work)(void *ctx);
	void *idle_ctx;
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
	/*
	 * Parts of queues (file input): of each cut's queue, which
	 * queue_set must select, only the part from..to is decoded, and
	 * stats.cut[i] says how cuts[i] began and ended.  A cut inside a
	 * buffer must fall where a record starts (spe_session_cut_point()
	 * finds such a place); whether it did is known only after the run,
	 * from the stats of the sessions on either side of it.  A queue
	 * whose part does not start at 0 is not counted in nr_queues.
	 */
	const struct spe_session_cut *cuts;
	unsigned nr_cuts;		/* at most SPE_SESSION_MAX_CUTS */
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
 * Did n sessions over disjoint parts of one file's queues, whose stats
 * these are, name every record's thread as one session over all of them
 * would have?  Not when one named a thread by a context switch (or learnt
 * a thread's process from one) at or after another's first CONTEXT
 * packet: one session stops listening to switches there (perf's rule).  A
 * record or switch without a time counts as late.  When false, decode in
 * one session.
 */
bool spe_session_split_agrees(const struct spe_session_stats *st, unsigned n);
/*
 * A place near byte `near` of queue `queue`'s AUX data where a record
 * starts, for a cut: the end of the AUXTRACE buffer holding that byte if
 * it is close, else the first place at or after it, in the next
 * SPE_SESSION_CUT_SEARCH bytes, right after an End byte or a Timestamp
 * packet, from which whole records decode.  Payload bytes can look like
 * either, so the place is a guess until the parts on either side of it
 * were decoded (spe_session_cuts_join()).  Reads the file's AUXTRACE
 * index and data.  Returns 0 with *at set (the queue's byte count when
 * near is past its end), or a negative error (no index: SPE_ERR_INVAL).
 */
#define SPE_SESSION_CUT_SEARCH	65536u
int spe_session_cut_point(struct spe_session *s, uint32_t queue, uint64_t near, uint64_t *at);
/*
 * Did the n parts of one queue, in order, each decoded by a session of
 * its own, give what one session decoding the queue whole gives?  Yes
 * when every part but the last ended cleanly, and every part with records
 * began as if the parts before it had been decoded in the same session:
 * its first record named its thread itself (or no thread was named
 * before it), and no sideband record is timed between its first record
 * and the newest timestamp before it, so its records met the sideband
 * where they would have.
 */
bool spe_session_cuts_join(const struct spe_session_cut_state *parts, unsigned n);
const char *spe_session_errmsg(const struct spe_session *s);
struct spe_perf_reader *spe_session_reader(const struct spe_session *s);
/* The AUXTRACE_INFO seen (version 0 until then). */
const struct spe_auxtrace_info *spe_session_auxtrace_info(const struct spe_session *s);
/* The MIDR the data-source table is chosen by for this CPU. */
uint64_t spe_session_midr(const struct spe_session *s, int cpu);

#endif /* SPE_SESSION_H */
