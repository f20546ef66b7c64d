# shellcheck shell=dash
# Guest script of suite 61-qemu-pcsample: the PC-sample PMU arm_pcsample.ko
# on QEMU's emulated external PMU frames (-M virt,pcsample=on,
# qemu/patches/0007).  CPU 0 is the housekeeping CPU; the workload
# pcsample-hot runs pinned to CPU 1, which pcsample-record samples from
# CPU 0.  Everything goes to $RESULTS for the host to judge; nothing is
# judged here.  Without the frames in the device tree (pcsample=off) only
# the module's load is tried.
# shellcheck source=scripts/qemu/guest-lib.sh
. /guest/lib.sh
mark() { echo "pcs-test: $*" >/dev/kmsg; }
HOT=$FILES/pcsample-hot
REC=$FILES/pcsample-record
PMU=/sys/bus/event_source/devices/arm_pcsample
CPU1=/sys/devices/system/cpu/cpu1/online

cd "$RESULTS" || exit 1
# This shell and what it starts run on CPU 0 unless pinned elsewhere, so
# that CPU 1 runs the workload only (a fork placed there would be sampled).
taskset -p 1 $$ >/dev/null

# snap NAME: CPU 1's interrupt counts and the time, for the host to
# subtract (/proc/interrupts: "IRQ: count-cpu0 count-cpu1 ... name").
snap() {
	cut -d' ' -f1 /proc/uptime >"$1.time"
	cat /proc/interrupts >"$1.irqs"
}

for n in /sys/firmware/devicetree/base/pc-sample@*; do
	[ -e "$n" ] && echo "$n"
done >dt-node
# The frame of CPU 1 read directly (/dev/mem), before any driver: the ID
# and Software Lock registers, a capture while locked (the other sample
# registers keep their reset value), then unlocked: PMPCSR's halves, a
# 64-bit read, the alias; CPU 1 idle and offline.  Locked again after, so
# that the driver's own unlock runs.  "reg-NAME" files hold devmem's hex.
# The reads run on CPU 0: on CPU 1 they would sample themselves.
F1=0x9101000
reg() {
	taskset 1 devmem $((F1 + $2)) "${3:-32}" >"reg-$1" 2>&1
}
if grep -q pc-sample dt-node; then
	reg devid 0xfc8
	reg devarch 0xfbc
	reg devtype 0xfcc
	reg cidr1 0xff4
	reg lsr-reset 0xfb4
	# Past the workload's start (exec, page faults, first translations).
	# It runs until the reads are done, however long they take (each
	# devmem is a process: seconds on a debug kernel), then is stopped.
	taskset 2 "$HOT" 600 >/dev/null 2>&1 &
	hot=$!
	sleep 2
	reg lo-locked 0x200
	reg hi-locked 0x204
	taskset 1 devmem $((F1 + 0xfb0)) 32 0xc5acce55
	reg lsr-unlocked 0xfb4
	# Captures until five are at EL0 (PMPCSR[63:32] 0x80000000: NS, EL0,
	# a static binary's address below 4 GiB), at most 40: a debug
	# kernel's tick keeps the busy CPU in the kernel for much of the time.
	i=0 el0=0
	while [ $i -lt 40 ] && [ $el0 -lt 5 ]; do
		i=$((i + 1))
		reg lo-$i 0x200
		reg hi-$i 0x204
		[ "$(cat reg-hi-$i)" = 0x80000000 ] && el0=$((el0 + 1))
	done
	reg pcsr64 0x200 64
	reg alias-lo 0x220
	kill $hot
	wait $hot
	sleep 1
	for i in 0 1 2 3 4 5 6 7 8 9; do
		reg idle-$i 0x200
	done
	echo 0 >$CPU1
	reg offline 0x200
	echo 1 >$CPU1
	taskset 1 devmem $((F1 + 0xfb0)) 32 0
	reg lsr-relocked 0xfb4
fi

mark "insmod"
insmod "$MODULES/arm_pcsample.ko" housekeeping_cpu=0 >insmod.log 2>&1
echo $? >insmod.rc
ls /sys/bus/event_source/devices >pmus
if [ ! -e "$PMU" ]; then
	mark "end"
	cat /proc/sys/kernel/tainted >tainted
	exit 0
fi
cat "$PMU/cpumask" >cpumask

