#!/usr/bin/env bash
# Symbols through libdwfl beside host perf, on programs built here: C++
# (namespaces, templates) and Rust-mangled names demangled as perf prints
# them, a stripped PIE whose symbols are in a .gnu_debuglink file under
# --symfs's /usr/lib/debug, a build-id mismatch (not used, a warning), the
# build-id cache (--buildid-dir), and a kernel module's map with kallsyms.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/perfdata-suite.sh
. "$top/scripts/lib/perfdata-suite.sh"
spe="$top/build/spe-decode/spe-decode"
gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"
make -s -C "$top/tools/spe-decode" -j2 >"$tmp/build.log" 2>&1 ||
	{ tap_fail "build" "$(cat "$tmp/build.log")"; exit 1; }
command -v perf >/dev/null || { tap_skip "symbols beside perf" "perf not installed"; tap_done; exit 0; }
command -v g++ >/dev/null || { tap_skip "symbols beside perf" "g++ not installed"; tap_done; exit 0; }

cat >"$tmp/prog.cpp" <<'CPP'
#include <vector>
namespace outer { namespace inner {
template <typename T> struct Box { T v; __attribute__((noinline)) T get() const { return v * 2; } };
__attribute__((noinline)) int work(const std::vector<int> &v) { int s = 0; for (int x : v) s += x; return s; }
} }
// Rust legacy and v0 manglings, as rustc emits them.
extern "C" __attribute__((noinline)) int rust_legacy(int x) __asm__("_ZN4core3fmt5write17h0123456789abcdefE");
extern "C" __attribute__((noinline)) int rust_legacy(int x) { return x + 1; }
extern "C" __attribute__((noinline)) int rust_v0(int x) __asm__("_RNvCs1234_7mycrate4main");
extern "C" __attribute__((noinline)) int rust_v0(int x) { return x + 2; }
int main() { outer::inner::Box<long> b{3}; outer::inner::Box<double> d{1.5}; std::vector<int> v{1, 2, 3};
	return (int)(b.get() + d.get()) + outer::inner::work(v) + rust_legacy(1) + rust_v0(2); }
CPP
# pcs ELF BASE: 2 bytes into each function, mapped at BASE + its address
# (data_start is a weak data symbol; SPE samples instructions).
pcs() { nm "$1" | awk -v b=$(($2)) '$2 ~ /^[tTwW]$/ && $3 != "data_start" {printf "%x,", strtonum("0x"$1) + b + 2}' | sed 's/,$//'; }
pre=
wrap() { "$spe" wrap --per-thread --pid 77 --tid 77 --comm prog "$@"; }
cmpperf() {	# LABEL DATA [perf script options] -- [spe-decode options]
	local label=$1 data=$2 popts=() sopts=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do popts+=("$1"); shift; done
	shift
	sopts=("$@")
	perf $pre script "${popts[@]}" -i "$data" -F ip,sym,symoff,dso 2>/dev/null >"$tmp/p.out"
	"$spe" script --branch-miss "${sopts[@]}" -F ip,sym,symoff,dso "$data" >"$tmp/s.out" 2>"$tmp/s.err"
	same "$label" "$tmp/p.out" "$tmp/s.out"
}

# 1. C++ and Rust names, non-PIE at its link address (text at offset 0x1000).
g++ -O1 -g -no-pie -o "$tmp/cxx" "$tmp/prog.cpp"
python3 "$gen" 400 --seed 5 --no-context --pcs "$(pcs "$tmp/cxx" 0)" >"$tmp/cxx.bin"
wrap -o "$tmp/cxx.data" --mmap "0x401000:0x1000:0x1000:$tmp/cxx" "$tmp/cxx.bin"
cmpperf "C++ and Rust names demangled as perf script prints them" "$tmp/cxx.data" --
for want in 'outer::inner::Box<long>::get' 'outer::inner::work+' 'core::fmt::write+' 'mycrate::main+'; do
	if grep -qF " $want" "$tmp/s.out"; then tap_ok "demangled: $want"; else tap_fail "demangled: $want"; fi
done
perf script --no-demangle -i "$tmp/cxx.data" -F ip,sym,symoff,dso 2>/dev/null >"$tmp/p.out"
"$spe" script --branch-miss --no-demangle -F ip,sym,symoff,dso "$tmp/cxx.data" >"$tmp/s.out"
same "--no-demangle as perf's" "$tmp/p.out" "$tmp/s.out"
grep -q ' _ZNK5outer5inner3BoxIlE3getEv+' "$tmp/s.out" && tap_ok "--no-demangle keeps ELF names" ||
	tap_fail "--no-demangle keeps ELF names"
