/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf.data: the on-disk layout perf uses (perf.data-file-format.txt) and
 * this library's writer for it.
 *
 * The kernel's UAPI header <linux/perf_event.h> already defines
 * perf_event_attr, the kernel record types (PERF_RECORD_*) and the AUX flags;
 * this header only adds what the perf tool defines on top of it: the file
 * header, the feature bits, the user record types (>= 64) and the ARM SPE
 * AUXTRACE_INFO layouts.  All fields are little-endian.
 */
#ifndef SPE_PERF_DATA_H
#define SPE_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include "spe_decode.h"

/* ---- File layout ------------------------------------------------------- */

#define SPE_PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */

struct spe_perf_file_section {
	uint64_t offset;
	uint64_t size;
};

/* struct perf_file_header: 104 bytes. */
struct spe_perf_file_header {
	uint64_t magic;
	uint64_t size;			/* sizeof(struct spe_perf_file_header) */
	uint64_t attr_size;		/* one attr entry: attr + ids section */
	struct spe_perf_file_section attrs;
	struct spe_perf_file_section data;
	struct spe_perf_file_section event_types;	/* unused, zero */
	uint64_t features[4];		/* 256-bit bitmap of feature sections */
};

/* The pipe-mode header (perf record -o -): magic and size only. */
struct spe_perf_pipe_file_header {
	uint64_t magic;
	uint64_t size;
};

/*
 * perf.data header features (perf's HEADER_*): the bits of the header's
 * feature bitmap, in the order of their sections after the data section.
 * Not the CPU features of the driver's SPE_FEAT_* (PMSIDR_EL1 bits).
 */
enum spe_perf_feature {
	SPE_HEADER_TRACING_DATA = 1,
	SPE_HEADER_BUILD_ID = 2,
	SPE_HEADER_HOSTNAME = 3,
	SPE_HEADER_OSRELEASE = 4,
	SPE_HEADER_VERSION = 5,
	SPE_HEADER_ARCH = 6,
	SPE_HEADER_NRCPUS = 7,
	SPE_HEADER_CPUDESC = 8,
	SPE_HEADER_CPUID = 9,
	SPE_HEADER_TOTAL_MEM = 10,
	SPE_HEADER_CMDLINE = 11,
	SPE_HEADER_EVENT_DESC = 12,
	SPE_HEADER_CPU_TOPOLOGY = 13,
	SPE_HEADER_NUMA_TOPOLOGY = 14,
	SPE_HEADER_BRANCH_STACK = 15,
	SPE_HEADER_PMU_MAPPINGS = 16,
	SPE_HEADER_GROUP_DESC = 17,
	SPE_HEADER_AUXTRACE = 18,
	SPE_HEADER_STAT = 19,
	SPE_HEADER_CACHE = 20,
	SPE_HEADER_SAMPLE_TIME = 21,
	SPE_HEADER_MEM_TOPOLOGY = 22,
	SPE_HEADER_CLOCKID = 23,
	SPE_HEADER_DIR_FORMAT = 24,
	SPE_HEADER_BPF_PROG_INFO = 25,
	SPE_HEADER_BPF_BTF = 26,
	SPE_HEADER_COMPRESSED = 27,
	SPE_HEADER_CPU_PMU_CAPS = 28,
	SPE_HEADER_CLOCK_DATA = 29,
	SPE_HEADER_HYBRID_TOPOLOGY = 30,
	SPE_HEADER_PMU_CAPS = 31,
	SPE_HEADER_FEAT_BITS = 256,
};

/* Strings in feature sections: u32 length (NUL included, padded to this). */
#define SPE_PERF_NAME_ALIGN	64

/* ---- User record types (perf tool, not the kernel) --------------------- */

