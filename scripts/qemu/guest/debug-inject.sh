# Guest side of scripts/debug-kernel/inject.sh (busybox sh): exercises a
# deliberately broken arm_spe_sim.ko where the injected bugs live: AUX
# buffers set up and freed (perf record, three times or more), PMBIRQ with
# a small buffer, and the unit's timers on every CPU at once (system wide),
# then unloads it.  The host looks for the checker's report in the kernel
# log.
. /guest/lib.sh

# KCSAN sees a race only when it has put a watchpoint on one side's access
# (one access in skip_watch, 4000 by default) and the other side comes
# within the delay (udelay_interrupt, 20 us by default, since the race is
# between timer callbacks).  The vCPUs of a guest on a loaded host seldom
# run at the same moment: the unit's timers tick ten times as often
# (tick_us=100), the delay is four times as long, and the recordings go on
# (up to 12) until the report is there.  Watching more often than that
# (skip_watch=50 with a 500 us delay) slowed the guest twentyfold.
rounds=3 params=''
k=/sys/module/kcsan/parameters
if [ -d "$k" ]; then
	echo 80 >"$k/udelay_interrupt"
	rounds=12 params=tick_us=100
fi

# shellcheck disable=SC2086 # params is one word or none
spe_guest_begin arm_spe_sim $params
i=0
while [ $i -lt $rounds ]; do
	i=$((i + 1))
	mark "record $i"
	perf record -q -a -m 16,8 -o /tmp/inject.data -e arm_spe_0/ts_enable=1/ -- \
		"$SPIN" 2 >"record-$i.log" 2>&1
	echo $? >"record-$i.rc"
	[ $i -ge 3 ] && dmesg | grep -q 'BUG: KCSAN' && break
done
mark "rmmod arm_spe_sim"
rmmod arm_spe_sim
echo $? >rmmod.rc
