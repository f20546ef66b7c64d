#!/usr/bin/env bash
# Differential tests: for the same perf.data, spe-decode and host perf (the
# reference decoder) print the same samples (event, time, cpu, pid/tid, ip,
# addr, phys_addr, data_src, weight), the same SPE packet lines, and perf
# reads what 'spe-decode inject' writes (perf.data-file-format.txt,
# perf arm-spe.c).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/perfdata-suite.sh
. "$top/scripts/lib/perfdata-suite.sh"
bld="$top/build/spe-decode"
spe="$bld/spe-decode"
pdir="$top/tools/spe-decode/tests/perfdata"
gen="$pdir/gen_mixed.py"

make -s -C "$top/tools/spe-decode" -j2 >"$tmp/build.log" 2>&1 ||
	{ tap_fail "spe-decode builds" "$(cat "$tmp/build.log")"; exit 1; }
if ! command -v perf >/dev/null; then
	tap_skip "differential tests against perf" "perf not installed"
	tap_done
	exit 0
fi

# perf's -F line, data_src decoding text included, blanks squeezed: what
# spe-decode prints for the same -F list.
F=comm,pid,tid,cpu,time,event,ip,sym,dso,addr,phys_addr,data_src,weight,period
perf_fields() {
	perf script -i "$1" --ns -F "hw:$F" "${@:2}" 2>/dev/null | tr -s ' '
}
# Decoded by threads (the default) and in one thread (-j1): the two must
# print the same, or a line that no perf output has is added.
spe_fields() {
	"$spe" script --branch-miss --ns -F "$F" "$@" | tr -s ' ' >"$tmp/jN.out"
	"$spe" script -j1 --branch-miss --ns -F "$F" "$@" | tr -s ' ' >"$tmp/j1.out"
	cat "$tmp/jN.out"
	cmp -s "$tmp/jN.out" "$tmp/j1.out" || echo "# spe-decode -j1 prints other samples than with threads"
}

python3 "$gen" 3000 --seed 1 >"$tmp/m0.bin"
python3 "$gen" 3000 --seed 2 --ts0 1000050 >"$tmp/m1.bin"
"$spe" wrap -o "$tmp/m.data" --pid 100 --tid 100 --comm prog "$tmp/m0.bin@0" "$tmp/m1.bin@1"

# 1. perf script's default layout, byte for byte (6.1 names: --branch-miss).
perf script -i "$tmp/m.data" >"$tmp/p.out" 2>/dev/null
"$spe" script --branch-miss "$tmp/m.data" >"$tmp/s.out"
same "2 CPUs, 6000 records: script prints perf script's default output" "$tmp/p.out" "$tmp/s.out"

# 1b. A long event name, as "perf record -e arm_spe_0/ts_enable=1,.../"
# records it: perf prints it whole.  (The name's slot in EVENT_DESC is 64
# bytes; the wrapped file's "arm_spe_0//" is replaced in place.)
python3 - "$tmp/m.data" "$tmp/long.data" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
old = b"arm_spe_0//\0"
new = b"arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,min_latency=30/"
at = data.index(old)
slot = struct.unpack_from("<I", data, at - 4)[0]
assert len(new) < slot, (len(new), slot)
data[at:at + slot] = new + bytes(slot - len(new))
open(sys.argv[2], "wb").write(data)
PY
perf script -i "$tmp/long.data" >"$tmp/p.out" 2>/dev/null
"$spe" script --branch-miss "$tmp/long.data" >"$tmp/s.out"
same "an event name of 63 bytes: script prints it whole, as perf script does" \
	"$tmp/p.out" "$tmp/s.out"

# 2. Every sample field perf prints.
perf_fields "$tmp/m.data" >"$tmp/p.out"
spe_fields "$tmp/m.data" >"$tmp/s.out"
same "fields event,time,cpu,pid/tid,ip,addr,phys_addr,data_src,weight,period equal perf's" \
	"$tmp/p.out" "$tmp/s.out"

# 2b. JSON lines and CSV carry the same samples, plus the latencies.
"$spe" script --branch-miss --json "$tmp/m.data" >"$tmp/s.json"
"$spe" script --branch-miss --csv "$tmp/m.data" >"$tmp/s.csv"
# (perf's decoding text of data_src out, for the word positions below)
perl -pe 's/ \|OP [^|]*\|LVL [^|]*\|SNP [^|]*\|TLB [^|]*\|LCK [^|]*\|BLK +\S+//' \
	"$tmp/p.out" >"$tmp/p.words"
if python3 - "$tmp/s.json" "$tmp/s.csv" "$tmp/p.words" <<'PY'
import csv, json, sys
js = [json.loads(l) for l in open(sys.argv[1])]
rows = list(csv.DictReader(open(sys.argv[2])))
perf = [l.split() for l in open(sys.argv[3])]
assert len(js) == len(rows) == len(perf), (len(js), len(rows), len(perf))
for j, r, p in zip(js, rows, perf):
    # perf -F: comm pid/tid [cpu] time: period event: addr data_src weight ip sym dso phys
    assert j["event"] + ":" == p[5] == r["event"] + ":"
    assert "%d/%d" % (j["pid"], j["tid"]) == p[1]
    assert int(j["addr"], 16) == int(p[6], 16) == int(r["addr"], 16)
    assert int(j["data_src"], 16) == int(p[7], 16)
    assert j["weight"] == int(p[8]) == int(r["weight"])
    assert "ins_lat" in j and "xlat_lat" in j and r["ins_lat"] != ""
    assert int(j["ip"], 16) == int(p[9], 16)
PY
then
	tap_ok "--json and --csv: the same samples as perf, one per line, with ins_lat/xlat_lat"
else
	tap_fail "--json and --csv: the same samples as perf"
fi

# 3. --itrace groups and instruction period.
for it in i1i i3i bM fmta; do
	perf_fields "$tmp/m.data" --itrace="$it" >"$tmp/p.out"
	spe_fields --itrace="$it" "$tmp/m.data" >"$tmp/s.out"
	same "--itrace=$it gives perf's samples" "$tmp/p.out" "$tmp/s.out"
done

