// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode wrap: put raw SPE buffers into a perf.data that perf (and this
 * tool) reads as an `perf record -e arm_spe//` recording of an arm64 machine.
 *
 *   spe-decode wrap [-o out.data] [--cpu N] [--midr 0x...] [--version 1|2]
 *                   [options] raw.bin[@CPU] ...
 *
 * Each input becomes the AUX data of one CPU (or, with --per-thread, of the
 * thread given by --tid), split into AUXTRACE records of --chunk bytes, each
 * followed by an AUX record carrying --aux-flags.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "input.h"
#include "output_file.h"
#include "spe_perf_data.h"

#define WRAP_MAX_INPUTS		64
#define WRAP_IO_CHUNK		(1u << 20)
#define WRAP_SPE_ID_BASE	100	/* ids of the arm_spe event, + cpu */
#define WRAP_DUMMY_ID_BASE	200	/* ids of the tracking dummy, + cpu */
#define WRAP_MAX_MMAPS		16
/* An error already reported with the input's name. */
#define WRAP_ERR_REPORTED	(-10000)

/* The arm_spe format attributes (include/spe/format_table.h, the driver's
 * one table): fmt_lo_<name> is an attribute's lowest bit in its word. */
enum {
#define SPE_FMT(name, word, lo, hi, feat)	fmt_lo_##name = (lo),
#include "spe/format_table.h"
#undef SPE_FMT
};

struct wrap_input {
	const char *path;
	int cpu;
};

struct wrap_mmap {
	uint64_t start, len, pgoff;
	const char *path;
	bool kernel;			/* a kernel map (pid -1), e.g. a module */
};

/* A build id of the BUILD_ID feature section, as perf record writes it. */
struct wrap_build_id {
	uint8_t id[20];
	size_t len;
	const char *path;
};

struct wrap_switch {
	int cpu;
	uint64_t time;
	int pid, tid;
};

#define WRAP_MAX_SWITCHES	64

struct wrap_opts {
	const char *out;
	int cpu;
	uint64_t midr;
	int version;
	uint32_t pmu_type;
	uint64_t config;
	uint64_t period;
	uint64_t chunk;
	uint64_t aux_flags;
	bool per_thread;
	int pid, tid;
	const char *comm;
	const char *features_from;
	struct spe_time_conv tc;
	struct wrap_input in[WRAP_MAX_INPUTS];
	int nr_in;
	struct wrap_mmap mmaps[WRAP_MAX_MMAPS];
	int nr_mmaps;
	struct wrap_build_id ids[WRAP_MAX_MMAPS];
	int nr_ids;
	struct wrap_switch sw[WRAP_MAX_SWITCHES];
	int nr_sw;
};

static void wrap_usage(FILE *out)
{
	fprintf(out,
"usage: spe-decode wrap [options] raw.bin[@CPU] ...\n"
"Write a perf.data holding raw SPE buffers as arm_spe AUX data.\n"
"  -o FILE              output (default perf.data; - for stdout, pipe format)\n"
"  --cpu N              CPU of inputs without @CPU (default 0)\n"
"  --midr 0xX           MIDR_EL1 of every CPU (default 0x413fd0c1, Neoverse N1)\n"
"  --version 1|2        AUXTRACE_INFO layout (default 1)\n"
"  --pmu-type N         dynamic PMU type of arm_spe_0 (default 8)\n"
"  --config 0xX         arm_spe config (default 0x3: ts_enable, pa_enable)\n"
"  --period N           sample period (default 4096)\n"
"  --chunk N            bytes per AUXTRACE record (default: whole input)\n"
"  --aux-flags 0xX      flags of every AUX record (TRUNCATED 0x1, PARTIAL 0x4,\n"
"                       COLLISION 0x8)\n"
"  --per-thread         a per-thread recording (no CPU in samples)\n"
"  --pid N --tid N      the profiled thread (default -1), with --comm NAME\n"
"  --mmap START:LEN:PGOFF:PATH  an executable mapping of --pid (repeatable)\n"
"  --kernel-mmap START:LEN:PGOFF:PATH  a kernel map, as perf record writes\n"
"                       [kernel.kallsyms]_text and each module's (repeatable)\n"
"  --build-id HEX:PATH  the build id of PATH in the BUILD_ID feature section\n"
"                       (repeatable)\n"
"  --time-conv SHIFT:MULT:ZERO[:CYCLES:MASK]  TIME_CONV (default 0:1:0);\n"
"                       with CYCLES:MASK the long form with cap_user_time_short\n"
"  --short-time-conv    write TIME_CONV in the old short form\n"
"  --switch CPU:TIME:PID:TID  a context switch on CPU at perf TIME to PID/TID\n"
"                       (SWITCH_CPU_WIDE out; repeatable)\n"
"  --features-from FILE copy FILE's feature sections (NRCPUS, topology, build\n"
"                       ids, cmdline ...) but ARCH, CPUID, PMU_MAPPINGS and\n"
"                       SAMPLE_TIME\n");
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || end == s || *end) ? -1 : 0;
}

