#!/usr/bin/env bash
# Build the kernel's libperf (tools/lib/perf) of Debian's linux-source-6.1
# as a static library, for this host or for arm64, into the cache,
# idempotently, and print the directory that holds it.
#
# Usage: scripts/fetch-libperf.sh host|arm64
#
# libperf ships only inside the kernel source; Debian's linux-source-6.1
# package (bookworm) holds that source as a tarball.  The package is
# downloaded if the cache lacks it (never installed) and only what
# `make -C tools/lib/perf` reads is extracted: tools/lib/perf, tools/lib/api
# (libperf.a calls its fdarray__*), tools/lib/{zalloc,str_error_r}.c (built
# into the two libraries), tools/include, tools/arch/{x86,arm64}/include,
# tools/build and tools/scripts.  That skeleton is shared by both targets.
#
# The printed directory DIR holds:
#   DIR/lib/libperf.a, DIR/lib/libapi.a   (libperf.a needs libapi.a)
#   DIR/libperf.mk   LIBPERF_CPPFLAGS (the public headers perf/*.h, and
#                    internal/*.h with the tools/include headers they need)
#                    and LIBPERF_LIBS, for a Makefile to include
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SPE_CACHE_DIR:-$top/.cache}
ver=6.1

case ${1:-} in
host) arch=$(uname -m); make_args=() ;;
arm64) arch=aarch64; make_args=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;;
*) echo "usage: fetch-libperf.sh host|arm64" >&2; exit 2 ;;
esac
target=$1
# The tools tree names architectures the kernel's way.
case $arch in
x86_64 | i?86) srcarch=x86 ;;
aarch64) srcarch=arm64 ;;
*) echo "fetch-libperf.sh: host architecture $arch: only x86_64 and aarch64 hosts are supported" >&2
   exit 1 ;;
esac
base=$cache/libperf/$ver
src=$base/src
dest=$base/$target
if [ -e "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi
mkdir -p "$base"
# Two builds at once (make -j2 of host and cross) share the skeleton.
exec 9>"$base/.lock"
flock 9
if [ -e "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi

# The source skeleton, once for both targets.
if [ ! -e "$src/.complete" ]; then
	tmp=$(mktemp -d "$base/.fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	deb=$(ls "$cache"/debs/linux-source-"${ver}"_*_all.deb 2>/dev/null | tail -n 1 || true)
	if [ -z "$deb" ]; then
		"$top/scripts/fetch-debs.sh" --into "$tmp/unpacked" "linux-source-$ver" >&2
		deb=$(ls "$cache"/debs/linux-source-"${ver}"_*_all.deb 2>/dev/null | tail -n 1 || true)
		[ -n "$deb" ] || { echo "fetch-libperf.sh: no linux-source-$ver package in $cache/debs" >&2; exit 1; }
	fi
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards "*/linux-source-$ver.tar.xz"
	tarball=$(find "$tmp" -name "linux-source-$ver.tar.xz" | head -n 1)
	[ -n "$tarball" ] || { echo "fetch-libperf.sh: no linux-source-$ver.tar.xz in $deb" >&2; exit 1; }
	tar -xJf "$tarball" -C "$tmp" --wildcards \
		"*/tools/lib/perf/*" "*/tools/lib/api/*" \
		"*/tools/lib/zalloc.c" "*/tools/lib/str_error_r.c" \
		"*/tools/include/*" "*/tools/arch/x86/include/*" "*/tools/arch/arm64/include/*" \
		"*/tools/build/*" "*/tools/scripts/*"
	tree=$(find "$tmp" -maxdepth 1 -type d -name "linux-source-$ver" | head -n 1)
	for need in tools/lib/perf/Makefile tools/lib/perf/include/perf/evlist.h \
		tools/lib/perf/include/internal/mmap.h tools/lib/api/Makefile tools/lib/zalloc.c \
		tools/lib/str_error_r.c tools/include/linux/refcount.h tools/build/Makefile.build \
		tools/scripts/Makefile.include; do
		[ -f "$tree/$need" ] ||
			{ echo "fetch-libperf.sh: $need is missing from $tarball" >&2; exit 1; }
	done
	rm -rf "$src"
	mv "$tree" "$src"
	touch "$src/.complete"
	rm -rf "$tmp"
	trap - EXIT
fi

# One build per target, in its own output directory (O=): the source
# skeleton stays clean, so both targets share it.
tmp=$(mktemp -d "$base/.build-$target.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/out" "$tmp/lib"
if ! make -s -C "$src/tools/lib/perf" O="$tmp/out" "${make_args[@]}" \
	"$tmp/out/libperf.a" "$tmp/out/libapi.a" >"$tmp/build.log" 2>&1; then
	cat "$tmp/build.log" >&2
	echo "fetch-libperf.sh: building libperf $ver for $target failed (log above)" >&2
	exit 1
fi
cp "$tmp/out/libperf.a" "$tmp/out/libapi.a" "$tmp/lib/"
# internal/mmap.h reaches tools/include/asm/atomic.h, which includes the
# architecture's own by a path relative to tools/include.
cat >"$tmp/libperf.mk" <<EOT
# libperf $ver (Debian linux-source-$ver) for $target, by scripts/fetch-libperf.sh
LIBPERF_CPPFLAGS := -I$src/tools/lib/perf/include -I$src/tools/include -I$src/tools/arch/$srcarch/include
LIBPERF_LIBS := $dest/lib/libperf.a $dest/lib/libapi.a
EOT
rm -rf "$dest"
mkdir -p "$dest"
mv "$tmp/lib" "$tmp/libperf.mk" "$dest/"
touch "$dest/.complete"
echo "$dest"
