#!/usr/bin/env bash
# Build (once) a debug kernel for the guests: Debian trixie's own Linux
# source and arm64 configuration, reduced to what the guests need, with the
# kernel's bug finders on.
#
# Usage: scripts/build-debug-kernel.sh [--quiet] kasan|kcsan
#
#   kasan   lockdep (PROVE_LOCKING, PROVE_RCU), KASAN (generic), UBSAN,
#           kmemleak, DEBUG_OBJECTS, DEBUG_LIST, DEBUG_ATOMIC_SLEEP
#   kcsan   KCSAN (it cannot be combined with KASAN), DEBUG_ATOMIC_SLEEP
#
# Why: Debian ships no such kernel for arm64, and the production kernels
# only show a locking, memory or race bug once it has corrupted something.
#
# The configuration is Debian's (the trixie headers' .config), then
#   - `make localmodconfig` with scripts/debug-kernel/guest-modules.lsmod:
#     every module the guests do not load is dropped;
#   - the arm64 platforms (ARCH_* of arch/arm64/Kconfig.platforms) are
#     dropped: the guests boot QEMU's virt board, which needs none;
#   - scripts/debug-kernel/guest.config (the board, the transports, perf,
#     tracing; no debug information, no module signing) and the flavour's
#     fragment, scripts/debug-kernel/FLAVOUR.config, are merged on top; every
#     line of both is checked in the result, so an option Kconfig refused is
#     an error, not a silently weaker kernel.
# A flavour may list patches for the source in scripts/debug-kernel/
# FLAVOUR.series (names in scripts/debug-kernel/patches/): upstream fixes
# the 6.12 series lacks for a bug its finder reports in the kernel itself,
# so that the report needs no filter that would also hide ours.  They are
# applied to the flavour's own copy of the source, in the series' order.
# It is built with trixie's gcc 14 in the trixie build root, as Debian
# builds its own, and cached under <cache>/debug-kernels/ by a key of the
# source version and every configuration input: a later run with the same
# inputs reuses it.  The build tree doubles as the headers the modules are
# built against (kbuild's M=, as DKMS does).  On success it writes
# <cache>/kernels/debug-FLAVOUR.env, which scripts/lib/kernels.sh reads
# (spe_kernel kasan|kcsan), and prints the build tree (unless --quiet).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

# Bump when the way the configuration is made changes (not the fragments:
# their contents are in the key already).
recipe=1

quiet=0
[ "${1:-}" = --quiet ] && { quiet=1; shift; }
flavour=${1:-}
case $flavour in
kasan | kcsan) ;;
*) spe_die "usage: build-debug-kernel.sh [--quiet] kasan|kcsan" ;;
esac
frag=$top/scripts/debug-kernel
say() { [ $quiet -eq 1 ] || echo "build-debug-kernel.sh: $*" >&2; }

# The Debian kernel the source and configuration come from.
spe_kernel trixie
base_config=$KDIR/.config base_rel=$KREL root=$TOOLROOT
[ -f "$base_config" ] || spe_die "no Debian configuration $base_config"
[ -n "$root" ] || spe_die "the trixie kernel has no build root (fetch-kernels.sh)"
upstream=${base_rel%%+*}

# linux-source-<major.minor> of the same upstream release as the headers.
series=${upstream%.*}
spe_apt_opts trixie
srcver=$(apt-cache "${APT_OPTS[@]}" madison "linux-source-$series" 2>/dev/null |
	awk -v up="$upstream" '{ v = $3; u = v; sub(/-[^-]*$/, "", u) }
		u == up && first == "" { first = v } END { print first }')
[ -n "$srcver" ] || spe_die "no linux-source-$series of upstream $upstream in trixie"

# The flavour's patches, in order.
patches=()
if [ -f "$frag/$flavour.series" ]; then
	while read -r name; do
		case $name in '' | '#'*) continue ;; esac
		[ -f "$frag/patches/$name" ] || spe_die "$flavour.series names a missing patch: $name"
		patches+=("$frag/patches/$name")
	done <"$frag/$flavour.series"
fi

# A flavour without patches keeps the key it had before patches existed.
key=$(cat - "$base_config" "$frag/guest.config" "$frag/$flavour.config" \
	"$frag/guest-modules.lsmod" ${patches[@]+"${patches[@]}"} \
	<<<"recipe $recipe source $srcver" | sha256sum | cut -c1-12)
cache=$spe_cache/debug-kernels
dir=$cache/$flavour-$key
envfile=$spe_cache/kernels/debug-$flavour.env
mkdir -p "$cache" "$spe_cache/kernels"
# One build of a flavour at a time; the other flavour's build (an hour)
# must not hold up the guests of this one.
exec 9>"$cache/.lock-$flavour"
flock 9

if [ -f "$dir/.complete" ] && [ -f "$envfile" ] && grep -qx "KDIR=$dir/build" "$envfile"; then
	[ $quiet -eq 1 ] || echo "$dir/build"
	exit 0
fi

