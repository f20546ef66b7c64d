#!/usr/bin/env bash
# perf.data benchmark: spe-decode script and report beside host perf script
# on the same >= 32 MB SPE perf.data, then spe-decode report on 1 GB of AUX
# data.  Prints wall and CPU seconds and peak memory; checks that script's
# output equals perf's (the comparison is only fair for the same output),
# and script --json and --csv's CPU time against perf script's (target:
# >= 5x less).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache="${SPE_CACHE_DIR:-$top/.cache}/bench-perfdata"
# shellcheck source=scripts/lib/bench-inputs.sh
. "$top/scripts/lib/bench-inputs.sh"

# 2 x 200,000 generated records, each used for two CPUs: 4 queues, ~38 MB.
bench_perfdata_inputs "$cache"

# measure LABEL OUT cmd...: wall s, CPU s, peak RSS MB
measure() {
	local label=$1 out=$2
	shift 2
	/usr/bin/time -f "%e %U %S %M" -o "$cache/time" "$@" >"$out" 2>"$cache/stderr" || true
	read -r wall user sys rss <"$cache/time"
	cpu=$(echo "$user + $sys" | bc)
	printf '%-44s %8.2f %8.2f %8.1f\n' "$label" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)"
	echo "$wall $cpu" >"$cache/last"
}

size=$(stat -c %s "$cache/b32.data")
printf '\nperf.data of %d MB, 800,000 SPE records on 4 CPUs\n' $((size / 1048576))
printf '%-44s %8s %8s %8s\n' "command" "wall s" "CPU s" "peak MB"
if command -v perf >/dev/null; then
	measure "perf script" "$cache/perf.out" perf script -i "$cache/b32.data"
	read -r pw pc <"$cache/last"
fi
measure "spe-decode script --branch-miss (same output)" "$cache/spe.out" \
	"$spe" script --branch-miss "$cache/b32.data"
read -r sw sc <"$cache/last"
measure "spe-decode script --json (all fields)" /dev/null "$spe" script --json "$cache/b32.data"
read -r _ jc <"$cache/last"
measure "spe-decode script --csv (all fields)" /dev/null "$spe" script --csv "$cache/b32.data"
read -r _ cc <"$cache/last"
measure "spe-decode report" "$cache/report.out" "$spe" report "$cache/b32.data"
if command -v perf >/dev/null; then
	if cmp -s "$cache/perf.out" "$cache/spe.out"; then same=identical; else same=DIFFERENT; fi
	printf 'script output vs perf script: %s (%d lines); speed-up %.1fx wall, %.1fx CPU (target >= 10x)\n' \
		"$same" "$(wc -l <"$cache/spe.out")" "$(echo "$pw / $sw" | bc -l)" "$(echo "$pc / $sc" | bc -l)"
	printf 'script --json, --csv vs perf script: %.1fx, %.1fx faster in CPU time (target >= 5x)\n' \
		"$(echo "$pc / $jc" | bc -l)" "$(echo "$pc / $cc" | bc -l)"
fi
rm -f "$cache/perf.out" "$cache/spe.out"

# 1 GB of AUX data: 7 CPUs x 154 MB (the same records repeated).
if [ ! -s "$cache/big.bin" ]; then
	for _ in 1 2 3 4 5 6 7 8; do cat "$cache/a.bin" "$cache/b.bin"; done >"$cache/big.bin"
fi
"$spe" wrap -o "$cache/1g.data" "$cache/big.bin@0" "$cache/big.bin@1" "$cache/big.bin@2" \
	"$cache/big.bin@3" "$cache/big.bin@4" "$cache/big.bin@5" "$cache/big.bin@6"
size=$(stat -c %s "$cache/1g.data")
printf '\nperf.data of %d MB (AUX data), 22,400,000 SPE records on 7 CPUs\n' $((size / 1048576))
printf '%-44s %8s %8s %8s\n' "command" "wall s" "CPU s" "peak MB"
measure "spe-decode report (target < 10 s, < 64 MB)" /dev/null "$spe" report "$cache/1g.data"
measure "spe-decode script --itrace=M > /dev/null" /dev/null "$spe" script --itrace=M "$cache/1g.data"
rm -f "$cache/1g.data"
