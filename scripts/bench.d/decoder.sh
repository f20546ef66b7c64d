#!/usr/bin/env bash
# Decoder throughput beside host perf, on one generated trace of realistic
# records (tools/spe-decode/tests/gen/realistic.awk; 500,000 records, 32 MB
# by default: SPE_BENCH_RECORDS), wrapped into a perf.data for perf.
#
#   spe-decode records --count   decode every record, print only the totals
#   spe-decode dump >/dev/null   the perf report -D text of every packet
#   perf report -D >/dev/null    perf's packet dump of the same data
#   perf script --itrace=M       perf's fastest record decode (memory samples)
#
# Ours: best of SPE_BENCH_RUNS (3) runs; perf: one run.  Targets: records
# >= 1 GB/s on one core, dump >= 10x faster than perf report -D.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
records=${SPE_BENCH_RECORDS:-500000}
runs=${SPE_BENCH_RUNS:-3}
decoder_build
dir=$top/build/bench
mkdir -p "$dir"
raw=$dir/decoder-$records.bin
data=$dir/decoder-$records.data
if [ ! -s "$raw" ]; then
	awk -v records="$records" -v seed=1 -f "$top/tools/spe-decode/tests/gen/realistic.awk" |
		"$spe_decode" encode -o "$raw" -
fi
[ -s "$data" ] || "$spe_decode" wrap -o "$data" "$raw" >/dev/null
bytes=$(stat -c %s "$raw")

now() { date +%s%N; }
# measure RUNS CMD...: "wall_ns cpu_ns", the best of RUNS runs of each
# (output to /dev/null).  CPU time (user + system, from perf stat's
# task-clock) is what "on one core" means on a shared machine; wall time
# is printed too.
measure() {
	local n=$1 bw=0 bc=0 t0 t1 c
	shift
	for _ in $(seq "$n"); do
		t0=$(now)
		if [ $have_perf = 1 ]; then
			perf stat -x, -e task-clock -o "$dir/stat.csv" -- "$@" >/dev/null 2>&1 || true
			c=$(awk -F, '/task-clock/ { printf "%d", $1 * 1e6 }' "$dir/stat.csv")
		else
			"$@" >/dev/null 2>&1 || true
		fi
		t1=$(now)
		[ -n "${c:-}" ] || c=$((t1 - t0))
		{ [ "$bw" = 0 ] || [ $((t1 - t0)) -lt "$bw" ]; } && bw=$((t1 - t0))
		{ [ "$bc" = 0 ] || [ "$c" -lt "$bc" ]; } && bc=$c
	done
	echo "$bw $bc"
}
have_perf=0
command -v perf >/dev/null && have_perf=1
cat "$raw" "$data" >/dev/null	# page cache warm for everyone

read -r w_rec c_rec < <(measure "$runs" "$spe_decode" records --count "$raw")
read -r w_dump c_dump < <(measure "$runs" "$spe_decode" dump "$raw")
if [ $have_perf = 1 ]; then
	read -r w_pd c_pd < <(measure 1 perf report -D -f -i "$data")
	read -r w_ps c_ps < <(measure 1 perf script -f --itrace=M -i "$data")
fi

row() {	# name wall_ns cpu_ns
	awk -v name="$1" -v w="$2" -v c="$3" -v bytes="$bytes" -v recs="$records" 'BEGIN {
		printf "%-34s %8.3f %8.3f %9.1f MB/s %7.2f M rec/s\n", name, w / 1e9, c / 1e9,
			bytes / (c / 1e9) / 1e6, recs / (c / 1e9) / 1e6
	}'
}
echo "trace: $records records, $bytes bytes ($(basename "$raw"))"
printf "%-34s %8s %8s %14s %14s\n" "" "wall s" "cpu s" "(per cpu s)" ""
row "spe-decode records --count" "$w_rec" "$c_rec"
row "spe-decode dump >/dev/null" "$w_dump" "$c_dump"
if [ $have_perf = 1 ]; then
	row "perf report -D >/dev/null" "$w_pd" "$c_pd"
	row "perf script --itrace=M >/dev/null" "$w_ps" "$c_ps"
	awk -v a="$c_pd" -v b="$c_dump" -v c="$c_ps" -v d="$c_rec" -v aw="$w_pd" -v bw="$w_dump" 'BEGIN {
		printf "dump vs perf report -D: %.1fx faster in cpu time, %.1fx in wall time (target >= 10x)\n", a / b, aw / bw
		printf "records --count vs perf script --itrace=M: %.1fx faster in cpu time\n", c / d
	}'
else
	echo "perf not installed: no reference numbers"
fi
awk -v c="$c_rec" -v w="$w_rec" -v bytes="$bytes" 'BEGIN {
	printf "record decoding: %.2f GB/s per cpu second, %.2f GB/s wall (target >= 1 GB/s on one core)\n",
		bytes / (c / 1e9) / 1e9, bytes / (w / 1e9) / 1e9 }'
