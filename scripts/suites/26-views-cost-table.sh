#!/usr/bin/env bash
# report --sort: cost tables.  Rows, sample counts and source lines equal
# host perf's report with the same sort keys; latency sums, means and
# exact percentiles and the shares of L1D/LLC misses, TLB walks, remote
# accesses and mispredicts equal what perf script's samples add up to;
# saturated counters are shown as such; rows in perf report's order by
# default (overhead, perf's ties); --order and --percent-limit;
# code without symbols makes a row per 4 KiB page, or per address with
# --unresolved address (as perf); bad keys are errors; perf's filters
# keep the samples perf report keeps and a table restricted by hand has.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/views-fixture.sh
. "$top/scripts/lib/views-fixture.sh"
spe_views_setup tests
# A unit-test program: an ELF with symbols and DWARF (built with -g).
spe_views_elf
pcs=$(spe_views_pcs_all)
python3 "$gen" 4000 --seed 7 --no-context --pcs "$pcs" >"$tmp/sy.bin"
"$spe" wrap -o "$tmp/sy.data" --per-thread --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/sy.bin"

# The table's rows as "samples<TAB>key1<TAB>key2..." (keys are separated
# by two spaces in the text; the numeric columns come first).
rows() { awk -v nk="$1" 'f && /^ *[0-9]/ {
		line = $0; for (i = 0; i < 16; i++) sub(/^ *[^ ]+/, "", line);
		sub(/^  /, "", line); n = split(line, k, "  ");
		printf "%s", $1; for (i = 1; i <= n; i++) printf "\t%s", k[i]; print ""; }
	/^ *samples/ { f = 1 }'; }

# By address, as perf names code without symbols (the kernel's here).
"$spe" report --sort sym,srcline --unresolved address "$tmp/sy.data" >"$tmp/t.out"
if command -v perf >/dev/null; then
	perf report -i "$tmp/sy.data" --itrace=i1i --stdio -F sample,sym,srcline 2>/dev/null |
		grep -v '^#' | grep . |
		awk '{ printf "%s\t%s %s\t%s\n", $1, $2, $3, $4 }' | sort >"$tmp/p.rows"
	rows 2 <"$tmp/t.out" | sort >"$tmp/s.rows"
	# perf names an ip without a symbol "[k] 0x..." too; its addr2line
	# gives startup code in units without line ranges "crtstuff.c:0",
	# where libdw answers none ("??:0"): those rows are compared by count.
	grep -v ':0$' "$tmp/p.rows" >"$tmp/p1"; grep -v ':0$' "$tmp/s.rows" >"$tmp/s1"
	if [ -s "$tmp/p1" ] && cmp -s "$tmp/p1" "$tmp/s1" &&
	   [ "$(grep -c ':0$' "$tmp/p.rows")" = "$(grep -c ':0$' "$tmp/s.rows")" ]; then
		tap_ok "--sort sym,srcline: rows, samples and source lines equal perf report's ($(wc -l <"$tmp/p1") rows)"
	else
		tap_fail "--sort sym,srcline equals perf report" "$(diff "$tmp/p.rows" "$tmp/s.rows" | head -8)"
	fi
	grep -q 'symbols.c:[1-9]' "$tmp/s1" && tap_ok "source lines come from DWARF (symbols.c:N)" ||
		tap_fail "source lines come from DWARF"

	# The default order is perf report's: by overhead, ties as perf
	# breaks them (symbols by name before addresses, kernel addresses
	# first, cpus by number).  Rows as "samples key..." in printed order.
	for k in sym cpu,sym; do
		perf report -i "$tmp/sy.data" --itrace=i1i --stdio -F "sample,$k" 2>/dev/null |
			grep -v '^#' | grep . | awk '{ $1 = $1; print }' >"$tmp/po.rows"
		"$spe" report --sort "$k" --unresolved address "$tmp/sy.data" |
			awk 'f && /^ *[0-9]/ { line = $0; for (i = 0; i < 16; i++) sub(/^ *[^ ]+/, "", line)
				print $1, line } /^ *samples/ { f = 1 }' |
			awk '{ $1 = $1; print }' >"$tmp/so.rows"
		# perf prints cpu -1 as "-001"
		[ "$k" = cpu,sym ] && sed -i 's/^\([0-9]*\) -001 /\1 -1 /' "$tmp/po.rows"
		ties=$(awk '{ print $1 }' "$tmp/po.rows" | uniq -d | wc -l)
		if [ -s "$tmp/po.rows" ] && [ "$ties" -gt 0 ] && cmp -s "$tmp/po.rows" "$tmp/so.rows"; then
			tap_ok "--sort $k: default order is perf report's, ties included ($(wc -l <"$tmp/po.rows") rows, $ties tied counts)"
		else
			tap_fail "--sort $k: default order is perf report's" "$(diff "$tmp/po.rows" "$tmp/so.rows" | head -6)"
		fi
	done
	"$spe" report --sort sym --order latency "$tmp/sy.data" | awk '/^ *[0-9]/ { print $3 }' >"$tmp/lat"
	[ -s "$tmp/lat" ] && sort -n -r -c "$tmp/lat" 2>/dev/null && tap_ok "--order latency still orders by latency" ||
		tap_fail "--order latency orders by latency"

	# Latency and event shares per symbol from perf script's samples.
	perf script -i "$tmp/sy.data" --itrace=i1i -F ip,sym,weight 2>/dev/null >"$tmp/w.txt"
	perf script -i "$tmp/sy.data" -F event,ip,sym 2>/dev/null >"$tmp/e.txt"
	"$spe" report --sort sym --order samples "$tmp/sy.data" >"$tmp/sym.out"
	bad=$(python3 - "$tmp/w.txt" "$tmp/e.txt" "$tmp/sym.out" <<'PY'
import sys, collections
lat = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) >= 3 and f[2] != '[unknown]':
        lat[f[2]].append(int(f[0]))
