#!/usr/bin/env bash
# The SPE driver (drivers/perf, hardware backend) in QEMU guests whose CPUs
# have no SPE (issue 5 item 5), on Debian's 6.1 and 6.12 arm64 kernels:
#   with the SPE device-tree node: it loads, says the CPUs have no SPE,
#     registers no PMU, leaves the device unbound, unloads cleanly, and a
#     second load/unload cycle behaves the same (nothing left behind);
#     it also loads while the in-tree arm_spe_pmu is loaded (whose probe
#     fails on these CPUs);
#   without the node: it loads, says there is nothing to do, unloads.
# The module is the one DKMS builds and installs (scripts/build-dkms.sh),
# and everything it registers carries its own name (issue 15): the
# platform driver /sys/bus/platform/drivers/arm_spe, /sys/module/arm_spe,
# the kernel-log prefix "arm_spe spe-pmu:" / "arm_spe:".  With the node,
# arm_spe_sim.ko (its own build) is loaded too: its driver, module, log
# prefix and PMBIRQ line in /proc/interrupts say arm_spe_sim, and loading
# either module while the other is loaded is refused with a message that
# names the other one.  (The hardware module requests the PMBIRQ only on
# CPUs with SPE, so its interrupt line cannot appear here.)
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
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
runs=$top/build/qemu/runs/51-guest-driver-load
guest=$top/scripts/qemu/guest/driver-load.sh

if [ ! -x "$top/scripts/build-spe-module.sh" ] || [ ! -f "$top/drivers/perf/Kbuild" ]; then
	tap_skip "SPE driver load tests" "the driver (drivers/perf, scripts/build-spe-module.sh) is not in this tree"
	tap_done
	exit 0
fi

# check NAME FILE EXPECTED: FILE in the results holds exactly EXPECTED.
check_file() {
	spe_result_is "$1" "$out" "$2" "$3"
}

# Kernel log between the markers "spe-test: FROM" and "spe-test: TO".
log_between() {
	sed -n "/spe-test: $1\$/,/spe-test: $2\$/p" "$out/results/dmesg.txt"
}

