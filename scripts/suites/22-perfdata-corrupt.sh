#!/usr/bin/env bash
# Corrupt perf.data input: every fault gives a clear error naming the file
# offset and a non-zero exit, and the samples decoded before it are still
# printed.  Run with the ASan+UBSan build, so a fault that reads out of
# bounds fails the test even when its output looks right.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/perfdata-suite.sh
. "$top/scripts/lib/perfdata-suite.sh"
gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"
patch="$top/tools/spe-decode/tests/perfdata/patch_record.py"

make -s -C "$top/tools/spe-decode" -j2 SAN=1 >"$tmp/build.log" 2>&1 ||
	{ tap_fail "sanitizer build" "$(cat "$tmp/build.log")"; exit 1; }
spe="$top/build/spe-decode-san/spe-decode"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1

python3 "$gen" 1000 --seed 7 --pad >"$tmp/c.bin"
"$spe" wrap -o "$tmp/good.data" --chunk 4096 "$tmp/c.bin"
"$spe" script "$tmp/good.data" >"$tmp/good.out" 2>"$tmp/good.err"
full=$(wc -l <"$tmp/good.out")
if [ "$full" -gt 1000 ] && [ ! -s "$tmp/good.err" ]; then
	tap_ok "the intact file: $full samples, no message"
else
	tap_fail "the intact file decodes cleanly"
fi

# expect NAME FILE OFFSET_REGEX MESSAGE_REGEX MIN_SAMPLES [cmd]
expect() {
	local name=$1 file=$2 off=$3 msg=$4 min=$5 cmd=${6:-script}
	"$spe" "$cmd" "$file" >"$tmp/out" 2>"$tmp/err"
	local rc=$? got
	got=$(grep -c . "$tmp/out")
	if [ $rc -ne 0 ] && grep -qE "offset $off\b.*$msg" "$tmp/err" &&
	   [ "$got" -ge "$min" ] && ! grep -q 'Sanitizer' "$tmp/err"; then
		tap_ok "$name ($cmd: exit $rc, $got lines kept)"
	else
		tap_fail "$name ($cmd: exit $rc, $got lines)"
		sed 's/^/# /' "$tmp/err" | head -5
	fi
}

# A file cut inside the AUX data of its 4th AUXTRACE record.
cut=$(python3 - "$tmp/good.data" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', d, 40)
pos, k = off, 0
while pos < off + size:
    t, m, sz = struct.unpack_from('<IHH', d, pos)
    if t == 71:
        k += 1
        if k == 4:
            print(pos, pos + 48 + 100)
            break
        pos += struct.unpack_from('<Q', d, pos + 8)[0]
    pos += sz
PY
)
rec=${cut% *}
head -c "${cut#* }" "$tmp/good.data" >"$tmp/trunc.data"
# The part of the cut AUXTRACE data that is there is decoded (as perf
# report -D does), then the cut is the error, at that record.
expect "truncated inside AUXTRACE data: error at that AUXTRACE record" "$tmp/trunc.data" \
	"$(printf '%#x' "$rec")" "cut by the end of the file" 445
expect "truncated file: dump keeps the packets before the cut" "$tmp/trunc.data" \
	"$(printf '%#x' "$rec")" "cut by the end of the file" 2000 dump
head -c $(( ${cut% *} + 20 )) "$tmp/good.data" >"$tmp/trunc2.data"
expect "truncated inside a record header: error at that record" "$tmp/trunc2.data" \
	"$(printf '%#x' "$rec")" "cut by the end of the data" 300

printf 'PERFFILE\x68\0\0\0\0\0\0\0' >"$tmp/magic.data"
cat "$tmp/good.data" | tail -c +17 >>"$tmp/magic.data"
expect "wrong magic: refused at offset 0" "$tmp/magic.data" 0 "bad magic" 0
: >"$tmp/empty.data"
expect "an empty file is refused" "$tmp/empty.data" 0 "only 0 bytes" 0

cp "$tmp/good.data" "$tmp/size.data"
off=$(python3 "$patch" "$tmp/size.data" 68 3 6 2 4)
expect "record size below its header: error at it, samples before kept" "$tmp/size.data" \
	"$off" "less than its header" 300
cp "$tmp/good.data" "$tmp/big.data"
off=$(python3 "$patch" "$tmp/big.data" 11 5 6 2 0xfff8)
expect "record size past the data section: error at it" "$tmp/big.data" "$off" \
	"cut by the end of the data" 300
cp "$tmp/good.data" "$tmp/aux.data"
off=$(python3 "$patch" "$tmp/aux.data" 71 5 8 8 0x7fffffff00)
expect "AUXTRACE data past the end of file: error at the AUXTRACE record" "$tmp/aux.data" \
	"$off" "runs past the end" 300
cp "$tmp/good.data" "$tmp/type.data"
off=$(python3 "$patch" "$tmp/type.data" 68 4 0 4 200)
expect "unknown record type: error at it, samples before kept" "$tmp/type.data" "$off" \
	"unknown record type 200" 300
cp "$tmp/good.data" "$tmp/auxtype.data"
off=$(python3 "$patch" "$tmp/auxtype.data" 70 0 8 4 99)
expect "unknown AUXTRACE type: error at AUXTRACE_INFO" "$tmp/auxtype.data" "$off" \
	"not ARM SPE" 0
cp "$tmp/good.data" "$tmp/attr.data"
python3 - "$tmp/attr.data" <<'PY'
import struct, sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
aoff = struct.unpack_from('<Q', d, 24)[0]
struct.pack_into('<I', d, aoff + 4, 1000)      # attr.size lies
open(p, 'wb').write(d)
PY
expect "attribute size larger than its entry: error at the attr" "$tmp/attr.data" "0x[0-9a-f]+" \
	"attribute size 1000" 0

