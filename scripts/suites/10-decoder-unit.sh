#!/usr/bin/env bash
# Decoder unit tests (tools/spe-decode/tests/test_*.c, one per library
# source), the mutation tool's unit tests, and the CLI's behaviour on bad
# usage and bad input.
#
# SAN=1 runs the same against the ASan+UBSan build (used by suite 14).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib-decoder.sh"
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
san=${SAN:-0}
decoder_build "$san" || { tap_fail "spe-decode and its tests build (SAN=$san)"; tap_done; exit 1; }
if [ "$san" = 1 ]; then
	out=$top/build/spe-decode-san
else
	out=$top/build/spe-decode
fi
bin=$out/spe-decode

# Unit-test programs of the decoder layers (the perf.data layers have
# their own suite): re-number their TAP lines into this suite.
for prog in test_packet test_record test_record_window test_packet_print test_dump test_vector test_error test_grow \
	    test_sink_printf test_line_format test_struct_format test_output_thread test_wrap_topology \
	    test_event_desc; do
	tap_sub "$prog" "$out/tests/$prog"
done

# A unit-test program no suite runs would pass silently forever: every
# tests/test_*.c must be named by a suite (this one runs the decoder's,
# suite 20 the perf.data layers').
for src in "$top"/tools/spe-decode/tests/test_*.c; do
	prog=$(basename "$src" .c)
	grep -qE "(^|[^a-z_])(test_)?${prog#test_}([^a-z_]|$)" \
		"$top/scripts/suites/10-decoder-unit.sh" "$top/scripts/suites/20-perfdata-units-writer.sh"
	tap_status $? "$prog is run by a suite"
done

# The mutation tool's generator and layers (scripts/mutate.sh, which
# judges these tests): no mutants of compile-time assertions, every file
# of lib/ and cli/ in a layer, a sample's seed printed and repeatable.
# Python only, so not again in the sanitizer build.
if [ "$san" = 0 ]; then
	tap_sub mutate python3 "$top/scripts/mutate/test_mutate.py"
fi

# CLI behaviour.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cmd in dump records encode wrap script report inject; do
	"$bin" "$cmd" --help >"$tmp/help" 2>&1
	rc=$?
	grep -q "usage: spe-decode $cmd" "$tmp/help"
	tap_status $((rc | $?)) "spe-decode $cmd --help prints its usage and exits 0"
	"$bin" "$cmd" --bogus x >/dev/null 2>"$tmp/err"
	rc=$?
	grep -q "usage: spe-decode $cmd" "$tmp/err"
	tap_status $(( (rc == 2 ? 0 : 1) | $? )) "spe-decode $cmd: an unknown option is a usage error (exit 2, usage on stderr)"
	# No input: perf.data, as perf (there is none in the empty directory).
	if [ "$cmd" = inject ] || [ "$cmd" = encode ] || [ "$cmd" = wrap ]; then
		(cd "$tmp" && "$bin" "$cmd" >/dev/null 2>&1)
		tap_status $(($? == 2 ? 0 : 1)) "spe-decode $cmd: no input or output is a usage error (exit 2)"
	else
		mkdir -p "$tmp/empty"
		(cd "$tmp/empty" && "$bin" "$cmd" >/dev/null 2>"$tmp/err")
		rc=$?
		grep -q "spe-decode $cmd: perf.data: No such file" "$tmp/err"
		tap_status $(( (rc == 1 ? 0 : 1) | $? )) "spe-decode $cmd: no input reads perf.data, as perf"
	fi
done
# Every command's --help text, and the messages and exit statuses of a set
# of bad command lines, as recorded (scripts/lib/cli-usage.sh): a command
# that loses one of its options, or takes one it should not, or changes a
# message, fails here.
"$top/scripts/lib/cli-usage.sh" "$bin" "$top/tools/spe-decode/tests/cli/usage-invocations.txt" \
	>"$tmp/transcript" 2>&1
diff -u "$top/tools/spe-decode/tests/cli/usage-transcript.txt" "$tmp/transcript" >"$tmp/diff"
tap_status $? "the commands' --help texts and usage errors are as recorded (tests/cli/usage-transcript.txt)" \
	"$(head -n 40 "$tmp/diff")"
