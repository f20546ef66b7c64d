/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Output files that never destroy a user's file.
 *
 * The output is written to a temporary file in the same directory and
 * renamed over the final name only
 * when the command succeeds; on failure the temporary file is removed and
 * whatever was there before is untouched.  An existing non-empty output is
 * kept as OUT.old, as perf record and perf inject do.  An output that is
 * also an input (the same file under any name, or whose .old would be) is
 * refused before anything is written.  "-" is standard output.
 *
 * An output that exists and is not a regular file (/dev/null, a FIFO, a
 * terminal) is written in place: renaming a temporary over it would put a
 * regular file where the device or pipe was, and running as root that
 * replaces /dev/null for the whole machine.
 */
#ifndef SPE_DECODE_CLI_OUTPUT_FILE_H
#define SPE_DECODE_CLI_OUTPUT_FILE_H

#include <stdbool.h>

/*
 * The mode of the file: a perf.data is 0600, as perf record and perf
 * inject create it (it can hold kernel addresses and other processes'
 * data); a report (HTML, pprof) follows the umask, as perf's reports
 * redirected to a file or written with -o do.
 */
enum spe_out_mode {
	SPE_OUT_PRIVATE,		/* 0600 */
	SPE_OUT_UMASK,			/* 0666 less the umask */
};

struct spe_out_file {
	const char *path;	/* the final name, or "-" */
	char *tmp;		/* the temporary file, NULL when written in place */
	int fd;
	bool is_stdout;
	bool in_place;		/* a device or FIFO, opened as it is */
};

/*
 * Opens @path for writing (see above).  @inputs are the command's input
 * paths ("-" and missing files are ignored).  Prints "spe-decode CMD: ..."
 * and returns -1 on error.
 */
int spe_out_file_open(struct spe_out_file *of, const char *cmd, const char *path,
		      const char *const *inputs, int nr_inputs, enum spe_out_mode mode);

/*
 * Whether the output can only be written front to back, as perf writes its
 * pipe format: standard output ("-", as perf), or a FIFO or other
 * unseekable file written in place.
 */
bool spe_out_file_is_stream(const struct spe_out_file *of);

/*
 * Closes the file and gives it its final name (keeping an existing output
 * as .old).  Returns 0, or -1 after a message and removing the temporary.
 */
int spe_out_file_commit(struct spe_out_file *of, const char *cmd);

/* Closes and removes the temporary file; the final name is left alone. */
void spe_out_file_abort(struct spe_out_file *of);

/*
 * spe_out_file_commit() when @ok, else spe_out_file_abort(); a file that
 * was never opened, or already committed, is left alone.  Returns 0, or -1
 * when the commit failed (after a message).
 */
int spe_out_file_finish(struct spe_out_file *of, const char *cmd, bool ok);

#endif /* SPE_DECODE_CLI_OUTPUT_FILE_H */
