#!/usr/bin/env bash
# spe-decode as a perf user meets it, around the decoding itself: no
# command destroys a file (temporary file + rename, output == input
# refused, an existing output kept as .old, 0600 as perf), -o - writes
# perf's pipe format, a perf.data without SPE data says so, and stock perf
# (report, script, mem report, c2c report) reads what inject writes; wrap
# --features-from raises NRCPUS to the data's CPUs and wrap writes the
# samples' time range (perf script -C N, --time=PERCENT).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"
spe="$top/build/spe-decode/spe-decode"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

make -s -C "$top/tools/spe-decode" -j2 >build.log 2>&1 ||
	{ cat build.log; tap_fail "spe-decode builds"; tap_done; exit 1; }

python3 "$gen" 1500 --seed 11 >m0.bin
python3 "$gen" 1500 --seed 12 --ts0 1000050 >m1.bin
"$spe" wrap -o ref.data --pid 100 --tid 100 --comm prog m0.bin@0 m1.bin@1 2>/dev/null

# same_bytes NAME FILE REF: FILE is byte-identical to REF
same_bytes() {
	if cmp -s "$2" "$3"; then tap_ok "$1"; else tap_fail "$1" "$(ls -l "$2" "$3" 2>&1)"; fi
}

## 1. Never lose a file.
cp ref.data same.data
"$spe" inject -o same.data same.data 2>err; rc=$?
if [ $rc -ne 0 ] && grep -q 'also an input' err; then
	same_bytes "inject -o X X: refused, X untouched" same.data ref.data
else
	tap_fail "inject -o X X is refused (exit $rc)" "$(cat err)"
fi
ln -s same.data alias.data
"$spe" inject -o alias.data same.data 2>err; rc=$?
[ $rc -ne 0 ] && cmp -s same.data ref.data && tap_ok "output that is the input under another name: refused" ||
	tap_fail "output that is the input under another name is refused" "$(cat err)"

cp ref.data perf.data
"$spe" wrap nonexist.bin 2>err; rc=$?
if [ $rc -ne 0 ] && grep -q 'nonexist.bin: No such file' err && ! grep -q 'writing perf.data' err; then
	same_bytes "wrap of a missing input: perf.data untouched, the input named" perf.data ref.data
else
	tap_fail "wrap of a missing input names it and fails (exit $rc)" "$(cat err)"
fi

cp ref.data keep.data
"$spe" inject -o keep.data nonexist.data 2>err; rc=$?
[ $rc -ne 0 ] && cmp -s keep.data ref.data && tap_ok "inject of a missing input: the existing output untouched" ||
	tap_fail "inject of a missing input leaves the output alone (exit $rc)" "$(cat err)"

printf 'pc 0x400000 el=0 ns=1\nbogus line\n' >bad.vec
cp ref.data enc.bin
"$spe" encode -o enc.bin bad.vec 2>/dev/null
same_bytes "encode of a bad vector: the existing output untouched" enc.bin ref.data
ls -A | grep_q '^\.' && tap_fail "no temporary files left behind" "$(ls -A | grep '^\.')" ||
	tap_ok "no temporary files left behind"

rm -f out.data out.data.old
"$spe" inject -o out.data ref.data 2>/dev/null
cp out.data first.data
"$spe" inject --itrace=i1i -o out.data ref.data 2>/dev/null
if cmp -s out.data.old first.data && ! cmp -s out.data first.data; then
	tap_ok "an existing output is kept as OUT.old, as perf does"
else
	tap_fail "an existing output is kept as OUT.old"
fi
mode=$(stat -c %a out.data)
[ "$mode" = 600 ] && tap_ok "outputs are created 0600 as perf's" || tap_fail "output mode 0600 (got $mode)"
cp ref.data in.data.old
cp ref.data in.data
"$spe" inject -o in.data in.data.old 2>err; rc=$?
[ $rc -ne 0 ] && cmp -s in.data.old ref.data && tap_ok "refused when keeping OUT.old would replace the input" ||
	tap_fail "keeping OUT.old must not replace the input (exit $rc)" "$(cat err)"

