# shellcheck shell=dash
# Guest side of scripts/bench.d/qemu-spe.sh: the spinner's rate, ROUNDS
# times each, alternated so host drift does not pass for cost:
#   alone        not profiled (on the SPE QEMU: spe=on, arm_spe.ko loaded);
#   c16384, dflt with arm_spe.ko, under perf record -e arm_spe//u at
#                period 16384 and at perf's default period (the unit's
#                minimum interval).
# On a QEMU without SPE (no spe-pmu node in the device tree) only "alone"
# runs.  The recordings go to /tmp and are deleted: only rates come back.
R=$RESULTS
SPIN=$FILES/spe_spin
SECS=3
ROUNDS=3

SPE=
if [ -d /proc/device-tree/spe-pmu ]; then
	insmod "$MODULES/arm_spe.ko"
	echo $? >"$R/insmod.rc"
	SPE=1
fi
i=1
while [ $i -le $ROUNDS ]; do
	"$SPIN" $SECS >>"$R/spin-alone"
	if [ -n "$SPE" ]; then
		perf record -q -o /tmp/c.data -c 16384 -e arm_spe/ts_enable=1/u -- \
			"$SPIN" $SECS >>"$R/spin-c16384" 2>>"$R/record.log"
		echo $? >>"$R/record.rc"
		perf record -q -o /tmp/d.data -e arm_spe/ts_enable=1/u -- \
			"$SPIN" $SECS >>"$R/spin-dflt" 2>>"$R/record.log"
		echo $? >>"$R/record.rc"
		rm -f /tmp/c.data /tmp/d.data
	fi
	i=$((i + 1))
done
[ -z "$SPE" ] || cat /sys/bus/event_source/devices/arm_spe_0/caps/min_interval >"$R/min_interval"
