# Guest side of scripts/suites/55-guest-sim-perf.sh (busybox sh): the
# simulated SPE PMU (arm_spe_sim.ko) under real arm64 perf.  Every result
# goes to $RESULTS for the host to check; nothing is judged here.
R=$RESULTS
SPIN=$FILES/spe_spin
DBG=/sys/kernel/debug/arm_spe_sim
PMU=/sys/bus/event_source/devices/arm_spe_0

# stats NAME: every CPU's simulated-unit statistics, one "cpuN key value" a line.
stats() {
	for d in $DBG/cpu*; do
		sed "s/^/$(basename "$d") /" "$d/stats"
	done >"$R/stats-$1"
}
irqs() {
	grep arm_spe /proc/interrupts >"$R/irqs-$1" || echo none >"$R/irqs-$1"
}

# Module parameters may come in a file (run-guest.sh --file sim-params).
params=$(cat "$FILES/sim-params" 2>/dev/null)
# shellcheck disable=SC2086
insmod "$MODULES/arm_spe_sim.ko" $params
echo $? >"$R/insmod.rc"
ls /sys/bus/event_source/devices >"$R/pmus"
for f in "$PMU"/caps/*; do
	echo "$(basename "$f") $(cat "$f")"
done >"$R/caps"
ls "$PMU/format" >"$R/format"

# Without profiling: the spinner's own rate.
"$SPIN" 3 >"$R/spin-base" 2>&1

# Per task, user space only, default 4 MiB AUX buffer.
stats task-before
perf record -q -o "$R/task-u.data" -e arm_spe_0/ts_enable=1,pa_enable=1/u -- \
	"$SPIN" 3 >"$R/spin-task" 2>"$R/task-u.log"
echo $? >"$R/task-u.rc"
stats task-after

# System wide, every exception level: what sampling costs the spinner,
# and whether every record the unit wrote reached perf.data.
stats sys-before
irqs sys-before
perf record -q -a -o "$R/sys.data" -e arm_spe_0/ts_enable=1/ -- \
	"$SPIN" 3 >"$R/spin-sys" 2>"$R/sys.log"
echo $? >"$R/sys.rc"
stats sys-after
irqs sys-after

# A small AUX buffer (8 pages): the buffer fills often, PMBIRQ must keep
# the data flowing through the real interrupt path without loss.
stats small-before
irqs small-before
perf record -q -a -m 16,8 -o "$R/small.data" -e arm_spe_0/ts_enable=1/u -- \
	"$SPIN" 3 >"$R/spin-small" 2>"$R/small.log"
echo $? >"$R/small.rc"
stats small-after
irqs small-after

# Only loads (load_filter): the filter the driver programs takes effect.
perf record -q -o "$R/load.data" -e arm_spe_0/load_filter=1,ts_enable=1/u -- \
	"$SPIN" 1 >/dev/null 2>"$R/load.log"
echo $? >"$R/load.rc"

# Injected faults: a stage 1 fault stops profiling with the driver's
# message.  Forced collisions set COLL and count SAMPLE_COLLISION; they get
# a recording of their own, since a fault injected alongside stops the
# buffer before the collision's tick comes and the collision never happens.
stats inject-before
perf record -q -a -o "$R/fault.data" -e arm_spe_0/ts_enable=1/u -- \
	sh -c "sleep 1; for d in $DBG/cpu*; do echo s1 >\$d/inject; done; $SPIN 1 >/dev/null" \
	2>"$R/fault.log"
echo $? >"$R/fault.rc"
stats inject-after
# The fault waits for its CPU's next buffer write: a CPU the workload did
# not run on still holds it and would stop the collision run at its first
# write (the stats then show it fired there, with no collision counted).
for d in $DBG/cpu*; do echo none >"$d/inject"; done
stats coll-before
perf record -q -a -o "$R/coll.data" -e arm_spe_0/ts_enable=1/u -- \
	sh -c "sleep 1; for d in $DBG/cpu*; do echo collision 3 >\$d/inject; done; $SPIN 1 >/dev/null" \
	2>"$R/coll.log"
echo $? >"$R/coll.rc"
stats coll-after
# A CPU that stayed idle still holds its injection: disarm them all so the
# selftests below start clean.  Arm every CPU first (no session is open)
# so the check sees "none" take something away.
for d in $DBG/cpu*; do echo s2 >"$d/inject"; echo collision 5 >"$d/inject"; done
stats armed
for d in $DBG/cpu*; do echo none >"$d/inject"; done
stats disarmed

# The selftests, with the simulated unit to test.
for t in "$SELFTESTS"/test_*; do
	[ -x "$t" ] || continue
	"$t" >"$R/selftest-$(basename "$t").tap" 2>&1
	echo $? >"$R/selftest-$(basename "$t").rc"
done

# The spinner's rate alone and under system-wide profiling, alternated so
# drift of the host does not masquerade as cost (one line per run).
for i in 1 2 3; do
	"$SPIN" 1 >>"$R/ab-alone"
	perf record -q -a -o /tmp/ab.data -e arm_spe_0//u -- "$SPIN" 1 >>"$R/ab-spe" 2>/dev/null
done
rm -f /tmp/ab.data

rmmod arm_spe_sim
echo $? >"$R/rmmod.rc"

# The fallback for interrupt controllers that cannot make a PPI pending:
# the tick calls the handler itself (direct_irq=1).  An 8-page AUX buffer
# makes it run often; nothing may be lost.
insmod "$MODULES/arm_spe_sim.ko" direct_irq=1
echo $? >"$R/direct-insmod.rc"
stats direct-before
perf record -q -a -m 16,8 -o "$R/direct.data" -e arm_spe_0/ts_enable=1/u -- \
	"$SPIN" 2 >/dev/null 2>"$R/direct.log"
echo $? >"$R/direct.rc"
stats direct-after
rmmod arm_spe_sim
echo $? >"$R/direct-rmmod.rc"

# The v2 profile (SPEv1p2): discard mode counts without writing, and the
# selftest checks that profile's caps and that discard opens.
insmod "$MODULES/arm_spe_sim.ko" profile=v2
echo $? >"$R/v2-insmod.rc"
stats discard-before
perf record -q -a -o "$R/discard.data" -e arm_spe_0/discard=1/ -- \
	"$SPIN" 1 >/dev/null 2>"$R/discard.log"
echo $? >"$R/discard.rc"
stats discard-after
"$SELFTESTS/test_sim_events" >"$R/v2-selftest.tap" 2>&1
echo $? >"$R/v2-selftest.rc"
rmmod arm_spe_sim
echo $? >"$R/v2-rmmod.rc"
cat /proc/sys/kernel/tainted >"$R/tainted"
