#!/usr/bin/env bash
# Decoder throughput beside host perf, on one 32 MB trace of realistic
# records wrapped into a perf.data for perf.  The trace comes from the SPU
# model (tools/spu-model's spe-gen, profile n1) when it builds, otherwise
# from tools/spe-decode/tests/gen/realistic.awk; it is generated once and
# kept in build/bench/.
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
size=${SPE_BENCH_BYTES:-33554432}
runs=${SPE_BENCH_RUNS:-3}
decoder_build
dir=$top/build/bench
mkdir -p "$dir"
gen=$top/build/spu-model/spe-gen
if make -s -C "$top/tools/spu-model" -j2 >/dev/null 2>&1 && [ -x "$gen" ]; then
	raw=$dir/decoder-spe-gen-n1-$size.bin
	[ -s "$raw" ] || "$gen" -q -p n1 -s 1 -n "$size" -o "$raw"
	source_name="spe-gen -p n1 (SPU model)"
else
	raw=$dir/decoder-awk-$size.bin
	[ -s "$raw" ] || awk -v records=$((size / 64)) -v seed=1 \
		-f "$top/tools/spe-decode/tests/gen/realistic.awk" |
		"$spe_decode" encode -o "$raw" -
	source_name="tests/gen/realistic.awk"
fi
data=${raw%.bin}.data
[ -s "$data" ] || "$spe_decode" wrap -o "$data" "$raw" >/dev/null
bytes=$(stat -c %s "$raw")
records=$("$spe_decode" records --count "$raw" | awk '{ print $2 }')

now() { date +%s%N; }
# measure RUNS CMD...: "wall_ns cpu_ns", the best of RUNS runs of each
# (output to /dev/null).  CPU time (user + system, from perf stat's
# task-clock) is what "on one core" means on a shared machine.  Wall time
# comes from runs without perf stat, whose own start-up would dominate
# our sub-second runs; perf's multi-second runs are timed in one go.
measure() {
	local n=$1 bw=0 bc=0 t0 t1 c
	shift
	for _ in $(seq "$n"); do
		c=
		if [ $have_perf = 1 ]; then
			t0=$(now)
			perf stat -x, -e task-clock -o "$dir/stat.csv" -- "$@" >/dev/null 2>&1 || true
			t1=$(now)
			c=$(awk -F, '/task-clock/ { printf "%.0f", $1 * 1e6 }' "$dir/stat.csv")
		fi
		if [ -z "$c" ] || [ "${bare:-1}" = 1 ]; then
			t0=$(now)
			"$@" >/dev/null 2>&1 || true
			t1=$(now)
		fi
		[ -n "$c" ] || c=$((t1 - t0))
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
	read -r w_pd c_pd < <(bare=0 measure 1 perf report -D -f -i "$data")
	read -r w_ps c_ps < <(bare=0 measure 1 perf script -f --itrace=M -i "$data")
fi

row() {	# name wall_ns cpu_ns
	awk -v name="$1" -v w="$2" -v c="$3" -v bytes="$bytes" -v recs="$records" 'BEGIN {
		printf "%-34s %8.3f %8.3f %9.1f MB/s %7.2f M rec/s\n", name, w / 1e9, c / 1e9,
			bytes / (c / 1e9) / 1e6, recs / (c / 1e9) / 1e6
	}'
}
echo "trace: $records records, $bytes bytes, from $source_name"
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
