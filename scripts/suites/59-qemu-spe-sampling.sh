#!/usr/bin/env bash
# Sampling on QEMU's emulated Statistical Profiling Unit (qemu/patches/0004,
# Documentation/dev-tools/qemu-spe.rst): real arm64 perf in guests booted with
# -cpu max,spe=on records the spe_spin workload (known code: main's loop;
# known data: its static array), first through the project's unmodified
# hardware module arm_spe.ko, then through Debian's in-tree arm_spe_pmu,
# and the host checks each recording:
#   - perf record succeeds and writes records; host perf report -D and
#     spe-decode decode them without an error and count the same records;
#     host perf script and spe-decode script give the same (time, ip) list;
#   - per task (/u): every record has a timestamp, non-decreasing per CPU;
#     every PC is at EL0 and nearly all fall in spe_spin's
#     main(); the data virtual addresses of the loads and stores fall in
#     its array; loads, stores and conditional branches are all there,
#     and the physical addresses are present (pa_enable=1); each load
#     has a Data Source packet (L1D, system cache or DRAM) when the
#     profile has PMSIDR_EL1.LDS, none otherwise; the v2 guest has a
#     Neoverse V2 MIDR_EL1, and spe-decode names those sources' levels;
#   - system wide: EL0 samples and kernel samples (EL1, or EL2 in a VHE
#     guest);
#   - the CPU's PMU advertises and counts the unit's events: SAMPLE_POP,
#     SAMPLE_FEED one in (interval + 1) of it, SAMPLE_FILTRATE at least the
#     records perf wrote, no SAMPLE_COLLISION;
#   - an SVE workload (qemu/tests/spe-sve.c): its contiguous and
#     gather/scatter loads and stores and SVE data processing are sampled
#     as SVE operations at its vector length, their addresses in its arrays;
#   - an atomics loop (qemu/tests/spe-atomics.c: LDADD, SWP, CAS, a PRFM
#     and six ALU and branch instructions): every PC of it gets 5-20% of
#     the samples, the atomics' records are loads with AT and a Data
#     Source, and load_filter=1 samples them and nothing else of the loop
#     (not the prefetch, an "other" operation, DDI 0586A §2.3.4);
#   - a loop with failing instructions (qemu/tests/spe-failing.c): a
#     load that aborts completes with an exception and has no PA, a load
#     beside it retires with one; a CSEL failing its condition has E[6]
#     (NOT-TAKEN), a CCMP passing it does not;
#   - differential: the two drivers' per-task recordings agree on the
#     workload's mix (loads, stores, conditional branches, L1D hits), and
#     for each of eleven sets of format terms the two program the unit the
#     same: PMSCR, PMSFCR, PMSEVFR, PMSLATFR, PMSIRR, PMSNEVFR and the
#     buffer's fill mode read back on the CPU during a recording
#     (qemu/tests/spe-live-regs-kmod); a term the kernel's driver lacks
#     is skipped;
#   - both drivers unload; the kernel log has no warning, BUG or oops.
# Guests: the oldest Debian kernel (bullseye's 5.10, which has no in-tree
# arm_spe_pmu: arm_spe.ko alone) at EL1 (profile n1) and the newest
# (trixie-backports) at EL2 as a VHE host (v2), each with its release's
# own perf in the guest and its release's x86 perf as the host's reference
# (scripts/lib/perf-dump.sh); SPE_GUEST_KERNELS="K..." (or "all", as
# `make matrix` does) boots each of those at EL1 and at EL2.
# The workload's rate with and without profiling is printed (a TAP comment).
# `59-qemu-spe-sampling.sh 6.12 v2 el2` runs one guest; `--matrix` runs
# 6.1 and 6.12 at every profile and EL (16 guests, about 15 minutes: not
# part of make check).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
spe_guest_suite_begin 59-qemu-spe-sampling "sampling on QEMU's emulated SPE"
# cross_workload NAME MARCH: qemu/tests/NAME.c, built static for the
# guests; prints its path.
cross_workload() {
	local bin=$runs/$1
	if ! aarch64-linux-gnu-gcc -std=gnu11 -Wall -Wextra -Werror -O2 -static -march="$2" \
		-o "$bin" "$top/qemu/tests/$1.c" 2>"$bin.log"; then
		tap_fail "the workload qemu/tests/$1.c cross-compiles" "$(cat "$bin.log")"
		tap_done
		exit 1
	fi
	echo "$bin"
}
sve=$(cross_workload spe-sve armv8.2-a+sve) || exit 1
atomics=$(cross_workload spe-atomics armv8.1-a) || exit 1
failing=$(cross_workload spe-failing armv8-a) || exit 1
# The format-term sets the two drivers' programming is compared on (the
# guest's readback): one perf event term list and modifiers a line.
readback_terms=$runs/readback.terms
cat >"$readback_terms" <<'TERMS'
ts_enable=1/
ts_enable=1,pa_enable=1,pct_enable=1/
ts_enable=0,jitter=1/
branch_filter=1/
load_filter=1,store_filter=1/
event_filter=0x2/
event_filter=0x2,inv_event_filter=0x80/
min_latency=64/
ts_enable=1/u
ts_enable=1/k
discard=1/
TERMS

