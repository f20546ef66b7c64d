#!/usr/bin/env bash
# spe-gen: deterministic traces from the SPU model.  Same profile and seed
# give the same bytes; the traces match the checked-in golden digests (a
# change to the model's output must update them on purpose:
# SPE_GEN_UPDATE_GOLDEN=1 rewrites them); bad arguments are refused.
# --perf-data writes through the decoder library it links (no spe-decode
# is run): the bytes spe-decode wrap writes for the same trace.
# --version prints the release's version as spe-decode --version does.
# --cpus 4 --binary PROGRAM: a recording of four CPUs that host perf and
# spe-decode (script, report, html, pprof) symbolise to PROGRAM's
# functions, the same on every run; damaged programs are refused.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/perf-dump.sh
. "$top/scripts/lib/perf-dump.sh"
gen="$top/build/spu-model/spe-gen"
golden="$top/tools/spu-model/tests/golden"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

make -s -C "$top/tools/spu-model" >/dev/null 2>&1
tap_status $? "spe-gen builds"

for p in v1-min n1 v2 full; do
	"$gen" -q -p "$p" -s 3 -n 64K -j -o "$tmp/$p.a" && "$gen" -q -p "$p" -s 3 -n 64K -j -o "$tmp/$p.b"
	cmp -s "$tmp/$p.a" "$tmp/$p.b"
	tap_status $? "spe-gen $p: the same seed gives the same bytes"
	size=$(stat -c %s "$tmp/$p.a")
	[ "$size" -gt 60000 ] && [ "$size" -le 65536 ]
	tap_status $? "spe-gen $p: a 64K buffer is filled to within one record and never past it ($size bytes)"
	sum=$(sha256sum <"$tmp/$p.a" | cut -d' ' -f1)
	if [ "${SPE_GEN_UPDATE_GOLDEN:-0}" = 1 ]; then
		echo "$sum" >"$golden/$p-s3-64k-jitter.sha256"
	fi
	[ "$sum" = "$(cat "$golden/$p-s3-64k-jitter.sha256" 2>/dev/null)" ]
	tap_status $? "spe-gen $p: output matches the golden digest"
done
"$gen" -q -p n1 -s 4 -n 64K -o "$tmp/s4"
! cmp -s "$tmp/s4" "$tmp/n1.a"
tap_status $? "spe-gen: another seed gives another trace"
"$gen" -q -p nosuch -o "$tmp/x" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unknown profile" "$tmp/err"
tap_status $? "spe-gen: an unknown profile is refused with a clear message"
"$gen" -q -i 300 -o "$tmp/x" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "multiple of 256" "$tmp/err"
tap_status $? "spe-gen: an interval that is not a multiple of 256 is refused"

# perf.data around a trace, read by the host's perf as an independent decoder.
for p in n1 v2; do
	name="spe-gen --perf-data $p: host perf report -D decodes one PC per record, no bad packet"
	if ! sum=$("$gen" -p "$p" -s 5 -n 128K -o "$tmp/$p.bin" --perf-data "$tmp/$p.data" 2>&1); then
		tap_fail "$name" "$sum"
		continue
	fi
	recs=$(echo "$sum" | sed -n 's/.* \([0-9]*\) records.*/\1/p')
	if ! command -v perf >/dev/null; then
		tap_skip "$name" "perf is not installed"; continue
	fi
	pcs=$(perf_dump_sum "$tmp/$p.data" records)
	bad=$(perf_dump_sum "$tmp/$p.data" bad)
	[ "$pcs" -eq "$recs" ] && [ "$recs" -gt 0 ] && [ "$bad" -eq 0 ]
	tap_status $? "$name ($pcs of $recs)" "$bad lines of bad packets or errors"