static int parse_time_conv(const char *s, struct spe_time_conv *tc)
{
	unsigned long long v[5];
	int n = sscanf(s, "%lli:%lli:%lli:%lli:%lli", &v[0], &v[1], &v[2], &v[3], &v[4]);

	if (n != 3 && n != 5)
		return -1;
	tc->time_shift = v[0];
	tc->time_mult = v[1];
	tc->time_zero = v[2];
	if (n == 5) {
		tc->time_cycles = v[3];
		tc->time_mask = v[4];
		tc->cap_user_time_short = true;
	}
	return 0;
}

static int parse_mmap(const char *s, struct wrap_mmap *m)
{
	uint64_t v[3];
	char *end;

	/* strtoull, not %lli: kernel addresses are above INT64_MAX. */
	for (int i = 0; i < 3; i++) {
		errno = 0;
		v[i] = strtoull(s, &end, 0);
		if (errno || end == s || *end != ':')
			return -1;
		s = end + 1;
	}
	if (!*s)
		return -1;
	m->start = v[0];
	m->len = v[1];
	m->pgoff = v[2];
	m->path = s;
	return 0;
}

/* HEX:PATH, 1 to 20 bytes of build id. */
static int parse_build_id(const char *s, struct wrap_build_id *b)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : 0;

	if (!n || n % 2 || n > 40 || !colon[1])
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1 || !isxdigit((unsigned char)s[2 * i]) ||
		    !isxdigit((unsigned char)s[2 * i + 1]))
			return -1;
		b->id[i] = (uint8_t)v;
	}
	b->len = n / 2;
	b->path = colon + 1;
	return 0;
}

/* The BUILD_ID feature section: one build_id_event per file (header, pid
 * -1, the id in 24 bytes with its size in the 21st, the name padded to 8). */
static int wrap_build_ids(struct spe_perf_writer *w, const struct wrap_opts *o)
{
	size_t len = 0, cap = 0;
	unsigned char *sec = NULL;
	int err;

	for (int i = 0; i < o->nr_ids; i++) {
		const struct wrap_build_id *b = &o->ids[i];
		size_t name = strlen(b->path) + 1, size = 36 + ((name + 7) & ~(size_t)7);
		struct perf_event_header h = {
			.misc = (uint16_t)(PERF_RECORD_MISC_USER | (1u << 15)),
			.size = (uint16_t)size,
		};
		int32_t pid = -1;

		if (size > UINT16_MAX)
			return -ENAMETOOLONG;
		if (len + size > cap) {
			unsigned char *n = realloc(sec, cap = (len + size) * 2);

			if (!n) {
				free(sec);
				return -ENOMEM;
			}
			sec = n;
		}
		memset(sec + len, 0, size);
		memcpy(sec + len, &h, sizeof(h));
		memcpy(sec + len + 8, &pid, 4);
		memcpy(sec + len + 12, b->id, b->len);
		sec[len + 12 + 20] = (unsigned char)b->len;
		memcpy(sec + len + 36, b->path, name);
		len += size;
	}
	err = spe_perf_writer_copy_feature(w, SPE_HEADER_BUILD_ID, sec, len);
	free(sec);
	return err;
}

enum {
	OPT_CPU = 256, OPT_MIDR, OPT_VERSION, OPT_PMU_TYPE, OPT_CONFIG, OPT_PERIOD,
	OPT_CHUNK, OPT_AUX_FLAGS, OPT_PER_THREAD, OPT_PID, OPT_TID, OPT_COMM,
	OPT_MMAP, OPT_TIME_CONV, OPT_SHORT_TC, OPT_SWITCH, OPT_FEATURES_FROM,
	OPT_KERNEL_MMAP, OPT_BUILD_ID,
};

