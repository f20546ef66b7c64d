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
 * a line is the total latency of all its loads and stores, in cycles,
 * saturated counters left out as in every view (views/latency_sum.h).
 *
 * Code without symbols is named by its 4 KiB page, as in the other views
 * (spe_view_unresolved_page()): an offset's entries are then per page of
 * such code, not per instruction, and the code interned is a page's.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "grow.h"
#include "key_text.h"
#include "latency_sum.h"
#include "spe_decode.h"
#include "spe_views.h"
#include "sink_printf.h"

#define LINE_SHIFT	6

/* The code at an ip: interned once, shared by the entries naming it. */
struct code {
	const char *sym, *dso, *srcline;
};

/* An offset of a shared line and the code touching it; a line's entries
 * are a list through the pool (next: index + 1, 0 ends it).  There is one
 * per access of a shared line at worst (a recording of code without
 * symbols and data all over: 440,000 of them in the benchmark's), so its
 * counts are 32-bit, as its latencies' count (lat.n) is: 80 bytes. */
struct entry {
	uint64_t ip;
	const struct code *code;
	uint64_t cpus;
	struct spe_lat_sum lat;
	uint32_t loads, stores, peer, remote;
	uint32_t next;
	uint32_t shared;		/* its line: an index into c->sh */
	uint8_t offset;
	bool page;			/* ip is a page of code without symbols */
};

/* Pass 1, every line touched: 16 bytes, there can be millions. */
struct line {
	uint64_t key;			/* address >> LINE_SHIFT << 4 | LINE_* */
	int32_t pid;			/* -1 for physical lines */
	int32_t first_agent;		/* the first CPU (or thread) seen */
};

#define LINE_USED	1u
#define LINE_PHYS	2u
#define LINE_MULTI	4u		/* a second CPU (or thread) touched it */
#define LINE_STORED	8u		/* a store touched it */

/* Pass 2, shared lines only. */
struct shared {
	uint64_t line;
	int32_t pid;
	bool phys;
	uint32_t first, last;		/* its entries' list: index + 1 */
	uint32_t nr_entries;
	struct spe_lat_sum cost;	/* total latencies of its loads and stores */
	uint64_t loads, nstores, peer, remote, llc, dram, l1l2, na, cpus;
};

#define ENTRY_SHIFT	12		/* entries per pool block: 4096 */

struct spe_c2c {
	struct line *lines;		/* pass 1: open addressing on (line, pid, phys) */
	size_t cap, used;
	struct shared *sh;		/* c->shared of them, after spe_c2c_select() */
	uint32_t *sh_index;		/* open addressing on the same: shared + 1 */
	size_t sh_cap;
	struct entry **blocks;		/* the entries of all shared lines */
	size_t nr_entries, nr_blocks, cap_blocks;
	/* Open addressing on (line, offset, ip): entry + 1.  A hot line
	 * gathers hundreds of entries, too many to walk its list per access. */
	uint32_t *ent_index;
	size_t ent_cap;
	struct code **pool;		/* interned code: entries repeat it */
	size_t pool_cap, pool_used;
	uint64_t accesses, shared, phys_lines, shared_accesses, shared_peer;
	bool per_thread;
	bool virt;			/* ignore physical addresses */
	bool wide;			/* a counter above 4095 was seen: 16-bit */
	enum spe_view_unresolved unresolved;
};

static struct entry *entry_at(const struct spe_c2c *c, uint32_t i)
{
	return &c->blocks[i >> ENTRY_SHIFT][i & ((1u << ENTRY_SHIFT) - 1)];
}

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

void spe_c2c_set_unresolved(struct spe_c2c *c, enum spe_view_unresolved u)
{
	c->unresolved = u;
}

/* A string's hash, NULL apart from "" (a code's srcline may be either). */
static uint64_t hash_str(const char *s, uint64_t h)
{
	return (spe_key_hash(s, h) ^ (s ? 0 : 1)) * 1099511628211ull;
}

