/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Symbol tables shared between symbolisers (lib/sym_store.c): the files'
 * tables and the kallsyms table, each loaded once, however many struct
 * spe_symbols use them side by side in threads of their own (report -j N's
 * sessions).  A loaded table is never written again but for its cache of
 * recent lookups, so each user reads it through a view of its own: the
 * table's arrays with a cache of its own.  Not a public header.
 */
#ifndef SPE_SYM_STORE_H
#define SPE_SYM_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symtab.h"

struct sym_store;

/* The longest build id kept (bytes), a SHA-1's. */
#define SYM_MAX_BUILD_ID	20

/* A store with one user; NULL without memory. */
struct sym_store *sym_store_new(void);
/* One more user of st; returns st. */
struct sym_store *sym_store_get(struct sym_store *st);
/* One user fewer: the last frees the tables. */
void sym_store_put(struct sym_store *st);

/*
 * The symbols of the file a mapping names (spe_dso_load(): chosen by build
 * id when id_len > 0), loaded by the first caller, the others waiting for
 * it: a view in *view, to give back with sym_store_view_free().  Returns
 * spe_dso_load()'s status (found_id as it gives it), remembered with the
 * table.
 */
enum spe_dso_status sym_store_dso(struct sym_store *st, const char *path, const uint8_t *id,
				  size_t id_len, const struct spe_dso_search *where,
				  struct spe_symtab *view, char *found_id, size_t found_id_size);

/* The kallsyms table: set once, by the store's first user (the table
 * moves into the store, *t is left empty), then viewed by every user. */
void sym_store_set_kernel(struct sym_store *st, struct spe_symtab *t);
/* A view of it in *view; false when none was set. */
bool sym_store_kernel(struct sym_store *st, struct spe_symtab *view);

/* What a view holds of its own: its cache of recent lookups. */
void sym_store_view_free(struct spe_symtab *view);

#endif /* SPE_SYM_STORE_H */
