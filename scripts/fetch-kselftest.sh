#!/usr/bin/env bash
# Fetch the kernel's kselftest framework of a Debian kernel into the cache,
# idempotently, and print the path of the kernel-tree skeleton that holds it.
#
# Usage: scripts/fetch-kselftest.sh KERNEL
#
# KERNEL: 6.1, 6.12, kasan, kcsan, or any other name scripts/lib/kernels.sh
# takes (a Debian suite, oldest, newest).
#
# The framework (kselftest.h, kselftest_harness.h, lib.mk, the selftests
# Makefile, run_kselftest.sh and kselftest/) ships only inside Debian's
# linux-source-<version> package, as a tarball: the package is downloaded
# (never installed) and only those files, plus scripts/subarch.include that
# the selftests Makefile reads, are extracted.  The skeleton is laid out as
# a kernel tree, so `make -C DIR/tools/testing/selftests TARGETS=arm_spe`
# runs exactly as in a full tree (scripts/kselftest-drop-in.sh puts
# selftests/arm_spe there).  The debug kernels' framework is copied from the
# source tree they were built from (6.12.117 today, not backports' 6.12).
# Any other kernel's comes from the linux-source of its major.minor in its
# own suite (bullseye's 5.10, trixie-backports' 7.3), cached by that
# package's version.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SPE_CACHE_DIR:-$top/.cache}

ver=${1:-}
sel=tools/testing/selftests
# The framework's files, relative to a kernel tree.
files=("$sel/kselftest.h" "$sel/kselftest_harness.h" "$sel/lib.mk" "$sel/Makefile"
	"$sel/run_kselftest.sh" "$sel/kselftest" scripts/subarch.include)

# put_in_place SRC: SRC holds the framework; it becomes the cached skeleton.
put_in_place() {
	[ -f "$1/$sel/kselftest.h" ] && [ -f "$1/$sel/lib.mk" ] ||
		{ echo "fetch-kselftest.sh: no kselftest framework in $2" >&2; exit 1; }
	rm -rf "$dest"
	mv "$1" "$dest"
	touch "$dest/.complete"
	echo "$dest"
}

case $ver in
6.1) suite=() ;;
6.12) suite=(--suite bookworm-backports) ;;
kasan | kcsan)
	# The debug kernels (scripts/build-debug-kernel.sh) are built from
	# an unpacked source tree: its own framework is the exact one.
	# shellcheck source=scripts/lib/kernels.sh
	. "$top/scripts/lib/kernels.sh"
	spe_kernel "$ver"
	src=$(readlink -f "$KDIR/source")
	# A patched flavour builds from its own copy, FLAVOUR-KEY/src.
	name=${src##*/}
	[ "$name" = src ] && { name=${src%/src}; name=${name##*/}-src; }
	dest=$cache/kselftest/$name
	[ -e "$dest/.complete" ] && { echo "$dest"; exit 0; }
	mkdir -p "$cache/kselftest"
	tmp=$(mktemp -d "$cache/kselftest/.copy.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	(cd "$src" && cp -r --parents "${files[@]}" "$tmp/")
	put_in_place "$tmp" "$src"
	exit 0 ;;
'') echo "usage: fetch-kselftest.sh 6.1|6.12|kasan|kcsan|SUITE|oldest|newest" >&2; exit 2 ;;
*)
	# shellcheck source=scripts/lib/kernels.sh
	. "$top/scripts/lib/kernels.sh"
	spe_kernel "$ver"
	series=$(printf '%s\n' "$KREL" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
	[ -n "$series" ] || { echo "fetch-kselftest.sh: no version in $KREL" >&2; exit 1; }
	# The suite's current version, when apt knows it already: a framework
	# cached for it is used without unpacking the package again.
	spe_apt_opts "$KSUITE"
	pkgver=$(apt-cache "${APT_OPTS[@]}" policy "linux-source-$series" 2>/dev/null |
		awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }')
	dest=$cache/kselftest/linux-source-$series-$pkgver
	[ -n "$pkgver" ] && [ -e "$dest/.complete" ] && { echo "$dest"; exit 0; }
	mkdir -p "$cache/kselftest"
	tmp=$(mktemp -d "$cache/kselftest/.fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	deb=$("$top/scripts/fetch-debs.sh" --suite "$KSUITE" --into "$tmp/unpacked" --list \
		"linux-source-$series" | tail -n 1)
	pkgver=$(dpkg-deb -f "$deb" Version)
	dest=$cache/kselftest/linux-source-$series-$pkgver
	[ -e "$dest/.complete" ] && { echo "$dest"; exit 0; }
	tarball=$(find "$tmp/unpacked" -name "linux-source-$series.tar.xz" | head -n 1)
	[ -n "$tarball" ] || { echo "fetch-kselftest.sh: no source tarball in $deb" >&2; exit 1; }
	tar -xJf "$tarball" -C "$tmp" --wildcards "${files[@]/#/*/}"
	put_in_place "$tmp/linux-source-$series" "$deb"
	exit 0 ;;
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
tar -xJf "$tarball" -C "$tmp" --wildcards "${files[@]/#/*/}"
put_in_place "$(find "$tmp" -maxdepth 1 -type d -name "linux-source-$ver" | head -n 1)" "$deb"
