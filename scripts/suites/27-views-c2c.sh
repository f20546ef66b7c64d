#!/usr/bin/env bash
# spe-decode c2c: on a generated contended workload (tests/views/gen_c2c.py)
# exactly the lines written by more than one CPU are shared, with their
# offsets, CPUs and code (symbol, source line); the counts equal host perf
# c2c report's for the lines both list, and the documented differences
# hold (perf lists read-only lines with peer loads, and misses contended
# lines whose loads hit L1).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/views-fixture.sh
. "$top/scripts/lib/views-fixture.sh"
spe_views_setup tests
spe_views_elf
pcs=$(spe_views_pcs_named)
python3 "$views/gen_c2c.py" "$tmp" 4 "$pcs"
"$spe" wrap -o "$tmp/c2c.data" --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/cpu0.bin@0" "$tmp/cpu1.bin@1" \
	"$tmp/cpu2.bin@2" "$tmp/cpu3.bin@3"

"$spe" c2c "$tmp/c2c.data" >"$tmp/c.out" 2>"$tmp/c.err" || tap_fail "c2c runs" "$(cat "$tmp/c.err")"
# "line space records loads stores cpus peer" of the line table
awk '/^## Shared cache lines/ {f = 1; getline; next} f && /^ *[0-9]/ {print $2, $3, $5, $6, $7, $8, $9} /^$/ {f = 0}' \
	"$tmp/c.out" | sort >"$tmp/lines"
cat >"$tmp/want" <<'W'
0x7fff00004000 pid77 400 200 200 4 0
0x80001000 phys 400 200 200 4 100
0x80002000 phys 400 200 200 4 200
W
if cmp -s "$tmp/lines" "$tmp/want"; then
	tap_ok "shared lines: false (A), true (B) and virtual-only (D) sharing; not the read-only or private lines"
else
	tap_fail "shared lines" "$(diff "$tmp/want" "$tmp/lines")"
fi
# Line A: one offset per CPU, each with its own function and source line.
awk '/^## Line .*0x80001000/ {f = 1; getline; next} f && NF {print $1, $2, $3, $7, $8} !NF {f = 0}' \
	"$tmp/c.out" >"$tmp/a"
ok=1
for k in 0 1 2 3; do
	sym=$(echo spe_symbols_new spe_symbols_free spe_symbols_event spe_symbols_comm | cut -d' ' -f$((k + 1)))
	grep -q "^0x$(printf %02x $((8 * k))) 50 50 $k $sym+0x8\$" "$tmp/a" || ok=0
done
[ "$ok" = 1 ] && [ "$(wc -l <"$tmp/a")" = 4 ] &&
	tap_ok "false sharing: offsets 0x00..0x18, one CPU and one function each" ||
	tap_fail "false-sharing line's offsets" "$(cat "$tmp/a")"
grep -A2 '^## Line .*0x80002000' "$tmp/c.out" | grep_q '0,1,2,3 *spe_symbols_lookup+0x8 (.*prog) symbols.c:[1-9]' &&
	tap_ok "true sharing: offset 0 by all four CPUs, with the source line from DWARF" ||
	tap_fail "true-sharing line" "$(grep -A2 '0x80002000 (' "$tmp/c.out")"
"$spe" c2c --order peer --top 1 "$tmp/c2c.data" | awk '/^ *0 /' | grep_q 0x80002000 &&
	tap_ok "--order peer puts the line with the most peer-cache loads first" ||
	tap_fail "--order peer"

# perf's filters choose the samples: c2c --cpu 0,1 of the four CPUs is
# c2c of a recording of CPUs 0 and 1 alone, and --pid/--time the same.
"$spe" wrap -o "$tmp/c01.data" --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/cpu0.bin@0" "$tmp/cpu1.bin@1"
"$spe" c2c "$tmp/c01.data" | tail -n +2 >"$tmp/want"
for f in "--cpu 0,1" "-C 0-1" "--cpu=1,0"; do
	# shellcheck disable=SC2086
	"$spe" c2c $f "$tmp/c2c.data" | tail -n +2 >"$tmp/got"
	if grep -q '^## Line ' "$tmp/want" && cmp -s "$tmp/want" "$tmp/got" &&
	   ! cmp -s "$tmp/got" <("$spe" c2c "$tmp/c2c.data" | tail -n +2); then
		tap_ok "c2c $f equals c2c of a recording of CPUs 0 and 1 alone ($(grep -c '^## Line ' "$tmp/got") shared lines)"
	else
		tap_fail "c2c $f equals c2c of CPUs 0 and 1 alone" "$(diff "$tmp/want" "$tmp/got" | head -6)"
	fi
