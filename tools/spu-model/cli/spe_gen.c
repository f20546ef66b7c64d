// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-gen: write a raw SPE trace produced by the SPU model from the seeded
 * program generator.  The output is exactly what the unit left in its
 * Profiling Buffer: records from the buffer base up to PMBPTR, stopped at
 * the first buffer-full event (DDI 0586A §3.5.2) or when the program ends.
 * Same profile, seed and options give the same bytes on every run.
 * --perf-data also writes the perf.data perf record would, through the
 * decoder library's writer (spe_perf_recording.h), linked in.
 * --cpus N runs N units, one per CPU, each with its own seed, into one
 * perf.data; --binary PATH places the user PCs in PATH's functions and
 * writes the COMM and MMAP2 records of a task running it, so the
 * recording symbolises.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_binary.h"
#include "spe/spu_model.h"
#include "spe/spu_opgen.h"
#include "spe_perf_recording.h"
#include "spe_decode_version.h"
#include "spe_sample_time.h"

#define BUF_BASE	0xffff800010000000ULL	/* where a driver's AUX buffer would be */
#define CHUNK		4096
#define MAX_CPUS	64
/* The low bits of a generated user PC that place it in --binary's functions:
 * the program generator's text of one process spans less than 1 MiB. */
#define USER_PC_BITS	0xfffffULL

/*
 * The perf ABI's format attributes, from the driver's one table: fmt_lo_<name>
 * is the attribute's lowest bit in its config word.  The perf.data written
 * with --perf-data claims the config the trace was recorded with.
 */
enum {
#define SPE_FMT(name, word, lo, hi, feat)	fmt_lo_##name = (lo),
#include "spe/format_table.h"
#undef SPE_FMT
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-gen -o FILE [options]\n"
"       spe-gen --perf-data FILE [--cpus N] [--binary PROGRAM] [options]\n"
"  -o, --output FILE       raw SPE bytes (the Profiling Buffer contents; one CPU)\n"
"  -p, --profile NAME      v1-min | n1 | v2 | full (default n1)\n"
"  -s, --seed N            program and unit seed (default 1)\n"
"  -n, --size BYTES        buffer size; generation stops when it fills (default 1M)\n"
"  -i, --interval N        sample period in operations, multiple of 256\n"
"                          (default the profile's minimum; 0 samples every operation)\n"
"  -j, --jitter            random perturbation of the interval (PMSIRR.RND)\n"
"      --no-ts --no-pa --no-cx   drop timestamps, physical addresses, contexts\n"
"      --load-filter --store-filter --branch-filter   PMSFCR.FT with LD/ST/B\n"
"      --event-filter HEX  PMSFCR.FE with PMSEVFR\n"
"      --min-latency N     PMSFCR.FL with PMSLATFR.MINLAT\n"
"      --perf-data FILE    write a perf.data around the trace (-o optional), as\n"
"                          `spe-decode wrap` does (perf record -e arm_spe//)\n"
"      --cpus N            N CPUs (1..64, default 1), CPU K with seed SEED+K: one\n"
"                          AUX buffer each in the perf.data (no -o when N > 1)\n"
"      --binary PROGRAM    user PCs and branch targets in PROGRAM's functions\n"
"                          (an ELF with a symbol table; /proc/self/exe: spe-gen),\n"
"                          all samples of one task whose COMM and MMAP2 of\n"
"                          PROGRAM's text the perf.data holds: it symbolises\n"
"  -q, --quiet             no summary on stderr\n"
"  -v, --version           print the version (spe-decode's, of the same release)\n");
}

/* MIDR_EL1 a profile's perf.data claims, so decoders pick its data sources. */
static uint64_t profile_midr(const char *name)
{
	if (!strcmp(name, "n1"))
		return 0x413fd0c1;		/* Neoverse N1 r3p1 */
	if (!strcmp(name, "v2"))
		return 0x410fd4f1;		/* Neoverse V2 r0p1 */
	return 0x410fd0c0;
}

/*
 * Writes @out through a temporary file beside it (created @mode less the
 * umask), renamed over it only when complete: a failure leaves what was
 * there.  An @out that exists and is not a regular file (/dev/null, a FIFO)
 * is written in place, never replaced.  @fill writes the contents, told
 * when the file can only be written front to back (a FIFO).
 */
