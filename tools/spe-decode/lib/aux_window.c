// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An AUXTRACE buffer's data read through a window (aux_window.h): the
 * decoder asks for more (SPE_ERR_MORE) where a record, an Alignment or the
 * search after corruption runs past the window's end; the window then
 * keeps what the decoder still needs, moved to its front, and reads on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aux_window.h"

size_t aux_window_size(uint32_t nq)
{
	size_t cap = AUX_WINDOW_BUDGET / (nq ? nq : 1);

	return cap < AUX_WINDOW_MIN ? AUX_WINDOW_MIN : cap > AUX_WINDOW_MAX ? AUX_WINDOW_MAX : cap;
}

int aux_window_init(struct aux_window *w, int fd, size_t cap)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->cap = cap < AUX_WINDOW_MIN ? AUX_WINDOW_MIN : cap;
	w->mem = malloc(w->cap);
	return w->mem ? 0 : SPE_ERR_NOMEM;
}

void aux_window_free(struct aux_window *w)
{
	free(w->mem);
	w->mem = NULL;
}

uint64_t aux_window_file_offset(const struct aux_window *w)
{
	return w->data_off + (w->start - w->aux_off) + w->len;
}

/* Fills the window after its w->len bytes, as far as the buffer goes. */
static int fill(struct aux_window *w, struct spe_decoder *dec)
{
	uint64_t end = w->aux_off + w->size, want = end - (w->start + w->len);

	if (want > w->cap - w->len)
		want = w->cap - w->len;
	while (want) {
		ssize_t got = pread(w->fd, w->mem + w->len, (size_t)want,
				    (off_t)aux_window_file_offset(w));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			/* A file shorter than its index says is an I/O error too. */
			w->err = got < 0 ? errno : EIO;
			return SPE_ERR_IO;
		}
		w->len += (size_t)got;
		want -= (uint64_t)got;
	}
	return spe_decoder_window(dec, w->mem, w->len, w->start, w->start + w->len < end);
}

int aux_window_begin(struct aux_window *w, struct spe_decoder *dec, uint64_t data_off,
		     uint64_t size, uint64_t aux_off)
{
	w->data_off = data_off;
	w->size = size;
	w->aux_off = aux_off;
	w->start = aux_off;
	w->len = 0;
	w->err = 0;
	spe_decoder_init(dec, NULL, NULL, 0, aux_off);
	return fill(w, dec);
}

int aux_window_advance(struct aux_window *w, struct spe_decoder *dec)
{
	uint64_t keep = spe_decoder_keep_offset(dec);
	size_t drop = (size_t)(keep - w->start);

	memmove(w->mem, w->mem + drop, w->len - drop);
	w->len -= drop;
	w->start = keep;
	return fill(w, dec);
}
