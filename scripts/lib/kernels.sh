# shellcheck shell=bash
# The Debian arm64 kernels the modules are built for (scripts/fetch-kernels.sh
# says which).  Sourced.  Defines:
#
#   spe_kernel KERNEL      make sure KERNEL (a suite, or 6.1 / 6.12 / oldest /
#                          newest; or kasan / kcsan, a debug kernel that
#                          scripts/build-debug-kernel.sh builds) is fetched
#                          and set KSUITE, KREL, KDIR, TOOLROOT, VMLINUZ and
#                          MODDIR for it (a debug kernel: KSUITE is trixie,
#                          the release of its source and userland, and
#                          KFLAVOUR its configuration)
#   spe_kbuild ARG...      run make ARG... for the kernel spe_kernel chose:
#                          kbuild of KDIR, with the compiler the kernel was
#                          built with, inside its build root when it has one
#   spe_kernel_suites K    the suites K names, one per line ("all": the matrix)
#   spe_build_kernels      the kernels the build suites cover (SPE_KERNELS)
#   spe_guest_kernels      the kernels suites 59 and 60 boot (SPE_GUEST_KERNELS)
#   spe_suite_release S    the release (codename) of suite S
#   spe_release_is_newer R is release R newer than this machine's?
#   spe_guest_perf_suite   the suite of the perf in spe_kernel's guests
#   SPE_KERNEL_MATRIX      every suite the driver is tested on, oldest first
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=scripts/lib/apt.sh
. "$spe_top/scripts/lib/apt.sh"
# shellcheck source=scripts/lib/buildroot.sh
. "$spe_top/scripts/lib/buildroot.sh"

SPE_KERNEL_MATRIX=(bullseye bookworm trixie trixie-backports sid)

spe_kernel_suites() {
	case $1 in
	all) printf '%s\n' "${SPE_KERNEL_MATRIX[@]}" ;;
	oldest | 5.10) echo bullseye ;;
	newest) echo trixie-backports ;;
	6.1) echo bookworm ;;
	6.12) echo bookworm-backports ;;
	bullseye | bookworm | bookworm-backports | trixie | trixie-backports | sid) echo "$1" ;;
	*) spe_die "unknown kernel '$1' (a suite: ${SPE_KERNEL_MATRIX[*]} bookworm-backports; or 6.1, 6.12, oldest, newest, all)" ;;
	esac
}

spe_suite_release() {
	echo "${1%%-*}"
}

# spe_guest_perf_suite: the suite whose arm64 perf the guest of the kernel
# spe_kernel chose runs (scripts/qemu/fetch-userland.sh perf SUITE): its
# own release's, except that the 6.12 guests (bookworm-backports) and the
# debug kernels, which stand in for them (scripts/check-debug.sh), keep
# bookworm's perf 6.1, which the suites written for them expect.
spe_guest_perf_suite() {
	if [ -n "${KFLAVOUR:-}" ]; then
		echo bookworm
		return
	fi
	case $KSUITE in
	bookworm-backports) echo bookworm ;;
	*) echo "$KSUITE" ;;
	esac
}

# spe_release_is_newer RELEASE: is RELEASE newer than this machine's?
spe_release_is_newer() {
	local order=" bullseye bookworm trixie forky sid " own
	own=$(spe_own_codename)
	[[ $order == *" $own "* ]] || spe_die "unknown Debian release '$own' of this machine"
	[[ " ${order#* "$own" }" == *" $1 "* ]]
}

spe_kernel() {
	local suite
	# shellcheck disable=SC2034 # read by the scripts that source this file
	KSUITE='' KFLAVOUR='' KREL='' KDIR='' TOOLROOT='' VMLINUZ='' MODDIR=''
	case $1 in
	kasan | kcsan)
		"$spe_top/scripts/build-debug-kernel.sh" --quiet "$1" ||
			spe_die "cannot build the $1 debug kernel"
		# shellcheck disable=SC1090
		. "$spe_cache/kernels/debug-$1.env"
		return ;;
	esac
	suite=$(spe_kernel_suites "$1")
	[ "$(wc -l <<<"$suite")" -eq 1 ] || spe_die "spe_kernel takes one kernel, not '$1'"
	"$spe_top/scripts/fetch-kernels.sh" --quiet "$suite" ||
		spe_die "cannot fetch the $suite kernel"
	# shellcheck disable=SC1090
	. "$spe_cache/kernels/$suite.env"
}

spe_kbuild() {
	spe_in_root "$TOOLROOT" make -C "$KDIR" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "$@"
}

# The kernels the build suites cover, one per line: SPE_KERNELS (names as
# spe_kernel takes them; "all" for the matrix), by default the two the
# guest suites boot (6.1, 6.12) and the oldest and newest Debian kernels.
spe_build_kernels() {
	spe_kernel_list ${SPE_KERNELS:-6.1 6.12 oldest newest}
}

# spe_kernel_list NAME...: the kernels NAME... stand for, one per line:
# "all", "oldest" and "newest" become suites, other names stay as they are.
spe_kernel_list() {
	local k
	for k in "$@"; do
		case $k in
		all | oldest | newest) spe_kernel_suites "$k" ;;
		*) echo "$k" ;;
		esac
	done
}

# spe_sparse_unusable LOG: did kbuild skip sparse in the C=1 build whose
# output is LOG, because the release's sparse cannot parse these headers
# (kbuild's checker-valid.sh; trixie's sparse 0.6.4 with 7.x headers)?
# Prints why, for a SKIP line.  The kernel spe_kernel chose.
spe_sparse_unusable() {
	grep -q 'C=1 specified, but .* not available or not up to date' "$1" || return 1
	echo "$(spe_suite_release "$KSUITE")'s $(spe_in_root "$TOOLROOT" sparse --version 2>&1 | head -n 1) cannot parse the $KREL headers (no __typeof_unqual__), so kbuild skips C=1"
}

# The kernels the perf-per-release guest suites (59, 60) boot, one per
# line: SPE_GUEST_KERNELS ("all": the matrix), by default the oldest and
# the newest, each with its release's own perf.
spe_guest_kernels() {
	spe_kernel_list ${SPE_GUEST_KERNELS:-oldest newest}
}
