#!/usr/bin/env bash
# Boot a Debian arm64 kernel in QEMU, run a script in it, bring results back.
#
# Usage: scripts/qemu/run-guest.sh --kernel 6.1|6.12 --script FILE --out DIR
#            [--smp N] [--mem SIZE] [--spe-node|--no-spe-node] [--with-perf]
#            [--load MOD]... [--module MOD]... [--selftests DIR] [--file FILE]...
#            [--append ARGS] [--timeout SECONDS] [--spe-qemu PROFILE]
#            [--qmp SOCKET] [--channel SOCKET] [--results-size MIB] [--acpi]
#
#   --kernel        bookworm 6.1 or bookworm-backports 6.12 (scripts/fetch-kernels.sh),
#                   any kernel scripts/lib/kernels.sh names, or a debug kernel
#                   (kasan, kcsan: scripts/build-debug-kernel.sh)
#   --smp, --mem    CPUs (default 2) and memory (default 1G)
#   --spe-node      add an SPE node to the device tree (mkdtb.sh); default none
#   --with-perf     arm64 perf in the guest as /usr/bin/perf (adds ~4 s of boot)
#   --load/--module/--selftests/--file   see mkinitramfs.sh
#   --append        extra kernel command line
#   --timeout       seconds before the guest is killed (default 120; four
#                   times that on a debug kernel)
#   --spe-qemu      boot the QEMU with the emulated SPU (scripts/fetch-qemu.sh
#                   builds it once) with -cpu max,spe=on,spe-profile=PROFILE
#                   (v1-min, n1, v2, full); same as SPE_QEMU_PROFILE=PROFILE
#   --qmp           serve QMP (QEMU's JSON monitor) on the Unix socket SOCKET, for
#                   a host script to drive while the guest runs
#   --channel       a virtio serial port between the guest script ($CHANNEL,
#                   see init.sh) and the Unix socket SOCKET on the host
#                   (scripts/qemu/channel.py relays it), for the two to wait
#                   on each other's messages
#   --results-size  the results disk's size in MiB (default 256)
#   --acpi          boot through UEFI (Debian's qemu-efi-aarch64) with the
#                   board's ACPI tables instead of a device tree (acpi=force)
#
# The guest runs FILE with busybox sh (environment: see init.sh).  It boots
# with oops=panic and ftrace_dump_on_oops: an oops stops it at once (panic=-1
# and -no-reboot end QEMU) and console.log keeps the log and any trace.  In DIR:
#   console.log     the serial console (kernel log, script output)
#   results/        the guest's $RESULTS: what the script wrote there, plus
#                   script.log, script.rc, dmesg.txt, uptime and, with
#                   --load, modules-load.rc (one "module.ko status" a line)
#   summary         kernel, CPUs, node, boot and run times (shell syntax)
# The results come back as a tar on a raw disk (256 MiB by default); the guest puts a
# manifest of its files first in it, and a tar the disk cut short (results
# too big) is refused whole: results/ stays empty, the pieces go to
# results.cut/ and the message names the files cut or lost.
# Exit status: the script's, when the results came back; 123 when they came
# back cut, 124 when the guest timed out, 125 when it stopped without results.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/scripts/qemu
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"
# shellcheck source=scripts/qemu/machine.sh
. "$here/machine.sh"

kernel='' script='' out='' smp=2 mem=1G node=--no-spe-node timeout=120 append=''
results_mib=256
pass=() monitor=() channel=() acpi=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--script) script=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--spe-node | --no-spe-node) node=$1; shift ;;
	--with-perf) pass+=("$1"); shift ;;
	--load | --module | --selftests | --file) pass+=("$1" "$2"); shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--results-size) results_mib=$2; shift 2 ;;
	--spe-qemu) export SPE_QEMU_PROFILE=$2; shift 2 ;;
	--qmp) monitor=(-qmp "unix:$2,server=on,wait=off"); shift 2 ;;
	--channel)
		# The port's name is how init.sh finds it among /dev/vport*.
		# shellcheck disable=SC2054 # QEMU's option lists use commas
		channel=(-device virtio-serial-device
			-chardev "socket,id=spe-channel,path=$2,server=on,wait=off"
			-device virtserialport,chardev=spe-channel,name=spe.channel)
		pass+=(--channel)
		shift 2 ;;
	--acpi) acpi=1; shift ;;
	*) spe_die "unknown option $1" ;;
	esac
done
[ -n "$kernel" ] && [ -n "$script" ] && [ -n "$out" ] ||
	spe_die "usage: run-guest.sh --kernel 6.1|6.12 --script FILE --out DIR [options]"
[[ $results_mib =~ ^[1-9][0-9]*$ ]] || spe_die "--results-size: '$results_mib' is not a number of MiB"
spe_kernel "$kernel"
# A debug kernel (scripts/build-debug-kernel.sh) runs its checkers on every
# lock, access and allocation: give it the time that takes under TCG.
[ -z "${KFLAVOUR:-}" ] || timeout=$((timeout * 4))
if [ -z "${SPE_QEMU_BIN:-}" ]; then
	SPE_QEMU_BIN=$("$top/scripts/fetch-qemu.sh") || spe_die "the project's QEMU did not build"
	export SPE_QEMU_BIN
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/results" "$out/console.log" "$out/summary"
"$here/mkinitramfs.sh" --kernel "$kernel" --script "$script" \
	--out "$out/initramfs.cpio" "${pass[@]}"
