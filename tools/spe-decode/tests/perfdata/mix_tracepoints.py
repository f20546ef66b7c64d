#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Make a perf.data holding both arm_spe AUX data and tracepoint samples.

usage: mix_tracepoints.py [--no-samples] SPE.data TP.data T0 T1 OUT.data

  SPE.data: a recording with arm_spe AUX data (spe-decode wrap's output).
  TP.data:  a tracepoint recording of this host (perf record -e sched:...).
  OUT.data gets the events (attributes) of both, the records of both, and
  SPE.data's feature sections with TP.data's TRACING_DATA (the tracepoints'
  formats) and an EVENT_DESC naming every event, as perf record writes for
  `perf record -e arm_spe// -e sched:sched_switch ...`.  The tracepoint
  records' times (sample time and sample_id_all trailer) are mapped
  linearly onto T0..T1 (ns, the SPE samples' first and last times), so the
  two kinds of samples interleave.  The SPE part's FINISHED_ROUND records
  are dropped (the whole file is one round: perf sorts it all), and its
  HEADER_AUXTRACE index is moved with the records it points to.
  --no-samples leaves the tracepoint samples out and keeps all else: what
  a reader that ignores them should see the same as OUT.data.

Layouts: perf.data-file-format.txt (perf's Documentation).
"""
import struct
import sys

HEADER_SIZE = 104
TRACING_DATA, EVENT_DESC, AUXTRACE = 1, 12, 18
FINISHED_ROUND, AUXTRACE_REC = 68, 71
PERF_RECORD_SAMPLE = 9
SAMPLE_TIME = 1 << 2
SAMPLE_IDENTIFIER = 1 << 16
NAME_ALIGN = 64


class PerfData:
    def __init__(self, path):
        self.b = open(path, 'rb').read()
        b = self.b
        magic, size, self.attr_size = struct.unpack_from('<QQQ', b, 0)
        if magic != 0x32454c4946524550 or size != HEADER_SIZE:
            sys.exit(f'{path}: not a perf.data file')
        aoff, asz, self.doff, self.dsz = struct.unpack_from('<QQQQ', b, 24)
        self.features = struct.unpack_from('<4Q', b, 72)
        self.attrs = []  # (attr bytes, ids)
        for pos in range(aoff, aoff + asz, self.attr_size):
            attr = b[pos:pos + self.attr_size - 16]
            ioff, isz = struct.unpack_from('<QQ', b, pos + self.attr_size - 16)
            ids = list(struct.unpack_from(f'<{isz // 8}Q', b, ioff))
            self.attrs.append((attr, ids))
        self.sections = {}
        pos = self.doff + self.dsz
        for bit in range(256):
            if self.features[bit // 64] >> (bit % 64) & 1:
                off, sz = struct.unpack_from('<QQ', b, pos)
                self.sections[bit] = b[off:off + sz]
                pos += 16
        self.names = self.event_names()

    def event_names(self):
        """id -> event name, from EVENT_DESC."""
        names = {}
        d = self.sections.get(EVENT_DESC)
        if not d:
            return names
        nr, sz = struct.unpack_from('<II', d, 0)
        pos = 8
        for _ in range(nr):
            pos += sz
            nids, slen = struct.unpack_from('<II', d, pos)
            pos += 8
            name = d[pos:pos + slen].split(b'\0')[0].decode()
            pos += slen
            for i in struct.unpack_from(f'<{nids}Q', d, pos):
                names[i] = name
            pos += 8 * nids
        return names

    def records(self):
        """(offset, type, bytes) of each record, AUXTRACE data included."""
        b, pos, end = self.b, self.doff, self.doff + self.dsz
        while pos < end:
            t, _misc, sz = struct.unpack_from('<IHH', b, pos)
            if sz < 8:
                sys.exit(f'bad record at {pos:#x}')
            n = sz
            if t == AUXTRACE_REC:
                n += struct.unpack_from('<Q', b, pos + 8)[0]
            yield pos, t, b[pos:pos + n]
            pos += n


def sample_type(attr):
    return struct.unpack_from('<Q', attr, 24)[0]


def time_pos(rec, types):
    """Byte offset of the time in a record of TP.data, or None."""
    t = struct.unpack_from('<I', rec, 0)[0]
    if t == PERF_RECORD_SAMPLE:
        ident = struct.unpack_from('<Q', rec, 8)[0]
        st = types[ident]
        pos = 8 + 8  # header, IDENTIFIER
        pos += 8 if st & 1 else 0  # IP
        pos += 8 if st & 2 else 0  # TID
        return pos if st & SAMPLE_TIME else None
    if t >= 64:
        return None
    # sample_id_all trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER
    ident = struct.unpack_from('<Q', rec, len(rec) - 8)[0]
    st = types.get(ident)
    if st is None or not st & SAMPLE_TIME:
        return None
    n = 8  # IDENTIFIER
    n += 8 if st & (1 << 7) else 0  # CPU
    n += 8 if st & (1 << 9) else 0  # STREAM_ID
    n += 8 if st & (1 << 6) else 0  # ID
    return len(rec) - n - 8


def name_str(name):
    raw = name.encode() + b'\0'
    n = (len(raw) + NAME_ALIGN - 1) // NAME_ALIGN * NAME_ALIGN
    return struct.pack('<I', n) + raw.ljust(n, b'\0')


def main():
    args = sys.argv[1:]
    no_samples = args[0] == '--no-samples'
    spe_path, tp_path, t0, t1, out = args[1:] if no_samples else args
    t0, t1 = int(t0), int(t1)
    spe, tp = PerfData(spe_path), PerfData(tp_path)
    if spe.attr_size != tp.attr_size:
        sys.exit('attribute sizes differ: record both with the same perf')
    if TRACING_DATA not in tp.sections:
        sys.exit(f'{tp_path}: no TRACING_DATA (not a tracepoint recording)')
    attrs = spe.attrs + tp.attrs
    ids = [i for _, l in attrs for i in l]
    if len(ids) != len(set(ids)):
        sys.exit('event ids of the two files collide')
    for a, _ in attrs:
        if not sample_type(a) & SAMPLE_IDENTIFIER:
            sys.exit('an event without PERF_SAMPLE_IDENTIFIER: perf could not tell them apart')
    types = {i: sample_type(a) for a, l in tp.attrs for i in l}

    # The tracepoint records, their times mapped onto t0..t1 (0 stays 0:
    # perf's synthesised records carry no time).
    tp_recs = []
    for _off, t, rec in tp.records():
        if t >= 64:
            continue  # perf's own records (rounds, maps, index)
        if no_samples and t == PERF_RECORD_SAMPLE:
            continue
        tp_recs.append((bytearray(rec), time_pos(rec, types)))
    times = [struct.unpack_from('<Q', r, p)[0] for r, p in tp_recs if p is not None]
    times = [x for x in times if x]
    lo, hi = min(times), max(times)
    for r, p in tp_recs:
        if p is None:
            continue
        x = struct.unpack_from('<Q', r, p)[0]
        if x:
            struct.pack_into('<Q', r, p, t0 + (x - lo) * (t1 - t0) // max(hi - lo, 1))

    # Layout: header, id arrays, attributes, data, feature table, features.
    blob = bytearray(HEADER_SIZE)
    id_at = []
    for _, l in attrs:
        id_at.append((len(blob), 8 * len(l)))
        blob += struct.pack(f'<{len(l)}Q', *l)
    attr_off = len(blob)
    for (a, _), (o, n) in zip(attrs, id_at):
        blob += a + struct.pack('<QQ', o, n)
    data_off = len(blob)
    # The tracepoint recording's records without a time (what perf
    # synthesised for the threads already running) first, as in a
    # recording of both: they precede every timed record.
    untimed = [r for r, p in tp_recs if p is None or not struct.unpack_from('<Q', r, p)[0]]
    timed = [r for r, p in tp_recs if p is not None and struct.unpack_from('<Q', r, p)[0]]
    for r in untimed:
        blob += r
    moved = {}
    for off, t, rec in spe.records():
        if t == FINISHED_ROUND:
            continue
        moved[off] = len(blob)
        blob += rec
    for r in timed:
        blob += r
    data_size = len(blob) - data_off

    sections = dict(spe.sections)
    sections[TRACING_DATA] = tp.sections[TRACING_DATA]
    desc = struct.pack('<II', len(attrs), spe.attr_size - 16)
    for a, l in attrs:
        name = spe.names.get(l[0]) or tp.names.get(l[0]) or 'unknown'
        desc += a + struct.pack('<I', len(l)) + name_str(name) + struct.pack(f'<{len(l)}Q', *l)
    sections[EVENT_DESC] = desc
    if AUXTRACE in sections:
        d = bytearray(sections[AUXTRACE])
        nr = struct.unpack_from('<Q', d, 0)[0]
        for i in range(nr):
            off = struct.unpack_from('<Q', d, 8 + 16 * i)[0]
            struct.pack_into('<Q', d, 8 + 16 * i, moved[off])
        sections[AUXTRACE] = bytes(d)
    bits = sorted(sections)
    table_off = len(blob)
    blob += bytes(16 * len(bits))
    for k, bit in enumerate(bits):
        struct.pack_into('<QQ', blob, table_off + 16 * k, len(blob), len(sections[bit]))
        blob += sections[bit]
    feats = [0, 0, 0, 0]
    for bit in bits:
        feats[bit // 64] |= 1 << (bit % 64)
    struct.pack_into('<QQQ', blob, 0, 0x32454c4946524550, HEADER_SIZE, spe.attr_size)
    struct.pack_into('<QQQQQQ', blob, 24, attr_off, len(blob[attr_off:data_off]), data_off,
                     data_size, 0, 0)
    struct.pack_into('<4Q', blob, 72, *feats)
    open(out, 'wb').write(blob)


main()
