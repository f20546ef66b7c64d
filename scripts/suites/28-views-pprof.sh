#!/usr/bin/env bash
# spe-decode pprof: the profile go tool pprof reads has, per function and
# sample type (samples, latency, l1d-miss, llc-miss, tlb-walk, mispredict),
# the numbers report --sort sym shows; source lines; the op label; code
# without symbols as a function per 4 KiB page, or per address with
# --unresolved address; the output is written safely (never over the
# input, nothing left on failure).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/views-fixture.sh
. "$top/scripts/lib/views-fixture.sh"
spe_views_setup tests
spe_views_elf
pcs=$(spe_views_pcs_all)
python3 "$gen" 4000 --seed 9 --no-context --pcs "$pcs" >"$tmp/sy.bin"
"$spe" wrap -o "$tmp/sy.data" --per-thread --pid 77 --tid 77 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/sy.bin"

if "$spe" pprof -o "$tmp/p.pb.gz" "$tmp/sy.data" 2>"$tmp/err" && [ -s "$tmp/p.pb.gz" ] &&
   gzip -t "$tmp/p.pb.gz"; then
	tap_ok "pprof -o writes a gzip-compressed profile"
else
	tap_fail "pprof -o writes a profile" "$(cat "$tmp/err")"
fi

if ! command -v go >/dev/null; then
	tap_skip "go tool pprof reads it" "go (golang-go) not installed"
	tap_done
	exit
fi
export GOCACHE="$tmp/gocache" HOME="$tmp"
# perf's filters choose the samples: pprof --cpu 1 of two CPUs is pprof of
# a recording of CPU 1 alone, for every sample type (rows and totals).
python3 "$gen" 2000 --seed 5 --pcs "$pcs" >"$tmp/c0.bin"
python3 "$gen" 2000 --seed 6 --ts0 1000033 --pcs "$pcs" >"$tmp/c1.bin"
"$spe" wrap -o "$tmp/c01.data" --pid 100 --tid 100 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/c0.bin@0" "$tmp/c1.bin@1"
"$spe" wrap -o "$tmp/c1.data" --pid 100 --tid 100 --comm prog \
	--mmap "0x10000000:0x100000:0:$elf" "$tmp/c1.bin@1"
# prows FILE INDEX: the rows of pprof -top and its total.
prows() {
	go tool pprof -top -nodefraction=0 -nodecount=100000 -sample_index="$2" "$1" 2>/dev/null |
		awk '/Total samples =/ {sub(/.*Total samples =/, ""); print "total", $0} /^ *[0-9]/' | sort
}
"$spe" pprof -o "$tmp/c1.pb.gz" "$tmp/c1.data" && "$spe" pprof -C 1 -o "$tmp/f1.pb.gz" "$tmp/c01.data" &&
	"$spe" pprof -o "$tmp/all.pb.gz" "$tmp/c01.data" || tap_fail "pprof --cpu runs"
bad=
for si in samples latency l1d-miss mispredict; do
	prows "$tmp/c1.pb.gz" "$si" >"$tmp/w.$si"
	prows "$tmp/f1.pb.gz" "$si" >"$tmp/g.$si"
	if [ "$(wc -l <"$tmp/w.$si")" -lt 3 ] || ! cmp -s "$tmp/w.$si" "$tmp/g.$si" ||
	   cmp -s "$tmp/g.$si" <(prows "$tmp/all.pb.gz" "$si"); then
		bad="$bad $si: $(diff "$tmp/w.$si" "$tmp/g.$si" | head -3)"
	fi
done
[ -z "$bad" ] && tap_ok "pprof -C 1 equals pprof of a recording of CPU 1 alone ($(wc -l <"$tmp/w.samples") rows of samples; latency, l1d-miss, mispredict too)" ||
	tap_fail "pprof -C 1 equals pprof of CPU 1 alone" "$bad"
"$spe" pprof --time 1,x -o "$tmp/x.pb.gz" "$tmp/c01.data" 2>"$tmp/err"
[ $? = 2 ] && [ ! -e "$tmp/x.pb.gz" ] && grep -q '^spe-decode pprof: --time=1,x: ' "$tmp/err" &&
	tap_ok "pprof --time 1,x: a usage error naming the option, no output" ||
	tap_fail "pprof --time 1,x is refused" "$(cat "$tmp/err")"
"$spe" report --sort sym "$tmp/sy.data" >"$tmp/rep.out"
# pprof -top rows "flat name" and the total, per sample type.
ptop() {
	go tool pprof -top -nodefraction=0 -nodecount=100000 -sample_index="$1" "$tmp/p.pb.gz" 2>/dev/null |
		awk '/Total samples =|accounting for/ {next} /^ *[0-9]/ {v = $1; gsub(/[a-z]+$/, "", v); print v, $6}'
}
for si in samples latency l1d-miss llc-miss tlb-walk mispredict; do
	ptop "$si" >"$tmp/pp.$si"