"$here/mkdtb.sh" --smp "$smp" --mem "$mem" "$node" "$out/virt.dtb"
# The firmware describes the board: a device tree, or (--acpi) ACPI tables
# that UEFI builds from what QEMU gives it.
boot=(-dtb "$out/virt.dtb")
if [ "$acpi" = 1 ]; then
	efi=/usr/share/qemu-efi-aarch64/QEMU_EFI.fd
	[ -r "$efi" ] || spe_die "--acpi needs UEFI firmware, $efi (scripts/deps.sh qemu installs it)"
	boot=(-bios "$efi")
	append="acpi=force $append"
fi
# The guest writes a tar of its results over this raw disk.
rm -f "$out/results.img"
truncate -s "${results_mib}M" "$out/results.img"

start=$(date +%s.%N)
rc=0
# shellcheck disable=SC2046
timeout -k 5 "$timeout" "$(qemu_binary)" $(qemu_machine_args "$smp" "$mem") \
	-nographic -no-reboot -nic none "${monitor[@]}" "${channel[@]}" \
	-kernel "$VMLINUZ" -initrd "$out/initramfs.cpio" "${boot[@]}" \
	-append "console=ttyAMA0 panic=-1 oops=panic ftrace_dump_on_oops $append" \
	-drive file="$out/results.img",if=none,format=raw,id=results \
	-device virtio-blk-device,drive=results \
	</dev/null >"$out/console.log" 2>&1 || rc=$?
end=$(date +%s.%N)
wall=$(printf "%.1f" "$(echo "$end - $start" | bc)")

mkdir -p "$out/results"
rm -rf "$out/results.cut"
tar_err=$(tar -xf "$out/results.img" -C "$out/results" 2>&1) || true
rm -f "$out/results.img"

# cut_results: what the unpacked results lack against the manifest the
# guest put first in the tar (init.sh), one "NAME: why" a line; nothing
# when they are whole.  A tar longer than the disk is cut at its end: the
# last files come back short or not at all.
cut_results() {
	local size name got
	if [ ! -f "$out/results/.manifest" ]; then
		echo "the tar's manifest (its first member) is missing"
		return
	fi
	while read -r size name; do
		got=$(stat -c %s "$out/results/$name" 2>/dev/null) || got=''
		if [ -z "$got" ]; then
			echo "${name#./}: missing ($size bytes in the guest)"
		elif [ "$got" != "$size" ]; then
			echo "${name#./}: $got of $size bytes"
		fi
	done <"$out/results/.manifest"
}
cut=''
# No results at all (the guest died first) is told apart below.
if [ -n "$(ls -A "$out/results")" ]; then
	cut=$(cut_results)
fi
if [ -n "$cut" ]; then
	# Keep the pieces for a post-mortem, but where no test reads them:
	# a cut perf.data makes host perf die of SIGBUS.
	mv "$out/results" "$out/results.cut"
	mkdir -p "$out/results"
fi
init_at=$(sed -n 's/.*spe-guest: init up at \([0-9.]*\) s.*/\1/p' "$out/console.log" | head -n1)
cat >"$out/summary" <<EOT
kernel=$KREL
smp=$smp
spe_node=$([ "$node" = --spe-node ] && echo yes || echo no)
spe_qemu=${SPE_QEMU_PROFILE:-none}
qemu_status=$rc
wall_seconds=$wall
init_seconds=${init_at:-none}
guest_uptime=$(cat "$out/results/uptime" 2>/dev/null || echo none)
script_rc=$(cat "$out/results/script.rc" 2>/dev/null || echo none)
EOT

if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "run-guest.sh: $KREL smp=$smp timed out after ${timeout}s (see $out/console.log)" >&2
	exit 124
fi
if [ -n "$cut" ]; then
	{
		echo "run-guest.sh: $KREL smp=$smp: the results tar came back cut (the ${results_mib} MiB results disk is too small for them?); nothing of it is used, the pieces are in $out/results.cut:"
		head -n 10 <<<"$cut" | sed 's/^/  /'
		[ -z "$tar_err" ] || echo "  tar: $(head -n 3 <<<"$tar_err" | tr '\n' ' ')"
		grep -a 'spe-guest: results need' "$out/console.log" | sed 's/^/  /'
	} >&2
	exit 123
fi
if [ ! -s "$out/results/script.rc" ]; then
	echo "run-guest.sh: $KREL smp=$smp: no results came back (qemu status $rc, see $out/console.log)" >&2
	tail -n 20 "$out/console.log" >&2
	exit 125
fi
echo "run-guest.sh: $KREL smp=$smp ${node#--}: script rc $(cat "$out/results/script.rc"), /init at ${init_at}s, ${wall}s wall" >&2
exit "$(cat "$out/results/script.rc")"
