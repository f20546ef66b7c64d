#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Write a raw SPE buffer of load records for the perf.data tests.

Each record is 64 bytes (zero PAD packets fill the rest): PC, CONTEXT,
LD GP-REG, EVENTS, total and issue LAT, VA, PA, DATA-SOURCE, TS (packet
encodings: DDI 0586A §5, DDI 0487 D18).  Record i has:
  PC 0x400000 + 4i (EL0), CONTEXT tid, EV retired + L1D access + TLB access,
  + L1D refill when i % 3 == 0, + LLC access and miss when i % 5 == 0,
  + TLB walk when i % 7 == 0; total latency 20 + i, issue latency 5,
  VA 0x7fff0000 + 8i, PA 0x80000000 + 8i, data source (0, 8, 0xb, 0xe)[i % 4],
  TS ts0 + 100 i.
With --expect it prints, instead of bytes, how many samples perf's default
itrace options synthesise per event name (one "name count" per line).

usage: gen_raw.py N [--tid T] [--ts0 T] [--no-context] [--expect] > out
"""
import struct
import sys


def record(i, tid, ts0, context):
    b = bytes([0xb0]) + struct.pack('<Q', (0x400000 + 4 * i) | (1 << 63))
    if context:
        b += bytes([0x65]) + struct.pack('<I', tid)
    b += bytes([0x49, 0x00])
    b += bytes([0x52]) + struct.pack('<H', events(i))
    b += bytes([0x98]) + struct.pack('<H', 20 + i)
    b += bytes([0x99]) + struct.pack('<H', 5)
    b += bytes([0xb2]) + struct.pack('<Q', 0x7fff0000 + 8 * i)
    b += bytes([0xb3]) + struct.pack('<Q', 0x80000000 + 8 * i)
    b += bytes([0x43, (0x0, 0x8, 0xb, 0xe)[i % 4]])
    b += bytes([0x71]) + struct.pack('<Q', ts0 + 100 * i)
    return b + bytes(64 - len(b))


def events(i):
    ev = 0x2 | 0x4 | 0x10
    if i % 3 == 0:
        ev |= 0x8
    if i % 5 == 0:
        ev |= 0x100 | 0x200
    if i % 7 == 0:
        ev |= 0x20
    return ev


def expect(n):
    names = {'l1d-miss': 0x8, 'l1d-access': 0x4, 'llc-miss': 0x200,
             'llc-access': 0x100, 'tlb-miss': 0x20, 'tlb-access': 0x10}
    counts = {k: sum(1 for i in range(n) if events(i) & m) for k, m in names.items()}
    counts['memory'] = n
    return counts


def main():
    args = sys.argv[1:]
    n = int(args[0])
    tid = int(args[args.index('--tid') + 1]) if '--tid' in args else 1234
    ts0 = int(args[args.index('--ts0') + 1]) if '--ts0' in args else 1000000
    if '--expect' in args:
        for k, v in sorted(expect(n).items()):
            print(k, v)
        return
    out = sys.stdout.buffer
    for i in range(n):
        out.write(record(i, tid, ts0, '--no-context' not in args))


main()
