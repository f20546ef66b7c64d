#!/usr/bin/env bash
# libFuzzer on the perf.data reader and everything behind it (queues,
# synthesis, symbolisation, report, dump), from a seed corpus of valid files
# in every layout the writer makes.  A short run in the test command; run it
# longer by hand with FUZZ_SECONDS.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
dec="$top/tools/spe-decode"
gen="$dec/tests/perfdata/gen_mixed.py"
secs=${FUZZ_SECONDS:-25}
out="$top/build/fuzz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }

cc=$(command -v clang-14 || command -v clang || true)
if [ -z "$cc" ]; then
	echo "ok 1 - perf.data fuzz target # SKIP no clang"
	echo "1..1"
	exit 0
fi
mkdir -p "$out"
if "$cc" -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -I"$dec/include" -I"$top/include" \
	"$dec/fuzz/fuzz_perf_data.c" "$dec"/lib/*.c -lelf -o "$out/fuzz_perf_data" 2>"$tmp/cc.log"; then
	ok "fuzz target builds with -fsanitize=fuzzer,address,undefined"
else
	cat "$tmp/cc.log"
	nok "fuzz target builds"
	echo "1..$n"
	exit 1
fi

make -s -C "$dec" -j2 >/dev/null 2>&1
spe="$top/build/spe-decode/spe-decode"
mkdir -p "$tmp/corpus"
python3 "$gen" 40 --seed 11 >"$tmp/a.bin"
python3 "$gen" 40 --seed 12 --no-context >"$tmp/b.bin"
"$spe" wrap -o "$tmp/corpus/v1.data" "$tmp/a.bin@0" "$tmp/b.bin@1"
"$spe" wrap -o "$tmp/corpus/v2.data" --version 2 --chunk 512 --aux-flags 0x5 "$tmp/a.bin"
"$spe" wrap -o "$tmp/corpus/pt.data" --per-thread --pid 5 --tid 6 --comm x \
	--mmap 0x400000:0x10000:0:/bin/true "$tmp/b.bin"
"$spe" wrap -o "$tmp/corpus/sw.data" --short-time-conv --switch 0:1000100:3:4 "$tmp/b.bin"
if command -v perf >/dev/null; then
	perf inject -i "$tmp/corpus/v1.data" -o - >"$tmp/corpus/pipe.data" 2>/dev/null
fi
"$spe" inject -o "$tmp/corpus/inj.data" "$tmp/corpus/v1.data" 2>/dev/null

cd "$tmp" && "$out/fuzz_perf_data" -max_total_time="$secs" -max_len=16384 \
	-timeout=10 -rss_limit_mb=1024 "$tmp/corpus" >"$tmp/fuzz.log" 2>&1
rc=$?
runs=$(grep -oE 'Done [0-9]+ runs' "$tmp/fuzz.log" | grep -oE '[0-9]+')
if [ $rc -eq 0 ] && [ -n "$runs" ]; then
	ok "fuzzing the perf.data reader for ${secs}s: $runs inputs, no crash, leak or UB"
else
	nok "fuzzing the perf.data reader"
	grep -E 'ERROR|runtime error|SUMMARY' "$tmp/fuzz.log" | head -5 | sed 's/^/# /'
	ls "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* 2>/dev/null | head -3 | sed 's/^/# /'
	mkdir -p "$top/build/fuzz/artifacts" && cp "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* \
		"$top/build/fuzz/artifacts/" 2>/dev/null
fi
echo "1..$n"
