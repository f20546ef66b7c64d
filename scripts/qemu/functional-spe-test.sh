#!/usr/bin/env bash
# Usage: scripts/qemu/functional-spe-test.sh SRC QEMU OUT
#
# Runs the functional test of the QEMU series (patch 0010,
# tests/functional/aarch64/test_spe.py) with QEMU's own functional test
# framework, as `make check-functional-aarch64` would, and prints TAP: one
# result per test of the file, then the plan.
#   SRC    a QEMU source tree with the series applied (fetch-qemu.sh
#          --work-tree): only read
#   QEMU   the qemu-system-aarch64 to run it on (fetch-qemu.sh)
#   OUT    the directory the framework writes its logs under, made
#
# The test boots Debian 12's kernel with an initramfs it writes (a static
# busybox and arm_spe_pmu.ko) and checks that the kernel's driver probes
# the unit with spe=on and finds nothing without it.  Its two assets are
# Debian packages pinned by SHA-256 in the test.  The framework would
# download them from their URLs; here they come from Debian's archive
# through scripts/fetch-debs.sh (the project's one way to get packages)
# and are put into the framework's cache under their hash, and the
# framework is told not to download.  A pinned version the archive no
# longer has is a skip that names it, with the line of the test to
# update.  The framework's Python module pycotap comes from trixie's
# package, unpacked, as for the QEMU build.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/apt.sh
. "$top/scripts/lib/apt.sh"

if [ $# -ne 3 ]; then
	echo "usage: ${0##*/} SRC QEMU OUT" >&2
	exit 2
fi
src=$1 qemu=$2 out=$3
test_py=$src/tests/functional/aarch64/test_spe.py
# The packages the test's assets are, as PACKAGE=VERSION for their suite.
kernel_pkg=linux-image-6.1.0-56-arm64-unsigned:arm64=6.1.192-2
busybox_pkg=busybox-static:arm64=1:1.30.1-6+b3

if [ ! -f "$test_py" ]; then
	tap_fail "tests/functional/aarch64/test_spe.py is in the patched QEMU tree" "no $test_py"
	tap_done
	exit 1
fi
mkdir -p "$out"
cache=$spe_cache/qemu/functional
mkdir -p "$cache/download"

# fetch_asset SUITE PACKAGE=VERSION: the package into the framework's
# cache, named by its SHA-256 as the framework names its downloads.
fetch_asset() {
	local deb sum
	deb=$("$top/scripts/fetch-debs.sh" --suite "$1" --into "$cache/unpacked" --list "$2" 2>>"$out/fetch.log") ||
		return 1
	sum=$(sha256sum "$deb" | cut -d' ' -f1)
	if [ ! -f "$cache/download/$sum" ]; then
		cp "$deb" "$cache/download/$sum.tmp" &&
			mv -f "$cache/download/$sum.tmp" "$cache/download/$sum" || return 1
	fi
	echo "$sum"
}
: >"$out/fetch.log"
missing=''
for spec in "bookworm $kernel_pkg" "bullseye $busybox_pkg"; do
	read -r suite pkg <<<"$spec"
	sum=$(fetch_asset "$suite" "$pkg") || { missing+=" $pkg"; continue; }
	grep -q "'$sum'" "$test_py" ||
		missing+=" $pkg (SHA-256 $sum is not the one test_spe.py pins)"
done
pycotap=$cache/pytools
if ! "$top/scripts/fetch-debs.sh" --suite trixie --into "$pycotap" python3-pycotap >>"$out/fetch.log" 2>&1; then
	tap_fail "trixie's python3-pycotap for QEMU's functional test framework" "$(tail -n 5 "$out/fetch.log")"
	tap_done
	exit 1
fi
if [ -n "$missing" ]; then
	tap_skip "the FEAT_SPE functional test" \
		"Debian's archive no longer has what its assets pin:$missing; update the ASSET_ lines of $test_py ($(tail -n 2 "$out/fetch.log" | tr '\n' ' '))"
	tap_done
	exit 0
fi

# The framework prints TAP of its own; each of its results becomes one of
# ours, and anything else (its logs' paths on a failure) a diagnostic.
env QEMU_TEST_CACHE_DIR="$cache" QEMU_TEST_NO_DOWNLOAD=1 QEMU_BUILD_ROOT="$out" \
	QEMU_TEST_QEMU_BINARY="$qemu" \
	PYTHONPATH="$src/python:$src/tests/functional:$pycotap/usr/lib/python3/dist-packages" \
	timeout 900 nice -n 10 /usr/bin/python3 "$test_py" >"$out/test.tap" 2>"$out/test.log"
rc=$?
n=0
while IFS= read -r line; do
	case $line in
	"ok "*"# SKIP"*) tap_skip "functional: ${line#ok [0-9]* }" "the framework skipped it"; n=$((n + 1)) ;;
	"ok "*) tap_ok "functional: ${line#ok [0-9]* }"; n=$((n + 1)) ;;
	"not ok "*)
		name=${line#not ok [0-9]* }
		tap_fail "functional: $name" "$(tail -n 20 "$out/tests/functional/aarch64/$name/console.log" 2>&1)" \
			"$(tail -n 15 "$out/test.log")"
		n=$((n + 1)) ;;
	esac
done <"$out/test.tap"
if [ "$n" -eq 0 ] || { [ "$rc" -ne 0 ] && [ "$tap_failed" -eq 0 ]; }; then
	tap_fail "the functional test runs (exit $rc)" "$(tail -n 20 "$out/test.log")"
fi
tap_done