ev = collections.defaultdict(collections.Counter)
tot = collections.Counter()
names = {'l1d-miss:': 'l1d', 'llc-miss:': 'llc', 'tlb-miss:': 'walk',
         'remote-access:': 'rem', 'branch-miss:': 'misp'}
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) >= 3 and f[0] in names:
        tot[names[f[0]]] += 1
        if f[2] != '[unknown]':
            ev[f[2]][names[f[0]]] += 1
def pct(v, p):
    v = sorted(v); k = max(1, int(p / 100.0 * len(v) + 0.999999))
    return v[k - 1]
bad = checked = 0
for l in open(sys.argv[3]):
    f = l.split()
    if len(f) < 18 or not f[0].isdigit() or f[16] != '[.]':
        continue
    name = f[17]
    v = lat[name]
    want = [str(len(v)), str(sum(v)), '%.1f' % (sum(v) / len(v)), str(pct(v, 50)),
            str(pct(v, 90)), str(pct(v, 99))]
    got = [f[0], f[2], f[4], f[5], f[6], f[7]]
    for i, k in enumerate(['l1d', 'llc', 'walk', 'rem', 'misp']):
        want.append('%.1f%%' % (100.0 * ev[name][k] / tot[k] if tot[k] else 0))
        got.append(f[11 + i])
    checked += 1
    if want != got:
        bad += 1
        print(name, want, got, file=sys.stderr)
print(bad if checked > 10 else 'too few rows (%d)' % checked)
PY
)
	[ "$bad" = 0 ] && tap_ok "per symbol: samples, latency sum/mean/p50/p90/p99 and miss/walk/remote/mispredict shares equal perf script's samples" ||
		tap_fail "per-symbol columns equal perf script's samples" "$bad"
else
	tap_skip "--sort sym,srcline equals perf report" "perf not installed"
fi

