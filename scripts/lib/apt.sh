# shellcheck shell=bash
# Helpers for scripts that download Debian packages without installing them.
#
# Sourced, not run.  Defines:
#   spe_cache                 the shared download cache (SPE_CACHE_DIR or <top>/.cache)
#   spe_apt_opts SUITE        fills the array APT_OPTS with the apt options that
#                             reach SUITE: empty when the machine's own sources
#                             carry it, else a private sources/lists directory
#                             under the cache (the machine's apt setup is not
#                             changed)
#   spe_apt_update            refreshes the package lists APT_OPTS points at
#   spe_apt_ensure_arch ARCH  adds a foreign dpkg architecture once (needed to
#                             see ARCH packages at all) and refreshes the lists
#   spe_apt_src_opts          fills APT_OPTS with a private configuration whose
#                             deb-src lines mirror the machine's own "main"
#                             sources, for `apt-get source --download-only`
#
# Any Debian suite can be reached (bullseye to sid): the private sources use
# the mirror of the machine's "<codename>/main" line for that codename, or
# else the mirror of the machine's own release.

spe_top=${spe_top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
spe_cache=${SPE_CACHE_DIR:-$spe_top/.cache}
APT_OPTS=()

spe_die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

# Run apt-get, waiting for a lock held by another apt/dpkg run.
spe_apt_get() {
	local out rc
	for _ in $(seq 1 60); do
		out=$(apt-get "$@" 2>&1) && { printf '%s\n' "$out"; return 0; }
		rc=$?
		if ! grep -qiE 'could not get lock|unable to lock|is another process using it' <<<"$out"; then
			printf '%s\n' "$out" >&2
			return $rc
		fi
		sleep 5
	done
	printf '%s\n' "$out" >&2
	return 1
}

spe_suite_is_configured() {
	apt-cache policy 2>/dev/null | awk -v s="$1/main" '$3 == s {f = 1} END {exit !f}'
}

# The codename of this machine's Debian release (bookworm, trixie, ...).
spe_own_codename() {
	(. /etc/os-release && echo "${VERSION_CODENAME:-}")
}

spe_apt_opts() {
	local suite=$1 dir uri keyring
	APT_OPTS=()
	[ -z "$suite" ] && return 0
	spe_suite_is_configured "$suite" && return 0

	dir=$spe_cache/apt/$suite
	APT_OPTS=(-o "Dir::Etc::SourceList=$dir/sources.list"
		  -o "Dir::Etc::SourceParts=$dir/sources.list.d"
		  -o "Dir::State::Lists=$dir/lists"
		  -o "Dir::Cache=$dir/cache")
	if [ ! -s "$dir/sources.list" ] || ! grep -q "^# $suite\$" "$dir/sources.list"; then
		local codename=${suite%%-*} signed='' line
		# Another release's suite comes from the mirror that serves this
		# machine's own release (Debian's mirrors carry every suite).
		uri=$(apt-cache policy 2>/dev/null |
			awk -v s="$codename/main" -v own="$(spe_own_codename)/main" '
				$3 == s {print $2; exit} $3 == own && !u {u = $2}
				END {if (u) print u}' | head -n 1)
		[ -n "$uri" ] || spe_die "no Debian 'main' apt source on this machine to derive a mirror for $suite from"
		keyring=/usr/share/keyrings/debian-archive-keyring.gpg
		[ -r "$keyring" ] && signed="[signed-by=$keyring] "
		rm -rf "$dir/lists"
		mkdir -p "$dir/sources.list.d" "$dir/lists/partial" "$dir/cache/archives/partial"
		# A backports suite's packages depend on its release's: list
		# both (APT::Default-Release below prefers the backports).
		{
			echo "# $suite"
			for line in "$suite" ${suite%-backports}; do
				echo "deb $signed$uri $line main"
			done | sort -u
		} >"$dir/sources.list.tmp"
		mv "$dir/sources.list.tmp" "$dir/sources.list"
	fi
	case $suite in
	*-backports) APT_OPTS+=(-o "APT::Default-Release=$suite") ;;
	esac
	# Lists fetched before a foreign architecture was added lack its
	# packages: refresh until every dpkg architecture has its list.
	local arch
	for arch in $(dpkg --print-architecture) $(dpkg --print-foreign-architectures); do
		if ! ls "$dir"/lists/*_binary-"${arch}"_Packages* >/dev/null 2>&1; then
			spe_apt_update
			break
		fi
	done
}

spe_apt_update() {
	echo "${0##*/}: refreshing apt package lists${APT_OPTS:+ (private)}" >&2
	spe_apt_get "${APT_OPTS[@]}" -qq update >/dev/null ||
		spe_die "apt-get update failed"
}

spe_apt_ensure_arch() {
	local arch=$1
	[ "$arch" = "$(dpkg --print-architecture)" ] && return 0
	grep -qx "$arch" <<<"$(dpkg --print-foreign-architectures)" && return 0
	[ "$(id -u)" -eq 0 ] || spe_die "dpkg architecture $arch is missing (run as root once to add it)"
	echo "${0##*/}: adding dpkg architecture $arch" >&2
	dpkg --add-architecture "$arch"
	local saved=("${APT_OPTS[@]}")
	APT_OPTS=()
	spe_apt_update
	APT_OPTS=("${saved[@]}")
}

# Source packages: the machine's apt configuration has no deb-src lines (and
# is never changed), so a private sources/lists directory under the cache
# carries one deb-src line for each "<mirror> <suite>/main" the machine uses.
spe_apt_src_opts() {
	local dir=$spe_cache/apt/deb-src keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	APT_OPTS=(-o "Dir::Etc::SourceList=$dir/sources.list"
		  -o "Dir::Etc::SourceParts=$dir/sources.list.d"
		  -o "Dir::State::Lists=$dir/lists"
		  -o "Dir::Cache=$dir/cache")
	if [ ! -s "$dir/sources.list" ]; then
		local signed=''
		[ -r "$keyring" ] && signed="[signed-by=$keyring] "
		mkdir -p "$dir/sources.list.d" "$dir/lists/partial" "$dir/cache/archives/partial"
		apt-cache policy 2>/dev/null |
			awk -v s="$signed" '$NF == "Packages" && $3 ~ /\/main$/ {
				sub(/\/main$/, "", $3); print "deb-src " s $2 " " $3 " main" }' |
			sort -u >"$dir/sources.list.tmp"
		[ -s "$dir/sources.list.tmp" ] ||
			spe_die "no Debian 'main' apt source on this machine to derive deb-src lines from"
		mv "$dir/sources.list.tmp" "$dir/sources.list"
	fi
	if ! ls "$dir"/lists/*_Sources* >/dev/null 2>&1; then
		spe_apt_update
	fi
}
