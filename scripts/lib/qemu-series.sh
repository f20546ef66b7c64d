# shellcheck shell=bash
# Which QEMU the emulated Statistical Profiling Unit's patch series is for.
# Sourced.  Defines:
#   spe_qemu_series    the upstream QEMU major.minor the series applies to
#   spe_qemu_patches   its directory of git format-patch files
#   spe_qemu_configure_flags
#                      QEMU's configure flags for the project's build:
#                      aarch64-softmmu with the "minimal" device set, and
#                      nothing the tests do not use (scripts/fetch-qemu.sh,
#                      scripts/qemu/series-builds.sh)
#
# One series is maintained: qemu/patches/ on the newest Debian 10.2.x
# source that downloads from sid, trixie-backports or trixie
# (scripts/fetch-qemu.sh).  The 7.2 series it was ported from (Debian
# bookworm's QEMU) was retired once this one passed every suite: 7.2's
# multi-threaded TCG can miss a patched static-key branch (fixed in 8.1 by
# deba78709ae8), which the guests had to work round.  A port to a newer
# QEMU lives beside it under another directory while it is brought up,
# selected with SPE_QEMU_SERIES.
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
spe_qemu_series=${SPE_QEMU_SERIES:-10.2}
# shellcheck disable=SC2034 # used by the scripts that source this file
case $spe_qemu_series in
10.2) spe_qemu_patches=$spe_top/qemu/patches ;;
*)
	echo "${0##*/}: unknown SPE_QEMU_SERIES '$spe_qemu_series' (10.2)" >&2
	exit 1
	;;
esac
# shellcheck disable=SC2034 # used by the scripts that source this file
spe_qemu_configure_flags=(--target-list=aarch64-softmmu --disable-docs --disable-tools
	--disable-guest-agent --disable-user --disable-werror --disable-gtk
	--disable-sdl --disable-vnc --disable-opengl --disable-spice --disable-curl
	--disable-libusb --disable-usb-redir --disable-slirp --disable-capstone
	--disable-xen --disable-kvm --with-devices-aarch64=minimal
	--python=/usr/bin/python3 --disable-install-blobs)
