#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the seed corpus of the wire parsers' fuzz targets: a few small valid messages each.

The bytes are packed here from the layouts the headers document, not by the C++ code, so a
seed is also a check that the two agree (the targets refuse nothing valid silently: each seed
that parses must serialize back to itself).

    make-corpus.py DIR          write DIR/<target>/<seed>
    make-corpus.py --check DIR  fail unless DIR holds exactly these bytes for these seeds
                                (other files, such as regression inputs, are left alone)
"""

import pathlib
import struct
import sys

# KvTransferHeader: 36 bytes.
KV_MAGIC, KV_VERSION = 0x4B56, 3
BEGIN, TOKENS, DATA, END, CANCEL, OPEN, SEAL = range(1, 8)
TOKEN, ENTRY = 0, 1


def kv(kind, imsi, epoch, unit, first, count, payload):
    return struct.pack(">HBBB3xQIIIQ", KV_MAGIC, KV_VERSION, kind, unit, imsi, epoch, first,
                       count, payload)


def kv_message(kind, imsi, epoch, unit, first, count, payload):
    """A header and, but for BEGIN, the payload bytes behind it in the stream."""
    return kv(kind, imsi, epoch, unit, first, count, payload) + (
        b"" if kind == BEGIN else bytes(payload))


def cuts(*points):
    """The stream target's prefix: how many cut points, then each as 16 bits."""
    return bytes([len(points)]) + b"".join(struct.pack(">H", p) for p in points)


# Uplink and downlink: magic 0xED11, version 1; relay: magic 0xED12, version 1.
def uplink(kind, seq, imsi, body):
    return struct.pack(">HBBIQ", 0xED11, 1, kind, seq, imsi) + body


def downlink(kind, imsi, cell, port, address, body):
    return struct.pack(">HBBQHHI", 0xED11, 1, kind, imsi, cell, port, address) + body


def tokens(flags, first, times):
    return struct.pack(">BBHI", flags, 0, len(times), first) + b"".join(
        struct.pack(">q", t) for t in times)


def relay(imsi, address, port):
    return struct.pack(">HBBQIHH", 0xED12, 1, 0, imsi, address, port, 0)


# ControlMessage: a 40-byte head, magic 0x4350, version 1, then 16-byte items.
NOTICE, PLAN, RESERVE, RESERVE_ANSWER, PREFILL_REQUEST = range(1, 6)
WINDOW_END, RELEASE = 12, 13


def control(kind, code, src, about, seq, imsi, value, sent, items=()):
    return struct.pack(">HBBBBHHHIQQq", 0x4350, 1, kind, code, 0, src, about, len(items), seq,
                       imsi, value, sent) + b"".join(
        struct.pack(">QII", i, e, v) for i, e, v in items)


SERVER = 0x0A010001  # 10.1.0.1
UE = 0x07000002      # 7.0.0.2