static int write_file(const char *out, mode_t mode,
		      int (*fill)(int fd, bool stream, const void *arg), const void *arg)
{
	size_t len = strlen(out);
	char *tmp = NULL;
	struct stat st;
	mode_t mask;
	int fd, err;

	if (!stat(out, &st) && !S_ISREG(st.st_mode)) {
		fd = open(out, O_WRONLY);
	} else {
		tmp = malloc(len + sizeof(".XXXXXX"));
		if (!tmp) {
			fprintf(stderr, "spe-gen: out of memory\n");
			return 1;
		}
		memcpy(tmp, out, len);
		memcpy(tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
		fd = mkstemp(tmp);
		mask = umask(0);
		umask(mask);
		if (fd >= 0 && fchmod(fd, mode & ~mask)) {
			close(fd);
			unlink(tmp);
			fd = -1;
		}
	}
	if (fd < 0) {
		fprintf(stderr, "spe-gen: cannot write %s: %s\n", out, strerror(errno));
		free(tmp);
		return 1;
	}
	err = fill(fd, lseek(fd, 0, SEEK_CUR) < 0, arg);
	if (close(fd) && !err) {
		fprintf(stderr, "spe-gen: cannot write %s: %s\n", out, strerror(errno));
		err = 1;
	}
	if (tmp && !err && rename(tmp, out)) {
		fprintf(stderr, "spe-gen: cannot write %s: %s\n", out, strerror(errno));
		err = 1;
	}
	if (tmp && err)
		unlink(tmp);
	free(tmp);
	return err;
}

/* One CPU's Profiling Buffer contents. */
struct cpu_trace {
	const void *data;
	uint64_t size;
};

struct trace {
	const char *out;		/* for messages */
	const struct cpu_trace *cpu;	/* nr_cpus buffers, CPU 0 first */
	uint32_t nr_cpus;
	const char *profile;
	unsigned long long interval;
	uint64_t pmscr;
	const struct gen_binary *binary;	/* or NULL */
	int32_t pid;			/* the task of --binary */
};

static int write_raw(int fd, bool stream, const void *arg)
{
	const struct trace *t = arg;
	const unsigned char *p = t->cpu[0].data;
	uint64_t left = t->cpu[0].size;

	(void)stream;		/* raw bytes are the same either way */
	while (left) {
		ssize_t n = write(fd, p, left < (1u << 30) ? (size_t)left : (1u << 30));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "spe-gen: cannot write %s: %s\n", t->out,
				n < 0 ? strerror(errno) : "nothing written");
			return 1;
		}
		p += n;
		left -= (uint64_t)n;
	}
	return 0;
}

/*
 * The perf.data `perf record -e arm_spe//` would write for this trace,
 * one AUX buffer per CPU, through the decoder library's writer: the MIDR
 * of the profile, the sampling interval as the period and the config bits
 * of PMSCR; with --binary the COMM of the task and the MMAP2 of the
 * program's text, as perf record writes them for a program it starts.  To
 * a stream (a FIFO), perf's pipe format, as perf record -o - writes.
 */
static int write_perf_data(int fd, bool stream, const void *arg)
{
	const struct trace *t = arg;
	struct spe_perf_recording rec;
	struct spe_perf_recording_mmap text;
	struct spe_perf_recording_build_id id;
	struct spe_perf_writer *w = NULL;
	int err;

	spe_perf_recording_init(&rec);
	rec.midr = profile_midr(t->profile);
	rec.period = t->interval ? t->interval : 256;
	rec.config = (t->pmscr & SPE_PMSCR_TS ? 1ULL << fmt_lo_ts_enable : 0) |
		     (t->pmscr & SPE_PMSCR_PA ? 1ULL << fmt_lo_pa_enable : 0);
	rec.nr_cpus = t->nr_cpus;
	if (t->binary) {
		text = (struct spe_perf_recording_mmap){
			.start = t->binary->start, .len = t->binary->len,
			.pgoff = t->binary->pgoff, .path = t->binary->path,
		};
		rec.pid = rec.tid = t->pid;
		rec.comm = t->binary->comm;
		rec.mmaps = &text;
		rec.nr_mmaps = 1;
		/* perf record's BUILD_ID section names the program it ran. */
		if (t->binary->build_id_len) {
			id.len = t->binary->build_id_len;
			memcpy(id.id, t->binary->build_id, id.len);
			id.path = t->binary->path;
			rec.build_ids = &id;
			rec.nr_build_ids = 1;
		}
	}
	err = spe_perf_recording_create(&w, fd, stream, &rec);
	if (!err) {
		struct spe_sample_time times = { 0 };

		for (uint32_t cpu = 0; cpu < t->nr_cpus; cpu++)
			spe_sample_time_scan(t->cpu[cpu].data, t->cpu[cpu].size, &times);
		err = spe_sample_time_write(w, &rec.tc, &times);
	}
	if (!err)
		err = spe_perf_recording_begin(w, &rec);
	for (uint32_t cpu = 0; !err && cpu < t->nr_cpus; cpu++)
		err = spe_perf_recording_aux_mem(w, &rec, cpu, t->cpu[cpu].data, t->cpu[cpu].size);
	if (!err)
		err = spe_perf_writer_finish(w);
	if (err)
		fprintf(stderr, "spe-gen: cannot write %s: %s\n", t->out,
			spe_perf_writer_errmsg(w) ? spe_perf_writer_errmsg(w) : spe_strerror(err));
	spe_perf_writer_free(w);
	return err ? 1 : 0;
}

