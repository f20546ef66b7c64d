/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libspe-decode's version: the one place it is written.  The Makefile reads
 * these three macros for the shared library's name and soname, spe-decode.pc
 * and the man pages; spe_decode_version() reports the same numbers at run
 * time, so a program can tell the header it was built with (the macros)
 * from the library it runs with (the function).
 *
 * The soname is libspe-decode.so.MAJOR: MAJOR changes when an exported
 * function is removed or changes its type, MINOR when one is added, PATCH
 * for fixes alone.  The exported functions are exactly those declared in
 * the installed headers, in the version node SPE_DECODE_0 (libspe-decode.map).
 */
#ifndef SPE_DECODE_VERSION_H
#define SPE_DECODE_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define SPE_DECODE_VERSION_MAJOR 0
#define SPE_DECODE_VERSION_MINOR 1
#define SPE_DECODE_VERSION_PATCH 0

/* The version of the library a program runs with. */
struct spe_decode_version_info {
	unsigned int major;
	unsigned int minor;
	unsigned int patch;
	/* "MAJOR.MINOR.PATCH", what spe-decode --version prints */
	const char *string;
};

/*
 * The running library's version: a pointer to a constant structure that
 * lives as long as the library (never NULL, never to be freed).  Fields may
 * be appended in later minor versions, never removed or reordered.
 */
const struct spe_decode_version_info *spe_decode_version(void);

#ifdef __cplusplus
}
#endif

#endif /* SPE_DECODE_VERSION_H */
