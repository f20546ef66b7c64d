#!/usr/bin/env bash
# Build the device tree of the QEMU virt machine, with or without an SPE node.
#
# Usage: scripts/qemu/mkdtb.sh --smp N --mem SIZE [--spe-node] OUT.dtb
#
# The machine's own DTB is dumped (-machine dumpdtb=) with the options the
# guest boots with; --spe-node adds, at the root,
#   spe-pmu { compatible = "arm,statistical-profiling-extension-v1";
#             interrupts = <1 5 4>; };
# i.e. the binding of the in-tree driver: PPI 5 (INTID 21), level-high, the
# interrupt parent being the root's (the GICv3).  QEMU's CPUs have no SPE,
# so a driver bound to this node must find that out from ID_AA64DFR0_EL1.
# With SPE_QEMU_PROFILE (machine.sh) the patched QEMU's board puts the same
# node, for its emulated unit, in the dumped tree itself.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/qemu/machine.sh
. "$here/machine.sh"

smp=2 mem=1G spe=0
while [ $# -gt 1 ]; do
	case $1 in
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--spe-node) spe=1; shift ;;
	--no-spe-node) spe=0; shift ;;
	*) echo "mkdtb.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -eq 1 ] || { echo "usage: mkdtb.sh --smp N --mem SIZE [--spe-node] OUT.dtb" >&2; exit 2; }
out=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $spe -eq 1 ] && [ -n "${SPE_QEMU_PROFILE:-}" ]; then
	echo "mkdtb.sh: --spe-node with SPE_QEMU_PROFILE: the SPE QEMU's board already describes its unit" >&2
	exit 2
fi
qemu=$(qemu_binary)
# shellcheck disable=SC2046
"$qemu" $(qemu_machine_args "$smp" "$mem") -nographic -nic none \
	-machine dumpdtb="$tmp/virt.dtb" >"$tmp/qemu.log" 2>&1 ||
	{ cat "$tmp/qemu.log" >&2; exit 1; }
# Always recompiled with dtc: QEMU (7.2 at least) dumps its whole 1 MiB FDT buffer,
# and with that blob and an -initrd the kernel never starts (not a line
# on the console); the same tree recompiled is 8 KiB and boots.
dtc -q -I dtb -O dts -o "$tmp/virt.dts" "$tmp/virt.dtb"
# A second root block is merged into the first by dtc.
[ $spe -eq 0 ] || cat >>"$tmp/virt.dts" <<'EOT'

/ {
	spe-pmu {
		compatible = "arm,statistical-profiling-extension-v1";
		interrupts = <1 5 4>;
	};
};
EOT
dtc -q -I dts -O dtb -o "$out" "$tmp/virt.dts"
