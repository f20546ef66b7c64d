#!/usr/bin/env bash
# SPU model rule tests (DDI 0586A §2-§5): one TAP line per rule, from every
# tools/spu-model/tests/test_*.c program, then the same programs built with
# ASan+UBSan as one more test point.
set -uo pipefail
# Number every TAP line of the test programs in one sequence.
if [ -z "${SPU_TAP_RENUMBERED:-}" ]; then
	SPU_TAP_RENUMBERED=1 bash "$0" "$@" |
		awk '/^ok / { sub(/^ok( [0-9]+)?/, "ok " ++n) }
		     /^not ok / { sub(/^not ok( [0-9]+)?/, "not ok " ++n) } { print }'
	exit "${PIPESTATUS[0]}"
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
model="$top/tools/spu-model"

if ! make -s -C "$model" rule-tests >/dev/null; then
	echo "not ok 1 - tools/spu-model builds"
	exit 1
fi
rc=0
for t in "$top"/build/spu-model/tests/test_*; do
	case "$t" in *.o|*.d|*test_roundtrip*) continue ;; esac
	"$t" | grep -v '^1\.\.' || rc=1
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
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
if [ $san_ok -eq 1 ]; then
	echo "ok - model rule tests pass under ASan+UBSan"
else
	echo "not ok - model rule tests pass under ASan+UBSan"
	rc=1
fi
exit $rc