done
"$spe" c2c "$tmp/c2c.data" >"$tmp/all"
"$spe" c2c --pid 77 --comm prog --time 0, "$tmp/c2c.data" >"$tmp/got"
"$spe" c2c --pid 78 "$tmp/c2c.data" >"$tmp/none"
if cmp -s "$tmp/all" "$tmp/got" && grep -q '^# shared lines.*: 0,' "$tmp/none" &&
   grep -q '^# loads and stores with a data address: 0$' "$tmp/none"; then
	tap_ok "c2c --pid 77 --comm prog --time 0, keeps every sample; --pid 78 none"
else
	tap_fail "c2c --pid/--comm/--time" "$(head -3 "$tmp/none")"
fi
"$spe" c2c --cpu 0-x "$tmp/c2c.data" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ ! -s "$tmp/out" ] && grep -q '^spe-decode c2c: --cpu=0-x: ' "$tmp/err" &&
	tap_ok "c2c --cpu 0-x: a usage error naming the option" ||
	tap_fail "c2c --cpu 0-x is refused" "$(cat "$tmp/err")"

# Against perf c2c report (which needs a NUMA topology in the header).
if command -v perf >/dev/null; then
	python3 "$views/add_numa.py" "$tmp/c2c.data" "$tmp/numa.data"
	perf c2c report -i "$tmp/numa.data" --stdio 2>/dev/null >"$tmp/perf.out"
	awk '/Shared Data Cache Line Table/ {f = 1} /Shared Cache Line Distribution/ {f = 0}
	     f && /^ +[0-9]+ +0x/ {print $2, $9, $10, $11}' "$tmp/perf.out" | sort >"$tmp/p.lines"
	"$spe" c2c --virtual "$tmp/c2c.data" |
		awk '/^## Shared cache lines/ {f = 1; getline; next} f && /^ *[0-9]/ {print $2, $5, $6, $7} /^$/ {f = 0}' |
		sort >"$tmp/s.lines"
	common=$(join "$tmp/p.lines" "$tmp/s.lines" | awk '$2 == $5 && $3 == $6 && $4 == $7' | wc -l)
	if [ "$common" = 2 ] && grep -q '^0x7fff00001000 ' "$tmp/s.lines" && grep -q '^0x7fff00002000 ' "$tmp/s.lines"; then
		tap_ok "--virtual: records, loads and stores of lines A and B equal perf c2c's"
	else
		tap_fail "counts equal perf c2c's" "perf: $(cat "$tmp/p.lines")" "ours: $(cat "$tmp/s.lines")"
	fi
	if grep -q '^0x7fff00003000 ' "$tmp/p.lines" && ! grep -q '^0x7fff00003000 ' "$tmp/s.lines" &&
	   ! grep -q '^0x7fff00004000 ' "$tmp/p.lines" && grep -q '^0x7fff00004000 ' "$tmp/s.lines"; then
		tap_ok "documented differences: perf lists read-only line C (peer loads, no store), misses line D (stores by 4 CPUs, loads hit L1)"
	else
		tap_fail "documented differences from perf c2c" "perf: $(cat "$tmp/p.lines")" "ours: $(cat "$tmp/s.lines")"
	fi
	# perf's per-offset code for line A equals ours.
	awk '/Shared Cache Line Distribution Pareto/ {f = 1} f && /0x7fff00001000$/ {g = 1; next}
	     g && /^ +-+$/ {if (seen) exit; next} g && /\[\.\]/ {seen = 1; print $6, $16, $18}' \
		"$tmp/perf.out" | sort >"$tmp/p.off"
	"$spe" c2c --virtual "$tmp/c2c.data" |
		awk '/^## Line .*0x7fff00001000/ {f = 1; getline; next} f && NF {o = $1; sub(/^0x0*/, "", o); if (o == "") o = "0";
		     s = $8; sub(/\+0x[0-9a-f]+$/, "", s); print "0x" o, s, $NF} !NF {f = 0}' | sort >"$tmp/s.off"
	if [ -s "$tmp/p.off" ] && cmp -s "$tmp/p.off" "$tmp/s.off"; then
		tap_ok "line A: offsets, symbols and source lines equal perf c2c's Pareto table"
	else
		tap_fail "line A equals perf's Pareto table" "$(diff "$tmp/p.off" "$tmp/s.off")"
	fi
