#!/usr/bin/env bash
# The arm_spe selftests (selftests/arm_spe) as the kernel runs kselftests:
# dropped into each kernel's tools/testing/selftests as target arm_spe
# (with the framework of Debian's linux-source), built and installed by
# the kernel's own `make TARGETS=arm_spe install`, and run in QEMU guests of
# both kernels by the installed run_kselftest.sh, with an SPE driver
# loaded.  Each program's result becomes one line here: ok, not ok, or SKIP
# with the program's reason.  The hardware module (arm_spe) runs on QEMU's
# emulated unit (-cpu max,spe=on, Documentation/dev-tools/qemu-spe.rst): every
# program but those of the simulated unit (test_sim_*) must run there, a
# skip of any other is a failure.  The simulated SPU (arm_spe_sim) runs on
# CPUs without SPE, with an SPE node in the device tree.  Before booting,
# the discovery checks are tried on made-up sysfs trees with
# qemu-aarch64-static, so they are known to pass on a well-formed PMU and
# to fail on a malformed one.
# Default guests: arm_spe on 6.1 (profile n1, EL1, 2 CPUs) and 6.12 (v2,
# EL2 as a VHE host, 4 CPUs); arm_spe_sim on 6.1 and 6.12.  `--matrix`
# runs arm_spe on each kernel, EL1 and EL2, 2 and 4 CPUs (4 guests each, the
# profiles in turn; not part of make check); `52-guest-selftests.sh KERNEL`
# runs arm_spe (n1 EL1 2 CPUs, v2 EL2 4 CPUs) and arm_spe_sim on KERNEL.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
# shellcheck source=scripts/lib/kselftest.sh
. "$top/scripts/lib/kselftest.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
inst=$top/build/kselftest
runs=$top/build/qemu/runs/52-guest-selftests
nr_tests=$(find "$top/selftests/arm_spe" -maxdepth 1 -name 'test_*.c' | wc -l)

