# shellcheck shell=dash
# What guest scripts share (busybox sh), in the initramfs as /guest/lib.sh
# (mkinitramfs.sh); a guest script sources it with ". /guest/lib.sh".
#
#   mark TEXT              "spe-test: TEXT" in the kernel log, to find where
#                          each step's kernel messages start
#   SPIN                   the spe_spin workload (run-guest.sh --file)
#   spe_guest_begin [MOD]  cd to $RESULTS (exit 1 if it cannot); with MOD,
#                          insmod $MODULES/MOD.ko and write its exit status
#                          to insmod.rc
#   spe_wait_for FILE      wait until FILE exists, at most 20 s (status 1
#                          if it never does)
#   spe_channel_open       open the run-guest.sh --channel port as fd 3 and
#                          wait for the host's first line, "hello"; status 1
#                          (with a message) when there is no channel, or the
#                          host never connects within a minute
#   spe_channel_ask MSG    send MSG to the host, wait for its one-line
#                          answer and print it (status 1 if the host hung up)
#   spe_as_nobody CMD...   run the shell command CMD as the unprivileged
#                          user nobody (added to /etc/passwd if missing)

mark() { echo "spe-test: $*" >/dev/kmsg; }
# shellcheck disable=SC2034 # used by the scripts that source this
SPIN=$FILES/spe_spin

# spe_guest_begin [MODULE [PARAM=VALUE...]]: into the results directory,
# and load MODULE with its parameters (the status in insmod.rc).
spe_guest_begin() {
	cd "$RESULTS" || exit 1
	[ $# -eq 0 ] && return 0
	local m=$1
	shift
	mark "insmod $m"
	insmod "$MODULES/$m.ko" "$@"
	echo $? >insmod.rc
}

spe_wait_for() {
	local i=0
	while [ ! -e "$1" ]; do
		[ $i -ge 100 ] && return 1
		sleep 0.2
		i=$((i + 1))
	done
}

spe_channel_open() {
	local line i=0
	if [ -z "${CHANNEL:-}" ]; then
		echo "spe_channel_open: no channel (run-guest.sh --channel)" >&2
		return 1
	fi
	exec 3<>"$CHANNEL"
	# Until the host has connected, a read of the port ends at once
	# (end of file); from then on it waits for the host's line.
	while ! read -r line <&3; do
		i=$((i + 1))
		if [ $i -ge 600 ]; then
			echo "spe_channel_open: the host did not connect to $CHANNEL" >&2
			return 1
		fi
		sleep 0.1
	done
	[ "$line" = hello ] && return 0
	echo "spe_channel_open: the host's first line is '$line', not 'hello'" >&2
	return 1
}

spe_channel_ask() {
	local line
	echo "$1" >&3
	read -r line <&3 || return 1
	echo "$line"
}

spe_as_nobody() {
	mkdir -p /etc
	grep -q '^nobody:' /etc/passwd 2>/dev/null ||
		echo 'nobody:x:65534:65534:nobody:/tmp:/bin/sh' >>/etc/passwd
	grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >>/etc/group
	su -s /bin/sh nobody -c "$*"
}
