#!/usr/bin/env bash
# Fault injection on QEMU's emulated Statistical Profiling Unit (QEMU patch
# 0006, the CPU property spe-inject; Documentation/dev-tools/qemu-spe.rst).  In each
# guest (one CPU) the project's arm_spe.ko, then Debian's in-tree
# arm_spe_pmu, record the spe_spin workload five times
# (guest/qemu-spe-faults.sh); before each recording the guest asks the host
# for one event over a virtio serial channel (run-guest.sh --channel) and
# waits until the host has armed it through QMP (qom-set), so the event is
# armed before the recording starts, whatever the machine's load.  Checked
# for each driver and event:
#   - the event was armed and fired during the recording (the property
#     reads "none" before arming and again after the recording);
#   - s1, s2, ea, dataloss: the driver logs the fault with the PMBSR_EL1
#     hardware gives: EC 0x24 (stage 1 data abort; ea too) or 0x25 (stage
#     2), DL (bit 19) set for data loss only, EA (bit 18) for ea only;
#     arm_spe.ko names it ("translation fault at level 3", "external abort
#     on write to the profiling buffer"), arm_spe_pmu says "Unexpected
#     buffer fault";
#   - collision: no fault logged;
#   - host perf report -D shows the AUX records the driver must emit:
#     collision after a collision, truncated and partial after data loss,
#     and for arm_spe.ko truncated after a fault or abort (arm_spe_pmu
#     only stops the buffer there);
#   - the recordings decode with spe-decode and host perf without an error;
#   - the drivers unload; the kernel log has no warning, BUG or oops.
# Guests: 6.1 at EL1 (profile n1) and 6.12 at EL2 as a VHE host (v2).
# `54-qemu-spe-faults.sh 6.12 v2 el2` runs one guest.  About two minutes
# on two idle cores.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
spe_guest_suite_begin 54-qemu-spe-faults "fault injection on QEMU's emulated SPE"
qmp=$top/scripts/qemu/qmp.py
kinds="s1 s2 ea dataloss collision"
# Unix socket paths must be short: not under the build tree.
sockdir=$(mktemp -d)
trap 'rm -rf "$sockdir"' EXIT
sock=$sockdir/qmp
chansock=$sockdir/channel

# cpu_path: the QOM path of the guest's CPU (the one with spe-inject).
cpu_path() {
	local i
	for i in 0 1 2 3 4 5 6 7; do
		if "$qmp" "$sock" qom-get "{\"path\": \"/machine/unattached/device[$i]\", \"property\": \"spe-inject\"}" >/dev/null 2>&1; then
			echo "/machine/unattached/device[$i]"
			return 0
		fi
	done
	return 1
}

# The host's side of the channel: answer each of the guest's requests
# once it is done, keeping what it saw in DIR.  "want TAG KIND": read the
# property (DIR/before-TAG-KIND), arm KIND (DIR/armed-TAG-KIND: qom-set's
# output and status), answer "armed TAG KIND" ("failed TAG KIND" if
# qom-set failed); "done TAG KIND": read the property again
# (DIR/after-TAG-KIND), answer "read TAG KIND"; "bye": answer and stop.
# It also stops when QEMU closes the channel (the guest stopped).
injector() {
	local dir=$1 line what kind path='' reply rc
	coproc chan { exec "$top/scripts/qemu/channel.py" "$chansock" 300 2>"$dir/channel.log"; }
	echo hello >&"${chan[1]}"
	while read -r line <&"${chan[0]}"; do
		line=${line%$'\r'}
		what=${line#* }
		what=${what// /-}
		kind=${line##* }
		case $line in
		"want "*)
			[ -n "$path" ] || path=$(cpu_path) || path=''
			"$qmp" "$sock" qom-get "{\"path\": \"$path\", \"property\": \"spe-inject\"}" \
				>"$dir/before-$what" 2>&1
			rc=0
			"$qmp" "$sock" qom-set "{\"path\": \"$path\", \"property\": \"spe-inject\", \"value\": \"$kind\"}" \
				>"$dir/armed-$what" 2>&1 || rc=$?
			echo "$rc" >>"$dir/armed-$what"
			reply="armed ${line#want }"
			[ "$rc" -eq 0 ] || reply="failed ${line#want }" ;;
		"done "*)
			"$qmp" "$sock" qom-get "{\"path\": \"$path\", \"property\": \"spe-inject\"}" \
				>"$dir/after-$what" 2>&1
			reply="read ${line#done }" ;;
		bye) reply=bye ;;
		*) reply="unknown request '$line'" ;;
		esac
		echo "$reply" >&"${chan[1]}"
		[ "$line" != bye ] || break
	done
}

