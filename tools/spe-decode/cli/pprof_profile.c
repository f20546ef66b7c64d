// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The pprof profile of SPE records (pprof_profile.h): records aggregated
 * by instruction and labels into samples, locations, functions and
 * mappings, then built as a perftools.profiles.Profile message
 * (proto/profile.proto, compiled by protoc-c), packed by protobuf-c and
 * gzip-compressed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "pprof_profile.h"
#include "profile.pb-c.h"
#include "spe/packet.h"
#include "spe_decode.h"

enum { V_SAMPLES, V_LATENCY, V_L1D, V_LLC, V_TLB, V_MISPRED, NR_VALUES };

static const char *const value_names[NR_VALUES][2] = {
	{ "samples", "count" }, { "latency", "cycles" }, { "l1d-miss", "count" },
	{ "llc-miss", "count" }, { "tlb-walk", "count" }, { "mispredict", "count" },
};

/* A string-keyed hash map to indices (the string table, functions,
 * locations, mappings and samples are all found by a text key). */
struct strmap {
	char **keys;
	uint64_t *vals;
	size_t cap, used;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static size_t map_slot(const struct strmap *m, const char *k)
{
	size_t i = hash_str(k) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], k))
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The index of k, or -1 when absent. */
static int64_t map_get(const struct strmap *m, const char *k)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = map_slot(m, k);
	return m->keys[i] ? (int64_t)m->vals[i] : -1;
}

static int map_put(struct strmap *m, const char *k, uint64_t v)
{
	size_t i;

	if ((m->used + 1) * 2 > m->cap) {
		struct strmap n = { .cap = m->cap ? m->cap * 2 : 256 };

		n.keys = calloc(n.cap, sizeof(*n.keys));
		n.vals = calloc(n.cap, sizeof(*n.vals));
		if (!n.keys || !n.vals) {
			free(n.keys);
			free(n.vals);
			return -ENOMEM;
		}
		for (size_t j = 0; j < m->cap; j++)
			if (m->keys[j]) {
				size_t s = map_slot(&n, m->keys[j]);

				n.keys[s] = m->keys[j];
				n.vals[s] = m->vals[j];
			}
		n.used = m->used;
		free(m->keys);
		free(m->vals);
		*m = n;
	}
	i = map_slot(m, k);
	if (!(m->keys[i] = strdup(k)))
		return -ENOMEM;
	m->vals[i] = v;
	m->used++;
	return 0;
}

static void map_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
}

/* Grows an array of n elements to hold one more. */
static void *push(void *arr, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 64;
	return realloc(arr, *cap * size);
}

struct loc {
	uint64_t address, mapping_id, function_id;
	int64_t line;
};

struct smp {
	uint64_t location_id;
	int64_t op, ds;			/* string indices of the labels */
	int64_t v[NR_VALUES];
	int64_t at4095;			/* total latencies of 4095: saturated unless
					 * the counters turn out 16-bit */
};

struct spe_pprof {
	struct strmap strs, funcs, locs, maps, smps;
	char **strings;
	size_t nr_strings, cap_strings;
	int64_t *func_name, *func_file;	/* per function (id - 1) */
	size_t nr_funcs, cap_funcs, cap_funcs2;
	int64_t *map_file;		/* per mapping */
	size_t nr_maps, cap_maps;
	struct loc *locs_a;
	size_t nr_locs, cap_locs;
	struct smp *smps_a;
	size_t nr_smps, cap_smps;
	uint64_t t_first, t_last;
	bool wide;			/* a latency above 4095: 16-bit counters */
	bool oom;
};

static int64_t str_id(struct spe_pprof *p, const char *s)
{
	int64_t id = map_get(&p->strs, s);
	char **n;

	if (id >= 0)
		return id;
	n = push(p->strings, p->nr_strings, &p->cap_strings, sizeof(*n));
	if (!n)
		goto oom;
	p->strings = n;
	if (!(p->strings[p->nr_strings] = strdup(s)) || map_put(&p->strs, s, p->nr_strings))
		goto oom;
	return (int64_t)p->nr_strings++;
oom:
	p->oom = true;
	return 0;
}

