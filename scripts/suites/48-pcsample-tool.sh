#!/usr/bin/env bash
# pcsample-record (tools/pcsample), the recorder of arm_pcsample: its AUX
# walk over records packed as the driver packs them (include/pcsample/
# record.h, the one definition of the format; ASan + UBSan), its
# events opened and side band read through libperf (linked statically,
# host and arm64; unit test on a CPU-wide software event when this host
# allows one), its
# perf.data output (unit test, then host perf report must name the
# function the made-up samples point at), its
# arm64 cross-build, and its errors on this host, which has no such PMU:
# bad options exit 2 naming the problem, a missing PMU exits 1 saying what
# to load, and no output file is left behind.  Recording itself needs the
# emulated PMU frame (not yet in the QEMU series).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"

out=$top/build/pcsample
if log=$(make -s -C "$top/tools/pcsample" O="$out" "$out/pcsample-record" "$out/test_pcsample_aux" \
	"$out/test_pcsample_perf_data" "$out/test_pcsample_session" 2>&1); then
	tap_ok "pcsample-record and its unit tests build with -Wall -Wextra -Werror"
else
	tap_fail "pcsample-record and its unit tests build with -Wall -Wextra -Werror" "$log"
	tap_done
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The record format is an ABI between module and tool: the tool takes it
# from include/pcsample/ and nothing else of the driver (its build's
# commands, as make would run them, name no file under drivers/).
if cmds=$(make -s -C "$top/tools/pcsample" -B -n O="$tmp/dry" "$tmp/dry/pcsample-record" 2>&1) &&
   ! grep -q 'drivers/' <<<"$cmds"; then
	tap_ok "pcsample-record builds from include/pcsample/, nothing under drivers/"
else
	tap_fail "pcsample-record builds from include/pcsample/, nothing under drivers/" \
		"$(grep -o '[^ ]*drivers/[^ ]*' <<<"$cmds" | sort -u | head -5)"
fi

# unit_test NAME ARGS...: one test point per TAP line of the unit test.
unit_test() {
	local name=$1 line
	shift
	while IFS= read -r line; do
		case $line in
		"ok "*) tap_ok "$name: ${line#ok * - }" ;;
		"not ok "*) tap_fail "$name: ${line#not ok * - }" ;;
		"# exit 0" | 1..* | "") ;;
		"# exit "*) tap_fail "$name exits cleanly" "${line#\# }" ;;
		*) echo "$line" ;;
		esac
	done < <("$out/$name" "$@"; st=$?; echo; echo "# exit $st")
}
unit_test test_pcsample_aux
unit_test test_pcsample_perf_data "$tmp/made-up.data"
unit_test test_pcsample_session

# libperf_linked NM BINARY: the events are libperf's, linked in (static):
# its evlist, its ring reading, and no perf_event_open of our own.
libperf_linked() {
	local syms
	syms=$("$1" "$2" 2>&1) || { echo "$syms"; return 1; }
	for f in perf_evlist__open perf_evlist__mmap perf_mmap__read_event perf_mmap__consume; do
		grep -Eq " T $f\$" <<<"$syms" || { echo "no $f in $2"; return 1; }
	done
	if grep -q 'SYS_perf_event_open\|syscall(SYS_perf' "$top"/tools/pcsample/*.c; then
		echo "tools/pcsample opens events by syscall besides libperf"
		return 1
	fi
}
tap_check "pcsample-record links libperf statically (perf_evlist__open, perf_mmap__read_event...)" \
	libperf_linked nm "$out/pcsample-record"

# Stock perf reads the file and names the samples' function: 90 of the
# 100 made-up samples point into hot_loop() of the test program.
if [ ! -s "$tmp/made-up.data" ]; then
	tap_fail "perf report names the samples of pcsample-record's perf.data" "no file written"
elif rep=$(perf report -i "$tmp/made-up.data" --stdio --sort sym 2>&1) &&
     grep -Eq '^ +90\.00% +\[\.\] hot_loop$' <<<"$rep" &&
     grep -q "of event 'arm_pcsample//'" <<<"$rep"; then
	tap_ok "perf report names the samples of pcsample-record's perf.data (90% hot_loop)"
else
	tap_fail "perf report names the samples of pcsample-record's perf.data" "$rep"
fi
if make -s -C "$top/tools/pcsample" O="$tmp/arm64" CC=aarch64-linux-gnu-gcc \
	"$tmp/arm64/pcsample-record" >"$tmp/cross.log" 2>&1 &&
   file "$tmp/arm64/pcsample-record" | grep_q 'ARM aarch64'; then
	tap_ok "pcsample-record cross-builds for arm64, warning-free"
	tap_check "the arm64 pcsample-record links the arm64 libperf statically" \
		libperf_linked aarch64-linux-gnu-nm "$tmp/arm64/pcsample-record"
else
	tap_fail "pcsample-record cross-builds for arm64, warning-free" "$(cat "$tmp/cross.log")"
fi

rec=$out/pcsample-record
# expect STATUS MESSAGE ARGS...: exit status and a message naming the problem.
expect() {
	local want=$1 msg=$2 got err
	shift 2
	err=$("$rec" "$@" 2>&1 >/dev/null)
	got=$?
	if [ "$got" -eq "$want" ] && grep -qF -- "$msg" <<<"$err"; then
		tap_ok "pcsample-record $*: exit $want, \"$msg\""
	else
		tap_fail "pcsample-record $*: exit $want, \"$msg\"" "exit $got: $err"
	fi
}
expect 2 'bad CPU list near "x"' -C 1,x
expect 2 'the driver samples every 10 us to 1 s' -c 5000
expect 2 'the driver samples every 10 us to 1 s' -F 200000
expect 2 '-c and -F exclude each other' -c 100000 -F 100
expect 2 'must be a power of two pages' -m 3
expect 2 'the duration must be 1 to 86400 seconds' -d 0
expect 2 '-d wants a number, not "soon"' -d soon
expect 2 'unexpected argument "now"' now
expect 2 '-o and -P name the same file' -o "$tmp/x" -P "$tmp/x"
expect 2 'CPU 3 is listed twice' -C 1,3,2-3
if [ -d /sys/bus/event_source/devices/arm_pcsample ]; then
	tap_skip "without the PMU: exit 1 and no output file" "this machine has arm_pcsample"
else
	expect 1 'no arm_pcsample PMU' -C 1 -d 1 -o "$tmp/samples.txt"
	if ls "$tmp"/samples.txt* >/dev/null 2>&1; then
		tap_fail "a failed recording leaves no output file" "$(ls "$tmp")"
	else
		tap_ok "a failed recording leaves no output file"
	fi
fi
tap_done
