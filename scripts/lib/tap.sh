# shellcheck shell=bash
# TAP output for shell test suites (scripts/suites/*.sh).  Sourced.
#
#   tap_ok NAME / tap_fail NAME [DETAIL...] / tap_skip NAME REASON
#   tap_todo NAME REASON [DETAIL...]   a known bug, tracked elsewhere: TAP's
#                             "not ok ... # TODO", which is not a failure
#   tap_check NAME CMD...     ok when CMD succeeds; on failure its output is shown
#   tap_done                  prints the plan, returns non-zero if anything failed
tap_n=0
tap_failed=0

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

tap_fail() {
	local name=$1
	shift
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $name"
	[ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/#   /'
}

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

tap_todo() {
	local name=$1 reason=$2
	shift 2
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $name # TODO $reason"
	[ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/#   /'
}

tap_check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$name"
	else
		tap_fail "$name" "$(tail -n 20 <<<"$out")"
	fi
}

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
