# shellcheck shell=bash
# Judging a guest run's results (scripts/qemu/run-guest.sh --out DIR).
#
# What makes a guest's kernel log fail its suite: any warning, BUG, oops,
# lockdep or sanitizer report, hung task or list corruption, whoever's code
# it points into.  There is no allowed warning and no TAP TODO for one
# (Documentation/dev-tools/arm-spe-sim.rst, "Known issues").  Sourced after tap.sh.
#
#   spe_kernel_log_bad FILE      prints the offending lines of FILE
#   spe_kernel_log_tap NAME DIR  one TAP test: the kernel log of the guest
#                                run in DIR is clean; it reads results/
#                                dmesg.txt, or console.log when the guest
#                                died before writing it (a panic)
#   spe_guest_came_back NAME DIR [WHAT]
#                                the guest run in DIR (its log DIR.log) left
#                                results: print its wall time and return 0;
#                                else one failed TAP test "NAME: WHAT and
#                                results come back" (WHAT: "guest boots")
#                                and return 1
#   spe_taint_tap NAME DIR       one TAP test: the guest's kernel was tainted
#                                by nothing but out-of-tree (O, 4096) and
#                                unsigned (E, 8192) modules: results/tainted
#   spe_result_is NAME DIR FILE EXPECTED
#                                one TAP test: the guest run in DIR left
#                                results/FILE holding exactly EXPECTED
spe_kernel_log_pattern='WARNING:|BUG:|Oops|Internal error:|Unable to handle|Call trace:|Kernel panic|lockdep is turned off|INFO: possible|suspicious RCU usage|MAX_LOCKDEP[A-Z_]* too low|possible circular locking|possible recursive locking|inconsistent lock state|scheduling while atomic|refcount_t:|list_add corruption|list_del corruption|KASAN:|UBSAN:|blocked for more than|cannot create duplicate|Objects remaining|Poison overwritten|Redzone|undefined instruction|Unknown exception|ODEBUG:|suspected memory leak|KCSAN:'

# Kernel lines only ("[ seconds] ..."): a console also carries the guest's
# programs' output, and perf prints "WARNING: ..." of its own.
spe_kernel_log_bad() {
	grep -E '^\[ *[0-9]+\.[0-9]+\]' "$1" 2>/dev/null | grep -E "$spe_kernel_log_pattern"
}

spe_kernel_log_tap() {
	local name=$1 dir=$2 log bad
	log=$dir/results/dmesg.txt
	[ -s "$log" ] || log=$dir/console.log
	if [ ! -s "$log" ]; then
		tap_fail "$name: kernel log has no warning, BUG, oops or lockdep report" \
			"no kernel log came back from $dir"
		return
	fi
	bad=$(spe_kernel_log_bad "$log")
	if [ -z "$bad" ]; then
		tap_ok "$name: kernel log has no warning, BUG, oops or lockdep report"
	else
		tap_fail "$name: kernel log has no warning, BUG, oops or lockdep report" \
			"$(head -n 20 <<<"$bad")" "(full log: $log)"
	fi
}

spe_guest_came_back() {
	if [ ! -s "$2/results/script.rc" ]; then
		tap_fail "$1: ${3:-guest boots} and results come back" "$(tail -n 8 "$2.log")"
		return 1
	fi
	# shellcheck disable=SC1091,SC2154
	(. "$2/summary"; echo "# $1: ${wall_seconds}s wall")
}

spe_taint_tap() {
	local what="${1:+$1: }kernel taint only out-of-tree/unsigned" t
	t=$(cat "$2/results/tainted" 2>/dev/null)
	if [[ $t =~ ^[0-9]+$ ]] && [ $((t & ~(4096 | 8192))) -eq 0 ]; then
		tap_ok "$what ($t)"
	else
		tap_fail "$what" "tainted=${t:-(missing)}"
	fi
}

spe_result_is() {
	local got
	got=$(cat "$2/results/$3" 2>/dev/null || echo "(missing)")
	if [ "$got" = "$4" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "$3: expected '$4', got '$got'"
	fi
}