# The source tree, unpacked once per source version.
src=$cache/linux-source-$srcver
exec 8>"$cache/.lock-source"
flock 8
if [ ! -f "$src/.complete" ]; then
	say "unpacking linux-source-$series $srcver"
	tmp=$(mktemp -d "$cache/.src.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	"$top/scripts/fetch-debs.sh" --suite trixie --into "$tmp/deb" \
		"linux-source-$series=$srcver" >&2
	tarball=$(find "$tmp/deb" -name "linux-source-$series.tar.xz" | head -n 1)
	[ -n "$tarball" ] || spe_die "no linux-source-$series.tar.xz in linux-source-$series $srcver"
	tar -xJf "$tarball" -C "$tmp"
	rm -rf "$src"
	mv "$tmp/linux-source-$series" "$src"
	rm -rf "$tmp"
	trap - EXIT
	touch "$src/.complete"
fi
exec 8>&-

kmake() {
	spe_in_root "$root" make -C "$src" O="$dir/build" ARCH=arm64 \
		CROSS_COMPILE=aarch64-linux-gnu- "$@"
}

# A build of the same key that was stopped resumes: its objects are kept
# (the configuration below comes out the same, and make rebuilds only
# what is missing or older); the patched source copy is made again.
rm -rf "$dir/src" "$dir/install" "$dir/.complete"
mkdir -p "$dir/build"
# A patched flavour builds from its own copy of the source: hard links to
# the unpacked tree, each file a patch touches copied first, so the shared
# tree stays pristine for the other flavour.
if [ ${#patches[@]} -gt 0 ]; then
	say "patching a copy of the source (${#patches[@]} patches)"
	cp -al "$src" "$dir/src"
	src=$dir/src
	for patch in "${patches[@]}"; do
		while read -r file; do
			[ -f "$src/$file" ] || continue
			cp "$src/$file" "$src/$file.unlink" && mv "$src/$file.unlink" "$src/$file"
		done < <(sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$patch")
		patch -d "$src" -p1 --batch --forward --quiet <"$patch" ||
			spe_die "$(basename "$patch") does not apply to linux-source $srcver"
	done
fi
# The compilers, where Debian's kernel Makefile looks for them (it includes
# the build tree's .kernelvariables, as its headers packages do): every
# later make in the tree, a module's M= build or DKMS's, uses them too.
# The build root has only versioned names for them.
printf 'CC = $(CROSS_COMPILE)gcc-14\nHOSTCC = gcc-14\n' >"$dir/build/.kernelvariables"
log=$dir/build.log
say "configuring the $flavour kernel in $dir (log: $log)"
configure() {
	cp "$base_config" "$dir/build/.config" &&
		kmake olddefconfig &&
		kmake LSMOD="$frag/guest-modules.lsmod" localmodconfig < <(yes '') || return 1
	# No platform of arch/arm64/Kconfig.platforms: the virt board needs none.
	local sym
	for sym in $(sed -n 's/^config \(ARCH_[A-Z0-9_]*\)$/\1/p' "$src/arch/arm64/Kconfig.platforms"); do
		"$src/scripts/config" --file "$dir/build/.config" --disable "$sym" || return 1
	done
	printf 'CONFIG_LOCALVERSION="-spe-%s"\n# CONFIG_LOCALVERSION_AUTO is not set\n' \
		"$flavour" >"$dir/local.config"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$dir/build" "$dir/build/.config" \
		"$frag/guest.config" "$frag/$flavour.config" "$dir/local.config" &&
		kmake olddefconfig
}
configure >"$log" 2>&1 || spe_die "configuring failed (see $log)"

# Every line of the fragments must have survived Kconfig's dependencies.
refused=''
while read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF -- "$line" "$dir/build/.config" || refused+=" $line" ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		grep -q "^$sym=" "$dir/build/.config" && refused+=" $sym=n" ;;
	esac
done < <(cat "$frag/guest.config" "$frag/$flavour.config")
[ -z "$refused" ] || spe_die "Kconfig refused:$refused (see $dir/build/.config)"

say "building the $flavour kernel ($(nproc) jobs; the first build takes a while)"
start=$(date +%s)
{
	kmake -j"$(nproc)" Image modules &&
		kmake INSTALL_MOD_PATH="$dir/install" modules_install
} >>"$log" 2>&1 || spe_die "the build failed (see the end of $log)"
echo "$(($(date +%s) - start))" >"$dir/build-seconds"
rel=$(cat "$dir/build/include/config/kernel.release")
moddir=$dir/install/lib/modules/$rel
[ -d "$moddir/kernel" ] || spe_die "no module tree $moddir"
say "built $rel in $(cat "$dir/build-seconds") s"

cat >"$envfile.tmp" <<EOT
# written by scripts/build-debug-kernel.sh
KSUITE=trixie
KFLAVOUR=$flavour
KREL=$rel
KDIR=$dir/build
TOOLROOT=$root
VMLINUZ=$dir/build/arch/arm64/boot/Image
MODDIR=$moddir
EOT
mv "$envfile.tmp" "$envfile"
touch "$dir/.complete"
# Builds of older keys are not used any more.
find "$cache" -maxdepth 1 -name "$flavour-*" ! -name "$flavour-$key" -exec rm -rf {} +
[ $quiet -eq 1 ] || echo "$dir/build"