# check_fault NAME TAG KIND: the recording of KIND by driver TAG (hw:
# arm_spe.ko, intree: arm_spe_pmu) in the guest run $out.
check_fault() {
	local name=$1 tag=$2 kind=$3 t=$2-$3 armed before told after log msg pmbsr
	local want_ec want_dl want_ea ec dl ea pattern data flags want mask hit f bad partial derr
	armed=$(cat "$host/armed-$t" 2>/dev/null)
	before=$(cat "$host/before-$t" 2>/dev/null)
	told=$(cat "$res/$t-armed" 2>/dev/null)
	if [ "$(tail -n 1 <<<"$armed")" = 0 ] && [ "$before" = '"none"' ] && [ "$told" = "armed $tag $kind" ]; then
		tap_ok "$name $kind: armed through QMP qom-set before the recording"
	else
		tap_fail "$name $kind: armed through QMP qom-set before the recording" \
			"qom-set: ${armed:-the guest never asked for it}" "property before: '$before'" \
			"the guest was told: '$told'"
		return
	fi
	after=$(cat "$host/after-$t" 2>/dev/null)
	if [ "$after" = '"none"' ] && [ "$(cat "$res/$t-read" 2>/dev/null)" = "read $tag $kind" ]; then
		tap_ok "$name $kind: the event fired during the recording (spe-inject reads none)"
	else
		tap_fail "$name $kind: the event fired during the recording (spe-inject reads none)" "read: '$after'"
	fi
	spe_result_is "$name $kind: perf record exits 0" "$out" "$t.rc" 0
	# The kernel log lines the recording added.
	log=$(diff "$res/$t-dmesg-before" "$res/$t-dmesg-after" 2>/dev/null | sed -n 's/^> //p')
	if [ "$tag" = hw ]; then
		msg=$(grep 'profiling stopped' <<<"$log")
		pmbsr=$(sed -n 's/.*PMBSR_EL1 0x\([0-9a-f]*\) .*/\1/p' <<<"$msg" | head -n 1)
	else
		msg=$(grep 'Unexpected buffer fault\|Unknown error code\|Unknown buffer status code' <<<"$log")
		pmbsr=$(sed -n 's/.*PMBSR=0x\([0-9a-f]*\),.*/\1/p' <<<"$msg" | head -n 1)
	fi
	if [ "$kind" = collision ]; then
		if [ -z "$msg" ]; then
			tap_ok "$name $kind: profiling goes on (no fault logged)"
		else
			tap_fail "$name $kind: profiling goes on (no fault logged)" "$msg"
		fi
	else
		want_ec=0x24 want_dl=0 want_ea=0
		[ "$kind" = s2 ] && want_ec=0x25
		[ "$kind" = dataloss ] && want_dl=1
		[ "$kind" = ea ] && want_ea=1
		ec='' dl='' ea=''
		if [ -n "$pmbsr" ]; then
			ec=$(printf '0x%02x' $(((16#$pmbsr >> 26) & 0x3f)))
			dl=$(((16#$pmbsr >> 19) & 1))
			ea=$(((16#$pmbsr >> 18) & 1))
		fi
		case $tag/$kind in
		hw/ea) pattern="external abort on write to the profiling buffer" ;;
		hw/*) pattern="translation fault at level 3 .*EC $want_ec MSS 0x0007" ;;
		*) pattern="Unexpected buffer fault on CPU" ;;
		esac
		if grep -q "$pattern" <<<"$msg" && [ "$ec/$dl/$ea" = "$want_ec/$want_dl/$want_ea" ]; then
			tap_ok "$name $kind: the driver logs the fault, PMBSR_EL1 EC $ec DL $dl EA $ea"
		else
			tap_fail "$name $kind: the driver logs the fault, PMBSR_EL1 EC $want_ec DL $want_dl EA $want_ea" \
				"expected: '$pattern'; PMBSR_EL1 EC '$ec' DL '$dl' EA '$ea'" "${log:-(no new kernel log)}"
		fi
	fi
	data=$res/$t.data
	flags=$(perf_dump_list "$data" aux | tr '\n' ' ')
	# PERF_AUX_FLAG_: TRUNCATED 0x1, PARTIAL 0x4, COLLISION 0x8.
	want='' mask=0
	case $tag/$kind in
	*/dataloss) want=0x5 mask=0x5 ;;
	*/collision) want=0x8 mask=0x8 ;;
	hw/*) want=0x1 mask=0x1 ;;
	esac
	if [ -n "$want" ]; then
		hit=0
		for f in $flags; do
			[ $((f & mask)) -eq $((want)) ] && hit=1
		done
		if [ $hit -eq 1 ]; then
			tap_ok "$name $kind: an AUX record carries flags $want (perf report -D)"
		else
			tap_fail "$name $kind: an AUX record carries flags $want (perf report -D)" "AUX flags seen: ${flags:-none}"
		fi
	fi
	bad=$(perf_dump_sum "$data" bad)
	# Data loss cuts the record being written (PMBPTR_EL1 stops inside
	# it): its AUX record is PARTIAL, and host perf may print "Bad packet"
	# for the cut record at its end; spe-decode counts it as a cut record,
	# not an error.  Nothing else may be bad.
	partial=0
	for f in $flags; do
		[ $((f & 0x4)) -ne 0 ] && partial=$((partial + $(perf_dump_sum "$data" aux "$f")))
	done
	# The one warning allowed (suite 59): guest binaries are not the host's.
	derr=$("$decode" report "$data" 2>&1 >/dev/null |
		grep -v 'build id .* in the recording, the file.s is .*: not used' | head -n 3)
	if [ -s "$data" ] && [ "$bad" -le "$partial" ] && [ -z "$derr" ]; then
		[ "$partial" -eq 0 ] || echo "# $name $kind: host perf: $bad bad packets, $partial partial AUX records"
		tap_ok "$name $kind: the recording decodes (spe-decode, host perf) without an error"
	else
		tap_fail "$name $kind: the recording decodes (spe-decode, host perf) without an error" \
			"host perf bad lines: $bad, partial AUX records: $partial" "spe-decode: ${derr:-ok}"
	fi
}

# run KERNEL PROFILE EL: one guest, both drivers, every event.
run() {
	local k=$1 profile=$2 el=$3 name ko out host inj rc=0 tag drv kind t
	name="$k $profile $el"
	out=$runs/$k-$profile-$el
	host=$out.host
	if ! ko=$(spe_driver_ko "$k" 2>"$runs/build-$k.log"); then
		tap_fail "$name: arm_spe.ko builds" "$(tail -n 20 "$runs/build-$k.log")"
		return
	fi
	rm -rf "$host" "$sock" "$chansock"
	mkdir -p "$host" "$out"
	injector "$host" &
	inj=$!
	(
		[ "$el" = el2 ] && export SPE_QEMU_EL2=1
		"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 1 --spe-qemu "$profile" --with-perf \
			--module "$ko" --module arm_spe_pmu --file "$spin" --timeout 300 \
			--qmp "$sock" --channel "$chansock" --script "$guest" --out "$out"
	) 2>"$out.log" || rc=$?
	kill "$inj" 2>/dev/null
	wait "$inj" 2>/dev/null
	res=$out/results
	spe_guest_came_back "$name" "$out" || return
	if [ "$(cat "$res/channel.rc" 2>/dev/null)" = 0 ]; then
		tap_ok "$name: the guest and the host meet on the channel"
	else
		tap_fail "$name: the guest and the host meet on the channel" \
			"$(cat "$res/channel.log" "$host/channel.log" 2>&1 | head -n 5)"
	fi
	for tag in hw intree; do
		drv=arm_spe.ko
		[ $tag = intree ] && drv=arm_spe_pmu
		spe_result_is "$name: $drv loads" "$out" "$tag-insmod.rc" 0
		for kind in $kinds; do
			check_fault "$name: $drv" "$tag" "$kind"
		done
		spe_result_is "$name: $drv unloads" "$out" "$tag-rmmod.rc" 0
	done
	spe_kernel_log_tap "$name faults" "$out"
	spe_taint_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

start=$SECONDS
if [ $# -ge 2 ]; then
	run "$1" "$2" "${3:-el1}"
else
	run 6.1 n1 el1
	run 6.12 v2 el2
fi
echo "# guests in $((SECONDS - start)) s"
tap_done
