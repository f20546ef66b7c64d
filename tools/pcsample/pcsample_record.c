// SPDX-License-Identifier: GPL-2.0
/*
 * pcsample-record: record arm_pcsample (drivers/perf/pcsample) on some CPUs
 * for a while and print the samples, one line each:
 *
 *   <cpu> <time ns> <tid or -> <mode> <EL> <address>
 *
 * or (-P) write them as a perf.data file for perf report and perf script,
 * with the processes, threads and executable mappings perf needs to name
 * the samples (pcsample_perf_data.h).
 *
 * The perf tool maps an AUX area only for the AUX PMUs it knows, so this
 * opens one event per CPU itself (pid -1, through libperf:
 * pcsample_session.h), maps its ring and AUX buffers, enables the events
 * for the duration, disables them (which publishes the records: the
 * driver does so when an event stops) and walks the AUX buffers.
 * PERF_RECORD_AUX records in the ring say whether a buffer filled
 * (truncated).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pcsample_aux.h"
#include "pcsample_perf_data.h"
#include "pcsample_session.h"
#include "pcsample_sideband.h"

#define PMU_NAME	"arm_pcsample"
#define SYSFS_PMU	"/sys/bus/event_source/devices/" PMU_NAME
#define MAX_CPUS	1024
/* The ring holds side band only: PERF_RECORD_AUX and LOST, and with -P the
 * COMM, MMAP2, FORK and EXIT records of the sampled CPUs, drained every
 * DRAIN_MS.  The kernel wakes a poller (an irq_work on the sampled CPU)
 * each time half the ring fills: a large ring keeps that rare. */
#define RING_PAGES		8
#define RING_PAGES_SIDEBAND	128
#define DRAIN_MS		100

static const char *prog = "pcsample-record";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-C CPUS] [-c PERIOD_NS | -F HZ] [-d SECONDS] [-m AUX_PAGES] [-u] [-o FILE]\n"
		"       [-P PERF_DATA]\n"
		"  -C CPUS       CPUs to sample, e.g. 1,3-5 (default: the PMU's cpumask)\n"
		"  -c PERIOD_NS  sampling period in ns, 10000..1000000000 (default 250000)\n"
		"  -F HZ         sampling frequency instead (keeps the tick on nohz_full CPUs)\n"
		"  -d SECONDS    how long to record (default 1)\n"
		"  -m AUX_PAGES  AUX buffer per CPU, a power of two (default 256)\n"
		"  -u            user samples only (exclude kernel and hypervisor)\n"
		"  -o FILE       write the samples to FILE (default: standard output)\n"
		"  -P PERF_DATA  write a perf.data file for perf report / perf script, with\n"
		"                the threads and mappings that name the samples\n",
		prog);
}

static int read_sysfs(const char *name, char *buf, size_t len)
{
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), SYSFS_PMU "/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* "1,3-5" -> cpus[]; returns the count, or -1 naming the problem.  A CPU
 * has one event (libperf's CPU map holds each CPU once). */
static int parse_cpus(const char *s, int *cpus, int max)
{
	static bool listed[MAX_CPUS];
	int n = 0;

	memset(listed, 0, sizeof(listed));

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a >= MAX_CPUS)
			goto bad;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b >= MAX_CPUS)
				goto bad;
		}
		for (; a <= b; a++) {
			if (n == max)
				goto bad;
			if (listed[a]) {
				fprintf(stderr, "%s: CPU %ld is listed twice\n", prog, a);
				return -1;
			}
			listed[a] = true;
			cpus[n++] = (int)a;
		}
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		s = end;
	}
	return n;
bad:
	fprintf(stderr, "%s: bad CPU list near \"%s\" (expected e.g. 1,3-5)\n", prog, s);
	return -1;
}

static int parse_u64(const char *opt, const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-') {
		fprintf(stderr, "%s: %s wants a number, not \"%s\"\n", prog, opt, s);
		return -1;
	}
	return 0;
}

