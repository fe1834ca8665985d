#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the seed corpora of the libFuzzer harnesses (test/fuzz/corpus/<harness>/<name>).

Each seed is a small valid input built here field by field, as the module's own Serialize()
lays it out (the header comments give the layouts). Run it after changing a seed; the files
are committed. Regression inputs (crash-*) that the fuzzers found are committed beside the
seeds by hand and are never written or removed by this script.

    python3 test/fuzz/make-corpus.py
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def put(harness, name, data):
    d = os.path.join(HERE, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def pfc(opcode, vector, quanta):
    return struct.pack(">HH8H", opcode, vector, *quanta)


def dot1q(pcp, dei, vid, inner):
    return struct.pack(">HH", (pcp << 13) | (dei << 12) | vid, inner)


def bth(opcode, dqp, psn, se=0, mig=0, pad=0, tver=0, pkey=0xFFFF, resv8=0, ackreq=0, resv7=0):
    flags = (se << 7) | (mig << 6) | (pad << 4) | tver
    return struct.pack(">BBHII", opcode, flags, pkey, (resv8 << 24) | dqp,
                       (((ackreq << 7) | resv7) << 24) | psn)


def reth(va, rkey, length):
    return struct.pack(">QII", va, rkey, length)


def aeth(syndrome, msn):
    return struct.pack(">I", (syndrome << 24) | msn)


def ipv4(payload_len, dscp_ecn=0x02, ttl=64, proto=17, options=b""):
    ihl = 5 + len(options) // 4
    h = struct.pack(">BBHHHBBH4s4s", 0x40 | ihl, dscp_ecn, 4 * ihl + payload_len, 0, 0x4000,
                    ttl, proto, 0, bytes([10, 0, 0, 1]), bytes([10, 0, 1, 2])) + options
    s = sum(struct.unpack(">%dH" % (len(h) // 2), h))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return h[:10] + struct.pack(">H", ~s & 0xFFFF) + h[12:]


def udp(payload_len, sport=49152, dport=4791):
    return struct.pack(">HHHH", sport, dport, 8 + payload_len, 0)


def roce_packet(transport):
    """IPv4 / UDP 4791 / transport headers and payload / correct ICRC (IBTA Annex A17.3.3)."""
    body_len = len(transport) + 4
    ip = ipv4(8 + body_len)
    pkt = bytearray(ip + udp(body_len) + transport)
    masked = bytearray(pkt)
    masked[1] = 0xFF  # TOS
    masked[8] = 0xFF  # TTL
    masked[10:12] = b"\xff\xff"  # IPv4 checksum
    masked[20 + 6:20 + 8] = b"\xff\xff"  # UDP checksum
    masked[20 + 8 + 4] = 0xFF  # BTH FECN, BECN, resv6
    icrc = zlib.crc32(b"\xff" * 8 + bytes(masked)) & 0xFFFFFFFF
    return bytes(pkt) + struct.pack("<I", icrc)


def ethernet(ethertype, vlan=None):
    h = bytes.fromhex("020000000002" "020000000001")  # destination, source
    if vlan is not None:
        h += struct.pack(">H", 0x8100) + vlan
    return h + struct.pack(">H", ethertype)


WRITE_ONLY, SEND_ONLY_IMM, READ_REQ, ACK, CNP = 0x0A, 0x05, 0x0C, 0x11, 0x81

put("pfc-header-fuzz", "pause-p3", pfc(0x0101, 0x0008, [0, 0, 0, 0xFFFF, 0, 0, 0, 0]))
put("pfc-header-fuzz", "xon-p3", pfc(0x0101, 0x0008, [0] * 8))
put("pfc-header-fuzz", "all-priorities", pfc(0x0101, 0x00FF, [1, 2, 3, 4, 5, 6, 7, 8]))
put("pfc-header-fuzz", "pause-802.3x", pfc(0x0001, 0xFFFF, [0] * 8))

put("pfc-dot1q-header-fuzz", "pcp3-ipv4", dot1q(3, 0, 0, 0x0800))
put("pfc-dot1q-header-fuzz", "pcp7-dei-vid4095", dot1q(7, 1, 4095, 0x8808))

put("roce-bth-header-fuzz", "write-only", bth(WRITE_ONLY, 0x000123, 0x000456, ackreq=1))
put("roce-bth-header-fuzz", "send-only-imm-pad", bth(SEND_ONLY_IMM, 0xFFFFFF, 0xFFFFFF, pad=3))
put("roce-bth-header-fuzz", "cnp-becn", bth(CNP, 0x000042, 0, resv8=0x40))
put("roce-bth-header-fuzz", "ack-flags", bth(ACK, 7, 9, se=1, mig=1, tver=15, resv7=0x7F))

put("roce-reth-header-fuzz", "write-64k", reth(0x00007F0000001000, 0x1234, 65536))
put("roce-reth-header-fuzz", "max-length", reth(0xFFFFFFFFFFFFFFFF, 0xFFFFFFFF, 0x80000000))
put("roce-reth-header-fuzz", "too-long", reth(0, 0, 0xFFFFFFFF))

put("roce-aeth-header-fuzz", "ack-no-credit", aeth(0x1F, 5))
put("roce-aeth-header-fuzz", "nak-psn-sequence", aeth(0x60, 0xFFFFFF))
put("roce-aeth-header-fuzz", "rnr-nak", aeth(0x2E, 1))
put("roce-aeth-header-fuzz", "reserved-type", aeth(0x40, 0))

put("roce-immdt-header-fuzz", "immediate", struct.pack(">I", 0xDEADBEEF))

put("roce-cnp-header-fuzz", "zeros", bytes(16))
put("roce-cnp-header-fuzz", "nonconforming", bytes(range(1, 17)))

write_pkt = roce_packet(bth(WRITE_ONLY, 0x000123, 7, ackreq=1) + reth(0x1000, 0x55, 16)
                        + bytes(range(16)))
cnp_pkt = roce_packet(bth(CNP, 0x000042, 0, resv8=0x40) + bytes(16))
put("roce-icrc-trailer-fuzz", "write-only-packet", write_pkt)
put("roce-icrc-trailer-fuzz", "cnp-packet", cnp_pkt)
put("roce-icrc-trailer-fuzz", "trailer-only", struct.pack("<I", 0x12345678))

eth_vlan = ethernet(0x0800, dot1q(3, 0, 0, 0x0800)[:2])
put("fabric-wire-header-fuzz", "ethernet-vlan-roce", b"\x00" + eth_vlan + write_pkt[:20 + 8 + 12])
put("fabric-wire-header-fuzz", "ipv4-roce", b"\x01" + write_pkt[:20 + 8 + 12 + 16])
put("fabric-wire-header-fuzz", "ethernet-pfc", b"\x00" + ethernet(0x8808))
put("fabric-wire-header-fuzz", "ipv4-options-tcp",
    b"\x01" + ipv4(20, proto=6, options=b"\x01\x01\x01\x00") + bytes(20))

put("switch-flow-key-fuzz", "roce-write", write_pkt)
put("switch-flow-key-fuzz", "roce-cnp", cnp_pkt)
put("switch-flow-key-fuzz", "udp-other-port", ipv4(8 + 4, ttl=1) + udp(4, dport=53) + bytes(4))
put("switch-flow-key-fuzz", "ipv4-options-tcp", ipv4(20, proto=6, options=b"\x01" * 8) + bytes(20))

NCCL_HEADER = (
    "# nThread 1 nGpus 1 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20\n"
    "#\n"
    "# Using devices\n"
    "#  Rank  0 Group  0 Pid   1000 on      node0 device  0 [0000:04:00] GPU\n"
    "NCCL version 2.26.2+cuda12.8\n"
    "#\n"
    "#                                                              out-of-place"
    "                       in-place          \n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong"
    "     time   algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)       "
    "     (us)  (GB/s)  (GB/s)       \n"
)
put("nccl-tests-format-fuzz", "all-reduce",
    NCCL_HEADER
    + "           8             2     float     sum      -1    83.42    0.00    0.00      0"
      "    34.75    0.00    0.00      0\n"
    + "     1048576        262144     float     sum      -1   3109.0  172.68  334.58      0"
      "   3111.7  172.53  334.28      0\n"
    + "  8589934592    2147483648     float     sum      -1    45606  188.35  364.93      0"
      "    45573  188.49  365.19      0\n"
    + "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 107.51 \n")
put("nccl-tests-format-fuzz", "all-gather-na-crlf",
    "NCCL version 2.26\r\n\r\n"
    "        1024            32     float    none       0    12.50    0.08    0.07    N/A"
    "    12.40    0.08    0.07    N/A\r\n")
put("nccl-tests-format-fuzz", "bad-row", "# header\n 8 2 float sum -1 1.0 x 0 0 1 0 0 0\n")