static uint64_t func_id(struct spe_pprof *p, const char *name, const char *file)
{
	char key[1024];
	int64_t id;
	int64_t *a, *b;

	snprintf(key, sizeof(key), "%s\x1f%s", name, file);
	id = map_get(&p->funcs, key);
	if (id >= 0)
		return (uint64_t)id;
	a = push(p->func_name, p->nr_funcs, &p->cap_funcs, sizeof(*a));
	if (a)
		p->func_name = a;
	b = push(p->func_file, p->nr_funcs, &p->cap_funcs2, sizeof(*b));
	if (b)
		p->func_file = b;
	if (!a || !b || map_put(&p->funcs, key, p->nr_funcs + 1)) {
		p->oom = true;
		return 0;
	}
	p->func_name[p->nr_funcs] = str_id(p, name);
	p->func_file[p->nr_funcs] = str_id(p, file);
	return ++p->nr_funcs;
}

static uint64_t mapping_id(struct spe_pprof *p, const char *dso)
{
	int64_t id = map_get(&p->maps, dso);
	int64_t *a;

	if (id >= 0)
		return (uint64_t)id;
	a = push(p->map_file, p->nr_maps, &p->cap_maps, sizeof(*a));
	if (!a || map_put(&p->maps, dso, p->nr_maps + 1)) {
		p->oom = true;
		return 0;
	}
	p->map_file = a;
	p->map_file[p->nr_maps] = str_id(p, dso);
	return ++p->nr_maps;
}

static uint64_t location_id(struct spe_pprof *p, const struct spe_view_sample *vs)
{
	const struct spe_sym *sym = vs->sym;
	char key[1024], name[64], file[512] = "";
	const char *colon;
	int64_t id, line = 0;
	struct loc *a;

	snprintf(key, sizeof(key), "%s\x1f%" PRIx64, sym->dso, vs->s->ip);
	id = map_get(&p->locs, key);
	if (id >= 0)
		return (uint64_t)id;
	if (vs->srcline && (colon = strrchr(vs->srcline, ':'))) {
		snprintf(file, sizeof(file), "%.*s", (int)(colon - vs->srcline), vs->srcline);
		line = strtoll(colon + 1, NULL, 10);
	}
	/* An ip without a symbol is a function of its own, named by address. */
	snprintf(name, sizeof(name), "0x%" PRIx64, vs->s->ip);
	a = push(p->locs_a, p->nr_locs, &p->cap_locs, sizeof(*a));
	if (!a || map_put(&p->locs, key, p->nr_locs + 1)) {
		p->oom = true;
		return 0;
	}
	p->locs_a = a;
	p->locs_a[p->nr_locs] = (struct loc){
		.address = vs->s->ip, .mapping_id = mapping_id(p, sym->dso),
		.function_id = func_id(p, sym->has_sym ? sym->name : name, file), .line = line,
	};
	return ++p->nr_locs;
}

static const char *const op_names[SPE_REP_NR_OPS] = {
	[SPE_REP_LOAD] = "load", [SPE_REP_STORE] = "store",
	[SPE_REP_BRANCH] = "branch", [SPE_REP_OTHER] = "other",
};

int spe_pprof_add(struct spe_pprof *p, const struct spe_view_sample *vs)
{
	const struct spe_record *rec = vs->s->qr->rec;
	uint64_t ev = (rec->present & SPE_REC_EVENTS) ? rec->events : 0;
	enum spe_rep_op op = spe_view_op(rec);
	bool mem = op == SPE_REP_LOAD || op == SPE_REP_STORE;
	char key[256], ds[96] = "";
	uint64_t loc = location_id(p, vs);
	int64_t id;
	struct smp *s;
	uint16_t lat;

	if (!p->t_first)
		p->t_first = vs->s->time;
	p->t_last = vs->s->time;
	if (mem)
		spe_view_data_src_text(vs->s->data_src, ds, sizeof(ds));
	snprintf(key, sizeof(key), "%" PRIu64 "\x1f%d\x1f%s", loc, op, ds);
	id = map_get(&p->smps, key);
	if (id < 0) {
		s = push(p->smps_a, p->nr_smps, &p->cap_smps, sizeof(*s));
		if (!s || map_put(&p->smps, key, p->nr_smps)) {
			p->oom = true;
			return -ENOMEM;
		}
		p->smps_a = s;
		p->smps_a[p->nr_smps] = (struct smp){ .location_id = loc,
						      .op = str_id(p, op_names[op]),
						      .ds = mem ? str_id(p, ds) : 0 };
		id = (int64_t)p->nr_smps++;
	}
	s = &p->smps_a[id];
	s->v[V_SAMPLES]++;
	/* As report: a saturated counter is not a latency (the width is
	 * known at the end, see spe_views.h). */
	if (spe_view_latency(rec, 0, &lat)) {
		if (lat > SPE_LAT_SAT12)
			p->wide = true;
		if (lat == SPE_LAT_SAT12)
			s->at4095++;
		else if (lat != SPE_LAT_SAT16)
			s->v[V_LATENCY] += lat;
	}
	if (mem) {
		s->v[V_L1D] += !!(ev & SPE_EV_L1D_REFILL);
		s->v[V_LLC] += !!(ev & SPE_EV_LLC_MISS);
		s->v[V_TLB] += !!(ev & SPE_EV_TLB_WALK);
	} else if (op == SPE_REP_BRANCH) {
		s->v[V_MISPRED] += !!(ev & SPE_EV_MISPRED);
	}
	return p->oom ? -ENOMEM : 0;
}

