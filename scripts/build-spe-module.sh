#!/usr/bin/env bash
# Build the SPE driver module (drivers/perf) against one of the fetched
# Debian arm64 kernels, outside the source tree.
#
# Usage: scripts/build-spe-module.sh 6.1|6.12 [--sim|--pcsample] [--sparse] [MAKE-ARGS...]
#
# By default the hardware module: build/kmod/arm_spe-<kernel release>/arm_spe.ko.
# With --sim the simulated one (same driver, simulated SPU backend):
# build/kmod/arm_spe_sim-<kernel release>/arm_spe_sim.ko.  With --pcsample
# the PC-sample PMU of drivers/perf/pcsample (its own module):
# build/kmod/arm_pcsample-<kernel release>/arm_pcsample.ko.  The path is
# printed on success, the compiler output is in build.log beside it.  Any
# warning fails the build here (W=1, and sparse with --sparse), so a
# printed path means a clean build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

[ $# -ge 1 ] || { echo "usage: build-spe-module.sh 6.1|6.12 [--sim|--pcsample] [--sparse] [MAKE-ARGS...]" >&2; exit 2; }
kernel=$1
shift
sparse=() name=arm_spe select=(CONFIG_ARM_SPE_PERF=m CONFIG_ARM_SPE_PERF_SIM=n)
src=$top/drivers/perf
while [ $# -gt 0 ]; do
	case $1 in
	--sparse) sparse=(--sparse); shift ;;
	--sim) name=arm_spe_sim select=(CONFIG_ARM_SPE_PERF=n CONFIG_ARM_SPE_PERF_SIM=m); shift ;;
	--pcsample)
		name=arm_pcsample src=$top/drivers/perf/pcsample
		select=(CONFIG_ARM_PCSAMPLE_PERF=m SPE_PERF_DIR="$top/drivers/perf")
		shift ;;
	*) break ;;
	esac
done
spe_kernel "$kernel"
out=$top/build/kmod/$name-$KREL
rm -rf "$out"
ko=$("$top/scripts/build-external-module.sh" --kernel "$kernel" --out "$out" "${sparse[@]}" \
	"$src" SPE_INCLUDE="$top/include" "${select[@]}" "$@")
if grep -nE 'warning:|error:|WARNING:' "$out/build.log" >&2; then
	echo "build-spe-module.sh: $kernel build has warnings (see $out/build.log)" >&2
	exit 1
fi
# Every object was compiled for this module alone: an object two modules
# share gets KBUILD_MODNAME "a:b", and that name ends up in the log, sysfs
# and /proc/interrupts (drivers/perf/Kbuild refuses such a build; this
# checks the result).
if shared=$(grep -l "KBUILD_MODNAME=[^ ]*:" "$out"/.*.o.cmd 2>/dev/null); then
	echo "build-spe-module.sh: objects compiled for more than one module: $(tr "\n" " " <<<"$shared")" >&2
	exit 1
fi
if [ "$(modinfo -F name "$ko")" != "$name" ]; then
	echo "build-spe-module.sh: $ko is named '$(modinfo -F name "$ko")', not $name" >&2
	exit 1
fi
echo "$ko"
