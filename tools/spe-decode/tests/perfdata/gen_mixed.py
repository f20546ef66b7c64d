#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Write a raw SPE buffer of varied records for the differential tests.

Deterministic for a given --seed.  Records are loads, stores (general
purpose and SIMD), branches (conditional, indirect, calls, returns,
mispredicted, not taken) and other operations, at EL0 and EL1, with random
events, latencies, data sources, some without CONTEXT, PA or data source
packets, ending with a Timestamp (or an End packet with --end).  Packet
encodings: DDI 0586A §5, DDI 0487 D18.

usage: gen_mixed.py N [--seed S] [--ts0 T] [--tids a,b,...] [--no-context]
                      [--pad] [--pcs A,B,...] [--kpcs A,B,...] [--pc-range K]
                      > out.bin
  --pcs   user-space PCs are drawn from this list (hex)
  --pc-range  ...or from K instructions from 0x400000 (default 16384; a
          large K makes nearly every record's PC a new one)
  --kpcs  kernel PCs (EL1) are drawn from this list (hex)
  --pad   pad every record to 64 bytes (records then never straddle a
          64-byte multiple, so --chunk 4096 keeps records whole)
"""
import random
import struct
import sys


def u64(v):
    return struct.pack('<Q', v & 0xffffffffffffffff)


def addr_pkt(index, value):
    return bytes([0xb0 | index]) + u64(value)


def lat(index, v):
    return bytes([0x98 | index]) + struct.pack('<H', v & 0xfff)


def main():
    a = sys.argv[1:]
    n = int(a[0])

    def opt(name, default):
        return a[a.index(name) + 1] if name in a else default
    rnd = random.Random(int(opt('--seed', '1')))
    ts = int(opt('--ts0', '1000000'))
    tids = [int(t) for t in opt('--tids', '100,101,102').split(',')]
    context = '--no-context' not in a
    pad = '--pad' in a
    pcs = [int(x, 16) for x in opt('--pcs', '').split(',') if x]
    kpcs = [int(x, 16) for x in opt('--kpcs', '').split(',') if x]
    pc_range = int(opt('--pc-range', '16384'))
    out = bytearray()
    for i in range(n):
        kind = rnd.choice(['ld', 'ld', 'st', 'br', 'other'])
        kernel = rnd.random() < 0.2
        if kernel:
            pc = rnd.choice(kpcs) if kpcs else \
                0xffff800008000000 + rnd.randrange(0, 0x100000) * 4
            pcv = (pc & 0x00ffffffffffffff) | (1 << 63) | (1 << 61)  # EL1 ns
        else:
            pc = rnd.choice(pcs) if pcs else 0x400000 + rnd.randrange(0, pc_range) * 4
            pcv = pc | (1 << 63)
        r = addr_pkt(0, pcv)
        if context and rnd.random() < 0.9:
            r += bytes([0x65]) + struct.pack('<I', rnd.choice(tids))
        ev = 0x2  # retired
        if kind in ('ld', 'st'):
            sub = rnd.choice([0x00, 0x04])
            r += bytes([0x49, sub | (1 if kind == 'st' else 0)])
            ev |= 0x4 | 0x10
            if rnd.random() < 0.3:
                ev |= 0x8
            if rnd.random() < 0.1:
                ev |= 0x20
            if rnd.random() < 0.2:
                ev |= 0x100
                if rnd.random() < 0.5:
                    ev |= 0x200
            if rnd.random() < 0.05:
                ev |= 0x400
        elif kind == 'br':
            sub = rnd.choice([0x00, 0x01, 0x02, 0x08, 0x10, 0x03])
            r += bytes([0x4a, sub])
            if rnd.random() < 0.2:
                ev |= 0x80
            if sub & 1 and rnd.random() < 0.3:
                ev |= 0x40
        else:
            r += bytes([0x48, rnd.choice([0x00, 0x02, 0x04])])
        r += bytes([0x52]) + struct.pack('<H', ev)
        r += lat(0, rnd.randrange(1, 400))
        r += lat(1, rnd.randrange(0, 30))
        if kind in ('ld', 'st'):
            r += lat(2, rnd.randrange(0, 50))
            va = 0x7fff00000000 + rnd.randrange(0, 1 << 20) * 8
            r += addr_pkt(2, va)
            if rnd.random() < 0.9:
                r += addr_pkt(3, 0x80000000 + rnd.randrange(0, 1 << 20) * 8)
            if kind == 'ld' and rnd.random() < 0.95:
                r += bytes([0x43, rnd.choice([0x0, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe])])
        elif kind == 'br':
            tgt = 0x400000 + rnd.randrange(0, pc_range) * 4
            r += addr_pkt(1, tgt | (1 << 63))
        ts += rnd.randrange(1, 200)
        r += bytes([0x71]) + u64(ts)
        if pad:
            r += bytes(64 - len(r))
        out += r
    sys.stdout.buffer.write(bytes(out))


main()
