#!/usr/bin/env bash
# Fetch the Debian arm64 kernels the modules are built against and booted on.
#
# Usage: scripts/fetch-kernels.sh [--refresh] [--quiet] [KERNEL...]
#
# KERNEL names a Debian suite, whose current arm64 kernel is taken (the ABI
# its linux-headers-arm64 depends on, resolved at fetch time: Debian rolls
# patch levels and removes old ones):
#
#   bullseye            5.10, built with gcc 10        (the oldest)
#   bookworm      6.1   6.1,  built with gcc 12        (this machine's release)
#   bookworm-backports  6.12, built with gcc 12
#   trixie              6.12, built with gcc 14
#   trixie-backports    the newest 7.x, gcc 14         (the newest)
#   sid                 7.x, built with gcc 16
#
# "6.1" and "6.12" are the names the guest suites have always used: bookworm
# and bookworm-backports.  "oldest" and "newest" are bullseye and
# trixie-backports; "all" is the whole matrix.  Default: 6.1 6.12.
#
# For each: linux-headers (arm64 flavour + -common), linux-kbuild (host
# tools, amd64) and the image and modules (linux-image-*-unsigned up to
# 6.12; linux-binary-unsigned-* + linux-modules-* from 7.x, where Debian
# split the image package), downloaded and unpacked into
# <cache>/kernels/<abi>/ — never installed (lab-notes: installing them
# removes the host compiler).  A kernel built with another compiler than
# this machine's cross compiler gets a build root of its suite
# (scripts/fetch-buildroot.sh, with the gcc-N the headers name and the
# suite's x86 linux-perf, the reference decoder for its guests' recordings).
#
# Writes <cache>/kernels/<suite>.env (shell syntax, read by
# scripts/lib/kernels.sh) and prints it unless --quiet:
#   KSUITE    the suite
#   KREL      uname -r of the guest kernel, e.g. 6.1.0-56-arm64
#   KDIR      headers tree for `make -C $KDIR M=... ARCH=arm64`
#   TOOLROOT  the build root to run kbuild in (empty: this machine)
#   VMLINUZ   bootable Image for qemu-system-aarch64 -kernel
#   MODDIR    the /lib/modules/<release> tree of that kernel
# Once a suite's env file exists the same kernel is kept (reproducible
# runs); --refresh looks for a newer ABI again.
set -euo pipefail
spe_top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/kernels.sh
. "$spe_top/scripts/lib/kernels.sh"

refresh=0 quiet=0 kernels=()
for a in "$@"; do
	case $a in
	--refresh) refresh=1 ;;
	--quiet) quiet=1 ;;
	-*) spe_die "usage: fetch-kernels.sh [--refresh] [--quiet] [KERNEL...]" ;;
	*) kernels+=("$a") ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(6.1 6.12)

env_is_usable() {
	[ -s "$1" ] || return 1
	(
		# shellcheck disable=SC1090
		. "$1"
		[ -f "$KDIR/Makefile" ] && [ -d "$MODDIR/kernel" ] && [ -f "$VMLINUZ" ] &&
			{ [ -z "$TOOLROOT" ] || [ -f "$TOOLROOT/.spe-complete" ]; }
	)
}

# fetch_kernel SUITE: prints the env file's lines.  A failed download
# refreshes the package lists (fetch-debs.sh); the kernel is then looked up
# once more, since the archive may have a newer ABI now.
fetch_kernel() {
	fetch_kernel_once "$@" || fetch_kernel_once "$@"
}

