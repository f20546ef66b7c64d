# Top-level build of the SPE profiling stack.
#
#   make deps    install the Debian packages the build and tests need
#   make         build the userspace decoder (tools/spe-decode) and the SPU
#                model's tools (tools/spu-model: spe-gen, spu-bench)
#   make check   run every test suite (scripts/suites/), summary line last
#   make matrix  the kernel matrix (not part of check): every Debian kernel
#                from bullseye's 5.10 to the newest (bullseye, bookworm,
#                trixie, trixie-backports, sid) through the build suites,
#                and booted at EL1 and EL2 with its release's perf by the
#                perf suites 59 and 60; spe-decode script against perf 6.1,
#                6.12 and 7.3 (suite 12); "N passed, N failed" last
#   make check-debug
#                the guest suites and a stress run on kernels with lockdep,
#                KASAN, UBSAN, kmemleak and KCSAN (not part of check; the
#                first run builds the kernels: scripts/check-debug.sh,
#                Documentation/dev-tools/arm-spe-selftests.rst)
#   make bench   run the benchmarks beside the reference tools
#   make mutate  mutation testing of the C layers (scripts/mutate.sh; not
#                part of check: MUTATE_ARGS='--sample 200'; the random
#                seed it prints repeats a run with --seed)
#   make demo    the main job: record a workload with perf on QEMU's emulated
#                SPU and decode it (DEMO_ARGS='--sim': on the simulated SPU;
#                '--generated': a generated trace; scripts/demo.sh --help)
#   make modules KVER=KERNEL [SIM=1|PCSAMPLE=1]
#                cross-build the SPE driver (arm_spe.ko, or arm_spe_sim.ko
#                with SIM=1, or the PC-sample PMU arm_pcsample.ko with
#                PCSAMPLE=1) against that fetched Debian arm64 kernel, W=1:
#                KERNEL is a suite (bullseye, bookworm, trixie,
#                trixie-backports, sid), oldest, newest, 6.1 or 6.12
#                (scripts/fetch-kernels.sh)
#   make install build and install spe-decode (with its library, headers,
#                pkg-config file, man pages, bash completion) and spe-gen into
#                $(DESTDIR)$(PREFIX); make uninstall removes them
#   make clean

DECODER := tools/spe-decode
MODEL   := tools/spu-model

.PHONY: all deps check check-debug matrix bench mutate demo modules clean install uninstall

all: deps
	$(MAKE) -C $(DECODER)
	$(MAKE) -C $(MODEL)

deps:
	@scripts/deps.sh

check: deps
	@scripts/run-tests.sh

MATRIX_SUITES := 12-decoder-perf-diff 41-driver-build 45-driver-dkms 46-sim-build 47-pcsample-build \
		 49-kernel-header-trees 52-guest-selftests 59-qemu-spe-sampling 60-qemu-spe-perf
matrix: deps
	@SPE_KERNELS=all SPE_GUEST_KERNELS=all SPE_SELFTEST_KERNELS=all scripts/run-tests.sh $(MATRIX_SUITES)

check-debug: deps
	@scripts/check-debug.sh $(CHECK_DEBUG_ARGS)

bench: all
	@scripts/bench.sh

MUTATE_ARGS ?= --sample 200
mutate: deps
	@scripts/mutate.sh $(MUTATE_ARGS)

demo: all
	@scripts/demo.sh $(DEMO_ARGS)

KVER ?= 6.1
modules: deps
	@scripts/build-spe-module.sh $(KVER) $(if $(filter 1,$(SIM)),--sim) \
		$(if $(filter 1,$(PCSAMPLE)),--pcsample)

# No deps here: installing needs only what building the two tools needs.
# The decoder's install installs spe-gen too (it is built on its library).
install uninstall:
	$(MAKE) -C $(DECODER) $@

clean:
	$(MAKE) -C $(DECODER) clean
	$(MAKE) -C $(MODEL) clean
	rm -rf build
