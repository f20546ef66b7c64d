#!/usr/bin/env bash
# Fetch the kernel's kselftest framework of a Debian kernel into the cache,
# idempotently, and print the path of the kernel-tree skeleton that holds it.
#
# Usage: scripts/fetch-kselftest.sh 6.1|6.12|kasan|kcsan
#
# The framework (kselftest.h, kselftest_harness.h, lib.mk, the selftests
# Makefile, run_kselftest.sh and kselftest/) ships only inside Debian's
# linux-source-<version> package, as a tarball: the package is downloaded
# (never installed) and only those files, plus scripts/subarch.include that
# the selftests Makefile reads, are extracted.  The skeleton is laid out as
# a kernel tree, so `make -C DIR/tools/testing/selftests TARGETS=arm_spe`
# runs exactly as in a full tree (scripts/kselftest-drop-in.sh puts
# selftests/arm_spe there).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SPE_CACHE_DIR:-$top/.cache}

ver=${1:-}
case $ver in
6.1) suite=() ;;
# The debug kernels (scripts/build-debug-kernel.sh) are 6.12s.
6.12 | kasan | kcsan) suite=(--suite bookworm-backports) ver=6.12 ;;
*) echo "usage: fetch-kselftest.sh 6.1|6.12|kasan|kcsan" >&2; exit 2 ;;
esac
dest=$cache/kselftest/$ver
if [ -e "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi

mkdir -p "$cache/kselftest"
tmp=$(mktemp -d "$cache/kselftest/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
deb=$(ls "$cache"/debs/linux-source-"${ver}"_*_all.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$deb" ]; then
	"$top/scripts/fetch-debs.sh" "${suite[@]}" --into "$tmp/unpacked" \
		"linux-source-$ver" >&2
	deb=$(ls "$cache"/debs/linux-source-"${ver}"_*_all.deb | tail -n 1)
fi
# The .deb holds usr/src/linux-source-<ver>.tar.xz: stream it out of the
# data member, then pull only the framework out of the tarball.
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards "*/linux-source-$ver.tar.xz"
tarball=$(find "$tmp" -name "linux-source-$ver.tar.xz" | head -n 1)
sel=tools/testing/selftests
tar -xJf "$tarball" -C "$tmp" --wildcards \
	"*/$sel/kselftest.h" "*/$sel/kselftest_harness.h" "*/$sel/lib.mk" \
	"*/$sel/Makefile" "*/$sel/run_kselftest.sh" "*/$sel/kselftest/*" \
	"*/scripts/subarch.include"
src=$(find "$tmp" -maxdepth 1 -type d -name "linux-source-$ver" | head -n 1)
[ -f "$src/$sel/kselftest.h" ] && [ -f "$src/$sel/lib.mk" ] ||
	{ echo "fetch-kselftest.sh: no kselftest framework in $deb" >&2; exit 1; }
rm -rf "$dest"
mv "$src" "$dest"
touch "$dest/.complete"
echo "$dest"
