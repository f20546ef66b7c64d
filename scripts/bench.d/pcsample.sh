#!/usr/bin/env bash
# What PC sampling (arm_pcsample.ko, its "Cost" in
# Documentation/dev-tools/arm-pcsample-design.rst) costs,
# beside perf's cpu-clock at the same rate, in one Debian 6.12 guest on the
# patched QEMU with -M virt,pcsample=on (2 CPUs, TCG;
# scripts/qemu/guest/bench-pcsample.sh).  The workload pcsample-hot runs
# 3 s pinned to CPU 1: alone, while CPU 0 is busy with a copy of it, while
# pcsample-record on CPU 0 samples CPU 1 every 100 us (10 kHz), and while
# perf record -e cpu-clock -c 100000 -C 1 does; three rounds.  Per round:
#   alone r/s      the workload's rounds per second, unprofiled;
#   busy0 slow     its slowdown while CPU 0 only computes: under TCG two
#                  busy vCPU threads share the host's cores (with whatever
#                  else runs there), and that is a slowdown no guest
#                  mechanism causes; compare the profilers with it;
#   pcs r/s, slow  under arm_pcsample, and the slowdown against alone
#                  (expected: none beyond the noise of the alone runs);
#   pcs Hz         samples per second the sampler achieved (first to last
#                  sample's time);
#   1kHz slow      the slowdown under arm_pcsample at 1 kHz (-c 1000000),
#                  where the sampler keeps up and leaves CPU 0 mostly idle;
#   hk ns/sample   the housekeeping CPU's cost of one sample: the sampler
#                  thread's CPU time (/proc/PID/schedstat) over the samples;
#   clk r/s, slow  under cpu-clock, and its slowdown;
#   clk Hz         its samples per second;
#   ns/sample CPU1 what one cpu-clock sample costs the sampled CPU: the
#                  slowdown over the sample rate (its interrupt and handler
#                  run there).
# Under TCG every register read of the sampler is an MMIO exit to QEMU, and
# the sampled vCPU's translated code stores its block address at each
# block's start (qemu/patches/0007): these are an emulator's costs, not a
# core's.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
k=6.12
spe_bench_begin pcsample
SPE_QEMU_BIN=$("$top/scripts/fetch-qemu.sh" 2>"$runs/fetch-qemu.log") ||
	{ echo "pcsample bench: the patched QEMU did not build, see $runs/fetch-qemu.log"; exit 1; }
export SPE_QEMU_BIN SPE_QEMU_PCSAMPLE=1
aarch64-linux-gnu-gcc -O2 -g -static -Wall -Wextra -Werror -o "$runs/pcsample-hot" \
	"$top/qemu/tests/pcsample-hot.c"
make -s -C "$top/tools/pcsample" CC=aarch64-linux-gnu-gcc LDFLAGS="-static -Wl,--gc-sections" O="$runs/pcsample"
ko=$("$top/scripts/build-spe-module.sh" "$k" --pcsample 2>"$runs/build.log") ||
	{ echo "pcsample bench: arm_pcsample.ko did not build, see $runs/build.log"; exit 1; }
out=$runs/$k
"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --spe-qemu n1 --with-perf \
	--module "$ko" --file "$runs/pcsample-hot" --file "$runs/pcsample/pcsample-record" \
	--timeout 300 --script "$top/scripts/qemu/guest/bench-pcsample.sh" --out "$out" 2>"$out.log" ||
	{ echo "pcsample bench: guest failed, see $out.log"; exit 1; }
res=$out/results
[ "$(cat "$res/insmod.rc")" = 0 ] || { echo "pcsample bench: arm_pcsample did not load"; exit 1; }

rate() {
	sed -n 's/^\([0-9]*\) rounds.*/\1/p' "$res/$1"
}
# hz: "count per-second" of sample times (ns) on stdin.
hz() {
	sort -n | awk 'NR == 1 { a = $1 } { b = $1; n++ }
		END { if (n > 1 && b > a) printf "%d %.0f\n", n, (n - 1) / ((b - a) / 1e9); else print n, 0 }'
}
pct() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (1 - b / a) * 100 }'
}

echo "command: pcsample-hot 3 on CPU 1; pcsample-record -C 1 -c 100000 (on CPU 0) vs perf record -e cpu-clock -c 100000 -C 1 (kernel $k, 2 CPUs, TCG)"
printf '%-5s %9s %11s | %9s %6s %6s %12s %10s | %9s %6s %6s %15s\n' round "alone r/s" "busy0 slow%" \
	"pcs r/s" slow% "pcs Hz" "hk ns/sample" "1kHz slow%" "clk r/s" slow% "clk Hz" "ns/sample CPU1"
for i in 1 2 3; do
	alone=$(rate "alone-$i")
	busy=$(rate "busy-hot-$i")
	pcs1k=$(rate "pcs1k-hot-$i")
	pcs=$(rate "pcs-hot-$i")
	clk=$(rate "clk-hot-$i")
	read -r pn phz <<<"$(awk '{ print $2 }' "$res/pcs-$i.txt" | hz)"
	read -r cn chz <<<"$(perf script -i "$res/clk-$i.data" -F time --ns 2>/dev/null |
		awk '{ sub(":", "", $1); split($1, t, "."); print t[1] t[2] }' | hz)"
	hk=$(awk -v a="$(cat "$res/pcs-$i.before")" -v b="$(cat "$res/pcs-$i.after")" -v n="$pn" \
		'BEGIN { if (n > 0) printf "%.0f", (b - a) / n; else print "-" }')
	c1=$(awk -v a="$alone" -v c="$clk" -v h="$chz" \
		'BEGIN { if (h > 0) printf "%.0f", (1 - c / a) / h * 1e9; else print "-" }')
	printf '%-5s %9s %11s | %9s %6s %6s %12s %10s | %9s %6s %6s %15s\n' "$i" "$alone" "$(pct "$alone" "$busy")" \
		"$pcs" "$(pct "$alone" "$pcs")" "$phz" "$hk" "$(pct "$alone" "$pcs1k")" \
		"$clk" "$(pct "$alone" "$clk")" "$chz" "$c1"
	echo "#   round $i: $pn arm_pcsample samples, $cn cpu-clock samples"
done
