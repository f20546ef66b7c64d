#!/usr/bin/env bash
# Memory does not grow with the file: peak RSS of script, report and dump
# on an 11 MB and a 68 MB perf.data differ by less than 4 MB, and stay
# under 64 MB.  Script and report run with decoding threads and with -j1,
# where the session itself gives back the pages of decoded records, also
# on a file read into the page cache before (large folios).  The
# same for the views (report --sort, c2c, html, pprof) on a 22 MB and a
# 114 MB file of the same shape.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/perfdata-suite.sh
. "$top/scripts/lib/perfdata-suite.sh"
spe="$top/build/spe-decode/spe-decode"
gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"

make -s -C "$top/tools/spe-decode" -j2 >/dev/null 2>&1 || { tap_fail "build"; exit 1; }
if [ ! -x /usr/bin/time ]; then
	tap_skip "peak memory" "/usr/bin/time not installed"
	tap_done
	exit 0
fi
python3 "$gen" 50000 --seed 31 >"$tmp/a.bin"
for _ in 1 2 3 4 5; do cat "$tmp/a.bin"; done >"$tmp/small.bin"
for _ in 1 2 3 4 5; do cat "$tmp/small.bin"; done >"$tmp/big.bin"
"$spe" wrap -o "$tmp/small.data" "$tmp/small.bin@0"
"$spe" wrap -o "$tmp/big.data" --chunk 4194304 "$tmp/big.bin@0" "$tmp/small.bin@1"

peak() { /usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>&1; tail -1 "$tmp/rss"; }
for cmd in "script" "script -j1" "script --json" "report" "report -j1" "dump"; do
	# shellcheck disable=SC2086
	s=$(peak "$spe" $cmd "$tmp/small.data")
	# shellcheck disable=SC2086
	b=$(peak "$spe" $cmd "$tmp/big.data")
	if [ $((b - s)) -lt 4096 ] && [ "$b" -lt 65536 ]; then
		tap_ok "$cmd: peak $((s / 1024)) MB on $(($(stat -c %s "$tmp/small.data") >> 20)) MB, $((b / 1024)) MB on $(($(stat -c %s "$tmp/big.data") >> 20)) MB"
	else
		tap_fail "$cmd: peak ${s} KB on the small file, ${b} KB on the big one"
	fi
done
# A file read before sits in the page cache in large folios, and a fault
# anywhere in one maps all of it: reading each AUXTRACE header of the index
# through the mapping kept most of such a file resident (134 MB of a 154 MB
# recording of 2 MB buffers).  Two files of the same shape (two queues,
# 4 MB buffers), evicted and read back: peaks as above.
"$spe" wrap -o "$tmp/mid.data" --chunk 4194304 "$tmp/small.bin@0" "$tmp/small.bin@1"
python3 - "$tmp/mid.data" "$tmp/big.data" <<'PY'
import os, sys
for path in sys.argv[1:]:
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
PY
cat "$tmp/mid.data" "$tmp/big.data" >/dev/null
for cmd in "report -j1" "report" "script -j1"; do
	# shellcheck disable=SC2086
	s=$(peak "$spe" $cmd "$tmp/mid.data")
	# shellcheck disable=SC2086
	b=$(peak "$spe" $cmd "$tmp/big.data")
	# Large folios round what a decoder touches up: 6 MB of slack (the
	# fault this guards against added 19 to 22 MB here).
	if [ $((b - s)) -lt 6144 ] && [ "$b" -lt 65536 ]; then
		tap_ok "$cmd, files read into the page cache before: peak $((s / 1024)) MB on $(($(stat -c %s "$tmp/mid.data") >> 20)) MB, $((b / 1024)) MB on $(($(stat -c %s "$tmp/big.data") >> 20)) MB"
	else
		tap_fail "$cmd, files read into the page cache before" "peak ${s} KB on the $(($(stat -c %s "$tmp/mid.data") >> 20)) MB file, ${b} KB on the big one"
	fi
