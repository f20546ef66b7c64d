# shellcheck shell=dash disable=SC2016
# Guest script of suite 50-guest-boot: records what the host checks.
# (Runs under busybox sh in the guest; see scripts/qemu/init.sh.)
uname -r >"$RESULTS/uname"
nproc >"$RESULTS/nproc"
# Platform devices made from an SPE device-tree node, and whether a driver
# bound to them (nothing may autoload one: there is no udev in the guest).
for d in /sys/bus/platform/devices/*spe*; do
	[ -e "$d" ] || continue
	echo "$(basename "$d") compatible=$(tr '\0' ' ' <"$d/of_node/compatible" | sed 's/ $//')" \
		"driver=$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)"
done >"$RESULTS/spe-devices"
ls /sys/bus/event_source/devices >"$RESULTS/pmus"
lsmod >"$RESULTS/lsmod"
if command -v perf >/dev/null; then
	perf stat -x, -e task-clock,cycles -o "$RESULTS/perf-stat.csv" \
		sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i + 1)); done'
	echo $? >"$RESULTS/perf-stat.rc"
	# A perf.data to read on the host (arm64 perf.data, x86 host perf).
	perf record -q -e cycles -c 100000 -o "$RESULTS/perf.data" \
		sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'
	echo $? >"$RESULTS/perf-record.rc"
fi
