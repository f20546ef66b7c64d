/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * From SPE records to perf samples: time conversion, data-source tables,
 * decode queues and sample synthesis (perf.data-file-format.txt,
 * perf arm-spe.c).
 */
#ifndef SPE_PERF_SYNTH_H
#define SPE_PERF_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "spe_perf_data.h"

/* ---- Time conversion (lib/perf_time.c) ------------------------------------ */

/* SPE timestamp (generic-timer cycles) -> perf time in ns (perf_event.h). */
uint64_t spe_time_to_perf(const struct spe_time_conv *tc, uint64_t cyc);
/* perf time -> SPE timestamp, the inverse used to compare with sideband. */
uint64_t spe_perf_to_time(const struct spe_time_conv *tc, uint64_t ns);

/* ---- Data source (lib/data_source.c) -------------------------------------- */

/* Which IMPLEMENTATION DEFINED Data Source encoding a CPU uses. */
enum spe_ds_table {
	SPE_DS_TABLE_NONE = 0,		/* unknown CPU: derive from events only */
	SPE_DS_TABLE_COMMON,		/* Neoverse N1/N2/V1/V2, Cortex-A720/A725/X1C/X3/X925 */
	SPE_DS_TABLE_AMPEREONE,		/* AmpereOne */
};

enum spe_ds_table spe_ds_table_for_midr(uint64_t midr);
const char *spe_ds_table_name(enum spe_ds_table t);

/* What the data-source synthesis needs from a record. */
struct spe_ds_input {
	bool is_load, is_store;		/* Operation Type class 1, bit 0 */
	uint64_t events;		/* Events packet, SPE_EV_* */
	bool has_source;		/* a Data Source packet was present */
	uint16_t source;
};

/*
 * The perf_mem_data_src value perf gives a record (0 when the record is not
 * a load or store): perf 6.1's mapping for the common encoding, AmpereOne
 * mapped onto it as newer perf does, and the event bits (L1D/LLC access and
 * refill, TLB access and walk, remote) otherwise.
 */
uint64_t spe_perf_data_src(enum spe_ds_table t, const struct spe_ds_input *in);
/*
 * A perf_mem_data_src as perf script 6.1 prints it after the value:
 * "|OP LOAD|LVL L1 or L1 hit|SNP None|TLB Walker hit|LCK No|BLK  N/A".
 * Returns the length written (truncated to size - 1).
 */
size_t spe_data_src_describe(uint64_t data_src, char *buf, size_t size);


/* ---- Decode queues and time order (lib/aux_queue.c) ----------------------- */

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
};

struct spe_session_config {
	/* Called for every complete record in timestamp order across queues
	 * (file input) or buffer by buffer (pipe input).  Non-zero stops. */
	int (*on_record)(void *ctx, const struct spe_qrecord *qr);
	/* Called for every perf.data record but AUXTRACE, after the SPE
	 * records that precede it in time (timed records are ordered as perf
	 * orders them, by FINISHED_ROUND); may be NULL. */
	int (*on_event)(void *ctx, const struct spe_pdr_event *ev);
	/* Called for every AUXTRACE record with its data (dump); may be NULL.
	 * In file input `data` is mapped from the file. */
	int (*on_auxtrace)(void *ctx, const struct spe_pdr_event *ev,
			   const uint8_t *data, uint64_t size);
	void *ctx;
	bool no_decode;			/* only the callbacks above, no records */
	/* Decoding threads (a file with an AUXTRACE index only): 0 or 1
	 * decode in the caller's thread.  The records come out the same. */
	unsigned threads;
	/* A stream's first bytes, already read by the caller (at most 16). */
	const void *head;
	size_t head_len;
};

/* Opens the perf.data on fd (a file or perf's pipe format on a stream). */
int spe_session_open(struct spe_session **out, int fd, const struct spe_session_config *cfg);
/* Reads everything, delivering records and events.  On a reader error the
 * records queued before it are still delivered, then the error returns. */
int spe_session_run(struct spe_session *s);
void spe_session_close(struct spe_session *s);

const struct spe_session_stats *spe_session_stats(const struct spe_session *s);
const char *spe_session_errmsg(const struct spe_session *s);
struct spe_pdr *spe_session_reader(const struct spe_session *s);
/* The AUXTRACE_INFO seen (version 0 until then). */
const struct spe_auxtrace_info *spe_session_auxtrace_info(const struct spe_session *s);
/* The MIDR the data-source table is chosen by for this CPU. */
uint64_t spe_session_midr(const struct spe_session *s, int cpu);


/* ---- Sample synthesis (lib/sample_synth.c) -------------------------------- */

/* perf's sample groups for SPE, in the order perf synthesises them. */
enum spe_sample_kind {
	SPE_S_L1D_MISS,
	SPE_S_L1D_ACCESS,
	SPE_S_LLC_MISS,
	SPE_S_LLC_ACCESS,
	SPE_S_TLB_MISS,
	SPE_S_TLB_ACCESS,
	SPE_S_BRANCH,			/* "branch" (newer perf) / "branch-miss" (6.1) */
	SPE_S_REMOTE_ACCESS,
	SPE_S_MEMORY,
	SPE_S_INSTRUCTIONS,
	SPE_S_NR
};

/* --itrace options: which groups, and the instruction period. */
struct spe_itrace {
	bool want[SPE_S_NR];
	uint64_t period;		/* instructions: every period-th record */
	bool last_branch;		/* 'l': two-entry branch stack */
	bool branch_miss;		/* perf 6.1: only mispredicted, "branch-miss" */
};

/* perf's default: every group but instructions (whose default period is in
 * time units, which SPE cannot use). */
