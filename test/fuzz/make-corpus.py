#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the seed corpora of the libFuzzer harnesses (test/fuzz/corpus/<harness>/<name>).

Each seed is a small valid input built here field by field, as the module's own Serialize()
lays it out (the header comments give the layouts). Run it after changing a seed; the files
are committed. Regression inputs (regression-*) that the fuzzers found are committed beside the
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

# Workload files: flow-size CDFs (flow-size-cdf-fuzz) and flow lists (flow-list-fuzz).
put("flow-size-cdf-fuzz", "websearch-like",
    "0 0\n10000 15\n20000 20\n50000 40\n1000000 70\n30000000 100\n")
put("flow-size-cdf-fuzz", "atom-comments-crlf",
    "# sizes in bytes\r\n1000 40\r\n\r\n2000\t60.5\r\n1e4 100\r\n")
put("flow-size-cdf-fuzz", "flat-stretches", "0 0\n50 0\n100 50\n200 50\n300 100\n400 100\n")
put("flow-size-cdf-fuzz", "bad-not-ascending", "0 0\n300 20\n300 40\n500 100\n")
put("flow-size-cdf-fuzz", "bad-last-not-100", "0 0\n100 50\n200 99.9\n")
put("flow-list-fuzz", "poisson-like",
    "# ai-fabric flow list: src dst size_bytes start_ns\n0 5 12000 13\n3 1 4500000 13\n"
    "7 2 800 250.5\n1 0 64 1000.125\n")
put("flow-list-fuzz", "incast-crlf-tabs",
    "1 0 65536 0\r\n2\t0\t65536\t0\r\n\r\n# round 2\r\n3 0 65536 100000.0004\r\n")
put("flow-list-fuzz", "large-values", "4294967294 0 18446744073709551615 9000000000000000\n")
put("flow-list-fuzz", "bad-out-of-order", "0 1 100 50\n2 3 100 49.999\n")
put("flow-list-fuzz", "bad-self", "0 1 100 0\n4 4 100 5\n")

# Ultra Ethernet (UET): PDS headers (uet-pds-header-fuzz: the PDS header alone) and SES headers
# (uet-ses-header-fuzz: one byte, the PDS next-header code announcing the SES header, then it).
RUD_REQ, ROD_REQ, RUDI_REQ, RUDI_RESP, UUD_REQ, UACK, ACK_CC, ACK_CCX = 2, 3, 4, 5, 6, 7, 8, 9
NACK, CTRL, NACK_CCX, RUD_CC_REQ, ROD_CC_REQ = 10, 11, 12, 13, 14
NH_NONE, NH_REQUEST_SMALL, NH_REQUEST_STD, NH_RESPONSE, NH_RESPONSE_DATA = 0, 1, 3, 4, 5
RETX, AR, SYN, FLAG_M, FLAG_P, FLAG_NT = 0x10, 0x08, 0x04, 0x20, 0x08, 0x08


def pds_prologue(ptype, nh, flags):
    return struct.pack(">H", (ptype << 11) | (nh << 7) | flags)


def pds_request(ptype, nh, flags, clear_off, psn, spdcid, dpdcid, ccc=None, credit=0):
    h = pds_prologue(ptype, nh, flags) + struct.pack(">hIHH", clear_off, psn, spdcid, dpdcid)
    if ccc is not None:
        h += struct.pack(">I", (ccc << 24) | credit)
    return h


def pds_ack_base(ptype, nh, flags, ack_off, cack, spdcid, dpdcid):
    return pds_prologue(ptype, nh, flags) + struct.pack(">hIHH", ack_off, cack, spdcid, dpdcid)


def pds_sack(cc_type, cc_flags, mpr, sack_off, bitmap):
    return struct.pack(">BBhQ", (cc_type << 4) | cc_flags, mpr, sack_off, bitmap)


