#!/usr/bin/env bash
# Build the SPE driver module (drivers/perf, arm_spe.ko) against one of the
# fetched Debian arm64 kernels, outside the source tree.
#
# Usage: scripts/build-module.sh 6.1|6.12 [--sparse] [MAKE-ARGS...]
#
# The module lands in build/kmod/arm_spe-<kernel release>/arm_spe.ko; the
# path is printed on success, and the compiler output is in build.log
# beside it.  Any warning fails the build here (W=1, and sparse with
# --sparse), so a printed path means a clean build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

[ $# -ge 1 ] || { echo "usage: build-module.sh 6.1|6.12 [--sparse] [MAKE-ARGS...]" >&2; exit 2; }
kernel=$1
shift
sparse=()
if [ "${1:-}" = --sparse ]; then
	sparse=(--sparse)
	shift
fi
spe_kernel "$kernel"
out=$top/build/kmod/arm_spe-$KREL
rm -rf "$out"
ko=$("$top/scripts/build-kmod.sh" --kernel "$kernel" --out "$out" "${sparse[@]}" \
	"$top/drivers/perf" SPE_INCLUDE="$top/include" "$@")
if grep -nE 'warning:|error:|WARNING:' "$out/build.log" >&2; then
	echo "build-module.sh: $kernel build has warnings (see $out/build.log)" >&2
	exit 1
fi
echo "$ko"
