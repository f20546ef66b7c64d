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

# pprof names files by their whole path, report by their base name.
go tool pprof -top -lines -nodefraction=0 -sample_index=samples "$tmp/p.pb.gz" 2>/dev/null |
	awk '/^ *[0-9]/ && NF == 7 {sub(/.*\//, "", $7); print $1, $6, $7}' | sort >"$tmp/pl"
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

# What a user of pprof does with a profile of a program built -O2 -g,
# with functions inlined two deep and a shared library of its own, mapped
# as perf records a process's text (an MMAP at its load address, the
# segment's file offset) with both build ids in the recording: -traces
# shows each address's inline chain as addr2line -i does, -list finds the
# sources without -source_path, -disasm finds the binaries (pprof, built
# from Debian's source of it: go tool pprof cannot place a shared object),
# and -raw shows the mappings with their build ids.
inline_checks() {
	local src=$top/tools/spe-decode/tests/views/inline obj=$tmp/inl/build
	local eb=0x555555554000 lb=0x7f1234560000 maps pcs bad out m bid args
	mkdir -p "$tmp/inl/src" "$obj" "$tmp/inl/elsewhere"
	cp "$src"/*.[ch] "$tmp/inl/src/"
	# Relative source names: the DWARF has the compilation directory
	# and ../src/*.c, which must be joined.
	if ! (cd "$obj" && gcc -O2 -g -fPIC -shared -Wl,--build-id -o libinl.so ../src/lib.c &&
	      gcc -O2 -g -fPIE -pie -Wl,--build-id -o prog ../src/main.c ./libinl.so) >"$tmp/inl/cc.log" 2>&1; then
		tap_fail "the inlining test program builds" "$(cat "$tmp/inl/cc.log")"
		return
	fi
	# Per file: its text segment's mapping (START:LEN:PGOFF at base B),
	# its build id, and the PCs of every instruction of one function.
	maps=$(python3 - "$obj" "$eb" "$lb" <<'PY'
import re, subprocess, sys
obj, eb, lb = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
out = []
for name, base, fn in (('prog', eb, 'outer'), ('libinl.so', lb, 'lib_sum')):
    path = '%s/%s' % (obj, name)
    ph = subprocess.run(['readelf', '-lW', path], capture_output=True, text=True).stdout
    seg = [l.split() for l in ph.splitlines() if l.split()[:1] == ['LOAD'] and 'E' in l.split()[-2:-1][0]][0]
    off, va, memsz = int(seg[1], 16), int(seg[2], 16), int(seg[5], 16)
    start = base + (va & ~0xfff)
    length = ((va & 0xfff) + memsz + 0xfff) & ~0xfff
    bid = re.search(r'Build ID: ([0-9a-f]+)', subprocess.run(['readelf', '-n', path],
                    capture_output=True, text=True).stdout).group(1)
    dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', path], capture_output=True,
                         text=True).stdout
    body = dis.split('<%s>:\n' % fn)[1].split('\n\n')[0]
    pcs = ['%x' % (base + int(l.split(':')[0], 16)) for l in body.splitlines() if ':' in l]
    print('%s %#x:%#x:%#x:%s %s %s' % (name, start, length, off & ~0xfff, path, bid, ','.join(pcs)))
PY
)
	pcs=$(echo "$maps" | awk '{print $4}' | paste -sd, -)
	args=()
	while read -r _ m bid _; do
		args+=(--mmap "$m" --build-id "$bid:${m#*:*:*:}")
	done <<<"$maps"
	python3 "$gen" 4000 --seed 21 --no-context --pcs "$pcs" >"$tmp/inl/r.bin"
	if ! "$spe" wrap -o "$tmp/inl/r.data" --per-thread --pid 90 --tid 90 --comm prog \
		"${args[@]}" "$tmp/inl/r.bin" 2>"$tmp/inl/err" ||
	   ! "$spe" pprof -o "$tmp/inl/p.pb.gz" "$tmp/inl/r.data" 2>>"$tmp/inl/err"; then
		tap_fail "pprof of the inlining test program" "$(cat "$tmp/inl/err")"
		return
	fi
	# The recorded PCs: the addresses whose chains -traces shows.
	"$spe" script --itrace=i1i -F ip "$tmp/inl/r.data" | awk '{print $1}' | sort -u >"$tmp/inl/ips"
	(cd "$tmp/inl/elsewhere" &&
	 go tool pprof -traces -lines "$tmp/inl/p.pb.gz" >"$tmp/inl/traces" 2>/dev/null &&
	 go tool pprof -raw "$tmp/inl/p.pb.gz" >"$tmp/inl/raw" 2>/dev/null)
	bad=$(python3 - "$tmp/inl" "$maps" <<'PY'
import os, re, subprocess, sys
d, maps = sys.argv[1], [l.split() for l in sys.argv[2].splitlines()]
segs = []          # (start, limit, pgoff, path, build id)
for _, m, bid, _ in maps:
    start, length, pgoff, path = m.split(':', 3)
    segs.append((int(start, 16), int(start, 16) + int(length, 16), int(pgoff, 16), path, bid))

def elf_addr(ip):
    for start, limit, pgoff, path, _ in segs:
        if start <= ip < limit:
            # The segments' addresses and offsets are equal in these
            # files (page-aligned text): the file offset is the address.
            return path, ip - start + pgoff
    return None, None

def addr2line(path, addr):
    out = subprocess.run(['addr2line', '-i', '-f', '-e', path, '%#x' % addr],
                         capture_output=True, text=True).stdout.splitlines()
    chain = []
    for fn, where in zip(out[0::2], out[1::2]):
        f, line = where.split(' (discriminator')[0].rsplit(':', 1)
        chain.append((fn, os.path.normpath(f), int(line)))
    return tuple(chain)

problems = []
# -traces: the chains of the recorded addresses, and no others.
want = set()
for l in open(d + '/ips'):
    path, a = elf_addr(int(l, 16))
    if path:
        want.add(addr2line(path, a))
got, cur = set(), []
for l in open(d + '/traces'):
    m = re.match(r'^\s+(?:\d+\s+)?(\S+) (/\S+):(\d+)( \(inline\))?$', l)
    if m:
        cur.append((m.group(1), m.group(2), int(m.group(3))))
    elif cur:
        got.add(tuple(cur))
        cur = []
if cur:
    got.add(tuple(cur))
deep = [c for c in want if len(c) >= 3]
if not deep:
    problems.append('addr2line -i found no address inlined two deep: %s' % sorted(want)[:3])
if got != want:
    problems.append('-traces chains %d, addr2line -i %d; only in -traces: %s; only in addr2line: %s'
                    % (len(got), len(want), sorted(got - want)[:2], sorted(want - got)[:2]))
# -raw: the mappings as recorded, with build ids, symbolised here.
raw = open(d + '/raw').read()
for start, limit, pgoff, path, bid in segs:
    line = '%#x/%#x/%#x %s %s [FN][FL][LN][IN]' % (start, limit, pgoff, path, bid)
    if not re.search(r'^\d+: ' + re.escape(line) + '$', raw, re.M):
        problems.append('-raw has no mapping "%s"' % line)
# -raw: every location of the files carries its address's chain.
locs = 0
for m in re.finditer(r'^ +\d+: (0x[0-9a-f]+) M=\d+ (.*\n(?: {6,}(?!\d+: )\S.*\n)*)', raw, re.M):
    path, a = elf_addr(int(m.group(1), 16))
    if not path:
        continue
    locs += 1
    chain = tuple((f, os.path.normpath(w.rsplit(':', 1)[0]), int(w.rsplit(':', 1)[1]))
                  for f, w in (x.split()[:2] for x in m.group(2).splitlines()))
    if chain != addr2line(path, a):
        problems.append('location %s: %s, addr2line -i: %s' % (m.group(1), chain, addr2line(path, a)))
if locs < 20:
    problems.append('only %d locations in the mapped files' % locs)
print('\n'.join(problems[:6]) if problems else 'ok %d chains, %d inlined two deep, %d locations'
      % (len(want), len(deep), locs))
PY
)
	case $bad in
	ok*) tap_ok "-traces shows each recorded address's inline chain as addr2line -i -f, -raw each location's and the mappings with offsets and build ids (${bad#ok })" ;;
	*) tap_fail "-traces and -raw show the inline chains and mappings" "$bad" ;;
	esac
	# -list from another directory, no -source_path: the lines of the
	# functions inlined into others, with their samples.
	bad=
	for f in '^outer$:OUTER-CALL' '^middle$:MIDDLE-CALL' '^leaf$:LEAF-BODY' '^lib_sum$:LIB-CALL' '^lib_leaf$:LIB-LEAF'; do
		out=$(cd "$tmp/inl/elsewhere" && go tool pprof -list="${f%%:*}" -sample_index=samples "$tmp/inl/p.pb.gz" 2>&1)
		echo "$out" | grep_q -E "^ +[^ ]+ +[0-9][^ ]* +[0-9]+:.*${f#*:}" ||
			bad="$bad${bad:+; }-list=${f%%:*}: $(echo "$out" | head -3 | tr '\n' ' ')"
	done
	[ -z "$bad" ] && tap_ok "-list reads the sources by their whole paths, without -source_path (outer, middle, leaf, lib_sum, lib_leaf)" ||
		tap_fail "-list finds the sources" "$bad"
	# -disasm: the instructions of each function from its binary, the
	# samples at the addresses recorded.  With several mappings pprof
	# places a binary from the first sample it looks at, so -focus.
	if [ ! -d /usr/share/gocode/src/github.com/google/pprof ]; then
		tap_skip "-disasm shows the instructions with their samples" \
			"pprof's source not installed (golang-github-google-pprof-dev, scripts/deps/views.list)"
		return
	fi
	if ! (cd "$tmp" && GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= \
	      go build -o "$tmp/pprof" github.com/google/pprof) >"$tmp/inl/go.log" 2>&1; then
		tap_fail "pprof builds from golang-github-google-pprof-dev" "$(tail -5 "$tmp/inl/go.log")"
		return
	fi
	bad=$(python3 - "$tmp" "$maps" <<'PY'
import subprocess, sys
tmp, maps = sys.argv[1], [l.split() for l in sys.argv[2].splitlines()]
ips = {int(l, 16) for l in open(tmp + '/inl/ips')}
problems, n = [], 0
for name, m, _, pcs in maps:
    fn = {'prog': 'outer', 'libinl.so': 'lib_sum'}[name]
    start, _, pgoff, path = m.split(':', 3)
    sampled = {ip - int(start, 16) + int(pgoff, 16) for ip in ips
               if '%x' % ip in pcs.split(',')}
    obj = subprocess.run(['objdump', '-d', '--no-show-raw-insn', path], capture_output=True,
                         text=True).stdout.split('<%s>:\n' % fn)[1].split('\n\n')[0]
    # The mnemonics, without objdump's prefixes ("cs nopw"), as pprof
    # prints them (its objdump may add AT&T's size suffixes).
    insns = {int(l.split(':')[0], 16): [w for w in l.split('\t')[1].split()
                                        if w not in ('cs', 'ds', 'data16', 'rep', 'lock',
                                                     'notrack', 'bnd')][0]
             for l in obj.splitlines() if '\t' in l}
    out = subprocess.run([tmp + '/pprof', '-disasm=' + fn, '-focus=' + fn,
                          '-sample_index=samples', tmp + '/inl/p.pb.gz'],
                         capture_output=True, text=True, cwd=tmp + '/inl/elsewhere')
    out, err = out.stdout, out.stderr
    shown, counted = {}, set()
    for l in out.splitlines():
        f = l.split()
        if len(f) >= 4 and f[2].endswith(':'):
            a = int(f[2][:-1], 16)
            shown[a] = f[3]
            if f[0] != '.':
                counted.add(a)
    wrong = [a for a in insns if shown.get(a, '').rstrip('lqwb') != insns[a].rstrip('lqwb')]
    if not insns or wrong:
        problems.append("%s: %d of objdump's %d instructions not shown as such (%s)"
                        % (fn, len(wrong), len(insns), (out + err).splitlines()[:3]))
    if counted != sampled or not sampled:
        problems.append('%s: samples at %s, recorded at %s' % (fn, sorted(map(hex, counted))[:4],
                                                              sorted(map(hex, sampled))[:4]))
    n += len(sampled)
print('\n'.join(problems) if problems else 'ok %d sampled instructions' % n)
PY
)
	case $bad in
	ok*) tap_ok "-disasm shows outer's and lib_sum's instructions from the binaries, the samples at the recorded addresses (${bad#ok })" ;;
	*) tap_fail "-disasm shows the instructions with their samples" "$bad" ;;
	esac
}
inline_checks

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
