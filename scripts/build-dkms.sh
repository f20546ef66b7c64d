#!/usr/bin/env bash
# Build and install the hardware module (arm_spe.ko) with DKMS itself, as a
# user does (Documentation/admin-guide/arm-spe.rst), against one of the
# fetched Debian arm64 kernels, in a private DKMS tree.
#
# Usage: scripts/build-dkms.sh KERNEL
#
# KERNEL is one of scripts/fetch-kernels.sh's (a Debian suite, or 6.1 /
# 6.12).  For a kernel of another release than this machine's, dkms runs
# inside that release's build root (scripts/fetch-buildroot.sh): its own
# dkms, compiler and C library, as on a machine running that release.
#
# Everything lives under build/dkms/<kernel release>/: the package source
# (source/arm-spe-<version>/: dkms.conf, drivers/, include/, as the guide
# copies them to /usr/src), the DKMS tree (tree/) and the install tree
# (root/lib/modules/, where "dkms install" puts updates/dkms/arm_spe.ko).
# The host's /var/lib/dkms, /usr/src and /lib/modules are never touched:
# dkms gets --dkmstree, --sourcetree, --installtree and --no-depmod (the
# guest runs depmod, suite 57).  Prints the installed module's path; dkms's
# output is in dkms.log beside the trees, make's in the tree's make.log.
#
# DKMS cross-builds with three stand-ins for a native arm64 machine:
#   -k <release>/aarch64 and the unpacked headers (--kernelsourcedir, or
#     a <modules>/<release>/build link in a build root), since they are
#     not installed; ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
#     in the environment, which dkms.conf's make line passes on to kbuild;
#   "strip" is aarch64-linux-gnu-strip (dkms runs "strip -g" on the module,
#     and the host's strip cannot read arm64 objects);
#   signing, which Debian's dkms does whenever the kernel's sign-file exists,
#     uses the headers' sign-file and a key made for this tree (dkms would
#     otherwise create /var/lib/dkms/mok.key).
# Any compiler warning fails the build.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"

[ $# -eq 1 ] || { echo "usage: build-dkms.sh KERNEL" >&2; exit 2; }
spe_kernel "$1"
spe_in_root "$TOOLROOT" sh -c 'command -v dkms' >/dev/null ||
	{ echo "build-dkms.sh: dkms is not installed (make deps installs it)" >&2; exit 1; }

# shellcheck disable=SC1091
pkg=$(set +u; . "$top/dkms.conf"; echo "$PACKAGE_NAME")
# shellcheck disable=SC1091
ver=$(set +u; . "$top/dkms.conf"; echo "$PACKAGE_VERSION")
base=$top/build/dkms
dir=$base/$KREL
rm -rf "$dir"
mkdir -p "$dir/source/$pkg-$ver" "$dir/tree" "$dir/root/lib/modules/$KREL" "$dir/bin" "$base/key"
cp -r "$top/dkms.conf" "$top/drivers" "$top/include" "$dir/source/$pkg-$ver/"
# Only the sources: no objects of an earlier in-place build.
find "$dir/source" \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' \
	-o -name Module.symvers -o -name modules.order \) -delete
printf '#!/bin/sh\nexec aarch64-linux-gnu-strip "$@"\n' >"$dir/bin/strip"
chmod +x "$dir/bin/strip"

export PATH=$dir/bin:$PATH SPE_ROOT_PATH=$dir/bin ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
export sign_file=$KDIR/scripts/sign-file
export mok_signing_key=$base/key/mok.key mok_certificate=$base/key/mok.pub
dkms=(spe_in_root "$TOOLROOT" dkms --dkmstree "$dir/tree" --sourcetree "$dir/source" --installtree "$dir/root/lib/modules")
# As on a machine of that release, the headers are found through
# <modules>/<release>/build: dkms 3.2 (trixie) looks in its install tree,
# dkms 2.8 (bullseye) in the build root's /lib/modules.  Told with
# --kernelsourcedir instead, dkms 2.8 "prepares" the tree first (make
# mrproper, which deletes the headers' generated files).  This machine's
# own dkms takes --kernelsourcedir: /lib/modules here is the machine's.
if [ -n "$TOOLROOT" ]; then
	ln -sfn "$KDIR" "$dir/root/lib/modules/$KREL/build"
	mkdir -p "$TOOLROOT/lib/modules/$KREL"
	ln -sfn "$KDIR" "$TOOLROOT/lib/modules/$KREL/build"
	target=(-k "$KREL/aarch64")
else
	target=(-k "$KREL/aarch64" --kernelsourcedir "$KDIR")
fi
log=$dir/dkms.log
fail() {
	echo "build-dkms.sh: $1 (see $log)" >&2
	tail -n 20 "$log" >&2
	exit 1
}
start=$SECONDS
"${dkms[@]}" add "$pkg/$ver" >"$log" 2>&1 || fail "dkms add failed"
"${dkms[@]}" build "$pkg/$ver" "${target[@]}" -j 2 >>"$log" 2>&1 || fail "dkms build failed"
echo "build-dkms.sh: dkms add + build took $((SECONDS - start)) s" >>"$log"
"${dkms[@]}" install "$pkg/$ver" "${target[@]}" --no-depmod >>"$log" 2>&1 ||
	fail "dkms install failed"

make_log=$dir/tree/$pkg/$ver/$KREL/aarch64/log/make.log
if grep -nE 'warning:|error:|WARNING:' "$make_log" >&2; then
	echo "build-dkms.sh: the DKMS build for $KREL has warnings (see $make_log)" >&2
	exit 1
fi
ko=$dir/root/lib/modules/$KREL/updates/dkms/arm_spe.ko
[ -f "$ko" ] || fail "dkms install put no arm_spe.ko in updates/dkms"
echo "$ko"
