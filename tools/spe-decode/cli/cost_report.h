/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* report --sort: the cost table (cost_report.c). */
#ifndef SPE_DECODE_CLI_COST_REPORT_H
#define SPE_DECODE_CLI_COST_REPORT_H

#include <stddef.h>

#include "filter.h"
#include "spe_symbols.h"
#include "spe_views.h"

struct spe_cost_report_opts {
	const char *path;
	struct spe_sym_config symcfg;
	const char *sort;		/* "sym,srcline" */
	const char *order;		/* column, NULL: latency */
	double percent_limit;
	size_t top;			/* 0: every row */
	unsigned threads;		/* decoding threads, 0: default */
	bool verbose;			/* -v: how the work was split, on stderr */
	enum spe_view_unresolved unresolved;	/* rows of ips without a symbol */
	const struct spe_filter *filter;	/* the samples counted; NULL: all */
	const char *separator;		/* perf's -t: columns split by it, unpadded */
};

/* Returns the exit status. */
int spe_cli_cost_report(const struct spe_cost_report_opts *o);

#endif /* SPE_DECODE_CLI_COST_REPORT_H */
