#!/usr/bin/env bash
# Symbolisation: user ips through MMAP2 and the ELF symbol table equal host
# perf's (sym and dso), --symfs, absent files, kernel ips from a kallsyms
# file, and the report's top symbols.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/perfdata-suite.sh
. "$top/scripts/lib/perfdata-suite.sh"
bld="$top/build/spe-decode"
spe="$bld/spe-decode"
gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"

make -s -C "$top/tools/spe-decode" -j2 tests >"$tmp/build.log" 2>&1 ||
	{ tap_fail "build" "$(cat "$tmp/build.log")"; exit 1; }
# Any ELF with a symbol table will do: one of the unit-test programs.
elf="$tmp/prog"
cp "$bld/tests/test_symbols" "$elf"
# PCs 4 bytes into each function, mapped at 0x10000000 from file offset 0
# (its text segment has vaddr == file offset).
pcs=$(nm "$elf" | python3 -c '
import sys
print(",".join("%x" % (int(l.split()[0], 16) + 0x10000000 + 4)
               for l in sys.stdin if len(l.split()) == 3 and l.split()[1] in "tT"))')
python3 "$gen" 600 --seed 5 --no-context --pcs "$pcs" >"$tmp/sy.bin"
"$spe" wrap -o "$tmp/sy.data" --per-thread --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/sy.bin"
"$spe" script --branch-miss -F ip,sym,dso "$tmp/sy.data" >"$tmp/s.out"
if grep -q ' spe_symbols_lookup (' "$tmp/s.out" && grep -q ' main (' "$tmp/s.out"; then
	tap_ok "user ips resolve to the ELF's functions through MMAP2"
else
	tap_fail "user ips resolve to the ELF's functions through MMAP2"
fi

if command -v perf >/dev/null; then
	perf script -i "$tmp/sy.data" -F ip,sym,dso >"$tmp/p.out" 2>/dev/null
	same "ip, sym and dso equal perf script's" "$tmp/p.out" "$tmp/s.out"

	mkdir -p "$tmp/symfs/opt/app"
	cp "$elf" "$tmp/symfs/opt/app/prog"
	"$spe" wrap -o "$tmp/fs.data" --per-thread --pid 77 --tid 77 --comm prog \
		--mmap "0x10000000:0x100000:0:/opt/app/prog" --mmap "0x20000000:0x1000:0:/nonexistent/lib.so" \
		"$tmp/sy.bin"
	perf script -i "$tmp/fs.data" --symfs "$tmp/symfs" -F ip,sym,dso >"$tmp/p.out" 2>/dev/null
	"$spe" script --branch-miss --symfs "$tmp/symfs" -F ip,sym,dso "$tmp/fs.data" >"$tmp/s.out"
	same "--symfs: the same symbols as perf script --symfs" "$tmp/p.out" "$tmp/s.out"
else
	tap_skip "symbols equal perf's" "perf not installed"
fi

# An absent file: its name as the dso and [unknown] as the symbol.
"$spe" wrap -o "$tmp/gone.data" --per-thread --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x10000:0:/nonexistent/prog" "$tmp/sy.bin"
"$spe" script --branch-miss -F ip,sym,dso "$tmp/gone.data" >"$tmp/s.out"
if grep -q '^ *1[0-9a-f]\{7\} \[unknown\] (/nonexistent/prog)$' "$tmp/s.out"; then
	tap_ok "an absent mapped file: [unknown] symbol, its path as dso"
else
	tap_fail "an absent mapped file: [unknown] symbol, its path as dso"
fi

# Kernel ips from kallsyms: kfunc_K every 4 KiB from 0xffff800008000000.
python3 -c '
for k in range(1024):
    print("%x T kfunc_%d" % (0xffff800008000000 + k * 0x1000, k))
print("ffff800008000800 d kdata")' >"$tmp/kallsyms"
"$spe" script --branch-miss --kallsyms "$tmp/kallsyms" -F ip,sym,symoff,dso "$tmp/sy.data" |
	grep kernel.kallsyms >"$tmp/k.out"
bad=$(python3 -c '
import sys
bad = 0
for l in open(sys.argv[1]):
    ip, sym = l.split()[:2]
    ip = int(ip, 16)
    k = (ip - 0xffff800008000000) >> 12
    # perf keeps data symbols (d) too: kdata covers the second half of page 0.
    want = "kfunc_%d+0x%x" % (k, ip & 0xfff)
    if k == 0 and ip & 0xfff >= 0x800:
        want = "kdata+0x%x" % ((ip & 0xfff) - 0x800)
    if sym != want:
        bad += 1
print(bad)' "$tmp/k.out")
if [ -s "$tmp/k.out" ] && [ "$bad" -eq 0 ]; then
	tap_ok "kernel ips resolve from the kallsyms file ($(wc -l <"$tmp/k.out") samples)"
else
	tap_fail "kernel ips resolve from the kallsyms file ($bad wrong)"
fi
"$spe" script --kallsyms "$tmp/missing" "$tmp/sy.data" >/dev/null 2>"$tmp/err"
if [ $? -ne 0 ] && grep -q "$tmp/missing" "$tmp/err"; then
	tap_ok "a missing kallsyms file is an error naming it"
else
	tap_fail "a missing kallsyms file is an error naming it"
fi

# report: the top symbol is the most frequent record ip's symbol.
"$spe" report "$tmp/sy.data" >"$tmp/rep.out"
want=$("$spe" script --itrace=i1i -F sym "$tmp/sy.data" | sort | uniq -c | sort -k1,1nr -k2 | head -1 | awk '{print $1, $2}')
got=$(awk '/^## Top symbols/ {getline; getline; print $1, $3; exit}' "$tmp/rep.out")
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	tap_ok "report: top symbol '$got' with its record count"
else
	tap_fail "report: top symbol (want '$want', got '$got')"
fi

# report -j N splits the queues between sessions of their own, each with
# its own symbols; their counts must add up to the single session's: four
# CPUs, threads named by CONTEXT packets on two and by context switches on
# the others (one of them switching to a process without the mapping half
# way), user and kernel symbols.  With -j 2 the sets agree with one
# session (each set has a CPU with CONTEXT packets, and stops hearing
# switches before the late one); with -j 4 the set of CPU 3 has none and
# hears it after another set's first CONTEXT packet, which one session
# would not, so report decodes again in one session (without that, CPU
# 3's later records would go to pid 90).  -j 3 makes sets too unequal
# to split.
python3 "$gen" 3000 --seed 51 --tids 77 --pcs "$pcs" >"$tmp/q0.bin"
python3 "$gen" 2800 --seed 52 --tids 77,78 --pcs "$pcs" --ts0 1000050 >"$tmp/q1.bin"
python3 "$gen" 2600 --seed 53 --no-context --pcs "$pcs" --ts0 999990 >"$tmp/q2.bin"
python3 "$gen" 2500 --seed 54 --no-context --pcs "$pcs" --ts0 1000007 >"$tmp/q3.bin"
"$spe" wrap -o "$tmp/mq.data" --pid 77 --tid 77 --comm prog --mmap "0x10000000:0x100000:0:$elf" \
	--switch 2:999000:77:77 --switch 3:999000:77:77 --switch 3:1000500:90:90 \
	"$tmp/q0.bin@0" "$tmp/q1.bin@1" "$tmp/q2.bin@2" "$tmp/q3.bin@3"
for j in 1 2 3 4; do
	"$spe" report -v -j "$j" --top 1000000 --kallsyms "$tmp/kallsyms" "$tmp/mq.data" \
		>"$tmp/mq$j.out" 2>"$tmp/mq$j.err"
done
if grep -q ' main ' "$tmp/mq1.out" && grep -q 'kfunc_' "$tmp/mq1.out" &&
   grep -q '^ *[0-9]* *[0-9.]*%  \[unknown\] ' "$tmp/mq1.out" && [ ! -s "$tmp/mq1.err" ] &&
   grep -qx 'spe-decode report: 2 sessions, queues 0,3 | 1,2' "$tmp/mq2.err" &&
   ! grep -q 'again in one session' "$tmp/mq2.err" && cmp -s "$tmp/mq1.out" "$tmp/mq2.out"; then
	tap_ok "report -j 2: two sessions over sets of queues give -j 1's report: user, kernel and unknown symbols"
else
	tap_fail "report -j 2 over sets of queues equals -j 1" \
		"$(cat "$tmp/mq2.err"; diff "$tmp/mq1.out" "$tmp/mq2.out" | head -6)"
fi
if grep -q '^spe-decode report: 4 sessions' "$tmp/mq4.err" &&
   grep -q 'again in one session' "$tmp/mq4.err" && cmp -s "$tmp/mq1.out" "$tmp/mq4.out"; then
	tap_ok "report -j 4: a set heard a switch after another's CONTEXT packet: one session, -j 1's report"
else
	tap_fail "report -j 4 falls back to one session" \
		"$(cat "$tmp/mq4.err"; diff "$tmp/mq1.out" "$tmp/mq4.out" | head -6)"
fi
if [ ! -s "$tmp/mq3.err" ] && cmp -s "$tmp/mq1.out" "$tmp/mq3.out"; then
	tap_ok "report -j 3: sets too unequal, one session with decoding threads, -j 1's report"
else
	tap_fail "report -j 3" "$(cat "$tmp/mq3.err"; diff "$tmp/mq1.out" "$tmp/mq3.out" | head -6)"
fi
tap_done
