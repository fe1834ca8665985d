/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Bit-exact round trips of the PFC and 802.1Q headers, and of a whole PFC frame on the wire.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

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

TEST(PfcHeader, SerializesTo8021QbbLayout)
{
    PfcHeader h;
    h.SetPauseQuanta(3, 0x1234);
    h.SetPauseQuanta(6, 0);
    h.SetPauseQuanta(7, 0xffff);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> expected = {0x01, 0x01,              // opcode PFC
                                     0x00, 0xc8,              // enable vector: p3, p6, p7
                                     0x00, 0x00, 0x00, 0x00,  // time[0], time[1]
                                     0x00, 0x00, 0x12, 0x34,  // time[2], time[3]
                                     0x00, 0x00, 0x00, 0x00,  // time[4], time[5]
                                     0x00, 0x00, 0xff, 0xff}; // time[6] (XON), time[7]
    EXPECT_EQ(Bytes(p), expected);
    EXPECT_EQ(h.GetSerializedSize(), 20u);

    PfcHeader back;
    EXPECT_EQ(p->RemoveHeader(back), 20u);
    EXPECT_EQ(back.GetOpcode(), 0x0101);
    EXPECT_EQ(back.GetEnableVector(), 0x00c8);
    for (uint8_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(back.IsPriorityEnabled(i), i == 3 || i == 6 || i == 7) << "priority " << int(i);
        EXPECT_EQ(back.GetPauseQuanta(i), h.GetPauseQuanta(i)) << "priority " << int(i);
    }
}

TEST(PfcHeader, RejectsInvalidPriority)
{
    PfcHeader h;
    EXPECT_DEATH(h.SetPauseQuanta(8, 1), "priority 8 is invalid");
}

TEST(PfcDot1qHeader, RoundTrip)
{
    PfcDot1qHeader tag(5, 100, 0x0800);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(tag);
    std::vector<uint8_t> expected = {0xa0, 0x64, 0x08, 0x00}; // PCP 5, DEI 0, VID 100, IPv4
    EXPECT_EQ(Bytes(p), expected);
    PfcDot1qHeader back;
    p->RemoveHeader(back);
    EXPECT_EQ(back.GetPcp(), 5);
    EXPECT_EQ(back.GetVid(), 100);
    EXPECT_FALSE(back.GetDei());
    EXPECT_EQ(back.GetInnerType(), 0x0800);
    EXPECT_DEATH(PfcDot1qHeader(8, 0, 0x0800), "PCP 8 is invalid");
    EXPECT_DEATH(PfcDot1qHeader(0, 4096, 0x0800), "VID 4096 is invalid");
}

class PfcFrameTest : public test::SimTest
{
};

TEST_F(PfcFrameTest, WholeFrameOnTheWire)
{
    NodeContainer nodes(2);
    PfcHelper helper;
    NetDeviceContainer devs = helper.Install(nodes);
    auto tx = DynamicCast<PfcNetDevice>(devs.Get(0));
    std::vector<std::vector<uint8_t>> frames;
    tx->TraceConnectWithoutContext(
        "PromiscSniffer",
        MakeCallback(+[](std::vector<std::vector<uint8_t>>* out, Ptr<const Packet> p) {
            out->push_back(Bytes(p));
        }).Bind(&frames));
    PfcHeader h;
    h.SetPauseQuanta(3, 0xabcd);
    tx->SendPfcFrame(h);
    Simulator::Run();
    ASSERT_EQ(frames.size(), 1u);
    const auto& f = frames[0];
    ASSERT_EQ(f.size(), 64u); // minimum Ethernet frame, FCS included
    std::vector<uint8_t> dst(f.begin(), f.begin() + 6);
    EXPECT_EQ(dst, (std::vector<uint8_t>{0x01, 0x80, 0xc2, 0x00, 0x00, 0x01}));
    uint8_t src[6];
    Mac48Address::ConvertFrom(tx->GetAddress()).CopyTo(src);
    EXPECT_TRUE(std::equal(src, src + 6, f.begin() + 6));
    EXPECT_EQ(f[12], 0x88);
    EXPECT_EQ(f[13], 0x08);
    EXPECT_EQ(f[14], 0x01); // opcode 0x0101
    EXPECT_EQ(f[15], 0x01);
    EXPECT_EQ(f[16], 0x00); // enable vector 0x0008
    EXPECT_EQ(f[17], 0x08);
    EXPECT_EQ(f[18 + 2 * 3], 0xab);
    EXPECT_EQ(f[19 + 2 * 3], 0xcd);
    for (std::size_t i = 34; i < 60; ++i)
    {
        EXPECT_EQ(f[i], 0) << "padding byte " << i;
    }
}

} // namespace
