#!/usr/bin/env bash
# The main job: a real `perf record -e arm_spe//` of a workload, decoded by
# spe-decode.
#
# By default (no argument) it builds QEMU with the emulated Statistical
# Profiling Unit (qemu/patches/, scripts/fetch-qemu.sh: minutes the first
# time, then cached), boots a Debian arm64 6.1 kernel on `-cpu max,spe=on`,
# loads the unmodified hardware module arm_spe.ko, records the spe_spin
# workload with the guest's real arm64 perf, brings perf.data back, and
# prints `spe-decode report` and the first samples of `spe-decode script` on
# the host, with the workload's and the guest kernel's symbols.  The PCs and
# data addresses are those the guest really executed and accessed.
#
#   scripts/demo.sh [--kernel 6.1|6.12]   the guest recording (default 6.1)
#   scripts/demo.sh --qemu-spe PROFILE    the emulated unit's implementation:
#                                         v1-min, n1 (default), v2, full
#   scripts/demo.sh --sim                 the driver over the simulated SPU
#                                         (arm_spe_sim.ko, the device-tree
#                                         node) on the stock QEMU instead
#   scripts/demo.sh --generated           no guest: a trace from spe-gen,
#                                         wrapped as perf.data
#
# If QEMU with the emulated unit cannot be built, the demo says why and
# records on the simulated unit.
# Everything lands in build/demo/.  The first run downloads the kernel and
# the guest's userland into the cache (see scripts/qemu/README.md).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/build/demo"
# shellcheck source=scripts/lib/guest-workload.sh
. "$top/scripts/lib/guest-workload.sh"
# shellcheck source=scripts/lib/driver.sh
. "$top/scripts/lib/driver.sh"
dec="$top/build/spe-decode/spe-decode"
kernel=6.1
mode=guest
qemu_spe=n1

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--generated) mode=generated; shift ;;
	--qemu-spe)
		case ${2:-} in
		v1-min|n1|v2|full) qemu_spe=$2; shift 2 ;;
		*) echo "demo: --qemu-spe takes a profile: v1-min, n1, v2 or full" >&2; exit 2 ;;
		esac ;;
	--sim) qemu_spe=''; shift ;;
	-h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "demo: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
mkdir -p "$out"

show() {	# show PERF.DATA [spe-decode options...]
	local data=$1
	shift
	echo
	echo "== spe-decode report $data"
	"$dec" report "$@" "$data"
	echo
	echo "== spe-decode script (first 10 samples)"
	"$dec" script "$@" "$data" | sed -n 1,10p
}

if [ "$mode" = generated ]; then
	make -s -C "$top/tools/spu-model" >/dev/null
	echo "== generating 8 MiB of SPE records with the SPU model (profile n1)"
	"$top/build/spu-model/spe-gen" -p n1 -s 1 -n 8M -o "$out/trace.bin"
	"$dec" wrap -o "$out/perf.data" "$out/trace.bin"
	show "$out/perf.data"
	exit 0
fi

for tool in aarch64-linux-gnu-gcc qemu-system-aarch64; do
	command -v "$tool" >/dev/null ||
		{ echo "demo: $tool is missing (make deps installs it)" >&2; exit 1; }
done

# The unit: QEMU's emulated one (its own device-tree node) under the
# hardware module, or the simulated SPU behind the node we add.
if [ -n "$qemu_spe" ]; then
	echo "== building QEMU with the emulated SPU (scripts/fetch-qemu.sh; minutes the first time)"
	# Its messages (how long a first build takes, ninja's step counter)
	# go to the terminal as well as to the log: a first build is long.
	if SPE_QEMU_BIN=$("$top/scripts/fetch-qemu.sh" 2> >(tee "$out/fetch-qemu.log" >&2)); then
		export SPE_QEMU_BIN
	else
		tail -n 5 "$out/fetch-qemu.log" >&2
		echo "demo: QEMU with the emulated SPU could not be built (see $out/fetch-qemu.log);" \
			"recording on the simulated unit instead" >&2
		qemu_spe=''
	fi
fi
if [ -n "$qemu_spe" ]; then
	echo "== building arm_spe.ko (DKMS) for the Debian $kernel arm64 kernel"
	ko=$(spe_driver_ko "$kernel")
	module=arm_spe
	unit=(--spe-qemu "$qemu_spe")
	unit_name="QEMU's emulated SPU (-cpu max,spe=on,spe-profile=$qemu_spe) under the hardware module arm_spe.ko"
else
	echo "== building arm_spe_sim.ko for the Debian $kernel arm64 kernel"
	ko=$("$top/scripts/build-spe-module.sh" "$kernel" --sim)
	module=arm_spe_sim
	unit=(--spe-node)
	unit_name="the simulated SPU (arm_spe_sim.ko: the driver over the SPU model, sampling on a timer)"
fi
echo "== the profiling unit: $unit_name"

echo "== cross-compiling the workload (spe_spin)"
mkdir -p "$out/symfs/files"
spin="$out/symfs/files/spe_spin"	# the guest runs it as /files/spe_spin
spe_build_spin "$spin" || { cat "$spin.log" >&2; exit 1; }

echo "== recording in a QEMU guest: perf record -e arm_spe// -- spe_spin 2"
cat >"$out/guest.sh" <<EOF
insmod "\$MODULES/$module.ko" || exit 1
perf record -q -o "\$RESULTS/perf.data" -e arm_spe// -- "\$FILES/spe_spin" 2 \\
	>"\$RESULTS/spin.log" 2>"\$RESULTS/record.log" || exit 1
cat /proc/kallsyms >"\$RESULTS/kallsyms"
rmmod $module
EOF
rm -rf "$out/guest"
if ! "$top/scripts/qemu/run-guest.sh" --kernel "$kernel" --smp 2 "${unit[@]}" --with-perf \
	--module "$ko" --file "$spin" --timeout 300 --script "$out/guest.sh" \
	--out "$out/guest" >"$out/guest.log" 2>&1; then
	echo "demo: the guest recording failed; see $out/guest.log and $out/guest/" >&2
	tail -n 20 "$out/guest/results/record.log" 2>/dev/null >&2 || tail -n 20 "$out/guest.log" >&2
	exit 1
fi
res="$out/guest/results"
cp "$res/perf.data" "$out/perf.data"
echo "   workload: $(cat "$res/spin.log")"
show "$out/perf.data" --symfs "$out/symfs" --kallsyms "$res/kallsyms"
echo
echo "== recorded on $unit_name"
