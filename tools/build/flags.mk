# The compiler flags of the project's userspace C, in one place: included
# by tools/spe-decode, tools/spu-model and drivers/perf/tests (the arm64
# selftests build with the kernel's lib.mk instead).  Set TOP first.
#
#   SAN=1      ASan + UBSan, every error fatal, at -O1
#   WERROR=    warnings stay warnings (default -Werror)
#   LEAK=0     unit tests without LeakSanitizer (default: with, see below)
#
# SPE_OPT       optimisation and debug info (-O2 -g, or -O1 -g with SAN=1)
# SPE_SANITIZE  the sanitizer flags (the driver tests always use them)
# SPE_SANFLAGS  SPE_SANITIZE with SAN=1, else empty: compile and link with it
# SPE_WARN      -Wall -Wextra and WERROR: userspace is warning-free
# SPE_CFLAGS    C11 with the GNU/POSIX library, SPE_WARN, dependency files
# SPE_TEST_CPPFLAGS  where the unit tests find tap.h (tools/testing)
# SPE_TEST_LDFLAGS   what the unit tests link with: LeakSanitizer

SAN    ?= 0
WERROR ?= -Werror

SPE_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ifeq ($(SAN),1)
SPE_OPT      := -O1 -g
SPE_SANFLAGS := $(SPE_SANITIZE)
else
SPE_OPT      := -O2 -g
SPE_SANFLAGS :=
endif

SPE_WARN   := -Wall -Wextra $(WERROR)
SPE_CFLAGS := -std=c11 -D_GNU_SOURCE $(SPE_WARN) -MMD -MP
SPE_TEST_CPPFLAGS := -I$(TOP)/tools/testing

# The unit tests link LeakSanitizer's runtime: it takes over malloc and
# checks at exit that everything was freed, so a test that leaks exits
# non-zero and its suite fails (a mutant that skips a free is caught
# without the ASan build).  Only the link changes, nothing is recompiled,
# and the check costs little.  SAN=1 has it already (ASan's
# detect_leaks), and a caller's own -fsanitize= in CFLAGS or LDFLAGS
# (suite 15's ThreadSanitizer, which cannot be linked with it) is left
# alone; LEAK=0 for a toolchain without it (static or cross links, a libc
# without the sanitizer runtimes).
LEAK ?= 1
SPE_TEST_LDFLAGS :=
ifneq ($(SAN),1)
ifeq ($(LEAK)$(findstring -fsanitize=,$(CFLAGS) $(LDFLAGS)),1)
SPE_TEST_LDFLAGS := -fsanitize=leak
endif
endif
