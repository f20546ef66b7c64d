# shellcheck shell=bash
# Which QEMU patch series the emulated Statistical Profiling Unit is built
# from.  Sourced.  Defines:
#   spe_qemu_series    SPE_QEMU_SERIES, else the default below: the upstream
#                      QEMU major.minor the series applies to
#   spe_qemu_patches   its directory of git format-patch files
#
#   7.2   qemu/patches/       Debian bookworm's qemu 7.2 (the machine's own
#                             release, its deb-src)
#   10.2  qemu/patches-10.2/  the newest Debian 10.2.x source that downloads
#                             from sid, trixie-backports or trixie
#
# The series are the same seven patches, each ported to its QEMU
# (Documentation/qemu-spe.rst); scripts/fetch-qemu.sh builds the selected
# one, and the guest suites use the binary it prints.
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
spe_qemu_series_default=10.2
spe_qemu_series=${SPE_QEMU_SERIES:-$spe_qemu_series_default}
# shellcheck disable=SC2034 # used by the scripts that source this file
case $spe_qemu_series in
7.2) spe_qemu_patches=$spe_top/qemu/patches ;;
10.2) spe_qemu_patches=$spe_top/qemu/patches-10.2 ;;
*)
	echo "${0##*/}: unknown SPE_QEMU_SERIES '$spe_qemu_series' (7.2 or 10.2)" >&2
	exit 1
	;;
esac
