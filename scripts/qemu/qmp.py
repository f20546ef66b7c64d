#!/usr/bin/env python3
"""Run one QMP command on a running QEMU and print its result as JSON.

Usage: scripts/qemu/qmp.py SOCKET COMMAND [JSON-ARGUMENTS]

SOCKET is the Unix socket of QEMU's -qmp (scripts/qemu/run-guest.sh --qmp).
Exit status 0 with the "return" value on stdout; 1 with QEMU's error (or why
the socket could not be used) on stderr.
"""
import json
import socket
import sys


def reply(stream):
    """The next line that answers a command (events are skipped)."""
    for line in stream:
        msg = json.loads(line)
        if "return" in msg or "error" in msg:
            return msg
    raise EOFError("QEMU closed the QMP socket")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().split("\n\n")[1])
    path, command = sys.argv[1], sys.argv[2]
    try:
        args = json.loads(sys.argv[3]) if len(sys.argv) == 4 else {}
    except ValueError as err:
        sys.exit(f"qmp.py: JSON-ARGUMENTS is not JSON: {err}")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(10)
            sock.connect(path)
            stream = sock.makefile("rw")
            json.loads(stream.readline())  # the greeting
            for cmd in ({"execute": "qmp_capabilities"},
                        {"execute": command, "arguments": args}):
                stream.write(json.dumps(cmd) + "\n")
                stream.flush()
                msg = reply(stream)
                if "error" in msg:
                    sys.exit(f"qmp.py: {cmd['execute']}: "
                             f"{msg['error'].get('desc', msg['error'])}")
            print(json.dumps(msg["return"]))
    except (OSError, EOFError, ValueError) as err:
        sys.exit(f"qmp.py: {path}: {err}")


if __name__ == "__main__":
    main()
