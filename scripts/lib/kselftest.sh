# shellcheck shell=bash
# The arm_spe selftests as a kernel kselftest target.  Sourced by suites.
#
#   spe_kselftest_install KERNEL DEST
#       Drops selftests/arm_spe into a copy of KERNEL's kselftest framework
#       (scripts/fetch-kselftest.sh) and installs it there as the kernel's
#       own `make -C tools/testing/selftests TARGETS=arm_spe install` does,
#       cross-compiled for arm64, into DEST (DEST/run_kselftest.sh runs it).
#       The make output is in DEST.log.
#   spe_kselftest_relay PREFIX FILE
#       One test of the calling suite per program in FILE, the output of
#       run_kselftest.sh: ok, SKIP with the program's reason, or not ok with
#       its output.  Needs scripts/lib/tap.sh.
spe_kselftest_install() {
	local k=$1 dest=$2 top skel tree
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	skel=$("$top/scripts/fetch-kselftest.sh" "$k") || return 1
	tree=$dest.tree
	rm -rf "$tree" "$dest"
	mkdir -p "$(dirname "$dest")"
	cp -r "$skel" "$tree"
	"$top/scripts/kselftest-drop-in.sh" "$tree" >/dev/null &&
	# Before 5.18 the framework's first step (target khdr) installs the
	# kernel's uapi headers from the top of the tree, which the skeleton
	# does not have: `-o khdr` tells make that step is done (the cross
	# toolchain's headers serve, as for every later kernel, which has no
	# such target).
	make -C "$tree/tools/testing/selftests" TARGETS=arm_spe ARCH=arm64 \
		CROSS_COMPILE=aarch64-linux-gnu- KSFT_INSTALL_PATH="$dest" \
		-o khdr install >"$dest.log" 2>&1
}

spe_kselftest_relay() {
	local prefix=$1 file=$2 line name="" block=() reason checks
	while IFS= read -r line; do
		case $line in
		"# selftests: "*) name=${line##*: } block=() ;;
		"ok "*" # SKIP"*)
			reason=$(printf '%s\n' "${block[@]}" | sed -n 's/^# 1\.\.0 # SKIP //p')
			tap_skip "$prefix: $name" "${reason:-skipped}"
			;;
		"ok "*)
			# A program passes only with checks that passed: none
			# reported means its output was lost.
			checks=$(printf '%s\n' "${block[@]}" | grep -c '^# ok ')
			if [ "$checks" -gt 0 ]; then
				tap_ok "$prefix: $name ($checks checks)"
			else
				tap_fail "$prefix: $name reports its checks" "${block[@]}"
			fi
			;;
		"not ok "*) tap_fail "$prefix: $name (${line##*# })" "${block[@]}" ;;
		"# "*) block+=("$line") ;;
		esac
	done <"$file"
}
