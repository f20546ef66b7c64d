#!/usr/bin/env bash
# The simulated SPE PMU (arm_spe_sim.ko: the driver over drivers/perf/sim/spe_sim.c
# and the SPU model) builds against the Debian arm64 kernels of
# spe_build_kernels (scripts/lib/kernels.sh) with W=1 and sparse and no
# warnings; the default build of the same directory
# makes the hardware module arm_spe.ko alone, with no simulation code in it;
# spe_sim.c is checkpatch clean.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

if ! out=$("$top/scripts/fetch-kernels.sh" --quiet 2>&1); then
	tap_skip "arm_spe_sim builds" "arm64 kernel headers unavailable: $(echo "$out" | tail -n1)"
	tap_done
	exit 0
fi

# The model includes its headers by repository-relative paths: stage
# drivers/perf and include/ at their places and build there.
stage="$top/build/kmod/sim-src"
rm -rf "$stage"
mkdir -p "$stage/drivers" "$stage/include"
cp -r "$top/drivers/perf" "$stage/drivers/"
rm -rf "$stage/drivers/perf/tests"
cp -r "$top/include/spe" "$stage/include/"

# build K DIR ARGS...: build the staged drivers/perf in DIR for kernel K.
build() {
	local k=$1 dir=$2
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$stage/include" "$dir/"
	"$top/scripts/build-external-module.sh" --kernel "$k" --out "$dir/drivers/perf" "$@" 2>&1
}

# The simulated module is built on its own: objects shared by two modules
# of one Kbuild are deprecated (6.12 warns and its modfinal stumbles).
for k in $(spe_build_kernels); do
	name="$k: arm_spe_sim.ko builds with W=1 and sparse, no warnings"
	dir="$top/build/kmod/sim-$k"
	if ko=$(build "$k" "$dir" --sparse "$stage/drivers/perf" \
		CONFIG_ARM_SPE_PERF=n CONFIG_ARM_SPE_PERF_SIM=m) &&
	   [ -f "$dir/drivers/perf/arm_spe_sim.ko" ]; then
		if grep -iE 'warning|error' "$dir/drivers/perf/build.log" >/dev/null; then
			tap_fail "$name" "$(grep -iE 'warning|error' "$dir/drivers/perf/build.log" | head)"
		else
			tap_ok "$name"
		fi
		spe_kernel "$k"
		if why=$(spe_sparse_unusable "$dir/drivers/perf/build.log"); then
			tap_skip "$k: sparse checked spe_sim.c" "$why"
		elif grep -q 'CHECK .*spe_sim.c' "$dir/drivers/perf/build.log"; then
			tap_ok "$k: sparse checked spe_sim.c"
		else
			tap_fail "$k: sparse checked spe_sim.c" "no CHECK line in build.log"
		fi
		params=$(modinfo -F parm "$dir/drivers/perf/arm_spe_sim.ko" 2>&1 | cut -d: -f1 | sort | tr '\n' ' ')
		[ "$params" = "direct_irq ops_per_tick profile seed tick_us " ] &&
			tap_ok "$k: arm_spe_sim.ko has parameters profile, tick_us, ops_per_tick, seed, direct_irq" ||
			tap_fail "$k: arm_spe_sim.ko has parameters profile, tick_us, ops_per_tick, seed, direct_irq" "$params"
	else
		tap_fail "$name" "$ko"
	fi
done

# The default build is the hardware module alone, without simulation code.
dir="$top/build/kmod/sim-hw-6.12"
if ko=$(build 6.12 "$dir" "$stage/drivers/perf"); then
	kos=$(cd "$dir/drivers/perf" && ls ./*.ko | tr '\n' ' ')
	sim_syms=$(aarch64-linux-gnu-nm "$dir/drivers/perf/arm_spe.ko" |
		grep -E ' (spe_spu_|spe_opgen_|spe_sim_)' || true)
	[ "$kos" = "./arm_spe.ko " ] && [ -z "$sim_syms" ] &&
		tap_ok "the default build makes arm_spe.ko only, with no simulation code" ||
		tap_fail "the default build makes arm_spe.ko only, with no simulation code" "$kos" "$sim_syms"
else
	tap_fail "the default build makes arm_spe.ko only, with no simulation code" "$ko"
fi

if cp=$("$top/scripts/fetch-checkpatch.sh" 2>/dev/null); then
	if res=$(perl "$cp" --no-tree --strict --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "$top/drivers/perf/sim/spe_sim.c" 2>&1); then
		tap_ok "spe_sim.c is checkpatch --strict clean"
	else
		tap_fail "spe_sim.c is checkpatch --strict clean" "$res"
	fi
else
	tap_skip "spe_sim.c is checkpatch --strict clean" "checkpatch.pl unavailable"
fi
tap_done
