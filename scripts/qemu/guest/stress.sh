# shellcheck shell=dash
# Guest script of scripts/stress.sh: load arm_spe_sim.ko, trace perf core's
# scheduling of events and the driver's callbacks with ftrace, then loop a
# workload until $STRESS_SECONDS pass or $STRESS_ITERATIONS are done,
# checking the kernel log after every iteration.
#
# Set by scripts/stress.sh above this line:
#   STRESS_LOOP        alternate: test_lifecycle, then test_aux_flags
#                      selftests: every test_* program in turn
#                      mixed:     the selftests, perf record (per task, -a,
#                                 snapshot, discard) and CPU hotplug while
#                                 a recording runs, in a rotating order
#                      sw-sched-in: no module of this project; per-task
#                                 software events opened after perf's
#                                 scheduling static key went off, during
#                                 CPU hotplug (workloads/sw_event_sched_in.c)
#   STRESS_SECONDS, STRESS_ITERATIONS, STRESS_PROFILE
#   STRESS_TRACE       all (every function of the module) or entry (its perf
#                      callbacks and IRQ handler only)
#   KERNEL_LOG_PATTERN what fails a run in the kernel log (the host's
#                      spe_kernel_log_pattern, scripts/lib/guest-results.sh)
#
# The guest boots with panic_on_warn=1, oops=panic and ftrace_dump_on_oops:
# the first warning stops it and the console gets the trace (the host keeps
# it).  Each iteration prints "stress: iteration N clean" or
# "stress: iteration N FAILED <what>" on the console; a failing selftest
# stops the loop with its TAP output.
R=$RESULTS/stress
mkdir -p "$R"
# sw-sched-in runs without any module of this project.
if [ "$STRESS_LOOP" != sw-sched-in ]; then
	insmod "$MODULES/arm_spe_sim.ko" profile="${STRESS_PROFILE:-n1}" >"$R/insmod.log" 2>&1 || {
		echo "stress: insmod arm_spe_sim failed: $(cat "$R/insmod.log")"
		exit 1
	}
fi

# ftrace: perf core's sched-in/out and disable paths, the pending irq_work,
# hotplug callbacks and every function of the driver.
T=/sys/kernel/debug/tracing
if [ -d "$T" ]; then
	echo 2048 >"$T/buffer_size_kb"
	echo function >"$T/current_tracer" 2>/dev/null
	: >"$T/set_ftrace_filter"
	for f in __perf_event_task_sched_in __perf_event_task_sched_out \
		 perf_event_context_sched_in perf_event_context_sched_out \
		 ctx_sched_in ctx_sched_out event_sched_in event_sched_out \
		 group_sched_in group_sched_out ctx_resched \
		 perf_event_disable_local __perf_event_disable __perf_event_enable \
		 perf_event_disable_inatomic perf_pending_irq perf_pending_disable \
		 perf_pending_task event_function event_function_call \
		 perf_event_exit_cpu perf_event_init_cpu __perf_event_exit_context \
		 perf_event_exit_task perf_event_release_kernel \
		 perf_aux_output_begin perf_aux_output_end perf_aux_output_skip \
		 perf_install_in_context __perf_install_in_context \
		 perf_remove_from_context __perf_remove_from_context; do
		echo "$f" >>"$T/set_ftrace_filter" 2>/dev/null ||
			echo "stress: cannot trace $f"
	done
	# all: every function of the module, the simulated unit's tick too;
	# that slows the guest and widens race windows (a warning seen in
	# 40 iterations with entry tracing showed in the first with this).
	if [ "$STRESS_LOOP" = sw-sched-in ]; then
		:
	elif [ "${STRESS_TRACE:-all}" = all ]; then
		echo ':mod:arm_spe_sim' >>"$T/set_ftrace_filter"
	else
		for f in spe_pmu_add spe_pmu_del spe_pmu_start spe_pmu_stop \
			 spe_irq_handler spe_service_event spe_aux_begin spe_aux_end \
			 spe_aux_output_end spe_unit_disable_and_drain; do
			echo "$f:mod:arm_spe_sim" >>"$T/set_ftrace_filter" 2>/dev/null ||
				echo "stress: cannot trace $f"
		done
	fi
	for e in sched/sched_switch sched/sched_migrate_task cpuhp/cpuhp_enter \
		 cpuhp/cpuhp_exit; do
		echo 1 >"$T/events/$e/enable" 2>/dev/null
	done
	echo 1 >"$T/tracing_on"
	echo "stress: ftrace on ($(wc -l <"$T/set_ftrace_filter") functions)"
else
	echo "stress: no tracefs, running without a trace"
fi

kernel_log_bad() {
	dmesg | grep -E "$KERNEL_LOG_PATTERN"
}