# No COMM record: perf learns the thread's process from its MMAP2.
"$spe" wrap -o "$tmp/nocomm.data" --per-thread --pid 77 --tid 77 \
	--mmap "0x401000:0x1000:0x1000:$tmp/cxx" "$tmp/cxx.bin"
cmpperf "no COMM record: the process from MMAP2, symbols as perf" "$tmp/nocomm.data" --
grep -q ' main+' "$tmp/s.out" && tap_ok "no COMM record: symbols resolve" || tap_fail "no COMM record: symbols resolve"

# 2. A stripped PIE, its symbols in a .gnu_debuglink file under the symfs.
sfs="$tmp/symfs"
mkdir -p "$sfs/opt/app" "$sfs/usr/lib/debug/opt/app"
g++ -O1 -g -fPIE -pie -o "$tmp/pie" "$tmp/prog.cpp"
objcopy --only-keep-debug "$tmp/pie" "$sfs/usr/lib/debug/opt/app/pie.debug"
objcopy --strip-all --add-gnu-debuglink="$sfs/usr/lib/debug/opt/app/pie.debug" "$tmp/pie" "$sfs/opt/app/pie"
base=0x5555555a0000
python3 "$gen" 400 --seed 6 --no-context --pcs "$(pcs "$tmp/pie" $base)" >"$tmp/pie.bin"
wrap -o "$tmp/pie.data" --mmap "$base:0x10000:0:/opt/app/pie" "$tmp/pie.bin"
cmpperf "stripped PIE + debuglink under --symfs: perf script --symfs's symbols" "$tmp/pie.data" \
	--symfs "$sfs" -- --symfs "$sfs"
grep -q ' outer::inner::work+' "$tmp/s.out" && tap_ok "the debug file's symbols are used" ||
	tap_fail "the debug file's symbols are used"
# Source lines come from the debug file too (the stripped file has no DWARF).
"$spe" report --sort sym,srcline --symfs "$sfs" "$tmp/pie.data" >"$tmp/r.out"
if grep -q 'Box<long>::get  prog\.cpp:[1-9]' "$tmp/r.out"; then
	tap_ok "report --sort srcline: lines from the debuglink file"
else
	tap_fail "report --sort srcline: lines from the debuglink file"; head -12 "$tmp/r.out" | sed 's/^/# /'
fi
rm "$sfs/usr/lib/debug/opt/app/pie.debug"
"$spe" script --branch-miss --symfs "$sfs" -F sym "$tmp/pie.data" | grep -v '^ *\[unknown\]$' | grep_q . &&
	tap_fail "without the debug file: only the stripped file's [unknown]" ||
	tap_ok "without the debug file: only the stripped file's [unknown]"
cmpperf "without the debug file: as perf script" "$tmp/pie.data" --symfs "$sfs" -- --symfs "$sfs"

# A stripped shared library keeps its exported functions in .dynsym.
cat >"$tmp/lib.c" <<'C'
__attribute__((noinline)) int lib_add(int a, int b) { return a + b; }
__attribute__((noinline)) int lib_mul(int a, int b) { return a * b + lib_add(a, b); }
static __attribute__((noinline)) int lib_hidden(int a) { return a ^ 0x55; }
int lib_entry(int a) { return lib_hidden(a) + lib_mul(a, 3); }
C
gcc -O1 -shared -fPIC -o "$tmp/libx.so" "$tmp/lib.c"
mkdir -p "$sfs/usr/lib"
strip --strip-all -o "$sfs/usr/lib/libx.so" "$tmp/libx.so"
lbase=0x7f0000000000
lpcs=$(nm "$tmp/libx.so" | awk -v b=$((lbase)) '$2 ~ /^[tT]$/ {printf "%x,", strtonum("0x"$1) + b + 2}' | sed 's/,$//')
python3 "$gen" 300 --seed 8 --no-context --pcs "$lpcs" >"$tmp/lib.bin"
wrap -o "$tmp/lib.data" --mmap "$lbase:0x4000:0:/usr/lib/libx.so" "$tmp/lib.bin"
cmpperf "a stripped shared library: .dynsym functions as perf script" "$tmp/lib.data" \
	--symfs "$sfs" -- --symfs "$sfs"
