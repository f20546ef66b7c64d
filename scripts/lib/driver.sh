# shellcheck shell=bash
# spe_driver_ko KERNEL: print the path of the hardware SPE driver module
# (arm_spe.ko) built for KERNEL (6.1 or 6.12) by scripts/build-module.sh,
# building it only when a source is newer than the last build (the guest
# suites each need it, the builds take a while on two cores).  Only the
# hardware module is built.  Sourced; on failure prints the build output
# and returns non-zero.
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=scripts/lib/kernels.sh
. "$spe_top/scripts/lib/kernels.sh"

spe_driver_ko() {
	local ko
	spe_kernel "$1"
	ko=$spe_top/build/kmod/arm_spe-$KREL/arm_spe.ko
	if [ -f "$ko" ] && [ -z "$(find "$spe_top/drivers/perf" "$spe_top/include/spe" \
			"$spe_top/scripts/build-module.sh" "$spe_top/scripts/build-kmod.sh" \
			-newer "$ko" -print -quit)" ]; then
		echo "$ko"
		return 0
	fi
	"$spe_top/scripts/build-module.sh" "$1" CONFIG_ARM_SPE_PERF_SIM=n
}
