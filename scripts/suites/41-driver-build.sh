#!/usr/bin/env bash
# The SPE driver module builds with W=1 and sparse (C=1) and not one
# warning against Debian's arm64 kernels: bookworm's 6.1 and
# bookworm-backports' 6.12 (the guest suites'), the oldest (bullseye 5.10)
# and the newest (trixie-backports), each with the compiler that built it
# (SPE_KERNELS=all: the whole matrix, scripts/lib/kernels.sh); the module carries the right name, vermagic and device aliases;
# and only the hardware backend touches SPE registers (the seam that the
# simulated build replaces, spe_backend.h).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

objdump=aarch64-linux-gnu-objdump

for k in $(spe_build_kernels); do
	start=$SECONDS
	# stderr apart: a first build of a kernel also says what it fetches.
	err=$top/build/kmod/arm_spe-$k.stderr
	mkdir -p "$(dirname "$err")"
	if ! ko=$("$top/scripts/build-spe-module.sh" "$k" --sparse 2>"$err"); then
		tap_fail "$k: arm_spe.ko builds with W=1 and sparse, zero warnings" "$(tail -n 30 "$err")"
		continue
	fi
	tap_ok "$k: arm_spe.ko builds with W=1 and sparse, zero warnings ($((SECONDS - start)) s)"
	spe_kernel "$k"
	dir=$(dirname "$ko")

	if why=$(spe_sparse_unusable "$dir/build.log"); then
		tap_skip "$k: sparse checked every driver file" "$why"
	elif grep -q 'CHECK .*spe_core.c' "$dir/build.log"; then
		tap_ok "$k: sparse checked every driver file"
	else
		tap_fail "$k: sparse checked every driver file" "no CHECK lines in $dir/build.log"
	fi

	vm=$(modinfo -F vermagic "$ko")
	if [[ $vm == "$KREL "* ]]; then
		tap_ok "$k: vermagic is the guest kernel's ($KREL)"
	else
		tap_fail "$k: vermagic is the guest kernel's ($KREL)" "$vm"
	fi

	name=$(modinfo -F name "$ko")
	aliases=$(modinfo -F alias "$ko")
	if [ "$name" = arm_spe ] &&
	   grep -qx 'of:N\*T\*Carm,statistical-profiling-extension-v1' <<<"$aliases" &&
	   grep -qx 'platform:arm,spe-v1' <<<"$aliases"; then
		tap_ok "$k: module arm_spe matches the DT compatible and the ACPI arm,spe-v1 device"
	else
		tap_fail "$k: module arm_spe matches the DT compatible and the ACPI arm,spe-v1 device" \
			"name=$name" "$aliases"
	fi

	# Debian ships the in-tree driver as a module (ARM_SPE_PMU=m) from
	# 6.1 on; bullseye's 5.10 has none, and nothing to collide with.
	intree=$(ls "$MODDIR"/kernel/drivers/perf/arm_spe_pmu.ko* 2>/dev/null | head -n 1)
	if [ -n "$intree" ] && [ "$name" != "$(modinfo -F name "$intree")" ]; then
		tap_ok "$k: module name differs from the in-tree $(basename "$intree")"
	elif [ -z "$intree" ] && ! grep -qx 'CONFIG_ARM_SPE_PMU=[ym]' "$KDIR/.config"; then
		tap_ok "$k: the kernel has no in-tree arm_spe_pmu to collide with (CONFIG_ARM_SPE_PMU unset)"
	else
		tap_fail "$k: module name differs from the in-tree arm_spe_pmu" \
			"name=$name in-tree=${intree:-missing}"
	fi

	# The seam: SPE system registers are op0=3 op1=0 CRn=9 CRm=9/10
	# (objdump names them pms*_el1/pmb*_el1); PSB CSYNC is hint #17.
	# Only spe_hw.o may contain them.
	spe_insn='s3_0_c9_c(9|10)_|\<pm[sb][a-z]+_el1\>|psb[[:space:]]+csync|hint[[:space:]]+#0x11'
	bad=''
	for o in "$dir"/spe_*.o; do
		[ "$(basename "$o")" = spe_hw.o ] && continue
		dis=$("$objdump" -d "$o")
		grep -qiE "$spe_insn" <<<"$dis" && bad+=" $(basename "$o")"
	done
	hw=$("$objdump" -d "$dir/spe_hw.o")
	if [ -z "$bad" ] && grep -qiE 'pmbsr_el1|s3_0_c9_c10_3' <<<"$hw" &&
	   grep -qiE 'psb[[:space:]]+csync|hint[[:space:]]+#0x11' <<<"$hw"; then
		tap_ok "$k: only spe_hw.o accesses SPE registers or executes PSB CSYNC"
	else
		tap_fail "$k: only spe_hw.o accesses SPE registers or executes PSB CSYNC" \
			"objects with SPE instructions outside the backend:${bad:- none, but spe_hw.o lacks them}"
	fi
done

# The standard out-of-tree command, with the source directory as M=.
spe_kernel 6.12
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/drivers"
cp -r "$top/drivers/perf" "$tmp/drivers/perf"
cp -r "$top/include" "$tmp/include"
rm -f "$tmp/drivers/perf/"*.o "$tmp/drivers/perf/"*.ko
if out=$(make -C "$KDIR" M="$tmp/drivers/perf" ARCH=arm64 \
	CROSS_COMPILE=aarch64-linux-gnu- modules 2>&1) &&
   [ -f "$tmp/drivers/perf/arm_spe.ko" ]; then
	tap_ok "make -C <headers> M=<project>/drivers/perf builds arm_spe.ko"
else
	tap_fail "make -C <headers> M=<project>/drivers/perf builds arm_spe.ko" "$(tail -n 15 <<<"$out")"
fi

# DKMS: the package layout of dkms.conf (drivers/ and include/ copied into
# the build directory) and its MAKE line, as dkms runs it.
spe_kernel 6.1
dkms_tree=$tmp/dkms
(
	# The variables dkms provides, then the package's own.
	kernel_source_dir=$KDIR
	# shellcheck disable=SC1091
	. "$top/dkms.conf"
	build=$dkms_tree/$PACKAGE_NAME/$PACKAGE_VERSION/build
	mkdir -p "$build"
	cp -r "$top/drivers" "$top/include" "$build/"
	export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
	eval "${MAKE[0]}" >"$tmp/dkms.log" 2>&1 &&
		[ -f "$build/${BUILT_MODULE_LOCATION[0]}${BUILT_MODULE_NAME[0]}.ko" ]
) && tap_ok "dkms.conf's MAKE line builds arm_spe.ko where BUILT_MODULE_LOCATION says" ||
	tap_fail "dkms.conf's MAKE line builds arm_spe.ko where BUILT_MODULE_LOCATION says" \
		"$(tail -n 15 "$tmp/dkms.log" 2>/dev/null)"
tap_done