# 4. A CPU without a data-source table (Cortex-A53): data_src from events.
"$spe" wrap -o "$tmp/a53.data" --midr 0x410fd034 "$tmp/m0.bin@0" "$tmp/m1.bin@1"
perf_fields "$tmp/a53.data" >"$tmp/p.out"
spe_fields "$tmp/a53.data" >"$tmp/s.out"
same "Cortex-A53 MIDR: generic data_src equals perf's" "$tmp/p.out" "$tmp/s.out"

# 5. No CONTEXT packets: pid/tid from context-switch records.
python3 "$gen" 2000 --seed 3 --no-context >"$tmp/n0.bin"
python3 "$gen" 2000 --seed 4 --no-context --ts0 1000030 >"$tmp/n1.bin"
"$spe" wrap -o "$tmp/sw.data" --pid 10 --tid 11 --comm app \
	--switch 0:1020000:10:11 --switch 1:1030000:20:21 --switch 0:1060000:30:31 \
	--switch 1:1100000:10:12 "$tmp/n0.bin@0" "$tmp/n1.bin@1"
perf_fields "$tmp/sw.data" >"$tmp/p.out"
spe_fields "$tmp/sw.data" >"$tmp/s.out"
same "pid/tid from SWITCH_CPU_WIDE records equal perf's" "$tmp/p.out" "$tmp/s.out"
# A switch to the idle task (0/0) is a task, "swapper" as perf names it.
"$spe" wrap -o "$tmp/sw2.data" --pid 10 --tid 11 --comm app \
	--switch 0:1020000:20:21 --switch 1:1030000:0:0 --switch 1:1100000:10:12 \
	"$tmp/n0.bin@0" "$tmp/n1.bin@1"
perf_fields "$tmp/sw2.data" >"$tmp/p.out"
spe_fields "$tmp/sw2.data" >"$tmp/s.out"
same "a switch to the idle task: perf's comm, pid and tid" "$tmp/p.out" "$tmp/s.out"
# A switch to a task perf could not name (-1/-1) makes the CPU's tid
# unknown.  perf then keeps the pid of the task before (its thread lookup
# of tid -1 fails and leaves the old pid); spe-decode says -1 for both, so
# only the tids are compared.
"$spe" wrap -o "$tmp/sw3.data" --pid 10 --tid 11 --comm app \
	--switch 0:1020000:20:21 --switch 0:1060000:-1:-1 "$tmp/n0.bin@0" "$tmp/n1.bin@1"
perf script -i "$tmp/sw3.data" --ns -F hw:tid,cpu,time,ip 2>/dev/null | tr -s ' ' >"$tmp/p.out"
"$spe" script --branch-miss --ns -F tid,cpu,time,ip "$tmp/sw3.data" | tr -s ' ' >"$tmp/s.out"
same "a switch to tid -1: the CPU's tid becomes -1, as perf's" "$tmp/p.out" "$tmp/s.out"

# 6. A per-thread recording.
"$spe" wrap -o "$tmp/pt.data" --per-thread --pid 50 --tid 51 --comm worker "$tmp/n0.bin"
perf script -i "$tmp/pt.data" >"$tmp/p.out" 2>/dev/null
"$spe" script --branch-miss "$tmp/pt.data" >"$tmp/s.out"
same "per-thread recording: perf's default output" "$tmp/p.out" "$tmp/s.out"

# 7. TIME_CONV: a 100 MHz-like conversion, and the short-counter form.
"$spe" wrap -o "$tmp/tc.data" --time-conv 24:167772160:123456789 "$tmp/m0.bin@0" "$tmp/m1.bin@1"
perf_fields "$tmp/tc.data" >"$tmp/p.out"
spe_fields "$tmp/tc.data" >"$tmp/s.out"
same "TIME_CONV shift/mult/zero: times equal perf's" "$tmp/p.out" "$tmp/s.out"
"$spe" wrap -o "$tmp/tcs.data" --time-conv 1:3:1000:4096:0xffffffff "$tmp/m0.bin@0"
perf_fields "$tmp/tcs.data" >"$tmp/p.out"
spe_fields "$tmp/tcs.data" >"$tmp/s.out"
same "TIME_CONV with cap_user_time_short: times equal perf's" "$tmp/p.out" "$tmp/s.out"

# 8. Version-2 metadata (perf 6.1 reads only v1 for samples): the same
#    samples as perf gives for the version-1 file of the same data.
"$spe" wrap -o "$tmp/v2.data" --version 2 --pid 100 --tid 100 --comm prog \
	"$tmp/m0.bin@0" "$tmp/m1.bin@1"
perf script -i "$tmp/m.data" >"$tmp/p.out" 2>/dev/null
"$spe" script --branch-miss "$tmp/v2.data" >"$tmp/s.out"
same "version-2 AUXTRACE_INFO: the samples perf gives for version 1" "$tmp/p.out" "$tmp/s.out"

# 8b. Ties: four CPUs whose records have the same timestamps (the same
#     trace on each), so the queue order on equal times shows; and context
#     switches at exactly a record's time (TIME_CONV 0:1:0, perf time =
#     SPE timestamp), on two CPUs.  perf's output is the reference.
python3 "$gen" 1500 --seed 5 --no-context >"$tmp/e.bin"
"$spe" records --json "$tmp/e.bin" |
	python3 -c 'import json, sys
ts = [json.loads(l)["ts"] for l in sys.stdin]
print(" ".join(str(ts[i]) for i in (10, 200, 201, 900)))' >"$tmp/e.ts"
read -r t1 t2 t3 t4 <"$tmp/e.ts"
"$spe" wrap -o "$tmp/eq.data" --pid 10 --tid 11 --comm app \
	--switch "0:$t1:20:21" --switch "2:$t2:30:31" --switch "2:$t3:40:41" \
	--switch "3:$t4:50:51" \
	"$tmp/e.bin@0" "$tmp/e.bin@1" "$tmp/e.bin@2" "$tmp/e.bin@3"
perf_fields "$tmp/eq.data" >"$tmp/p.out"
spe_fields "$tmp/eq.data" >"$tmp/s.out"
same "4 CPUs with equal timestamps, switches at record times: perf's order and tids" \
	"$tmp/p.out" "$tmp/s.out"