# perf's filters (--cpu, --pid, --tid, --comm, --dsos, --time) choose the
# samples the table counts.  Two CPUs; thread 100 is "prog" (pid 100) with
# the program mapped, threads 101 and 102 are of no known process.
python3 "$gen" 3000 --seed 17 --pcs "$pcs" >"$tmp/f0.bin"
python3 "$gen" 3000 --seed 18 --ts0 1000050 --pcs "$pcs" >"$tmp/f1.bin"
"$spe" wrap -o "$tmp/f.data" --pid 100 --tid 100 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/f0.bin@0" "$tmp/f1.bin@1"
# table OPTS...: "samples<TAB>keys" of report --sort OPTS, sorted.
table() { "$spe" report --unresolved address "$@" "$tmp/f.data" | rows 3 | sort; }
# By hand: the rows of --sort K,sym whose K is V are the rows of --sort sym
# with the filter that keeps K = V.
for kv in "cpu 1 --cpu 1" "pid 100:prog --pid 100" "comm prog --comm prog" \
	  "comm :101 --comms :101" "dso $elf --dsos prog" "dso $elf --dso $elf"; do
	read -r k v f fv <<<"$kv"
	table --sort "$k,sym" | awk -F'\t' -v v="$v" '$2 == v { print $1 "\t" $3 }' | sort >"$tmp/want"
	table --sort sym "$f" "$fv" >"$tmp/got"
	n=$(awk -F'\t' '{ s += $1 } END { print s + 0 }' "$tmp/got")
	all=$("$spe" report --sort sym "$tmp/f.data" | awk '/^# SPE records:/ { print $4 }')
	rec=$("$spe" report --sort sym "$f" "$fv" "$tmp/f.data" | awk '/^# SPE records:/ { print $4 }')
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" && [ "$rec" = "$n" ] && [ "$n" -lt "$all" ]; then
		tap_ok "--sort sym $f $fv: the $k=$v rows of --sort $k,sym ($n of $all records)"
	else
		tap_fail "--sort sym $f $fv equals the $k=$v rows of --sort $k,sym" \
			"records $rec, rows add up to $n of $all" "$(diff "$tmp/want" "$tmp/got" | head -4)"
	fi
done
# By hand for --tid and --time: script's samples (every record once) of
# those threads or that time, counted per symbol (per address without one).
"$spe" script --itrace=i1i --ns -F tid,time,ip,sym "$tmp/f.data" >"$tmp/f.samples"
for f in "--tid 101,102" "--tid 100" "--time 0.00102,0.001025" "--time ,0.00102" "--time 0.001025,"; do
	# shellcheck disable=SC2086
	table --sort sym $f | awk -F'\t' '{ print $1 "\t" $2 }' >"$tmp/got"
	# shellcheck disable=SC2086
	python3 - "$tmp/f.samples" $f >"$tmp/want" <<'PY'
import collections, sys
opt, arg = sys.argv[2], sys.argv[3]
n = collections.Counter()
for l in open(sys.argv[1]):
    tid, time, ip, sym = l.split(None, 3)
    sym, ip = sym.strip(), int(ip, 16)
    t = int(time.rstrip(':').replace('.', ''))
    if opt == '--tid':
        keep = tid in arg.split(',')
    else:
        a, b = arg.split(',')
        keep = (not a or t >= round(float(a) * 1e9)) and (not b or t <= round(float(b) * 1e9))
    if keep:
        if sym == '[unknown]':
            sym = '0x%016x' % ip
        n[('[k] ' if ip >> 63 else '[.] ') + sym] += 1
for key, c in n.items():
    print('%d\t%s' % (c, key))
PY
	sort -o "$tmp/want" "$tmp/want"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
		tap_ok "--sort sym $f: script's samples of $([ "${f%% *}" = --tid ] && echo those threads || echo that time), per symbol ($(wc -l <"$tmp/got") rows)"
	else
		tap_fail "--sort sym $f equals script's samples per symbol" "$(diff "$tmp/want" "$tmp/got" | head -4)"
	fi
done
# perf's percentages of the recording's time: 0%-100% is the whole
# table; 10%/2 counts what script selects with it (its own first pass).
table --sort sym >"$tmp/all.rows"
table --sort sym --time 0%-100% >"$tmp/pct.rows"
n=$(table --sort sym --time 10%/2 | awk -F'\t' '{ s += $1 } END { print s + 0 }')
want=$("$spe" script --itrace=i1i -F ip --time 10%/2 "$tmp/f.data" | wc -l)
if [ -s "$tmp/all.rows" ] && cmp -s "$tmp/all.rows" "$tmp/pct.rows" && [ "$n" -gt 0 ] &&
   [ "$n" = "$want" ] && [ "$n" -lt 6000 ]; then
	tap_ok "--time 0%-100% is the whole table; --time 10%/2 counts script's $want samples"
else
	tap_fail "--time percentages" "10%/2: $n rows' samples, script $want"
