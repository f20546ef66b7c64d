#!/usr/bin/env bash
# The command-line transcript of spe-decode's usage errors: every line of
# INVOCATIONS (arguments split at blanks; '#' lines are comments) run in an
# empty directory, with its stdout, stderr and exit status.  A command's
# usage text, printed by --help, stands as "<usage of CMD>" where a bad
# invocation repeats it on stderr, so the transcript stays readable.
#
#   scripts/lib/cli-usage.sh SPE_DECODE INVOCATIONS
#
# Suite 10 compares it with tools/spe-decode/tests/cli/usage-transcript.txt:
# a command that loses an option, or changes a message, an exit status or
# its --help text, changes the transcript.  After a deliberate change:
#   scripts/lib/cli-usage.sh build/spe-decode/spe-decode \
#       tools/spe-decode/tests/cli/usage-invocations.txt \
#       >tools/spe-decode/tests/cli/usage-transcript.txt
set -uo pipefail
bin=$(realpath "$1")
list=$(realpath "$2")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/cwd"
cd "$dir/cwd" || exit 1

# $1's text without $2's at its end, then "<usage of $3>"; else all of $1.
show() {
	local n
	n=$(wc -c <"$2")
	if [ "$n" -gt 0 ] && [ "$(wc -c <"$1")" -ge "$n" ] &&
		tail -c "$n" "$1" | cmp -s - "$2"; then
		head -c -"$n" "$1"
		echo "<usage of $3>"
	else
		cat "$1"
	fi
}

while read -ra words; do
	[ ${#words[@]} -gt 0 ] && [ "${words[0]:0:1}" != "#" ] || continue
	cmd=${words[0]}
	[ -f "$dir/usage.$cmd" ] || "$bin" "$cmd" --help >"$dir/usage.$cmd" 2>/dev/null
	"$bin" "${words[@]}" >"$dir/out" 2>"$dir/err" </dev/null
	rc=$?
	echo "\$ spe-decode ${words[*]}"
	if [ "${words[*]}" = "$cmd --help" ]; then
		cat "$dir/out"
	elif [ -s "$dir/out" ]; then
		echo "[stdout]"
		show "$dir/out" "$dir/usage.$cmd" "$cmd"
	fi
	if [ -s "$dir/err" ]; then
		echo "[stderr]"
		show "$dir/err" "$dir/usage.$cmd" "$cmd"
	fi
	echo "[exit $rc]"
	# Nothing a bad invocation may leave behind.
	if [ -n "$(ls -A)" ]; then
		echo "[left: $(ls -A | tr '\n' ' ')]"
		rm -rf ./* ./.[!.]* 2>/dev/null
	fi
done <"$list"
