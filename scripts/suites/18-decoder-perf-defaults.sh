#!/usr/bin/env bash
# spe-decode's command lines behave as perf's: the default input, -i, the
# default script columns (symbol+offset), -F data_src as perf prints it,
# -F +field/-field, --csv/--json with -F and RFC 4180 quoting, errors that
# name the command, numbers and conflicting options checked, a truncated
# file read up to its cut as perf report -D reads it, --version; and
# perf's filters (--pid, --tid, -C/--cpu, --comm, --dso, --time).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"
bld="$top/build/spe-decode"
spe="$bld/spe-decode"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

make -s -C "$top/tools/spe-decode" -j2 tests >build.log 2>&1 ||
	{ cat build.log; tap_fail "spe-decode builds"; tap_done; exit 1; }
have_perf=0
command -v perf >/dev/null && have_perf=1

# same NAME A B: A and B are byte-identical and not empty
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		tap_ok "$1 ($(wc -l <"$2") lines)"
	else
		tap_fail "$1" "$(diff "$2" "$3" | head -6)"
	fi
}

python3 "$gen" 1500 --seed 21 >m0.bin
python3 "$gen" 1500 --seed 22 --ts0 1000050 >m1.bin
"$spe" wrap -o n1.data --pid 100 --tid 100 --comm prog m0.bin@0 m1.bin@1 2>/dev/null
"$spe" wrap -o a53.data --midr 0x410fd034 --pid 100 --tid 100 --comm prog \
	m0.bin@0 m1.bin@1 2>/dev/null

## Command lines.
out=$("$spe" --version) && [[ $out =~ ^spe-decode\ [0-9]+\.[0-9]+\.[0-9]+$ ]] &&
	tap_ok "--version: $out" || tap_fail "--version prints 'spe-decode X.Y.Z'" "$out"
for cmd in dump records script report inject; do
	"$spe" $cmd --help | grep_q -E '(^| )-i( |,)|\[-i\]' && tap_ok "$cmd --help shows -i" ||
		tap_fail "$cmd --help shows -i"
done
"$spe" script -F >/dev/null 2>err; rc=$?
[ $rc = 2 ] && grep -q "^spe-decode script: option requires an argument -- 'F'" err &&
	tap_ok "a missing argument is named with the command" ||
	tap_fail "a missing argument is named with the command (exit $rc)" "$(head -1 err)"
"$spe" report --bogus >/dev/null 2>err; rc=$?
[ $rc = 2 ] && grep -q "^spe-decode report: unrecognized option '--bogus'" err &&
	tap_ok "an unknown option is named with the command" ||
	tap_fail "an unknown option is named with the command (exit $rc)" "$(head -1 err)"
for v in 10x '' -1 0x; do
	"$spe" report --top "$v" n1.data >out 2>err; rc=$?
	[ $rc = 2 ] && [ ! -s out ] && grep -q "spe-decode report: --top: '$v' is not a number" err &&
		tap_ok "report --top '$v' is refused" || tap_fail "report --top '$v' is refused (exit $rc)"
done
"$spe" script --json --csv n1.data >out 2>err; rc=$?
[ $rc = 2 ] && [ ! -s out ] && grep -q 'exclude each other' err &&
	tap_ok "--json with --csv is an error" || tap_fail "--json with --csv is an error (exit $rc)"
mkdir -p cwd && cp n1.data cwd/perf.data
(cd cwd && "$spe" report >../report.default 2>/dev/null)
"$spe" report -i n1.data >report.i 2>/dev/null
sed -i 1d report.default report.i	# the title names the file
same "report without a file reads perf.data; -i FILE the same" report.default report.i

