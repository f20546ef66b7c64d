// SPDX-License-Identifier: GPL-2.0
/*
 * pcsample-record: record arm_pcsample (drivers/perf/pcsample) on some CPUs
 * for a while and print the samples, one line each:
 *
 *   <cpu> <time ns> <tid or -> <mode> <EL> <address>
 *
 * The perf tool maps an AUX area only for the AUX PMUs it knows, so this
 * opens one event per CPU itself (perf_event_open, pid -1), maps its ring
 * and AUX buffers, enables the events for the duration, disables them
 * (which publishes the records: the driver does so when an event stops)
 * and walks the AUX buffers.  PERF_RECORD_AUX records in the ring say
 * whether a buffer filled (truncated).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pcsample_aux.h"

#define SYSFS_PMU	"/sys/bus/event_source/devices/arm_pcsample"
#define MAX_CPUS	1024
#define RING_PAGES	8	/* side-band only: PERF_RECORD_AUX, LOST */

struct cpu_event {
	int cpu;
	int fd;
	void *ring;		/* user page + RING_PAGES */
	void *aux;
	size_t aux_size;
};

static const char *prog = "pcsample-record";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-C CPUS] [-c PERIOD_NS | -F HZ] [-d SECONDS] [-m AUX_PAGES] [-u] [-o FILE]\n"
		"  -C CPUS       CPUs to sample, e.g. 1,3-5 (default: the PMU's cpumask)\n"
		"  -c PERIOD_NS  sampling period in ns, 10000..1000000000 (default 250000)\n"
		"  -F HZ         sampling frequency instead (keeps the tick on nohz_full CPUs)\n"
		"  -d SECONDS    how long to record (default 1)\n"
		"  -m AUX_PAGES  AUX buffer per CPU, a power of two (default 256)\n"
		"  -u            user samples only (exclude kernel and hypervisor)\n"
		"  -o FILE       write the samples to FILE (default: standard output)\n",
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

/* "1,3-5" -> cpus[]; returns the count, or -1 naming the problem. */
static int parse_cpus(const char *s, int *cpus, int max)
{
	int n = 0;

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

static int open_event(struct cpu_event *e, unsigned int type, bool freq,
		      unsigned long long value, bool user_only, size_t aux_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.freq = freq;
	attr.sample_period = value;	/* or sample_freq: the same word */
	attr.disabled = 1;
	attr.exclude_kernel = user_only;
	attr.exclude_hv = user_only;
	e->fd = (int)syscall(SYS_perf_event_open, &attr, -1, e->cpu, -1, 0);
	if (e->fd < 0) {
		int err = errno;

		fprintf(stderr, "%s: CPU %d: perf_event_open: %s%s\n", prog, e->cpu, strerror(err),
			err == EACCES ? " (CPU-wide events need CAP_PERFMON or a low "
					"perf_event_paranoid; -u drops kernel samples)" :
			err == EINVAL ? " (CPU not in the PMU's cpumask, or period out of "
					"10 us..1 s)" : "");
		return -1;
	}
	e->ring = mmap(NULL, (size_t)page * (1 + RING_PAGES), PROT_READ | PROT_WRITE,
		       MAP_SHARED, e->fd, 0);
	if (e->ring == MAP_FAILED) {
		fprintf(stderr, "%s: CPU %d: mapping the ring buffer: %s\n", prog, e->cpu,
			strerror(errno));
		e->ring = NULL;
		return -1;
	}
	pg = e->ring;
	e->aux_size = aux_pages * (size_t)page;
	pg->aux_offset = (uint64_t)page * (1 + RING_PAGES);
	pg->aux_size = e->aux_size;
	/* Writable: the driver does not support overwrite (snapshot) mode. */
	e->aux = mmap(NULL, e->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd,
		      (off_t)pg->aux_offset);
	if (e->aux == MAP_FAILED) {
		fprintf(stderr, "%s: CPU %d: mapping a %zu-byte AUX buffer: %s\n", prog, e->cpu,
			e->aux_size, strerror(errno));
		e->aux = NULL;
		return -1;
	}
	return 0;
}

/* Any PERF_RECORD_AUX in the ring flagged TRUNCATED? */
static bool ring_says_truncated(const struct cpu_event *e)
{
	long page = sysconf(_SC_PAGESIZE);
	const struct perf_event_mmap_page *pg = e->ring;
	const uint8_t *data = (const uint8_t *)e->ring + page;
	uint64_t size = (uint64_t)page * RING_PAGES;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), pos;
	bool truncated = false;

	for (pos = head > size ? head - size : 0; pos + sizeof(struct perf_event_header) <= head;) {
		struct perf_event_header h;
		uint64_t flags;

		memcpy(&h, data + (pos & (size - 1)), sizeof(h));
		if (h.size < sizeof(h))
			break;
		/* PERF_RECORD_AUX: header, aux_offset, aux_size, flags. */
		if (h.type == PERF_RECORD_AUX && h.size >= sizeof(h) + 24 &&
		    ((pos + sizeof(h) + 16) & (size - 1)) + 8 <= size) {
			memcpy(&flags, data + ((pos + sizeof(h) + 16) & (size - 1)), 8);
			if (flags & PERF_AUX_FLAG_TRUNCATED)
				truncated = true;
		}
		pos += h.size;
	}
	return truncated;
}

