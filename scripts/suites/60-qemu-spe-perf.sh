#!/usr/bin/env bash
# perf's usual SPE checks on QEMU's emulated Statistical Profiling Unit
# (-cpu max,spe=on, Documentation/dev-tools/qemu-spe.rst) through the project's
# hardware module arm_spe.ko, real arm64 perf of the guest kernel's release
# in the guest (guest/qemu-spe-perf.sh), each recording checked on the host
# with that release's x86 perf (scripts/lib/perf-dump.sh):
#   1. snapshot mode (perf record -S -a, SIGUSR2 twice): at least two
#      snapshots, every AUX record OVERWRITE, data that host perf and
#      spe-decode decode cleanly and to the same records;
#   2. system wide: EL0 and kernel (EL1, or EL2 in a VHE guest) records,
#      decoded cleanly;
#   3. discard=1 (SPEv1p2 profiles): perf record succeeds and no SPE record
#      is written, while the CPU PMU's SAMPLE_FEED and SAMPLE_FILTRATE show
#      the unit sampled; the format hides discard on SPEv1p1 profiles;
#   4. perf mem record / perf mem report --stdio (or, where perf 6.1 cannot
#      find the PMU, the event perf mem opens, recorded by perf record);
#   5. CPU 1 offline and online during a system-wide recording: perf
#      succeeds, the data decodes cleanly, the workload pinned to CPU 0 is
#      sampled; then a new recording samples the workload pinned to CPU 1
#      (6.1 and 6.12's perf core drops a per-CPU event of a CPU that goes
#      offline: the first recording's CPU 1 event does not come back);
#   6. one CPU (perf record -C 1) with the workload on both CPUs: samples
#      of CPU 1 only, decoded cleanly;
#   7. perf c2c record / perf c2c report --stdio: the report's totals count
#      records and loads (perf 5.10 has no SPE c2c: it says so, skipped);
#   8. SPE with tracepoints (sched_switch, sys_enter_read,
#      irq_handler_entry), system wide, without and with --switch-events,
#      and unprivileged with --switch-events (no CONTEXT packets: the
#      switch records give each sample its thread): spe-decode script
#      prints what host perf script prints, byte for byte, tracepoint
#      lines and thread attribution included;
#   then arm_spe unloads, the kernel log has no warning, BUG, oops or
#   lockdep report, and only out-of-tree/unsigned taints.
# Default: profile v2, 2 CPUs, the oldest Debian kernel (bullseye's 5.10,
# perf 5.10) at EL1 and the newest (trixie-backports, its perf) at EL2
# (VHE); SPE_GUEST_KERNELS="K..." (or "all", as `make matrix` does) boots
# each of those at EL1 and at EL2.  `60-qemu-spe-perf.sh 6.1 n1 el1 [SMP]`
# runs one guest; `--matrix` runs 6.1 and 6.12 (bookworm's perf 6.1), EL1
# and EL2, 2 and 4 CPUs (8 guests, not part of make check).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
spe_guest_suite_begin 60-qemu-spe-perf "perf on QEMU's emulated SPE"
# The guest's userland (its perf binary is the one the recordings map):
# guest_root, set per guest kernel in run().
guest_root=/nonexistent

# times_ips: one instruction sample per record, "time ip" (suite 56).
times_ips() {
	"$@" --ns --itrace=i1i -F time,ip 2>/dev/null | awk '{ print $1, $2 }'
}