void spe_itrace_default(struct spe_itrace *o);
/* Parses perf's --itrace letters (i b f m t a M l, plus e/d/p... accepted
 * and ignored) and an optional period "<n>[i]".  Returns 0 or SPE_ERR_INVAL with
 * a reason in *why. */
int spe_itrace_parse(const char *s, struct spe_itrace *o, const char **why);
/* The event name perf gives a group. */
const char *spe_sample_name(const struct spe_itrace *o, enum spe_sample_kind k);
/* A group by either spelling of its name ("branch" and "branch-miss"
 * both name SPE_S_BRANCH); -1 if none. */
int spe_sample_kind_by_name(const char *name);

/* Branch flags of a sample (a subset of perf's PERF_IP_FLAG_*). */
#define SPE_BRF_BRANCH		(1u << 0)
#define SPE_BRF_CONDITIONAL	(1u << 1)
#define SPE_BRF_CALL		(1u << 2)
#define SPE_BRF_RETURN		(1u << 3)
#define SPE_BRF_INDIRECT	(1u << 4)
#define SPE_BRF_MISPRED		(1u << 5)
#define SPE_BRF_NOT_TAKEN	(1u << 6)

struct spe_branch_entry {
	uint64_t from, to;
	bool mispred;
};

struct spe_sample {
	enum spe_sample_kind kind;
	uint64_t time;
	int32_t cpu, pid, tid;
	uint64_t ip;
	uint16_t cpumode;		/* PERF_RECORD_MISC_USER / _KERNEL / _HYPERVISOR */
	uint64_t addr, phys_addr, data_src;
	uint32_t weight;		/* total latency, as perf */
	uint16_t issue_lat, xlat_lat;	/* what perf drops */
	uint64_t period;
	uint32_t flags;			/* SPE_BRF_* */
	uint32_t nr_branches;
	struct spe_branch_entry branches[2];
	const struct spe_qrecord *qr;
};

/* Per-queue state of the synthesis (instruction period counters). */
struct spe_synth {
	struct spe_itrace opts;
	uint64_t *insn_count;		/* per queue */
	uint32_t nr_counts;
};

int spe_synth_init(struct spe_synth *sy, const struct spe_itrace *opts);
void spe_synth_free(struct spe_synth *sy);
/* Calls emit for each sample perf would synthesise from qr, in perf's
 * order; stops at emit's first non-zero return and returns it. */
int spe_synth_record(struct spe_synth *sy, const struct spe_qrecord *qr,
		     int (*emit)(void *ctx, const struct spe_sample *s), void *ctx);


/* ---- Symbolisation (lib/symbols.c) ---------------------------------------- */

struct spe_symbols;

struct spe_sym_config {
	const char *kallsyms;		/* kernel symbols ("addr type name"), or NULL */
	const char *symfs;		/* prefix for the paths of MMAP2 records, or NULL */
	const char *buildid_dir;	/* perf's build-id cache; NULL: ~/.debug */
	bool no_demangle;		/* ELF names as they are (perf --no-demangle) */
	/* Called with a message for what the user must know (a file of
	 * another build not used); NULL: silent. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

/* Where an ip is: dso and symbol, "[unknown]" when not known. */
struct spe_sym {
	const char *dso;
	const char *name;
	uint64_t offset;		/* ip - symbol start */
	uint64_t elf_addr;		/* ip as an address in the dso's ELF file
					 * (for DWARF lookups; the ip for kernel) */
	bool has_sym;
	const char *file;		/* the ELF file (or its debug file) the
					 * symbols came from, for DWARF; NULL */
};

int spe_symbols_new(struct spe_symbols **out, const struct spe_sym_config *cfg,
		    char *err, size_t errlen);
void spe_symbols_free(struct spe_symbols *s);
/* The build id the recording has for a file (BUILD_ID feature section,
 * MMAP2 with a build id): a file of another build is not used. */
int spe_symbols_build_id(struct spe_symbols *s, const char *path, const uint8_t *id,
			 size_t len);
/* Every entry of a BUILD_ID feature section. */
int spe_symbols_build_id_section(struct spe_symbols *s, const void *sec, size_t len);
/* Feed COMM, FORK, MMAP, MMAP2 and HEADER_BUILD_ID records (others are
 * ignored). */
int spe_symbols_event(struct spe_symbols *s, const struct spe_pdr_event *ev);
/* The command name of a thread, NULL when no COMM named it. */
const char *spe_symbols_comm(const struct spe_symbols *s, int32_t tid);
void spe_symbols_lookup(struct spe_symbols *s, int32_t pid, uint64_t ip,
			uint16_t cpumode, struct spe_sym *out);


/* ---- Report aggregation (lib/report.c) ------------------------------------- */

/* Operation classes of the report. */
enum spe_rep_op { SPE_REP_LOAD, SPE_REP_STORE, SPE_REP_BRANCH, SPE_REP_OTHER, SPE_REP_NR_OPS };

struct spe_report;

int spe_report_new(struct spe_report **out);
void spe_report_free(struct spe_report *r);
/* One SPE record, given as its instructions sample (every record once),
 * with the symbol its ip resolved to. */
void spe_report_add(struct spe_report *r, const struct spe_sample *s, const struct spe_sym *sym);

/* Latency percentile (0..100) of an operation class; counter 0 total,
 * 1 issue, 2 translation.  0 when there are no records. */
unsigned spe_report_percentile(const struct spe_report *r, enum spe_rep_op op,
			       int counter, double pct);
uint64_t spe_report_count(const struct spe_report *r, enum spe_rep_op op);

/* Writes the summary as text; stats may be NULL. */
void spe_report_print(const struct spe_report *r, const struct spe_session_stats *st,
		      unsigned top, int (*write)(void *ctx, const char *text, size_t len),
		      void *ctx);

#endif /* SPE_PERF_SYNTH_H */
