#!/usr/bin/env bash
# The QEMU guest harness (scripts/qemu/run-guest.sh) boots both Debian arm64
# kernels with 2 and 4 CPUs, with and without the SPE device-tree node, and
# brings the guest's result files back:
#   - the guest runs the requested kernel on the requested number of CPUs;
#   - with the node, the SPE platform device exists (and nothing bound to
#     it: no driver autoloads without udev); without it, there is none;
#   - a module built against the kernel tree loads in the guest;
#   - the real arm64 perf counts cycles with the guest's PMUv3, and the
#     perf.data it records comes back and is read by the host's perf;
#   - results bigger than the results disk (a 3 MiB file, a 2 MiB disk)
#     are refused whole, with a message naming the cut file, never
#     handed over cut.
# Boot times are printed as TAP comments.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
# shellcheck source=scripts/lib/guest-results.sh
. "$top/scripts/lib/guest-results.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$top/scripts/lib/kernels.sh"
runs=$top/build/qemu/runs/50-guest-boot
guest=$top/scripts/qemu/guest/boot-facts.sh

# boot KERNEL SMP NODE PERF
boot() {
	local k=$1 smp=$2 node=$3 perf=$4 name out ko rc=0 args=()
	name="$k smp=$smp ${node#--}${perf:+ perf}"
	out=$runs/$k-smp$smp-${node#--}
	spe_kernel "$k"
	if ! ko=$("$top/scripts/build-external-module.sh" --kernel "$k" "$top/scripts/qemu/hello" 2>"$out.build.log"); then
		tap_fail "$name: hello module builds" "$(tail -n 20 "$out.build.log")"
		return
	fi
	[ -n "$perf" ] && args+=(--with-perf)
	"$top/scripts/qemu/run-guest.sh" --kernel "$k" --smp "$smp" "$node" "${args[@]}" \
		--load "$ko" --timeout 180 --script "$guest" --out "$out" 2>"$out.log" || rc=$?
	if [ ! -s "$out/results/script.rc" ]; then
		tap_fail "$name: guest boots and results come back" "$(tail -n 5 "$out.log")"
		return
	fi
	tap_ok "$name: guest boots and results come back"
	# shellcheck disable=SC1091,SC2154
	(. "$out/summary"; echo "# $name: /init at ${init_seconds}s guest time, ${wall_seconds}s wall")

	if [ "$(cat "$out/results/uname")" = "$KREL" ] &&
	   [ "$(cat "$out/results/nproc")" = "$smp" ]; then
		tap_ok "$name: runs $KREL on $smp CPUs"
	else
		tap_fail "$name: runs $KREL on $smp CPUs" \
			"uname: $(cat "$out/results/uname")" "nproc: $(cat "$out/results/nproc")"
	fi

	local devs
	devs=$(cat "$out/results/spe-devices")
	if [ "$node" = --spe-node ]; then
		if grep -q 'compatible=arm,statistical-profiling-extension-v1 driver=$' <<<"$devs"; then
			tap_ok "$name: SPE platform device present, no driver bound"
		else
			tap_fail "$name: SPE platform device present, no driver bound" "$devs"
		fi
	elif [ -z "$devs" ]; then
		tap_ok "$name: no SPE platform device without the node"
	else
		tap_fail "$name: no SPE platform device without the node" "$devs"
	fi

	if grep -qx 'spe_hello.ko 0' "$out/results/modules-load.rc" &&
	   grep -q 'spe_hello: loaded' "$out/results/dmesg.txt"; then
		tap_ok "$name: module built against the tree loads"
	else
		tap_fail "$name: module built against the tree loads" \
			"$(cat "$out/results/modules-load.rc" "$out/results/modules-load.log" 2>&1)"
	fi

	if [ -n "$perf" ]; then
		# perf stat -x, lines: value,unit,event,...
		local cycles
		cycles=$(awk -F, '$3 ~ /^cycles/ {print $1}' "$out/results/perf-stat.csv" 2>/dev/null)
		if [ "$(cat "$out/results/perf-stat.rc" 2>/dev/null)" = 0 ] &&
		   [[ $cycles =~ ^[0-9]+$ ]] && [ "$cycles" -gt 0 ] &&
		   grep -qx armv8_pmuv3 "$out/results/pmus"; then
			tap_ok "$name: arm64 perf stat counts cycles ($cycles) on armv8_pmuv3"
		else
			tap_fail "$name: arm64 perf stat counts cycles on armv8_pmuv3" \
				"$(cat "$out/results/perf-stat.csv" "$out/results/pmus" 2>&1)"
		fi
		# The host's perf reads the guest's arm64 perf.data.
		local samples
		samples=$(perf script -i "$out/results/perf.data" -F event 2>/dev/null | grep -c cycles)
		if [ "$(cat "$out/results/perf-record.rc" 2>/dev/null)" = 0 ] && [ "$samples" -gt 0 ]; then
			tap_ok "$name: perf.data recorded in the guest comes back, host perf reads $samples samples"
		else
			tap_fail "$name: perf.data recorded in the guest comes back and host perf reads it" \
				"record rc: $(cat "$out/results/perf-record.rc" 2>&1)" \
				"$(perf script -i "$out/results/perf.data" 2>&1 | head -5)"
		fi
	fi
	spe_kernel_log_tap "$name" "$out"
	[ "$rc" -eq 0 ] || tap_fail "$name: guest script exit status" "run-guest.sh exited $rc"
}

# overflow: a guest whose results outgrow a 2 MiB results disk; the tar
# comes back cut and run-guest.sh must say so (exit 123), name the file,
# and leave nothing under results/.
overflow() {
	local out=$runs/overflow rc=0 err
	"$top/scripts/qemu/run-guest.sh" --kernel 6.1 --smp 1 --results-size 2 --timeout 120 \
		--script "$top/scripts/qemu/guest/results-overflow.sh" --out "$out" 2>"$out.log" || rc=$?
	err=$(cat "$out.log")
	if [ "$rc" -eq 123 ] && [ -z "$(ls -A "$out/results" 2>/dev/null)" ] &&
	   [ -s "$out/results.cut/.manifest" ] && grep -q 'the results tar came back cut' <<<"$err" &&
	   grep -Eq '^  (big|last|first): ' <<<"$err"; then
		tap_ok "results that outgrow the results disk are refused, the cut file named"
	else
		tap_fail "results that outgrow the results disk are refused, the cut file named" \
			"run-guest.sh exited $rc; results/: $(ls -A "$out/results" 2>&1 | tr '\n' ' ')" \
			"$(tail -n 8 <<<"$err")"
	fi
}

mkdir -p "$runs"
start=$SECONDS
boot 6.1 2 --spe-node perf
boot 6.1 4 --no-spe-node ""
boot 6.12 2 --no-spe-node perf
boot 6.12 4 --spe-node ""
overflow
echo "# 5 boots in $((SECONDS - start)) s"
tap_done
