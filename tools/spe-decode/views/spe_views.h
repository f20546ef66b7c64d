/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The views built on the decoded samples: cost tables grouped by perf's
 * sort keys (views/cost_table.c), cache-line contention (views/c2c.c), source
 * lines from DWARF (views/srcline.c).  Each takes one record at a time, as
 * its instructions sample (every record once, period 1), with what the
 * caller resolved about it in a struct spe_view_sample.
 */
#ifndef SPE_VIEWS_H
#define SPE_VIEWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "spe_session.h"
#include "spe_sample_synth.h"
#include "spe_symbols.h"
#include "spe_report.h"

/* ---- One record as the views see it ---------------------------------------- */

struct spe_view_sample {
	const struct spe_sample *s;	/* the record's instructions sample */
	const struct spe_sym *sym;	/* of s->ip */
	const struct spe_sym *dsym;	/* of s->addr (may be NULL) */
	const char *srcline;		/* "file.c:123", NULL when unknown */
	const char *comm;		/* NULL when no COMM named the thread */
};

/* The report's operation class of a record. */
enum spe_rep_op spe_view_op(const struct spe_record *rec);
/* Latency counter i (0 total, 1 issue, 2 translation) of a record; false
 * when the record has no such counter. */
bool spe_view_latency(const struct spe_record *rec, int i, uint16_t *v);
/* The three at once, for a view that counts them all per record: bit i
 * of the result says whether v[i] is counter i's value. */
unsigned spe_view_latencies(const struct spe_record *rec, uint16_t v[3]);
/* perf_mem_data_src as a short phrase ("L1 hit", "L3 hit (peer)",
 * "remote RAM hit", "N/A"), the data_src key's text. */
void spe_view_data_src_text(uint64_t v, char *buf, size_t len);

/*
 * Addresses without a symbol.  Code without symbols (a stripped or JIT'ed
 * binary, a file not found) makes every instruction address a key of its
 * own, and the views' tables a row per address: hundreds of megabytes on
 * a large recording.  So by default the views count such an address in
 * its 4 KiB page, one row per page of each file (or of the address space
 * outside any mapping), and memory grows with the pages touched, not the
 * instructions; SPE_VIEW_UNRESOLVED_ADDRESS keeps a row per address, as
 * perf report shows them ("[.] 0x<address>").  What has a symbol is
 * counted by its symbol either way.
 */
enum spe_view_unresolved { SPE_VIEW_UNRESOLVED_PAGE, SPE_VIEW_UNRESOLVED_ADDRESS };
#define SPE_VIEW_PAGE_SIZE	4096u

/*
 * The page an address without a symbol is counted in (its first byte),
 * and whether that is an address in the file sym->dso names (sym->elf_addr:
 * user space, within a mapping, the same page in every process that maps
 * the file) rather than the address itself (the kernel's, or outside any
 * mapping).  sym is what spe_symbols_lookup() gave for addr and cpumode.
 */
uint64_t spe_view_unresolved_page(const struct spe_sym *sym, uint64_t addr, uint16_t cpumode,
				  bool *in_dso);
/* Its name, the text of its row: "unknown-page@DSO+0xPAGE" (in the file)
 * or "unknown-page@0xPAGE" (an address). */
void spe_view_unresolved_name(const struct spe_sym *sym, uint64_t addr, uint16_t cpumode,
			      char *buf, size_t len);
/* "page" or "address" into *u; false when arg is neither. */
bool spe_view_unresolved_parse(const char *arg, enum spe_view_unresolved *u);

/* Where a load was served from, in the classes the views count (c2c's
 * columns, the HTML report's chart); SPE_VIEW_DS_NA when unknown. */
enum spe_view_ds {
	SPE_VIEW_DS_L1, SPE_VIEW_DS_L2, SPE_VIEW_DS_LLC, SPE_VIEW_DS_PEER,
	SPE_VIEW_DS_REMOTE, SPE_VIEW_DS_DRAM, SPE_VIEW_DS_NA, SPE_VIEW_DS_NR
};
enum spe_view_ds spe_view_ds_class(uint64_t data_src);