# has_line NAME FILE LINE...: every LINE is a line of FILE in the results.
has_lines() {
	local name=$1 file=$2 l missing=''
	shift 2
	for l in "$@"; do
		grep -qxF -- "$l" "$out/results/$file" 2>/dev/null || missing+=" '$l'"
	done
	if [ -z "$missing" ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "$file lacks$missing" "$(cat "$out/results/$file" 2>/dev/null)"
	fi
}

# lacks NAME FILE REGEX: no line of FILE matches REGEX.
lacks() {
	if grep -qE -- "$3" "$out/results/$2" 2>/dev/null; then
		tap_fail "$1" "$(grep -E -- "$3" "$out/results/$2")"
	else
		tap_ok "$1"
	fi
}

# log_has NAME FROM TO FIXED-STRING: the kernel log between the markers has
# a line with FIXED-STRING right after the timestamp.
log_has() {
	local log
	log=$(log_between "$2" "$3")
	if grep -qF -- "] $4" <<<"$log"; then
		tap_ok "$1"
	else
		tap_fail "$1" "no '$4' in:" "$log"
	fi
}

# The module files themselves (the guest's busybox modinfo needs a module
# tree; suite 57 has one).
check_modinfo() {
	local got
	got=$(modinfo -F name "$2")
	if [ "$got" = "$3" ]; then
		tap_ok "$1: modinfo names $(basename "$2") $3"
	else
		tap_fail "$1: modinfo names $(basename "$2") $3" "got '$got'"
	fi
}

# Both modules loaded in turn, and each refused while the other is loaded
# (guest script's sim phase; the node is present, the in-tree module loaded).
check_sim_phase() {
	local name=$1
	check_file "$name: arm_spe_sim loads" sim-insmod.rc 0
	check_file "$name: arm_spe_sim binds the device under its own name" bind-sim "spe-pmu=arm_spe_sim"
	has_lines "$name: arm_spe_sim's platform driver, module and PMBIRQ line are named arm_spe_sim" \
		names-sim /sys/bus/platform/drivers/arm_spe_sim /sys/module/arm_spe_sim "irq arm_spe_sim"
	lacks "$name: nothing registered as arm_spe or a joined name while arm_spe_sim is loaded" \
		names-sim '(/|irq )arm_spe$|:'
	log_has "$name: arm_spe_sim's log prefix is 'arm_spe_sim spe-pmu:'" "sim insmod" "hw while sim" \
		"arm_spe_sim spe-pmu: registered arm_spe_0 (simulated backend)"
	if [ "$(cat "$out/results/hw-while-sim.rc" 2>/dev/null)" != 0 ] &&
	   ! grep -qE '/arm_spe$' "$out/results/names-hw-while-sim"; then
		tap_ok "$name: arm_spe is refused while arm_spe_sim is loaded, and leaves nothing"
	else
		tap_fail "$name: arm_spe is refused while arm_spe_sim is loaded, and leaves nothing" \
			"rc=$(cat "$out/results/hw-while-sim.rc" 2>/dev/null)" "$(cat "$out/results/names-hw-while-sim")"
	fi
	log_has "$name: the refusal of arm_spe says arm_spe_sim is loaded and how to unload it" \
		"hw while sim" "sim rmmod" \
		'arm_spe: module arm_spe_sim is loaded, the other build of this driver; both drive the same SPE device and register the same PMU names, so only one can be loaded: run "rmmod arm_spe_sim" first'
	check_file "$name: arm_spe_sim unloads" sim-rmmod.rc 0
	check_file "$name: arm_spe loads after arm_spe_sim is gone" hw-before-sim.rc 0
	if [ "$(cat "$out/results/sim-while-hw.rc" 2>/dev/null)" != 0 ] &&
	   ! grep -q 'arm_spe_sim' "$out/results/names-sim-while-hw"; then
		tap_ok "$name: arm_spe_sim is refused while arm_spe is loaded, and leaves nothing"
	else
		tap_fail "$name: arm_spe_sim is refused while arm_spe is loaded, and leaves nothing" \
			"rc=$(cat "$out/results/sim-while-hw.rc" 2>/dev/null)" "$(cat "$out/results/names-sim-while-hw")"
	fi
	log_has "$name: the refusal of arm_spe_sim says arm_spe is loaded and how to unload it" \
		"sim while hw" "hw rmmod" \
		'arm_spe_sim: module arm_spe is loaded, the other build of this driver; both drive the same SPE device and register the same PMU names, so only one can be loaded: run "rmmod arm_spe" first'
	check_file "$name: arm_spe unloads" hw-rmmod.rc 0
}

# run KERNEL SMP NODE
run() {
	local k=$1 smp=$2 node=$3 name ko simko rc=0 mods=()
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
	if [ "$node" = --spe-node ] && [ -z "${failed[$k]:-}" ] && [ -z "${simfailed[$k]:-}" ] &&
	   ! simko=$(spe_driver_ko "$k" arm_spe_sim 2>"$runs/build-sim-$k.log"); then
		simfailed[$k]=1
		tap_fail "$k: simulated driver builds" "$(tail -n 20 "$runs/build-sim-$k.log")"
	fi
	if [ -z "${checked[$k]:-}" ]; then
		checked[$k]=1
		check_modinfo "$k" "$ko" arm_spe
		[ -n "${simko:-}" ] && check_modinfo "$k" "$simko" arm_spe_sim
	fi
	mods=(--module "$ko")
	[ "$node" = --spe-node ] && mods+=(--module arm_spe_pmu)
	[ "$node" = --spe-node ] && [ -n "${simko:-}" ] && mods+=(--module "$simko")
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp "$smp" "$node" "${mods[@]}" \
		--append "slub_debug=FZPU" --timeout 180 --script "$guest" --out "$out" \
		2>"$out.log" || rc=$?
	spe_guest_came_back "$name" "$out" || return
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
		# The log prefix is the module's name: dev_info's driver name,
		# pr_info's pr_fmt.
		if [ "$node" = --spe-node ]; then
			log_has "$name: load $n reports CPUs 0-$last have no SPE, as 'arm_spe spe-pmu:'" \
				"insmod $n" "rmmod $n" \
				"arm_spe spe-pmu: no SPE on CPUs 0-$last (ID_AA64DFR0_EL1.PMSVer = 0); no PMU registered"
			check_file "$name: load $n leaves the device unbound" bind-loaded$n "spe-pmu=none"
		else
			log_has "$name: load $n reports there is no SPE device, as 'arm_spe:'" \
				"insmod $n" "rmmod $n" \
				"arm_spe: no SPE device described by firmware (device tree or ACPI); nothing to do"
		fi
		has_lines "$name: load $n registers platform driver and module arm_spe" \
			names-loaded$n /sys/bus/platform/drivers/arm_spe /sys/module/arm_spe
		lacks "$name: load $n registers nothing as arm_spe_sim or a joined name" \
			names-loaded$n 'arm_spe_sim|:'
		if grep -qi 'spe' "$out/results/pmus-loaded$n"; then
			tap_fail "$name: load $n registers no SPE PMU" "$(cat "$out/results/pmus-loaded$n")"
		else
			tap_ok "$name: load $n registers no SPE PMU"
		fi
		check_file "$name: unload $n succeeds" rmmod$n.rc 0
	done
	[ "$node" = --spe-node ] && [ -n "${simko:-}" ] && check_sim_phase "$name"
	[ "$node" = --spe-node ] && check_file "$name: in-tree arm_spe_pmu unloads" intree-rmmod.rc 0

	if diff -u "$out/results/res-before" "$out/results/res-after" >"$out/res.diff"; then
		tap_ok "$name: nothing left registered after unload"
	else
		tap_fail "$name: nothing left registered after unload" "$(cat "$out/res.diff")"
	fi
	spe_kernel_log_tap "$name" "$out"
	spe_taint_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

declare -A failed	# kernels the driver does not build for
declare -A simfailed	# ... the simulated driver does not build for
declare -A checked	# kernels whose module files were checked
start=$SECONDS
run 6.1 2 --spe-node
run 6.12 4 --spe-node
run 6.1 4 --no-spe-node
run 6.12 2 --no-spe-node
echo "# 4 boots in $((SECONDS - start)) s"
tap_done
