/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Formatting primitives shared by packet_print.c (descriptions, one dump
 * line) and dump.c (whole buffers): they write into a buffer the caller
 * has sized and return the new end, so a dump builds each line in place.
 * Not a public header.
 */
#ifndef SPE_PRINT_INTERNAL_H
#define SPE_PRINT_INTERNAL_H

#include "packet_internal.h"

/* What perf prints for a packet it cannot decode. */
#define SPE_BAD_PACKET_TEXT	"Bad packet!"

/* ".  " + up to 16 offset digits + ": " + 16 * 3 + " " */
#define SPE_DUMP_PREFIX_MAX	(3 + 16 + 2 + 48 + 1)
/* Bytes spe_put_dump_prefix() may store (it blanks 64 columns at once). */
#define SPE_DUMP_PREFIX_SCRATCH	(3 + 16 + 2 + 64)

/*
 * Write the description of @pkt (at most SPE_PKT_DESC_MAX - 1 bytes) in
 * @style, a valid one (spe_desc_style_valid()).  Returns the new end, or
 * NULL where perf 7.3 writes no text of its own (an Other operation of no
 * subclass it knows): its dump then prints the previous packet's text
 * again, from the buffer it did not rewrite.
 */
char *spe_put_desc(char *p, const struct spe_pkt *pkt,
		   enum spe_desc_style style);

/* Whether @style (with or without SPE_DESC_NEOVERSE_N1) is one of ours. */
bool spe_desc_style_valid(enum spe_desc_style style);

/* Write a dump line's offset and up to 16 bytes, padded to 16 columns. */
char *spe_put_dump_prefix(char *p, const uint8_t *bytes, size_t nbytes,
			  uint64_t offset);

#endif /* SPE_PRINT_INTERNAL_H */
