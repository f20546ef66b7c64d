#!/usr/bin/env bash
# The SPE driver (drivers/perf, hardware backend) in QEMU guests whose CPUs
# have no SPE (issue 5 item 5), on Debian's 6.1 and 6.12 arm64 kernels:
#   with the SPE device-tree node: it loads, says the CPUs have no SPE,
#     registers no PMU, leaves the device unbound, unloads cleanly, and a
#     second load/unload cycle behaves the same (nothing left behind);
#     it also loads while the in-tree arm_spe_pmu is loaded (whose probe
#     fails on these CPUs);
#   without the node: it loads, says there is nothing to do, unloads.
# In every run: no kernel warning, BUG, oops or list/refcount corruption
# (slub_debug is on), the only taints are out-of-tree/unsigned module, and
# the hotplug state, interrupts, driver and PMU it registered are all gone
# after the unload.
#
# The in-tree arm_spe_pmu can never bind on its own here: the guest has no
# udev and the image carries no module tree, so nothing autoloads it; each
# run records the device's driver at boot ("none") and /proc/modules.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/kernel-log.sh
. "$top/scripts/lib/kernel-log.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
runs=$top/build/qemu/runs/51-guest-driver-load
guest=$top/scripts/qemu/guest/driver-load.sh

if [ ! -x "$top/scripts/build-module.sh" ] || [ ! -f "$top/drivers/perf/Kbuild" ]; then
	tap_skip "SPE driver load tests" "the driver (drivers/perf, scripts/build-module.sh) is not in this tree"
	tap_done
	exit 0
fi

# check NAME FILE EXPECTED: FILE in the results holds exactly EXPECTED.
check_file() {
	local got
	got=$(cat "$out/results/$2" 2>/dev/null || echo "(missing)")
	if [ "$got" = "$3" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "$2: expected '$3', got '$got'"
	fi
}

# Kernel log between the markers "spe-test: FROM" and "spe-test: TO".
log_between() {
	sed -n "/spe-test: $1\$/,/spe-test: $2\$/p" "$out/results/dmesg.txt"
}

# run KERNEL SMP NODE
run() {
	local k=$1 smp=$2 node=$3 name ko rc=0 mods=()
	name="$k smp=$smp ${node#--}"
	out=$runs/$k-smp$smp-${node#--}
	mkdir -p "$runs"
	if [ -z "${failed[$k]:-}" ] && ! ko=$(spe_driver_ko "$k" 2>"$runs/build-$k.log"); then
		failed[$k]=1
		tap_fail "$k: hardware driver builds" "$(tail -n 20 "$runs/build-$k.log")"
	fi
	if [ -n "${failed[$k]:-}" ]; then
		tap_skip "$name: driver load tests" "the $k build failed"
		return
	fi
	mods=(--module "$ko")
	[ "$node" = --spe-node ] && mods+=(--module arm_spe_pmu)
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp "$smp" "$node" "${mods[@]}" \
		--append "slub_debug=FZPU" --timeout 180 --script "$guest" --out "$out" \
		2>"$out.log" || rc=$?
	if [ ! -s "$out/results/script.rc" ]; then
		tap_fail "$name: guest boots and results come back" "$(tail -n 5 "$out.log")"
		return
	fi
	# shellcheck disable=SC1091,SC2154
	(. "$out/summary"; echo "# $name: ${wall_seconds}s wall")
	local last=$((smp - 1)) bind
	bind=$(cat "$out/results/bind-boot")

	if [ "$node" = --spe-node ]; then
		if [ "$bind" = "spe-pmu=none" ] &&
		   ! grep -q '^arm_spe' "$out/results/lsmod-boot"; then
			tap_ok "$name: at boot the SPE device is unbound and no SPE module is loaded"
		else
			tap_fail "$name: at boot the SPE device is unbound and no SPE module is loaded" \
				"$bind" "$(cat "$out/results/lsmod-boot")"
		fi
		check_file "$name: in-tree arm_spe_pmu loads, its probe fails (unbound)" \
			bind-intree "spe-pmu=none"
	fi
	local n
	for n in 1 2; do
		check_file "$name: load $n succeeds" insmod$n.rc 0
		local said
		said=$(log_between "insmod $n" "rmmod $n" | grep -i 'arm_spe' | grep -i 'no SPE')
		if [ "$node" = --spe-node ]; then
			if grep -q "0-$last" <<<"$said"; then
				tap_ok "$name: load $n reports CPUs 0-$last have no SPE"
			else
				tap_fail "$name: load $n reports CPUs 0-$last have no SPE" \
					"$(log_between "insmod $n" "rmmod $n")"
			fi
			check_file "$name: load $n leaves the device unbound" bind-loaded$n "spe-pmu=none"
		elif [ -n "$said" ]; then
			tap_ok "$name: load $n reports there is no SPE device"
		else
			tap_fail "$name: load $n reports there is no SPE device" \
				"$(log_between "insmod $n" "rmmod $n")"
		fi
		if grep -qi 'spe' "$out/results/pmus-loaded$n"; then
			tap_fail "$name: load $n registers no SPE PMU" "$(cat "$out/results/pmus-loaded$n")"
		else
			tap_ok "$name: load $n registers no SPE PMU"
		fi
		check_file "$name: unload $n succeeds" rmmod$n.rc 0
	done
	[ "$node" = --spe-node ] && check_file "$name: in-tree arm_spe_pmu unloads" intree-rmmod.rc 0

	if diff -u "$out/results/res-before" "$out/results/res-after" >"$out/res.diff"; then
		tap_ok "$name: nothing left registered after unload"
	else
		tap_fail "$name: nothing left registered after unload" "$(cat "$out/res.diff")"
	fi
	spe_kernel_log_tap "$name" "$out"
	# Allowed taints: O (4096, out-of-tree module) and E (8192, unsigned).
	local t
	t=$(cat "$out/results/tainted")
	if [[ $t =~ ^[0-9]+$ ]] && [ $((t & ~(4096 | 8192))) -eq 0 ]; then
		tap_ok "$name: kernel taint only out-of-tree/unsigned ($t)"
	else
		tap_fail "$name: kernel taint only out-of-tree/unsigned" "tainted=$t"
	fi
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

declare -A failed	# kernels the driver does not build for
start=$SECONDS
run 6.1 2 --spe-node
run 6.12 4 --spe-node
run 6.1 4 --no-spe-node
run 6.12 2 --no-spe-node
echo "# 4 boots in $((SECONDS - start)) s"
tap_done
