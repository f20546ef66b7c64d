#!/usr/bin/env bash
# The simulated SPE PMU (arm_spe_sim.ko, profile n1) under real arm64 perf in
# QEMU guests (Debian 6.1 and 6.12 at EL1, 6.12 at EL2 as a VHE host; 2 CPUs,
# SPE device-tree node), decoded on
# the host by host perf (perf report -D, perf script) and spe-decode:
#   - it registers arm_spe_0 with the profile's caps and format;
#   - per task with exclude_kernel: records present, every PC at EL0 in the
#     workload, CONTEXTIDR = its PID, timestamps non-decreasing per CPU;
#   - system wide: EL0 and kernel records, and every record the unit wrote
#     (debugfs "records") is in perf.data: no data lost with the default
#     4 MiB AUX buffer; the sampler's own CPU time stays under 5%;
#   - an 8-page AUX buffer: PMBIRQ arrives through the GIC (set pending) and
#     still nothing is lost or truncated;
#   - load_filter: only loads; injected stage 1 fault: the driver stops with
#     its message and a TRUNCATED AUX record; forced collisions (a run of
#     their own): COLLISION flag and SAMPLE_COLLISION; "none" disarms both;
#   - the selftests/arm_spe programs pass over the simulated unit;
#   - direct_irq=1 (no pending PPI): the handler runs from the tick, and
#     still nothing is lost with an 8-page AUX buffer;
#   - profile v2: discard mode counts samples and writes nothing;
#   - unload, no kernel warning, only out-of-tree/unsigned taints.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
# shellcheck source=scripts/lib/perf-dump.sh
. "$top/scripts/lib/perf-dump.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
runs=$top/build/qemu/runs/55-guest-sim-perf
guest=$top/scripts/qemu/guest/sim-perf.sh
decode=$top/build/spe-decode/spe-decode

spe_guest_suite_prereqs "simulated SPE under perf in the guest"
mkdir -p "$runs"
spin=$runs/spe_spin
spe_suite_build_spin "$spin"

sel=$runs/selftests
if ! out=$(make -s -C "$top/selftests/arm_spe" OUTPUT="$sel" 2>&1); then
	tap_fail "selftests build" "$out"
	tap_done
	exit 1
fi

# stat FILE CPU KEY: a value from the guest's saved debugfs statistics.
stat() {
	awk -v c="cpu$2" -v k="$3" '$1 == c && $2 == k { print $3 }' "$res/stats-$1"
}
# delta RUN KEY: KEY summed over CPUs, after minus before RUN.
delta() {
	local b a
	b=$(awk -v k="$2" '$2 == k { s += $3 } END { print s + 0 }' "$res/stats-$1-before")
	a=$(awk -v k="$2" '$2 == k { s += $3 } END { print s + 0 }' "$res/stats-$1-after")
	echo $((a - b))
}
# fact RUN KEY [ARG...]: a count from host perf's packet dump of RUN.data
# (scripts/lib/perf-dump.sh).
fact() {
	local data=$res/$1.data
	shift
	perf_dump_sum "$data" "$@"
}
nr_pcs() {
	fact "$1" records
}
# The AUX records' flags (hex), each value once; all_aux_flags: with counts.
aux_flags() {
	perf_dump_list "$res/$1.data" aux
}
all_aux_flags() {
	perf_dump_facts "$res/$1.data" | grep '^aux '
}
# has_flag BIT FLAGS...: some AUX record has BIT (1 TRUNCATED, 8 COLLISION).
has_flag() {
	local bit=$1 f
	shift
	for f in "$@"; do
		(((f & bit) != 0)) && return 0
	done
	return 1
}

