/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RoCEv2 wire headers: bit-exact layouts against hand-written bytes (IBTA Vol 1 9.2, 9.3,
 * Annex A17), round trips, 24-bit PSN arithmetic, opcode classification, AETH syndromes, the
 * ICRC, and tshark decoding of hand-built RoCEv2 packets sent over a PfcNetDevice link.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

template <typename H>
std::vector<uint8_t>
Serialized(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    return Bytes(p);
}

/// Deserialize a header of type H from raw bytes; checks that all bytes are consumed.
template <typename H>
H
Parse(const std::vector<uint8_t>& bytes)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    H h;
    EXPECT_EQ(p->RemoveHeader(h), bytes.size());
    EXPECT_EQ(p->GetSize(), 0u);
    return h;
}

// ------------------------------------------------------------------------------------- BTH

TEST(RoceBthHeader, SerializesToIbtaLayout)
{
    RoceBthHeader h;
    h.SetOpcode(RoceOpcode::WRITE_ONLY);
    h.SetSolicitedEvent(true);
    h.SetPadCnt(2);
    h.SetPKey(0xFFFF);
    h.SetDestQp(0x123456);
    h.SetAckReq(true);
    h.SetPsn(0xFFFFFF);
    std::vector<uint8_t> expected = {0x0A, // opcode RDMA WRITE Only
                                     0xA0, // SE 1, M 0, PadCnt 2, TVer 0
                                     0xFF,
                                     0xFF, // P_Key
                                     0x00, // FECN 0, BECN 0, resv6
                                     0x12,
                                     0x34,
                                     0x56, // DestQP
                                     0x80, // AckReq 1, resv7
                                     0xFF,
                                     0xFF,
                                     0xFF}; // PSN
    EXPECT_EQ(Serialized(h), expected);
    EXPECT_EQ(h.GetSerializedSize(), 12u);

    RoceBthHeader back = Parse<RoceBthHeader>(expected);
    EXPECT_EQ(back.GetOpcode(), 0x0A);
    EXPECT_TRUE(back.GetSolicitedEvent());
    EXPECT_FALSE(back.GetMigReq());
    EXPECT_EQ(back.GetPadCnt(), 2);
    EXPECT_EQ(back.GetTVer(), 0);
    EXPECT_EQ(back.GetPKey(), 0xFFFF);
    EXPECT_EQ(back.GetResv8(), 0);
    EXPECT_FALSE(back.GetFecn());
    EXPECT_FALSE(back.GetBecn());
    EXPECT_EQ(back.GetDestQp(), 0x123456u);
    EXPECT_TRUE(back.GetAckReq());
    EXPECT_EQ(back.GetResv7(), 0);
    EXPECT_EQ(back.GetPsn(), 0xFFFFFFu);
}

TEST(RoceBthHeader, EveryFieldInItsBits)
{
    RoceBthHeader h;
    h.SetOpcode(RoceOpcode::CNP);
    h.SetMigReq(true);
    h.SetPadCnt(1);
    h.SetTVer(0xF);
    h.SetPKey(0x8001);
    h.SetFecn(true);
    h.SetDestQp(0xABCDEF);
    h.SetResv7(0x55);
    h.SetPsn(0x010203);
    std::vector<uint8_t> expected = {0x81, // opcode CNP
                                     0x5F, // SE 0, M 1, PadCnt 1, TVer 15
                                     0x80,
                                     0x01, // P_Key
                                     0x80, // FECN 1, BECN 0
                                     0xAB,
                                     0xCD,
                                     0xEF, // DestQP
                                     0x55, // AckReq 0, resv7 0x55
                                     0x01,
                                     0x02,
                                     0x03}; // PSN
    EXPECT_EQ(Serialized(h), expected);

    h.SetFecn(false);
    h.SetBecn(true);
    EXPECT_EQ(h.GetResv8(), 0x40);
    EXPECT_EQ(Serialized(h)[4], 0x40);
    h.SetFecn(true);
    EXPECT_EQ(h.GetResv8(), 0xC0);
    h.SetResv8(0x3F); // the six reserved bits alone
    EXPECT_FALSE(h.GetFecn());
    EXPECT_FALSE(h.GetBecn());
    h.SetBecn(true);
    EXPECT_EQ(h.GetResv8(), 0x7F); // setting BECN keeps the reserved bits
    h.SetBecn(false);
    EXPECT_EQ(h.GetResv8(), 0x3F);
}