done
# spe-gen alone, with nothing to run (an empty environment, no PATH), writes
# the perf.data that spe-decode wrap writes for its trace: the profile's
# MIDR, the interval as the period, the config of PMSCR (--no-pa: ts only).
dec=$top/build/spe-decode/spe-decode
alone=$tmp/alone
mkdir -p "$alone"
cp "$gen" "$alone/spe-gen"
if (cd "$alone" && env -i ./spe-gen -q -p v2 -s 6 -n 32K -i 512 --no-pa -o t.bin \
	--perf-data t.data) 2>"$tmp/err" && make -s -C "$top/tools/spe-decode" >/dev/null 2>&1 &&
   "$dec" wrap -o "$tmp/w.data" --midr 0x410fd4f1 --period 512 --config 0x1 "$alone/t.bin"; then
	cmp -s "$alone/t.data" "$tmp/w.data"
	tap_status $? "spe-gen --perf-data alone, nothing to run: the bytes of spe-decode wrap"
	# To a FIFO, perf's pipe format (perf record -o -), as wrap writes to stdout.
	mkfifo "$tmp/fifo"
	cat "$tmp/fifo" >"$tmp/fifo.data" &
	"$gen" -q -p v2 -s 6 -n 32K -i 512 --no-pa -o "$tmp/t2.bin" --perf-data "$tmp/fifo"
	gen_rc=$?
	wait
	"$dec" wrap -o - --midr 0x410fd4f1 --period 512 --config 0x1 "$tmp/t2.bin" >"$tmp/w.pipe"
	[ $gen_rc -eq 0 ] && [ -p "$tmp/fifo" ] && cmp -s "$tmp/fifo.data" "$tmp/w.pipe"
	tap_status $? "spe-gen --perf-data to a FIFO: written in place, perf's pipe format, as wrap -o -"
else
	tap_fail "spe-gen --perf-data alone, nothing to run: the bytes of spe-decode wrap" "$(cat "$tmp/err")"
fi
"$gen" -q -o "$tmp/k.bin" --perf-data "$tmp/no-such-dir/p.data" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "cannot write $tmp/no-such-dir/p.data" "$tmp/err" &&
	[ ! -e "$tmp/no-such-dir" ]
tap_status $? "spe-gen: a perf.data it cannot write is an error naming the file"

# --cpus N --binary PROGRAM: N AUX buffers and the side-band of a task
# running PROGRAM (COMM, MMAP2 of its text), user PCs in its functions, so
# the recording symbolises as a real one.  PROGRAM: built here, with
# functions of known names.
cat >"$tmp/prog.c" <<'EOF_PROG'
int gen_fn_alpha(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * 3; return s; }
int gen_fn_beta(int x) { int s = 1; for (int i = 0; i < x; i++) s ^= i << 2; return s; }
int gen_fn_gamma(int x) { int s = 2; for (int i = 0; i < x; i++) s += i % 7; return s; }
int main(int argc, char **argv) { (void)argv; return gen_fn_alpha(argc) + gen_fn_beta(argc) + gen_fn_gamma(argc); }
EOF_PROG
prog=$(cd "$tmp" && pwd -P)/prog
if ! ${CC:-cc} -O0 -Wl,--build-id -o "$prog" "$tmp/prog.c" 2>"$tmp/err"; then
	tap_fail "spe-gen --binary: a test program builds" "$(cat "$tmp/err")"