SEEDS = {
    "kv-transfer-header": {
        "begin": kv(BEGIN, 5, 2, TOKEN, 0, 10, 100),
        "tokens": kv(TOKENS, 5, 2, TOKEN, 0, 3, 12),
        "data-entry": kv(DATA, 5, 2, ENTRY, 4, 6, 60),
        "end": kv(END, 5, 2, TOKEN, 0, 0, 0),
        "cancel-replan": kv(CANCEL, 5, 2, TOKEN, 3, 0, 0),
        "open": kv(OPEN, 1, 0, TOKEN, 0, 0, 0),
        "seal": kv(SEAL, 1, 0, TOKEN, 0, 0, 0),
    },
    "kv-transfer-stream": {
        "transfer": cuts(7, 40) + kv_message(BEGIN, 5, 2, TOKEN, 0, 10, 100)
        + kv_message(DATA, 5, 2, TOKEN, 0, 4, 40) + kv_message(DATA, 5, 2, TOKEN, 4, 6, 60)
        + kv_message(END, 5, 2, TOKEN, 0, 0, 0),
        "open-tokens-seal": cuts(36) + kv_message(OPEN, 3, 1, TOKEN, 0, 0, 0)
        + kv_message(TOKENS, 3, 1, TOKEN, 0, 2, 8) + kv_message(BEGIN, 3, 1, ENTRY, 0, 2, 6)
        + kv_message(SEAL, 3, 1, TOKEN, 0, 0, 0) + kv_message(DATA, 3, 1, ENTRY, 0, 2, 6),
        "garbage-after-cancel": cuts() + kv_message(CANCEL, 4, 0, TOKEN, 1, 0, 0)
        + b"\x4b\x56\x02" + bytes(40),
        # A payload longer than a TCP segment of the stream target's cuts, then a message.
        "long-payload": cuts(700) + kv_message(BEGIN, 2, 0, ENTRY, 0, 3, 1200)
        + kv_message(DATA, 2, 0, ENTRY, 0, 3, 1200) + kv_message(END, 2, 0, TOKEN, 0, 0, 0),
        "unfinished-header": cuts(10) + kv_message(END, 4, 0, TOKEN, 0, 0, 0) + kv(END, 4, 1,
                                                                                   TOKEN, 0, 0, 0)[:20],
    },
    "uplink-header": {
        "open-session": uplink(16, 0, 9, struct.pack(">IIq", 128, 64, 1000000)),
        "nack": uplink(17, 4, 9, struct.pack(">IHHIIII", 3, 2, 0, 5, 2, 10, 1)),
        "ack": uplink(18, 5, 9, struct.pack(">I", 64)),
    },
    "downlink-header": {
        "tokens": downlink(1, 9, 2, 5000, SERVER, tokens(0, 0, [1000, 2000, 2000])),
        "tokens-marked": downlink(1, 9, 3, 5000, SERVER, tokens(3, 7, [9000])),
        "rejected": downlink(2, 9, 2, 5000, SERVER, struct.pack(">B3xI", 2, 0)),
    },
    "control-stream": {
        "reserve-answer": cuts(20) + control(RESERVE, 0, 1, 2, 0, 5, 0, 1000, [(5, 900, 100)])
        + control(RESERVE_ANSWER, 1, 2, 2, 0, 5, 4096, 2000, [(5, 0, 1500)]),
        "notice-size-release": cuts(44, 60) + control(NOTICE, 0, 1, 2, 2, 6, 0, 0,
                                                      [(6, 1200, 80)])
        + control(RELEASE, 0, 1, 2, 2, 6, 0, 400),
        "notice-plan": cuts(3, 41) + control(NOTICE, 0, 1, 2, 1, 7, 0, 0)
        + control(PLAN, 0, 2, 2, 1, 7, 0, 500),
        "prefill-batch": cuts(50) + control(PREFILL_REQUEST, 0, 1, 2, 3, 5, 0, 10,
                                            [(5, 3, 1500), (6, 1, 900)]),
        "plan-report": cuts(56, 60) + control(PLAN, 0, 65535, 2, 2, 7, 4096, 700,
                                              [(7, 2, 250)]),
        "window-end": cuts(17) + control(WINDOW_END, 0, 1, 2, 3, 5, 0, 900),
        "failed-then-garbage": cuts() + control(NOTICE, 2, 1, 1, 4, 9, 3, 0)
        + b"\x43\x50\x02" + bytes(40),
    },
    "relay-header": {
        "relay": relay(9, UE, 49153),
        "relay-tokens": relay(9, UE, 49153) + downlink(1, 9, 2, 5000, SERVER,
                                                       tokens(1, 0, [5])),
    },
}


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 1:
        sys.exit(__doc__)
    root = pathlib.Path(args[0])
    stale = []
    for target, seeds in SEEDS.items():
        for name, data in seeds.items():
            path = root / target / name
            if check:
                if not path.is_file() or path.read_bytes() != data:
                    stale.append(str(path))
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    if stale:
        sys.exit("seed corpus out of date (run test/fuzz/make-corpus.py " + str(root) + "): "
                 + ", ".join(stale))


if __name__ == "__main__":
    main(sys.argv[1:])
