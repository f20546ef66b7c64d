# shellcheck shell=bash
# What the spe-decode suites of the views and threads (15, 26-29) share.
# Sourced after tap.sh; expects $top.
#
#   spe_views_setup [tests]  sets bld, spe, gen, views and tmp (removed at
#                            exit) and builds the decoder, with its unit
#                            tests when given "tests"; a failed build is a
#                            failed test and ends the suite
#   spe_views_elf            copies the test_symbols unit test (symbols and
#                            DWARF) to $elf, the program the records run in
#   spe_views_pcs_all        prints a PC 4 bytes into each function of $elf
#                            as mapped at 0x10000000 (comma-separated hex)
#   spe_views_pcs_named      the same, 8 bytes into six named functions
#   spe_views_unresolved     writes $tmp/un.data: 20,000 records of code
#                            without symbols, user PCs in the 8 pages of a
#                            file mapped without symbols ($tmp/blob), kernel
#                            PCs in 2 pages (give --kallsyms /dev/null), and
#                            $tmp/un.ips, the distinct PCs recorded (hex)
#   spe_views_output_checks VIEW OUT DATA
#                            the -o promises of a view that writes a file
#                            (html, pprof), as TAP; OUT is a name in $tmp
spe_views_setup() {
	bld="$top/build/spe-decode"
	spe="$bld/spe-decode"
	gen="$top/tools/spe-decode/tests/perfdata/gen_mixed.py"
	views="$top/tools/spe-decode/tests/views"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	make -s -C "$top/tools/spe-decode" -j2 ${1:+"$1"} >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log"; tap_fail "build"; tap_done; exit 1; }
}

spe_views_elf() {
	elf="$tmp/prog"
	cp "$bld/tests/test_symbols" "$elf"
}

spe_views_pcs_all() {
	nm "$elf" | python3 -c '
import sys
print(",".join("%x" % (int(l.split()[0], 16) + 0x10000000 + 4)
               for l in sys.stdin if len(l.split()) == 3 and l.split()[1] in "tT"))'
}

spe_views_pcs_named() {
	nm "$elf" | python3 -c '
import sys
want = ["spe_symbols_new", "spe_symbols_free", "spe_symbols_event", "spe_symbols_comm",
        "spe_symbols_lookup", "feed"]
syms = {l.split()[2]: int(l.split()[0], 16) for l in sys.stdin if len(l.split()) == 3}
print(",".join("%x" % (syms[w] + 0x10000000 + 8) for w in want))'
}

spe_views_unresolved() {
	local upcs kpcs
	head -c 65536 /dev/zero >"$tmp/blob"	# not an ELF file: no symbols
	upcs=$(python3 -c 'import random; r = random.Random(5)
print(",".join("%x" % (0x10000000 + 4 * i) for i in r.sample(range(8192), 2000)))')
	kpcs=$(python3 -c 'import random; r = random.Random(6)
print(",".join("%x" % (0xffff800008010000 + 4 * i) for i in r.sample(range(2048), 400)))')
	python3 "$gen" 20000 --seed 11 --no-context --pcs "$upcs" --kpcs "$kpcs" >"$tmp/un.bin"
	"$spe" wrap -o "$tmp/un.data" --per-thread --pid 77 --tid 77 --comm prog \
		--mmap "0x10000000:0x10000:0:$tmp/blob" "$tmp/un.bin"
	# script's samples, every record once, are the PCs recorded
	"$spe" script --itrace=i1i -F ip "$tmp/un.data" | awk '{print $1}' | sort -u >"$tmp/un.ips"
}

# What a view writing a file promises of its -o: the file follows the
# umask, as perf's reports do (a perf.data is 0600); an output that is the
# input is refused as inject refuses it, a failed run (1), not a usage
# error (2), with the input untouched; an output that cannot be created is
# exit 1 too, naming it.
spe_views_output_checks() {
	local view=$1 out=$2 data=$3 modes rc irc u
	modes=$(for u in 022 027; do
		(umask $u && "$spe" "$view" -o "$tmp/$out" "$data" 2>/dev/null && stat -c %a "$tmp/$out")
		rm -f "$tmp/$out"
	done | tr '\n' ' ')
	[ "$modes" = "644 640 " ] && tap_ok "the output follows the umask (022: 644, 027: 640)" ||
		tap_fail "output mode" "umask 022 and 027 gave: $modes"
	cp "$data" "$tmp/keep.data"
	"$spe" "$view" -o "$data" "$data" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && cmp -s "$data" "$tmp/keep.data" && grep -q "input" "$tmp/err" &&
		tap_ok "-o the input is refused (exit 1, as inject) and the input is untouched" ||
		tap_fail "-o the input" "exit $rc" "$(cat "$tmp/err")"
	"$spe" "$view" -o "$tmp/no/such/dir/$out" "$data" 2>"$tmp/err"
	rc=$?
	"$spe" inject -o "$tmp/no/such/dir/i.data" "$data" 2>/dev/null
	irc=$?
	[ $rc -eq 1 ] && [ $irc -eq 1 ] && grep -q "no/such/dir" "$tmp/err" &&
		tap_ok "an output that cannot be created: exit 1, as inject, naming it" ||
		tap_fail "unwritable output" "exit $rc" "$(cat "$tmp/err")"
}