enum spe_perf_user_record {
	SPE_PERF_RECORD_HEADER_ATTR = 64,
	SPE_PERF_RECORD_HEADER_EVENT_TYPE = 65,
	SPE_PERF_RECORD_HEADER_TRACING_DATA = 66,
	SPE_PERF_RECORD_HEADER_BUILD_ID = 67,
	SPE_PERF_RECORD_FINISHED_ROUND = 68,
	SPE_PERF_RECORD_ID_INDEX = 69,
	SPE_PERF_RECORD_AUXTRACE_INFO = 70,
	SPE_PERF_RECORD_AUXTRACE = 71,
	SPE_PERF_RECORD_AUXTRACE_ERROR = 72,
	SPE_PERF_RECORD_THREAD_MAP = 73,
	SPE_PERF_RECORD_CPU_MAP = 74,
	SPE_PERF_RECORD_STAT_CONFIG = 75,
	SPE_PERF_RECORD_STAT = 76,
	SPE_PERF_RECORD_STAT_ROUND = 77,
	SPE_PERF_RECORD_EVENT_UPDATE = 78,
	SPE_PERF_RECORD_TIME_CONV = 79,
	SPE_PERF_RECORD_HEADER_FEATURE = 80,
	SPE_PERF_RECORD_COMPRESSED = 81,
	SPE_PERF_RECORD_FINISHED_INIT = 82,
	SPE_PERF_RECORD_USER_MAX,
};

/* PERF_RECORD_AUXTRACE: fixed part; `size` bytes of trace data follow it
 * and are not counted in header.size. */
struct spe_perf_auxtrace_event {
	struct perf_event_header header;
	uint64_t size;
	uint64_t offset;
	uint64_t reference;
	uint32_t idx;
	uint32_t tid;
	uint32_t cpu;
	uint32_t reserved;
};

/* PERF_RECORD_AUXTRACE_INFO: fixed part, then u64 priv[]. */
struct spe_perf_auxtrace_info_event {
	struct perf_event_header header;
	uint32_t type;
	uint32_t reserved;
	/* uint64_t priv[]; */
};

#define SPE_PERF_AUXTRACE_ARM_SPE	4

/* ARM SPE AUXTRACE_INFO version 1: priv[] = {pmu_type, per_cpu_mmaps}. */
#define SPE_AUXINFO_V1_NR_PRIV		2

/* Version 2: a header, then one block per CPU (perf arm-spe.h). */
#define SPE_AUXINFO_V2			2
#define SPE_AUXINFO_V2_HDR_SIZE		4	/* u64s in the header */
#define SPE_AUXINFO_V2_CPU_MAGIC	0x1010101010101010ULL
#define SPE_AUXINFO_V2_CPU_FIXED	3	/* magic, cpu, nr_params */
#define SPE_AUXINFO_V2_NR_PARAMS	4	/* midr, pmu_type, min_interval, event_filter */
#define SPE_AUXINFO_V2_NR_PARAMS_OLD	3	/* files from 2024: no event_filter */

/* PERF_RECORD_TIME_CONV; files written before the short-time fields stop
 * after time_zero (SPE_TIME_CONV_SHORT_SIZE bytes). */
struct spe_perf_time_conv_event {
	struct perf_event_header header;
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t cap_user_time_zero;
	uint8_t cap_user_time_short;
	uint8_t reserved[6];
};

#define SPE_TIME_CONV_SHORT_SIZE	(8 + 3 * 8)

/* ---- Writer ------------------------------------------------------------ */

/*
 * A perf.data writer for a seekable file.  Usage: spe_perf_writer_create(), one
 * spe_perf_writer_add_attr() per event, then records in file order (the first record
 * fixes the attribute section), then spe_perf_writer_finish() which appends the
 * feature sections and rewrites the file header.  Output is buffered; memory
 * does not depend on how much is written.  Every function returns 0 or a
 * negative SPE_ERR_* code; after an error every later call returns the same
 * error, and spe_perf_writer_errmsg() says what it was (for SPE_ERR_IO with the
 * system's reason, e.g. "write: No space left on device").
 */
struct spe_perf_writer;

/* What goes into the feature sections; NULL strings are left out. */
struct spe_perf_writer_info {
	const char *hostname;
	const char *os_release;
	const char *perf_version;
	const char *arch;		/* uname machine, e.g. "aarch64" */
	const char *cpuid;		/* arm64: MIDR_EL1 as "0x%016llx" */
	uint32_t nr_cpus_avail;		/* 0: leave NRCPUS out */
	uint32_t nr_cpus_online;
	/* PMU_MAPPINGS: dynamic PMU types and names; nr 0 leaves it out. */
	uint32_t nr_pmus;
	const uint32_t *pmu_types;
	const char *const *pmu_names;
};