PDS = "uet-pds-header-fuzz"
put(PDS, "rud-req-std", pds_request(RUD_REQ, NH_REQUEST_STD, AR, -3, 1000, 0x11, 0x22))
put(PDS, "rod-req-syn", pds_request(ROD_REQ, NH_REQUEST_SMALL, SYN | RETX, 0, 0xFFFFFFFF, 1,
                                    (0x8 << 12) | 0x123))
put(PDS, "rud-cc-req", pds_request(RUD_CC_REQ, NH_REQUEST_STD, 0, 5, 7, 2, 3, 0x42, 0x123456))
put(PDS, "rod-cc-req-reserved-flags",
    pds_request(ROD_CC_REQ, NH_NONE, 0x63, -32768, 0x80000000, 0xFFFF, 0, 0xFF, 0xFFFFFF))
put(PDS, "rudi-req", pds_prologue(RUDI_REQ, NH_REQUEST_SMALL, RETX) + struct.pack(">HI", 0, 77))
put(PDS, "rudi-resp-reserved",
    pds_prologue(RUDI_RESP, NH_RESPONSE, FLAG_M | 0x0F) + struct.pack(">HI", 0xBEEF, 77))
put(PDS, "uud-req", pds_prologue(UUD_REQ, NH_REQUEST_SMALL, 0) + bytes(2))
put(PDS, "uud-req-reserved", pds_prologue(UUD_REQ, NH_NONE, 0x7F) + b"\xff\xff")
put(PDS, "ack", pds_ack_base(UACK, NH_RESPONSE, FLAG_M | (1 << 1), 4, 1000, 0x22, 0x11))
put(PDS, "ack-probe", pds_ack_base(UACK, NH_NONE, FLAG_P, 0x7ABC, 5, 1, 2))
put(PDS, "ack-cc-nscc",
    pds_ack_base(ACK_CC, NH_NONE, 0, 0, 500, 3, 4) + pds_sack(0, 0, 64, 2, 0xF0F0F0F0F0F0F0F0)
    + struct.pack(">Q", (0x1234 << 48) | (1 << 47) | (0x55 << 40) | (0xABCDEF << 16) | 9))
put(PDS, "ack-cc-credit",
    pds_ack_base(ACK_CC, NH_RESPONSE, RETX, -1, 9, 3, 4) + pds_sack(1, 0xF, 255, -5, 1)
    + struct.pack(">Q", (0x100000 << 40) | 0xFFFF))
put(PDS, "ack-ccx",
    pds_ack_base(ACK_CCX, NH_NONE, 0x06, 0, 0xFFFFFFFE, 7, 8) + pds_sack(2, 1, 32, 0, 0)
    + bytes(range(0xA0, 0xB0)))
put(PDS, "nack-trimmed", pds_prologue(NACK, NH_NONE, FLAG_M)
    + struct.pack(">BBIHHI", 0x01, 0, 1234, 5, 6, 1235))
put(PDS, "nack-rudi-exp", pds_prologue(NACK, NH_NONE, FLAG_NT | RETX | 0x47)
    + struct.pack(">BBIHHI", 0xFF, 0x99, 42, 5, 6, 0))
put(PDS, "ctrl-ack-req", pds_prologue(CTRL, 1, AR) + struct.pack(">HIHHI", 0, 10, 1, 2, 3))
put(PDS, "ctrl-probe-syn", pds_prologue(CTRL, 6, SYN) + struct.pack(">HIHHI", 0xABCD, 10, 1,
                                                                   (1 << 12) | 4, 10))
put(PDS, "ctrl-reserved-type", pds_prologue(CTRL, 15, 0x7F) + b"\xff" * 14)
put(PDS, "unmodelled-tss", pds_prologue(1, 0, 0) + bytes(14))
put(PDS, "unmodelled-nack-ccx", pds_prologue(NACK_CCX, 0, 0) + bytes(30))
put(PDS, "unmodelled-type-31", b"\xff" * 16)


def ses_req_common(opcode, version, flags, gen, job, pid, ri, rsvd=0):
    return (bytes([(rsvd << 6) | opcode, (version << 6) | flags]),
            struct.pack(">IHH", (gen << 24) | job, pid, ri))


