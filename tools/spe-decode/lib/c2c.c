// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Cache-line contention (spe_views.h): which 64-byte lines more than one
 * CPU touches with at least one store, and, for each, its offsets and the
 * code touching each offset with its CPUs, latency and data sources.
 *
 * SPE has no HITM (a load that hit a line modified in another core's
 * cache): its data sources say where a load was served from, not the
 * line's state there.  What stands in for it is "peer": a load served
 * from another core's or cluster's cache (perf_mem_data_src snoopx PEER),
 * a cache-to-cache transfer, which is what contention costs.  The cost of
 * a line is the total latency of all its loads and stores, in cycles.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "grow.h"
#include "spe_decode.h"
#include "spe_views.h"
#include "sink_printf.h"

#define LINE_SHIFT	6

struct entry {
	unsigned offset;
	uint64_t ip;
	const char *sym, *dso, *srcline;	/* interned in the pool */
	uint64_t loads, stores, peer, remote, lat_sum, lat_n, cpus;
};

/* Pass 1, every line touched: kept small, there can be millions. */
struct line {
	uint64_t line;			/* address >> LINE_SHIFT */
	int32_t pid;			/* -1 for physical lines */
	int32_t first_agent;		/* the first CPU (or thread) seen */
	uint32_t stores;		/* saturates: only "any" matters */
	uint32_t sh;			/* shared line index + 1, 0: not shared */
	bool phys, used, multi;
};

/* Pass 2, shared lines only. */
struct shared {
	uint64_t line;
	int32_t pid;
	bool phys;
	uint64_t cost, loads, nstores, peer, remote, llc, dram, l1l2, na, cpus;
	struct entry *entries;
	size_t nr_entries, cap_entries;
};

struct spe_c2c {
	struct line *lines;		/* open addressing on (line, pid, phys) */
	size_t cap, used;
	struct shared *sh;		/* c->shared of them, after spe_c2c_select() */
	char **pool;			/* interned strings: entries repeat them */
	size_t pool_cap, pool_used;
	uint64_t accesses, shared, phys_lines, shared_accesses, shared_peer;
	bool per_thread;
	bool virt;			/* ignore physical addresses */
};

int spe_c2c_new(struct spe_c2c **out, bool virt)
{
	struct spe_c2c *c = calloc(1, sizeof(*c));

	*out = c;
	if (!c)
		return SPE_ERR_NOMEM;
	c->virt = virt;
	c->cap = 1024;
	c->lines = calloc(c->cap, sizeof(*c->lines));
	return c->lines ? 0 : SPE_ERR_NOMEM;
}

