# shellcheck shell=dash
# Guest script of suite 58-qemu-spe: the SPE drivers on QEMU's emulated
# Statistical Profiling Unit (-cpu max,spe=on).  Loads Debian's in-tree
# arm_spe_pmu and then the project's arm_spe.ko (hardware backend), one at
# a time (both register "arm_spe_0"), and records what the host checks:
# the board's device-tree node, each driver's binding, PMU, caps/ files,
# cpumask and interrupt, and the kernel log between markers.  Then the
# test module spe_qemu_regs.ko (qemu/tests/spe-regs-kmod) reads the ID
# registers and checks that PMBSR_EL1.S raises PMBIRQ on every CPU.
mark() { echo "spe-test: $*" >/dev/kmsg; }

# NAME=driver of every platform device from an SPE node ("none" unbound).
bindings() {
	for d in /sys/bus/platform/devices/*spe*; do
		[ -e "$d" ] || continue
		drv=none
		[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
		echo "$(basename "$d")=$drv"
	done
}

# facts TAG: the registered PMU as a driver left it.
facts() {
	bindings >"bind-$1"
	ls /sys/bus/event_source/devices >"pmus-$1"
	pmu=/sys/bus/event_source/devices/arm_spe_0
	[ -d "$pmu" ] || return 0
	mkdir -p "caps-$1"
	for c in "$pmu"/caps/*; do
		[ -f "$c" ] && cat "$c" >"caps-$1/$(basename "$c")"
	done
	cat "$pmu/cpumask" >"cpumask-$1" 2>/dev/null
	cat "$pmu/type" >"type-$1"
	grep -i spe /proc/interrupts >"irq-$1"
}

cd "$RESULTS" || exit 1
nproc >nproc
tr '\0' ' ' </proc/device-tree/spe-pmu/compatible >dt-compatible 2>/dev/null
od -An -tx1 /proc/device-tree/spe-pmu/interrupts 2>/dev/null | tr -s ' \n' ' ' >dt-interrupts
bindings >bind-boot
# EL0: every PMS/PMB register UNDEFINED, PSB CSYNC a NOP.
[ -x "$FILES/spe-el0-undef" ] && "$FILES/spe-el0-undef" >el0 2>&1
# Cross-modifying code: every vCPU runs a rewritten instruction after a
# context synchronization (qemu/tests/cross-modify.c).  With 4 CPUs, where
# one vCPU can translate the code while another writes it.
if [ -x "$FILES/cross-modify" ] && [ "$(nproc)" -ge 4 ]; then
	"$FILES/cross-modify" 2000 90 >cross-modify 2>&1
	echo $? >cross-modify.rc
fi

if [ -e "$MODULES/arm_spe_pmu.ko" ]; then
	mark "insmod in-tree"
	insmod "$MODULES/arm_spe_pmu.ko"
	echo $? >intree-insmod.rc
	facts intree
	mark "rmmod in-tree"
	rmmod arm_spe_pmu
	echo $? >intree-rmmod.rc
fi

mark "insmod hw"
insmod "$MODULES/arm_spe.ko"
echo $? >hw-insmod.rc
facts hw
mark "rmmod hw"
rmmod arm_spe
echo $? >hw-rmmod.rc
# Last, with no SPE driver holding the unit's PPI: the register probe.
if [ -e "$MODULES/spe_qemu_regs.ko" ]; then
	mark "insmod regs"
	insmod "$MODULES/spe_qemu_regs.ko"
	echo $? >regs-insmod.rc
	dmesg | sed -n 's/.*spe_qemu_regs: //p' >regs
	rmmod spe_qemu_regs
	echo $? >regs-rmmod.rc
fi
mark "end"
bindings >bind-end
cat /proc/sys/kernel/tainted >tainted