def ses_std(opcode, flags, msg_id, gen, job, pid, ri, buf_off, initiator, key, hdr_data,
            req_len, version=0, rsvd=0):
    a, b = ses_req_common(opcode, version, flags, gen, job, pid, ri, rsvd)
    return a + struct.pack(">H", msg_id) + b + struct.pack(">QIQQI", buf_off, initiator, key,
                                                           hdr_data, req_len)


def ses_small(opcode, flags, req_len, gen, job, pid, ri, buf_off, version=0, rsvd=0):
    a, b = ses_req_common(opcode, version, flags, gen, job, pid, ri, rsvd)
    return a + struct.pack(">H", req_len) + b + struct.pack(">Q", buf_off)


def ses_resp(opcode, rc, msg_id, gen, job, mod_len, lst=0, version=0):
    return struct.pack(">BBHII", (lst << 6) | opcode, (version << 6) | rc, msg_id,
                       (gen << 24) | job, mod_len)


def ses_resp_data(opcode, rc, msg_id, job, rr_msg_id, pay_len, mod_len, msg_off, lst=0,
                  version=0, rsvd=0):
    return struct.pack(">BBHIHHII", (lst << 6) | opcode, (version << 6) | rc, msg_id,
                       (rsvd << 24) | job, rr_msg_id, pay_len, mod_len, msg_off)


SES = "uet-ses-header-fuzz"
SOM, EOM = 0x01, 0x02
put(SES, "std-write-som", bytes([NH_REQUEST_STD]) + ses_std(
    0x01, SOM, 7, 1, 0x123456, 0x0AB, 0x0CD, 0x1000, 3, 0x1122334455667788, 0xDEADBEEF, 65536))
put(SES, "std-send-middle", bytes([NH_REQUEST_STD]) + ses_std(
    0x05, 0, 7, 0, 1, 2, 3, 4096, 3, 0, (0x3FFF << 32) | 8192, 65536, version=1))
put(SES, "std-tagged-eom-reserved", bytes([NH_REQUEST_STD]) + ses_std(
    0x09, EOM | 0x3C, 0xFFFF, 0xFF, 0xFFFFFF, 0xFFFF, 0xFFFF, 0, 0, 0, (0x3FFFF << 46), 0,
    version=3, rsvd=3))
put(SES, "small-write", bytes([NH_REQUEST_SMALL]) + ses_small(
    0x01, SOM | EOM, 4096, 2, 0x000042, 5, 6, 0x2000))
put(SES, "small-reserved", bytes([NH_REQUEST_SMALL]) + ses_small(
    0x3F, 0x3F, 0xFFFF, 0xFF, 0xFFFFFF, 0xFFFF, 0xFFFF, 0xFFFFFFFFFFFFFFFF, version=3, rsvd=3))
put(SES, "response-ok", bytes([NH_RESPONSE]) + ses_resp(0x00, 0x01, 7, 1, 0x123456, 4096))
put(SES, "response-error", bytes([NH_RESPONSE]) + ses_resp(0x01, 0x24, 9, 0, 1, 0, 1, 2))
put(SES, "response-data", bytes([NH_RESPONSE_DATA]) + ses_resp_data(
    0x02, 0x01, 7, 0x42, 11, 4096, 4096, 8192))
put(SES, "response-data-other-opcode-reserved", bytes([NH_RESPONSE_DATA]) + ses_resp_data(
    0x3F, 0x3F, 0xFFFF, 0xFFFFFF, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 3, 3, 0xFF))
put(SES, "none", bytes([NH_NONE]))
put(SES, "unmodelled-medium", bytes([2]) + bytes(32))

