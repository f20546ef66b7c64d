#!/usr/bin/env bash
# Usage: scripts/qemu/series-builds.sh [--jobs N]
#
# Whether each patch of the QEMU series builds and starts on its own, as
# upstream QEMU asks of a series (bisectability): in a second work tree
# of the patched source (<cache>/qemu/series-builds, its own build
# directory, configured as scripts/fetch-qemu.sh configures), each commit
# from the pristine source to the last patch is checked out in turn and
# qemu-system-aarch64 built incrementally; then the board is made and
# its device tree dumped with -cpu max, and with -cpu max,spe=on from the
# first patch (which adds the property) on.  TAP: one result per commit,
# with its build time; then the plan.  Not part of make check: the first
# build is QEMU's whole build (about 2100 steps), each patch after it
# rebuilds what it touches.
#   --jobs N   ninja's parallel jobs (default 2)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/apt.sh
. "$top/scripts/lib/apt.sh"
# shellcheck source=scripts/lib/qemu-series.sh
. "$top/scripts/lib/qemu-series.sh"

jobs=2
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) jobs=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "series-builds.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "series-builds.sh: --jobs takes a number" >&2; exit 2; }

# The series' own build first: it makes the patched work tree and the
# Python tools (meson) its configure needs.
if ! "$top/scripts/fetch-qemu.sh" >/dev/null || ! work=$("$top/scripts/fetch-qemu.sh" --work-tree); then
	tap_fail "the patched QEMU (scripts/fetch-qemu.sh)" "see its messages above"
	tap_done
	exit 1
fi
pytools=$spe_cache/qemu/pytools
export PATH="$pytools/root/usr/bin:$PATH"
export PYTHONPATH="$pytools/root/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"

tree=$spe_cache/qemu/series-builds
git_t() {
	git -C "$tree" -c advice.detachedHead=false "$@"
}
if [ ! -e "$tree/.git" ]; then
	rm -rf "$tree"
	git -C "$work" worktree prune
	git -C "$work" worktree add -q --detach "$tree" base || {
		tap_fail "a second work tree of $work" ""
		tap_done
		exit 1
	}
fi
# The files fetch-qemu.sh copies into the source beside the patches (the
# SPU model, the PC sample frame's offsets): untracked, so a checkout
# keeps them.
mkdir -p "$tree/target/arm/spe-model"
cp -a "$work/target/arm/spe-model/." "$tree/target/arm/spe-model/"
cp -p "$work/hw/arm/pcsample-regs.h" "$tree/hw/arm/pcsample-regs.h"

build=$tree/build
flags=$(printf '%s\n' "${spe_qemu_configure_flags[@]}")
if [ ! -f "$build/build.ninja" ] || [ "$(cat "$build/.spe-flags" 2>/dev/null)" != "$flags" ]; then
	git_t checkout -q --detach base
	rm -rf "$build"
	mkdir -p "$build"
	if ! (cd "$build" && nice -n 19 ../configure "${spe_qemu_configure_flags[@]}" >configure.log 2>&1); then
		tap_fail "QEMU configures in $tree" "$(tail -n 20 "$build/configure.log")"
		tap_done
		exit 1
	fi
	echo "$flags" >"$build/.spe-flags"
fi

# The commits: the pristine source ("base") and each patch after it.
mapfile -t commits < <(git -C "$work" rev-list --reverse base..HEAD)
commits=("$(git -C "$work" rev-parse base)" "${commits[@]}")
i=0
for c in "${commits[@]}"; do
	subject=$(git -C "$work" log -1 --format=%s "$c")
	[ "$i" -eq 0 ] && name="the pristine source" || name=$(printf 'patch %04d, %s' "$i" "$subject")
	git_t checkout -q --detach "$c"
	t0=$(date +%s)
	if ! (cd "$build" && nice -n 19 ninja -j"$jobs" qemu-system-aarch64 >"ninja-$i.log" 2>&1); then
		tap_fail "$name builds" "$(grep -m5 -A5 'error' "$build/ninja-$i.log" || tail -n 20 "$build/ninja-$i.log")"
		i=$((i + 1))
		continue
	fi
	secs=$(($(date +%s) - t0))
	cpus=(max)
	[ "$i" -gt 0 ] && cpus+=('max,spe=on')
	bad=''
	for cpu in "${cpus[@]}"; do
		rm -f "$build/virt.dtb"
		if ! out=$(timeout 60 "$build/qemu-system-aarch64" -M virt,gic-version=3 -cpu "$cpu" \
			-nic none -display none -machine dumpdtb="$build/virt.dtb" 2>&1) ||
		   [ ! -s "$build/virt.dtb" ]; then
			bad+=" -cpu $cpu: $out"
		fi
	done
	if [ -z "$bad" ]; then
		tap_ok "$name builds ($secs s) and makes the board with -cpu ${cpus[*]}"
	else
		tap_fail "$name builds and makes the board" "$bad"
	fi
	i=$((i + 1))
done
git_t checkout -q --detach "${commits[-1]}"
tap_done
