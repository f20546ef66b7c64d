#!/usr/bin/env bash
# FEAT_SPE in QEMU (qemu/patches/ on QEMU 10.2; Documentation/dev-tools/qemu-spe.rst):
# the patched QEMU built by scripts/fetch-qemu.sh, the series clean under QEMU's own
# checkpatch.pl and typing no register encoding the project's headers hold
# (qemu/tests/check-series-constants.sh), the series' own bare-metal test
# (patch 0009's tests/tcg/aarch64/system/spe.c, built with QEMU's tests/tcg
# make rules and run on -cpu max,spe=on by scripts/qemu/tcg-spe-test.sh:
# sampling at EL1, the records of known instructions, the load filter, E1SPE
# clear, a buffer that fills) and its functional test (patch 0010,
# tests/functional/aarch64/test_spe.py with QEMU's functional framework:
# Debian 12's kernel and its arm_spe_pmu module in an initramfs the test
# writes, by scripts/qemu/functional-spe-test.sh) passing, and guests
# booted with -cpu max,spe=on on Debian's 6.1 and 6.12 kernels, at EL1
# and at EL2 (VHE, SPE_QEMU_EL2=1), where
#   - at EL0 every PMS/PMB register is UNDEFINED (SIGILL) and PSB CSYNC
#     is a NOP (qemu/tests/spe-el0-undef.c);
#   - with 4 CPUs, cross-modifying code is right: after one thread rewrites
#     an instruction that others keep running, each checker that observed
#     the rewrite and executed an ISB runs the new instruction
#     (qemu/tests/cross-modify.c; QEMU's own bug, fixed by patch 0008, that
#     let perf's scheduling static key run stale after it was patched);
#   - the virt board describes the unit (spe-pmu node, PPI 5, level-high);
#   - Debian's in-tree arm_spe_pmu (from the kernel's own module tree)
#     probes, binds and registers arm_spe_0 on every CPU;
#   - the project's unmodified hardware module arm_spe.ko probes, binds and
#     registers arm_spe_0 on every CPU with the caps of the profile (the
#     expected values come from the SPU model's profile table, the same
#     table the QEMU build compiles in: qemu/tests/spe-profile-caps.c);
#   - both unload cleanly; no warning, BUG or oops; only O/E taints;
#   - a test module (qemu/tests/spe-regs-kmod) reads PMSVer, PMSIDR_EL1,
#     PMBIDR_EL1 (with F: -cpu max has FEAT_HAFDBS) and PMSEVFR_EL1's
#     writable bits (the profile's), and on
#     each CPU sets PMBSR_EL1.S: PMBIRQ is taken once, through the GIC, and
#     clearing S in the handler deasserts it; in the VHE kernel, a write
#     of PMSCR_EL12 reaches PMSCR_EL1 and of PMSCR_EL1 reaches PMSCR_EL2;
#     sampling its own code with PMBPTR_EL1 in an unmapped page stops the
#     unit with a stage 1 translation fault, the FSC of AT S1E1W;
#   - booted through UEFI with ACPI instead (6.1 with 2 CPUs, 6.12 with 4):
#     both drivers bind the device the kernel makes from the MADT's SPE
#     interrupt, register arm_spe_0 on every CPU and record.
# `58-qemu-spe.sh 6.12 n1 [el2]` runs one guest, `58-qemu-spe.sh acpi 6.12`
# one ACPI guest.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
# shellcheck source=scripts/lib/perf-dump.sh
. "$top/scripts/lib/perf-dump.sh"
runs=$top/build/qemu/runs/58-qemu-spe
guest=$top/scripts/qemu/guest/qemu-spe.sh
mkdir -p "$runs"