# uet-nic-rx-fuzz: one received UET packet. Byte 0 says how it is delivered (bit 0 the NIC:
# 0 or 1, the source being the other host; bits 1-2 the path: 0 unicast frame, 1 broadcast
# frame, 2 / 3 UetNic::Deliver with the fewest / all header bytes; bit 3 PSN relative to the
# named PDC; bit 4 CE; bit 5 unknown source; bits 6-7 run 0, 1, 5 or 60 us after); byte 1 adds
# (bits 0-6) x 128 zero payload bytes, bit 7 cuts the receiving NIC's cable during the run; the
# rest is the UDP payload. The harness's simulation starts
# with, at each NIC, PDCID 1 its initiator PDC (host 0 RUD, host 1 ROD, JobID 7) and PDCID 2
# the target PDC of the other host's initiator; endpoint {JobID 7, PIDonFEP 0} with 4
# resources and memory key 0xabc (1 MiB); a READ (message_id 1) and a RUDI WRITE in flight.
RX = "uet-nic-rx-fuzz"
CTRL_ACK_REQ_T, CTRL_CLOSE_T, CTRL_CLOSE_REQ_T = 1, 4, 5
SES_WRITE, SES_READ, SES_SEND = 0x01, 0x02, 0x05


def rx_ctl(nic=1, path=0, rel=1, ce=0, stranger=0, run=1, pad=0, cut=0):
    return bytes([nic | (path << 1) | (rel << 3) | (ce << 4) | (stranger << 5) | (run << 6),
                  pad | (cut << 7)])


def syn_field(pdc_info, psn_offset):
    return (pdc_info << 12) | psn_offset


def write_ses(msg_id, req_len, opcode=SES_WRITE, flags=SOM | EOM, job=7, key=0xabc, off=0):
    return ses_std(opcode, flags, msg_id, 0, job, 0, 0, off, 0, key, 0, req_len)


def pds_ctrl(ctl_type, flags, psn, spdcid, dpdcid, payload=0):
    return pds_prologue(CTRL, ctl_type, flags) + struct.pack(">HIHHI", 0, psn, spdcid, dpdcid,
                                                            payload)


def pds_nack(code, psn, spdcid, dpdcid, flags=0, payload=0):
    return pds_prologue(NACK, NH_NONE, flags) + struct.pack(">BBIHHI", code, 0, psn, spdcid,
                                                           dpdcid, payload)


# RUD requests: a SYN opening a new PDC (an SPDCID the target does not know, absolute PSN), a
# SYN of the live initiator PDC 1 at psn_offset 3, and the next PSN of the open target PDC 2.
put(RX, "rud-syn-new-pdc", rx_ctl(rel=0) + pds_request(
    RUD_REQ, NH_REQUEST_STD, SYN | AR, 0, 5000, 5, syn_field(0, 0)) + write_ses(0, 16) + bytes(16))
put(RX, "rud-syn-live-pdc", rx_ctl() + pds_request(
    RUD_REQ, NH_REQUEST_STD, SYN, 0, 3, 1, syn_field(0, 3)) + write_ses(900, 8) + bytes(8))
put(RX, "rud-req", rx_ctl() + pds_request(RUD_REQ, NH_REQUEST_STD, AR, 0, 0, 1, 2)
    + write_ses(901, 32) + bytes(32))
put(RX, "rud-cc-req-send", rx_ctl(run=2) + pds_request(
    RUD_CC_REQ, NH_REQUEST_STD, 0, 0, 1, 1, 2, 0, 100) + write_ses(902, 100, SES_SEND) + bytes(4))
put(RX, "read-request", rx_ctl(run=2) + pds_request(RUD_REQ, NH_REQUEST_STD, AR, 0, 0, 1, 2)
    + write_ses(903, 2000, SES_READ, off=64))
# READ data (response with data) for host 0's READ (message_id 1) on its initiator PDC 1.
put(RX, "read-response-data", rx_ctl(nic=0, pad=8) + pds_request(
    RUD_REQ, NH_RESPONSE_DATA, AR, 0, 0, 2, 1) + ses_resp_data(0x02, 0x01, 1, 7, 1, 1024, 3000,
                                                               0))
