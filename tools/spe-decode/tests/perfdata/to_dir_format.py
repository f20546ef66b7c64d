#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Rewrite a perf.data file as the directory format `perf record --threads`
writes, for the tests: DIR/data holds the header, the attributes, every
record but AUXTRACE and the features (with a DIR_FORMAT feature, without
the HEADER_AUXTRACE index); DIR/data.N holds the AUXTRACE records (with
their data) of CPU N, as the record threads write them.

usage: to_dir_format.py IN.data OUT_DIR
"""
import os
import struct
import sys

FEAT_AUXTRACE, FEAT_DIR_FORMAT, RECORD_AUXTRACE = 18, 24, 71

src, out = sys.argv[1:]
d = open(src, 'rb').read()
doff, dsize = struct.unpack_from('<QQ', d, 40)
feats = list(struct.unpack_from('<4Q', d, 72))
main, per_cpu = bytearray(), {}
pos = doff
while pos < doff + dsize:
    t, _, sz = struct.unpack_from('<IHH', d, pos)
    end = pos + sz
    if t == RECORD_AUXTRACE:
        end += struct.unpack_from('<Q', d, pos + 8)[0]
        cpu = struct.unpack_from('<I', d, pos + 40)[0]
        per_cpu.setdefault(cpu, bytearray()).extend(d[pos:end])
    else:
        main.extend(d[pos:end])
    pos = end

# Feature sections: keep all but the AUXTRACE index, add DIR_FORMAT (u64 1).
index = doff + dsize
sections, nth = [], 0
for f in range(256):
    if feats[f // 64] >> (f % 64) & 1:
        o, s = struct.unpack_from('<QQ', d, index + 16 * nth)
        nth += 1
        if f != FEAT_AUXTRACE:
            sections.append((f, d[o:o + s]))
sections.append((FEAT_DIR_FORMAT, struct.pack('<Q', 1)))
sections.sort()
feats = [0, 0, 0, 0]
for f, _ in sections:
    feats[f // 64] |= 1 << (f % 64)

head = bytearray(d[:doff])
struct.pack_into('<QQ', head, 40, doff, len(main))
struct.pack_into('<4Q', head, 72, *feats)
index = doff + len(main)
body, at = bytearray(), index + 16 * len(sections)
idx = bytearray()
for f, blob in sections:
    idx += struct.pack('<QQ', at + len(body), len(blob))
    body += blob
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, 'data'), 'wb') as fh:
    fh.write(head + main + idx + body)
for cpu, blob in per_cpu.items():
    with open(os.path.join(out, 'data.%d' % cpu), 'wb') as fh:
        fh.write(blob)
