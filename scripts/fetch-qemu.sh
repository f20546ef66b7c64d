#!/usr/bin/env bash
# Build QEMU with the emulated Statistical Profiling Unit (qemu/patches/),
# idempotently, and print the path of its qemu-system-aarch64.  Every guest
# of the project boots it, with or without the unit.
#
# Usage: scripts/fetch-qemu.sh [--source | --work-tree] [--rebuild]
#   --source    only fetch and unpack Debian's qemu source package; print its
#               directory (read-only: the pristine source, Debian's patches in)
#   --work-tree make sure the patched work tree (step 3) holds the current
#               series and print its directory, building nothing (read it
#               only: suite 58 builds the series' tests/tcg test from it)
#   --rebuild   build again even if a binary for this key is cached
#
# The series is for one upstream QEMU release (scripts/lib/qemu-series.sh:
# 10.2), built from the newest Debian qemu 10.2.x source that downloads,
# resolved when none is cached: the deb-src indexes of sid,
# trixie-backports and trixie are read, their qemu versions tried newest
# first, and the first 10.2.x whose files download is taken (a newer
# upstream release is reported: the series would have to be ported to it).
# Its configure needs meson >= 1.5 and pycotap, which bookworm lacks and the
# +ds source does not bundle: trixie's architecture-independent meson and
# python3-pycotap are downloaded and unpacked (dpkg-deb -x, never
# installed) into the cache, and put on PATH and PYTHONPATH for configure
# and ninja.
#
# Steps, each skipped when its result is already in the cache
# (${SPE_CACHE_DIR:-<repo>/.cache}/qemu/):
#   1. `apt-get source --download-only qemu` through a private deb-src
#      configuration (scripts/lib/apt.sh; the machine's apt setup is never
#      changed), `dpkg-source -x` into src/qemu-VERSION/;
#   2. a git work tree (work-SERIES/) of that
#      source: reset to the pristine commit,
#      then `git am` of qemu/patches/*.patch (so every patch must apply as a
#      commit, message and all); unchanged files keep their timestamps, so
#      the build below is incremental when only a patch changed (and the
#      tree is not touched at all when only the model changed); the SPU
#      model (drivers/perf/sim/spe_spu_model.c, include/spe/*.h) is copied into
#      target/arm/spe-model/, where the series' meson.build compiles it
#      (and its cpreg table takes each register's encoding from
#      spe/regs.h), and include/pcsample/regs.h, the PC sample frame's
#      offsets, to hw/arm/pcsample-regs.h;
#   3. configure for aarch64-softmmu only, with the "minimal" device set
#      (the virt and sbsa-ref boards and the devices they can use, not the
#      32-bit boards), and `ninja qemu-system-aarch64`
#      (niced, -j2 or SPE_QEMU_JOBS; ninja's step counter is printed every
#      30 s), then copy the binary to bin/KEY/qemu-system-aarch64.
# KEY is a hash of the source version, the patches, the copied project
# sources and the configure flags,
# so a changed patch gives a new binary and an unchanged series reuses the
# cached one (CI keeps the cache directory between runs).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
spe_top=$top
# shellcheck source=scripts/lib/apt.sh
. "$top/scripts/lib/apt.sh"
# shellcheck source=scripts/lib/qemu-series.sh
. "$top/scripts/lib/qemu-series.sh"

want_source=0 want_work=0 rebuild=0
while [ $# -gt 0 ]; do
	case $1 in
	--source) want_source=1; shift ;;
	--work-tree) want_work=1; shift ;;
	--rebuild) rebuild=1; shift ;;
	*) spe_die "unknown option $1 (usage: fetch-qemu.sh [--source | --work-tree] [--rebuild])" ;;
	esac
done

qdir=$spe_cache/qemu
configure_flags=("${spe_qemu_configure_flags[@]}")
# bookworm's python3 with trixie's meson on PYTHONPATH (above); the firmware
# blobs are not in the +ds source.
dl=$qdir/dl-$spe_qemu_series
work=$qdir/work-$spe_qemu_series
first_build="about 2100 steps: 12 min on 2 idle cores, 16 min at a load of 8"

mkdir -p "$qdir"
# One build at a time per series (the series share nothing but bin/).
exec 9>"$qdir/.lock-$spe_qemu_series"
flock 9

# ---- 1. the source package ------------------------------------------------
# The Debian suites newer than bookworm that may carry a newer qemu, newest
# first; they are on the machine's own mirror.
new_suites=(sid trixie-backports trixie)

