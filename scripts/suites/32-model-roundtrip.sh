#!/usr/bin/env bash
# Round trip: over a million random operations through the SPU model and
# back through the decoder library give exactly the operations that passed
# the filters, field by field (tools/spu-model/tests/test_roundtrip.c);
# then the same under ASan+UBSan.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
model="$top/tools/spu-model"
rt=build/spu-model/tests/test_roundtrip

if [ ! -f "$top/tools/spe-decode/include/spe_decode.h" ]; then
	tap_skip "round trip" "the decoder library is not in this tree"
	tap_done
	exit 0
fi
if ! make -s -C "$model" "$top/$rt" >/dev/null; then
	tap_fail "the round-trip test builds against the decoder library"
	tap_done
	exit 1
fi
tap_sub test_roundtrip "$top/$rt"
make -s -C "$model" SAN=1 "$top/build/spu-model-san/tests/test_roundtrip" >/dev/null 2>&1 &&
	"$top/build/spu-model-san/tests/test_roundtrip" >/dev/null 2>&1
tap_status $? "round trip passes under ASan+UBSan"
tap_done
