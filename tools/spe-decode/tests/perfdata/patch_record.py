#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Corrupt one record of a perf.data for the corrupt-input tests.

usage: patch_record.py FILE TYPE NTH FIELD_OFFSET SIZE VALUE
  Finds the NTH (0-based) record of TYPE in the data section and writes
  VALUE as a SIZE-byte little-endian integer at FIELD_OFFSET inside it.
  Prints the file offset of that record (hex), which the error must name.
"""
import struct
import sys

path, rtype, nth, foff, size, value = sys.argv[1:]
rtype, nth, foff, size, value = int(rtype), int(nth), int(foff), int(size), int(value, 0)
data = bytearray(open(path, 'rb').read())
doff, dsize = struct.unpack_from('<QQ', data, 40)
pos, seen = doff, 0
while pos < doff + dsize:
    t, misc, sz = struct.unpack_from('<IHH', data, pos)
    if t == rtype:
        if seen == nth:
            data[pos + foff:pos + foff + size] = value.to_bytes(size, 'little')
            open(path, 'wb').write(data)
            print(hex(pos))
            sys.exit(0)
        seen += 1
    nxt = pos + sz
    if t == 71:  # AUXTRACE: its data follows
        nxt += struct.unpack_from('<Q', data, pos + 8)[0]
    pos = nxt
sys.exit('record not found')
