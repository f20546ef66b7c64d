/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* spe-decode wrap: a copied CPU_TOPOLOGY section for more CPUs. */
#ifndef SPE_CLI_WRAP_TOPOLOGY_H
#define SPE_CLI_WRAP_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

/*
 * The CPU_TOPOLOGY section @sec (@len bytes, written for @old_nr CPUs)
 * laid out for @new_nr CPUs (> @old_nr): the CPUs added have no core,
 * die or socket (-1, as perf records a CPU that was not present).
 * Returns 0 with *out (malloc'ed) and *out_len, -EINVAL for a section
 * that is not laid out as perf.data-file-format.txt describes, or -ENOMEM.
 */
int spe_wrap_extend_topology(const uint8_t *sec, size_t len, uint32_t old_nr,
			     uint32_t new_nr, uint8_t **out, size_t *out_len);

#endif /* SPE_CLI_WRAP_TOPOLOGY_H */
