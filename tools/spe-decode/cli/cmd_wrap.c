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
 * followed by an AUX record carrying --aux-flags.  What perf record writes
 * is the library's (spe_perf_recording.h); this file is the command line
 * and the files.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "input.h"
#include "output_file.h"
#include "spe_perf_recording.h"
#include "spe_sample_time.h"
#include "wrap_topology.h"

#define WRAP_MAX_INPUTS		64
#define WRAP_MAX_MMAPS		16
#define WRAP_MAX_SWITCHES	64

struct wrap_input {
	const char *path;
	int cpu;
	int fd;				/* open, regular (a stream is spooled) */
	uint64_t size;
};

struct wrap_opts {
	const char *out;
	int cpu;
	const char *features_from;
	struct spe_perf_recording rec;
	struct wrap_input in[WRAP_MAX_INPUTS];
	int nr_in;
	struct spe_perf_recording_mmap mmaps[WRAP_MAX_MMAPS];
	struct spe_perf_recording_build_id ids[WRAP_MAX_MMAPS];
	struct spe_perf_recording_switch sw[WRAP_MAX_SWITCHES];
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
"                       SAMPLE_TIME (the data's own); NRCPUS is raised to\n"
"                       cover the data's CPUs\n");
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

static int parse_mmap(const char *s, struct spe_perf_recording_mmap *m)
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
static int parse_build_id(const char *s, struct spe_perf_recording_build_id *b)
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
	b->len = (uint32_t)(n / 2);
	b->path = colon + 1;
	return 0;
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
	struct spe_perf_recording *rec = &o->rec;
	uint64_t v;
	int c, max_cpu;

	*o = (struct wrap_opts){ .out = "perf.data" };
	spe_perf_recording_init(rec);
	rec->mmaps = o->mmaps;
	rec->build_ids = o->ids;
	rec->switches = o->sw;
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
			*(c == OPT_CPU ? &o->cpu : c == OPT_PID ? &rec->pid : &rec->tid) =
				(int)strtol(optarg, NULL, 0);
			break;
		case OPT_MIDR:
			if (parse_u64(optarg, &rec->midr))
				goto bad;
			break;
		case OPT_VERSION:
			if (strcmp(optarg, "1") && strcmp(optarg, "2"))
				goto bad;
			rec->auxtrace_info_version = (uint32_t)(optarg[0] - '0');
			break;
		case OPT_PMU_TYPE:
			if (parse_u64(optarg, &v) || v > UINT32_MAX)
				goto bad;
			rec->pmu_type = (uint32_t)v;
			break;
		case OPT_CONFIG:
			if (parse_u64(optarg, &rec->config))
				goto bad;
			break;
		case OPT_PERIOD:
			if (parse_u64(optarg, &rec->period) || !rec->period)
				goto bad;
			break;
		case OPT_CHUNK:
			if (parse_u64(optarg, &rec->chunk) || !rec->chunk)
				goto bad;
			break;
		case OPT_AUX_FLAGS:
			if (parse_u64(optarg, &rec->aux_flags))
				goto bad;
			break;
		case OPT_PER_THREAD:
			rec->per_thread = true;
			break;
		case OPT_COMM:
			rec->comm = optarg;
			break;
		case OPT_FEATURES_FROM:
			o->features_from = optarg;
			break;
		case OPT_MMAP:
		case OPT_KERNEL_MMAP:
			if (rec->nr_mmaps == WRAP_MAX_MMAPS ||
			    parse_mmap(optarg, &o->mmaps[rec->nr_mmaps]))
				goto bad;
			o->mmaps[rec->nr_mmaps++].kernel = c == OPT_KERNEL_MMAP;
			break;
		case OPT_BUILD_ID:
			if (rec->nr_build_ids == WRAP_MAX_MMAPS ||
			    parse_build_id(optarg, &o->ids[rec->nr_build_ids]))
				goto bad;
			rec->nr_build_ids++;
			break;
		case OPT_TIME_CONV:
			if (parse_time_conv(optarg, &rec->tc))
				goto bad;
			break;
		case OPT_SHORT_TC:
			rec->tc.long_form = false;
			break;
		case OPT_SWITCH: {
			struct spe_perf_recording_switch *w = &o->sw[rec->nr_switches];
			unsigned long long t;
			int cpu;

			if (rec->nr_switches == WRAP_MAX_SWITCHES ||
			    sscanf(optarg, "%d:%llu:%d:%d", &cpu, &t, &w->pid, &w->tid) != 4 ||
			    cpu < 0 || cpu >= WRAP_MAX_INPUTS)
				goto bad;
			w->cpu = (uint32_t)cpu;
			w->time = t;
			rec->nr_switches++;
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
	if (rec->per_thread && o->nr_in > 1) {
		fprintf(stderr, "spe-decode wrap: --per-thread takes one input\n");
		return -1;
	}
	/* CPUs 0 up to the highest named. */
	max_cpu = o->cpu;
	for (int i = 0; i < o->nr_in; i++)
		if (o->in[i].cpu > max_cpu)
			max_cpu = o->in[i].cpu;
	if (max_cpu >= WRAP_MAX_INPUTS) {
		fprintf(stderr, "spe-decode wrap: CPU numbers up to %d\n", WRAP_MAX_INPUTS - 1);
		return -1;
	}
	rec->nr_cpus = (uint32_t)max_cpu + 1;
	rec->sideband_cpu = rec->per_thread ? 0 : (uint32_t)o->in[0].cpu;
	for (uint32_t i = 0; i < rec->nr_switches; i++)
		if (o->sw[i].cpu >= (rec->per_thread ? 1 : rec->nr_cpus)) {
			fprintf(stderr, "spe-decode wrap: --switch on CPU %u, which has no buffer%s\n",
				o->sw[i].cpu, rec->per_thread ? " (per-thread: CPU 0)" : "");
			return -1;
		}
	return 0;
bad:
	fprintf(stderr, "spe-decode wrap: bad value '%s'\n", optarg);
	return -1;
}