# The atomics loop: ten instructions from atomics_loop, the first three
# LDADD, SWP and CAS (decimal addresses).
loop_at=$((16#$(aarch64-linux-gnu-nm "$atomics" | awk '$3 == "atomics_loop" { print $1 }')))

# The failing-instructions loop's four PCs (decimal addresses).
failing_pcs=$(aarch64-linux-gnu-nm "$failing" | awk '
	{ a[$3] = $1 }
	END { for (i = 1; i <= 4; i++) printf "%d ", strtonum("0x" a[want[i]]) }
	BEGIN { want[1] = "failing_ldr"; want[2] = "passing_ldr"; want[3] = "failing_csel"; want[4] = "passing_ccmp" }')

# The workload's code and data, from its symbol table: "start end" (hex).
sym_range() {
	aarch64-linux-gnu-nm -S "$spin" | awk -v s="$1" '$4 == s { print $1, $2; exit }'
}
read -r main_at main_size <<<"$(sym_range main)"
read -r array_at array_size <<<"$(sym_range array)"
if [ -z "${main_size:-}" ] || [ -z "${array_size:-}" ]; then
	tap_fail "spe_spin's main and array are in its symbol table" "$(aarch64-linux-gnu-nm -S "$spin" | grep -wE 'main|array')"
	tap_done
	exit 1
fi

# times_ips: one instruction sample per record, "time ip" (suite 56).
times_ips() {
	"$@" --ns --itrace=i1i -F time,ip 2>/dev/null | awk '{ print $1, $2 }'
}
# comm_tids: how many records each (comm, tid) has, one instruction sample
# per record.
comm_tids() {
	"$@" --itrace=i1i -F comm,tid 2>/dev/null | awk '{ print $1, $2 }' | sort | uniq -c |
		awk '{ print $2, $3, $1 }'
}
# in_range START SIZE: of the "0xADDR" lines on stdin, "inside total" for
# [START, START+SIZE) (hex, no 0x).
in_range() {
	local lo=$((16#$1)) hi i=0 t=0 a
	hi=$((lo + 16#$2))
	while read -r a; do
		[ -n "$a" ] || continue
		t=$((t + 1))
		a=$((a))
		((a >= lo && a < hi)) && i=$((i + 1))
	done
	echo "$i $t"
}

# check_recording NAME DATA USER: the recording decodes cleanly with host
# perf and spe-decode; USER=1 (per task, /u) also checks what it sampled.
check_recording() {
	local name=$1 data=$2 user=$3 n m bad errs a b in tot vas lds sts brs pas ts el0
	n=$(perf_dump_sum "$res/$data" records)
	bad=$(perf_dump_sum "$res/$data" bad)
	m=$("$decode" report "$res/$data" 2>"$res/$data.decode.err" |
		sed -n 's/^# SPE records: \([0-9]*\).*/\1/p')
	# The one warning allowed: the guest's binaries (perf itself, in a
	# system-wide recording) are not the host's files of the same name.
	errs=$(grep -v 'build id .* in the recording, the file.s is .*: not used' "$res/$data.decode.err")
	if [ "$n" -ge 50 ] && [ "$bad" = 0 ] && [ "$m" = "$n" ] && [ -z "$errs" ]; then
		tap_ok "$name: $n records decode cleanly with host perf and spe-decode"
	else
		tap_fail "$name: records decode cleanly with host perf and spe-decode" \
			"host perf: $n records, $bad errors; spe-decode: '$m' records" \
			"$(head -n 5 <<<"$errs")"
	fi
	a=$(times_ips ref_perf script -i "$res/$data")
	b=$(times_ips "$decode" script -i "$res/$data")
	if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$(wc -l <<<"$a")" = "$n" ]; then
		tap_ok "$name: host perf script and spe-decode script give the same $n (time, ip) samples"
	else
		tap_fail "$name: host perf script and spe-decode script give the same (time, ip) samples" \
			"perf script $(wc -l <<<"$a"), spe-decode script $(wc -l <<<"$b"), records $n" \
			"$(diff <(echo "$a") <(echo "$b") | head -n 6)"
	fi
	# Threads are renamed mid-recording (perf's exec COMM: perf-exec,
	# then the workload): both name every record alike.
	a=$(comm_tids ref_perf script -i "$res/$data")
	b=$(comm_tids "$decode" script -i "$res/$data")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		tap_ok "$name: host perf script and spe-decode script name the records' threads alike ($(wc -l <<<"$a") comm/tid pairs)"
	else
		tap_fail "$name: host perf script and spe-decode script name the records' threads alike" \
			"$(diff <(echo "$a") <(echo "$b") | head -n 6)"
	fi
	if [ "$user" != 1 ]; then
		local kern
		el0=$(perf_dump_sum "$res/$data" pc_el el0)
		kern=$(($(perf_dump_sum "$res/$data" pc_el el1) + $(perf_dump_sum "$res/$data" pc_el el2)))
		if [ "$el0" -gt 0 ] && [ "$kern" -gt 0 ]; then
			tap_ok "$name: system wide: $el0 EL0 and $kern kernel samples"
		else
			tap_fail "$name: system wide: EL0 and kernel samples" "EL0 $el0, kernel $kern"
		fi
		return
	fi

	read -r in tot <<<"$(perf_dump_addrs "$res/$data" PC | in_range "$main_at" "$main_size")"
	el0=$(perf_dump_sum "$res/$data" pc_el el0)
	if [ "$el0" = "$n" ] && [ "$tot" -gt 0 ] &&
	   [ $((in * 100)) -ge $((tot * 90)) ]; then
		tap_ok "$name: every PC at EL0, $in of $tot in spe_spin's main()"
	else
		tap_fail "$name: every PC at EL0, at least 90% in spe_spin's main()" \
			"$in of $tot in main [0x$main_at +0x$main_size]; $el0 of $n PCs at EL0"
	fi
	vas=$(perf_dump_addrs "$res/$data" VA)
	read -r in tot <<<"$(in_range "$array_at" "$array_size" <<<"$vas")"
	if [ "$tot" -gt 0 ] && [ $((in * 100)) -ge $((tot * 80)) ]; then
		tap_ok "$name: $in of $tot load/store VAs in spe_spin's array"
	else
		tap_fail "$name: at least 80% of load/store VAs in spe_spin's array" \
			"$in of $tot in [0x$array_at +0x$array_size]" "$(head -n 3 <<<"$vas")"
	fi
	m=$(perf_dump_sum "$res/$data" ts_backwards)
	ts=$(perf_dump_sum "$res/$data" ts)
	if [ "$m" = 0 ] && [ "$ts" = "$n" ]; then
		tap_ok "$name: every record has a timestamp, non-decreasing per CPU"
	else
		tap_fail "$name: every record has a timestamp, non-decreasing per CPU" \
			"$m go backwards, $ts timestamps for $n records"
	fi
	lds=$(perf_dump_sum "$res/$data" op ld)
	sts=$(perf_dump_sum "$res/$data" op st)
	brs=$(perf_dump_sum "$res/$data" op b_cond)
	pas=$(perf_dump_sum "$res/$data" pa)
	if [ "$lds" -gt 0 ] && [ "$sts" -gt 0 ] && [ "$brs" -gt 0 ] && [ "$pas" -gt 0 ]; then
		tap_ok "$name: loads ($lds), stores ($sts), conditional branches ($brs), physical addresses ($pas)"
	else
		tap_fail "$name: loads, stores, conditional branches and physical addresses are sampled" \
			"loads $lds stores $sts conditional branches $brs PAs $pas"
	fi
	check_data_sources "$name" "$data" "$lds"
}

# check_data_sources NAME DATA LOADS: with PMSIDR_EL1.LDS (every profile
# but v1-min) each sampled load has a Data Source packet, with the
# Neoverse value of the level the QEMU cache model says served it: L1D
# (0), system cache (11) or DRAM (14).  The model sees only the sampled
# accesses, one in thousands, so a line is in "cache" when an earlier
# sample touched it: spe_spin's 512 KiB array gives all three levels in
# a recording of thousands of loads.  Without LDS there is none.
check_data_sources() {
	local name=$1 data=$2 lds=$3 profile ds l1d llc dram other
	profile=${name#* }
	profile=${profile%% *}
	ds=$(perf_dump_sum "$res/$data" ds)
	l1d=$(perf_dump_sum "$res/$data" ds 0)
	llc=$(perf_dump_sum "$res/$data" ds 11)
	dram=$(perf_dump_sum "$res/$data" ds 14)
	other=$((ds - l1d - llc - dram))
	if [ "$profile" = v1-min ]; then
		if [ "$ds" = 0 ]; then
			tap_ok "$name: no Data Source packet (the profile has no PMSIDR_EL1.LDS)"
		else
			tap_fail "$name: no Data Source packet without PMSIDR_EL1.LDS" "$ds packets"
		fi
	elif [ "$ds" -gt 0 ] && [ "$ds" -le "$lds" ] && [ $((ds * 10)) -ge $((lds * 9)) ] &&
	     [ "$other" = 0 ] && [ "$l1d" -gt 0 ] && [ "$llc" -gt 0 ] && [ "$dram" -gt 0 ]; then
		tap_ok "$name: $ds Data Source packets for $lds loads: L1D $l1d, system cache $llc, DRAM $dram"
	else
		tap_fail "$name: a Data Source packet per load: L1D, system cache and DRAM, nothing else" \
			"$ds packets for $lds loads: L1D $l1d, system cache $llc, DRAM $dram, other values $other" \
			"$(perf_dump_list "$res/$data" ds | tr '\n' ' ')"
	fi
	[ "$profile" = v2 ] || return 0
	# A Neoverse V2 MIDR: spe-decode names the levels, as perf does.
	local rows got
	rows=$("$decode" report --sort data_src "$res/$data" 2>&1)
	got=$(awk '$NF == "hit" { n[$(NF - 1)] = $1 } END { printf "%d %d %d", n["L1"], n["L3"], n["RAM"] }' <<<"$rows")
	if [ "$got" = "$l1d $llc $dram" ]; then
		tap_ok "$name: with a Neoverse V2 MIDR, spe-decode report --sort data_src: L1 hit $l1d, L3 hit $llc, RAM hit $dram"
	else
		tap_fail "$name: with a Neoverse V2 MIDR, spe-decode names the Data Sources L1/L3/RAM hit" \
			"report rows L1 L3 RAM: $got; packets: $l1d $llc $dram" "$(tail -n 6 <<<"$rows")"
	fi
}

# check_pmu_events NAME TAG: the unit's PMU events, counted system wide
# around a per-task recording with period 16384 (guest file TAG-stat):
# SAMPLE_POP (0x4000) is the population, SAMPLE_FEED (0x4001) one in
# 16385 of it (COUNT reloads to the interval, the member at zero is
# taken), SAMPLE_FILTRATE (0x4002) all of those (no filter) that completed,
# at least every record in the recording, and no SAMPLE_COLLISION (0x4003).
check_pmu_events() {
	local name=$1 tag=$2 pop feed filt coll n
	stat_of() {
		awk -F, -v e="$1" '$3 == e { print $1 }' "$res/$tag-stat" 2>/dev/null
	}
	pop=$(stat_of r4000)
	feed=$(stat_of r4001)
	filt=$(stat_of r4002)
	coll=$(stat_of r4003)
	n=$(perf_dump_sum "$res/$tag-stat.data" records)
	if [ "$(cat "$res/$tag-stat.rc" 2>/dev/null)" = 0 ] &&
	   [[ "$pop/$feed/$filt/$coll" =~ ^[0-9]+/[0-9]+/[0-9]+/[0-9]+$ ]] &&
	   [ "$pop" -gt 1000000 ] && [ "$coll" = 0 ] &&
	   [ $((feed * 16385 * 10)) -ge $((pop * 9)) ] && [ $((feed * 16385 * 10)) -le $((pop * 11)) ] &&
	   [ "$filt" -le "$feed" ] && [ $((filt * 100)) -ge $((feed * 99)) ] &&
	   [ "$n" -gt 0 ] && [ "$n" -le "$filt" ]; then
		tap_ok "$name: PMU SAMPLE_POP $pop, SAMPLE_FEED $feed (1 in 16385), SAMPLE_FILTRATE $filt >= $n records, no collision"
	else
		tap_fail "$name: PMU SAMPLE_POP, SAMPLE_FEED (1 in 16385), SAMPLE_FILTRATE >= records, no collision" \
			"rc $(cat "$res/$tag-stat.rc" 2>&1): pop '$pop' feed '$feed' filtrate '$filt' collision '$coll', $n records" \
			"$(cat "$res/$tag-stat" "$res/$tag-stat.log" 2>&1 | tail -n 8)"
	fi
}

# check_drivers_agree NAME: the two drivers sampled the same workload on
# the same unit with the same period, so their per-task recordings must
# agree on what the workload is made of: the share of loads, of stores
# and of conditional branches among the records, and of L1D hits among the
# loads' Data Sources, each within 2 percentage points (a share of
# ~100000 records varies by well under 1 point between runs).  Both
# recordings are of the same number of iterations: QEMU's cache model is
# filled by the samples alone, so the L1D share grows with the number of
# loads sampled (a timed run on a loaded host sampled about 530 loads under one
# driver and 7200 under the other: 1.3% against 5.6% L1D hits).
check_drivers_agree() {
	local name=$1 a=hw-u.data b=intree-u.data na nb key pa pb worst=0 what='' line=''
	na=$(perf_dump_sum "$res/$a" records)
	nb=$(perf_dump_sum "$res/$b" records)
	if [ "$na" -lt 1000 ] || [ "$nb" -lt 1000 ]; then
		tap_fail "$name: both drivers' recordings agree on the workload's mix" \
			"too few records to compare: arm_spe.ko $na, arm_spe_pmu $nb"
		return
	fi
	for key in "op ld" "op st" "op b_cond" "ds 0"; do
		local da=$na db=$nb
		# shellcheck disable=SC2086
		if [ "$key" = "ds 0" ]; then
			da=$(perf_dump_sum "$res/$a" ds)
			db=$(perf_dump_sum "$res/$b" ds)
			[ "$da" -gt 0 ] && [ "$db" -gt 0 ] || continue
		fi
		# shellcheck disable=SC2086
		pa=$(($(perf_dump_sum "$res/$a" $key) * 1000 / da))
		# shellcheck disable=SC2086
		pb=$(($(perf_dump_sum "$res/$b" $key) * 1000 / db))
		local label=${key#* }
		[ "$key" = "ds 0" ] && label=l1d
		line+=" $label: $pa/$pb"
		local d=$((pa > pb ? pa - pb : pb - pa))
		if [ "$d" -gt "$worst" ]; then
			worst=$d
			what=$key
		fi
	done
	if [ "$worst" -le 20 ]; then
		tap_ok "$name: both drivers' recordings agree on the workload's mix (per mille, arm_spe.ko/arm_spe_pmu:$line)"
	else
		tap_fail "$name: both drivers' recordings agree on the workload's mix within 2 points" \
			"$what differs by $worst per mille;$line"
	fi
}

# check_readback NAME: for each set of format terms, the sampling controls
# (PMSCR, PMSFCR, PMSEVFR, PMSLATFR, PMSIRR, PMSNEVFR) that CPU 1's unit
# held during a perf record -C 1 of those terms are the same under
# arm_spe.ko as under the kernel's own arm_spe_pmu
# (qemu/tests/spe-live-regs-kmod reads them).  A set needs a live event:
# PMSCR enables sampling at some level and PMSIRR's INTERVAL is the
# period asked for (its bit 0, RND, is jitter).  A term the kernel's
# driver does not know is skipped there, as is a set the guest's perf
# cannot parse for either driver (perf 6.1 has no config3); a term the
# kernel's driver knows and arm_spe.ko does not is a failure.
check_readback() {
	local name=$1 n=0 terms hw intree what
	while read -r terms; do
		n=$((n + 1))
		what="$name: $terms: arm_spe.ko programs the unit as arm_spe_pmu does"
		hw=$(grep '^cpu1 ' "$res/hw-readback/$n" 2>/dev/null || cat "$res/hw-readback/$n" 2>/dev/null)
		intree=$(grep '^cpu1 ' "$res/intree-readback/$n" 2>/dev/null || cat "$res/intree-readback/$n" 2>/dev/null)
		if [[ $intree == absent* ]]; then
			tap_skip "$what" "the kernel's driver has no${intree#absent}"
		elif [[ $hw == absent* ]]; then
			tap_fail "$what" "arm_spe.ko's format has no${hw#absent}, the kernel's driver has"
		elif grep -qs 'event syntax error' "$res/hw-readback/$n.log" &&
		     grep -qs 'event syntax error' "$res/intree-readback/$n.log"; then
			# perf before 6.3 has no config3 (inv_event_filter's word)
			tap_skip "$what" "the guest's perf cannot parse these terms for either driver"
		elif [ "$(cat "$res/hw-readback/$n.rc" 2>/dev/null)" != 0 ] ||
		     [ "$(cat "$res/intree-readback/$n.rc" 2>/dev/null)" != 0 ]; then
			tap_fail "$what" "perf record failed:" \
				"arm_spe.ko: $(cat "$res/hw-readback/$n.log" 2>&1)" \
				"arm_spe_pmu: $(cat "$res/intree-readback/$n.log" 2>&1)"
		elif [[ ! $hw =~ " pmsirr=0x40"0[01]( |$) ]] || [[ $hw == *" pmscr=0x0 "* ]]; then
			tap_fail "$what" "no live event on CPU 1 (interval 16384, sampling enabled): $hw"
		elif [ "$hw" = "$intree" ]; then
			tap_ok "$what (${hw#cpu1 })"
		else
			tap_fail "$what" "arm_spe.ko:   $hw" "arm_spe_pmu: $intree"
		fi
	done <"$readback_terms"
}

# check_sve NAME TAG: the SVE workload (qemu/tests/spe-sve.c) recorded
# per task: its contiguous loads and stores, gathers, scatters and SVE
# data processing are all sampled as SVE operations with the vector
# length it runs at (EVLEN), and the data addresses of the loads and
# stores fall in its arrays.
check_sve() {
	local name=$1 tag=$2 data=$2-sve.data vl kind missing='' bad in tot lo hi
	spe_result_is "$name: perf record of the SVE workload succeeds" "$out" "$tag-sve.rc" 0
	vl=$(sed -n 's/^vl \([0-9]*\)$/\1/p' "$res/$tag-sve.out" 2>/dev/null)
	if [ -z "$vl" ]; then
		tap_fail "$name: the SVE workload ran" "$(cat "$res/$tag-sve.out" "$res/$tag-sve.log" 2>&1 | head -n 5)"
		return
	fi
	for kind in "ld $vl pred nosg" "ld $vl pred sg" "st $vl pred nosg" "st $vl pred sg" "other $vl"; do
		[ "$(perf_dump_sum "$res/$data" sve $kind)" -gt 0 ] || missing+=" [$kind]"
	done
	bad=$(($(perf_dump_sum "$res/$data" sve) - $(perf_dump_sum "$res/$data" sve ld "$vl") -
		$(perf_dump_sum "$res/$data" sve st "$vl") - $(perf_dump_sum "$res/$data" sve other "$vl")))
	if [ -z "$missing" ] && [ "$bad" = 0 ]; then
		tap_ok "$name: SVE contiguous loads/stores, gathers, scatters and data processing, all EVLEN $vl: $(perf_dump_sum "$res/$data" sve ld) loads, $(perf_dump_sum "$res/$data" sve st) stores, $(perf_dump_sum "$res/$data" sve other) other"
	else
		tap_fail "$name: SVE loads/stores (contiguous, gather/scatter) and data processing at EVLEN $vl" \
			"missing:${missing:- none}; $bad with another EVLEN or kind" \
			"$(grep '^sve' "$res/$data.facts" 2>&1 | head -n 8)"
	fi
	# The arrays src, dst and fsrc are laid out together: from the
	# lowest to the end of the highest.
	read -r lo hi <<<"$(awk '$1 ~ /^(src|dst|fsrc)$/ { a = strtonum($2); e = a + $3
		if (lo == "" || a < lo) lo = a; if (e > hi) hi = e } END { printf "%x %x", lo, hi - lo }' \
		"$res/$tag-sve.out")"
	read -r in tot <<<"$(perf_dump_addrs "$res/$data" VA | in_range "$lo" "$hi")"
	if [ "$tot" -gt 0 ] && [ $((in * 100)) -ge $((tot * 80)) ]; then
		tap_ok "$name: $in of $tot SVE workload data addresses in its arrays"
	else
		tap_fail "$name: at least 80% of the SVE workload's data addresses in its arrays" \
			"$in of $tot in [0x$lo +0x$hi]"
	fi
}

# loop_records DATA: "pc records ld_at ds" for each of the atomics loop's
# ten PCs, from host perf's dump: how many records have that PC, how many
# of them are loads with the atomic bit (an Operation Type "LD ... AT", no
# ST), and how many of those have a Data Source packet.
loop_records() {
	ref_perf report -D -i "$res/$1" 2>/dev/null | awk -v lo="$loop_at" '
		function done_rec() {
			if (pc >= lo && pc < lo + 40) {
				n[pc]++
				if (ld && at) { good[pc]++; if (ds) gds[pc]++ }
			}
			pc = -1; ld = at = ds = 0
		}
		BEGIN { pc = -1 }
		/ PC 0x[0-9a-f]+/ {
			done_rec()
			for (i = 1; i < NF; i++) if ($i == "PC") pc = strtonum($(i + 1))
		}
		/ LD( |$)/ && / AT( |$)/ { ld = 1; at = 1 }
		/ DATA-SOURCE [0-9]+$/ { ds = 1 }
		END {
			done_rec()
			for (i = 0; i < 10; i++) printf "%d %d %d %d\n", lo + 4 * i, n[lo + 4 * i], good[lo + 4 * i], gds[lo + 4 * i]
		}'
}

# check_atomics NAME TAG: the atomics loop (qemu/tests/spe-atomics.c),
# recorded per task: the unit counts every executed instruction once
# (an atomic TCG runs through another path is no exception), so each of
# the ten PCs gets 5 to 20% of the loop's samples; the LDADD, SWP and
# CAS records are loads with the atomic bit (DDI 0586A §5.3.8: "0 Load or
# swap"), each with a Data Source packet when the profile has
# PMSIDR_EL1.LDS; with the CAS off its alignment (TCG runs it again,
# alone) each PC still gets 7 to 14%; and a load-filtered recording
# samples the atomics (and only them, of the loop: not its PRFM, which
# the unit describes as "other", DDI 0586A §2.3.4).
check_atomics() {
	local name=$1 tag=$2 profile rows tot shares='' bad=0 pc n g d at=0 atg=0 atds=0 need_ds=1
	profile=${name#* }
	profile=${profile%% *}
	[ "$profile" = v1-min ] && need_ds=0
	spe_result_is "$name: perf record of the atomics loop succeeds" "$out" "$tag-at.rc" 0
	rows=$(loop_records "$tag-at.data")
	tot=$(awk '{ t += $2 } END { print t + 0 }' <<<"$rows")
	while read -r pc n g d; do
		shares+=" $((n * 1000 / (tot > 0 ? tot : 1)))"
		if [ $((n * 100)) -lt $((tot * 5)) ] || [ $((n * 100)) -gt $((tot * 20)) ]; then
			bad=$((bad + 1))
		fi
		if [ "$pc" -lt $((loop_at + 12)) ]; then
			at=$((at + n)) atg=$((atg + g)) atds=$((atds + d))
		fi
	done <<<"$rows"
	if [ "$tot" -ge 1000 ] && [ "$bad" = 0 ]; then
		tap_ok "$name: the atomics loop's ten PCs each get 5-20% of its $tot samples (per mille:$shares)"
	else
		tap_fail "$name: the atomics loop's ten PCs each get 5-20% of its samples (at least 1000)" \
			"$tot samples in the loop, $bad PCs outside 5-20%; per mille:$shares"
	fi
	if [ "$at" -gt 0 ] && [ "$atg" = "$at" ] && { [ "$need_ds" = 0 ] || [ "$atds" = "$at" ]; }; then
		tap_ok "$name: the $at LDADD, SWP and CAS records are loads with AT$([ "$need_ds" = 1 ] && echo ', each with a Data Source')"
	else
		tap_fail "$name: the LDADD, SWP and CAS records are loads with AT, each with a Data Source" \
			"$at records: $atg LD AT, $atds of those with a Data Source" \
			"$(ref_perf report -D -i "$res/$tag-at.data" 2>/dev/null | grep -A3 " PC 0x$(printf %x $((loop_at + 8))) " | head -n 4)"
	fi
	# The CAS off its alignment goes through TCG's stop-the-world path
	# (EXCP_ATOMIC), which runs it a second time: counted once, it gets
	# a tenth, not the 18% of an instruction counted twice.
	spe_result_is "$name: perf record of the atomics loop with a split CAS succeeds" "$out" "$tag-atsplit.rc" 0
	rows=$(loop_records "$tag-atsplit.data")
	tot=$(awk '{ t += $2 } END { print t + 0 }' <<<"$rows")
	shares=$(awk -v t="$tot" '{ printf " %d", $2 * 1000 / (t > 0 ? t : 1) }' <<<"$rows")
	if [ "$tot" -ge 1000 ] && [ -z "$(awk -v t="$tot" '$2 * 100 < t * 7 || $2 * 100 > t * 14' <<<"$rows")" ]; then
		tap_ok "$name: with a split CAS (TCG's EXCP_ATOMIC path) each PC still gets 7-14% of $tot samples (per mille:$shares)"
	else
		tap_fail "$name: with a split CAS (TCG's EXCP_ATOMIC path) each PC gets 7-14% of the loop's samples (at least 1000)" \
			"$tot samples in the loop; per mille:$shares"
	fi
	spe_result_is "$name: perf record of the atomics loop with load_filter=1 succeeds" "$out" "$tag-atld.rc" 0
	rows=$(loop_records "$tag-atld.data")
	at=$(awk -v lo="$loop_at" '$1 < lo + 12 { t += $2 } END { print t + 0 }' <<<"$rows")
	tot=$(awk '{ t += $2 } END { print t + 0 }' <<<"$rows")
	if [ "$at" -ge 100 ] && [ "$at" = "$tot" ] &&
	   [ "$(awk -v lo="$loop_at" '$1 < lo + 12 && $2 == 0' <<<"$rows")" = "" ]; then
		tap_ok "$name: load_filter=1 samples the loop's atomics, each of them, and nothing else of it ($at records)"
	else
		tap_fail "$name: load_filter=1 samples LDADD, SWP and CAS, and nothing else of the loop" \
			"$at records on the atomics, $tot in the loop" "$(tr '\n' ';' <<<"$rows")"
	fi
}

# check_failing NAME TAG: the failing-instructions loop
# (qemu/tests/spe-failing.c), recorded per task with pa_enable=1.  Every
# record of the load that aborts completes with an exception (EV
# EXCEPTION-GEN and RETIRED) and has no PA (DDI 0586A §5.3.7, §5.3.1);
# every record of the load beside it retires without one and has its
# PA; the CSEL whose condition fails has NOT-TAKEN (E[6]) and the CCMP
# whose condition holds does not.
check_failing() {
	local name=$1 tag=$2 counts
	spe_result_is "$name: perf record of the failing-instructions loop succeeds" "$out" "$tag-fail.rc" 0
	counts=$(ref_perf report -D -i "$res/$tag-fail.data" 2>/dev/null | awk -v pcs="$failing_pcs" '
		function done_rec(  k) {
			k = role[pc]
			if (k == "") { pc = -1; exc = ret = nt = pa = 0; return }
			n[k]++
			if (k == "fail_ldr" && exc && ret && !pa) good[k]++
			if (k == "pass_ldr" && !exc && ret && pa) good[k]++
			if (k == "fail_csel" && ret && nt) good[k]++
			if (k == "pass_ccmp" && ret && !nt) good[k]++
			pc = -1; exc = ret = nt = pa = 0
		}
		BEGIN {
			split(pcs, p, " ")
			role[p[1]] = "fail_ldr"; role[p[2]] = "pass_ldr"
			role[p[3]] = "fail_csel"; role[p[4]] = "pass_ccmp"
			pc = -1
		}
		/ PC 0x[0-9a-f]+/ {
			done_rec()
			for (i = 1; i < NF; i++) if ($i == "PC") pc = strtonum($(i + 1))
		}
		/ EV / { exc = / EXCEPTION-GEN/; ret = / RETIRED/; nt = / NOT-TAKEN/ }
		/ PA 0x/ { pa = 1 }
		END {
			done_rec()
			printf "%d %d %d %d %d %d %d %d\n", n["fail_ldr"], good["fail_ldr"],
				n["pass_ldr"], good["pass_ldr"], n["fail_csel"], good["fail_csel"],
				n["pass_ccmp"], good["pass_ccmp"]
		}')
	local fl fg pl pg cl cg ml mg
	read -r fl fg pl pg cl cg ml mg <<<"$counts"
	if [ "${fl:-0}" -ge 10 ] && [ "$fg" = "$fl" ] && [ "${pl:-0}" -ge 10 ] && [ "$pg" = "$pl" ]; then
		tap_ok "$name: the aborted load's $fl records have EXCEPTION-GEN and RETIRED and no PA; the mapped load's $pl retire with a PA"
	else
		tap_fail "$name: the aborted load's records have EXCEPTION-GEN and RETIRED and no PA, the mapped load's a PA (at least 10 each)" \
			"aborted load: $fg of ${fl:-0} so; mapped load: $pg of ${pl:-0} so" \
			"$(ref_perf report -D -i "$res/$tag-fail.data" 2>/dev/null | grep -A6 " PC 0x$(printf %x "${failing_pcs%% *}") " | head -n 7)"
	fi
	if [ "${cl:-0}" -ge 10 ] && [ "$cg" = "$cl" ] && [ "${ml:-0}" -ge 10 ] && [ "$mg" = "$ml" ]; then
		tap_ok "$name: the failing CSEL's $cl records have NOT-TAKEN (E[6]), the passing CCMP's $ml do not"
	else
		tap_fail "$name: the failing CSEL's records have NOT-TAKEN (E[6]), the passing CCMP's do not (at least 10 each)" \
			"CSEL: $cg of ${cl:-0} with NOT-TAKEN; CCMP: $mg of ${ml:-0} without"
	fi
}

# rate FILE: the workload's iterations per second.
rate() {
	sed -n 's/^\([0-9]*\) iterations.*/\1/p' "$res/$1"
}

neoverse_v2_midr=0x410fd4f1

# run KERNEL PROFILE EL
run() {
	local k=$1 profile=$2 el=$3 name ko live_ko out rc=0 tag drv
	name="$k $profile $el"
	out=$runs/$k-$profile-$el
	if ! ko=$(spe_driver_ko "$k" 2>"$runs/build-$k.log"); then
		tap_fail "$name: arm_spe.ko builds" "$(tail -n 20 "$runs/build-$k.log")"
		return
	fi
	if ! live_ko=$("$top/scripts/build-external-module.sh" --kernel "$k" \
		"$top/qemu/tests/spe-live-regs-kmod" 2>"$runs/live-regs-$k.log"); then
		tap_fail "$name: the register read-back module builds" "$(tail -n 20 "$runs/live-regs-$k.log")"
		return
	fi
	spe_ref_perf_for "$k"
	# Debian builds no in-tree driver for bullseye's 5.10
	# (CONFIG_ARM_SPE_PMU unset): there, arm_spe.ko is the only one.
	local intree=(--module arm_spe_pmu) tags=(hw intree)
	if ! ls "$MODDIR"/kernel/drivers/perf/arm_spe_pmu.ko* >/dev/null 2>&1; then
		intree=() tags=(hw)
	fi
	(
		[ "$el" = el2 ] && export SPE_QEMU_EL2=1
		# v2 guests are Neoverse V2s (r0p1), whose Data Source values
		# the host decodes; the others keep QEMU's own MIDR.
		[ "$profile" = v2 ] && export SPE_QEMU_MIDR=$neoverse_v2_midr
		"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --spe-qemu "$profile" --with-perf \
			--module "$ko" "${intree[@]}" --module "$live_ko" --file "$readback_terms" \
			--file "$spin" --file "$sve" --file "$atomics" --file "$failing" --timeout 400 \
			--script "$guest" --out "$out"
	) 2>"$out.log" || rc=$?
	res=$out/results
	spe_guest_came_back "$name" "$out" || return
	local ev missing=''
	for ev in sample_pop sample_feed sample_filtrate sample_collision; do
		grep -qx "$ev" "$res/pmu-events" 2>/dev/null || missing+=" $ev"
	done
	if [ -z "$missing" ]; then
		tap_ok "$name: the CPU PMU advertises the SPU's events (PMCEID0_EL0)"
	else
		tap_fail "$name: the CPU PMU advertises the SPU's events (PMCEID0_EL0)" "missing:$missing" \
			"$(head -n 5 "$res/pmu-events" 2>&1)"
	fi
	for tag in "${tags[@]}"; do
		drv=arm_spe.ko
		[ $tag = intree ] && drv=arm_spe_pmu
		spe_result_is "$name: $drv loads" "$out" "$tag-insmod.rc" 0
		if ! grep -qx arm_spe_0 "$res/$tag-pmus" 2>/dev/null; then
			tap_fail "$name: $drv registers arm_spe_0" "$(cat "$res/$tag-pmus" 2>&1)"
			continue
		fi
		spe_result_is "$name: $drv: perf record (per task, /u) succeeds" "$out" "$tag-u.rc" 0
		check_recording "$name: $drv per task" "$tag-u.data" 1
		spe_result_is "$name: $drv: perf record -a succeeds" "$out" "$tag-sys.rc" 0
		check_recording "$name: $drv system wide" "$tag-sys.data" 0
		check_pmu_events "$name: $drv" "$tag"
		check_sve "$name: $drv" "$tag"
		check_atomics "$name: $drv" "$tag"
		check_failing "$name: $drv" "$tag"
		spe_result_is "$name: $drv unloads" "$out" "$tag-rmmod.rc" 0
		echo "# $name: spe_spin $(rate spin-base) iterations/s unprofiled," \
			"$(rate "$tag-spin-u") profiled by $drv (/u)"
	done
	if [ ${#tags[@]} -eq 2 ]; then
		check_drivers_agree "$name"
		check_readback "$name"
	else
		tap_skip "$name: arm_spe_pmu records, both drivers' recordings agree" \
			"$KREL has no in-tree arm_spe_pmu (CONFIG_ARM_SPE_PMU unset)"
	fi
	spe_kernel_log_tap "$name" "$out"
	spe_taint_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

start=$SECONDS
if [ "${1:-}" = --matrix ]; then
	for k in 6.1 6.12; do
		for p in v1-min n1 v2 full; do
			run "$k" "$p" el1
			run "$k" "$p" el2
		done
	done
elif [ $# -ge 2 ]; then
	run "$1" "$2" "${3:-el1}"
elif [ -z "${SPE_GUEST_KERNELS:-}" ]; then
	mapfile -t kernels < <(spe_guest_kernels)
	run "${kernels[0]}" n1 el1
	run "${kernels[1]}" v2 el2
else
	for k in $(spe_guest_kernels); do
		run "$k" n1 el1
		run "$k" v2 el2
	done
fi
echo "# guests in $((SECONDS - start)) s"
tap_done
