/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The growable text buffer script builds a tracepoint sample's line in
 * (the fields libtraceevent formats have no bound), and JSON string
 * quoting for its --json lines.
 */
#ifndef SPE_DECODE_CLI_TP_BUFFER_H
#define SPE_DECODE_CLI_TP_BUFFER_H

#include <stddef.h>

/* Appends @n bytes of @s, or @s quoted as a JSON string, to the growable
 * buffer *buf (*len bytes used, *cap allocated; kept NUL-terminated).
 * Returns 0, or -1 without memory. */
int spe_tp_put(char **buf, size_t *len, size_t *cap, const char *s, size_t n);
int spe_tp_put_json(char **buf, size_t *len, size_t *cap, const char *s);

#endif /* SPE_DECODE_CLI_TP_BUFFER_H */