static int wrap_parse(int argc, char **argv, struct wrap_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "midr", required_argument, NULL, OPT_MIDR },
		{ "version", required_argument, NULL, OPT_VERSION },
		{ "pmu-type", required_argument, NULL, OPT_PMU_TYPE },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "period", required_argument, NULL, OPT_PERIOD },
		{ "chunk", required_argument, NULL, OPT_CHUNK },
		{ "aux-flags", required_argument, NULL, OPT_AUX_FLAGS },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "mmap", required_argument, NULL, OPT_MMAP },
		{ "kernel-mmap", required_argument, NULL, OPT_KERNEL_MMAP },
		{ "build-id", required_argument, NULL, OPT_BUILD_ID },
		{ "time-conv", required_argument, NULL, OPT_TIME_CONV },
		{ "short-time-conv", no_argument, NULL, OPT_SHORT_TC },
		{ "switch", required_argument, NULL, OPT_SWITCH },
		{ "features-from", required_argument, NULL, OPT_FEATURES_FROM },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	*o = (struct wrap_opts){
		.out = "perf.data", .midr = 0x413fd0c1, .version = 1, .pmu_type = 8,
		.config = (1ULL << fmt_lo_ts_enable) | (1ULL << fmt_lo_pa_enable),
		.period = 4096, .pid = -1, .tid = -1,
		.tc = { .time_mult = 1, .cap_user_time_zero = true, .long_form = true },
	};
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'h':
			wrap_usage(stdout);
			exit(0);
		case OPT_CPU:
		case OPT_PID:
		case OPT_TID:
			if (parse_u64(optarg, &v) && strcmp(optarg, "-1"))
				goto bad;
			*(c == OPT_CPU ? &o->cpu : c == OPT_PID ? &o->pid : &o->tid) =
				(int)strtol(optarg, NULL, 0);
			break;
		case OPT_MIDR:
			if (parse_u64(optarg, &o->midr))
				goto bad;
			break;
		case OPT_VERSION:
			if (strcmp(optarg, "1") && strcmp(optarg, "2"))
				goto bad;
			o->version = optarg[0] - '0';
			break;
		case OPT_PMU_TYPE:
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				goto bad;
			o->pmu_type = (uint32_t)v;
			break;
		case OPT_CONFIG:
			if (parse_u64(optarg, &o->config))
				goto bad;
			break;
		case OPT_PERIOD:
			if (parse_u64(optarg, &o->period) || !o->period)
				goto bad;
			break;
		case OPT_CHUNK:
			if (parse_u64(optarg, &o->chunk) || !o->chunk)
				goto bad;
			break;
		case OPT_AUX_FLAGS:
			if (parse_u64(optarg, &o->aux_flags))
				goto bad;
			break;
		case OPT_PER_THREAD:
			o->per_thread = true;
			break;
		case OPT_COMM:
			o->comm = optarg;
			break;
		case OPT_FEATURES_FROM:
			o->features_from = optarg;
			break;
		case OPT_MMAP:
		case OPT_KERNEL_MMAP:
			if (o->nr_mmaps == WRAP_MAX_MMAPS ||
			    parse_mmap(optarg, &o->mmaps[o->nr_mmaps]))
				goto bad;
			o->mmaps[o->nr_mmaps++].kernel = c == OPT_KERNEL_MMAP;
			break;
		case OPT_BUILD_ID:
			if (o->nr_ids == WRAP_MAX_MMAPS ||
			    parse_build_id(optarg, &o->ids[o->nr_ids]))
				goto bad;
			o->nr_ids++;
			break;
		case OPT_TIME_CONV:
			if (parse_time_conv(optarg, &o->tc))
				goto bad;
			break;
		case OPT_SHORT_TC:
			o->tc.long_form = false;
			break;
		case OPT_SWITCH: {
			struct wrap_switch *w = &o->sw[o->nr_sw];
			unsigned long long t;

			if (o->nr_sw == WRAP_MAX_SWITCHES ||
			    sscanf(optarg, "%d:%llu:%d:%d", &w->cpu, &t, &w->pid, &w->tid) != 4 ||
			    w->cpu < 0 || w->cpu >= WRAP_MAX_INPUTS)
				goto bad;
			w->time = t;
			o->nr_sw++;
			break;
		}
		default:
			wrap_usage(stderr);
			return -1;
		}
	}
	for (int i = optind; i < argc; i++) {
		struct wrap_input *in = &o->in[o->nr_in];
		char *at = strrchr(argv[i], '@');

		if (o->nr_in == WRAP_MAX_INPUTS) {
			fprintf(stderr, "spe-decode wrap: at most %d inputs\n", WRAP_MAX_INPUTS);
			return -1;
		}
		in->path = argv[i];
		in->cpu = o->cpu;
		if (at && !parse_u64(at + 1, &v) && v < 4096) {
			*at = '\0';
			in->cpu = (int)v;
		}
		o->nr_in++;
	}
	if (!o->nr_in) {
		wrap_usage(stderr);
		return -1;
	}
	if (o->per_thread && o->nr_in > 1) {
		fprintf(stderr, "spe-decode wrap: --per-thread takes one input\n");
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "spe-decode wrap: bad value '%s'\n", optarg);
	return -1;
}

