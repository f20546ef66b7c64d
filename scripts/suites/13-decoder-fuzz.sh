#!/usr/bin/env bash
# Fuzz each decoder layer for a bounded time (SPE_FUZZ_SECONDS, default 15
# per target) with libFuzzer + ASan + UBSan, seeded from the golden vectors.
# A crash, sanitizer report, invariant abort, leak or timeout fails the
# suite; the reproducer is kept in build/fuzz-artifacts/.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
secs=${SPE_FUZZ_SECONDS:-15}

if ! command -v clang-14 >/dev/null; then
	tap_skip "fuzz targets" "clang-14 not installed (make deps)"
	tap_done
	exit 0
fi
decoder_build || { tap_fail "spe-decode builds"; tap_done; exit 1; }
# The decoder layers' targets (fuzz_perf_data has its own suite, 23).
targets="fuzz_packet fuzz_record fuzz_vector"
if ! log=$(cd "$top/tools/spe-decode" &&
	   make -j2 $(printf "$top/build/spe-decode-fuzz/%s " $targets) 2>&1); then
	tap_fail "fuzz targets build" "$(tail -20 <<<"$log")"
	tap_done
	exit 1
fi

work=$top/build/fuzz
art=$top/build/fuzz-artifacts
rm -rf "$work"
mkdir -p "$work" "$art"
for name in $targets; do
	target=$top/build/spe-decode-fuzz/$name
	corpus=$work/$name
	mkdir -p "$corpus"
	# Seeds: the vector texts for the encoder; for the decoders each
	# vector's bytes behind the target's 2-3 control bytes.
	for vec in "$vectors"/*.vec; do
		v=$(basename "$vec" .vec)
		if [ "$name" = fuzz_vector ]; then
			cp "$vec" "$corpus/$v"
			continue
		fi
		{ printf '\000\000\000'; "$spe_decode" encode "$vec"; } >"$corpus/$v" 2>/dev/null
		{ printf '\001\000\012'; "$spe_decode" encode "$vec"; } >"$corpus/$v-strict" 2>/dev/null
	done
	"$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-max_len=4096 -artifact_prefix="$art/$name-" -print_final_stats=1 \
		"$corpus" >"$work/$name.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
	tap_status $rc "$name: ${secs}s of fuzzing (${runs:-?} inputs), no crash, sanitizer error or broken invariant" \
		"$(grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$work/$name.log" | head -8)"
done
tap_done
