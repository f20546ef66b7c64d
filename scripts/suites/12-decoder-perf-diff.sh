#!/usr/bin/env bash
# Differential test against host perf (perf 6.1, the reference decoder):
# every golden vector, large generated traces of realistic records and
# traces of the SPU model (spe-gen, every profile),
# are wrapped into a perf.data (`spe-decode wrap`, one AUXTRACE record) and
# `perf report -D`'s packet lines are compared with `spe-decode dump` on the
# same bytes (tools/spe-decode/tests/perf-dump-diff.awk: identical for
# every packet perf understands).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
records=${SPE_PERF_DIFF_RECORDS:-60000}
cmp_awk=$top/tools/spe-decode/tests/perf-dump-diff.awk
gen_awk=$top/tools/spe-decode/tests/gen/realistic.awk

if ! command -v perf >/dev/null || ! perf report --help >/dev/null 2>&1; then
	tap_skip "compare with perf report -D" "host perf not installed (make deps)"
	tap_done
	exit 0
fi
decoder_build || { tap_fail "spe-decode builds"; tap_done; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# compare NAME RAW: wrap RAW (zero-padded to 8 bytes, as AUX data is), dump
# it both ways, diff.
compare() {
	local name=$1 raw=$2 size pad
	local what="$name: spe-decode dump equals perf report -D on every packet perf decodes"
	size=$(stat -c %s "$raw")
	pad=$(( (8 - size % 8) % 8 ))
	[ $pad = 0 ] || head -c $pad /dev/zero >>"$raw"
	if ! "$spe_decode" wrap -o "$tmp/$name.data" "$raw" >"$tmp/wrap.log" 2>&1; then
		tap_fail "$name: wrapped into perf.data" "$(cat "$tmp/wrap.log")"
		return
	fi
	perf report -D -f -i "$tmp/$name.data" 2>/dev/null |
		grep -a '^\.  [0-9a-f]\{8\}:  ' >"$tmp/$name.perf"
	"$spe_decode" dump "$raw" >"$tmp/$name.ours" 2>/dev/null
	if [ ! -s "$tmp/$name.perf" ]; then
		tap_fail "$what" "perf printed no SPE packets for $name"
	elif awk -f "$cmp_awk" "$tmp/$name.ours" "$tmp/$name.perf" >"$tmp/cmp.log"; then
		tap_ok "$what $(tail -1 "$tmp/cmp.log" | sed 's/^# /(/; s/$/)/')"
	else
		tap_fail "$what" "$(head -30 "$tmp/cmp.log")"
	fi
}

for vec in "$vectors"/*.vec; do
	name=$(basename "$vec" .vec)
	"$spe_decode" encode -o "$tmp/$name.bin" "$vec" || { tap_fail "$name: encoded"; continue; }
	compare "$name" "$tmp/$name.bin"
done

awk -v records="$records" -v seed=7 -f "$gen_awk" | "$spe_decode" encode -o "$tmp/generated.bin" -
compare "generated-$records-records" "$tmp/generated.bin"
awk -v records=20000 -v seed=8 -v end=1 -f "$gen_awk" | "$spe_decode" encode -o "$tmp/generated-end.bin" -
compare "generated-20000-end-records" "$tmp/generated-end.bin"

# Traces from the SPU model (tools/spu-model's spe-gen), every profile.
if make -s -C "$top/tools/spu-model" -j2 >"$tmp/model-build.log" 2>&1 &&
   [ -x "$top/build/spu-model/spe-gen" ]; then
	for profile in v1-min n1 v2 full; do
		"$top/build/spu-model/spe-gen" -q -p "$profile" -s 3 -n 1048576 -o "$tmp/model-$profile.bin"
		compare "spe-gen-$profile-1MiB" "$tmp/model-$profile.bin"
	done
else
	tap_skip "spe-gen traces" "the SPU model (tools/spu-model) does not build"
fi

tap_done