/* The sample_id_all trailer of non-sample records, laid out by the sample
 * type of the attribute that owns `id`. */
struct spe_perf_writer_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint32_t cpu;
};

/* A PERF_RECORD_SAMPLE; which fields are written depends on the sample type
 * of the attribute that owns `id`. */
struct spe_perf_writer_branch_entry {
	uint64_t from, to, flags;
};

struct spe_perf_writer_sample {
	uint16_t misc;			/* PERF_RECORD_MISC_USER / _KERNEL */
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint32_t cpu;
	uint64_t period;
	uint64_t weight;		/* PERF_SAMPLE_WEIGHT */
	/* PERF_SAMPLE_WEIGHT_STRUCT: var1 (u32), var2 (u16), var3 (u16). */
	uint32_t weight_var1;
	uint16_t weight_var2;
	uint16_t weight_var3;
	uint64_t data_src;
	uint64_t phys_addr;
	uint32_t nr_branches;
	const struct spe_perf_writer_branch_entry *branches;
};

int spe_perf_writer_create(struct spe_perf_writer **out, int fd,
			   const struct spe_perf_writer_info *info);
/* The same in perf's pipe format (perf record -o -), for a pipe or any fd
 * that is only written sequentially. */
int spe_perf_writer_create_pipe(struct spe_perf_writer **out, int fd,
				const struct spe_perf_writer_info *info);
bool spe_perf_writer_is_pipe(const struct spe_perf_writer *w);
/*
 * Writes feature section @feat (enum spe_perf_feature) with these bytes,
 * as read from another perf.data, instead of what spe_perf_writer_info gives.
 * Features describing the file's own layout (EVENT_DESC, AUXTRACE,
 * GROUP_DESC, DIR_FORMAT, COMPRESSED) are refused with SPE_ERR_INVAL.  Call
 * before the first record.
 */
int spe_perf_writer_copy_feature(struct spe_perf_writer *w, int feat, const void *data, size_t len);
struct spe_perf_reader;
/* Every feature section of the file @r reads (file mode) through
 * spe_perf_writer_copy_feature(), but those whose bit is set in @skip (bits < 64)
 * and the writer's own.  Returns 0 or a negative SPE_ERR_* code. */
int spe_perf_writer_copy_features(struct spe_perf_writer *w, struct spe_perf_reader *r,
				  uint64_t skip);
/* Frees the writer; does not close fd.  Call spe_perf_writer_finish() first. */
void spe_perf_writer_free(struct spe_perf_writer *w);
/* The writer's first error in words, or NULL when it has had none. */
const char *spe_perf_writer_errmsg(const struct spe_perf_writer *w);

/* attr->size is set to the size this library was built with when zero. */
int spe_perf_writer_add_attr(struct spe_perf_writer *w, const struct perf_event_attr *attr,
			     const char *name, const uint64_t *ids, uint32_t nr_ids);

/* A complete record whose header.size is its length. */
int spe_perf_writer_write_event(struct spe_perf_writer *w, const void *event);

int spe_perf_writer_auxtrace_info_v1(struct spe_perf_writer *w, uint32_t pmu_type, bool per_cpu);

struct spe_perf_writer_cpu_meta {
	uint64_t cpu;
	uint64_t midr;
	uint64_t pmu_type;		/* ~0: no SPE on this CPU */
	uint64_t min_interval;
	uint64_t event_filter;
};
/* nr_params: SPE_AUXINFO_V2_NR_PARAMS, or _OLD for the 2024 layout. */
int spe_perf_writer_auxtrace_info_v2(struct spe_perf_writer *w, uint32_t pmu_type,
				     const struct spe_perf_writer_cpu_meta *cpus, uint32_t nr_cpus,
				     uint32_t nr_params);

/* Time conversion parameters (perf_event.h), shared with the reader. */
struct spe_time_conv {
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;
	uint64_t time_mask;
	bool cap_user_time_zero;
	bool cap_user_time_short;
	bool long_form;			/* has time_cycles and what follows */
};
int spe_perf_writer_time_conv(struct spe_perf_writer *w, const struct spe_time_conv *tc);

int spe_perf_writer_comm(struct spe_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm,
			 bool exec, const struct spe_perf_writer_sample_id *sid);
