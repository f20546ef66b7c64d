#!/usr/bin/env bash
# What QEMU's emulated Statistical Profiling Unit (qemu/patches/) costs the
# guest, beside the reference: Debian's own QEMU of the same version,
# which has no SPE.  One 6.1 guest (2 CPUs, TCG) on each; the spe_spin
# workload's rate (iterations per second, 3 s runs, 3 rounds alternated:
# scripts/qemu/guest/bench-qemu-spe.sh):
#   stock QEMU       Debian's qemu-system-aarch64, -cpu max;
#   SPE QEMU, idle   the patched QEMU with -cpu max,spe=on (profile n1)
#                    and arm_spe.ko loaded, nothing profiling: translation
#                    is not instrumented, so this should equal stock;
#   profiled         the same under perf record -e arm_spe//u, period 16384
#                    and perf's default period (the unit's minimum
#                    interval): translation instrumented, one helper call
#                    per sampling interval.
# Targets (issue 10): idle costs nothing measurable; profiled keeps at
# least half the stock rate.  TCG rates move by several percent with the
# host's load: compare the medians, on an idle machine.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
k=6.1
spe_bench_begin qemu-spe
spe_build_spin "$runs/spe_spin" || { cat "$runs/spe_spin.log" >&2; exit 1; }
ko=$(spe_driver_ko "$k")
SPE_QEMU_BIN=$("$top/scripts/fetch-qemu.sh" 2>"$runs/fetch-qemu.log") ||
	{ echo "qemu-spe bench: the SPE QEMU did not build, see $runs/fetch-qemu.log"; exit 1; }
export SPE_QEMU_BIN

# guest OUT [run-guest.sh options]: boot, run the guest script, or say why not.
guest() {
	local out=$1
	shift
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --with-perf --module "$ko" \
		--file "$runs/spe_spin" --timeout 300 --script "$top/scripts/qemu/guest/bench-qemu-spe.sh" \
		--out "$out" "$@" 2>"$out.log" ||
		{ echo "qemu-spe bench: guest $out failed, see $out.log"; exit 1; }
}
guest "$runs/stock"
guest "$runs/spe" --spe-qemu n1
if grep -qv '^0$' "$runs/spe/results/record.rc"; then
	echo "qemu-spe bench: perf record failed in the guest:"
	tail -n 5 "$runs/spe/results/record.log"
	exit 1
fi

# rates FILE: the rounds' iterations per second, "a b c".
rates() {
	awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 / 1e6 }' "$1"
}
# median FILE: the median rate, M/s.
median() {
	sort -n "$1" | awk '{ r[NR] = $1 } END { printf "%.1f", r[int((NR + 1) / 2)] / 1e6 }'
}
stock=$(median "$runs/stock/results/spin-alone")
echo "targets (issue 10): SPE QEMU idle = stock (nothing measurable); profiled >= 50% of stock"
echo "workload: spe_spin 3 (iterations/s), 6.1 guest, 2 CPUs, TCG; min_interval $(cat "$runs/spe/results/min_interval")"
printf '%-44s %-20s %10s %9s\n' configuration "rounds (M/s)" "median" "of stock"
row() {
	local m
	m=$(median "$2")
	printf '%-44s %-20s %10s %8s%%\n' "$1" "$(rates "$2")" "$m" \
		"$(awk -v a="$m" -v b="$stock" 'BEGIN { printf "%.0f", a / b * 100 }')"
}
row "stock QEMU (reference, no SPE)" "$runs/stock/results/spin-alone"
row "SPE QEMU, spe=on, idle" "$runs/spe/results/spin-alone"
row "SPE QEMU, perf record -c 16384 arm_spe//u" "$runs/spe/results/spin-c16384"
row "SPE QEMU, perf record arm_spe//u (default)" "$runs/spe/results/spin-dflt"
