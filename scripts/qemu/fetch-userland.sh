#!/usr/bin/env bash
# Fetch the arm64 userland of the QEMU guest: busybox, and optionally perf.
#
# Usage: scripts/qemu/fetch-userland.sh busybox|perf [SUITE] [--refresh]
#
# Prints the directory the packages are unpacked in:
#   busybox  <cache>/guest/busybox   (busybox-static:arm64)
#   perf     <cache>/guest/perf      (linux-perf:arm64 of bookworm and every
#            arm64 library it needs at run time, about 40 MB), or with a
#            SUITE (bullseye, trixie-backports, ...) <cache>/guest/perf-SUITE:
#            that release's perf with that release's libraries, as a user
#            of that release runs it.  The perf program is usr/bin/perf
#            (bullseye's versioned perf_5.10 is linked there).
# Downloaded and unpacked only (scripts/fetch-debs.sh): installing either on
# the host would replace the host's busybox or perf (lab-notes).  Once
# fetched, the same packages are used until --refresh asks apt again.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/apt.sh
. "$top/scripts/lib/apt.sh"

# Programs of the closure nothing in the guest runs; dropped to keep the
# initramfs (and so the boot) small.  perf only needs their libraries.
unneeded='^(dpkg|install-info|tar|perl|perl-base|python3|python3-minimal|python3\.[0-9]+|python3\.[0-9]+-minimal):arm64$'

what=${1:-} suite='' refresh=0
shift || true
for a in "$@"; do
	case $a in
	--refresh) refresh=1 ;;
	*) suite=$a ;;
	esac
done
[ "$suite" = "$(spe_own_codename)" ] && suite=''
name=$what${suite:+-$suite}

# Done before (and not asked to look again): no apt start-up cost per boot.
if [ -n "$what" ] && [ $refresh -eq 0 ] && [ -e "$spe_cache/guest/$name/.complete" ]; then
	echo "$spe_cache/guest/$name"
	exit 0
fi

case $what in
busybox)
	dir=$spe_cache/guest/busybox
	"$top/scripts/fetch-debs.sh" --into "$dir" busybox-static:arm64
	;;
perf)
	dir=$spe_cache/guest/$name
	if [ ! -s "$dir/.closure" ]; then
		mkdir -p "$dir"
		spe_apt_ensure_arch arm64
		spe_apt_opts "$suite"
		# Real arm64 packages of the run-time dependency closure (virtual
		# packages are printed in <>, host packages without :arm64).
		apt-cache "${APT_OPTS[@]}" depends --recurse --no-recommends --no-suggests \
			--no-conflicts --no-breaks --no-replaces --no-enhances \
			linux-perf:arm64 | grep -v '^[ <]' | grep ':arm64$' |
			grep -Ev "$unneeded" | sort -u >"$dir.closure.tmp" ||
			spe_die "cannot resolve the dependencies of linux-perf:arm64${suite:+ in $suite}"
		grep -qx 'linux-perf:arm64' "$dir.closure.tmp" ||
			spe_die "linux-perf:arm64 is not available${suite:+ in $suite}"
		mv "$dir.closure.tmp" "$dir/.closure"
	fi
	mapfile -t pkgs <"$dir/.closure"
	"$top/scripts/fetch-debs.sh" ${suite:+--suite "$suite"} --into "$dir" "${pkgs[@]}"
	# bullseye's perf is usr/bin/perf_5.10, run by a wrapper script that
	# picks the version of the running kernel: the guest runs it directly.
	if [ ! -x "$dir/usr/bin/perf" ] || ! head -c 4 "$dir/usr/bin/perf" | grep -q ELF; then
		versioned=$(cd "$dir/usr/bin" && ls perf_[0-9]* 2>/dev/null | sort -V | tail -n 1)
		[ -n "$versioned" ] || spe_die "no perf program in the unpacked linux-perf${suite:+ of $suite}"
		ln -sfn "$versioned" "$dir/usr/bin/perf"
	fi
	# From trixie, libc6 ships the dynamic loader in /usr/lib only (the
	# release's base-files makes /lib a link to usr/lib): give the
	# programs' interpreter path, /lib/ld-linux-aarch64.so.1, a link.
	if [ ! -e "$dir/lib/ld-linux-aarch64.so.1" ] && [ -e "$dir/usr/lib/ld-linux-aarch64.so.1" ]; then
		mkdir -p "$dir/lib"
		ln -sfn /usr/lib/ld-linux-aarch64.so.1 "$dir/lib/ld-linux-aarch64.so.1"
	fi
	;;
*)
	spe_die "usage: fetch-userland.sh busybox|perf [SUITE] [--refresh]"
	;;
esac
: >"$dir/.complete"
echo "$dir"
