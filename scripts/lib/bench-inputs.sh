# shellcheck shell=bash
# The generated SPE recordings the perf.data and views benchmarks share.
#
# bench_perfdata_inputs DIR: builds spe-decode, then writes into DIR (once)
# two 200,000-record AUX streams a.bin and b.bin, and (every time, with the
# spe-decode under test) b32.data: both streams, each on two CPUs, so 4
# queues and ~38 MB.  Sets $spe to the spe-decode binary.
bench_perfdata_inputs() {
	local dir=$1 top gen
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"
	spe="$top/build/spe-decode/spe-decode"
	mkdir -p "$dir"
	make -s -C "$top/tools/spe-decode" -j2 >/dev/null
	[ -s "$dir/a.bin" ] || python3 "$gen" 200000 --seed 21 >"$dir/a.bin"
	[ -s "$dir/b.bin" ] || python3 "$gen" 200000 --seed 22 --ts0 1000077 >"$dir/b.bin"
	"$spe" wrap -o "$dir/b32.data" --pid 100 --tid 100 --comm bench \
		"$dir/a.bin@0" "$dir/b.bin@1" "$dir/a.bin@2" "$dir/b.bin@3"
}

# bench_many_rows_inputs DIR: after bench_perfdata_inputs, writes into DIR
# (once) four 250,000-record AUX streams whose user PCs are drawn from 16
# million instructions and kernel PCs from a million (u0.bin..u3.bin), and
# (every time) rows.data: one stream per CPU, ~48 MB, nearly every PC of it
# a distinct address without a symbol, so a cost table by sym has a row
# for nearly every record.
bench_many_rows_inputs() {
	local dir=$1 top gen i
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"
	for i in 0 1 2 3; do
		[ -s "$dir/u$i.bin" ] ||
			python3 "$gen" 250000 --seed $((31 + i)) --ts0 $((1000000 + 11 * i)) \
				--pc-range 16777216 >"$dir/u$i.bin"
	done
	"$spe" wrap -o "$dir/rows.data" --pid 100 --tid 100 --comm bench \
		"$dir/u0.bin@0" "$dir/u1.bin@1" "$dir/u2.bin@2" "$dir/u3.bin@3"
}
