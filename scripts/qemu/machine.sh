# shellcheck shell=bash
# The QEMU arm64 machine every guest run uses.  Sourced.
#
# -cpu max,pauth=off: `max` has PMUv3 (perf's armv8_pmuv3 registers) and no
# SPE (ID_AA64DFR0_EL1.PMSVer == 0 on every QEMU CPU model); emulating
# pointer authentication makes the boot about four times slower (lab-notes).
# The DTB is dumped with the same machine options (qemu_machine_args), since
# its CPU nodes and memory size depend on them.
#
# SPE_QEMU_EL2=1 starts the kernel at EL2 (virtualization=on: a VHE host
# kernel), where SPE's EL2 controls and CONTEXTIDR_EL2 apply.
qemu_machine_args() {
	local smp=$1 mem=$2
	echo -M "virt,gic-version=3${SPE_QEMU_EL2:+,virtualization=on}" \
		-cpu max,pauth=off -smp "$smp" -m "$mem"
}
