#!/usr/bin/env bash
# Fault injection on QEMU's emulated Statistical Profiling Unit (QEMU patch
# 0006, the CPU property spe-inject; Documentation/qemu-spe.rst).  One 6.1
# guest, one CPU, arm_spe.ko recording the spe_spin workload five times
# (guest/qemu-spe-faults.sh); before each recording the guest asks the host
# for one event over a virtio serial channel (run-guest.sh --channel) and
# waits until the host has armed it through QMP (qom-set), so the event is
# armed before the recording starts, whatever the machine's load.  Checked:
#   - the event was armed and fired during the recording (the property
#     reads "none" before arming and again after the recording);
#   - s1, s2, dataloss: the driver logs "profiling stopped: translation fault
#     at level 3" with the PMBSR_EL1 hardware gives: EC 0x24 (stage 1) or
#     0x25 (stage 2), DL (bit 19) set for data loss only;
#   - ea: the driver logs "external abort on write to the profiling buffer"
#     with PMBSR_EL1.EA (bit 18) set;
#   - host perf report -D shows the AUX records the driver must emit: the
#     truncated flag after a fault or abort, truncated and partial after data
#     loss, the collision flag after a collision (and no fault message);
#   - the recordings decode with spe-decode and host perf without an error;
#   - the kernel log has no warning, BUG or oops; arm_spe.ko unloads.
# About a minute and a half on two idle cores.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
spe_guest_suite_begin 54-qemu-spe-faults "fault injection on QEMU's emulated SPE"
qmp=$top/scripts/qemu/qmp.py
kinds="s1 s2 ea dataloss collision"
out=$runs/6.1-n1
if ! ko=$(spe_driver_ko 6.1 2>"$runs/build-6.1.log"); then
	tap_fail "arm_spe.ko builds" "$(tail -n 20 "$runs/build-6.1.log")"
	tap_done
	exit 1
fi
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
# once it is done.  "want KIND": read the property ($runs/before-KIND),
# arm KIND ($runs/armed-KIND: qom-set's output and status), answer "armed
# KIND" ("failed KIND" if qom-set failed); "done KIND": read the property
# again ($runs/after-KIND), answer "read KIND"; "bye": answer and stop.
# It also stops when QEMU closes the channel (the guest stopped).
injector() {
	local line kind path='' reply rc
	coproc chan { exec "$top/scripts/qemu/channel.py" "$chansock" 300 2>"$runs/channel.log"; }
	echo hello >&"${chan[1]}"
	while read -r line <&"${chan[0]}"; do
		line=${line%$'\r'}
		kind=${line#* }
		case $line in
		"want "*)
			[ -n "$path" ] || path=$(cpu_path) || path=''
			"$qmp" "$sock" qom-get "{\"path\": \"$path\", \"property\": \"spe-inject\"}" \
				>"$runs/before-$kind" 2>&1
			rc=0
			"$qmp" "$sock" qom-set "{\"path\": \"$path\", \"property\": \"spe-inject\", \"value\": \"$kind\"}" \
				>"$runs/armed-$kind" 2>&1 || rc=$?
			echo "$rc" >>"$runs/armed-$kind"
			reply="armed $kind"
			[ "$rc" -eq 0 ] || reply="failed $kind" ;;
		"done "*)
			"$qmp" "$sock" qom-get "{\"path\": \"$path\", \"property\": \"spe-inject\"}" \
				>"$runs/after-$kind" 2>&1
			reply="read $kind" ;;
		bye) reply=bye ;;
		*) reply="unknown request '$line'" ;;
		esac
		echo "$reply" >&"${chan[1]}"
		[ "$line" != bye ] || break
	done
}

rm -f "$runs"/before-* "$runs"/armed-* "$runs"/after-*
mkdir -p "$out"
injector &
inj=$!
rc=0
"$top/scripts/qemu/run-guest.sh" --kernel 6.1 --smp 1 --spe-qemu n1 --with-perf \
	--module "$ko" --file "$spin" --timeout 300 --qmp "$sock" --channel "$chansock" \
	--script "$guest" --out "$out" 2>"$out.log" || rc=$?
kill "$inj" 2>/dev/null
wait "$inj" 2>/dev/null
res=$out/results
if [ ! -s "$res/script.rc" ]; then
	tap_fail "guest boots and results come back" "$(tail -n 8 "$out.log")"
	tap_done
	exit 1
fi
# shellcheck disable=SC1091,SC2154
(. "$out/summary"; echo "# guest: ${wall_seconds}s wall")
spe_result_is "arm_spe.ko loads" "$out" insmod.rc 0
if [ "$(cat "$res/channel.rc" 2>/dev/null)" = 0 ]; then
	tap_ok "the guest and the host meet on the channel"
else
	tap_fail "the guest and the host meet on the channel" \
		"$(cat "$res/channel.log" "$runs/channel.log" 2>&1 | head -n 5)"