/*
 * Builds the Profile message from the tables and packs it.  The
 * sub-messages live in arrays allocated here; *buf is malloc'ed.
 */
static int build(struct spe_pprof *p, const char *path, uint8_t **buf, size_t *len)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType vt[NR_VALUES], *vtp[NR_VALUES];
	Perftools__Profiles__Sample *sm = calloc(p->nr_smps + 1, sizeof(*sm));
	Perftools__Profiles__Sample **smp = calloc(p->nr_smps + 1, sizeof(*smp));
	Perftools__Profiles__Label *lb = calloc(2 * p->nr_smps + 1, sizeof(*lb));
	Perftools__Profiles__Label **lbp = calloc(2 * p->nr_smps + 1, sizeof(*lbp));
	Perftools__Profiles__Location *lc = calloc(p->nr_locs + 1, sizeof(*lc));
	Perftools__Profiles__Location **lcp = calloc(p->nr_locs + 1, sizeof(*lcp));
	Perftools__Profiles__Line *ln = calloc(p->nr_locs + 1, sizeof(*ln));
	Perftools__Profiles__Line **lnp = calloc(p->nr_locs + 1, sizeof(*lnp));
	Perftools__Profiles__Function *fn = calloc(p->nr_funcs + 1, sizeof(*fn));
	Perftools__Profiles__Function **fnp = calloc(p->nr_funcs + 1, sizeof(*fnp));
	Perftools__Profiles__Mapping *mp = calloc(p->nr_maps + 1, sizeof(*mp));
	Perftools__Profiles__Mapping **mpp = calloc(p->nr_maps + 1, sizeof(*mpp));
	int64_t comment, k_op = str_id(p, "op"), k_ds = str_id(p, "data_src");
	char text[600];
	int ret = -ENOMEM;

	snprintf(text, sizeof(text), "spe-decode pprof of %s: one sample per SPE record, "
		 "latency = total latency (cycles) of records without a saturated counter", path);
	comment = str_id(p, text);
	for (int i = 0; i < NR_VALUES; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = str_id(p, value_names[i][0]);
		vt[i].unit = str_id(p, value_names[i][1]);
		vtp[i] = &vt[i];
	}
	if (p->oom || !sm || !smp || !lb || !lbp || !lc || !lcp || !ln || !lnp || !fn || !fnp ||
	    !mp || !mpp)
		goto out;
	for (size_t i = 0; i < p->nr_smps; i++) {
		struct smp *s = &p->smps_a[i];

		if (p->wide) {
			s->v[V_LATENCY] += s->at4095 * (int64_t)SPE_LAT_SAT12;
			s->at4095 = 0;
		}
		perftools__profiles__sample__init(&sm[i]);
		sm[i].n_location_id = 1;
		sm[i].location_id = &s->location_id;
		sm[i].n_value = NR_VALUES;
		sm[i].value = s->v;
		perftools__profiles__label__init(&lb[2 * i]);
		lb[2 * i].key = k_op;
		lb[2 * i].str = s->op;
		lbp[2 * i] = &lb[2 * i];
		sm[i].label = &lbp[2 * i];
		sm[i].n_label = 1;
		if (s->ds) {
			perftools__profiles__label__init(&lb[2 * i + 1]);
			lb[2 * i + 1].key = k_ds;
			lb[2 * i + 1].str = s->ds;
			lbp[2 * i + 1] = &lb[2 * i + 1];
			sm[i].n_label = 2;
		}
		smp[i] = &sm[i];
	}
	for (size_t i = 0; i < p->nr_locs; i++) {
		perftools__profiles__location__init(&lc[i]);
		perftools__profiles__line__init(&ln[i]);
		lc[i].id = i + 1;
		lc[i].mapping_id = p->locs_a[i].mapping_id;
		lc[i].address = p->locs_a[i].address;
		ln[i].function_id = p->locs_a[i].function_id;
		ln[i].line = p->locs_a[i].line;
		lnp[i] = &ln[i];
		lc[i].n_line = 1;
		lc[i].line = &lnp[i];
		lcp[i] = &lc[i];
	}
	for (size_t i = 0; i < p->nr_funcs; i++) {
		perftools__profiles__function__init(&fn[i]);
		fn[i].id = i + 1;
		fn[i].name = fn[i].system_name = p->func_name[i];
		fn[i].filename = p->func_file[i];
		fnp[i] = &fn[i];
	}
	for (size_t i = 0; i < p->nr_maps; i++) {
		perftools__profiles__mapping__init(&mp[i]);
		mp[i].id = i + 1;
		mp[i].filename = p->map_file[i];
		/* Symbolised here: pprof must not look for the binaries. */
		mp[i].has_functions = mp[i].has_filenames = mp[i].has_line_numbers = true;
		mpp[i] = &mp[i];
	}
	if (p->oom)
		goto out;
	prof.n_sample_type = NR_VALUES;
	prof.sample_type = vtp;
	prof.n_sample = p->nr_smps;
	prof.sample = smp;
	prof.n_location = p->nr_locs;
	prof.location = lcp;
	prof.n_function = p->nr_funcs;
	prof.function = fnp;
	prof.n_mapping = p->nr_maps;
	prof.mapping = mpp;
	prof.n_string_table = p->nr_strings;
	prof.string_table = p->strings;
	/* perf's sample times count from boot, not the epoch: no time_nanos. */
	prof.duration_nanos = (int64_t)(p->t_last - p->t_first);
	prof.n_comment = 1;
	prof.comment = &comment;
	prof.default_sample_type = vt[V_LATENCY].type;
	*len = perftools__profiles__profile__get_packed_size(&prof);
	*buf = malloc(*len ? *len : 1);
	if (*buf) {
		perftools__profiles__profile__pack(&prof, *buf);
		ret = 0;
	}
