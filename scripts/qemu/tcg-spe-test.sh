#!/usr/bin/env bash
# Usage: scripts/qemu/tcg-spe-test.sh SRC QEMU OUT
#
# Builds and runs the FEAT_SPE system test of the QEMU series (patch 0009,
# tests/tcg/aarch64/system/spe.c) with QEMU's own tests/tcg make rules, as
# `make check-tcg` would for aarch64-softmmu, and prints TAP (one result
# for the build, one for the run; the plan last).
#   SRC    a QEMU source tree with the series applied (fetch-qemu.sh
#          --work-tree): only read
#   QEMU   the qemu-system-aarch64 to run it on (fetch-qemu.sh)
#   OUT    the build directory, made; the test's output is OUT/spe.out
#
# The test is bare metal: tests/tcg/aarch64/system/boot.S (EL1, the MMU
# on, semihosting), kernel.ld and tests/tcg/minilib, linked by the
# Makefile.softmmu-target rules with the -march its config-cc.mak detects;
# `run-spe` runs it with that Makefile's QEMU_OPTS for it (-M virt -cpu
# max,spe=on, semihosting to OUT/spe.out) under its timeout, and
# `run-spe-el3` and `run-spe-el2` run the same binary at EL3 of -M
# virt,secure=on and at EL2 of -M virt,virtualization=on (to
# OUT/spe-el3.out, OUT/spe-el2.out); the exit status each run passes to
# semihosting's SYS_EXIT is its result.
# Without a configured QEMU build directory, make is given what configure
# would: TARGET, the cross compiler, and the QEMU to run.  `-nic none`:
# the project's QEMU is built without the firmware blobs, so the virt
# board's default NIC (which wants efi-virtio.rom) cannot start.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"

if [ $# -ne 3 ]; then
	echo "usage: ${0##*/} SRC QEMU OUT" >&2
	exit 2
fi
src=$1 qemu=$2 out=$3
cc=${SPE_TCG_CC:-aarch64-linux-gnu-gcc}
test_c=$src/tests/tcg/aarch64/system/spe.c

if [ ! -f "$test_c" ]; then
	tap_fail "tests/tcg/aarch64/system/spe.c is in the patched QEMU tree" "no $test_c"
	tap_done
	exit 1
fi
if ! command -v "$cc" >/dev/null; then
	tap_skip "the FEAT_SPE tests/tcg system test" "needs $cc"
	tap_done
	exit 0
fi
mkdir -p "$out"
rm -f "$out"/spe "$out"/spe.out "$out"/spe-el3.out "$out"/spe-el2.out "$out"/config-cc.mak
# config-cc.mak (the -march detection) is remade from "Makefile", which
# configure writes in a real build directory.
: >"$out/Makefile"
make_tcg() {
	nice -n 10 make -C "$out" -f "$src/tests/tcg/Makefile.target" V=1 \
		SRC_PATH="$src" TARGET=aarch64-softmmu TARGET_NAME=aarch64 \
		CC="$cc" QEMU="$qemu -nic none" "$@"
}

if make_tcg spe >"$out/build.log" 2>&1 && [ -x "$out/spe" ]; then
	tap_ok "tests/tcg/aarch64 spe builds (boot.S, kernel.ld, minilib, -march=armv8.2-a+profile)"
else
	tap_fail "tests/tcg/aarch64 spe builds" "$(tail -n 30 "$out/build.log")"
	tap_done
	exit 1
fi

# One run of the binary: RUN-TARGET OUTPUT WHAT
run_tcg() {
	local target=$1 output=$out/$2 what=$3 start=$SECONDS rc=0 secs

	rm -f "$output"
	make_tcg "$target" >"$out/$target.log" 2>&1 || rc=$?
	secs=$((SECONDS - start))
	if [ $rc -eq 0 ] && grep -qx PASS "$output" 2>/dev/null; then
		tap_ok "tests/tcg/aarch64 $target passes $what ($secs s): $(grep -c '' "$output") lines, no FAIL"
		sed 's/^/# /' "$output"
	else
		tap_fail "tests/tcg/aarch64 $target passes $what (make $target exit $rc, $secs s)" \
			"$(cat "$output" 2>/dev/null || echo "no ${output##*/}")" "$(tail -n 10 "$out/$target.log")"
	fi
}

run_tcg run-spe spe.out "at EL1 of -cpu max,spe=on"
# At EL3 of -M virt,secure=on: only the Security state that owns the
# buffer (MDCR_EL3.NSPB) is profiled.
run_tcg run-spe-el3 spe-el3.out "at EL3 of -M virt,secure=on (the Security state that owns the buffer)"
# At EL2 of -M virt,virtualization=on: the buffer's owner (MDCR_EL2.E2PB)
# and HCR_EL2.TGE decide who samples EL1 and EL0.
run_tcg run-spe-el2 spe-el2.out "at EL2 of -M virt,virtualization=on (E2PB and TGE)"
tap_done