static uint64_t hash_code(const char *sym, const char *dso, const char *srcline)
{
	return hash_str(srcline, hash_str(dso, hash_str(sym, SPE_KEY_HASH_SEED)));
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static char *dup_str(const char *s, bool *oom)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*oom = true;
	return d;
}

/* The interned code (sym, dso, srcline); NULL without memory. */
static const struct code *intern(struct spe_c2c *c, const char *sym, const char *dso,
				 const char *srcline)
{
	struct code *k;
	bool oom = false;
	size_t i;

	if ((c->pool_used + 1) * 2 > c->pool_cap) {
		size_t ncap = c->pool_cap ? c->pool_cap * 2 : 256;
		struct code **n = calloc(ncap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t j = 0; j < c->pool_cap; j++)
			if (c->pool[j]) {
				const struct code *o = c->pool[j];
				size_t h = hash_code(o->sym, o->dso, o->srcline) & (ncap - 1);

				while (n[h])
					h = (h + 1) & (ncap - 1);
				n[h] = c->pool[j];
			}
		free(c->pool);
		c->pool = n;
		c->pool_cap = ncap;
	}
	i = hash_code(sym, dso, srcline) & (c->pool_cap - 1);
	while (c->pool[i] && !(same_str(c->pool[i]->sym, sym) && same_str(c->pool[i]->dso, dso) &&
			       same_str(c->pool[i]->srcline, srcline)))
		i = (i + 1) & (c->pool_cap - 1);
	if (c->pool[i])
		return c->pool[i];
	k = malloc(sizeof(*k));
	if (!k)
		return NULL;
	*k = (struct code){ dup_str(sym, &oom), dup_str(dso, &oom), dup_str(srcline, &oom) };
	if (oom) {
		free((char *)k->sym);
		free((char *)k->dso);
		free((char *)k->srcline);
		free(k);
		return NULL;
	}
	c->pool[i] = k;
	c->pool_used++;
	return k;
}

void spe_c2c_free(struct spe_c2c *c)
{
	if (!c)
		return;
	free(c->sh);
	free(c->sh_index);
	free(c->ent_index);
	for (size_t i = 0; i < c->nr_blocks; i++)
		free(c->blocks[i]);
	free(c->blocks);
	for (size_t i = 0; i < c->pool_cap; i++)
		if (c->pool[i]) {
			free((char *)c->pool[i]->sym);
			free((char *)c->pool[i]->dso);
			free((char *)c->pool[i]->srcline);
			free(c->pool[i]);
		}
	free(c->pool);
	free(c->lines);
	free(c);
}

/* The line of a record: false when it is not a load/store with an address. */
static bool line_of(const struct spe_c2c *c, const struct spe_sample *s, uint64_t *line,
		    int32_t *pid, bool *phys)
{
	const struct spe_record *rec = s->qr->rec;
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
	*pid = s->pid;
	*phys = false;
	return true;
}