done
# The analysis views keep tables that grow with what is distinct (symbols,
# lines, samples), not with the records: the same records on two CPUs,
# 5 and 25 times over (a file of the same shape, five times the size).
"$spe" wrap -o "$tmp/small2.data" "$tmp/small.bin@0" "$tmp/small.bin@1"
"$spe" wrap -o "$tmp/big2.data" --chunk 4194304 "$tmp/big.bin@0" "$tmp/big.bin@1"
# report --sort with 2 threads fills a table per session, two at once, so
# what grows with the records (the distinct latencies of each row) grows
# twice: 8 MB of slack for it, 4 MB for the others.
for cmd in "report --sort sym" "report --sort sym,data_src,symbol_daddr -j 1" \
	   "report --sort sym,data_src,symbol_daddr -j 2" "c2c" \
	   "html -o $tmp/v.html" "pprof -o $tmp/v.pb.gz"; do
	# shellcheck disable=SC2086
	s=$(peak "$spe" $cmd "$tmp/small2.data")
	# shellcheck disable=SC2086
	b=$(peak "$spe" $cmd "$tmp/big2.data")
	name=${cmd%% -o *}
	slack=4096
	[[ $cmd == *"-j 2" ]] && slack=8192
	if [ $((b - s)) -lt $slack ] && [ "$b" -lt 65536 ]; then
		tap_ok "$name: peak $((s / 1024)) MB on $(($(stat -c %s "$tmp/small2.data") >> 20)) MB, $((b / 1024)) MB on $(($(stat -c %s "$tmp/big2.data") >> 20)) MB"
	else
		tap_fail "$name: peak ${s} KB on the small file, ${b} KB on the big one"
	fi
done

# report -j 2 on 171 MB: more spans than threads (4 for 2 threads, of
# 7, 5, 3 and 1 sixteenths), taken in turn, three queues each cut in 4 MB
# buffers: the same report as -j 1, within the same memory.
"$spe" wrap -o "$tmp/span.data" --chunk 4194304 "$tmp/big.bin@0" "$tmp/big.bin@1" "$tmp/big.bin@2"
"$spe" report -j 1 "$tmp/span.data" >"$tmp/span1.out" 2>&1
b=$(peak "$spe" report -v -j 2 "$tmp/span.data")
"$spe" report -v -j 2 "$tmp/span.data" >"$tmp/span2.out" 2>"$tmp/span2.err"
# The last two spans are both parts of queue 2: the last is the smaller.
shrink=$(sed -n 's/^spe-decode report: 4 sessions, queues 0,1 bytes 0-[0-9]* | 1 bytes [0-9]*-[0-9]*,2 bytes 0-[0-9]* | 2 bytes \([0-9]*\)-\([0-9]*\) | 2 bytes [0-9]*-\([0-9]*\)$/\1 \2 \3/p' \
	"$tmp/span2.err")
if [ -n "$shrink" ] && ! grep -q again "$tmp/span2.err" && [ -s "$tmp/span1.out" ] &&
   awk '{ exit !($3 - $2 < $2 - $1) }' <<<"$shrink" &&
   cmp -s "$tmp/span1.out" "$tmp/span2.out" && [ "$b" -lt 65536 ]; then
	tap_ok "report -j 2 on $(($(stat -c %s "$tmp/span.data") >> 20)) MB: 4 shrinking spans on 2 threads, -j 1's report, peak $((b / 1024)) MB"
else
	tap_fail "report -j 2 over 4 spans" "$(cat "$tmp/span2.err"; diff "$tmp/span1.out" "$tmp/span2.out" | head -5)"
fi

# perf's pipe format (written by perf inject -o -), from a pipe.
if command -v perf >/dev/null && perf inject -i "$tmp/big.data" -o - >"$tmp/pipe.data" 2>/dev/null; then
	cat "$tmp/pipe.data" | /usr/bin/time -f %M -o "$tmp/rss" "$spe" report - >"$tmp/rep" 2>&1
	rc=$?
	b=$(tail -1 "$tmp/rss")
	want=$("$spe" report "$tmp/big.data" 2>/dev/null | grep '^# SPE records')
	if [ $rc -eq 0 ] && grep -qF "$want" "$tmp/rep" && [ "$b" -lt 65536 ]; then
		tap_ok "report of $(($(stat -c %s "$tmp/pipe.data") >> 20)) MB from a pipe: the file's records, peak $((b / 1024)) MB"
	else
		tap_fail "report from a pipe: exit $rc, peak ${b} KB"
	fi
else
	tap_skip "report from a pipe" "perf inject unavailable"
fi
tap_done