# run_selftest NAME: runs one selftest, stops the loop when it fails.
run_selftest() {
	timeout 120 "$SELFTESTS/$1" >"$R/$1.tap" 2>&1
	st=$?
	if [ "$st" -ne 0 ] && [ "$st" -ne 4 ]; then
		echo "stress: $1 exited $st"
		cat "$R/$1.tap"
		return 1
	fi
	return 0
}

# One perf command; its output is kept only when it fails.
run_perf() {
	what=$1
	shift
	if ! "$@" >"$R/perf.log" 2>&1; then
		echo "stress: perf $what failed"
		tail -n 20 "$R/perf.log"
		return 1
	fi
	return 0
}

# hotplug_during DELAY CMD...: CPU 1 goes offline DELAY seconds into CMD
# and comes back 0.3 s later.  (perf record -a opens an event per online
# CPU when it starts and fails with ENODEV on one going offline meanwhile,
# however slow the guest: its workload does the hotplug instead.)
cpu1=/sys/devices/system/cpu/cpu1/online
hotplug_during() {
	delay=$1
	shift
	( sleep "$delay"; echo 0 >"$cpu1"; sleep 0.3; echo 1 >"$cpu1" ) &
	hp=$!
	"$@"
	rc=$?
	wait "$hp"
	return $rc
}

spin=$FILES/spe_spin
mixed_step() {
	case $(($1 % 8)) in
	0) run_selftest test_lifecycle ;;
	1) run_selftest test_aux_flags ;;
	2) run_perf "record per task" perf record -q -e arm_spe_0/ts_enable=1/ -o /tmp/p.data -- "$spin" 0.5 ;;
	3) # The workload takes CPU 1 down and up: perf has opened its events by then.
	   run_perf "record -a during hotplug" perf record -q -a -e arm_spe_0// -o /tmp/p.data -- \
		sh -c "sleep 0.5; echo 0 >$cpu1; sleep 0.3; echo 1 >$cpu1; sleep 0.5" ;;
	4) run_selftest test_sim_faults ;;
	5) if [ -e /sys/bus/event_source/devices/arm_spe_0/format/discard ]; then
		run_perf "record discard" perf record -q -e arm_spe_0/discard=1/ -N -B -o /tmp/p.data -- "$spin" 0.3
	   else	# SPEv1p2 and later (--profile v2, full)
		run_perf "record snapshot" perf record -q -S -e arm_spe_0// -o /tmp/p.data -- "$spin" 0.3
	   fi ;;
	6) # The workload pins its spinner to CPU 1 first and only then takes
	   # CPU 1 down: on a slow guest perf record may not have started the
	   # workload 0.3 s after a hotplug timed from outside, and taskset
	   # then finds CPU 1 offline.
	   run_perf "record per task during hotplug" perf record -q -e arm_spe_0// -m,8 -o /tmp/p.data -- \
		sh -c "taskset -c 1 $spin 1 & s=\$!; sleep 0.3; echo 0 >$cpu1; sleep 0.3; echo 1 >$cpu1; wait \$s" ;;
	7) run_selftest test_record ;;
	esac
}

start=$(cut -d' ' -f1 /proc/uptime)
end=$(awk -v s="$start" -v d="${STRESS_SECONDS:-600}" 'BEGIN { printf "%d", s + d }')
max=${STRESS_ITERATIONS:-1000000}
i=0
clean=0
while [ "$i" -lt "$max" ]; do
	now=$(cut -d' ' -f1 /proc/uptime)
	[ "${now%.*}" -lt "$end" ] || break
	i=$((i + 1))
	ok=1
	case ${STRESS_LOOP:-alternate} in
	alternate)
		run_selftest test_lifecycle && run_selftest test_aux_flags || ok=0
		;;
	selftests)
		for t in "$SELFTESTS"/test_*; do
			run_selftest "$(basename "$t")" || { ok=0; break; }
		done
		;;
	mixed)
		mixed_step "$i" || ok=0
		;;
	sw-sched-in)
		# CPU 1 goes offline and back during the rounds.
		hotplug_during 0.3 "$FILES/sw_event_sched_in" 3 1.3 || ok=0
		;;
	esac
	bad=$(kernel_log_bad)
	if [ -n "$bad" ]; then
		echo "stress: iteration $i FAILED kernel log"
		dmesg | tail -n 80
		break
	fi
	if [ "$ok" -ne 1 ]; then
		echo "stress: iteration $i FAILED test"
		break
	fi
	clean=$((clean + 1))
	echo "stress: iteration $i clean ($(cut -d' ' -f1 /proc/uptime) s)"
done
echo "stress: $clean clean iterations of $i ($STRESS_LOOP)"
echo "$clean $i" >"$R/count"
[ "$clean" -eq "$i" ]
