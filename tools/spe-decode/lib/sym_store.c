// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Symbol tables shared between symbolisers (sym_store.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym_store.h"

struct loaded {
	char *path;
	uint8_t id[SYM_MAX_BUILD_ID];
	size_t id_len;
	enum spe_dso_status status;
	char found[2 * 64 + 8];		/* the rejected file's build id */
	struct spe_symtab tab;
	struct loaded *next;
};

struct sym_store {
	pthread_mutex_t lock;
	unsigned users;
	struct loaded *files;
	struct spe_symtab kernel;
	bool have_kernel;
};

struct sym_store *sym_store_new(void)
{
	struct sym_store *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	if (pthread_mutex_init(&st->lock, NULL)) {
		free(st);
		return NULL;
	}
	st->users = 1;
	return st;
}

struct sym_store *sym_store_get(struct sym_store *st)
{
	pthread_mutex_lock(&st->lock);
	st->users++;
	pthread_mutex_unlock(&st->lock);
	return st;
}

void sym_store_put(struct sym_store *st)
{
	unsigned left;

	if (!st)
		return;
	pthread_mutex_lock(&st->lock);
	left = --st->users;
	pthread_mutex_unlock(&st->lock);
	if (left)
		return;
	for (struct loaded *l = st->files, *n; l; l = n) {
		n = l->next;
		free(l->path);
		spe_symtab_free(&l->tab);
		free(l);
	}
	spe_symtab_free(&st->kernel);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

/* A view of t: its arrays, a cache of recent lookups of its own. */
static void view_of(const struct spe_symtab *t, struct spe_symtab *view)
{
	*view = *t;
	view->hits = NULL;
	view->nr_hits = 0;
}

enum spe_dso_status sym_store_dso(struct sym_store *st, const char *path, const uint8_t *id,
				  size_t id_len, const struct spe_dso_search *where,
				  struct spe_symtab *view, char *found_id, size_t found_id_size)
{
	enum spe_dso_status status;
	struct loaded *l;

	if (id_len > SYM_MAX_BUILD_ID)
		id_len = SYM_MAX_BUILD_ID;
	pthread_mutex_lock(&st->lock);
	for (l = st->files; l; l = l->next)
		if (!strcmp(l->path, path) && l->id_len == id_len &&
		    (!id_len || !memcmp(l->id, id, id_len)))
			break;
	if (!l) {
		/* New: loaded here, under the lock (the others wait for it). */
		l = calloc(1, sizeof(*l));
		if (!l || !(l->path = strdup(path))) {
			/* No memory to keep it: no symbols, as a file not found. */
			pthread_mutex_unlock(&st->lock);
			free(l);
			memset(view, 0, sizeof(*view));
			return SPE_DSO_NOT_FOUND;
		}
		if (id_len)
			memcpy(l->id, id, id_len);
		l->id_len = id_len;
		l->status = spe_dso_load(&l->tab, path, id, id_len, where, l->found,
					 sizeof(l->found));
		l->next = st->files;
		st->files = l;
	}
	view_of(&l->tab, view);
	status = l->status;
	if (found_id_size)
		snprintf(found_id, found_id_size, "%s", l->found);
	pthread_mutex_unlock(&st->lock);
	return status;
}

void sym_store_set_kernel(struct sym_store *st, struct spe_symtab *t)
{
	pthread_mutex_lock(&st->lock);
	if (!st->have_kernel) {
		st->kernel = *t;
		st->have_kernel = true;
		memset(t, 0, sizeof(*t));
	}
	pthread_mutex_unlock(&st->lock);
}

bool sym_store_kernel(struct sym_store *st, struct spe_symtab *view)
{
	bool have;

	pthread_mutex_lock(&st->lock);
	have = st->have_kernel;
	if (have)
		view_of(&st->kernel, view);
	pthread_mutex_unlock(&st->lock);
	return have;
}

void sym_store_view_free(struct spe_symtab *view)
{
	free(view->hits);
	memset(view, 0, sizeof(*view));
}
