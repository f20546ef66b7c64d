# shellcheck shell=bash
# spe_in_root ROOT COMMAND [ARG...]: run COMMAND inside the build root ROOT
# (scripts/fetch-buildroot.sh), in the current directory, with the project
# and its cache visible at the same paths as outside.  With an empty ROOT
# the command runs here, on the machine itself.
#
# The root sees the project tree, the cache (SPE_CACHE_DIR may lie outside
# the tree) and /tmp through bind mounts made in a private mount namespace
# (unshare -m): they vanish with the command, and nothing of the machine's
# own mounts changes.  Sourced.
spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# shellcheck source=scripts/lib/apt.sh
. "$spe_top/scripts/lib/apt.sh"

spe_in_root() {
	local root=$1
	shift
	if [ -z "$root" ]; then
		"$@"
		return
	fi
	[ -f "$root/.spe-complete" ] || { echo "spe_in_root: $root is not a build root" >&2; return 1; }
	local d binds=()
	for d in "$spe_top" "$spe_cache" /tmp; do
		d=$(cd "$d" && pwd -P)
		binds+=("$d")
	done
	# The mounts and the chroot happen in a child shell of the private
	# namespace; the paths and the command travel as its arguments.
	# shellcheck disable=SC2016 # expanded by that shell
	unshare -m -- bash -c '
		set -e
		root=$1 cwd=$2 n=$3
		shift 3
		mount --make-rprivate / 2>/dev/null || true
		mount --rbind /dev "$root/dev"
		mount -t proc proc "$root/proc"
		for ((i = 0; i < n; i++)); do
			mkdir -p "$root$1"
			mount --bind "$1" "$root$1"
			shift
		done
		exec chroot "$root" /usr/bin/env -u LD_LIBRARY_PATH \
			PATH="${SPE_ROOT_PATH:+$SPE_ROOT_PATH:}/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
			bash -c "cd \"\$1\" && shift && exec \"\$@\"" spe-in-root "$cwd" "$@"
	' spe-root "$root" "$(pwd -P)" "${#binds[@]}" "${binds[@]}" "$@"
}
