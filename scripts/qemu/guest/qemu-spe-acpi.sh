# shellcheck shell=dash
# Guest script of suite 58's ACPI guests: booted through UEFI with the
# virt board's ACPI tables (no device tree), the kernel's arm_pmu ACPI code
# makes the "arm,spe-v1" platform device from the MADT's SPE interrupt;
# each SPE driver in turn binds it and records the spe_spin workload.
# Nothing is judged here: the host reads $RESULTS.
mark() { echo "spe-test: $*" >/dev/kmsg; }
cd "$RESULTS" || exit 1
[ -d /sys/firmware/acpi/tables ] && echo acpi >firmware
[ -e /proc/device-tree ] && echo dt >>firmware
ls /sys/bus/platform/devices >platform-devices

# drive TAG MODULE NAME: load, where it bound, its PMU and CPUs, a
# recording, unload.
drive() {
	mark "insmod $1"
	insmod "$2"
	echo $? >"$1-insmod.rc"
	readlink /sys/bus/platform/devices/arm,spe-v1/driver >"$1-driver" 2>&1
	cat /sys/bus/event_source/devices/arm_spe_0/cpumask >"$1-cpumask" 2>&1
	perf record -q -o "$1.data" -c 16384 -e arm_spe/ts_enable=1/u -- \
		"$FILES/spe_spin" 1 >"$1-spin" 2>"$1-record.log"
	echo $? >"$1-record.rc"
	mark "rmmod $1"
	rmmod "$3"
	echo $? >"$1-rmmod.rc"
}
drive hw "$MODULES/arm_spe.ko" arm_spe
drive intree "$MODULES/arm_spe_pmu.ko" arm_spe_pmu
cat /proc/sys/kernel/tainted >tainted