# run KERNEL [el2]: el2 boots the kernel at EL2 (VHE), where kernel
# samples are EL2 and the context comes from CONTEXTIDR_EL2.
run() {
	local k=$1 kel=el1 name ko rc=0 n m
	name="$k"
	if [ "${2:-}" = el2 ]; then
		kel=el2
		name="$k VHE"
	fi
	if ! ko=$(spe_driver_ko "$k" arm_spe_sim 2>&1); then
		tap_fail "$name: arm_spe_sim.ko builds" "$ko"
		return
	fi
	out=$runs/$k-$kel
	SPE_QEMU_EL2=${2:+1} "$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --spe-node --with-perf \
		--module "$ko" --file "$spin" --selftests "$sel" --timeout 300 --script "$guest" --out "$out" \
		2>"$out.log" || rc=$?
	res=$out/results
	spe_guest_came_back "$name" "$out" || return

	[ "$(cat "$res/insmod.rc")" = 0 ] && grep -qx arm_spe_0 "$res/pmus" &&
		tap_ok "$name: arm_spe_sim loads and registers arm_spe_0" ||
		tap_fail "$name: arm_spe_sim loads and registers arm_spe_0" "$(grep -i spe "$res/dmesg.txt")"
	want=$'arch_inst 0\ncount_size 12\nernd 0\nevent_filter 0x18aa\nmin_interval 1024'
	[ "$(cat "$res/caps")" = "$want" ] &&
		tap_ok "$name: caps are the n1 profile's" ||
		tap_fail "$name: caps are the n1 profile's" "$(cat "$res/caps")"
	local f missing=''
	for f in ts_enable pa_enable pct_enable jitter load_filter store_filter branch_filter event_filter min_latency; do
		grep -qx "$f" "$res/format" || missing+=" $f"
	done
	grep -qx discard "$res/format" && missing+=" (discard shown)"
	[ -z "$missing" ] &&
		tap_ok "$name: format has the n1 attributes and hides discard (SPEv1p1)" ||
		tap_fail "$name: format has the n1 attributes and hides discard (SPEv1p1)" "missing:$missing"

	# Per task, user space only.
	n=$(nr_pcs task-u)
	m=$((n - $(fact task-u pc_el el0)))
	[ "$(cat "$res/task-u.rc")" = 0 ] && [ "$n" -gt 100 ] && [ "$m" -eq 0 ] &&
		tap_ok "$name: per task /u: $n records, every PC at EL0" ||
		tap_fail "$name: per task /u: records, every PC at EL0" "rc $(cat "$res/task-u.rc") records $n not-EL0 $m"
	local pid ctx
	pid=$(perf script -F pid,comm -i "$res/task-u.data" 2>/dev/null | awk '$1 == "spe_spin" { print $2; exit }')
	ctx=$(perf_dump_list "$res/task-u.data" context "$kel")
	[ -n "$pid" ] && [ "$ctx" = "$(printf '%x' "$pid")" ] &&
		tap_ok "$name: per task: perf script attributes samples to spe_spin, CONTEXTIDR is its PID ($pid)" ||
		tap_fail "$name: per task: perf script attributes samples to spe_spin, CONTEXTIDR is its PID" "pid '$pid' contexts: $ctx"
	[ "$(fact task-u ts_backwards)" = 0 ] && [ "$(fact task-u ts)" = "$n" ] &&
		tap_ok "$name: per task: every record has a timestamp, non-decreasing per CPU" ||
		tap_fail "$name: per task: every record has a timestamp, non-decreasing per CPU" "$(fact task-u ts_backwards) backwards"
	m=$("$decode" report "$res/task-u.data" 2>&1 | sed -n 's/^# SPE records: \([0-9]*\).*/\1/p')
	[ "$m" = "$n" ] &&
		tap_ok "$name: spe-decode and host perf agree on the record count ($n)" ||
		tap_fail "$name: spe-decode and host perf agree on the record count" "spe-decode '$m' perf $n"

	# System wide: nothing lost, both exception levels, sampler cost.
	n=$(nr_pcs sys)
	m=$(delta sys records)
	[ "$(cat "$res/sys.rc")" = 0 ] && [ "$n" -gt 100 ] && [ "$n" = "$m" ] &&
		[ -z "$(aux_flags sys | grep -v '^0x0$')" ] &&
		tap_ok "$name: system wide, 4 MiB AUX: all $m records the unit wrote are in perf.data, no AUX flags" ||
		tap_fail "$name: system wide, 4 MiB AUX: all records the unit wrote are in perf.data, no AUX flags" \
			"perf.data $n unit $m flags $(all_aux_flags sys)"
	# (grep -q in a pipeline would fail it by SIGPIPE under pipefail)
	local els
	els=$(perf_dump_list "$res/sys.data" pc_el | tr '\n' ' ')
	[ "$els" = "el0 $kel " ] &&
		tap_ok "$name: system wide: EL0 and kernel records" ||
		tap_fail "$name: system wide: EL0 and kernel records" "exception levels: $els"
	local busy ticks base rate
	# The busiest CPU's time in the timer callback over the 3 s run.
	busy=$(awk '$2 == "busy_ns" { if (FILENAME ~ /before$/) b[$1] = $3; else d = $3 - b[$1]; if (d > max) max = d }
		END { printf "%.2f", max / 1e9 / 3 * 100 }' "$res/stats-sys-before" "$res/stats-sys-after")
	ticks=$(delta sys ticks)
	base=$(awk '{ print $1 }' "$res/spin-base")
	rate=$(awk '{ print $1 }' "$res/spin-sys")
	echo "# $name: sampler busy ${busy}% of the busiest CPU ($ticks ticks, $m records in 3 s); spinner $rate/s vs $base/s alone"
	# A debug kernel instruments every access of the unit's model
	# (KCSAN, KASAN): there the budget would measure the instrumentation.
	spe_kernel "$k"
	if [ -n "$KFLAVOUR" ]; then
		tap_skip "$name: the simulated unit's ticks cost under 5% of a CPU (${busy}%)" \
			"a cost budget means nothing on the instrumented $KFLAVOUR kernel"
	elif awk -v b="$busy" 'BEGIN { exit !(b < 5) }'; then
		tap_ok "$name: the simulated unit's ticks cost under 5% of a CPU (${busy}%)"
	else
		tap_fail "$name: the simulated unit's ticks cost under 5% of a CPU" "${busy}%"
	fi

	# Small AUX buffer: PMBIRQ through the GIC, still nothing lost.
	local pended before after
	n=$(nr_pcs small)
	m=$(delta small records)
	pended=$(delta small irq_pended)
	before=$(awk '{ s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' "$res/irqs-small-before")
	after=$(awk '{ s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' "$res/irqs-small-after")
	[ "$pended" -gt 0 ] && [ $((after - before)) -ge "$pended" ] &&
		tap_ok "$name: 8-page AUX: PMBIRQ made pending $pended times, the PPI was taken $((after - before)) times" ||
		tap_fail "$name: 8-page AUX: PMBIRQ made pending and taken as the PPI" "pended $pended taken $((after - before)) direct $(delta small irq_direct)"
	[ "$(cat "$res/small.rc")" = 0 ] && [ "$n" -gt 100 ] && [ "$n" = "$m" ] &&
		[ -z "$(aux_flags small | grep -v '^0x0$')" ] &&
		tap_ok "$name: 8-page AUX: all $m records in perf.data, none truncated" ||
		tap_fail "$name: 8-page AUX: all records in perf.data, none truncated" \
			"perf.data $n unit $m flags $(all_aux_flags small)"

	# load_filter.
	n=$("$decode" report "$res/load.data" 2>&1 | sed -n 's/^# SPE records: //p')
	[[ $n =~ ^[1-9][0-9]*\ +\(load\ [0-9]+,\ store\ 0,\ branch\ 0,\ other\ 0\) ]] &&
		tap_ok "$name: load_filter: only loads recorded ($n)" ||
		tap_fail "$name: load_filter: only loads recorded" "$n"

	# Injected faults and collisions.
	local flags
	flags=$(aux_flags fault | tr '\n' ' ')
	grep -q 'profiling stopped: translation fault at level 3' "$res/dmesg.txt" &&
		[ "$(delta inject faults_injected)" -gt 0 ] &&
		has_flag 1 $flags &&
		tap_ok "$name: injected stage 1 fault: driver reports it, AUX record TRUNCATED" ||
		tap_fail "$name: injected stage 1 fault: driver reports it, AUX record TRUNCATED" \
			"flags $flags" "$(grep 'profiling stopped' "$res/dmesg.txt")"
	flags=$(aux_flags coll | tr '\n' ' ')
	[ "$(delta coll sample_collision)" -gt 0 ] &&
		has_flag 8 $flags &&
		tap_ok "$name: forced collisions: SAMPLE_COLLISION counts, AUX record has COLLISION" ||
		tap_fail "$name: forced collisions: SAMPLE_COLLISION counts, AUX record has COLLISION" \
			"collisions $(delta coll sample_collision) flags $flags"
	# Every CPU armed (both kinds), then nothing left after "none".
	local armed left
	armed=$(awk '$2 == "inject_armed" { n++ } ($2 == "inject_armed" && $3 == "s2") ||
		     ($2 == "collisions_pending" && $3 >= 5) { a++ }
		     END { print (n && a == 2 * n) ? "all" : "not all" }' "$res/stats-armed" 2>/dev/null)
	left=$(awk '($2 == "inject_armed" && $3 != "none") ||
		    ($2 == "collisions_pending" && $3 != 0)' "$res/stats-disarmed" 2>&1)
	[ "$armed" = all ] && [ -f "$res/stats-disarmed" ] && [ -z "$left" ] &&
		tap_ok "$name: \"none\" disarms what idle CPUs still held before the selftests" ||
		tap_fail "$name: \"none\" disarms what idle CPUs still held before the selftests" "armed: $(grep -E 'inject_armed|collisions_pending' "$res/stats-armed" | tr '\n' ' ') left: $left"

	# The selftests (selftests/arm_spe), run over the simulated unit.
	local t trc
	for t in "$sel"/test_*; do
		t=$(basename "$t")
		trc=$(cat "$res/selftest-$t.rc" 2>/dev/null || echo missing)
		case $trc in
		0) tap_ok "$name: selftest $t passes ($(grep -c '^ok' "$res/selftest-$t.tap") checks)" ;;
		4) tap_skip "$name: selftest $t" "$(grep -m1 SKIP "$res/selftest-$t.tap")" ;;
		*)
			tap_fail "$name: selftest $t passes" "exit $trc" \
				"$(grep -E '^not ok|^# ' "$res/selftest-$t.tap" 2>/dev/null)"
			;;
		esac
	done

	[ "$(cat "$res/rmmod.rc")" = 0 ] && tap_ok "$name: arm_spe_sim unloads" ||
		tap_fail "$name: arm_spe_sim unloads"
	# direct_irq=1: the handler called from the tick, nothing lost.
	n=$(nr_pcs direct)
	m=$(delta direct records)
	[ "$(cat "$res/direct-insmod.rc")" = 0 ] && [ "$(cat "$res/direct.rc")" = 0 ] &&
		[ "$(delta direct irq_direct)" -gt 0 ] && [ "$(delta direct irq_pended)" = 0 ] &&
		[ "$n" -gt 100 ] && [ "$n" = "$m" ] && [ -z "$(aux_flags direct | grep -v '^0x0$')" ] &&
		[ "$(cat "$res/direct-rmmod.rc")" = 0 ] &&
		tap_ok "$name: direct_irq=1: the handler ran $(delta direct irq_direct) times from the tick, all $m records in perf.data, none flagged" ||
		tap_fail "$name: direct_irq=1: handler called from the tick, nothing lost" \
			"direct $(delta direct irq_direct) pended $(delta direct irq_pended) perf.data $n unit $m" \
			"flags $(all_aux_flags direct) rc $(cat "$res/direct.rc") $(cat "$res/direct.log")"
	# Profile v2: discard mode.
	local filt
	filt=$(delta discard sample_filtrate)
	m=$(delta discard records)
	[ "$(cat "$res/v2-insmod.rc")" = 0 ] && [ "$(cat "$res/discard.rc")" = 0 ] &&
		[ "$filt" -gt 0 ] && [ "$m" = 0 ] && [ "$(nr_pcs discard)" = 0 ] &&
		tap_ok "$name: profile v2, discard=1: $filt samples pass the filters, no record is written" ||
		tap_fail "$name: profile v2, discard=1: samples counted, no record written" \
			"filtrate $filt records $m rc $(cat "$res/discard.rc") $(cat "$res/discard.log")"
	[ "$(cat "$res/v2-selftest.rc")" = 0 ] && [ "$(cat "$res/v2-rmmod.rc")" = 0 ] &&
		tap_ok "$name: profile v2: selftest test_sim_events passes (caps, discard opens), unloads" ||
		tap_fail "$name: profile v2: selftest test_sim_events passes, unloads" \
			"$(grep -E '^not ok|^# ' "$res/v2-selftest.tap")"

	spe_kernel_log_tap "$name" "$out"
	spe_taint_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
	echo "# $name: spinner iterations/s alone: $(awk '{ printf "%s ", $1 }' "$res/ab-alone"); under system-wide SPE: $(awk '{ printf "%s ", $1 }' "$res/ab-spe")"
}

start=$SECONDS
if [ $# -ge 1 ]; then
	# KERNEL [el2]: one guest (scripts/check-debug.sh).
	run "$1" "${2:-}"
else
	run 6.12
	if [ -z "${SPE_SIM_QUICK:-}" ]; then
		run 6.1
		run 6.12 el2
	fi
fi
echo "# guest runs took $((SECONDS - start)) s"
tap_done
