# Guest side of scripts/bench.d/sim.sh (busybox sh): the spinner alone and
# under system-wide SPE (perf record -e arm_spe// -a, default period and
# 4 MiB AUX buffer), alternated $ROUNDS times so host drift does not pass
# for cost.  Per profiled round: the unit's debugfs statistics and
# /proc/uptime before and after, and the perf.data; the host computes.
R=$RESULTS
SPIN=$FILES/spe_spin
DBG=/sys/kernel/debug/arm_spe_sim
SECS=3
ROUNDS=3

stats() {
	for d in $DBG/cpu*; do
		sed "s/^/$(basename "$d") /" "$d/stats"
	done >"$R/$1"
}

insmod "$MODULES/arm_spe_sim.ko"
echo $? >"$R/insmod.rc"
i=1
while [ $i -le $ROUNDS ]; do
	"$SPIN" $SECS >>"$R/spin-alone"
	stats "stats-$i-before"
	cut -d' ' -f1 /proc/uptime >"$R/uptime-$i-before"
	perf record -q -a -o "$R/sys-$i.data" -e arm_spe// -- "$SPIN" $SECS \
		>>"$R/spin-spe" 2>"$R/sys-$i.log"
	echo $? >"$R/sys-$i.rc"
	cut -d' ' -f1 /proc/uptime >"$R/uptime-$i-after"
	stats "stats-$i-after"
	i=$((i + 1))
done
rmmod arm_spe_sim
echo $? >"$R/rmmod.rc"