# 8c. One CPU's trace has CONTEXT packets, the other's none: the second
#     CPU's records take their tid from its context switches, as perf's.
python3 "$gen" 1000 --seed 6 --no-context --ts0 1000040 >"$tmp/c1.bin"
"$spe" wrap -o "$tmp/cx.data" --pid 10 --tid 11 --comm app \
	--switch 1:1030000:20:21 --switch 1:1090000:30:31 \
	"$tmp/m0.bin@0" "$tmp/c1.bin@1"
perf_fields "$tmp/cx.data" >"$tmp/p.out"
spe_fields "$tmp/cx.data" >"$tmp/s.out"
same "CONTEXT on one CPU, switches only on the other: perf's tids" "$tmp/p.out" "$tmp/s.out"

# 9. perf report -D's SPE lines (header and packet lines).
spe_lines() { grep -E '^\.  [0-9a-f]{8}:|^\. \.\.\. ARM SPE data'; }
perf report -D -i "$tmp/m.data" 2>/dev/null | spe_lines >"$tmp/p.out"
"$spe" dump "$tmp/m.data" | spe_lines >"$tmp/s.out"
same "dump of a perf.data: perf report -D's SPE lines" "$tmp/p.out" "$tmp/s.out"
python3 "$gen" 500 --seed 5 --pad >"$tmp/pad.bin"
"$spe" wrap -o "$tmp/ch.data" --chunk 4096 --aux-flags 0x1 "$tmp/pad.bin"
perf report -D -i "$tmp/ch.data" 2>/dev/null | spe_lines >"$tmp/p.out"
"$spe" dump "$tmp/ch.data" | spe_lines >"$tmp/s.out"
same "dump of 8 AUXTRACE records with padding: perf report -D's SPE lines" "$tmp/p.out" "$tmp/s.out"
# One queue of 8 AUXTRACE records whose last one names another CPU and
# thread (its fields at offsets 40 and 36): perf keeps the CPU and tid of
# the queue's first record for all its samples.
python3 "$gen" 500 --seed 6 --pad --no-context >"$tmp/padnc.bin"
"$spe" wrap -o "$tmp/qc.data" --chunk 4096 "$tmp/padnc.bin"
python3 "$pdir/patch_record.py" "$tmp/qc.data" 71 7 40 4 1 >/dev/null
python3 "$pdir/patch_record.py" "$tmp/qc.data" 71 7 36 4 99 >/dev/null
perf_fields "$tmp/qc.data" >"$tmp/p.out"
spe_fields "$tmp/qc.data" >"$tmp/s.out"
same "a queue's later AUXTRACE record naming another CPU and tid: perf's cpu and tid" "$tmp/p.out" "$tmp/s.out"

# 10. perf's pipe format on stdin (perf inject -o - writes it).
if perf inject -i "$tmp/m.data" -o - >"$tmp/pipe.data" 2>/dev/null && [ -s "$tmp/pipe.data" ]; then
	cat "$tmp/pipe.data" | perf script -i - >"$tmp/p.out" 2>/dev/null
	cat "$tmp/pipe.data" | "$spe" script --branch-miss - >"$tmp/s.out"
	same "pipe format on a pipe: perf script's output" "$tmp/p.out" "$tmp/s.out"
	"$spe" script --branch-miss - <"$tmp/pipe.data" >"$tmp/s2.out"
	same "pipe format saved in a file, on stdin: the same samples" "$tmp/p.out" "$tmp/s2.out"
	cat "$tmp/pipe.data" | perf report -D -i - 2>/dev/null | spe_lines >"$tmp/p.out"
	cat "$tmp/pipe.data" | "$spe" dump - | spe_lines >"$tmp/s.out"
	same "pipe format on a pipe: perf report -D's SPE lines" "$tmp/p.out" "$tmp/s.out"
else
	tap_skip "pipe format" "perf inject -o - failed"
fi

# 10b. A trace from the SPU model (Neoverse N1 profile), when it is built.
if [ -d "$top/tools/spu-model" ] && make -s -C "$top/tools/spu-model" >/dev/null 2>&1 &&
   [ -x "$top/build/spu-model/spe-gen" ]; then
	"$top/build/spu-model/spe-gen" -p n1 -s 3 -n 2M -o "$tmp/model.bin" >/dev/null 2>&1
	"$spe" wrap -o "$tmp/model.data" "$tmp/model.bin"
	perf script -i "$tmp/model.data" >"$tmp/p.out" 2>/dev/null
	"$spe" script --branch-miss "$tmp/model.data" >"$tmp/s.out"
	same "SPU-model trace: perf script's default output" "$tmp/p.out" "$tmp/s.out"
	perf_fields "$tmp/model.data" >"$tmp/p.out"
	spe_fields "$tmp/model.data" >"$tmp/s.out"
	same "SPU-model trace: every field perf prints" "$tmp/p.out" "$tmp/s.out"
else
	tap_skip "SPU-model trace" "tools/spu-model not built"
fi

# 11. inject: stock perf reads the samples without SPE support.  perf's
#     groups (script's default ones) when --itrace names them.
"$spe" inject --branch-miss --itrace=fmtbaM -o "$tmp/inj.data" "$tmp/m.data" 2>"$tmp/inj.err"
check "inject of several groups says that perf c2c counts a record once per group" \
	'grep -q "9 sample groups: perf c2c report counts a record once per group that holds it (--itrace=M for perf c2c)" "$tmp/inj.err"'
perf script -i "$tmp/inj.data" --ns -F "$F" 2>/dev/null | tr -s ' ' >"$tmp/p.out"
spe_fields "$tmp/m.data" >"$tmp/s.out"
same "perf script on inject's output prints spe-decode script's samples" "$tmp/p.out" "$tmp/s.out"
perf script -i "$tmp/inj.data" -F event,ins_lat 2>/dev/null | awk '$1 == "memory:" {print $2}' |
	sort -u | wc -l >"$tmp/lat"
