# shellcheck shell=dash
# Guest script of suite 54-qemu-spe-faults: arm_spe.ko records the spe_spin
# workload on QEMU's emulated Statistical Profiling Unit once per injected
# event (QEMU patch 0006, the CPU property spe-inject).  Before each
# recording the guest asks the host for the event on the console
# ("spe-inject: want KIND") and waits for the host to arm it through the
# QEMU monitor; the host answers on nothing but the monitor, so the guest
# simply waits long enough.  Every result goes to $RESULTS; nothing is
# judged here.
mark() { echo "spe-test: $*" >/dev/kmsg; }
SPIN=$FILES/spe_spin

cd "$RESULTS" || exit 1
insmod "$MODULES/arm_spe.ko"
echo $? >insmod.rc
for kind in s1 s2 ea dataloss collision; do
	mark "want $kind"
	echo "spe-inject: want $kind"
	# The host polls the console every 0.2 s and arms within a second
	# when idle; 5 s leaves room for a loaded host.
	sleep 5
	dmesg >"$kind-dmesg-before"
	perf record -q -o "$kind.data" -c 1024 -e arm_spe/ts_enable=1/u -- \
		"$SPIN" 1 >"$kind-spin" 2>"$kind.log"
	echo $? >"$kind.rc"
	dmesg >"$kind-dmesg-after"
	mark "done $kind"
	echo "spe-inject: done $kind"
done
rmmod arm_spe
echo $? >rmmod.rc
cat /proc/sys/kernel/tainted >tainted