static void print_record(const struct pcs_record *r, FILE *out)
{
	if (r->s.pid == PCS_PID_UNKNOWN)
		fprintf(out, "%u %llu - %s EL%u 0x%016llx\n", r->cpu,
			(unsigned long long)r->time, pcs_mode_name(r->s.mode), r->s.el,
			(unsigned long long)r->s.ip);
	else
		fprintf(out, "%u %llu %u %s EL%u 0x%016llx\n", r->cpu,
			(unsigned long long)r->time, r->s.pid, pcs_mode_name(r->s.mode),
			r->s.el, (unsigned long long)r->s.ip);
}

/* The event of every CPU; with @sideband also the records that name the
 * samples (COMM, MMAP2, FORK, EXIT), each with the sample_id trailer. */
static void pcs_event_attr(struct perf_event_attr *attr, unsigned int type, bool freq,
			   unsigned long long value, bool user_only, bool sideband)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->freq = freq;
	attr->sample_period = value;	/* or sample_freq: the same word */
	attr->sample_type = PCS_SAMPLE_TYPE;
	attr->sample_id_all = 1;
	attr->disabled = 1;
	attr->exclude_kernel = user_only;
	attr->exclude_hv = user_only;
	if (sideband) {
		attr->mmap = 1;
		attr->mmap2 = 1;
		attr->comm = 1;
		attr->comm_exec = 1;
		attr->task = 1;
	}
}

static int drain(struct pcs_session *s, int i)
{
	char err[256];

	if (!pcs_session_drain(s, i, err, sizeof(err)))
		return 0;
	fprintf(stderr, "%s: %s\n", prog, err);
	return -1;
}

/* Sleeps @seconds, draining the rings every DRAIN_MS. */
static int record_for(struct pcs_session *s, unsigned long long seconds)
{
	struct timespec now, step;
	long long end_ns, now_ns, left;

	clock_gettime(CLOCK_MONOTONIC, &now);
	end_ns = (long long)now.tv_sec * 1000000000LL + now.tv_nsec +
		 (long long)seconds * 1000000000LL;
	for (;;) {
		for (int i = 0; i < s->nr; i++)
			if (drain(s, i))
				return -1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		now_ns = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
		left = end_ns - now_ns;
		if (left <= 0)
			return 0;
		if (left > DRAIN_MS * 1000000LL)
			left = DRAIN_MS * 1000000LL;
		step.tv_sec = 0;
		step.tv_nsec = (long)left;
		nanosleep(&step, NULL);
	}
}

struct collect_ctx {
	FILE *text;			/* print each sample here, or NULL */
	struct pcs_record *samples;	/* keep them here for -P, or NULL */
	size_t nr, cap;
	bool nomem;
};

static void collect_record(const struct pcs_record *r, void *arg)
{
	struct collect_ctx *c = arg;

	if (c->text)
		print_record(r, c->text);
	if (c->nomem || !c->samples)
		return;
	if (c->nr == c->cap) {
		struct pcs_record *bigger = realloc(c->samples, 2 * c->cap * sizeof(*bigger));

		if (!bigger) {
			c->nomem = true;
			return;
		}
		c->samples = bigger;
		c->cap *= 2;
	}
	c->samples[c->nr++] = *r;
}

