#!/usr/bin/env bash
# perf.data layers: their unit tests, then host perf reads what
# `spe-decode wrap` writes as an ARM SPE recording (perf.data-file-format.txt,
# perf arm-spe.c).
#
# SAN=1 runs the same against the ASan+UBSan build (used by suite 14).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/perfdata-suite.sh
. "$top/scripts/lib/perfdata-suite.sh"
san=${SAN:-0}
if [ "$san" = 1 ]; then
	bld="$top/build/spe-decode-san"
else
	bld="$top/build/spe-decode"
fi
gen="$top/tools/spe-decode/tests/perfdata/gen_raw.py"

make -s -C "$top/tools/spe-decode" -j2 SAN="$san" all tests >"$tmp/build.log" 2>&1 ||
	{ tap_fail "spe-decode and its unit tests build (SAN=$san)" "$(cat "$tmp/build.log")"; exit 1; }
tap_ok "spe-decode and its unit tests build (SAN=$san)"

# Unit tests of the perf.data layers: renumber their TAP lines into this
# suite's.
for t in perf_data_write perf_recording perf_data_read perf_time data_source aux_queue decode_workers \
	 sample_synth symbols report view_sample latency_counts str_arena keyed_rows cost_table c2c tid_map queue_heap \
	 io_failures tracepoints sample_time symtab; do
	tap_sub "$t" "$bld/tests/test_$t"
done

spe="$bld/spe-decode"
python3 "$gen" 40 >"$tmp/r40.bin"
python3 "$gen" 40 --expect >"$tmp/r40.expect"

"$spe" wrap -o "$tmp/v1.data" "$tmp/r40.bin"
check "wrap writes a version-1 file" '[ -s "$tmp/v1.data" ]'
"$spe" wrap -o "$tmp/v2.data" --version 2 --chunk 1024 "$tmp/r40.bin@0" "$tmp/r40.bin@3"
check "wrap writes a version-2 file with two CPUs in 1 KiB chunks" '[ -s "$tmp/v2.data" ]'
"$spe" wrap -o "$tmp/bad.data" --version 3 "$tmp/r40.bin" 2>/dev/null
check "wrap refuses an unknown AUXTRACE_INFO version" '[ $? -eq 2 ]'
"$spe" wrap -o "$tmp/bad.data" "$tmp/does-not-exist" 2>"$tmp/err"
check "wrap names a missing input and fails" '[ $? -ne 0 ] && grep -q does-not-exist "$tmp/err"'

if ! command -v perf >/dev/null; then
	tap_skip "host perf reads the wrapped files" "perf not installed"
	tap_done
	exit 0
fi

# stderr apart: a warning perf prints there (kernel maps restricted, in
# some environments) lands inside a dump line when both go to one file.
perf report -D -i "$tmp/v1.data" >"$tmp/v1.dump" 2>"$tmp/v1.err"
check "perf report -D accepts the version-1 file" '[ $? -eq 0 ]'
check "perf sees AUXTRACE_INFO type 4 with PMU type 8" \
	'grep -q "PERF_RECORD_AUXTRACE_INFO type: 4" "$tmp/v1.dump" && grep -q "PMU Type *8" "$tmp/v1.dump"'
check "perf dumps every SPE record's PC packet" \
	'[ "$(grep -c "^\.  [0-9a-f]\{8\}:  b0 .* PC 0x4" "$tmp/v1.dump")" -eq 40 ]'
check "perf dumps the last record's timestamp at offset 0x9ed" \
	'grep -q "^\.  000009ed:  71 .*TS 1003900$" "$tmp/v1.dump"'

perf report --header-only -i "$tmp/v1.data" >"$tmp/v1.hdr" 2>&1
check "perf reads arch, cpuid and nrcpus features" \
	'grep -q "arch : aarch64" "$tmp/v1.hdr" && grep -q "cpuid : 0x00000000413fd0c1" "$tmp/v1.hdr" && grep -q "nrcpus avail : 1" "$tmp/v1.hdr"'

perf script -i "$tmp/v1.data" -F event >"$tmp/v1.events" 2>"$tmp/v1.err"
check "perf script synthesises samples from the version-1 file" '[ -s "$tmp/v1.events" ]'
while read -r name count; do
	got=$(grep -c "^ *$name: *\$" "$tmp/v1.events")
	check "perf script: $count $name samples (got $got)" '[ "$got" -eq "$count" ]'
done <"$tmp/r40.expect"

perf script -i "$tmp/v1.data" --itrace=M -F hw:tid,time,ip,addr,phys_addr,weight 2>/dev/null |
	head -1 >"$tmp/first"
check "first memory sample: tid from CONTEXT, time from TS via TIME_CONV, addresses, weight" \
	'read -r tid t addr w ip pa <"$tmp/first"; [ "$tid" = 1234 ] && [ "$t" = "0.001000:" ] && [ "$addr" = 7fff0000 ] && [ "$w" = 20 ] && [ "$ip" = 400000 ] && [ "$pa" = 80000000 ]'

"$spe" wrap -o "$tmp/tc.data" --time-conv 4:160:5000 "$tmp/r40.bin"
perf script -i "$tmp/tc.data" --itrace=M -F hw:time 2>/dev/null | head -1 >"$tmp/tc"
# 1000000 cycles at mult 160 >> shift 4 = 10 ns/cycle, plus zero 5000 ns
check "TIME_CONV shift/mult/zero reach perf's time conversion" 'grep -q "0.010005:" "$tmp/tc"'

perf report -D -i "$tmp/v2.data" >"$tmp/v2.dump" 2>"$tmp/v2.err"
check "perf report -D accepts the version-2 file" '[ $? -eq 0 ]'
check "version 2: 80 records dumped from 6 AUXTRACE records on CPUs 0 and 3" \
	'[ "$(grep -c " PC 0x4" "$tmp/v2.dump")" -eq 80 ] && [ "$(grep -c "PERF_RECORD_AUXTRACE size: .*cpu: 3" "$tmp/v2.dump")" -eq 3 ]'

"$spe" wrap -o "$tmp/tr.data" --aux-flags 0x5 "$tmp/r40.bin"
perf report -D -i "$tmp/tr.data" 2>/dev/null | grep_q "PERF_RECORD_AUX offset: 0 size: 0xa00 flags: 0x5 \[TP\]"
check "AUX flags TRUNCATED|PARTIAL reach perf" '[ $? -eq 0 ]'

"$spe" wrap -o "$tmp/pt.data" --per-thread --pid 77 --tid 78 --comm spe-test "$tmp/r40.bin"
perf report -D -i "$tmp/pt.data" >"$tmp/pt.dump" 2>"$tmp/pt.err"
check "per-thread file: AUXTRACE for tid 78 on cpu -1, COMM for 77/78" \
	'grep -q "PERF_RECORD_AUXTRACE size: 0xa00.*tid: 78  cpu: -1" "$tmp/pt.dump" && grep -q "PERF_RECORD_COMM exec: spe-test:77/78" "$tmp/pt.dump"'
tap_done
