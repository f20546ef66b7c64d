// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Temporary files for the unit tests (temp_file.h).
 */
#include <stdlib.h>
#include <unistd.h>

#include "temp_file.h"

int test_temp_fd(void)
{
	char name[] = "/tmp/spe-test-XXXXXX";
	int fd = mkstemp(name);

	if (fd < 0)
		abort();
	unlink(name);
	return fd;
}

unsigned char *test_slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	unsigned char *p = end < 0 ? NULL : malloc((size_t)end + 1);

	if (!p || pread(fd, p, (size_t)end, 0) != end)
		abort();
	*len = (size_t)end;
	return p;
}
