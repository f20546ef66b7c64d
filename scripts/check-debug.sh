#!/usr/bin/env bash
# The guest suites and a bounded stress run on the debug kernels (make
# check-debug; not part of make check).
#
# Usage: scripts/check-debug.sh [--stress-seconds S] [kasan|kcsan]...
#
#   kasan|kcsan       the configurations (scripts/build-debug-kernel.sh):
#                     both by default; the first run builds them
#   --stress-seconds  scripts/stress.sh's time per configuration (default
#                     300; 0 skips the stress runs)
#
# On each debug kernel: first, bugs of each class the kernel's checkers
# look for, put into a throwaway copy of the simulated unit's module, must
# be reported (scripts/debug-kernel/inject.sh); then the selftests (52: the hardware module on QEMU's
# emulated unit at EL1 and EL2, and the simulated unit), the simulated
# unit's selftests and perf suites (53, 55), the fault injection (54), the
# emulated unit with both the hardware module and the kernel's arm_spe_pmu
# (58, 59, 60), the PC-sample PMU (61), and scripts/stress.sh.  Every guest
# ends with a kmemleak scan (scripts/qemu/init.sh), and every suite fails
# on any report in the kernel log (scripts/lib/guest-results.sh): lockdep,
# KASAN, UBSAN, kmemleak, KCSAN, DEBUG_OBJECTS, sleeping in atomic context,
# list corruption, or any other warning, whoever's code it names.
#
# The logs are in build/test-logs/debug/; the last line is "N passed,
# N failed, N skipped", counting the suites' tests and one test per stress
# configuration.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/suite-run.sh
. "$top/scripts/lib/suite-run.sh"

stress_seconds=300 flavours=()
while [ $# -gt 0 ]; do
	case $1 in
	--stress-seconds) stress_seconds=$2; shift 2 ;;
	kasan | kcsan) flavours+=("$1"); shift ;;
	-h | --help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "check-debug.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ ${#flavours[@]} -gt 0 ] || flavours=(kasan kcsan)
[[ $stress_seconds =~ ^[0-9]+$ ]] || { echo "check-debug.sh: --stress-seconds takes seconds" >&2; exit 2; }

logdir=$top/build/test-logs/debug
mkdir -p "$logdir"

# One suite's run: NAME LOG-TAG SUITE ARG...
suite() {
	local tag=$1 name=$2
	shift 2
	spe_suite_run "$tag $name $*" "$logdir/$tag-$name-${*// /-}.log" \
		bash "$top/scripts/suites/$name.sh" "$@"
}

for k in "${flavours[@]}"; do
	start=$SECONDS
	if ! "$top/scripts/build-debug-kernel.sh" "$k" >"$logdir/$k-build.log" 2>&1; then
		echo "not ok - the $k debug kernel builds"
		tail -n 15 "$logdir/$k-build.log" | sed 's/^/    /'
		spe_failed=$((spe_failed + 1))
		continue
	fi
	echo "# the $k kernel built or cached in $((SECONDS - start)) s"
	spe_suite_run "$k injected bugs" "$logdir/$k-inject.log" \
		"$top/scripts/debug-kernel/inject.sh" "$k"
	suite "$k" 52-guest-selftests "$k"
	suite "$k" 53-guest-sim-selftests "$k" n1 "$k" full
	suite "$k" 54-qemu-spe-faults "$k" v2 el2
	suite "$k" 55-guest-sim-perf "$k"
	suite "$k" 55-guest-sim-perf "$k" el2
	suite "$k" 58-qemu-spe "$k" n1 el1
	suite "$k" 59-qemu-spe-sampling "$k" v2 el2
	suite "$k" 60-qemu-spe-perf "$k" v2 el1 4
	suite "$k" 61-qemu-pcsample "$k" el1
	if [ "$stress_seconds" -gt 0 ]; then
		spe_suite_run "$k stress" "$logdir/$k-stress.log" "$top/scripts/stress.sh" --tap \
			--loop mixed --seconds "$stress_seconds" --out "$top/build/stress-debug" \
			"$k-el1-2" "$k-el2-4"
	fi
	echo "# $k: $((SECONDS - start)) s"
done
spe_suite_summary