if [ "$(cat "$tmp/lat")" -gt 10 ]; then tap_ok "inject carries the issue latency perf drops (ins_lat)"; else tap_fail "inject carries the issue latency perf drops (ins_lat)"; fi
perf mem report -i "$tmp/inj.data" --stdio >"$tmp/mem.out" 2>/dev/null
if [ $? -eq 0 ] && grep -q "Samples: .* of event 'memory'" "$tmp/mem.out" &&
   grep -q "Local RAM or RAM hit" "$tmp/mem.out"; then
	tap_ok "perf mem report reads inject's memory samples with their data sources"
else
	tap_fail "perf mem report reads inject's memory samples with their data sources"
fi
# perf mem report of the memory samples agrees with spe-decode script:
# the same number of samples, and of DRAM (Local RAM) hits.
"$spe" inject -o "$tmp/injM.data" --itrace=M "$tmp/m.data" 2>/dev/null
perf mem report -i "$tmp/injM.data" --stdio -F sample,mem 2>/dev/null |
	grep -v '^#' | grep . >"$tmp/memrep"
"$spe" script --itrace=M --csv "$tmp/m.data" >"$tmp/mem.csv"
if python3 - "$tmp/memrep" "$tmp/mem.csv" <<'PY'
import csv, sys
rep = [l.split(None, 1) for l in open(sys.argv[1])]
total = sum(int(n) for n, _ in rep)
ram = sum(int(n) for n, what in rep if what.strip() == "Local RAM or RAM hit")
rows = list(csv.DictReader(open(sys.argv[2])))
dram = sum(1 for r in rows if (int(r["data_src"], 16) >> 33) & 0xf == 0xd)
assert total == len(rows), (total, len(rows))
assert ram == dram and ram > 0, (ram, dram)
PY
then
	tap_ok "perf mem report on inject's output: as many samples and DRAM hits as spe-decode script"
else
	tap_fail "perf mem report on inject's output agrees with spe-decode script"
fi
# By default inject writes what perf c2c report synthesises on the SPE
# recording (the memory group only): perf c2c counts every sample of a file
# whatever its event, so a file of perf's nine groups had it count each
# load up to nine times.  The original and the default output give the
# same c2c report (but for the events' names) and perf mem report the same
# memory samples (but for the issue latency, which perf drops).
python3 "$top/tools/spe-decode/tests/views/add_numa.py" "$tmp/m.data" "$tmp/mn.data"
"$spe" inject -o "$tmp/injD.data" "$tmp/mn.data" 2>"$tmp/injD.err"
c2c_view() {
	perf c2c report -i "$1" --stdio 2>/dev/null | grep -v '^  Events  \|^   *: [a-z]'
}
c2c_view "$tmp/mn.data" >"$tmp/p.c2c"
c2c_view "$tmp/injD.data" >"$tmp/s.c2c"
grep "Total records\|Load Operations\|Store Operations\|Unable to parse" "$tmp/s.c2c" | tr -s ' ' >"$tmp/s.counts"
check "perf c2c report on the recording lists its records (3610 of 6000)" \
	'grep -q "Total records : 3610" "$tmp/s.counts"'
same "perf c2c report on inject's default output: the recording's report (records $(tr '\n' ' ' <"$tmp/s.counts"))" \
	"$tmp/p.c2c" "$tmp/s.c2c"
memF=overhead,sample,local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked
perf mem report -i "$tmp/mn.data" --stdio -F "$memF" 2>/dev/null |
	sed -n "/of event 'memory'/,\$p" | grep -v '^#' | grep . | sort >"$tmp/p.mem"
perf mem report -i "$tmp/injD.data" --stdio -F "$memF" 2>/dev/null | grep -v '^#' | grep . | sort >"$tmp/s.mem"
check "perf mem report of inject's default output: one event, memory" \
	'[ "$(perf mem report -i "$tmp/injD.data" --stdio 2>/dev/null | grep -c "^# Samples: .* of event")" = 1 ]'
same "perf mem report: the recording's memory samples, $(wc -l <"$tmp/s.mem") rows" "$tmp/p.mem" "$tmp/s.mem"
check "inject's default (one group) says nothing of perf c2c" '! grep -q "sample groups" "$tmp/injD.err"'
perf report -i "$tmp/inj.data" --stdio --sort comm >"$tmp/rep.out" 2>/dev/null
if [ $? -eq 0 ] && grep -q prog "$tmp/rep.out"; then
	tap_ok "perf report reads inject's output"
else
	tap_fail "perf report reads inject's output"
fi
# 12. Tracepoints recorded with arm_spe (perf record -e arm_spe// -e
#     sched:sched_switch ...): a tracepoint recording of this host mixed
#     into SPE data like m.data's (tests/perfdata/mix_tracepoints.py), its samples' times
#     spread over the SPE samples'.  script prints perf script's lines,
#     the tracepoint ones in their place among the SPE ones.
if ! pkg-config --exists libtraceevent; then
	tap_skip "tracepoint samples" "libtraceevent not found by pkg-config (scripts/deps.sh decoder)"
elif ! perf record -q -e sched:sched_switch -e syscalls:sys_enter_read -e irq:irq_handler_entry \
	-e timer:hrtimer_start -a -o "$tmp/tp.data" -- sleep 0.3 >/dev/null 2>&1; then
	tap_skip "tracepoint samples" "perf record of tracepoints failed (root and tracefs needed)"