# Three windows of the same length while the workload runs on CPU 1: no
# profiler (the baseline), arm_pcsample at 10 kHz, and perf's cpu-clock
# at the same rate (which interrupts CPU 1 at every sample: the check
# that the interrupt count can tell the difference).
# The workload runs until the three windows are done, however long
# starting the recorders takes (a kasan guest at a host load of 10 took
# longer than the 13 s it once had, and the recording saw an idle CPU).
taskset 2 "$HOT" 600 >hot-main.out 2>&1 &
hot=$!
echo $hot >hot-main.pid
sleep 1
snap base0
sleep 3
snap base1
snap rec0
cat /sys/kernel/debug/arm_pcsample/stats >rec-stats0 2>&1
mark "record"
taskset 1 "$REC" -C 1 -c 100000 -d 3 -o rec.txt >rec.log 2>&1
echo $? >rec.rc
cat /sys/kernel/debug/arm_pcsample/stats >rec-stats1 2>&1
# The kernel's text symbols, so that a failure can name where CPU 1 spent
# the samples outside the workload.
awk '$2 ~ /^[tT]$/' /proc/kallsyms >kallsyms 2>/dev/null
snap rec1
snap clk0
mark "cpu-clock"
taskset 1 perf record -q -e cpu-clock -c 100000 -C 1 -o clk.data -- sleep 3 >clk.log 2>&1
echo $? >clk.rc
snap clk1
kill $hot 2>/dev/null
wait $hot 2>/dev/null

# The workload on CPU 1 for one recording: started half a second before
# it and stopped after it.  It does not run for a fixed time: on a debug
# kernel on a loaded host, starting the recorder alone took longer than
# the three seconds it once had, and the recordings then saw an idle CPU.
hot_start() {
	taskset 2 "$HOT" 600 >/dev/null 2>&1 &
	hot=$!
	sleep 0.5
}
hot_stop() {
	kill "$hot" 2>/dev/null
	wait "$hot" 2>/dev/null
}

# A recording as a perf.data (-P), for host perf report.
hot_start
echo $hot >perf-data.pid
mark "perf.data"
taskset 1 "$REC" -C 1 -c 100000 -d 2 -P rec.data -o rec-p.txt >perf-data.log 2>&1
echo $? >perf-data.rc
hot_stop

# CPU 1 idle, waiting in WFI: its register reads as "no sample".
sleep 0.5
cat /sys/kernel/debug/arm_pcsample/stats >idle-stats0 2>&1
mark "idle"
taskset 1 "$REC" -C 1 -c 100000 -d 1 -o idle.txt >idle.log 2>&1
echo $? >idle.rc
cat /sys/kernel/debug/arm_pcsample/stats >idle-stats1 2>&1

# Kernel samples only to whom perf_event_paranoid allows them.  An
# unprivileged user at the default setting may not open a CPU-wide event
# at all; at 0 it may, and with -u (exclude_kernel) gets user samples only.
cat /proc/sys/kernel/perf_event_paranoid >paranoid-default
hot_start
mark "unprivileged"
spe_as_nobody id >unpriv-id 2>&1
spe_as_nobody taskset 1 "$REC" -C 1 -c 100000 -d 1 -o /tmp/unpriv-default.txt >unpriv-default.log 2>&1
echo $? >unpriv-default.rc
[ -e /tmp/unpriv-default.txt ] && cp /tmp/unpriv-default.txt .
echo 0 >/proc/sys/kernel/perf_event_paranoid
spe_as_nobody taskset 1 "$REC" -u -C 1 -c 100000 -d 1 -o /tmp/unpriv-u.txt >unpriv-u.log 2>&1
echo $? >unpriv-u.rc
[ -e /tmp/unpriv-u.txt ] && cp /tmp/unpriv-u.txt .
cat paranoid-default >/proc/sys/kernel/perf_event_paranoid
hot_stop

# The sampled CPU goes offline and comes back while it is recorded; then
# a new recording of it has samples again.
hot_start
mark "hotplug"
taskset 1 "$REC" -C 1 -c 100000 -d 3 -o hotplug.txt >hotplug.log 2>&1 &
rec=$!
sleep 1
if echo 0 >$CPU1; then r=0; else r=1; fi
echo $r >hotplug-off.rc
sleep 1
if echo 1 >$CPU1; then r=0; else r=1; fi
echo $r >hotplug-on.rc
wait $rec
echo $? >hotplug.rc
hot_stop
hot_start
taskset 1 "$REC" -C 1 -c 100000 -d 1 -o after.txt >after.log 2>&1
echo $? >after.rc
hot_stop

cat /sys/kernel/debug/arm_pcsample/stats >stats 2>&1
mark "rmmod"
rmmod arm_pcsample
echo $? >rmmod.rc
mark "end"
cat /proc/sys/kernel/tainted >tainted
