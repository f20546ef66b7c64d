# shellcheck shell=bash
# spe_driver_ko KERNEL [MODULE]: print the path of an SPE driver module built
# for KERNEL (6.1 or 6.12) by scripts/build-module.sh: MODULE is arm_spe
# (the hardware backend, default) or arm_spe_sim (the simulated SPU).
# Both are built together, and only when a source is newer than the last
# build (each guest suite needs them; builds take a while on two cores).
# When the pair does not build, the hardware module is built alone so its
# tests still run.  Sourced; on failure the build output goes to stderr and
# the status is non-zero.
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=scripts/lib/kernels.sh
. "$spe_top/scripts/lib/kernels.sh"

spe_driver_ko() {
	local mod=${2:-arm_spe} dir ko
	spe_kernel "$1"
	dir=$spe_top/build/kmod/arm_spe-$KREL
	ko=$dir/$mod.ko
	if [ ! -f "$ko" ] || [ -n "$(find "$spe_top/drivers/perf" "$spe_top/include/spe" \
			"$spe_top/scripts/build-module.sh" "$spe_top/scripts/build-kmod.sh" \
			-newer "$ko" -print -quit)" ]; then
		"$spe_top/scripts/build-module.sh" "$1" CONFIG_ARM_SPE_PERF_SIM=m >/dev/null ||
			[ "$mod" != arm_spe ] ||
			"$spe_top/scripts/build-module.sh" "$1" CONFIG_ARM_SPE_PERF_SIM=n >/dev/null ||
			return 1
	fi
	[ -f "$ko" ] || { echo "spe_driver_ko: $mod.ko was not built for $KREL" >&2; return 1; }
	echo "$ko"
}
