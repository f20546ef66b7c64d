/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Temporary files for the unit tests that write or read a whole file.
 */
#ifndef SPE_DECODE_TESTS_TEMP_FILE_H
#define SPE_DECODE_TESTS_TEMP_FILE_H

#include <stddef.h>

/* A read-write descriptor of a new file in /tmp, already unlinked, so
 * nothing is left behind however the test ends.  Aborts on failure. */
int test_temp_fd(void);

/* The whole file of @fd, malloc'd with a byte to spare; *len is its size.
 * Aborts on failure. */
unsigned char *test_slurp(int fd, size_t *len);

#endif /* SPE_DECODE_TESTS_TEMP_FILE_H */
