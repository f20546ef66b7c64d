#!/usr/bin/env bash
# The decoder built with ASan+UBSan (make SAN=1): unit tests, CLI checks and
# every golden vector run under the sanitizers, so any out-of-bounds read,
# leak or undefined behaviour on these inputs fails the suite.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
decoder_build 1 || { echo "not ok 1 - spe-decode builds with SAN=1"; exit 1; }

# Re-run the unit and golden suites on the sanitizer build, renumbered.
n=0 failed=0
for suite in 10-decoder-unit 11-decoder-golden; do
	SAN=1 SPE_DECODE=$spe_decode_san bash "$top/scripts/suites/$suite.sh" >"$top/build/$suite-san.log" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) n=$((n + 1)); echo "ok $n - san: ${line#ok * - }" ;;
		"not ok "*) n=$((n + 1)); failed=1; echo "not ok $n - san: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$top/build/$suite-san.log"
	if [ $rc != 0 ] && [ $failed = 0 ]; then
		n=$((n + 1)); failed=1
		echo "not ok $n - san: $suite exits 0 (got $rc)"
		grep -E "ERROR|runtime error" "$top/build/$suite-san.log" | head -5 | sed 's/^/# /'
	fi
done
echo "1..$n"
exit $failed
