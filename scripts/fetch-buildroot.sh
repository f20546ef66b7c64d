#!/usr/bin/env bash
# Make (once) a build root of another Debian release, in which kernel
# modules are built with that release's own cross compiler and kbuild host
# tools, the way they are built on a machine running that release.
#
# Usage: scripts/fetch-buildroot.sh [--quiet] SUITE [PACKAGE...]
#
#   SUITE     a Debian suite: bullseye, trixie, trixie-backports, sid, ...
#             (a backports suite's root is its release with the backports
#             preferred, as on a machine that installs from them)
#   PACKAGE   packages wanted beyond the base set below (fetch-kernels.sh
#             adds the gcc-N-aarch64-linux-gnu that the kernel was built
#             with, and the release's linux-perf: the x86 perf of the
#             guest's release, which reads what the guest's perf writes)
#
# Why: a kernel's modules are built with the compiler that built the kernel
# (Debian's headers name it in .kernelvariables: gcc-10 for bullseye, gcc-14
# for trixie, gcc-16 for sid), and the headers' kbuild host programs
# (fixdep, modpost) are linked against that release's C library.  Neither
# can be installed on this machine without replacing its own packages, so
# each release gets a root of its own under <cache>/buildroots/, made by
# mmdebstrap from the same Debian mirror the machine uses.  The machine's
# apt configuration and packages are never touched.
#
# The root's directory name carries a hash of its package list: another
# list makes another root, an unchanged one is reused.  Prints the root's
# path (unless --quiet).  scripts/lib/buildroot.sh runs commands in it.
set -euo pipefail
spe_top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/apt.sh
. "$spe_top/scripts/lib/apt.sh"

quiet=0
[ "${1:-}" = --quiet ] && { quiet=1; shift; }
[ $# -ge 1 ] || spe_die "usage: fetch-buildroot.sh [--quiet] SUITE [PACKAGE...]"
suite=$1 release=${1%%-*}
shift

# What kbuild, sparse and DKMS need to build an out-of-tree module.
base=(make bc flex bison kmod xz-utils libelf-dev libssl-dev dwarves sparse dkms
	perl python3 ca-certificates)
mapfile -t pkgs < <(printf '%s\n' "${base[@]}" "$@" | sort -u)
key=$(printf '%s\n' "$suite" "${pkgs[@]}" | sha256sum | cut -c1-12)
root=$spe_cache/buildroots/$suite-$key

command -v mmdebstrap >/dev/null ||
	spe_die "mmdebstrap is not installed (make deps installs it)"

mkdir -p "$spe_cache/buildroots"
exec 9>"$spe_cache/buildroots/.lock"
flock 9

if [ ! -f "$root/.spe-complete" ]; then
	uri=$(apt-cache policy 2>/dev/null |
		awk -v own="$(spe_own_codename)/main" '$3 == own && $NF == "Packages" {print $2; exit}')
	[ -n "$uri" ] || spe_die "no Debian 'main' apt source on this machine to take the mirror from"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	signed=''
	[ -r "$keyring" ] && signed="[signed-by=$keyring] "
	sources=("deb $signed$uri $release main")
	# sid's Release file carries a Valid-Until date a week ahead; a mirror
	# that is not refreshed that often serves an "expired" one, which apt
	# refuses unless told not to check the date (the signature still is).
	aptopts=(--aptopt='Acquire::Check-Valid-Until "false"')
	if [ "$suite" != "$release" ]; then
		sources+=("deb $signed$uri $suite main")
		aptopts+=(--aptopt="APT::Default-Release \"$suite\"")
	fi
	echo "fetch-buildroot.sh: making a $suite build root (about a minute)" >&2
	rm -rf "$root" "$root.tmp"
	start=$SECONDS
	if ! mmdebstrap --quiet --variant=apt "${aptopts[@]}" \
		--include="$(IFS=,; echo "${pkgs[*]}")" \
		"$release" "$root.tmp" "${sources[@]}" >"$root.log" 2>&1; then
		tail -n 20 "$root.log" >&2
		rm -rf "$root.tmp"
		spe_die "mmdebstrap of $suite failed (see $root.log)"
	fi
	mv "$root.tmp" "$root"
	echo "$suite ${pkgs[*]}" >"$root/.spe-complete"
	echo "fetch-buildroot.sh: $suite build root made in $((SECONDS - start)) s" >&2
fi
[ $quiet -eq 1 ] || echo "$root"
