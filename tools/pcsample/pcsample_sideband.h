/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perf report needs besides the PC samples to name them: which
 * process each thread belongs to, its command name and its executable
 * mappings.  Two sources, as perf record uses them:
 *   - a snapshot of /proc (threads, comms, executable maps), taken before
 *     and after the recording, for what already ran or still runs;
 *   - the kernel's side-band records (COMM, MMAP2, FORK, EXIT, LOST) that
 *     the events ask for (perf_event_attr.comm, mmap2, task), drained from
 *     each event's ring buffer while recording.
 */
#ifndef PCSAMPLE_SIDEBAND_H
#define PCSAMPLE_SIDEBAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Complete perf records, back to back, as the kernel wrote them. */
struct pcs_events {
	uint8_t *data;
	size_t len, cap;
	uint64_t nr;
};

struct pcs_thread {
	uint32_t pid, tid;
	char comm[16];		/* TASK_COMM_LEN */
};

struct pcs_map {
	uint32_t pid;
	uint64_t start, len, pgoff;
	char *path;
};

struct pcs_snapshot {
	struct pcs_thread *threads;
	size_t nr_threads, cap_threads;
	struct pcs_map *maps;
	size_t nr_maps, cap_maps;
	uint64_t kernel_start;	/* _text from kallsyms; 0 when hidden */
};

/*
 * Adds the threads and executable file mappings under @proc (normally
 * "/proc") that @s does not hold yet; processes that vanish while being
 * read are skipped.  Returns 0, or -1 with errno (ENOMEM, or @proc
 * unreadable).
 */
int pcs_snapshot_add(struct pcs_snapshot *s, const char *proc);
void pcs_snapshot_free(struct pcs_snapshot *s);

/*
 * Appends the @len-byte record @rec (as read from a ring buffer by
 * pcsample_session.c) to @ev.  Returns 0, or -1 with errno: EBADMSG when
 * its header's size is not @len, ENOMEM.
 */
int pcs_events_append(struct pcs_events *ev, const void *rec, size_t len);
void pcs_events_free(struct pcs_events *ev);

/* The next record of @ev at *@pos, or NULL at the end (or a bad size). */
const void *pcs_events_next(const struct pcs_events *ev, size_t *pos);

/* Whether any PERF_RECORD_AUX in @ev says the AUX buffer filled. */
bool pcs_events_truncated(const struct pcs_events *ev);

#endif /* PCSAMPLE_SIDEBAND_H */
