#!/usr/bin/env bash
# libFuzzer on the perf.data reader and everything behind it (queues,
# synthesis, symbolisation, report, dump), from a seed corpus of valid files
# in every layout the writer makes.  A short run in the test command; run it
# longer by hand with FUZZ_SECONDS.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/perfdata-suite.sh
. "$top/scripts/lib/perfdata-suite.sh"
dec="$top/tools/spe-decode"
gen="$dec/tests/perfdata/gen_mixed.py"
secs=${FUZZ_SECONDS:-20}

if ! command -v clang-14 >/dev/null; then
	tap_skip "perf.data fuzz target" "clang-14 not installed (make deps)"
	tap_done
	exit 0
fi
# Built by the decoder's 'make fuzz' rule with every fuzz/fuzz_*.c target.
if make -s -C "$dec" -j2 "$top/build/spe-decode-fuzz/fuzz_perf_data" >"$tmp/cc.log" 2>&1; then
	tap_ok "fuzz target builds with -fsanitize=fuzzer,address,undefined"
else
	tap_fail "fuzz target builds" "$(tail -20 "$tmp/cc.log")"
	tap_done
	exit 1
fi
fuzzer="$top/build/spe-decode-fuzz/fuzz_perf_data"

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

cd "$tmp" && "$fuzzer" -max_total_time="$secs" -max_len=16384 \
	-timeout=10 -rss_limit_mb=1024 "$tmp/corpus" >"$tmp/fuzz.log" 2>&1
rc=$?
runs=$(grep -oE 'Done [0-9]+ runs' "$tmp/fuzz.log" | grep -oE '[0-9]+')
if [ $rc -eq 0 ] && [ -n "$runs" ]; then
	tap_ok "fuzzing the perf.data reader for ${secs}s: $runs inputs, no crash, leak or UB"
else
	tap_fail "fuzzing the perf.data reader" \
		"$(grep -E 'ERROR|runtime error|SUMMARY' "$tmp/fuzz.log" | head -5)" \
		"$(ls "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* 2>/dev/null | head -3)"
	mkdir -p "$top/build/fuzz-artifacts" && cp "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* \
		"$top/build/fuzz-artifacts/" 2>/dev/null
fi
tap_done