grep -q ' lib_mul+' "$tmp/s.out" && tap_ok "exported functions from .dynsym" || tap_fail "exported functions from .dynsym"

# A mapping that names a FIFO is not opened for reading (no hang).
mkfifo "$tmp/fifo"
wrap -o "$tmp/fifo.data" --mmap "0x401000:0x1000:0x1000:$tmp/fifo" "$tmp/cxx.bin"
if timeout 20 "$spe" script --branch-miss -F sym,dso "$tmp/fifo.data" >"$tmp/s.out" &&
   grep -q "^ *\[unknown\] ($tmp/fifo)$" "$tmp/s.out"; then
	tap_ok "a mapped FIFO: [unknown], no hang"
else
	tap_fail "a mapped FIFO: [unknown], no hang"
fi

# 3. Build ids: the recording's against the file's.
bid=$(readelf -n "$tmp/cxx" | awk '/Build ID/ {print $3}')
wrap -o "$tmp/bad.data" --mmap "0x401000:0x1000:0x1000:$tmp/cxx" \
	--build-id "00112233445566778899aabbccddeeff00112233:$tmp/cxx" "$tmp/cxx.bin"
cmpperf "a file of another build is not used, as perf" "$tmp/bad.data" --
if grep -q "$tmp/cxx: build id 00112233.* the file's is $bid" "$tmp/s.err"; then
	tap_ok "the mismatch is a warning naming the file and both ids"
else
	tap_fail "the mismatch is a warning naming the file and both ids"; cat "$tmp/s.err"
fi
grep -q ' outer::inner' "$tmp/s.out" && tap_fail "no symbol of the other build" || tap_ok "no symbol of the other build"
# A file without a build id cannot be shown to be the recorded build: perf
# does not use it either.
g++ -O1 -no-pie -Wl,--build-id=none -o "$tmp/noid" "$tmp/prog.cpp"
wrap -o "$tmp/noid.data" --mmap "0x401000:0x1000:0x1000:$tmp/noid" --build-id "$bid:$tmp/noid" "$tmp/cxx.bin"
cmpperf "a file without a build id is not used, as perf" "$tmp/noid.data" --
grep -q "$tmp/noid: build id $bid in the recording, the file's is none" "$tmp/s.err" &&
	tap_ok "its warning says the file has none" || tap_fail "its warning says the file has none"
wrap -o "$tmp/good.data" --mmap "0x401000:0x1000:0x1000:$tmp/cxx" --build-id "$bid:$tmp/cxx" "$tmp/cxx.bin"
cmpperf "the matching build id: symbols as perf" "$tmp/good.data" --
[ -s "$tmp/s.err" ] && tap_fail "no warning for the matching build" || tap_ok "no warning for the matching build"

# 4. The build-id cache: the file was rebuilt since; the cache has the recorded build.
bc="$tmp/buildid"
mkdir -p "$bc$tmp/cxx/$bid" "$bc/.build-id/${bid:0:2}"
cp "$tmp/cxx" "$bc$tmp/cxx/$bid/elf"
ln -s "../..$tmp/cxx/$bid" "$bc/.build-id/${bid:0:2}/${bid:2}"
g++ -O0 -no-pie -o "$tmp/cxx" "$tmp/prog.cpp" -Wl,--build-id=0xfeedface
pre="--buildid-dir $bc" cmpperf "--buildid-dir: the cached build, as perf --buildid-dir" \
	"$tmp/good.data" -- --buildid-dir "$bc"
grep -q ' outer::inner::work+' "$tmp/s.out" && [ ! -s "$tmp/s.err" ] &&
	tap_ok "the cached file's symbols, no warning" || tap_fail "the cached file's symbols, no warning"

# 5. A kernel module's map: [module] and its kallsyms symbols; kernel data
# symbols (d, D, b, B but not r) count, as in perf.
python3 -c '
for k in range(64):
    print("%x T kfunc_%d" % (0xffff800008000000 + k * 0x1000, k))
    print("%x %s kdata_%d" % (0xffff800008000800 + k * 0x1000, "dDbBr"[k % 5], k))
for k in range(16):
    print("%x t modfn_%d\t[my_mod]" % (0xffff800009000000 + k * 0x100, k))' >"$tmp/kallsyms"
kpcs=$(python3 -c 'print(",".join(["%x" % (0xffff800008000000 + k * 0x420) for k in range(280)] +
                                  ["%x" % (0xffff800009000000 + k * 0x48) for k in range(60)]))')
