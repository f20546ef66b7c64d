// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spe-decode script: one line per sample synthesised from the SPE data of a
 * perf.data, with perf script's event names, fields and layout; or JSON
 * lines / CSV with every field, including the latencies perf drops.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "commands.h"
#include "common_options.h"
#include "event_desc.h"
#include "filter.h"
#include "input.h"
#include "kernel_symbols.h"
#include "line_format.h"
#include "output_thread.h"
#include "perf_options.h"
#include "samples.h"
#include "side_events.h"
#include "spe_views.h"
#include "struct_format.h"
#include "tp_buffer.h"
#include "tracepoints.h"
#include "tracing_data.h"

enum field {
	F_COMM, F_PID, F_TID, F_CPU, F_TIME, F_PERIOD, F_EVENT, F_ADDR, F_DATA_SRC,
	F_WEIGHT, F_INS_LAT, F_XLAT_LAT, F_IP, F_SYM, F_SYMOFF, F_DSO, F_PHYS_ADDR,
	F_CPUMODE, F_FLAGS, F_BRSTACK, F_SRCLINE, F_NR
};

/* In perf script's print order. */
static const char *const field_names[F_NR] = {
	[F_COMM] = "comm", [F_PID] = "pid", [F_TID] = "tid", [F_CPU] = "cpu",
	[F_TIME] = "time", [F_PERIOD] = "period", [F_EVENT] = "event",
	[F_ADDR] = "addr", [F_DATA_SRC] = "data_src", [F_WEIGHT] = "weight",
	[F_INS_LAT] = "ins_lat", [F_XLAT_LAT] = "xlat_lat", [F_IP] = "ip",
	[F_SYM] = "sym", [F_SYMOFF] = "symoff", [F_DSO] = "dso",
	[F_PHYS_ADDR] = "phys_addr", [F_CPUMODE] = "cpumode", [F_FLAGS] = "flags",
	[F_BRSTACK] = "brstack", [F_SRCLINE] = "srcline",
};

/* perf script's fields for an SPE recording when -F is not given. */
static const bool default_fields[F_NR] = {
	[F_COMM] = true, [F_TID] = true, [F_CPU] = true, [F_TIME] = true, [F_PERIOD] = true,
	[F_EVENT] = true, [F_IP] = true, [F_SYM] = true, [F_SYMOFF] = true, [F_DSO] = true,
};

enum format { FMT_PERF, FMT_JSON, FMT_CSV };

#define NR_COMM_SLOTS	64

#define NR_IP_SLOTS	1024

/* " ip sym+off (dso)" of recent ips, so hot ips are formatted once. */
struct ip_slot {
	uint64_t ip;
	int32_t pid;
	uint16_t cpumode;
	uint8_t len;			/* 0: empty */
	char text[85];
};

struct comm_slot {
	int32_t tid;
	bool valid;
	char name[40];
};

#define NR_WHO_SLOTS	64

/* The start of a line before its time ("comm pid/tid [cpu] "), per thread
 * and CPU: the same for every record of a thread on a CPU, so formatted
 * once. */
struct who_slot {
	const char *comm;		/* a comm slot's name */
	int32_t pid, tid, cpu;
	bool valid;
	uint8_t len;
	char text[64];
};

/* The quoted text of the last name of a field (put_name()). */
enum name_field { NAME_COMM, NAME_CPUMODE, NAME_SYM, NAME_DSO, NAME_NR };

struct name_cache {
	const void *id;
	bool valid;
	size_t len;
	char text[256];
};

/* Growable (--json, --csv): the names in a line have no bound. */
struct text {
	char *b;
	size_t n, cap;
};

/*
 * An event name (as recorded: "arm_spe_0/ts_enable=1,.../u") is printed
 * whole, as perf does, up to EVNAME_WIDTH_MAX bytes; longer ones are cut,
 * with a note.  Names that fit EVNAME_FAST_BYTES are copied by a
 * fixed-size memcpy.
 */
#define EVNAME_WIDTH_MAX	256
#define EVNAME_FAST_BYTES	40

struct script {
	bool f[F_NR];
	bool f_is_default;		/* f equals default_fields */
	enum format fmt;
	bool fields_given;		/* -F: CSV and JSON print only those */
	size_t ds_width;		/* widest data_src column so far */
	bool ns;
	/* perf's --reltime / --deltatime: times since the first line's or
	 * the line before's (shown_time()). */
	bool reltime, deltatime;
	unsigned side_events;		/* --show-task/mmap-events: SPE_SIDE_* */
	uint64_t time_base;
	/* perf's -S LIST: only the samples in these symbols (NULL: all). */
	char *symbols_buf;
	const char **symbols;
	size_t nr_symbols;
	int name_width;
	int tid_width;		/* perf 6.1 pads pid and tid to 5, 6.5 on to 7 */
	struct spe_itrace it;
	struct spe_symbols *syms;
	struct spe_srcline *sl;		/* -F srcline only */
	struct spe_output *out;
	int event_filter;		/* a kind, or -1 */
	struct spe_filter filter;	/* --pid, --tid, -C, --comm, --dso, --time */
	bool record_out;		/* the current record fails the filters */
	/* Per-record caches: a record's samples share comm, symbol and the
	 * start of the line, so those are made once per record. */
	uint64_t last_seq;		/* of the record the caches are for */
	int32_t last_tid;
	struct comm_slot comms[NR_COMM_SLOTS];
	struct who_slot whos[NR_WHO_SLOTS];
	struct ip_slot *ips;		/* NR_IP_SLOTS, perf layout only */
	const char *comm;
	struct spe_sym sym;
	char prefix[LINE_MAX_BYTES];
	size_t prefix_len;
	char ipsym[512];		/* " ip sym+off (dso)" */
	const char *ipsym_at;		/* the record's: ipsym or an ip slot's text */
	size_t ipsym_len;
	char evname[SPE_S_NR][EVNAME_WIDTH_MAX + 3];	/* "%*s: " of each event name */
	size_t evname_len[SPE_S_NR];
	/* Lines are built in place here and written in big blocks, by the
	 * writer thread when there is one. */
	char *obuf;
	size_t olen;
	struct spe_output_thread *writer;
	bool writer_failed;		/* as of the last block handed over */
	/* --json and --csv (print_struct()) */
	bool on[F_NR];			/* the field is a column */
	char key[F_NR][24];		/* what goes before its value */
	size_t key_len[F_NR];
	bool none_on;			/* no column: JSON lines are {} */
	char evtext[SPE_S_NR][6 * 40 + 2 + LINE_SLACK];	/* each event name, quoted */
	size_t evtext_len[SPE_S_NR];
	struct text rec;		/* the current record's fields */
	size_t rec_end[F_NR + 1];	/* the runs of rec between sample fields */
	/* What struct_record() writes, in order: the record's columns, and
	 * F_NR where a run ends (a per-sample field's place). */
	enum field rec_list[F_NR + 1];
	size_t rec_list_len;
	/* The addr, phys_addr and data_src columns of the last line, keys
	 * and values (put_addresses()): a record's samples mostly share them. */
	bool addr_valid;
	uint64_t addr_of[3];		/* addr, phys_addr, data_src */
	char addr_text[3 * (24 + 20) + LINE_SLACK];
	size_t addr_len;
	struct text line;
	struct name_cache names[NAME_NR];
	bool nomem;
	/* The tracepoint samples of the recording (cli/tracepoints.h),
	 * printed among the SPE samples in time order. */
	struct spe_tracepoints *tp;
	bool tp_broken;			/* its TRACING_DATA could not be read */
	char *tpbuf;			/* a tracepoint sample's line */
	size_t tplen, tpcap;
	uint64_t tp_printed;
	uint64_t tp_unformatted;	/* not printed: no libtraceevent / formats */
	uint64_t tp_bad;		/* not printed: the sample is malformed */
	uint64_t tp_bad_offset;		/* of the first of those */
	const char *tp_bad_why;
	uint64_t tp_csv;		/* left out of --csv */
};

/* A block per write: each costs a system call, and with the writer thread
 * a wake-up on both sides (cli/output_thread.c). */