# KERNEL as an argument: the four default guests' configurations, all on
# that one kernel (scripts/check-debug.sh runs the debug kernels so).
# SPE_SELFTEST_KERNELS (names as scripts/lib/kernels.sh takes them; `make
# matrix` gives "all": every Debian suite from bullseye's 5.10 on) replaces
# the default 6.1 and 6.12, each kernel with its own release's framework.
mapfile -t kernels < <(spe_kernel_list ${SPE_SELFTEST_KERNELS:-6.1 6.12})
[ $# -ge 1 ] && [ "$1" != --matrix ] && kernels=("$1")
for k in "${kernels[@]}"; do
	name="kselftest target arm_spe installs in a $k tree (make TARGETS=arm_spe install)"
	if spe_kselftest_install "$k" "$inst/$k" &&
	   [ "$(grep -c '^arm_spe:test_' "$inst/$k/kselftest-list.txt")" -eq "$nr_tests" ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "$(tail -n 20 "$inst/$k.log")"
		tap_done
		exit 1
	fi
done
bin=$inst/${kernels[0]}/arm_spe

# fake_pmu DIR: an arm_spe_0 as the perf ABI describes it (perf-arm-spe.txt).
fake_pmu() {
	local p=$1/arm_spe_0
	rm -rf "$1"
	mkdir -p "$p/caps" "$p/format"
	echo 4242 >"$p/type"
	echo 0 >"$p/cpumask"
	echo 1024 >"$p/caps/min_interval"
	echo 16 >"$p/caps/count_size"
	echo config:0 >"$p/format/ts_enable"
	echo config:1 >"$p/format/pa_enable"
	echo config:2 >"$p/format/pct_enable"
	echo config:16 >"$p/format/jitter"
	echo config1:0-63 >"$p/format/event_filter"
}

fake=$top/build/selftests/fake-sysfs
discover() {
	SPE_SELFTEST_PMU_DIR=$fake qemu-aarch64-static "$bin/test_pmu_discovery" 2>&1
}
fake_pmu "$fake"
got=$(discover)
# perf_event_open is not emulated by qemu-user: only the sysfs checks pass.
if [ "$(grep -c '^ok [1-5] ' <<<"$got")" -eq 5 ]; then
	tap_ok "test_pmu_discovery accepts a well-formed arm_spe PMU's sysfs"
else
	tap_fail "test_pmu_discovery accepts a well-formed arm_spe PMU's sysfs" "$got"
fi
echo config:5 >"$fake/arm_spe_0/format/ts_enable"
echo 768x >"$fake/arm_spe_0/caps/min_interval"
got=$(discover)
if grep -q '^not ok 3 ' <<<"$got" && grep -q '^not ok 4 ' <<<"$got" &&
   grep -q 'format/ts_enable is "config:5"' <<<"$got"; then
	tap_ok "test_pmu_discovery rejects a wrong format bit and a malformed min_interval"
else
	tap_fail "test_pmu_discovery rejects a wrong format bit and a malformed min_interval" "$got"
fi
rm -rf "$fake"

# run KERNEL SMP MODULE [PROFILE EL]: the selftests with MODULE (arm_spe,
# arm_spe_sim) loaded; with PROFILE, on QEMU's emulated unit of that
# profile, the kernel at EL (el1, or el2: VHE).
run() {
	local k=$1 smp=$2 mod=$3 profile=${4:-} el=${5:-el1} ko rc=0 out where skipped
	out=$runs/$k-$mod
	where=(--spe-node)
	if [ -n "$profile" ]; then
		out=$runs/$k-$mod-$profile-$el-smp$smp
		where=(--spe-qemu "$profile")
		k="$k $mod $profile $el smp=$smp"
	else
		k="$k $mod"
	fi
	mkdir -p "$runs"
	if ! ko=$(spe_driver_ko "$1" "$mod" 2>"$out.build.log"); then
		tap_fail "$k: module builds" "$(tail -n 20 "$out.build.log")"
		return
	fi
	(
		[ "$el" = el2 ] && export SPE_QEMU_EL2=1
		"$top/scripts/qemu/run-guest.sh" --kernel "$1" --smp "$smp" "${where[@]}" \
			--load "$ko" --selftests "$inst/$1" --timeout 400 \
			--script "$top/scripts/qemu/guest/run-kselftest.sh" --out "$out"
	) 2>"$out.log" || rc=$?
	if [ ! -s "$out/results/script.rc" ]; then
		tap_fail "$k: guest boots and results come back" "$(tail -n 5 "$out.log")"
		return
	fi
	# shellcheck disable=SC1091,SC2154
	(. "$out/summary"; echo "# $k: ${wall_seconds}s wall")
	if ! grep -qx "$mod.ko 0" "$out/results/modules-load.rc"; then
		tap_fail "$k: SPE driver loads before the selftests" "$(cat "$out/results/modules-load.log")"
	fi
	spe_kselftest_relay "$k" "$out/results/kselftest.tap"
	if [ "$(grep -cE '^(not )?ok [0-9]+ selftests: arm_spe: ' "$out/results/kselftest.tap")" -eq "$nr_tests" ]; then
		tap_ok "$k: run_kselftest.sh ran all $nr_tests programs"
	else
		tap_fail "$k: run_kselftest.sh ran all $nr_tests programs" "$(tail -n 20 "$out/results/kselftest.tap")"
	fi
	if [ -n "$profile" ]; then
		skipped=$(sed -n 's/^ok [0-9]* selftests: arm_spe: \(test_[a-z_]*\) # SKIP.*/\1/p' \
			"$out/results/kselftest.tap" | grep -v '^test_sim_' | tr '\n' ' ')
		if [ -z "$skipped" ]; then
			tap_ok "$k: on the emulated unit only the simulated unit's programs (test_sim_*) skip"
		else
			tap_fail "$k: on the emulated unit only the simulated unit's programs (test_sim_*) skip" \
				"skipped: $skipped"
		fi
	fi
	[ "$rc" -eq 0 ] || tap_fail "$k: guest script exit status" "run-guest.sh exited $rc"

	spe_kernel_log_tap "$k" "$out"
}

mkdir -p "$runs"
spe_suite_spe_qemu "$runs"
echo "# the SPE QEMU built or cached in $spe_qemu_seconds s"
start=$SECONDS
if [ "${1:-}" = --matrix ]; then
	profiles=(n1 v2 full v1-min)
	i=0
	for k in "${kernels[@]}"; do
		for el in el1 el2; do
			for smp in 2 4; do
				run "$k" "$smp" arm_spe "${profiles[i++ % 4]}" "$el"
			done
		done
	done
elif [ $# -ge 1 ] || [ -n "${SPE_SELFTEST_KERNELS:-}" ]; then
	for k in "${kernels[@]}"; do
		run "$k" 2 arm_spe n1 el1
		run "$k" 4 arm_spe v2 el2
		run "$k" 2 arm_spe_sim
	done
else
	run 6.1 2 arm_spe n1 el1
	run 6.12 4 arm_spe v2 el2
	run 6.1 2 arm_spe_sim
	run 6.12 4 arm_spe_sim
fi
echo "# guests in $((SECONDS - start)) s"
tap_done