# ---- the QEMU build --------------------------------------------------------
# shellcheck source=scripts/lib/qemu-series.sh
. "$top/scripts/lib/qemu-series.sh"
series=${spe_qemu_patches#"$top"/}
spe_suite_spe_qemu "$runs"
qemu=$SPE_QEMU_BIN
tap_ok "the SPE QEMU builds or is cached ($spe_qemu_seconds s)"

# The series is clean under the checkpatch.pl of the QEMU source it applies
# to: no error, and no warning but "does MAINTAINERS need updating?" for the
# new target/arm/spe.[ch], which MAINTAINERS already covers ("F: target/arm/").
src=$("$top/scripts/fetch-qemu.sh" --source 2>/dev/null)
rc=0
out=$(cd "$src" && perl scripts/checkpatch.pl --no-tree "$spe_qemu_patches"/*.patch 2>&1) || rc=$?
other=$(grep -E '^(ERROR|WARNING):' <<<"$out" | grep -v 'does MAINTAINERS need updating')
if [ $rc -eq 0 ] && [ -z "$other" ] && grep -q '^total: 0 errors' <<<"$out" &&
   [ "$(grep -c '^total:' <<<"$out")" -eq "$(ls "$spe_qemu_patches"/*.patch | wc -l)" ]; then
	tap_ok "$series pass QEMU's scripts/checkpatch.pl"
else
	tap_fail "$series pass QEMU's scripts/checkpatch.pl" "$out"
fi

# The series types no register encoding, name or PC sample frame offset
# again: each comes from include/spe/regs.h or include/pcsample/regs.h,
# which scripts/fetch-qemu.sh copies into QEMU's tree.
if out=$("$top/qemu/tests/check-series-constants.sh" 2>&1); then
	tap_ok "$series take the register encodings and offsets from include/spe and include/pcsample"
else
	tap_fail "$series take the register encodings and offsets from include/spe and include/pcsample" "$out"
fi

# Each patch is a commit with a message body and a Signed-off-by.
bad=''
for p in "$spe_qemu_patches"/*.patch; do
	body=$(sed -n '/^Subject:/,/^---$/p' "$p" | sed '1d;$d' | grep -v '^Signed-off-by:' | grep -c '[a-z]')
	grep -q '^Signed-off-by: ' "$p" || bad+="$(basename "$p"): no Signed-off-by; "
	[ "$body" -ge 2 ] || bad+="$(basename "$p"): no commit message; "
done
if [ -z "$bad" ]; then
	tap_ok "each patch has a commit message and a Signed-off-by"
else
	tap_fail "each patch has a commit message and a Signed-off-by" "$bad"
fi

# -cpu max without spe=on keeps PMSVer = 0 (the unmodified behaviour), and
# an unknown profile is refused with a message naming the valid ones.
if out=$("$qemu" -M virt -cpu max,spe=on,spe-profile=bogus -nographic -S 2>&1 </dev/null) ||
   ! grep -q "v1-min, n1, v2, full" <<<"$out"; then
	tap_fail "an unknown spe-profile is refused with the valid names" "$out"
else
	tap_ok "an unknown spe-profile is refused with the valid names"
fi

# spe-inject (patch 0006): an unknown event is refused with the valid
# names, and any event without spe=on (there is no unit to inject into).
if out=$("$qemu" -M virt -cpu max,spe=on,spe-inject=bogus -nographic -S 2>&1 </dev/null) ||
   ! grep -q "none, s1, s2, ea, dataloss, collision" <<<"$out"; then
	tap_fail "an unknown spe-inject is refused with the valid names" "$out"
else
	tap_ok "an unknown spe-inject is refused with the valid names"
fi
if out=$("$qemu" -M virt -cpu max,spe-inject=s1 -nographic -S 2>&1 </dev/null) ||
   ! grep -q "spe-inject needs spe=on" <<<"$out"; then
	tap_fail "spe-inject without spe=on is refused" "$out"
else
	tap_ok "spe-inject without spe=on is refused"
fi

# The unit's state is not migrated: spe=on blocks migration and savevm
# (patch 0001) rather than lose it, so -only-migratable refuses it, naming
# the feature; without spe=on the same machine starts.
if out=$("$qemu" -M virt -cpu max,spe=on -only-migratable -nographic -S -nic none 2>&1 </dev/null) ||
   ! grep -q "FEAT_SPE (-cpu ...,spe=on) does not support migration" <<<"$out"; then
	tap_fail "spe=on blocks migration (-only-migratable refuses it, naming FEAT_SPE)" "$out"
elif timeout 3 "$qemu" -M virt -cpu max -only-migratable -nographic -S -nic none \
	-serial none -monitor none </dev/null >/dev/null 2>&1 || [ $? -ne 124 ]; then
	tap_fail "spe=on blocks migration, and only spe=on" "-cpu max -only-migratable did not keep running"
else
	tap_ok "spe=on blocks migration (-only-migratable refuses it, naming FEAT_SPE); -cpu max alone does not"
fi

# The board describes the unit only when the CPUs have it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spe in on off; do
	"$qemu" -M virt,gic-version=3 -cpu "max,spe=$spe" -nographic -nic none \
		-machine dumpdtb="$tmp/$spe.dtb" >"$tmp/$spe.log" 2>&1 </dev/null
done
got_on=$(fdtget "$tmp/on.dtb" /spe-pmu compatible 2>&1)
got_off=$(fdtget "$tmp/off.dtb" /spe-pmu compatible 2>&1)
if [ "$got_on" = "arm,statistical-profiling-extension-v1" ] && [ "$(fdtget "$tmp/on.dtb" /spe-pmu interrupts)" = "1 5 4" ] &&
   ! fdtget "$tmp/off.dtb" /spe-pmu compatible >/dev/null 2>&1; then
	tap_ok "the virt board's DTB has the spe-pmu node (PPI 5) with spe=on and none without"
else
	tap_fail "the virt board's DTB has the spe-pmu node (PPI 5) with spe=on and none without" \
		"spe=on: $got_on" "spe=off: $got_off" "$(cat "$tmp/on.log" "$tmp/off.log")"
fi

# ---- the series' own tests (patches 0009, 0010) ----------------------------
# tests/tcg/aarch64/system/spe.c, built from the patched work tree with
# QEMU's own tests/tcg make rules and run bare metal at EL1 on -cpu
# max,spe=on (scripts/qemu/tcg-spe-test.sh): it programs the unit and
# checks the records it writes.  Its output is in $runs/tcg-spe/spe.out.
# Then the series' functional test (patch 0010) with QEMU's own framework
# (scripts/qemu/functional-spe-test.sh): Debian 12's kernel boots and its
# arm_spe_pmu probes the unit with spe=on and finds none without it.
if work=$("$top/scripts/fetch-qemu.sh" --work-tree 2>"$runs/work-tree.log"); then
	tap_sub "" "$top/scripts/qemu/tcg-spe-test.sh" "$work" "$qemu" "$runs/tcg-spe" || true
	tap_sub "" "$top/scripts/qemu/functional-spe-test.sh" "$work" "$qemu" "$runs/functional" || true
else
	tap_fail "the patched QEMU work tree (fetch-qemu.sh --work-tree)" "$(tail -n 20 "$runs/work-tree.log")"
fi

# ---- guests ----------------------------------------------------------------
el0_tool=$top/build/qemu/spe-el0-undef
mkdir -p "${el0_tool%/*}"
if ! aarch64-linux-gnu-gcc -std=gnu11 -Wall -Wextra -Werror -O2 -static -o "$el0_tool" \
	"$top/qemu/tests/spe-el0-undef.c" 2>"$runs/el0-tool.log"; then
	tap_fail "the EL0 test program builds" "$(cat "$runs/el0-tool.log")"
	tap_done
	exit 0
fi
xmc_tool=$top/build/qemu/cross-modify
if ! aarch64-linux-gnu-gcc -std=gnu11 -Wall -Wextra -Werror -O2 -static -pthread -o "$xmc_tool" \
	"$top/qemu/tests/cross-modify.c" 2>"$runs/xmc-tool.log"; then
	tap_fail "the cross-modifying code test builds" "$(cat "$runs/xmc-tool.log")"
	tap_done
	exit 0
fi
# It links the model's and the driver logic's libraries (qemu/tests/Makefile).
caps_tool=$top/build/qemu/spe-profile-caps
if ! make -s -C "$top/qemu/tests" "$caps_tool" >"$runs/caps-tool.log" 2>&1; then
	tap_fail "the profile caps tool builds" "$(cat "$runs/caps-tool.log")"
	tap_done
	exit 0
fi

# check_file NAME FILE EXPECTED: FILE in the results holds exactly EXPECTED.
check_file() {
	spe_result_is "$1" "$out" "$2" "$3"
}

log_between() {
	sed -n "/spe-test: $1\$/,/spe-test: $2\$/p" "$out/results/dmesg.txt"
}

# check_caps NAME TAG FILE...: caps-TAG/FILE equals the profile's value.
check_caps() {
	local name=$1 tag=$2 f got want diffs=''
	shift 2
	for f in "$@"; do
		want=$(sed -n "s/^$f=//p" <<<"$expect")
		got=$(cat "$out/results/caps-$tag/$f" 2>/dev/null || echo missing)
		[ "$got" = "$want" ] || diffs+="$f: expected $want, got $got; "
	done
	if [ -z "$diffs" ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "$diffs"
	fi
}

# check_cross_modify NAME: no checker ran a stale instruction, over at least
# 1000 rewrites (QEMU without patch 0008 left one in 120 to one in 400 stale: the
# test then fails with near certainty).
check_cross_modify() {
	local line gens
	line=$(grep '^cross-modify: [0-9]* generations' "$out/results/cross-modify" 2>/dev/null)
	gens=${line#cross-modify: }
	gens=${gens%% *}
	if [[ "$line" == *": 0 stale" ]] && [ "${gens:-0}" -ge 1000 ] &&
	   [ "$(cat "$out/results/cross-modify.rc" 2>/dev/null)" = 0 ]; then
		tap_ok "$1: cross-modifying code: every checker runs each of $gens rewrites after an ISB"
	else
		tap_fail "$1: cross-modifying code: every checker runs each rewrite after an ISB" \
			"$(cat "$out/results/cross-modify" 2>&1 | tail -n 5)"
	fi
}

# run KERNEL PROFILE SMP EL
run() {
	local k=$1 profile=$2 smp=$3 el=$4 name ko regs_ko rc=0 expect_cpus
	name="$k $profile smp=$smp $el"
	out=$runs/$k-$profile-smp$smp-$el
	if [ -z "${failed[$k]:-}" ] && ! ko=$(spe_driver_ko "$k" 2>"$runs/build-$k.log"); then
		failed[$k]=1
		tap_fail "$k: hardware driver builds" "$(tail -n 20 "$runs/build-$k.log")"
	fi
	if [ -n "${failed[$k]:-}" ]; then
		tap_skip "$name: SPE QEMU tests" "the $k build failed"
		return
	fi
	if ! regs_ko=$("$top/scripts/build-external-module.sh" --kernel "$k" "$top/qemu/tests/spe-regs-kmod" 2>"$runs/regs-$k.log"); then
		tap_fail "$name: the register test module builds" "$(tail -n 20 "$runs/regs-$k.log")"
		return
	fi
	expect=$("$caps_tool" "$profile")
	(
		[ "$el" = el2 ] && export SPE_QEMU_EL2=1
		"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp "$smp" --spe-qemu "$profile" \
			--module arm_spe_pmu --module "$ko" --module "$regs_ko" --file "$el0_tool" --file "$xmc_tool" --append "slub_debug=FZPU" \
			--timeout 330 --script "$guest" --out "$out"
	) 2>"$out.log" || rc=$?
	spe_guest_came_back "$name" "$out" || return
	expect_cpus="0-$((smp - 1))"
	check_file "$name: the board's DT has the SPE node" dt-compatible "arm,statistical-profiling-extension-v1 "
	check_file "$name: PMBIRQ is PPI 5, level-high" dt-interrupts " 00 00 00 01 00 00 00 05 00 00 00 04 "

	if [ "$(grep -c '_EL1=sigill$' "$out/results/el0" 2>/dev/null)" -eq 11 ] &&
	   [ "$(wc -l <"$out/results/el0")" -eq 12 ] && grep -qx 'psb=nop' "$out/results/el0"; then
		tap_ok "$name: at EL0 all 11 PMS/PMB registers are UNDEFINED, PSB CSYNC is a NOP"
	else
		tap_fail "$name: at EL0 all 11 PMS/PMB registers are UNDEFINED, PSB CSYNC is a NOP" \
			"$(cat "$out/results/el0" 2>&1)"
	fi
	if [ "$smp" -ge 4 ]; then
		check_cross_modify "$name"
	fi
	check_file "$name: in-tree arm_spe_pmu loads" intree-insmod.rc 0
	check_file "$name: in-tree arm_spe_pmu binds the device" bind-intree "spe-pmu=arm_spe_pmu"
	if grep -qx arm_spe_0 "$out/results/pmus-intree" &&
	   [ "$(cat "$out/results/cpumask-intree" 2>/dev/null)" = "$expect_cpus" ]; then
		tap_ok "$name: in-tree driver registers arm_spe_0 on CPUs $expect_cpus"
	else
		tap_fail "$name: in-tree driver registers arm_spe_0 on CPUs $expect_cpus" \
			"$(cat "$out/results/pmus-intree" "$out/results/cpumask-intree" 2>&1)" \
			"$(log_between "insmod in-tree" "rmmod in-tree")"
	fi
	check_caps "$name: in-tree driver's caps match the profile" intree \
		arch_inst ernd count_size min_interval
	check_file "$name: in-tree arm_spe_pmu unloads" intree-rmmod.rc 0

	check_file "$name: arm_spe.ko loads" hw-insmod.rc 0
	# The platform driver is named KBUILD_MODNAME: "arm_spe", or
	# "arm_spe:arm_spe_sim" when kbuild built the shared objects for both
	# modules at once (scripts/lib/driver.sh does); never arm_spe_pmu.
	if grep -qxE 'spe-pmu=arm_spe(:arm_spe_sim)?' "$out/results/bind-hw" &&
	   grep -qx arm_spe_0 "$out/results/pmus-hw" &&
	   [ "$(cat "$out/results/cpumask-hw" 2>/dev/null)" = "$expect_cpus" ]; then
		tap_ok "$name: arm_spe.ko binds and registers arm_spe_0 on CPUs $expect_cpus"
	else
		tap_fail "$name: arm_spe.ko binds and registers arm_spe_0 on CPUs $expect_cpus" \
			"$(cat "$out/results/bind-hw" "$out/results/pmus-hw" "$out/results/cpumask-hw" 2>&1)" \
			"$(log_between "insmod hw" "rmmod hw")"
	fi
	local pmsver
	pmsver=$(sed -n 's/^pmsver=//p' <<<"$expect")
	if log_between "insmod hw" "rmmod hw" | grep_q "registered arm_spe_0 (hardware backend): CPUs $expect_cpus, PMSVer $pmsver,"; then
		tap_ok "$name: arm_spe.ko reports the hardware backend and PMSVer $pmsver"
	else
		tap_fail "$name: arm_spe.ko reports the hardware backend and PMSVer $pmsver" \
			"$(log_between "insmod hw" "rmmod hw")"
	fi
	check_caps "$name: arm_spe.ko's caps match the profile" hw \
		arch_inst ernd count_size min_interval event_filter
	check_file "$name: arm_spe.ko unloads" hw-rmmod.rc 0
	check_file "$name: the device is unbound after both unloads" bind-end "spe-pmu=none"

	# The register probe (qemu/tests/spe-regs-kmod): ID registers as the
	# profile says, and PMBSR_EL1.S -> PMBIRQ -> handler on every CPU.
	check_file "$name: spe_qemu_regs.ko loads" regs-insmod.rc 0
	local key want got diffs='' cpu
	for key in pmsver pmsidr pmbidr; do
		want=$(sed -n "s/^$key=//p" <<<"$expect")
		# -cpu max has FEAT_HAFDBS: the buffer is written through the
		# CPU's translation, which manages the access and dirty flags,
		# and PMBIDR_EL1.F (bit 5) says so.
		[ "$key" = pmbidr ] && [ -n "$want" ] && want=$(printf '0x%x' $((want | 0x20)))
		got=$(sed -n "s/^$key=//p" "$out/results/regs" 2>/dev/null)
		[ "$got" = "$want" ] || diffs+="$key: expected $want, got ${got:-nothing}; "
	done
	want=$(sed -n 's/^pmsevfr_writable=//p' <<<"$expect")
	got=$(sed -n 's/^pmsevfr_writable=//p' "$out/results/regs" 2>/dev/null)
	[ "$got" = "$want" ] || diffs+="PMSEVFR_EL1 writable bits: expected $want, got ${got:-nothing}; "
	if [ -z "$diffs" ]; then
		tap_ok "$name: PMSVer, PMSIDR_EL1, PMBIDR_EL1, PMSEVFR_EL1 as the profile says"
	else
		tap_fail "$name: PMSVer, PMSIDR_EL1, PMBIDR_EL1, PMSEVFR_EL1 as the profile says" "$diffs"
	fi
	diffs=''
	for ((cpu = 0; cpu < smp; cpu++)); do
		grep -qx "cpu$cpu taken=1 seen=0x20000 after=0x0" "$out/results/regs" ||
			diffs+="$(grep "^cpu$cpu " "$out/results/regs" || echo "cpu$cpu: no line"); "
	done
	if [ -z "$diffs" ]; then
		tap_ok "$name: PMBSR_EL1.S raises PMBIRQ once on each CPU, clearing it deasserts"
	else
		tap_fail "$name: PMBSR_EL1.S raises PMBIRQ once on each CPU, clearing it deasserts" "$diffs"
	fi
	if [ "$el" = el2 ]; then
		want="e2h pmscr_el12=0x18 pmscr_el2=0x20 pmscr_el1_at_el2=0x20"
	else
		want="e2h=el1"
	fi
	if grep -qx "$want" "$out/results/regs"; then
		tap_ok "$name: PMSCR_EL1/EL12/EL2 as E2H redirects them ($want)"
	else
		tap_fail "$name: PMSCR_EL1/EL12/EL2 as E2H redirects them ($want)" \
			"$(grep e2h "$out/results/regs" || echo 'no e2h line')"
	fi
	# Sampling with PMBPTR_EL1 in a vmalloc guard page: a stage 1 data
	# abort (EC 0x24) with the translation fault's FSC that AT S1E1W gives
	# for that address, PMBPTR_EL1 left at it, PMBIRQ taken once.
	local fault fsc
	fault=$(grep '^fault ' "$out/results/regs" 2>/dev/null)
	fsc=$(sed -n 's/.* fsc=\(0x[0-9a-f]*\) .*/\1/p' <<<"$fault")
	if [[ $fault =~ ^fault\ ec=0x24\ fsc=(0x[0-9a-f]+)\ par_f=1\ par_fst=(0x[0-9a-f]+)\ ptr=hole\ taken=1\ after=0x0$ ]] &&
	   [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && ((fsc >= 4 && fsc <= 7)); then
		tap_ok "$name: a buffer write to an unmapped page stops the unit with a stage 1 translation fault (FSC $fsc, as AT S1E1W), PMBIRQ once"
	else
		tap_fail "$name: a buffer write to an unmapped page stops the unit with a stage 1 translation fault, PMBIRQ once" \
			"${fault:-no fault line}"
	fi
	check_file "$name: spe_qemu_regs.ko unloads" regs-rmmod.rc 0

	spe_kernel_log_tap "$name" "$out"
	spe_taint_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

# run_acpi KERNEL SMP: a guest booted through UEFI with the board's ACPI
# tables instead of a device tree (run-guest.sh --acpi).  The MADT's GICC
# structures carry the SPE overflow interrupt (ACPI 6.3; patch 0003), from
# which the kernel makes the "arm,spe-v1" device: both drivers must bind
# it, register arm_spe_0 on every CPU and record records host perf
# decodes, with a clean kernel log.
run_acpi() {
	local k=$1 smp=$2 name ko rc=0 tag drv n spin
	name="$k n1 smp=$smp ACPI"
	out=$runs/$k-acpi-smp$smp
	if [ -n "${failed[$k]:-}" ] || ! ko=$(spe_driver_ko "$k" 2>"$runs/build-$k.log"); then
		tap_skip "$name: SPE QEMU tests" "the $k build failed"
		return
	fi
	spin=$runs/spe_spin
	[ -x "$spin" ] || spe_build_spin "$spin" || {
		tap_fail "$name: spe_spin cross-compiles" "$(cat "$spin.log")"
		return
	}
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp "$smp" --spe-qemu n1 --acpi --with-perf \
		--module arm_spe_pmu --module "$ko" --file "$spin" --timeout 300 \
		--script "$top/scripts/qemu/guest/qemu-spe-acpi.sh" --out "$out" 2>"$out.log" || rc=$?
	spe_guest_came_back "$name" "$out" "guest boots through UEFI" || return
	check_file "$name: the kernel describes the board from ACPI, not a device tree" firmware acpi
	for tag in hw intree; do
		drv=arm_spe
		[ $tag = intree ] && drv=arm_spe_pmu
		check_file "$name: $drv loads" "$tag-insmod.rc" 0
		if grep -q "/$drv\$" "$out/results/$tag-driver" 2>/dev/null &&
		   [ "$(cat "$out/results/$tag-cpumask" 2>/dev/null)" = "0-$((smp - 1))" ]; then
			tap_ok "$name: $drv binds the MADT's arm,spe-v1 device, arm_spe_0 on CPUs 0-$((smp - 1))"
		else
			tap_fail "$name: $drv binds the MADT's arm,spe-v1 device, arm_spe_0 on every CPU" \
				"driver: $(cat "$out/results/$tag-driver" 2>&1); cpumask: $(cat "$out/results/$tag-cpumask" 2>&1)"
		fi
		check_file "$name: $drv: perf record succeeds" "$tag-record.rc" 0
		n=$(perf_dump_sum "$out/results/$tag.data" records)
		if [ "$n" -ge 1000 ] && [ "$(perf_dump_sum "$out/results/$tag.data" bad)" = 0 ]; then
			tap_ok "$name: $drv: host perf decodes $n records"
		else
			tap_fail "$name: $drv: host perf decodes the recording" "$n records, $(perf_dump_sum "$out/results/$tag.data" bad) errors"
		fi
		check_file "$name: $drv unloads" "$tag-rmmod.rc" 0
	done
	spe_kernel_log_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

declare -A failed	# kernels the driver does not build for
start=$SECONDS
if [ "${1:-}" = acpi ]; then
	run_acpi "${2:-6.1}" 2
elif [ $# -ge 2 ]; then
	run "$1" "$2" 2 "${3:-el1}"
else
	run 6.1 n1 2 el1
	run 6.12 v2 4 el1
	run 6.1 full 2 el2
	run 6.12 v1-min 2 el2
	run_acpi 6.1 2
	run_acpi 6.12 4
fi
echo "# guests in $((SECONDS - start)) s"
tap_done
