#!/usr/bin/env bash
# Put the arm_spe selftests into a kernel tree as a kselftest target.
#
# Usage: scripts/kselftest-drop-in.sh KERNEL-TREE
#
# Copies selftests/arm_spe to KERNEL-TREE/tools/testing/selftests/arm_spe,
# with the project's sources the tests build from (include/spe/, the
# decoder's record layer with its Makefile, and the SPU model's profiles) in its spe-src/ subdirectory, so the target is
# self-contained.  Then, in the kernel tree:
#   make -C tools/testing/selftests TARGETS=arm_spe ARCH=arm64 \
#        CROSS_COMPILE=aarch64-linux-gnu- run_tests
#   make -C tools/testing/selftests TARGETS=arm_spe ... install \
#        KSFT_INSTALL_PATH=DIR      # DIR/run_kselftest.sh runs them
# Prints the target's directory.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: kselftest-drop-in.sh KERNEL-TREE" >&2; exit 2; }
sel=$1/tools/testing/selftests
[ -f "$sel/lib.mk" ] && [ -f "$sel/kselftest.h" ] ||
	{ echo "kselftest-drop-in.sh: $1 has no tools/testing/selftests/lib.mk and kselftest.h" >&2; exit 1; }

dest=$sel/arm_spe
rm -rf "$dest"
mkdir -p "$dest/spe-src/tools/spe-decode/lib" "$dest/spe-src/drivers/perf/sim"
cp -r "$top/selftests/arm_spe/." "$dest/"
cp -r "$top/include" "$dest/spe-src/"
cp -r "$top/tools/spe-decode/include" "$dest/spe-src/tools/spe-decode/"
cp "$top"/tools/spe-decode/lib/{record,packet,error}.c "$top"/tools/spe-decode/lib/*.h \
	"$dest/spe-src/tools/spe-decode/lib/"
cp "$top/tools/spe-decode/Makefile" "$dest/spe-src/tools/spe-decode/"
mkdir -p "$dest/spe-src/tools/build"
cp "$top/tools/build/flags.mk" "$dest/spe-src/tools/build/"
cp "$top/drivers/perf/sim/spe_spu_model.c" "$dest/spe-src/drivers/perf/sim/"
# The target's own name in the tree's list of targets is not needed:
# TARGETS=arm_spe names it.
echo "$dest"
