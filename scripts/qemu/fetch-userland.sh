#!/usr/bin/env bash
# Fetch the arm64 userland of the QEMU guest: busybox, and optionally perf.
#
# Usage: scripts/qemu/fetch-userland.sh busybox|perf [--refresh]
#
# Prints the directory the packages are unpacked in:
#   busybox  <cache>/guest/busybox   (busybox-static:arm64)
#   perf     <cache>/guest/perf      (linux-perf:arm64 of bookworm and every
#            arm64 library it needs at run time, about 40 MB)
# Downloaded and unpacked only (scripts/fetch-debs.sh): installing either on
# the host would replace the host's busybox or perf (lab-notes).  Once
# fetched, the same packages are used until --refresh asks apt again.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/apt.sh
. "$top/scripts/lib/apt.sh"

# Programs of the closure nothing in the guest runs; dropped to keep the
# initramfs (and so the boot) small.  perf only needs their libraries.
unneeded='^(dpkg|install-info|tar|perl|python3|python3-minimal|python3\.11|python3\.11-minimal):arm64$'

# Done before (and not asked to look again): no apt start-up cost per boot.
if [ -n "${1:-}" ] && [ "${2:-}" != --refresh ] && [ -e "$spe_cache/guest/$1/.complete" ]; then
	echo "$spe_cache/guest/$1"
	exit 0
fi

case ${1:-} in
busybox)
	dir=$spe_cache/guest/busybox
	"$top/scripts/fetch-debs.sh" --into "$dir" busybox-static:arm64
	;;
perf)
	dir=$spe_cache/guest/perf
	if [ ! -s "$dir/.closure" ]; then
		mkdir -p "$dir"
		spe_apt_ensure_arch arm64
		# Real arm64 packages of the run-time dependency closure (virtual
		# packages are printed in <>, host packages without :arm64).
		apt-cache depends --recurse --no-recommends --no-suggests \
			--no-conflicts --no-breaks --no-replaces --no-enhances \
			linux-perf:arm64 | grep -v '^[ <]' | grep ':arm64$' |
			grep -Ev "$unneeded" | sort -u >"$dir.closure.tmp" ||
			spe_die "cannot resolve the dependencies of linux-perf:arm64"
		grep -qx 'linux-perf:arm64' "$dir.closure.tmp" ||
			spe_die "linux-perf:arm64 is not available"
		mv "$dir.closure.tmp" "$dir/.closure"
	fi
	mapfile -t pkgs <"$dir/.closure"
	"$top/scripts/fetch-debs.sh" --into "$dir" "${pkgs[@]}"
	;;
*)
	spe_die "usage: fetch-userland.sh busybox|perf [--refresh]"
	;;
esac
: >"$dir/.complete"
echo "$dir"
