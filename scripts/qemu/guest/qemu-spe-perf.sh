# shellcheck shell=dash
# Guest script of suite 60-qemu-spe-perf (busybox sh): perf's usual SPE
# checks through the hardware module arm_spe.ko on QEMU's emulated unit
# (-cpu max,spe=on): snapshot mode with SIGUSR2, system wide, discard,
# perf mem, CPU 1 going offline and online during a recording, one CPU
# (-C), perf c2c, and SPE with tracepoints and context-switch records.
# Every output goes to $RESULTS with its exit status; the host judges.
# shellcheck source=scripts/qemu/guest-lib.sh
. /guest/lib.sh
CPU1=/sys/devices/system/cpu/cpu1/online
spe_guest_begin arm_spe
perf --version >perf-version 2>&1
ls /sys/bus/event_source/devices/arm_spe_0/format >format 2>&1

# 1. Snapshot mode: the AUX buffer is a ring perf copies out only on
# SIGUSR2 (twice here), system wide.  perf ignores the signal until its
# events are enabled, so the signals wait for the workload to start.  A
# snapshot writes only the CPUs with new data: the workload stays on CPU
# 1, so that its CPU has some at both signals.
rm -f /tmp/snap-started
perf record -S -a -c 16384 -o snap.data -e arm_spe/ts_enable=1/u -- \
	sh -c "touch /tmp/snap-started; exec taskset -c 1 $SPIN 4" >/dev/null 2>snap.log &
pid=$!
spe_wait_for /tmp/snap-started
sleep 1
kill -USR2 $pid
echo $? >snap-sig1.rc
sleep 1
kill -USR2 $pid
echo $? >snap-sig2.rc
wait $pid
echo $? >snap.rc

# 2. System wide, every exception level.
perf record -q -a -c 16384 -o sys.data -e arm_spe/ts_enable=1/ -- \
	"$SPIN" 1 >/dev/null 2>sys.log
echo $? >sys.rc

# 3. Discard (SPEv1p2): the unit samples and filters, writes nothing.  The
# CPU PMU's SAMPLE_FEED and SAMPLE_FILTRATE show the sampling went on.
perf stat -a -x, -o discard-stat -e r4001,r4002 -- \
	perf record -q -a -c 16384 -o discard.data -e arm_spe/discard=1/ -- \
	"$SPIN" 1 >/dev/null 2>discard.log
echo $? >discard.rc

# 4. perf mem record / report.  perf 6.1 looks for the PMU at
# /sys/devices/arm_spe_0, where it is only when the PMU device has no
# parent (kernels before 6.8); where perf mem record cannot find it, the
# event it would open, recorded by perf record, is what perf mem report reads.
realpath /sys/bus/event_source/devices/arm_spe_0 >pmu-path
perf mem record -e list >mem-list.txt 2>&1
perf mem record -o mem.data -- "$SPIN" 1 >/dev/null 2>mem-record.log
echo $? >mem-record.rc
perf mem report --stdio -i mem.data >mem-report.txt 2>mem-report.log
echo $? >mem-report.rc
perf record -q -o memev.data -c 16384 \
	-e arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=0/ \
	-- "$SPIN" 1 >/dev/null 2>memev-record.log
echo $? >memev-record.rc
perf mem report --stdio -i memev.data >memev-report.txt 2>memev-report.log
echo $? >memev-report.rc

# 5. CPU hotplug during a system-wide recording: CPU 1 goes offline and
# online while the workload runs pinned to CPU 0.  Kernels 6.1 and 6.12
# take the events of a CPU that goes offline out of its context for good
# (perf core), so a new recording then shows CPU 1 samples again.
mark "hotplug"
perf record -q -a -c 16384 -o hotplug.data -e arm_spe/ts_enable=1/u -- \
	sh -c "taskset 1 $SPIN 2 >/dev/null & sleep 0.5; echo 0 >$CPU1; echo \$? >hotplug-off.rc;
	       sleep 0.5; echo 1 >$CPU1; echo \$? >hotplug-on.rc; wait" \
	2>hotplug.log
echo $? >hotplug.rc
cat "$CPU1" >hotplug-online
perf record -q -a -c 16384 -o after.data -e arm_spe/ts_enable=1/u -- \
	taskset 2 "$SPIN" 1 >/dev/null 2>after.log
echo $? >after.rc

# 6. One CPU (-C 1): the workload runs on both CPUs, only CPU 1's records
# are wanted.
perf record -q -C 1 -c 16384 -o percpu.data -e arm_spe/ts_enable=1/u -- \
	sh -c "taskset 1 $SPIN 1 >/dev/null & taskset 2 $SPIN 1 >/dev/null; wait" 2>percpu.log
echo $? >percpu.rc

# 7. perf c2c record / report: the same memory events as perf mem, per
# cache line.
perf c2c record -o c2c.data -- "$SPIN" 1 >/dev/null 2>c2c-record.log
echo $? >c2c-record.rc
perf c2c report --stdio -i c2c.data >c2c-report.txt 2>c2c-report.log
echo $? >c2c-report.rc

# 8. SPE with tracepoints, system wide, as people record it to see what
# the sampled code waited on: sched_switch, the read syscall and the
# interrupt handlers among the SPE samples; once more with
# --switch-events (PERF_RECORD_SWITCH_CPU_WIDE).  Then, unprivileged
# (no CONTEXT packets: the records name no thread), SPE with
# --switch-events alone, where the switches are all there is to give each
# sample its thread.  The workload reads (dd) and sleeps on CPU 1 while
# spe_spin runs on CPU 0.
mark "tracepoints"
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
TP="-e sched:sched_switch -e syscalls:sys_enter_read -e irq:irq_handler_entry"
MIXED="taskset 1 $SPIN 1 >/dev/null & taskset 2 sh -c 'for i in 1 2 3 4; do
	dd if=/proc/self/maps of=/dev/null bs=64 2>/dev/null; sleep 0.1; done'; wait"
# shellcheck disable=SC2086 # TP is a list of options
perf record -q -a -c 16384 -o mixed.data -e arm_spe/ts_enable=1/u $TP -- \
	sh -c "$MIXED" 2>mixed.log
echo $? >mixed.rc
# shellcheck disable=SC2086
perf record -q -a -c 16384 --switch-events -o mixed-switch.data -e arm_spe/ts_enable=1/u $TP -- \
	sh -c "$MIXED" 2>mixed-switch.log
echo $? >mixed-switch.rc
# A CPU-wide event needs perf_event_paranoid <= 0 for an unprivileged
# user; the AUX and data rings of both CPUs need more locked memory than
# the default 516 KiB allows.
cat /proc/sys/kernel/perf_event_paranoid >paranoid-default
cat /proc/sys/kernel/perf_event_mlock_kb >mlock-default
echo 0 >/proc/sys/kernel/perf_event_paranoid
echo 8192 >/proc/sys/kernel/perf_event_mlock_kb
spe_as_nobody "cd /tmp && perf record -q -a -c 16384 --switch-events -o /tmp/unpriv-switch.data \
	-e arm_spe/ts_enable=1/u -- sh -c \"$MIXED\"" >unpriv-switch.log 2>&1
echo $? >unpriv-switch.rc
[ -e /tmp/unpriv-switch.data ] && cp /tmp/unpriv-switch.data .
cat paranoid-default >/proc/sys/kernel/perf_event_paranoid
cat mlock-default >/proc/sys/kernel/perf_event_mlock_kb

mark "rmmod"
rmmod arm_spe
echo $? >rmmod.rc
mark "end"
cat /proc/sys/kernel/tainted >tainted