static size_t hash_line(uint64_t line, int32_t pid, bool phys, size_t cap)
{
	return (size_t)((line ^ ((uint64_t)(uint32_t)pid << 40) ^ phys) *
			0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static uint64_t line_key(uint64_t line, bool phys)
{
	return line << 4 | LINE_USED | (phys ? LINE_PHYS : 0);
}

/* A line's slot in the pass-1 table; the flags other than USED and PHYS
 * do not take part in the comparison. */
static size_t slot(const struct line *t, size_t cap, uint64_t line, int32_t pid, bool phys)
{
	uint64_t key = line_key(line, phys);
	size_t i = hash_line(line, pid, phys, cap);

	while (t[i].key && ((t[i].key & ~(uint64_t)(LINE_MULTI | LINE_STORED)) != key ||
			    t[i].pid != pid))
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
		if (c->lines[i].key) {
			const struct line *l = &c->lines[i];

			n[slot(n, ncap, l->key >> 4, l->pid, l->key & LINE_PHYS)] = *l;
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

	/* The counters' width, from every record as the cost table takes it. */
	for (int k = 0; k < 3; k++) {
		uint16_t v;

		if (spe_view_latency(vs->s->qr->rec, k, &v))
			c->wide |= spe_lat_is_wide(v);
	}
	if (!line_of(c, vs->s, &line, &pid, &phys))
		return 0;
	c->accesses++;
	agent = agent_of(c, vs->s);
	if ((c->used + 1) * 3 > c->cap * 2 && grow(c))
		return SPE_ERR_NOMEM;
	i = slot(c->lines, c->cap, line, pid, phys);
	l = &c->lines[i];
	if (!l->key) {
		*l = (struct line){ .key = line_key(line, phys), .pid = pid, .first_agent = agent };
		c->used++;
		c->phys_lines += phys;
	} else if (l->first_agent != agent) {
		l->key |= LINE_MULTI;
	}
	if (spe_view_op(vs->s->qr->rec) == SPE_REP_STORE)
		l->key |= LINE_STORED;
	return 0;
}

static size_t sh_slot(const struct spe_c2c *c, uint64_t line, int32_t pid, bool phys)
{
	size_t i = hash_line(line, pid, phys, c->sh_cap);

	while (c->sh_index[i]) {
		const struct shared *l = &c->sh[c->sh_index[i] - 1];

		if (l->line == line && l->pid == pid && l->phys == phys)
			break;
		i = (i + 1) & (c->sh_cap - 1);
	}
	return i;
}

/* The shared lines get a table of their own and the table of every line
 * is freed: pass 2 runs in the memory of the shared lines only. */
int spe_c2c_select(struct spe_c2c *c)
{
	const uint64_t want = LINE_USED | LINE_MULTI | LINE_STORED;
	size_t n = 0;

	for (size_t i = 0; i < c->cap; i++)
		n += (c->lines[i].key & want) == want;
	if (n >= UINT32_MAX / 2)
		return SPE_ERR_NOMEM;
	c->sh_cap = 16;
	while (c->sh_cap < n * 2)
		c->sh_cap *= 2;
	c->sh = calloc(n ? n : 1, sizeof(*c->sh));
	c->sh_index = calloc(c->sh_cap, sizeof(*c->sh_index));
	if (!c->sh || !c->sh_index)
		return SPE_ERR_NOMEM;
	for (size_t i = 0; i < c->cap; i++) {
		const struct line *l = &c->lines[i];
		struct shared *d;

		if ((l->key & want) != want)
			continue;
		d = &c->sh[c->shared];
		*d = (struct shared){ .line = l->key >> 4, .pid = l->pid,
				      .phys = l->key & LINE_PHYS };
		c->sh_index[sh_slot(c, d->line, d->pid, d->phys)] = (uint32_t)++c->shared;
	}
	free(c->lines);
	c->lines = NULL;
	c->cap = 0;
	return 0;
}

bool spe_c2c_wants(const struct spe_c2c *c, const struct spe_sample *s)
{
	uint64_t line;
	int32_t pid;
	bool phys;

	return c->shared && line_of(c, s, &line, &pid, &phys) &&
	       c->sh_index[sh_slot(c, line, pid, phys)];
}

static size_t ent_hash(uint32_t shared, unsigned offset, uint64_t ip, bool page, size_t cap)
{
	uint64_t h = ((uint64_t)shared << 9 | offset << 1 | page) * 0x9e3779b97f4a7c15ull ^ ip;

	h *= 0xff51afd7ed558ccdull;
	return (size_t)(h ^ h >> 32) & (cap - 1);
}

static size_t ent_slot(const struct spe_c2c *c, uint32_t shared, unsigned offset, uint64_t ip,
		       bool page)
{
	size_t i = ent_hash(shared, offset, ip, page, c->ent_cap);

	while (c->ent_index[i]) {
		const struct entry *e = entry_at(c, c->ent_index[i] - 1);

		if (e->shared == shared && e->offset == offset && e->ip == ip && e->page == page)
			break;
		i = (i + 1) & (c->ent_cap - 1);
	}
	return i;
}

/* Room in the index for one more entry: at most half full. */
static int ent_index_reserve(struct spe_c2c *c)
{
	size_t ncap = c->ent_cap ? c->ent_cap * 2 : 1024;
	uint32_t *old = c->ent_index;
	size_t ocap = c->ent_cap;

	if ((c->nr_entries + 1) * 2 <= c->ent_cap)
		return 0;
	c->ent_index = calloc(ncap, sizeof(*c->ent_index));
	if (!c->ent_index) {
		c->ent_index = old;
		return SPE_ERR_NOMEM;
	}
	c->ent_cap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i]) {
			const struct entry *e = entry_at(c, old[i] - 1);

			c->ent_index[ent_slot(c, e->shared, e->offset, e->ip, e->page)] = old[i];
		}
	free(old);
	return 0;
}

static struct entry *entry_for(struct spe_c2c *c, struct shared *l, unsigned offset,
			       const struct spe_view_sample *vs)
{
	uint32_t shared = (uint32_t)(l - c->sh);
	bool page = !vs->sym->has_sym && c->unresolved == SPE_VIEW_UNRESOLVED_PAGE, in_dso;
	uint64_t ip = vs->s->ip;
	char sym[600];
	struct entry *e;
	const struct code *code;
	size_t slot;

	if (ent_index_reserve(c))
		return NULL;
	if (page)
		ip = spe_view_unresolved_page(vs->sym, ip, vs->s->cpumode, &in_dso);
	slot = ent_slot(c, shared, offset, ip, page);
	if (c->ent_index[slot])
		return entry_at(c, c->ent_index[slot] - 1);
	if (c->nr_entries >= UINT32_MAX - 1)
		return NULL;
	if (c->nr_entries == c->nr_blocks << ENTRY_SHIFT) {
		if (SPE_GROW(c->blocks, c->cap_blocks, c->nr_blocks, 16) ||
		    !(c->blocks[c->nr_blocks] = malloc(sizeof(struct entry) << ENTRY_SHIFT)))
			return NULL;
		c->nr_blocks++;
	}
	if (vs->sym->has_sym)
		snprintf(sym, sizeof(sym), "%s+0x%" PRIx64, vs->sym->name, vs->sym->offset);
	else if (page)
		spe_view_unresolved_name(vs->sym, vs->s->ip, vs->s->cpumode, sym, sizeof(sym));
	else
		snprintf(sym, sizeof(sym), "0x%" PRIx64, vs->s->ip);
	/* A page's instructions have source lines of their own: none. */
	code = intern(c, sym, vs->sym->dso, page ? NULL : vs->srcline);
	if (!code)
		return NULL;
	e = entry_at(c, (uint32_t)c->nr_entries);
	*e = (struct entry){ .offset = (uint8_t)offset, .ip = ip, .code = code,
			     .shared = shared, .page = page };
	/* Appended: the list keeps the order the entries appeared in. */
	if (l->last)
		entry_at(c, l->last - 1)->next = (uint32_t)c->nr_entries + 1;
	else
		l->first = (uint32_t)c->nr_entries + 1;
	l->last = (uint32_t)++c->nr_entries;
	l->nr_entries++;
	c->ent_index[slot] = l->last;
	return e;
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

	if (!c->shared || !line_of(c, vs->s, &line, &pid, &phys))
		return 0;
	i = sh_slot(c, line, pid, phys);
	if (!c->sh_index[i])
		return 0;
	l = &c->sh[c->sh_index[i] - 1];
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
		spe_lat_sum_add(&l->cost, lat);
		spe_lat_sum_add(&e->lat, lat);
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
		.sat_value = c->wide ? SPE_LAT_SAT16 : SPE_LAT_SAT12,
	};
	for (size_t i = 0; i < c->shared; i++)
		s->shared_sat += spe_lat_sum_get(&c->sh[i].cost, c->wide).sat;
}

