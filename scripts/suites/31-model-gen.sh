#!/usr/bin/env bash
# spe-gen: deterministic traces from the SPU model.  Same profile and seed
# give the same bytes; the traces match the checked-in golden digests (a
# change to the model's output must update them on purpose:
# SPE_GEN_UPDATE_GOLDEN=1 rewrites them); bad arguments are refused.
# --perf-data writes through the decoder library it links (no spe-decode
# is run): the bytes spe-decode wrap writes for the same trace.
# --version prints the release's version as spe-decode --version does.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/perf-dump.sh
. "$top/scripts/lib/perf-dump.sh"
gen="$top/build/spu-model/spe-gen"
golden="$top/tools/spu-model/tests/golden"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

make -s -C "$top/tools/spu-model" >/dev/null 2>&1
tap_status $? "spe-gen builds"

for p in v1-min n1 v2 full; do
	"$gen" -q -p "$p" -s 3 -n 64K -j -o "$tmp/$p.a" && "$gen" -q -p "$p" -s 3 -n 64K -j -o "$tmp/$p.b"
	cmp -s "$tmp/$p.a" "$tmp/$p.b"
	tap_status $? "spe-gen $p: the same seed gives the same bytes"
	size=$(stat -c %s "$tmp/$p.a")
	[ "$size" -gt 60000 ] && [ "$size" -le 65536 ]
	tap_status $? "spe-gen $p: a 64K buffer is filled to within one record and never past it ($size bytes)"
	sum=$(sha256sum <"$tmp/$p.a" | cut -d' ' -f1)
	if [ "${SPE_GEN_UPDATE_GOLDEN:-0}" = 1 ]; then
		echo "$sum" >"$golden/$p-s3-64k-jitter.sha256"
	fi
	[ "$sum" = "$(cat "$golden/$p-s3-64k-jitter.sha256" 2>/dev/null)" ]
	tap_status $? "spe-gen $p: output matches the golden digest"
done
"$gen" -q -p n1 -s 4 -n 64K -o "$tmp/s4"
! cmp -s "$tmp/s4" "$tmp/n1.a"
tap_status $? "spe-gen: another seed gives another trace"
"$gen" -q -p nosuch -o "$tmp/x" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown profile" "$tmp/err"
tap_status $? "spe-gen: an unknown profile is refused with a clear message"
"$gen" -q -i 300 -o "$tmp/x" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "multiple of 256" "$tmp/err"
tap_status $? "spe-gen: an interval that is not a multiple of 256 is refused"

# perf.data around a trace, read by the host's perf as an independent decoder.
for p in n1 v2; do
	name="spe-gen --perf-data $p: host perf report -D decodes one PC per record, no bad packet"
	if ! sum=$("$gen" -p "$p" -s 5 -n 128K -o "$tmp/$p.bin" --perf-data "$tmp/$p.data" 2>&1); then
		tap_fail "$name" "$sum"
		continue
	fi
	recs=$(echo "$sum" | sed -n 's/.* \([0-9]*\) records.*/\1/p')
	if ! command -v perf >/dev/null; then
		tap_skip "$name" "perf is not installed"; continue
	fi
	pcs=$(perf_dump_sum "$tmp/$p.data" records)
	bad=$(perf_dump_sum "$tmp/$p.data" bad)
	[ "$pcs" -eq "$recs" ] && [ "$recs" -gt 0 ] && [ "$bad" -eq 0 ]
	tap_status $? "$name ($pcs of $recs)" "$bad lines of bad packets or errors"
done
# spe-gen alone, with nothing to run (an empty environment, no PATH), writes
# the perf.data that spe-decode wrap writes for its trace: the profile's
# MIDR, the interval as the period, the config of PMSCR (--no-pa: ts only).
dec=$top/build/spe-decode/spe-decode
alone=$tmp/alone
mkdir -p "$alone"
cp "$gen" "$alone/spe-gen"
if (cd "$alone" && env -i ./spe-gen -q -p v2 -s 6 -n 32K -i 512 --no-pa -o t.bin \
	--perf-data t.data) 2>"$tmp/err" && make -s -C "$top/tools/spe-decode" >/dev/null 2>&1 &&
   "$dec" wrap -o "$tmp/w.data" --midr 0x410fd4f1 --period 512 --config 0x1 "$alone/t.bin"; then
	cmp -s "$alone/t.data" "$tmp/w.data"
	tap_status $? "spe-gen --perf-data alone, nothing to run: the bytes of spe-decode wrap"
	# To a FIFO, perf's pipe format (perf record -o -), as wrap writes to stdout.
	mkfifo "$tmp/fifo"
	cat "$tmp/fifo" >"$tmp/fifo.data" &
	"$gen" -q -p v2 -s 6 -n 32K -i 512 --no-pa -o "$tmp/t2.bin" --perf-data "$tmp/fifo"
	gen_rc=$?
	wait
	"$dec" wrap -o - --midr 0x410fd4f1 --period 512 --config 0x1 "$tmp/t2.bin" >"$tmp/w.pipe"
	[ $gen_rc -eq 0 ] && [ -p "$tmp/fifo" ] && cmp -s "$tmp/fifo.data" "$tmp/w.pipe"
	tap_status $? "spe-gen --perf-data to a FIFO: written in place, perf's pipe format, as wrap -o -"
else
	tap_fail "spe-gen --perf-data alone, nothing to run: the bytes of spe-decode wrap" "$(cat "$tmp/err")"
fi
"$gen" -q -o "$tmp/k.bin" --perf-data "$tmp/no-such-dir/p.data" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "cannot write $tmp/no-such-dir/p.data" "$tmp/err" &&
	[ ! -e "$tmp/no-such-dir" ]
tap_status $? "spe-gen: a perf.data it cannot write is an error naming the file"
# --version: as spe-decode --version prints it, the same release's number.
make -s -C "$top/tools/spe-decode" >/dev/null 2>&1
want=$("$top/build/spe-decode/spe-decode" --version 2>/dev/null)
for opt in --version -v; do
	got=$("$gen" $opt 2>"$tmp/err")
	rc=$?
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "spe-gen ${want#spe-decode }" ] &&
	   [ "$got" != "spe-gen " ] && [ ! -s "$tmp/err" ]; then
		tap_ok "spe-gen $opt prints '$got' (spe-decode's: '$want'), exit 0"
	else
		tap_fail "spe-gen $opt prints its version" "exit $rc, '$got' (spe-decode: '$want')" "$(cat "$tmp/err")"
	fi
done
tap_done
