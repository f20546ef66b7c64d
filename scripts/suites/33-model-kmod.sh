#!/usr/bin/env bash
# The SPU model compiles unchanged inside a kernel module: a trivial module
# (tools/spu-model/kmod) built from the very files drivers/perf/sim/spe_spu_*.c
# and include/spe/ against Debian's arm64 6.1 and 6.12 headers, with W=1 and
# sparse, and zero warnings.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"

if ! out=$("$top/scripts/fetch-kernels.sh" --quiet 2>&1); then
	tap_skip "SPU model kernel module builds" "arm64 kernel headers unavailable: $(echo "$out" | tail -n1)"
	tap_done
	exit 0
fi

# Stage the module with the model sources at their repository-relative places.
stage="$top/build/spu-model/kmod-src"
rm -rf "$stage"
mkdir -p "$stage/drivers/perf/sim" "$stage/include"
cp "$top"/tools/spu-model/kmod/Kbuild "$top"/tools/spu-model/kmod/*.c "$stage/"
cp "$top"/drivers/perf/sim/spe_spu_model.c "$top"/drivers/perf/sim/spe_spu_opgen.c \
	"$stage/drivers/perf/sim/"
cp -r "$top/include/spe" "$stage/include/"

for k in 6.1 6.12; do
	name="$k: the SPU model builds in a module with W=1 and sparse, no warnings"
	dir="$top/build/kmod/spu-model-$k"
	rm -rf "$dir"
	mkdir -p "$(dirname "$dir")"
	if ko=$("$top/scripts/build-external-module.sh" --kernel "$k" --sparse --out "$dir" "$stage" 2>"$dir.stderr"); then
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
		run="$top/build/qemu/runs/33-model-kmod-$k"
		name="$k: in an arm64 guest the module runs the model and fills a buffer"
		mkdir -p "$run"
		echo true >"$run.script"
		"$top/scripts/qemu/run-guest.sh" --kernel "$k" --load "$ko" --timeout 90 \
			--script "$run.script" --out "$run" >"$run.log" 2>&1
		if grep -qx 'spe_spu_model_test.ko 0' "$run/results/modules-load.rc" 2>/dev/null &&
		   line=$(grep -o 'spe_spu_model_test: ok: .*' "$run/results/dmesg.txt"); then
			tap_ok "$name ($line)"
		else
			tap_fail "$name" "$(grep spe_spu_model_test "$run/results/dmesg.txt" 2>&1)" \
				"$(tail -n 5 "$run.log")"
		fi
	else
		tap_fail "$name" "$(tail -n 30 "$dir.stderr")"
	fi
done
tap_done
