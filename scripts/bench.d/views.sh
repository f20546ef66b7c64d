#!/usr/bin/env bash
# Analysis views and decoding threads: spe-decode report on 1 GB of AUX data
# with -j 1 and -j 2 (targets: >= 1.7x faster with 2 threads, within 1.5x
# of the floor) beside what decoding its records alone costs on 2 threads
# (the floor),
# spe-decode script with perf's default output beside perf script (target
# >= 15x), script --json and --csv beside it (target: at most twice its
# time) and beside perf script (target: >= 5x less CPU time), report
# --sort sym beside perf report --sort sym (target >= 10x faster), and
# c2c, html and pprof on the same file.  Peak memory must stay under 64
# MB; the view whose memory grows with the input (report --sort
# sym,data_src) also runs on the 1 GB file, with 2 threads (target: under
# 3 s).  Last, report, html and pprof on a recording of
# code without symbols, nearly every record at an address of its own,
# beside perf report: by default the views count such addresses per 4 KiB
# page (target: under 64 MB each); with --unresolved address they keep a
# row per address, as perf, and memory grows with the rows.  Wall times on
# a shared machine are noisy: each other command runs 3 times and the
# fastest run counts.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache="${SPE_CACHE_DIR:-$top/.cache}/bench-views"
# shellcheck source=scripts/lib/bench-inputs.sh
. "$top/scripts/lib/bench-inputs.sh"

# The inputs of the perf.data benchmark: 4 queues (~38 MB), then 7 x 154 MB.
bench_perfdata_inputs "$cache"
if [ ! -s "$cache/big.bin" ]; then
	for _ in 1 2 3 4 5 6 7 8; do cat "$cache/a.bin" "$cache/b.bin"; done >"$cache/big.bin"
fi
"$spe" wrap -o "$cache/1g.data" "$cache/big.bin@0" "$cache/big.bin@1" "$cache/big.bin@2" \
	"$cache/big.bin@3" "$cache/big.bin@4" "$cache/big.bin@5" "$cache/big.bin@6"

# measure LABEL OUT cmd...: the fastest of 3 runs (or of $runs): wall s, CPU
# s, peak RSS MB.
# The wall time is read from bash's microsecond clock around the run (time's
# own %e has 10 ms steps, too coarse for the 0.08 s script runs), so the
# output file is opened inside it: it is removed before, not truncated.
measure() {
	local label=$1 out=$2 best="" line t0 t1
	shift 2
	for _ in $(seq "${runs:-3}"); do
		# Outside the timed part: dropping the last run's output (200 MB
		# of page cache for script: 40 ms to truncate) and writing it
		# back to disk, which would run on the same two cores.
		if [ -f "$out" ]; then rm -f "$out"; fi	# never /dev/null
		sync
		t0=$EPOCHREALTIME
		/usr/bin/time -f "%U %S %M" -o "$cache/time" "$@" >"$out" 2>"$cache/stderr" || true
		t1=$EPOCHREALTIME
		read -r user sys rss <"$cache/time"
		line="$(echo "$t1 - $t0" | bc) $(echo "$user + $sys" | bc) $rss"
		if [ -z "$best" ] || [ "$(echo "${line%% *} < ${best%% *}" | bc)" = 1 ]; then best=$line; fi
	done
	read -r wall cpu rss <<<"$best"
	printf '%-46s %8.3f %8.2f %8.1f\n' "$label" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)"
	echo "$wall $cpu" >"$cache/last"
}

printf '\nperf.data of %d MB (AUX data), 22,400,000 SPE records on 7 CPUs; %s online CPUs, load %s\n' \
	$(($(stat -c %s "$cache/1g.data") / 1048576)) "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-46s %8s %8s %8s\n' "command" "wall s" "CPU s" "peak MB"
measure "spe-decode report -j 1" "$cache/r1.out" "$spe" report -j 1 "$cache/1g.data"
read -r w1 _ <"$cache/last"
measure "spe-decode report -j 2" "$cache/r2.out" "$spe" report -j 2 "$cache/1g.data"
read -r w2 _ <"$cache/last"
if cmp -s "$cache/r1.out" "$cache/r2.out"; then same=identical; else same=DIFFERENT; fi
printf 'report -j 2 vs -j 1: output %s, speed-up %.2fx wall (target >= 1.7x)\n' "$same" \
	"$(echo "$w1 / $w2" | bc -l)"
# What decoding alone costs, the floor under report's time: the 1 GB file
# is 7 copies of big.bin, so 7 x records --count of big.bin (the file
# mapped, then records; no perf.data, no time-ordered merge, no counting),
# spread over 2 threads with nothing lost to splitting.
measure "  floor: records --count of 1/7 of the data" /dev/null "$spe" records --count "$cache/big.bin"
read -r wf cf <"$cache/last"
printf '  floor: decoding the 1 GB alone, 2 threads %8.3f s wall (7 x %.2f CPU s / 2)\n' \
	"$(echo "7 * $cf / 2" | bc -l)" "$cf"
printf 'report -j 2: %.2fx the floor (target <= 1.5x)\n' "$(echo "$w2 / (7 * $cf / 2)" | bc -l)"
# The view whose memory grows most with the input: its rows keep each
# distinct latency value (4 bytes, or a histogram), and a larger file has
# more of them; with 2 threads, two sessions fill tables at once.
measure "spe-decode report --sort sym,data_src -j 2 (< 3 s)" /dev/null \
	"$spe" report --sort sym,data_src -j 2 "$cache/1g.data"
