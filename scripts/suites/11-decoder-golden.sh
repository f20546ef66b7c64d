#!/usr/bin/env bash
# Golden vectors: tools/spe-decode/tests/vectors/NAME.vec is encoded to raw
# SPE bytes; `spe-decode dump`, `dump --full` and `records` must print
# exactly NAME.dump, NAME.full and NAME.records (compared with diff), and
# the exit status must be 1 exactly when the records show an error.
#
# SPE_GOLDEN_UPDATE=1 rewrites the expected files instead (review the diff!).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
bin=${SPE_DECODE:-$spe_decode}
[ -n "${SPE_DECODE:-}" ] || decoder_build || { tap_fail "spe-decode builds"; tap_done; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {	# name, expected file, actual file
	if [ "${SPE_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$3" "$2"
	elif ! diff -u "$2" "$3" >"$tmp/diff" 2>&1; then
		sed 's/^/# /' "$tmp/diff" | head -40
		return 1
	fi
}

for vec in "$vectors"/*.vec; do
	name=$(basename "$vec" .vec)
	base=${vec%.vec}
	ok=1
	if ! "$bin" encode -o "$tmp/$name.bin" "$vec" 2>"$tmp/err"; then
		sed 's/^/# /' "$tmp/err"
		ok=0
	else
		"$bin" dump "$tmp/$name.bin" >"$tmp/$name.dump" 2>/dev/null
		drc=$?
		"$bin" dump --full "$tmp/$name.bin" >"$tmp/$name.full" 2>/dev/null
		"$bin" records "$tmp/$name.bin" >"$tmp/$name.records" 2>/dev/null
		rrc=$?
		check "$name" "$base.dump" "$tmp/$name.dump" || ok=0
		check "$name" "$base.full" "$tmp/$name.full" || ok=0
		check "$name" "$base.records" "$tmp/$name.records" || ok=0
		want=0
		grep -q '^# error' "$tmp/$name.records" && want=1
		if [ "$rrc" != "$want" ] || [ "$drc" -gt 1 ]; then
			echo "# exit status: records $rrc dump $drc, want records $want"
			ok=0
		fi
	fi
	tap_status $((!ok)) "vector $name: dump, full dump and records match the golden files"
done

# JSON lines: one object per record, errors as objects too.
"$bin" encode -o "$tmp/j.bin" "$vectors/load-record.vec"
"$bin" encode -o "$tmp/b.bin" "$vectors/bad-byte.vec"
{ "$bin" records --json "$tmp/j.bin"; "$bin" records --json "$tmp/b.bin"; } >"$tmp/records.json" 2>/dev/null
check json "$vectors/json.expected" "$tmp/records.json"
tap_status $? "records --json prints the golden JSON lines (records and errors)"

# Every vector's --json output is valid JSON, one object per line.
if command -v python3 >/dev/null; then
	for vec in "$vectors"/*.vec; do
		"$bin" encode -o "$tmp/v.bin" "$vec" && "$bin" records --json "$tmp/v.bin" 2>/dev/null
	done >"$tmp/all.json"
	if python3 -c 'import json, sys
for i, line in enumerate(sys.stdin, 1):
    obj = json.loads(line)
    assert isinstance(obj, dict) and ("offset" in obj), i' <"$tmp/all.json" 2>"$tmp/err"; then
		tap_ok "records --json is valid JSON lines on every vector ($(wc -l <"$tmp/all.json") objects)"
	else
		tap_fail "records --json is valid JSON lines on every vector" "$(tail -5 "$tmp/err")"
	fi
else
	tap_skip "records --json is valid JSON lines" "python3 not installed"
fi

tap_done
