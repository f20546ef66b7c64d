# shellcheck shell=bash
# What the perf.data suites (scripts/suites/19-25) share.  Sourced after
# setting $top; gives:
#   tmp                      a temporary directory, removed at exit
#   ok NAME / nok NAME       one TAP result (numbered in $n)
#   skip NAME REASON         a skipped one
#   check NAME 'SHELL-TEST'  ok when the test (eval'ed) succeeds
#   same NAME A B            ok when file A is non-empty and equals B; else
#                            the first lines of the difference
#   suite_plan               the closing "1..N"
tmp=$(mktemp -d)
# shellcheck disable=SC2064 # expand now: the path is fixed
trap "rm -rf '$tmp'" EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then ok "$1 ($(wc -l <"$2") lines)"; else
		nok "$1"; diff "$2" "$3" | head -6 | sed 's/^/# /'; fi
}
suite_plan() { echo "1..$n"; }
