#!/usr/bin/env bash
# Proof that the debug kernels' checkers see bugs of the kind the drivers
# could have: each patch in scripts/debug-kernel/inject/ puts one bug into
# a throwaway copy of the simulated unit's module, which a guest of the
# matching debug kernel then exercises (scripts/qemu/guest/debug-inject.sh).
# One TAP test per patch: the checker's report is in the kernel log, with
# the guest uptime at which it showed.  Run by scripts/check-debug.sh.
#
# Usage: scripts/debug-kernel/inject.sh kasan|kcsan
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"

k=${1:-}
case $k in kasan | kcsan) ;; *) echo "usage: inject.sh kasan|kcsan" >&2; exit 2 ;; esac

# PATCH (in inject/), the kernel whose checker must see it, and the
# kernel-log line that shows it.
bugs=(
	"lockdep-aux-lock-order kasan possible circular locking dependency detected"
	"kasan-aux-use-after-free kasan BUG: KASAN: [a-z-]*use-after-free in spe_free_aux"
	"kmemleak-aux-buf-leak kasan kmemleak: [0-9]+ new suspected memory leak"
	"kcsan-tick-data-race kcsan BUG: KCSAN: data-race in spe_sim_tick"
)

runs=$top/build/debug-inject
mkdir -p "$runs"
spin=$runs/spe_spin
spe_suite_build_spin "$spin"

for bug in "${bugs[@]}"; do
	read -r name flavour pattern <<<"$bug"
	[ "$flavour" = "$k" ] || continue
	what="$k: $name is reported ($pattern)"
	dir=$runs/$name
	rm -rf "$dir"
	mkdir -p "$dir"
	# The patched sources in src/, laid out as the project is.
	mkdir -p "$dir/src"
	cp -r "$top/drivers" "$top/include" "$dir/src/"
	if ! patch -d "$dir/src" -p1 -s <"$top/scripts/debug-kernel/inject/$name.patch" >"$dir/patch.log" 2>&1; then
		tap_fail "$what" "the patch no longer applies:" "$(cat "$dir/patch.log")"
		continue
	fi
	if ! ko=$(spe_sim_ko_from_tree "$k" "$dir/src" "$dir/kmod" 2>"$dir/build.log"); then
		tap_fail "$what" "the module does not build:" "$(tail -n 15 "$dir/build.log")"
		continue
	fi
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --spe-node --with-perf \
		--module "$ko" --file "$spin" --timeout 150 \
		--script "$top/scripts/qemu/guest/debug-inject.sh" --out "$dir/guest" \
		2>"$dir/guest.log"
	log=$dir/guest/results/dmesg.txt
	[ -s "$log" ] || log=$dir/guest/console.log
	line=$(grep -m1 -E "$pattern" "$log")
	if [ -n "$line" ]; then
		# How long the bug took to show: from the script's start (init.sh
		# says when) to the report's kernel timestamp.
		at=$(sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p' <<<"$line")
		began=$(sed -n 's/^spe-guest: running script at \([0-9.]*\) s.*/\1/p' \
			"$dir/guest/console.log" | head -n 1)
		tap_ok "$what: shown $(awk -v a="$at" -v b="$began" 'BEGIN { printf "%.1f", a - b }') s into the run"
	else
		tap_fail "$what" "no such line in $log; its last lines:" "$(tail -n 12 "$log")"
	fi
done
tap_done
