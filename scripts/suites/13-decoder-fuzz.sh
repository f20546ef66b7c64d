#!/usr/bin/env bash
# Fuzz each decoder layer for a bounded time (SPE_FUZZ_SECONDS, default 15
# per target) with libFuzzer + ASan + UBSan, seeded from the golden vectors.
# A crash, sanitizer report, invariant abort, leak or timeout fails the
# suite; the reproducer is kept in build/fuzz-artifacts/.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
secs=${SPE_FUZZ_SECONDS:-15}
n=0 failed=0

if ! command -v clang-14 >/dev/null; then
	echo "ok 1 - fuzz targets # SKIP clang-14 not installed (make deps)"
	echo "1..1"
	exit 0
fi
decoder_build || { echo "not ok 1 - spe-decode builds"; exit 1; }
# The decoder layers' targets (fuzz_perf_data has its own suite, 23).
targets="fuzz_packet fuzz_record fuzz_vector"
if ! log=$(cd "$top/tools/spe-decode" &&
	   make -j2 $(printf "$top/build/spe-decode-fuzz/%s " $targets) 2>&1); then
	echo "$log" | tail -20 | sed 's/^/# /'
	echo "not ok 1 - fuzz targets build"
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
	n=$((n + 1))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
	if [ $rc = 0 ]; then
		echo "ok $n - $name: ${secs}s of fuzzing (${runs:-?} inputs), no crash, sanitizer error or broken invariant"
	else
		failed=1
		echo "not ok $n - $name: ${secs}s of fuzzing (${runs:-?} inputs), no crash, sanitizer error or broken invariant"
		grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$work/$name.log" | head -8 | sed 's/^/# /'
	fi
done
echo "1..$n"
exit $failed