/* An input file read for the library; @why says why it failed, if it did. */
struct wrap_reader {
	int fd;
	const char *why;
};

static long wrap_read(void *ctx, void *buf, size_t n)
{
	struct wrap_reader *r = ctx;
	ssize_t got = read(r->fd, buf, n);

	if (got < 0) {
		int e = errno;

		r->why = strerror(e);
		return -e;
	}
	if (!got)
		r->why = "file shrank while reading";
	return got;
}

/*
 * Opens an input as a regular file, a stream (stdin, a FIFO) spooled to
 * one: its size is needed first, and its timestamps are read before its
 * bytes are copied.  Returns 0, or 1 after a message.
 */
static int wrap_open_input(struct wrap_input *in)
{
	struct stat st;
	int fd = strcmp(in->path, "-") ? open(in->path, O_RDONLY) : STDIN_FILENO;

	if (fd < 0) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", in->path, strerror(errno));
		return 1;
	}
	if (fstat(fd, &st)) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", in->path, strerror(errno));
		close(fd);
		return 1;
	}
	if (!S_ISREG(st.st_mode)) {
		fd = spe_spool_stream("wrap", strcmp(in->path, "-") ? in->path : "stdin", fd);
		if (fd < 0)
			return 1;
		if (fstat(fd, &st)) {
			fprintf(stderr, "spe-decode wrap: %s: %s\n", in->path, strerror(errno));
			close(fd);
			return 1;
		}
	}
	in->fd = fd;
	in->size = (uint64_t)st.st_size;
	return 0;
}

/* Returns 0, 1 after a message, or a writer error for the caller to report. */
static int wrap_copy_input(struct spe_perf_writer *w, const struct wrap_opts *o,
			   const struct wrap_input *in)
{
	struct wrap_reader r = { .fd = in->fd };
	int err;

	err = spe_perf_recording_aux(w, &o->rec, (uint32_t)in->cpu, in->size, wrap_read, &r);
	if (r.why) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", in->path, r.why);
		return 1;
	}
	if (err)
		fprintf(stderr, "spe-decode wrap: %s: writing %s: %s\n", in->path, o->out,
			spe_perf_writer_errmsg(w) ? spe_perf_writer_errmsg(w) : spe_strerror(err));
	return err ? 1 : 0;
}

/*
 * SAMPLE_TIME (perf.data-file-format.txt: u64 first, u64 last sample
 * time), in perf time, when the data has timestamps: perf's --time with
 * percentages divides that range, and finds nothing without it.
 * Returns 0, 1 after a message, or a writer error.
 */
static int wrap_sample_time(struct spe_perf_writer *w, const struct wrap_opts *o)
{
	struct spe_sample_time t = { 0 };

	for (int i = 0; i < o->nr_in; i++) {
		size_t size = (size_t)o->in[i].size;
		void *map;

		if (!size)
			continue;
		if (o->in[i].size > SIZE_MAX) {
			fprintf(stderr, "spe-decode wrap: %s: %s\n", o->in[i].path, strerror(EFBIG));
			return 1;
		}
		/* The input's read position is left alone: its AUX data is
		 * read again as it is written. */
		map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, o->in[i].fd, 0);
		if (map == MAP_FAILED) {
			fprintf(stderr, "spe-decode wrap: %s: %s\n", o->in[i].path, strerror(errno));
			return 1;
		}
		spe_sample_time_scan(map, size, &t);
		munmap(map, size);
	}
	return spe_sample_time_write(w, &o->rec.tc, &t);
}

/*
 * The arm64 machine and its SPE PMU are this tool's to describe, and the
 * sample times are the data's; the rest (topology, caches, memory, build
 * ids, command line) comes from @path.  NRCPUS too (the topology sections
 * are laid out by it), unless the data has a CPU past it: perf refuses
 * -C N for N at or past NRCPUS, so it is raised to cover the data's CPUs
 * (only the number available: the CPUs added were not @path's, online),
 * and the topology's per-CPU entries with it.
 * Returns 0, 1 after a message, or a writer error.
 */
