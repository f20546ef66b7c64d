#!/usr/bin/env bash
# Decoding on several threads (-j N): every command's output is the same,
# byte for byte, as with -j 1 - on many queues, with partial and corrupt
# records (the first decode error's offset included), and with more
# threads than queues or cores; script's writer thread reports write
# errors and stops when its reader goes away.  Bad -j values are usage errors.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/views-fixture.sh
. "$top/scripts/lib/views-fixture.sh"
spe_views_setup
python3 "$gen" 30000 --seed 41 >"$tmp/a.bin"
python3 "$gen" 30000 --seed 42 --ts0 1000033 >"$tmp/b.bin"
python3 "$gen" 20000 --seed 43 --ts0 999000 >"$tmp/c.bin"
# A corrupted copy: a few bytes overwritten with invalid headers.
python3 - "$tmp/a.bin" "$tmp/bad.bin" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for off in range(5000, len(d), 97003):
    d[off:off + 3] = b'\x20\x20\x20'  # extended-header prefixes: undecodable
open(sys.argv[2], 'wb').write(bytes(d))
PY
# 6 queues, several AUXTRACE records each (chunks cut records: partials);
# the kernel's map, for the kernel symbols of --kallsyms below.
kmap=(--kernel-mmap "0xffff800008000000:0x400000:0:[kernel.kallsyms]_text")
"$spe" wrap -o "$tmp/m.data" --chunk 65536 "${kmap[@]}" "$tmp/a.bin@0" "$tmp/b.bin@1" "$tmp/c.bin@2" \
	"$tmp/bad.bin@3" "$tmp/b.bin@4" "$tmp/a.bin@5"

run_all() {	# run_all J: every command's output with -j J
	local j=$1
	local o="$tmp/j$j"
	mkdir -p "$o"
	"$spe" report -j "$j" "$tmp/m.data" >"$o/report" 2>&1
	"$spe" report -j "$j" --sort sym,op,data_src "$tmp/m.data" >"$o/report-sort" 2>&1
	"$spe" script -j "$j" "$tmp/m.data" >"$o/script" 2>&1
	"$spe" script -j "$j" --json --itrace=i1i "$tmp/m.data" >"$o/script-json" 2>&1
	"$spe" c2c -j "$j" "$tmp/m.data" >"$o/c2c" 2>&1
	"$spe" pprof -j "$j" -o "$o/p.pb.gz" "$tmp/m.data" >"$o/pprof.log" 2>&1
	"$spe" html -j "$j" -o "$o/r.html" "$tmp/m.data" >"$o/html.log" 2>&1
}
run_all 1
grep -q 'decode errors' "$tmp/j1/script" && grep -q 'first SPE decode error at file offset' "$tmp/j1/script" &&
	tap_ok "the test file has decode errors and partial records" ||
	tap_fail "the test file has decode errors" "$(tail -3 "$tmp/j1/script")"
for j in 2 8; do
	run_all "$j"
	bad=""
	for f in report report-sort script script-json c2c p.pb.gz r.html pprof.log html.log; do
		cmp -s "$tmp/j1/$f" "$tmp/j$j/$f" || bad="$bad $f"
	done
	[ -z "$bad" ] && tap_ok "-j $j: report, report --sort, script, script --json, c2c, pprof and html byte for byte as -j 1" ||
		tap_fail "-j $j equals -j 1" "differs:$bad"
done
# script -j 3 writes through a writer thread, -j 2 from the decoding
# thread when it has nothing to decode, or from the thread that formats:
# either way a failed write is reported and ends the command, and a
# reader that goes away stops it at once.
for j in 2 3; do
	if [ -w /dev/full ]; then
		"$spe" script -j $j "$tmp/m.data" >/dev/full 2>"$tmp/err"
		rc=$?
		[ $rc -eq 1 ] && grep -q 'spe-decode script: write error: No space left on device' "$tmp/err" &&
			tap_ok "script -j $j into a full disk: write error, exit 1" ||
			tap_fail "script -j $j into a full disk" "exit $rc: $(cat "$tmp/err")"
	else
		tap_skip "script -j $j into a full disk" "no /dev/full"
	fi
	n=$(timeout 20 "$spe" script -j $j "$tmp/m.data" 2>/dev/null | head -3 | wc -l)
	rc=${PIPESTATUS[0]}
	[ "$n" = 3 ] && [ "$rc" != 124 ] && tap_ok "script -j $j | head -3: three lines, the command stops (exit $rc)" ||
		tap_fail "script -j $j | head" "$n lines, exit $rc"
