#!/usr/bin/env bash
# Download Debian packages (any architecture) and unpack them, never install.
#
# Usage: scripts/fetch-debs.sh [--suite SUITE] [--into DIR] [--list] PKG[:ARCH][=VERSION]...
#
# Each package is fetched with `apt-get download` into <cache>/debs/ and
# unpacked with `dpkg -x` into DIR (default <cache>/root).  <cache> is
# $SPE_CACHE_DIR, or .cache at the top of the repository.  Installing arm64
# kernels, busybox or perf on the host would replace host files (lab-notes),
# which is why everything goes through this script instead.
#
#   --suite SUITE  take the packages from SUITE (e.g. bookworm-backports) even
#                  when the machine's apt sources do not list it: a private apt
#                  sources/lists directory under the cache is used then
#   --into DIR     unpack into DIR (several packages into one DIR form one tree,
#                  so relative symlinks between them resolve)
#   --list         print the path of each .deb on stdout
#
# Quiet when everything is already downloaded and unpacked.  A package that
# cannot be had is a clear error and nothing is unpacked for it.
set -euo pipefail
spe_top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/apt.sh
. "$spe_top/scripts/lib/apt.sh"

suite='' into='' list=0
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=$2; shift 2 ;;
	--into) into=$2; shift 2 ;;
	--list) list=1; shift ;;
	--) shift; break ;;
	-*) spe_die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || spe_die "usage: fetch-debs.sh [--suite SUITE] [--into DIR] [--list] PKG..."
into=${into:-$spe_cache/root}
debs=$spe_cache/debs
mkdir -p "$debs" "$into/.spe-unpacked"

# Helpers share the cache: one fetch at a time.
exec 9>"$spe_cache/.fetch-debs.lock"
flock 9

for pkg in "$@"; do
	p=${pkg%%=*}
	case $p in *:*) spe_apt_ensure_arch "${p##*:}" ;; esac
done
spe_apt_opts "$suite"

# The .deb file names apt would download the packages to (one call for all:
# apt is slow to start).  Fails when any package cannot be had.
deb_names() {
	local out
	out=$(apt-get "${APT_OPTS[@]}" download --print-uris "$@" 2>/dev/null) || return 1
	awk '{print $2}' <<<"$out"
}

if ! files=$(deb_names "$@"); then
	spe_apt_update
	if ! files=$(deb_names "$@"); then
		for pkg in "$@"; do
			deb_names "$pkg" >/dev/null && continue
			why=$(apt-get "${APT_OPTS[@]}" download --print-uris "$pkg" 2>&1 |
				sed -n "s/^E: //p" | head -n1 || true)
			spe_die "package $pkg is not available${suite:+ from $suite}${why:+: $why}"
		done
		spe_die "apt cannot resolve: $*"
	fi
fi

# Download what is missing with one apt run (apt is slow to start), into a
# private directory first so that no half-written .deb is ever seen.
want=()
while read -r f; do
	[ -s "$debs/$f" ] && continue
	# name_version_arch.deb -> name:arch=version (the exact build apt listed)
	base=${f%.deb}
	ver=${base#*_}
	ver=${ver%_*}
	want+=("${base%%_*}:${base##*_}=${ver//%3a/:}")
	echo "${0##*/}: downloading $f" >&2
done <<<"$files"
if [ ${#want[@]} -gt 0 ]; then
	tmp=$(mktemp -d "$debs/.dl.XXXXXX")
	if ! (cd "$tmp" && spe_apt_get "${APT_OPTS[@]}" -qq download "${want[@]}" >/dev/null); then
		rm -rf "$tmp"
		# Mostly stale package lists (the archive dropped that build):
		# refresh them, so that asking again resolves to what is there now.
		spe_apt_update
		spe_die "download failed: ${want[*]} (package lists refreshed; run again to get the current builds)"
	fi
	mv "$tmp"/*.deb "$debs"/
	rmdir "$tmp"
fi

while read -r f; do
	[ -s "$debs/$f" ] || spe_die "apt did not download $f"
	if [ ! -e "$into/.spe-unpacked/$f" ]; then
		dpkg -x "$debs/$f" "$into" || spe_die "cannot unpack $f into $into"
		: >"$into/.spe-unpacked/$f"
	fi
	if [ $list -eq 1 ]; then echo "$debs/$f"; fi
done <<<"$files"
exit 0
