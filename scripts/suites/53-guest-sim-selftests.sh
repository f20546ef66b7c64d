#!/usr/bin/env bash
# The arm_spe selftests (selftests/arm_spe/test_*, static arm64 TAP
# programs linking the project's decoder) against the simulated SPU
# (arm_spe_sim.ko) in 6.1 and 6.12 guests with 2 CPUs, profiles n1 and
# full (the smallest and the largest feature sets perf tools see).  Every TAP line a guest program prints becomes one
# test here, named "<kernel> <profile>: <program>: <check>"; a program
# that crashes or does not follow its plan is a failure of its own.  The
# guest script adds the module-unload and kernel-log checks.
#
#   53-guest-sim-selftests.sh [KERNEL PROFILE]...   (default: n1 and full on each)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
bin=$top/build/selftests/arm_spe-sim
runs=$top/build/qemu/runs/53-guest-sim-selftests

rm -rf "$bin"
if out=$(make -s -C "$top/selftests/arm_spe" OUTPUT="$bin" 2>&1); then
	tap_ok "selftests and the decoder build for arm64 (static, -Wall -Wextra -Werror)"
else
	tap_fail "selftests and the decoder build for arm64 (static, -Wall -Wextra -Werror)" "$out"
	tap_done
	exit 1
fi
rm -rf "$bin/spe-decode"

# relay PREFIX FILE: each TAP result line of FILE (a guest program's
# output, brought back) as a test of this suite; a file without its plan,
# or with fewer results than planned, is a failure.
relay() {
	tap_sub "$1" cat "$2"
}

# run KERNEL PROFILE
run() {
	local k=$1 profile=$2 ko rc=0 name st out res script t0
	local tag="$k $profile"
	out=$runs/$k-$profile
	mkdir -p "$runs"
	if ! ko=$(spe_driver_ko "$k" arm_spe_sim 2>"$out.build.log"); then
		tap_fail "$tag: arm_spe_sim.ko builds" "$(tail -n 20 "$out.build.log")"
		return
	fi
	script=$runs/$k-$profile.sh
	{ echo "SPE_PROFILE=$profile"; cat "$top/scripts/qemu/guest/sim-selftests.sh"; } >"$script"
	t0=$SECONDS
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --spe-node \
		--module "$ko" --selftests "$bin" --timeout 200 \
		--script "$script" --out "$out" 2>"$out.log" || rc=$?
	res=$out/results/selftests
	echo "# $tag: guest run $((SECONDS - t0)) s"
	if [ ! -s "$out/results/script.rc" ]; then
		tap_fail "$tag: guest boots and results come back" "$(tail -n 5 "$out.log")"
		return
	fi
	if [ "$(cat "$res/insmod.rc" 2>/dev/null)" != 0 ]; then
		tap_fail "$tag: arm_spe_sim.ko profile=$profile loads" "$(cat "$res/insmod.log")"
		return
	fi
	for t in "$bin"/test_*; do
		name=$(basename "$t")
		st=$(cat "$res/$name.rc" 2>/dev/null || echo missing)
		[ -f "$res/$name.time" ] && echo "# $tag: $name ran $(awk '{printf "%.1f", $2 - $1}' "$res/$name.time") s"
		relay "$tag: $name" "$res/$name.tap"
		case $st in
		0 | 4) ;;
		1) grep -q '^not ok' "$res/$name.tap" ||
			tap_fail "$tag: $name exits 1 without a failed check" "$(tail -n 5 "$res/$name.tap")" ;;
		*) tap_fail "$tag: $name exit status $st (crash or timeout)" "$(tail -n 10 "$res/$name.tap")" ;;
		esac
	done
	relay "$tag: guest" "$res/guest.tap"
	spe_kernel_log_tap "$tag" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$tag: guest script exit status" "run-guest.sh exited $rc"
}

# Arguments (for a quicker look while developing): KERNEL PROFILE pairs.
[ $# -gt 0 ] || set -- 6.1 n1 6.1 full 6.12 n1 6.12 full
start=$SECONDS boots=0
while [ $# -ge 2 ]; do
	run "$1" "$2"
	boots=$((boots + 1))
	shift 2
done
echo "# $boots boots in $((SECONDS - start)) s"
tap_done
