#!/usr/bin/env bash
# Build QEMU with the emulated Statistical Profiling Unit (qemu/patches/),
# idempotently, and print the path of its qemu-system-aarch64.
#
# Usage: scripts/fetch-qemu.sh [--source] [--rebuild]
#   --source    only fetch and unpack Debian's qemu source package; print its
#               directory (read-only: the pristine source, Debian's patches in)
#   --rebuild   build again even if a binary for this key is cached
#
# Steps, each skipped when its result is already in the cache
# (${SPE_CACHE_DIR:-<repo>/.cache}/qemu/):
#   1. `apt-get source --download-only qemu` through a private deb-src
#      configuration (scripts/lib/apt.sh; the machine's apt setup is never
#      changed), `dpkg-source -x` into src/qemu-VERSION/;
#   2. a git work tree work/ of that source: reset to the pristine commit,
#      then `git am` of qemu/patches/*.patch (so every patch must apply as a
#      commit, message and all); unchanged files keep their timestamps, so
#      the build below is incremental when only a patch changed (and the
#      tree is not touched at all when only the model changed); the SPU
#      model (drivers/perf/sim/spe_spu_model.c, include/spe/*.h) is copied into
#      target/arm/spe-model/, where the series' meson.build compiles it;
#   3. configure for aarch64-softmmu only, with the "minimal" device set
#      (the virt and sbsa-ref boards and the devices they can use, not the
#      32-bit boards), and `ninja qemu-system-aarch64`
#      (niced, -j2 or SPE_QEMU_JOBS), then copy the binary to
#      bin/KEY/qemu-system-aarch64.
# KEY is a hash of the source version, the patches, the model sources and
# the configure flags,
# so a changed patch gives a new binary and an unchanged series reuses the
# cached one (CI keeps the cache directory between runs).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
spe_top=$top
# shellcheck source=scripts/lib/apt.sh
. "$top/scripts/lib/apt.sh"

want_source=0 rebuild=0
while [ $# -gt 0 ]; do
	case $1 in
	--source) want_source=1; shift ;;
	--rebuild) rebuild=1; shift ;;
	*) spe_die "unknown option $1 (usage: fetch-qemu.sh [--source] [--rebuild])" ;;
	esac
done

qdir=$spe_cache/qemu
configure_flags=(--target-list=aarch64-softmmu --disable-docs --disable-tools
	--disable-guest-agent --disable-user --disable-werror --disable-gtk
	--disable-sdl --disable-vnc --disable-opengl --disable-spice --disable-curl
	--disable-libusb --disable-usb-redir --disable-slirp --disable-capstone
	--disable-xen --disable-kvm --with-devices-aarch64=minimal)

mkdir -p "$qdir"
exec 9>"$qdir/.lock"
flock 9

