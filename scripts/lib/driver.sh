# shellcheck shell=bash
# spe_driver_ko KERNEL [MODULE]: print the path of an SPE driver module built
# for KERNEL (6.1 or 6.12), exactly as its users get it:
#   arm_spe (default), the hardware module: built and installed by DKMS
#     itself from dkms.conf (scripts/build-dkms.sh), the updates/dkms/arm_spe.ko
#     of its private install tree;
#   arm_spe_sim, the simulated SPU: scripts/build-spe-module.sh --sim, a Kbuild
#     run of its own (the two modules share objects, so one build never
#     makes both; drivers/perf/Kbuild refuses that).
# Each is rebuilt only when a source is newer than the last build (builds
# take a while on two cores).  Sourced; on failure the build output goes to
# stderr and the status is non-zero.
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=scripts/lib/kernels.sh
. "$spe_top/scripts/lib/kernels.sh"

spe_driver_ko() {
	local mod=${2:-arm_spe} ko build
	spe_kernel "$1"
	case $mod in
	arm_spe)
		ko=$spe_top/build/dkms/$KREL/root/lib/modules/$KREL/updates/dkms/arm_spe.ko
		build=("$spe_top/scripts/build-dkms.sh" "$1") ;;
	arm_spe_sim)
		ko=$spe_top/build/kmod/arm_spe_sim-$KREL/arm_spe_sim.ko
		build=("$spe_top/scripts/build-spe-module.sh" "$1" --sim) ;;
	*)
		echo "spe_driver_ko: unknown module '$mod' (arm_spe or arm_spe_sim)" >&2
		return 1 ;;
	esac
	if [ ! -f "$ko" ] || [ -n "$(find "$spe_top/drivers/perf" "$spe_top/include/spe" \
			"$spe_top/dkms.conf" "${build[0]}" "$spe_top/scripts/build-external-module.sh" \
			-newer "$ko" -print -quit)" ]; then
		"${build[@]}" >/dev/null || return 1
	fi
	[ -f "$ko" ] || { echo "spe_driver_ko: $mod.ko was not built for $KREL" >&2; return 1; }
	echo "$ko"
}

# spe_sim_ko_from_tree KERNEL TREE OUT: build arm_spe_sim.ko from TREE, a
# copy of this project's layout (TREE/drivers/perf and TREE/include), into
# OUT, and print its path.  For sources that are not the project's own, such
# as the throwaway copies with a bug put in (scripts/debug-kernel/inject.sh);
# the project's own module comes from spe_driver_ko KERNEL arm_spe_sim.
spe_sim_ko_from_tree() {
	"$spe_top/scripts/build-external-module.sh" --kernel "$1" --out "$3" \
		"$2/drivers/perf" SPE_INCLUDE="$2/include" \
		CONFIG_ARM_SPE_PERF=n CONFIG_ARM_SPE_PERF_SIM=m
}