fi
if command -v perf >/dev/null; then
	for f in "--cpu 1" "--cpu 0-1" "--pid 100" "--tid 101,102" "--comm prog" "--comms :101" \
		 "--dsos prog" "--dsos $elf" "--time 0.00102,0.001025" "--time 0.001025," "--time 10%/2" \
		 "--cpu 0 --comm prog"; do
		# shellcheck disable=SC2086
		perf report -i "$tmp/f.data" --itrace=i1i --stdio -F sample,sym $f 2>/dev/null |
			grep -v '^#' | grep . | awk '{ $1 = $1; print }' | sort >"$tmp/p.rows"
		# shellcheck disable=SC2086
		"$spe" report --sort sym --unresolved address $f "$tmp/f.data" |
			awk 'f && /^ *[0-9]/ { line = $0; for (i = 0; i < 16; i++) sub(/^ *[^ ]+/, "", line)
				print $1, line } /^ *samples/ { f = 1 }' | awk '{ $1 = $1; print }' | sort >"$tmp/s.rows"
		# perf report filters a row by the thread of the sample that
		# made it (the first in time, hist_entry's thread): the row is
		# shown or hidden whole, with the samples of other threads in
		# it.  The table counts sample by sample (as perf script
		# selects); where the two differ, perf's rows must be what
		# that rule makes of the unfiltered samples.
		differ=
		if [ "${f%% *}" = --tid ] || [ "${f%% *}" = --comms ]; then
			python3 - "$tmp/f.samples" "${f#* }" "${f%% *}" >"$tmp/s.perf" <<'PY'
import collections, sys
want, opt = sys.argv[2].split(','), sys.argv[3]
first, n = {}, collections.Counter()
for l in open(sys.argv[1]):
    tid, time, ip, sym = l.split(None, 3)
    sym, ip = sym.strip(), int(ip, 16)
    key = ('[k] ' if ip >> 63 else '[.] ') + ('0x%016x' % ip if sym == '[unknown]' else sym)
    who = tid if opt == '--tid' else ('prog' if tid == '100' else ':' + tid)
    first.setdefault(key, who)
    n[key] += 1
for key, c in n.items():
    if first[key] in want:
        print(c, key)
PY
			sort -o "$tmp/s.perf" "$tmp/s.perf"
			differ=$(diff "$tmp/s.perf" "$tmp/s.rows" | grep -c '^[<>]')
			mv "$tmp/s.perf" "$tmp/s.rows"
		fi
		if [ -s "$tmp/p.rows" ] && cmp -s "$tmp/p.rows" "$tmp/s.rows"; then
			tap_ok "--sort sym $f: rows and samples equal perf report's ($(wc -l <"$tmp/p.rows") rows${differ:+; $differ rows differ from the table, as the rule of a first sample makes them})"
		else
			tap_fail "--sort sym $f equals perf report $f" "$(diff "$tmp/p.rows" "$tmp/s.rows" | head -6)"
		fi
	done
else
	tap_skip "filters equal perf report's" "perf not installed"
fi
for bad in "--cpu 1-0" "--pid x" "--time 2,1" "--time 5%/30" "--comm ,"; do
	# shellcheck disable=SC2086
	"$spe" report --sort sym $bad "$tmp/f.data" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/out" ] && grep -q "^spe-decode report: ${bad%% *}=" "$tmp/err" &&
		tap_ok "--sort sym $bad: a usage error naming the option" ||
		tap_fail "--sort sym $bad is refused (exit $rc)" "$(head -1 "$tmp/err")"
done

# Every key is accepted, and the rows of each add up to all records.
total=$(awk '/^# SPE records:/ {print $4}' "$tmp/t.out")
for k in sym dso srcline symbol_daddr data_src op cpu pid comm; do
	sum=$("$spe" report --sort "$k" "$tmp/sy.data" | rows 1 | awk -F'\t' '{s += $1} END {print s}')
	if [ -n "$total" ] && [ "$sum" = "$total" ]; then tap_ok "--sort $k: rows add up to the $total records"
	else tap_fail "--sort $k: rows add up to the records" "$sum != $total"; fi
done
"$spe" report --sort op,data_src "$tmp/sy.data" | grep_q 'load  L1 hit$' &&
	tap_ok "--sort op,data_src: loads by level (L1 hit)" || tap_fail "--sort op,data_src"

# Code without symbols: by default a row per 4 KiB page (of the file it
# is mapped from, else of the address), each the sum of its addresses'
# rows; with --unresolved address a row per address recorded.
spe_views_unresolved
"$spe" report --sort sym --kallsyms /dev/null "$tmp/un.data" | rows 1 >"$tmp/un.page"
"$spe" report --sort sym --kallsyms /dev/null --unresolved address "$tmp/un.data" |
	rows 1 >"$tmp/un.addr"