static int wrap_max_cpu(const struct wrap_opts *o)
{
	int max = o->cpu;

	for (int i = 0; i < o->nr_in; i++)
		if (o->in[i].cpu > max)
			max = o->in[i].cpu;
	return max;
}

/* The attributes perf record creates for -e arm_spe//: the SPE event and
 * the dummy event that tracks comm/mmap/task/switch. */
static int wrap_attrs(struct spe_perf_writer *w, const struct wrap_opts *o, int nr_cpus)
{
	uint64_t spe_ids[WRAP_MAX_INPUTS], dummy_ids[WRAP_MAX_INPUTS];
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr spe = { 0 }, dummy = { 0 };
	uint32_t nr_ids = 0;
	int err;

	if (!o->per_thread)
		st |= PERF_SAMPLE_CPU;
	if (o->per_thread) {
		spe_ids[0] = WRAP_SPE_ID_BASE;
		dummy_ids[0] = WRAP_DUMMY_ID_BASE;
		nr_ids = 1;
	} else {
		for (int cpu = 0; cpu < nr_cpus && cpu < WRAP_MAX_INPUTS; cpu++) {
			spe_ids[nr_ids] = WRAP_SPE_ID_BASE + cpu;
			dummy_ids[nr_ids] = WRAP_DUMMY_ID_BASE + cpu;
			nr_ids++;
		}
	}

	spe.type = o->pmu_type;
	spe.config = o->config;
	spe.sample_period = o->period;
	spe.sample_type = st | PERF_SAMPLE_PERIOD;
	if (o->config & (1ULL << fmt_lo_pa_enable))	/* perf records PHYS_ADDR then */
		spe.sample_type |= PERF_SAMPLE_PHYS_ADDR;
	spe.disabled = 1;
	spe.exclude_guest = 1;
	spe.sample_id_all = 1;
	err = spe_perf_writer_add_attr(w, &spe, "arm_spe_0//", spe_ids, nr_ids);
	if (err)
		return err;

	dummy.type = PERF_TYPE_SOFTWARE;
	dummy.config = PERF_COUNT_SW_DUMMY;
	dummy.sample_period = 1;
	dummy.sample_type = st;
	dummy.disabled = 1;
	dummy.exclude_guest = 1;
	dummy.mmap = 1;
	dummy.mmap2 = 1;
	dummy.comm = 1;
	dummy.comm_exec = 1;
	dummy.task = 1;
	dummy.context_switch = !o->per_thread;
	dummy.sample_id_all = 1;
	return spe_perf_writer_add_attr(w, &dummy, "dummy:u", dummy_ids, nr_ids);
}

