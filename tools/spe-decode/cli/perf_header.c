// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The perf.data header as perf report --header-only prints it
 * (perf.data-file-format.txt): the file header's numbers, then each
 * feature section in bit order.  Printed here: the sections of text and
 * numbers (hostname, os release, perf version, arch, nrcpus, cpudesc,
 * cpuid, total memory, cmdline, pmu mappings, AUX data, sample times) and
 * the list of missing features.  Not printed: the sections whose lines
 * describe perf's own structures (event attributes, CPU/NUMA/cache/memory
 * topology, clock data, BPF, compression, PMU capabilities).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perf_header.h"
#include "spe_perf_data.h"

/* perf 6.1's feature names (bit 1 to 31), for "missing features". */
static const char *const feat_names[] = {
	[SPE_HEADER_TRACING_DATA] = "TRACING_DATA", [SPE_HEADER_BUILD_ID] = "BUILD_ID",
	[SPE_HEADER_HOSTNAME] = "HOSTNAME", [SPE_HEADER_OSRELEASE] = "OSRELEASE",
	[SPE_HEADER_VERSION] = "VERSION", [SPE_HEADER_ARCH] = "ARCH",
	[SPE_HEADER_NRCPUS] = "NRCPUS", [SPE_HEADER_CPUDESC] = "CPUDESC",
	[SPE_HEADER_CPUID] = "CPUID", [SPE_HEADER_TOTAL_MEM] = "TOTAL_MEM",
	[SPE_HEADER_CMDLINE] = "CMDLINE", [SPE_HEADER_EVENT_DESC] = "EVENT_DESC",
	[SPE_HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [SPE_HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[SPE_HEADER_BRANCH_STACK] = "BRANCH_STACK", [SPE_HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[SPE_HEADER_GROUP_DESC] = "GROUP_DESC", [SPE_HEADER_AUXTRACE] = "AUXTRACE",
	[SPE_HEADER_STAT] = "STAT", [SPE_HEADER_CACHE] = "CACHE",
	[SPE_HEADER_SAMPLE_TIME] = "SAMPLE_TIME", [SPE_HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[SPE_HEADER_CLOCKID] = "CLOCKID", [SPE_HEADER_DIR_FORMAT] = "DIR_FORMAT",
	[SPE_HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO", [SPE_HEADER_BPF_BTF] = "BPF_BTF",
	[SPE_HEADER_COMPRESSED] = "COMPRESSED", [SPE_HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[SPE_HEADER_CLOCK_DATA] = "CLOCK_DATA", [SPE_HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[SPE_HEADER_PMU_CAPS] = "PMU_CAPS",
};

#define NR_FEATS	(sizeof(feat_names) / sizeof(feat_names[0]))

/* A feature section's bytes, bounded by its size. */
struct section {
	const uint8_t *b;
	uint64_t len, pos;
	bool bad;
};

static bool has_feat(const struct spe_perf_file_header *h, unsigned bit)
{
	return h->features[bit / 64] >> (bit % 64) & 1;
}

/* The next n bytes of s into v; past its end, s is bad and v stays. */
static void take(struct section *s, void *v, size_t n)
{
	if (s->len - s->pos < n) {
		s->bad = true;
		return;
	}
	memcpy(v, s->b + s->pos, n);
	s->pos += n;
}

static uint32_t get_u32(struct section *s)
{
	uint32_t v = 0;

	take(s, &v, sizeof(v));
	return v;
}

static uint64_t get_u64(struct section *s)
{
	uint64_t v = 0;

	take(s, &v, sizeof(v));
	return v;
}

/* perf's string: u32 length (its padding and NUL included), the bytes.
 * Returns NULL when it runs past the section or has no NUL. */
static const char *get_str(struct section *s)
{
	uint32_t n = get_u32(s);
	const char *str = (const char *)s->b + s->pos;

	if (s->bad || n > s->len - s->pos || !memchr(str, 0, n)) {
		s->bad = true;
		return NULL;
	}
	s->pos += n;
	return str;
}

/* The lines of feature @bit from its section @s (nothing for those this
 * file leaves out, see the top). */
static void print_feature(FILE *f, unsigned bit, struct section *s)
{
	const char *str;
	uint64_t a, b;
	uint32_t n;

	switch (bit) {
	case SPE_HEADER_HOSTNAME:
	case SPE_HEADER_OSRELEASE:
	case SPE_HEADER_VERSION:
	case SPE_HEADER_ARCH:
	case SPE_HEADER_CPUDESC:
	case SPE_HEADER_CPUID:
		str = get_str(s);
		if (str)
			fprintf(f, "# %s : %s\n",
				bit == SPE_HEADER_HOSTNAME ? "hostname" :
				bit == SPE_HEADER_OSRELEASE ? "os release" :
				bit == SPE_HEADER_VERSION ? "perf version" :
				bit == SPE_HEADER_ARCH ? "arch" :
				bit == SPE_HEADER_CPUDESC ? "cpudesc" : "cpuid", str);
		break;
	case SPE_HEADER_NRCPUS:
		a = get_u32(s);		/* available, then online */
		b = get_u32(s);
		if (!s->bad)
			fprintf(f, "# nrcpus online : %" PRIu64 "\n# nrcpus avail : %" PRIu64 "\n",
				b, a);
		break;
	case SPE_HEADER_TOTAL_MEM:
		a = get_u64(s);
		if (!s->bad)
			fprintf(f, "# total memory : %" PRIu64 " kB\n", a);
		break;
	case SPE_HEADER_CMDLINE:
		n = get_u32(s);
		fputs("# cmdline : ", f);
		for (uint32_t i = 0; i < n && (str = get_str(s)); i++)
			fprintf(f, "%s ", str);
		fputc('\n', f);
		break;
	case SPE_HEADER_PMU_MAPPINGS:
		n = get_u32(s);
		fputs("# pmu mappings: ", f);
		for (uint32_t i = 0; i < n && !s->bad; i++) {
			uint32_t type = get_u32(s);

			str = get_str(s);
			if (str)
				fprintf(f, "%s%s = %" PRIu32, i ? ", " : "", str, type);
		}
		fputc('\n', f);
		break;
	case SPE_HEADER_AUXTRACE:
		fputs("# contains AUX area data (e.g. instruction trace)\n", f);
		break;
	case SPE_HEADER_SAMPLE_TIME:
		a = get_u64(s);
		b = get_u64(s);
		if (s->bad)
			break;
		/* perf's microseconds, "sec.usec" */
		fprintf(f, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
			a / 1000000000, a % 1000000000 / 1000);
		fprintf(f, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
			b / 1000000000, b % 1000000000 / 1000);
		fprintf(f, "# sample duration : %10.3f ms\n", (double)(b - a) / 1e6);
		break;
	}
}

static int fail(const char *cmd, const char *path, const char *why)
{
	fprintf(stderr, "spe-decode %s: --header: %s: %s\n", cmd, path, why);
	return 1;
}

int spe_perf_header_print(FILE *f, const char *cmd, const char *path)
{
	struct spe_perf_file_header h;
	struct spe_perf_file_section sec[NR_FEATS];
	char file[4096], when[64];
	struct stat st;
	unsigned nsec = 0;
	int fd, status = 0;

	if (!strcmp(path, "-"))
		return fail(cmd, "-", "a pipe has no perf.data header");
	/* A perf.data directory (perf record --threads): its header file. */
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		snprintf(file, sizeof(file), "%s/data", path);
	else
		snprintf(file, sizeof(file), "%s", path);
	fd = open(file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return fail(cmd, file, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(cmd, file, "not a file (a pipe has no perf.data header)");
	}
	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || h.magic != SPE_PERF_MAGIC2 ||
	    h.size != sizeof(h)) {
		close(fd);
		return fail(cmd, file, "not a perf.data file in this machine's byte order");
	}
	for (unsigned bit = 1; bit < NR_FEATS; bit++)
		if (has_feat(&h, bit))
			nsec++;
	if (h.data.offset > (uint64_t)st.st_size || h.data.size > (uint64_t)st.st_size - h.data.offset ||
	    (nsec && pread(fd, sec, nsec * sizeof(sec[0]), (off_t)(h.data.offset + h.data.size)) !=
	     (ssize_t)(nsec * sizeof(sec[0])))) {
		close(fd);
		return fail(cmd, file, "its feature sections lie past the end of the file");
	}
	/* perf: the file's modification time, as ctime() spells it. */
	ctime_r(&st.st_mtime, when);
	fprintf(f, "# ========\n# captured on    : %s", when);
	fprintf(f, "# header version : 1\n# data offset    : %" PRIu64 "\n# data size      : %" PRIu64
		"\n# feat offset    : %" PRIu64 "\n", h.data.offset, h.data.size,
		h.data.offset + h.data.size);
	/* The sections follow in bit order; perf's bit 0 (reserved) has none. */
	for (unsigned bit = 1, i = 0; bit < NR_FEATS; bit++) {
		struct section s = { 0 };
		uint8_t *buf;

		if (!has_feat(&h, bit))
			continue;
		s.len = sec[i].size;
		/* What the other sections say is printed; each fault is said
		 * on stderr and makes the exit status 1. */
		if (sec[i].offset > (uint64_t)st.st_size || s.len > (uint64_t)st.st_size - sec[i].offset) {
			fprintf(stderr, "spe-decode %s: --header: %s: feature section %s lies "
				"past the end of the file\n", cmd, file, feat_names[bit]);
			status = 1;
			i++;
			continue;
		}
		buf = malloc(s.len ? s.len : 1);
		if (buf && pread(fd, buf, s.len, (off_t)sec[i].offset) == (ssize_t)s.len) {
			s.b = buf;
			print_feature(f, bit, &s);
		} else {
			s.bad = true;
		}
		if (s.bad) {
			fprintf(stderr, "spe-decode %s: --header: %s: feature section %s %s\n", cmd,
				file, feat_names[bit], !buf ? "could not be read: out of memory" :
				s.b ? "is malformed" : "could not be read");
			status = 1;
		}
		free(buf);
		i++;
	}
	fputs("# missing features: ", f);
	for (unsigned bit = 1; bit < NR_FEATS; bit++)
		if (!has_feat(&h, bit))
			fprintf(f, "%s ", feat_names[bit]);
	fputs("\n# ========\n#\n", f);
	close(fd);
	return status;
}
