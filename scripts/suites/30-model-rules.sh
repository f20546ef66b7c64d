#!/usr/bin/env bash
# SPU model rule tests (DDI 0586A §2-§5): one TAP line per rule, from every
# tools/spu-model/tests/test_*.c program, then the same programs built with
# ASan+UBSan as one more test point.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
model="$top/tools/spu-model"

if ! make -s -C "$model" rule-tests >/dev/null; then
	tap_fail "tools/spu-model builds"
	tap_done
	exit 1
fi
for t in "$top"/build/spu-model/tests/test_*; do
	case "$t" in *.o|*.d|*test_roundtrip*) continue ;; esac
	tap_sub "$(basename "$t")" "$t"
done

san_ok=1
if make -s -C "$model" SAN=1 rule-tests >/dev/null 2>&1; then
	for t in "$top"/build/spu-model-san/tests/test_*; do
		case "$t" in *.o|*.d|*test_roundtrip*) continue ;; esac
		"$t" >/dev/null 2>&1 || san_ok=0
	done
else
	san_ok=0
fi
tap_status $((!san_ok)) "model rule tests pass under ASan+UBSan"
tap_done