static int wrap_copy_input(struct spe_perf_writer *w, const struct wrap_opts *o,
			   const struct wrap_input *in, unsigned char *buf)
{
	int idx = o->per_thread ? 0 : in->cpu;
	struct spe_perf_writer_sample_id sid = {
		.pid = (uint32_t)o->pid, .tid = (uint32_t)o->tid,
		.id = WRAP_SPE_ID_BASE + (o->per_thread ? 0 : in->cpu),
		.cpu = o->per_thread ? 0 : (uint32_t)in->cpu,
	};
	uint64_t aux_off = 0, left, chunk = o->chunk ? o->chunk : UINT64_MAX;
	int fd = strcmp(in->path, "-") ? open(in->path, O_RDONLY) : STDIN_FILENO;
	struct stat st;
	const char *in_why = NULL;	/* the input failed, not the writer */
	int err = 0;

	if (fd < 0) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", in->path, strerror(errno));
		return WRAP_ERR_REPORTED;
	}
	if (fstat(fd, &st)) {
		in_why = strerror(errno);
		err = WRAP_ERR_REPORTED;
		goto out;
	}
	/* stdin or a FIFO: its size is needed first, so a seekable copy. */
	if (!S_ISREG(st.st_mode)) {
		fd = spe_spool_stream("wrap", strcmp(in->path, "-") ? in->path : "stdin", fd);
		if (fd < 0 || fstat(fd, &st))
			return WRAP_ERR_REPORTED;
	}
	left = (uint64_t)st.st_size;
	err = spe_perf_writer_itrace_start(w, (uint32_t)o->pid, (uint32_t)o->tid, &sid);
	while (!err && left) {
		/* One AUXTRACE record per chunk, streamed through buf. */
		uint64_t size = left < chunk ? left : chunk, got = 0;

		/* perf record: per-CPU buffers have tid -1, per-thread the tid. */
		err = spe_perf_writer_auxtrace_begin(w, size, aux_off, aux_off, (uint32_t)idx,
						     o->per_thread ? (uint32_t)o->tid : UINT32_MAX,
						     o->per_thread ? UINT32_MAX : (uint32_t)in->cpu);
		while (!err && got < size) {
			size_t n = size - got < WRAP_IO_CHUNK ? size - got : WRAP_IO_CHUNK;
			ssize_t r = read(fd, buf, n);

			if (r <= 0) {
				in_why = r < 0 ? strerror(errno) : "file shrank while reading";
				err = WRAP_ERR_REPORTED;
				break;
			}
			err = spe_perf_writer_auxtrace_data(w, buf, (uint64_t)r);
			got += (uint64_t)r;
		}
		if (!err)
			err = spe_perf_writer_aux(w, aux_off, size, o->aux_flags, &sid);
		if (!err)
			err = spe_perf_writer_finished_round(w);
		aux_off += size;
		left -= size;
	}
out:
	close(fd);
	if (in_why)
		fprintf(stderr, "spe-decode wrap: %s: %s\n", in->path, in_why);
	else if (err)
		fprintf(stderr, "spe-decode wrap: %s: writing %s: %s\n", in->path, o->out,
			spe_perf_writer_errmsg(w) ? spe_perf_writer_errmsg(w) : spe_strerror(err));
	return err ? WRAP_ERR_REPORTED : 0;
}

/*
 * The arm64 machine and its SPE PMU are this tool's to describe, and the
 * sample times are the data's; the rest (topology, caches, memory, build
 * ids, command line) comes from @path.  NRCPUS too: the topology sections
 * are laid out by it.
 */
static int wrap_features_from(struct spe_perf_writer *w, const char *path)
{
	const uint64_t own = 1ULL << SPE_HEADER_ARCH | 1ULL << SPE_HEADER_CPUID |
			     1ULL << SPE_HEADER_PMU_MAPPINGS | 1ULL << SPE_HEADER_SAMPLE_TIME;
	struct spe_perf_reader *r;
	int fd = open(path, O_RDONLY), err;

	if (fd < 0) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", path, strerror(errno));
		return WRAP_ERR_REPORTED;
	}
	err = spe_perf_reader_open(&r, fd);
	if (err) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", path,
			r ? spe_perf_reader_errmsg(r) : spe_strerror(err));
		err = WRAP_ERR_REPORTED;
	} else {
		err = spe_perf_writer_copy_features(w, r, own);
	}
	spe_perf_reader_close(r);
	close(fd);
	return err;
}

