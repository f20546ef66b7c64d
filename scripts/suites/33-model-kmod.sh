#!/usr/bin/env bash
# The SPU model compiles unchanged inside a kernel module: a trivial module
# (tools/spu-model/kmod) built from the very files drivers/perf/sim/spe_spu_*.c
# and include/spe/ against Debian's arm64 6.1 and 6.12 headers, with W=1 and
# sparse, and zero warnings (scripts/lib/model-kmod.sh).  Suite 62 runs it
# in guests.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/model-kmod.sh
. "$top/scripts/lib/model-kmod.sh"

if ! out=$("$top/scripts/fetch-kernels.sh" --quiet 2>&1); then
	tap_skip "SPU model kernel module builds" "arm64 kernel headers unavailable: $(echo "$out" | tail -n1)"
	tap_done
	exit 0
fi

for k in 6.1 6.12; do
	name="$k: the SPU model builds in a module with W=1 and sparse, no warnings"
	dir="$top/build/kmod/spu-model-$k"
	if ko=$(spe_model_kmod_build "$k" "$dir"); then
		if grep -qiE 'warning:|error:' "$dir/build.log"; then
			tap_fail "$name" "$(grep -iE 'warning:|error:' "$dir/build.log" | head)"
		else
			tap_ok "$name"
		fi
		if grep -q 'CHECK .*spe_spu_model.c' "$dir/build.log" &&
		   cmp -s "$top/drivers/perf/sim/spe_spu_model.c" "$dir/drivers/perf/sim/spe_spu_model.c"; then
			tap_ok "$k: sparse checked drivers/perf/sim/spe_spu_model.c, compiled unchanged"
		else
			tap_fail "$k: sparse checked drivers/perf/sim/spe_spu_model.c, compiled unchanged"
		fi
		desc=$(modinfo -F description "$ko" 2>&1)
		[[ $desc == *"SPU model"* ]] && tap_ok "$k: module info readable ($(basename "$ko"))" ||
			tap_fail "$k: module info readable" "$desc"
	else
		tap_fail "$name" "$(tail -n 30 "$dir.stderr")"
	fi
done
tap_done
