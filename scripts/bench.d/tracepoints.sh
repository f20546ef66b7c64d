#!/usr/bin/env bash
# Tracepoints recorded with arm_spe: spe-decode script beside host perf
# script on the perf.data benchmark's SPE data with a tracepoint recording
# of this host mixed in (tests/perfdata/mix_tracepoints.py), and on the
# SPE data alone, so the cost of the tracepoint lines shows.  Prints wall
# and CPU seconds and peak memory; checks that script's output equals
# perf's.  Needs root (perf record of tracepoints); says so otherwise.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache="${SPE_CACHE_DIR:-$top/.cache}/bench-perfdata"
mix="$top/tools/spe-decode/tests/perfdata/mix_tracepoints.py"
# shellcheck source=scripts/lib/bench-inputs.sh
. "$top/scripts/lib/bench-inputs.sh"
bench_perfdata_inputs "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v perf >/dev/null ||
   ! perf record -q -e sched:sched_switch -e syscalls:sys_enter_read -e irq:irq_handler_entry \
	-e timer:hrtimer_start -a -o "$work/tp.data" -- sleep 2 >/dev/null 2>&1; then
	echo "tracepoints: no perf, or perf record of tracepoints failed (root needed): skipped"
	exit 0
fi
read -r t0 t1 < <(perf script -i "$cache/b32.data" --ns -F time 2>/dev/null | tr -d ' :.' |
	sort -n | sed -n '1p;$p' | sed 's/^0*//' | paste -sd' ')
python3 "$mix" "$cache/b32.data" "$work/tp.data" "$t0" "$t1" "$work/mix.data"

# measure LABEL OUT cmd...: wall s, CPU s, peak RSS MB
measure() {
	local label=$1 out=$2
	shift 2
	/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >"$out" 2>"$work/stderr" || true
	read -r wall user sys rss <"$work/time"
	printf '%-48s %8.2f %8.2f %8.1f\n' "$label" "$wall" "$(echo "$user + $sys" | bc)" \
		"$(echo "$rss / 1024" | bc -l)"
}

ntp=$(perf script -i "$work/tp.data" 2>/dev/null | wc -l)
printf '\nperf.data of %d MB: 800,000 SPE records on 4 CPUs and %d tracepoint samples\n' \
	$(($(stat -c %s "$work/mix.data") / 1048576)) "$ntp"
printf '%-48s %8s %8s %8s\n' "command" "wall s" "CPU s" "peak MB"
measure "perf script" "$work/perf.out" perf script -i "$work/mix.data"
# The tracepoints' kernel is this machine's (hrtimer_start names functions).
measure "spe-decode script --branch-miss (same output)" "$work/spe.out" \
	"$top/build/spe-decode/spe-decode" script --kallsyms /proc/kallsyms --branch-miss "$work/mix.data"
measure "spe-decode script --json" /dev/null \
	"$top/build/spe-decode/spe-decode" script --kallsyms /proc/kallsyms --json "$work/mix.data"
# The same options on the SPE data alone: the difference is the
# tracepoints' cost (loading /proc/kallsyms is the same in both).
measure "spe-decode script --branch-miss, SPE data alone" /dev/null \
	"$top/build/spe-decode/spe-decode" script --kallsyms /proc/kallsyms --branch-miss "$cache/b32.data"
if cmp -s "$work/perf.out" "$work/spe.out"; then same=identical; else same=DIFFERENT; fi
printf 'script output vs perf script: %s (%d lines, %d of them tracepoint samples)\n' \
	"$same" "$(wc -l <"$work/spe.out")" "$ntp"