static unsigned long long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s) {
		fprintf(stderr, "spe-gen: invalid %s '%s'\n", what, s);
		exit(2);
	}
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	if (*end) {
		fprintf(stderr, "spe-gen: invalid %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/* @a and @b name the same existing file (@a may be NULL). */
static bool is_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && !stat(a, &sa) && !stat(b, &sb) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* How every CPU's unit is programmed. */
struct unit_setup {
	const struct spe_spu_config *cfg;
	uint64_t size;			/* buffer bytes, 4K granular */
	unsigned long long interval, evfr, minlat;
	uint64_t pmscr, fcr;
	int jitter;
	const struct gen_binary *binary;	/* or NULL */
	int32_t pid;			/* the task of --binary */
};

/*
 * With --binary, the operations of one task running the program: a user
 * PC (and a branch target at EL0) moves into its functions by its low
 * bits, so the same PC always lands on the same address and a loop body
 * stays contiguous; every context is the task's.  Kernel PCs and data
 * addresses are left as the generator made them.
 */
static void place_in_binary(const struct unit_setup *u, struct spe_op *ops, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		struct spe_op *op = &ops[i];

		if (op->el == 0)
			op->pc = gen_binary_pc(u->binary, op->pc & USER_PC_BITS);
		if (op->cls == SPE_OP_CLASS_BRANCH && op->target_el == 0)
			op->target = gen_binary_pc(u->binary, op->target & USER_PC_BITS);
		op->context[0] = op->context[1] = (uint32_t)u->pid;
	}
}

/*
 * One CPU: a unit programmed the way the driver does for perf record,
 * run over the program of @seed until its buffer fills (or after enough
 * operations to fill it).  Returns 0 with *@spu and @mem's buffer filled
 * in, or 1 after a message.
 */
static int run_unit(const struct unit_setup *u, unsigned long long seed,
		    struct spe_spu *spu, struct spe_spu_flat_mem *mem,
		    unsigned long long *nr_ops)
{
	struct spe_spu_config ucfg = *u->cfg;
	struct spe_opgen gen;
	static struct spe_op ops[CHUNK];
	unsigned long long max_ops;
	uint64_t interval = u->interval;

	ucfg.seed = seed;
	mem->base = BUF_BASE;
	mem->size = u->size;
	mem->host = calloc(1, u->size);
	if (!mem->host) {
		fprintf(stderr, "spe-gen: out of memory\n");
		return 1;
	}
	if (spe_spu_init(spu, &ucfg, spe_spu_flat_translate, mem)) {
		fprintf(stderr, "spe-gen: profile '%s' is not usable\n", u->cfg->name);
		return 1;
	}
	spe_spu_write_reg(spu, SPE_REG_PMBPTR_EL1, BUF_BASE);
	spe_spu_write_reg(spu, SPE_REG_PMSFCR_EL1, u->fcr);
	spe_spu_write_reg(spu, SPE_REG_PMSEVFR_EL1, u->evfr);
	spe_spu_write_reg(spu, SPE_REG_PMSLATFR_EL1, u->minlat);
	spe_spu_write_reg(spu, SPE_REG_PMSIRR_EL1, interval | (u->jitter ? SPE_PMSIRR_RND : 0));
	spe_spu_write_reg(spu, SPE_REG_PMSICR_EL1, 0);
	spe_spu_write_reg(spu, SPE_REG_PMSCR_EL2, u->pmscr & (SPE_PMSCR_PA | SPE_PMSCR_PCT_MASK));
	spe_spu_write_reg(spu, SPE_REG_PMSCR_EL1, u->pmscr);
	spe_spu_write_reg(spu, SPE_REG_PMBLIMITR_EL1, (BUF_BASE + u->size) | SPE_PMBLIMITR_E);
	spu->cnt_base = 0x100000000ULL + seed;

	max_ops = (u->size / 8 + 1) * (interval ? interval : 1) * 64;
	*nr_ops = 0;
	spe_opgen_init(&gen, seed);
	while (!spe_spu_irq(spu) && *nr_ops < max_ops) {
		spe_opgen_fill(&gen, ops, CHUNK);
		if (u->binary)
			place_in_binary(u, ops, CHUNK);
		spe_spu_step_batch(spu, ops, CHUNK);
		*nr_ops += CHUNK;
	}
	spe_spu_psb_csync(spu);
	return 0;
}

enum { OPT_NO_TS = 256, OPT_NO_PA, OPT_NO_CX, OPT_LD, OPT_ST, OPT_BR, OPT_EVF, OPT_LAT,
       OPT_PERF_DATA, OPT_CPUS, OPT_BINARY };

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "profile", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'i' },
		{ "jitter", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ "no-ts", no_argument, NULL, OPT_NO_TS },
		{ "no-pa", no_argument, NULL, OPT_NO_PA },
		{ "no-cx", no_argument, NULL, OPT_NO_CX },
		{ "load-filter", no_argument, NULL, OPT_LD },
		{ "store-filter", no_argument, NULL, OPT_ST },
		{ "branch-filter", no_argument, NULL, OPT_BR },
		{ "event-filter", required_argument, NULL, OPT_EVF },
		{ "min-latency", required_argument, NULL, OPT_LAT },
		{ "perf-data", required_argument, NULL, OPT_PERF_DATA },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "binary", required_argument, NULL, OPT_BINARY },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *profile = "n1", *perf_data = NULL, *binary_path = NULL;
	unsigned long long seed = 1, size = 1 << 20, interval = ~0ULL, nr_cpus = 1;
	struct unit_setup u = {
		.pmscr = SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE | SPE_PMSCR_CX |
			 SPE_PMSCR_PA | SPE_PMSCR_TS |
			 SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, SPE_PMSCR_PCT_PHYS),
	};
	int quiet = 0, c, rc = 0;
	struct gen_binary binary;
	struct spe_spu *spu = NULL;
	struct spe_spu_flat_mem mem[MAX_CPUS] = { { 0 } };
	struct cpu_trace bufs[MAX_CPUS];
	struct trace trace;

	while ((c = getopt_long(argc, argv, "o:p:s:n:i:jqhv", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'p': profile = optarg; break;
		case 's': seed = parse_num(optarg, "seed"); break;
		case 'n': size = parse_num(optarg, "size"); break;
		case 'i': interval = parse_num(optarg, "interval"); break;
		case 'j': u.jitter = 1; break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return 0;
		/* The release's version, as spe-decode --version prints it. */
		case 'v': printf("spe-gen %s\n", spe_decode_version()->string); return 0;
		case OPT_NO_TS: u.pmscr &= ~SPE_PMSCR_TS; break;
		case OPT_NO_PA: u.pmscr &= ~SPE_PMSCR_PA; break;
		case OPT_NO_CX: u.pmscr &= ~SPE_PMSCR_CX; break;
		case OPT_LD: u.fcr |= SPE_PMSFCR_FT | SPE_PMSFCR_LD; break;
		case OPT_ST: u.fcr |= SPE_PMSFCR_FT | SPE_PMSFCR_ST; break;
		case OPT_BR: u.fcr |= SPE_PMSFCR_FT | SPE_PMSFCR_B; break;
		case OPT_EVF:
			u.evfr = parse_num(optarg, "event filter");
			u.fcr |= SPE_PMSFCR_FE;
			break;
		case OPT_LAT:
			u.minlat = parse_num(optarg, "minimum latency");
			u.fcr |= SPE_PMSFCR_FL;
			break;
		case OPT_PERF_DATA: perf_data = optarg; break;
		case OPT_CPUS: nr_cpus = parse_num(optarg, "number of CPUs"); break;
		case OPT_BINARY: binary_path = optarg; break;
		default: usage(stderr); return 2;
		}
	}
	if ((!out && !perf_data) || optind != argc) {
		usage(stderr);
		return 2;
	}
	u.cfg = spe_spu_profile_find(profile);
	if (!u.cfg) {
		fprintf(stderr, "spe-gen: unknown profile '%s' (v1-min, n1, v2, full)\n", profile);
		return 2;
	}
	if (size < 4096 || size > (1ULL << 32)) {
		fprintf(stderr, "spe-gen: size must be 4K..4G bytes\n");
		return 2;
	}
	if (interval == ~0ULL)
		interval = spe_pmsidr_min_interval(u.cfg->pmsidr);
	if (interval > 0xffffff00ULL || interval % 256) {
		fprintf(stderr, "spe-gen: interval must be a multiple of 256 below 2^32\n");
		return 2;
	}
	if (nr_cpus < 1 || nr_cpus > MAX_CPUS) {
		fprintf(stderr, "spe-gen: --cpus must be 1..%d\n", MAX_CPUS);
		return 2;
	}
	if (nr_cpus > 1 && out) {
		fprintf(stderr, "spe-gen: -o writes one CPU's buffer: with --cpus %llu, "
			"--perf-data alone\n", nr_cpus);
		return 2;
	}
	u.size = size & ~4095ULL;	/* PMBLIMITR is 4K granular */
	u.interval = interval;
	if (binary_path) {
		char why[512];
		struct spe_opgen first;

		if (gen_binary_load(&binary, binary_path, why, sizeof(why))) {
			fprintf(stderr, "spe-gen: --binary %s\n", why);
			return 2;
		}
		u.binary = &binary;
		/* Writing over the program being read is refused. */
		if (is_same_file(out, binary.path) || is_same_file(perf_data, binary.path)) {
			fprintf(stderr, "spe-gen: %s is --binary's program: refused as an output\n",
				is_same_file(out, binary.path) ? out : perf_data);
			gen_binary_free(&binary);
			return 2;
		}
		/* The task: the first process the program of CPU 0 runs. */
		spe_opgen_init(&first, seed);
		u.pid = (int32_t)first.pid;
	}

	spu = malloc(sizeof(*spu));
	if (!spu) {
		fprintf(stderr, "spe-gen: out of memory\n");
		rc = 1;
	}
	for (unsigned cpu = 0; !rc && cpu < nr_cpus; cpu++) {
		unsigned long long nr_ops;
		char cpu_name[16] = "";

		if (nr_cpus > 1)
			snprintf(cpu_name, sizeof(cpu_name), " cpu %u", cpu);
		memset(spu, 0, sizeof(*spu));
		rc = run_unit(&u, seed + cpu, spu, &mem[cpu], &nr_ops);
		if (rc)
			break;
		bufs[cpu] = (struct cpu_trace){ mem[cpu].host, spu->pmbptr - BUF_BASE };
		if (!quiet)
			fprintf(stderr,
				"spe-gen: %s%s seed %llu: %llu ops, %llu records, %llu bytes; "
				"SAMPLE_POP %llu FEED %llu FILTRATE %llu COLLISION %llu; "
				"PMBSR 0x%llx\n",
				u.cfg->name, cpu_name, seed + cpu, nr_ops,
				(unsigned long long)spu->records,
				(unsigned long long)(spu->pmbptr - BUF_BASE),
				(unsigned long long)spu->pmu[SPE_SPU_SAMPLE_POP],
				(unsigned long long)spu->pmu[SPE_SPU_SAMPLE_FEED],
				(unsigned long long)spu->pmu[SPE_SPU_SAMPLE_FILTRATE],
				(unsigned long long)spu->pmu[SPE_SPU_SAMPLE_COLLISION],
				(unsigned long long)spu->pmbsr);
	}

	trace = (struct trace){
		.out = out, .cpu = bufs, .nr_cpus = (uint32_t)nr_cpus,
		.profile = profile, .interval = interval, .pmscr = u.pmscr,
		.binary = u.binary, .pid = u.pid,
	};
	if (!rc && out)
		rc = write_file(out, 0666, write_raw, &trace);
	if (!rc && perf_data) {
		trace.out = perf_data;
		/* 0600, as perf creates perf.data. */
		rc = write_file(perf_data, 0600, write_perf_data, &trace);
	}
	for (unsigned cpu = 0; cpu < nr_cpus; cpu++)
		free(mem[cpu].host);
	free(spu);
	if (u.binary)
		gen_binary_free(&binary);
	return rc;
}
