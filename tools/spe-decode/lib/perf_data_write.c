// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf.data writer (perf.data-file-format.txt): file header, attributes
 * with their ids, the data section written record by record through a fixed buffer, and the
 * feature sections perf reads to know the machine (ARCH, NRCPUS, CPUID ...).
 *
 * File layout produced:
 *   header | ids of every attr | attr entries | data ... | feature index | features
 * The attribute section is written when the first record arrives, so all
 * attributes must be added before any record.  The header is rewritten last.
 *
 * Pipe mode (spe_perf_writer_create_pipe(), what perf writes for -o -): a 16-byte
 * header, then the attributes as HEADER_ATTR records and the features as
 * HEADER_FEATURE records before the first data record; nothing is rewritten.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "spe_perf_data.h"

#define PDW_BUF_SIZE	(64u * 1024)
#define PDW_MAX_ATTRS	64
#define PDW_MAX_STR	4096
#define PDW_MAX_FEATURE	(64u << 20)	/* larger copied sections are dropped */

/* Sample bits this writer can lay out in PERF_RECORD_SAMPLE. */
#define PDW_SAMPLE_SUPPORTED						\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |	\
	 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_WEIGHT |		\
	 PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |		\
	 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |		\
	 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

struct writer_attr {
	struct perf_event_attr attr;
	char name[128];
	uint64_t *ids;
	uint32_t nr_ids;
};

struct spe_perf_writer {
	int fd;
	int err;			/* sticky first error */
	char msg[160];			/* what it was; see spe_perf_writer_errmsg() */
	uint64_t pos;			/* file offset of buf[0] */
	size_t len;			/* bytes pending in buf */
	unsigned char *buf;
	struct writer_attr attrs[PDW_MAX_ATTRS];
	uint32_t nr_attrs;
	bool in_data;
	bool finished;
	bool pipe;			/* perf's pipe format: write() only */
	bool counting;			/* writer_put only counts (writer_feature_size) */
	uint64_t counted;
	/* Feature sections copied from another perf.data (feat_len 0: none). */
	unsigned char *feat_raw[SPE_HEADER_FEAT_BITS];
	size_t feat_len[SPE_HEADER_FEAT_BITS];
	uint64_t aux_left;		/* AUXTRACE data still to come */
	/* HEADER_AUXTRACE index: file offset of each AUXTRACE record. */
	uint64_t *aux_index;
	size_t nr_aux_index, cap_aux_index;
	uint64_t aux_pad;		/* zero bytes after it */
	uint64_t attrs_offset;
	uint64_t data_offset;
	/* Copies of the strings in spe_perf_writer_info, owned by the writer. */
	char *hostname, *os_release, *perf_version, *arch, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint32_t nr_pmus;
	uint32_t *pmu_types;
	char **pmu_names;
};

static int writer_fail(struct spe_perf_writer *w, int err)
{
	if (!w->err) {
		w->err = err;
		snprintf(w->msg, sizeof(w->msg), "%s", spe_strerror(err));
	}
	return w->err;
}

/* A system call failed: SPE_ERR_IO, with the system's reason kept. */
static int writer_fail_sys(struct spe_perf_writer *w, const char *what)
{
	if (!w->err) {
		w->err = SPE_ERR_IO;
		snprintf(w->msg, sizeof(w->msg), "%s: %s", what, strerror(errno));
	}
	return w->err;
}

const char *spe_perf_writer_errmsg(const struct spe_perf_writer *w)
{
	return w && w->err ? w->msg : NULL;
}