int spe_perf_writer_mmap2(struct spe_perf_writer *w, uint16_t misc, uint32_t pid, uint32_t tid,
			  uint64_t addr, uint64_t len, uint64_t pgoff, const char *filename,
			  const struct spe_perf_writer_sample_id *sid);
/* type: PERF_RECORD_FORK or PERF_RECORD_EXIT */
int spe_perf_writer_task(struct spe_perf_writer *w, uint32_t type, uint32_t pid, uint32_t ppid,
			 uint32_t tid, uint32_t ptid, uint64_t time,
			 const struct spe_perf_writer_sample_id *sid);
int spe_perf_writer_itrace_start(struct spe_perf_writer *w, uint32_t pid, uint32_t tid,
				 const struct spe_perf_writer_sample_id *sid);
int spe_perf_writer_aux(struct spe_perf_writer *w, uint64_t aux_offset, uint64_t aux_size,
			uint64_t flags, const struct spe_perf_writer_sample_id *sid);
/* cpu_wide: PERF_RECORD_SWITCH_CPU_WIDE with next/prev pid/tid. */
int spe_perf_writer_switch(struct spe_perf_writer *w, bool out, bool cpu_wide,
			   uint32_t next_prev_pid, uint32_t next_prev_tid,
			   const struct spe_perf_writer_sample_id *sid);
int spe_perf_writer_lost(struct spe_perf_writer *w, uint64_t id, uint64_t lost,
			 const struct spe_perf_writer_sample_id *sid);
int spe_perf_writer_finished_round(struct spe_perf_writer *w);
/* AUXTRACE record plus its data, zero-padded to 8 bytes as perf does. */
int spe_perf_writer_auxtrace(struct spe_perf_writer *w, const void *data, uint64_t size,
			     uint64_t offset, uint64_t reference, uint32_t idx,
			     uint32_t tid, uint32_t cpu);
/* The same in pieces: begin with the total size, then data until complete;
 * no other record may be written in between. */
int spe_perf_writer_auxtrace_begin(struct spe_perf_writer *w, uint64_t size, uint64_t offset,
				   uint64_t reference, uint32_t idx, uint32_t tid,
				   uint32_t cpu);
int spe_perf_writer_auxtrace_data(struct spe_perf_writer *w, const void *data, uint64_t n);
int spe_perf_writer_sample(struct spe_perf_writer *w, const struct spe_perf_writer_sample *s);

/* Appends the feature sections and rewrites the header. */
int spe_perf_writer_finish(struct spe_perf_writer *w);

/* Bytes written so far (the current end of file). */
uint64_t spe_perf_writer_offset(const struct spe_perf_writer *w);


/* ---- Reader ------------------------------------------------------------ */

/*
 * A streaming perf.data reader for files and for perf's pipe format (perf
 * record -o -, read from a pipe or stdin).  Records come out one at a time
 * in file order through a fixed buffer, so memory does not grow with the
 * file.  AUXTRACE data is not read with its record: in a file the caller
 * preads it later from aux_data_offset (spe_perf_reader_pread); in a pipe it must
 * consume it with spe_perf_reader_aux_read() before the next spe_perf_reader_next(), which
 * otherwise skips it.
 *
 * Errors are negative SPE_ERR_* codes (SPE_ERR_BAD_FILE for a malformed
 * file, SPE_ERR_IO for a failed read); spe_perf_reader_errmsg() then says what was
 * wrong and at which file offset (spe_perf_reader_error_offset()).
 */
struct spe_perf_reader;

struct spe_perf_reader_attr {
	struct perf_event_attr attr;	/* zero-extended to this header's size */
	uint32_t file_size;		/* attr.size as found in the file */
	uint64_t *ids;
	uint32_t nr_ids;
};

/* The sample_id_all trailer (non-sample records) or the leading fields of
 * a PERF_RECORD_SAMPLE. */
struct spe_perf_reader_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint32_t cpu;
	bool has_tid, has_time, has_id, has_cpu;
};

struct spe_perf_reader_event {
	uint64_t offset;		/* file offset of the record */
	const struct perf_event_header *header;	/* header.size bytes, 8-aligned */
	const struct spe_perf_reader_attr *attr;	/* owner of the record, or NULL */
	struct spe_perf_reader_sample_id sid;
	/* PERF_RECORD_AUXTRACE: where its data starts and how long it is. */
	uint64_t aux_data_offset;
	uint64_t aux_data_size;
};

