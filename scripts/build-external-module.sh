#!/usr/bin/env bash
# Cross-build an out-of-tree module against a fetched Debian arm64 kernel.
#
# Usage: scripts/build-external-module.sh --kernel KERNEL [--out DIR] [--sparse] SRCDIR [MAKE-ARGS...]
#
# KERNEL is one of scripts/fetch-kernels.sh's (a Debian suite, or 6.1 / 6.12);
# kbuild runs with the compiler that built it, in its release's build root
# when this machine has not got that compiler (scripts/lib/kernels.sh).
#
# SRCDIR (a directory with a Kbuild file) is copied to DIR (default
# build/kmod/<name>-<kernel release>) so the source tree stays clean and both
# kernels can be built side by side; the build uses W=1 (and C=1 with
# --sparse).  Prints the paths of the built .ko files.  The compiler output
# goes to DIR/build.log; the exit status is make's.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"
kernel='' out='' sparse=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--sparse) sparse=C=1; shift ;;
	-*) echo "build-external-module.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ -n "$kernel" ] && [ $# -ge 1 ] ||
	{ echo "usage: build-external-module.sh --kernel KERNEL [--out DIR] [--sparse] SRCDIR [MAKE-ARGS...]" >&2; exit 2; }
src=$(cd "$1" && pwd)
shift
spe_kernel "$kernel"
out=${out:-$top/build/kmod/$(basename "$src")-$KREL}
mkdir -p "$out"
out=$(cd "$out" && pwd)	# kbuild needs an absolute M=
cp -r "$src"/. "$out"/
if ! spe_kbuild M="$out" W=1 $sparse "$@" modules >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	exit 1
fi
find "$out" -maxdepth 1 -name '*.ko' | sort