TEST(RoceBthHeader, Defaults)
{
    RoceBthHeader h;
    std::vector<uint8_t> expected =
        {0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    EXPECT_EQ(Serialized(h), expected);
    EXPECT_EQ(h.GetPKey(), RoceBthHeader::DEFAULT_PKEY);
    EXPECT_EQ(h.GetTVer(), 0);
}

TEST(RoceBthHeader, DeserializeAcceptsAnyBitsAndRoundTrips)
{
    std::vector<uint8_t> ones(12, 0xFF);
    RoceBthHeader h = Parse<RoceBthHeader>(ones);
    EXPECT_EQ(h.GetOpcode(), 0xFF);
    EXPECT_TRUE(h.GetSolicitedEvent());
    EXPECT_TRUE(h.GetMigReq());
    EXPECT_EQ(h.GetPadCnt(), 3);
    EXPECT_EQ(h.GetTVer(), 15);
    EXPECT_EQ(h.GetResv8(), 0xFF);
    EXPECT_TRUE(h.GetFecn());
    EXPECT_TRUE(h.GetBecn());
    EXPECT_EQ(h.GetDestQp(), 0xFFFFFFu);
    EXPECT_TRUE(h.GetAckReq());
    EXPECT_EQ(h.GetResv7(), 0x7F);
    EXPECT_EQ(h.GetPsn(), 0xFFFFFFu);
    EXPECT_EQ(Serialized(h), ones);

    std::vector<uint8_t> mixed =
        {0x11, 0x2C, 0x12, 0x34, 0x3F, 0x00, 0x00, 0x01, 0x7F, 0x80, 0x00, 0x00};
    RoceBthHeader m = Parse<RoceBthHeader>(mixed);
    EXPECT_EQ(m.GetOpcode(), RoceOpcode::ACKNOWLEDGE);
    EXPECT_FALSE(m.GetSolicitedEvent());
    EXPECT_FALSE(m.GetMigReq());
    EXPECT_EQ(m.GetPadCnt(), 2);
    EXPECT_EQ(m.GetTVer(), 0xC);
    EXPECT_EQ(m.GetPKey(), 0x1234);
    EXPECT_EQ(m.GetResv8(), 0x3F);
    EXPECT_EQ(m.GetDestQp(), 1u);
    EXPECT_FALSE(m.GetAckReq());
    EXPECT_EQ(m.GetResv7(), 0x7F);
    EXPECT_EQ(m.GetPsn(), 0x800000u);
    EXPECT_EQ(Serialized(m), mixed);
}

TEST(RoceBthHeader, RejectsOutOfRangeFields)
{
    RoceBthHeader h;
    EXPECT_DEATH(h.SetDestQp(0x1000000), "DestQP 16777216 .* out of range");
    EXPECT_DEATH(h.SetPsn(0x1000000), "PSN 16777216 .* out of range");
    EXPECT_DEATH(h.SetPsn(0xFFFFFFFF), "PSN 4294967295 .* out of range");
    EXPECT_DEATH(h.SetPadCnt(4), "PadCnt 4 is out of range; valid values are 0..3");
    EXPECT_DEATH(h.SetTVer(16), "TVer 16 is out of range; valid values are 0..15");
    EXPECT_DEATH(h.SetResv7(128), "reserved-7 value 128 is out of range");
    EXPECT_DEATH(RoceBthHeader::PsnAdd(0x1000000, 1), "PSN 16777216");
    EXPECT_DEATH(RoceBthHeader::PsnDiff(1, 0x1000000), "PSN 16777216");
    EXPECT_DEATH(RoceBthHeader::PsnLess(0x2000000, 1), "PSN 33554432");
    h.SetDestQp(0xFFFFFF); // the largest values are fine
    h.SetPsn(0xFFFFFF);
    EXPECT_EQ(h.GetDestQp(), 0xFFFFFFu);
    EXPECT_EQ(h.GetPsn(), 0xFFFFFFu);
}

TEST(RoceBthHeader, PsnArithmeticWrapsAt24Bits)
{
    using B = RoceBthHeader;
    EXPECT_EQ(B::PsnAdd(0xFFFFFF, 1), 0u);
    EXPECT_EQ(B::PsnAdd(0xFFFFF0, 0x20), 0x10u);
    EXPECT_EQ(B::PsnAdd(5, 0x1000000), 5u); // a whole turn
    EXPECT_EQ(B::PsnAdd(0, 0xFFFFFF), 0xFFFFFFu);
    EXPECT_EQ(B::PsnAdd(1, 0xFFFFFFFF), 0u); // n taken modulo 2^24: 0xFFFFFF, i.e. -1

    EXPECT_EQ(B::PsnDiff(0, 0xFFFFFF), 1);
    EXPECT_EQ(B::PsnDiff(0xFFFFFF, 0), -1);
    EXPECT_EQ(B::PsnDiff(5, 0xFFFFF0), 0x15);
    EXPECT_EQ(B::PsnDiff(0x10, 0x10), 0);
    EXPECT_EQ(B::PsnDiff(0x7FFFFF, 0), 0x7FFFFF);  // largest positive distance, 2^23 - 1
    EXPECT_EQ(B::PsnDiff(0x800000, 0), -0x800000); // half a turn counts as behind: -2^23
    EXPECT_EQ(B::PsnDiff(0, 0x800000), -0x800000);
    EXPECT_EQ(B::PsnDiff(0x800001, 0), -0x7FFFFF);

    EXPECT_TRUE(B::PsnLess(0xFFFFF0, 5));
    EXPECT_FALSE(B::PsnLess(5, 0xFFFFF0));
    EXPECT_FALSE(B::PsnLess(7, 7));
    EXPECT_TRUE(B::PsnLess(0xFFFFFF, 0));
    EXPECT_TRUE(B::PsnLess(100, 101));

    // PsnDiff inverts PsnAdd for every distance in [-2^23, 2^23), from bases around the wrap.
    for (uint32_t base : {0u, 1u, 0x7FFFFFu, 0x800000u, 0xFFFFF0u, 0xFFFFFFu})
    {
        for (int32_t d : {-0x800000, -0x7FFFFF, -1000, -1, 0, 1, 17, 0x7FFFFE, 0x7FFFFF})
        {
            uint32_t other = B::PsnAdd(base, static_cast<uint32_t>(d));
            EXPECT_EQ(B::PsnDiff(other, base), d) << "base " << base << " d " << d;
            EXPECT_EQ(B::PsnLess(other, base), d < 0) << "base " << base << " d " << d;
        }
    }
}

// The data path's one-call writer gives the same bytes as a header object with those fields.
TEST(RoceBthHeader, WriteFieldsEqualsTheHeaderObject)
{
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(11);
    for (int i = 0; i < 2000; ++i)
    {
        auto opcode = static_cast<uint8_t>(u->GetInteger(0, 255));
        auto pad = static_cast<uint8_t>(u->GetInteger(0, 3));
        auto qp = static_cast<uint32_t>(u->GetInteger(0, RoceBthHeader::MAX_24BIT));
        auto psn = static_cast<uint32_t>(u->GetInteger(0, RoceBthHeader::MAX_24BIT));
        bool ackReq = u->GetInteger(0, 1) == 1;
        bool becn = u->GetInteger(0, 1) == 1;
        RoceBthHeader bth;
        bth.SetOpcode(opcode);
        bth.SetPadCnt(pad);
        bth.SetDestQp(qp);
        bth.SetAckReq(ackReq);
        bth.SetPsn(psn);
        bth.SetBecn(becn);
        uint8_t a[RoceBthHeader::SIZE];
        uint8_t b[RoceBthHeader::SIZE];
        bth.Write(a);
        RoceBthHeader::WriteFields(b, opcode, pad, qp, ackReq, psn, becn);
        ASSERT_EQ(std::memcmp(a, b, sizeof(a)), 0)
            << "opcode " << unsigned(opcode) << " pad " << unsigned(pad) << " qp " << qp << " psn "
            << psn << " ackReq " << ackReq << " becn " << becn;
    }
}

struct OpcodeRow
{
    uint8_t op;
    const char* name;
    int first, middle, last, only, reth, immdt, aeth, readResp, request; //!< 1 = true
};

TEST(RoceBthHeader, ClassifiesEveryOpcode)
{
    // clang-format off
    // fi first, mi middle, la last, on only, re RETH, im ImmDt, ae AETH, rr READ response,
    // rq request
    const OpcodeRow table[] = {
        // op  name                     fi mi la on re im ae rr rq
        {0x00, "SEND_FIRST",            1, 0, 0, 0, 0, 0, 0, 0, 1},
        {0x01, "SEND_MIDDLE",           0, 1, 0, 0, 0, 0, 0, 0, 1},
        {0x02, "SEND_LAST",             0, 0, 1, 0, 0, 0, 0, 0, 1},
        {0x03, "SEND_LAST_WITH_IMM",    0, 0, 1, 0, 0, 1, 0, 0, 1},
        {0x04, "SEND_ONLY",             0, 0, 0, 1, 0, 0, 0, 0, 1},
        {0x05, "SEND_ONLY_WITH_IMM",    0, 0, 0, 1, 0, 1, 0, 0, 1},
        {0x06, "WRITE_FIRST",           1, 0, 0, 0, 1, 0, 0, 0, 1},
        {0x07, "WRITE_MIDDLE",          0, 1, 0, 0, 0, 0, 0, 0, 1},
        {0x08, "WRITE_LAST",            0, 0, 1, 0, 0, 0, 0, 0, 1},
        {0x09, "WRITE_LAST_WITH_IMM",   0, 0, 1, 0, 0, 1, 0, 0, 1},
        {0x0A, "WRITE_ONLY",            0, 0, 0, 1, 1, 0, 0, 0, 1},
        {0x0B, "WRITE_ONLY_WITH_IMM",   0, 0, 0, 1, 1, 1, 0, 0, 1},
        {0x0C, "READ_REQUEST",          0, 0, 0, 0, 1, 0, 0, 0, 1},
        {0x0D, "READ_RESPONSE_FIRST",   1, 0, 0, 0, 0, 0, 1, 1, 0},
        {0x0E, "READ_RESPONSE_MIDDLE",  0, 1, 0, 0, 0, 0, 0, 1, 0},
        {0x0F, "READ_RESPONSE_LAST",    0, 0, 1, 0, 0, 0, 1, 1, 0},
        {0x10, "READ_RESPONSE_ONLY",    0, 0, 0, 1, 0, 0, 1, 1, 0},
        {0x11, "ACKNOWLEDGE",           0, 0, 0, 0, 0, 0, 1, 0, 0},
        {0x81, "CNP",                   0, 0, 0, 0, 0, 0, 0, 0, 0},
        // RC ATOMIC Acknowledge (atomics not modelled), UC SEND First, UD SEND Only, vendor
        {0x12, "UNKNOWN",               0, 0, 0, 0, 0, 0, 0, 0, 0},
        {0x20, "UNKNOWN",               0, 0, 0, 0, 0, 0, 0, 0, 0},
        {0x64, "UNKNOWN",               0, 0, 0, 0, 0, 0, 0, 0, 0},
        {0xFF, "UNKNOWN",               0, 0, 0, 0, 0, 0, 0, 0, 0},
    };
    // clang-format on
    using B = RoceBthHeader;
    for (const auto& r : table)
    {
        SCOPED_TRACE(testing::Message() << "opcode 0x" << std::hex << unsigned(r.op));
        EXPECT_STREQ(B::OpcodeName(r.op), r.name);
        EXPECT_EQ(B::IsFirst(r.op), r.first == 1);
        EXPECT_EQ(B::IsMiddle(r.op), r.middle == 1);
        EXPECT_EQ(B::IsLast(r.op), r.last == 1);
        EXPECT_EQ(B::IsOnly(r.op), r.only == 1);
        EXPECT_EQ(B::HasReth(r.op), r.reth == 1);
        EXPECT_EQ(B::HasImmDt(r.op), r.immdt == 1);
        EXPECT_EQ(B::HasAeth(r.op), r.aeth == 1);
        EXPECT_EQ(B::IsReadResponse(r.op), r.readResp == 1);
        EXPECT_EQ(B::IsRequest(r.op), r.request == 1);
    }
    // The enumerators carry the IBTA values.
    EXPECT_EQ(RoceOpcode::SEND_FIRST, 0x00);
    EXPECT_EQ(RoceOpcode::WRITE_FIRST, 0x06);
    EXPECT_EQ(RoceOpcode::WRITE_LAST_WITH_IMM, 0x09);
    EXPECT_EQ(RoceOpcode::READ_REQUEST, 0x0C);
    EXPECT_EQ(RoceOpcode::READ_RESPONSE_ONLY, 0x10);
    EXPECT_EQ(RoceOpcode::ACKNOWLEDGE, 0x11);
    EXPECT_EQ(RoceBthHeader::CNP, 0x81);
}

// ------------------------------------------------------------------------ RETH, AETH, ImmDt

TEST(RoceRethHeader, SerializesAndRoundTrips)
{
    RoceRethHeader h;
    h.SetVirtualAddress(0x0123456789ABCDEFull);
    h.SetRKey(0xDEADBEEF);
    h.SetDmaLength(0x00010000);
    std::vector<uint8_t> expected = {0x01,
                                     0x23,
                                     0x45,
                                     0x67,
                                     0x89,
                                     0xAB,
                                     0xCD,
                                     0xEF, // VA
                                     0xDE,
                                     0xAD,
                                     0xBE,
                                     0xEF, // R_Key
                                     0x00,
                                     0x01,
                                     0x00,
                                     0x00}; // DMA len
    EXPECT_EQ(Serialized(h), expected);
    EXPECT_EQ(h.GetSerializedSize(), 16u);
    RoceRethHeader back = Parse<RoceRethHeader>(expected);
    EXPECT_EQ(back.GetVirtualAddress(), 0x0123456789ABCDEFull);
    EXPECT_EQ(back.GetRKey(), 0xDEADBEEFu);
    EXPECT_EQ(back.GetDmaLength(), 0x10000u);

    EXPECT_EQ(Serialized(RoceRethHeader()), std::vector<uint8_t>(16, 0));
    h.SetDmaLength(0x80000000u); // 2^31 is the largest message
    EXPECT_EQ(h.GetDmaLength(), 0x80000000u);
    EXPECT_DEATH(h.SetDmaLength(0x80000001u), "DMA length 2147483649 B is out of range");
}

TEST(RoceAethHeader, AckNakAndRnrEncodings)
{
    RoceAethHeader ack;
    EXPECT_TRUE(ack.IsAck()); // default: ACK, credit 0, MSN 0
    EXPECT_EQ(Serialized(ack), (std::vector<uint8_t>{0x00, 0x00, 0x00, 0x00}));
    ack.SetAck(RoceAethHeader::CREDIT_INVALID);
    ack.SetMsn(0x123456);
    EXPECT_EQ(Serialized(ack), (std::vector<uint8_t>{0x1F, 0x12, 0x34, 0x56}));
    EXPECT_TRUE(ack.IsAck());
    EXPECT_FALSE(ack.IsNak());
    EXPECT_FALSE(ack.IsRnrNak());
    EXPECT_EQ(ack.GetCreditCount(), 31);

    RoceAethHeader nak;
    nak.SetNak(RoceAethHeader::NAK_PSN_SEQUENCE_ERROR);
    nak.SetMsn(0xFFFFFF);
    EXPECT_EQ(Serialized(nak), (std::vector<uint8_t>{0x60, 0xFF, 0xFF, 0xFF}));
    EXPECT_TRUE(nak.IsNak());
    EXPECT_FALSE(nak.IsAck());
    EXPECT_FALSE(nak.IsRnrNak());
    EXPECT_EQ(nak.GetNakCode(), 0);
    const uint8_t codes[] = {RoceAethHeader::NAK_PSN_SEQUENCE_ERROR,
                             RoceAethHeader::NAK_INVALID_REQUEST,
                             RoceAethHeader::NAK_REMOTE_ACCESS_ERROR,
                             RoceAethHeader::NAK_REMOTE_OPERATIONAL_ERROR,
                             RoceAethHeader::NAK_INVALID_RD_REQUEST};
    for (uint8_t code = 0; code < 5; ++code)
    {
        EXPECT_EQ(codes[code], code);
        nak.SetNak(code);
        EXPECT_EQ(nak.GetSyndrome(), 0x60 | code);
        EXPECT_EQ(nak.GetNakCode(), code);
    }

    RoceAethHeader rnr;
    rnr.SetRnrNak(0x0E);
    rnr.SetMsn(7);
    EXPECT_EQ(Serialized(rnr), (std::vector<uint8_t>{0x2E, 0x00, 0x00, 0x07}));
    EXPECT_TRUE(rnr.IsRnrNak());
    EXPECT_FALSE(rnr.IsAck());
    EXPECT_FALSE(rnr.IsNak());
    EXPECT_EQ(rnr.GetRnrTimer(), 0x0E);

    // Wire bytes parse back: a NAK "remote operational error", MSN 0xABCDEF.
    RoceAethHeader parsed = Parse<RoceAethHeader>({0x63, 0xAB, 0xCD, 0xEF});
    EXPECT_TRUE(parsed.IsNak());
    EXPECT_EQ(parsed.GetNakCode(), RoceAethHeader::NAK_REMOTE_OPERATIONAL_ERROR);
    EXPECT_EQ(parsed.GetMsn(), 0xABCDEFu);
    // Reserved syndromes (type 0b10, or the reserved top bit set) are none of the three.
    for (uint8_t s : {uint8_t(0x40), uint8_t(0x5F), uint8_t(0x80), uint8_t(0xE0)})
    {
        RoceAethHeader r = Parse<RoceAethHeader>({s, 0, 0, 1});
        EXPECT_FALSE(r.IsAck()) << unsigned(s);
        EXPECT_FALSE(r.IsNak()) << unsigned(s);
        EXPECT_FALSE(r.IsRnrNak()) << unsigned(s);
        EXPECT_EQ(Serialized(r), (std::vector<uint8_t>{s, 0, 0, 1}));
    }
}

TEST(RoceAethHeader, RejectsOutOfRangeValues)
{
    RoceAethHeader h;
    EXPECT_DEATH(h.SetMsn(0x1000000), "MSN 16777216 .* out of range");
    EXPECT_DEATH(h.SetNak(5), "NAK code 5 is invalid; valid codes are 0..4");
    EXPECT_DEATH(h.SetAck(32), "credit count 32 is out of range");
    EXPECT_DEATH(h.SetRnrNak(32), "RNR NAK timer 32 is out of range");
    h.SetAck(3);
    EXPECT_DEATH(h.GetNakCode(), "is not a NAK");
    EXPECT_DEATH(h.GetRnrTimer(), "is not an RNR NAK");
    h.SetNak(0);
    EXPECT_DEATH(h.GetCreditCount(), "is not an ACK");
}

// The object-free functions the NIC uses per ACK write and read the same bits as the Header
// object, for every syndrome and across the MSN range.
TEST(RoceAethHeader, ObjectFreeFieldsMatchTheHeaderObject)
{
    for (uint32_t s = 0; s < 256; ++s)
    {
        for (uint32_t msn : {0u, 1u, 0x123456u, RoceAethHeader::MAX_MSN})
        {
            RoceAethHeader h;
            h.SetSyndrome(static_cast<uint8_t>(s));
            h.SetMsn(msn);
            uint8_t fromObject[RoceAethHeader::SIZE];
            uint8_t fromFields[RoceAethHeader::SIZE];
            h.Write(fromObject);
            RoceAethHeader::WriteFields(fromFields, static_cast<uint8_t>(s), msn);
            ASSERT_EQ(std::vector<uint8_t>(fromFields, fromFields + 4), Serialized(h))
                << "syndrome " << s << " MSN " << msn;
            ASSERT_EQ(std::vector<uint8_t>(fromObject, fromObject + 4), Serialized(h));
            ASSERT_EQ(RoceAethHeader::ReadSyndrome(fromFields), s);
            ASSERT_EQ(RoceAethHeader::IsNakSyndrome(static_cast<uint8_t>(s)), h.IsNak()) << s;
            ASSERT_EQ(RoceAethHeader::SyndromeValue(static_cast<uint8_t>(s)), s & 0x1f);
        }
    }
    for (uint8_t credit = 0; credit <= RoceAethHeader::CREDIT_INVALID; ++credit)
    {
        RoceAethHeader ack;
        ack.SetAck(credit);
        EXPECT_EQ(RoceAethHeader::AckSyndrome(credit), ack.GetSyndrome());
    }
    for (uint8_t code = 0; code <= RoceAethHeader::NAK_INVALID_RD_REQUEST; ++code)
    {
        RoceAethHeader nak;
        nak.SetNak(code);
        EXPECT_EQ(RoceAethHeader::NakSyndrome(code), nak.GetSyndrome());
        EXPECT_EQ(RoceAethHeader::SyndromeValue(RoceAethHeader::NakSyndrome(code)), code);
    }
    uint8_t out[RoceAethHeader::SIZE];
    EXPECT_DEATH(RoceAethHeader::WriteFields(out, 0, 0x1000000), "MSN 16777216 .* out of range");
    EXPECT_DEATH(RoceAethHeader::NakSyndrome(5), "NAK code 5 is invalid; valid codes are 0..4");
    EXPECT_DEATH(RoceAethHeader::AckSyndrome(32), "credit count 32 is out of range");
}

TEST(RoceImmDtHeader, SerializesAndRoundTrips)
{
    RoceImmDtHeader h(0x11223344);
    EXPECT_EQ(Serialized(h), (std::vector<uint8_t>{0x11, 0x22, 0x33, 0x44}));
    EXPECT_EQ(h.GetSerializedSize(), 4u);
    EXPECT_EQ(Parse<RoceImmDtHeader>({0xCA, 0xFE, 0xBA, 0xBE}).GetImmediate(), 0xCAFEBABEu);
    EXPECT_EQ(RoceImmDtHeader().GetImmediate(), 0u);
}

TEST(RoceCnpHeader, SixteenZeroBytesAcceptsAny)
{
    RoceCnpHeader h;
    EXPECT_EQ(Serialized(h), std::vector<uint8_t>(16, 0));
    EXPECT_EQ(h.GetSerializedSize(), 16u);
    EXPECT_TRUE(h.IsAllZero());
    std::vector<uint8_t> junk(16);
    for (std::size_t i = 0; i < junk.size(); ++i)
    {
        junk[i] = static_cast<uint8_t>(0xA0 + i);
    }
    RoceCnpHeader back = Parse<RoceCnpHeader>(junk);
    EXPECT_FALSE(back.IsAllZero());
    EXPECT_EQ(std::vector<uint8_t>(back.GetReserved().begin(), back.GetReserved().end()), junk);
    EXPECT_EQ(Serialized(back), junk); // forwarded unchanged
}

// ------------------------------------------------------------------------------------ ICRC

/// Source port, DSCP 26 + ECT(0), TTL 64: a RoCEv2 data packet from 10.0.0.1 to 10.0.0.2.
Ptr<Packet>
Encapsulate(Ptr<Packet> p, uint16_t srcPort, bool computeIcrc)
{
    UdpHeader udp;
    udp.SetSourcePort(srcPort);
    udp.SetDestinationPort(RoceBthHeader::UDP_DST_PORT);
    p->AddHeader(udp); // checksum 0, as RoCEv2 sends
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(64);
    ip.SetDscp(Ipv4Header::DSCP_AF31); // 26
    ip.SetEcn(Ipv4Header::ECN_ECT0);
    ip.EnableChecksum();
    p->AddHeader(ip);
    if (computeIcrc)
    {
        RoceIcrcTrailer::Update(p);
    }
    return p;
}

/// Payload bytes 0, 1, 2, ... (mod 256).
Ptr<Packet>
Payload(uint32_t bytes)
{
    std::vector<uint8_t> b(bytes);
    for (uint32_t i = 0; i < bytes; ++i)
    {
        b[i] = static_cast<uint8_t>(i);
    }
    return Create<Packet>(b.data(), b.size());
}

/// The known-answer packet: WRITE Only, QP 0x11, PSN 1, AckReq, 4-byte payload DE AD BE EF.
Ptr<Packet>
KnownAnswerPacket(bool computeIcrc)
{
    const uint8_t data[] = {0xDE, 0xAD, 0xBE, 0xEF};
    Ptr<Packet> p = Create<Packet>(data, sizeof(data));
    p->AddTrailer(RoceIcrcTrailer());
    RoceRethHeader reth;
    reth.SetVirtualAddress(0x1000);
    reth.SetRKey(0x1234);
    reth.SetDmaLength(4);
    p->AddHeader(reth);
    RoceBthHeader bth;
    bth.SetOpcode(RoceOpcode::WRITE_ONLY);
    bth.SetDestQp(0x11);
    bth.SetAckReq(true);
    bth.SetPsn(1);
    p->AddHeader(bth);
    return Encapsulate(p, 0xC000, computeIcrc);
}

TEST(RoceIcrcTrailer, SerializesLeastSignificantOctetFirst)
{
    Ptr<Packet> p = Create<Packet>(2);
    p->AddTrailer(RoceIcrcTrailer(0x11223344));
    EXPECT_EQ(Bytes(p), (std::vector<uint8_t>{0x00, 0x00, 0x44, 0x33, 0x22, 0x11}));
    RoceIcrcTrailer back;
    EXPECT_EQ(p->RemoveTrailer(back), 4u);
    EXPECT_EQ(back.GetIcrc(), 0x11223344u);
    EXPECT_EQ(p->GetSize(), 2u);
    EXPECT_EQ(RoceIcrcTrailer().GetIcrc(), 0u); // off by default
}

TEST(RoceIcrcTrailer, KnownAnswerPacket)
{
    // The whole IPv4 packet, written by hand from the header layouts. The ICRC, d7 ef 27 b2,
    // was computed independently with Python's zlib.crc32 over 8 x 0xFF followed by these bytes
    // with TOS, TTL, IPv4 checksum, UDP checksum and BTH octet 4 set to 0xFF (Annex A17.3.3).
    std::vector<uint8_t> expected = {
        0x45, 0x6A, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x40, 0x11, // IPv4: TOS 0x6A, len 64
        0x66, 0x41, 0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02, //   TTL 64, UDP
        0xC0, 0x00, 0x12, 0xB7, 0x00, 0x2C, 0x00, 0x00,             // UDP 49152 -> 4791, len 44
        0x0A, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x11,             // BTH WRITE Only, QP 0x11
        0x80, 0x00, 0x00, 0x01,                                     //   AckReq, PSN 1
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,             // RETH VA 0x1000
        0x00, 0x00, 0x12, 0x34, 0x00, 0x00, 0x00, 0x04,             //   R_Key, DMA length 4
        0xDE, 0xAD, 0xBE, 0xEF,                                     // payload
        0xD7, 0xEF, 0x27, 0xB2};                                    // ICRC
    Ptr<Packet> p = KnownAnswerPacket(true);
    EXPECT_EQ(Bytes(p), expected);
    EXPECT_TRUE(RoceIcrcTrailer::Verify(p));
    EXPECT_EQ(RoceIcrcTrailer::Compute(p->CreateFragment(0, p->GetSize() - 4)), 0xB227EFD7u);

    Ptr<Packet> zero = KnownAnswerPacket(false);
    std::vector<uint8_t> zeroBytes(expected.begin(), expected.end() - 4);
    zeroBytes.insert(zeroBytes.end(), 4, 0);
    EXPECT_EQ(Bytes(zero), zeroBytes);
    EXPECT_FALSE(RoceIcrcTrailer::Verify(zero));
}

TEST(RoceIcrcTrailer, IgnoresVariantFieldsOnly)
{
    const std::vector<uint8_t> good = Bytes(KnownAnswerPacket(true));
    auto verify = [](std::vector<uint8_t> b) {
        return RoceIcrcTrailer::Verify(Create<Packet>(b.data(), b.size()));
    };
    ASSERT_TRUE(verify(good));
    // Variant fields that switches rewrite: TOS (ECN marking), TTL, IPv4 checksum, UDP
    // checksum, BTH FECN/BECN/resv6.
    for (std::size_t i : {1, 8, 10, 11, 26, 27, 32})
    {
        std::vector<uint8_t> b = good;
        b[i] ^= 0x03;
        EXPECT_TRUE(verify(b)) << "variant byte " << i;
    }
    // Everything else is covered: IPv4 id/flags, addresses, ports, UDP length, opcode, QP, PSN,
    // RETH, payload. (Version, header length, total length and protocol are checked first.)
    for (std::size_t i : {4, 6, 12, 19, 20, 23, 25, 28, 30, 35, 39, 40, 55, 56, 59})
    {
        std::vector<uint8_t> b = good;
        b[i] ^= 0x01;
        EXPECT_FALSE(verify(b)) << "invariant byte " << i;
    }
}

TEST(RoceIcrcTrailer, ComputeRejectsNonRocePackets)
{
    Ptr<Packet> p = KnownAnswerPacket(false);
    Ptr<Packet> noIcrc = p->CreateFragment(0, p->GetSize() - 4);
    EXPECT_DEATH(RoceIcrcTrailer::Compute(p), "total length 64 B does not match the packet");
    EXPECT_DEATH(RoceIcrcTrailer::Compute(Create<Packet>(30)), "packet of 30 B is too short");
    std::vector<uint8_t> b = Bytes(noIcrc);
    b[9] = 6; // TCP
    EXPECT_DEATH(RoceIcrcTrailer::Compute(Create<Packet>(b.data(), b.size())),
                 "IPv4 protocol 6 is not UDP");
    b[9] = 17;
    b[0] = 0x65;
    EXPECT_DEATH(RoceIcrcTrailer::Compute(Create<Packet>(b.data(), b.size())),
                 "IP version 6 is not supported");
}

// ----------------------------------------------------------------------------------- tshark

class RocePcapTest : public test::SimTest
{
};

/// One RoCEv2 packet: BTH fields, extension headers added by the caller.
Ptr<Packet>
RocePacket(Ptr<Packet> body, uint8_t op, uint32_t qpn, uint32_t psn, bool ackReq, bool icrc)
{
    body->AddTrailer(RoceIcrcTrailer());
    RoceBthHeader bth;
    bth.SetOpcode(op);
    bth.SetDestQp(qpn);
    bth.SetPsn(psn);
    bth.SetAckReq(ackReq);
    body->AddHeader(bth);
    return Encapsulate(body, static_cast<uint16_t>(0xC000 | (qpn & 0x3FFF)), icrc);
}

TEST_F(RocePcapTest, TsharkDecodesRoceV2)
{
    const std::string file = "roce-header-test.pcap";
    std::remove(file.c_str());
    std::vector<Ptr<Packet>> packets;
    {
        Ptr<Packet> b = Payload(1024); // WRITE First: RETH + payload, zero ICRC
        RoceRethHeader reth;
        reth.SetVirtualAddress(0x00007F0000001000ull);
        reth.SetRKey(0xABCD);
        reth.SetDmaLength(2048);
        b->AddHeader(reth);
        packets.push_back(RocePacket(b, RoceOpcode::WRITE_FIRST, 0x123456, 0xFFFFFF, false, false));
    }
    {
        Ptr<Packet> b = Payload(1024); // WRITE Last with Imm: ImmDt + payload, computed ICRC
        b->AddHeader(RoceImmDtHeader(0x11223344));
        packets.push_back(
            RocePacket(b, RoceOpcode::WRITE_LAST_WITH_IMM, 0x123456, 0, true, /*icrc=*/true));
    }
    {
        Ptr<Packet> b = Create<Packet>(); // ACK: AETH credit 31, MSN 5
        RoceAethHeader aeth;
        aeth.SetAck(RoceAethHeader::CREDIT_INVALID);
        aeth.SetMsn(5);
        b->AddHeader(aeth);
        packets.push_back(RocePacket(b, RoceOpcode::ACKNOWLEDGE, 0x000ABC, 0, false, false));
    }
    {
        Ptr<Packet> b = Create<Packet>(); // NAK PSN sequence error, computed ICRC
        RoceAethHeader aeth;
        aeth.SetNak(RoceAethHeader::NAK_PSN_SEQUENCE_ERROR);
        aeth.SetMsn(0xFFFFFF);
        b->AddHeader(aeth);
        packets.push_back(RocePacket(b, RoceOpcode::ACKNOWLEDGE, 0x000ABC, 0x10, false, true));
    }
    {
        Ptr<Packet> b = Create<Packet>(); // READ Request: RETH only
        RoceRethHeader reth;
        reth.SetVirtualAddress(0x2000);
        reth.SetRKey(0x77);
        reth.SetDmaLength(65536);
        b->AddHeader(reth);
        packets.push_back(RocePacket(b, RoceOpcode::READ_REQUEST, 0x00BEEF, 0x800000, true, false));
    }
    {
        Ptr<Packet> b = Create<Packet>(); // CNP: 16 reserved bytes, computed ICRC
        b->AddHeader(RoceCnpHeader());
        packets.push_back(RocePacket(b, RoceOpcode::CNP, 0x123456, 0, false, true));
    }
    const bool computed[] = {false, true, false, true, false, true};
    for (std::size_t i = 0; i < packets.size(); ++i)
    {
        EXPECT_EQ(RoceIcrcTrailer::Verify(packets[i]), computed[i]) << "packet " << i;
    }
    {
        NodeContainer nodes(2);
        PfcHelper helper;
        NetDeviceContainer devs = helper.Install(nodes);
        auto tx = DynamicCast<PfcNetDevice>(devs.Get(0));
        auto rx = DynamicCast<PfcNetDevice>(devs.Get(1));
        helper.EnablePcap(file, rx, /*promiscuous=*/true, /*explicitFilename=*/true);
        for (const auto& p : packets)
        {
            tx->Send(p->Copy(), rx->GetAddress(), 0x0800);
        }
        Simulator::Stop(MicroSeconds(10));
        Simulator::Run();
    }
    Simulator::Destroy(); // closes the pcap file

    const std::string decode = "-d udp.port==4791,infiniband";
    std::string protocols = test::Tshark(file, decode + " -T fields -e frame.protocols");
    std::istringstream lines(protocols);
    std::string line;
    int ib = 0;
    while (std::getline(lines, line))
    {
        ib += line.find("eth:ethertype:ip:udp:infiniband") != std::string::npos;
    }
    EXPECT_EQ(ib, 6) << protocols;
    EXPECT_EQ(test::Tshark(file, decode + " -Y _ws.malformed"), "");
    EXPECT_EQ(test::Tshark(file, decode + " -Y _ws.expert.severity==error"), "");

    std::string bth =
        test::Tshark(file,
                     decode + " -T fields -e infiniband.bth.opcode -e infiniband.bth.destqp"
                              " -e infiniband.bth.psn -e infiniband.bth.a -E separator=,");
    EXPECT_EQ(bth,
              "6,0x123456,16777215,0\n"
              "9,0x123456,0,1\n"
              "17,0x000abc,0,0\n"
              "17,0x000abc,16,0\n"
              "12,0x00beef,8388608,1\n"
              "129,0x123456,0,0\n");
    std::string reth = test::Tshark(file,
                                    decode + " -Y infiniband.reth -T fields -e infiniband.reth.va"
                                             " -e infiniband.reth.r_key -e infiniband.reth.dmalen"
                                             " -E separator=,");
    EXPECT_EQ(reth, "0x00007f0000001000,0x0000abcd,2048\n0x0000000000002000,0x00000077,65536\n");
    std::string aeth = test::Tshark(file,
                                    decode + " -Y infiniband.aeth -T fields"
                                             " -e infiniband.aeth.syndrome -e infiniband.aeth.msn"
                                             " -E separator=,");
    EXPECT_EQ(aeth, "31,5\n96,16777215\n");
    // ImmDt is a byte field; tshark lists it for the header and for the value.
    std::string imm =
        test::Tshark(file, decode + " -Y infiniband.immdt -T fields -e infiniband.immdt");
    EXPECT_NE(imm.find("11223344"), std::string::npos) << imm;
    EXPECT_EQ(imm.find('\n'), imm.size() - 1) << "one packet with ImmDt: " << imm;

    // The ICRC is found at the end of the UDP payload; tshark reads its 4 octets in network
    // order, i.e. byte-swapped with respect to GetIcrc(). Zero ICRCs decode fine.
    std::ostringstream crcs;
    std::string cnpBody(32, '0');
    for (std::size_t i = 0; i < packets.size(); ++i)
    {
        std::vector<uint8_t> b = Bytes(packets[i]);
        char buf[16];
        std::snprintf(buf,
                      sizeof(buf),
                      "%02x%02x%02x%02x",
                      b[b.size() - 4],
                      b[b.size() - 3],
                      b[b.size() - 2],
                      b[b.size() - 1]);
        if (i + 1 < packets.size())
        {
            crcs << "0x" << buf << "\n";
        }
        else
        {
            cnpBody += buf;
        }
    }
    std::string icrc = test::Tshark(file,
                                    decode + " -Y \"infiniband.bth.opcode != 0x81\" -T fields"
                                             " -e infiniband.invariant.crc");
    EXPECT_EQ(icrc, crcs.str());
    // Wireshark 4.0 does not know opcode 0x81: it shows the CNP's 16 reserved bytes and the
    // ICRC as unknown (vendor) data, without marking the packet malformed.
    std::string cnp = test::Tshark(
        file,
        decode + " -Y \"infiniband.bth.opcode == 0x81\" -T fields -e infiniband.vendor");
    // (Like ImmDt, the field is listed for the header item and for the value.)
    EXPECT_NE(cnp.find(cnpBody + "\n"), std::string::npos) << cnp;
    EXPECT_EQ(cnp.find('\n'), cnp.size() - 1) << "one CNP: " << cnp;
}

} // namespace
