#!/usr/bin/env bash
# The Debian arm64 kernels of spe_build_kernels (bookworm 6.1,
# bookworm-backports 6.12, the oldest and the newest; scripts/lib/kernels.sh)
# are fetched and their header trees build modules: a trivial module builds
# warning-free with W=1 and sparse against each, with the compiler the
# kernel was built with (in its release's build root when this machine has
# not got it), and its vermagic names the kernel that will boot in the guest.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

mapfile -t kernels < <(spe_build_kernels)
if ! out=$("$top/scripts/fetch-kernels.sh" --quiet "${kernels[@]}" 2>&1); then
	tap_fail "fetch-kernels.sh fetches ${kernels[*]}" "$out"
	tap_done
	exit 1
fi
tap_ok "fetch-kernels.sh fetches ${kernels[*]}"

for k in "${kernels[@]}"; do
	spe_kernel "$k"
	# Debian builds the in-tree SPE driver as a module from 6.1 on;
	# bullseye's 5.10 does not build it (CONFIG_ARM_SPE_PMU is not set).
	intree=$(ls "$MODDIR"/kernel/drivers/perf/arm_spe_pmu.ko* 2>/dev/null | head -n 1)
	want=absent have=absent
	grep -qx 'CONFIG_ARM_SPE_PMU=m' "$KDIR/.config" && want=present
	[ -n "$intree" ] && have=present
	if [ -f "$VMLINUZ" ] && [ -f "$MODDIR/modules.builtin" ] && [ $want = $have ]; then
		tap_ok "$k ($KREL): vmlinuz and module tree present, in-tree arm_spe_pmu $want as the config says"
	else
		tap_fail "$k ($KREL): vmlinuz and module tree present, in-tree arm_spe_pmu $want as the config says" \
			"VMLINUZ=$VMLINUZ MODDIR=$MODDIR in-tree=${intree:-none}"
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
		# The compiler's version, as the kernel's config and the
		# module's .comment section give it ("... 14.2.0").
		kcc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$KDIR/.config")
		mcc=$(aarch64-linux-gnu-readelf -p .comment "$ko" | grep -o 'GCC: .*' | head -n 1)
		if [ -n "$kcc" ] && [ "${kcc##* }" = "${mcc##* }" ]; then
			tap_ok "$k: module compiled by the kernel's compiler, gcc ${kcc#*) }${TOOLROOT:+ (in the $(spe_suite_release "$KSUITE") build root)}"
		else
			tap_fail "$k: module compiled by the kernel's compiler" "kernel: $kcc" "module: $mcc"
		fi
	else
		tap_fail "$name" "$(tail -n 20 "$errs")"
		tap_skip "$k: module vermagic matches the guest kernel" "no module built"
		tap_skip "$k: module compiled by the kernel's compiler" "no module built"
	fi
done
tap_done
