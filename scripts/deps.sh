#!/usr/bin/env bash
# Install the Debian packages the build and the tests need, idempotently.
#
# Usage: scripts/deps.sh [COMPONENT...]   (default: every component)
#
# Each component lists its packages in scripts/deps/<component>.list (one
# name per line, '#' comments; "name:arm64" entries need the arm64 foreign
# architecture, which is added here).  Nothing is installed when everything
# is already present, so this is quiet and quick on a prepared machine.
#
# Never list arm64 linux-headers, linux-image, busybox or perf packages here:
# installing them breaks the host (lab-notes).  Those are downloaded and
# unpacked into the git-ignored cache by scripts/fetch-debs.sh and
# scripts/fetch-kernels.sh instead.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

lists=("$top"/scripts/deps/*.list)
if [ $# -gt 0 ]; then
	lists=()
	for c in "$@"; do
		[ -f "$top/scripts/deps/$c.list" ] || { echo "deps: no scripts/deps/$c.list" >&2; exit 2; }
		lists+=("$top/scripts/deps/$c.list")
	done
fi
mapfile -t wanted < <(cat "${lists[@]}" | sed 's/#.*//' | awk 'NF {print $1}' | sort -u)
missing=()
for pkg in "${wanted[@]}"; do
	if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != *'install ok installed'* ]]; then
		missing+=("$pkg")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]} (run as root to install them)" >&2
	exit 1
fi
if [[ " ${missing[*]} " == *':arm64 '* ]] &&
   ! grep -qx arm64 <<<"$(dpkg --print-foreign-architectures)"; then
	dpkg --add-architecture arm64
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
