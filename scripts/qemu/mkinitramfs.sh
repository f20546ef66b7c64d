#!/usr/bin/env bash
# Build the initramfs of a test guest.
#
# Usage: scripts/qemu/mkinitramfs.sh --kernel 6.1|6.12 --script FILE --out FILE
#            [--with-perf] [--load MOD]... [--module MOD]... [--selftests DIR]
#            [--file FILE]... [--channel]
#
#   --script FILE    shell script the guest runs (busybox sh), see init.sh;
#                    it may source /guest/lib.sh (guest-lib.sh)
#   --load MOD       put MOD in /modules and insmod it before the script
#   --module MOD     put MOD in /modules only (the script loads it)
#                    MOD is a .ko file, or the name of a module of the guest
#                    kernel's own tree (e.g. arm_spe_pmu)
#   --selftests DIR  copy DIR to /selftests
#   --file FILE      copy FILE to /files
#   --channel        the guest has a virtio serial port named spe.channel
#                    (run-guest.sh --channel): add virtio_console where it is
#                    a module, and have /init export its device as $CHANNEL
#   --with-perf      add arm64 perf (linux-perf of the kernel's release; the
#                    6.1 and 6.12 guests: bookworm's) and its libraries as
#                    /usr/bin/perf: 45 to 80 MB more, boots seconds slower
#
# The image is a concatenation of cpio archives, which the kernel unpacks in
# turn: busybox and perf are cached layers under build/qemu/layers/ (perf
# takes a while to pack), the last layer holds what changes per run.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/scripts/qemu
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

kernel='' script='' out='' perf=0 selftests='' channel=0
load=() keep=() files=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--script) script=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--with-perf) perf=1; shift ;;
	--channel) channel=1; shift ;;
	--load) load+=("$2"); shift 2 ;;
	--module) keep+=("$2"); shift 2 ;;
	--selftests) selftests=$2; shift 2 ;;
	--file) files+=("$2"); shift 2 ;;
	*) spe_die "unknown option $1" ;;
	esac
done
[ -n "$kernel" ] && [ -n "$script" ] && [ -n "$out" ] ||
	spe_die "usage: mkinitramfs.sh --kernel 6.1|6.12 --script FILE --out FILE [options]"
[ -f "$script" ] || spe_die "no guest script $script"
spe_kernel "$kernel"

layers=$top/build/qemu/layers
mkdir -p "$layers"

# pack DIR: a newc cpio of DIR's contents, all owned by root, on stdout.
pack() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0)
}

# Cached layer NAME from the unpacked packages in SRC, keeping PATHS; packed
# again when a package was unpacked since, or this script (which chooses
# the PATHS) changed.
layer() {
	local name=$1 src=$2 file=$layers/$1.cpio.gz stage
	shift 2
	# Guests built side by side (scripts/stress.sh --jobs) pack a layer
	# once: the others wait here, then find it fresh.
	exec 8>"$layers/.$name.lock"
	flock 8
	if [ ! -s "$file" ] || [ -n "$(find "$src/.spe-unpacked" "$here/mkinitramfs.sh" \
			-newer "$file" -print -quit)" ]; then
		echo "mkinitramfs.sh: packing the $name layer" >&2
		stage=$(mktemp -d "$layers/.$name.XXXXXX")
		(cd "$src" && cp -a --parents "$@" "$stage"/)
		pack "$stage" | gzip -1 >"$file.tmp"
		# The kernel takes the next archive only at a 4-byte aligned
		# offset, skipping zero bytes to get there.
		truncate -s %4 "$file.tmp"
		rm -rf "$stage"
		mv "$file.tmp" "$file"
	fi
	exec 8>&-
	echo "$file"
}

# The file of module MOD (a path, or a module name of the guest kernel).
module_file() {
	local f
	if [ -f "$1" ]; then
		echo "$1"
		return
	fi
	f=$(find "$MODDIR/kernel" \( -name "$1.ko" -o -name "$1.ko.xz" -o \
		-name "${1//_/-}.ko" -o -name "${1//_/-}.ko.xz" \) -print -quit)
	[ -n "$f" ] || spe_die "no module $1 (not a file, not in $MODDIR)"
	echo "$f"
}

