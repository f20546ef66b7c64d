# shellcheck shell=dash
# Guest script of suite 57-guest-dkms-install: the install of
# Documentation/admin-guide/arm-spe.rst ("Installing with DKMS"), step by
# step, on a Debian kernel whose module tree has the in-tree arm_spe_pmu.
#
# $FILES/debian-modules.tar is that tree (the kernel's arm_spe_pmu.ko.xz at
# its Debian path); $FILES/dkms-install.tar is what "dkms install" added to
# it on the host (updates/dkms/arm_spe.ko, built and installed by DKMS
# itself).  DKMS, the compiler and udev are not in the guest, so:
#   "dkms install" = unpacking what it installed, then depmod as it runs it;
#   "dkms remove"  = deleting that file, then depmod;
#   a boot         = "modprobe <the device's modalias>", which is what udev
#                    does for the SPE device at boot.
# Every step records its exit status and what is loaded and bound; the host
# checks them.
mark() { echo "spe-test: $*" >/dev/kmsg; }

# What is loaded and what the SPE device is bound to, as "KEY VALUE" lines.
state() {
	lsmod | awk '$1 ~ /spe/ {print "module " $1}' | sort
	drv=none
	[ -e "$dev/driver" ] && drv=$(basename "$(readlink "$dev/driver")")
	echo "bound $drv"
	for d in /sys/bus/platform/drivers/*spe*; do
		[ -e "$d" ] && echo "driver $(basename "$d")"
	done
}

# step NAME COMMAND...: run COMMAND, keep its output and exit status.
step() {
	name=$1
	shift
	mark "$name"
	"$@" >"$name.out" 2>&1
	echo $? >"$name.rc"
}

cd "$RESULTS" || exit 1
krel=$(uname -r)
lib=/lib/modules/$krel
for dev in /sys/bus/platform/devices/*spe*; do
	[ -e "$dev/modalias" ] && break
done
[ -e "$dev/modalias" ] || { echo "no SPE platform device" >no-device; exit 1; }
alias=$(cat "$dev/modalias")
echo "$alias" >modalias

# The Debian system before the install: its module tree, indexed.
mkdir -p "$lib" /etc/modprobe.d
tar -xf "$FILES/debian-modules.tar" -C /
step depmod-debian depmod
step boot-debian modprobe "$alias"
state >state-boot-debian

# "sudo dkms install arm-spe/$version": the module into updates/dkms, depmod.
tar -xf "$FILES/dkms-install.tar" -C /
step depmod-dkms depmod
grep -F 'arm_spe' "$lib/modules.dep" >modules.dep.spe
modinfo -F filename arm_spe >modinfo-filename 2>&1
modinfo -F name arm_spe >modinfo-name 2>&1
modinfo -F version arm_spe >modinfo-version 2>&1

# Without the blacklist a boot loads both drivers, and whichever probes
# first owns the device: the reason for the guide's blacklist line.  Then
# back to the running system the guide starts from (arm_spe_pmu loaded).
step unload-before-both modprobe -r arm_spe_pmu
step boot-both modprobe "$alias"
state >state-boot-both
step unload-after-both modprobe -r arm_spe

# The guide's next steps.
echo "blacklist arm_spe_pmu" >/etc/modprobe.d/arm-spe.conf
step unload-intree modprobe -r arm_spe_pmu
step modprobe-ours modprobe arm_spe
state >state-installed

# The next boot: udev asks for the device's modalias again.
step unload-ours modprobe -r arm_spe
step boot-installed modprobe "$alias"
state >state-boot-installed

# Uninstall, as the guide says: unload, "dkms remove" (the module out of
# updates/dkms, depmod), the blacklist file removed; the next boot loads
# the in-tree driver again.
step uninstall-unload modprobe -r arm_spe
rm -f "$lib/updates/dkms/arm_spe.ko"
step depmod-removed depmod
rm -f /etc/modprobe.d/arm-spe.conf
step boot-uninstalled modprobe "$alias"
state >state-boot-uninstalled
step modprobe-removed modprobe arm_spe
mark "end"
cat /proc/sys/kernel/tainted >tainted
