/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * UET wire headers: bit-exact layouts against hand-written bytes (UEC 1.0.1 PDS 3.5.10 and SES
 * 3.4.3 as laid out in UET.md and Wireshark's packet-uet.c), round trips, fast-path writers ==
 * header objects, field-width errors, Print, and the Wireshark Lua dissector
 * (tools/wireshark/uet.lua) decoding one frame of every header type under tshark.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/pcap-file.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

using Bytes = std::vector<uint8_t>;

Bytes
PacketBytes(Ptr<const Packet> p)
{
    Bytes b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/// The bytes Serialize() produces (through Packet::AddHeader).
template <typename H>
Bytes
Serialized(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    EXPECT_EQ(p->GetSize(), h.GetSerializedSize());
    return PacketBytes(p);
}

/// The bytes Write() produces.
template <typename H>
Bytes
Written(const H& h)
{
    Bytes b(h.GetSerializedSize());
    h.Write(b.data());
    return b;
}

/// Deserialize an H from bytes (through Packet::RemoveHeader); all bytes must be consumed.
template <typename H>
H
Parse(const Bytes& bytes)
{
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    H h;
    EXPECT_EQ(p->RemoveHeader(h), bytes.size());
    EXPECT_EQ(p->GetSize(), 0u);
    return h;
}

template <typename H>
std::string
Printed(const H& h)
{
    std::ostringstream os;
    h.Print(os);
    return os.str();
}

/// Expect Serialize, Write and (through Parse) Deserialize + Serialize to give \p expected.
template <typename H>
void
ExpectWire(const H& h, const Bytes& expected)
{
    EXPECT_EQ(Serialized(h), expected);
    EXPECT_EQ(Written(h), expected);
    EXPECT_EQ(Serialized(Parse<H>(expected)), expected);
}

// ------------------------------------------------------------------------------ PDS prologue

TEST(UetPdsHeader, PrologueHelpersAndSizes)
{
    uint8_t b[2];
    UetPdsHeader::WritePrologue(b, UetPdsHeader::ROD_CC_REQ, 15, 0x7F);
    // 01110 1111 1111111
    EXPECT_EQ(b[0], 0x77);
    EXPECT_EQ(b[1], 0xFF);
    EXPECT_EQ(UetPdsHeader::PeekType(b), 14);
    EXPECT_EQ(UetPdsHeader::PeekNextHeader(b), 15);
    EXPECT_EQ(UetPdsHeader::PeekFlags(b), 0x7F);
    UetPdsHeader::WritePrologue(b, UetPdsHeader::ACK, UetPdsHeader::NH_RESPONSE, 0);
    EXPECT_EQ(b[0], 0x3A); // 00111 010|0 0000000
    EXPECT_EQ(b[1], 0x00);
    EXPECT_EQ(UetPdsHeader::UDP_DST_PORT, 4793);
    const std::pair<uint8_t, uint32_t> sizes[] = {{2, 12},
                                                  {3, 12},
                                                  {4, 8},
                                                  {5, 8},
                                                  {6, 4},
                                                  {7, 12},
                                                  {8, 32},
                                                  {9, 40},
                                                  {10, 16},
                                                  {11, 16},
                                                  {12, 0},
                                                  {13, 16},
                                                  {14, 16},
                                                  {0, 0},
                                                  {1, 0},
                                                  {15, 0},
                                                  {31, 0}};
    for (auto [type, size] : sizes)
    {
        EXPECT_EQ(UetPdsHeader::HeaderSize(type), size) << "type " << unsigned(type);
    }
    EXPECT_EQ(UetPdsHeader::SesHeaderSize(UetPdsHeader::NH_NONE), 0u);
    EXPECT_EQ(UetPdsHeader::SesHeaderSize(UetPdsHeader::NH_REQUEST_SMALL), 20u);
    EXPECT_EQ(UetPdsHeader::SesHeaderSize(UetPdsHeader::NH_REQUEST_STD), 44u);
    EXPECT_EQ(UetPdsHeader::SesHeaderSize(UetPdsHeader::NH_RESPONSE), 12u);
    EXPECT_EQ(UetPdsHeader::SesHeaderSize(UetPdsHeader::NH_RESPONSE_DATA), 20u);
    EXPECT_STREQ(UetPdsHeader::TypeName(UetPdsType::RUD_CC_REQ), "RUD_CC_REQ");
    EXPECT_STREQ(UetPdsHeader::TypeName(20), "UNKNOWN");
    EXPECT_STREQ(UetPdsHeader::NackCodeName(UetNackCode::NACK_RCVR_INFER_LOSS), "RCVR_INFER_LOSS");
    EXPECT_STREQ(UetPdsHeader::NackCodeName(0x0C), "UNKNOWN");
    EXPECT_STREQ(UetPdsHeader::CtrlTypeName(UetCtrlType::CTRL_CREDIT_REQ), "CREDIT_REQ");
    EXPECT_STREQ(UetPdsHeader::CtrlTypeName(9), "UNKNOWN");
    EXPECT_STREQ(UetPdsHeader::NextHeaderName(3), "REQUEST_STD");
}

TEST(UetPdsHeader, PsnSerialArithmetic)
{
    EXPECT_EQ(UetPdsHeader::PsnDiff(0, 0xFFFFFFFF), 1);
    EXPECT_EQ(UetPdsHeader::PsnDiff(0xFFFFFFFF, 0), -1);
    EXPECT_TRUE(UetPdsHeader::PsnLess(0xFFFFFFF0, 5));
    EXPECT_FALSE(UetPdsHeader::PsnLess(5, 0xFFFFFFF0));
}

TEST(UetPdsHeader, NackCodesHaveSpecValues)
{
    // UET.md's list.
    EXPECT_EQ(UetNackCode::NACK_TRIMMED, 0x01);
    EXPECT_EQ(UetNackCode::NACK_TRIMMED_LASTHOP, 0x02);
    EXPECT_EQ(UetNackCode::NACK_TRIMMED_ACK, 0x03);
    EXPECT_EQ(UetNackCode::NACK_NO_PDC_AVAIL, 0x04);
    EXPECT_EQ(UetNackCode::NACK_NO_CCC_AVAIL, 0x05);
    EXPECT_EQ(UetNackCode::NACK_NO_PKT_BUFFER, 0x07);
    EXPECT_EQ(UetNackCode::NACK_PSN_OOR_WINDOW, 0x0B);
    EXPECT_EQ(UetNackCode::NACK_ROD_OOO, 0x0D);
    EXPECT_EQ(UetNackCode::NACK_INV_DPDCID, 0x0E);
    EXPECT_EQ(UetNackCode::NACK_CLOSING, 0x10);
    EXPECT_EQ(UetNackCode::NACK_INVALID_SYN, 0x15);
    EXPECT_EQ(UetNackCode::NACK_NEW_START_PSN, 0x17);
    EXPECT_EQ(UetNackCode::NACK_RCVR_INFER_LOSS, 0x1A);
}

// ----------------------------------------------------------------------------- RUD/ROD request

TEST(UetPdsRequestHeader, RudRequestLayout)
{
    UetPdsRequestHeader h;
    h.SetType(UetPdsHeader::RUD_REQ);
    h.SetNextHeader(UetPdsHeader::NH_REQUEST_STD);
    h.SetRetx(true);
    h.SetAr(true);
    h.SetClearPsnOffset(-2);
    h.SetPsn(0x01020304);
    h.SetSpdcid(0x1234);
    h.SetDpdcid(0xABCD);
    // 00010 0011 0011000 = 0x1198
    const Bytes expected = {0x11, 0x98, 0xFF, 0xFE, 0x01, 0x02, 0x03, 0x04, 0x12, 0x34, 0xAB, 0xCD};
    ExpectWire(h, expected);
    EXPECT_EQ(h.GetSerializedSize(), 12u);
    EXPECT_EQ(h.GetClearPsn(), 0x01020302u);
    Bytes fast(12);
    EXPECT_EQ(UetPdsRequestHeader::WriteFields(fast.data(),
                                               UetPdsHeader::RUD_REQ,
                                               UetPdsHeader::NH_REQUEST_STD,
                                               UetPdsHeader::FLAG_RETX | UetPdsHeader::FLAG_AR,
                                               -2,
                                               0x01020304,
                                               0x1234,
                                               0xABCD),
              12u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsRequestHeader>(expected);
    EXPECT_EQ(p.GetType(), UetPdsHeader::RUD_REQ);
    EXPECT_EQ(p.GetNextHeader(), UetPdsHeader::NH_REQUEST_STD);
    EXPECT_TRUE(p.GetRetx());
    EXPECT_TRUE(p.GetAr());
    EXPECT_FALSE(p.GetSyn());
    EXPECT_EQ(p.GetClearPsnOffset(), -2);
    EXPECT_EQ(p.GetPsn(), 0x01020304u);
    EXPECT_EQ(p.GetSpdcid(), 0x1234);
    EXPECT_EQ(p.GetDpdcid(), 0xABCD);
    EXPECT_EQ(UetPdsRequestHeader::PeekPsn(expected.data()), 0x01020304u);
    EXPECT_EQ(UetPdsRequestHeader::PeekSpdcid(expected.data()), 0x1234);
    EXPECT_EQ(UetPdsRequestHeader::PeekDpdcid(expected.data()), 0xABCD);
}

TEST(UetPdsRequestHeader, RodSynLayout)
{
    UetPdsRequestHeader h;
    h.SetType(UetPdsHeader::ROD_REQ);
    h.SetNextHeader(UetPdsHeader::NH_REQUEST_STD);
    h.SetSyn(true);
    h.SetPsn(1000);
    h.SetSpdcid(7);
    h.SetUseReservedPdc(true);
    h.SetPsnOffset(5);
    // 00011 0011 0000100 = 0x1984; pdc_info 1000 | psn_offset 0x005
    const Bytes expected = {0x19, 0x84, 0x00, 0x00, 0x00, 0x00, 0x03, 0xE8, 0x00, 0x07, 0x80, 0x05};
    ExpectWire(h, expected);
    EXPECT_EQ(h.GetPdcInfo(), 8);
    EXPECT_EQ(h.GetStartPsn(), 995u);
    Bytes fast(12);
    UetPdsRequestHeader::WriteFields(fast.data(),
                                     UetPdsHeader::ROD_REQ,
                                     UetPdsHeader::NH_REQUEST_STD,
                                     UetPdsHeader::FLAG_SYN,
                                     0,
                                     1000,
                                     7,
                                     UetPdsRequestHeader::SynField(8, 5));
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsRequestHeader>(expected);
    EXPECT_TRUE(p.GetSyn());
    EXPECT_TRUE(p.GetUseReservedPdc());
    EXPECT_EQ(p.GetPsnOffset(), 5);
    EXPECT_EQ(p.GetStartPsn(), 995u);
    EXPECT_NE(Printed(p).find("SYN"), std::string::npos);
    EXPECT_NE(Printed(p).find("psn_offset=5"), std::string::npos);
}

TEST(UetPdsRequestHeader, RudCcRequestLayout)
{
    UetPdsRequestHeader h;
    h.SetType(UetPdsHeader::RUD_CC_REQ);
    h.SetNextHeader(UetPdsHeader::NH_REQUEST_SMALL);
    h.SetClearPsnOffset(5);
    h.SetPsn(0xFFFFFFFF);
    h.SetSpdcid(1);
    h.SetDpdcid(2);
    h.SetCccId(0xDC);
    h.SetCreditTarget(0x89ABCD);
    // 01101 0001 0000000 = 0x6880
    const Bytes expected = {0x68,
                            0x80,
                            0x00,
                            0x05,
                            0xFF,
                            0xFF,
                            0xFF,
                            0xFF,
                            0x00,
                            0x01,
                            0x00,
                            0x02,
                            0xDC,
                            0x89,
                            0xAB,
                            0xCD};
    ExpectWire(h, expected);
    EXPECT_EQ(h.GetSerializedSize(), 16u);
    EXPECT_EQ(h.GetClearPsn(), 4u); // wraps
    Bytes fast(16);
    EXPECT_EQ(UetPdsRequestHeader::WriteFields(fast.data(),
                                               UetPdsHeader::RUD_CC_REQ,
                                               UetPdsHeader::NH_REQUEST_SMALL,
                                               0,
                                               5,
                                               0xFFFFFFFF,
                                               1,
                                               2,
                                               0xDC,
                                               0x89ABCD),
              16u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsRequestHeader>(expected);
    EXPECT_EQ(p.GetCccId(), 0xDC);
    EXPECT_EQ(p.GetCreditTarget(), 0x89ABCDu);
    // ROD_CC_REQ: type 14
    h.SetType(UetPdsHeader::ROD_CC_REQ);
    Bytes rod = expected;
    rod[0] = 0x70;
    ExpectWire(h, rod);
    EXPECT_NE(Printed(h).find("ROD_CC_REQ"), std::string::npos);
    EXPECT_NE(Printed(h).find("credit_target=9022413"), std::string::npos);
}

// ----------------------------------------------------------------------------------- RUDI, UUD

TEST(UetPdsRudiHeader, RequestAndResponseLayout)
{
    UetPdsRudiHeader h;
    h.SetType(UetPdsHeader::RUDI_RESP);
    h.SetNextHeader(UetPdsHeader::NH_RESPONSE);
    h.SetM(true);
    h.SetRetx(true);
    h.SetPktId(0xDEADBEEF);
    // 00101 0100 0110000 = 0x2A30
    const Bytes resp = {0x2A, 0x30, 0x00, 0x00, 0xDE, 0xAD, 0xBE, 0xEF};
    ExpectWire(h, resp);
    Bytes fast(8);
    UetPdsRudiHeader::WriteFields(fast.data(),
                                  UetPdsHeader::RUDI_RESP,
                                  UetPdsHeader::NH_RESPONSE,
                                  UetPdsHeader::FLAG_M | UetPdsHeader::FLAG_RETX,
                                  0xDEADBEEF);
    EXPECT_EQ(fast, resp);
    auto p = Parse<UetPdsRudiHeader>(resp);
    EXPECT_EQ(p.GetType(), UetPdsHeader::RUDI_RESP);
    EXPECT_TRUE(p.GetM());
    EXPECT_TRUE(p.GetRetx());
    EXPECT_EQ(p.GetPktId(), 0xDEADBEEFu);

    UetPdsRudiHeader req;
    req.SetPktId(42);
    ExpectWire(req, {0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2A});
    EXPECT_NE(Printed(req).find("RUDI_REQ"), std::string::npos);
    EXPECT_NE(Printed(req).find("pkt_id=42"), std::string::npos);
}

TEST(UetPdsUudHeader, Layout)
{
    UetPdsUudHeader h;
    h.SetNextHeader(UetPdsHeader::NH_REQUEST_SMALL);
    const Bytes expected = {0x30, 0x80, 0x00, 0x00}; // 00110 0001 0000000
    ExpectWire(h, expected);
    Bytes fast(4);
    EXPECT_EQ(UetPdsUudHeader::WriteFields(fast.data(), UetPdsHeader::NH_REQUEST_SMALL), 4u);
    EXPECT_EQ(fast, expected);
    EXPECT_EQ(Parse<UetPdsUudHeader>(expected).GetNextHeader(), UetPdsHeader::NH_REQUEST_SMALL);
    EXPECT_NE(Printed(h).find("UUD_REQ nh=REQUEST_SMALL"), std::string::npos);
}

// ------------------------------------------------------------------------------------ ACKs

TEST(UetPdsAckHeader, AckLayout)
{
    UetPdsAckHeader h;
    h.SetNextHeader(UetPdsHeader::NH_RESPONSE);
    h.SetM(true);
    h.SetReq(UetPdsHeader::ACK_REQ_CLOSE);
    h.SetAckPsnOffset(3);
    h.SetCackPsn(0x00010000);
    h.SetSpdcid(0x0102);
    h.SetDpdcid(0x0304);
    // 00111 0100 0100100 = 0x3A24
    const Bytes expected = {0x3A, 0x24, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04};
    ExpectWire(h, expected);
    EXPECT_EQ(h.GetAckPsn(), 0x00010003u);
    Bytes fast(12);
    EXPECT_EQ(UetPdsAckHeader::WriteAck(fast.data(),
                                        UetPdsHeader::NH_RESPONSE,
                                        UetPdsHeader::FLAG_M | (UetPdsHeader::ACK_REQ_CLOSE << 1),
                                        3,
                                        0x00010000,
                                        0x0102,
                                        0x0304),
              12u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsAckHeader>(expected);
    EXPECT_TRUE(p.GetM());
    EXPECT_FALSE(p.GetRetx());
    EXPECT_FALSE(p.GetP());
    EXPECT_EQ(p.GetReq(), UetPdsHeader::ACK_REQ_CLOSE);
    EXPECT_EQ(p.GetCackPsn(), 0x00010000u);
    EXPECT_EQ(UetPdsAckHeader::PeekCackPsn(expected.data()), 0x00010000u);
    h.SetReq(UetPdsHeader::ACK_REQ_CLEAR);
    EXPECT_EQ(Written(h)[1], 0x22);
}

TEST(UetPdsAckHeader, AckCcNsccLayout)
{
    UetPdsAckHeader h;
    h.SetType(UetPdsHeader::ACK_CC);
    h.SetRetx(true);
    h.SetAckPsnOffset(-1);
    h.SetCackPsn(100);
    h.SetSpdcid(9);
    h.SetDpdcid(10);
    h.SetCcType(UetPdsHeader::CC_NSCC);
    h.SetMpr(128);
    h.SetSackPsnOffset(64);
    h.SetSackBitmap(0x8000000000000001ull);
    h.SetServiceTime(0x1234);
    h.SetRc(true);
    h.SetRcvCwndPend(5);
    h.SetRcvdBytes(0xABCDEF);
    h.SetOooCount(0x0102);
    // 01000 0000 0010000 = 0x4010
    const Bytes expected = {0x40, 0x10, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x64, 0x00, 0x09, 0x00,
                            0x0A, 0x00, 0x80, 0x00, 0x40, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
                            0x00, 0x01, 0x12, 0x34, 0x85, 0xAB, 0xCD, 0xEF, 0x01, 0x02};
    ASSERT_EQ(expected.size(), 32u);
    ExpectWire(h, expected);
    EXPECT_EQ(h.GetAckPsn(), 99u);
    EXPECT_EQ(h.GetSackBasePsn(), 164u);
    Bytes fast(32);
    EXPECT_EQ(UetPdsAckHeader::WriteAckCc(
                  fast.data(),
                  UetPdsHeader::NH_NONE,
                  UetPdsHeader::FLAG_RETX,
                  -1,
                  100,
                  9,
                  10,
                  UetPdsHeader::CC_NSCC,
                  128,
                  64,
                  0x8000000000000001ull,
                  UetPdsAckHeader::PackNsccState(0x1234, true, 5, 0xABCDEF, 0x0102)),
              32u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsAckHeader>(expected);
    EXPECT_EQ(p.GetType(), UetPdsHeader::ACK_CC);
    EXPECT_EQ(p.GetMpr(), 128);
    EXPECT_EQ(p.GetSackPsnOffset(), 64);
    EXPECT_EQ(p.GetSackBitmap(), 0x8000000000000001ull);
    EXPECT_EQ(p.GetServiceTime(), 0x1234);
    EXPECT_TRUE(p.GetRc());
    EXPECT_EQ(p.GetRcvCwndPend(), 5);
    EXPECT_EQ(p.GetRcvdBytes(), 0xABCDEFu);
    EXPECT_EQ(p.GetOooCount(), 0x0102);
    const std::string s = Printed(p);
    EXPECT_NE(s.find("ACK_CC"), std::string::npos) << s;
    EXPECT_NE(s.find("NSCC service_time=4660"), std::string::npos) << s;
    EXPECT_NE(s.find("rcvd_bytes=11259375"), std::string::npos) << s;
}

TEST(UetPdsAckHeader, AckCcCreditLayout)
{
    UetPdsAckHeader h;
    h.SetType(UetPdsHeader::ACK_CC);
    h.SetCcType(UetPdsHeader::CC_CREDIT);
    h.SetCredit(0x123456);
    h.SetOooCount(7);
    const Bytes expected = {0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                            0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                            0x00, 0x00, 0x12, 0x34, 0x56, 0x00, 0x00, 0x00, 0x00, 0x07};
    ExpectWire(h, expected);
    Bytes fast(32);
    UetPdsAckHeader::WriteAckCc(fast.data(),
                                0,
                                0,
                                0,
                                0,
                                0,
                                0,
                                UetPdsHeader::CC_CREDIT,
                                0,
                                0,
                                0,
                                UetPdsAckHeader::PackCreditState(0x123456, 7));
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsAckHeader>(expected);
    EXPECT_EQ(p.GetCcType(), UetPdsHeader::CC_CREDIT);
    EXPECT_EQ(p.GetCredit(), 0x123456u);
    EXPECT_EQ(p.GetOooCount(), 7);
    EXPECT_NE(Printed(p).find("CREDIT credit=1193046"), std::string::npos);
}

TEST(UetPdsAckHeader, AckCcxLayout)
{
    uint8_t ccx[16];
    for (int i = 0; i < 16; ++i)
    {
        ccx[i] = static_cast<uint8_t>(i);
    }
    UetPdsAckHeader h;
    h.SetType(UetPdsHeader::ACK_CCX);
    h.SetP(true);
    h.SetProbeOpaque(0xBEEF);
    h.SetCcType(2);
    h.SetCcFlags(0xF);
    h.SetCcxState(ccx);
    // 01001 0000 0001000 = 0x4808
    Bytes expected = {0x48, 0x08, 0xBE, 0xEF, 0, 0, 0, 0, 0, 0, 0, 0,
                      0x2F, 0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 16; ++i)
    {
        expected.push_back(static_cast<uint8_t>(i));
    }
    ASSERT_EQ(expected.size(), 40u);
    ExpectWire(h, expected);
    Bytes fast(40);
    EXPECT_EQ(UetPdsAckHeader::WriteAckCcx(fast.data(),
                                           0,
                                           UetPdsHeader::FLAG_P,
                                           static_cast<int16_t>(0xBEEF),
                                           0,
                                           0,
                                           0,
                                           2,
                                           0,
                                           0,
                                           0,
                                           ccx,
                                           0xF),
              40u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsAckHeader>(expected);
    EXPECT_TRUE(p.GetP());
    EXPECT_EQ(p.GetProbeOpaque(), 0xBEEF);
    EXPECT_EQ(p.GetCcFlags(), 0xF);
    EXPECT_EQ(Bytes(p.GetCcxState(), p.GetCcxState() + 16), Bytes(ccx, ccx + 16));
    EXPECT_NE(Printed(p).find("ccx_state=000102030405060708090a0b0c0d0e0f"), std::string::npos);
}

// ------------------------------------------------------------------------------------ NACK

TEST(UetPdsNackHeader, Layout)
{
    UetPdsNackHeader h;
    h.SetM(true);
    h.SetNackCode(UetNackCode::NACK_TRIMMED_LASTHOP);
    h.SetVendorCode(0x77);
    h.SetNackPsn(0x11223344);
    h.SetSpdcid(5);
    h.SetDpdcid(6);
    h.SetPayload(0x100);
    // 01010 0000 0100000 = 0x5020
    const Bytes expected = {0x50,
                            0x20,
                            0x02,
                            0x77,
                            0x11,
                            0x22,
                            0x33,
                            0x44,
                            0x00,
                            0x05,
                            0x00,
                            0x06,
                            0x00,
                            0x00,
                            0x01,
                            0x00};
    ExpectWire(h, expected);
    Bytes fast(16);
    EXPECT_EQ(UetPdsNackHeader::WriteFields(fast.data(),
                                            0,
                                            UetPdsHeader::FLAG_M,
                                            UetNackCode::NACK_TRIMMED_LASTHOP,
                                            0x77,
                                            0x11223344,
                                            5,
                                            6,
                                            0x100),
              16u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsNackHeader>(expected);
    EXPECT_TRUE(p.GetM());
    EXPECT_FALSE(p.GetNt());
    EXPECT_EQ(p.GetNackCode(), UetNackCode::NACK_TRIMMED_LASTHOP);
    EXPECT_EQ(p.GetNackPsn(), 0x11223344u);
    EXPECT_EQ(p.GetPayload(), 0x100u);
    EXPECT_EQ(UetPdsNackHeader::PeekNackCode(expected.data()), 2);
    EXPECT_EQ(UetPdsNackHeader::PeekNackPsn(expected.data()), 0x11223344u);
    EXPECT_NE(Printed(p).find("code=TRIMMED_LASTHOP(0x2)"), std::string::npos) << Printed(p);
    h.SetNt(true);
    h.SetRetx(true);
    EXPECT_EQ(Written(h)[1], 0x38);
    // Unknown codes are carried.
    h.SetNackCode(0x0C);
    EXPECT_EQ(Parse<UetPdsNackHeader>(Written(h)).GetNackCode(), 0x0C);
    EXPECT_NE(Printed(h).find("code=UNKNOWN"), std::string::npos);
}

// ----------------------------------------------------------------------------------- control

TEST(UetPdsControlHeader, Layout)
{
    UetPdsControlHeader h;
    h.SetCtrlType(UetCtrlType::CTRL_CLOSE);
    h.SetAr(true);
    h.SetPsn(0x10);
    h.SetSpdcid(1);
    h.SetDpdcid(2);
    // 01011 0100 0001000 = 0x5A08
    const Bytes expected = {0x5A,
                            0x08,
                            0x00,
                            0x00,
                            0x00,
                            0x00,
                            0x00,
                            0x10,
                            0x00,
                            0x01,
                            0x00,
                            0x02,
                            0x00,
                            0x00,
                            0x00,
                            0x00};
    ExpectWire(h, expected);
    Bytes fast(16);
    EXPECT_EQ(UetPdsControlHeader::WriteFields(fast.data(),
                                               UetCtrlType::CTRL_CLOSE,
                                               UetPdsHeader::FLAG_AR,
                                               0,
                                               0x10,
                                               1,
                                               2,
                                               0),
              16u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetPdsControlHeader>(expected);
    EXPECT_EQ(p.GetCtrlType(), UetCtrlType::CTRL_CLOSE);
    EXPECT_TRUE(p.GetAr());
    EXPECT_NE(Printed(p).find("CTRL ctl=CLOSE"), std::string::npos) << Printed(p);
    // Every control type round-trips in bits 10..7 of the prologue.
    for (uint8_t t = 0; t <= UetCtrlType::CTRL_CREDIT_REQ; ++t)
    {
        h.SetCtrlType(t);
        h.SetProbeOpaque(0xA5A5);
        h.SetPayload(0xFFFFFFF0u + t);
        Bytes b = Written(h);
        EXPECT_EQ(((b[0] & 0x7) << 1) | (b[1] >> 7), t);
        auto q = Parse<UetPdsControlHeader>(b);
        EXPECT_EQ(q.GetCtrlType(), t);
        EXPECT_EQ(q.GetPayload(), 0xFFFFFFF0u + t);
        EXPECT_EQ(q.GetProbeOpaque(), 0xA5A5);
        EXPECT_EQ(Serialized(q), b);
    }
    // SYN view of octets 10-11.
    h.SetSyn(true);
    h.SetPdcInfo(0x8);
    h.SetPsnOffset(0xFFF);
    EXPECT_EQ(h.GetDpdcid(), 0x8FFF);
    EXPECT_NE(Printed(h).find("psn_offset=4095"), std::string::npos);
}

// ------------------------------------------------------------------------------------ SES

TEST(UetSesRequestHeader, StandardSomLayout)
{
    UetSesRequestHeader h;
    h.SetOpcode(UetSesOpcode::WRITE);
    h.SetSom(true);
    h.SetEom(true);
    h.SetRel(true);
    h.SetMessageId(0x0102);
    h.SetRiGeneration(3);
    h.SetJobId(0x040506);
    h.SetPidOnFep(0x789);
    h.SetResourceIndex(0xABC);
    h.SetBufferOffset(0x1122334455667788ull);
    h.SetInitiator(0x99AABBCC);
    h.SetMemoryKey(0x0102030405060708ull);
    h.SetHeaderData(0xCAFEBABE00000001ull);
    h.SetRequestLength(0x00100000);
    const Bytes expected = {0x01, 0x0B, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x89, 0x0A,
                            0xBC, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA,
                            0xBB, 0xCC, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xCA,
                            0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00};
    ASSERT_EQ(expected.size(), 44u);
    ExpectWire(h, expected);
    Bytes fast(44);
    EXPECT_EQ(UetSesRequestHeader::WriteFields(fast.data(),
                                               UetSesOpcode::WRITE,
                                               UetSesHeader::FLAG_SOM | UetSesHeader::FLAG_EOM |
                                                   UetSesHeader::FLAG_REL,
                                               0x0102,
                                               3,
                                               0x040506,
                                               0x789,
                                               0xABC,
                                               0x1122334455667788ull,
                                               0x99AABBCC,
                                               0x0102030405060708ull,
                                               0xCAFEBABE00000001ull,
                                               0x00100000),
              44u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetSesRequestHeader>(expected);
    EXPECT_EQ(p.GetOpcode(), UetSesOpcode::WRITE);
    EXPECT_TRUE(p.GetSom());
    EXPECT_TRUE(p.GetEom());
    EXPECT_TRUE(p.GetRel());
    EXPECT_FALSE(p.GetHd());
    EXPECT_EQ(p.GetMessageId(), 0x0102);
    EXPECT_EQ(p.GetJobId(), 0x040506u);
    EXPECT_EQ(p.GetPidOnFep(), 0x789);
    EXPECT_EQ(p.GetResourceIndex(), 0xABC);
    EXPECT_EQ(p.GetBufferOffset(), 0x1122334455667788ull);
    EXPECT_EQ(p.GetInitiator(), 0x99AABBCCu);
    EXPECT_EQ(p.GetMemoryKey(), 0x0102030405060708ull);
    EXPECT_EQ(p.GetHeaderData(), 0xCAFEBABE00000001ull);
    EXPECT_EQ(p.GetRequestLength(), 0x00100000u);
    const std::string s = Printed(p);
    EXPECT_NE(s.find("SES STD op=WRITE(1)"), std::string::npos) << s;
    EXPECT_NE(s.find("header_data=0xcafebabe00000001"), std::string::npos) << s;
}

TEST(UetSesRequestHeader, StandardMiddlePacketLayout)
{
    UetSesRequestHeader h;
    h.SetOpcode(UetSesOpcode::TAGGED_SEND);
    h.SetVersion(1);
    h.SetDc(true);
    h.SetEom(true);
    h.SetPayloadLength(4096);
    h.SetMessageOffset(0x2000);
    Bytes expected(44, 0);
    expected[0] = 0x09;
    expected[1] = 0x62; // version 01 | DC | EOM
    expected[34] = 0x10;
    expected[38] = 0x20;
    ExpectWire(h, expected);
    Bytes fast(44);
    UetSesRequestHeader::WriteFields(fast.data(),
                                     UetSesOpcode::TAGGED_SEND,
                                     UetSesHeader::FLAG_DC | UetSesHeader::FLAG_EOM,
                                     0,
                                     0,
                                     0,
                                     0,
                                     0,
                                     0,
                                     0,
                                     0,
                                     UetSesRequestHeader::PackLengthOffset(4096, 0x2000),
                                     0,
                                     1);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetSesRequestHeader>(expected);
    EXPECT_EQ(p.GetVersion(), 1);
    EXPECT_EQ(p.GetPayloadLength(), 4096);
    EXPECT_EQ(p.GetMessageOffset(), 0x2000u);
    EXPECT_NE(Printed(p).find("payload_length=4096 message_offset=8192"), std::string::npos);
    // Reserved bits around PIDonFEP and the Resource Index are ignored when read.
    Bytes dirty = expected;
    dirty[8] = 0xF0;
    dirty[10] = 0xF0;
    EXPECT_EQ(Parse<UetSesRequestHeader>(dirty).GetPidOnFep(), 0);
    EXPECT_EQ(Parse<UetSesRequestHeader>(dirty).GetResourceIndex(), 0);
}

TEST(UetSesSmallRequestHeader, Layout)
{
    UetSesSmallRequestHeader h;
    h.SetRequestLength(0x0ABC);
    h.SetRiGeneration(1);
    h.SetJobId(2);
    h.SetPidOnFep(3);
    h.SetResourceIndex(4);
    h.SetBufferOffset(0x10);
    const Bytes expected = {0x01, 0x03, 0x0A, 0xBC, 0x01, 0x00, 0x00, 0x02, 0x00, 0x03,
                            0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10};
    ExpectWire(h, expected);
    Bytes fast(20);
    EXPECT_EQ(UetSesSmallRequestHeader::WriteFields(fast.data(),
                                                    UetSesOpcode::WRITE,
                                                    UetSesHeader::FLAG_SOM | UetSesHeader::FLAG_EOM,
                                                    0x0ABC,
                                                    1,
                                                    2,
                                                    3,
                                                    4,
                                                    0x10),
              20u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetSesSmallRequestHeader>(expected);
    EXPECT_EQ(p.GetRequestLength(), 0x0ABC);
    EXPECT_EQ(p.GetBufferOffset(), 0x10u);
    EXPECT_NE(Printed(p).find("SES SMALL op=WRITE(1)"), std::string::npos) << Printed(p);
}

TEST(UetSesResponseHeader, Layout)
{
    UetSesResponseHeader h;
    h.SetList(UetSesHeader::LIST_OVERFLOW);
    h.SetOpcode(UetSesHeader::RESPONSE);
    h.SetReturnCode(UetSesReturnCode::RC_NO_MATCH);
    h.SetMessageId(0x1234);
    h.SetRiGeneration(0x56);
    h.SetJobId(0x789ABC);
    h.SetModifiedLength(0x1000);
    const Bytes expected = {0x41, 0x05, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0x00, 0x00, 0x10, 0x00};
    ExpectWire(h, expected);
    Bytes fast(12);
    EXPECT_EQ(UetSesResponseHeader::WriteFields(fast.data(),
                                                UetSesHeader::RESPONSE,
                                                UetSesReturnCode::RC_NO_MATCH,
                                                0x1234,
                                                0x56,
                                                0x789ABC,
                                                0x1000,
                                                UetSesHeader::LIST_OVERFLOW),
              12u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetSesResponseHeader>(expected);
    EXPECT_EQ(p.GetList(), 1);
    EXPECT_EQ(p.GetOpcode(), UetSesHeader::RESPONSE);
    EXPECT_EQ(p.GetReturnCode(), UetSesReturnCode::RC_NO_MATCH);
    EXPECT_EQ(p.GetJobId(), 0x789ABCu);
    EXPECT_EQ(p.GetModifiedLength(), 0x1000u);
    EXPECT_NE(Printed(p).find("rc=NO_MATCH(5)"), std::string::npos) << Printed(p);
    EXPECT_EQ(UetSesReturnCode::RC_OK, 1);
    EXPECT_EQ(UetSesReturnCode::RC_BAD_JOB_ID, 0x1B);
    EXPECT_EQ(UetSesReturnCode::RC_TOO_LONG, 0x22);
    EXPECT_STREQ(UetSesHeader::ReturnCodeName(0x22), "TOO_LONG");
    EXPECT_STREQ(UetSesHeader::ReturnCodeName(0x25), "UNKNOWN");
}

TEST(UetSesResponseDataHeader, Layout)
{
    UetSesResponseDataHeader h;
    h.SetMessageId(1);
    h.SetJobId(0x10);
    h.SetReadRequestMessageId(2);
    h.SetPayloadLength(0x3FFF);
    h.SetModifiedLength(0x4000);
    h.SetMessageOffset(0x8000);
    const Bytes expected = {0x02, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x02,
                            0x3F, 0xFF, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x80, 0x00};
    ExpectWire(h, expected);
    Bytes fast(20);
    EXPECT_EQ(UetSesResponseDataHeader::WriteFields(fast.data(),
                                                    UetSesReturnCode::RC_OK,
                                                    1,
                                                    0x10,
                                                    2,
                                                    0x3FFF,
                                                    0x4000,
                                                    0x8000),
              20u);
    EXPECT_EQ(fast, expected);
    auto p = Parse<UetSesResponseDataHeader>(expected);
    EXPECT_EQ(p.GetOpcode(), UetSesHeader::RESPONSE_W_DATA);
    EXPECT_EQ(p.GetReadRequestMessageId(), 2);
    EXPECT_EQ(p.GetPayloadLength(), 0x3FFF);
    EXPECT_EQ(p.GetMessageOffset(), 0x8000u);
    EXPECT_NE(Printed(p).find("op=RESPONSE_W_DATA(2)"), std::string::npos) << Printed(p);
}

TEST(UetHeaders, PdsAndSesStackInOnePacket)
{
    Ptr<Packet> p = Create<Packet>(4096);
    UetSesRequestHeader ses;
    ses.SetOpcode(UetSesOpcode::SEND);
    ses.SetSom(true);
    ses.SetRequestLength(4096);
    p->AddHeader(ses);
    UetPdsRequestHeader pds;
    pds.SetNextHeader(UetPdsHeader::NH_REQUEST_STD);
    pds.SetPsn(77);
    p->AddHeader(pds);
    EXPECT_EQ(p->GetSize(), 4096u + 12 + 44);
    uint8_t head[2];
    p->CopyData(head, 2);
    ASSERT_EQ(UetPdsHeader::PeekType(head), UetPdsHeader::RUD_REQ);
    UetPdsRequestHeader pds2;
    EXPECT_EQ(p->RemoveHeader(pds2), 12u);
    EXPECT_EQ(pds2.GetPsn(), 77u);
    ASSERT_EQ(UetPdsHeader::SesHeaderSize(pds2.GetNextHeader()), 44u);
    UetSesRequestHeader ses2;
    EXPECT_EQ(p->RemoveHeader(ses2), 44u);
    EXPECT_EQ(ses2.GetOpcode(), UetSesOpcode::SEND);
    EXPECT_EQ(ses2.GetRequestLength(), 4096u);
    EXPECT_EQ(p->GetSize(), 4096u);
}

// ------------------------------------------------------------------------- field-width errors

TEST(UetHeadersDeathTest, SettersRejectValuesWiderThanTheirField)
{
    UetPdsRequestHeader req;
    EXPECT_DEATH(req.SetNextHeader(16),
                 "UET PDS next_hdr 16 \\(0x10\\) is out of range; "
                 "valid values are 0..15 \\(0xf, 4 bits\\)");
    EXPECT_DEATH(req.SetFlags(128), "UET PDS flags 128 .* valid values are 0..127");
    EXPECT_DEATH(req.SetPdcInfo(16), "UET PDS request pdc_info 16 .* 0..15");
    EXPECT_DEATH(req.SetPsnOffset(4096), "UET PDS request psn_offset 4096 .* 0..4095");
    EXPECT_DEATH(req.SetCreditTarget(1u << 24),
                 "UET PDS request credit_target 16777216 .* 0..16777215");
    EXPECT_DEATH(req.SetType(UetPdsHeader::ACK), "PDS type 7 \\(ACK\\) is not a type of this");
    UetPdsRudiHeader rudi;
    EXPECT_DEATH(rudi.SetType(UetPdsHeader::UUD_REQ), "PDS type 6 \\(UUD_REQ\\)");
    UetPdsAckHeader ack;
    EXPECT_DEATH(ack.SetReq(4), "UET PDS ACK REQ 4 .* 0..3");
    EXPECT_DEATH(ack.SetCcType(16), "UET PDS ACK cc_type 16 .* 0..15");
    EXPECT_DEATH(ack.SetCcFlags(16), "UET PDS ACK cc_flags 16");
    EXPECT_DEATH(ack.SetRcvCwndPend(128), "UET PDS ACK_CC rcv_cwnd_pend 128 .* 0..127");
    EXPECT_DEATH(ack.SetRcvdBytes(1u << 24), "UET PDS ACK_CC rcvd_bytes 16777216");
    EXPECT_DEATH(ack.SetCredit(1u << 24), "UET PDS ACK_CC credit 16777216");
    EXPECT_DEATH(ack.SetType(UetPdsHeader::NACK), "PDS type 10 \\(NACK\\)");
    UetPdsControlHeader ctl;
    EXPECT_DEATH(ctl.SetCtrlType(16), "UET PDS control ctl_type 16 .* 0..15");
    EXPECT_DEATH(ctl.SetPsnOffset(4096), "UET PDS control psn_offset 4096");
    EXPECT_DEATH(ctl.SetPdcInfo(16), "UET PDS control pdc_info 16");
    UetSesRequestHeader ses;
    EXPECT_DEATH(ses.SetOpcode(64), "UET SES request opcode 64 .* 0..63");
    EXPECT_DEATH(ses.SetVersion(4), "UET SES request version 4 .* 0..3");
    EXPECT_DEATH(ses.SetFlags(64), "UET SES request flags 64");
    EXPECT_DEATH(ses.SetJobId(1u << 24), "UET SES JobID 16777216 .* 0..16777215");
    EXPECT_DEATH(ses.SetPidOnFep(4096),
                 "UET SES PIDonFEP 4096 \\(0x1000\\) is out of range; "
                 "valid values are 0..4095 \\(0xfff, 12 bits\\)");
    EXPECT_DEATH(ses.SetResourceIndex(4096), "UET SES Resource Index 4096");
    EXPECT_DEATH(ses.SetPayloadLength(16384), "UET SES payload_length 16384 .* 0..16383");
    UetSesSmallRequestHeader small;
    EXPECT_DEATH(small.SetRequestLength(16384), "UET SES small request request_length 16384");
    UetSesResponseHeader rsp;
    EXPECT_DEATH(rsp.SetReturnCode(64), "UET SES response return_code 64 .* 0..63");
    EXPECT_DEATH(rsp.SetList(4), "UET SES response list 4");
    EXPECT_DEATH(rsp.SetOpcode(64), "UET SES response opcode 64");
    EXPECT_DEATH(rsp.SetJobId(1u << 24), "UET SES response JobID 16777216");
    UetSesResponseDataHeader rspd;
    EXPECT_DEATH(rspd.SetPayloadLength(16384), "UET SES response payload_length 16384");
}

TEST(UetHeadersDeathTest, ReadingTheWrongTypeAborts)
{
    uint8_t ack[12] = {};
    UetPdsAckHeader::WriteAck(ack, 0, 0, 0, 0, 0, 0);
    UetPdsRequestHeader req;
    EXPECT_DEATH(req.Read(ack), "cannot read a PDS header of type 7 \\(ACK\\)");
    UetPdsNackHeader nack;
    EXPECT_DEATH(nack.Read(ack), "cannot read a PDS header of type 7");
}

// ------------------------------------------------------------------ Wireshark Lua dissector

/// One UET frame: Ethernet / IPv4 (ECT(0)) / UDP (sport = EV, dport 4793) / headers / payload.
Ptr<Packet>
UetFrame(Ptr<Packet> uet, uint16_t ev)
{
    UdpHeader udp;
    udp.SetSourcePort(ev);
    udp.SetDestinationPort(UetPdsHeader::UDP_DST_PORT); // checksum 0: not computed
    uet->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.1.1"));
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetEcn(Ipv4Header::ECN_ECT0);
    ip.SetPayloadSize(uet->GetSize());
    ip.EnableChecksum();
    uet->AddHeader(ip);
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("00:00:00:00:00:01"));
    eth.SetDestination(Mac48Address("00:00:00:00:00:02"));
    eth.SetLengthType(0x0800);
    uet->AddHeader(eth);
    return uet;
}

template <typename... H>
Ptr<Packet>
Stack(uint32_t payload, const H&... headers)
{
    Ptr<Packet> p = Create<Packet>(payload);
    // Headers are given outermost first; add them innermost first.
    const Header* hs[] = {&headers...};
    for (std::size_t i = sizeof...(H); i-- > 0;)
    {
        p->AddHeader(*hs[i]);
    }
    return p;
}

std::string
LuaScript()
{
    return std::string(AI_FABRIC_SOURCE_DIR) + "/tools/wireshark/uet.lua";
}

TEST(UetLuaDissector, TsharkDecodesEveryHeaderType)
{
    int status = 0;
    test::RunCommand(test::TsharkPath() + " -v >/dev/null 2>&1", &status);
    if (status != 0)
    {
        GTEST_SKIP() << "tshark (" << test::TsharkPath()
                     << ") is not installed: the UET Lua dissector is not tested";
    }
    const std::string file = "uet-header-test.pcap";
    std::remove(file.c_str());
    std::vector<Ptr<Packet>> frames;
    {
        // 1: RUD_REQ + SES standard WRITE (SOM) + 1024 B
        UetPdsRequestHeader pds;
        pds.SetNextHeader(UetPdsHeader::NH_REQUEST_STD);
        pds.SetAr(true);
        pds.SetClearPsnOffset(-2);
        pds.SetPsn(1000);
        pds.SetSpdcid(11);
        pds.SetDpdcid(22);
        UetSesRequestHeader ses;
        ses.SetOpcode(UetSesOpcode::WRITE);
        ses.SetSom(true);
        ses.SetMessageId(5);
        ses.SetJobId(0x123456);
        ses.SetPidOnFep(0x789);
        ses.SetResourceIndex(0xABC);
        ses.SetBufferOffset(4096);
        ses.SetHeaderData(0xCAFE);
        ses.SetRequestLength(8192);
        frames.push_back(Stack(1024, pds, ses));
    }
    {
        // 2: ROD_REQ with SYN + SES standard TAGGED_SEND, middle packet
        UetPdsRequestHeader pds;
        pds.SetType(UetPdsHeader::ROD_REQ);
        pds.SetNextHeader(UetPdsHeader::NH_REQUEST_STD);
        pds.SetSyn(true);
        pds.SetRetx(true);
        pds.SetPsn(70000);
        pds.SetSpdcid(3);
        pds.SetPdcInfo(8);
        pds.SetPsnOffset(5);
        UetSesRequestHeader ses;
        ses.SetOpcode(UetSesOpcode::TAGGED_SEND);
        ses.SetEom(true);
        ses.SetPayloadLength(4096);
        ses.SetMessageOffset(0x2000);
        frames.push_back(Stack(4096, pds, ses));
    }
    {
        // 3: RUD_CC_REQ + SES small WRITE
        UetPdsRequestHeader pds;
        pds.SetType(UetPdsHeader::RUD_CC_REQ);
        pds.SetNextHeader(UetPdsHeader::NH_REQUEST_SMALL);
        pds.SetPsn(7);
        pds.SetCccId(0xDC);
        pds.SetCreditTarget(0x89ABCD);
        UetSesSmallRequestHeader ses;
        ses.SetRequestLength(64);
        ses.SetJobId(9);
        frames.push_back(Stack(64, pds, ses));
    }
    {
        // 4: ROD_CC_REQ, no SES
        UetPdsRequestHeader pds;
        pds.SetType(UetPdsHeader::ROD_CC_REQ);
        pds.SetPsn(8);
        pds.SetCreditTarget(100);
        frames.push_back(Stack(0, pds));
    }
    {
        // 5: RUDI_REQ + SES small
        UetPdsRudiHeader pds;
        pds.SetNextHeader(UetPdsHeader::NH_REQUEST_SMALL);
        pds.SetPktId(0xDEADBEEF);
        UetSesSmallRequestHeader ses;
        frames.push_back(Stack(32, pds, ses));
    }
    {
        // 6: RUDI_RESP + SES response
        UetPdsRudiHeader pds;
        pds.SetType(UetPdsHeader::RUDI_RESP);
        pds.SetNextHeader(UetPdsHeader::NH_RESPONSE);
        pds.SetM(true);
        pds.SetPktId(0xDEADBEEF);
        UetSesResponseHeader ses;
        frames.push_back(Stack(0, pds, ses));
    }
    {
        // 7: UUD_REQ + SES small DATAGRAM_SEND
        UetPdsUudHeader pds;
        pds.SetNextHeader(UetPdsHeader::NH_REQUEST_SMALL);
        UetSesSmallRequestHeader ses;
        ses.SetOpcode(UetSesOpcode::DATAGRAM_SEND);
        frames.push_back(Stack(100, pds, ses));
    }
    {
        // 8: ACK + SES response (NO_MATCH)
        UetPdsAckHeader pds;
        pds.SetNextHeader(UetPdsHeader::NH_RESPONSE);
        pds.SetM(true);
        pds.SetReq(UetPdsHeader::ACK_REQ_CLOSE);
        pds.SetAckPsnOffset(3);
        pds.SetCackPsn(1000);
        pds.SetSpdcid(22);
        pds.SetDpdcid(11);
        UetSesResponseHeader ses;
        ses.SetOpcode(UetSesHeader::RESPONSE);
        ses.SetReturnCode(UetSesReturnCode::RC_NO_MATCH);
        ses.SetMessageId(5);
        ses.SetJobId(0x123456);
        ses.SetModifiedLength(8192);
        frames.push_back(Stack(0, pds, ses));
    }
    {
        // 9: ACK_CC NSCC
        UetPdsAckHeader pds;
        pds.SetType(UetPdsHeader::ACK_CC);
        pds.SetRetx(true);
        pds.SetCackPsn(2000);
        pds.SetMpr(128);
        pds.SetSackPsnOffset(64);
        pds.SetSackBitmap(0x8000000000000001ull);
        pds.SetServiceTime(0x1234);
        pds.SetRc(true);
        pds.SetRcvCwndPend(5);
        pds.SetRcvdBytes(0xABCDEF);
        pds.SetOooCount(258);
        frames.push_back(Stack(0, pds));
    }
    {
        // 10: ACK_CC credit
        UetPdsAckHeader pds;
        pds.SetType(UetPdsHeader::ACK_CC);
        pds.SetCcType(UetPdsHeader::CC_CREDIT);
        pds.SetCredit(0x123456);
        pds.SetOooCount(7);
        frames.push_back(Stack(0, pds));
    }
    {
        // 11: ACK_CCX with a probe echo + SES response with data
        uint8_t ccx[16] = {1, 2, 3};
        UetPdsAckHeader pds;
        pds.SetType(UetPdsHeader::ACK_CCX);
        pds.SetNextHeader(UetPdsHeader::NH_RESPONSE_DATA);
        pds.SetP(true);
        pds.SetProbeOpaque(0xBEEF);
        pds.SetCcxState(ccx);
        UetSesResponseDataHeader ses;
        ses.SetReadRequestMessageId(9);
        ses.SetPayloadLength(256);
        ses.SetMessageOffset(512);
        frames.push_back(Stack(256, pds, ses));
    }
    {
        // 12: NACK TRIMMED_LASTHOP
        UetPdsNackHeader pds;
        pds.SetM(true);
        pds.SetNackCode(UetNackCode::NACK_TRIMMED_LASTHOP);
        pds.SetNackPsn(1001);
        pds.SetSpdcid(22);
        pds.SetDpdcid(11);
        pds.SetPayload(1002);
        frames.push_back(Stack(0, pds));
    }
    {
        // 13: NACK with an unknown code (expert info, not malformed)
        UetPdsNackHeader pds;
        pds.SetNt(true);
        pds.SetNackCode(0x0C);
        frames.push_back(Stack(0, pds));
    }
    for (uint8_t ctl = 0; ctl <= UetCtrlType::CTRL_CREDIT_REQ; ++ctl)
    {
        // 14..22: one control packet of every control type
        UetPdsControlHeader pds;
        pds.SetCtrlType(ctl);
        pds.SetAr(ctl == UetCtrlType::CTRL_ACK_REQ);
        pds.SetPsn(3000 + ctl);
        pds.SetSpdcid(11);
        pds.SetDpdcid(22);
        pds.SetPayload(ctl);
        frames.push_back(Stack(0, pds));
    }
    {
        PcapFile pcap;
        pcap.Open(file, std::ios::out);
        pcap.Init(PcapHelper::DLT_EN10MB);
        for (std::size_t i = 0; i < frames.size(); ++i)
        {
            pcap.Write(1, static_cast<uint32_t>(i), UetFrame(frames[i], 0xC000 + i));
        }
        pcap.Close();
    }
    const std::string lua = "-X lua_script:" + LuaScript();
    // Every frame is UET; none is malformed or has an error.
    std::string protocols = test::Tshark(file, lua + " -T fields -e frame.protocols");
    std::istringstream lines(protocols);
    std::string line;
    std::size_t n = 0;
    while (std::getline(lines, line))
    {
        EXPECT_NE(line.find("eth:ethertype:ip:udp:uet"), std::string::npos) << line;
        ++n;
    }
    EXPECT_EQ(n, frames.size()) << protocols;
    EXPECT_EQ(test::Tshark(file, lua + " -Y _ws.malformed"), "");
    EXPECT_EQ(test::Tshark(file, lua + " -Y _ws.expert.severity==error"), "");
    // Only frame 13 (unknown NACK code) carries a warning.
    EXPECT_EQ(
        test::Tshark(file, lua + " -Y _ws.expert.severity==warning -T fields -e frame.number"),
        "13\n");

    auto fields = [&](const std::string& filter, const std::string& names) {
        std::string args = lua + " -E separator=, -T fields";
        if (!filter.empty())
        {
            args += " -Y \"" + filter + "\"";
        }
        std::istringstream is(names);
        std::string f;
        while (is >> f)
        {
            args += " -e " + f;
        }
        return test::Tshark(file, args);
    };
    EXPECT_EQ(fields("", "uet.pds.type uet.pds.flags"),
              "2,0x0008\n3,0x0014\n13,0x0000\n14,0x0000\n4,0x0000\n5,0x0020\n6,0x0000\n"
              "7,0x0024\n8,0x0010\n8,0x0000\n9,0x0008\n10,0x0020\n10,0x0008\n11,0x0000\n"
              "11,0x0008\n11,0x0000\n11,0x0000\n11,0x0000\n11,0x0000\n11,0x0000\n11,0x0000\n"
              "11,0x0000\n");
    EXPECT_EQ(fields("uet.pds.type <= 3 || uet.pds.type >= 13",
                     "uet.pds.psn uet.pds.spdcid uet.pds.dpdcid uet.pds.clear_psn_offset "
                     "uet.pds.flags.syn uet.pds.flags.retx uet.pds.flags.ar"),
              "1000,11,22,-2,0,0,1\n70000,3,,0,1,1,0\n7,0,0,0,0,0,0\n8,0,0,0,0,0,0\n");
    EXPECT_EQ(fields("uet.pds.flags.syn == 1", "uet.pds.pdc_info uet.pds.psn_offset"), "8,5\n");
    EXPECT_EQ(fields("uet.pds.ccc_id", "uet.pds.ccc_id uet.pds.credit_target"),
              "220,9022413\n0,100\n");
    EXPECT_EQ(fields("uet.pds.rudi.pkt_id", "uet.pds.type uet.pds.rudi.pkt_id uet.pds.flags.m"),
              "4,3735928559,0\n5,3735928559,1\n");
    EXPECT_EQ(fields("uet.pds.cack_psn",
                     "uet.pds.type uet.pds.cack_psn uet.pds.ack_psn_offset uet.pds.flags.req"),
              "7,1000,3,2\n8,2000,0,0\n8,0,0,0\n9,0,,0\n");
    EXPECT_EQ(fields("uet.pds.flags.p == 1", "uet.pds.probe_opaque"), "0xbeef\n");
    EXPECT_EQ(fields("uet.pds.type == 8 && uet.pds.ack.cc_type == 0",
                     "uet.pds.ack.mpr uet.pds.ack.sack_psn_offset uet.pds.ack.sack_bitmap "
                     "uet.pds.ack.service_time uet.pds.ack.rc uet.pds.ack.rcv_cwnd_pend "
                     "uet.pds.ack.rcvd_bytes uet.pds.ack.ooo_count"),
              "128,64,0x8000000000000001,4660,1,5,11259375,258\n");
    EXPECT_EQ(fields("uet.pds.ack.cc_type == 1", "uet.pds.ack.credit uet.pds.ack.ooo_count"),
              "1193046,7\n");
    EXPECT_EQ(fields("uet.pds.nack.code",
                     "uet.pds.nack.code uet.pds.nack.psn uet.pds.nack.payload uet.pds.flags.nt"),
              "0x02,1001,1002,0\n0x0c,0,0,1\n");
    EXPECT_EQ(fields("uet.pds.type == 11", "uet.pds.ctl_type uet.pds.psn uet.pds.ctrl.payload"),
              "0,3000,0\n1,3001,1\n2,3002,2\n3,3003,3\n4,3004,4\n5,3005,5\n6,3006,6\n7,3007,7\n"
              "8,3008,8\n");
    EXPECT_EQ(fields("uet.ses.opcode",
                     "uet.ses.opcode uet.ses.flags.som uet.ses.flags.eom uet.ses.job_id "
                     "uet.ses.pid_on_fep uet.ses.resource_index"),
              "1,1,0,1193046,1929,2748\n9,0,1,0,0,0\n1,1,1,9,0,0\n1,1,1,0,0,0\n7,1,1,0,0,0\n");
    EXPECT_EQ(fields("uet.pds.nh == 3",
                     "uet.ses.message_id uet.ses.buffer_offset uet.ses.header_data "
                     "uet.ses.payload_length uet.ses.message_offset uet.ses.request_length"),
              "5,4096,0x000000000000cafe,,,8192\n0,0,,4096,8192,0\n");
    EXPECT_EQ(fields("uet.pds.nh == 1", "uet.ses.small.request_length"), "64\n0\n0\n");
    EXPECT_EQ(fields("uet.ses.rsp.opcode",
                     "uet.ses.rsp.opcode uet.ses.rsp.return_code uet.ses.rsp.message_id "
                     "uet.ses.rsp.job_id uet.ses.rsp.modified_length"),
              "0,1,0,0,0\n1,5,5,1193046,8192\n2,1,0,0,0\n");
    EXPECT_EQ(fields("uet.pds.nh == 5",
                     "uet.ses.rsp.read_request_message_id uet.ses.rsp.payload_length "
                     "uet.ses.rsp.message_offset"),
              "9,256,512\n");
    // The IP header is ECT(0) and the EV is the UDP source port.
    EXPECT_EQ(fields("frame.number == 1", "ip.dsfield.ecn udp.srcport udp.dstport"),
              "2,49152,4793\n");
}

} // namespace

namespace
{

/// IPv4 (10.0.0.1 > 10.0.0.2) + UDP (EV 50000 > 4793) + \p l4 bytes, as a NIC writes them.
std::vector<uint8_t>
UetIpBytes(const std::vector<uint8_t>& l4)
{
    std::vector<uint8_t> b(28 + l4.size(), 0);
    std::copy(l4.begin(), l4.end(), b.begin() + 28);
    b[0] = 0x45;
    b[1] = 0x02; // ECT(0)
    uint16_t total = static_cast<uint16_t>(28 + l4.size());
    b[2] = total >> 8;
    b[3] = total & 0xff;
    b[8] = 64;
    b[9] = 17;
    b[12] = 10;
    b[15] = 1;
    b[16] = 10;
    b[19] = 2;
    b[20] = 50000 >> 8;
    b[21] = 50000 & 0xff;
    b[22] = 4793 >> 8;
    b[23] = 4793 & 0xff;
    return b;
}

std::string
Described(const std::vector<uint8_t>& ip)
{
    std::ostringstream os;
    FabricWireHeader(FabricWireHeader::IPV4, ip.data(), ip.size()).Print(os);
    return os.str();
}

// ASCII traces describe UET frames: the library registers a describer for UDP 4793 that
// prints the PDS header's type and PSNs and the SES operation, from the frame's head bytes.
TEST(UetFrameDescriber, AsciiTracesNamePdsAndSesFields)
{
    ASSERT_NE(FabricWireHeader::GetUdpPayloadDescriber(UetPdsHeader::UDP_DST_PORT), nullptr);
    std::vector<uint8_t> l4(12 + 44, 0);
    UetPdsRequestHeader::WriteFields(l4.data(),
                                     UetPdsHeader::RUD_REQ,
                                     UetPdsHeader::NH_REQUEST_STD,
                                     UetPdsHeader::FLAG_SYN | UetPdsHeader::FLAG_AR,
                                     0,
                                     70000,
                                     5,
                                     UetPdsRequestHeader::SynField(0, 0));
    UetSesRequestHeader::WriteFields(l4.data() + 12,
                                     UetSesHeader::WRITE,
                                     UetSesHeader::FLAG_SOM | UetSesHeader::FLAG_EOM,
                                     1,
                                     0,
                                     42,
                                     3,
                                     0,
                                     0,
                                     0,
                                     0,
                                     0,
                                     4096);
    std::string d = Described(UetIpBytes(l4));
    EXPECT_EQ(d,
              "IPv4 10.0.0.1 > 10.0.0.2 dscp 0 ecn 2 ttl 64 len 84; UDP 50000 > 4793; PDS RUD_REQ "
              "psn 70000 spdcid 5 SYN AR; SES REQUEST_STD WRITE SOM EOM")
        << d;
    std::vector<uint8_t> nack(16, 0);
    UetPdsNackHeader::WriteFields(nack.data(),
                                  UetPdsHeader::NH_NONE,
                                  0,
                                  UetPdsHeader::NACK_TRIMMED,
                                  0,
                                  70001,
                                  7,
                                  5,
                                  0);
    d = Described(UetIpBytes(nack));
    EXPECT_NE(d.find("; PDS NACK TRIMMED psn 70001"), std::string::npos) << d;
    // Too few bytes for the PDS header: the type only, no garbage.
    std::vector<uint8_t> cut(l4.begin(), l4.begin() + 6);
    d = Described(UetIpBytes(cut));
    EXPECT_EQ(d.substr(d.find("; PDS")), "; PDS RUD_REQ") << d;
}

} // namespace
