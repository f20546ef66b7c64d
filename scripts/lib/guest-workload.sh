# shellcheck shell=bash
# What the suites that record in a QEMU guest share.  Sourced after
# scripts/lib/tap.sh; expects $top.
#
#   spe_guest_suite_prereqs WHAT   skip the whole suite (exit 0) when the host
#                                  lacks perf, the arm64 cross compiler or QEMU;
#                                  fail it (exit 1) when spe-decode does not build
#   spe_build_spin OUT             cross-compile the spe_spin workload (static,
#                                  -g for symbols) to OUT; compiler output in OUT.log
#   spe_suite_build_spin OUT       the same in a suite: on failure, a failed test
#                                  with the compiler output, and the suite ends
#   spe_suite_spe_qemu RUNS        build or reuse QEMU with the emulated SPU
#                                  (scripts/fetch-qemu.sh, its log in RUNS),
#                                  export SPE_QEMU_BIN and set
#                                  spe_qemu_seconds; on failure, a failed test
#                                  with the build's last lines, and the suite ends
#   spe_guest_suite_begin NAME WHAT
#                                  the start of a suite that records spe_spin
#                                  in guests of the SPE QEMU: sources the
#                                  guest-results, driver and perf-dump
#                                  libraries, sets runs (build/qemu/runs/NAME,
#                                  made), guest (scripts/qemu/guest/NAME.sh
#                                  without NAME's number), decode (spe-decode)
#                                  and spin ($runs/spe_spin), then runs
#                                  spe_guest_suite_prereqs WHAT,
#                                  spe_suite_spe_qemu (saying how long it
#                                  took) and spe_suite_build_spin
#   spe_bench_begin NAME           the start of a guest benchmark: runs
#                                  (build/bench/NAME, made); skipped (exit 0)
#                                  without perf, the cross compiler or QEMU

spe_guest_suite_prereqs() {
	if ! command -v perf >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null ||
	   ! command -v qemu-system-aarch64 >/dev/null; then
		tap_skip "$1" "needs host perf, aarch64-linux-gnu-gcc and qemu-system-aarch64"
		tap_done
		exit 0
	fi
	if ! make -s -C "$top/tools/spe-decode" >/dev/null 2>&1; then
		tap_fail "spe-decode builds"
		tap_done
		exit 1
	fi
}

spe_build_spin() {
	mkdir -p "$(dirname "$1")"
	aarch64-linux-gnu-gcc -O2 -g -static -Wall -Wextra -Werror -o "$1" \
		"$top/selftests/arm_spe/workloads/spe_spin.c" >"$1.log" 2>&1
}

spe_suite_build_spin() {
	spe_build_spin "$1" && return 0
	tap_fail "spe_spin cross-compiles" "$(cat "$1.log")"
	tap_done
	exit 1
}

spe_suite_spe_qemu() {
	local start=$SECONDS
	if ! SPE_QEMU_BIN=$("$top/scripts/fetch-qemu.sh" 2>"$1/fetch-qemu.log"); then
		tap_fail "the SPE QEMU builds (scripts/fetch-qemu.sh)" "$(tail -n 20 "$1/fetch-qemu.log")"
		tap_done
		exit 1
	fi
	export SPE_QEMU_BIN
	spe_qemu_seconds=$((SECONDS - start))
}

spe_guest_suite_begin() {
	# shellcheck source=scripts/lib/guest-results.sh
	. "$top/scripts/lib/guest-results.sh"
	# shellcheck source=scripts/lib/driver.sh
	. "$top/scripts/lib/driver.sh"
	# shellcheck source=scripts/lib/perf-dump.sh
	. "$top/scripts/lib/perf-dump.sh"
	runs=$top/build/qemu/runs/$1
	# shellcheck disable=SC2034 # for the suite that calls this
	guest=$top/scripts/qemu/guest/${1#[0-9]*-}.sh
	# shellcheck disable=SC2034
	decode=$top/build/spe-decode/spe-decode
	spin=$runs/spe_spin
	spe_guest_suite_prereqs "$2"
	mkdir -p "$runs"
	spe_suite_spe_qemu "$runs"
	echo "# the SPE QEMU built or cached in $spe_qemu_seconds s"
	spe_suite_build_spin "$spin"
}

# spe_bench_begin NAME: the start of a guest benchmark (scripts/bench.d/):
# runs=build/bench/NAME, created; exits 0 saying what is missing when the
# host lacks perf, the arm64 compiler or QEMU (a benchmark is skipped, not
# failed, there).
spe_bench_begin() {
	local t
	runs=$top/build/bench/$1
	mkdir -p "$runs"
	for t in perf aarch64-linux-gnu-gcc qemu-system-aarch64; do
		command -v "$t" >/dev/null || { echo "$1 bench: skipped, needs $t"; exit 0; }
	done
}