/* Machine description from the feature sections (or pipe-mode records). */
struct spe_perf_reader_info {
	char arch[64];
	char cpuid[128];		/* arm64: MIDR_EL1 as text */
	uint32_t nr_cpus_avail, nr_cpus_online;
	bool has_cpuid, has_nrcpus, has_auxtrace_index;
	bool truncated_file;		/* data section runs past the end of file */
	uint64_t nr_auxtrace_index;	/* entries of the HEADER_AUXTRACE index */
	uint64_t auxtrace_index_offset;	/* file offset of its first entry */
};

int spe_perf_reader_open(struct spe_perf_reader **out, int fd);
/* The same for a stream whose first @head_len (at most 16) bytes the
 * caller already read (to tell perf.data from raw SPE bytes): @head. */
int spe_perf_reader_open_stream(struct spe_perf_reader **out, int fd, const void *head,
				size_t head_len);
/* On a failed open *out is still set (for spe_perf_reader_errmsg), or NULL without
 * memory; spe_perf_reader_close() frees it and does not close fd. */
void spe_perf_reader_close(struct spe_perf_reader *r);

/* 1: *ev holds the next record (valid until the next call); 0: end of data;
 * negative: error (see spe_perf_reader_errmsg). */
int spe_perf_reader_next(struct spe_perf_reader *r, struct spe_perf_reader_event *ev);

bool spe_perf_reader_is_pipe(const struct spe_perf_reader *r);
uint64_t spe_perf_reader_file_size(const struct spe_perf_reader *r);	/* 0 for a pipe */
const struct spe_perf_reader_info *spe_perf_reader_info(const struct spe_perf_reader *r);
uint32_t spe_perf_reader_nr_attrs(const struct spe_perf_reader *r);
const struct spe_perf_reader_attr *spe_perf_reader_attr(const struct spe_perf_reader *r,
							uint32_t i);
const struct spe_perf_reader_attr *spe_perf_reader_attr_by_id(const struct spe_perf_reader *r,
	uint64_t id);
/* File mode: the file offset and size of feature section @feat (an
 * enum spe_perf_feature bit); SPE_ERR_NOT_FOUND when the file has none. */
int spe_perf_reader_feature_section(const struct spe_perf_reader *r, int feat, uint64_t *off,
				    uint64_t *size);

/* Reads the current AUXTRACE record's data sequentially; returns bytes read
 * (0 when all consumed) or a negative error.  Works in both modes. */
long spe_perf_reader_aux_read(struct spe_perf_reader *r, void *buf, size_t n);
/* File mode: n bytes at file offset off (AUXTRACE data of any record). */
int spe_perf_reader_pread(struct spe_perf_reader *r, void *buf, size_t n, uint64_t off);

const char *spe_perf_reader_errmsg(const struct spe_perf_reader *r);
uint64_t spe_perf_reader_error_offset(const struct spe_perf_reader *r);

/* ---- Parsed records ---------------------------------------------------- */

/* ARM SPE AUXTRACE_INFO in either version. */
#define SPE_AUXINFO_MAX_CPUS	1024
struct spe_auxtrace_info {
	uint32_t version;		/* 1 or 2 */
	uint32_t pmu_type;
	bool per_cpu_mmaps;		/* version 1 only */
	uint32_t nr_cpus;		/* version 2: per-CPU entries */
};

/* Parses the fixed part; *info.  Returns 0, or SPE_ERR_BAD_FILE /
 * SPE_ERR_UNSUPPORTED (not ARM SPE) with a reason in *why. */
int spe_parse_auxtrace_info(const struct perf_event_header *h,
			    struct spe_auxtrace_info *info, const char **why);
/* Version 2: the metadata of per-CPU entry i (0 <= i < nr_cpus). */
int spe_auxtrace_info_cpu(const struct perf_event_header *h, uint32_t i,
			  struct spe_perf_writer_cpu_meta *meta, const char **why);

int spe_parse_time_conv(const struct perf_event_header *h, struct spe_time_conv *tc);

#endif /* SPE_PERF_DATA_H */
