#!/bin/busybox sh
# shellcheck shell=dash
# /init of the test guest (copied into the initramfs by mkinitramfs.sh).
#
# Mounts the pseudo filesystems, loads the modules listed in
# /guest/load.list, runs /guest/script.sh, and writes everything under
# /results to the results disk (/dev/vda, a raw virtio-blk disk the host
# unpacks with tar and checks against the tar's .manifest), then powers
# off.  The script sees:
#   RESULTS    directory whose files come back to the host
#   MODULES    directory of the modules given with --module/--load
#   SELFTESTS  directory of the programs given with --selftests
#   FILES      directory of the files given with --file
#   CHANNEL    with run-guest.sh --channel, the virtio serial port to the
#              host (/dev/vportNpM); unset otherwise
# Lines starting with "spe-guest:" on the console are this file's.
/bin/busybox mkdir -p /proc /sys /dev /tmp /sbin /usr/bin /usr/sbin /results
/bin/busybox --install -s
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
echo "spe-guest: init up at $(cut -d' ' -f1 /proc/uptime) s, kernel $(uname -r), $(nproc) CPUs"

RESULTS=/results MODULES=/modules SELFTESTS=/selftests FILES=/files
export RESULTS MODULES SELFTESTS FILES PATH=/usr/sbin:/usr/bin:/sbin:/bin

# The results disk's driver: virtio-mmio and virtio-blk are modules in
# Debian's arm64 kernels.
while read -r m; do
	insmod "/guest/transport/$m"
done </guest/transport.list

# The channel's port appears once virtio_console has probed it; its name
# tells it apart from any other port.
if [ -s /guest/channel ]; then
	i=0
	while [ -z "${CHANNEL:-}" ] && [ $i -lt 100 ]; do
		for p in /sys/class/virtio-ports/*; do
			[ "$(cat "$p/name" 2>/dev/null)" = "$(cat /guest/channel)" ] &&
				[ -c "/dev/${p##*/}" ] && CHANNEL=/dev/${p##*/}
		done
		[ -n "${CHANNEL:-}" ] || sleep 0.1
		i=$((i + 1))
	done
	if [ -n "${CHANNEL:-}" ]; then
		export CHANNEL
	else
		echo "spe-guest: no virtio serial port named $(cat /guest/channel)"
	fi
fi

if [ -s /guest/load.list ]; then
	while read -r m; do
		insmod "$MODULES/$m" >>"$RESULTS/modules-load.log" 2>&1
		echo "$m $?" >>"$RESULTS/modules-load.rc"
	done </guest/load.list
fi

echo "spe-guest: running script at $(cut -d' ' -f1 /proc/uptime) s"
( cd /tmp && sh /guest/script.sh; echo $? >"$RESULTS/script.rc" ) 2>&1 | tee "$RESULTS/script.log"
rc=$(cat "$RESULTS/script.rc" 2>/dev/null || echo missing)
echo "spe-guest: script exited with $rc at $(cut -d' ' -f1 /proc/uptime) s"

# A debug kernel (scripts/build-debug-kernel.sh kasan) has kmemleak: scan
# for what the script's modules leaked, twice, since an object is reported
# only once it is older than kmemleak's minimum age (5 s).  A leak shows in
# the kernel log ("suspected memory leaks"), which the host judges; the
# objects' backtraces come back in kmemleak.txt.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak >"$RESULTS/kmemleak.txt"
	echo "spe-guest: kmemleak scanned at $(cut -d' ' -f1 /proc/uptime) s"
fi
dmesg >"$RESULTS/dmesg.txt"
cut -d' ' -f1 /proc/uptime >"$RESULTS/uptime"

i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
# The manifest ("SIZE ./NAME" of every file) is the tar's first member:
# run-guest.sh checks what it unpacks against it, so a tar cut short by a
# full results disk is found, and names what was lost, instead of handing
# cut files to the host's tools.  (No "exit" here: /init must not end.)
write_results() {
	cd "$RESULTS" || return 1
	find . -type f | while read -r f; do
		echo "$(wc -c <"$f") $f"
	done >/tmp/manifest
	mv /tmp/manifest .manifest
	need=$(awk '{ s += 512 + int(($1 + 511) / 512) * 512 } END { print int(s / 1024) + 1 }' .manifest)
	have=$(($(cat /sys/block/vda/size 2>/dev/null || echo 0) / 2))
	[ "$need" -le "$have" ] ||
		echo "spe-guest: results need ${need} KiB, more than the ${have} KiB results disk: the tar will be cut"
	[ -b /dev/vda ] && tar -cf /dev/vda .manifest . && sync
}
if write_results; then
	echo "spe-guest: results written"
else
	echo "spe-guest: cannot write the results disk"
fi
echo "spe-guest: done rc=$rc"
poweroff -f
