#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Raw SPE loads of one PC with chosen total latencies, for the saturation
tests: N records at PC 0x400000 with total latency 100, then M at the
saturated value (4095, a 12-bit counter), issue latency 7.

usage: gen_sat.py N M [--sat 4095|65535] > out.bin
Packet encodings: DDI 0487, "Statistical Profiling Extension" packets
(Address 0xb0|index, Operation Type 0x49, Events 0x52, Counter 0x98|index,
Timestamp 0x71)."""
import struct
import sys

n, m = int(sys.argv[1]), int(sys.argv[2])
sat = int(sys.argv[sys.argv.index('--sat') + 1]) if '--sat' in sys.argv else 4095
out = bytearray()
ts = 1000000
for i in range(n + m):
    r = bytes([0xb0]) + struct.pack('<Q', 0x400000 | (1 << 63))
    r += bytes([0x49, 0x00])                    # load
    r += bytes([0x52]) + struct.pack('<H', 0x2 | 0x4 | 0x10)
    r += bytes([0x98]) + struct.pack('<H', 100 if i < n else sat)
    r += bytes([0x99]) + struct.pack('<H', 7)
    r += bytes([0xb2]) + struct.pack('<Q', 0x7fff00000000 + 8 * i)
    ts += 10
    r += bytes([0x71]) + struct.pack('<Q', ts)
    out += r
sys.stdout.buffer.write(bytes(out))
