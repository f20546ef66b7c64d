#!/usr/bin/env bash
# Fetch the Debian arm64 kernels the module is built against and booted on.
#
# Usage: scripts/fetch-kernels.sh [--refresh] [--quiet]
#
#   6.1   bookworm, the ABI that linux-headers-arm64:arm64 currently depends on
#   6.12  bookworm-backports ("+deb12" builds, compiled with gcc 12 like the
#         bookworm cross compiler; trixie's 6.12 needs gcc 14)
#
# For each: linux-headers (arm64 flavour + -common), linux-kbuild (host
# tools, amd64) and linux-image-*-arm64-unsigned (vmlinuz and the module
# tree), downloaded and unpacked into <cache>/kernels/<release>/ — never
# installed (lab-notes: installing them removes the host compiler).
#
# Writes <cache>/kernels.env (shell syntax, sourced by other scripts) and
# prints it unless --quiet:
#   KREL_6_1      uname -r of the guest kernel, e.g. 6.1.0-56-arm64
#   KDIR_6_1      headers tree for `make -C $KDIR_6_1 M=... ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-`
#   VMLINUZ_6_1   bootable Image for qemu-system-aarch64 -kernel
#   MODDIR_6_1    /lib/modules/<release> tree of that kernel
# and the same with _6_12.  Once the env file exists the same kernels are
# kept (reproducible runs); --refresh looks for newer ABIs again.
set -euo pipefail
spe_top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/apt.sh
. "$spe_top/scripts/lib/apt.sh"

refresh=0 quiet=0
for a in "$@"; do
	case $a in
	--refresh) refresh=1 ;;
	--quiet) quiet=1 ;;
	*) spe_die "usage: fetch-kernels.sh [--refresh] [--quiet]" ;;
	esac
done
envfile=$spe_cache/kernels.env

env_is_usable() {
	[ -s "$envfile" ] || return 1
	(
		# shellcheck disable=SC1090
		. "$envfile"
		for v in "$KDIR_6_1" "$KDIR_6_12" "$MODDIR_6_1" "$MODDIR_6_12"; do
			[ -f "$v/Makefile" ] || [ -d "$v/kernel" ] || exit 1
		done
		[ -f "$VMLINUZ_6_1" ] && [ -f "$VMLINUZ_6_12" ]
	)
}

# fetch_kernel TAG SUITE: TAG names the variables (6_1), SUITE the apt suite.
# A failed download refreshes the package lists (fetch-debs.sh); the kernel
# is then looked up once more, since the archive may have a newer ABI now.
fetch_kernel() {
	fetch_kernel_once "$@" || fetch_kernel_once "$@"
}

fetch_kernel_once() {
	local tag=$1 suite=$2 hdr abi ver rel kbuild root kdir common
	spe_apt_ensure_arch arm64
	spe_apt_opts "$suite"
	hdr=$(apt-cache "${APT_OPTS[@]}" depends linux-headers-arm64:arm64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-headers-[^ ]*-arm64\):arm64$/\1/p' | head -n1)
	[ -n "$hdr" ] || spe_die "cannot find the current arm64 kernel ABI in ${suite:-the default apt sources}"
	abi=${hdr#linux-headers-}
	abi=${abi%-arm64}
	ver=$(apt-cache "${APT_OPTS[@]}" policy "$hdr:arm64" | awk '$1 == "Candidate:" {print $2}')
	kbuild=$(apt-cache "${APT_OPTS[@]}" depends "$hdr:arm64" |
		sed -n 's/^ *Depends: \(linux-kbuild-[^ :]*\).*/\1/p' | head -n1)
	[ -n "$ver" ] && [ -n "$kbuild" ] || spe_die "cannot resolve version/kbuild of $hdr"
	rel=$abi-arm64
	root=$spe_cache/kernels/$abi
	"$spe_top/scripts/fetch-debs.sh" ${suite:+--suite "$suite"} --into "$root" \
		"$hdr:arm64=$ver" "linux-headers-$abi-common=$ver" \
		"$kbuild:amd64=$ver" "linux-image-$rel-unsigned:arm64=$ver" || return 1

	kdir=$root/usr/src/linux-headers-$rel
	common=$root/usr/src/linux-headers-$abi-common
	[ -f "$kdir/Makefile" ] && [ -d "$common" ] || spe_die "unexpected layout in $root"
	# The flavour Makefile includes the -common tree by its installed
	# absolute path; point it at the unpacked one (idempotent).
	sed -i "s|^include .*/usr/src/linux-headers-$abi-common/|include $common/|" "$kdir/Makefile"
	grep -q "^include $common/" "$kdir/Makefile" ||
		spe_die "cannot redirect the -common include in $kdir/Makefile"
	[ -f "$root/boot/vmlinuz-$rel" ] || spe_die "no vmlinuz-$rel in $root/boot"
	[ -d "$root/lib/modules/$rel/kernel" ] || spe_die "no module tree for $rel in $root"
	cat <<-EOT
	KREL_$tag=$rel
	KDIR_$tag=$kdir
	VMLINUZ_$tag=$root/boot/vmlinuz-$rel
	MODDIR_$tag=$root/lib/modules/$rel
	EOT
}

if [ $refresh -eq 1 ] || ! env_is_usable; then
	mkdir -p "$spe_cache"
	{
		echo "# written by scripts/fetch-kernels.sh"
		fetch_kernel 6_1 ""
		fetch_kernel 6_12 bookworm-backports
	} >"$envfile.tmp"
	mv "$envfile.tmp" "$envfile"
fi
[ $quiet -eq 1 ] || cat "$envfile"
