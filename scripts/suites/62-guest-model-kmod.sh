#!/usr/bin/env bash
# The SPU model in a kernel: the test module of suite 33 (built again here,
# scripts/lib/model-kmod.sh), loaded in an arm64 guest of Debian's 6.1 and
# 6.12 kernels, runs the model and fills a buffer.  A guest suite: it
# boots the project's QEMU, whose first build make check starts in the
# background, so it runs after the host suites.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/model-kmod.sh
. "$top/scripts/lib/model-kmod.sh"

runs=$top/build/qemu/runs/62-guest-model-kmod
spe_guest_suite_prereqs "the SPU model module in a guest"
mkdir -p "$runs"
spe_suite_spe_qemu "$runs"

for k in 6.1 6.12; do
	name="$k: in an arm64 guest the module runs the model and fills a buffer"
	dir="$top/build/kmod/spu-model-guest-$k"
	if ! ko=$(spe_model_kmod_build "$k" "$dir"); then
		tap_fail "$k: the SPU model's test module builds" "$(tail -n 30 "$dir.stderr")"
		continue
	fi
	run=$runs/$k
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
	spe_kernel_log_tap "$k" "$run"
done
tap_done