# decodes NAME DATA MIN: host perf and spe-decode decode DATA cleanly, to
# the same record count (at least MIN) and the same (time, ip) list.
decodes() {
	local name=$1 data=$res/$2 min=$3 n bad m a b errs
	n=$(perf_dump_sum "$data" records)
	bad=$(perf_dump_sum "$data" bad)
	m=$("$decode" report --symfs "$guest_root" "$data" 2>"$data.decode.err" |
		sed -n 's/^# SPE records: \([0-9]*\).*/\1/p')
	errs=$(cat "$data.decode.err")
	a=$(times_ips ref_perf script -i "$data" | md5sum)
	b=$(times_ips "$decode" script "$data" | md5sum)
	if [ "$n" -ge "$min" ] && [ "$bad" = 0 ] && [ "$m" = "$n" ] && [ -z "$errs" ] && [ "$a" = "$b" ]; then
		tap_ok "$name: $n records decode cleanly with host perf and spe-decode, same (time, ip) list"
	else
		tap_fail "$name: at least $min records decode cleanly with host perf and spe-decode" \
			"host perf: $n records, $bad errors; spe-decode: '$m' records;" \
			"(time, ip) lists $([ "$a" = "$b" ] && echo equal || echo differ)" "$(head -n 3 <<<"$errs")"
	fi
}

# spin_samples_on DATA CPU: spe_spin's samples on CPU (three digits), one
# instruction sample per record, as host perf script attributes them.  A
# sample perf cannot give a thread (tid -1: the records carry no CONTEXT
# packet, as on bullseye's 5.10 without PID_IN_CONTEXTIDR, and perf 5.10
# records no context switches) counts when its PC is in spe_spin's main().
spin_samples_on() {
	local main
	main=$(aarch64-linux-gnu-nm -S "$spin" | awk '$4 == "main" { print $1, $2; exit }')
	ref_perf script -i "$res/$1" --itrace=i1i -F tid,comm,cpu,ip 2>/dev/null |
		awk -v c="[$2]" -v lo=$((16#${main% *})) -v len=$((16#${main#* })) '
			$1 == "spe_spin" && $3 == c { n++; next }
			$2 == "-1" && $3 == c {
				pc = strtonum("0x" $4)
				if (pc >= lo && pc < lo + len) n++
			}
			END { print n + 0 }'
}

# script_version: the --perf-version of spe-decode script that prints
# as the reference perf does (6.1, 6.12 or 7.3); empty for another release.
script_version() {
	case $(ref_perf --version 2>/dev/null) in
	"perf version 6.1."*) echo 6.1 ;;
	"perf version 6.12."*) echo 6.12 ;;
	"perf version 7.3."*) echo 7.3 ;;
	esac
}

# same_script NAME DATA KIND: host perf script and spe-decode script print
# DATA the same, byte for byte, with at least 50 SPE samples among them
# (without CONTEXT packets or switch records, as on bullseye's 5.10, they
# have no thread and so no DSO); KIND "tracepoints": with samples of each
# of the three tracepoints; "threads": at least 50 samples in spe_spin with
# its thread (its comm), where the records name none.
same_script() {
	local name=$1 data=$res/$2 kind=$3 v opts=() n_spe n_comm n_tp ok=1 missing=''
	v=$(script_version)
	if [ -z "$v" ]; then
		tap_skip "$name: spe-decode script prints what perf script prints" \
			"no --perf-version for $(ref_perf --version 2>&1 | head -n 1)"
		return
	fi
	# perf 6.1's default groups include the branch misses.
	[ "$v" = 6.1 ] && opts=(--branch-miss)
	ref_perf script -f -i "$data" >"$data.perf" 2>"$data.perf.err"
	"$decode" script --perf-version="$v" "${opts[@]}" "$data" >"$data.spe" 2>"$data.spe.err"
	n_tp=$(grep -cE ' (sched:sched_switch|syscalls:sys_enter_read|irq:irq_handler_entry): ' "$data.perf")
	n_spe=$(($(wc -l <"$data.perf") - n_tp))
	n_comm=$(awk '$1 == "spe_spin" && /\/spe_spin\)$/' "$data.perf" | wc -l)
	case $kind in
	tracepoints)
		for e in sched:sched_switch syscalls:sys_enter_read irq:irq_handler_entry; do
			grep -q " $e: " "$data.perf" || { ok=0; missing+=" $e"; }
		done
		;;
	threads) [ "$n_comm" -ge 50 ] || ok=0 ;;
	esac
	if [ "$ok" = 1 ] && [ "$n_spe" -ge 50 ] && cmp -s "$data.perf" "$data.spe"; then
		tap_ok "$name: spe-decode script --perf-version=$v prints perf's $(wc -l <"$data.perf") lines ($n_spe SPE samples, $n_comm of them in spe_spin with its thread, $n_tp tracepoint samples)"
	else
		tap_fail "$name: spe-decode script --perf-version=$v prints what perf script prints" \
			"perf: $(wc -l <"$data.perf") lines, $n_spe SPE samples, $n_comm in spe_spin with its thread," \
			"$n_tp tracepoint samples${missing:+, none of$missing}" \
			"$(diff "$data.perf" "$data.spe" | head -n 6)" "$(head -n 3 "$data.spe.err" "$data.perf.err")"
	fi
}

