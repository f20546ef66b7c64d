#!/usr/bin/env bash
# The install as a user does it (issue 15 item 4), in a 6.12 guest with the
# SPE device-tree node whose module tree has Debian's in-tree arm_spe_pmu:
# the arm_spe.ko that DKMS built and installed (scripts/build-dkms.sh) goes
# where DKMS puts it (updates/dkms), depmod indexes it, and the steps of
# Documentation/admin-guide/arm-spe.rst follow (guest/dkms-install.sh says
# what stands in for dkms and udev in the guest).  Checks:
#   - before: a boot loads the in-tree arm_spe_pmu for the device;
#   - after depmod: modinfo finds arm_spe in updates/dkms, version as dkms.conf,
#     and without a blacklist a boot loads both drivers;
#   - the guide's steps: arm_spe_pmu unloads, "modprobe arm_spe" loads ours,
#     the in-tree module is neither loaded nor bound; the next boot loads
#     ours only (the blacklist);
#   - the guide's uninstall: the next boot loads arm_spe_pmu again and
#     "modprobe arm_spe" finds nothing;
#   - a clean kernel log; taints only out-of-tree/unsigned.
# QEMU's CPUs have no SPE, so neither driver's probe succeeds: "bound" is
# always "none" here, and what the test can show is which module udev's
# request loads and that arm_spe_pmu never owns the device.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
runs=$top/build/qemu/runs/57-guest-dkms-install
out=$runs/6.12
k=6.12
# shellcheck disable=SC1091
version=$(set +u; . "$top/dkms.conf"; echo "$PACKAGE_VERSION")

# check NAME FILE EXPECTED: FILE in the results holds exactly EXPECTED.
check_file() {
	spe_result_is "$1" "$out" "$2" "$3"
}

# check_state NAME FILE LINE...: the recorded module/binding state has
# exactly the "module" and "bound" lines given.
check_state() {
	local name=$1 file=$2 got want
	shift 2
	got=$(grep -E '^(module|bound) ' "$out/results/$file" 2>/dev/null)
	want=$(printf '%s\n' "$@")
	if [ "$got" = "$want" ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "expected:" "$want" "got:" "$got"
	fi
}

rm -rf "$runs"
mkdir -p "$runs"
if ! ko=$(spe_driver_ko "$k" 2>"$runs/build.log"); then
	tap_fail "$k: DKMS builds and installs arm_spe" "$(tail -n 20 "$runs/build.log")"
	tap_done
	exit 1
fi
tap_ok "$k: DKMS builds and installs arm_spe (updates/dkms of its install tree)"

# Debian's module tree, reduced to the in-tree SPE driver as Debian ships it
# (compressed), and what dkms install added under its install tree.
spe_kernel "$k"
intree=$(cd "$MODDIR/.." && ls "$KREL"/kernel/drivers/perf/arm_spe_pmu.ko*)
tar -cf "$runs/debian-modules.tar" -C "$MODDIR/../../.." "lib/modules/$intree"
tar -cf "$runs/dkms-install.tar" -C "$top/build/dkms/$KREL/root" "lib/modules/$KREL/updates"

rc=0
"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --spe-node \
	--file "$runs/debian-modules.tar" --file "$runs/dkms-install.tar" \
	--timeout 180 --script "$top/scripts/qemu/guest/dkms-install.sh" --out "$out" \
	2>"$out.log" || rc=$?
if [ ! -s "$out/results/script.rc" ]; then
	tap_fail "$k: guest boots and results come back" "$(tail -n 5 "$out.log")"
	tap_done
	exit 1
fi
# shellcheck disable=SC1091,SC2154
(. "$out/summary"; echo "# $k: ${wall_seconds}s wall")
[ "$rc" -eq 0 ] || tap_fail "$k: guest script exit status" "run-guest.sh exited $rc" \
	"$(cat "$out/results/script.log" 2>/dev/null)"

# Before: Debian's own driver is what a boot loads.
check_file "depmod indexes Debian's tree" depmod-debian.rc 0
check_file "a boot (modprobe of the device's modalias) succeeds" boot-debian.rc 0
check_state "before the install, a boot loads the in-tree arm_spe_pmu" state-boot-debian \
	"module arm_spe_pmu" "bound none"

# dkms install + depmod.
check_file "depmod after dkms install succeeds" depmod-dkms.rc 0
check_file "modinfo finds arm_spe where DKMS put it" modinfo-filename \
	"/lib/modules/$KREL/updates/dkms/arm_spe.ko"
check_file "modinfo: name arm_spe" modinfo-name arm_spe
check_file "modinfo: version $version, as dkms.conf" modinfo-version "$version"

# Why the guide blacklists arm_spe_pmu.
check_file "without the blacklist, a boot succeeds" boot-both.rc 0
check_state "without the blacklist, a boot loads both arm_spe and arm_spe_pmu" state-boot-both \
	"module arm_spe" "module arm_spe_pmu" "bound none"
check_file "arm_spe unloads, leaving the in-tree one loaded as after a boot" unload-after-both.rc 0

# The guide's steps.
check_file "guide: modprobe -r arm_spe_pmu succeeds" unload-intree.rc 0
check_file "guide: modprobe arm_spe succeeds" modprobe-ours.rc 0
check_state "guide: arm_spe is loaded, arm_spe_pmu neither loaded nor bound" state-installed \
	"module arm_spe" "bound none"
if grep -qx 'driver arm_spe' "$out/results/state-installed" &&
   ! grep -q 'driver arm_spe_pmu' "$out/results/state-installed"; then
	tap_ok "guide: platform driver arm_spe registered, arm_spe_pmu's gone"
else
	tap_fail "guide: platform driver arm_spe registered, arm_spe_pmu's gone" \
		"$(cat "$out/results/state-installed")"
fi
log=$(sed -n '/spe-test: modprobe-ours$/,/spe-test: unload-ours$/p' "$out/results/dmesg.txt")
if grep -qF '] arm_spe spe-pmu: no SPE on CPUs 0-1' <<<"$log"; then
	tap_ok "guide: the installed module logs as 'arm_spe spe-pmu:'"
else
	tap_fail "guide: the installed module logs as 'arm_spe spe-pmu:'" "$log"
fi
check_file "next boot succeeds" boot-installed.rc 0
check_state "next boot loads arm_spe only (the blacklist keeps arm_spe_pmu away)" \
	state-boot-installed "module arm_spe" "bound none"

# The guide's uninstall.
check_file "uninstall: modprobe -r arm_spe succeeds" uninstall-unload.rc 0
check_file "uninstall: depmod after dkms remove succeeds" depmod-removed.rc 0
check_state "uninstall: the next boot loads the in-tree arm_spe_pmu again" \
	state-boot-uninstalled "module arm_spe_pmu" "bound none"
if [ "$(cat "$out/results/modprobe-removed.rc" 2>/dev/null)" != 0 ]; then
	tap_ok "uninstall: modprobe arm_spe finds no module"
else
	tap_fail "uninstall: modprobe arm_spe finds no module" "$(cat "$out/results/modprobe-removed.out")"
fi

bad=$(grep -E 'WARNING:|BUG:|Oops|Internal error:|Call trace:|Unable to handle|corruption|refcount_t:' \
	"$out/results/dmesg.txt")
if [ -z "$bad" ]; then
	tap_ok "kernel log has no warning, BUG or oops"
else
	tap_fail "kernel log has no warning, BUG or oops" "$bad"
fi
spe_taint_tap "" "$out"
tap_done
