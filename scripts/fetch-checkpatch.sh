#!/usr/bin/env bash
# Fetch the kernel's checkpatch.pl (and the two data files it reads) into the
# cache, idempotently.
#
# checkpatch.pl ships only inside Debian's linux-source-6.1 package, as a
# tarball.  The package is downloaded (never installed) and only the three
# files checkpatch needs are extracted from the tarball inside it.
#
# Prints the path of checkpatch.pl on success.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SPE_CACHE_DIR:-$top/.cache}
dest="$cache/checkpatch"
want=(scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)

if [ -x "$dest/scripts/checkpatch.pl" ] && [ -f "$dest/scripts/spelling.txt" ]; then
	echo "$dest/scripts/checkpatch.pl"
	exit 0
fi

mkdir -p "$cache/debs" "$dest"
cd "$cache/debs"
deb=$(ls linux-source-6.1_*_all.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$deb" ]; then
	apt-get download linux-source-6.1 >/dev/null 2>&1 || {
		apt-get update -qq >/dev/null 2>&1 || true
		apt-get download linux-source-6.1 >/dev/null
	}
	deb=$(ls linux-source-6.1_*_all.deb | tail -n 1)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The .deb holds usr/src/linux-source-6.1.tar.xz; stream it out of the data
# member and pull only the wanted files from the tarball.
dpkg-deb --fsys-tarfile "$deb" |
	tar -x -C "$tmp" --wildcards '*/linux-source-6.1.tar.xz'
tarball=$(find "$tmp" -name 'linux-source-6.1.tar.xz' | head -n 1)
tar -xJf "$tarball" -C "$tmp" --wildcards "${want[@]/#/*/}"
src=$(dirname "$(find "$tmp" -path '*/scripts/checkpatch.pl' | head -n 1)")
mkdir -p "$dest/scripts"
for f in "${want[@]}"; do
	cp "$src/$(basename "$f")" "$dest/$f"
done
chmod +x "$dest/scripts/checkpatch.pl"
echo "$dest/scripts/checkpatch.pl"