else
	# The program's function names, from its symbol table.
	nm "$prog" | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >"$tmp/funcs"
	gb=(-q -p n1 -s 7 -n 64K --cpus 4 --binary "$prog")
	"$gen" "${gb[@]}" --perf-data "$tmp/b1.data" 2>"$tmp/err" &&
		"$gen" "${gb[@]}" --perf-data "$tmp/b2.data" 2>>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && cmp -s "$tmp/b1.data" "$tmp/b2.data"
	tap_status $? "spe-gen --cpus 4 --binary: the same seed and program give the same bytes" "$(cat "$tmp/err")"
	"$gen" -q -p n1 -s 7 -n 64K --cpus 4 --perf-data "$tmp/nb.data" 2>"$tmp/err" &&
		! cmp -s "$tmp/b1.data" "$tmp/nb.data"
	tap_status $? "spe-gen --binary: user PCs and side-band that the trace without it has not"
	if ! command -v perf >/dev/null; then
		tap_skip "spe-gen --cpus 4 --binary: host perf reads it" "perf is not installed"
	else
		perf script -i "$tmp/b1.data" -F cpu,pid,ip,sym,dso 2>/dev/null | tr -s ' ' |
			sed 's/^ //' >"$tmp/p.f"
		# Fields in perf's order: pid, cpu, ip, sym, dso.
		cpus=$(cut -d' ' -f2 "$tmp/p.f" | sort -u | tr -d '\n')
		[ "$cpus" = "[000][001][002][003]" ]
		tap_status $? "spe-gen --cpus 4: perf script's samples are of CPUs 0-3 (got '$cpus')"
		# User ips (below the kernel's half) name PROGRAM's functions
		# and PROGRAM as their dso; kernel ips have no image to name them.
		awk -v p="($prog)" '$3 !~ /^ffff/ { print $4, ($5 == p) }' "$tmp/p.f" >"$tmp/user"
		nuser=$(wc -l <"$tmp/user")
		unknown=$(awk '$2 != 1' "$tmp/user" | wc -l)
		cut -d' ' -f1 "$tmp/user" | sort -u >"$tmp/named"
		stray=$(comm -23 "$tmp/named" "$tmp/funcs" | tr '\n' ' ')
		pids=$(cut -d' ' -f1 "$tmp/p.f" | sort -u | wc -l)
		[ "$nuser" -gt 1000 ] && [ "$unknown" -eq 0 ] && [ -z "$stray" ] &&
			grep -qx gen_fn_alpha "$tmp/named" && grep -qx gen_fn_beta "$tmp/named" &&
			grep -qx gen_fn_gamma "$tmp/named" && grep -qx main "$tmp/named" && [ "$pids" -eq 1 ]
		tap_status $? "spe-gen --binary: perf script names the program's functions for all $nuser user samples, of one task" \
			"$unknown without the program as dso; not its functions: '$stray'; $pids pids"
		perf report -i "$tmp/b1.data" --sort sym --stdio 2>/dev/null |
			awk '$3 == "[.]" { print $4 }' | sort -u >"$tmp/p.syms"
		"$dec" report --sort sym "$tmp/b1.data" 2>"$tmp/err" |
			awk 'NF > 1 && $(NF - 1) == "[.]" { print $NF }' | sort -u >"$tmp/s.syms"
		[ -s "$tmp/s.syms" ] && cmp -s "$tmp/p.syms" "$tmp/s.syms" &&
			[ -z "$(comm -23 "$tmp/s.syms" "$tmp/funcs")" ] && grep -qx gen_fn_gamma "$tmp/s.syms"
		tap_status $? "spe-gen --binary: spe-decode report --sort sym names the program's functions, as perf report" \
			"$(diff "$tmp/p.syms" "$tmp/s.syms" | head -5)" "$(cat "$tmp/err")"
		# The BUILD_ID section names the program by its own build id.
		want=$(readelf -n "$prog" | sed -n 's/.*Build ID: *//p')
		got=$(perf buildid-list -i "$tmp/b1.data" 2>/dev/null)
		[ -n "$want" ] && [ "$got" = "$want $prog" ]
		tap_status $? "spe-gen --binary: perf buildid-list gives the program's build id" \
			"want '$want $prog', got '$got'"
		perf script -i "$tmp/b1.data" >"$tmp/p.out" 2>/dev/null
		"$dec" script --branch-miss "$tmp/b1.data" >"$tmp/s.out" 2>"$tmp/err"
		[ -s "$tmp/p.out" ] && cmp -s "$tmp/p.out" "$tmp/s.out"
		tap_status $? "spe-gen --cpus 4 --binary: spe-decode script prints perf script's lines ($(wc -l <"$tmp/p.out"))" \
			"$(diff "$tmp/p.out" "$tmp/s.out" | head -6)" "$(cat "$tmp/err")"
	fi
	# The views, which need symbols to say anything about code: the
	# HTML report and the pprof profile name the program's functions.
	"$dec" html -o "$tmp/b1.html" "$tmp/b1.data" 2>"$tmp/err" &&
		"$dec" pprof -o "$tmp/b1.pb.gz" "$tmp/b1.data" 2>>"$tmp/err" &&
		grep -q gen_fn_gamma "$tmp/b1.html" && grep -q gen_fn_beta "$tmp/b1.html" &&
		gzip -dc "$tmp/b1.pb.gz" | grep_q -a gen_fn_alpha &&
		gzip -dc "$tmp/b1.pb.gz" | grep_q -a -F "$prog"
	tap_status $? "spe-gen --binary: spe-decode html and pprof name the program's functions" "$(cat "$tmp/err")"
	# Refused: -o with several CPUs, a CPU count out of range, a file
	# that is not a program with symbols; each with a message naming it.
	"$gen" -q --cpus 2 -o "$tmp/x" --perf-data "$tmp/x.data" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "-o writes one CPU" "$tmp/err" && [ ! -e "$tmp/x.data" ]
	tap_status $? "spe-gen --cpus 2 -o: refused (a raw trace is one CPU's)" "$(cat "$tmp/err")"
	"$gen" -q --cpus 65 --perf-data "$tmp/x.data" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "--cpus must be 1..64" "$tmp/err"
	tap_status $? "spe-gen --cpus 65: refused" "$(cat "$tmp/err")"
	"$gen" -q --binary "$tmp/prog.c" --perf-data "$tmp/x.data" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "$tmp/prog.c: not an ELF file" "$tmp/err" && [ ! -e "$tmp/x.data" ]
	tap_status $? "spe-gen --binary of a text file: refused, naming it" "$(cat "$tmp/err")"
	cp "$prog" "$tmp/victim"
	"$gen" -q --binary "$tmp/victim" --perf-data "$tmp/victim" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "is --binary's program: refused" "$tmp/err" &&
		cmp -s "$prog" "$tmp/victim"
	tap_status $? "spe-gen --perf-data over --binary's program: refused, the program intact" "$(cat "$tmp/err")"
	# Damaged programs: truncated, and headers or tables pointing past the
	# file or the address space.  Each is refused with the file's name
	# and what is wrong, nothing written, no crash.
	mkdir -p "$tmp/bad"
	: >"$tmp/bad/empty"
	python3 - "$prog" "$tmp/bad" <<'EOF_BAD'