done
bad=$(python3 - "$tmp" "$tmp/rep.out" <<'PY'
import sys
d, rep = sys.argv[1], sys.argv[2]
cols = {'samples': 0, 'latency': 2, 'l1d-miss': 11, 'llc-miss': 12, 'tlb-walk': 13,
        'mispredict': 15}
rows = {}
for l in open(rep):
    f = l.split()
    if len(f) >= 18 and f[0].isdigit() and f[16] == '[.]':
        rows[f[17]] = f
bad = checked = 0
for si, c in cols.items():
    pp = {}
    for l in open('%s/pp.%s' % (d, si)):
        v, name = l.split()
        pp[name] = float(v)
    total = sum(pp.values())
    for name, f in rows.items():
        v = pp.get(name, 0)
        if si in ('samples', 'latency'):
            ok = int(v) == int(f[c])
        else:
            ok = ('%.1f%%' % (100.0 * v / total if total else 0)) == f[c]
        checked += 1
        if not ok:
            bad += 1
            print(si, name, v, f[c], file=sys.stderr)
print(bad if checked > 60 else 'only %d values' % checked)
PY
)
[ "$bad" = 0 ] && tap_ok "go tool pprof -top per function equals report --sort sym for all six sample types" ||
	tap_fail "pprof -top equals report --sort sym" "$bad"

go tool pprof -top -lines -nodefraction=0 -sample_index=samples "$tmp/p.pb.gz" 2>/dev/null |
	awk '/^ *[0-9]/ && NF == 7 {print $1, $6, $7}' | sort >"$tmp/pl"
"$spe" report --sort sym,srcline "$tmp/sy.data" |
	awk '/^ *[0-9]/ && $17 == "[.]" && $NF !~ /^\?\?/ {print $1, $18, $19}' | sort >"$tmp/sl"
if [ -s "$tmp/pl" ] && cmp -s "$tmp/pl" "$tmp/sl"; then
	tap_ok "-lines: samples per function and source line equal report --sort sym,srcline ($(wc -l <"$tmp/pl") lines)"
else
	tap_fail "-lines equals report --sort sym,srcline" "$(diff "$tmp/pl" "$tmp/sl" | head -6)"
fi

loads=$(go tool pprof -top -nodefraction=0 -sample_index=samples -tagfocus=op=load "$tmp/p.pb.gz" 2>/dev/null |
	awk '/accounting for/ {print $5; exit}' | tr -d ,)
want=$("$spe" report "$tmp/sy.data" | sed -n 's/.*(load \([0-9]*\),.*/\1/p')
[ -n "$want" ] && [ "$loads" = "$want" ] && tap_ok "-tagfocus=op=load: the $want loads of report" ||
	tap_fail "-tagfocus=op=load" "pprof $loads, report $want"

# Code without symbols: the functions are report --sort sym's pages,
# with their samples; by address, one per address recorded.
spe_views_unresolved
"$spe" pprof --kallsyms /dev/null -o "$tmp/un.pb.gz" "$tmp/un.data" &&
	"$spe" pprof --kallsyms /dev/null --unresolved address -o "$tmp/una.pb.gz" "$tmp/un.data" ||
	tap_fail "pprof of code without symbols"
go tool pprof -top -nodefraction=0 -nodecount=100000 -sample_index=samples "$tmp/un.pb.gz" 2>/dev/null |
	awk '/^ *[0-9]/ && NF == 6 {print $6, $1}' | sort >"$tmp/un.pp"
"$spe" report --sort sym --kallsyms /dev/null "$tmp/un.data" |
	awk '/^ *[0-9]/ && NF == 18 {print $18, $1}' | sort >"$tmp/un.rep"
go tool pprof -top -nodefraction=0 -nodecount=100000 -sample_index=samples "$tmp/una.pb.gz" 2>/dev/null |
	awk '/^ *[0-9]/ && NF == 6 {sub(/^0x/, "", $6); print $6}' | sort >"$tmp/una.pp"
if [ "$(wc -l <"$tmp/un.pp")" = 10 ] && cmp -s "$tmp/un.pp" "$tmp/un.rep" &&
   cmp -s "$tmp/una.pp" "$tmp/un.ips"; then
	tap_ok "code without symbols: a function per 4 KiB page with report --sort sym's samples (10), one per address with --unresolved address ($(wc -l <"$tmp/una.pp"))"
else
	tap_fail "pprof of code without symbols" "$(diff "$tmp/un.pp" "$tmp/un.rep" | head -4)" \
		"by address: $(wc -l <"$tmp/una.pp") functions, $(wc -l <"$tmp/un.ips") addresses"
fi

# Output safety.
spe_views_output_checks pprof m.pb.gz "$tmp/sy.data"
cp "$tmp/p.pb.gz" "$tmp/old.pb.gz"
printf 'not a perf.data' >"$tmp/bad.data"
"$spe" pprof -o "$tmp/p.pb.gz" "$tmp/bad.data" 2>/dev/null
[ $? -ne 0 ] && cmp -s "$tmp/p.pb.gz" "$tmp/old.pb.gz" && [ -z "$(find "$tmp" -maxdepth 1 -name '.p.pb.gz.*')" ] &&
	tap_ok "a failed run leaves the existing output and no temporary file" ||
	tap_fail "a failed run keeps the old output"
"$spe" pprof "$tmp/sy.data" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "-o" "$tmp/err" && tap_ok "no -o is a usage error" || tap_fail "no -o"
tap_done
