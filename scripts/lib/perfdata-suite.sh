# shellcheck shell=bash
# What the perf.data suites (scripts/suites/19-25) share.  Sourced after
# setting $top; brings scripts/lib/tap.sh and gives:
#   tmp                      a temporary directory, removed at exit
#   check NAME 'SHELL-TEST'  ok when the test (eval'ed) succeeds
#   same NAME A B            ok when file A is non-empty and equals B; else
#                            the first lines of the difference
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
tmp=$(mktemp -d)
# shellcheck disable=SC2064 # expand now: the path is fixed
trap "rm -rf '$tmp'" EXIT
check() { if eval "$2"; then tap_ok "$1"; else tap_fail "$1"; fi; }
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		tap_ok "$1 ($(wc -l <"$2") lines)"
	else
		tap_fail "$1" "$(diff "$2" "$3" | head -6)"
	fi
}
