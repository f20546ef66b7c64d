// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The HTML report: one self-contained page (inline CSS, inline SVG, a few
 * lines of inline script for sorting; no network, no external files) with
 * the recording's metadata, latency histograms per operation type, data
 * sources per symbol, the cost table, the shared cache lines and a per-CPU
 * timeline of samples and AUX flags.
 *
 * Its numbers come from the same aggregators as the text views (the
 * report's spe_report, views/cost_table.c, views/c2c.c), so they are the
 * numbers `report`, `report --sort sym` and `c2c` print.  Tables are
 * rendered here, not by script, so the page reads the same without it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "grow.h"
#include "key_text.h"
#include "keyed_rows.h"
#include "spe_decode.h"
#include "spe_views.h"
#include "sink_printf.h"

#define NR_HIST		15	/* 0, [1,1], [2,3] ... [2048,4095], >4095, saturated */
#define NR_BINS		256	/* timeline bins per CPU */
#define MAX_CPUS	256	/* CPUs drawn one per row; above: one "other" row */
#define NR_DS		SPE_VIEW_DS_NR

static const char *const op_names[SPE_REP_NR_OPS] = {
	[SPE_REP_LOAD] = "load", [SPE_REP_STORE] = "store",
	[SPE_REP_BRANCH] = "branch", [SPE_REP_OTHER] = "other",
};

static const char *const ds_names[NR_DS] = {
	[SPE_VIEW_DS_L1] = "L1", [SPE_VIEW_DS_L2] = "L2", [SPE_VIEW_DS_LLC] = "LLC / L3",
	[SPE_VIEW_DS_PEER] = "peer cache", [SPE_VIEW_DS_REMOTE] = "remote",
	[SPE_VIEW_DS_DRAM] = "DRAM", [SPE_VIEW_DS_NA] = "N/A",
};

static const char *const ds_colors[NR_DS] = {
	[SPE_VIEW_DS_L1] = "#4caf50", [SPE_VIEW_DS_L2] = "#8bc34a",
	[SPE_VIEW_DS_LLC] = "#ffc107", [SPE_VIEW_DS_PEER] = "#ff5722",
	[SPE_VIEW_DS_REMOTE] = "#9c27b0", [SPE_VIEW_DS_DRAM] = "#2196f3",
	[SPE_VIEW_DS_NA] = "#bbbbbb",
};

/* Loads per symbol by data source: 72 bytes and the key, in blocks of
 * 1024 that never move, found through an index of hash << 32 | entry + 1. */
struct sym_ds {
	const char *key;		/* "name\x1fdso", see sym_key() */
	uint64_t n[NR_DS], loads;
};

struct mark {
	uint64_t time;
	int32_t cpu;
	char kind;			/* 'T'runcated, 'C'ollision, 'P'artial, 'L'ost */
};

struct spe_html {
	struct spe_report *rep;
	struct spe_cost_table *cost;
	struct spe_c2c *c2c;
	uint64_t hist[SPE_REP_NR_OPS][NR_HIST];
	uint64_t at4095[SPE_REP_NR_OPS];	/* a value or saturation: known at the end */
	uint64_t with_lat[SPE_REP_NR_OPS][3];
	bool wide;
	struct spe_keyed_rows syms;	/* struct sym_ds, by sym_key() */
	enum spe_view_unresolved unresolved;
	/* Timeline: bins of width bin_ns from t0, doubled when time runs past. */
	uint64_t t0, bin_ns, t_last;
	bool have_t0;
	uint32_t (*bins)[NR_BINS];	/* [MAX_CPUS + 1][NR_BINS] */
	int32_t max_cpu;
	struct mark *marks;
	size_t nr_marks, cap_marks;
	uint64_t dropped_marks;
	/* After the first pass: the data-source and cost sections as text,
	 * their tables freed (spe_html_select()). */
	char *pre;
	size_t pre_len, pre_cap;
	bool selected;
};

int spe_html_new(struct spe_html **out, bool virt)
{
	struct spe_html *h = calloc(1, sizeof(*h));
	char why[64];

	*out = h;
	if (!h || spe_report_new(&h->rep) || spe_cost_new(&h->cost, "sym", why, sizeof(why)) ||
	    spe_c2c_new(&h->c2c, virt))
		return SPE_ERR_NOMEM;
	h->bins = calloc(MAX_CPUS + 1, sizeof(*h->bins));
	h->max_cpu = -1;
	h->bin_ns = 1000;
	return !spe_keyed_rows_init(&h->syms, sizeof(struct sym_ds)) && h->bins ?
	       0 : SPE_ERR_NOMEM;
}

void spe_html_free(struct spe_html *h)
{
	if (!h)
		return;
	spe_report_free(h->rep);
	spe_cost_free(h->cost);
	spe_c2c_free(h->c2c);
	spe_keyed_rows_free(&h->syms);
	free(h->bins);
	free(h->marks);
	free(h->pre);
	free(h);
}

void spe_html_set_unresolved(struct spe_html *h, enum spe_view_unresolved u)
{
	h->unresolved = u;
	spe_cost_set_unresolved(h->cost, u);
	spe_c2c_set_unresolved(h->c2c, u);
}

struct spe_c2c *spe_html_c2c(struct spe_html *h)
{
	return h->c2c;
}

static struct sym_ds *sym_at(const struct spe_html *h, size_t i)
{
	return spe_keyed_rows_at(&h->syms, i);
}

/* The entry of key k, added if new; NULL without memory. */
static struct sym_ds *sym_get(struct spe_html *h, const char *k)
{
	long i = spe_keyed_rows_find(&h->syms, k);

	return i < 0 ? NULL : sym_at(h, (size_t)i);
}

/* "name\x1fdso"; without a symbol, the name of the ip's page (as the
 * cost table's, spe_view_unresolved_name()) or "0x<ip>". */
static void sym_key(const struct spe_html *h, char *key, size_t len,
		    const struct spe_view_sample *vs)
{
	struct spe_key_text t = { key, len, 0 };

	key[0] = 0;
	if (vs->sym->has_sym) {
		spe_key_put_str(&t, vs->sym->name);
	} else if (h->unresolved == SPE_VIEW_UNRESOLVED_PAGE) {
		spe_view_unresolved_name(vs->sym, vs->s->ip, vs->s->cpumode, key, len);
		t.pos = strlen(key);
	} else {
		spe_key_put_str(&t, "0x");
		spe_key_put_hex(&t, vs->s->ip, 1);
	}
	spe_key_put(&t, "\x1f", 1);
	spe_key_put_str(&t, vs->sym->dso);
}

/* The timeline bin of time t, rebinning (doubling the width) as needed. */
static int bin_of(struct spe_html *h, uint64_t t)
{
	if (!h->have_t0) {
		h->t0 = t;
		h->have_t0 = true;
	}
	if (t < h->t0)
		return 0;	/* sideband before the first sample: the first bin */
	while ((t - h->t0) / h->bin_ns >= NR_BINS) {
		for (int c = 0; c <= MAX_CPUS; c++)
			for (int b = 0; b < NR_BINS; b++) {
				uint32_t v = b * 2 < NR_BINS ? h->bins[c][b * 2] : 0;

				if (b * 2 + 1 < NR_BINS)
					v += h->bins[c][b * 2 + 1];
				h->bins[c][b] = v;
			}
		h->bin_ns *= 2;
	}
	return (int)((t - h->t0) / h->bin_ns);
}

static int cpu_row(int32_t cpu)
{
	return cpu >= 0 && cpu < MAX_CPUS ? cpu : MAX_CPUS;
}

int spe_html_add(struct spe_html *h, const struct spe_view_sample *vs)
{
	const struct spe_sample *s = vs->s;
	const struct spe_record *rec = s->qr->rec;
	enum spe_rep_op op = spe_view_op(rec);
	uint16_t lat;
	int b;

	spe_report_add(h->rep, s, vs->sym);
	if (spe_cost_add(h->cost, vs) || spe_c2c_scan(h->c2c, vs))
		return SPE_ERR_NOMEM;
	for (int c = 1; c < 3; c++)
		h->with_lat[op][c] += spe_view_latency(rec, c, &lat);
	if (spe_view_latency(rec, 0, &lat)) {
		int k = 0;

		h->with_lat[op][0]++;
		if (lat > SPE_LAT_SAT12)
			h->wide = true;
		while (k < 13 && lat >= (1u << k))
			k++;
		/* k: 0 for 0, n+1 for [2^n, 2^(n+1)-1]; 13: above 4095 */
		if (lat == SPE_LAT_SAT16)
			h->hist[op][14]++;
		else if (lat == SPE_LAT_SAT12)
			h->at4095[op]++;
		else
			h->hist[op][k]++;
	}
	if (op == SPE_REP_LOAD) {
		char key[600];
		struct sym_ds *d;

		sym_key(h, key, sizeof(key), vs);
		d = sym_get(h, key);
		if (!d)
			return SPE_ERR_NOMEM;
		d->loads++;
		d->n[spe_view_ds_class(s->data_src)]++;
	}
	b = bin_of(h, s->time);
	h->bins[cpu_row(s->cpu)][b]++;
	if (s->cpu > h->max_cpu)
		h->max_cpu = s->cpu < MAX_CPUS ? s->cpu : MAX_CPUS;
	if (s->time > h->t_last)
		h->t_last = s->time;
	return 0;
}

static void add_mark(struct spe_html *h, const struct spe_perf_reader_event *ev, char kind)
{
	if (!ev->sid.has_time)
		return;
	/* A bounded list: a pathological file does not grow memory. */
	if (SPE_GROW_MAX(h->marks, h->cap_marks, h->nr_marks, 64, 65536)) {
		h->dropped_marks++;
		return;
	}
	h->marks[h->nr_marks++] = (struct mark){
		.time = ev->sid.time, .cpu = ev->sid.has_cpu ? (int32_t)ev->sid.cpu : -1,
		.kind = kind,
	};
}

int spe_html_event(struct spe_html *h, const struct spe_perf_reader_event *ev)
{
	const struct perf_event_header *hd = ev->header;
	uint64_t flags;

	if (hd->type == PERF_RECORD_AUX && hd->size >= sizeof(*hd) + 24) {
		memcpy(&flags, (const char *)(hd + 1) + 16, 8);
		if (flags & PERF_AUX_FLAG_TRUNCATED)
			add_mark(h, ev, 'T');
		if (flags & PERF_AUX_FLAG_COLLISION)
			add_mark(h, ev, 'C');
		if (flags & PERF_AUX_FLAG_PARTIAL)
			add_mark(h, ev, 'P');
	} else if (hd->type == PERF_RECORD_LOST) {
		add_mark(h, ev, 'L');
	}
	return 0;
}

/* ---- Writing ------------------------------------------------------------------ */

/* Text into HTML (element content and quoted attributes). */
static void esc(struct spe_sink *o, const char *s)
{
	const char *p = s;

	for (; *p; p++) {
		const char *rep = NULL;

		switch (*p) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		}
		if (rep) {
			spe_sink_put(o, s, (size_t)(p - s));
			spe_sink_put(o, rep, strlen(rep));
			s = p + 1;
		}
	}
	spe_sink_put(o, s, (size_t)(p - s));
}

