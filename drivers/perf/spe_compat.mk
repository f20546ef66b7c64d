# SPDX-License-Identifier: GPL-2.0
#
# Kernel API differences that the version number cannot tell, because a
# stable release took the change back into an older series.  Each probe
# looks at the headers being built against and defines SPE_HAVE_* for
# spe_compat.h.  Included by this directory's Kbuild and pcsample/Kbuild.

spe-kernel-header = $(srctree)/include/linux/$(1)
spe-header-has = $(shell grep -qs '$(2)' $(call spe-kernel-header,$(1)) && echo y)

# perf_allow_kernel() lost its argument in 6.15 (9ec84f79c5a7, "perf:
# Remove unnecessary parameter of security check"), and in 6.12.y stable:
# Debian trixie's 6.12.117 has the new form, bookworm-backports' 6.12.95
# the old one.
ifeq ($(call spe-header-has,perf_event.h,int perf_allow_kernel(void)),y)
ccflags-y += -DSPE_HAVE_PERF_ALLOW_KERNEL_VOID
endif