import os, struct, sys
src = open(sys.argv[1], 'rb').read()
def put(name, data):
    open(os.path.join(sys.argv[2], name), 'wb').write(data)
def patch(name, off, fmt, val):
    b = bytearray(src)
    struct.pack_into(fmt, b, off, val)
    put(name, bytes(b))
for n in (16, 64, 400, len(src) // 2):
    put('trunc%d' % n, src[:n])
patch('phoff', 0x20, '<Q', 1 << 62)
patch('shoff', 0x28, '<Q', (1 << 64) - 8)
patch('shnum', 0x3c, '<H', 0xffff)
shoff, shnum = struct.unpack_from('<Q', src, 0x28)[0], struct.unpack_from('<H', src, 0x3c)[0]
for o in range(shoff, shoff + shnum * 64, 64):
    if struct.unpack_from('<I', src, o + 4)[0] == 2:        # SHT_SYMTAB
        patch('symsize', o + 0x20, '<Q', (1 << 64) - 24)
phoff, phnum = struct.unpack_from('<Q', src, 0x20)[0], struct.unpack_from('<H', src, 0x38)[0]
for o in range(phoff, phoff + phnum * 56, 56):
    p_type, p_flags = struct.unpack_from('<II', src, o)
    if p_type == 1 and p_flags & 1:                         # PT_LOAD, PF_X
        patch('memsz', o + 0x28, '<Q', (1 << 64) - 1)
EOF_BAD
	bad=
	for f in "$tmp"/bad/*; do
		"$gen" -q -n 16K --binary "$f" --perf-data "$tmp/bad.data" 2>"$tmp/err"
		rc=$?
		{ [ $rc -eq 2 ] && grep -q -- "--binary $f: [a-z]" "$tmp/err" &&
			[ ! -e "$tmp/bad.data" ]; } || bad="$bad ${f##*/}:$rc:$(head -c 100 "$tmp/err")"
	done
	n=$(find "$tmp/bad" -type f | wc -l)
	[ "$n" -ge 10 ] && [ -z "$bad" ]
	tap_status $? "spe-gen --binary: $n damaged programs refused, naming the file and the problem" "$bad"
	cp "$prog" "$tmp/stripped" && strip "$tmp/stripped" 2>/dev/null
	"$gen" -q --binary "$tmp/stripped" --perf-data "$tmp/x.data" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "stripped: no function symbols" "$tmp/err"
	tap_status $? "spe-gen --binary of a stripped program: refused, naming it" "$(cat "$tmp/err")"
fi
# --version: as spe-decode --version prints it, the same release's number.
make -s -C "$top/tools/spe-decode" >/dev/null 2>&1
want=$("$top/build/spe-decode/spe-decode" --version 2>/dev/null)
for opt in --version -v; do
	got=$("$gen" $opt 2>"$tmp/err")
	rc=$?
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "spe-gen ${want#spe-decode }" ] &&
	   [ "$got" != "spe-gen " ] && [ ! -s "$tmp/err" ]; then
		tap_ok "spe-gen $opt prints '$got' (spe-decode's: '$want'), exit 0"
	else
		tap_fail "spe-gen $opt prints its version" "exit $rc, '$got' (spe-decode: '$want')" "$(cat "$tmp/err")"
	fi
done
tap_done
