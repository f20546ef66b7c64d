#!/usr/bin/env bash
# The SPE driver follows the kernel coding style: checkpatch.pl --strict
# (taken from Debian's linux-source-6.1, scripts/fetch-checkpatch.sh) finds
# nothing in drivers/perf (with the PC-sample module in drivers/perf/pcsample).  Two exceptions: spe_compat.h, whose job is the
# LINUX_VERSION_CODE tests an out-of-tree module needs, and the portable
# sources (the SPU model and its generator, which include no <linux/...>
# header because the same file is compiled in userspace): they use the
# fixed-width C types of include/spe/types.h, not u64/u32.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"

if ! cp=$("$top/scripts/fetch-checkpatch.sh" 2>&1); then
	tap_fail "checkpatch.pl fetched from linux-source-6.1" "$cp"
	tap_done
	exit 1
fi
tap_ok "checkpatch.pl fetched from linux-source-6.1"

opts=(--no-tree --strict --terse --show-types --quiet)
cd "$top"
mapfile -t files < <(git ls-files 'drivers/perf/*.[ch]' 'drivers/perf/Kbuild' \
	'drivers/perf/*/Kbuild' 'drivers/perf/Kconfig' | grep -v '^drivers/perf/tests/')
for f in "${files[@]}"; do
	extra=()
	[ "$(basename "$f")" = spe_compat.h ] && extra=(--ignore LINUX_VERSION_CODE)
	case "$f" in
	*.c|*.h) grep -q '#include <linux/' "$f" || extra=(--ignore PREFER_KERNEL_TYPES) ;;
	esac
	if out=$(perl "$cp" "${opts[@]}" "${extra[@]}" -f "$f" 2>&1) &&
	   grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
		tap_ok "checkpatch --strict: $f"
	else
		tap_fail "checkpatch --strict: $f" "$out"
	fi
done
tap_done