static int wrap_nrcpus(struct spe_perf_writer *w, struct spe_perf_reader *r,
		       const char *path, uint32_t nr_cpus)
{
	uint32_t nr[2];		/* available, online */
	uint64_t off, size;
	int err;

	if (spe_perf_reader_feature_section(r, SPE_HEADER_NRCPUS, &off, &size) ||
	    size < sizeof(nr))
		return 0;
	err = spe_perf_reader_pread(r, nr, sizeof(nr), off);
	if (err) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", path, spe_perf_reader_errmsg(r));
		return 1;
	}
	if (nr[0] >= nr_cpus)
		return 0;
	if (!spe_perf_reader_feature_section(r, SPE_HEADER_CPU_TOPOLOGY, &off, &size)) {
		uint8_t *sec = size <= (1u << 20) ? malloc(size ? size : 1) : NULL, *topo = NULL;
		size_t topo_len = 0;

		if (!sec)
			return SPE_ERR_NOMEM;
		err = spe_perf_reader_pread(r, sec, size, off);
		if (err) {
			free(sec);
			fprintf(stderr, "spe-decode wrap: %s: %s\n", path,
				spe_perf_reader_errmsg(r));
			return 1;
		}
		err = spe_wrap_extend_topology(sec, size, nr[0], nr_cpus, &topo, &topo_len);
		free(sec);
		if (err == -ENOMEM)
			return SPE_ERR_NOMEM;
		if (err) {
			fprintf(stderr, "spe-decode wrap: %s: CPU_TOPOLOGY is not laid out as "
				"perf writes it: cannot add CPUs up to %u to it\n", path, nr_cpus - 1);
			return 1;
		}
		err = spe_perf_writer_copy_feature(w, SPE_HEADER_CPU_TOPOLOGY, topo, topo_len);
		free(topo);
		if (err)
			return err;
	}
	fprintf(stderr, "spe-decode wrap: %s has %u CPUs, the data CPU %u: NRCPUS raised to %u\n",
		path, nr[0], nr_cpus - 1, nr_cpus);
	nr[0] = nr_cpus;
	return spe_perf_writer_copy_feature(w, SPE_HEADER_NRCPUS, nr, sizeof(nr));
}

static int wrap_features_from(struct spe_perf_writer *w, const char *path, uint32_t nr_cpus)
{
	const uint64_t own = 1ULL << SPE_HEADER_ARCH | 1ULL << SPE_HEADER_CPUID |
			     1ULL << SPE_HEADER_PMU_MAPPINGS | 1ULL << SPE_HEADER_SAMPLE_TIME;
	struct spe_perf_reader *r;
	int fd = open(path, O_RDONLY), err;

	if (fd < 0) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", path, strerror(errno));
		return 1;
	}
	err = spe_perf_reader_open(&r, fd);
	if (err) {
		fprintf(stderr, "spe-decode wrap: %s: %s\n", path,
			r ? spe_perf_reader_errmsg(r) : spe_strerror(err));
		err = 1;
	} else {
		err = spe_perf_writer_copy_features(w, r, own);
		if (!err)
			err = wrap_nrcpus(w, r, path, nr_cpus);
	}
	spe_perf_reader_close(r);
	close(fd);
	return err;
}

static int cmd_wrap(int argc, char **argv)
{
	struct wrap_opts o;
	struct spe_perf_writer *w = NULL;
	const char *inputs[WRAP_MAX_INPUTS + 1];
	struct spe_out_file of;
	int err;

	if (wrap_parse(argc, argv, &o))
		return 2;
	inputs[0] = o.features_from;
	for (int i = 0; i < o.nr_in; i++)
		inputs[i + 1] = o.in[i].path;
	if (spe_out_file_open(&of, "wrap", o.out, inputs, o.nr_in + 1, SPE_OUT_PRIVATE))
		return 1;
	for (int i = 0; i < o.nr_in; i++)
		o.in[i].fd = -1;
	err = 0;
	for (int i = 0; !err && i < o.nr_in; i++)
		err = wrap_open_input(&o.in[i]);
	if (!err)
		err = spe_perf_recording_create(&w, of.fd, spe_out_file_is_stream(&of), &o.rec);
	if (!err && o.features_from)
		err = wrap_features_from(w, o.features_from, o.rec.nr_cpus);
	if (!err)
		err = wrap_sample_time(w, &o);
	if (!err)
		err = spe_perf_recording_begin(w, &o.rec);
	for (int i = 0; !err && i < o.nr_in; i++)
		err = wrap_copy_input(w, &o, &o.in[i]);
	if (!err)
		err = spe_perf_writer_finish(w);
	/* 1: reported with the file's name.  Nothing is kept. */
	if (err && err != 1)
		fprintf(stderr, "spe-decode wrap: writing %s: %s\n", o.out,
			spe_perf_writer_errmsg(w) ? spe_perf_writer_errmsg(w) : spe_strerror(err));
	spe_perf_writer_free(w);
	for (int i = 0; i < o.nr_in; i++)
		if (o.in[i].fd >= 0)
			close(o.in[i].fd);
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