else
	tap_skip "counts equal perf c2c's" "perf not installed"
fi

# Saturated counters (4095 of a 12-bit counter) are not latencies: c2c
# leaves them out of a line's cost and an offset's mean, as report --sort
# does.  Line E's stores all saturate, its loads take 9 cycles.
python3 "$views/gen_c2c.py" "$tmp" 4 "$pcs" --sat
"$spe" wrap -o "$tmp/sat.data" --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/cpu0.bin@0" "$tmp/cpu1.bin@1" \
	"$tmp/cpu2.bin@2" "$tmp/cpu3.bin@3"
"$spe" c2c "$tmp/sat.data" >"$tmp/sat.out" 2>"$tmp/err"
e_row=$(awk '/^## Shared cache lines/ {f = 1; getline; next} f && $2 == "0x80005000" {print $1, $4, $6, $7} /^$/ {f = 0}' "$tmp/sat.out")
e_mean=$(grep -A2 '^## Line .*0x80005000 (' "$tmp/sat.out" | awk '$1 == "0x10" {print $6}')
# The loads' latency as report --sort sym,op counts it: sum and mean.
want=$("$spe" report --sort sym,op "$tmp/sat.data" |
	awk '$NF == "load" && $(NF - 1) == "spe_symbols_lookup" {print $3, $5}')
if [ "$e_row" = "3 1800 200 200" ] && [ "$e_mean" = "9.0" ] &&
   grep -q '^# cost and mean latency leave out saturated counters (4095): 200 accesses' "$tmp/sat.out"; then
	tap_ok "saturated counters left out: line E costs its 200 loads of 9 cycles, ranks last, mean 9.0"
else
	tap_fail "saturated counters in c2c" "line E: $e_row (want idx 3, cost 1800, 200 loads, 200 stores)" \
		"mean $e_mean (want 9.0)" "report --sort: $want"
fi
"$spe" report --sort sym,op "$tmp/sat.data" | awk '$NF == "store" && $(NF - 1) == "spe_symbols_lookup" {print $11}' |
	grep_q '^200$' && tap_ok "report --sort counts the same 200 saturated stores in 'sat'" ||
	tap_fail "report --sort's sat count"

"$spe" c2c - <"$tmp/c2c.data" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "twice" "$tmp/err" && tap_ok "a pipe is refused: c2c reads its input twice" ||
	tap_fail "pipe input" "$(cat "$tmp/err")"
"$spe" c2c --order nope "$tmp/c2c.data" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "nope" "$tmp/err" && tap_ok "an unknown --order is a usage error naming it" ||
	tap_fail "unknown --order" "$(cat "$tmp/err")"
# --top takes a whole number, in c2c as in html: "10x" or "-1" is refused,
# never read as 10 or as "all rows".
for cmd in c2c "html -o $tmp/top.html"; do
	for v in 10x -1 0; do
		# shellcheck disable=SC2086 # the command and its -o are two words
		"$spe" $cmd --top "$v" "$tmp/c2c.data" >/dev/null 2>"$tmp/err"
		[ $? -eq 2 ] && grep -q -- "--top: '$v' is not a number" "$tmp/err" &&
			! [ -e "$tmp/top.html" ] && tap_ok "${cmd%% *} --top $v is a usage error" ||
			tap_fail "${cmd%% *} --top $v" "$(cat "$tmp/err")"
	done
done
tap_done