## script as perf script.
if [ $have_perf = 1 ]; then
	# An ELF with symbols, mapped so that samples land in its functions.
	elf=$tmp/prog
	cp "$bld/tests/test_symbols" "$elf"
	pcs=$(nm "$elf" | python3 -c '
import sys
print(",".join("%x" % (int(l.split()[0], 16) + 0x10000000 + 4)
               for l in sys.stdin if len(l.split()) == 3 and l.split()[1] in "tT"))')
	python3 "$gen" 600 --seed 5 --no-context --pcs "$pcs" >sy.bin
	"$spe" wrap -o sy.data --per-thread --pid 77 --tid 77 --comm prog \
		--mmap "0x10000000:0x100000:0:$elf" sy.bin 2>/dev/null
	perf script -i sy.data >p.out 2>/dev/null
	"$spe" script --branch-miss sy.data >s.out
	grep -q '+0x4 (' s.out && tap_ok "default columns show symbol+offset" ||
		tap_fail "default columns show symbol+offset"
	same "default columns equal perf script's, symbol+offset included" p.out s.out
	for d in n1 a53; do
		for F in data_src data_src,ip ip,data_src,weight,sym,dso; do
			perf script -i $d.data -F "$F" --itrace=fmtabMi1i >p.out 2>/dev/null
			"$spe" script --branch-miss -F "$F" --itrace=fmtabMi1i $d.data >s.out
			same "$d: -F $F, data_src decoded and padded as perf prints it" p.out s.out
		done
	done
	for F in +addr -cpu,-time +phys_addr,-period; do
		perf script -i n1.data -F "$F" >p.out 2>/dev/null
		"$spe" script --branch-miss -F "$F" n1.data >s.out
		same "-F $F adds to / removes from the default columns as perf" p.out s.out
	done
else
	tap_skip "script against perf script" "perf not installed"
fi

# --csv/--json with -F, and RFC 4180 quoting of names with , and ".
python3 "$gen" 300 --seed 23 --no-context >q.bin
"$spe" wrap -o q.data --per-thread --pid 5 --tid 5 --comm 'a,"b' q.bin 2>/dev/null
"$spe" script --csv -F comm,ip,sym q.data >q.csv
"$spe" script --json -F comm,ip,sym q.data >q.json
if python3 - q.csv q.json <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["comm", "ip", "sym"], rows[0]
assert len(rows) > 100 and all(len(r) == 3 for r in rows)
assert all(r[0] == 'a,"b' for r in rows[1:]), rows[1]
js = [json.loads(l) for l in open(sys.argv[2])]
assert len(js) == len(rows) - 1
assert all(sorted(j) == ["comm", "ip", "sym"] and j["comm"] == 'a,"b' for j in js)
PY
then
	tap_ok "--csv and --json print the -F fields; CSV quotes a comm with , and \" (RFC 4180)"
else
	tap_fail "--csv/--json honour -F and quote as RFC 4180"
fi

# --json and --csv field by field against the perf layout of the same
# samples (suite 21 holds that layout to perf's), in the documented column
# order, with every field; names with a backslash and control characters
# escaped as JSON (RFC 8259 §7) and read back as they were.
all=event,time,cpu,pid,tid,comm,ip,cpumode,sym,symoff,dso,addr,phys_addr,data_src,weight,ins_lat,xlat_lat,period,flags,brstack
txt=pid,tid,cpu,time,period,event,addr,weight,ins_lat,xlat_lat,ip,cpumode,brstack
python3 "$gen" 1000 --seed 24 --no-context >e.bin
"$spe" wrap -o e.data --per-thread --pid 6 --tid 6 --comm $'a\\b\x01"c\x1f' e.bin 2>/dev/null
ok=1
# (--itrace=bl: branch samples with their brstack)
for run in "n1.data" "e.data" "n1.data --itrace=bl"; do
	# shellcheck disable=SC2086 # a file and its options, split on purpose
	set -- $run
	"$spe" script --ns -F "$all" --json "$@" >s.json &&
		"$spe" script --ns -F "$all" --csv "$@" >s.csv &&
		"$spe" script --ns -F "$txt" "$@" >s.txt || ok=0
	python3 - "$all" s.json s.csv s.txt "$run" <<'PY' || ok=0
import csv, json, sys
cols = sys.argv[1].split(",")
js = [json.loads(l, object_pairs_hook=lambda p: p) for l in open(sys.argv[2])]
rows = list(csv.reader(open(sys.argv[3], newline="")))
txt = [l.split() for l in open(sys.argv[4])]
assert rows[0] == cols, rows[0]
rows = rows[1:]
assert len(js) == len(rows) == len(txt) > 500, (len(js), len(rows), len(txt))
branches = 0
for pairs, r, t in zip(js, rows, txt):
    assert [k for k, _ in pairs] == cols, pairs
    j = dict(pairs)
    if j["cpu"] < 0:		# per-thread: no CPU, perf prints none
        t.insert(1, "[%03d]" % j["cpu"])
    # the perf layout: pid/tid [cpu] s.ns: period event: addr weight ins_lat
    # xlat_lat ip cpumode brstack...
    assert "%d/%d" % (j["pid"], j["tid"]) == t[0] and "[%03d]" % j["cpu"] == t[1]
    assert "%d.%09d:" % divmod(j["time"], 10**9) == t[2] and r[1] + ":" == t[2]
    assert j["period"] == int(t[3]) == int(r[17])
    assert j["event"] + ":" == t[4] and r[0] == j["event"]
    assert int(j["addr"], 16) == int(t[5], 16) and r[11] == j["addr"]
    assert [j["weight"], j["ins_lat"], j["xlat_lat"]] == [int(x) for x in t[6:9]]
    assert int(j["ip"], 16) == int(t[9], 16) and r[6] == j["ip"]
    assert j["cpumode"] == t[10] == r[7]
    assert [r[2], r[3], r[4], r[5]] == [str(j["cpu"]), str(j["pid"]), str(j["tid"]), j["comm"]]
    assert [r[8], r[9], r[10], r[12], r[13]] == \
        [j["sym"], j["symoff"], j["dso"], j["phys_addr"], j["data_src"]]
    assert int(r[18], 16) == j["flags"] and r[14:17] == t[6:9]
    br = ["%s/%s/%s" % (b["from"], b["to"], "M" if b["mispred"] else "P")
          for b in (dict(x) for x in j["brstack"])]
    assert br == t[11:] and r[19] == " ".join(br), (br, t[11:], r[19])
    branches += len(br)
assert branches > 0 or "--itrace=bl" not in sys.argv[5]
if sys.argv[5] == "e.data":
    assert {dict(p)["comm"] for p in js} == {'a\\b\x01"c\x1f'}
PY
done
if [ $ok = 1 ]; then
	tap_ok "--json and --csv: every field in order equals the perf layout's; names escaped"
else
	tap_fail "--json and --csv against the perf layout"
fi

## A truncated file: every complete packet before the cut, as perf report -D.
# (perf itself dies of SIGBUS on some cuts: its lines of the intact file.)
size=$(stat -c %s n1.data)
head -c $((size / 2)) n1.data >cut.data
"$spe" dump cut.data >s.out 2>err; rc=$?
spe_lines() { grep -E '^\.  [0-9a-f]{8}:'; }
spe_lines <s.out >s.lines
if [ $have_perf = 1 ]; then
	perf report -D -i n1.data 2>/dev/null | spe_lines >p.lines
	grep -v TRUNCATED s.lines >s.head	# a packet cut in two, if any
	n=$(wc -l <s.head)
	head -n "$n" p.lines >p.head
	if [ $rc = 1 ] && [ "$n" -gt 1000 ] && cmp -s p.head s.head &&
	   grep -q 'cut by the end of the file' err; then
		tap_ok "truncated file: dump prints perf report -D's $n packets before the cut, then says where"
	else
		tap_fail "truncated file: dump prints the packets before the cut (exit $rc, $n lines)" "$(head -2 err)"
	fi
else
	tap_skip "truncated file against perf" "perf not installed"
fi
"$spe" script cut.data >s.out 2>err; rc=$?
[ $rc = 1 ] && [ "$(wc -l <s.out)" -gt 1000 ] && tap_ok "truncated file: script prints the samples before the cut, exit 1" ||
	tap_fail "truncated file: script prints the samples before the cut (exit $rc)"
"$spe" report cut.data >s.out 2>err; rc=$?
# As script: the summary of what decoded before the cut, the cut on stderr.
[ $rc = 1 ] && grep -q '^# SPE records: [1-9]' s.out && grep -q 'cut by the end of the file' err &&
	tap_ok "truncated file: report prints the summary of the records before the cut, exit 1" ||
	tap_fail "truncated file: report prints the summary before the cut (exit $rc)" "$(head -3 s.out)"

## A directory-format perf.data (perf record --threads): DIR/data plus one
## DIR/data.N per CPU holding its AUXTRACE records.  (perf 6.1 itself does
## not decode SPE data split this way, so the single file is the reference.)
python3 "$top/tools/spe-decode/tests/perfdata/to_dir_format.py" n1.data dir.data
"$spe" script --branch-miss n1.data | sort >file.out
"$spe" script --branch-miss dir.data 2>err | sort >dir.out
same "script of the directory format: the samples of the single file" file.out dir.out
"$spe" report n1.data | sed 1d >file.out
"$spe" report dir.data | sed 1d >dir.out
same "report of the directory format: the single file's report" file.out dir.out
"$spe" inject -o dirinj.data dir.data 2>/dev/null
"$spe" inject -o fileinj.data n1.data 2>/dev/null
if [ $have_perf = 1 ]; then
	perf script -i fileinj.data -F event,ip,addr,data_src 2>/dev/null | sort >file.out
	perf script -i dirinj.data -F event,ip,addr,data_src 2>/dev/null | sort >dir.out
	same "inject of the directory format: perf script reads the single file's samples" file.out dir.out
fi
# perf's pipe format saved to a file carries CPUID as a record: the
# data-source table of the CPU is still used.
"$spe" wrap -o - m0.bin >pipe.data 2>/dev/null
"$spe" wrap -o file.data m0.bin 2>/dev/null
"$spe" script -F data_src --itrace=M pipe.data >dir.out
"$spe" script -F data_src --itrace=M file.data >file.out
same "pipe format: CPUID from its feature record picks the data-source table" file.out dir.out

## Kernel symbols without --kallsyms: the build-id cache perf record fills
## (by the kernel build id in the recording), else /proc/kallsyms when the
## recording is of this machine.
# --buildid-all: the kernel's build id is in the recording whether or not
# its few samples of `true` hit the kernel (a busy host decides that).
if [ $have_perf = 1 ] && perf record -q --buildid-all -o host.data -e cpu-clock -- true >/dev/null 2>&1 &&
   awk 'NR == 1 { exit !($1 != "0000000000000000") }' /proc/kallsyms; then
	# Kernel PCs 4 bytes into this kernel's functions.
	awk '$2 ~ /^[tT]$/ { print $1, $3 }' /proc/kallsyms | awk 'NR % 97 == 0' | head -40 >kfuncs
	kpcs=$(python3 -c 'import sys; print(",".join("%x" % (int(l.split()[0], 16) + 4) for l in open("kfuncs")))')
	python3 "$gen" 400 --seed 9 --no-context --kpcs "$kpcs" >k.bin
	# The kernel's map, as perf record writes it (without one perf, and
	# spe-decode, name no kernel ip): from _stext past the last function.
	kmap=$(awk '$3 == "_stext" { s = $1 } END { print s }' /proc/kallsyms)
	kmap=(--kernel-mmap "0x$kmap:$(printf '%#x' $((0x$(tail -1 kfuncs | cut -d' ' -f1) + 0x1000 - 0x$kmap))):0:[kernel.kallsyms]_text")
	"$spe" wrap -o k.data --features-from host.data --per-thread --pid 7 --tid 7 --comm p \
		"${kmap[@]}" k.bin 2>/dev/null
	# A cache of our own, with other names at the same addresses.
	id=$(perf buildid-list -i host.data 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
	mkdir -p "home/.debug/[kernel.kallsyms]/$id"
	awk '{ print $1, "T", "cached_" $2 }' kfuncs >"home/.debug/[kernel.kallsyms]/$id/kallsyms"
	# (user ips have no mappings here: [unknown]; kernel ips start ffff)
	HOME=$tmp/home "$spe" script -F ip,sym,symoff,dso k.data | grep '^ *ffff' >s.out
	n=$(grep -c ' cached_[^ ]*+0x4 (\[kernel.kallsyms\])$' s.out)
	[ -n "$id" ] && [ "$n" -gt 20 ] && [ "$n" = "$(wc -l <s.out)" ] &&
		tap_ok "kernel ips resolve through the build-id cache ($n samples)" ||
		tap_fail "kernel ips resolve through the build-id cache ($n samples)" "$(head -2 s.out)"
	HOME=$tmp/nohome "$spe" script -F ip,sym,symoff,dso k.data | grep '^ *ffff' >s.out
	n=$(grep -c '+0x4 (\[kernel.kallsyms\])$' s.out)
	[ "$n" -gt 20 ] && [ "$n" = "$(wc -l <s.out)" ] && ! grep -q 'cached_' s.out &&
		tap_ok "a recording of this machine: kernel ips resolve from /proc/kallsyms ($n samples)" ||
		tap_fail "kernel ips resolve from /proc/kallsyms" "$(head -2 s.out)"
	"$spe" wrap -o k2.data --per-thread --pid 7 --tid 7 --comm p "${kmap[@]}" k.bin 2>/dev/null
	HOME=$tmp/nohome "$spe" script -F ip,sym,dso k2.data >s.out
	grep -q '\[kernel' s.out && tap_fail "another machine's recording does not use /proc/kallsyms" ||
		tap_ok "another machine's recording does not use /proc/kallsyms"
else
	tap_skip "kernel symbols by default" "no host perf record or kallsyms addresses hidden"
fi

## Filters as perf has them.
"$spe" wrap -o two.data --pid 100 --tid 100 --comm prog m0.bin@0 m1.bin@1 2>/dev/null
if [ $have_perf = 1 ]; then
	for f in "-C 1" "--cpu 0-1" "--cpu=0" "--tid 101,105" "--pid 100" "--comm prog" \
		 "--time 0.00103,0.00106" "--time ,0.00104" "--time 0.00105,"; do
		# shellcheck disable=SC2086
		perf script -i two.data $f >p.out 2>/dev/null
		# shellcheck disable=SC2086
		"$spe" script --branch-miss $f two.data >s.out
		same "script $f selects perf script's samples" p.out s.out
	done
	perf script -i sy.data --dsos prog >p.out 2>/dev/null
	"$spe" script --branch-miss --dso prog sy.data >s.out
	same "script --dso selects perf script --dsos's samples" p.out s.out
	want=$(perf script -i two.data --itrace=i1i -C 1 --time 0.00103,0.00106 -F ip 2>/dev/null | wc -l)
	got=$("$spe" report -C 1 --time 0.00103,0.00106 two.data | grep -oP '^# SPE records: \K[0-9]+')
	[ "$want" -gt 0 ] && [ "$got" = "$want" ] && tap_ok "report -C --time counts perf's $want records" ||
		tap_fail "report -C --time counts perf's records (report $got, perf $want)"
fi
"$spe" script --branch-miss two.data | sort >all.out
"$spe" script --branch-miss --time 0%-100% two.data | sort >pct.out
"$spe" script --branch-miss --time 0%-50% two.data >lo.out
"$spe" script --branch-miss --time 50%/2 two.data >hi.out
sort -u lo.out hi.out >union.out
if cmp -s all.out pct.out && [ -s lo.out ] && [ -s hi.out ] && cmp -s <(sort -u all.out) union.out &&
   [ "$(wc -l <lo.out)" -lt "$(wc -l <all.out)" ]; then
	tap_ok "--time percentages: 0%-100% is all, 0%-50% and 50%/2 split it ($(wc -l <lo.out) + $(wc -l <hi.out))"
else
	tap_fail "--time percentages split the recording"
fi
for bad in "--time 1,0.5" "--time 10%/11" "--time x,1" "-C 2-1" "--pid abc"; do
	# shellcheck disable=SC2086
	"$spe" script $bad two.data >out 2>err; rc=$?
	[ $rc = 2 ] && [ ! -s out ] && grep -q '^spe-decode script: --' err &&
		tap_ok "script $bad is refused, naming the option" ||
		tap_fail "script $bad is refused (exit $rc)" "$(head -1 err)"
done
# The same filters on every command that reads samples; a bad value is a
# usage error naming the option.
for cmd in "report --sort sym" c2c "html -o x.html" "pprof -o x.pb.gz" "inject -o x.data"; do
	# shellcheck disable=SC2086
	$spe $cmd --cpu 1-x two.data >out 2>err; rc=$?
	[ $rc = 2 ] && [ ! -s out ] && [ ! -e x.html ] && [ ! -e x.pb.gz ] && [ ! -e x.data ] &&
		grep -q "^spe-decode ${cmd%% *}: --cpu=1-x: " err &&
		tap_ok "${cmd%% *} --cpu 1-x is refused, naming the option" ||
		tap_fail "${cmd%% *} --cpu 1-x is refused (exit $rc)" "$(head -1 err)"
done
# inject writes only the samples the filters keep: perf script of
# inject --cpu 1 is the CPU 1 lines of perf script of the whole inject.
"$spe" inject -o all.data two.data 2>/dev/null
"$spe" inject -C 1 -o c1.data two.data 2>/dev/null
"$spe" inject --dso prog -o dso.data sy.data 2>/dev/null
"$spe" inject --comm prog --time 0.00103, -o ct.data two.data 2>/dev/null
if [ $have_perf = 1 ]; then
	perf script -i all.data -F event,cpu,time,ip,addr 2>/dev/null | grep '\[001\]' >want
	perf script -i c1.data -F event,cpu,time,ip,addr 2>/dev/null >got
	if [ -s want ] && cmp -s want got && ! grep -qv '\[001\]' got; then
		tap_ok "inject --cpu 1: perf script reads only CPU 1's samples, all of them ($(wc -l <got))"
	else
		tap_fail "inject --cpu 1: perf script reads CPU 1's samples" "$(diff want got | head -4)"
	fi
	"$spe" inject -o syall.data sy.data 2>/dev/null
	perf script -i syall.data --dsos prog -F event,time,ip,dso 2>/dev/null >want
	perf script -i dso.data -F event,time,ip,dso 2>/dev/null >got
	[ -s want ] && cmp -s want got && [ "$(wc -l <got)" -lt "$(perf script -i syall.data 2>/dev/null | wc -l)" ] &&
		tap_ok "inject --dso prog: perf script --dsos prog's samples of the whole inject ($(wc -l <got))" ||
		tap_fail "inject --dso prog" "$(diff want got | head -4)"
	perf script -i all.data --comm prog --time 0.00103, -F event,cpu,time,ip 2>/dev/null >want
	perf script -i ct.data -F event,cpu,time,ip 2>/dev/null >got
	[ -s want ] && cmp -s want got &&
		tap_ok "inject --comm prog --time 0.00103,: perf script's choice of the whole inject ($(wc -l <got))" ||
		tap_fail "inject --comm --time" "$(diff want got | head -4)"
else
	tap_skip "inject with filters read back by perf script" "perf not installed"
fi
"$spe" dump -C 1 two.data >s.out 2>/dev/null
[ "$(grep -c 'PERF_RECORD_AUXTRACE ' s.out)" = 1 ] && grep -q 'cpu: 1$' s.out &&
	tap_ok "dump -C 1 dumps only CPU 1's AUX buffer" || tap_fail "dump -C 1 dumps only CPU 1's AUX buffer"
"$spe" dump --time 1,2 two.data >out 2>err; rc=$?
[ $rc = 2 ] && grep -q 'use them with script or report' err &&
	tap_ok "dump --time is refused: packets have no sample time" || tap_fail "dump --time is refused (exit $rc)"

tap_done