static void free_entries(struct shared *l)
{
	free(l->entries);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

/* The pooled copy of s (NULL stays NULL; NULL without memory). */
static const char *intern(struct spe_c2c *c, const char *s, bool *oom)
{
	size_t i;

	if (!s)
		return NULL;
	if ((c->pool_used + 1) * 2 > c->pool_cap) {
		size_t ncap = c->pool_cap ? c->pool_cap * 2 : 256;
		char **n = calloc(ncap, sizeof(*n));

		if (!n) {
			*oom = true;
			return NULL;
		}
		for (size_t j = 0; j < c->pool_cap; j++)
			if (c->pool[j]) {
				size_t k = hash_str(c->pool[j]) & (ncap - 1);

				while (n[k])
					k = (k + 1) & (ncap - 1);
				n[k] = c->pool[j];
			}
		free(c->pool);
		c->pool = n;
		c->pool_cap = ncap;
	}
	i = hash_str(s) & (c->pool_cap - 1);
	while (c->pool[i] && strcmp(c->pool[i], s))
		i = (i + 1) & (c->pool_cap - 1);
	if (!c->pool[i]) {
		if (!(c->pool[i] = strdup(s))) {
			*oom = true;
			return NULL;
		}
		c->pool_used++;
	}
	return c->pool[i];
}

void spe_c2c_free(struct spe_c2c *c)
{
	if (!c)
		return;
	for (size_t i = 0; c->sh && i < c->shared; i++)
		free_entries(&c->sh[i]);
	free(c->sh);
	for (size_t i = 0; i < c->pool_cap; i++)
		free(c->pool[i]);
	free(c->pool);
	free(c->lines);
	free(c);
}

/* The line of a record: false when it is not a load/store with an address. */
static bool line_of(const struct spe_c2c *c, const struct spe_view_sample *vs, uint64_t *line,
		    int32_t *pid, bool *phys)
{
	const struct spe_record *rec = vs->s->qr->rec;
	enum spe_rep_op op = spe_view_op(rec);

	if (op != SPE_REP_LOAD && op != SPE_REP_STORE)
		return false;
	if ((rec->present & SPE_REC_DATA_PA) && !c->virt) {
		*line = rec->data_pa >> LINE_SHIFT;
		*pid = -1;
		*phys = true;
		return true;
	}
	if (!(rec->present & SPE_REC_DATA_VA))
		return false;
	*line = rec->data_va >> LINE_SHIFT;
	*pid = vs->s->pid;
	*phys = false;
	return true;
}

static size_t slot(const struct line *t, size_t cap, uint64_t line, int32_t pid, bool phys)
{
	size_t i = (size_t)((line ^ ((uint64_t)(uint32_t)pid << 40) ^ phys) *
			    0x9e3779b97f4a7c15ull >> 20) & (cap - 1);

	while (t[i].used && (t[i].line != line || t[i].pid != pid || t[i].phys != phys))
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow(struct spe_c2c *c)
{
	size_t ncap = c->cap * 2;
	struct line *n = calloc(ncap, sizeof(*n));

	if (!n)
		return SPE_ERR_NOMEM;
	for (size_t i = 0; i < c->cap; i++)
		if (c->lines[i].used) {
			const struct line *l = &c->lines[i];

			n[slot(n, ncap, l->line, l->pid, l->phys)] = *l;
		}
	free(c->lines);
	c->lines = n;
	c->cap = ncap;
	return 0;
}

static int32_t agent_of(struct spe_c2c *c, const struct spe_sample *s)
{
	if (s->cpu >= 0)
		return s->cpu;
	c->per_thread = true;
	return s->tid;
}

int spe_c2c_scan(struct spe_c2c *c, const struct spe_view_sample *vs)
{
	uint64_t line;
	int32_t pid, agent;
	bool phys;
	struct line *l;
	size_t i;

	if (!line_of(c, vs, &line, &pid, &phys))
		return 0;
	c->accesses++;
	agent = agent_of(c, vs->s);
	if ((c->used + 1) * 3 > c->cap * 2 && grow(c))
		return SPE_ERR_NOMEM;
	i = slot(c->lines, c->cap, line, pid, phys);
	l = &c->lines[i];
	if (!l->used) {
		*l = (struct line){ .line = line, .pid = pid, .phys = phys, .used = true,
				    .first_agent = agent };
		c->used++;
		c->phys_lines += phys;
	} else if (l->first_agent != agent) {
		l->multi = true;
	}
	if (spe_view_op(vs->s->qr->rec) == SPE_REP_STORE && l->stores < UINT32_MAX)
		l->stores++;
	return 0;
}

int spe_c2c_select(struct spe_c2c *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->cap; i++) {
		const struct line *l = &c->lines[i];

		n += l->used && l->multi && l->stores;
	}
	c->sh = calloc(n ? n : 1, sizeof(*c->sh));
	if (!c->sh)
		return SPE_ERR_NOMEM;
	for (size_t i = 0; i < c->cap; i++) {
		struct line *l = &c->lines[i];

		if (!(l->used && l->multi && l->stores))
			continue;
		c->sh[c->shared] = (struct shared){ .line = l->line, .pid = l->pid,
						    .phys = l->phys };
		l->sh = (uint32_t)++c->shared;
	}
	return 0;
}

static struct entry *entry_for(struct spe_c2c *c, struct shared *l, unsigned offset,
			       const struct spe_view_sample *vs)
{
	char sym[256];
	bool oom = false;

	for (size_t i = 0; i < l->nr_entries; i++)
		if (l->entries[i].offset == offset && l->entries[i].ip == vs->s->ip)
			return &l->entries[i];
	if (SPE_GROW(l->entries, l->cap_entries, l->nr_entries, 8))
		return NULL;
	if (vs->sym->has_sym)
		snprintf(sym, sizeof(sym), "%s+0x%" PRIx64, vs->sym->name, vs->sym->offset);
	else
		snprintf(sym, sizeof(sym), "0x%" PRIx64, vs->s->ip);
	l->entries[l->nr_entries] = (struct entry){
		.offset = offset, .ip = vs->s->ip, .sym = intern(c, sym, &oom),
		.dso = intern(c, vs->sym->dso, &oom), .srcline = intern(c, vs->srcline, &oom),
	};
	if (oom)
		return NULL;
	return &l->entries[l->nr_entries++];
}

int spe_c2c_detail(struct spe_c2c *c, const struct spe_view_sample *vs)
{
	const struct spe_record *rec = vs->s->qr->rec;
	uint64_t line, addr;
	int32_t pid, agent;
	bool phys, store;
	struct shared *l;
	struct entry *e;
	uint16_t lat;
	size_t i;

	if (!line_of(c, vs, &line, &pid, &phys))
		return 0;
	i = slot(c->lines, c->cap, line, pid, phys);
	if (!c->lines[i].used || !c->lines[i].sh)
		return 0;
	l = &c->sh[c->lines[i].sh - 1];
	addr = phys ? rec->data_pa : rec->data_va;
	store = spe_view_op(rec) == SPE_REP_STORE;
	agent = vs->s->cpu >= 0 ? vs->s->cpu : vs->s->tid;
	e = entry_for(c, l, (unsigned)(addr & ((1u << LINE_SHIFT) - 1)), vs);
	if (!e)
		return SPE_ERR_NOMEM;
	c->shared_accesses++;
	if (store) {
		l->nstores++;
		e->stores++;
	} else {
		enum spe_view_ds k = spe_view_ds_class(vs->s->data_src);

		l->loads++;
		e->loads++;
		l->peer += k == SPE_VIEW_DS_PEER;
		e->peer += k == SPE_VIEW_DS_PEER;
		c->shared_peer += k == SPE_VIEW_DS_PEER;
		l->remote += k == SPE_VIEW_DS_REMOTE;
		e->remote += k == SPE_VIEW_DS_REMOTE;
		l->llc += k == SPE_VIEW_DS_LLC;
		l->dram += k == SPE_VIEW_DS_DRAM;
		l->l1l2 += k == SPE_VIEW_DS_L1 || k == SPE_VIEW_DS_L2;
		l->na += k == SPE_VIEW_DS_NA;
	}
	if (spe_view_latency(rec, 0, &lat)) {
		l->cost += lat;
		e->lat_sum += lat;
		e->lat_n++;
	}
	{
		uint64_t bit = agent >= 0 && agent < 63 ? 1ull << agent : 1ull << 63;

		e->cpus |= bit;
		l->cpus |= bit;
	}
	return 0;
}

void spe_c2c_summary(const struct spe_c2c *c, struct spe_c2c_summary *s)
{
	*s = (struct spe_c2c_summary){
		.accesses = c->accesses, .lines = c->used, .shared_lines = c->shared,
		.phys_lines = c->phys_lines, .shared_accesses = c->shared_accesses,
		.shared_peer = c->shared_peer, .per_thread = c->per_thread,
	};
}

static uint64_t order_value(const struct shared *l, enum spe_c2c_order o)
{
	switch (o) {
	case SPE_C2C_PEER: return l->peer;
	case SPE_C2C_SAMPLES: return l->loads + l->nstores;
	case SPE_C2C_STORES: return l->nstores;
	default: return l->cost;
	}
}

static enum spe_c2c_order sort_order;

static int cmp_line(const void *a, const void *b)
{
	const struct shared *x = *(const struct shared *const *)a;
	const struct shared *y = *(const struct shared *const *)b;
	uint64_t vx = order_value(x, sort_order), vy = order_value(y, sort_order);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	if (x->phys != y->phys)
		return x->phys ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct spe_c2c_entry_view *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->loads + x->stores != y->loads + y->stores)
		return x->loads + x->stores < y->loads + y->stores ? 1 : -1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static unsigned popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

long spe_c2c_lines(const struct spe_c2c *c, enum spe_c2c_order order,
		   struct spe_c2c_line_view **lines, struct spe_c2c_entry_view **entries)
{
	const struct shared **sel = malloc((c->shared ? c->shared : 1) * sizeof(*sel));
	struct spe_c2c_line_view *lv;
	struct spe_c2c_entry_view *ev;
	size_t n = 0, ne = 0, k = 0;

	if (!sel)
		return SPE_ERR_NOMEM;
	for (size_t i = 0; i < c->shared; i++) {
		sel[n++] = &c->sh[i];
		ne += c->sh[i].nr_entries;
	}
	sort_order = order;
	qsort(sel, n, sizeof(*sel), cmp_line);
	lv = malloc((n ? n : 1) * sizeof(*lv));
	ev = malloc((ne ? ne : 1) * sizeof(*ev));
	if (!lv || !ev) {
		free(sel);
		free(lv);
		free(ev);
		return SPE_ERR_NOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct shared *l = sel[i];

		lv[i] = (struct spe_c2c_line_view){
			.line = l->line << LINE_SHIFT, .phys = l->phys, .pid = l->pid,
			.cost = l->cost, .loads = l->loads, .stores = l->nstores, .peer = l->peer,
			.remote = l->remote, .llc = l->llc, .dram = l->dram, .l1l2 = l->l1l2,
			.na = l->na, .nr_cpus = popcount64(l->cpus), .first_entry = k,
			.nr_entries = l->nr_entries,
		};
		for (size_t j = 0; j < l->nr_entries; j++) {
			const struct entry *e = &l->entries[j];

			ev[k + j] = (struct spe_c2c_entry_view){
				.offset = e->offset, .ip = e->ip, .sym = e->sym, .dso = e->dso,
				.srcline = e->srcline, .loads = e->loads, .stores = e->stores,
				.peer = e->peer, .remote = e->remote, .lat_sum = e->lat_sum,
				.lat_n = e->lat_n, .cpus = e->cpus,
			};
		}
		qsort(ev + k, l->nr_entries, sizeof(*ev), cmp_entry);
		k += l->nr_entries;
	}
	free(sel);
	*lines = lv;
	*entries = ev;
	return (long)n;
}

/* "0,1,5" (a CPU above 62 shows as "63+"). */
static void cpu_list(uint64_t m, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = 0;
	for (int i = 0; i < 64 && pos < len; i++)
		if (m >> i & 1) {
			int n = snprintf(buf + pos, len - pos, "%s%d%s", pos ? "," : "", i,
					 i == 63 ? "+" : "");

			if (n < 0)
				break;
			pos += (size_t)n;
		}
}

int spe_c2c_print(const struct spe_c2c *c, enum spe_c2c_order order, size_t top,
		  int (*write)(void *ctx, const char *text, size_t len), void *ctx)
{
	static const char *const order_names[] = { "cost", "peer", "samples", "stores" };
	struct spe_sink o = { write, ctx, 0 };
	struct spe_c2c_line_view *lv;
	struct spe_c2c_entry_view *ev;
	struct spe_c2c_summary s;
	const char *who;
	long n = spe_c2c_lines(c, order, &lv, &ev);

	if (n < 0)
		return (int)n;
	spe_c2c_summary(c, &s);
	who = s.per_thread ? "thread" : "CPU";
	spe_sink_printf(&o, "# loads and stores with a data address: %" PRIu64 "\n", s.accesses);
	spe_sink_printf(&o, "# cache lines (64 bytes) touched: %" PRIu64 " (%" PRIu64 " by physical address, "
	   "the others virtual per process)\n", s.lines, s.phys_lines);
	spe_sink_printf(&o, "# shared lines (more than one %s, at least one store): %" PRIu64 ", with %" PRIu64
	   " accesses, %" PRIu64 " loads from a peer cache\n", who, s.shared_lines,
	   s.shared_accesses, s.shared_peer);
	spe_sink_printf(&o, "# SPE has no HITM: 'peer' counts loads served from another core's or cluster's\n"
	   "# cache (cache-to-cache transfers) instead; cost is the total latency (cycles)\n"
	   "# of all the line's loads and stores\n");
	if (s.per_thread)
		spe_sink_printf(&o, "# a per-thread recording has no CPUs: threads stand in for them\n");
	spe_sink_printf(&o, "\n## Shared cache lines, ordered by %s\n", order_names[order]);
	spe_sink_printf(&o, "%5s %18s %6s %10s %8s %7s %7s %5s %6s %6s %6s %6s %6s\n", "idx", "line", "space",
	   "cost", "records", "loads", "stores", s.per_thread ? "thrds" : "cpus", "peer",
	   "remote", "llc", "dram", "l1/l2");
	for (long i = 0; i < n && (!top || (size_t)i < top); i++) {
		char space[24];

		if (lv[i].phys)
			snprintf(space, sizeof(space), "phys");
		else
			snprintf(space, sizeof(space), "pid%d", lv[i].pid);
		spe_sink_printf(&o, "%5ld %#18" PRIx64 " %6s %10" PRIu64 " %8" PRIu64 " %7" PRIu64 " %7" PRIu64
		   " %5u %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 "\n", i,
		   lv[i].line, space, lv[i].cost, lv[i].loads + lv[i].stores, lv[i].loads,
		   lv[i].stores, lv[i].nr_cpus, lv[i].peer, lv[i].remote, lv[i].llc, lv[i].dram,
		   lv[i].l1l2);
	}
	for (long i = 0; i < n && (!top || (size_t)i < top); i++) {
		spe_sink_printf(&o, "\n## Line %ld: %#" PRIx64 " (%s)\n", i, lv[i].line,
		   lv[i].phys ? "physical" : "virtual");
		spe_sink_printf(&o, "%6s %7s %7s %6s %6s %8s  %-16s %s\n", "offset", "loads", "stores", "peer",
		   "remote", "mean lat", s.per_thread ? "threads" : "cpus", "code");
		for (size_t j = 0; j < lv[i].nr_entries; j++) {
			const struct spe_c2c_entry_view *e = &ev[lv[i].first_entry + j];
			char cpus[256];

			cpu_list(e->cpus, cpus, sizeof(cpus));
			spe_sink_printf(&o, "  0x%02x %7" PRIu64 " %7" PRIu64 " %6" PRIu64 " %6" PRIu64 " %8.1f  %-16s %s"
			   " (%s) %s\n", e->offset, e->loads, e->stores, e->peer, e->remote,
			   e->lat_n ? (double)e->lat_sum / (double)e->lat_n : 0.0, cpus, e->sym,
			   e->dso, e->srcline ? e->srcline : "??:0");
		}
	}
	free(lv);
	free(ev);
	return o.err;
}
