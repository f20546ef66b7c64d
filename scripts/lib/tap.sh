# shellcheck shell=bash
# TAP output for shell test suites (scripts/suites/*.sh).  Sourced.
#
#   tap_ok NAME / tap_fail NAME [DETAIL...] / tap_skip NAME REASON
#   tap_todo NAME REASON [DETAIL...]   a known bug, tracked elsewhere: TAP's
#                             "not ok ... # TODO", which is not a failure
#   tap_check NAME CMD...     ok when CMD succeeds; on failure its output is shown
#   tap_status STATUS NAME [DETAIL...]
#                             ok when STATUS (a command's exit status) is 0
#   tap_sub PREFIX CMD...     runs CMD, a program printing TAP (a C unit test,
#                             another suite), and numbers its results in this
#                             suite's sequence as "PREFIX: name"; returns its
#                             exit status
#   tap_done                  prints the plan, returns non-zero if anything failed
#   CMD | grep_q ARGS...      grep -q that reads its input to the end (below)
#
# Every suite prints its results through these functions only, so the
# numbering and the plan that scripts/run-tests.sh counts are made in one
# place.
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

tap_status() {
	local st=$1 name=$2
	shift 2
	if [ "$st" -eq 0 ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "$@"
	fi
}

# tap_sub keeps each result's SKIP or TODO directive, drops the program's
# plan and shows every other line it prints as a comment (so no stray line
# can be counted as a result).  A program that crashes, stops short of its
# plan or exits non-zero without a failing result adds one failure, so it
# can never pass by printing nothing.
tap_sub() {
	local prefix=$1 line desc st='' plan='' results=0 fails=0
	shift
	while IFS= read -r line; do
		if [[ $line =~ ^tap_sub\ exit\ ([0-9]+)$ ]]; then
			st=${BASH_REMATCH[1]}
		elif [[ $line =~ ^(not\ )?ok(\ +[0-9]+)?(\ +-)?(\ +(.*))?$ ]]; then
			results=$((results + 1))
			desc=${prefix:+$prefix: }${BASH_REMATCH[5]}
			tap_n=$((tap_n + 1))
			if [ -z "${BASH_REMATCH[1]}" ]; then
				echo "ok $tap_n - $desc"
			else
				echo "not ok $tap_n - $desc"
				[[ $desc =~ \#\ *TODO ]] || { fails=$((fails + 1)); tap_failed=$((tap_failed + 1)); }
			fi
		elif [[ $line =~ ^1\.\.([0-9]+) ]]; then
			plan=${BASH_REMATCH[1]}
		elif [[ $line =~ ^# ]]; then
			echo "$line"
		elif [ -n "$line" ]; then
			echo "# $line"
		fi
	# The newline ends a line a crashing program left unfinished, which
	# would otherwise swallow the exit line.
	done < <("$@"; st=$?; echo; echo "tap_sub exit $st")
	if [ -z "$plan" ]; then
		tap_fail "${prefix:+$prefix: }ran to completion (no plan; exit ${st:-?})"
	elif [ "$plan" -ne "$results" ]; then
		tap_fail "${prefix:+$prefix: }ran the $plan planned tests (got $results; exit ${st:-?})"
	elif [ "${st:-1}" -ne 0 ] && [ "$fails" -eq 0 ]; then
		tap_fail "${prefix:+$prefix: }exits 0 (got ${st:-?})"
	fi
	return "${st:-1}"
}

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# grep -q exits at its first match.  Under pipefail, a writer still writing
# then dies of SIGPIPE and the pipeline fails although the line was found:
# a test that fails now and then depending on who is scheduled first.
# grep_q drains the rest of its input, so only the match decides.
grep_q() {
	local rc
	grep -q "$@"
	rc=$?
	cat >/dev/null
	return $rc
}
