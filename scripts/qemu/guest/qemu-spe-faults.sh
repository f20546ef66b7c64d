# shellcheck shell=dash
# Guest script of suite 54-qemu-spe-faults: arm_spe.ko records the spe_spin
# workload on QEMU's emulated Statistical Profiling Unit once per injected
# event (QEMU patch 0006, the CPU property spe-inject).  Before each
# recording the guest asks the host for the event over the channel
# (run-guest.sh --channel): "want KIND", and waits for the host's answer,
# "armed KIND" once it has set the property through QMP; after it, "done
# KIND", answered "read KIND" once the host has read the property back.
# The event fires at the recording's first buffer write or sampled
# operation, so it cannot race the recording.  Every result goes to
# $RESULTS; nothing is judged here.
#
# The recordings are kept small (one sample in 16384 operations, one
# second: some 3 MB each) so that the five fit the results disk with room
# to spare; each event needs only the recording's first write or sample.
# shellcheck source=scripts/qemu/guest-lib.sh
. /guest/lib.sh

spe_guest_begin arm_spe
if ! spe_channel_open 2>channel.log; then
	echo 1 >channel.rc
	exit 1
fi
echo 0 >channel.rc
for kind in s1 s2 ea dataloss collision; do
	mark "want $kind"
	spe_channel_ask "want $kind" >"$kind-armed"
	dmesg >"$kind-dmesg-before"
	perf record -q -o "$kind.data" -c 16384 -e arm_spe/ts_enable=1/u -- \
		"$SPIN" 1 >"$kind-spin" 2>"$kind.log"
	echo $? >"$kind.rc"
	dmesg >"$kind-dmesg-after"
	mark "done $kind"
	spe_channel_ask "done $kind" >"$kind-read"
done
spe_channel_ask bye >/dev/null
rmmod arm_spe
echo $? >rmmod.rc
cat /proc/sys/kernel/tainted >tainted