else
	# The SPE thread shares its comm cache slot (tid % 64) with the
	# thread of the most tracepoint samples: a tracepoint line once
	# renamed the SPE samples after it.
	tpt=$(perf script -i "$tmp/tp.data" -F tid 2>/dev/null | sort | uniq -c | sort -rn |
		awk '$2 != 0 { print $2; exit }')
	spet=$((${tpt:-36} + 64))
	python3 "$gen" 3000 --seed 1 --tids "$spet" >"$tmp/tp0.bin"
	python3 "$gen" 3000 --seed 2 --ts0 1000050 --tids "$spet" >"$tmp/tp1.bin"
	"$spe" wrap -o "$tmp/tp-spe.data" --pid "$spet" --tid "$spet" --comm prog \
		"$tmp/tp0.bin@0" "$tmp/tp1.bin@1"
	read -r t0 t1 < <(perf script -i "$tmp/tp-spe.data" --ns -F time 2>/dev/null | tr -d ' :.' |
		sort -n | sed -n '1p;$p' | sed 's/^0*//' | paste -sd' ')
	python3 "$pdir/mix_tracepoints.py" "$tmp/tp-spe.data" "$tmp/tp.data" "$t0" "$t1" \
		"$tmp/tp-mix.data"
	# The tracepoints' kernel is this machine's: hrtimer_start prints its
	# function by name (%ps), from /proc/kallsyms as perf does.  The SPE
	# data's arm64 kernel addresses have no symbol there for either.
	ks=(--kallsyms /proc/kallsyms)
	perf script -i "$tmp/tp-mix.data" >"$tmp/p.out" 2>/dev/null
	"$spe" script "${ks[@]}" --branch-miss "$tmp/tp-mix.data" >"$tmp/s.out"
	"$spe" script "${ks[@]}" -j1 --branch-miss "$tmp/tp-mix.data" >"$tmp/s1.out"
	# The mix must have both kinds, interleaved: an SPE line after the
	# first tracepoint line and before its last.
	tpre='(sched|syscalls|irq|timer):[a-z_]+: '
	ntp=$(grep -cE "$tpre" "$tmp/p.out")
	check "the mixed recording has tracepoint samples among the SPE ones (perf: $ntp)" \
		'[ "$ntp" -gt 0 ] && awk -v re="$tpre" '\''$0 ~ re { t = t ? t : NR; l = NR; next }
			t && !s { s = NR } END { exit !(t && s && s < l) }'\'' "$tmp/p.out"'
	same "arm_spe with tracepoints: script prints perf script's output" "$tmp/p.out" "$tmp/s.out"
	same "arm_spe with tracepoints: -j1 prints the same" "$tmp/s.out" "$tmp/s1.out"
	grep -E "$tpre" "$tmp/p.out" >"$tmp/p.tp"
	grep -E "$tpre" "$tmp/s.out" >"$tmp/s.tp"
	same "tracepoint lines equal perf script's" "$tmp/p.tp" "$tmp/s.tp"
	# -F names the SPE samples' fields (perf: "hw:"); the tracepoint lines
	# keep perf's default fields.  --ns for both.
	perf script -i "$tmp/tp-mix.data" --ns -F "hw:$F" >"$tmp/pF.out" 2>/dev/null
	"$spe" script "${ks[@]}" --branch-miss --ns -F "$F" "$tmp/tp-mix.data" >"$tmp/sF.out"
	same "with tracepoints, -F and --ns: perf's -F hw: output" "$tmp/pF.out" "$tmp/sF.out"
	check "hrtimer_start's function (%ps) is a kernel symbol's name, as perf's" \
		'grep -qE "timer:hrtimer_start: .* function=[a-z_]" "$tmp/s.tp"'

	# --json: every sample in perf's order, the tracepoints with perf's
	# text and their fields.
	"$spe" script "${ks[@]}" --branch-miss --json "$tmp/tp-mix.data" >"$tmp/s.json"
	if python3 - "$tmp/s.json" "$tmp/p.out" <<'PY'
import json, re, sys
js = [json.loads(l) for l in open(sys.argv[1])]
line = re.compile(r'^ *(.*?) +(-?\d+) +\[(\d+)\] +(\d+)\.(\d+): +(?:\d+ +)?(\S+): ?(.*)$')
perf = []
for l in open(sys.argv[2], errors='surrogateescape'):
    m = line.match(l.rstrip('\n'))
    # A live capture's line that fails the pattern is named, not lost
    # in an AttributeError.  A sample of no known thread is printed by
    # perf as comm ":-1", tid -1 (it made this check fail now and then).
    assert m, "perf script line not understood: %r" % l
    perf.append(m.groups())
assert len(js) == len(perf), (len(js), len(perf))
ntp = 0
for j, (comm, tid, cpu, sec, usec, ev, rest) in zip(js, perf):
    assert j["event"] == ev, (j["event"], ev)
    assert j["time"] // 1000 == int(sec) * 1000000 + int(usec)
    assert j["cpu"] == int(cpu) and j["tid"] == int(tid)
    if "text" in j:
        ntp += 1
        assert j["text"] == rest, (j["text"], rest)
        assert j["comm"] == comm
        assert isinstance(j["fields"], dict) and j["fields"]
        if ev == "sched:sched_switch":
            assert "prev_comm=%s prev_pid=%d " % (j["fields"]["prev_comm"],
                                                  j["fields"]["prev_pid"]) in rest
assert ntp > 0
PY
	then
		tap_ok "--json: the tracepoint samples in perf's order with its text and their fields"
	else
		tap_fail "--json: the tracepoint samples in perf's order with its text and their fields"
	fi
	# The views have no place for tracepoint samples: they see the mixed
	# recording as the same mix without them (the file's name aside).
	python3 "$pdir/mix_tracepoints.py" --no-samples "$tmp/tp-spe.data" "$tmp/tp.data" \
		"$t0" "$t1" "$tmp/tp-none.data"
	views_same=true
	for v in c2c "report --sort sym,dso" html; do
		for f in tp-mix tp-none; do
			# shellcheck disable=SC2086 # $v is a command and its options
			if [ "$v" = html ]; then
				"$spe" html "${ks[@]}" -o "$tmp/$f.view" "$tmp/$f.data"
			else
				"$spe" $v "${ks[@]}" "$tmp/$f.data" >"$tmp/$f.view"
			fi
			sed -i "s|$tmp/$f.data|FILE|g" "$tmp/$f.view"
		done
		[ -s "$tmp/tp-mix.view" ] && cmp -s "$tmp/tp-mix.view" "$tmp/tp-none.view" ||
			{ views_same=false; echo "# $v differs"; }
	done
	check "c2c, report --sort and html ignore the tracepoint samples" '$views_same'
	"$spe" report "$tmp/tp-mix.data" >"$tmp/r.out"
	check "report counts the tracepoint samples in its Data section" \
		'sed -n "/^## Data/,\$p" "$tmp/r.out" | grep -qx "  tracepoint samples $ntp, not summarised here (spe-decode script prints them)"'

	# A TRACING_DATA section cut to a third, or without its magic: the
	# error names the section and the fault, the SPE samples are all
	# printed (the names' padding aside: perf's widest name is gone).
	grep -vE "$tpre" "$tmp/p.out" | tr -s ' ' | sed 's/^ //' >"$tmp/p.spe"
	# Two faults libtraceevent 1.7.1 does not survive: a print format
	# naming a field its format lacks (a NULL dereference) and a printk
	# format line without " : " (a read past its copy); said, not crashed.
	for bad in cut:'truncated in the event formats of system' magic:'no tracing data magic' \
		field:"its event formats crash libtraceevent's parser (signal 11)" \
		printk:'the printk formats: line 2 is not'; do
		python3 - "$tmp/tp-mix.data" "$tmp/tp-bad.data" "${bad%%:*}" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