static enum spe_c2c_order sort_order;
static bool sort_wide;

static uint64_t line_cost(const struct shared *l, bool wide)
{
	return spe_lat_sum_get(&l->cost, wide).sum;
}

static uint64_t order_value(const struct shared *l, enum spe_c2c_order o)
{
	switch (o) {
	case SPE_C2C_PEER: return l->peer;
	case SPE_C2C_SAMPLES: return l->loads + l->nstores;
	case SPE_C2C_STORES: return l->nstores;
	default: return line_cost(l, sort_wide);
	}
}

static int cmp_line(const void *a, const void *b)
{
	const struct shared *x = *(const struct shared *const *)a;
	const struct shared *y = *(const struct shared *const *)b;
	uint64_t vx = order_value(x, sort_order), vy = order_value(y, sort_order);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (line_cost(x, sort_wide) != line_cost(y, sort_wide))
		return line_cost(x, sort_wide) < line_cost(y, sort_wide) ? 1 : -1;
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

/* The shared lines, sorted by order: a malloc'ed array of c->shared
 * pointers, or NULL without memory. */
static const struct shared **sorted_lines(const struct spe_c2c *c, enum spe_c2c_order order)
{
	const struct shared **sel = malloc((c->shared ? c->shared : 1) * sizeof(*sel));

	if (!sel)
		return NULL;
	for (size_t i = 0; i < c->shared; i++)
		sel[i] = &c->sh[i];
	sort_order = order;
	sort_wide = c->wide;
	qsort(sel, c->shared, sizeof(*sel), cmp_line);
	return sel;
}

static void line_view(const struct spe_c2c *c, const struct shared *l, size_t first_entry,
		      struct spe_c2c_line_view *v)
{
	struct spe_lat_total cost = spe_lat_sum_get(&l->cost, c->wide);

	*v = (struct spe_c2c_line_view){
		.line = l->line << LINE_SHIFT, .phys = l->phys, .pid = l->pid,
		.cost = cost.sum, .lat_sat = cost.sat, .loads = l->loads, .stores = l->nstores, .peer = l->peer,
		.remote = l->remote, .llc = l->llc, .dram = l->dram, .l1l2 = l->l1l2,
		.na = l->na, .nr_cpus = popcount64(l->cpus), .first_entry = first_entry,
		.nr_entries = l->nr_entries,
	};
}

/* The line's entries into ev[0 .. l->nr_entries), in the printed order. */
static void entry_views(const struct spe_c2c *c, const struct shared *l,
			struct spe_c2c_entry_view *ev)
{
	size_t j = 0;

	for (uint32_t i = l->first; i; i = entry_at(c, i - 1)->next) {
		const struct entry *e = entry_at(c, i - 1);
		struct spe_lat_total lat = spe_lat_sum_get(&e->lat, c->wide);

		ev[j++] = (struct spe_c2c_entry_view){
			.offset = e->offset, .ip = e->ip, .sym = e->code->sym, .dso = e->code->dso,
			.srcline = e->code->srcline, .loads = e->loads, .stores = e->stores,
			.peer = e->peer, .remote = e->remote, .lat_sum = lat.sum,
			.lat_n = lat.n, .lat_sat = lat.sat, .cpus = e->cpus,
		};
	}
	qsort(ev, j, sizeof(*ev), cmp_entry);
}

long spe_c2c_lines(const struct spe_c2c *c, enum spe_c2c_order order, size_t top,
		   struct spe_c2c_line_view **lines, struct spe_c2c_entry_view **entries)
{
	const struct shared **sel = sorted_lines(c, order);
	struct spe_c2c_line_view *lv;
	struct spe_c2c_entry_view *ev;
	size_t n = c->shared, ne = 0, k = 0;

	if (!sel)
		return SPE_ERR_NOMEM;
	if (top && n > top)
		n = top;
	for (size_t i = 0; i < n; i++)
		ne += sel[i]->nr_entries;
	lv = malloc((n ? n : 1) * sizeof(*lv));
	ev = malloc((ne ? ne : 1) * sizeof(*ev));
	if (!lv || !ev) {
		free(sel);
		free(lv);
		free(ev);
		return SPE_ERR_NOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		line_view(c, sel[i], k, &lv[i]);
		entry_views(c, sel[i], ev + k);
		k += sel[i]->nr_entries;
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
	struct spe_c2c_line_view line, *lv = &line;
	struct spe_c2c_entry_view *ev;
	struct spe_c2c_summary s;
	const char *who;
	const struct shared **sel = sorted_lines(c, order);
	size_t n = c->shared, max_entries = 1;

	/* One line's views at a time: the report of a million shared lines
	 * prints in the memory of its sort. */
	if (top && n > top)
		n = top;
	for (size_t i = 0; sel && i < n; i++)
		if (sel[i]->nr_entries > max_entries)
			max_entries = sel[i]->nr_entries;
	ev = sel ? malloc(max_entries * sizeof(*ev)) : NULL;
	if (!ev) {
		free(sel);
		return SPE_ERR_NOMEM;
	}
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
	spe_sink_printf(&o, "# cost and mean latency leave out saturated counters (%u): %" PRIu64
	   " accesses of shared lines\n", s.sat_value, s.shared_sat);
	if (s.per_thread)
		spe_sink_printf(&o, "# a per-thread recording has no CPUs: threads stand in for them\n");
	spe_sink_printf(&o, "\n## Shared cache lines, ordered by %s\n", order_names[order]);
	spe_sink_printf(&o, "%5s %18s %6s %10s %8s %7s %7s %5s %6s %6s %6s %6s %6s\n", "idx", "line", "space",
	   "cost", "records", "loads", "stores", s.per_thread ? "thrds" : "cpus", "peer",
	   "remote", "llc", "dram", "l1/l2");
	for (size_t i = 0; i < n && !o.err; i++) {
		char space[24];

		line_view(c, sel[i], 0, lv);
		if (lv->phys)
			snprintf(space, sizeof(space), "phys");
		else
			snprintf(space, sizeof(space), "pid%d", lv->pid);
		spe_sink_printf(&o, "%5zu %#18" PRIx64 " %6s %10" PRIu64 " %8" PRIu64 " %7" PRIu64 " %7" PRIu64
		   " %5u %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 "\n", i,
		   lv->line, space, lv->cost, lv->loads + lv->stores, lv->loads,
		   lv->stores, lv->nr_cpus, lv->peer, lv->remote, lv->llc, lv->dram,
		   lv->l1l2);
	}
	for (size_t i = 0; i < n && !o.err; i++) {
		line_view(c, sel[i], 0, lv);
		entry_views(c, sel[i], ev);
		spe_sink_printf(&o, "\n## Line %zu: %#" PRIx64 " (%s)\n", i, lv->line,
		   lv->phys ? "physical" : "virtual");
		spe_sink_printf(&o, "%6s %7s %7s %6s %6s %8s  %-16s %s\n", "offset", "loads", "stores", "peer",
		   "remote", "mean lat", s.per_thread ? "threads" : "cpus", "code");
		for (size_t j = 0; j < lv->nr_entries; j++) {
			const struct spe_c2c_entry_view *e = &ev[j];
			char cpus[256];

			cpu_list(e->cpus, cpus, sizeof(cpus));
			spe_sink_printf(&o, "  0x%02x %7" PRIu64 " %7" PRIu64 " %6" PRIu64 " %6" PRIu64 " %8.1f  %-16s %s"
			   " (%s) %s\n", e->offset, e->loads, e->stores, e->peer, e->remote,
			   e->lat_n ? (double)e->lat_sum / (double)e->lat_n : 0.0, cpus, e->sym,
			   e->dso, e->srcline ? e->srcline : "??:0");
		}
	}
	free(sel);
	free(ev);
	return o.err;
}
