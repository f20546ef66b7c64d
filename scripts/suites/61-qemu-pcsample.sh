#!/usr/bin/env bash
# PC sampling in QEMU guests (Documentation/admin-guide/arm-pcsample.rst,
# Documentation/dev-tools/qemu-spe.rst "PC sampling"): the patched QEMU with
# -M virt,pcsample=on (qemu/patches/0007) gives each vCPU an external PMU
# frame with PMPCSR; the unmodified arm_pcsample.ko probes from the board's
# device tree, and pcsample-record, pinned to CPU 0 (the housekeeping CPU),
# records CPU 1 while the workload pcsample-hot runs pinned there
# (guest script scripts/qemu/guest/qemu-pcsample.sh).  On the host:
#   - CPU 1's frame, read directly with devmem before the driver loads:
#     the ID registers, the Software Lock (locked at reset, a capture under
#     it does not update PMPCSR[63:32], the key unlocks it), captures of
#     the busy CPU 1: at EL0 in the hot functions, else at EL1 in the
#     kernel, all Non-secure; a 64-bit
#     read and the alias, 0xFFFFFFFF with CPU 1 idle (WFI) and offline;
#   - the module loads, registers arm_pcsample with cpumask 1 and reports
#     the external PMU frames;
#   - a 3 s recording at 10 kHz accounts for 30000 periods in the
#     driver's debugfs stats (read, or missed when the sampler was late:
#     the check holds on a loaded host and fails on a wrong period), most
#     reads give a sample, and every sample is of CPU 1 and in the
#     output; at least half
#     are at EL0, and at least 80% of those fall in pcsample-hot's
#     hot_hash() and hot_walk() (bounds from its symbol table), each of
#     them at least 10% (see hot_share_ok for why the user samples are
#     the base); user samples carry user
#     addresses and kernel samples kernel addresses (the address and EL of
#     a sample belong together); the hot functions' samples carry the
#     workload's TID (CONFIG_PID_IN_CONTEXTIDR: PMCID1SR, or PMCID2SR at
#     EL2);
#   - CPU 1 takes no more interrupts during that recording than in a
#     baseline window of the workload alone, or than its tick at CONFIG_HZ,
#     over the same length, plus a tolerance (see irq_tolerance below),
#     while perf's cpu-clock at the same rate adds at least a quarter of
#     its samples (the check can tell; skipped, with the numbers, where
#     the guest cannot take that clock faster than its tick);
#   - host perf report on the perf.data of pcsample-record -P attributes
#     most samples to the hot functions of pcsample-hot, the share the
#     addresses in its text output give (within 1 point);
#   - CPU 1 idle (halted in WFI): most reads of its PMPCSR give no sample;
#   - an unprivileged user at the default perf_event_paranoid gets nothing;
#     at 0, with -u, only user samples (EL0, user addresses);
#   - CPU 1 going offline and back during a recording: the recording ends
#     normally, and a new one samples the hot functions again;
#   - the module unloads; the kernel log has no warning, BUG or oops;
#   - a guest whose board has no frames (pcsample off): the module refuses
#     to load with "no PC sample registers", and there is no PMU.
# Guests: 6.1 at EL1 and 6.12 at EL2 (VHE), 2 CPUs, each with and without
# the frames; about 36 s and 4 s a guest (95 s in all).  `61-qemu-pcsample.sh 6.12 el2`
# runs one kernel.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"
runs=$top/build/qemu/runs/61-qemu-pcsample
guest=$top/scripts/qemu/guest/qemu-pcsample.sh

spe_guest_suite_prereqs "PC sampling on QEMU's external PMU frames"
mkdir -p "$runs"
spe_suite_spe_qemu "$runs"
echo "# the patched QEMU built or cached in $spe_qemu_seconds s"

hot=$runs/pcsample-hot
if ! aarch64-linux-gnu-gcc -O2 -g -static -Wall -Wextra -Werror -o "$hot" \
	"$top/qemu/tests/pcsample-hot.c" >"$hot.log" 2>&1; then
	tap_fail "pcsample-hot cross-compiles" "$(cat "$hot.log")"
	tap_done
	exit 1
fi
rec=$runs/pcsample/pcsample-record
if ! make -s -C "$top/tools/pcsample" CC=aarch64-linux-gnu-gcc LDFLAGS="-static -Wl,--gc-sections" \
	O="$runs/pcsample" >"$runs/pcsample-record.log" 2>&1; then
	tap_fail "pcsample-record cross-compiles" "$(cat "$runs/pcsample-record.log")"
	tap_done
	exit 1