# Corrupt SPE bytes inside good records: decoded around, counted, reported.
python3 - "$tmp/c.bin" "$tmp/bad.bin" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for i in range(64 * 5, len(d), 64 * 37):
    d[i] = d[i + 1] = 0x3f  # two extended-header prefixes: undecodable
open(sys.argv[2], 'wb').write(d)
PY
"$spe" wrap -o "$tmp/bad.data" --chunk 4096 "$tmp/bad.bin"
"$spe" script "$tmp/bad.data" >"$tmp/out" 2>"$tmp/err"
if grep -q "decode errors" "$tmp/err" && grep -qE "first SPE decode error at file offset 0x" "$tmp/err" &&
   [ "$(wc -l <"$tmp/out")" -gt 1000 ] && ! grep -q Sanitizer "$tmp/err"; then
	tap_ok "corrupt SPE bytes: records around them decoded, errors counted with their file offset"
else
	tap_fail "corrupt SPE bytes are decoded around and reported"
	head -3 "$tmp/err" | sed 's/^/# /'
fi

# Decode errors are a faulty input for every command alike: exit 1, after
# the output of all that decoded, and said once (dump counts bad bytes).
for cmd in script report "report -j 2" "report --sort sym" dump c2c "inject -o $tmp/b.data" \
	   "html -o $tmp/b.html" "pprof -o $tmp/b.pb.gz"; do
	rm -f "$tmp/b.data" "$tmp/b.html" "$tmp/b.pb.gz"
	# shellcheck disable=SC2086 # the command and its options are words
	"$spe" $cmd "$tmp/bad.data" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case $cmd in
	dump) said=$(grep -c "bad byte(s); first error at file offset 0x" "$tmp/err") ;;
	*) said=$(grep -c "SPE decode errors .*first SPE decode error at file offset 0x" "$tmp/err") ;;
	esac
	case $cmd in
	inject*) made=$(test -s "$tmp/b.data" && echo 1) ;;
	html*) made=$(test -s "$tmp/b.html" && echo 1) ;;
	pprof*) made=$(test -s "$tmp/b.pb.gz" && echo 1) ;;
	*) made=$(test "$(wc -l <"$tmp/out")" -gt 10 && echo 1) ;;
	esac
	if [ $rc -eq 1 ] && [ "$said" = 1 ] && [ "$made" = 1 ] && ! grep -q Sanitizer "$tmp/err"; then
		tap_ok "decode errors: ${cmd%% -o *} exits 1 with its output, says so once"
	else
		tap_fail "decode errors: ${cmd%% -o *}" "exit $rc, said $said times, output: ${made:-none}" \
			"$(head -3 "$tmp/err")"
	fi
done

# report on a cut file prints the summary of what decoded before the cut
# (the records script counts), warns once and exits 1.
"$spe" script "$tmp/trunc.data" 2>&1 >/dev/null | sed -n 's/.* \([0-9]*\) SPE records,.*/\1/p' >"$tmp/want"
"$spe" report "$tmp/trunc.data" >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(sed -n 's/^# SPE records: \([0-9]*\).*/\1/p' "$tmp/out")
if [ $rc -eq 1 ] && [ -s "$tmp/want" ] && [ "$got" = "$(cat "$tmp/want")" ] &&
   [ "$(grep -c "cut by the end of the file" "$tmp/err")" = 1 ]; then
	tap_ok "truncated file: report prints the summary of the $got records before the cut, exit 1"
else
	tap_fail "truncated file: report" "exit $rc, records '$got' (script: $(cat "$tmp/want"))" "$(head -3 "$tmp/err")"
fi
# c2c and html read the file twice: the cut is said once.
for cmd in c2c "html -o $tmp/t.html"; do
	# shellcheck disable=SC2086 # the command and its options are words
	"$spe" $cmd "$tmp/trunc.data" >/dev/null 2>"$tmp/err"
	rc=$?
	n=$(grep -c "cut by the end of the file" "$tmp/err")
	[ $rc -eq 1 ] && [ "$n" = 1 ] && tap_ok "truncated file: ${cmd%% *} warns once, exit 1" ||
		tap_fail "truncated file: ${cmd%% *}" "exit $rc, warned $n times"
done
# dump of an empty file says why there is nothing, as the others refuse it.
"$spe" dump "$tmp/empty.data" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "empty.data: empty" "$tmp/err" && [ ! -s "$tmp/out" ] &&
	tap_ok "dump of an empty file: exit 1, says it is empty" ||
	tap_fail "dump of an empty file" "exit $rc" "$(cat "$tmp/err")"

# AUX flags are counted and reported.
"$spe" wrap -o "$tmp/flags.data" --chunk 4096 --aux-flags 0xd "$tmp/c.bin"
"$spe" report "$tmp/flags.data" >"$tmp/out" 2>&1
if grep -q "AUX records 16: truncated 16, partial 16, collision 16" "$tmp/out"; then
	tap_ok "TRUNCATED/PARTIAL/COLLISION AUX flags are counted in the report"
else
	tap_fail "AUX flags are counted in the report"
fi
"$spe" script "$tmp/flags.data" 2>&1 >/dev/null | grep_q "16 truncated, 16 partial, 16 collision"
if [ $? -eq 0 ]; then tap_ok "script reports truncated data at the end"; else tap_fail "script reports truncated data at the end"; fi
tap_done