fi

# new_log KIND: the kernel log lines the recording of KIND added.
new_log() {
	diff "$res/$1-dmesg-before" "$res/$1-dmesg-after" 2>/dev/null | sed -n 's/^> //p'
}
for kind in $kinds; do
	armed=$(cat "$runs/armed-$kind" 2>/dev/null)
	before=$(cat "$runs/before-$kind" 2>/dev/null)
	told=$(cat "$res/$kind-armed" 2>/dev/null)
	if [ "$(tail -n 1 <<<"$armed")" = 0 ] && [ "$before" = '"none"' ] && [ "$told" = "armed $kind" ]; then
		tap_ok "$kind: armed through QMP qom-set before the recording"
	else
		tap_fail "$kind: armed through QMP qom-set before the recording" \
			"qom-set: ${armed:-the guest never asked for it}" "property before: '$before'" \
			"the guest was told: '$told'"
		continue
	fi
	after=$(cat "$runs/after-$kind" 2>/dev/null)
	if [ "$after" = '"none"' ] && [ "$(cat "$res/$kind-read" 2>/dev/null)" = "read $kind" ]; then
		tap_ok "$kind: the event fired during the recording (spe-inject reads none)"
	else
		tap_fail "$kind: the event fired during the recording (spe-inject reads none)" "read: '$after'"
	fi
	spe_result_is "$kind: perf record exits 0" "$out" "$kind.rc" 0
	log=$(new_log "$kind")
	msg=$(grep 'profiling stopped' <<<"$log")
	pmbsr=$(sed -n 's/.*PMBSR_EL1 0x\([0-9a-f]*\) .*/\1/p' <<<"$msg" | head -n 1)
	case $kind in
	s1 | s2 | dataloss)
		want_ec=0x24; [ "$kind" = s2 ] && want_ec=0x25
		want_dl=0; [ "$kind" = dataloss ] && want_dl=1
		if grep -q "translation fault at level 3 .*EC $want_ec MSS 0x0007" <<<"$msg" &&
		   [ -n "$pmbsr" ] && [ $(((16#$pmbsr >> 19) & 1)) -eq $want_dl ] &&
		   [ $(((16#$pmbsr >> 18) & 1)) -eq 0 ]; then
			tap_ok "$kind: the driver logs a level 3 translation fault, EC $want_ec, DL $want_dl"
		else
			tap_fail "$kind: the driver logs a level 3 translation fault, EC $want_ec, DL $want_dl" "${log:-(no new kernel log)}"
		fi ;;
	ea)
		if grep -q "external abort on write to the profiling buffer" <<<"$msg" &&
		   [ -n "$pmbsr" ] && [ $(((16#$pmbsr >> 18) & 1)) -eq 1 ]; then
			tap_ok "$kind: the driver logs an external abort, PMBSR_EL1.EA set"
		else
			tap_fail "$kind: the driver logs an external abort, PMBSR_EL1.EA set" "${log:-(no new kernel log)}"
		fi ;;
	collision)
		if [ -z "$msg" ]; then
			tap_ok "$kind: profiling goes on (no fault logged)"
		else
			tap_fail "$kind: profiling goes on (no fault logged)" "$msg"
		fi ;;
	esac
	data=$res/$kind.data
	flags=$(perf_dump_list "$data" aux | tr '\n' ' ')
	# PERF_AUX_FLAG_: TRUNCATED 0x1, PARTIAL 0x4, COLLISION 0x8.
	want=0x1 mask=0x1
	[ "$kind" = dataloss ] && want=0x5 mask=0x5
	[ "$kind" = collision ] && want=0x8 mask=0x8
	hit=0
	for f in $flags; do
		[ $((f & mask)) -eq $((want)) ] && hit=1
	done
	if [ $hit -eq 1 ]; then
		tap_ok "$kind: an AUX record carries flags $want (perf report -D)"
	else
		tap_fail "$kind: an AUX record carries flags $want (perf report -D)" "AUX flags seen: ${flags:-none}"
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
	if [ "$bad" -le "$partial" ] && [ -z "$derr" ]; then
		[ "$partial" -eq 0 ] || echo "# $kind: host perf: $bad bad packets, $partial partial AUX records"
		tap_ok "$kind: the recording decodes (spe-decode, host perf) without an error"
	else
		tap_fail "$kind: the recording decodes (spe-decode, host perf) without an error" \
			"host perf bad lines: $bad, partial AUX records: $partial" "spe-decode: ${derr:-ok}"
	fi
done
spe_result_is "arm_spe.ko unloads" "$out" rmmod.rc 0
spe_kernel_log_tap "6.1 n1 faults" "$out"
[ "$rc" -eq 0 ] || tap_fail "guest script exit status" "run-guest.sh exited $rc"
tap_done
