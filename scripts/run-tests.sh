#!/usr/bin/env bash
# Run every test suite and print one summary line.
#
# A suite is an executable scripts/suites/NN-name.sh that prints TAP lines
# ("ok N - name", "not ok N - name", "ok N - name # SKIP reason").  Each
# suite's output is kept in build/test-logs/.  "not ok N - name # TODO
# reason" marks a known bug: listed, counted as skipped, not as failed.  A suite that exits non-zero
# without reporting a failure counts as one failed test, so a crash is never
# silent.  The last line is "N passed, N failed, N skipped".
#
# Usage: scripts/run-tests.sh [suite-name-substring ...]
set -uo pipefail
shopt -s extglob
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/suite-run.sh
. "$top/scripts/lib/suite-run.sh"
logdir="$top/build/test-logs"
mkdir -p "$logdir"

# selected NAME [FILTER...]: is the suite NAME one the filters select?
selected() {
	local name=$1 s
	shift
	[ $# -eq 0 ] && return 0
	for s in "$@"; do [[ $name == *"$s"* ]] && return 0; done
	return 1
}

# The guest suites boot QEMU with our FEAT_SPE patches, whose first build
# takes 7 minutes on a 2-core machine.  It starts here, in the background
# at the lowest priority, so it uses what the host suites leave of the
# CPUs; scripts/fetch-qemu.sh holds a lock, so the first guest suite that
# needs it waits for this build and then finds it done.  A build that
# fails here is tried again, and reported, by that suite.
shopt -s nullglob
for suite in "$top"/scripts/suites/*.sh; do
	name=$(basename "$suite" .sh)
	if [[ $name == [5-9]*-@(guest|qemu)-* ]] && selected "$name" "$@"; then
		nohup nice -n 19 "$top/scripts/fetch-qemu.sh" </dev/null \
			>"$logdir/qemu-prefetch.log" 2>&1 &
		break
	fi
done

# Each suite runs from the top of the tree.
run_suite() {
	(cd "$top" && bash "$1")
}

for suite in "$top"/scripts/suites/*.sh; do
	name=$(basename "$suite" .sh)
	selected "$name" "$@" || continue
	spe_suite_run "$name" "$logdir/$name.log" run_suite "$suite"
done
spe_suite_summary
