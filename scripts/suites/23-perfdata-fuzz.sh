#!/usr/bin/env bash
# libFuzzer on the perf.data reader and everything behind it (queues,
# synthesis, symbolisation, report, dump: fuzz_perf_data), on the
# analysis views fed from it (cost tables, c2c, the HTML report, pprof:
# fuzz_views) and on the commands, whose output must not depend on the
# number of threads (script, report and c2c, -j 1 against -j 2:
# fuzz_cli), from a seed corpus of valid files in every layout the writer
# makes.  A short run of each in the test command; run them longer by hand
# with FUZZ_SECONDS.
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
bins=("$top/build/spe-decode-fuzz/fuzz_perf_data" "$top/build/spe-decode-fuzz/fuzz_views"
      "$top/build/spe-decode-fuzz/fuzz_cli")
if make -s -C "$dec" -j2 "${bins[@]}" >"$tmp/cc.log" 2>&1; then
	tap_ok "fuzz targets build with -fsanitize=fuzzer,address,undefined"
else
	tap_fail "fuzz targets build" "$(tail -20 "$tmp/cc.log")"
	tap_done
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

# fuzz NAME WHAT [FLAG...]: a run of build/spe-decode-fuzz/NAME on a copy
# of the corpus (each target grows its own).
fuzz() {
	local name=$1 what=$2 dir="$tmp/$1" rc runs
	shift 2
	mkdir -p "$dir/corpus"
	cp "$tmp"/corpus/* "$dir/corpus/"
	(cd "$dir" && "$top/build/spe-decode-fuzz/$name" -max_total_time="$secs" -max_len=16384 \
		-timeout=10 -rss_limit_mb=2048 "$@" "$dir/corpus" >"$dir/fuzz.log" 2>&1)
	rc=$?
	runs=$(grep -oE 'Done [0-9]+ runs' "$dir/fuzz.log" | grep -oE '[0-9]+')
	if [ $rc -eq 0 ] && [ -n "$runs" ]; then
		tap_ok "fuzzing $what for ${secs}s: $runs inputs, no crash, leak, UB or broken invariant"
	else
		tap_fail "fuzzing $what" \
			"$(grep -E 'ERROR|runtime error|SUMMARY' "$dir/fuzz.log" | head -5)" \
			"$(find "$dir" -maxdepth 1 -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
				-o -name 'differ-*' | head -4)"
		mkdir -p "$top/build/fuzz-artifacts" && cp "$dir"/crash-* "$dir"/leak-* \
			"$dir"/timeout-* "$dir"/differ-* "$top/build/fuzz-artifacts/" 2>/dev/null
	fi
}
fuzz fuzz_perf_data "the perf.data reader"
fuzz fuzz_views "the views (cost tables, c2c, HTML report, pprof)"
# The commands print what is wrong with a file on stderr: closed.
fuzz fuzz_cli "script, report and c2c, -j 1 against -j 2" -close_fd_mask=2
tap_done
