// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Symbol names as perf prints them.  perf demangles with the GNU
 * demangler (libiberty's cplus_demangle, Debian's libiberty-dev) and no
 * options: C++ names lose their parameter lists ("ns::Box<long>::get"), Rust
 * legacy names their "::h<hash>" suffix and Rust v0 names their crate
 * disambiguators.  The same library, called the same way, gives the same
 * names.
 */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "symtab.h"

char *spe_demangle(const char *name)
{
	/* Only the Itanium C++ ABI ("_Z") and Rust v0 ("_R") prefixes are
	 * mangled names; Rust legacy names use the C++ scheme.  Skipping the
	 * rest spares the demangler every C symbol. */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}