static int write_perf_data(const char *path, const struct pcs_session *s, unsigned int type,
			   bool freq, unsigned long long value, bool user_only,
			   const struct collect_ctx *c, const struct pcs_snapshot *snap)
{
	static uint64_t ids[MAX_CPUS];
	static uint32_t cpus[MAX_CPUS];
	static struct pcs_events sideband[MAX_CPUS];
	struct pcs_perf_data_stats st;
	struct pcs_recording rec;
	char err[512];

	memset(&rec, 0, sizeof(rec));
	pcs_event_attr(&rec.attr, type, freq, value, user_only, true);
	rec.pmu_name = PMU_NAME;
	rec.nr_events = (uint32_t)s->nr;
	for (int i = 0; i < s->nr; i++) {
		ids[i] = s->ev[i].id;
		cpus[i] = (uint32_t)s->ev[i].cpu;
		sideband[i] = s->ev[i].sideband;
	}
	rec.ids = ids;
	rec.cpus = cpus;
	rec.sideband = sideband;
	rec.period_ns = freq ? 1000000000ull / value : value;
	rec.samples = c->samples;
	rec.nr_samples = c->nr;
	rec.snap = snap;
	if (pcs_perf_data_write(path, &rec, &st, err, sizeof(err))) {
		fprintf(stderr, "%s: writing %s: %s\n", prog, path, err);
		return -1;
	}
	fprintf(stderr, "%s: wrote %s: %llu samples, %zu threads, %zu mappings, %llu kernel "
		"side-band records\n", prog, path, (unsigned long long)st.samples,
		snap->nr_threads, snap->nr_maps, (unsigned long long)st.sideband);
	if (st.lost)
		fprintf(stderr, "%s: the kernel dropped %llu side-band records: some samples may "
			"not be named\n", prog, (unsigned long long)st.lost);
	if (st.unplaced)
		fprintf(stderr, "%s: %llu samples have no thread (a kernel without "
			"CONFIG_PID_IN_CONTEXTIDR): perf cannot name their user addresses\n",
			prog, (unsigned long long)st.unplaced);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long period = 250000, hz = 0, seconds = 1, aux_pages = 256;
	const char *cpu_list = NULL, *out_path = NULL, *perf_path = NULL;
	static int cpus[MAX_CPUS];
	struct perf_event_attr attr;
	struct pcs_session session;
	struct pcs_snapshot snap;
	char buf[4096], tmp_path[PATH_MAX], err[512];
	bool user_only = false, period_set = false;
	int opt, n = 0, i, rc = 1;
	struct collect_ctx cc;
	unsigned int type;

	memset(&snap, 0, sizeof(snap));
	memset(&cc, 0, sizeof(cc));
	memset(&session, 0, sizeof(session));
	while ((opt = getopt(argc, argv, "C:c:F:d:m:uo:P:h")) != -1) {
		switch (opt) {
		case 'C': cpu_list = optarg; break;
		case 'c': if (parse_u64("-c", optarg, &period)) return 2; period_set = true; break;
		case 'F': if (parse_u64("-F", optarg, &hz)) return 2; break;
		case 'd': if (parse_u64("-d", optarg, &seconds)) return 2; break;
		case 'm': if (parse_u64("-m", optarg, &aux_pages)) return 2; break;
		case 'u': user_only = true; break;
		case 'o': out_path = optarg; break;
		case 'P': perf_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\"\n", prog, argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!aux_pages || (aux_pages & (aux_pages - 1)) || aux_pages > (1u << 20)) {
		fprintf(stderr, "%s: -m %llu: the AUX buffer must be a power of two pages (at most 2^20)\n",
			prog, aux_pages);
		return 2;
	}
	if (seconds == 0 || seconds > 86400) {
		fprintf(stderr, "%s: -d %llu: the duration must be 1 to 86400 seconds\n", prog, seconds);
		return 2;
	}
	if (hz && period_set) {
		fprintf(stderr, "%s: -c and -F exclude each other\n", prog);
		return 2;
	}
	if (hz ? hz > 100000 : period < 10000 || period > 1000000000) {
		fprintf(stderr, "%s: %s: the driver samples every 10 us to 1 s (1 to 100000 Hz)\n",
			prog, hz ? "-F" : "-c");
		return 2;
	}
	if (out_path && perf_path && !strcmp(out_path, perf_path)) {
		fprintf(stderr, "%s: -o and -P name the same file\n", prog);
		return 2;
	}
	if (cpu_list) {
		n = parse_cpus(cpu_list, cpus, MAX_CPUS);
		if (n < 0)
			return 2;
	}
	if (read_sysfs("type", buf, sizeof(buf))) {
		fprintf(stderr, "%s: no arm_pcsample PMU in /sys/bus/event_source/devices "
			"(is arm_pcsample.ko loaded, and its device described?)\n", prog);
		return 1;
	}
	type = (unsigned int)strtoul(buf, NULL, 10);
	if (!cpu_list) {
		if (read_sysfs("cpumask", buf, sizeof(buf))) {
			fprintf(stderr, "%s: cannot read " SYSFS_PMU "/cpumask\n", prog);
			return 1;
		}
		n = parse_cpus(buf, cpus, MAX_CPUS);
		if (n < 0)
			return 1;
	}
	if (n == 0) {
		fprintf(stderr, "%s: no CPU to sample\n", prog);
		return 2;
	}

	pcs_event_attr(&attr, type, hz != 0, hz ? hz : period, user_only, perf_path != NULL);
	if (pcs_session_open(&session, &attr, cpus, n,
			     perf_path ? RING_PAGES_SIDEBAND : RING_PAGES, aux_pages, err,
			     sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		goto out;
	}
	/* What runs already: its threads and mappings, before any sample. */
	if (perf_path && pcs_snapshot_add(&snap, "/proc")) {
		fprintf(stderr, "%s: reading /proc: %s\n", prog, strerror(errno));
		goto out;
	}
	pcs_session_enable(&session);
	if (record_for(&session, seconds))
		goto out;
	pcs_session_disable(&session);
	for (i = 0; i < n; i++)
		if (drain(&session, i))
			goto out;
	/* What started meanwhile and still runs. */
	if (perf_path && pcs_snapshot_add(&snap, "/proc")) {
		fprintf(stderr, "%s: reading /proc: %s\n", prog, strerror(errno));
		goto out;
	}

	if (out_path || !perf_path)
		cc.text = stdout;
	if (out_path) {
		snprintf(tmp_path, sizeof(tmp_path), "%s.tmp.%d", out_path, (int)getpid());
		cc.text = fopen(tmp_path, "w");
		if (!cc.text) {
			fprintf(stderr, "%s: %s: %s\n", prog, tmp_path, strerror(errno));
			goto out;
		}
	}
	if (perf_path) {
		cc.cap = 4096;
		cc.samples = malloc(cc.cap * sizeof(*cc.samples));
		cc.nomem = !cc.samples;
	}
	for (i = 0; i < n; i++) {
		const struct pcs_cpu_event *e = &session.ev[i];
		const struct perf_event_mmap_page *pg = e->user_page;
		uint64_t head = __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);
		struct pcs_aux_walk w;

		if (pcs_aux_walk(e->aux, e->aux_size, pg->aux_tail, head, collect_record,
				 &cc, &w)) {
			fprintf(stderr, "%s: CPU %d: AUX head %llu is past the buffer\n", prog,
				e->cpu, (unsigned long long)head);
			continue;
		}
		fprintf(stderr, "%s: CPU %d: %llu samples%s%s\n", prog, e->cpu,
			(unsigned long long)w.records,
			w.bad || w.partial ? ", some bytes not records" : "",
			pcs_events_truncated(&e->sideband) ?
				", AUX buffer full: truncated (use a larger -m)" : "");
	}
	rc = 0;
	if (out_path) {
		if (fclose(cc.text) || rename(tmp_path, out_path)) {
			fprintf(stderr, "%s: writing %s: %s\n", prog, out_path, strerror(errno));
			unlink(tmp_path);
			rc = 1;
		}
	} else if (cc.text && fflush(stdout)) {
		rc = 1;
	}
	if (perf_path) {
		if (cc.nomem) {
			fprintf(stderr, "%s: out of memory keeping the samples for %s\n", prog,
				perf_path);
			rc = 1;
		} else if (write_perf_data(perf_path, &session, type, hz != 0, hz ? hz : period,
					   user_only, &cc, &snap)) {
			rc = 1;
		}
	}
out:
	free(cc.samples);
	pcs_snapshot_free(&snap);
	pcs_session_close(&session);
	return rc;
}