struct print_ctx {
	FILE *out;
};

static void print_record(const struct pcs_record *r, void *arg)
{
	struct print_ctx *p = arg;

	if (r->s.pid == PCS_PID_UNKNOWN)
		fprintf(p->out, "%u %llu - %s EL%u 0x%016llx\n", r->cpu,
			(unsigned long long)r->time, pcs_mode_name(r->s.mode), r->s.el,
			(unsigned long long)r->s.ip);
	else
		fprintf(p->out, "%u %llu %u %s EL%u 0x%016llx\n", r->cpu,
			(unsigned long long)r->time, r->s.pid, pcs_mode_name(r->s.mode),
			r->s.el, (unsigned long long)r->s.ip);
}

int main(int argc, char **argv)
{
	unsigned long long period = 250000, hz = 0, seconds = 1, aux_pages = 256;
	const char *cpu_list = NULL, *out_path = NULL;
	static struct cpu_event ev[MAX_CPUS];
	static int cpus[MAX_CPUS];
	char buf[4096], tmp_path[PATH_MAX];
	struct timespec ts;
	bool user_only = false, period_set = false;
	int opt, n = 0, i, rc = 1;
	struct print_ctx pc;
	unsigned int type;

	while ((opt = getopt(argc, argv, "C:c:F:d:m:uo:h")) != -1) {
		switch (opt) {
		case 'C': cpu_list = optarg; break;
		case 'c': if (parse_u64("-c", optarg, &period)) return 2; period_set = true; break;
		case 'F': if (parse_u64("-F", optarg, &hz)) return 2; break;
		case 'd': if (parse_u64("-d", optarg, &seconds)) return 2; break;
		case 'm': if (parse_u64("-m", optarg, &aux_pages)) return 2; break;
		case 'u': user_only = true; break;
		case 'o': out_path = optarg; break;
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

	for (i = 0; i < n; i++) {
		ev[i].cpu = cpus[i];
		ev[i].fd = -1;
		if (open_event(&ev[i], type, hz != 0, hz ? hz : period, user_only, aux_pages))
			goto out;
	}
	for (i = 0; i < n; i++)
		ioctl(ev[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = 0;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	for (i = 0; i < n; i++)
		ioctl(ev[i].fd, PERF_EVENT_IOC_DISABLE, 0);

	pc.out = stdout;
	if (out_path) {
		snprintf(tmp_path, sizeof(tmp_path), "%s.tmp.%d", out_path, (int)getpid());
		pc.out = fopen(tmp_path, "w");
		if (!pc.out) {
			fprintf(stderr, "%s: %s: %s\n", prog, tmp_path, strerror(errno));
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		const struct perf_event_mmap_page *pg = ev[i].ring;
		uint64_t head = __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);
		struct pcs_aux_walk w;

		if (pcs_aux_walk(ev[i].aux, ev[i].aux_size, pg->aux_tail, head, print_record,
				 &pc, &w)) {
			fprintf(stderr, "%s: CPU %d: AUX head %llu is past the buffer\n", prog,
				ev[i].cpu, (unsigned long long)head);
			continue;
		}
		fprintf(stderr, "%s: CPU %d: %llu samples%s%s\n", prog, ev[i].cpu,
			(unsigned long long)w.records,
			w.bad || w.partial ? ", some bytes not records" : "",
			ring_says_truncated(&ev[i]) ? ", AUX buffer full: truncated (use a larger -m)" : "");
	}
	rc = 0;
	if (out_path) {
		if (fclose(pc.out) || rename(tmp_path, out_path)) {
			fprintf(stderr, "%s: writing %s: %s\n", prog, out_path, strerror(errno));
			unlink(tmp_path);
			rc = 1;
		}
	} else if (fflush(stdout)) {
		rc = 1;
	}
out:
	for (i = 0; i < n; i++) {
		if (ev[i].aux)
			munmap(ev[i].aux, ev[i].aux_size);
		if (ev[i].ring)
			munmap(ev[i].ring, (size_t)sysconf(_SC_PAGESIZE) * (1 + RING_PAGES));
		if (ev[i].fd >= 0)
			close(ev[i].fd);
	}
	return rc;
}
