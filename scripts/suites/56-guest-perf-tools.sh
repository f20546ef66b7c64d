#!/usr/bin/env bash
# The perf tools users run on an SPE PMU, real arm64 perf 6.1 in QEMU
# guests (Debian 6.1 and 6.12, 2 CPUs, SPE device-tree node) over the
# simulated unit (arm_spe_sim.ko), each output checked on the host:
#   1. perf record -e arm_spe// -c 2048: an explicit period, records present;
#   2. snapshot mode (-S, SIGUSR2 twice, system wide): two snapshots
#      (AUXTRACE records of one CPU), AUX records with the OVERWRITE flag, data that host perf and spe-decode both decode
#      cleanly and to the same records;
#   3. perf report --stats in the guest counts the AUX and AUXTRACE
#      records host perf finds in the file;
#   4. perf script in the guest synthesises SPE samples, the same memory
#      samples host perf synthesises;
#   5. perf mem record / perf mem report (or, where perf 6.1 cannot find
#      the PMU, the event perf mem would open, recorded by perf record);
#   6. cross-check of item 1's file: one instruction sample per SPE record
#      (--itrace=i1i), its time in ns and its PC, printed by the guest's
#      perf script, host perf script and spe-decode script: the three
#      (time, ip) lists and the record count of perf report -D are equal.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
# shellcheck source=scripts/lib/perf-dump.sh
. "$top/scripts/lib/perf-dump.sh"
runs=$top/build/qemu/runs/56-guest-perf-tools
guest=$top/scripts/qemu/guest/perf-tools.sh
decode=$top/build/spe-decode/spe-decode
# The guest's userland (its perf binary is the one the recordings map).
guest_root=$("$top/scripts/qemu/fetch-userland.sh" perf) || guest_root=/nonexistent

spe_guest_suite_prereqs "perf tools over the simulated SPE in the guest"
mkdir -p "$runs"
spin=$runs/spe_spin
spe_suite_build_spin "$spin"

# fact DATA KEY [ARG...]: a count from host perf's packet dump of DATA
# (scripts/lib/perf-dump.sh); records DATA: its SPE record count.
fact() {
	local data=$res/$1
	shift
	perf_dump_sum "$data" "$@"
}
records() {
	fact "$1" records
}
# times_ips: one instruction sample per record, "time ip", as perf script
# prints them with --ns -F time,ip (spe-decode script takes the same options).
times_ips() {
	"$@" --ns --itrace=i1i -F time,ip 2>/dev/null | awk '{ print $1, $2 }'
}
# stat_count FILE NAME: the count perf report --stats printed for NAME events.
stat_count() {
	awk -v n="$2" '$1 == n && $2 == "events:" { print $3 }' "$1"
}