static const char style[] =
"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em;color:#222}"
"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}"
"table{border-collapse:collapse;margin:.5em 0}"
"th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}"
"th{background:#f4f4f4;position:sticky;top:0}th.s{cursor:pointer}th.s:hover{background:#e0e8f0}"
"td.k,th.k{text-align:left}td.k{font-family:ui-monospace,monospace}"
".note{color:#555;max-width:60em}.bar{display:inline-block;height:10px}"
"svg text{font:10px sans-serif}.histbox{display:inline-block;margin-right:1.5em}"
"h3{font-size:1em;margin:.8em 0 .2em}"
"details{margin:.3em 0}summary{cursor:pointer}"
"#js-errors{color:#b00}";

/* Sorting by a click on a header: numbers by data-v (or the text). */
static const char script[] =
"(function(){\n"
"'use strict';\n"
"function val(td){var v=td.getAttribute('data-v');if(v!==null)return parseFloat(v);"
"var t=td.textContent.trim();var f=parseFloat(t);return isNaN(f)?t:f;}\n"
"document.querySelectorAll('table.sortable').forEach(function(tb){\n"
" tb.querySelectorAll('th.s').forEach(function(th,i){\n"
"  th.addEventListener('click',function(){\n"
"   var body=tb.tBodies[0];var rows=Array.prototype.slice.call(body.rows);\n"
"   var col=th.cellIndex;var asc=th.getAttribute('data-dir')==='desc';\n"
"   rows.sort(function(a,b){var x=val(a.cells[col]),y=val(b.cells[col]);\n"
"    if(typeof x==='number'&&typeof y==='number')return asc?x-y:y-x;\n"
"    return asc?String(x).localeCompare(String(y)):String(y).localeCompare(String(x));});\n"
"   rows.forEach(function(r){body.appendChild(r);});\n"
"   th.setAttribute('data-dir',asc?'asc':'desc');\n"
"  });\n"
" });\n"
"});\n"
"document.body.setAttribute('data-ready','1');\n"
"})();\n";

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void meta_row(struct spe_sink *o, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void meta_row(struct spe_sink *o, const char *k, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	spe_sink_printf(o, "<tr><th class=k>%s</th><td class=k>", k);
	esc(o, buf);
	spe_sink_printf(o, "</td></tr>\n");
}

static void write_meta(struct spe_sink *o, const struct spe_html *h, const struct spe_html_meta *m)
{
	const struct spe_session_stats *st = m->stats;
	uint64_t total = 0;

	for (int op = 0; op < SPE_REP_NR_OPS; op++)
		total += spe_report_count(h->rep, op);
	spe_sink_printf(o, "<h2 id=meta>Recording</h2>\n<table id=meta-table>\n");
	meta_row(o, "file", "%s", m->path);
	meta_row(o, "SPE records", "%" PRIu64, total);
	for (int op = 0; op < SPE_REP_NR_OPS; op++)
		meta_row(o, op_names[op], "%" PRIu64, spe_report_count(h->rep, op));
	meta_row(o, "time span", "%.6f s", h->have_t0 ? (double)(h->t_last - h->t0) / 1e9 : 0.0);
	if (m->info) {
		meta_row(o, "AUXTRACE_INFO", "version %u, PMU type %u%s", m->info->version,
			 m->info->pmu_type, m->info->per_cpu_mmaps ? ", per-CPU mmaps" : "");
	}
	meta_row(o, "MIDR (CPU 0)", "%#" PRIx64, m->midr);
	if (st) {
		meta_row(o, "AUXTRACE records", "%" PRIu64 " (%" PRIu64 " bytes), queues %u",
			 st->auxtrace_records, st->aux_bytes, st->nr_queues);
		meta_row(o, "AUX records", "%" PRIu64 ": truncated %" PRIu64 ", partial %" PRIu64
			 ", collision %" PRIu64 ", overwrite %" PRIu64, st->aux_records, st->truncated,
			 st->partial, st->collision, st->overwrite);
		meta_row(o, "lost events", "%" PRIu64 " (in %" PRIu64 " LOST records)",
			 st->lost_events, st->lost_records);
		meta_row(o, "skipped / errors", "%" PRIu64 " partial or corrupt records, %" PRIu64
			 " decode errors", st->partial_records, st->decode_errors);
	}
	spe_sink_printf(o, "</table>\n");
}

static void write_latency(struct spe_sink *o, const struct spe_html *h)
{
	static const char *const cn[3] = { "total", "issue", "translation" };
	unsigned sat = h->wide ? SPE_LAT_SAT16 : SPE_LAT_SAT12;

	spe_sink_printf(o, "<h2 id=latency>Latency by operation type</h2>\n"
	   "<p class=note>Total latency (cycles, issue to completion) in power-of-two buckets; "
	   "saturated counters (%u) in their own bar.  Percentiles as <code>report</code> "
	   "prints them.</p>\n", sat);
	spe_sink_printf(o, "<table id=latency-table><thead><tr><th class=k>op</th><th class=k>counter</th>"
	   "<th>records</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr>"
	   "</thead><tbody>\n");
	for (int op = 0; op < SPE_REP_NR_OPS; op++)
		for (int c = 0; c < 3; c++) {
			uint64_t n = h->with_lat[op][c];

			if (!n)
				continue;
			spe_sink_printf(o, "<tr><td class=k>%s</td><td class=k>%s</td><td>%" PRIu64 "</td><td>%u</td>"
			   "<td>%u</td><td>%u</td><td>%u</td><td>%u</td></tr>\n", op_names[op], cn[c], n,
			   spe_report_percentile(h->rep, op, c, 50),
			   spe_report_percentile(h->rep, op, c, 90),
			   spe_report_percentile(h->rep, op, c, 99),
			   spe_report_percentile(h->rep, op, c, 99.9),
			   spe_report_percentile(h->rep, op, c, 100));
		}
	spe_sink_printf(o, "</tbody></table>\n");
	for (int op = 0; op < SPE_REP_NR_OPS; op++) {
		uint64_t hist[NR_HIST], max = 0, n = 0;
		const int W = 30, H = 120, T = 20;

		memcpy(hist, h->hist[op], sizeof(hist));
		/* 4095 saturates a 12-bit counter; with 16-bit ones it is a value. */
		hist[h->wide ? 12 : 14] += h->at4095[op];
		for (int k = 0; k < NR_HIST; k++) {
			max = hist[k] > max ? hist[k] : max;
			n += hist[k];
		}
		if (!n)
			continue;
		spe_sink_printf(o, "<div class=histbox><h3>%s: %" PRIu64 " records</h3>\n", op_names[op], n);
		spe_sink_printf(o, "<svg class=hist id=hist-%s width=%d height=%d role=img>\n", op_names[op],
		   W * NR_HIST + 20, T + H + 30);
		for (int k = 0; k < NR_HIST; k++) {
			int bh = max ? (int)((double)hist[k] * H / (double)max + 0.5) : 0;
			char label[24];

			if (k == 0)
				snprintf(label, sizeof(label), "0");
			else if (k < 13)
				snprintf(label, sizeof(label), "%u", 1u << (k - 1));
			else if (k == 13)
				snprintf(label, sizeof(label), "4k+");
			else
				snprintf(label, sizeof(label), "sat");
			spe_sink_printf(o, "<rect x=%d y=%d width=%d height=%d fill=\"%s\"><title>%s: %" PRIu64
			   "</title></rect>\n", 10 + k * W, T + H - bh, W - 4, bh,
			   k == 14 ? "#c62828" : "#1976d2", label, hist[k]);
			spe_sink_printf(o, "<text x=%d y=%d text-anchor=middle>%s</text>\n", 10 + k * W + (W - 4) / 2,
			   T + H + 15, label);
			if (hist[k])
				spe_sink_printf(o, "<text x=%d y=%d text-anchor=middle>%" PRIu64 "</text>\n",
				   10 + k * W + (W - 4) / 2, T + H - bh - 3, hist[k]);
		}
		spe_sink_printf(o, "</svg></div>\n");
	}
}

struct sym_sort {
	const struct sym_ds *d;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym_ds *x = ((const struct sym_sort *)a)->d, *y = ((const struct sym_sort *)b)->d;

	if (x->loads != y->loads)
		return x->loads < y->loads ? 1 : -1;
	return strcmp(x->key, y->key);
}

static void write_ds(struct spe_sink *o, const struct spe_html *h, size_t top)
{
	struct sym_sort *v = malloc((h->syms.used ? h->syms.used : 1) * sizeof(*v));
	size_t n = 0;

	spe_sink_printf(o, "<h2 id=datasrc>Where loads were served from, per symbol</h2>\n"
	   "<p class=note>Loads only, by their data source (perf_mem_data_src); "
	   "'peer cache' is a load served from another core's or cluster's cache.</p>\n");
	if (!v) {
		o->err = SPE_ERR_NOMEM;
		return;
	}
	for (size_t i = 0; i < h->syms.used; i++)
		v[n++].d = sym_at(h, i);
	qsort(v, n, sizeof(*v), cmp_sym);
	spe_sink_printf(o, "<p>");
	for (int k = 0; k < NR_DS; k++)
		spe_sink_printf(o, "<span class=bar style=\"width:10px;background:%s\"></span> %s &nbsp; ",
		   ds_colors[k], ds_names[k]);
	spe_sink_printf(o, "</p>\n<table id=datasrc-table class=sortable><thead><tr><th class=\"k s\">symbol</th>"
	   "<th class=\"k s\">dso</th><th class=s>loads</th>");
	for (int k = 0; k < NR_DS; k++)
		spe_sink_printf(o, "<th class=s>%s</th>", ds_names[k]);
	spe_sink_printf(o, "<th class=k>breakdown</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < n && i < top; i++) {
		const struct sym_ds *d = v[i].d;
		const char *sep = strchr(d->key, '\x1f');

		spe_sink_printf(o, "<tr><td class=k>");
		spe_sink_put(o, "", 0);
		{
			char name[512];

			snprintf(name, sizeof(name), "%.*s", (int)(sep - d->key), d->key);
			esc(o, name);
		}
		spe_sink_printf(o, "</td><td class=k>");
		esc(o, sep + 1);
		spe_sink_printf(o, "</td><td>%" PRIu64 "</td>", d->loads);
		for (int k = 0; k < NR_DS; k++)
			spe_sink_printf(o, "<td data-v=%" PRIu64 ">%" PRIu64 "</td>", d->n[k], d->n[k]);
		spe_sink_printf(o, "<td class=k>");
		for (int k = 0; k < NR_DS; k++)
			if (d->n[k])
				spe_sink_printf(o, "<span class=bar title=\"%s %.1f%%\" style=\"width:%.1fpx;"
				   "background:%s\"></span>", ds_names[k], pct(d->n[k], d->loads),
				   2.0 * pct(d->n[k], d->loads), ds_colors[k]);
		spe_sink_printf(o, "</td></tr>\n");
	}
	spe_sink_printf(o, "</tbody></table>\n");
	if (n > top)
		spe_sink_printf(o, "<p class=note>%zu more symbols not shown.</p>\n", n - top);
	free(v);
}

static void pct_cell(struct spe_sink *o, unsigned v, bool valid)
{
	if (!valid)
		spe_sink_printf(o, "<td data-v=-1>-</td>");
	else if (v == SPE_COST_SAT)
		spe_sink_printf(o, "<td data-v=1e9>sat</td>");
	else
		spe_sink_printf(o, "<td>%u</td>", v);
}

static void write_cost(struct spe_sink *o, const struct spe_html *h, size_t top)
{
	struct spe_cost_row_view *rows;
	struct spe_cost_totals tot;
	long n = spe_cost_rows(h->cost, SPE_COL_LAT, 0, top, &rows);

	if (n < 0) {
		o->err = (int)n;
		return;
	}
	spe_cost_totals(h->cost, &tot);
	spe_sink_printf(o, "<h2 id=cost>Cost by symbol</h2>\n<p class=note>As <code>report --sort sym</code>: "
	   "latency in cycles (sums and means leave out saturated counters, counted in 'sat'); "
	   "the miss, walk, remote and mispredict columns are each symbol's share of all of "
	   "them.  Click a header to sort.</p>\n");
	spe_sink_printf(o, "<table id=cost-table class=sortable><thead><tr><th class=s>samples</th>"
	   "<th class=s>samp%%</th><th class=s>latency</th><th class=s>lat%%</th>"
	   "<th class=s>mean</th><th class=s>p50</th><th class=s>p90</th><th class=s>p99</th>"
	   "<th class=s>issue</th><th class=s>xlat</th><th class=s>sat</th><th class=s>l1d%%</th>"
	   "<th class=s>llc%%</th><th class=s>walk%%</th><th class=s>rem%%</th>"
	   "<th class=s>misp%%</th><th class=\"k s\">sym</th></tr></thead><tbody>\n");
	for (long i = 0; i < n; i++) {
		const struct spe_cost_row_view *v = &rows[i];

		spe_sink_printf(o, "<tr><td>%" PRIu64 "</td><td>%.2f%%</td><td>%" PRIu64 "</td><td>%.2f%%</td>"
		   "<td>%.1f</td>", v->samples, pct(v->samples, tot.samples), v->lat_sum[0],
		   pct(v->lat_sum[0], tot.lat_sum),
		   v->lat_n[0] ? (double)v->lat_sum[0] / (double)v->lat_n[0] : 0.0);
		pct_cell(o, v->p50, v->p_valid);
		pct_cell(o, v->p90, v->p_valid);
		pct_cell(o, v->p99, v->p_valid);
		spe_sink_printf(o, "<td>%.1f</td><td>%.1f</td><td>%" PRIu64 "</td><td>%.1f%%</td><td>%.1f%%</td>"
		   "<td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td><td class=k>",
		   v->lat_n[1] ? (double)v->lat_sum[1] / (double)v->lat_n[1] : 0.0,
		   v->lat_n[2] ? (double)v->lat_sum[2] / (double)v->lat_n[2] : 0.0,
		   v->lat_sat[0] + v->lat_sat[1] + v->lat_sat[2], pct(v->l1d_miss, tot.l1d_miss),
		   pct(v->llc_miss, tot.llc_miss), pct(v->tlb_walk, tot.tlb_walk),
		   pct(v->remote, tot.remote), pct(v->mispred, tot.mispred));
		esc(o, v->key[0]);
		spe_sink_printf(o, "</td></tr>\n");
	}
	spe_sink_printf(o, "</tbody></table>\n");
	free(rows);
}

static void write_c2c(struct spe_sink *o, const struct spe_html *h, size_t top)
{
	struct spe_c2c_line_view *lv;
	struct spe_c2c_entry_view *ev;
	struct spe_c2c_summary s;
	long n = spe_c2c_lines(h->c2c, SPE_C2C_COST, top, &lv, &ev);

	if (n < 0) {
		o->err = (int)n;
		return;
	}
	spe_c2c_summary(h->c2c, &s);
	spe_sink_printf(o, "<h2 id=c2c>Shared cache lines</h2>\n<p class=note>As <code>c2c</code>: 64-byte "
	   "lines touched by more than one %s with at least one store (%" PRIu64 " of %" PRIu64
	   " lines).  SPE has no HITM: 'peer' counts loads served from another core's cache "
	   "instead.  Cost: total latency of the line's loads and stores (cycles); cost and "
	   "mean latency leave out saturated counters (%u): %" PRIu64 " accesses.</p>\n",
	   s.per_thread ? "thread" : "CPU", s.shared_lines, s.lines, s.sat_value, s.shared_sat);
	spe_sink_printf(o, "<table id=c2c-table class=sortable><thead><tr><th class=s>idx</th>"
	   "<th class=\"k s\">line</th><th class=\"k s\">space</th><th class=s>cost</th>"
	   "<th class=s>records</th><th class=s>loads</th><th class=s>stores</th>"
	   "<th class=s>cpus</th><th class=s>peer</th><th class=s>remote</th><th class=s>llc</th>"
	   "<th class=s>dram</th><th class=s>l1/l2</th></tr></thead><tbody>\n");
	for (long i = 0; i < n && (size_t)i < top; i++) {
		char space[24] = "phys";

		if (!lv[i].phys)
			snprintf(space, sizeof(space), "pid%d", lv[i].pid);
		spe_sink_printf(o, "<tr><td>%ld</td><td class=k>%#" PRIx64 "</td><td class=k>%s</td><td>%" PRIu64
		   "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%u</td><td>%"
		   PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%"
		   PRIu64 "</td></tr>\n", i, lv[i].line, space, lv[i].cost, lv[i].loads + lv[i].stores, lv[i].loads,
		   lv[i].stores, lv[i].nr_cpus, lv[i].peer, lv[i].remote, lv[i].llc, lv[i].dram,
		   lv[i].l1l2);
	}
	spe_sink_printf(o, "</tbody></table>\n");
	for (long i = 0; i < n && (size_t)i < top; i++) {
		spe_sink_printf(o, "<details><summary>line %ld: %#" PRIx64 " (%s), %zu code locations</summary>\n"
		   "<table class=c2c-detail><thead><tr><th>offset</th><th>loads</th><th>stores</th>"
		   "<th>peer</th><th>remote</th><th>mean lat</th><th class=k>cpus</th>"
		   "<th class=k>code</th><th class=k>source</th></tr></thead><tbody>\n", i,
		   lv[i].line, lv[i].phys ? "physical" : "virtual", lv[i].nr_entries);
		for (size_t j = 0; j < lv[i].nr_entries; j++) {
			const struct spe_c2c_entry_view *e = &ev[lv[i].first_entry + j];

			spe_sink_printf(o, "<tr><td>0x%02x</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
			   "</td><td>%" PRIu64 "</td><td>%.1f</td><td class=k>", e->offset, e->loads,
			   e->stores, e->peer, e->remote,
			   e->lat_n ? (double)e->lat_sum / (double)e->lat_n : 0.0);
			for (int c = 0, first = 1; c < 64; c++)
				if (e->cpus >> c & 1) {
					spe_sink_printf(o, "%s%d%s", first ? "" : ",", c, c == 63 ? "+" : "");
					first = 0;
				}
			spe_sink_printf(o, "</td><td class=k>");
			esc(o, e->sym);
			spe_sink_printf(o, " (");
			esc(o, e->dso);
			spe_sink_printf(o, ")</td><td class=k>");
			esc(o, e->srcline ? e->srcline : "??:0");
			spe_sink_printf(o, "</td></tr>\n");
		}
		spe_sink_printf(o, "</tbody></table></details>\n");
	}
	if (s.shared_lines > top)
		spe_sink_printf(o, "<p class=note>%" PRIu64 " more shared lines not shown.</p>\n",
		   s.shared_lines - top);
	free(lv);
	free(ev);
}

static void write_timeline(struct spe_sink *o, const struct spe_html *h)
{
	static const struct { char kind; const char *name, *color; } mk[] = {
		{ 'T', "truncated", "#d32f2f" }, { 'C', "collision", "#f57c00" },
		{ 'P', "partial", "#7b1fa2" }, { 'L', "lost", "#000000" },
	};
	const int bw = 3, rh = 18, left = 70, width = NR_BINS * bw;
	int rows = h->max_cpu + 1;
	uint32_t max = 1;
	/* The slices up to the last sample's fill the width, and the axis
	 * is their span: bins are a power-of-two multiple of 1 us wide, so
	 * the recording ends in the second half of the NR_BINS. */
	uint64_t used = h->have_t0 ? (h->t_last - h->t0) / h->bin_ns + 1 : 1;
	double span_ns, slice_px;

	if (used > NR_BINS)
		used = NR_BINS;
	span_ns = (double)(used * h->bin_ns);
	slice_px = (double)width / (double)used;
	spe_sink_printf(o, "<h2 id=timeline>Timeline per CPU</h2>\n<p class=note>Samples per time slice "
	   "(%" PRIu64 " slices of %.3f ms; darker is more) and AUX flags where the kernel reported "
	   "them: ", used, (double)h->bin_ns / 1e6);
	for (size_t k = 0; k < sizeof(mk) / sizeof(mk[0]); k++)
		spe_sink_printf(o, "<span style=\"color:%s\">&#9660; %s</span> ", mk[k].color, mk[k].name);
	spe_sink_printf(o, "(a mark without a CPU is drawn above the rows).</p>\n");
	if (h->dropped_marks)
		spe_sink_printf(o, "<p class=note>%" PRIu64 " more flags not drawn.</p>\n", h->dropped_marks);
	if (rows <= 0)
		rows = 1;
	for (int c = 0; c < rows; c++)
		for (int b = 0; b < NR_BINS; b++)
			max = h->bins[c][b] > max ? h->bins[c][b] : max;
	spe_sink_printf(o, "<svg id=timeline-svg width=%d height=%d role=img>\n", left + NR_BINS * bw + 10,
	   (rows + 1) * rh + 30);
	for (int c = 0; c < rows; c++) {
		int y = (c + 1) * rh;

		spe_sink_printf(o, "<text x=4 y=%d>%s%d</text>\n", y + 13, c == MAX_CPUS ? "cpu>=" : "cpu ", c);
		spe_sink_printf(o, "<rect x=%d y=%d width=%d height=%d fill=\"#f4f4f4\"/>\n", left, y,
		   width, rh - 4);
		for (uint64_t b = 0; b < used; b++)
			if (h->bins[c][b])
				spe_sink_printf(o, "<rect x=%.2f y=%d width=%.2f height=%d fill=\"#1565c0\" "
				   "fill-opacity=\"%.3f\"><title>%u samples</title></rect>\n",
				   left + (double)b * slice_px, y, slice_px, rh - 4,
				   0.15 + 0.85 * (double)h->bins[c][b] / (double)max, h->bins[c][b]);
	}
	for (size_t i = 0; i < h->nr_marks; i++) {
		const struct mark *m = &h->marks[i];
		uint64_t t = m->time < h->t0 ? h->t0 : m->time;
		double x = left + (double)(t - h->t0) / span_ns * width;
		int y = m->cpu >= 0 && m->cpu < rows ? (m->cpu + 1) * rh : 4;
		const char *color = "#000", *name = "?";

		if (x > left + width)
			x = left + width;
		for (size_t k = 0; k < sizeof(mk) / sizeof(mk[0]); k++)
			if (mk[k].kind == m->kind) {
				color = mk[k].color;
				name = mk[k].name;
			}
		spe_sink_printf(o, "<path class=mark-%s d=\"M%.1f %d l-4 -6 h8 z\" fill=\"%s\"><title>%s, cpu %d, "
		   "time %" PRIu64 "</title></path>\n", name, x, y + 2, color, name, m->cpu, m->time);
	}
	spe_sink_printf(o, "<text x=%d y=%d>0</text><text id=timeline-end x=%d y=%d text-anchor=end>"
	   "%.3f ms</text>\n", left, (rows + 1) * rh + 14, left + width, (rows + 1) * rh + 14,
	   span_ns / 1e6);
	spe_sink_printf(o, "</svg>\n");
}

/* A sink into h->pre. */
static int pre_write(void *ctx, const char *text, size_t len)
{
	struct spe_html *h = ctx;

	while (h->pre_len + len > h->pre_cap) {
		size_t ncap = h->pre_cap ? h->pre_cap * 2 : 65536;
		char *n = realloc(h->pre, ncap);

		if (!n)
			return SPE_ERR_NOMEM;
		h->pre = n;
		h->pre_cap = ncap;
	}
	memcpy(h->pre + h->pre_len, text, len);
	h->pre_len += len;
	return 0;
}

int spe_html_select(struct spe_html *h, size_t top)
{
	struct spe_sink o = { pre_write, h, 0 };

	write_ds(&o, h, top ? top : 50);
	write_cost(&o, h, top ? top : 200);
	if (o.err)
		return o.err;
	spe_cost_free(h->cost);
	h->cost = NULL;
	spe_keyed_rows_free(&h->syms);
	h->selected = true;
	return spe_c2c_select(h->c2c);
}

int spe_html_write(const struct spe_html *h, const struct spe_html_meta *m,
		   int (*write)(void *ctx, const char *text, size_t len), void *ctx)
{
	struct spe_sink o = { write, ctx, 0 };

	spe_sink_printf(&o, "<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n"
	   "<meta name=viewport content=\"width=device-width\">\n<title>SPE report: ");
	esc(&o, m->path);
	spe_sink_printf(&o, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>SPE report: ", style);
	esc(&o, m->path);
	spe_sink_printf(&o, "</h1>\n<p><a href=\"#meta\">recording</a> &middot; <a href=\"#latency\">latency</a>"
	   " &middot; <a href=\"#datasrc\">data sources</a> &middot; <a href=\"#cost\">cost</a>"
	   " &middot; <a href=\"#c2c\">shared lines</a> &middot; <a href=\"#timeline\">timeline</a>"
	   "</p>\n");
	write_meta(&o, h, m);
	write_latency(&o, h);
	if (h->selected) {
		spe_sink_put(&o, h->pre, h->pre_len);
	} else {
		write_ds(&o, h, m->top ? m->top : 50);
		write_cost(&o, h, m->top ? m->top : 200);
	}
	write_c2c(&o, h, m->top ? m->top : 50);
	write_timeline(&o, h);
	spe_sink_printf(&o, "<p class=note>Written by spe-decode html.</p>\n<script>%s</script>\n"
	   "</body>\n</html>\n", script);
	return o.err;
}