python3 "$gen" 400 --seed 9 --no-context --pcs 401002 --kpcs "$kpcs" >"$tmp/k.bin"
wrap -o "$tmp/k.data" --kernel-mmap "0xffff800008000000:0x100000:0:[kernel.kallsyms]_text" \
	--kernel-mmap "0xffff800009000000:0x1000:0:/lib/modules/6.1.0/extra/my-mod.ko" "$tmp/k.bin"
cmpperf "kernel and module maps with --kallsyms, as perf" "$tmp/k.data" \
	--kallsyms "$tmp/kallsyms" -- --kallsyms "$tmp/kallsyms"
grep -q ' modfn_[0-9]*+0x[0-9a-f]* (\[my_mod\])$' "$tmp/s.out" && tap_ok "module ips: [my_mod] symbols" ||
	tap_fail "module ips: [my_mod] symbols"

# 6. A recording with no kernel map: perf maps no kernel ip, whatever the
# kallsyms (every kernel ip is "[unknown] ([unknown])").
wrap -o "$tmp/nok.data" "$tmp/k.bin"
cmpperf "no kernel map, --kallsyms given: kernel ips as perf's" "$tmp/nok.data" \
	--kallsyms "$tmp/kallsyms" -- --kallsyms "$tmp/kallsyms"
check "no kernel map: [unknown] ([unknown]) for the kernel ips" \
	'grep -q "^ *ffff80000[89][0-9a-f]* \[unknown\] (\[unknown\])$" "$tmp/s.out" && ! grep -q kernel.kallsyms "$tmp/s.out"'

# 7. PLT entries: perf names them NAME@plt from .rela.plt, each after the
# .dynsym symbol of its relocation, the table's header left to the symbol
# before it (_init).  PCs every 4 bytes from .init to past the table, on
# an AArch64 build (the recordings' machine: 32-byte header, 16-byte
# entries) and a build of this host (.plt's sh_entsize).
cat >"$tmp/plt.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	char buf[64];
	char *p = malloc(16);
	size_t n = strlen(argv[0]);

	if (fgets(buf, sizeof(buf), stdin))
		puts(buf);
	free(p);
	return (int)n + argc;
}
C
# plt_pcs ELF BASE: every 4 bytes from .init's start to 64 bytes into .text
plt_pcs() {
	readelf -SW "$1" | awk -v b=$(($2)) '
		{ sub(/^ *\[ *[0-9]+\] */, "") }
		$1 == ".init" { lo = strtonum("0x" $3) } $1 == ".text" { hi = strtonum("0x" $3) + 64 }
		END { for (a = lo; a < hi; a += 4) printf "%s%x", (a > lo ? "," : ""), a + b }'
}
# C++: the entries' names demangled as the other symbols are.
cat >"$tmp/plt.cpp" <<'CPP'
#include <iostream>
#include <string>
int main(int argc, char **argv)
{
	std::string s(argv[0]);

	s += "x";
	std::cout << s << std::endl;
	return (int)s.size() + argc;
}
CPP
for build in aarch64-linux-gnu-gcc:c gcc:c g++:cpp; do
	cc=${build%:*}
	if ! command -v "$cc" >/dev/null || ! "$cc" -O1 -o "$tmp/plt-$cc" "$tmp/plt.${build#*:}" 2>/dev/null; then
		tap_skip "PLT symbols of a $cc build" "$cc cannot build a program here"
		continue
	fi
	base=0x5555555a0000
	python3 "$gen" 800 --seed 12 --no-context --pcs "$(plt_pcs "$tmp/plt-$cc" $base)" >"$tmp/plt.bin"
	wrap -o "$tmp/plt.data" --mmap "$base:0x20000:0:$tmp/plt-$cc" "$tmp/plt.bin"
	cmpperf "a $cc build's PLT entries, .init and .text: perf script's symbols" "$tmp/plt.data" --
	if [ "$cc" = g++ ]; then
		check "g++ build: demangled entries (std::endl<char, std::char_traits<char> >@plt+0x4)" \
			'grep -q " std::endl<char, std::char_traits<char> >@plt+0x4 " "$tmp/s.out"'
	else
		check "$cc build: fgets@plt and its offsets named" \
			'(for f in fgets; do grep -q " $f@plt+0xc " "$tmp/s.out" || exit 1; done)'
	fi
done
tap_done