# rc_of FILE: a guest exit status, "missing" when there is none.
rc_of() {
	cat "$res/$1" 2>/dev/null || echo missing
}

# run KERNEL PROFILE EL SMP
run() {
	local k=$1 profile=$2 el=$3 smp=$4 name ko out rc=0 kel n a b
	name="$k $profile $el smp=$smp"
	out=$runs/$k-$profile-$el-smp$smp
	kel=$el
	if ! ko=$(spe_driver_ko "$k" 2>"$runs/build-$k.log"); then
		tap_fail "$name: arm_spe.ko builds" "$(tail -n 20 "$runs/build-$k.log")"
		return
	fi
	spe_ref_perf_for "$k"
	guest_root=$("$top/scripts/qemu/fetch-userland.sh" perf "$(spe_guest_perf_suite)") ||
		guest_root=/nonexistent
	(
		[ "$el" = el2 ] && export SPE_QEMU_EL2=1
		"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp "$smp" --spe-qemu "$profile" --with-perf \
			--module "$ko" --file "$spin" --timeout 300 --script "$guest" --out "$out"
	) 2>"$out.log" || rc=$?
	res=$out/results
	spe_guest_came_back "$name" "$out" || return
	spe_result_is "$name: arm_spe.ko loads" "$out" insmod.rc 0

	# perf 5.10 (bullseye's) can neither snapshot SPE nor run perf mem
	# on it: both came with later perf releases.  It says so, and
	# that is what is checked of it.
	local gperf old_perf=0
	gperf=$(sed -n 's/^perf version //p' "$res/perf-version" 2>/dev/null)
	[[ $gperf == 5.* ]] && old_perf=1

	# 1. Snapshot mode.
	local flags shots
	if [ $old_perf = 1 ] && [ "$(rc_of snap.rc)" != 0 ] &&
	   grep -q 'No AUX area tracing to snapshot' "$res/snap.log"; then
		tap_skip "$name: perf record -S -a, SIGUSR2 twice" "perf $gperf: \"No AUX area tracing to snapshot\" (no SPE snapshot mode in this perf)"
	else
	flags=$(perf_dump_list "$res/snap.data" aux | tr '\n' ' ')
	shots=$(perf_dump_max "$res/snap.data" auxtrace)
	n=$(perf_dump_sum "$res/snap.data" records)
	if [ "$(rc_of snap.rc)" = 0 ] && [ "$(rc_of snap-sig1.rc)" = 0 ] && [ "$(rc_of snap-sig2.rc)" = 0 ] &&
	   [ "$shots" -ge 2 ] && [ "$flags" = "0x2 " ] && [ "$n" -gt 0 ]; then
		tap_ok "$name: perf record -S -a, SIGUSR2 twice: $shots snapshots, every AUX record OVERWRITE"
	else
		tap_fail "$name: perf record -S -a, SIGUSR2 twice: two snapshots, every AUX record OVERWRITE" \
			"rc $(rc_of snap.rc) signals $(rc_of snap-sig1.rc)/$(rc_of snap-sig2.rc)" \
			"snapshots $shots records $n AUX flags '$flags'" "$(tail -n 5 "$res/snap.log" 2>&1)"
	fi
	decodes "$name: snapshot" snap.data 50
	fi

	# 2. System wide.
	local el0 kern
	el0=$(perf_dump_sum "$res/sys.data" pc_el el0)
	kern=$(perf_dump_sum "$res/sys.data" pc_el "$kel")
	if [ "$(rc_of sys.rc)" = 0 ] && [ "$el0" -gt 0 ] && [ "$kern" -gt 0 ]; then
		tap_ok "$name: perf record -a: $el0 EL0 and $kern $kel records"
	else
		tap_fail "$name: perf record -a: EL0 and $kel records" \
			"rc $(rc_of sys.rc) EL0 $el0 $kel $kern" "$(tail -n 5 "$res/sys.log" 2>&1)"
	fi
	decodes "$name: system wide" sys.data 50

	# 3. Discard.
	local feed filt
	case $profile in
	v2 | full)
		feed=$(awk -F, '$3 == "r4001" { print $1 }' "$res/discard-stat" 2>/dev/null)
		filt=$(awk -F, '$3 == "r4002" { print $1 }' "$res/discard-stat" 2>/dev/null)
		n=$(perf_dump_sum "$res/discard.data" records)
		if [ "$(rc_of discard.rc)" = 0 ] && grep -qx discard "$res/format" &&
		   [[ ${feed:-x}/${filt:-x} =~ ^[0-9]+/[0-9]+$ ]] && [ "$filt" -gt 100 ] && [ "$n" = 0 ]; then
			tap_ok "$name: discard=1: SAMPLE_FEED $feed, SAMPLE_FILTRATE $filt, no SPE record written"
		else
			tap_fail "$name: discard=1: the unit samples (SAMPLE_FILTRATE) and writes no record" \
				"rc $(rc_of discard.rc) feed '$feed' filtrate '$filt' records $n" \
				"$(tail -n 5 "$res/discard.log" 2>&1)"
		fi
		;;
	*)
		if ! grep -qx discard "$res/format" && [ "$(rc_of discard.rc)" != 0 ]; then
			tap_ok "$name: no discard before SPEv1p2: the format hides it, perf refuses it"
		else
			tap_fail "$name: no discard before SPEv1p2: the format hides it, perf refuses it" \
				"rc $(rc_of discard.rc)" "$(tr "\n" " " <"$res/format" 2>&1)"
		fi
		;;
	esac

	# 4. perf mem.
	local path
	path=$(cat "$res/pmu-path" 2>/dev/null)
	if [ $old_perf = 1 ] && grep -q 'memory events not supported' "$res/mem-record.log" 2>/dev/null; then
		tap_skip "$name: perf mem record and perf mem report" "perf $gperf: \"memory events not supported\" (no SPE perf mem in this perf)"
	else
	a=$(awk '/^# Samples: / { s += $3 } END { print s + 0 }' "$res/mem-report.txt" 2>/dev/null)
	if [ "$(rc_of mem-record.rc)" = 0 ]; then
		if grep -qx 'spe-ldst *: available' "$res/mem-list.txt" &&
		   [ "$(rc_of mem-report.rc)" = 0 ] && [ "$a" -gt 0 ] && grep -q ' spe_spin ' "$res/mem-report.txt"; then
			tap_ok "$name: perf mem record (spe-ldst) and perf mem report --stdio: $a samples"
		else
			tap_fail "$name: perf mem record and perf mem report --stdio show samples" \
				"report rc $(rc_of mem-report.rc) samples $a" "$(cat "$res/mem-list.txt" 2>&1)"
		fi
	elif grep -q 'memory events not supported' "$res/mem-record.log" &&
	     [ "$path" != /sys/devices/arm_spe_0 ]; then
		tap_skip "$name: perf mem record" "perf 6.1 looks for /sys/devices/arm_spe_0; the PMU device has a parent here ($path)"
	else
		tap_fail "$name: perf mem record" "rc $(rc_of mem-record.rc)" "$(cat "$res/mem-record.log" 2>&1)"
	fi
	a=$(awk '/^# Samples: / { s += $3 } END { print s + 0 }' "$res/memev-report.txt" 2>/dev/null)
	if [ "$(rc_of memev-record.rc)" = 0 ] && [ "$(rc_of memev-report.rc)" = 0 ] &&
	   [ "$a" -gt 0 ] && grep -q ' spe_spin ' "$res/memev-report.txt"; then
		tap_ok "$name: perf mem's event (load_filter, store_filter) recorded, perf mem report --stdio: $a samples"
	else
		tap_fail "$name: perf mem's event recorded by perf record, perf mem report --stdio shows samples" \
			"rc $(rc_of memev-record.rc)/$(rc_of memev-report.rc) samples $a" "$(cat "$res/memev-record.log" 2>&1)"
	fi
	fi

	# 5. CPU hotplug during a recording.
	local on0 on1
	on0=$(spin_samples_on hotplug.data 000)
	if [ "$(rc_of hotplug.rc)" = 0 ] && [ "$(rc_of hotplug-off.rc)" = 0 ] &&
	   [ "$(rc_of hotplug-on.rc)" = 0 ] && [ "$(rc_of hotplug-online)" = 1 ] && [ "$on0" -ge 50 ]; then
		tap_ok "$name: CPU 1 offline and online during perf record -a: $on0 samples of the workload on CPU 0"
	else
		tap_fail "$name: CPU 1 offline and online during perf record -a, the workload sampled on CPU 0" \
			"rc $(rc_of hotplug.rc) offline $(rc_of hotplug-off.rc) online $(rc_of hotplug-on.rc)" \
			"cpu1/online $(rc_of hotplug-online), samples on CPU 0: $on0" "$(tail -n 5 "$res/hotplug.log" 2>&1)"
	fi
	decodes "$name: across the hotplug" hotplug.data 50
	on1=$(spin_samples_on after.data 001)
	if [ "$(rc_of after.rc)" = 0 ] && [ "$on1" -ge 50 ]; then
		tap_ok "$name: after the hotplug, perf record -a samples the workload on CPU 1 ($on1)"
	else
		tap_fail "$name: after the hotplug, perf record -a samples the workload on CPU 1" \
			"rc $(rc_of after.rc), samples on CPU 1: $on1" "$(tail -n 5 "$res/after.log" 2>&1)"
	fi

	# 6. One CPU.
	on0=$(spin_samples_on percpu.data 000)
	on1=$(spin_samples_on percpu.data 001)
	if [ "$(rc_of percpu.rc)" = 0 ] && [ "$on1" -ge 50 ] && [ "$on0" = 0 ]; then
		tap_ok "$name: perf record -C 1, the workload on both CPUs: $on1 samples on CPU 1, none on CPU 0"
	else
		tap_fail "$name: perf record -C 1, the workload on both CPUs: samples of CPU 1 only" \
			"rc $(rc_of percpu.rc), samples on CPU 1: $on1, on CPU 0: $on0" "$(tail -n 5 "$res/percpu.log" 2>&1)"
	fi
	decodes "$name: one CPU" percpu.data 50

	# 7. perf c2c: its report's totals count the recording's loads.
	local total loads
	total=$(awk -F: '/^ *Total records *:/ { gsub(/ /, "", $2); print $2; exit }' "$res/c2c-report.txt" 2>/dev/null)
	loads=$(awk -F: '/^ *Load Operations *:/ { gsub(/ /, "", $2); print $2; exit }' "$res/c2c-report.txt" 2>/dev/null)
	if [ $old_perf = 1 ] && [ "$(rc_of c2c-record.rc)" != 0 ] &&
	   grep -q 'memory events not supported\|failed: no PMU' "$res/c2c-record.log" 2>/dev/null; then
		tap_skip "$name: perf c2c record and report" "perf $gperf: $(head -n 1 "$res/c2c-record.log") (no SPE perf c2c in this perf)"
	elif [ "$(rc_of c2c-record.rc)" = 0 ] && [ "$(rc_of c2c-report.rc)" = 0 ] &&
	     [[ ${total:-x}/${loads:-x} =~ ^[0-9]+/[0-9]+$ ]] && [ "$total" -gt 0 ] && [ "$loads" -gt 0 ]; then
		tap_ok "$name: perf c2c record and report --stdio: $total records, $loads loads"
	elif grep -q 'memory events not supported' "$res/c2c-record.log" 2>/dev/null &&
	     [ "$path" != /sys/devices/arm_spe_0 ]; then
		# perf c2c finds the PMU as perf mem does (4. above).
		tap_skip "$name: perf c2c record and report" "perf $gperf looks for /sys/devices/arm_spe_0; the PMU device has a parent here ($path)"
	else
		tap_fail "$name: perf c2c record and report --stdio count the recording's loads" \
			"rc $(rc_of c2c-record.rc)/$(rc_of c2c-report.rc), total '$total', loads '$loads'" \
			"$(tail -n 3 "$res/c2c-record.log" "$res/c2c-report.log" 2>&1)" \
			"$(head -n 20 "$res/c2c-report.txt" 2>&1)"
	fi

	# 8. SPE with tracepoints and context switches.
	local sw ctx
	for f in mixed mixed-switch; do
		sw=$(perf_dump_sum "$res/$f.data" switch_cpu_wide)
		if [ "$(rc_of "$f.rc")" = 0 ] && { [ $f = mixed ] || [ "$sw" -gt 0 ]; }; then
			tap_ok "$name: perf record -a of arm_spe// and three tracepoints$([ $f = mixed ] || echo ", --switch-events: $sw CPU-wide switch records")"
		else
			tap_fail "$name: perf record -a of arm_spe// and three tracepoints" \
				"rc $(rc_of "$f.rc"), switch records $sw" "$(tail -n 5 "$res/$f.log" 2>&1)"
		fi
		same_script "$name: $f.data" "$f.data" tracepoints
	done
	sw=$(perf_dump_sum "$res/unpriv-switch.data" switch_cpu_wide)
	ctx=$(perf_dump_sum "$res/unpriv-switch.data" context)
	if [ "$(rc_of unpriv-switch.rc)" = 0 ] && [ "$sw" -gt 0 ] && [ "$ctx" = 0 ]; then
		tap_ok "$name: unprivileged perf record -a --switch-events: $sw switch records, no CONTEXT packet"
	else
		tap_fail "$name: unprivileged perf record -a --switch-events: switch records, no CONTEXT packet" \
			"rc $(rc_of unpriv-switch.rc), switch records $sw, CONTEXT packets $ctx" \
			"$(tail -n 5 "$res/unpriv-switch.log" 2>&1)"
	fi
	same_script "$name: unpriv-switch.data (threads from the switch records)" unpriv-switch.data threads

	spe_result_is "$name: arm_spe.ko unloads" "$out" rmmod.rc 0
	spe_kernel_log_tap "$name" "$out"
	spe_taint_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

start=$SECONDS
if [ "${1:-}" = --matrix ]; then
	for k in 6.1 6.12; do
		for el in el1 el2; do
			for smp in 2 4; do
				run "$k" v2 "$el" "$smp"
			done
		done
	done
	run 6.1 n1 el1 2
elif [ $# -ge 3 ]; then
	run "$1" "$2" "$3" "${4:-2}"
elif [ -z "${SPE_GUEST_KERNELS:-}" ]; then
	mapfile -t kernels < <(spe_guest_kernels)
	run "${kernels[0]}" v2 el1 2
	run "${kernels[1]}" v2 el2 2
else
	for k in $(spe_guest_kernels); do
		run "$k" v2 el1 2
		run "$k" v2 el2 2
	done
fi
echo "# guests in $((SECONDS - start)) s"
tap_done