done
# Pipe input decodes in one thread: still the same.
"$spe" report -j 4 - <"$tmp/m.data" | sed 's/^# spe-decode report of -$/# spe-decode report of X/' >"$tmp/pipe"
# (stdout only: the file's report also holds its decode-error warning)
grep -v '^spe-decode report: ' "$tmp/j1/report" |
	sed 's/^# spe-decode report of .*/# spe-decode report of X/' >"$tmp/file"
cmp -s "$tmp/pipe" "$tmp/file" && tap_ok "pipe input with -j 4 equals the file's -j 1 report" ||
	tap_fail "pipe input" "$(diff "$tmp/file" "$tmp/pipe" | head -4)"
# Memory: the threads add bounded batches per queue, not a share of the
# file: what -j 8 takes beyond -j 1 is the same with 4 times the data.
if [ -x /usr/bin/time ]; then
	for f in a b c bad; do cat "$tmp/$f.bin" "$tmp/$f.bin" "$tmp/$f.bin" "$tmp/$f.bin" >"$tmp/${f}4.bin"; done
	"$spe" wrap -o "$tmp/m4.data" --chunk 65536 "$tmp/a4.bin@0" "$tmp/b4.bin@1" "$tmp/c4.bin@2" \
		"$tmp/bad4.bin@3" "$tmp/b4.bin@4" "$tmp/a4.bin@5"
	rss() { /usr/bin/time -f %M -o "$tmp/rss" "$spe" report -j "$1" "$2" >/dev/null 2>&1; tail -1 "$tmp/rss"; }
	a1=$(rss 1 "$tmp/m.data") a8=$(rss 8 "$tmp/m.data")
	b1=$(rss 1 "$tmp/m4.data") b8=$(rss 8 "$tmp/m4.data")
	if [ $(((b8 - b1) - (a8 - a1))) -lt 4096 ] && [ "$b8" -lt 65536 ]; then
		tap_ok "-j 8 takes $((a8 - a1)) KB beyond -j 1, $((b8 - b1)) KB with 4x the data (peak ${b8} KB)"
	else
		tap_fail "-j 8 peak memory" "-j 1: ${a1} KB, ${b1} KB with 4x data; -j 8: ${a8} KB, ${b8} KB"
	fi
else
	tap_skip "-j 8 peak memory" "/usr/bin/time not installed"
