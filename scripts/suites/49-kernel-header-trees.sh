#!/usr/bin/env bash
# The Debian arm64 kernels (bookworm 6.1, bookworm-backports 6.12) are
# fetched and their header trees build modules: a trivial module builds
# warning-free with W=1 and sparse against both, and its vermagic names
# the kernel that will boot in the guest.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

if ! out=$("$top/scripts/fetch-kernels.sh" --quiet 2>&1); then
	tap_fail "fetch-kernels.sh fetches 6.1 and 6.12" "$out"
	tap_done
	exit 1
fi
tap_ok "fetch-kernels.sh fetches 6.1 and 6.12"

for k in 6.1 6.12; do
	spe_kernel "$k"
	if [ -f "$VMLINUZ" ] && [ -f "$MODDIR/modules.builtin" ] &&
	   ls "$MODDIR"/kernel/drivers/perf/arm_spe_pmu.ko* >/dev/null 2>&1; then
		tap_ok "$k ($KREL): vmlinuz and module tree (with in-tree arm_spe_pmu) present"
	else
		tap_fail "$k ($KREL): vmlinuz and module tree (with in-tree arm_spe_pmu) present" \
			"VMLINUZ=$VMLINUZ MODDIR=$MODDIR"
	fi
	name="$k: hello module builds with W=1 and sparse"
	errs=$top/build/kmod/hello-$k.stderr
	mkdir -p "$(dirname "$errs")"
	if ko=$("$top/scripts/build-external-module.sh" --kernel "$k" --sparse "$top/scripts/qemu/hello" 2>"$errs"); then
		log=$(dirname "$ko")/build.log
		if grep -qiE 'warning:|error:' "$log"; then
			tap_fail "$name" "$(grep -iE 'warning:|error:' "$log" | head)"
		else
			tap_ok "$name"
		fi
		vm=$(modinfo -F vermagic "$ko" 2>&1)
		if [[ $vm == "$KREL "* ]]; then
			tap_ok "$k: module vermagic matches the guest kernel ($KREL)"
		else
			tap_fail "$k: module vermagic matches the guest kernel ($KREL)" "vermagic: $vm"
		fi
	else
		tap_fail "$name" "$(tail -n 20 "$errs")"
		tap_skip "$k: module vermagic matches the guest kernel" "no module built"
	fi
done
tap_done
