/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The latency report (lib/report.c): records by operation class,
 * with latency percentiles and the hottest symbols.
 */
#ifndef SPE_REPORT_H
#define SPE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "spe_sample_synth.h"
#include "spe_session.h"
#include "spe_symbols.h"

/* Operation classes of the report. */
enum spe_rep_op { SPE_REP_LOAD, SPE_REP_STORE, SPE_REP_BRANCH, SPE_REP_OTHER, SPE_REP_NR_OPS };

struct spe_report;

int spe_report_new(struct spe_report **out);
/* Frees all the report holds, its memory and mappings; NULL does nothing. */
void spe_report_free(struct spe_report *r);
/* One SPE record, given as its instructions sample (every record once),
 * with the symbol its ip resolved to. */
void spe_report_add(struct spe_report *r, const struct spe_sample *s, const struct spe_sym *sym);
/* The same from the record itself, for a caller that makes no samples
 * (the data_src its sample would have: spe_synth_data_src()). */
void spe_report_add_record(struct spe_report *r, const struct spe_qrecord *qr,
			   const struct spe_sym *sym);

/*
 * A report fed by a session straight: spe_report_feed_record() is an
 * spe_session_config.on_record whose ctx is a struct spe_report_feed (or
 * a struct whose first member is one).  Each record's symbol is resolved
 * in syms and the record counted in r, as spe_symbols_lookup() and
 * spe_report_add_record() would, in one call per record.  Returns 0.
 */
struct spe_report_feed {
	struct spe_report *r;
	struct spe_symbols *syms;
};
int spe_report_feed_record(void *ctx, const struct spe_qrecord *qr);

/*
 * Adds src's counts into dst, as if dst had been given src's records too:
 * for sessions over disjoint queues of one file (spe_session_config's
 * queue_set).  The symbols' texts stay src's: the symbol layer src's
 * records were resolved by must outlive dst.  0, or SPE_ERR_NOMEM with
 * dst unchanged.
 */
int spe_report_merge(struct spe_report *dst, const struct spe_report *src);

/* Latency percentile (0..100) of an operation class; counter 0 total,
 * 1 issue, 2 translation.  0 when there are no records. */
unsigned spe_report_percentile(const struct spe_report *r, enum spe_rep_op op,
			       int counter, double pct);
uint64_t spe_report_count(const struct spe_report *r, enum spe_rep_op op);

/* Writes the summary as text; stats may be NULL. */
void spe_report_print(const struct spe_report *r, const struct spe_session_stats *st,
		      unsigned top, int (*write)(void *ctx, const char *text, size_t len),
		      void *ctx);

#endif /* SPE_REPORT_H */
