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

struct spe_input {
	const uint8_t *data;
	size_t len;
	void *map;		/* NULL for an empty file */
	size_t map_len;
};

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
