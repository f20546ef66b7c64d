# shellcheck shell=dash
# Guest script of suite 59-qemu-spe-sampling: real arm64 perf records the
# spe_spin workload through QEMU's emulated Statistical Profiling Unit
# (-cpu max,spe=on), first with the project's hardware module arm_spe.ko,
# then with Debian's in-tree arm_spe_pmu (the same recording, the other
# driver); the atomics loop of qemu/tests/spe-atomics.c and the failing
# instructions of qemu/tests/spe-failing.c.  Every result goes to $RESULTS for the host to decode and check;
# nothing is judged here.
# shellcheck source=scripts/qemu/guest-lib.sh
. /guest/lib.sh
spe_guest_begin

# The workload's rate with profiling disabled: the baseline of the
# guest slowdown the host reports.
"$SPIN" 2 >spin-base 2>&1

# record TAG MODULE NAME: load the driver, record the workload in user
# space, then system wide (kernel samples too), unload.  The period
# (one sample in 16384 operations) keeps the recordings to some ten
# thousand records, quick to decode on the host.  The user-space
# recording, which the host compares between the drivers, is of a fixed
# amount of work (some 2 s here), not a fixed time: on a loaded host or
# a debug kernel a timed run does less work under one driver than the
# other, and QEMU's cache model, which only the samples fill, is then
# less warm in that recording.
record() {
	mark "insmod $1"
	insmod "$2"
	echo $? >"$1-insmod.rc"
	ls /sys/bus/event_source/devices >"$1-pmus"
	perf record -q -o "$1-u.data" -c 16384 -e arm_spe/ts_enable=1,pa_enable=1/u -- \
		"$SPIN" --iterations 100000000 >"$1-spin-u" 2>"$1-u.log"
	echo $? >"$1-u.rc"
	perf record -q -a -o "$1-sys.data" -c 16384 -e arm_spe/ts_enable=1/ -- \
		"$SPIN" 1 >"$1-spin-sys" 2>"$1-sys.log"
	echo $? >"$1-sys.rc"
	# SVE: contiguous and gather/scatter loads and stores, data processing.
	perf record -q -o "$1-sve.data" -c 4096 -e arm_spe/ts_enable=1,pa_enable=1/u -- \
		"$FILES/spe-sve" 1 >"$1-sve.out" 2>"$1-sve.log"
	echo $? >"$1-sve.rc"
	grep -i spe /proc/interrupts >"$1-irqs"
	# The unit's PMU events (SAMPLE_POP, _FEED, _FILTRATE, _COLLISION)
	# counted on every CPU around a per-task recording.
	perf stat -a -x, -o "$1-stat" -e r4000,r4001,r4002,r4003 -- \
		perf record -q -o "$1-stat.data" -c 16384 -e arm_spe/ts_enable=1/u -- \
		"$SPIN" 1 >"$1-spin-stat" 2>"$1-stat.log"
	echo $? >"$1-stat.rc"
	# Atomics (qemu/tests/spe-atomics.c): a ten-instruction loop with
	# LDADD, SWP and CAS, all of its PCs sampled alike; then only loads,
	# which the three atomics are.  4097 operations between samples is
	# prime to the loop's ten, so the samples walk over all of it.
	perf record -q -o "$1-at.data" -c 4096 -e arm_spe/ts_enable=1,pa_enable=1/u -- \
		"$FILES/spe-atomics" 1 >"$1-at.out" 2>"$1-at.log"
	echo $? >"$1-at.rc"
	perf record -q -o "$1-atld.data" -c 4096 -e arm_spe/ts_enable=1,load_filter=1/u -- \
		"$FILES/spe-atomics" 1 >"$1-atld.out" 2>"$1-atld.log"
	echo $? >"$1-atld.rc"
	# The CAS 4 bytes off alignment: TCG runs it again alone (EXCP_ATOMIC).
	perf record -q -o "$1-atsplit.data" -c 4096 -e arm_spe/ts_enable=1/u -- \
		"$FILES/spe-atomics" 1 split >"$1-atsplit.out" 2>"$1-atsplit.log"
	echo $? >"$1-atsplit.rc"
	# A load that aborts, a CSEL that fails its condition, a CCMP that
	# passes (qemu/tests/spe-failing.c); each abort costs a signal, so
	# the period is the unit's shortest, and the work is fixed (some 25
	# records of each PC), not the time: a debug kernel's signals are
	# far slower.
	perf record -q -o "$1-fail.data" -c 1024 -e arm_spe/ts_enable=1,pa_enable=1/u -- \
		"$FILES/spe-failing" 48000 >"$1-fail.out" 2>"$1-fail.log"
	echo $? >"$1-fail.rc"
	[ -r /proc/spe_live_regs ] && readback "$1"
	mark "rmmod $1"
	rmmod "$3"
	echo $? >"$1-rmmod.rc"
}

# readback TAG: each set of format terms (one per line of the host's
# readback.terms) recorded on CPU 1 while spe_live_regs.ko reads the
# sampling controls each CPU's unit holds.  A set whose terms this
# driver's format lacks is not recorded ("absent" and the terms).
readback() {
	mkdir -p "$1-readback"
	n=0
	while read -r terms; do
		n=$((n + 1))
		missing=''
		for t in $(echo "${terms%/*}" | tr ',' ' '); do
			[ -e "/sys/bus/event_source/devices/arm_spe_0/format/${t%%=*}" ] || missing="$missing ${t%%=*}"
		done
		if [ -n "$missing" ]; then
			echo "absent$missing" >"$1-readback/$n"
			continue
		fi
		perf record -q -C 1 -c 16384 -o /tmp/readback.data -e "arm_spe/$terms" -- \
			cat /proc/spe_live_regs >"$1-readback/$n" 2>"$1-readback/$n.log"
		echo $? >"$1-readback/$n.rc"
	done <"$FILES/readback.terms"
	rm -f /tmp/readback.data
}

ls /sys/bus/event_source/devices/armv8_pmuv3*/events >pmu-events 2>&1
[ -e "$MODULES/spe_live_regs.ko" ] && insmod "$MODULES/spe_live_regs.ko"
record hw "$MODULES/arm_spe.ko" arm_spe
[ -e "$MODULES/arm_spe_pmu.ko" ] && record intree "$MODULES/arm_spe_pmu.ko" arm_spe_pmu
mark "end"
cat /proc/sys/kernel/tainted >tainted