# An output that is a FIFO (as /dev/null is a device) is written in place:
# a temporary renamed over it would leave a regular file where the pipe
# was (as root, over /dev/null or /dev/full for the whole machine).  A FIFO
# here, so a regression cannot harm the machine's devices.
for cmd in "inject -o outfifo ref.data" "html -o outfifo ref.data" "pprof -o outfifo ref.data"; do
	rm -f outfifo got
	mkfifo outfifo
	cat outfifo >got &
	reader=$!
	# shellcheck disable=SC2086 # a command and its arguments
	timeout 60 "$spe" $cmd 2>err; rc=$?
	wait "$reader"
	if [ $rc -eq 0 ] && [ -p outfifo ] && [ -s got ] && [ ! -e outfifo.old ] &&
	   ! ls -A | grep_q '^\.outfifo'; then
		tap_ok "${cmd%% *} -o FIFO: written through the FIFO ($(wc -c <got) bytes), which stays a FIFO"
	else
		tap_fail "${cmd%% *} -o FIFO (exit $rc)" "$(cat err)" "$(ls -l outfifo)"
	fi
done
rm -f outfifo got

rm -f ./-
if "$spe" inject -o - ref.data >pipe.data 2>err && [ ! -e ./- ] &&
   [ "$(head -c 16 pipe.data | od -An -tx8 | tr -s ' ')" = " 32454c4946524550 0000000000000010" ]; then
	tap_ok "inject -o - writes perf's pipe format to stdout (no file named -)"
else
	tap_fail "inject -o - writes perf's pipe format to stdout" "$(cat err)"
fi

## 4. A perf.data without SPE data says so.
if command -v perf >/dev/null &&
   perf record -q -o nospe.data -e cpu-clock -- true >/dev/null 2>&1; then
	for cmd in dump script report inject; do
		args=(); [ $cmd = inject ] && args=(-o nospe-out.data)
		"$spe" $cmd "${args[@]}" nospe.data >out 2>err; rc=$?
		if [ $rc -ne 0 ] && grep -q "no arm_spe AUX data in nospe.data" err && [ ! -s out ]; then
			tap_ok "$cmd of a perf.data without SPE: exit $rc, says so, nothing on stdout"
		else
			tap_fail "$cmd of a perf.data without SPE says so (exit $rc)" "$(head -3 err)"
		fi
	done
	[ ! -e nospe-out.data ] && tap_ok "inject writes no output without SPE data" ||
		tap_fail "inject writes no output without SPE data"
else
	tap_skip "perf.data without SPE" "host perf cannot record"
fi
"$spe" records ref.data >out 2>err; rc=$?
if [ $rc -ne 0 ] && grep -q 'perf.data' err && [ ! -s out ]; then
	tap_ok "records refuses a perf.data (it reads raw SPE bytes) and says which command reads it"
else
	tap_fail "records detects a perf.data (exit $rc)" "$(head -3 err)"
fi
# - is stdin for every command, raw or perf.data, and a FIFO works.
"$spe" dump m0.bin >raw.ref
"$spe" dump - <m0.bin >raw.out 2>err
same_bytes "dump - reads raw SPE bytes from stdin" raw.out raw.ref
"$spe" records m0.bin >rec.ref
"$spe" records - <m0.bin >rec.out 2>err
same_bytes "records - reads raw SPE bytes from stdin" rec.out rec.ref
"$spe" script ref.data >script.ref 2>/dev/null
"$spe" script - <ref.data >script.out 2>/dev/null
same_bytes "script - reads a perf.data from stdin" script.out script.ref
mkfifo fifo
(cat ref.data >fifo &)
timeout 30 "$spe" script fifo >fifo.out 2>err
same_bytes "script reads a perf.data from a FIFO" fifo.out script.ref
(cat ref.data >fifo &)
timeout 30 "$spe" report fifo >fifo.out 2>err
"$spe" report ref.data >report.ref 2>/dev/null
sed -i 1d fifo.out report.ref	# the title names the file
same_bytes "report reads a perf.data from a FIFO" fifo.out report.ref
# c2c and html read their input twice: a FIFO is refused at once, never
# opened (no writer here: an open would wait, and timeout says 124).
for cmd in "c2c fifo" "html -o fifo.html fifo"; do
	# shellcheck disable=SC2086 # a command and its arguments
	timeout 20 "$spe" $cmd >/dev/null 2>err; rc=$?
	if [ $rc -eq 2 ] && grep -q 'reads its input twice: give a file, not a FIFO' err &&
	   [ ! -e fifo.html ]; then
		tap_ok "${cmd%% *} refuses a FIFO: it reads its input twice"
	else
		tap_fail "${cmd%% *} refuses a FIFO (exit $rc)" "$(cat err)"
	fi
