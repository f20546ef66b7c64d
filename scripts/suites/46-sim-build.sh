#!/usr/bin/env bash
# The simulated SPE PMU (arm_spe_sim.ko: the driver over drivers/perf/spe_sim.c
# and the SPU model) builds against Debian's arm64 6.1 and 6.12 headers with
# W=1 and sparse and no warnings; the hardware module arm_spe.ko, built in
# the same tree, carries no simulation code; spe_sim.c is checkpatch clean.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"

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

for k in 6.1 6.12; do
	name="$k: arm_spe_sim.ko and arm_spe.ko build with W=1 and sparse, no warnings"
	dir="$top/build/kmod/sim-$k"
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$stage/include" "$dir/"
	if ko=$("$top/scripts/build-kmod.sh" --kernel "$k" --sparse --out "$dir/drivers/perf" \
		"$stage/drivers/perf" 2>&1) && [ -f "$dir/drivers/perf/arm_spe_sim.ko" ]; then
		if grep -iE 'warning:|error:' "$dir/drivers/perf/build.log" >/dev/null; then
			tap_fail "$name" "$(grep -iE 'warning:|error:' "$dir/drivers/perf/build.log" | head)"
		else
			tap_ok "$name"
		fi
		grep -q 'CHECK .*spe_sim.c' "$dir/drivers/perf/build.log" &&
			tap_ok "$k: sparse checked spe_sim.c" ||
			tap_fail "$k: sparse checked spe_sim.c" "no CHECK line in build.log"
		sim_syms=$(aarch64-linux-gnu-nm "$dir/drivers/perf/arm_spe.ko" |
			grep -E ' (spe_spu_|spe_opgen_|spe_sim_)' || true)
		[ -z "$sim_syms" ] && tap_ok "$k: arm_spe.ko contains no simulation code" ||
			tap_fail "$k: arm_spe.ko contains no simulation code" "$sim_syms"
		params=$(modinfo -F parm "$dir/drivers/perf/arm_spe_sim.ko" 2>&1 | cut -d: -f1 | sort | tr '\n' ' ')
		[ "$params" = "ops_per_tick profile seed tick_us " ] &&
			tap_ok "$k: arm_spe_sim.ko has parameters profile, tick_us, ops_per_tick, seed" ||
			tap_fail "$k: arm_spe_sim.ko has parameters profile, tick_us, ops_per_tick, seed" "$params"
	else
		tap_fail "$name" "$ko"
	fi
done

if cp=$("$top/scripts/fetch-checkpatch.sh" 2>/dev/null); then
	if res=$(perl "$cp" --no-tree --strict --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "$top/drivers/perf/spe_sim.c" 2>&1); then
		tap_ok "spe_sim.c is checkpatch --strict clean"
	else
		tap_fail "spe_sim.c is checkpatch --strict clean" "$res"
	fi
else
	tap_skip "spe_sim.c is checkpatch --strict clean" "checkpatch.pl unavailable"
fi
tap_done