fi

# perf report finds the workload's binary at its path in the guest.
symfs=$runs/symfs
mkdir -p "$symfs/files"
cp "$hot" "$symfs/files/pcsample-hot"

# "0xSTART 0xEND" of a function of pcsample-hot, 16 hex digits each as
# pcsample-record prints addresses, so that they compare as strings.
func_range() {
	local at size
	read -r at size <<<"$(aarch64-linux-gnu-nm -S "$hot" | awk -v s="$1" '$4 == s { print $1, $2; exit }')"
	[ -n "${size:-}" ] || return 0
	printf '0x%016x 0x%016x\n' $((16#$at)) $((16#$at + 16#$size))
}
read -r hash_lo hash_hi <<<"$(func_range hot_hash)"
read -r walk_lo walk_hi <<<"$(func_range hot_walk)"
if [ -z "${hash_hi:-}" ] || [ -z "${walk_hi:-}" ]; then
	tap_fail "pcsample-hot's hot_hash and hot_walk are in its symbol table" \
		"$(aarch64-linux-gnu-nm -S "$hot" | grep -w 'hot_[a-z]*')"
	tap_done
	exit 1
fi

# samples FILE [TID]: of pcsample-record's lines ("cpu time tid mode EL
# address"), print "total cpu1 hash walk user kernel mismatched tid":
# mismatched are user samples with a kernel address or kernel samples
# with a user one; tid counts the hot functions' samples carrying TID.
samples() {
	awk -v hl="$hash_lo" -v hh="$hash_hi" -v wl="$walk_lo" -v wh="$walk_hi" -v tid="${2:--}" '
		{ a = $6 ""; n++ }
		$1 == 1 { c1++ }
		a >= (hl "") && a < (hh "") { hash++; if ($3 == tid) t++ }
		a >= (wl "") && a < (wh "") { walk++; if ($3 == tid) t++ }
		$4 == "user" { u++; if (a >= "0x0001000000000000") bad++ }
		$4 == "kernel" { k++; if (a < "0xff00000000000000") bad++ }
		END { printf "%d %d %d %d %d %d %d %d\n", n, c1, hash, walk, u, k, bad, t }' "$1" 2>/dev/null
}

# hot_share_ok TOTAL USER HASH WALK: whether the busy CPU's samples say
# it runs pcsample-hot: at least half of them at EL0, and of those at
# least 80% in hot_hash and hot_walk, each at least 10%.  The base is the
# user samples, not all of them, because PMPCSR under TCG holds the PC of
# the translation block the vCPU entered last, so a sample weighs host
# time, not instructions: CPU 1's timer tick (counter reads, the GIC, the
# scheduler) costs far more host time than on hardware, and more the more
# loaded the host is, since the guest's timers follow the host's clock
# while the vCPU runs slower.  Measured at load 2-7: 17-27% of the
# samples in the tick's kernel path on QEMU 10.2, 10-23% on 7.2, while
# 91-93% of the user samples are in the hot functions (the rest: the
# vDSO's clock_gettime, called every 64 rounds).  A PMPCSR of the wrong
# CPU or a stale PC fails either bound.
hot_share_ok() {
	local n=$1 u=$2 hs=$3 wk=$4
	[ "${n:-0}" -gt 0 ] && [ $((u * 2)) -ge "$n" ] &&
		[ $(((hs + wk) * 100)) -ge $((u * 80)) ] &&
		[ $((hs * 10)) -ge "$u" ] && [ $((wk * 10)) -ge "$u" ]
}

# kernel_functions RES FILE: the kernel functions with the most samples in
# a recording FILE of RES, by the guest's /proc/kallsyms (for a failure's
# diagnosis: which kernel path took CPU 1's time).
kernel_functions() {
	[ -s "$1/kallsyms" ] || return 0
	{ awk '{ print $1, "sym", $3 }' "$1/kallsyms"
	  awk '$4 == "kernel" { a = tolower($6); sub(/^0x/, "", a); print a, "pc" }' "$2"
	} | LC_ALL=C sort -k1,1 -k2,2r |
		awk '$2 == "sym" { f = $3; next } { n[f]++ }
		     END { for (f in n) print n[f], f }' | sort -rn | head -n 8 | tr '\n' ' '
}

# cpu1_irqs FILE: CPU 1's interrupts of all kinds in a /proc/interrupts copy.
cpu1_irqs() {
	awk 'NR > 1 && $3 ~ /^[0-9]+$/ { s += $3 } END { print s + 0 }' "$1"
}
# window RES NAME: "interrupts seconds" of CPU 1 between NAME0 and NAME1.
window() {
	echo "$(($(cpu1_irqs "$1/${2}1.irqs") - $(cpu1_irqs "$1/${2}0.irqs")))" \
		"$(awk -v a="$(cat "$1/${2}0.time")" -v b="$(cat "$1/${2}1.time")" 'BEGIN { printf "%.2f\n", b - a }')"
}

# The fewest samples a recording's shares are judged on.  Not a rate:
# how many samples a recording gets depends on the host's load (a kasan
# guest on a loaded host: 903 in 2 s, 358 in 1 s), and the rate is
# checked once, against the periods the driver accounted for (test 9).
min_samples=200

# periods STATS0 STATS1: "sampled accounted missed" of CPU 1 between two
# copies of the driver's debugfs stats ("cpu sampled no_sample ...
# missed frame").  Every period of a recording is accounted for: a read
# of PMPCSR with its verdict, or a period the sampler was late for and
# skipped (missed), so the accounted periods measure the sampling rate
# however loaded the host is, where the samples alone do not: under TCG
# a vCPU thread of a loaded host gets the housekeeping CPU's timer late.
periods() {
	awk '$1 == 1 { for (i = 2; i <= 9; i++) v[FILENAME, i] = $i }
	     END { s = v[ARGV[2], 2] - v[ARGV[1], 2]
		   for (i = 2; i <= 9; i++) a += v[ARGV[2], i] - v[ARGV[1], i]
		   print s, a, v[ARGV[2], 9] - v[ARGV[1], 9] }' "$1" "$2" 2>/dev/null
}

# What CPU 1, busy with the workload, takes in interrupts over a window
# without a profiler: its scheduler tick, at most CONFIG_HZ a second, and
# little else.  Under TCG on a loaded host the guest gets fewer ticks than
# that (late timer expiries coalesce), and by how much varies from one
# window to the next, so the quiet expectation for the recording's window
# is the larger of the baseline's rate and HZ over its length.  The
# tolerance beyond it: 20 for perf core's cross-CPU calls that install,
# enable, disable and remove the event on CPU 1 (a few IPIs, which the
# driver documents: the sampled CPU runs pmu::start and ::stop), plus 5%
# for the tick's jitter.  One interrupt per sample would be 30000 at 10 kHz.
# quiet_count BASE BASE-SECONDS SECONDS HZ: the interrupts CPU 1 takes
# without a profiler over SECONDS: the larger of the baseline's rate and
# the tick's.
quiet_count() {
	awk -v b="$1" -v bs="$2" -v s="$3" -v hz="$4" \
		'BEGIN { q = b * s / bs; if (hz * s > q) q = hz * s; printf "%d\n", q }'
}

irq_tolerance() {
	awk -v b="$1" 'BEGIN { printf "%d\n", 20 + b * 0.05 }'
}

# reg RES NAME: a register value the guest read with devmem, as a number.
reg() {
	local v
	v=$(cat "$1/reg-$2" 2>/dev/null)
	[[ $v =~ ^0x[0-9A-Fa-f]+$ ]] && echo $((v)) || echo -1
}

# check_frame NAME RES: CPU 1's frame read directly (/dev/mem) before the
# driver loads (DDI 0487 PMPCSR, PMDEVID, PMLSR).
check_frame() {
	local name=$1 res=$2 i lo hi in=0 bad='' v w
	if [ "$(reg "$res" devid)" = 1 ] && [ "$(reg "$res" devarch)" = $((0x47702a16)) ] &&
	   [ "$(reg "$res" devtype)" = $((0x16)) ] && [ "$(reg "$res" cidr1)" = $((0x90)) ]; then
		tap_ok "$name: CPU 1's frame: PMDEVID.PCSample 1, PMDEVARCH 0x47702A16, PMDEVTYPE 0x16, a CoreSight component"
	else
		tap_fail "$name: CPU 1's frame: PMDEVID.PCSample 1, PMDEVARCH, PMDEVTYPE, PMCIDR1" \
			"$(cd "$res" && head -n 1 reg-devid reg-devarch reg-devtype reg-cidr1 2>&1)"
	fi
	if [ "$(reg "$res" lsr-reset)" = 3 ] && [ "$(reg "$res" hi-locked)" = $((0xffffffff)) ] &&
	   [ "$(reg "$res" lsr-unlocked)" = 1 ] && [ "$(reg "$res" lsr-relocked)" = 3 ]; then
		tap_ok "$name: Software Lock locked at reset, a capture under it leaves PMPCSR[63:32] alone, the key unlocks it"
	else
		tap_fail "$name: Software Lock locked at reset, a capture under it leaves PMPCSR[63:32] alone, the key unlocks it" \
			"$(cd "$res" && head -n 1 reg-lsr-reset reg-hi-locked reg-lsr-unlocked reg-lsr-relocked 2>&1)"
	fi
	# With pcsample-hot running on CPU 1: the captures at EL0 (the guest
	# read until five were in the workload's binary, at most 40) are
	# mostly its hot functions, the others its vDSO calls; the rest are at
	# EL1 (EL2 for a VHE kernel) with a kernel address (PMPCSR[55:48] all
	# ones), the busy CPU's tick, where a debug kernel on a loaded host
	# spends much of the time (a kcsan guest: 4 of 5 reads); all are
	# Non-secure.  Of the EL0 ones, at least three and 80% in the hot
	# functions: a stale PC, or the reading CPU 0's (devmem), fails that.
	local n0=0 k=0
	for f in "$res"/reg-lo-[0-9]*; do
		[ -e "$f" ] || continue
		i=${f##*-}
		lo=$(reg "$res" "lo-$i")
		hi=$(reg "$res" "hi-$i")
		if [ $((hi >> 29)) = 4 ] && [ $((hi & 0xff0000)) = 0 ]; then
			n0=$((n0 + 1))
			[ "$hi" = $((0x80000000)) ] &&
				((lo >= 16#${hash_lo#0x} && lo < 16#${walk_hi#0x})) && in=$((in + 1))
		elif [ $((hi & 0x80ff0000)) = $((0x80ff0000)) ] &&
		     { [ $((hi >> 29)) = 5 ] || [ $((hi >> 29)) = 6 ]; }; then
			k=$((k + 1))
		else
			bad+=" $i"
		fi
	done
	if [ "$in" -ge 3 ] && [ $((in * 10)) -ge $((n0 * 8)) ] && [ -z "$bad" ]; then
		tap_ok "$name: PMPCSR of the busy CPU 1: $in of $n0 EL0 captures in the hot functions, $k in the kernel (EL1 or EL2, kernel addresses), all NS 1"
	else
		tap_fail "$name: PMPCSR of the busy CPU 1: its EL0 captures in the hot functions (at least 3 and 80%), the others in the kernel, all NS 1" \
			"$in of $n0 EL0 captures in [$hash_lo, $walk_hi), $k in the kernel; neither at:$bad" \
			"$(cd "$res" && for f in reg-lo-[0-9]*; do echo "$(cat "$f") $(cat "reg-hi-${f##*-}")"; done 2>&1 | head -n 40 | tr '\n' ' ')"
	fi
	# A 64-bit read is one capture: its halves agree (EL0 with a user
	# address, bits 55:52 clear: the workload's, or a library's or the
	# vDSO's high in a 48-bit address space; or EL1 with a kernel one, or
	# EL2 for a VHE kernel at EL2), NS set; the alias captures too.
	v=$(reg "$res" pcsr64)
	w=$(reg "$res" alias-lo)
	hi=$(((v >> 32) & 0xffffffff))
	if (((hi >> 31) == 1 && (((hi >> 29) & 3) == 0 && (hi & 0xffffff) < 0x100000 ||
	     ((hi >> 29) & 3) >= 1 && ((hi >> 29) & 3) <= 2 && (hi & 0xffffff) >= 0xff0000))) &&
	   [ "$w" -gt 0 ] && [ "$w" != $((0xffffffff)) ]; then
		tap_ok "$name: a 64-bit read of PMPCSR returns one capture ($(cat "$res/reg-pcsr64")); the alias at 0x220 captures"
	else
		tap_fail "$name: a 64-bit read of PMPCSR returns one capture; the alias at 0x220 captures" \
			"64-bit $(cat "$res/reg-pcsr64" 2>&1), alias $(cat "$res/reg-alias-lo" 2>&1)"
	fi
	# Idle, CPU 1 still wakes for its tick and kernel threads, and a read
	# then gives their address: one "no sample" of ten shows the halted
	# vCPU's value (a running one never reads 0xFFFFFFFF: A64 addresses
	# are 4-byte aligned); the statistics below count them all.
	in=0
	for i in 0 1 2 3 4 5 6 7 8 9; do
		[ "$(reg "$res" "idle-$i")" = $((0xffffffff)) ] && in=$((in + 1))
	done
	if [ "$in" -ge 1 ] && [ "$(reg "$res" offline)" = $((0xffffffff)) ]; then
		tap_ok "$name: PMPCSR reads 0xFFFFFFFF with CPU 1 idle in WFI ($in of 10 reads) and offline"
	else
		tap_fail "$name: PMPCSR reads 0xFFFFFFFF with CPU 1 idle in WFI and offline" \
			"idle: $in of 10; $(cd "$res" && head -n 1 reg-idle-? reg-offline 2>&1 | tr '\n' ' ')"
	fi
}

check_on() {
	local name=$1 out=$2 res=$2/results n c1 hs wk u k bad t pid v
	check_frame "$name" "$res"
	spe_result_is "$name: arm_pcsample.ko loads" "$out" insmod.rc 0
	if ! grep -qx arm_pcsample "$res/pmus" 2>/dev/null; then
		tap_fail "$name: arm_pcsample registers" "$(cat "$res/insmod.log" "$res/pmus" 2>&1 | head -n 20)"
		return
	fi
	if [ "$(cat "$res/cpumask")" = 1 ] &&
	   grep -q 'arm_pcsample: 1 CPUs from external PMU frames, read from CPU 0' "$res/dmesg.txt"; then
		tap_ok "$name: arm_pcsample registers, cpumask 1, external PMU frames read from CPU 0"
	else
		tap_fail "$name: arm_pcsample registers, cpumask 1, external PMU frames read from CPU 0" \
			"cpumask '$(cat "$res/cpumask")'" "$(grep -i pcsample "$res/dmesg.txt")"
	fi

	spe_result_is "$name: pcsample-record -C 1 -c 100000 -d 3 succeeds" "$out" rec.rc 0
	pid=$(cat "$res/hot-main.pid" 2>/dev/null)
	read -r n c1 hs wk u k bad t <<<"$(samples "$res/rec.txt" "$pid")"
	local ds da dm
	read -r ds da dm <<<"$(periods "$res/rec-stats0" "$res/rec-stats1")"
	if [ "${n:-0}" -gt 0 ] && [ "$c1" = "$n" ] && [ "$n" = "${ds:-}" ] &&
	   [ "${da:-0}" -ge 25500 ] && [ "${da:-0}" -le 37500 ] &&
	   [ $((${ds:-0} * 2)) -ge $((${da:-0} - ${dm:-0})) ]; then
		tap_ok "$name: 3 s at 10 kHz: $da periods ($dm of them missed), $n samples, all of CPU 1 and all in the output"
	else
		tap_fail "$name: 3 s at 10 kHz: 30000 periods within -15%/+25%, a sample from most reads, all of CPU 1 and all in the output" \
			"${n:-0} samples in the output, ${c1:-0} of CPU 1; the driver: ${ds:-?} sampled of ${da:-?} periods, ${dm:-?} missed" \
			"$(cat "$res/rec-stats0" "$res/rec-stats1" "$res/rec.log" 2>&1)"
	fi
	if hot_share_ok "$n" "$u" "$hs" "$wk"; then
		tap_ok "$name: $u of $n samples at EL0, $((hs + wk)) of them in the hot functions (hot_hash $hs, hot_walk $wk)"
	else
		tap_fail "$name: at least half of the samples at EL0, 80% of those in the hot functions, each at least 10%" \
			"hot_hash $hs [$hash_lo, $hash_hi), hot_walk $wk [$walk_lo, $walk_hi), of $u user, $n in all" \
			"$(awk '{ print $4, $6 }' "$res/rec.txt" | sort | uniq -c | sort -rn | head -n 5)" \
			"kernel: $(kernel_functions "$res" "$res/rec.txt")"
	fi
	if [ "${n:-0}" -gt 0 ] && [ "$bad" = 0 ] && [ $((u + k)) = "$n" ]; then
		tap_ok "$name: $u user samples at user addresses, $k kernel samples at kernel addresses"
	else
		tap_fail "$name: user samples at user addresses, kernel samples at kernel addresses" \
			"$u user, $k kernel, $bad mismatched, of $n"
	fi
	if [ $((hs + wk)) -gt 0 ] && [ $((t * 100)) -ge $(((hs + wk) * 99)) ]; then
		tap_ok "$name: $t of $((hs + wk)) hot-function samples carry the workload's TID $pid"
	else
		tap_fail "$name: the hot functions' samples carry the workload's TID" \
			"$t of $((hs + wk)) with TID '$pid'" "$(awk '{ print $3 }' "$res/rec.txt" | sort | uniq -c | sort -rn | head -n 3)"
	fi

	local bi bs ri rs ci cs extra tol cextra
	read -r bi bs <<<"$(window "$res" base)"
	read -r ri rs <<<"$(window "$res" rec)"
	read -r ci cs <<<"$(window "$res" clk)"
	local hz quiet
	# Debian's /boot/config-*, or a debug kernel's build tree's .config.
	hz=$(cat "$(dirname "$VMLINUZ")/config-$KREL" "$KDIR/.config" 2>/dev/null |
		sed -n 's/^CONFIG_HZ=//p' | head -n 1)
	quiet=$(quiet_count "$bi" "$bs" "$rs" "${hz:-0}")
	extra=$((ri - quiet))
	tol=$(irq_tolerance "$quiet")
	echo "# $name: CPU 1 interrupts: baseline $bi in $bs s, arm_pcsample $ri in $rs s (quiet: $quiet at HZ=${hz:-?}), cpu-clock $ci in $cs s"
	if [ "$bi" -gt 0 ] && [ -n "$hz" ] && [ "$extra" -le "$tol" ]; then
		tap_ok "$name: no extra interrupts on CPU 1 while it is sampled ($extra beyond the quiet $quiet, tolerance $tol)"
	else
		tap_fail "$name: no extra interrupts on CPU 1 while it is sampled" \
			"$extra beyond the quiet $quiet (HZ '${hz}'), tolerance $tol (baseline $bi in $bs s, recording $ri in $rs s)"
	fi
	# The contrast: perf's cpu-clock takes each sample in a timer
	# interrupt on CPU 1, so the count must show them, but only where the
	# guest can take that clock faster than its tick: CPU 1's timer
	# interrupt runs every expired hrtimer, so a vCPU that a loaded host
	# (or a debug kernel's slowness) lets take no more interrupts than
	# its tick folds cpu-clock's samples into the tick's interrupts (at
	# a host load of 2: 1199 samples, 1768 interrupts in 7.5 s against
	# 1861 quiet; a kcsan guest: 207 interrupts a second either way).
	# So the check needs cpu-clock to have taken more samples than the
	# quiet count; then its extra interrupts must be at least a quarter
	# of its samples.  Otherwise it says it cannot tell.
	local cs_n cquiet
	cs_n=$(perf script -i "$res/clk.data" -F cpu 2>/dev/null | grep -c '\[001\]')
	cquiet=$(quiet_count "$bi" "$bs" "$cs" "${hz:-0}")
	cextra=$((ci - cquiet))
	if [ "$(cat "$res/clk.rc" 2>/dev/null)" != 0 ] || [ "$cs_n" -eq 0 ]; then
		tap_fail "$name: perf's cpu-clock at the same rate records CPU 1" \
			"$cs_n samples of CPU 1 (rc $(cat "$res/clk.rc" 2>&1)): $(head -n 3 "$res/clk.log" 2>&1)"
	elif [ "$cs_n" -le "$cquiet" ]; then
		tap_skip "$name: perf's cpu-clock at the same rate adds interrupts on CPU 1" \
			"the guest took fewer samples ($cs_n) than its tick's quiet count ($cquiet in $cs s; $ci interrupts)"
	elif [ $((cextra * 4)) -ge "$cs_n" ]; then
		tap_ok "$name: perf's cpu-clock at the same rate adds $cextra interrupts on CPU 1 for $cs_n samples"
	else
		tap_fail "$name: perf's cpu-clock at the same rate adds interrupts on CPU 1, at least a quarter of its samples" \
			"$cextra beyond the quiet $cquiet for $cs_n samples ($ci in $cs s)"
	fi

	# The same kind of recording as a perf.data (pcsample-record -P, with
	# the text beside it): host perf report, with the workload's binary at
	# its guest path under --symfs, names the hot functions and the
	# workload's command for the share of samples the addresses say.
	local share text
	share=$(perf report -i "$res/rec.data" --stdio --symfs "$symfs" --sort comm,sym \
		-F overhead,comm,sym 2>/dev/null |
		awk '$2 == "pcsample-hot" && ($4 == "hot_hash" || $4 == "hot_walk") { sub("%", "", $1); s += $1 }
		     END { printf "%.1f\n", s }')
	read -r n c1 hs wk u k bad t <<<"$(samples "$res/rec-p.txt")"
	text=$(awk -v h=$((hs + wk)) -v n="${n:-0}" 'BEGIN { if (n > 0) printf "%.1f\n", h * 100 / n; else print 0 }')
	if [ "$(cat "$res/perf-data.rc" 2>/dev/null)" = 0 ] && [ "${n:-0}" -ge "$min_samples" ] &&
	   awk -v p="$share" -v t="$text" 'BEGIN { d = p - t; exit !(p >= 50 && d <= 1 && d >= -1) }'; then
		tap_ok "$name: host perf report on pcsample-record -P's perf.data: $share% in pcsample-hot's hot_hash and hot_walk (the addresses: $text%)"
	else
		tap_fail "$name: host perf report on pcsample-record -P's perf.data: most samples in the hot functions, as the addresses say" \
			"perf report $share%, addresses $text% of ${n:-0}, rc $(cat "$res/perf-data.rc" 2>&1)" \
			"$(head -n 3 "$res/perf-data.log" 2>&1)" \
			"$(perf report -i "$res/rec.data" --stdio --symfs "$symfs" --sort comm,sym 2>&1 | grep -v '^#' | head -n 5)"
	fi

	# CPU 1 idle: the sampler's counts of CPU 1 (debugfs stats: "cpu
	# sampled no_sample ...") around a 1 s recording.
	local s0 s1 ns0 ns1
	read -r s0 ns0 <<<"$(awk '$1 == 1 { print $2, $3 }' "$res/idle-stats0" 2>/dev/null)"
	read -r s1 ns1 <<<"$(awk '$1 == 1 { print $2, $3 }' "$res/idle-stats1" 2>/dev/null)"
	if [ "$(cat "$res/idle.rc" 2>/dev/null)" = 0 ] && [ -n "${ns1:-}" ] && [ -n "${ns0:-}" ] &&
	   [ $((ns1 - ns0)) -ge "$min_samples" ] && [ $((ns1 - ns0)) -ge $(((s1 - s0) * 5)) ]; then
		tap_ok "$name: CPU 1 idle (WFI): $((ns1 - ns0)) reads gave no sample, $((s1 - s0)) gave one"
	else
		tap_fail "$name: CPU 1 idle (WFI): most reads give no sample" \
			"no_sample ${ns0:-?} -> ${ns1:-?}, sampled ${s0:-?} -> ${s1:-?}, rc $(cat "$res/idle.rc" 2>&1)" \
			"$(cat "$res/idle-stats1" 2>&1)"
	fi

	v=$(cat "$res/paranoid-default" 2>/dev/null)
	if grep -q 'uid=65534' "$res/unpriv-id" 2>/dev/null &&
	   [ "$(cat "$res/unpriv-default.rc" 2>/dev/null)" != 0 ] && [ ! -e "$res/unpriv-default.txt" ]; then
		tap_ok "$name: an unprivileged user at perf_event_paranoid $v gets no samples"
	else
		tap_fail "$name: an unprivileged user at perf_event_paranoid $v gets no samples" \
			"$(cat "$res/unpriv-id" "$res/unpriv-default.rc" 2>&1)" \
			"$(head -n 3 "$res/unpriv-default.txt" 2>&1)"
	fi
	read -r n c1 hs wk u k bad t <<<"$(samples "$res/unpriv-u.txt")"
	if [ "$(cat "$res/unpriv-u.rc" 2>/dev/null)" = 0 ] && [ "${n:-0}" -ge 100 ] &&
	   [ "$u" = "$n" ] && [ "$bad" = 0 ] && ! grep -qv ' user EL0 ' "$res/unpriv-u.txt"; then
		tap_ok "$name: unprivileged at perf_event_paranoid 0 with -u: $n samples, all user at EL0, no kernel address"
	else
		tap_fail "$name: unprivileged at perf_event_paranoid 0 with -u: only user samples" \
			"rc $(cat "$res/unpriv-u.rc" 2>&1); ${n:-0} samples, $u user, $k kernel, $bad mismatched" \
			"$(head -n 3 "$res/unpriv-u.log" 2>&1)"
	fi

	if [ "$(cat "$res/hotplug-off.rc" "$res/hotplug-on.rc" "$res/hotplug.rc" 2>/dev/null | tr '\n' ' ')" = "0 0 0 " ]; then
		read -r n c1 hs wk u k bad t <<<"$(samples "$res/hotplug.txt")"
		if [ "$c1" = "$n" ] && [ "$bad" = 0 ]; then
			tap_ok "$name: CPU 1 offline and back during a recording: it ends normally ($n samples, all of CPU 1)"
		else
			tap_fail "$name: CPU 1 offline and back during a recording" "$n samples, $c1 of CPU 1, $bad mismatched"
		fi
	else
		tap_fail "$name: CPU 1 offline and back during a recording" \
			"off/on/record: $(cat "$res/hotplug-off.rc" "$res/hotplug-on.rc" "$res/hotplug.rc" 2>&1 | tr '\n' ' ')" \
			"$(head -n 3 "$res/hotplug.log" 2>&1)"
	fi
	read -r n c1 hs wk u k bad t <<<"$(samples "$res/after.txt")"
	if [ "$(cat "$res/after.rc" 2>/dev/null)" = 0 ] && [ "${n:-0}" -ge "$min_samples" ] &&
	   hot_share_ok "$n" "$u" "$hs" "$wk"; then
		tap_ok "$name: after the hotplug, CPU 1 is sampled again ($((hs + wk)) of $u user samples, $n in all, in the hot functions)"
	else
		tap_fail "$name: after the hotplug, CPU 1 is sampled again (half at EL0, 80% of those in the hot functions)" \
			"rc $(cat "$res/after.rc" 2>&1); $((hs + wk)) of $u user, ${n:-0} in all" "$(head -n 3 "$res/after.log" 2>&1)" \
			"kernel: $(kernel_functions "$res" "$res/after.txt")"
	fi
	spe_result_is "$name: arm_pcsample unloads" "$out" rmmod.rc 0
}

check_off() {
	local name=$1 out=$2 res=$2/results
	if [ "$(cat "$res/insmod.rc" 2>/dev/null)" != 0 ] &&
	   grep -q 'arm_pcsample: no PC sample registers' "$res/dmesg.txt" &&
	   grep -qx software "$res/pmus" && ! grep -qx arm_pcsample "$res/pmus" &&
	   [ -e "$res/dt-node" ] && ! grep -q 'pc-sample@' "$res/dt-node"; then
		tap_ok "$name: no frames in the device tree: the module says \"no PC sample registers\", no PMU"
	else
		tap_fail "$name: no frames in the device tree: \"no PC sample registers\", no PMU" \
			"insmod rc $(cat "$res/insmod.rc" 2>&1), dt: $(cat "$res/dt-node" 2>&1)" \
			"$(grep -i pcsample "$res/dmesg.txt" 2>&1)"
	fi
}

# run KERNEL EL on|off
run() {
	local k=$1 el=$2 mode=$3 name ko out rc=0 perf=()
	name="$k $el pcsample=$mode"
	out=$runs/$k-$el-$mode
	spe_kernel "$k"
	if ! ko=$("$top/scripts/build-spe-module.sh" "$k" --pcsample 2>"$runs/build-$k.log"); then
		tap_fail "$name: arm_pcsample.ko builds" "$(tail -n 20 "$runs/build-$k.log")"
		return
	fi
	[ "$mode" = on ] && perf=(--with-perf)
	(
		[ "$el" = el2 ] && export SPE_QEMU_EL2=1
		[ "$mode" = on ] && export SPE_QEMU_PCSAMPLE=1
		"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp 2 --spe-qemu n1 "${perf[@]}" \
			--module "$ko" --file "$hot" --file "$rec" --timeout 300 \
			--script "$guest" --out "$out"
	) 2>"$out.log" || rc=$?
	spe_guest_came_back "$name" "$out" || return
	if [ "$mode" = on ]; then
		check_on "$name" "$out"
	else
		check_off "$name" "$out"
	fi
	spe_kernel_log_tap "$name" "$out"
	spe_taint_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

start=$SECONDS
if [ $# -ge 1 ]; then
	run "$1" "${2:-el1}" on
	run "$1" "${2:-el1}" off
else
	run 6.1 el1 on
	run 6.1 el1 off
	run 6.12 el2 on
	run 6.12 el2 off
fi
echo "# guests in $((SECONDS - start)) s"
tap_done