#define OBUF_SIZE	(1024 * 1024)

static void obuf_flush(struct script *sc)
{
	if (sc->writer) {
		sc->obuf = spe_output_thread_submit(sc->writer, sc->olen);
		sc->writer_failed = spe_output_thread_failed(sc->writer);
	} else {
		spe_output_write(sc->out, sc->obuf, sc->olen);
	}
	sc->olen = 0;
}

/* Checked per sample: a failed write ends the run (`| head`, a full disk). */
static bool output_failed(const struct script *sc)
{
	return sc->out->err || sc->writer_failed;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: spe-decode script [options] [-i] [perf.data|-]\n"
"Print the samples perf synthesises from ARM SPE data, one per line.\n"
"  --itrace=OPTS      sample groups and period as perf: i b f m t a M l, then\n"
"                     an instruction period, e.g. --itrace=i100i (default: all\n"
"                     groups but instructions; 'i' alone is every record)\n"
"  -F, --fields=LIST  comm,pid,tid,cpu,time,period,event,addr,data_src,weight,\n"
"                     ins_lat,xlat_lat,ip,sym,symoff,dso,phys_addr,cpumode,\n"
"                     flags,brstack,srcline (default: perf's comm,tid,cpu,time,period,\n"
"                     event,ip,sym,symoff,dso); +LIST adds to them, -LIST\n"
"                     removes\n"
"  --json | --csv     one JSON object per line / CSV (RFC 4180) with a header:\n"
"                     every field, or those of -F\n"
"  -i FILE            the input (default perf.data; - is stdin)\n"
"  --ns               time in nanoseconds (perf script --ns)\n"
"  --branch-miss      perf 6.1 behaviour: 'b' gives mispredicted 'branch-miss'\n"
"                     samples instead of every branch as 'branch'\n"
"  --perf-version=V   samples as perf V: 6.1, 6.12 or 7.3.  Memory operations\n"
"                     ('M', data_src): 6.1 (the default) loads, stores and SVE\n"
"                     \"other\"; 6.12 loads and stores; 7.3 also SVE/SME/ASIMD\n"
"                     \"other\", calls and returns.  Also V's branch samples\n"
"                     (unless --branch-miss) and 7.3's default groups\n"
"  -e, --event=NAME   only this sample group (branch and branch-miss both work)\n"
"  --kallsyms=FILE    kernel symbols\n"
"  --symfs=DIR        look for the mapped files under DIR\n"
"  --buildid-dir=DIR  perf's build-id cache (default ~/.debug)\n"
"  --no-demangle      C++ and Rust symbol names as in the ELF file\n"
"  -j, --jobs=N       decoding threads (default: one per usable CPU)\n"
"perf script's options (spe-decode-perf-data(1), PERF'S OPTIONS):\n"
"  -S, --symbols=LIST only the samples in these functions\n"
"  --reltime          times since the first line; --deltatime since the last\n"
"  --show-task-events, --show-mmap-events\n"
"                     the COMM/FORK/EXIT and MMAP/MMAP2 records' lines\n"
"  -F ...,srcline     each sample's source line under it (perf layout)\n"
"  -q, --quiet        no warnings or notes\n"
"  -G, --hide-call-graph, -f, --force, -k, --vmlinux FILE: accepted\n"
SPE_CLI_FILTER_HELP);
}

/*
 * -F as perf takes it: "f1,f2" replaces the fields; "+f1,f2" adds to and
 * "-f1,f2" removes from the current ones (each later name may carry its
 * own + or -).  "type:fields" is accepted, the type is irrelevant here.
 */
static int parse_fields(struct script *sc, const char *arg)
{
	char *dup = strdup(arg), *save = NULL, *tok;
	int mode = 0;		/* 0 replace, 1 add, -1 remove */

	if (!dup)
		return -1;
	if (strchr(dup, ':'))
		memmove(dup, strchr(dup, ':') + 1, strlen(strchr(dup, ':') + 1) + 1);
	if (dup[0] == '+' || dup[0] == '-')
		mode = dup[0] == '+' ? 1 : -1;
	else
		memset(sc->f, 0, sizeof(sc->f));
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i;

		if (*tok == '+' || *tok == '-')
			mode = *tok++ == '+' ? 1 : -1;

		for (i = 0; i < F_NR; i++)
			if (!strcmp(tok, field_names[i]))
				break;
		if (i == F_NR && !strcmp(tok, "p_stage_cyc"))
			i = F_XLAT_LAT;
		if (i == F_NR) {
			fprintf(stderr, "spe-decode script: -F: unknown field '%s'\n", tok);
			free(dup);
			return -1;
		}
		sc->f[i] = mode >= 0;
	}
	free(dup);
	return 0;
}

static const char *cpumode_name(uint16_t m)
{
	return m == PERF_RECORD_MISC_KERNEL ? "kernel" :
	       m == PERF_RECORD_MISC_HYPERVISOR ? "hv" : "user";
}

static void flags_str(uint32_t f, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s%s%s",
		 (f & SPE_BRF_CALL) ? "call" : (f & SPE_BRF_RETURN) ? "return" :
		 (f & SPE_BRF_BRANCH) ? "jmp" : "",
		 (f & SPE_BRF_CONDITIONAL) ? " cond" : "",
		 (f & SPE_BRF_INDIRECT) ? " ind" : "",
		 (f & SPE_BRF_NOT_TAKEN) ? " not-taken" : "",
		 (f & SPE_BRF_MISPRED) ? " miss" : "",
		 "");
}

/*
 * n bytes, n a constant: as 16-byte moves.  gcc turns a plain memcpy of
 * these slot texts, and any memcpy of a length it cannot see, into
 * rep movs, whose start-up costs more than the copy; the bytes copied
 * past a text's length are never read.
 */
static inline __attribute__((always_inline)) void copy_fixed(char *d, const char *s, size_t n)
{
	size_t i = 0;

	for (; i + 16 <= n; i += 16)
		memcpy(d + i, s + i, 16);
	if (i < n)
		memcpy(d + n - 16, s + n - 16, 16);
}

/*
 * The time a line shows: the sample's, or with --reltime the time since
 * the first line's, with --deltatime since the line before's (perf
 * script's perf_sample__fprintf_start()).
 */
static uint64_t shown_time(struct script *sc, uint64_t t)
{
	uint64_t base;

	if (!sc->reltime && !sc->deltatime)
		return t;
	/* As perf's, a base of 0 is none yet: a record at time 0 (a
	 * synthesised COMM) leaves the first sample's time the base. */
	if (!sc->time_base)
		sc->time_base = t;
	base = sc->time_base;
	if (sc->deltatime)
		sc->time_base = t;
	return t >= base ? t - base : 0;
}