# ---- 1. the source package ------------------------------------------------
fetch_source() {
	local dsc ver
	dsc=$(ls "$qdir"/dl/qemu_*.dsc 2>/dev/null | tail -n 1 || true)
	if [ -z "$dsc" ]; then
		spe_apt_src_opts
		mkdir -p "$qdir/dl"
		echo "fetch-qemu.sh: downloading Debian's qemu source package" >&2
		(cd "$qdir/dl" && spe_apt_get "${APT_OPTS[@]}" -qq source --download-only qemu >/dev/null) ||
			spe_die "apt-get source --download-only qemu failed"
		dsc=$(ls "$qdir"/dl/qemu_*.dsc | tail -n 1)
	fi
	ver=$(sed -n 's/^Version: //p' "$dsc")
	[ -n "$ver" ] || spe_die "no Version in $dsc"
	src=$qdir/src/qemu-${ver#*:}
	if [ ! -f "$src/.unpacked" ]; then
		rm -rf "$src"
		mkdir -p "$qdir/src"
		echo "fetch-qemu.sh: unpacking qemu $ver" >&2
		dpkg-source --no-check --no-copy -q -x "$dsc" "$src" >/dev/null ||
			spe_die "dpkg-source -x $dsc failed"
		echo "$ver" >"$src/.unpacked"
	fi
	version=$ver
}
fetch_source
if [ $want_source -eq 1 ]; then
	echo "$src"
	exit 0
fi

# ---- 2. the key and the cached binary ---------------------------------------
patches=("$top"/qemu/patches/*.patch)
[ -e "${patches[0]}" ] || spe_die "no patches in qemu/patches/"
# The SPU model is compiled into QEMU (target/arm/spe-model/, see below).
model_files=("$top/drivers/perf/sim/spe_spu_model.c" "$top"/include/spe/*.h)
key=$( { echo "$version"; printf '%s\n' "${configure_flags[@]}";
	 cat "${patches[@]}" "${model_files[@]}"; } | sha256sum | cut -c1-16)
bin=$qdir/bin/$key/qemu-system-aarch64
if [ $rebuild -eq 0 ] && [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

# ---- 3. the patched work tree ---------------------------------------------
work=$qdir/work
git_q() {
	git -C "$work" -c user.name=fetch-qemu -c user.email=fetch-qemu@localhost \
		-c advice.detachedHead=false "$@"
}
if [ "$(cat "$work/.git/spe-base-version" 2>/dev/null)" != "$version" ]; then
	echo "fetch-qemu.sh: making a git work tree of qemu $version" >&2
	rm -rf "$work"
	mkdir -p "$work"
	cp -a "$src/." "$work/"
	rm -f "$work/.unpacked"
	git_q init -q
	git_q add -A -f .
	git_q commit -q -m "Debian qemu $version"
	git_q tag base
	echo "$version" >"$work/.git/spe-base-version"
fi
# Re-apply only when the series changed: a change of the model alone must
# not touch (and so recompile) the files the patches modify.
series=$(cat "${patches[@]}" | sha256sum | cut -c1-16)
if [ "$(cat "$work/.git/spe-series" 2>/dev/null)" != "$series" ] ||
   [ -n "$(git_q status --porcelain --untracked-files=no)" ]; then
	rm -f "$work/.git/spe-series"
	git_q am --abort >/dev/null 2>&1 || true
	git_q checkout -q -f --detach base
	git_q clean -q -f -d -x -e /build
	git_q am -q --keep-cr "${patches[@]}" ||
		{ git_q am --abort >/dev/null 2>&1 || true; spe_die "qemu/patches do not apply to qemu $version"; }
	echo "$series" >"$work/.git/spe-series"
fi
# The model's fourth build: the same sources as userspace and the kernel
# module, copied unchanged (-p keeps their times: no rebuild when equal).
mkdir -p "$work/target/arm/spe-model/spe"
cp -p "$top/drivers/perf/sim/spe_spu_model.c" "$work/target/arm/spe-model/"
cp -p "$top"/include/spe/*.h "$work/target/arm/spe-model/spe/"

# ---- 4. configure and build -------------------------------------------------
build=$work/build
flags_now=$(printf '%s\n' "${configure_flags[@]}")
configure_seconds=0
if [ ! -f "$build/build.ninja" ] || [ "$(cat "$build/.spe-flags" 2>/dev/null)" != "$flags_now" ]; then
	rm -rf "$build"
	mkdir -p "$build"
	echo "fetch-qemu.sh: configuring (aarch64-softmmu only)" >&2
	c0=$(date +%s)
	(cd "$build" && nice -n 10 ../configure "${configure_flags[@]}" >configure.log 2>&1) ||
		{ tail -n 30 "$build/configure.log" >&2; spe_die "configure failed (see $build/configure.log)"; }
	echo "$flags_now" >"$build/.spe-flags"
	configure_seconds=$(($(date +%s) - c0))
fi
jobs=${SPE_QEMU_JOBS:-2}
echo "fetch-qemu.sh: building qemu-system-aarch64 ($jobs jobs; from cold 3 to 7 min on 2 idle cores, much longer on a busy machine)" >&2
t0=$(date +%s)
(cd "$build" && nice -n 10 ninja -j"$jobs" qemu-system-aarch64 >ninja.log 2>&1) ||
	{ grep -B2 -A10 -m3 'error' "$build/ninja.log" >&2 || tail -n 40 "$build/ninja.log" >&2
	  spe_die "build failed (see $build/ninja.log)"; }
t1=$(date +%s)
mkdir -p "$qdir/bin/$key"
cp "$build/qemu-system-aarch64" "$bin.tmp"
mv "$bin.tmp" "$bin"
# What was built, for humans and for the documentation's numbers.
{
	echo "version=$version"
	echo "configure_seconds=$configure_seconds"
	echo "build_seconds=$((t1 - t0))"
	echo "patches:"
	git_q log --reverse --format='  %s' base..HEAD
} >"$qdir/bin/$key/info"
echo "fetch-qemu.sh: built in $((t1 - t0)) s: $bin" >&2
echo "$bin"
