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
#
# SPE_QEMU_PROFILE=v1-min|n1|v2|full selects the QEMU built with the emulated
# Statistical Profiling Unit (scripts/fetch-qemu.sh, qemu/patches/; its path
# in SPE_QEMU_BIN) and gives its CPUs SPE with that implementation profile:
# -cpu max,spe=on,spe-profile=P.  Its virt board then describes the unit in
# its own device tree (spe-pmu node, PMBIRQ = PPI 5).
#
# SPE_QEMU_MIDR=0x... gives the CPUs that MIDR_EL1 (QEMU's midr property),
# e.g. a Neoverse core's, whose IMPLEMENTATION DEFINED Data Source values
# perf and spe-decode then decode.
#
# SPE_QEMU_PCSAMPLE=1, with SPE_QEMU_PROFILE, adds each CPU's external PMU
# frame with the PC sample registers to that board (qemu/patches/0007,
# -M virt,pcsample=on) and its arm,pcsample-pmu node to the device tree.
qemu_machine_args() {
	local smp=$1 mem=$2
	echo -M "virt,gic-version=3${SPE_QEMU_EL2:+,virtualization=on}${SPE_QEMU_PCSAMPLE:+,pcsample=on}" \
		-cpu "max,pauth=off${SPE_QEMU_PROFILE:+,spe=on,spe-profile=$SPE_QEMU_PROFILE}${SPE_QEMU_MIDR:+,midr=$SPE_QEMU_MIDR}" \
		-smp "$smp" -m "$mem"
}

# The qemu-system-aarch64 to run: the project's build (scripts/fetch-qemu.sh
# prints its path), for every guest, with or without the emulated unit.
# Debian bookworm's own QEMU 7.2 is not used: its multi-threaded TCG can
# miss a patched static-key branch (fixed upstream in 8.1 by deba78709ae8,
# "accel/tcg: Always lock pages before translation"), which made perf
# core warn in guests that had nothing to do with SPE.
qemu_binary() {
	echo "${SPE_QEMU_BIN:?SPE_QEMU_BIN is not set (scripts/fetch-qemu.sh prints it)}"
}