static int wrap_write(struct spe_perf_writer *w, const struct wrap_opts *o, int nr_cpus)
{
	struct spe_perf_writer_cpu_meta meta[WRAP_MAX_INPUTS];
	struct spe_perf_writer_sample_id sid = {
		.pid = (uint32_t)o->pid, .tid = (uint32_t)o->tid,
		.id = WRAP_DUMMY_ID_BASE + (o->per_thread ? 0 : o->in[0].cpu),
		.cpu = o->per_thread ? 0 : (uint32_t)o->in[0].cpu,
	};
	unsigned char *buf;
	int err;

	/* TIME_CONV first: perf copies it when it reads AUXTRACE_INFO. */
	err = spe_perf_writer_time_conv(w, &o->tc);
	if (err)
		return err;
	if (o->version == 1) {
		err = spe_perf_writer_auxtrace_info_v1(w, o->pmu_type, !o->per_thread);
	} else {
		for (int cpu = 0; cpu < nr_cpus; cpu++)
			meta[cpu] = (struct spe_perf_writer_cpu_meta){
				.cpu = (uint64_t)cpu, .midr = o->midr,
				.pmu_type = o->pmu_type, .min_interval = 256,
				.event_filter = 0x7f0ffULL,
			};
		err = spe_perf_writer_auxtrace_info_v2(w, o->pmu_type, meta, (uint32_t)nr_cpus,
						       SPE_AUXINFO_V2_NR_PARAMS);
	}
	if (!err && o->comm && o->pid != -1)
		err = spe_perf_writer_comm(w, (uint32_t)o->pid, (uint32_t)o->tid, o->comm,
					   true, &sid);
	for (int i = 0; !err && i < o->nr_mmaps; i++) {
		const struct wrap_mmap *m = &o->mmaps[i];
		uint32_t pid = m->kernel ? (uint32_t)-1 : (uint32_t)o->pid;
		uint32_t tid = m->kernel ? (uint32_t)-1 : (uint32_t)o->tid;

		err = spe_perf_writer_mmap2(w,
					    m->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
					    pid, tid, m->start, m->len, m->pgoff, m->path, &sid);
	}
	for (int i = 0; !err && i < o->nr_sw; i++) {
		struct spe_perf_writer_sample_id ssid = {
			.pid = (uint32_t)-1, .tid = (uint32_t)-1, .time = o->sw[i].time,
			.id = WRAP_DUMMY_ID_BASE + (uint64_t)o->sw[i].cpu,
			.cpu = (uint32_t)o->sw[i].cpu,
		};

		err = spe_perf_writer_switch(w, true, true, (uint32_t)o->sw[i].pid,
					     (uint32_t)o->sw[i].tid, &ssid);
	}
	if (!err)
		err = spe_perf_writer_finished_round(w);
	if (err)
		return err;

	buf = malloc(WRAP_IO_CHUNK);
	if (!buf)
		return SPE_ERR_NOMEM;
	for (int i = 0; !err && i < o->nr_in; i++)
		err = wrap_copy_input(w, o, &o->in[i], buf);
	free(buf);
	return err;
}

static int cmd_wrap(int argc, char **argv)
{
	struct wrap_opts o;
	struct spe_perf_writer *w;
	char cpuid[32];
	const char *pmu_name = "arm_spe_0";
	const char *inputs[WRAP_MAX_INPUTS + 1];
	struct spe_out_file of;
	int err, nr_cpus;

	if (wrap_parse(argc, argv, &o))
		return 2;
	nr_cpus = wrap_max_cpu(&o) + 1;
	if (nr_cpus > WRAP_MAX_INPUTS) {
		fprintf(stderr, "spe-decode wrap: CPU numbers up to %d\n", WRAP_MAX_INPUTS - 1);
		return 2;
	}
	snprintf(cpuid, sizeof(cpuid), "0x%016" PRIx64, o.midr);
	struct spe_perf_writer_info info = {
		.hostname = "spe-decode", .os_release = "6.1.0",
		.perf_version = "6.1.0", .arch = "aarch64", .cpuid = cpuid,
		.nr_cpus_avail = (uint32_t)nr_cpus, .nr_cpus_online = (uint32_t)nr_cpus,
		.nr_pmus = 1, .pmu_types = &o.pmu_type, .pmu_names = &pmu_name,
	};

	inputs[0] = o.features_from;
	for (int i = 0; i < o.nr_in; i++)
		inputs[i + 1] = o.in[i].path;
	if (spe_out_file_open(&of, "wrap", o.out, inputs, o.nr_in + 1))
		return 1;
	err = spe_out_file_is_stream(&of) ? spe_perf_writer_create_pipe(&w, of.fd, &info) :
			     spe_perf_writer_create(&w, of.fd, &info);
	if (!err) {
		if (o.features_from)
			err = wrap_features_from(w, o.features_from);
		if (!err && o.nr_ids)
			err = wrap_build_ids(w, &o);
		if (!err)
			err = wrap_attrs(w, &o, nr_cpus);
		if (!err)
			err = wrap_write(w, &o, nr_cpus);
		if (!err)
			err = spe_perf_writer_finish(w);
	}
	/* An input's error was reported with its name; nothing is kept. */
	if (err && err != WRAP_ERR_REPORTED)
		fprintf(stderr, "spe-decode wrap: writing %s: %s\n", o.out,
			spe_perf_writer_errmsg(w) ? spe_perf_writer_errmsg(w) : spe_strerror(err));
	spe_perf_writer_free(w);
	if (err) {
		spe_out_file_abort(&of);
		return 1;
	}
	return spe_out_file_commit(&of, "wrap") ? 1 : 0;
}

const struct spe_cli_command spe_cmd_wrap = {
	.name = "wrap",
	.summary = "wrap raw SPE buffers into a perf.data that perf reads",
	.run = cmd_wrap,
};