# A private apt configuration with the deb-src indexes of new_suites and
# trixie's amd64 binary index (for meson and pycotap): fills APT_OPTS.
new_apt_opts() {
	local d=$spe_cache/apt/qemu-new uri s keyring=/usr/share/keyrings/debian-archive-keyring.gpg signed=''
	APT_OPTS=(-o "Dir::Etc::SourceList=$d/sources.list"
		  -o "Dir::Etc::SourceParts=$d/sources.list.d"
		  -o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache"
		  -o "APT::Architectures::=amd64")
	if [ ! -s "$d/sources.list" ]; then
		uri=$(apt-cache policy 2>/dev/null |
			awk '$3 ~ /^[a-z]+\/main$/ && $NF == "Packages" && $2 ~ /\/debian\/?$/ {print $2; exit}')
		[ -n "$uri" ] || spe_die "no Debian main apt source on this machine to derive a mirror from"
		[ -r "$keyring" ] && signed="signed-by=$keyring "
		mkdir -p "$d/sources.list.d" "$d/lists/partial" "$d/cache/archives/partial"
		for s in "${new_suites[@]}"; do
			echo "deb-src [${signed% }] $uri $s main"
		done >"$d/sources.list.tmp"
		echo "deb [arch=amd64 ${signed% }] $uri trixie main" >>"$d/sources.list.tmp"
		mv "$d/sources.list.tmp" "$d/sources.list"
	fi
	if ! ls "$d"/lists/*_Sources* >/dev/null 2>&1; then
		spe_apt_update
	fi
}

# The newest qemu SERIES.x source that downloads, into $dl.
download_new_source() {
	local v up newer=''
	new_apt_opts
	mkdir -p "$dl"
	for v in $(apt-cache "${APT_OPTS[@]}" showsrc qemu 2>/dev/null |
		   sed -n 's/^Version: //p' | sort -u -r -V); do
		up=${v#*:}
		up=${up%%[+~-]*}
		case $up in
		"$spe_qemu_series".*) ;;
		*)
			if dpkg --compare-versions "$up" gt "$spe_qemu_series.999"; then
				newer+=" $v"
			fi
			continue
			;;
		esac
		echo "fetch-qemu.sh: downloading Debian's qemu $v source package" >&2
		if (cd "$dl" && spe_apt_get "${APT_OPTS[@]}" -qq source --download-only "qemu=$v" >/dev/null 2>&1); then
			[ -z "$newer" ] ||
				echo "fetch-qemu.sh: note: newer qemu listed (${newer# }); the series is for $spe_qemu_series" >&2
			return 0
		fi
		echo "fetch-qemu.sh: qemu $v is listed but does not download; trying an older one" >&2
		rm -f "$dl"/qemu_*
	done
	spe_die "no Debian qemu $spe_qemu_series.x source downloads from ${new_suites[*]}"
}

# trixie's meson and pycotap, unpacked (not installed) for configure.
pytools=$qdir/pytools
fetch_pytools() {
	local deb
	[ -f "$pytools/.unpacked" ] && return 0
	new_apt_opts
	rm -rf "$pytools"
	mkdir -p "$pytools/deb"
	echo "fetch-qemu.sh: downloading trixie's meson and python3-pycotap (unpacked, not installed)" >&2
	(cd "$pytools/deb" && spe_apt_get "${APT_OPTS[@]}" -qq download meson python3-pycotap >/dev/null 2>&1) ||
		spe_die "apt-get download meson python3-pycotap (trixie) failed"
	for deb in "$pytools"/deb/*.deb; do
		dpkg-deb -x "$deb" "$pytools/root" || spe_die "dpkg-deb -x $deb failed"
	done
	[ -x "$pytools/root/usr/bin/meson" ] || spe_die "no meson in trixie's meson package"
	touch "$pytools/.unpacked"
}

fetch_source() {
	local dsc ver
	dsc=$(ls "$dl"/qemu_*.dsc 2>/dev/null | sort -V | tail -n 1 || true)
	if [ -z "$dsc" ]; then
		download_new_source
		dsc=$(ls "$dl"/qemu_*.dsc | sort -V | tail -n 1)
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
patches=("$spe_qemu_patches"/*.patch)
[ -e "${patches[0]}" ] || spe_die "no patches in ${spe_qemu_patches#"$top"/}/"
# The SPU model is compiled into QEMU (target/arm/spe-model/, see below),
# and the PC sample frame's offsets are included from the project's header.
model_files=("$top/drivers/perf/sim/spe_spu_model.c" "$top"/include/spe/*.h
	"$top/include/pcsample/regs.h")
key=$( { echo "$version"; printf '%s\n' "${configure_flags[@]}";
	 cat "${patches[@]}" "${model_files[@]}"; } | sha256sum | cut -c1-16)
bin=$qdir/bin/$key/qemu-system-aarch64
# A cached binary is enough unless the work tree is asked for: it may
# hold another series (or none) when this one's binary was built earlier.
if [ $want_work -eq 0 ] && [ $rebuild -eq 0 ] && [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

# ---- 3. the patched work tree ---------------------------------------------
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
# The offsets of the PC sample frame (patch 0007's hw/arm/pcsample.c and
# target/arm/tcg/translate.h), from the header its driver is built with.
cp -p "$top/include/pcsample/regs.h" "$work/hw/arm/pcsample-regs.h"
if [ $want_work -eq 1 ]; then
	echo "$work"
	exit 0
fi

# ---- 4. configure and build -------------------------------------------------
fetch_pytools
export PATH="$pytools/root/usr/bin:$PATH"
export PYTHONPATH="$pytools/root/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
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
echo "fetch-qemu.sh: building qemu-system-aarch64 $version ($jobs jobs; a first build is $first_build; a changed patch rebuilds only what it touches)" >&2
t0=$(date +%s)
(cd "$build" && exec nice -n 10 ninja -j"$jobs" qemu-system-aarch64 >ninja.log 2>&1) &
ninja_pid=$!
# ninja's step counter ("[N/M] ..." lines) every 30 s, so a long build is
# not silent.
last=''
while kill -0 "$ninja_pid" 2>/dev/null; do
	for _ in $(seq 1 30); do
		kill -0 "$ninja_pid" 2>/dev/null || break
		sleep 1
	done
	step=$(grep -o '^\[[0-9]*/[0-9]*\]' "$build/ninja.log" 2>/dev/null | tail -n 1)
	if [ -n "$step" ] && [ "$step" != "$last" ]; then
		echo "fetch-qemu.sh: $step steps, $(( ($(date +%s) - t0) / 60 )) min" >&2
		last=$step
	fi
done
wait "$ninja_pid" ||
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
