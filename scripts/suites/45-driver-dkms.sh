#!/usr/bin/env bash
# The hardware module as users get it: DKMS itself (dkms add, build,
# install) builds arm_spe.ko from dkms.conf against the Debian arm64 kernels
# of spe_build_kernels (6.1, 6.12, the oldest and the newest), in a private
# DKMS tree, with the release's own dkms (scripts/build-dkms.sh).  That
# module is the one the guest suites load (scripts/lib/driver.sh).  Checks:
#   - it lands in updates/dkms of the install tree, named arm_spe, with the
#     version of dkms.conf, the guest kernel's vermagic, signed by DKMS
#     where the release's dkms signs (3.x; bullseye's 2.8 does not);
#   - no object in it was compiled for two modules (no "arm_spe:arm_spe_sim"
#     KBUILD_MODNAME in the binary);
#   - kernels outside 5.10-7.3 are skipped (dkms.conf BUILD_EXCLUSIVE_KERNEL);
#   - the host's own DKMS state and module trees are untouched;
#   - Kbuild refuses to build arm_spe and arm_spe_sim in one run, naming
#     the objects they would share.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

if ! command -v dkms >/dev/null; then
	tap_fail "dkms is installed (make deps)"
	tap_done
	exit 1
fi
# shellcheck disable=SC1091
version=$(set +u; . "$top/dkms.conf"; echo "$PACKAGE_VERSION")

# What DKMS may never change on the host.
host_state() {
	ls -lR /var/lib/dkms 2>&1
	ls -d /usr/src/arm-spe-* 2>&1
	for k in $(spe_build_kernels); do
		spe_kernel "$k"
		ls -d "/lib/modules/$KREL" 2>&1
	done
}
before=$(host_state)

for k in $(spe_build_kernels); do
	spe_kernel "$k"
	start=$SECONDS
	# stderr apart: a first build of a kernel also says what it fetches.
	err=$top/build/dkms/$k.stderr
	mkdir -p "$(dirname "$err")"
	if ! ko=$("$top/scripts/build-dkms.sh" "$k" 2>"$err"); then
		tap_fail "$k: dkms add, build and install arm_spe" "$(tail -n 30 "$err")"
		continue
	fi
	tap_ok "$k: dkms add, build and install arm_spe ($((SECONDS - start)) s)"
	grep -h 'dkms add + build took' "$top/build/dkms/$KREL/dkms.log" | sed 's/^/# /'

	want=$top/build/dkms/$KREL/root/lib/modules/$KREL/updates/dkms/arm_spe.ko
	if [ "$ko" = "$want" ] && [ -f "$want" ]; then
		tap_ok "$k: dkms installs it as updates/dkms/arm_spe.ko"
	else
		tap_fail "$k: dkms installs it as updates/dkms/arm_spe.ko" "got $ko"
	fi

	info=$(modinfo "$ko" 2>&1)
	name=$(modinfo -F name "$ko") ver=$(modinfo -F version "$ko") vm=$(modinfo -F vermagic "$ko")
	if [ "$name" = arm_spe ] && [ "$ver" = "$version" ] && [[ $vm == "$KREL "* ]]; then
		tap_ok "$k: module arm_spe, version $version (dkms.conf), vermagic $KREL"
	else
		tap_fail "$k: module arm_spe, version $version (dkms.conf), vermagic $KREL" "$info"
	fi
	dkms_version=$(spe_in_root "$TOOLROOT" dkms --version 2>&1 | grep -o '[0-9][0-9.]*' | head -n 1)
	signer=$(modinfo -F signer "$ko")
	if [ "${dkms_version%%.*}" -ge 3 ] 2>/dev/null; then
		if [ "$signer" = "DKMS module signing key" ]; then
			tap_ok "$k: dkms $dkms_version signed it (with this tree's key)"
		else
			tap_fail "$k: dkms $dkms_version signed it (with this tree's key)" "$info"
		fi
	elif [ -z "$signer" ]; then
		tap_ok "$k: dkms $dkms_version leaves it unsigned, as on $(spe_suite_release "$KSUITE")"
	else
		tap_fail "$k: dkms $dkms_version leaves it unsigned" "$info"
	fi

	# The platform driver, the PMBIRQ and pr_fmt take KBUILD_MODNAME; an
	# object shared with the simulated module would say "arm_spe:arm_spe_sim".
	# (Whole outputs in variables: "grep -q" closing a pipe early would
	# make the writer fail under pipefail.)
	strs=$(aarch64-linux-gnu-strings "$ko")
	joined=$(grep -E 'arm_spe[a-z_]*:arm_spe' <<<"$strs")
	if [ -z "$joined" ] && grep -qx arm_spe <<<"$strs"; then
		tap_ok "$k: every object was compiled for arm_spe alone"
	else
		tap_fail "$k: every object was compiled for arm_spe alone" "$joined"
	fi
	syms=$(aarch64-linux-gnu-nm "$ko")
	if [ -z "$syms" ] || grep -qE ' (spe_spu_|spe_opgen_|spe_sim_)' <<<"$syms"; then
		tap_fail "$k: no simulation code in the DKMS module" \
			"$(grep -E ' (spe_spu_|spe_opgen_|spe_sim_)' <<<"$syms" | head -n 5)"
	else
		tap_ok "$k: no simulation code in the DKMS module"
	fi