# The modules of the guest kernel that MOD... need, each after what it
# needs, MOD... included: the unpacked tree has no modules.dep (depmod
# writes it at install), so the "depends" field of each module is read.
# Which transport modules are built in differs per kernel: 5.10 builds
# virtio and virtio_ring as modules, later kernels into the kernel.
modules_with_deps() {
	local m d f
	for m in "$@"; do
		[[ " $seen_mods " == *" $m "* ]] && continue
		seen_mods+=" $m"
		f=$(module_file "$m")
		for d in $(modinfo -F depends "$f" | tr , ' '); do
			modules_with_deps "$d"
		done
		echo "$m"
	done
}

# Copy module file $1 into directory $2 as a plain .ko (busybox insmod hands
# the bytes to init_module, which takes no compressed module); prints its name.
put_module() {
	local name
	name=$(basename "$1")
	name=${name%.xz}
	case $1 in
	*.xz) xz -dc "$1" >"$2/$name" ;;
	*) cp "$1" "$2/$name" ;;
	esac
	echo "$name"
}

busybox=$("$here/fetch-userland.sh" busybox)
parts=("$(layer busybox "$busybox" bin)")
if [ $perf -eq 1 ]; then
	# The perf of the kernel's release, with that release's libraries
	# (spe_guest_perf_suite: the 6.12 guests keep bookworm's).
	perf_suite=$(spe_guest_perf_suite)
	perfdir=$("$here/fetch-userland.sh" perf "$perf_suite")
	# Libraries and the perf binary; not the docs, perl/python modules
	# (only perf's scripting uses them) or the iconv modules.
	mapfile -t libs < <(cd "$perfdir" && find usr/lib/aarch64-linux-gnu \
		-mindepth 1 -maxdepth 1 ! -name gconv ! -name 'perl*')
	mapfile -t extra < <(cd "$perfdir" && ls -d usr/bin/perf_[0-9]* usr/lib/traceevent \
		usr/lib/ld-linux-aarch64.so.1 2>/dev/null)
	parts+=("$(layer "perf-$perf_suite" "$perfdir" lib usr/bin/perf "${extra[@]}" "${libs[@]}")")
fi

run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
mkdir -p "$run/guest/transport" "$run/modules" "$run/selftests" "$run/files"
install -m 755 "$here/init.sh" "$run/init"
install -m 755 "$script" "$run/guest/script.sh"
install -m 644 "$here/guest-lib.sh" "$run/guest/lib.sh"
transport=(virtio_mmio virtio_blk)
if [ $channel -eq 1 ]; then
	echo spe.channel >"$run/guest/channel"
	# 6.1 builds virtio_console as a module, 6.12 into the kernel.
	grep -q '/virtio_console\.ko' "$MODDIR/modules.builtin" 2>/dev/null ||
		transport+=(virtio_console)
fi
seen_mods=''
for m in $(modules_with_deps "${transport[@]}"); do
	put_module "$(module_file "$m")" "$run/guest/transport" >>"$run/guest/transport.list"
done
: >"$run/guest/load.list"
for m in "${load[@]}"; do
	put_module "$(module_file "$m")" "$run/modules" >>"$run/guest/load.list"
done
for m in "${keep[@]}"; do
	put_module "$(module_file "$m")" "$run/modules" >/dev/null
done
if [ -n "$selftests" ]; then
	cp -a "$selftests"/. "$run/selftests"/
fi
# The kernel's configuration where a Debian system has it, for the
# programs that ask what the kernel was built with (the selftests).
if [ -f "$KDIR/.config" ]; then
	mkdir -p "$run/boot"
	install -m 644 "$KDIR/.config" "$run/boot/config-$KREL"
fi
for f in "${files[@]}"; do
	cp -a "$f" "$run/files"/
done
{ cat "${parts[@]}"; pack "$run"; } >"$out.tmp"
mv "$out.tmp" "$out"
