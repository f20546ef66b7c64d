# shellcheck shell=dash
# Guest script of suite 54-qemu-spe-faults: each SPE driver records the
# spe_spin workload on QEMU's emulated Statistical Profiling Unit once per
# injected event (QEMU patch 0006, the CPU property spe-inject): first the
# project's arm_spe.ko (tag hw), then Debian's in-tree arm_spe_pmu (tag
# intree) when the host gave it.  Before each recording the guest asks the
# host for the event over the channel (run-guest.sh --channel): "want TAG
# KIND", and waits for the host's answer, "armed TAG KIND", sent once it
# has set the property through QMP; after it, "done TAG KIND", answered
# "read TAG KIND" once the host has read the property back.  The event
# fires at the recording's first buffer write or sampled operation, so it
# cannot race the recording.  Every result goes to $RESULTS; nothing is
# judged here.
#
# The recordings are kept small (one sample in 16384 operations, one
# second: about 5 MB each) so that all of them fit the results disk with
# room to spare; each event needs only the recording's first write or
# sample.
# shellcheck source=scripts/qemu/guest-lib.sh
. /guest/lib.sh

spe_guest_begin
if ! spe_channel_open 2>channel.log; then
	echo 1 >channel.rc
	exit 1
fi
echo 0 >channel.rc

# faults TAG MODULE: load MODULE, record once per event, unload.
faults() {
	local tag=$1 kind mmap
	mark "insmod $tag"
	insmod "$MODULES/$2.ko"
	echo $? >"$tag-insmod.rc"
	for kind in s1 s2 ea dataloss collision; do
		mark "want $tag $kind"
		spe_channel_ask "want $tag $kind" >"$tag-$kind-armed"
		# A collision sets PMBSR_EL1.COLL but raises no interrupt: a
		# driver sees it at the next buffer management event (Linux's
		# arm_spe_pmu only then), so that recording gets a 64 KiB AUX
		# buffer, which fills many times a second, not perf's 4 MiB,
		# which the recording may never fill.
		mmap=
		[ "$kind" = collision ] && mmap="-m ,64K"
		dmesg >"$tag-$kind-dmesg-before"
		# shellcheck disable=SC2086 # $mmap is two words or none
		perf record -q $mmap -o "$tag-$kind.data" -c 16384 -e arm_spe/ts_enable=1/u -- \
			"$SPIN" 1 >"$tag-$kind-spin" 2>"$tag-$kind.log"
		echo $? >"$tag-$kind.rc"
		dmesg >"$tag-$kind-dmesg-after"
		mark "done $tag $kind"
		spe_channel_ask "done $tag $kind" >"$tag-$kind-read"
	done
	mark "rmmod $tag"
	rmmod "$2"
	echo $? >"$tag-rmmod.rc"
}

faults hw arm_spe
[ -e "$MODULES/arm_spe_pmu.ko" ] && faults intree arm_spe_pmu
spe_channel_ask bye >/dev/null
cat /proc/sys/kernel/tainted >tainted
