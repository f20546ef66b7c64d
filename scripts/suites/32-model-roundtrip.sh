#!/usr/bin/env bash
# Round trip: over a million random operations through the SPU model and
# back through the decoder library give exactly the operations that passed
# the filters, field by field (tools/spu-model/tests/test_roundtrip.c);
# then the same under ASan+UBSan.
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
rt=build/spu-model/tests/test_roundtrip

if [ ! -f "$top/tools/spe-decode/include/spe_decode.h" ]; then
	echo "ok 1 - round trip # SKIP the decoder library is not in this tree"
	exit 0
fi
if ! make -s -C "$model" "$top/$rt" >/dev/null; then
	echo "not ok 1 - the round-trip test builds against the decoder library"
	exit 1
fi
rc=0
"$top/$rt" | grep -v '^1\.\.' || rc=1
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
if make -s -C "$model" SAN=1 "$top/build/spu-model-san/tests/test_roundtrip" >/dev/null 2>&1 &&
   "$top/build/spu-model-san/tests/test_roundtrip" >/dev/null 2>&1; then
	echo "ok - round trip passes under ASan+UBSan"
else
	echo "not ok - round trip passes under ASan+UBSan"
	rc=1
fi
exit $rc
