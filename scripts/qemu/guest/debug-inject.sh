# Guest side of scripts/debug-kernel/inject.sh (busybox sh): exercises a
# deliberately broken arm_spe_sim.ko where the injected bugs live: AUX
# buffers set up and freed (perf record, three times), PMBIRQ with a small
# buffer, and the unit's timers on every CPU at once (system wide), then
# unloads it.  The host looks for the checker's report in the kernel log.
. /guest/lib.sh
spe_guest_begin arm_spe_sim
for i in 1 2 3; do
	mark "record $i"
	perf record -q -a -m 16,8 -o /tmp/inject.data -e arm_spe_0/ts_enable=1/ -- \
		"$SPIN" 2 >"record-$i.log" 2>&1
	echo $? >"record-$i.rc"
done
mark "rmmod arm_spe_sim"
rmmod arm_spe_sim
echo $? >rmmod.rc