# ACKs to host 1's initiator PDC 1 (ROD): the oldest PSN, and an ACK_CC whose SACK bitmap
# covers PSNs after a hole, with an SES response.
put(RX, "ack", rx_ctl() + pds_ack_base(UACK, NH_NONE, 0, 0, 0, 2, 1))
put(RX, "ack-response", rx_ctl() + pds_ack_base(UACK, NH_RESPONSE, 0, 0, 0, 2, 1)
    + ses_resp(0x00, 0x01, 0, 0, 7, 8192))
put(RX, "ack-cc-sack", rx_ctl() + pds_ack_base(ACK_CC, NH_NONE, 0, 0, 0xFFFFFFFF, 2, 1)
    + pds_sack(0, 0, 64, 2, 0b1011) + bytes(8))
put(RX, "ack-ccx", rx_ctl() + pds_ack_base(ACK_CCX, NH_NONE, 0, 0, 1, 2, 1)
    + pds_sack(2, 0, 64, 1, 0b11) + bytes(16))
# NACKs of each class to host 1's initiator PDC 1: retransmit (TRIMMED, PSN_OOR_WINDOW), go
# back (ROD_OOO), SYN retry (NO_PDC_AVAIL), close (INV_DPDCID, CLOSING), ignored
# (UNEXP_EVENT), and a RUDI NACK (NT, the JobID in its payload).
for name, code in (("trimmed", 0x01), ("psn-oor-window", 0x0B), ("rod-ooo", 0x0D),
                   ("no-pdc-avail", 0x04), ("inv-dpdcid", 0x0E), ("closing", 0x10),
                   ("unexp-event", 0x19)):
    put(RX, "nack-" + name, rx_ctl() + pds_nack(code, 0, 2, 1))
put(RX, "nack-rudi", rx_ctl(rel=0) + pds_nack(0x01, 0, 0, 0, FLAG_NT, 7))
# Control packets: Close of the target PDC 2 (from host 0's PDC 1) at its next PSN,
# Request-Close to host 1's initiator PDC 1, ACK_REQ.
put(RX, "ctrl-close", rx_ctl(run=2) + pds_ctrl(CTRL_CLOSE_T, AR, 0, 1, 2))
put(RX, "ctrl-close-req", rx_ctl(run=3) + pds_ctrl(CTRL_CLOSE_REQ_T, 0, 0, 2, 1))
# An ACK while the cable is cut for 60 us: RTOs (RtoMin 10 us) and retransmissions follow.
put(RX, "ack-cable-cut", rx_ctl(run=3, cut=1) + pds_ack_base(UACK, NH_NONE, 0, 0, 0, 2, 1))
put(RX, "ctrl-ack-req", rx_ctl() + pds_ctrl(CTRL_ACK_REQ_T, 0, 0, 1, 2))
# PDC-less: a RUDI request (packet id 5), a RUDI response to host 1's RUDI flow (packet id 0),
# a UUD SEND.
put(RX, "rudi-req", rx_ctl(rel=0) + pds_prologue(RUDI_REQ, NH_REQUEST_STD, 0)
    + struct.pack(">HI", 0, 5) + write_ses(7, 10) + bytes(10))
put(RX, "rudi-resp", rx_ctl(rel=0) + pds_prologue(RUDI_RESP, NH_RESPONSE, 0)
    + struct.pack(">HI", 0, 0) + ses_resp(0x00, 0x01, 0, 0, 7, 3000))
put(RX, "uud-send", rx_ctl(rel=0, path=3) + pds_prologue(UUD_REQ, NH_REQUEST_STD, 0) + bytes(2)
    + write_ses(3, 64, SES_SEND) + bytes(20))
# Refused: a truncated PDS header, a reserved type, an SES header that does not fit.
put(RX, "truncated-pds", rx_ctl(path=2) + pds_request(RUD_REQ, NH_NONE, 0, 0, 0, 1, 2)[:7])
put(RX, "reserved-type", rx_ctl(path=1) + pds_prologue(15, 0, 0) + bytes(14))
put(RX, "ses-does-not-fit", rx_ctl(path=3) + pds_request(RUD_REQ, NH_REQUEST_STD, 0, 0, 0, 1, 2)
    + bytes(20))