out:
	free(sm);
	free(smp);
	free(lb);
	free(lbp);
	free(lc);
	free(lcp);
	free(ln);
	free(lnp);
	free(fn);
	free(fnp);
	free(mp);
	free(mpp);
	return ret;
}

void spe_pprof_free(struct spe_pprof *p)
{
	if (!p)
		return;
	map_free(&p->strs);
	map_free(&p->funcs);
	map_free(&p->locs);
	map_free(&p->maps);
	map_free(&p->smps);
	for (size_t i = 0; i < p->nr_strings; i++)
		free(p->strings[i]);
	free(p->strings);
	free(p->func_name);
	free(p->func_file);
	free(p->map_file);
	free(p->locs_a);
	free(p->smps_a);
	free(p);
}

/* gzip buf into the open output file. */
static int write_gz(int fd, const uint8_t *buf, size_t len)
{
	int dfd = dup(fd);
	gzFile gz = dfd >= 0 ? gzdopen(dfd, "wb6") : NULL;
	size_t done = 0;

	if (!gz) {
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	while (done < len) {
		unsigned chunk = len - done > (1u << 30) ? 1u << 30 : (unsigned)(len - done);

		if (gzwrite(gz, buf + done, chunk) != (int)chunk) {
			gzclose(gz);
			return -1;
		}
		done += chunk;
	}
	return gzclose(gz) == Z_OK ? 0 : -1;
}


int spe_pprof_new(struct spe_pprof **out)
{
	struct spe_pprof *p = calloc(1, sizeof(*p));

	*out = p;
	if (!p)
		return -ENOMEM;
	str_id(p, "");		/* the format's string 0 */
	return p->oom ? -ENOMEM : 0;
}

bool spe_pprof_oom(const struct spe_pprof *p)
{
	return p->oom;
}

int spe_pprof_write(struct spe_pprof *p, const char *comment_path, int fd)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int ret = build(p, comment_path, &buf, &len);

	if (ret) {
		p->oom = true;
		return ret;
	}
	ret = write_gz(fd, buf, len) ? -EIO : 0;
	free(buf);
	return ret;
}
