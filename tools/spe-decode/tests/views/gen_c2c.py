#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Raw SPE buffers of a contended workload, one per CPU, for the c2c tests.

usage: gen_c2c.py OUTDIR NR_CPUS PCS [--sat]   (PCS: 6 comma-separated hex PCs)

Writes OUTDIR/cpuK.bin.  Each CPU K, thread 77 (CONTEXT packet), runs
rounds of:
  line A 0x7fff00001000 (PA 0x80001000): false sharing, a store and a load
         at offset 8*K by PCS[K % 4]; half the loads from a peer core's cache
  line B 0x7fff00002000 (PA 0x80002000): true sharing, a store and a load at
         offset 0 by PCS[4] (a lock); loads from a peer cache
  line C 0x7fff00003000 (PA 0x80003000): read-only sharing, a load at offset
         0x20 by PCS[5]; loads from a peer cache, never a store
  line D 0x7fff00004000, no physical address: a store at offset 0x30 by
         PCS[4] and a load
  a private line 0x7fff00100000 + 0x1000*K (PA 0x81000000 + 0x1000*K):
         a store and a load by PCS[5]
With --sat, also, in every round:
  line E 0x7fff00005000 (PA 0x80005000): a store at offset 0x10 by PCS[4]
         whose total latency counter is saturated (4095, 12-bit counters),
         and a load there of total latency 9
Latencies: total 100 + 10*K (store) / 200 + K (load), issue 5.
Packet encodings: DDI 0487, "Statistical Profiling Extension" packets;
Data Source values of the common Neoverse encoding (0x0 L1, 0x9 peer CPU)."""
import os
import struct
import sys

outdir, ncpu = sys.argv[1], int(sys.argv[2])
pcs = [int(x, 16) for x in sys.argv[3].split(',')]
sat = '--sat' in sys.argv[4:]
ROUNDS = 50


def rec(pc, store, va, pa, lat, ds, ts):
    r = bytes([0xb0]) + struct.pack('<Q', pc | (1 << 63))
    r += bytes([0x65]) + struct.pack('<I', 77)
    r += bytes([0x49, 0x01 if store else 0x00])
    ev = 0x2 | 0x4 | (0x8 if ds == 0x9 else 0)
    r += bytes([0x52]) + struct.pack('<H', ev)
    r += bytes([0x98]) + struct.pack('<H', lat)
    r += bytes([0x99]) + struct.pack('<H', 5)
    r += bytes([0xb2]) + struct.pack('<Q', va)
    if pa is not None:
        r += bytes([0xb3]) + struct.pack('<Q', pa)
    if not store:
        r += bytes([0x43, ds])
    r += bytes([0x71]) + struct.pack('<Q', ts)
    return r


for k in range(ncpu):
    out = bytearray()
    ts = 1000000 + k
    for i in range(ROUNDS):
        def both(pc, va, pa, ds):
            global ts
            for store in (True, False):
                ts += 10
                out.extend(rec(pc, store, va, pa, 100 + 10 * k if store else 200 + k,
                               ds, ts))
        both(pcs[k % 4], 0x7fff00001000 + 8 * k, 0x80001000 + 8 * k, 0x9 if i % 2 else 0x0)
        both(pcs[4], 0x7fff00002000, 0x80002000, 0x9)
        ts += 10
        out.extend(rec(pcs[5], False, 0x7fff00003020, 0x80003020, 200 + k, 0x9, ts))
        both(pcs[4], 0x7fff00004030, None, 0x0)
        both(pcs[5], 0x7fff00100000 + 0x1000 * k, 0x81000000 + 0x1000 * k, 0x0)
        if sat:
            for store in (True, False):
                ts += 10
                out.extend(rec(pcs[4], store, 0x7fff00005010, 0x80005010,
                               4095 if store else 9, 0x0, ts))
    open(os.path.join(outdir, 'cpu%d.bin' % k), 'wb').write(bytes(out))