bad=$(python3 - "$tmp/un.ips" "$tmp/un.page" "$tmp/un.addr" "$tmp/blob" <<'PY'
import sys, collections
ips = [int(l, 16) for l in open(sys.argv[1]) if l.strip()]
blob = sys.argv[4]
def page_name(ip):
    if ip >= 1 << 63:
        return '[k] unknown-page@0x%x' % (ip & ~0xfff)
    return '[.] unknown-page@%s+0x%x' % (blob, (ip - 0x10000000) & ~0xfff)
def table(path):
    rows = {}
    for l in open(path):
        n, key = l.rstrip('\n').split('\t')
        rows[key] = int(n)
    return rows
page, addr = table(sys.argv[2]), table(sys.argv[3])
want = collections.Counter()
for key, n in addr.items():
    want[page_name(int(key.split(' ')[1], 16))] += n
errs = []
if sorted(int(k.split(' ')[1], 16) for k in addr) != sorted(ips):
    errs.append('%d address rows for %d addresses' % (len(addr), len(ips)))
if set(page) != {page_name(ip) for ip in ips}:
    errs.append('page rows: %s' % sorted(page)[:4])
elif page != dict(want):
    errs.append('a page row is not the sum of its addresses')
print('; '.join(errs) if errs else '%d %d' % (len(page), len(addr)))
PY
)
read -r npage naddr <<<"$bad"
if [ "$npage" = 10 ] && [ "$naddr" -gt 2000 ]; then
	tap_ok "code without symbols: a row per 4 KiB page by default ($npage), each the sum of its $naddr addresses' rows by --unresolved address"
else
	tap_fail "--sort sym of code without symbols: rows by page and by address" "$bad"
fi
"$spe" report --sort symbol_daddr --kallsyms /dev/null "$tmp/un.data" | rows 1 >"$tmp/un.d"
"$spe" report --sort symbol_daddr --kallsyms /dev/null --unresolved address "$tmp/un.data" |
	rows 1 >"$tmp/un.da"
if [ "$(wc -l <"$tmp/un.d")" -lt "$(wc -l <"$tmp/un.da")" ] &&
   ! grep -v -e '	\[\.\] unknown-page@0x[0-9a-f]*000$' -e '	\[\.\] \[unknown\]$' "$tmp/un.d" | grep -q . &&
   [ "$(awk -F'\t' '{s += $1} END {print s}' "$tmp/un.d")" = 20000 ]; then
	tap_ok "--sort symbol_daddr: data addresses without a symbol by page ($(wc -l <"$tmp/un.d") rows, $(wc -l <"$tmp/un.da") by address)"
else
	tap_fail "--sort symbol_daddr by page" "$(head -3 "$tmp/un.d")"
fi

# --order: descending by the column; --percent-limit drops small rows.
"$spe" report --sort sym --order p99 "$tmp/sy.data" | awk '/^ *[0-9]/ {print $8}' >"$tmp/p99"
if [ -s "$tmp/p99" ] && sort -n -r -c "$tmp/p99" 2>/dev/null; then tap_ok "--order p99 sorts by p99"
else tap_fail "--order p99 sorts by p99"; fi
# The limit is the fifth largest share, so that it cuts whatever the
# number of functions in the test program.
"$spe" report --sort sym --order l1d-miss "$tmp/sy.data" | awk '/^ *[0-9]/' >"$tmp/all.out"
nall=$(wc -l <"$tmp/all.out")
lim=$(awk '{ v = $12; sub(/%/, "", v); print v }' "$tmp/all.out" | sed -n 5p)
"$spe" report --sort sym --order l1d-miss --percent-limit "${lim:-0}" "$tmp/sy.data" >"$tmp/pl.out"
npl=$(awk '/^ *[0-9]/' "$tmp/pl.out" | wc -l)
small=$(awk -v l="${lim:-0}" '/^ *[0-9]/ { v = $12; sub(/%/, "", v); if (v + 0 < l + 0) print }' "$tmp/pl.out" | wc -l)
if [ "$npl" -gt 0 ] && [ "$npl" -lt "$nall" ] && [ "$small" -eq 0 ]; then
	tap_ok "--percent-limit $lim --order l1d-miss keeps only rows with >= $lim% of the L1D misses ($npl of $nall)"
else
	tap_fail "--percent-limit" "$npl of $nall rows, $small under the limit"