rm -f "$cache/1g.data" "$cache/r1.out" "$cache/r2.out"

printf '\nperf.data of %d MB, 800,000 SPE records on 4 CPUs\n' $(($(stat -c %s "$cache/b32.data") / 1048576))
printf '%-46s %8s %8s %8s\n' "command" "wall s" "CPU s" "peak MB"
if command -v perf >/dev/null; then
	measure "perf script" "$cache/perf.out" perf script -i "$cache/b32.data"
	read -r pw pc <"$cache/last"
fi
measure "spe-decode script --branch-miss -j 1" "$cache/spe1.out" \
	"$spe" script -j 1 --branch-miss "$cache/b32.data"
measure "spe-decode script --branch-miss (same output)" "$cache/spe.out" \
	"$spe" script --branch-miss "$cache/b32.data"
read -r sw _ <"$cache/last"
# The same samples as JSON lines and CSV, every field (to /dev/null: their
# output is 2.7 and 1.1 times the size of perf's layout).
measure "spe-decode script --json (all fields)" /dev/null "$spe" script --json "$cache/b32.data"
read -r jw jc <"$cache/last"
measure "spe-decode script --csv (all fields)" /dev/null "$spe" script --csv "$cache/b32.data"
read -r _ cc <"$cache/last"
printf 'script --json vs script: %.2fx the wall time (target <= 2x)\n' "$(echo "$jw / $sw" | bc -l)"
# CPU time, not wall: perf is single-threaded, script has a writer thread,
# and wall time on a shared machine is noise.
if command -v perf >/dev/null; then
	printf 'script --json, --csv vs perf script: %.1fx, %.1fx faster in CPU time (target >= 5x)\n' \
		"$(echo "$pc / $jc" | bc -l)" "$(echo "$pc / $cc" | bc -l)"
fi
cmp -s "$cache/spe1.out" "$cache/spe.out" ||
	echo "spe-decode script: output with $(nproc) threads DIFFERS from -j 1"
if command -v perf >/dev/null; then
	if cmp -s "$cache/perf.out" "$cache/spe.out"; then same=identical; else same=DIFFERENT; fi
	printf 'script vs perf script: output %s; speed-up %.1fx wall (target >= 15x)\n' "$same" \
		"$(echo "$pw / $sw" | bc -l)"
	measure "perf report --itrace=i1i --sort sym" /dev/null \
		perf report -i "$cache/b32.data" --itrace=i1i --stdio --sort sym
	read -r prw _ <"$cache/last"
fi
measure "spe-decode report --sort sym" /dev/null "$spe" report --sort sym "$cache/b32.data"
read -r rw _ <"$cache/last"
if command -v perf >/dev/null; then
	printf 'report --sort sym vs perf report --sort sym: %.1fx faster (target >= 10x)\n' \
		"$(echo "$prw / $rw" | bc -l)"
fi
measure "spe-decode report --sort sym,data_src" /dev/null "$spe" report --sort sym,data_src "$cache/b32.data"
measure "spe-decode c2c" /dev/null "$spe" c2c "$cache/b32.data"
measure "spe-decode html" /dev/null "$spe" html -o "$cache/r.html" "$cache/b32.data"
measure "spe-decode pprof" /dev/null "$spe" pprof -o "$cache/p.pb.gz" "$cache/b32.data"
rm -f "$cache/perf.out" "$cache/spe.out" "$cache/spe1.out" "$cache/r.html" "$cache/p.pb.gz"

# Code without symbols, nearly every instruction address its own
# (bench_many_rows_inputs): by address, a row for nearly every record,
# and the views' time and memory grow with the rows; by page (the
# default) the rows are the pages touched.  perf report runs once (its
# run is the longest of the benchmark).
bench_many_rows_inputs "$cache"
printf '\nperf.data of %d MB, 1,000,000 SPE records on 4 CPUs, PCs without symbols\n' \
	$(($(stat -c %s "$cache/rows.data") / 1048576))
printf '%-46s %8s %8s %8s\n' "command" "wall s" "CPU s" "peak MB"
if command -v perf >/dev/null; then
	runs=1 measure "perf report --itrace=i1i --sort sym (1 run)" /dev/null \
		perf report -i "$cache/rows.data" --itrace=i1i --stdio --sort sym
fi
# table_rows FILE: the rows of a report --sort table.
table_rows() { awk 'f && /^ *[0-9]/ {n++} /^ *samples/ {f = 1} END {print n + 0}' "$1"; }
for u in page address; do
	measure "spe-decode report --sort sym (by $u)" "$cache/rs.out" \
		"$spe" report --sort sym --unresolved $u "$cache/rows.data"
	rows_sym=$(table_rows "$cache/rs.out")
	measure "spe-decode report --sort sym,data_src (by $u)" "$cache/rs.out" \
		"$spe" report --sort sym,data_src --unresolved $u "$cache/rows.data"
	rows_ds=$(table_rows "$cache/rs.out")
	measure "spe-decode html (by $u)" /dev/null \
		"$spe" html --unresolved $u -o "$cache/r.html" "$cache/rows.data"
	measure "spe-decode pprof (by $u)" /dev/null \
		"$spe" pprof --unresolved $u -o "$cache/p.pb.gz" "$cache/rows.data"
	printf '  --unresolved %s: %d rows by sym, %d by sym,data_src\n' "$u" "$rows_sym" "$rows_ds"
done
echo "(target: under 64 MB each by page, the default)"
rm -f "$cache/rows.data" "$cache/r.html" "$cache/p.pb.gz" "$cache/rs.out"