done
(cat ref.data >fifo &)
timeout 30 "$spe" inject -o fifo-inj.data fifo 2>err
[ -s fifo-inj.data ] && [ "$(perf script -i fifo-inj.data 2>/dev/null | wc -l)" -gt 1000 ] &&
	tap_ok "inject reads a perf.data from a FIFO" || tap_fail "inject reads a perf.data from a FIFO" "$(cat err)"
(cat m0.bin >fifo &)
timeout 30 "$spe" dump fifo >fifo.out 2>err
same_bytes "dump reads raw SPE bytes from a FIFO" fifo.out raw.ref
cat m0.bin | "$spe" wrap -o fromstdin.data --pid 100 --tid 100 --comm prog - 2>/dev/null
"$spe" wrap -o fromfile.data --pid 100 --tid 100 --comm prog m0.bin 2>/dev/null
"$spe" script fromstdin.data >stdin.out 2>/dev/null
"$spe" script fromfile.data >file.out 2>/dev/null
same_bytes "wrap - reads raw SPE bytes from a pipe" stdin.out file.out
cp ref.data perf.data
"$spe" script >default.out 2>/dev/null
same_bytes "script without a file reads perf.data, as perf" default.out script.ref

## 2. report's counts are perf's: data sources labelled as perf mem labels
##    them, and every rate's numerator and denominator, for a CPU with a
##    data-source table (Neoverse N1) and one without (Cortex-A53; QEMU's
##    CPU is another).
# perf 6.1 prints "L1 or L1 hit" (level bits, then level number): the last
# alternative is the label newer perf, and report, print.
perf_label() { perl -pe 's/^(Remote )?(?:.* or )?(\S.*?)\s*$/$1$2\n/'; }
report_rows() {	# report_rows FILE Loads|Stores -> "label count" lines
	awk -v sec="## $2: data source" '
		index($0, sec) == 1 { on = 1; next }
		/^##/ { on = 0 }
		on && $0 !~ /of them from a peer/ {
			n = $1; $1 = ""; $2 = ""; sub(/^ +/, ""); print $0 "\t" n }' "$1"
}
report_num() {	# report_num FILE Loads|Stores "L1D miss" -> "miss/access"
	awk -v sec="## $2: cache and TLB" -v key="$3" '
		index($0, sec) == 1 { on = 1; next }
		/^##/ { on = 0 }
		on && index($0, "  " key) == 1 { print $NF }' "$1" | tr -d '()'
}
perf_count() {	# perf_count FILE EVENT: samples of that perf 6.1 group
	perf script -i "$1" --itrace=fmtabM -F event 2>/dev/null | grep -c "^ *$2: *$"
}
if command -v perf >/dev/null; then
	for cpu in 0x413fd0c1:N1 0x410fd034:A53; do
		midr=${cpu%%:*} name=${cpu#*:}
		"$spe" wrap -o "rep-$name.data" --midr "$midr" m0.bin@0 m1.bin@1 2>/dev/null
		"$spe" report "rep-$name.data" >rep.out 2>/dev/null
		# Per operation: perf script's decoded data_src of the memory samples.
		for op in Loads:LOAD Stores:STORE; do
			report_rows rep.out "${op%:*}" | sort >ours.txt
			perf script -i "rep-$name.data" --itrace=M -F data_src 2>/dev/null |
				perl -ne "print \"\$1\\n\" if /\\|OP ${op#*:}\\|LVL (.*?)\\|SNP/" |
				perf_label | sort | uniq -c |
				awk '{ c = $1; $1 = ""; sub(/^ /, ""); print $0 "\t" c }' | sort >perf.txt
			if [ -s perf.txt ] && cmp -s ours.txt perf.txt; then
				tap_ok "$name: report's ${op%:*} data sources equal perf's ($(tr '\t\n' '= ' <perf.txt))"
			else
				tap_fail "$name: report's ${op%:*} data sources equal perf's" \
					"$(diff ours.txt perf.txt)"
			fi
		done
		# Hits and misses in all: perf report --mem-mode --sort=mem (which
		# merges entries of equal level bits, so only these totals compare).
		ours=$({ report_rows rep.out Loads; report_rows rep.out Stores; } |
			awk -F'\t' '$1 ~ / hit$/ { h += $2 } $1 ~ / miss$/ { m += $2 }
				END { print h + 0 " hit, " m + 0 " miss" }')
		theirs=$(perf report -i "rep-$name.data" --itrace=M --mem-mode --sort=mem -n --stdio \
			2>/dev/null | grep -E '^ +[0-9.]+%' |
			awk '$NF == "hit" { h += $2 } $NF == "miss" { m += $2 }
				END { print h + 0 " hit, " m + 0 " miss" }')
		[ "$ours" = "$theirs" ] && tap_ok "$name: report's hits and misses are perf report --mem-mode's ($ours)" ||
			tap_fail "$name: hits and misses equal perf report --mem-mode's" "report: $ours" "perf: $theirs"
		# Every rate: its numerator and denominator are perf's sample counts.
		bad=
		for r in "L1D miss:l1d-miss:l1d-access" "LLC miss:llc-miss:llc-access" \
			 "TLB walk:tlb-miss:tlb-access"; do
			IFS=: read -r key miss acc <<<"$r"
			l=$(report_num rep.out Loads "$key") s=$(report_num rep.out Stores "$key")
			got=$(( ${l%/*} + ${s%/*} ))/$(( ${l#*/} + ${s#*/} ))
			want=$(perf_count "rep-$name.data" "$miss")/$(perf_count "rep-$name.data" "$acc")
			[ "$got" = "$want" ] || bad="$bad $key: report $got, perf $want;"
		done
		rl=$(grep -oP 'remote +\S+% of loads \(\K[0-9]+' rep.out)
		rs=$(grep -oP 'remote +\S+% of stores \(\K[0-9]+' rep.out)
		[ $((rl + rs)) = "$(perf_count "rep-$name.data" remote-access)" ] ||
			bad="$bad remote: report $((rl + rs));"
		mis=$(grep -oP 'mispredicted +\S+% \(\K[0-9]+' rep.out)
		[ "$mis" = "$(perf_count "rep-$name.data" branch-miss)" ] || bad="$bad mispredicted: $mis;"
		tot=$(grep -oP '^# SPE records: \K[0-9]+' rep.out)
		[ "$tot" = "$(perf script -i "rep-$name.data" --itrace=i1i -F ip 2>/dev/null | wc -l)" ] ||
			bad="$bad records: $tot;"
		[ -z "$bad" ] && tap_ok "$name: report's miss, walk, remote, mispredict and record counts are perf's" ||
			tap_fail "$name: report's counts are perf's" "$bad"
	done
else
	tap_skip "report against perf mem" "perf not installed"
fi

## 3. Stock perf reads what inject writes, features included.
if ! command -v perf >/dev/null || [ ! -s nospe.data ]; then
	tap_skip "perf reads inject output" "host perf missing"
	tap_done
	exit
fi
"$spe" wrap -o topo.data --features-from nospe.data --pid 100 --tid 100 --comm prog \
	m0.bin@0 m1.bin@1 2>err || tap_fail "wrap --features-from" "$(cat err)"
"$spe" inject -o inj.data topo.data 2>/dev/null
perf report -i nospe.data --header-only -I >hdr.ref 2>/dev/null
perf report -i inj.data --header-only -I >hdr.out 2>/dev/null
for f in 'sibling sockets' 'node0 cpu list' 'memory nodes' 'CPU cache info' \
	 cmdline 'os release' 'total memory'; do
	want=$(grep "^# $f" hdr.ref)
	if [ -n "$want" ] && [ "$(grep "^# $f" hdr.out)" = "$want" ]; then
		tap_ok "inject copies the input's feature: $f"
	else
		tap_fail "inject copies the input's feature: $f" "$want"
	fi
done
# pick NAME CMD...: CMD succeeds with output and no error message
reads() {
	local name=$1
	shift
	if "$@" >out 2>err && [ -s out ] && ! grep -qiE 'fail|error|incompatible' err; then
		tap_ok "$name"
	else
		tap_fail "$name" "$(head -3 err)"
	fi
}
reads "perf report reads inject output" perf report -i inj.data --stdio
reads "perf script reads inject output" perf script -i inj.data
reads "perf mem report reads inject output" perf mem report -i inj.data --stdio
reads "perf c2c report reads inject output" perf c2c report -i inj.data --stdio
n_file=$(perf script -i inj.data 2>/dev/null | wc -l)
n_pipe=$("$spe" inject -o - topo.data 2>/dev/null | perf script -i - 2>/dev/null | wc -l)
[ "$n_file" -gt 1000 ] && [ "$n_file" = "$n_pipe" ] &&
	tap_ok "spe-decode inject -o - x | perf script -i -: the same $n_pipe samples" ||
	tap_fail "inject -o - | perf script -i - (file $n_file, pipe $n_pipe samples)"

## 5. wrap --features-from with more CPUs than the file's NRCPUS: NRCPUS
## is raised (said once) so perf script -C takes the data's CPUs, and the
## topology grows with it; the sample times are written (SAMPLE_TIME), so
## perf's --time=PERCENT selects that share of them.
avail=$(perf report -i nospe.data --header-only 2>/dev/null | sed -n 's/^# nrcpus avail : //p')
hi=$((avail + 1))
"$spe" wrap -o more.data --features-from nospe.data --pid 100 --tid 100 --comm prog \
	m0.bin@0 "m1.bin@$hi" 2>more.err
want=$(perf script -i more.data -F cpu 2>/dev/null | grep -c "^\[0*$hi\]")
got=$(perf script -i more.data -C "$hi" -F cpu 2>more.perr | grep -c "^\[0*$hi\]")
if [ "$want" -gt 0 ] && [ "$got" = "$want" ] && ! grep -q "too large" more.perr &&
   [ "$(grep -c "NRCPUS raised to $((hi + 1))" more.err)" = 1 ] && [ "$(wc -l <more.err)" = 1 ]; then
	tap_ok "wrap --features-from (NRCPUS $avail) with data on CPU $hi: NRCPUS raised, said once; perf script -C $hi gives its $got samples"
else
	tap_fail "wrap --features-from: NRCPUS covers CPU $hi" "wrap: $(cat more.err)" \
		"perf -C $hi: $got of $want samples; $(head -2 more.perr)"
fi
perf report -i more.data --header-only -I >more.hdr 2>&1
if grep -q "^# CPU $hi: Core ID -1" more.hdr && grep -q "^# CPU 0: Core ID 0" more.hdr &&
   ! grep -qiE "fail|error" more.hdr; then
	tap_ok "the topology has entries for the CPUs added (-1: not present), the file's own kept"
else
	tap_fail "the topology covers CPU $hi" "$(grep -E '^# CPU|fail|error' more.hdr | head -4)"
fi
for f in more.data ref.data; do
	perf script -i "$f" --ns -F time 2>/dev/null | tr -d ' :.' | sort -n >all.t
	perf script -i "$f" --ns -F time --time=10%/2 2>sel.err | tr -d ' :.' | sort -n >sel.t
	# The second tenth of [first, last] sample time (ns) as perf's
	# time-utils.c cuts it: both ends rounded, inclusive, the end less
	# one unless it is the last.  first and last are the samples' own,
	# so the window is right only if SAMPLE_TIME holds them.
	inwin=$(awk '{ t[NR] = $1 + 0 } END {
		n = NR; tot = t[n] - t[1]
		lo = t[1] + int(0.1 * tot + 0.5); hi = t[1] + int(0.1 * 2 * tot + 0.5)
		if (hi > lo && hi != t[n]) hi--
		for (i = 1; i <= n; i++) if (t[i] >= lo && t[i] <= hi) c++
		print c + 0 }' all.t)
	if [ -s sel.t ] && [ "$(wc -l <sel.t)" = "$inwin" ] && ! grep -q "no first/last sample" sel.err; then
		tap_ok "$f: perf script --time=10%/2 selects the second tenth of the samples' time ($inwin of $(wc -l <all.t))"
	else
		tap_fail "$f: perf script --time=10%/2" "$(wc -l <sel.t) selected, $inwin in the window" "$(head -2 sel.err)"
	fi
done
# Padding only: no record, no timestamp.
if "$spe" wrap -o nots.data <(head -c 4096 /dev/zero) 2>err &&
   perf report -i nots.data --header-only >nots.hdr 2>&1 && grep -q "^# nrcpus" nots.hdr &&
   ! grep -q "time of first sample" nots.hdr; then
	tap_ok "data without timestamps gets no SAMPLE_TIME section"
else
	tap_fail "data without timestamps gets no SAMPLE_TIME" "$(cat err)" "$(grep -i time nots.hdr)"
fi
tap_done