run() {
	local k=$1 ko out res rc=0 n m a b c
	if ! ko=$(spe_driver_ko "$k" arm_spe_sim 2>&1); then
		tap_fail "$k: arm_spe_sim.ko builds" "$ko"
		return
	fi
	out=$runs/$k
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --spe-node --with-perf \
		--module "$ko" --file "$spin" --timeout 150 --script "$guest" --out "$out" \
		2>"$out.log" || rc=$?
	res=$out/results
	if [ ! -s "$res/script.rc" ] || [ "$(cat "$res/insmod.rc" 2>/dev/null)" != 0 ]; then
		tap_fail "$k: guest boots, arm_spe_sim loads, results come back" "$(tail -n 5 "$out.log")"
		return
	fi
	# shellcheck disable=SC1091
	(. "$out/summary"; echo "# $k: ${wall_seconds}s wall")

	# 1. Explicit period.
	local period
	n=$(records period.data)
	period=$(perf evlist -v -i "$res/period.data" 2>/dev/null |
		sed -n 's/^arm_spe.*{ sample_period, sample_freq }: \([0-9]*\),.*/\1/p')
	[ "$(cat "$res/period.rc")" = 0 ] && [ "$n" -gt 100 ] && [ "$period" = 2048 ] &&
		tap_ok "$k: perf record -e arm_spe// -c 2048: sample_period 2048, $n records" ||
		tap_fail "$k: perf record -e arm_spe// -c 2048: sample_period 2048, records present" \
			"rc $(cat "$res/period.rc") sample_period '$period' records $n" "$(cat "$res/period.log")"

	# 2. Snapshot mode.
	local flags other bad
	flags=$(perf_dump_list "$res/snap.data" aux | tr '\n' ' ')
	other=$(echo "$flags" | tr ' ' '\n' | grep -v '^0x2$' | grep -c .)
	n=$(records snap.data)
	# Snapshots taken: AUXTRACE records of the CPU with the most (one per
	# SIGUSR2 where that CPU had new data).
	local shots
	shots=$(perf_dump_max "$res/snap.data" auxtrace)
	[ "$(cat "$res/snap.rc")" = 0 ] && [ "$shots" -ge 2 ] && [ "$(cat "$res/snap-sig1.rc")" = 0 ] &&
		[ "$(cat "$res/snap-sig2.rc")" = 0 ] && [ "$flags" = "0x2 " ] && [ "$n" -gt 100 ] &&
		tap_ok "$k: perf record -S, SIGUSR2 twice: $shots snapshots, $n records, every AUX record OVERWRITE" ||
		tap_fail "$k: perf record -S, SIGUSR2 twice: records, every AUX record OVERWRITE (snapshot)" \
			"rc $(cat "$res/snap.rc") snapshots $shots records $n AUX flags '$flags' ($other not 0x2)" "$(cat "$res/snap.log")"
	bad=$(fact snap.data bad)
	# The guest's files are under --symfs: the host's /usr/bin/perf is
	# another build, which spe-decode refuses with a warning, as it should.
	m=$("$decode" report --symfs "$guest_root" "$res/snap.data" 2>"$res/host-snap-decode.err" |
		sed -n 's/^# SPE records: \([0-9]*\).*/\1/p')
	a=$(times_ips perf script -i "$res/snap.data" | md5sum)
	b=$(times_ips "$decode" script "$res/snap.data" | md5sum)
	[ "$bad" = 0 ] && [ ! -s "$res/host-snap-decode.err" ] && [ "$m" = "$n" ] && [ "$a" = "$b" ] &&
		tap_ok "$k: snapshot data decodes cleanly: host perf and spe-decode, $n records, same (time, ip) list" ||
		tap_fail "$k: snapshot data decodes cleanly with host perf and spe-decode" \
			"perf errors $bad, spe-decode records '$m' vs perf $n, (time, ip) lists $([ "$a" = "$b" ] && echo equal || echo differ)" \
			"$(head -n 3 "$res/host-snap-decode.err")"

	# 3. perf report --stats.
	a=$(stat_count "$res/stats.txt" AUX)
	b=$(stat_count "$res/stats.txt" AUXTRACE)
	c=$(fact period.data aux)
	m=$(fact period.data auxtrace)
	[ "$(cat "$res/stats.rc")" = 0 ] && [ "${a:-0}" -gt 0 ] && [ "$a" = "$c" ] &&
		[ "${b:-0}" -gt 0 ] && [ "$b" = "$m" ] &&
		tap_ok "$k: perf report --stats in the guest: $a AUX, $b AUXTRACE records, as host perf finds" ||
		tap_fail "$k: perf report --stats in the guest counts the AUX and AUXTRACE records" \
			"guest AUX '$a' AUXTRACE '$b', host $c and $m" "$(head -n 5 "$res/stats.log")"

	# 4. perf script synthesises samples.
	a=$(grep -c ' memory: ' "$res/script-default.txt")
	b=$(perf script -i "$res/period.data" 2>/dev/null | grep -c ' memory: ')
	c=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /:$/ && $(i - 1) ~ /^[0-9]+$/) print $i }' \
		"$res/script-default.txt" | sort -u | tr '\n' ' ')
	[ "$(cat "$res/script-default.rc")" = 0 ] && [ "$a" -gt 0 ] && [ "$a" = "$b" ] &&
		grep -q ' spe_spin ' "$res/script-default.txt" &&
		tap_ok "$k: perf script in the guest: SPE samples ($c), $a memory samples, as host perf" ||
		tap_fail "$k: perf script in the guest synthesises SPE samples" \
			"rc $(cat "$res/script-default.rc") memory samples guest $a host $b, events: $c"

	# 5. perf mem.
	local path
	path=$(cat "$res/pmu-path")
	a=$(awk '/^# Samples: / { s += $3 } END { print s + 0 }' "$res/mem-report.txt")
	if [ "$(cat "$res/mem-record.rc")" = 0 ]; then
		grep -qx 'spe-ldst *: available' "$res/mem-list.txt" &&
			[ "$(cat "$res/mem-report.rc")" = 0 ] && [ "$a" -gt 0 ] &&
			grep -q ' spe_spin ' "$res/mem-report.txt" &&
			tap_ok "$k: perf mem record (spe-ldst) and perf mem report --stdio: $a samples" ||
			tap_fail "$k: perf mem record and perf mem report --stdio show samples" \
				"report rc $(cat "$res/mem-report.rc") samples $a" "$(cat "$res/mem-list.txt")"
	elif grep -q 'memory events not supported' "$res/mem-record.log" &&
		[ "$path" != /sys/devices/arm_spe_0 ]; then
		tap_skip "$k: perf mem record" "perf 6.1 looks for /sys/devices/arm_spe_0; the PMU device has a parent here ($path)"
	else
		tap_fail "$k: perf mem record" "rc $(cat "$res/mem-record.rc")" "$(cat "$res/mem-record.log")"
	fi
	a=$(awk '/^# Samples: / { s += $3 } END { print s + 0 }' "$res/memev-report.txt")
	[ "$(cat "$res/memev-record.rc")" = 0 ] && [ "$(cat "$res/memev-report.rc")" = 0 ] &&
		[ "$a" -gt 0 ] && grep -q ' spe_spin ' "$res/memev-report.txt" &&
		tap_ok "$k: perf record -e arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=0/, perf mem report --stdio: $a samples" ||
		tap_fail "$k: perf mem's event recorded by perf record, perf mem report --stdio shows samples" \
			"rc $(cat "$res/memev-record.rc")/$(cat "$res/memev-report.rc") samples $a" "$(cat "$res/memev-record.log")"

	# 6. Cross-check item 1: guest perf script, host perf script, spe-decode.
	n=$(records period.data)
	awk '{ print $1, $2 }' "$res/script-i1i.txt" >"$res/xc-guest"
	times_ips perf script -i "$res/period.data" >"$res/xc-host"
	times_ips "$decode" script "$res/period.data" >"$res/xc-spe-decode"
	a=$(wc -l <"$res/xc-guest")
	b=$(wc -l <"$res/xc-host")
	c=$(wc -l <"$res/xc-spe-decode")
	[ "$(cat "$res/script-i1i.rc")" = 0 ] && [ "$a" -gt 100 ] && [ "$a" = "$n" ] &&
		cmp -s "$res/xc-guest" "$res/xc-host" && cmp -s "$res/xc-guest" "$res/xc-spe-decode" &&
		tap_ok "$k: item 1's file, one sample per record: guest perf script, host perf script, spe-decode script print the same $a (time, ip); perf report -D has $n records" ||
		tap_fail "$k: guest perf script, host perf script and spe-decode script agree on (time, ip) per record" \
			"samples guest $a host $b spe-decode $c, records $n" \
			"$(diff "$res/xc-guest" "$res/xc-host" | head -n 3)" "$(diff "$res/xc-guest" "$res/xc-spe-decode" | head -n 3)"

	[ "$(cat "$res/rmmod.rc")" = 0 ] &&
		tap_ok "$k: arm_spe_sim unloads" ||
		tap_fail "$k: arm_spe_sim unloads" "rmmod $(cat "$res/rmmod.rc")"
	spe_kernel_log_tap "$k" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$k: guest script exit status" "run-guest.sh exited $rc"
}

start=$SECONDS
run 6.1
run 6.12
echo "# guest runs took $((SECONDS - start)) s"
tap_done
