#!/usr/bin/env python3
"""Relay lines between this program's stdin/stdout and a guest's channel.

Usage: scripts/qemu/channel.py SOCKET [WAIT-SECONDS]

SOCKET is QEMU's end of the virtio serial port that run-guest.sh --channel
gives the guest (the guest sees it as $CHANNEL).  The program waits up to
WAIT-SECONDS (default 60) for QEMU to create the socket, connects, then
copies each line the guest writes to stdout and each line of stdin to the
guest, flushing at once, so that a host script and a guest script can wait
for each other's messages instead of for a time.  It ends with status 0
when QEMU closes the socket (the guest stopped) or stdin ends, and with 1
when the socket never appeared.
"""
import os
import selectors
import socket
import sys
import time


def connect(path, wait):
    """A socket connected to path, retrying until wait seconds passed."""
    deadline = time.monotonic() + wait
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except OSError as err:
            sock.close()
            if time.monotonic() >= deadline:
                sys.exit(f"channel.py: {path}: {err} "
                         f"(QEMU did not serve it within {wait:g} s)")
            time.sleep(0.1)


def relay(sock):
    """Copy bytes both ways until either side ends."""
    sel = selectors.DefaultSelector()
    stdin = sys.stdin.fileno()
    sel.register(sock, selectors.EVENT_READ)
    sel.register(stdin, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select():
            if key.fileobj is sock:
                data = sock.recv(4096)
                if not data:
                    return
                os.write(sys.stdout.fileno(), data)
            else:
                data = os.read(stdin, 4096)
                if not data:
                    return
                sock.sendall(data)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().split("\n\n")[1])
    try:
        wait = float(sys.argv[2]) if len(sys.argv) == 3 else 60.0
    except ValueError:
        sys.exit(f"channel.py: WAIT-SECONDS is not a number: {sys.argv[2]}")
    with connect(sys.argv[1], wait) as sock:
        try:
            relay(sock)
        except OSError as err:
            sys.exit(f"channel.py: {sys.argv[1]}: {err}")


if __name__ == "__main__":
    main()