doff, dsz = struct.unpack_from('<QQ', b, 40)
off, sz = struct.unpack_from('<QQ', b, doff + dsz)  # TRACING_DATA: the first feature
sec = bytes(b[off:off + sz])
if sys.argv[3] == 'cut':
    struct.pack_into('<Q', b, doff + dsz + 8, sz // 3)
elif sys.argv[3] == 'magic':
    b[off + 3:off + 10] = b'garbage'
elif sys.argv[3] == 'field':  # sched_switch's print format names REC->prev_state
    i = sec.index(b'field:long prev_state;')
    b[off + i + 11] = ord('I')
else:  # the second printk format line loses its " : "
    i = sec.index(b'0x', sec.index(b'\n0x') + 1)
    j = sec.index(b' : ', i)
    b[off + j:off + j + 3] = b'---'
open(sys.argv[2], 'wb').write(b)
PY
		"$spe" script "${ks[@]}" --branch-miss "$tmp/tp-bad.data" >"$tmp/s.out" 2>"$tmp/s.err"
		rc=$?
		tr -s ' ' <"$tmp/s.out" | sed 's/^ //' >"$tmp/s.spe"
		check "TRACING_DATA ${bad%%:*}: exit 1, '${bad#*:}' said, $ntp samples not printed" \
			'[ $rc = 1 ] && grep -qF "TRACING_DATA section (file offset " "$tmp/s.err" &&
			 grep -qF "bytes): ${bad#*:}" "$tmp/s.err" &&
			 grep -q " $ntp tracepoint samples not printed" "$tmp/s.err"'
		same "TRACING_DATA ${bad%%:*}: every SPE sample still printed" "$tmp/p.spe" "$tmp/s.spe"
	done

	# A sample of another event's id (common_type, the first field of its
	# raw data, 60 bytes into the record): said with its offset, the other
	# samples printed.
	cp "$tmp/tp-mix.data" "$tmp/tp-bad.data"
	at=$(python3 "$pdir/patch_record.py" "$tmp/tp-bad.data" 9 0 60 2 0xfff0)
	"$spe" script "${ks[@]}" --branch-miss "$tmp/tp-bad.data" >"$tmp/s.out" 2>"$tmp/s.err"
	rc=$?
	check "a tracepoint sample of an unknown common_type: exit 1, said at $at, the others printed" \
		'[ $rc = 1 ] && [ "$(cat "$tmp/s.err")" = "spe-decode script: $tmp/tp-bad.data: 1 tracepoint samples not printed: a tracepoint sample whose common_type is not its event'"'"'s id (the first at file offset $at)" ] &&
		 [ $(($(wc -l <"$tmp/s.out") + 1)) = "$(wc -l <"$tmp/p.out")" ]'

	# Built without libtraceevent: the same SPE lines (padded to their own
	# names: the tracepoints' are not known), and one warning that names
	# the library and the samples it could not print.
	nolib="$tmp/nolib"
	if make -s -C "$top/tools/spe-decode" -j2 O="$nolib" WITHOUT_LIBTRACEEVENT=1 \
		"$nolib/spe-decode" >"$tmp/nolib.log" 2>&1; then
		"$nolib/spe-decode" script "${ks[@]}" --branch-miss "$tmp/tp-mix.data" >"$tmp/s.out" 2>"$tmp/s.err"
		rc=$?
		grep -vE "$tpre" "$tmp/p.out" | tr -s ' ' | sed 's/^ //' >"$tmp/p.spe"
		tr -s ' ' <"$tmp/s.out" | sed 's/^ //' >"$tmp/s.spe"
		same "without libtraceevent: the SPE samples as perf prints them" "$tmp/p.spe" "$tmp/s.spe"
		check "without libtraceevent: exit 0 and one warning naming the library" \
			'[ $rc = 0 ] && [ "$(cat "$tmp/s.err")" = "spe-decode script: $ntp tracepoint samples not printed: built without libtraceevent (libtraceevent-dev), which formats them" ] &&
			 ! nm "$nolib/spe-decode" | grep -q " U tep_"'
	else
		tap_fail "spe-decode builds with WITHOUT_LIBTRACEEVENT=1" "$(tail -5 "$tmp/nolib.log")"
	fi
fi

# 14. perf's own options on report, c2c and script (perf_options.c): what
#     a perf user's script passes runs unchanged.  Each compared with what
#     perf 6.1 prints for the same recording.
# --header-only: perf's lines, but for the "# event :" lines of the
# attributes, which spe-decode does not print (spe-decode.txt).
perf report -i "$tmp/m.data" --header-only 2>/dev/null | grep -v '^# event : ' >"$tmp/p.h"
"$spe" report --header-only "$tmp/m.data" >"$tmp/s.h" 2>"$tmp/s.err"
same "report --header-only: perf's header lines (but its event attributes)" "$tmp/p.h" "$tmp/s.h"
# --header: the header, then the report.
"$spe" report --header "$tmp/m.data" >"$tmp/s.hr" 2>"$tmp/s.err"
"$spe" report "$tmp/m.data" >"$tmp/s.r"
cat "$tmp/s.h" "$tmp/s.r" >"$tmp/s.hr.want"
same "report --header: the header lines, then the report" "$tmp/s.hr.want" "$tmp/s.hr"
# A header that cannot be read is said (file and reason), exit 1: the
# last feature sections cut off (the lines of the others still printed),
# or a pipe, which has none.
head -c "$(($(stat -c %s "$tmp/m.data") - 100))" "$tmp/m.data" >"$tmp/cut.data"
"$spe" report --header-only "$tmp/cut.data" >"$tmp/s.o" 2>"$tmp/s.err"
rc=$?
"$spe" report --header-only - <"$tmp/m.data" >/dev/null 2>"$tmp/s.err2"
rc2=$?
check "report --header-only: cut feature sections and a pipe are said, exit 1; the other lines printed" \
	'[ $rc = 1 ] && grep -q "^# hostname : " "$tmp/s.o" && ! grep -q "^# pmu mappings" "$tmp/s.o" &&
	 grep -q "cut.data: feature section PMU_MAPPINGS lies past the end of the file" "$tmp/s.err" &&
	 [ $rc2 = 1 ] && grep -q "a pipe has no perf.data header" "$tmp/s.err2"'
# -D: perf report's raw trace dump is spe-decode dump's.
"$spe" dump "$tmp/m.data" >"$tmp/s.dump"
"$spe" report -D "$tmp/m.data" >"$tmp/s.D"
same "report -D prints what spe-decode dump prints" "$tmp/s.dump" "$tmp/s.D"
# -s KEYS is --sort; the key 'symbol' is 'sym', as for perf, whose rows
# for -s symbol are those of -s sym (plus an IPC column of "-": SPE
# records carry no IPC, and spe-decode prints no such column).
"$spe" report --sort sym,dso "$tmp/m.data" >"$tmp/s.sort"
"$spe" report -s symbol,dso "$tmp/m.data" >"$tmp/s.s"
perf report -i "$tmp/m.data" --itrace=i1i --stdio -s sym,dso 2>/dev/null | grep -v '^#' |
	sed 's/ *$//' >"$tmp/p.sym"
perf report -i "$tmp/m.data" --itrace=i1i --stdio -s symbol,dso 2>/dev/null | grep -v '^#' |
	sed 's/ *- *- *$//; s/ *$//' >"$tmp/p.symbol"
check "report -s symbol,dso is --sort sym,dso, as perf's -s symbol has the rows of its -s sym" \
	'[ -s "$tmp/s.s" ] && cmp -s "$tmp/s.sort" "$tmp/s.s" && [ -s "$tmp/p.sym" ] && cmp -s "$tmp/p.sym" "$tmp/p.symbol"'
# Options that change nothing for SPE data: accepted (perf takes them),
# the output unchanged, one note each on stderr; -q silences the notes;
# --stdio is spe-decode's only layout and needs none.  -k wants a file
# that exists (as perf's): any will do.
ko=$spe
"$spe" report --stdio -f -n -k "$ko" "$tmp/m.data" >"$tmp/s.o" 2>"$tmp/s.err"
rc=$?
check "report --stdio -f -n -k FILE: exit 0, the report unchanged, one note each for -f, -n, -k" \
	'[ $rc = 0 ] && cmp -s "$tmp/s.r" "$tmp/s.o" && [ "$(wc -l <"$tmp/s.err")" = 3 ] &&
	 grep -q -- "-f/--force" "$tmp/s.err" && grep -q -- "-n/--show-nr-samples" "$tmp/s.err" &&
	 grep -q -- "-k/--vmlinux" "$tmp/s.err"'
"$spe" report -f -n -k "$ko" -q "$tmp/m.data" >"$tmp/s.o" 2>"$tmp/s.err"
rc=$?
check "report -q: no notes, the same report" '[ $rc = 0 ] && cmp -s "$tmp/s.r" "$tmp/s.o" && [ ! -s "$tmp/s.err" ]'
"$spe" report -k "$tmp/no-such-vmlinux" "$tmp/m.data" >/dev/null 2>"$tmp/s.err"
rc=$?
perf report -i "$tmp/m.data" -k "$tmp/no-such-vmlinux" --stdio >/dev/null 2>&1
prc=$?
check "report -k with a missing file is an error naming it, as perf's (exit $rc, perf $prc)" \
	'[ $rc = 2 ] && [ $prc != 0 ] && grep -q "no-such-vmlinux" "$tmp/s.err"'
"$spe" c2c "$tmp/m.data" >"$tmp/s.c2c"
"$spe" c2c --stdio -f -q -k "$ko" "$tmp/m.data" >"$tmp/s.c2c.o" 2>"$tmp/s.err"
rc=$?
check "c2c --stdio -f -q -k FILE: exit 0, the same lines, nothing said" \
	'[ $rc = 0 ] && [ -s "$tmp/s.c2c" ] && cmp -s "$tmp/s.c2c" "$tmp/s.c2c.o" && [ ! -s "$tmp/s.err" ]'
# script --reltime / --deltatime: perf's times, byte for byte, in µs and ns.
for t in --reltime --deltatime; do
	for ns in "" --ns; do
		perf script -i "$tmp/m.data" $t $ns >"$tmp/p.out" 2>/dev/null
		"$spe" script --branch-miss $t $ns "$tmp/m.data" >"$tmp/s.out"
		same "script $t $ns: perf's lines" "$tmp/p.out" "$tmp/s.out"
	done
done
# Tracepoint lines are times like the SPE samples' (perf counts both).
if [ -s "$tmp/tp-mix.data" ] && [ -n "${ks+set}" ]; then
	perf script -i "$tmp/tp-mix.data" --deltatime >"$tmp/p.out" 2>/dev/null
	"$spe" script --branch-miss --deltatime "${ks[@]}" "$tmp/tp-mix.data" >"$tmp/s.out" 2>/dev/null
	same "script --deltatime with tracepoint samples: perf's lines" "$tmp/p.out" "$tmp/s.out"
fi
"$spe" script --reltime --deltatime "$tmp/m.data" >/dev/null 2>"$tmp/s.err"
rc=$?
check "script --reltime --deltatime: a usage error, as perf refuses the pair" \
	'[ $rc = 2 ] && grep -q "exclude each other" "$tmp/s.err"'
# perf's memory-mode sort keys: rows and sample counts equal perf report
# --mem-mode -n's (perf weighs its overhead there by the samples' weights;
# the Samples column counts them).  local_weight also without --mem-mode.
# The table's rows as "samples<TAB>keys" (the 16 numeric columns first).
table_rows() { awk 'f && NF { t = $0; for (i = 0; i < 16; i++) sub(/^ *[^ ]+/, "", t);
		sub(/^  /, "", t); sub(/ +$/, "", t); print $1 "\t" t } /^ *samples/ { f = 1 }'; }
perf_rows() { grep -v '^#' | grep . | awk '{ c = $2; $1 = ""; $2 = ""; sub(/^ +/, "");
		sub(/ +$/, ""); print c "\t" $0 }'; }
for k in mem snoop tlb local_weight; do
	perf report -i "$tmp/m.data" --itrace=i1i --mem-mode --stdio -n -s "$k" 2>/dev/null |
		perf_rows | sort >"$tmp/p.rows"
	"$spe" report -s "$k" "$tmp/m.data" | table_rows | sort >"$tmp/s.rows"
	same "report -s $k: perf report --mem-mode -s $k's rows and sample counts" \
		"$tmp/p.rows" "$tmp/s.rows"
done
perf report -i "$tmp/m.data" --itrace=i1i --stdio -n -s local_weight 2>/dev/null |
	perf_rows | sort >"$tmp/p.rows"
same "report -s local_weight: perf report -s local_weight's rows and counts" "$tmp/p.rows" "$tmp/s.rows"
# overhead is a column to perf, no grouping: alone one row of all samples,
# with other keys their rows.
perf report -i "$tmp/m.data" --itrace=i1i --stdio -n -s overhead 2>/dev/null | grep -v '^#' |
	grep . | awk '{ print $2 }' >"$tmp/p.rows"
"$spe" report -s overhead "$tmp/m.data" | table_rows | cut -f1 >"$tmp/s.rows"
"$spe" report -s overhead,sym,dso "$tmp/m.data" >"$tmp/s.o"
check "report -s overhead: one row of every sample ($(cat "$tmp/p.rows") as perf's); -s overhead,sym,dso is -s sym,dso" \
	'[ -s "$tmp/p.rows" ] && cmp -s "$tmp/p.rows" "$tmp/s.rows" && cmp -s "$tmp/s.o" "$tmp/s.sort"'
# -t SEP: the table's columns split by SEP; its samples and keys are perf
# report -n -t SEP's (perf pads its fields: blanks trimmed).
"$spe" report -s sym,dso --unresolved address -t '|' "$tmp/m.data" >"$tmp/s.t"
"$spe" report -s sym,dso --unresolved address "$tmp/m.data" | table_rows >"$tmp/s.rows"
perf report -i "$tmp/m.data" --itrace=i1i --stdio -n -s sym,dso -t '|' 2>/dev/null | grep -v '^#' |
	grep . | awk -F'|' '{ for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i); print $2 "\t" $3 "\t" $4 }' |
	sort >"$tmp/p.rows"
grep -v '^#' "$tmp/s.t" | awk -F'|' '{ print $1 "\t" $17 "\t" $18 }' | sort >"$tmp/s.trows"
check "report -t '|': the table's columns split by '|' (header named), samples and keys as perf report -n -t '|'" \
	'[ "$(sed -n 3p "$tmp/s.t")" = "# samples|samp%|latency|lat%|mean|p50|p90|p99|issue|xlat|sat|l1d%|llc%|walk%|rem%|misp%|sym|dso" ] &&
	 [ "$(grep -vc "^#" "$tmp/s.t")" = "$(wc -l <"$tmp/s.rows")" ] &&
	 [ "$(grep -v "^#" "$tmp/s.t" | awk -F"|" "{ print NF }" | sort -u)" = 18 ] &&
	 [ -s "$tmp/p.rows" ] && cmp -s "$tmp/p.rows" "$tmp/s.trows"'
"$spe" report -t , "$tmp/m.data" >"$tmp/s.o" 2>"$tmp/s.err"
check "report -t without --sort: the summary unchanged, said once" \
	'cmp -s "$tmp/s.r" "$tmp/s.o" && [ "$(wc -l <"$tmp/s.err")" = 1 ]'
# --show-task-events / --show-mmap-events: perf's COMM (and FORK, EXIT,
# MMAP, MMAP2) lines in their place, byte for byte; per-thread too.
for f in m pt sw; do
	for o in --show-task-events --show-mmap-events; do
		perf script -i "$tmp/$f.data" $o --ns 2>/dev/null >"$tmp/p.out"
		"$spe" script --branch-miss $o --ns "$tmp/$f.data" >"$tmp/s.out"
		same "script $o on $f.data: perf's lines" "$tmp/p.out" "$tmp/s.out"
	done
done
perf script -i "$tmp/m.data" --show-task-events --reltime 2>/dev/null >"$tmp/p.out"
"$spe" script --branch-miss --show-task-events --reltime "$tmp/m.data" >"$tmp/s.out"
same "script --show-task-events --reltime: a record at time 0 is no base, as perf's" \
	"$tmp/p.out" "$tmp/s.out"
"$spe" script --json --show-task-events "$tmp/m.data" >/dev/null 2>"$tmp/s.err"
rc=$?
check "script --json --show-task-events: a usage error (lines of perf's layout)" \
	'[ $rc = 2 ] && grep -q -- "--show-mmap-events print lines of perf.s layout" "$tmp/s.err"'
# -G (no call graph in SPE samples), -f, -k: accepted, the lines unchanged.
"$spe" script --branch-miss "$tmp/m.data" >"$tmp/s.out"
"$spe" script --branch-miss -G -f -k "$ko" "$tmp/m.data" >"$tmp/s.o" 2>"$tmp/s.err"
rc=$?
check "script -G -f -k FILE: exit 0, the lines unchanged, a note each" \
	'[ $rc = 0 ] && cmp -s "$tmp/s.out" "$tmp/s.o" && [ "$(wc -l <"$tmp/s.err")" = 3 ]'
tap_done
