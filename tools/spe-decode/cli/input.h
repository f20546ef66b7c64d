/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Input files and buffered output for the subcommands.
 *
 * Inputs are mapped, not read: the page cache holds the data, so memory
 * use does not grow with the input size and the decoder sees one buffer.
 */
#ifndef SPE_DECODE_CLI_INPUT_H
#define SPE_DECODE_CLI_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

/*
 * An input named on the command line; "-" is stdin.  A regular file is
 * told perf.data or raw SPE bytes by its magic; from a stream (stdin, a
 * FIFO) the first 16 bytes are read for that and kept in head, for the
 * reader to start with.  A perf.data in file format (not perf's pipe
 * format) arriving on a stream is copied to an unlinked temporary file
 * first, since its header points forward and back into the file.
 */
struct spe_source {
	const char *path;
	const char *name;	/* for messages: the path, or "stdin" */
	int fd;
	bool stream;
	bool perf_data;
	unsigned char head[16];
	size_t head_len;
};

/*
 * The rest of stream @in copied into an unlinked temporary file (a
 * seekable copy of a pipe); @in is closed unless it is stdin.  Returns the
 * file's descriptor at offset 0, or -1 after "spe-decode CMD: NAME: ...".
 */
int spe_spool_stream(const char *cmd, const char *name, int in);

/* Prints "spe-decode CMD: NAME: reason" and returns -1 on error. */
int spe_source_open(const char *cmd, const char *path, struct spe_source *src);
void spe_source_close(struct spe_source *src);

struct spe_input {
	const uint8_t *data;
	size_t len;
	void *map;		/* NULL for an empty file */
	size_t map_len;
	void *heap;		/* a stream read to its end */
};

/* Raw bytes of @src: a regular file mapped, a stream read to its end
 * (they are decoded as one buffer).  Prints the reason, returns -1. */
int spe_input_from_source(const char *cmd, struct spe_source *src, struct spe_input *in);
/* Map @path; prints "spe-decode CMD: PATH: reason" and returns -1 on error. */
int spe_input_open(const char *cmd, const char *path, struct spe_input *in);
void spe_input_close(struct spe_input *in);

/* Buffered stdout that reports write errors (EPIPE, ENOSPC) once. */
struct spe_output {
	char buf[1 << 16];
	size_t used;
	int fd;
	int err;		/* errno of the first failed write */
};

void spe_output_init(struct spe_output *o, int fd);
void spe_output_write(struct spe_output *o, const char *s, size_t n);
void spe_output_printf(struct spe_output *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Flush; returns 0 or -1 after printing "spe-decode CMD: write error". */
int spe_output_flush(struct spe_output *o, const char *cmd);
/* spe_write_fn adapter for spe_dump(). */
int spe_output_sink(void *ctx, const char *text, size_t len);

#endif /* SPE_DECODE_CLI_INPUT_H */