fi
# ThreadSanitizer: the worker pool and the merge share no data unlocked.
tsan="$top/build/spe-decode-tsan"
if (cd "$top/tools/spe-decode" && CFLAGS="-O1 -g -fsanitize=thread" LDFLAGS=-fsanitize=thread \
	make -s -j2 O="$tsan" >"$tmp/tsan.log" 2>&1); then
	races=0
	for j in 2 3 8; do
		"$tsan/spe-decode" report -j "$j" "$tmp/m.data" >"$tmp/tsan.out" 2>"$tmp/tsan.err"
		cat "$tmp/tsan.err" >>"$tmp/tsan.all"
		grep -q 'ThreadSanitizer' "$tmp/tsan.err" && races=$((races + 1))
		cmp -s <(grep -v '^spe-decode' "$tmp/tsan.out") <(grep -v '^spe-decode' "$tmp/j1/report") ||
			races=$((races + 1))
	done
	"$tsan/spe-decode" html -j 4 -o "$tmp/tsan.html" "$tmp/m.data" >/dev/null 2>"$tmp/tsan.err"
	cat "$tmp/tsan.err" >>"$tmp/tsan.all"
	grep -q 'ThreadSanitizer' "$tmp/tsan.err" && races=$((races + 1))
	# script's output goes through the writer thread (-j 3), or is
	# written by the decoding thread and the formatting one (-j 2).
	for j in 2 3; do
		"$tsan/spe-decode" script -j $j "$tmp/m.data" >"$tmp/tsan.out" 2>"$tmp/tsan.err"
		cat "$tmp/tsan.err" >>"$tmp/tsan.all"
		grep -q 'ThreadSanitizer' "$tmp/tsan.err" && races=$((races + 1))
		cmp -s "$tmp/tsan.out" <(grep -v '^spe-decode' "$tmp/j1/script") || races=$((races + 1))
	done
	# The block ring itself, its helper polling all along.
	if (cd "$top/tools/spe-decode" && CFLAGS="-O1 -g -fsanitize=thread" LDFLAGS=-fsanitize=thread \
		make -s O="$tsan" "$tsan/tests/test_output_thread" >>"$tmp/tsan.log" 2>&1); then
		"$tsan/tests/test_output_thread" >"$tmp/tsan.out" 2>"$tmp/tsan.err"
		rc=$?
		cat "$tmp/tsan.err" >>"$tmp/tsan.all"
		grep -q 'ThreadSanitizer' "$tmp/tsan.err" && races=$((races + 1))
		[ $rc = 0 ] || races=$((races + 1))
	else
		races=$((races + 1))
	fi
	# report's spans share their symbol tables: a kallsyms table of 1024
	# symbols (lookups go through each span's own cache of recent ones)
	# and the tables of a program's file, loaded by whichever span meets
	# it first, on 3 CPUs.
	python3 -c 'for i in range(1024): print("%x T kfunc_%d" % (0xffff800008000000 + i * 4096, i))' \
		>"$tmp/kallsyms"
	spe_views_elf
	python3 "$gen" 20000 --seed 44 --tids 77 --pcs "$(spe_views_pcs_all)" >"$tmp/p.bin"
	"$spe" wrap -o "$tmp/p.data" --pid 77 --tid 77 --comm prog "${kmap[@]}" \
		--mmap "0x10000000:0x100000:0:$elf" "$tmp/p.bin@0" "$tmp/p.bin@1" "$tmp/p.bin@2"
	for f in m p; do
		"$spe" report -j 1 --top 1000000 --kallsyms "$tmp/kallsyms" "$tmp/$f.data" \
			>"$tmp/ks1.out" 2>/dev/null
		"$tsan/spe-decode" report -j 3 --top 1000000 --kallsyms "$tmp/kallsyms" "$tmp/$f.data" \
			>"$tmp/tsan.out" 2>"$tmp/tsan.err"
		cat "$tmp/tsan.err" >>"$tmp/tsan.all"
		grep -q 'ThreadSanitizer' "$tmp/tsan.err" && races=$((races + 1))
		grep -q kfunc_ "$tmp/ks1.out" && cmp -s "$tmp/tsan.out" "$tmp/ks1.out" ||
			races=$((races + 1))
	done
	grep -q ' main ' "$tmp/ks1.out" || races=$((races + 1))
	# All threads on one CPU: the scheduler stops workers in the middle
	# of batches, and the merging thread takes those batches over.
	if command -v taskset >/dev/null; then
		taskset -c 0 "$tsan/spe-decode" report -j 4 "$tmp/m.data" >"$tmp/tsan.out" 2>"$tmp/tsan.err"
		cat "$tmp/tsan.err" >>"$tmp/tsan.all"
		grep -q 'ThreadSanitizer' "$tmp/tsan.err" && races=$((races + 1))
		cmp -s <(grep -v '^spe-decode' "$tmp/tsan.out") <(grep -v '^spe-decode' "$tmp/j1/report") ||
			races=$((races + 1))
	fi
	[ "$races" = 0 ] && tap_ok "ThreadSanitizer: no race in report -j 2/3/8 (and -j 4 on one CPU, and -j 3 sharing symbol tables), html -j 4, script -j 2 and -j 3 and the output block ring, same output" ||
		tap_fail "ThreadSanitizer" "$(grep -m5 -A6 'WARNING' "$tmp/tsan.all")"
else
	tap_skip "ThreadSanitizer" "no TSan build ($(tail -1 "$tmp/tsan.log"))"
fi
for v in 0 x 2000; do
	"$spe" report -j "$v" "$tmp/m.data" >/dev/null 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "-j: '$v' is not a number from 1 to 1024" "$tmp/err" && tap_ok "-j $v is a usage error" ||
		tap_fail "-j $v" "$(cat "$tmp/err")"
done
tap_done