/*
 * Latency counters saturate at their largest value (DDI 0487, PMSIDR_EL1
 * CountSize: 12 or 16 bits).  The width is not in perf.data, so it is
 * inferred: any value above 4095 means 16-bit counters, else 12-bit.
 */
#define SPE_LAT_SAT12	4095u
#define SPE_LAT_SAT16	65535u

/* ---- Source lines (views/srcline.c) ---------------------------------------- */

struct spe_srcline;

int spe_srcline_new(struct spe_srcline **out, const char *symfs);
void spe_srcline_free(struct spe_srcline *sl);
/* "basename.c:LINE" of sym's ELF address in its dso's DWARF, or NULL.
 * The string lives as long as sl. */
const char *spe_srcline_get(struct spe_srcline *sl, const struct spe_sym *sym);
/* How the names of inlined functions are written: demangled as the
 * symbols are (the default), or as the DWARF has them (--no-demangle). */
void spe_srcline_set_demangle(struct spe_srcline *sl, bool demangle);

/* One frame of an address's inline chain. */
struct spe_src_frame {
	const char *func;		/* the function, NULL when DWARF names none */
	const char *file;		/* the source file's whole path as the
					 * DWARF has it (the compilation directory
					 * joined to a relative one), NULL */
	unsigned line;			/* 0 when unknown */
};

/*
 * The inline chain of sym's ELF address in its dso's DWARF, innermost
 * first: the function the instruction is in and its line, then for each
 * function it was inlined into, that function and the line of the call;
 * the last frame is the function of the symbol.  Returns the number of
 * frames (0: no DWARF for it) and *frames, valid until the next call, or
 * SPE_ERR_NOMEM.  Each address is looked up once; its frames and their
 * texts are kept as long as sl.
 */
long spe_srcline_frames(struct spe_srcline *sl, const struct spe_sym *sym,
			const struct spe_src_frame **frames);

/* ---- Cost tables (views/cost_table.c) -------------------------------------- */

enum spe_cost_key {
	SPE_KEY_SYM, SPE_KEY_DSO, SPE_KEY_SRCLINE, SPE_KEY_SYMBOL_DADDR,
	SPE_KEY_DATA_SRC, SPE_KEY_OP, SPE_KEY_CPU, SPE_KEY_PID, SPE_KEY_COMM,
	SPE_KEY_NR
};

/* Columns a table can be ordered by. */
enum spe_cost_col {
	SPE_COL_SAMPLES, SPE_COL_LAT, SPE_COL_MEAN, SPE_COL_P50, SPE_COL_P90,
	SPE_COL_P99, SPE_COL_ISSUE, SPE_COL_XLAT, SPE_COL_SAT, SPE_COL_L1D_MISS,
	SPE_COL_LLC_MISS, SPE_COL_TLB_WALK, SPE_COL_REMOTE, SPE_COL_MISPRED,
	SPE_COL_NR
};

struct spe_cost_table;

/*
 * A table grouped by a comma-separated list of keys ("sym,srcline").
 * Returns 0, or SPE_ERR_INVAL with the offending word in why[].
 */
int spe_cost_new(struct spe_cost_table **out, const char *keys, char *why, size_t whylen);
void spe_cost_free(struct spe_cost_table *t);
/* Whether a key is used (the caller resolves srcline / data symbols only
 * then: they cost). */
bool spe_cost_uses(const struct spe_cost_table *t, enum spe_cost_key k);
/* How rows key an address without a symbol (sym, symbol_daddr): by its
 * page (the default) or by itself.  Set before the first record. */
void spe_cost_set_unresolved(struct spe_cost_table *t, enum spe_view_unresolved u);
/* Adds a record; SPE_ERR_NOMEM leaves the table as it was. */
int spe_cost_add(struct spe_cost_table *t, const struct spe_view_sample *vs);
/*
 * Whether tables made of parts of the records (sessions side by side) add
 * up to the table of all of them: not with the mem, snoop or tlb keys,
 * whose rows are named by their first sample in time order.
 */