static int writer_flush(struct spe_perf_writer *w)
{
	size_t done = 0;

	while (done < w->len) {
		ssize_t n = w->pipe ? write(w->fd, w->buf + done, w->len - done) :
			    pwrite(w->fd, w->buf + done, w->len - done,
				   (off_t)(w->pos + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return writer_fail_sys(w, "write");
		}
		if (n == 0) {
			errno = ENOSPC;
			return writer_fail_sys(w, "write");
		}
		done += (size_t)n;
	}
	w->pos += w->len;
	w->len = 0;
	return 0;
}

/* One pwrite of a small block after the data; a short write is a full disk. */
static int writer_pwrite_all(struct spe_perf_writer *w, const void *p, size_t n, uint64_t off)
{
	ssize_t k = pwrite(w->fd, p, n, (off_t)off);

	if (k == (ssize_t)n)
		return 0;
	if (k >= 0)
		errno = ENOSPC;
	return writer_fail_sys(w, "write");
}

static int writer_put(struct spe_perf_writer *w, const void *p, size_t n)
{
	const unsigned char *s = p;

	if (w->err)
		return w->err;
	if (w->counting) {
		w->counted += n;
		return 0;
	}
	while (n) {
		size_t room = PDW_BUF_SIZE - w->len;
		size_t c = n < room ? n : room;

		if (s)
			memcpy(w->buf + w->len, s, c);
		else
			memset(w->buf + w->len, 0, c);
		w->len += c;
		n -= c;
		if (s)
			s += c;
		if (w->len == PDW_BUF_SIZE && writer_flush(w))
			return w->err;
	}
	return 0;
}

static int writer_put_zero(struct spe_perf_writer *w, size_t n)
{
	return writer_put(w, NULL, n);
}

static int writer_put_u32(struct spe_perf_writer *w, uint32_t v)
{
	return writer_put(w, &v, sizeof(v));
}

static int writer_put_u64(struct spe_perf_writer *w, uint64_t v)
{
	return writer_put(w, &v, sizeof(v));
}

uint64_t spe_perf_writer_offset(const struct spe_perf_writer *w)
{
	return w->pos + w->len;
}

static char *writer_strdup(const char *s)
{
	return s ? strndup(s, PDW_MAX_STR) : NULL;
}

static int writer_create(struct spe_perf_writer **out, int fd,
			 const struct spe_perf_writer_info *info,
			 bool pipe)
{
	struct spe_perf_writer *w;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return SPE_ERR_NOMEM;
	w->fd = fd;
	w->pipe = pipe;
	w->buf = malloc(PDW_BUF_SIZE);
	if (!w->buf)
		goto nomem;
	if (info) {
		w->hostname = writer_strdup(info->hostname);
		w->os_release = writer_strdup(info->os_release);
		w->perf_version = writer_strdup(info->perf_version);
		w->arch = writer_strdup(info->arch);
		w->cpuid = writer_strdup(info->cpuid);
		w->nr_cpus_avail = info->nr_cpus_avail;
		w->nr_cpus_online = info->nr_cpus_online;
		if (info->nr_pmus) {
			w->pmu_types = calloc(info->nr_pmus, sizeof(*w->pmu_types));
			w->pmu_names = calloc(info->nr_pmus, sizeof(*w->pmu_names));
			if (!w->pmu_types || !w->pmu_names)
				goto nomem;
			w->nr_pmus = info->nr_pmus;
			for (uint32_t i = 0; i < info->nr_pmus; i++) {
				w->pmu_types[i] = info->pmu_types[i];
				w->pmu_names[i] = writer_strdup(info->pmu_names[i]);
				if (!w->pmu_names[i])
					goto nomem;
			}
		}
	}
	if (pipe) {
		struct spe_perf_pipe_file_header ph = {
			.magic = SPE_PERF_MAGIC2, .size = sizeof(ph),
		};

		if (writer_put(w, &ph, sizeof(ph)))
			goto fail;
	} else if (writer_put_zero(w, sizeof(struct spe_perf_file_header))) {
		/* The header is rewritten by spe_perf_writer_finish(); reserve its place. */
		goto fail;
	}
	*out = w;
	return 0;
nomem:
	w->err = SPE_ERR_NOMEM;
fail:
	{
		int err = w->err;

		spe_perf_writer_free(w);
		return err;
	}
}

int spe_perf_writer_create(struct spe_perf_writer **out, int fd,
			   const struct spe_perf_writer_info *info)
{
	return writer_create(out, fd, info, false);
}

int spe_perf_writer_create_pipe(struct spe_perf_writer **out, int fd,
				const struct spe_perf_writer_info *info)
{
	return writer_create(out, fd, info, true);
}

bool spe_perf_writer_is_pipe(const struct spe_perf_writer *w)
{
	return w->pipe;
}

void spe_perf_writer_free(struct spe_perf_writer *w)
{
	if (!w)
		return;
	for (int f = 0; f < SPE_HEADER_FEAT_BITS; f++)
		free(w->feat_raw[f]);
	for (uint32_t i = 0; i < w->nr_attrs; i++)
		free(w->attrs[i].ids);
	for (uint32_t i = 0; i < w->nr_pmus; i++)
		free(w->pmu_names[i]);
	free(w->pmu_names);
	free(w->pmu_types);
	free(w->hostname);
	free(w->os_release);
	free(w->perf_version);
	free(w->arch);
	free(w->cpuid);
	free(w->aux_index);
	free(w->buf);
	free(w);
}

int spe_perf_writer_add_attr(struct spe_perf_writer *w, const struct perf_event_attr *attr,
			     const char *name, const uint64_t *ids, uint32_t nr_ids)
{
	struct writer_attr *a;

	if (w->err)
		return w->err;
	if (w->in_data || w->nr_attrs == PDW_MAX_ATTRS)
		return writer_fail(w, SPE_ERR_INVAL);
	if (attr->sample_type & ~(uint64_t)PDW_SAMPLE_SUPPORTED)
		return writer_fail(w, SPE_ERR_UNSUPPORTED);
	if (attr->size && attr->size != sizeof(*attr))
		return writer_fail(w, SPE_ERR_INVAL);
	a = &w->attrs[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = sizeof(*attr);
	if (name)
		snprintf(a->name, sizeof(a->name), "%s", name);
	if (nr_ids) {
		a->ids = malloc(nr_ids * sizeof(*ids));
		if (!a->ids)
			return writer_fail(w, SPE_ERR_NOMEM);
		memcpy(a->ids, ids, nr_ids * sizeof(*ids));
	}
	a->nr_ids = nr_ids;
	w->nr_attrs++;
	return 0;
}

static int writer_begin_pipe_data(struct spe_perf_writer *w);

/* ids of every attribute, then the attribute entries; then data begins. */
static int writer_begin_data(struct spe_perf_writer *w)
{
	uint64_t ids_off[PDW_MAX_ATTRS];

	if (w->in_data) {
		/* A record may not start inside an AUXTRACE record's data. */
		if (w->aux_left)
			return writer_fail(w, SPE_ERR_INVAL);
		return w->err;
	}
	if (!w->nr_attrs)
		return writer_fail(w, SPE_ERR_INVAL);
	if (w->pipe)
		return writer_begin_pipe_data(w);
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		ids_off[i] = spe_perf_writer_offset(w);
		writer_put(w, w->attrs[i].ids, w->attrs[i].nr_ids * sizeof(uint64_t));
	}
	w->attrs_offset = spe_perf_writer_offset(w);
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		struct spe_perf_file_section ids = {
			.offset = ids_off[i],
			.size = w->attrs[i].nr_ids * sizeof(uint64_t),
		};

		writer_put(w, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
		writer_put(w, &ids, sizeof(ids));
	}
	w->data_offset = spe_perf_writer_offset(w);
	w->in_data = true;
	return w->err;
}

static const struct writer_attr *writer_attr_of_id(const struct spe_perf_writer *w, uint64_t id)
{
	for (uint32_t i = 0; i < w->nr_attrs; i++)
		for (uint32_t j = 0; j < w->attrs[i].nr_ids; j++)
			if (w->attrs[i].ids[j] == id)
				return &w->attrs[i];
	return NULL;
}

/* Bytes of the sample_id_all trailer for this sample type. */
static size_t writer_sample_id_size(const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;
	size_t n = 0;

	if (!attr->sample_id_all)
		return 0;
	n += (t & PERF_SAMPLE_TID) ? 8 : 0;
	n += (t & PERF_SAMPLE_TIME) ? 8 : 0;
	n += (t & PERF_SAMPLE_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_CPU) ? 8 : 0;
	n += (t & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	return n;
}

static void writer_put_sample_id(struct spe_perf_writer *w, const struct perf_event_attr *attr,
				 const struct spe_perf_writer_sample_id *sid)
{
	uint64_t t = attr->sample_type;

	if (!attr->sample_id_all)
		return;
	if (t & PERF_SAMPLE_TID) {
		writer_put_u32(w, sid->pid);
		writer_put_u32(w, sid->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		writer_put_u64(w, sid->time);
	if (t & PERF_SAMPLE_ID)
		writer_put_u64(w, sid->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		writer_put_u64(w, sid->id);
	if (t & PERF_SAMPLE_CPU) {
		writer_put_u32(w, sid->cpu);
		writer_put_u32(w, 0);
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		writer_put_u64(w, sid->id);
}

/*
 * Starts a record of `body` bytes (after the header) plus, when sid is given,
 * the sample_id trailer of the attribute owning sid->id.  Returns the
 * attribute (or NULL) through *attrp for the caller to finish with
 * writer_put_sample_id().
 */
static int writer_begin_record(struct spe_perf_writer *w, uint32_t type, uint16_t misc,
			       size_t body, const struct spe_perf_writer_sample_id *sid,
			       const struct perf_event_attr **attrp)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	const struct perf_event_attr *attr = NULL;
	size_t size;

	*attrp = NULL;		/* set on every path (gcc -O3 checks it) */
	if (writer_begin_data(w))
		return w->err;
	if (sid) {
		const struct writer_attr *a = writer_attr_of_id(w, sid->id);

		if (!a)
			return writer_fail(w, SPE_ERR_NOT_FOUND);
		attr = &a->attr;
	}
	size = sizeof(h) + body + (attr ? writer_sample_id_size(attr) : 0);
	if (size > UINT16_MAX || (size & 7))
		return writer_fail(w, SPE_ERR_INVAL);
	h.size = (uint16_t)size;
	*attrp = attr;
	return writer_put(w, &h, sizeof(h));
}

static int writer_end_record(struct spe_perf_writer *w, const struct perf_event_attr *attr,
			     const struct spe_perf_writer_sample_id *sid)
{
	if (attr)
		writer_put_sample_id(w, attr, sid);
	return w->err;
}

int spe_perf_writer_write_event(struct spe_perf_writer *w, const void *event)
{
	const struct perf_event_header *h = event;

	if (writer_begin_data(w))
		return w->err;
	if (h->size < sizeof(*h) || (h->size & 7))
		return writer_fail(w, SPE_ERR_INVAL);
	return writer_put(w, event, h->size);
}

int spe_perf_writer_auxtrace_info_v1(struct spe_perf_writer *w, uint32_t pmu_type, bool per_cpu)
{
	struct spe_perf_auxtrace_info_event e = {
		.header = {
			.type = SPE_PERF_RECORD_AUXTRACE_INFO,
			.size = sizeof(e) + SPE_AUXINFO_V1_NR_PRIV * 8,
		},
		.type = SPE_PERF_AUXTRACE_ARM_SPE,
	};

	if (writer_begin_data(w))
		return w->err;
	writer_put(w, &e, sizeof(e));
	writer_put_u64(w, pmu_type);
	return writer_put_u64(w, per_cpu);
}

int spe_perf_writer_auxtrace_info_v2(struct spe_perf_writer *w, uint32_t pmu_type,
				     const struct spe_perf_writer_cpu_meta *cpus, uint32_t nr_cpus,
				     uint32_t nr_params)
{
	size_t per_cpu = (SPE_AUXINFO_V2_CPU_FIXED + nr_params) * 8;
	size_t size = sizeof(struct spe_perf_auxtrace_info_event) +
		      SPE_AUXINFO_V2_HDR_SIZE * 8 + nr_cpus * per_cpu;
	struct spe_perf_auxtrace_info_event e = {
		.header = { .type = SPE_PERF_RECORD_AUXTRACE_INFO },
		.type = SPE_PERF_AUXTRACE_ARM_SPE,
	};

	if (nr_params != SPE_AUXINFO_V2_NR_PARAMS &&
	    nr_params != SPE_AUXINFO_V2_NR_PARAMS_OLD)
		return writer_fail(w, SPE_ERR_INVAL);
	if (size > UINT16_MAX)
		return writer_fail(w, -E2BIG);
	if (writer_begin_data(w))
		return w->err;
	e.header.size = (uint16_t)size;
	writer_put(w, &e, sizeof(e));
	writer_put_u64(w, SPE_AUXINFO_V2);
	writer_put_u64(w, SPE_AUXINFO_V2_HDR_SIZE);
	writer_put_u64(w, pmu_type);
	writer_put_u64(w, nr_cpus);
	for (uint32_t i = 0; i < nr_cpus; i++) {
		writer_put_u64(w, SPE_AUXINFO_V2_CPU_MAGIC);
		writer_put_u64(w, cpus[i].cpu);
		writer_put_u64(w, nr_params);
		writer_put_u64(w, cpus[i].midr);
		writer_put_u64(w, cpus[i].pmu_type);
		writer_put_u64(w, cpus[i].min_interval);
		if (nr_params == SPE_AUXINFO_V2_NR_PARAMS)
			writer_put_u64(w, cpus[i].event_filter);
	}
	return w->err;
}

int spe_perf_writer_time_conv(struct spe_perf_writer *w, const struct spe_time_conv *tc)
{
	struct spe_perf_time_conv_event e = {
		.header = { .type = SPE_PERF_RECORD_TIME_CONV },
		.time_shift = tc->time_shift,
		.time_mult = tc->time_mult,
		.time_zero = tc->time_zero,
		.time_cycles = tc->time_cycles,
		.time_mask = tc->time_mask,
		.cap_user_time_zero = tc->cap_user_time_zero,
		.cap_user_time_short = tc->cap_user_time_short,
	};

	e.header.size = tc->long_form ? sizeof(e) : SPE_TIME_CONV_SHORT_SIZE;
	return spe_perf_writer_write_event(w, &e);
}

static size_t writer_str_space(const char *s)
{
	return (strnlen(s, PDW_MAX_STR) + 1 + 7) & ~(size_t)7;
}

static void writer_put_padded_str(struct spe_perf_writer *w, const char *s, size_t space)
{
	size_t n = strnlen(s, PDW_MAX_STR);

	writer_put(w, s, n);
	writer_put_zero(w, space - n);
}

int spe_perf_writer_comm(struct spe_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm,
			 bool exec, const struct spe_perf_writer_sample_id *sid)
{
	const struct perf_event_attr *attr;
	size_t space = writer_str_space(comm);

	if (writer_begin_record(w, PERF_RECORD_COMM,
				exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
				8 + space, sid, &attr))
		return w->err;
	writer_put_u32(w, pid);
	writer_put_u32(w, tid);
	writer_put_padded_str(w, comm, space);
	return writer_end_record(w, attr, sid);
}

int spe_perf_writer_mmap2(struct spe_perf_writer *w, uint16_t misc, uint32_t pid, uint32_t tid,
			  uint64_t addr, uint64_t len, uint64_t pgoff, const char *filename,
			  const struct spe_perf_writer_sample_id *sid)
{
	const struct perf_event_attr *attr;
	size_t space = writer_str_space(filename);

	/* pid tid addr len pgoff maj min ino ino_gen prot flags filename */
	if (writer_begin_record(w, PERF_RECORD_MMAP2, misc,
				8 + 3 * 8 + 4 + 4 + 8 + 8 + 4 + 4 + space, sid, &attr))
		return w->err;
	writer_put_u32(w, pid);
	writer_put_u32(w, tid);
	writer_put_u64(w, addr);
	writer_put_u64(w, len);
	writer_put_u64(w, pgoff);
	writer_put_zero(w, 4 + 4 + 8 + 8);		/* maj, min, ino, ino_generation */
	writer_put_u32(w, 5);			/* prot: PROT_READ | PROT_EXEC */
	writer_put_u32(w, 2);			/* flags: MAP_PRIVATE */
	writer_put_padded_str(w, filename, space);
	return writer_end_record(w, attr, sid);
}

int spe_perf_writer_task(struct spe_perf_writer *w, uint32_t type, uint32_t pid, uint32_t ppid,
			 uint32_t tid, uint32_t ptid, uint64_t time,
			 const struct spe_perf_writer_sample_id *sid)
{
	const struct perf_event_attr *attr;

	if (type != PERF_RECORD_FORK && type != PERF_RECORD_EXIT)
		return writer_fail(w, SPE_ERR_INVAL);
	if (writer_begin_record(w, type, 0, 4 * 4 + 8, sid, &attr))
		return w->err;
	writer_put_u32(w, pid);
	writer_put_u32(w, ppid);
	writer_put_u32(w, tid);
	writer_put_u32(w, ptid);
	writer_put_u64(w, time);
	return writer_end_record(w, attr, sid);
}

int spe_perf_writer_itrace_start(struct spe_perf_writer *w, uint32_t pid, uint32_t tid,
				 const struct spe_perf_writer_sample_id *sid)
{
	const struct perf_event_attr *attr;

	if (writer_begin_record(w, PERF_RECORD_ITRACE_START, 0, 8, sid, &attr))
		return w->err;
	writer_put_u32(w, pid);
	writer_put_u32(w, tid);
	return writer_end_record(w, attr, sid);
}

int spe_perf_writer_aux(struct spe_perf_writer *w, uint64_t aux_offset, uint64_t aux_size,
			uint64_t flags, const struct spe_perf_writer_sample_id *sid)
{
	const struct perf_event_attr *attr;

	if (writer_begin_record(w, PERF_RECORD_AUX, 0, 3 * 8, sid, &attr))
		return w->err;
	writer_put_u64(w, aux_offset);
	writer_put_u64(w, aux_size);
	writer_put_u64(w, flags);
	return writer_end_record(w, attr, sid);
}

int spe_perf_writer_switch(struct spe_perf_writer *w, bool out, bool cpu_wide,
			   uint32_t next_prev_pid, uint32_t next_prev_tid,
			   const struct spe_perf_writer_sample_id *sid)
{
	const struct perf_event_attr *attr;
	uint16_t misc = out ? PERF_RECORD_MISC_SWITCH_OUT : 0;

	if (writer_begin_record(w, cpu_wide ? PERF_RECORD_SWITCH_CPU_WIDE :
					   PERF_RECORD_SWITCH,
			     misc, cpu_wide ? 8 : 0, sid, &attr))
		return w->err;
	if (cpu_wide) {
		writer_put_u32(w, next_prev_pid);
		writer_put_u32(w, next_prev_tid);
	}
	return writer_end_record(w, attr, sid);
}

int spe_perf_writer_lost(struct spe_perf_writer *w, uint64_t id, uint64_t lost,
			 const struct spe_perf_writer_sample_id *sid)
{
	const struct perf_event_attr *attr;

	if (writer_begin_record(w, PERF_RECORD_LOST, 0, 16, sid, &attr))
		return w->err;
	writer_put_u64(w, id);
	writer_put_u64(w, lost);
	return writer_end_record(w, attr, sid);
}

int spe_perf_writer_finished_round(struct spe_perf_writer *w)
{
	struct perf_event_header h = {
		.type = SPE_PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(h),
	};

	return spe_perf_writer_write_event(w, &h);
}

int spe_perf_writer_auxtrace_begin(struct spe_perf_writer *w, uint64_t size, uint64_t offset,
				   uint64_t reference, uint32_t idx, uint32_t tid,
				   uint32_t cpu)
{
	uint64_t padded = (size + 7) & ~7ULL;
	struct spe_perf_auxtrace_event e = {
		.header = {
			.type = SPE_PERF_RECORD_AUXTRACE,
			.size = sizeof(e),
		},
		.size = padded,
		.offset = offset,
		.reference = reference,
		.idx = idx,
		.tid = tid,
		.cpu = cpu,
	};

	if (writer_begin_data(w))
		return w->err;
	if (w->aux_left)
		return writer_fail(w, SPE_ERR_INVAL);
	if (SPE_GROW(w->aux_index, w->cap_aux_index, w->nr_aux_index, 64))
		return writer_fail(w, SPE_ERR_NOMEM);
	w->aux_index[w->nr_aux_index++] = spe_perf_writer_offset(w);
	writer_put(w, &e, sizeof(e));
	w->aux_left = size;
	w->aux_pad = padded - size;
	if (!size)
		writer_put_zero(w, w->aux_pad);
	return w->err;
}

int spe_perf_writer_auxtrace_data(struct spe_perf_writer *w, const void *data, uint64_t n)
{
	if (w->err)
		return w->err;
	if (n > w->aux_left)
		return writer_fail(w, SPE_ERR_INVAL);
	writer_put(w, data, n);
	w->aux_left -= n;
	if (!w->aux_left)
		writer_put_zero(w, w->aux_pad);
	return w->err;
}

int spe_perf_writer_auxtrace(struct spe_perf_writer *w, const void *data, uint64_t size,
			     uint64_t offset, uint64_t reference, uint32_t idx,
			     uint32_t tid, uint32_t cpu)
{
	if (spe_perf_writer_auxtrace_begin(w, size, offset, reference, idx, tid, cpu))
		return w->err;
	return spe_perf_writer_auxtrace_data(w, data, size);
}

static size_t writer_sample_size(const struct perf_event_attr *attr,
				 const struct spe_perf_writer_sample *s)
{
	uint64_t t = attr->sample_type;
	size_t n = sizeof(struct perf_event_header);

	n += (t & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	n += (t & PERF_SAMPLE_IP) ? 8 : 0;
	n += (t & PERF_SAMPLE_TID) ? 8 : 0;
	n += (t & PERF_SAMPLE_TIME) ? 8 : 0;
	n += (t & PERF_SAMPLE_ADDR) ? 8 : 0;
	n += (t & PERF_SAMPLE_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_CPU) ? 8 : 0;
	n += (t & PERF_SAMPLE_PERIOD) ? 8 : 0;
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		n += 8 + s->nr_branches * sizeof(struct spe_perf_writer_branch_entry);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			n += 8;
	}
	n += (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) ? 8 : 0;
	n += (t & PERF_SAMPLE_DATA_SRC) ? 8 : 0;
	n += (t & PERF_SAMPLE_TRANSACTION) ? 8 : 0;
	n += (t & PERF_SAMPLE_PHYS_ADDR) ? 8 : 0;
	n += (t & PERF_SAMPLE_DATA_PAGE_SIZE) ? 8 : 0;
	n += (t & PERF_SAMPLE_CODE_PAGE_SIZE) ? 8 : 0;
	return n;
}

int spe_perf_writer_sample(struct spe_perf_writer *w, const struct spe_perf_writer_sample *s)
{
	const struct writer_attr *a;
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = s->misc };
	uint64_t t;
	size_t size;

	if (writer_begin_data(w))
		return w->err;
	a = writer_attr_of_id(w, s->id);
	if (!a)
		return writer_fail(w, SPE_ERR_NOT_FOUND);
	t = a->attr.sample_type;
	size = writer_sample_size(&a->attr, s);
	if (size > UINT16_MAX)
		return writer_fail(w, -E2BIG);
	h.size = (uint16_t)size;
	writer_put(w, &h, sizeof(h));
	if (t & PERF_SAMPLE_IDENTIFIER)
		writer_put_u64(w, s->id);
	if (t & PERF_SAMPLE_IP)
		writer_put_u64(w, s->ip);
	if (t & PERF_SAMPLE_TID) {
		writer_put_u32(w, s->pid);
		writer_put_u32(w, s->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		writer_put_u64(w, s->time);
	if (t & PERF_SAMPLE_ADDR)
		writer_put_u64(w, s->addr);
	if (t & PERF_SAMPLE_ID)
		writer_put_u64(w, s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		writer_put_u64(w, s->id);
	if (t & PERF_SAMPLE_CPU) {
		writer_put_u32(w, s->cpu);
		writer_put_u32(w, 0);
	}
	if (t & PERF_SAMPLE_PERIOD)
		writer_put_u64(w, s->period);
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		writer_put_u64(w, s->nr_branches);
		if (a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			writer_put_u64(w, ~0ULL);	/* -1: no hardware index */
		writer_put(w, s->branches, s->nr_branches * sizeof(*s->branches));
	}
	if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
		writer_put_u32(w, s->weight_var1);
		writer_put(w, &s->weight_var2, 2);
		writer_put(w, &s->weight_var3, 2);
	} else if (t & PERF_SAMPLE_WEIGHT) {
		writer_put_u64(w, s->weight);
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		writer_put_u64(w, s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		writer_put_u64(w, 0);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		writer_put_u64(w, s->phys_addr);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		writer_put_u64(w, 0);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		writer_put_u64(w, 0);
	return w->err;
}

/* ---- Feature sections ---------------------------------------------------- */

static size_t writer_feat_str_len(const char *s)
{
	size_t n = strnlen(s, PDW_MAX_STR) + 1;

	return (n + SPE_PERF_NAME_ALIGN - 1) & ~(size_t)(SPE_PERF_NAME_ALIGN - 1);
}

/* perf's string encoding: u32 padded length, bytes, NUL padding. */
static void writer_put_feat_str(struct spe_perf_writer *w, const char *s)
{
	size_t len = writer_feat_str_len(s);
	size_t n = strnlen(s, PDW_MAX_STR);

	writer_put_u32(w, (uint32_t)len);
	writer_put(w, s, n);
	writer_put_zero(w, len - n);
}

static void writer_put_event_desc(struct spe_perf_writer *w)
{
	writer_put_u32(w, w->nr_attrs);
	writer_put_u32(w, sizeof(struct perf_event_attr));
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		const struct writer_attr *a = &w->attrs[i];

		writer_put(w, &a->attr, sizeof(a->attr));
		writer_put_u32(w, a->nr_ids);
		writer_put_feat_str(w, a->name[0] ? a->name : "unknown");
		writer_put(w, a->ids, a->nr_ids * sizeof(uint64_t));
	}
}

static void writer_put_pmu_mappings(struct spe_perf_writer *w)
{
	writer_put_u32(w, w->nr_pmus);
	for (uint32_t i = 0; i < w->nr_pmus; i++) {
		writer_put_u32(w, w->pmu_types[i]);
		writer_put_feat_str(w, w->pmu_names[i]);
	}
}

/* Features that describe this file's own contents, never copied. */
static bool writer_feature_is_own(int feat)
{
	return feat == SPE_HEADER_EVENT_DESC || feat == SPE_HEADER_AUXTRACE ||
	       feat == SPE_HEADER_GROUP_DESC || feat == SPE_HEADER_DIR_FORMAT ||
	       feat == SPE_HEADER_COMPRESSED;
}

static bool writer_has_feature(const struct spe_perf_writer *w, int feat)
{
	if (w->feat_len[feat])
		return true;
	switch (feat) {
	case SPE_HEADER_HOSTNAME:		return w->hostname;
	case SPE_HEADER_OSRELEASE:	return w->os_release;
	case SPE_HEADER_VERSION:		return w->perf_version;
	case SPE_HEADER_ARCH:		return w->arch;
	case SPE_HEADER_NRCPUS:		return w->nr_cpus_avail;
	case SPE_HEADER_CPUID:		return w->cpuid;
	case SPE_HEADER_EVENT_DESC:	return true;
	case SPE_HEADER_PMU_MAPPINGS:	return w->nr_pmus;
	case SPE_HEADER_AUXTRACE:		return w->nr_aux_index && !w->pipe;
	default:			return false;
	}
}

int spe_perf_writer_copy_feature(struct spe_perf_writer *w, int feat, const void *data, size_t len)
{
	unsigned char *copy;

	if (w->err)
		return w->err;
	if (feat <= 0 || feat >= SPE_HEADER_FEAT_BITS || writer_feature_is_own(feat) || !len ||
	    w->in_data)
		return SPE_ERR_INVAL;
	copy = malloc(len);
	if (!copy)
		return writer_fail(w, SPE_ERR_NOMEM);
	memcpy(copy, data, len);
	free(w->feat_raw[feat]);
	w->feat_raw[feat] = copy;
	w->feat_len[feat] = len;
	return 0;
}

int spe_perf_writer_copy_features(struct spe_perf_writer *w, struct spe_perf_reader *r,
				  uint64_t skip)
{
	int err = 0;

	for (int f = 1; !err && f < SPE_HEADER_FEAT_BITS; f++) {
		uint64_t off, size;
		void *buf;

		if ((f < 64 && (skip & (1ULL << f))) || writer_feature_is_own(f) ||
		    spe_perf_reader_feature_section(r, f, &off, &size))
			continue;
		if (size > PDW_MAX_FEATURE)
			continue;
		buf = malloc(size);
		if (!buf)
			return writer_fail(w, SPE_ERR_NOMEM);
		err = spe_perf_reader_pread(r, buf, size, off);
		if (!err)
			err = spe_perf_writer_copy_feature(w, f, buf, size);
		free(buf);
	}
	return err;
}

static void writer_put_feature(struct spe_perf_writer *w, int feat)
{
	if (w->feat_len[feat]) {
		writer_put(w, w->feat_raw[feat], w->feat_len[feat]);
		return;
	}
	switch (feat) {
	case SPE_HEADER_HOSTNAME:
		writer_put_feat_str(w, w->hostname);
		break;
	case SPE_HEADER_OSRELEASE:
		writer_put_feat_str(w, w->os_release);
		break;
	case SPE_HEADER_VERSION:
		writer_put_feat_str(w, w->perf_version);
		break;
	case SPE_HEADER_ARCH:
		writer_put_feat_str(w, w->arch);
		break;
	case SPE_HEADER_NRCPUS:
		writer_put_u32(w, w->nr_cpus_avail);
		writer_put_u32(w, w->nr_cpus_online);
		break;
	case SPE_HEADER_CPUID:
		writer_put_feat_str(w, w->cpuid);
		break;
	case SPE_HEADER_EVENT_DESC:
		writer_put_event_desc(w);
		break;
	case SPE_HEADER_PMU_MAPPINGS:
		writer_put_pmu_mappings(w);
		break;
	case SPE_HEADER_AUXTRACE:
		/* u64 nr, then {file offset, header size} per AUXTRACE record */
		writer_put_u64(w, w->nr_aux_index);
		for (size_t i = 0; i < w->nr_aux_index; i++) {
			writer_put_u64(w, w->aux_index[i]);
			writer_put_u64(w, sizeof(struct spe_perf_auxtrace_event));
		}
		break;
	}
}

/*
 * Pipe mode: each attribute as HEADER_ATTR (attr, then its ids) and each
 * feature as HEADER_FEATURE (u64 feature bit, then the section's bytes,
 * padded to 8), before the first data record as perf writes them.  A
 * feature too large for one record (64 KiB) is left out, and so are those
 * perf itself leaves out of a pipe.
 */
static uint64_t writer_feature_size(struct spe_perf_writer *w, int feat)
{
	w->counting = true;
	w->counted = 0;
	writer_put_feature(w, feat);
	w->counting = false;
	return w->counted;
}

static int writer_begin_pipe_data(struct spe_perf_writer *w)
{
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		const struct writer_attr *a = &w->attrs[i];
		size_t size = sizeof(struct perf_event_header) + sizeof(a->attr) +
			      a->nr_ids * sizeof(uint64_t);
		struct perf_event_header h = { .type = SPE_PERF_RECORD_HEADER_ATTR };

		if (size > UINT16_MAX)
			return writer_fail(w, -E2BIG);
		h.size = (uint16_t)size;
		writer_put(w, &h, sizeof(h));
		writer_put(w, &a->attr, sizeof(a->attr));
		writer_put(w, a->ids, a->nr_ids * sizeof(uint64_t));
	}
	w->in_data = true;	/* the features' contents need the attrs final */
	for (int f = 1; f < SPE_HEADER_FEAT_BITS; f++) {
		struct perf_event_header h = { .type = SPE_PERF_RECORD_HEADER_FEATURE };
		uint64_t start, len, pad;

		/* perf reads these from the file, not the record, so never
		 * writes them in a pipe (a reader would lose its place). */
		if (!writer_has_feature(w, f) || f == SPE_HEADER_AUXTRACE ||
		    f == SPE_HEADER_TRACING_DATA || f == SPE_HEADER_BUILD_ID || f == SPE_HEADER_STAT)
			continue;
		len = writer_feature_size(w, f);
		pad = (8 - (len & 7)) & 7;
		if (sizeof(h) + 8 + len + pad > UINT16_MAX)
			continue;
		h.size = (uint16_t)(sizeof(h) + 8 + len + pad);
		start = spe_perf_writer_offset(w);
		writer_put(w, &h, sizeof(h));
		writer_put_u64(w, (uint64_t)f);
		writer_put_feature(w, f);
		writer_put_zero(w, (size_t)pad);
		if (!w->err && spe_perf_writer_offset(w) - start != h.size)
			return writer_fail(w, SPE_ERR_BAD_FILE);
	}
	w->data_offset = spe_perf_writer_offset(w);
	return w->err;
}

int spe_perf_writer_finish(struct spe_perf_writer *w)
{
	struct spe_perf_file_section sec[SPE_HEADER_FEAT_BITS];
	struct spe_perf_file_header hdr = {
		.magic = SPE_PERF_MAGIC2,
		.size = sizeof(hdr),
		.attr_size = sizeof(struct perf_event_attr) +
			     sizeof(struct spe_perf_file_section),
	};
	uint64_t data_end, index_off;
	size_t nr = 0;

	if (w->finished)
		return writer_fail(w, SPE_ERR_INVAL);
	if (writer_begin_data(w))
		return w->err;
	if (w->pipe) {
		if (writer_flush(w))
			return w->err;
		w->finished = true;
		return 0;
	}
	data_end = spe_perf_writer_offset(w);

	/*
	 * The index (one section per set feature bit, ascending) sits right
	 * after the data; the contents follow it.  Write the contents after a
	 * placeholder index, then patch the index in place.
	 */
	for (int f = 1; f < SPE_HEADER_FEAT_BITS; f++)
		nr += writer_has_feature(w, f);
	index_off = data_end;
	writer_put_zero(w, nr * sizeof(struct spe_perf_file_section));
	nr = 0;
	for (int f = 1; f < SPE_HEADER_FEAT_BITS; f++) {
		if (!writer_has_feature(w, f))
			continue;
		sec[nr].offset = spe_perf_writer_offset(w);
		writer_put_feature(w, f);
		sec[nr].size = spe_perf_writer_offset(w) - sec[nr].offset;
		hdr.features[f / 64] |= 1ULL << (f % 64);
		nr++;
	}
	if (writer_flush(w))
		return w->err;
	if (writer_pwrite_all(w, sec, nr * sizeof(sec[0]), index_off))
		return w->err;

	hdr.attrs.offset = w->attrs_offset;
	hdr.attrs.size = w->nr_attrs * hdr.attr_size;
	hdr.data.offset = w->data_offset;
	hdr.data.size = data_end - w->data_offset;
	if (writer_pwrite_all(w, &hdr, sizeof(hdr), 0))
		return w->err;
	w->finished = true;
	return 0;
}
