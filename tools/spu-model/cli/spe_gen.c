// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-gen: write a raw SPE trace produced by the SPU model from the seeded
 * program generator.  The output is exactly what the unit left in its
 * Profiling Buffer: records from the buffer base up to PMBPTR, stopped at
 * the first buffer-full event (DDI 0586A §3.5.2) or when the program ends.
 * Same profile, seed and options give the same bytes on every run.
 * --perf-data also writes the perf.data perf record would, through the
 * decoder library's writer (spe_perf_recording.h), linked in.
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

#include "spe/spu_model.h"
#include "spe/spu_opgen.h"
#include "spe_perf_recording.h"
#include "spe_decode_version.h"
#include "spe_sample_time.h"

#define BUF_BASE	0xffff800010000000ULL	/* where a driver's AUX buffer would be */
#define CHUNK		4096

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
"  -o, --output FILE       raw SPE bytes (the Profiling Buffer contents)\n"
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
"      --perf-data FILE    also write a perf.data around the trace, as\n"
"                          `spe-decode wrap` does (perf record -e arm_spe// of one CPU)\n"
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

struct trace {
	const char *out;		/* for messages */
	const void *data;
	uint64_t size;
	const char *profile;
	unsigned long long interval;
	uint64_t pmscr;
};

static int write_raw(int fd, bool stream, const void *arg)
{
	const struct trace *t = arg;
	const unsigned char *p = t->data;
	uint64_t left = t->size;

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
 * The perf.data `perf record -e arm_spe//` would write for this trace on
 * one CPU, through the decoder library's writer: the MIDR of the profile,
 * the sampling interval as the period and the config bits of PMSCR.  To a
 * stream (a FIFO), perf's pipe format, as perf record -o - writes.
 */
static int write_perf_data(int fd, bool stream, const void *arg)
{
	const struct trace *t = arg;
	struct spe_perf_recording rec;
	struct spe_perf_writer *w = NULL;
	int err;

	spe_perf_recording_init(&rec);
	rec.midr = profile_midr(t->profile);
	rec.period = t->interval ? t->interval : 256;
	rec.config = (t->pmscr & SPE_PMSCR_TS ? 1ULL << fmt_lo_ts_enable : 0) |
		     (t->pmscr & SPE_PMSCR_PA ? 1ULL << fmt_lo_pa_enable : 0);
	err = spe_perf_recording_create(&w, fd, stream, &rec);
	if (!err) {
		struct spe_sample_time times = { 0 };

		spe_sample_time_scan(t->data, t->size, &times);
		err = spe_sample_time_write(w, &rec.tc, &times);
	}
	if (!err)
		err = spe_perf_recording_begin(w, &rec);
	if (!err)
		err = spe_perf_recording_aux_mem(w, &rec, 0, t->data, t->size);
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

enum { OPT_NO_TS = 256, OPT_NO_PA, OPT_NO_CX, OPT_LD, OPT_ST, OPT_BR, OPT_EVF, OPT_LAT,
       OPT_PERF_DATA };

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
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *profile = "n1", *perf_data = NULL;
	unsigned long long seed = 1, size = 1 << 20, interval = ~0ULL;
	unsigned long long evfr = 0, minlat = 0, max_ops;
	uint64_t pmscr = SPE_PMSCR_E0SPE | SPE_PMSCR_E1SPE | SPE_PMSCR_CX |
			 SPE_PMSCR_PA | SPE_PMSCR_TS |
			 SPE_FIELD_PREP(SPE_PMSCR_PCT_MASK, SPE_PMSCR_PCT_PHYS);
	uint64_t fcr = 0;
	int jitter = 0, quiet = 0, c;
	const struct spe_spu_config *cfg;
	struct spe_spu_config ucfg;
	struct spe_spu_flat_mem mem = { .base = BUF_BASE };
	struct spe_spu *spu;
	struct spe_opgen gen;
	struct spe_op ops[CHUNK];
	unsigned long long nr_ops = 0;
	struct trace trace;
	int rc;

	while ((c = getopt_long(argc, argv, "o:p:s:n:i:jqhv", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'p': profile = optarg; break;
		case 's': seed = parse_num(optarg, "seed"); break;
		case 'n': size = parse_num(optarg, "size"); break;
		case 'i': interval = parse_num(optarg, "interval"); break;
		case 'j': jitter = 1; break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return 0;
		/* The release's version, as spe-decode --version prints it. */
		case 'v': printf("spe-gen %s\n", spe_decode_version()->string); return 0;
		case OPT_NO_TS: pmscr &= ~SPE_PMSCR_TS; break;
		case OPT_NO_PA: pmscr &= ~SPE_PMSCR_PA; break;
		case OPT_NO_CX: pmscr &= ~SPE_PMSCR_CX; break;
		case OPT_LD: fcr |= SPE_PMSFCR_FT | SPE_PMSFCR_LD; break;
		case OPT_ST: fcr |= SPE_PMSFCR_FT | SPE_PMSFCR_ST; break;
		case OPT_BR: fcr |= SPE_PMSFCR_FT | SPE_PMSFCR_B; break;
		case OPT_EVF:
			evfr = parse_num(optarg, "event filter");
			fcr |= SPE_PMSFCR_FE;
			break;
		case OPT_LAT:
			minlat = parse_num(optarg, "minimum latency");
			fcr |= SPE_PMSFCR_FL;
			break;
		case OPT_PERF_DATA: perf_data = optarg; break;
		default: usage(stderr); return 2;
		}
	}
	if (!out || optind != argc) {
		usage(stderr);
		return 2;
	}
	cfg = spe_spu_profile_find(profile);
	if (!cfg) {
		fprintf(stderr, "spe-gen: unknown profile '%s' (v1-min, n1, v2, full)\n", profile);
		return 2;
	}
	if (size < 4096 || size > (1ULL << 32)) {
		fprintf(stderr, "spe-gen: size must be 4K..4G bytes\n");
		return 2;
	}
	if (interval == ~0ULL)
		interval = spe_pmsidr_min_interval(cfg->pmsidr);
	if (interval > 0xffffff00ULL || interval % 256) {
		fprintf(stderr, "spe-gen: interval must be a multiple of 256 below 2^32\n");
		return 2;
	}
	size &= ~4095ULL;	/* PMBLIMITR is 4K granular */
	ucfg = *cfg;
	ucfg.seed = seed;

	spu = calloc(1, sizeof(*spu));
	mem.size = size;
	mem.host = calloc(1, size);
	if (!spu || !mem.host) {
		fprintf(stderr, "spe-gen: out of memory\n");
		return 1;
	}
	if (spe_spu_init(spu, &ucfg, spe_spu_flat_translate, &mem)) {
		fprintf(stderr, "spe-gen: profile '%s' is not usable\n", profile);
		return 1;
	}
	/* Program the unit the way the driver does for perf record. */
	spe_spu_write_reg(spu, SPE_REG_PMBPTR_EL1, BUF_BASE);
	spe_spu_write_reg(spu, SPE_REG_PMSFCR_EL1, fcr);
	spe_spu_write_reg(spu, SPE_REG_PMSEVFR_EL1, evfr);
	spe_spu_write_reg(spu, SPE_REG_PMSLATFR_EL1, minlat);
	spe_spu_write_reg(spu, SPE_REG_PMSIRR_EL1, interval | (jitter ? SPE_PMSIRR_RND : 0));
	spe_spu_write_reg(spu, SPE_REG_PMSICR_EL1, 0);
	spe_spu_write_reg(spu, SPE_REG_PMSCR_EL2, pmscr & (SPE_PMSCR_PA | SPE_PMSCR_PCT_MASK));
	spe_spu_write_reg(spu, SPE_REG_PMSCR_EL1, pmscr);
	spe_spu_write_reg(spu, SPE_REG_PMBLIMITR_EL1, (BUF_BASE + size) | SPE_PMBLIMITR_E);
	spu->cnt_base = 0x100000000ULL + seed;

	/* Stop when the buffer fills, or after enough operations to fill it. */
	max_ops = (size / 8 + 1) * (interval ? interval : 1) * 64;
	spe_opgen_init(&gen, seed);
	while (!spe_spu_irq(spu) && nr_ops < max_ops) {
		spe_opgen_fill(&gen, ops, CHUNK);
		spe_spu_step_batch(spu, ops, CHUNK);
		nr_ops += CHUNK;
	}
	spe_spu_psb_csync(spu);

	trace = (struct trace){
		.out = out, .data = mem.host, .size = spu->pmbptr - BUF_BASE,
		.profile = profile, .interval = interval, .pmscr = pmscr,
	};
	rc = write_file(out, 0666, write_raw, &trace);
	if (!rc && perf_data) {
		trace.out = perf_data;
		/* 0600, as perf creates perf.data. */
		rc = write_file(perf_data, 0600, write_perf_data, &trace);
	}
	if (!rc && !quiet)
		fprintf(stderr,
			"spe-gen: %s seed %llu: %llu ops, %llu records, %llu bytes; "
			"SAMPLE_POP %llu FEED %llu FILTRATE %llu COLLISION %llu; PMBSR 0x%llx\n",
			cfg->name, seed, nr_ops, (unsigned long long)spu->records,
			(unsigned long long)(spu->pmbptr - BUF_BASE),
			(unsigned long long)spu->pmu[SPE_SPU_SAMPLE_POP],
			(unsigned long long)spu->pmu[SPE_SPU_SAMPLE_FEED],
			(unsigned long long)spu->pmu[SPE_SPU_SAMPLE_FILTRATE],
			(unsigned long long)spu->pmu[SPE_SPU_SAMPLE_COLLISION],
			(unsigned long long)spu->pmbsr);
	free(mem.host);
	free(spu);
	return rc;
}
