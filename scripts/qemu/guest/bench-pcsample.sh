# shellcheck shell=dash
# Guest script of scripts/bench.d/pcsample.sh: what PC sampling costs, with
# arm_pcsample.ko on QEMU's PMPCSR frames (-M virt,pcsample=on), beside
# perf's cpu-clock at the same rate.  The workload pcsample-hot runs 3 s
# pinned to CPU 1, alone, while CPU 0 is busy with a copy of it (the
# emulator's own contention), while pcsample-record (on CPU 0) samples
# CPU 1 every 100 us (and every 1 ms), and while perf record -e cpu-clock
# -c 100000 -C 1 does; three rounds of the five, alternated.  Per round it keeps the
# workload's output (rounds/s), the recordings, and the sampler thread's
# CPU time (/proc/PID/schedstat, ns) before and after the recording.  The
# host computes the numbers.
HOT=$FILES/pcsample-hot
REC=$FILES/pcsample-record

cd "$RESULTS" || exit 1
insmod "$MODULES/arm_pcsample.ko" housekeeping_cpu=0
echo $? >insmod.rc
sampler=''
for p in /proc/[0-9]*; do
	[ "$(cat "$p/comm" 2>/dev/null)" = arm_pcsample/0 ] && sampler=${p#/proc/}
done
echo "$sampler" >sampler.pid
runtime() {
	cut -d' ' -f1 "/proc/$sampler/schedstat"
}

for i in 1 2 3; do
	taskset 2 "$HOT" 3 >alone-$i 2>&1

	# The control: CPU 0 busy with anything, here the workload itself,
	# which under TCG takes host time from CPU 1's vCPU thread.
	taskset 1 "$HOT" 4 >/dev/null 2>&1 &
	r=$!
	sleep 0.5
	taskset 2 "$HOT" 3 >busy-hot-$i 2>&1
	wait $r

	runtime >pcs-$i.before
	taskset 1 "$REC" -C 1 -c 100000 -d 5 -o pcs-$i.txt >pcs-$i.log 2>&1 &
	r=$!
	sleep 1.5
	taskset 2 "$HOT" 3 >pcs-hot-$i 2>&1
	wait $r
	runtime >pcs-$i.after

	# At 1 kHz, where the sampler keeps up and CPU 0 is mostly idle.
	taskset 1 "$REC" -C 1 -c 1000000 -d 5 -o pcs1k-$i.txt >pcs1k-$i.log 2>&1 &
	r=$!
	sleep 1.5
	taskset 2 "$HOT" 3 >pcs1k-hot-$i 2>&1
	wait $r

	taskset 1 perf record -q -e cpu-clock -c 100000 -C 1 -o clk-$i.data -- sleep 5 \
		>clk-$i.log 2>&1 &
	r=$!
	sleep 1.5
	taskset 2 "$HOT" 3 >clk-hot-$i 2>&1
	wait $r
done
rmmod arm_pcsample
cat /proc/sys/kernel/tainted >tainted
