// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target for the commands themselves (cli/, all of it but
 * main.c): the bytes become a perf.data file (memfd), which script,
 * report and c2c read with one thread and with two.  The commands
 * promise the same output for any number of threads
 * (spe-decode-views(1), Threads): the runs must agree byte for byte, and
 * on the exit status.  The decoding workers, report's spans of queues
 * and the check that sends report back to one session are all behind
 * that promise.
 *
 * Run with -close_fd_mask=2: the commands report what is wrong with the
 * file on standard error.  Built with -fsanitize=fuzzer,address,undefined
 * by scripts/suites/23-perfdata-fuzz.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <getopt.h>

#include "commands.h"

/* What a command printed, read back from the memfd its stdout went to. */
struct capture {
	char *text;
	size_t len;
	int status;
};

static void run(const struct spe_cli_command *cmd, const char *threads, const char *path,
		struct capture *c)
{
	char name[64], *argv[8];
	int argc = 0, out = memfd_create("stdout", 0), saved = dup(STDOUT_FILENO);
	off_t len;

	if (out < 0 || saved < 0)
		abort();
	snprintf(name, sizeof(name), "spe-decode %s", cmd->name);
	argv[argc++] = name;
	argv[argc++] = (char *)"-j";
	argv[argc++] = (char *)threads;
	/* No kernel symbols but the (empty) list given: /proc/kallsyms is
	 * the machine's, not the recording's. */
	argv[argc++] = (char *)"--kallsyms";
	argv[argc++] = (char *)"/dev/null";
	argv[argc++] = (char *)path;
	argv[argc] = NULL;

	fflush(stdout);
	if (dup2(out, STDOUT_FILENO) < 0)
		abort();
	optind = 0;		/* getopt starts again */
	c->status = cmd->run(argc, argv);
	fflush(stdout);
	if (dup2(saved, STDOUT_FILENO) < 0)
		abort();
	close(saved);

	len = lseek(out, 0, SEEK_END);
	if (len < 0 || !(c->text = malloc((size_t)len + 1)) ||
	    pread(out, c->text, (size_t)len, 0) != len)
		abort();
	c->len = (size_t)len;
	close(out);
}

/* The status and output of a run, into a file of the current directory
 * (stderr is closed, see the top). */
static void save(const char *cmd, const char *threads, const struct capture *c)
{
	char name[64];
	FILE *f;

	snprintf(name, sizeof(name), "differ-%s-j%s.txt", cmd, threads);
	f = fopen(name, "w");
	if (!f)
		return;
	fprintf(f, "exit status %d\n", c->status);
	fwrite(c->text, 1, c->len, f);
	fclose(f);
}

/* cmd with -j 1 and -j 2: the same status and output, or both saved
 * (differ-CMD-jN.txt) and abort. */
static void same_for_any_threads(const struct spe_cli_command *cmd, const char *path)
{
	struct capture one, two;

	run(cmd, "1", path, &one);
	run(cmd, "2", path, &two);
	if (one.status != two.status || one.len != two.len ||
	    memcmp(one.text, two.text, one.len)) {
		save(cmd->name, "1", &one);
		save(cmd->name, "2", &two);
		abort();
	}
	free(one.text);
	free(two.text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.data", 0);
	char path[64];

	if (fd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	same_for_any_threads(&spe_cmd_script, path);
	same_for_any_threads(&spe_cmd_report, path);
	same_for_any_threads(&spe_cmd_c2c, path);
	close(fd);
	return 0;
}