fi

# Saturated counters: 90 loads of 100 cycles, 10 at 4095 (12-bit).
python3 "$top/tools/spe-decode/tests/views/gen_sat.py" 90 10 >"$tmp/sat.bin"
"$spe" wrap -o "$tmp/sat.data" "$tmp/sat.bin"
"$spe" report --sort op "$tmp/sat.data" >"$tmp/sat.out"
read -r s lat mean p50 p90 p99 sat < <(awk '/^ *[0-9]/ {print $1, $3, $5, $6, $7, $8, $11}' "$tmp/sat.out")
if [ "$s" = 100 ] && [ "$lat" = 9000 ] && [ "$mean" = 100.0 ] && [ "$p50" = 100 ] &&
   [ "$p90" = 100 ] && [ "$p99" = sat ] && [ "$sat" = 10 ]; then
	tap_ok "12-bit saturated latencies (4095): counted as 'sat', out of the sum and mean, p99 'sat'"
else
	tap_fail "saturated latencies" "$(cat "$tmp/sat.out")"
fi
python3 "$top/tools/spe-decode/tests/views/gen_sat.py" 90 10 --sat 65535 >"$tmp/sat16.bin"
"$spe" wrap -o "$tmp/sat16.data" "$tmp/sat16.bin"
read -r lat sat < <("$spe" report --sort op "$tmp/sat16.data" | awk '/^ *[0-9]/ {print $3, $11}')
[ "$lat" = 9000 ] && [ "$sat" = 10 ] && tap_ok "16-bit counters: 65535 is the saturated value" ||
	tap_fail "16-bit saturation" "latency $lat sat $sat"

# -v: how the work was split between threads.  Two queues, -j 2: two
# spans, whose threads' records add up to the file's; the table is the
# one a single session gives, and -j 1 says it is one session.
python3 "$gen" 3000 --seed 11 >"$tmp/v0.bin"
python3 "$gen" 2000 --seed 12 >"$tmp/v1.bin"
"$spe" wrap -o "$tmp/v.data" "$tmp/v0.bin@0" "$tmp/v1.bin@1"
"$spe" report --sort sym,op -v -j 2 "$tmp/v.data" >"$tmp/v2.out" 2>"$tmp/v2.err"
"$spe" report --sort sym,op -j 1 "$tmp/v.data" >"$tmp/v1.out" 2>/dev/null
total=$("$spe" report "$tmp/v.data" | awk '/^# SPE records:/ {print $4}')
read -r spans recs threads < <(awk '/: thread [0-9]+: / {s += $5; r += $7; t++} END {print s + 0, r + 0, t + 0}' "$tmp/v2.err")
if grep -qx 'spe-decode report: 2 spans on 2 threads' "$tmp/v2.err" && [ "$threads" = 2 ] &&
   [ "$spans" = 2 ] && [ "$recs" = "$total" ] && [ "$total" = 5000 ] &&
   cmp -s "$tmp/v1.out" "$tmp/v2.out"; then
	tap_ok "-v -j 2: 2 spans on 2 threads, each thread's spans and records, adding up to the file's $total; the table is -j 1's"
else
	tap_fail "-v says the split between threads" "total $total, spans $spans, records $recs: $(cat "$tmp/v2.err")"
fi
"$spe" report --sort sym -v -j 1 "$tmp/v.data" 2>&1 >/dev/null | grep -qx 'spe-decode report: one session, 1 decoding thread' &&
	tap_ok "-v -j 1: one session" || tap_fail "-v -j 1 says one session"

# Usage errors name the problem.
"$spe" report --sort sym --unresolved pages "$tmp/sy.data" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown --unresolved 'pages' (page, address)" "$tmp/err" &&
	tap_ok "--unresolved takes page or address, anything else is a usage error naming it" ||
	tap_fail "bad --unresolved" "$(cat "$tmp/err")"
"$spe" report --sort sym,bogus "$tmp/sy.data" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "bogus" "$tmp/err" && tap_ok "an unknown sort key is a usage error naming it" ||
	tap_fail "unknown sort key" "$(cat "$tmp/err")"
"$spe" report --sort sym --order nope "$tmp/sy.data" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "nope" "$tmp/err" && tap_ok "an unknown --order column is a usage error naming it" ||
	tap_fail "unknown --order column" "$(cat "$tmp/err")"
tap_done
