# shellcheck shell=bash
# Running one test suite and counting its TAP lines, for the runners
# (scripts/run-tests.sh, scripts/check-debug.sh).  Sourced.
#
#   spe_suite_run NAME LOG COMMAND...
#       runs COMMAND (a suite, with its arguments) with its output in LOG,
#       prints "NAME  N passed, N failed, N skipped  (Ts)" and the suite's
#       failed lines, and adds the counts to spe_passed, spe_failed and
#       spe_skipped.  "not ok N - name # TODO reason" marks a known bug:
#       listed, counted as skipped, not as failed.  A suite that exits
#       non-zero without reporting a failure counts as one failed test, so
#       a crash is never silent.
#   spe_suite_summary
#       prints "N passed, N failed, N skipped" and returns non-zero when
#       anything failed
spe_passed=0 spe_failed=0 spe_skipped=0

spe_suite_run() {
	local name=$1 log=$2 start=$SECONDS rc p s t f
	shift 2
	"$@" >"$log" 2>&1
	rc=$?
	p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -cE '^ok [0-9]+.*# *SKIP' "$log" | tr -d ' ')
	t=$(grep -cE '^not ok [0-9]+.*# *TODO' "$log" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
	p=$((p - s)) f=$((f - t)) s=$((s + t))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc" >>"$log"
	fi
	printf '%-28s %4d passed, %3d failed, %3d skipped  (%ds)\n' \
		"$name" "$p" "$f" "$s" $((SECONDS - start))
	grep -E '^not ok' "$log" | sed 's/^/    /' | head -20
	if [ "$f" -gt 0 ]; then
		echo "    --- last lines of $log ---"
		tail -n 15 "$log" | sed 's/^/    /'
	fi
	spe_passed=$((spe_passed + p)) spe_failed=$((spe_failed + f)) spe_skipped=$((spe_skipped + s))
}

spe_suite_summary() {
	echo "$spe_passed passed, $spe_failed failed, $spe_skipped skipped"
	[ "$spe_failed" -eq 0 ]
}