/* perf's -S LIST: comma-separated symbol names into sc->symbols. */
static int parse_symbols(struct script *sc, const char *list)
{
	char *save = NULL, *tok;
	size_t n = 1;

	for (const char *p = list; *p; p++)
		n += *p == ',';
	sc->symbols_buf = strdup(list);
	sc->symbols = calloc(n, sizeof(*sc->symbols));
	if (!sc->symbols_buf || !sc->symbols) {
		fprintf(stderr, "spe-decode script: out of memory\n");
		return -1;
	}
	for (tok = strtok_r(sc->symbols_buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		sc->symbols[sc->nr_symbols++] = tok;
	return 0;
}

/* Whether -S keeps a sample of symbol @sym (a sample without one: no). */
static bool symbol_listed(const struct script *sc, const struct spe_sym *sym)
{
	if (!sc->symbols)
		return true;
	for (size_t i = 0; sym->has_sym && i < sc->nr_symbols; i++)
		if (!strcmp(sym->name, sc->symbols[i]))
			return true;
	return false;
}

/*
 * -F srcline, as perf script prints it: the sample's source line on a line
 * of its own, "  file.c:123", when it is known (perf leaves out an
 * unknown one, and prints nothing for code in no file).
 */
static void obuf_put(struct script *sc, const char *p, size_t n);

static void put_srcline(struct script *sc, const struct spe_sym *sym)
{
	const char *line = spe_srcline_get(sc->sl, sym);

	if (!line)
		return;
	obuf_put(sc, "  ", 2);
	obuf_put(sc, line, strlen(line));
	obuf_put(sc, "\n", 1);
}

/* comm, pid/tid, cpu, time and period: the same for all of a record's samples. */
static inline __attribute__((always_inline)) void
perf_prefix(struct script *sc, const bool *f, const struct spe_sample *s, const char *comm,
	    struct line *pl)
{
	struct line l = { .b = pl->b };	/* LINE_MAX_BYTES of room */
	/* By thread and CPU: on a busy CPU threads take turns record by record. */
	struct who_slot *w = &sc->whos[((uint32_t)s->tid * 0x9e3779b1u + (uint32_t)s->cpu) %
				       NR_WHO_SLOTS];

	if (w->valid && w->comm == comm && w->pid == s->pid && w->tid == s->tid &&
	    w->cpu == s->cpu) {
		copy_fixed(l.b, w->text, sizeof(w->text));
		l.n = w->len;
		goto time;
	}
	l.n = 0;
	if (f[F_COMM]) {
		l_rstr(&l, comm, 16);
		l.b[l.n++] = ' ';
	}
	if (f[F_PID] && f[F_TID]) {
		l_dec(&l, s->pid, sc->tid_width);
		l.b[l.n++] = '/';
		l_dec(&l, s->tid, -sc->tid_width);
		l.b[l.n++] = ' ';
	} else if (f[F_PID] || f[F_TID]) {
		l_dec(&l, f[F_PID] ? s->pid : s->tid, sc->tid_width);
		l.b[l.n++] = ' ';
	}
	/* Per-thread recordings have no CPU in their samples: perf omits it. */
	if (f[F_CPU] && s->cpu >= 0) {
		l.b[l.n++] = '[';
		if (s->cpu < 1000)			/* %03d */
			l_fixed(&l, (uint64_t)s->cpu, 3);
		else
			l_dec(&l, s->cpu, 0);
		l_str(&l, "] ");
	}
	*w = (struct who_slot){ .comm = comm, .pid = s->pid, .tid = s->tid, .cpu = s->cpu,
				.valid = l.n <= sizeof(w->text), .len = (uint8_t)l.n };
	if (w->valid)
		memcpy(w->text, l.b, l.n);
time:
	if (f[F_TIME]) {
		l_time(&l, sc->ns, shown_time(sc, s->time));
		memcpy(l.b + l.n, ": ", 2);
		l.n += 2;
	}
	pl->n = l.n;
}

static inline __attribute__((always_inline)) void
print_perf_fields(struct script *sc, const bool *f, const struct spe_sample *s,
		  const char *comm, const struct spe_sym *sym, bool same_record)
{
	struct line l;
	char t[48];

	if (OBUF_SIZE - sc->olen < LINE_MAX_BYTES + LINE_SLACK)
		obuf_flush(sc);
	l.b = sc->obuf + sc->olen;
	/* --deltatime: a record's second sample is 0 after its first. */
	if (!same_record || sc->deltatime) {
		struct line p = { .b = sc->prefix };

		perf_prefix(sc, f, s, comm, &p);
		sc->prefix_len = p.n;
	}
	/* Fixed-size copies (inlined) when the part fits: the line buffer
	 * has LINE_MAX_BYTES + LINE_SLACK of room (line_format.h), so
	 * copying a few bytes past the part is safe. */
	if (sc->prefix_len <= 64)
		memcpy(l.b, sc->prefix, 64);
	else
		memcpy(l.b, sc->prefix, sc->prefix_len);
	l.n = sc->prefix_len;
	if (f[F_PERIOD]) {
		if (s->period == 1) {	/* nearly every sample */
			memcpy(l.b + l.n, "         1 ", 11);
			l.n += 11;
		} else {
			l_dec(&l, (int64_t)s->period, 10);
			l.b[l.n++] = ' ';
		}
	}
	if (f[F_EVENT]) {
		size_t n = sc->evname_len[s->kind];

		/* A fixed-size copy (inlined) for the usual short names. */
		if (n <= EVNAME_FAST_BYTES)
			memcpy(l.b + l.n, sc->evname[s->kind], EVNAME_FAST_BYTES);
		else
			memcpy(l.b + l.n, sc->evname[s->kind], n);
		l.n += n;
	}
	if (f[F_FLAGS] && s->flags) {
		flags_str(s->flags, t, sizeof(t));
		l_str(&l, t);
		l_pad(&l, strlen(t), 15);
		l.b[l.n++] = ' ';
	}
	if (f[F_ADDR])
		l_hex(&l, s->addr, 16);
	if (f[F_DATA_SRC]) {
		/* perf: "%16lx %s" with the decoded text, padded to the
		 * longest such column printed so far. */
		size_t start = l.n;

		l_hex(&l, s->data_src, 16);
		l.b[l.n++] = ' ';
		l.n += spe_data_src_describe(s->data_src, l.b + l.n, 160);
		if (l.n - start > sc->ds_width)
			sc->ds_width = l.n - start;
		l_pad(&l, l.n - start, (int)sc->ds_width);
	}
	if (f[F_WEIGHT])
		l_dec(&l, s->weight, 16);
	if (f[F_INS_LAT])
		l_dec(&l, s->issue_lat, 16);
	if (f[F_XLAT_LAT])
		l_dec(&l, s->xlat_lat, 16);
	if (!same_record) {
		char storage[LINE_MAX_BYTES];
		struct line m = { .b = storage };
		struct ip_slot *slot = &sc->ips[(s->ip >> 2) % NR_IP_SLOTS];

		if (slot->len && slot->ip == s->ip && slot->pid == s->pid &&
		    slot->cpumode == s->cpumode) {
			/* Read before the next record's lookup, which is
			 * the first that can rewrite the slot. */
			sc->ipsym_at = slot->text;
			sc->ipsym_len = slot->len;
			goto have_ipsym;
		}
		m.n = 0;
		if (f[F_IP]) {
			m.b[m.n++] = ' ';
			l_hex(&m, s->ip, 16);
		}
		if (f[F_SYM]) {
			m.b[m.n++] = ' ';
			l_str(&m, sym->name);
			if (f[F_SYMOFF] && sym->has_sym) {
				l_str(&m, "+0x");
				l_hex(&m, sym->offset, 0);
			}
		}
		if (f[F_DSO]) {
			l_str(&m, " (");
			l_str(&m, sym->dso);
			m.b[m.n++] = ')';
		}
		if (m.n > sizeof(sc->ipsym))
			m.n = sizeof(sc->ipsym);
		if (m.n <= sizeof(slot->text))		/* nearly always */
			copy_fixed(sc->ipsym, m.b, sizeof(slot->text));
		else
			memcpy(sc->ipsym, m.b, m.n);
		sc->ipsym_at = sc->ipsym;
		sc->ipsym_len = m.n;
		if (m.n && m.n <= sizeof(slot->text)) {
			slot->ip = s->ip;
			slot->pid = s->pid;
			slot->cpumode = s->cpumode;
			slot->len = (uint8_t)m.n;
			copy_fixed(slot->text, m.b, sizeof(slot->text));
		}
	}
have_ipsym:
	if (sc->ipsym_len <= 64)	/* an ip slot's text has 85 bytes */
		memcpy(l.b + l.n, sc->ipsym_at, 64);
	else
		memcpy(l.b + l.n, sc->ipsym_at, sc->ipsym_len);
	l.n += sc->ipsym_len;
	if (f[F_PHYS_ADDR])
		l_hex(&l, s->phys_addr, 16);
	if (f[F_CPUMODE]) {
		l.b[l.n++] = ' ';
		l_str(&l, cpumode_name(s->cpumode));
	}
	if (f[F_BRSTACK])
		for (uint32_t i = 0; i < s->nr_branches; i++) {
			l_str(&l, " 0x");
			l_hex(&l, s->branches[i].from, 0);
			l_str(&l, "/0x");
			l_hex(&l, s->branches[i].to, 0);
			l_str(&l, s->branches[i].mispred ? "/M" : "/P");
		}
	l.b[l.n++] = '\n';
	sc->olen += l.n;
	if (f[F_SRCLINE])
		put_srcline(sc, sym);
}

/*
 * A line in perf's default fields is made by a copy of print_perf_fields()
 * in which the compiler knows each field's test: a dozen tests a line
 * fewer, about 8% of the merging thread's instructions (callgrind).
 */
static inline __attribute__((always_inline)) void
print_perf(struct script *sc, const struct spe_sample *s, const char *comm,
	   const struct spe_sym *sym, bool same_record)
{
	if (sc->f_is_default)
		print_perf_fields(sc, default_fields, s, comm, sym, same_record);
	else
		print_perf_fields(sc, sc->f, s, comm, sym, same_record);
}

/*
 * --json and --csv.  Written field by field through printf these cost 40
 * times perf's layout (7.6 s against 0.2 s for 2 million samples); their
 * lines are now built by hand in the line blocks as that layout's are.
 * A record's samples differ only in the event, addr, phys_addr, data_src
 * and period (lib/sample_synth.c): the text of the other fields, names
 * quoted, is made once a record.
 */

/* Room for @more bytes in @t, and LINE_SLACK past them for
 * line_format.h's fixed-size stores. */
static bool text_room(struct script *sc, struct text *t, size_t more)
{
	size_t need = t->n + more + LINE_SLACK, cap = t->cap ? t->cap : 1024;
	char *b;

	if (need <= t->cap)
		return true;
	while (cap < need)
		cap *= 2;
	b = realloc(t->b, cap);
	if (!b) {
		sc->nomem = true;
		return false;
	}
	t->b = b;
	t->cap = cap;
	return true;
}

/* The CSV and JSON columns, in this order; -F picks among them. */
static const enum field struct_fields[] = {
	F_EVENT, F_TIME, F_CPU, F_PID, F_TID, F_COMM, F_IP, F_CPUMODE, F_SYM, F_SYMOFF,
	F_DSO, F_ADDR, F_PHYS_ADDR, F_DATA_SRC, F_WEIGHT, F_INS_LAT, F_XLAT_LAT,
	F_PERIOD, F_FLAGS, F_BRSTACK,
};
#define NR_STRUCT_FIELDS (sizeof(struct_fields) / sizeof(struct_fields[0]))

/* The fields that may differ between the samples of one record, in
 * struct_fields' order (struct_line() prints them in this order). */
static bool per_sample_field(enum field f)
{
	return f == F_EVENT || f == F_ADDR || f == F_PHYS_ADDR || f == F_DATA_SRC ||
	       f == F_PERIOD;
}

/* The most a per-sample field takes with its key: a quoted event name
 * (evtext) or 20 digits. */
#define SAMPLE_FIELD_MAX	(24 + 6 * 40 + 2)
/* ...and all of them with the end of a line */
#define SAMPLE_FIELDS_MAX	(5 * SAMPLE_FIELD_MAX + 4)

/* Without -F: every column but symoff (CSV: and brstack, a list). */
static bool struct_field_on(const struct script *sc, enum field f)
{
	if (sc->fields_given)
		return sc->f[f];
	return f != F_SYMOFF && (f != F_BRSTACK || sc->fmt == FMT_JSON);
}

/* What goes before each field's value: `{"name":` or `,"name":` in JSON,
 * nothing or a comma in CSV; and each event name quoted. */
static void struct_prepare(struct script *sc)
{
	bool first = true;

	for (size_t i = 0; i < NR_STRUCT_FIELDS; i++) {
		enum field f = struct_fields[i];

		sc->on[f] = struct_field_on(sc, f);
		if (!sc->on[f])
			continue;
		if (sc->fmt == FMT_JSON)
			sc->key_len[f] = (size_t)snprintf(sc->key[f], sizeof(sc->key[f]), "%s\"%s\":",
							  first ? "{" : ",", field_names[f]);
		else
			sc->key_len[f] = (size_t)snprintf(sc->key[f], sizeof(sc->key[f]), "%s",
							  first ? "" : ",");
		first = false;
	}
	sc->none_on = first;
	sc->addr_valid = false;
	sc->rec_list_len = 0;
	for (size_t i = 0; i < NR_STRUCT_FIELDS; i++) {
		enum field f = struct_fields[i];

		if (per_sample_field(f))
			sc->rec_list[sc->rec_list_len++] = F_NR;
		else if (sc->on[f])
			sc->rec_list[sc->rec_list_len++] = f;
	}
	for (int k = 0; k < SPE_S_NR; k++) {
		const char *name = spe_sample_name(&sc->it, (enum spe_sample_kind)k);
		struct line l = { .b = sc->evtext[k] };

		if (strlen(name) > 40)		/* never: the names are ours */
			name = "?";
		if (sc->fmt == FMT_JSON)
			json_str(&l, name);
		else
			csv_str(&l, name);
		sc->evtext_len[k] = l.n;
	}
}

/*
 * A name quoted, through the cache of the last one of each field: names
 * repeat from record to record, and quoting them was a tenth of the time.
 * @id tells a name from another (the symbol layer's names keep their
 * address and text until an event, after which the caches are emptied).
 */
static void put_name(struct script *sc, struct line *l, enum name_field i, const void *id,
		     const char *name, void (*str)(struct line *, const char *))
{
	struct name_cache *c = &sc->names[i];
	size_t start = l->n;

	if (c->valid && c->id == id) {
		memcpy(l->b + l->n, c->text, c->len);
		l->n += c->len;
		return;
	}
	str(l, name);
	c->valid = l->n - start <= sizeof(c->text);
	if (c->valid) {
		c->id = id;
		c->len = l->n - start;
		memcpy(c->text, l->b + start, c->len);
	}
}

/*
 * One field's key and value appended to @l, strings quoted as JSON or
 * CSV.  The caller leaves room: SAMPLE_FIELD_MAX for a per-sample field,
 * for the others 192 bytes (brstack: two branches of 70) or a string's
 * quoted_max().  Inlined into struct_record()'s loop, its one caller: a
 * call per field was a twentieth of --json's instructions.
 */
static inline __attribute__((always_inline)) void
put_field(struct script *sc, struct line *l, enum field f, const struct spe_sample *s,
	  const char *comm, const struct spe_sym *sym)
{
	bool json = sc->fmt == FMT_JSON;
	void (*str)(struct line *, const char *) = json ? json_str : csv_str;

	memcpy(l->b + l->n, sc->key[f], sizeof(sc->key[f]));
	l->n += sc->key_len[f];
	switch (f) {
	case F_EVENT:
		memcpy(l->b + l->n, sc->evtext[s->kind], sc->evtext_len[s->kind]);
		l->n += sc->evtext_len[s->kind];
		break;
	case F_COMM:	/* a comm slot's name: by tid, not by address */
		put_name(sc, l, NAME_COMM, (const void *)(intptr_t)s->tid, comm, str);
		break;
	case F_CPUMODE:
		put_name(sc, l, NAME_CPUMODE, cpumode_name(s->cpumode),
			 cpumode_name(s->cpumode), str);
		break;
	case F_SYM:
		put_name(sc, l, NAME_SYM, sym->name, sym->name, str);
		break;
	case F_DSO:
		put_name(sc, l, NAME_DSO, sym->dso, sym->dso, str);
		break;
	case F_TIME:
		if (json) {
			put_u64(l, s->time);
		} else {	/* "%lu.%06lu", or %09lu with --ns */
			put_u64(l, s->time / 1000000000);
			l->b[l->n++] = '.';
			if (sc->ns)
				l_fixed(l, s->time % 1000000000, 9);
			else
				l_fixed(l, s->time % 1000000000 / 1000, 6);
		}
		break;
	case F_CPU:
		l_dec(l, s->cpu, 0);
		break;
	case F_PID:
		l_dec(l, s->pid, 0);
		break;
	case F_TID:
		l_dec(l, s->tid, 0);
		break;
	case F_IP:
		put_hex(l, json, s->ip);
		break;
	case F_ADDR:
		put_hex(l, json, s->addr);
		break;
	case F_PHYS_ADDR:
		put_hex(l, json, s->phys_addr);
		break;
	case F_DATA_SRC:
		put_hex(l, json, s->data_src);
		break;
	case F_SYMOFF:
		put_hex(l, json, sym->has_sym ? sym->offset : 0);
		break;
	case F_WEIGHT:
		put_u64(l, s->weight);
		break;
	case F_INS_LAT:
		put_u64(l, s->issue_lat);
		break;
	case F_XLAT_LAT:
		put_u64(l, s->xlat_lat);
		break;
	case F_PERIOD:
		put_u64(l, s->period);
		break;
	case F_FLAGS:
		if (json) {
			put_u64(l, s->flags);
		} else {
			PUT_LIT(l, "0x");
			l_hex(l, s->flags, 0);
		}
		break;
	case F_BRSTACK:
		if (json)
			l->b[l->n++] = '[';
		for (uint32_t i = 0; i < s->nr_branches && i < 2; i++) {
			const struct spe_branch_entry *b = &s->branches[i];

			if (json) {
				if (i)
					l->b[l->n++] = ',';
				PUT_LIT(l, "{\"from\":");
				put_hex(l, true, b->from);
				PUT_LIT(l, ",\"to\":");
				put_hex(l, true, b->to);
				if (b->mispred)
					PUT_LIT(l, ",\"mispred\":true}");
				else
					PUT_LIT(l, ",\"mispred\":false}");
			} else {	/* perf script's brstack text */
				if (i)
					l->b[l->n++] = ' ';
				put_hex(l, false, b->from);
				l->b[l->n++] = '/';
				put_hex(l, false, b->to);
				PUT_LIT(l, "/M");
				l->b[l->n - 1] = b->mispred ? 'M' : 'P';
			}
		}
		if (json)
			l->b[l->n++] = ']';
		break;
	case F_SRCLINE:		/* the perf layout's only */
	case F_NR:
		break;
	}
}

/* The record's part of its samples' lines: the fields between the
 * per-sample ones, run r ending at rec_end[r].  False when out of memory. */
static bool struct_record(struct script *sc, const struct spe_sample *s, const char *comm,
			  const struct spe_sym *sym)
{
	size_t r = 0, max = NR_STRUCT_FIELDS * (sizeof(sc->key[0]) + 192) +
		quoted_max(strlen(comm)) + quoted_max(strlen(sym->name)) +
		quoted_max(strlen(sym->dso));
	struct line l;

	sc->rec.n = 0;
	if (!text_room(sc, &sc->rec, max))
		return false;
	l.b = sc->rec.b;
	l.n = 0;
	for (size_t i = 0; i < sc->rec_list_len; i++) {
		enum field f = sc->rec_list[i];

		if (f == F_NR)
			sc->rec_end[r++] = l.n;
		else
			put_field(sc, &l, f, s, comm, sym);
	}
	sc->rec_end[r] = sc->rec.n = l.n;
	return true;
}

/* Run r of the record's part of a line. */
static inline void put_run(struct script *sc, struct line *l, size_t r)
{
	size_t start = r ? sc->rec_end[r - 1] : 0, n = sc->rec_end[r] - start;
	const char *from = sc->rec.b + start;
	char *to = l->b + l->n;

	/* In 32-byte steps (memcpy of a length the compiler cannot see is
	 * a call): the record's text has LINE_SLACK bytes past its end,
	 * and so has the line (copy_fixed() above). */
	for (size_t i = 0; i < n; i += 32)
		memcpy(to + i, from + i, 32);
	l->n += n;
}

/* The addr, phys_addr and data_src columns: put_hex() three times for the
 * first sample of each record, a copy for the others (two in three on
 * b32.data) when their values are the last line's.  The three columns
 * are side by side in struct_fields, so nothing of the record comes
 * between them (runs 2 and 3 are empty). */
static inline void put_addresses(struct script *sc, struct line *l, const struct spe_sample *s)
{
	bool json = sc->fmt == FMT_JSON;

	if (!sc->addr_valid || s->addr != sc->addr_of[0] || s->phys_addr != sc->addr_of[1] ||
	    s->data_src != sc->addr_of[2]) {
		struct line t = { .b = sc->addr_text, .n = 0 };

		if (sc->on[F_ADDR]) {
			memcpy(t.b + t.n, sc->key[F_ADDR], sizeof(sc->key[0]));
			t.n += sc->key_len[F_ADDR];
			put_hex(&t, json, s->addr);
		}
		if (sc->on[F_PHYS_ADDR]) {
			memcpy(t.b + t.n, sc->key[F_PHYS_ADDR], sizeof(sc->key[0]));
			t.n += sc->key_len[F_PHYS_ADDR];
			put_hex(&t, json, s->phys_addr);
		}
		if (sc->on[F_DATA_SRC]) {
			memcpy(t.b + t.n, sc->key[F_DATA_SRC], sizeof(sc->key[0]));
			t.n += sc->key_len[F_DATA_SRC];
			put_hex(&t, json, s->data_src);
		}
		sc->addr_len = t.n;
		sc->addr_of[0] = s->addr;
		sc->addr_of[1] = s->phys_addr;
		sc->addr_of[2] = s->data_src;
		sc->addr_valid = true;
	}
	/* In 32-byte steps as put_run(): addr_text and the line have
	 * LINE_SLACK bytes past what is copied. */
	for (size_t i = 0; i < sc->addr_len; i += 32)
		memcpy(l->b + l->n + i, sc->addr_text + i, 32);
	l->n += sc->addr_len;
}

/* The line of sample @s into @l, which has room for the record's part and
 * SAMPLE_FIELDS_MAX: the record's runs and the per-sample fields between
 * them, in struct_fields' order. */
static void struct_line(struct script *sc, struct line *l, const struct spe_sample *s)
{
	put_run(sc, l, 0);
	if (sc->on[F_EVENT]) {
		memcpy(l->b + l->n, sc->key[F_EVENT], sizeof(sc->key[0]));
		l->n += sc->key_len[F_EVENT];
		memcpy(l->b + l->n, sc->evtext[s->kind], sc->evtext_len[s->kind]);
		l->n += sc->evtext_len[s->kind];
	}
	put_run(sc, l, 1);
	put_addresses(sc, l, s);
	put_run(sc, l, 4);
	if (sc->on[F_PERIOD]) {
		memcpy(l->b + l->n, sc->key[F_PERIOD], sizeof(sc->key[0]));
		l->n += sc->key_len[F_PERIOD];
		put_u64(l, s->period);
	}
	put_run(sc, l, 5);
	if (sc->fmt == FMT_CSV)
		l->b[l->n++] = '\n';
	else if (sc->none_on)
		PUT_LIT(l, "{}\n");
	else
		PUT_LIT(l, "}\n");
}

/* Into the line blocks, across as many as it takes. */
static void obuf_put(struct script *sc, const char *p, size_t n)
{
	while (n) {
		size_t k = OBUF_SIZE - sc->olen;

		if (!k) {
			obuf_flush(sc);
			continue;
		}
		if (k > n)
			k = n;
		memcpy(sc->obuf + sc->olen, p, k);
		sc->olen += k;
		p += k;
		n -= k;
	}
}

static void print_struct(struct script *sc, const struct spe_sample *s, const char *comm,
			 const struct spe_sym *sym, bool same_record)
{
	size_t max;
	struct line l;

	if (!same_record && !struct_record(sc, s, comm, sym))
		return;
	max = sc->rec.n + SAMPLE_FIELDS_MAX + LINE_SLACK;
	if (max <= OBUF_SIZE) {		/* all but lines of huge names */
		if (OBUF_SIZE - sc->olen < max)
			obuf_flush(sc);
		l.b = sc->obuf + sc->olen;
		l.n = 0;
		struct_line(sc, &l, s);
		sc->olen += l.n;
		return;
	}
	sc->line.n = 0;
	if (!text_room(sc, &sc->line, max))
		return;
	l.b = sc->line.b;
	l.n = 0;
	struct_line(sc, &l, s);
	obuf_put(sc, l.b, l.n);
}

/* The thread's name as perf script prints it, from a small cache of
 * names: tids repeat. */
static const char *comm_of(struct script *sc, int32_t tid)
{
	struct comm_slot *c = &sc->comms[(uint32_t)tid % NR_COMM_SLOTS];

	if (!c->valid || c->tid != tid) {
		const char *name = spe_symbols_comm(sc->syms, tid);

		if (name)
			snprintf(c->name, sizeof(c->name), "%s", name);
		else
			snprintf(c->name, sizeof(c->name), ":%d", tid);
		c->tid = tid;
		c->valid = true;
	}
	return c->name;
}

static int on_sample(void *ctx, const struct spe_sample *s)
{
	struct script *sc = ctx;
	bool same = s->qr->seq == sc->last_seq;

	if (sc->event_filter >= 0 && (int)s->kind != sc->event_filter)
		return 0;
	if (same && sc->record_out)
		return 0;
	if (!same) {
		/* A new record (the qrecord lives until its samples are done).
		 * What the filters test is the record's, so they are asked
		 * once for all its samples. */
		sc->last_seq = s->qr->seq;
		sc->record_out = !spe_filter_sample(&sc->filter, s);
		if (sc->record_out)
			return 0;
		if (s->tid != sc->last_tid || !sc->comm) {
			sc->comm = comm_of(sc, s->tid);
			sc->last_tid = s->tid;
		}
		spe_symbols_lookup(sc->syms, s->pid, s->ip, s->cpumode, &sc->sym);
		sc->record_out = !spe_filter_names_of(&sc->filter, sc->syms, s, &sc->sym) ||
				 !symbol_listed(sc, &sc->sym);
		if (sc->record_out)
			return 0;
	}
	if (sc->fmt == FMT_PERF) {
		print_perf(sc, s, sc->comm, &sc->sym, same);
	} else {
		print_struct(sc, s, sc->comm, &sc->sym, same);
		if (sc->nomem) {
			fprintf(stderr, "spe-decode script: out of memory\n");
			return 1;
		}
	}
	return output_failed(sc) ? 1 : 0;
}

/*
 * The perf layout of a tracepoint sample, as perf script prints it by
 * default: "comm tid [cpu] time: ", the event name padded as the SPE
 * samples' names are, and the event's fields in its print format.  -F
 * chooses the SPE samples' fields only, as perf's "hw:" fields do: the
 * tracepoints keep perf's default fields for them.  Not through
 * perf_prefix(), whose cached line starts are those of -F.
 */
static void tp_line_perf(struct script *sc, const struct spe_sample *who, const char *comm,
			 const char *name)
{
	char start[400], cpu[16] = "";
	uint64_t t = shown_time(sc, who->time);
	uint64_t sec = t / 1000000000, frac = t % 1000000000;
	int n;

	/* By snprintf: tracepoint lines are few, and line_format.h's helpers
	 * used here too would no longer be inlined into on_sample(). */
	if (who->cpu >= 0)		/* per-thread recordings have none */
		snprintf(cpu, sizeof(cpu), "[%03d] ", who->cpu);
	n = snprintf(start, sizeof(start), "%16s %*d %s%5" PRIu64 ".%0*" PRIu64 ": %*s: ",
		     comm, sc->tid_width, who->tid, cpu, sec, sc->ns ? 9 : 6, sc->ns ? frac : frac / 1000,
		     sc->name_width, name);
	obuf_put(sc, start, n < (int)sizeof(start) ? (size_t)n : sizeof(start) - 1);
	obuf_put(sc, sc->tpbuf, sc->tplen);
	obuf_put(sc, "\n", 1);
}

/* --json: {"event", "time", "cpu", "pid", "tid", "comm", "text", "fields"}
 * whatever -F says: the SPE samples' columns do not fit a tracepoint's. */
static int tp_line_json(struct script *sc, uint64_t config, const struct spe_tp_sample *t,
			const char *comm, const char *name)
{
	char num[96];
	const char *why;
	char *text;
	int n, err = 0;

	/* The text is at the start of tpbuf: the line goes after it. */
	text = strdup(sc->tpbuf);
	if (!text)
		return -1;
	sc->tplen = 0;
	n = snprintf(num, sizeof(num), ",\"time\":%" PRIu64 ",\"cpu\":%d,\"pid\":%d,\"tid\":%d,"
		     "\"comm\":", t->time, t->cpu, t->pid, t->tid);
	err |= spe_tp_put(&sc->tpbuf, &sc->tplen, &sc->tpcap, "{\"event\":", 9);
	err |= spe_tp_put_json(&sc->tpbuf, &sc->tplen, &sc->tpcap, name);
	err |= spe_tp_put(&sc->tpbuf, &sc->tplen, &sc->tpcap, num, (size_t)n);
	err |= spe_tp_put_json(&sc->tpbuf, &sc->tplen, &sc->tpcap, comm);
	err |= spe_tp_put(&sc->tpbuf, &sc->tplen, &sc->tpcap, ",\"text\":", 8);
	err |= spe_tp_put_json(&sc->tpbuf, &sc->tplen, &sc->tpcap, text);
	err |= spe_tp_put(&sc->tpbuf, &sc->tplen, &sc->tpcap, ",\"fields\":", 10);
	free(text);
	if (err || spe_tracepoints_format(sc->tp, config, t, true, &sc->tpbuf, &sc->tplen,
					  &sc->tpcap, &why) ||
	    spe_tp_put(&sc->tpbuf, &sc->tplen, &sc->tpcap, "}\n", 2))
		return -1;
	obuf_put(sc, sc->tpbuf, sc->tplen);
	return 0;
}

/* A tracepoint sample: printed in its place among the SPE samples, or
 * counted for the summary at the end when it cannot be. */
static int on_tracepoint(struct script *sc, const struct spe_perf_reader_event *ev)
{
	uint64_t config = ev->attr->attr.config;
	struct spe_tp_sample t;
	struct spe_sample who;
	const char *why, *name, *comm;
	int k;

	if (sc->event_filter >= 0)	/* -e chooses among the SPE samples */
		return 0;
	if (spe_tp_parse_sample(ev, &t, &why)) {
		if (!sc->tp_bad++) {
			sc->tp_bad_why = why;
			sc->tp_bad_offset = ev->offset;
		}
		return 0;
	}
	who = (struct spe_sample){ .time = t.time, .cpu = t.cpu, .pid = t.pid, .tid = t.tid };
	if (!spe_filter_sample(&sc->filter, &who))
		return 0;
	comm = comm_of(sc, t.tid);
	/* Its comm slot may be the one whose name the SPE samples of the
	 * current thread point to (sc->comm): they look it up again. */
	sc->comm = NULL;
	if (spe_filter_needs_names(&sc->filter) && !spe_filter_names(&sc->filter, comm, NULL))
		return 0;
	if (sc->fmt == FMT_CSV) {
		sc->tp_csv++;
		return 0;
	}
	name = spe_tracepoints_name(sc->tp, config);
	sc->tplen = 0;
	k = name ? spe_tracepoints_format(sc->tp, config, &t, false, &sc->tpbuf, &sc->tplen,
					  &sc->tpcap, &why) : -1;
	if (k > 0) {
		if (!sc->tp_bad++) {
			sc->tp_bad_why = why;
			sc->tp_bad_offset = ev->offset;
		}
		return 0;
	}
	if (k < 0) {
		sc->tp_unformatted++;
		return 0;
	}
	/* The name is the formatter's buffer: the next call reuses it. */
	if (sc->fmt == FMT_PERF) {
		tp_line_perf(sc, &who, comm, name);
	} else if (tp_line_json(sc, config, &t, comm, name)) {
		fprintf(stderr, "spe-decode script: out of memory\n");
		return 1;
	}
	sc->tp_printed++;
	return output_failed(sc) ? 1 : 0;
}

/* What became of the tracepoint samples that were not printed; returns
 * whether that is a fault of the input (exit status 1). */
static bool tp_summary(const struct script *sc, const char *path)
{
	bool fault = false;

	if (sc->tp_unformatted && !spe_tracepoints_available()) {
		fprintf(stderr, "spe-decode script: %" PRIu64 " tracepoint samples not printed: "
			"built without libtraceevent (libtraceevent-dev), which formats them\n",
			sc->tp_unformatted);
	} else if (sc->tp_unformatted) {
		fprintf(stderr, "spe-decode script: %s: %" PRIu64 " tracepoint samples not printed: "
			"%s\n", path, sc->tp_unformatted, sc->tp_broken ?
			"their event formats (TRACING_DATA) could not be read" :
			!spe_tracepoints_seekable(path) ?
			"their event formats are not read from a pipe or stream" :
			"no event format for them in TRACING_DATA");
		fault = true;
	}
	if (sc->tp_bad) {
		fprintf(stderr, "spe-decode script: %s: %" PRIu64 " tracepoint samples not printed: "
			"%s (the first at file offset %#" PRIx64 ")\n", path, sc->tp_bad,
			sc->tp_bad_why, sc->tp_bad_offset);
		fault = true;
	}
	if (sc->tp_csv)
		fprintf(stderr, "spe-decode script: %" PRIu64 " tracepoint samples left out of the "
			"CSV, whose columns are the SPE samples' (--json has them)\n", sc->tp_csv);
	return fault;
}

/*
 * --show-task-events / --show-mmap-events: the record's line, in perf's
 * default line start (as a tracepoint sample's, tp_line_perf()) with the
 * name, as the record leaves it, of the thread the record describes (a
 * kernel mapping's: -1, ":-1") and the sample_id's tid, as perf prints
 * them.  The perf layout only: JSON and CSV lines are samples.
 */
static void side_event_line(struct script *sc, const struct spe_perf_reader_event *ev)
{
	char text[PATH_MAX + 200], start[200];
	size_t n = spe_side_event_text(ev->header, sc->side_events, text, sizeof(text));
	uint64_t t;
	int k;

	if (!n)
		return;
	t = shown_time(sc, ev->sid.has_time ? ev->sid.time : 0);
	/* perf prints the CPU of these records even where their event
	 * records none (a per-thread recording's): -1, "[-01]". */
	k = snprintf(start, sizeof(start), "%16s %*d [%03d] %5" PRIu64 ".%0*" PRIu64 ": ",
		     comm_of(sc, spe_side_event_tid(ev->header, (int32_t)ev->sid.tid)),
		     sc->tid_width, (int32_t)ev->sid.tid,
		     ev->sid.has_cpu ? (int32_t)ev->sid.cpu : -1,
		     t / 1000000000, sc->ns ? 9 : 6,
		     sc->ns ? t % 1000000000 : t % 1000000000 / 1000);
	obuf_put(sc, start, k < (int)sizeof(start) ? (size_t)k : sizeof(start) - 1);
	obuf_put(sc, text, n);
	obuf_put(sc, "\n", 1);
}

/* What -S and -F srcline took. */
static void free_lists(struct script *sc)
{
	free(sc->symbols);
	free(sc->symbols_buf);
	spe_srcline_free(sc->sl);
}

static int on_event(void *ctx, const struct spe_perf_reader_event *ev)
{
	struct script *sc = ctx;

	/* A sample changes no thread or mapping: the caches stay. */
	if (spe_tp_is_sample(ev))
		return on_tracepoint(sc, ev);

	if (ev->header->type == PERF_RECORD_COMM || ev->header->type == PERF_RECORD_FORK) {
		sc->comm = NULL;	/* names may change */
		for (int i = 0; i < NR_COMM_SLOTS; i++)
			sc->comms[i].valid = false;
		/* ...in the comm slots the line starts point to */
		for (int i = 0; i < NR_WHO_SLOTS; i++)
			sc->whos[i].valid = false;
	}
	sc->last_seq = 0;		/* mappings may change */
	for (int i = 0; i < NAME_NR; i++)	/* ...and names with them */
		sc->names[i].valid = false;
	if (ev->header->type == PERF_RECORD_MMAP || ev->header->type == PERF_RECORD_MMAP2 ||
	    ev->header->type == PERF_RECORD_FORK)
		memset(sc->ips, 0, NR_IP_SLOTS * sizeof(*sc->ips));
	if (spe_symbols_event(sc->syms, ev) == SPE_ERR_NOMEM)
		return 1;
	if (sc->side_events && sc->fmt == FMT_PERF)
		side_event_line(sc, ev);
	return output_failed(sc) ? 1 : 0;
}

/* What script's own options ask for, beyond struct script. */
struct script_args {
	struct script *sc;
	bool itrace_given;		/* --itrace */
	bool branch_miss;		/* --branch-miss */
	int perf_version;		/* --perf-version, -1: not given */
};

static int own_option(void *ctx, int c, const char *arg)
{
	struct script_args *a = ctx;
	struct script *sc = a->sc;

	switch (c) {
	case 'I':
		if (spe_samples_parse_itrace("script", arg, &sc->it))
			return 2;
		a->itrace_given = true;
		break;
	case 'F':
		if (parse_fields(sc, arg))
			return 2;
		sc->fields_given = true;
		break;
	case 'J':
	case 'c':
		if (sc->fmt != FMT_PERF && sc->fmt != (c == 'J' ? FMT_JSON : FMT_CSV)) {
			fprintf(stderr, "spe-decode script: --json and --csv exclude each other\n");
			return 2;
		}
		sc->fmt = c == 'J' ? FMT_JSON : FMT_CSV;
		break;
	case 'n':
		sc->ns = true;
		break;
	case 'B':
		a->branch_miss = true;
		break;
	case 'P':
		return spe_cli_perf_version("script", arg, &a->perf_version);
	case 'e':
		sc->event_filter = spe_sample_kind_by_name(arg);
		if (sc->event_filter < 0) {
			fprintf(stderr, "spe-decode script: unknown event '%s'\n", arg);
			return 2;
		}
		break;
	}
	return 0;
}

/* The options that go together or not at all, and what they make of the
 * samples and the line layout.  Returns 0 or the exit status. */
static int apply_options(struct script *sc, const struct script_args *a,
			 const struct spe_perf_opts *po)
{
	if (po->reltime && po->deltatime) {
		fprintf(stderr, "spe-decode script: --reltime and --deltatime exclude each other\n");
		return 2;
	}
	if ((sc->f[F_SRCLINE] || po->side_events) && sc->fmt != FMT_PERF) {
		fprintf(stderr, "spe-decode script: %s perf's layout, not of --json or --csv\n",
			sc->f[F_SRCLINE] ? "-F srcline is a field of" :
			"--show-task-events and --show-mmap-events print lines of");
		return 2;
	}
	if (po->symbols && parse_symbols(sc, po->symbols))
		return 1;
	sc->reltime = po->reltime;
	sc->deltatime = po->deltatime;
	sc->side_events = po->side_events;
	sc->it.branch_miss = a->branch_miss;
	/* perf 6.5 widened script's pid and tid columns from 5 to 7. */
	sc->tid_width = a->perf_version > SPE_PERF_6_1 ? 7 : 5;
	if (a->perf_version >= 0)
		spe_itrace_for_perf(&sc->it, (enum spe_perf_version)a->perf_version,
				    !a->itrace_given, !a->branch_miss);
	sc->f_is_default = !memcmp(sc->f, default_fields, sizeof(sc->f));
	return 0;
}

/*
 * The width perf pads event names to: that of the longest name it
 * created, of the tracepoints recorded with it (opened here) and of every
 * event of the file's list.  Returns 0, or 1 when out of memory.
 */
static int name_width(struct script *sc, const char *path)
{
	char err[256] = "";
	int desc_width;

	for (int k = 0; k < SPE_S_NR; k++) {
		int n = (int)strlen(spe_sample_name(&sc->it, (enum spe_sample_kind)k));

		if (sc->it.want[k] && n > sc->name_width)
			sc->name_width = n;
	}
	if (sc->name_width < 11)
		sc->name_width = 11;	/* "arm_spe_0//" is in perf's event list too */
	if (spe_tracepoints_open(&sc->tp, path, err, sizeof(err))) {
		if (!sc->tp) {
			fprintf(stderr, "spe-decode script: out of memory\n");
			return 1;
		}
		fprintf(stderr, "spe-decode script: %s: %s; its tracepoint samples are not "
			"printed\n", path, err);
		sc->tp_broken = true;
	}
	if (spe_tracepoints_name_width(sc->tp) > sc->name_width)
		sc->name_width = spe_tracepoints_name_width(sc->tp);
	/* The SPE event as recorded ("arm_spe/ts_enable=1/u"), the dummy
	 * event of the side band. */
	desc_width = spe_event_desc_name_width(path);
	if (desc_width > sc->name_width)
		sc->name_width = desc_width;
	if (sc->name_width > EVNAME_WIDTH_MAX) {
		fprintf(stderr, "spe-decode script: %s: an event name of %d bytes is cut to %d\n",
			path, sc->name_width, EVNAME_WIDTH_MAX);
		sc->name_width = EVNAME_WIDTH_MAX;
	}
	for (int k = 0; k < SPE_S_NR; k++)
		sc->evname_len[k] = (size_t)snprintf(sc->evname[k], sizeof(sc->evname[k]), "%*.*s: ",
						     sc->name_width, EVNAME_WIDTH_MAX,
						     spe_sample_name(&sc->it, (enum spe_sample_kind)k));
	return 0;
}

/* The symbols, and the source lines of -F srcline.  Returns 0 or 1. */
static int open_symbols(struct script *sc, const struct spe_sym_config *given, const char *path)
{
	struct spe_sym_config symcfg = *given;
	char err[256] = "", kallsyms[4096];

	/* Without --kallsyms: perf's build-id cache, or this machine's. */
	if (!symcfg.kallsyms)
		symcfg.kallsyms = spe_default_kallsyms(path, kallsyms, sizeof(kallsyms));
	if (spe_cli_symbols_new(&sc->syms, &symcfg, "script", path, err, sizeof(err))) {
		fprintf(stderr, "spe-decode script: %s\n", err[0] ? err : "out of memory");
		return 1;
	}
	spe_tracepoints_set_symbols(sc->tp, sc->syms);
	if (sc->f[F_SRCLINE] && spe_srcline_new(&sc->sl, symcfg.symfs)) {
		fprintf(stderr, "spe-decode script: out of memory\n");
		return 1;
	}
	return 0;
}

/*
 * The output: its line blocks, written by a writer thread where there is
 * room for one, and the CSV header.  Returns 0, or 1 when out of memory.
 */
static int start_output(struct script *sc, struct spe_samples_run *r)
{
	unsigned nthreads = r->threads ? r->threads : spe_cli_default_threads();

	sc->out = malloc(sizeof(*sc->out));
	sc->ips = calloc(NR_IP_SLOTS, sizeof(*sc->ips));
	/*
	 * Every layout goes through the line blocks; with three threads or
	 * more, one of them writes the blocks (output_thread.h) and one
	 * fewer decodes.  With two, a writer thread would take turns on a
	 * CPU with the decoding thread (-j 2 took 0.177 s with it, 0.150 s
	 * without); the decoding thread writes the blocks instead when it
	 * has decoded as far ahead as it may.
	 */
	if (nthreads > 2) {
		sc->writer = spe_output_thread_start(STDOUT_FILENO, OBUF_SIZE);
		if (sc->writer)
			r->threads = nthreads - 1;
	} else if (nthreads == 2) {
		sc->writer = spe_output_thread_start_shared(STDOUT_FILENO, OBUF_SIZE);
		if (sc->writer) {
			r->idle_work = spe_output_thread_help;
			r->idle_ctx = sc->writer;
		}
	}
	sc->obuf = sc->writer ? spe_output_thread_block(sc->writer) : malloc(OBUF_SIZE);
	if (!sc->out || !sc->ips || !sc->obuf)
		return 1;
	spe_output_init(sc->out, STDOUT_FILENO);
	if (sc->fmt != FMT_PERF)
		struct_prepare(sc);
	if (sc->fmt == FMT_CSV) {	/* the header: the column names */
		for (size_t i = 0; i < NR_STRUCT_FIELDS; i++) {
			enum field f = struct_fields[i];

			if (sc->on[f]) {
				obuf_put(sc, sc->key[f], sc->key_len[f]);
				obuf_put(sc, field_names[f], strlen(field_names[f]));
			}
		}
		obuf_put(sc, "\n", 1);
	}
	return 0;
}

/* The samples of @path, then what was wrong with them.  Returns the exit
 * status. */
static int print_samples(struct script *sc, struct spe_samples_run *r, const char *path)
{
	int status;

	r->path = path;
	r->itrace = sc->it;
	status = spe_filter_prepare(&sc->filter, "script", path, &sc->it);
	if (!status && sc->nomem) {
		fprintf(stderr, "spe-decode script: out of memory\n");
		status = 1;
	}
	if (status)
		return status;
	/*
	 * The summary goes to stderr between the full blocks and the last
	 * one, as without the writer thread, so that 2>&1 reads the same.
	 */
	r->quiet = true;
	r->defer_decode_errors = true;
	status = spe_samples_execute(r);
	if (sc->writer)
		spe_output_thread_wait(sc->writer);
	spe_samples_summary(r);
	if (spe_samples_decode_errors(r) && !status)
		status = 1;
	if (tp_summary(sc, path) && !status)
		status = 1;
	return status;
}

/* The last block out, the writer stopped; @status, or 1 after a write
 * error. */
static int finish_output(struct script *sc, int status)
{
	obuf_flush(sc);
	if (sc->writer) {
		int err = spe_output_thread_stop(sc->writer);

		sc->writer = NULL;
		sc->obuf = NULL;	/* the writer's */
		if (err) {
			fprintf(stderr, "spe-decode script: write error: %s\n", strerror(err));
			if (!status)
				status = 1;
		}
	}
	if (spe_output_flush(sc->out, "script") && !status)
		status = 1;
	return status;
}

static void free_script(struct script *sc)
{
	if (sc->writer)		/* a run that ended before its output */
		spe_output_thread_stop(sc->writer);
	else
		free(sc->obuf);
	free(sc->out);
	free(sc->ips);
	free(sc->rec.b);
	free(sc->line.b);
	free(sc->tpbuf);
	free_lists(sc);
	spe_tracepoints_free(sc->tp);
	spe_symbols_free(sc->syms);
}

static int run(int argc, char **argv)
{
	static const struct option own[] = {
		{ "itrace", required_argument, NULL, 'I' },
		{ "fields", required_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'c' },
		{ "ns", no_argument, NULL, 'n' },
		{ "branch-miss", no_argument, NULL, 'B' },
		{ "perf-version", required_argument, NULL, 'P' },
		{ "event", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct spe_cli_line line = {
		.cmd = SPE_CLI_SCRIPT, .name = "script", .perf = SPE_PERF_CMD_SCRIPT, .own = own,
		.own_short = "F:e:", .own_option = own_option, .usage = usage,
	};
	struct script sc = { .fmt = FMT_PERF, .event_filter = -1 };
	struct script_args a = { .sc = &sc, .perf_version = -1 };
	struct spe_samples_run r = { .cmd = "script", .on_sample = on_sample,
				     .on_event = on_event, .ctx = &sc };
	struct spe_cli_opts o;
	int status;

	spe_itrace_default(&sc.it);
	memcpy(sc.f, default_fields, sizeof(sc.f));
	status = spe_cli_parse(&line, argc, argv, &o, &a);
	if (status != SPE_CLI_GO)
		return status;
	sc.filter = o.filter;
	r.threads = o.threads;
	status = apply_options(&sc, &a, &o.perf);
	if (!status)
		status = name_width(&sc, o.path);
	if (!status)
		status = open_symbols(&sc, &o.symcfg, o.path);
	if (!status)
		status = start_output(&sc, &r);
	if (!status)
		status = finish_output(&sc, print_samples(&sc, &r, o.path));
	free_script(&sc);
	return status;
}

const struct spe_cli_command spe_cmd_script = {
	.name = "script",
	.summary = "print perf's samples of the SPE data in a perf.data",
	.run = run,
};
