#!/usr/bin/env bash
# The decoder built with ASan+UBSan (make SAN=1): unit tests of every layer
# (the decoder's and the perf.data layers'), CLI checks, every golden vector
# and the files wrap writes for host perf run under the sanitizers, so any
# out-of-bounds read, leak or undefined behaviour on these inputs fails the
# suite.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
decoder_build 1 || { tap_fail "spe-decode builds with SAN=1"; tap_done; exit 1; }

# Re-run the unit, golden and perf.data unit/writer suites on the sanitizer
# build, renumbered; a sanitizer report goes to stderr, this suite's log.
for suite in 10-decoder-unit 11-decoder-golden 20-perfdata-units-writer; do
	tap_sub "san: $suite" env SAN=1 SPE_DECODE="$spe_decode_san" bash "$top/scripts/suites/$suite.sh"
done
tap_done
