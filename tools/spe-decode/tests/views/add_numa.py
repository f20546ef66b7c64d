#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Add a NUMA topology header feature (one node holding CPUs 0..N-1) to a
perf.data, which 'perf c2c report' needs before it reads any sample.

usage: add_numa.py IN OUT      (N: the available CPUs of its NRCPUS feature)

The file layout (perf's tools/perf/Documentation/perf.data-file-format.txt):
the header's feature bitmap says which features follow the data section;
after the data comes one {offset, size} section per set bit, ascending,
then their contents.  This rewrites that tail with the feature added."""
import struct
import sys

NUMA = 14


def perf_str(s):
    b = s.encode() + b'\0'
    b += bytes(-len(b) % 64)
    return struct.pack('<I', len(b)) + b


src, dst = sys.argv[1], sys.argv[2]
d = bytearray(open(src, 'rb').read())
data_off, data_size = struct.unpack_from('<QQ', d, 40)
bits = int.from_bytes(d[72:104], 'little')
tail = data_off + data_size
feats = [f for f in range(256) if bits >> f & 1]
content = {}
for i, f in enumerate(feats):
    off, size = struct.unpack_from('<QQ', d, tail + 16 * i)
    content[f] = bytes(d[off:off + size])
ncpu = struct.unpack_from('<I', content[7])[0] if 7 in content else 1
content[NUMA] = (struct.pack('<I', 1) + struct.pack('<IQQ', 0, 1 << 30, 1 << 29) +
                 perf_str('0-%d' % (ncpu - 1) if ncpu > 1 else '0'))
bits |= 1 << NUMA
feats = sorted(content)
out = bytearray(d[:tail])
out[72:104] = bits.to_bytes(32, 'little')
pos = tail + 16 * len(feats)
index, body = bytearray(), bytearray()
for f in feats:
    index += struct.pack('<QQ', pos + len(body), len(content[f]))
    body += content[f]
open(dst, 'wb').write(out + index + body)
