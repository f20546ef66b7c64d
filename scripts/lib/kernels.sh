# shellcheck shell=bash
# spe_kernel VERSION: make sure the Debian arm64 kernel VERSION (6.1 or 6.12)
# is fetched (scripts/fetch-kernels.sh) and set KREL, KDIR, VMLINUZ and
# MODDIR for it.  Sourced.
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=scripts/lib/apt.sh
. "$spe_top/scripts/lib/apt.sh"

spe_kernel() {
	local tag v
	case $1 in
	6.1 | 6.12) tag=${1//./_} ;;
	*) spe_die "unknown kernel '$1' (6.1 or 6.12)" ;;
	esac
	"$spe_top/scripts/fetch-kernels.sh" --quiet || spe_die "cannot fetch the kernels"
	# shellcheck disable=SC1091
	. "$spe_cache/kernels.env"
	for v in KREL KDIR VMLINUZ MODDIR; do
		local n=${v}_$tag
		printf -v "$v" '%s' "${!n}"
	done
}
