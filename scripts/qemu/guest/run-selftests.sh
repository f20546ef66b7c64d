# shellcheck shell=dash
# Guest script: run every selftest program $SELFTESTS/test_* (TAP on
# stdout, exit 0 pass / 1 fail / 4 skip) with a time limit; keep each one's
# TAP output and exit status in $RESULTS/selftests/<name>.tap and .rc.
# Other programs there are helpers (workloads), not tests.
# Modules given with --load are loaded before this runs (init.sh).
mkdir -p "$RESULTS/selftests"
for t in "$SELFTESTS"/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	echo "selftest: $name"
	timeout 60 "$t" >"$RESULTS/selftests/$name.tap" 2>&1
	echo $? >"$RESULTS/selftests/$name.rc"
	cat "$RESULTS/selftests/$name.tap"
done
