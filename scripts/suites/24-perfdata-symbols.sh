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
# The kernel's map (perf names no kernel ip of a recording without one).
kmap=(--kernel-mmap "0xffff800008000000:0x400000:0:[kernel.kallsyms]_text")
"$spe" wrap -o "$tmp/sy.data" --per-thread --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "${kmap[@]}" "$tmp/sy.bin"
"$spe" script --branch-miss -F ip,sym,dso "$tmp/sy.data" >"$tmp/s.out"
if grep -q ' spe_symbols_lookup (' "$tmp/s.out" && grep -q ' main (' "$tmp/s.out"; then
	tap_ok "user ips resolve to the ELF's functions through MMAP2"
else
	tap_fail "user ips resolve to the ELF's functions through MMAP2"
fi

if command -v perf >/dev/null; then
	perf script -i "$tmp/sy.data" -F ip,sym,dso >"$tmp/p.out" 2>/dev/null
	same "ip, sym and dso equal perf script's" "$tmp/p.out" "$tmp/s.out"

	# perf's -S LIST (--symbols): only the samples in those functions.
	for S in "-S spe_symbols_lookup,main" --symbols=main; do
		# shellcheck disable=SC2086 # "-S LIST" is two words
		perf script -i "$tmp/sy.data" $S 2>/dev/null >"$tmp/p.out"
		# shellcheck disable=SC2086
		"$spe" script --branch-miss $S "$tmp/sy.data" >"$tmp/s.out"
		same "script $S: perf's samples of those functions" "$tmp/p.out" "$tmp/s.out"
	done
	# -F srcline: perf's line "  file.c:N" under each sample from DWARF.
	# Code in units without line ranges: perf's addr2line answers
	# "FILE:0" (crtstuff.c:0), libdw nothing, and spe-decode prints no
	# line, as for any unknown line; those lines of perf's are left out.
	for F in ip,sym,srcline +srcline; do
		perf script -i "$tmp/sy.data" -F "$F" 2>/dev/null >"$tmp/p.all"
		grep -v '^  .*:0$' "$tmp/p.all" >"$tmp/p.out"
		"$spe" script --branch-miss -F "$F" "$tmp/sy.data" >"$tmp/s.out"
		check "script -F $F: perf's lines, source lines from DWARF (but $(($(wc -l <"$tmp/p.all") - $(wc -l <"$tmp/p.out"))) of perf's FILE:0)" \
			'[ -s "$tmp/p.out" ] && cmp -s "$tmp/p.out" "$tmp/s.out" && grep -q "^  .*\.c:[1-9]" "$tmp/s.out"'
	done
	"$spe" script --json -F ip,srcline "$tmp/sy.data" >/dev/null 2>"$tmp/s.err"
	rc=$?
	check "script --json -F srcline: a usage error (a field of perf's layout)" \
		'[ $rc = 2 ] && grep -q "srcline is a field of perf.s layout" "$tmp/s.err"'
	# --show-mmap-events: perf's MMAP2 line of the program's mapping.
	perf script -i "$tmp/sy.data" --show-mmap-events --show-task-events 2>/dev/null >"$tmp/p.out"
	"$spe" script --branch-miss --show-mmap-events --show-task-events "$tmp/sy.data" >"$tmp/s.out"
	same "script --show-mmap-events --show-task-events: perf's lines" "$tmp/p.out" "$tmp/s.out"

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

# report -j N cuts the queues, end to end, into spans of equal bytes, one
# session each with its own symbols; their counts must add up to the
# single session's: four CPUs, threads named by CONTEXT packets on CPUs 0
# and 2 and by context switches on 1 and 3 (CPU 3 switching to a process
# without the mapping half way), user and kernel symbols.  With -j 2 the
# spans are CPUs 0,1 and 2,3 (the middle is close to CPU 1's end) and
# agree with one session: each has a CPU with CONTEXT packets, and stops
# hearing switches before the late one.  With -j 4 (a span per CPU) CPU
# 3's session has none and hears the late switch after another's first
# CONTEXT packet, which one session would not, so report decodes again in
# one session (without that, CPU 3's later records would go to pid 90).
python3 "$gen" 3000 --seed 51 --tids 77 --pcs "$pcs" >"$tmp/q0.bin"
python3 "$gen" 2800 --seed 52 --tids 77,78 --pcs "$pcs" --ts0 1000050 >"$tmp/q2.bin"
python3 "$gen" 2600 --seed 53 --no-context --pcs "$pcs" --ts0 999990 >"$tmp/q1.bin"
python3 "$gen" 2500 --seed 54 --no-context --pcs "$pcs" --ts0 1000007 >"$tmp/q3.bin"
"$spe" wrap -o "$tmp/mq.data" --pid 77 --tid 77 --comm prog --mmap "0x10000000:0x100000:0:$elf" "${kmap[@]}" \
	--switch 1:999000:77:77 --switch 3:999000:77:77 --switch 3:1000500:90:90 \
	"$tmp/q0.bin@0" "$tmp/q1.bin@1" "$tmp/q2.bin@2" "$tmp/q3.bin@3"
# report_j NAME FILE J: report -v -j J of FILE into $tmp/NAME.out and .err.
report_j() {
	"$spe" report -v -j "$3" --top 1000000 --kallsyms "$tmp/kallsyms" "$2" \
		>"$tmp/$1.out" 2>"$tmp/$1.err"
}
for j in 1 2 4; do
	report_j "mq$j" "$tmp/mq.data" "$j"