bool spe_cost_mergeable(const struct spe_cost_table *t);
/* Adds src's rows to dst's, a table of the same keys (else SPE_ERR_INVAL);
 * src is unchanged.  Returns 0 or SPE_ERR_NOMEM. */
int spe_cost_merge(struct spe_cost_table *dst, const struct spe_cost_table *src);

/* Column by name ("samples" or perf's "overhead", "latency", "mean", "p50", "p90", "p99",
 * "issue", "xlat", "sat", "l1d-miss", "llc-miss", "tlb-walk", "remote",
 * "mispred"); -1 if none. */
int spe_cost_col_by_name(const char *name);
const char *spe_cost_col_name(enum spe_cost_col c);

/* A row as the printers and the HTML/pprof writers read it. */
struct spe_cost_row_view {
	const char *key[SPE_KEY_NR];	/* per used key, in the table's order */
	uint64_t samples;
	uint64_t lat_n[3], lat_sum[3], lat_sat[3];	/* sums exclude saturated */
	unsigned p50, p90, p99;		/* total latency; SPE_COST_SAT if saturated */
	bool p_valid;
	uint64_t l1d_miss, llc_miss, tlb_walk, remote, mispred, branches;
};
#define SPE_COST_SAT	0xffffffffu

struct spe_cost_totals {
	uint64_t samples, lat_sum, l1d_miss, llc_miss, tlb_walk, remote, mispred;
	unsigned sat_value;		/* 4095 or 65535 */
};

/*
 * The rows, ordered by a column (descending, ties by key; by samples, ties
 * in perf report's order of its sort keys, see cost_table.c), those under
 * percent_limit % of the column's total left out (for columns that add up;
 * the others by their share of samples), at most top (0: all).  Returns
 * the number of rows written to *rows (malloc'ed, free() it), or SPE_ERR_NOMEM.
 */
long spe_cost_rows(const struct spe_cost_table *t, enum spe_cost_col order,
		   double percent_limit, size_t top, struct spe_cost_row_view **rows);
void spe_cost_totals(const struct spe_cost_table *t, struct spe_cost_totals *tot);
unsigned spe_cost_nkeys(const struct spe_cost_table *t);
const char *spe_cost_key_name(const struct spe_cost_table *t, unsigned i);

/* The table as text; returns 0, SPE_ERR_NOMEM, or the first error @write
 * returned (text after it is dropped). */
int spe_cost_print(const struct spe_cost_table *t, enum spe_cost_col order,
		   double percent_limit, size_t top,
		   int (*write)(void *ctx, const char *text, size_t len), void *ctx);

/* ---- Cache-line contention (views/c2c.c) ----------------------------------- */

/*
 * Loads and stores grouped by the 64-byte line of their data address:
 * physical when the record has a physical address, else virtual within
 * the process.  A line is shared when more than one CPU (in a per-thread
 * recording: thread) touched it and at least one access was a store.
 * Two passes over the file keep memory small: the first finds the shared
 * lines (16 bytes per line touched), the second collects, for those lines
 * only, each offset and the code touching it (the table of every line is
 * freed between the passes).
 */
struct spe_c2c;

enum spe_c2c_order { SPE_C2C_COST, SPE_C2C_PEER, SPE_C2C_SAMPLES, SPE_C2C_STORES };

/* virt: group by virtual address even where a physical one was recorded
 * (as perf c2c does). */
int spe_c2c_new(struct spe_c2c **out, bool virt);
void spe_c2c_free(struct spe_c2c *c);
/* As spe_cost_set_unresolved(), for the code of the shared lines'
 * offsets; before pass 2. */
void spe_c2c_set_unresolved(struct spe_c2c *c, enum spe_view_unresolved u);
/* Pass 1: every record. */
int spe_c2c_scan(struct spe_c2c *c, const struct spe_view_sample *vs);
/* Between the passes: picks the shared lines (0 or SPE_ERR_NOMEM). */
int spe_c2c_select(struct spe_c2c *c);
/* Pass 2: every record again, in the same order. */
int spe_c2c_detail(struct spe_c2c *c, const struct spe_view_sample *vs);
/* Pass 2: whether a record touches a shared line (the others need no
 * symbol or source line: spe_c2c_detail() skips them). */
