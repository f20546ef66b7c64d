# shellcheck shell=dash
# Guest script: run an installed kselftest tree ($SELFTESTS, made by the
# kernel's `make -C tools/testing/selftests install`) the way CI systems
# do, with its own run_kselftest.sh; its TAP goes to $RESULTS/kselftest.tap
# and its exit status to $RESULTS/kselftest.rc.
#
# kselftest's runner calls "/usr/bin/timeout --foreground", which busybox's
# timeout does not take; this guest has nothing to keep in the foreground
# (no terminal job control), so the option is dropped and the rest handed
# to busybox.
if [ -x /usr/bin/timeout ] && ! /usr/bin/timeout --foreground 1 true 2>/dev/null; then
	rm -f /usr/bin/timeout
	printf '#!/bin/sh\n[ "$1" = --foreground ] && shift\nexec /bin/busybox timeout "$@"\n' \
		>/usr/bin/timeout
	chmod +x /usr/bin/timeout
fi
# The runner sends each program's output to /dev/stdout, which devtmpfs
# does not create (udev does, on a full system): without the links it
# would land in a regular file of that name.
for fd in 0:stdin 1:stdout 2:stderr; do
	[ -e "/dev/${fd#*:}" ] || ln -s "/proc/self/fd/${fd%%:*}" "/dev/${fd#*:}"
done
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
cd "$SELFTESTS" || exit 1
# Appending: the runner reopens /dev/stdout to append each program's
# output, and a writer at its own offset would overwrite that.
: >"$RESULTS/kselftest.tap"
./run_kselftest.sh >>"$RESULTS/kselftest.tap" 2>&1
echo $? >"$RESULTS/kselftest.rc"
cat "$RESULTS/kselftest.tap"