done

# dkms.conf's BUILD_EXCLUSIVE_KERNEL: kernels outside 5.10-7.3 are skipped
# with DKMS's message (status 77), not built.
spe_kernel 6.12
tree=$top/build/dkms/$KREL
for other in 5.4.0-1-arm64 7.4.0-1-arm64; do
	if [ ! -d "$tree/tree" ]; then
		tap_skip "dkms skips kernel $other (outside 5.10-7.3)" "no DKMS tree for $KREL"
		continue
	fi
	rc=0
	said=$(sign_file=/nonexistent mok_signing_key=$tree/none mok_certificate=$tree/none \
		dkms --dkmstree "$tree/tree" --sourcetree "$tree/source" \
		--installtree "$tree/root/lib/modules" build "arm-spe/$version" \
		-k "$other/aarch64" --kernelsourcedir "$KDIR" 2>&1) || rc=$?
	if [ "$rc" -eq 77 ] && grep -q 'BUILD_EXCLUSIVE directive which does not match this kernel' <<<"$said"; then
		tap_ok "dkms skips kernel $other (outside 5.10-7.3), saying why"
	else
		tap_fail "dkms skips kernel $other (outside 5.10-7.3), saying why" "rc=$rc" "$said"
	fi
done

after=$(host_state)
if [ "$before" = "$after" ]; then
	tap_ok "the host's /var/lib/dkms, /usr/src and /lib/modules are untouched"
else
	tap_fail "the host's /var/lib/dkms, /usr/src and /lib/modules are untouched" \
		"$(diff <(echo "$before") <(echo "$after"))"
fi

# One Kbuild run making both modules would compile the shared objects once,
# for both: Kbuild must refuse it and say which objects.
spe_kernel 6.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/drivers"
cp -r "$top/drivers/perf" "$tmp/drivers/perf"
cp -r "$top/include" "$tmp/include"
if out=$(make -C "$KDIR" M="$tmp/drivers/perf" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		CONFIG_ARM_SPE_PERF=m CONFIG_ARM_SPE_PERF_SIM=m modules 2>&1); then
	tap_fail "Kbuild refuses to build arm_spe and arm_spe_sim together" "the build succeeded"
elif grep -q 'cannot be built together: both would link .*spe_core\.o' <<<"$out" &&
     ! ls "$tmp/drivers/perf/"*.o >/dev/null 2>&1; then
	tap_ok "Kbuild refuses to build arm_spe and arm_spe_sim together, naming the shared objects"
else
	tap_fail "Kbuild refuses to build arm_spe and arm_spe_sim together, naming the shared objects" \
		"$(tail -n 5 <<<"$out")"
fi
tap_done
