# shellcheck shell=dash
# Guest script of suite 51-guest-driver-load: load and unload the SPE driver
# (arm_spe.ko, hardware backend) twice on CPUs without SPE and record every
# fact the host checks.  When the in-tree arm_spe_pmu is in $MODULES too, it
# is loaded first (its probe fails on these CPUs) to show the two coexist.
# When arm_spe_sim.ko is there too, the names each module registers under
# are recorded, and each is loaded while the other is (both refused).
# Each step writes a kernel log marker, so the host can tell which step
# printed what.
mark() { echo "spe-test: $*" >/dev/kmsg; }

# Kernel resources the driver registers: they must be gone after rmmod.
resources() {
	grep -i spe /sys/devices/system/cpu/hotplug/states
	grep -i spe /proc/interrupts | sed 's/^ *[0-9]*: *[0-9 ]*//'
	grep -i '^arm_spe' /proc/modules | cut -d' ' -f1
	for f in /sys/bus/platform/drivers/*spe* /sys/bus/event_source/devices/*spe*; do
		[ -e "$f" ] && echo "$f"
	done
}

# The names the loaded SPE modules registered under: platform drivers,
# modules in sysfs, interrupt lines (the action names, after the counts).
names() {
	ls -d /sys/bus/platform/drivers/*spe* /sys/module/*spe* 2>/dev/null
	grep -i spe /proc/interrupts | awk '{print "irq " $NF}'
}

# NAME=driver of every platform device from an SPE node ("none" unbound).
bindings() {
	for d in /sys/bus/platform/devices/*spe*; do
		[ -e "$d" ] || continue
		drv=none
		[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
		echo "$(basename "$d")=$drv"
	done
}

cd "$RESULTS" || exit 1
bindings >bind-boot
lsmod >lsmod-boot
resources >res-before

if [ -e "$MODULES/arm_spe_pmu.ko" ]; then
	mark "insmod in-tree"
	insmod "$MODULES/arm_spe_pmu.ko"
	echo $? >intree-insmod.rc
	bindings >bind-intree
fi

for n in 1 2; do
	mark "insmod $n"
	insmod "$MODULES/arm_spe.ko"
	echo $? >insmod$n.rc
	bindings >bind-loaded$n
	names >names-loaded$n
	ls /sys/bus/event_source/devices >pmus-loaded$n
	mark "rmmod $n"
	rmmod arm_spe
	echo $? >rmmod$n.rc
	mark "unloaded $n"
done

# Each build alone, then each while the other is loaded.
if [ -e "$MODULES/arm_spe_sim.ko" ]; then
	mark "sim insmod"
	insmod "$MODULES/arm_spe_sim.ko"
	echo $? >sim-insmod.rc
	bindings >bind-sim
	names >names-sim
	mark "hw while sim"
	insmod "$MODULES/arm_spe.ko"
	echo $? >hw-while-sim.rc
	names >names-hw-while-sim
	mark "sim rmmod"
	rmmod arm_spe_sim
	echo $? >sim-rmmod.rc
	insmod "$MODULES/arm_spe.ko"
	echo $? >hw-before-sim.rc
	mark "sim while hw"
	insmod "$MODULES/arm_spe_sim.ko"
	echo $? >sim-while-hw.rc
	names >names-sim-while-hw
	mark "hw rmmod"
	rmmod arm_spe
	echo $? >hw-rmmod.rc
	mark "sim end"
fi

if [ -e intree-insmod.rc ]; then
	rmmod arm_spe_pmu
	echo $? >intree-rmmod.rc
fi
mark "end"
resources >res-after
cat /proc/sys/kernel/tainted >tainted