bool spe_c2c_wants(const struct spe_c2c *c, const struct spe_sample *s);

/* A shared line as the printers read it. */
struct spe_c2c_line_view {
	uint64_t line;			/* address of the line's first byte */
	bool phys;
	int32_t pid;			/* of a virtual line */
	uint64_t cost;			/* total latency of its loads and stores */
	uint64_t lat_sat;		/* its saturated counters, left out of cost */
	uint64_t loads, stores, peer, remote, llc, dram, l1l2, na;
	uint32_t nr_cpus;
	size_t first_entry, nr_entries;	/* into the entries */
};

struct spe_c2c_entry_view {
	unsigned offset;		/* byte in the line */
	uint64_t ip;			/* or the page's first byte, see sym */
	const char *sym;		/* "name+0xoff", spe_view_unresolved_name()
					 * (by page) or the ip in hex */
	const char *dso;
	const char *srcline;		/* NULL when unknown */
	uint64_t loads, stores, peer, remote;
	uint64_t lat_sum, lat_n, lat_sat;	/* sum and n exclude saturated */
	uint64_t cpus;			/* bit n: CPU n (n < 63); bit 63: a higher CPU */
};

struct spe_c2c_summary {
	uint64_t accesses;		/* loads and stores with a data address */
	uint64_t lines, shared_lines, phys_lines;
	uint64_t shared_accesses, shared_peer;
	uint64_t shared_sat;		/* their saturated latencies, left out */
	unsigned sat_value;		/* 4095 or 65535 */
	bool per_thread;		/* threads stood in for CPUs */
};

void spe_c2c_summary(const struct spe_c2c *c, struct spe_c2c_summary *s);
/* The shared lines by order (descending), at most top (0: all), and
 * their entries (by offset, then by accesses); malloc'ed arrays the
 * caller frees.  Returns the number of lines or SPE_ERR_NOMEM. */
long spe_c2c_lines(const struct spe_c2c *c, enum spe_c2c_order order, size_t top,
		   struct spe_c2c_line_view **lines, struct spe_c2c_entry_view **entries);
/* The report as text; at most top lines (0: all).  Returns as
 * spe_cost_print(). */
int spe_c2c_print(const struct spe_c2c *c, enum spe_c2c_order order, size_t top,
		  int (*write)(void *ctx, const char *text, size_t len), void *ctx);

/* ---- The HTML report (views/html_report.c) --------------------------------- */

/* One pass feeds the report, the cost table by symbol, the c2c scan, the
 * histograms, the data sources per symbol and the timeline; then
 * spe_html_select() renders the sections of that pass that need big
 * tables (data sources per symbol, the cost table) and frees the tables,
 * the caller runs the c2c detail pass (spe_html_c2c()) and writes the
 * page, so the second pass runs in the memory of the shared lines. */
struct spe_html;

struct spe_html_meta {
	const char *path;
	const struct spe_session_stats *stats;
	const struct spe_auxtrace_info *info;
	uint64_t midr;
	size_t top;			/* rows per table, 0: the defaults */
};

int spe_html_new(struct spe_html **out, bool virt);
void spe_html_free(struct spe_html *h);
/* As spe_cost_set_unresolved(), for the cost table and the data sources
 * per symbol; before the first record. */
void spe_html_set_unresolved(struct spe_html *h, enum spe_view_unresolved u);
int spe_html_add(struct spe_html *h, const struct spe_view_sample *vs);
/* AUX flags and LOST records for the timeline. */
int spe_html_event(struct spe_html *h, const struct spe_perf_reader_event *ev);
/* Between the passes: top as the page's (0: the defaults); picks the
 * shared lines.  0, or SPE_ERR_NOMEM. */
int spe_html_select(struct spe_html *h, size_t top);
struct spe_c2c *spe_html_c2c(struct spe_html *h);
/* The page; returns 0 or the first error of write (or SPE_ERR_NOMEM). */
int spe_html_write(const struct spe_html *h, const struct spe_html_meta *m,
		   int (*write)(void *ctx, const char *text, size_t len), void *ctx);

#endif /* SPE_VIEWS_H */
