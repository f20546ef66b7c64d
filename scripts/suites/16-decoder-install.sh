#!/usr/bin/env bash
# The decoder installs like a tool: make install with PREFIX and DESTDIR
# puts spe-decode and spe-gen, libspe-decode (static, and shared with a
# versioned soname), its headers, spe-decode.pc, man pages and bash
# completion in place; a program builds against it with pkg-config, static
# and shared; the shared library exports exactly the functions of the
# installed headers, with the committed ABI, and nothing of the views
# (views/, the command's libspe-views.a), which lib/ neither includes nor
# calls; one version shows everywhere; make uninstall removes it all.
# The decoder also builds alone from its directory with user CFLAGS
# (which can turn -Werror off).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
prefix=/opt/spe

# Built into scratch directories, so the tree's own build is not touched.
# The decoder's own make install installs spe-gen too, as the top level's.
if make -s -j2 O="$tmp/bo" -C "$top/tools/spe-decode" DESTDIR="$dest" PREFIX=$prefix install \
	>"$tmp/install.log" 2>&1; then
	tap_ok "make install with DESTDIR and PREFIX"
else
	tap_fail "make install with DESTDIR and PREFIX" "$(tail -5 "$tmp/install.log")"
	tap_done
	exit 1
fi
root=$dest$prefix
missing=
for f in bin/spe-decode bin/spe-gen lib/libspe-decode.a lib/libspe-decode.so \
	 lib/libspe-decode.so.0 include/spe-decode/spe_decode.h \
	 include/spe-decode/spe_perf_data.h include/spe-decode/spe_perf_time.h \
	 include/spe-decode/spe_data_source.h include/spe-decode/spe_session.h \
	 include/spe-decode/spe_sample_synth.h include/spe-decode/spe_symbols.h \
	 include/spe-decode/spe_report.h include/spe-decode/spe_perf_recording.h \
	 include/spe-decode/spe_decode_version.h \
	 lib/pkgconfig/spe-decode.pc share/man/man1/spe-decode.1 \
	 share/man/man1/spe-decode-script.1 share/man/man1/spe-decode-report.1 \
	 share/man/man1/spe-decode-views.1 share/man/man1/spe-decode-c2c.1 \
	 share/man/man1/spe-decode-html.1 share/man/man1/spe-decode-pprof.1 \
	 share/bash-completion/completions/spe-decode; do
	[ -e "$root/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && tap_ok "every file is installed" || tap_fail "installed files" "missing:$missing"
soname=$(readelf -d "$root/lib/libspe-decode.so" 2>/dev/null | grep -oP 'SONAME.*\[\K[^]]+')
[ "$soname" = libspe-decode.so.0 ] && [ -f "$(readlink -f "$root/lib/libspe-decode.so")" ] &&
	tap_ok "shared library with a versioned soname ($soname -> $(readlink "$root/lib/libspe-decode.so.0"))" ||
	tap_fail "shared library soname (got '$soname')"
"$root/bin/spe-decode" --version | grep_q '^spe-decode [0-9]' &&
	tap_ok "the installed spe-decode runs" || tap_fail "the installed spe-decode runs"

# man: the pages render, spe-decode-script leads to the perf.data page and
# spe-decode-c2c to the views' page, whose sections are headings (txt2man
# reads a line in capitals at column 1 as one).
if command -v man >/dev/null; then
	MANPATH=$root/share/man man spe-decode 2>/dev/null | grep_q 'decode Arm Statistical Profiling' &&
	MANPATH=$root/share/man man spe-decode-script 2>/dev/null | grep_q 'spe-decode script' &&
		tap_ok "man spe-decode, man spe-decode-script" ||
		tap_fail "man spe-decode, man spe-decode-script"
	views=$(MANPATH=$root/share/man MANWIDTH=80 man spe-decode-c2c 2>/dev/null)
	for h in "REPORT --SORT" C2C HTML PPROF MEMORY THREADS; do
		grep -qx "$h" <<<"$views" || { views=; break; }
	done
	[ -n "$views" ] && grep_q 'Cache-line contention' <<<"$views" &&
		tap_ok "man spe-decode-c2c: the views' page, a section per view" ||
		tap_fail "man spe-decode-c2c: the views' page, a section per view"
else
	tap_skip "man pages render" "man not installed"
fi

# bash completion: commands, and a command's options from its --help.
comp=$(PATH=$root/bin:$PATH bash -c '
	. "$1"
	COMP_WORDS=(spe-decode scr); COMP_CWORD=1; _spe_decode; echo "${COMPREPLY[*]}"
	COMP_WORDS=(spe-decode script --it); COMP_CWORD=2; _spe_decode; echo "${COMPREPLY[*]}"
' _ "$root/share/bash-completion/completions/spe-decode")
[ "$comp" = $'script\n--itrace' ] && tap_ok "bash completion of commands and options" ||
	tap_fail "bash completion" "$comp"
# The filters, on every command that reads samples (from each --help).
comp=$(PATH=$root/bin:$PATH bash -c '
	. "$1"
	for c in script report c2c html pprof inject; do
		COMP_WORDS=(spe-decode $c --ds); COMP_CWORD=2; _spe_decode; echo "$c ${COMPREPLY[*]}"
		COMP_WORDS=(spe-decode $c --c); COMP_CWORD=2; _spe_decode; echo "$c ${COMPREPLY[*]}"
	done
' _ "$root/share/bash-completion/completions/spe-decode")
if [ "$(grep -c ' --dso --dsos$' <<<"$comp")" = 6 ] &&
   [ "$(grep -c -- ' --comm --comms' <<<"$comp")" = 6 ] && [ "$(grep -c -- ' --cpu' <<<"$comp")" = 6 ]; then
	tap_ok "bash completion of the filters (--dso(s), --comm(s), --cpu) on script, report, c2c, html, pprof, inject"
else
	tap_fail "bash completion of the filters" "$comp"
fi
# --perf-version's values, '=' split off as bash does by default, or not.
comp=$(PATH=$root/bin:$PATH bash -c '
	. "$1"
	COMP_WORDS=(spe-decode dump --perf-v); COMP_CWORD=2; _spe_decode; echo "${COMPREPLY[*]}"
	COMP_WORDS=(spe-decode dump --perf-version = 6); COMP_CWORD=4; _spe_decode; echo "${COMPREPLY[*]}"
	COMP_WORDS=(spe-decode dump --perf-version=7); COMP_CWORD=2; _spe_decode; echo "${COMPREPLY[*]}"
' _ "$root/share/bash-completion/completions/spe-decode")
[ "$comp" = $'--perf-version\n6.1 6.12\n--perf-version=7.3' ] &&
	tap_ok "bash completion of dump --perf-version and its values" ||
	tap_fail "bash completion of dump --perf-version" "$comp"
# ... not the tool's own name (the prose below its command list), and
# the values of --sort (after the keys already typed), --order and
# --unresolved.
comp=$(PATH=$root/bin:$PATH bash -c '
	. "$1"
	t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _spe_decode; echo "${COMPREPLY[*]}"; }
	t spe-decode ""
	t spe-decode report --sort sym,d
	t spe-decode report --sort sym --order p
	t spe-decode report --sort sym --order o
	t spe-decode c2c --order ""
	t spe-decode html --unresolved ""
' _ "$root/share/bash-completion/completions/spe-decode")
cmds=$(sed -n 1p <<<"$comp")
if grep -qw report <<<"$cmds" && ! grep -q "spe-decode" <<<"$cmds" &&
   [ "$(sed -n 2,6p <<<"$comp")" = $'sym,dso sym,data_src\np50 p90 p99\noverhead\ncost peer samples stores\npage address' ]; then
	tap_ok "bash completion: commands only, --sort keys after a comma, --order columns of report (overhead too) and c2c, --unresolved values"
else
	tap_fail "bash completion of commands, --sort and --order" "$comp"
fi

# A program built against the installation through pkg-config.
cat >"$tmp/hello.c" <<'EOF'
#include <stdio.h>
#include <spe_decode.h>

int main(void)
{
	/* One packet: an End packet (0x01) decodes to one record. */
	static const unsigned char end[] = { 0x01 };
	struct spe_decoder dec;
	struct spe_record rec;

	if (spe_decoder_init(&dec, NULL, end, sizeof(end), 0))
		return 1;
	printf("%d\n", spe_decoder_next(&dec, &rec));
	return 0;
}
EOF
export PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
flags=$(pkg-config --cflags --libs spe-decode 2>&1)
if [ $? -eq 0 ] && cc -std=c11 -o "$tmp/hello" "$tmp/hello.c" $flags 2>"$tmp/cc.log" &&
   out=$(LD_LIBRARY_PATH=$root/lib "$tmp/hello") && [ "$out" = 1 ] &&
   LD_LIBRARY_PATH=$root/lib ldd "$tmp/hello" | grep_q "libspe-decode.so.0 => $root/lib"; then
	tap_ok "a program builds and runs against the shared library (pkg-config --cflags --libs spe-decode)"
else
	tap_fail "a program builds against pkg-config spe-decode" "$flags" "$(cat "$tmp/cc.log" 2>/dev/null)"
fi
if cc -std=c11 -o "$tmp/hello-static" "$tmp/hello.c" $(pkg-config --cflags spe-decode) \
	"$root/lib/libspe-decode.a" $(pkg-config --static --libs-only-l spe-decode | sed 's/-lspe-decode//') \
	2>"$tmp/cc.log" && [ "$("$tmp/hello-static")" = 1 ] &&
   ! ldd "$tmp/hello-static" | grep_q libspe-decode; then
	tap_ok "a program links the static library (pkg-config --static for its dependencies)"
else
	tap_fail "a program links the static library" "$(cat "$tmp/cc.log")"
fi

# The shared library's API is its installed headers: it exports exactly the
# functions they declare (gcc -aux-info lists every declaration with its
# file; static inline helpers are not exports), all in the version node
# SPE_DECODE_0, and nothing else: no internal function, no libiberty data.
for h in "$root"/include/spe-decode/*.h; do echo "#include <${h##*/}>"; done >"$tmp/api.c"
declared=$(gcc -std=c11 -fsyntax-only -I"$root/include/spe-decode" -aux-info "$tmp/api.X" "$tmp/api.c" \
	2>"$tmp/api.log" &&
	grep -F "/* $root/include/spe-decode/" "$tmp/api.X" | sed -E 's|^/\*[^*]*\*/ ||' |
	grep -v '^static ' | sed -nE 's/^extern [^(]*[ *]([A-Za-z_0-9]+) \(.*/\1/p' | sort -u)
dynsyms=$(nm -D --defined-only "$root/lib/libspe-decode.so" | awk '$2 != "A" { print $3 }' | sort -u)
exported=$(sed 's/@.*//' <<<"$dynsyms" | sort -u)
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
absent=$(comm -23 <(echo "$declared") <(echo "$exported"))
unversioned=$(grep -v '@@SPE_DECODE_0$' <<<"$dynsyms")
if [ "$(wc -l <<<"$declared")" -ge 100 ] && [ -z "$extra$absent$unversioned" ]; then
	tap_ok "libspe-decode.so exports exactly the $(wc -l <<<"$exported") functions of its headers, in SPE_DECODE_0"
else
	tap_fail "libspe-decode.so exports exactly the functions of its headers" \
		"declared: $(wc -l <<<"$declared") $(head -3 "$tmp/api.log")" \
		"exported, not declared:" "$extra" "declared, not exported:" "$absent" \
		"not in SPE_DECODE_0:" "$unversioned"
fi

# The views (cost tables, c2c, the HTML page, source lines, the
# golden-vector encoder) are the command's, in views/ and libspe-views.a:
# no file of lib/ includes a views header, no object of the library
# refers to a function of the views (lib/ never calls back into them), and
# the shared library defines none.
spe_dir=$top/tools/spe-decode
views_h=$(cd "$spe_dir/views" && ls -- *.h | paste -sd'|')
includes=$(grep -HnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]([^\">]*/)?($views_h)[\">]" \
	"$spe_dir"/lib/*.[ch])
views_fn=$(nm --defined-only "$tmp/bo/libspe-views.a" 2>/dev/null | awk '$2 ~ /^[TDRB]$/ { print $3 }' | sort -u)
calls=$(comm -12 <(echo "$views_fn") \
	<(nm --undefined-only "$root/lib/libspe-decode.a" | awk '{ print $2 }' | sort -u))
defines=$(comm -12 <(echo "$views_fn") <(sed 's/@.*//' <<<"$dynsyms" | sort -u))
if [ -n "$views_h" ] && [ "$(wc -l <<<"$views_fn")" -ge 50 ] && [ -z "$includes$calls$defines" ]; then
	tap_ok "lib/ includes no views header, calls none of the $(wc -l <<<"$views_fn") views functions, and libspe-decode.so defines none"
else
	tap_fail "the views stay out of the library" "views headers: $views_h" \
		"views functions in libspe-views.a: $(wc -l <<<"$views_fn")" \
		"lib/ includes:" "$includes" "lib/ calls:" "$calls" "the .so defines:" "$defines"
fi

# The installed library's ABI (its functions and every type of the
# installed headers they reach) is the committed baseline: abidiff fails
# on any change, compatible or not, until make abi-update records it.
baseline=$top/tools/spe-decode/abi/$soname.abi
if ! command -v abidiff >/dev/null; then
	tap_skip "libspe-decode.so's ABI is abi/$soname.abi" "abidiff missing (make -C tools/spe-decode deps)"
elif abidiff --headers-dir2 "$root/include/spe-decode" "$baseline" "$root/lib/libspe-decode.so" \
	>"$tmp/abi.log" 2>&1; then
	tap_ok "libspe-decode.so's ABI is abi/$soname.abi (abidiff)"
else
	tap_fail "libspe-decode.so's ABI is abi/$soname.abi (abidiff; after a deliberate change, make abi-update)" \
		"$(head -40 "$tmp/abi.log")"
fi

# Every public function links statically with pkg-config --static's
# libraries alone: spe-decode.pc's Libs.private is whole.
{
	echo "#include <stdio.h>"
	cat "$tmp/api.c"
	echo "typedef void (*fn)(void);"
	echo "static const fn api[] = {"
	sed 's/.*/\t(fn)&,/' <<<"$declared"
	echo "};"
	echo 'int main(void) { printf("%zu\n", sizeof(api) / sizeof(api[0])); return 0; }'
} >"$tmp/every.c"
if cc -std=c11 -o "$tmp/every" "$tmp/every.c" $(pkg-config --cflags spe-decode) "$root/lib/libspe-decode.a" \
	$(pkg-config --static --libs-only-l --libs-only-other spe-decode | sed 's/-lspe-decode//') \
	2>"$tmp/every.log" && [ "$("$tmp/every")" = "$(wc -l <<<"$declared")" ]; then
	tap_ok "every public function links statically with pkg-config --static's libraries"
else
	tap_fail "every public function links statically with pkg-config --static's libraries" \
		"$(head -5 "$tmp/every.log")"
fi

# One version everywhere: the header's macros, spe_decode_version() of the
# shared library, spe-decode.pc, spe-decode --version and the soname.
cat >"$tmp/version.c" <<'EOF'
#include <stdio.h>
#include <spe_decode.h>

int main(void)
{
	const struct spe_decode_version_info *v = spe_decode_version();

	printf("%d.%d.%d %u.%u.%u %s\n", SPE_DECODE_VERSION_MAJOR, SPE_DECODE_VERSION_MINOR,
	       SPE_DECODE_VERSION_PATCH, v->major, v->minor, v->patch, v->string);
	return 0;
}
EOF
pcver=$(pkg-config --modversion spe-decode 2>/dev/null)
if cc -std=c11 -o "$tmp/version" "$tmp/version.c" $(pkg-config --cflags --libs spe-decode) 2>"$tmp/cc.log" &&
   [ "$(LD_LIBRARY_PATH=$root/lib "$tmp/version")" = "$pcver $pcver $pcver" ] &&
   [ "$("$root/bin/spe-decode" --version)" = "spe-decode $pcver" ] &&
   [ "$soname" = "libspe-decode.so.${pcver%%.*}" ]; then
	tap_ok "one version ($pcver): header macros, spe_decode_version(), spe-decode.pc, --version, soname"
else
	tap_fail "one version in the header, the library, spe-decode.pc, --version and the soname" \
		"pc: $pcver; program: $(LD_LIBRARY_PATH=$root/lib "$tmp/version" 2>&1); soname: $soname" \
		"$("$root/bin/spe-decode" --version)" "$(cat "$tmp/cc.log")"
fi

make -s -C "$top/tools/spe-decode" O="$tmp/bo" DESTDIR="$dest" PREFIX=$prefix uninstall >/dev/null 2>&1
left=$(find "$dest" -type f -o -type l)
[ -z "$left" ] && tap_ok "make uninstall removes every file" || tap_fail "make uninstall" "$left"

# User CFLAGS come last: a warning made an error by -Werror is turned back.
if make -s -C "$top/tools/spe-decode" O="$tmp/w1" CFLAGS="-O1 -Wshadow=global -Wno-error" \
	>"$tmp/w.log" 2>&1 && [ -x "$tmp/w1/spe-decode" ]; then
	tap_ok "user CFLAGS are applied after the project's (-Wno-error overrides -Werror)"
else
	tap_fail "user CFLAGS override -Werror" "$(tail -3 "$tmp/w.log")"
fi
grep -q 'decoder alone' "$top/README.md" && grep -q 'make -C tools/spe-decode' "$top/README.md" &&
	tap_ok "README documents building the decoder alone" || tap_fail "README: building the decoder alone"
# Its deps are the decoder's list only: no QEMU, no cross compiler.
if grep -q 'deps.sh decoder' "$top/tools/spe-decode/Makefile" &&
   ! grep -qE 'qemu|aarch64|clang' "$top/scripts/deps/decoder.list"; then
	tap_ok "make -C tools/spe-decode deps installs the decoder's packages only"
else
	tap_fail "make -C tools/spe-decode deps installs the decoder's packages only"
fi
tap_done