fetch_kernel_once() {
	local suite=$1 hdr abi ver kver rel kbuild root kdir common image cc gcc toolroot=''
	local vmlinuz moddir
	spe_apt_ensure_arch arm64
	spe_apt_opts "$suite"
	hdr=$(apt-cache "${APT_OPTS[@]}" depends linux-headers-arm64:arm64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-headers-[^ ]*-arm64\):arm64$/\1/p' | head -n1)
	[ -n "$hdr" ] || spe_die "cannot find the current arm64 kernel ABI in $suite"
	abi=${hdr#linux-headers-}
	abi=${abi%-arm64}
	ver=$(apt-cache "${APT_OPTS[@]}" policy "$hdr:arm64" | awk '$1 == "Candidate:" {print $2}')
	kbuild=$(apt-cache "${APT_OPTS[@]}" depends "$hdr:arm64" |
		sed -n 's/^ *Depends: \(linux-kbuild-[^ :]*\).*/\1/p' | head -n1)
	[ -n "$ver" ] && [ -n "$kbuild" ] || spe_die "cannot resolve version/kbuild of $hdr"
	# linux-kbuild (the host tools, amd64) is built per architecture, and
	# the archive can carry another Debian revision of it than of the arm64
	# headers (seen: kbuild 6.1.192-3 beside headers 6.1.192-2 in
	# bookworm-security, -2 gone for amd64).  The tools follow the
	# upstream release: take the newest revision of the same one.
	kver=$(apt-cache "${APT_OPTS[@]}" madison "$kbuild:amd64" 2>/dev/null |
		awk -v ver="$ver" -v up="${ver%-*}" '
			{ v = $3; u = v; sub(/-[^-]*$/, "", u) }
			v == ver { exact = v } u == up && first == "" { first = v }
			END { print (exact != "" ? exact : first) }')
	[ -n "$kver" ] || spe_die "no $kbuild for amd64 of upstream ${ver%-*} in $suite (the headers are $ver)"
	rel=$abi-arm64
	# From 7.x the image package is a signed meta package; the kernel is
	# in linux-binary-unsigned-*, the modules in linux-modules-*.
	if apt-cache "${APT_OPTS[@]}" show "linux-image-$rel-unsigned:arm64" >/dev/null 2>&1; then
		image=("linux-image-$rel-unsigned:arm64=$ver")
	else
		image=("linux-binary-unsigned-$rel:arm64=$ver" "linux-modules-$rel:arm64=$ver"
			"linux-base-$rel:arm64=$ver")
	fi
	root=$spe_cache/kernels/$abi
	"$spe_top/scripts/fetch-debs.sh" --suite "$suite" --into "$root" \
		"$hdr:arm64=$ver" "linux-headers-$abi-common=$ver" \
		"$kbuild:amd64=$kver" "${image[@]}" >&2 || return 1

	kdir=$root/usr/src/linux-headers-$rel
	common=$root/usr/src/linux-headers-$abi-common
	[ -f "$kdir/Makefile" ] && [ -d "$common" ] || spe_die "unexpected layout in $root"
	# The flavour Makefile names the -common tree (and, from 7.x, itself as
	# KBUILD_OUTPUT) by its installed absolute path; point both at the
	# unpacked tree (idempotent).
	sed -i -e "s|^include .*/usr/src/linux-headers-$abi-common/|include $common/|" \
		-e "s|^KBUILD_OUTPUT=.*|KBUILD_OUTPUT=$kdir|" "$kdir/Makefile"
	grep -q "^include $common/" "$kdir/Makefile" ||
		spe_die "cannot redirect the -common include in $kdir/Makefile"

	provide_checker_valid "$common"

	vmlinuz=$root/boot/vmlinuz-$rel
	[ -f "$vmlinuz" ] || vmlinuz=$root/usr/lib/modules/$rel/vmlinuz.unsigned
	[ -f "$vmlinuz" ] || spe_die "no vmlinuz for $rel in $root"
	moddir=$root/lib/modules/$rel
	[ -d "$moddir/kernel" ] || moddir=$root/usr/lib/modules/$rel
	[ -d "$moddir/kernel" ] || spe_die "no module tree for $rel in $root"

	# The compiler the kernel was built with, as the headers name it.
	cc=$(sed -n 's/^CC = .*\$(CROSS_COMPILE)\(gcc[-0-9]*\).*/aarch64-linux-gnu-\1/p' \
		"$kdir/.kernelvariables" 2>/dev/null | head -n 1)
	[ -n "$cc" ] || spe_die "no CC in $kdir/.kernelvariables"
	gcc=${cc#aarch64-linux-gnu-}
	if ! command -v "$cc" >/dev/null || ! kbuild_runs_here "$kdir"; then
		toolroot=$("$spe_top/scripts/fetch-buildroot.sh" "$suite" \
			"$gcc-aarch64-linux-gnu" linux-perf) || return 1
	fi
	cat <<-EOT
	KSUITE=$suite
	KREL=$rel
	KDIR=$kdir
	TOOLROOT=$toolroot
	VMLINUZ=$vmlinuz
	MODDIR=$moddir
	EOT
}

# provide_checker_valid COMMON: from 6.14 kbuild asks
# scripts/checker-valid.sh whether the checker (sparse) understands what the
# kernel's headers now use (__typeof_unqual__) before a C=1 build, and
# skips sparse with a warning when it does not answer "1".  Debian's
# linux-kbuild packages do not ship that script, so kbuild would skip sparse
# even where it works.  Give the unpacked kbuild a stand-in of our own that
# asks the same question: trixie's sparse 0.6.4 says no (the build then
# runs without it, as upstream kbuild would), sid's 0.6.5 says yes.
provide_checker_valid() {
	local common=$1 scripts f
	grep -q 'scripts/checker-valid.sh' "$common/Makefile" || return 0
	scripts=$(readlink -f "$common/scripts")
	f=$scripts/checker-valid.sh
	[ -x "$f" ] && return 0
	cat >"$f.tmp" <<-'EOT'
	#!/bin/sh
	# Stand-in written by the SPE project's scripts/fetch-kernels.sh (the
	# Debian package of kbuild lacks this script).  "$@" is the checker and
	# its flags; prints 1 when it parses __typeof_unqual__ without an error
	# (sparse reports errors on stderr but exits 0).
	command -v "$1" >/dev/null 2>&1 || exit 0
	t=$(mktemp) || exit 0
	trap 'rm -f "$t"' EXIT
	printf 'int f(const int *p)\n{\n\t__typeof_unqual__(*p) x = *p;\n\n\treturn x;\n}\n' >"$t"
	out=$("$@" -x c "$t" 2>&1) || exit 0
	case $out in *error*) ;; *) echo 1 ;; esac
	EOT
	chmod +x "$f.tmp"
	mv "$f.tmp" "$f"
}

# kbuild_runs_here KDIR: do the headers' kbuild host programs run on this
# machine (they are linked against their release's C library)?
kbuild_runs_here() {
	local fixdep out
	fixdep=$(readlink -f "$1/scripts/basic/fixdep")
	[ -x "$fixdep" ] || return 1
	out=$("$fixdep" 2>&1) || true
	grep -q -i usage <<<"$out"
}

mkdir -p "$spe_cache/kernels"
for k in "${kernels[@]}"; do
	for suite in $(spe_kernel_suites "$k"); do
		envfile=$spe_cache/kernels/$suite.env
		if [ $refresh -eq 1 ] || ! env_is_usable "$envfile"; then
			{
				echo "# written by scripts/fetch-kernels.sh"
				fetch_kernel "$suite"
			} >"$envfile.tmp"
			mv "$envfile.tmp" "$envfile"
		fi
		[ $quiet -eq 1 ] || cat "$envfile"
	done
done