# dump --perf-version: a release it does not know, or with --full (two
# texts at once), is a usage error naming the problem.
printf '\x48\x06' >"$tmp/op.bin"
"$bin" dump --perf-version=7 "$tmp/op.bin" >/dev/null 2>"$tmp/err"
rc=$?
grep -q "^spe-decode dump: --perf-version: '7' is not 6.1, 6.12 or 7.3" "$tmp/err"
tap_status $(( (rc == 2 ? 0 : 1) | $? )) "spe-decode dump --perf-version=7: not a release it follows (exit 2)"
"$bin" dump --full --perf-version=7.3 "$tmp/op.bin" >/dev/null 2>"$tmp/err"
rc=$?
grep -q "^spe-decode dump: --full and --perf-version" "$tmp/err"
tap_status $(( (rc == 2 ? 0 : 1) | $? )) "spe-decode dump: --full with --perf-version is a usage error (exit 2)"
# The text differs by release: perf 7.3 names ASE and FP of an "other".
[ "$("$bin" dump --perf-version=7.3 "$tmp/op.bin" | cut -c 63-)" = "OTHER ASE FP INSN-OTHER" ] &&
	[ "$("$bin" dump --perf-version=6.1 "$tmp/op.bin" | cut -c 63-)" = "OTHER INSN-OTHER" ]
tap_status $? "spe-decode dump --perf-version=7.3 / 6.1: each release's text"
for cmd in script report; do
	"$bin" "$cmd" -i a.data b.data >/dev/null 2>&1
	tap_status $(($? == 2 ? 0 : 1)) "spe-decode $cmd: -i and an operand are two inputs, a usage error"
done
"$bin" records "$tmp/missing.bin" >/dev/null 2>"$tmp/err"
rc=$?
grep -q "missing.bin: No such file" "$tmp/err"
tap_status $(( (rc == 1 ? 0 : 1) | $? )) "a missing input file is named in the error, exit 1"
"$bin" dump "$tmp" >/dev/null 2>"$tmp/err"
rc=$?
grep -q "is a directory" "$tmp/err"
tap_status $(( (rc == 1 ? 0 : 1) | $? )) "a directory as input is refused with a clear message"
: >"$tmp/empty.bin"
"$bin" records "$tmp/empty.bin" >"$tmp/out" 2>&1
tap_status $(( $? | $(wc -c <"$tmp/out") )) "an empty input decodes to nothing, exit 0"
printf 'pc 0x400000 el=0 ns=1\nend\npc 0x400004 el=0 ns=1\nraw 0x71 1 2\n' >"$tmp/cut.vec"
"$bin" encode -o "$tmp/cut.bin" "$tmp/cut.vec"
"$bin" records "$tmp/cut.bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -q "^0x00000000 size=10 end=end" "$tmp/out" && grep -q "end=truncated" "$tmp/out" &&
	grep -q "first at offset 0x13: truncated" "$tmp/err"
tap_status $(( (rc == 1 ? 0 : 1) | $? )) "a truncated file: records printed before it are kept, the error names the offset, exit 1"
"$bin" dump --strict "$tmp/cut.bin" >"$tmp/out" 2>/dev/null
tap_status $(( $? == 1 ? 0 : 1 )) "dump --strict exits 1 on a truncated packet"
"$bin" records --count "$tmp/cut.bin" >"$tmp/out" 2>/dev/null
grep -q "^records 1 errors 1 bytes 22$" "$tmp/out"
tap_status $? "records --count counts records, errors and bytes"
printf 'pc 0x400000 el=9\n' >"$tmp/bad.vec"
"$bin" encode -o "$tmp/bad.bin" "$tmp/bad.vec" 2>"$tmp/err"
rc=$?
grep -q "bad.vec:1: syntax error" "$tmp/err"
tap_status $(( (rc == 1 ? 0 : 1) | $? )) "encode names the file and line of a syntax error"
"$bin" dump /dev/null >/dev/null 2>"$tmp/err"
tap_status $(( $? == 1 ? 0 : 1 )) "a non-regular input (device) is refused"

tap_done