done
if grep -q ' main ' "$tmp/mq1.out" && grep -q 'kfunc_' "$tmp/mq1.out" &&
   grep -q '^ *[0-9]* *[0-9.]*%  \[unknown\] ' "$tmp/mq1.out" && [ ! -s "$tmp/mq1.err" ] &&
   grep -qx 'spe-decode report: 2 sessions, queues 0,1 | 2,3' "$tmp/mq2.err" &&
   ! grep -q 'again in one session' "$tmp/mq2.err" && cmp -s "$tmp/mq1.out" "$tmp/mq2.out"; then
	tap_ok "report -j 2: two sessions over spans of queues give -j 1's report: user, kernel and unknown symbols"
else
	tap_fail "report -j 2 over spans of queues equals -j 1" \
		"$(cat "$tmp/mq2.err"; diff "$tmp/mq1.out" "$tmp/mq2.out" | head -6)"
fi
if grep -q '^spe-decode report: 4 sessions' "$tmp/mq4.err" &&
   grep -q 'context switches on others: decoding again in one session' "$tmp/mq4.err" &&
   cmp -s "$tmp/mq1.out" "$tmp/mq4.out"; then
	tap_ok "report -j 4: a span heard a switch after another's CONTEXT packet: one session, -j 1's report"
else
	tap_fail "report -j 4 falls back to one session" \
		"$(cat "$tmp/mq4.err"; diff "$tmp/mq1.out" "$tmp/mq4.out" | head -6)"
fi

# One CPU's queue, cut inside its buffer between sessions: threads named
# by CONTEXT packets (two processes, one without the mapping).
"$spe" wrap -o "$tmp/one.data" --pid 77 --tid 77 --comm prog --mmap "0x10000000:0x100000:0:$elf" \
	--switch 0:999000:78:78 "$tmp/q2.bin@0"
for j in 1 2 3; do
	report_j "one$j" "$tmp/one.data" "$j"
done
if grep -q '^spe-decode report: 2 sessions, queues 0 bytes 0-[0-9]* | 0 bytes [0-9]*-[0-9]*$' "$tmp/one2.err" &&
   grep -q '^spe-decode report: 3 sessions, queues 0 bytes 0-' "$tmp/one3.err" &&
   ! grep -q 'again' "$tmp/one2.err" "$tmp/one3.err" && grep -q ' main ' "$tmp/one1.out" &&
   cmp -s "$tmp/one1.out" "$tmp/one2.out" && cmp -s "$tmp/one1.out" "$tmp/one3.out"; then
	tap_ok "report -j 2 and -j 3: one queue cut where records start gives -j 1's report"
else
	tap_fail "report -j 2/-j 3 of one queue cut between sessions" \
		"$(cat "$tmp/one2.err" "$tmp/one3.err"; diff "$tmp/one1.out" "$tmp/one2.out" | head -6)"
fi

# A file of another build than the recording's: its warning said once,
# however many sessions (report -j N) or passes (c2c, html) load it.
"$spe" wrap -o "$tmp/bid.data" --pid 77 --tid 77 --comm prog --mmap "0x10000000:0x100000:0:$elf" \
	--build-id 0123456789abcdef0123456789abcdef01234567:"$elf" "$tmp/q0.bin@0" "$tmp/q0.bin@1"
counts=""
for cmd in "report -j 1" "report -j 2" "report -j 4" "c2c -j 2" "html -j 2 -o $tmp/bid.html"; do
	# shellcheck disable=SC2086
	counts="$counts $("$spe" $cmd "$tmp/bid.data" 2>&1 >/dev/null | grep -c 'warning: .*build id 0123456789abcdef')"
done
if [ "$counts" = " 1 1 1 1 1" ]; then
	tap_ok "a build id mismatch is said once by report -j 1/2/4, c2c and html"
else
	tap_fail "a build id mismatch said once" "counts:$counts (report -j 1, -j 2, -j 4, c2c, html)"
fi

# Parts that do not join: one buffer whose timestamps start again half way
# (two streams end to end), threads named by switches, and a switch to a
# process without the mapping timed between the second stream's first
# record and the first one's last.  Decoded whole, the second stream's
# records wait for the queue's newest timestamp and all come after that
# switch; cut there, its early records would come before it.
python3 "$gen" 2000 --seed 55 --no-context --pcs "$pcs" >"$tmp/back.bin"
python3 "$gen" 2000 --seed 56 --no-context --pcs "$pcs" >>"$tmp/back.bin"
"$spe" wrap -o "$tmp/back.data" --pid 77 --tid 77 --comm prog --mmap "0x10000000:0x100000:0:$elf" \
	--switch 0:999000:77:77 --switch 0:1100000:90:90 "$tmp/back.bin@0"
report_j back1 "$tmp/back.data" 1
report_j back2 "$tmp/back.data" 2
if grep -q '^spe-decode report: 2 sessions, queues 0 bytes 0-' "$tmp/back2.err" &&
   grep -q "a queue's parts did not join where it was cut: decoding again in one session" \
	"$tmp/back2.err" && grep -q ' main ' "$tmp/back1.out" &&
   grep -q '\[unknown\]' "$tmp/back1.out" && cmp -s "$tmp/back1.out" "$tmp/back2.out"; then
	tap_ok "report -j 2: a cut whose records would meet the sideband elsewhere: one session, -j 1's report"
else
	tap_fail "report -j 2 of parts that do not join" \
		"$(cat "$tmp/back2.err"; diff "$tmp/back1.out" "$tmp/back2.out" | head -6)"
fi
tap_done
