#!/usr/bin/env bash
# Stress the driver over the simulated SPU in QEMU guests until a kernel
# warning shows or the time is up (not part of make check).
#
# Usage: scripts/stress.sh [--loop alternate|selftests|mixed|sw-sched-in] [--seconds S]
#            [--iterations N] [--profile P] [--out DIR] [--jobs J] [CONFIG...]
#
#   CONFIG     KERNEL-EL-CPUS, e.g. 6.1-el1-2 6.12-el2-4; default: 6.1-el1-2
#              6.1-el1-4 6.12-el1-2 6.12-el1-4 6.12-el2-2 6.12-el2-4
#   --loop     alternate (default): test_lifecycle then test_aux_flags, the
#              pair that brought out perf core's hotplug warnings; selftests:
#              every selftest in turn; mixed: selftests, perf record per task,
#              system wide, discard, during CPU hotplug; sw-sched-in: no
#              module of ours, per-task software events after perf's
#              scheduling key went off, during CPU hotplug
#   --seconds  per configuration (default 600); --iterations stops earlier
#   --jobs     guests at a time (default 1; each takes a host core per vCPU)
#   --trace    all (default): ftrace every function of the module, which
#              slows the guest and brings races out sooner; entry: only its
#              perf callbacks and IRQ handler
#   --tap      also report each configuration as one TAP test (ok when all
#              its iterations were clean), for a test runner
#              (scripts/check-debug.sh)
#
# Each configuration boots once and loops in the guest (guest/stress.sh).
# The guest runs with panic_on_warn=1 oops=panic ftrace_dump_on_oops, so
# the first warning stops it and its console log (kernel log, the loop's
# progress, the ftrace of perf core's scheduling and the driver's
# callbacks) is kept in DIR/<config>/console.log.  The last line is
# "N clean iterations in M configurations, K failed"; the exit status is
# non-zero when any configuration saw a warning or a failing test.  With
# --tap the per-configuration lines are TAP results and the plan follows.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"

loop=alternate seconds=600 iterations='' profile=n1 jobs=1 trace=all tap=0
out=$top/build/stress
configs=()
while [ $# -gt 0 ]; do
	case $1 in
	--loop) loop=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--iterations) iterations=$2; shift 2 ;;
	--profile) profile=$2; shift 2 ;;
	--trace) trace=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--tap) tap=1; shift ;;
	--jobs) jobs=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	-*) echo "stress.sh: unknown option $1" >&2; exit 2 ;;
	*) configs+=("$1"); shift ;;
	esac
done
case $loop in alternate | selftests | mixed | sw-sched-in) ;; *) echo "stress.sh: unknown loop $loop" >&2; exit 2 ;; esac
[ ${#configs[@]} -gt 0 ] || configs=(6.1-el1-2 6.1-el1-4 6.12-el1-2 6.12-el1-4 6.12-el2-2 6.12-el2-4)
mkdir -p "$out"
out=$(cd "$out" && pwd)

sel=$out/selftests
make -s -C "$top/selftests/arm_spe" OUTPUT="$sel" || exit 1
rm -rf "$sel/spe-decode"
spin=$out/spe_spin
spe_build_spin "$spin" || { cat "$spin.log"; exit 1; }
swev=$out/sw_event_sched_in
aarch64-linux-gnu-gcc -O2 -static -Wall -Wextra -Werror -o "$swev" \
	"$top/selftests/arm_spe/workloads/sw_event_sched_in.c" || exit 1

# stress_one CONFIG: one guest; prints "CONFIG: N clean of M (status)".
stress_one() {
	local cfg=$1 k el smp ko dir rc=0 clean total st
	IFS=- read -r k el smp <<<"$cfg"
	dir=$out/$cfg
	rm -rf "$dir"
	mkdir -p "$dir"
	if ! ko=$(spe_driver_ko "$k" arm_spe_sim 2>"$dir/build.log"); then
		echo "$cfg: arm_spe_sim.ko does not build (see $dir/build.log)"
		return 1
	fi
	{
		echo "STRESS_LOOP=$loop STRESS_SECONDS=$seconds STRESS_PROFILE=$profile STRESS_TRACE=$trace"
		[ -z "$iterations" ] || echo "STRESS_ITERATIONS=$iterations"
		# The guest stops at the first line the host would fail it for.
		echo "KERNEL_LOG_PATTERN='$spe_kernel_log_pattern'"
		cat "$top/scripts/qemu/guest/stress.sh"
	} >"$dir/guest.sh"
	SPE_QEMU_EL2=$([ "$el" = el2 ] && echo 1) \
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp "$smp" --spe-node \
		--with-perf --module "$ko" --file "$spin" --file "$swev" --selftests "$sel" \
		--append panic_on_warn=1 --timeout $((seconds + 240)) \
		--script "$dir/guest.sh" --out "$dir" 2>"$dir/run.log" || rc=$?
	clean=$(grep -c '^stress: iteration [0-9]* clean' "$dir/console.log")
	total=$(grep -c '^stress: iteration [0-9]* ' "$dir/console.log")
	if spe_kernel_log_bad "$dir/console.log" >"$dir/kernel-log-bad"; then
		st="KERNEL WARNING: $(head -n 1 "$dir/kernel-log-bad")"
	elif grep -q '^stress: iteration [0-9]* FAILED' "$dir/console.log"; then
		st="FAILED: $(grep -m1 '^stress: iteration [0-9]* FAILED' "$dir/console.log")"
	elif [ "$rc" -ne 0 ]; then
		st="guest status $rc"
	else
		st=clean
	fi
	echo "$cfg: $clean clean of $total iterations ($loop, ${seconds}s): $st" |
		tee "$dir/status"
	echo "$clean $total" >"$dir/count"
	[ "$st" = clean ]
}

# Build the module once per kernel before guests run side by side.
for cfg in "${configs[@]}"; do
	spe_driver_ko "${cfg%%-*}" arm_spe_sim >/dev/null || exit 1
done

failed=0 n=0
for cfg in "${configs[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	if [ $tap -eq 1 ]; then
		stress_one "$cfg" >/dev/null &
	else
		stress_one "$cfg" &
	fi
	n=$((n + 1))
done
wait
sum=0
for cfg in "${configs[@]}"; do
	read -r c t <"$out/$cfg/count" 2>/dev/null || { c=0 t=0; }
	sum=$((sum + c))
	what="$cfg: stress --loop $loop for ${seconds}s, no kernel report, no failed test"
	if [ "$c" = "$t" ] && [ "$t" -gt 0 ] && [ ! -s "$out/$cfg/kernel-log-bad" ]; then
		[ $tap -eq 0 ] || tap_ok "$what ($c iterations)"
	else
		failed=$((failed + 1))
		[ $tap -eq 0 ] || tap_fail "$what" "$(cat "$out/$cfg/status" 2>/dev/null ||
			echo "no result: see $out/$cfg")"
	fi
done
[ $tap -eq 0 ] || tap_done || true
echo "$([ $tap -eq 1 ] && echo '# ')$sum clean iterations in $n configurations, $failed failed"
[ "$failed" -eq 0 ]
