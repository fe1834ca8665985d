/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Swift: a hand-computed window sequence (target with hop and flow scaling, AI, MD once per
 * RTT, pacing below one packet, retransmission reset), hop counts echoed on RoCE ACKs, two
 * flows on one switch, bad input.
 */
#include "cc-loop-test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cmath>

using namespace ns3;

namespace
{

FabricCcAckSample
RttSample(double us, uint64_t bytes = 4096, uint32_t hops = 1)
{
    FabricCcAckSample s;
    s.ackedBytes = bytes;
    s.rtt = NanoSeconds(int64_t(us * 1000));
    s.hopCount = hops;
    return s;
}

class SwiftUnitTest : public test::SimTest
{
  protected:
    template <typename F>
    void At(double us, F f)
    {
        Simulator::Schedule(NanoSeconds(int64_t(us * 1000)), f);
    }
};

// Defaults (BaseTarget 10 us, PerHopScaling 1 us, FsRange 5 us between 0.1 and 100 packets,
// Beta 0.8, MaxMdf 0.5, Ai 1), 100 Gb/s, InitialCwnd 10 packets of 4096 B.
// Flow scaling: a = 5 / (1/sqrt(0.1) - 1/sqrt(100)) = 1.63277160 us, b = -a / 10;
// fs(10) = a / sqrt(10) + b = 0.35305056 us.
//   t = 1 us,  rtt 5 us, 1 hop:  target 10 + 1 + 0.35305 = 11.35305 us > 5: AI
//                                cwnd = 10 + 1 x 1 / 10 = 10.1
//   t = 2 us,  rtt 20 us:        target 11.35049 us (fs(10.1)); MD:
//                                max(1 - 0.8 (20 - 11.35049) / 20, 0.5) = 0.65401952
//                                cwnd = 6.60559720, window 27056 B
//   t = 10 us, rtt 30 us:        8 us since the last decrease < RTT 30 us: no change
//   t = 60 us, rtt 100 us:       58 us since the last decrease < RTT 100 us: no change
//   t = 120 us, rtt 100 us:      1 - 0.8 (100 - 11.47201) / 100 < 0.5: MaxMdf
//                                cwnd = 3.30279860, window 13528 B
TEST_F(SwiftUnitTest, WindowSequenceByHand)
{
    auto cc = CreateObject<SwiftCongestionOps>();
    cc->SetAttribute("InitialCwnd", DoubleValue(10));
    cc->Init(DataRate("100Gbps"));
    EXPECT_EQ(cc->GetName(), "Swift");
    EXPECT_TRUE(cc->WantsRttSamples());
    EXPECT_EQ(cc->GetWindow(), 40960u);
    EXPECT_EQ(cc->GetRate(), DataRate("100Gbps"));
    EXPECT_NEAR(cc->GetTargetDelay(10, 1).GetSeconds() * 1e6, 11.35305056, 1e-6);
    EXPECT_NEAR(cc->GetTargetDelay(0.1, 0).GetSeconds() * 1e6, 15.0, 1e-6);  // whole range
    EXPECT_NEAR(cc->GetTargetDelay(1000, 3).GetSeconds() * 1e6, 13.0, 1e-6); // none, 3 hops
    At(1, [&]() {
        cc->OnAck(RttSample(5));
        EXPECT_DOUBLE_EQ(cc->GetCwnd(), 10.1);
        EXPECT_EQ(cc->GetHopCount(), 1u);
    });
    At(2, [&]() {
        cc->OnAck(RttSample(20));
        EXPECT_NEAR(cc->GetCwnd(), 6.60559720, 1e-7);
        EXPECT_EQ(cc->GetWindow(), 27056u);
    });
    At(10, [&]() {
        cc->OnAck(RttSample(30));
        EXPECT_NEAR(cc->GetCwnd(), 6.60559720, 1e-7);
    });
    At(60, [&]() {
        cc->OnAck(RttSample(100));
        EXPECT_NEAR(cc->GetCwnd(), 6.60559720, 1e-7);
    });
    At(120, [&]() {
        cc->OnAck(RttSample(100));
        EXPECT_NEAR(cc->GetCwnd(), 3.30279860, 1e-7);
        EXPECT_EQ(cc->GetWindow(), 13528u);
        EXPECT_EQ(cc->GetRate(), DataRate("100Gbps"));
    });
    Simulator::Run();
}

// Below one packet Swift paces: cwnd 0.5 with BaseRtt 10 us (no sample yet) is one packet in
// flight at 0.5 x 4096 x 8 / 10 us = 1.6384 Gb/s; an ACK below target adds Ai x 1 packet
// (cwnd < 1): 1.5, a window of 6144 B at line rate. Five timeouts in a row (RetxResetThreshold)
// set MinCwnd 0.001: 0.001 x 4096 x 8 / 5 us (the last RTT) = 6.5536 Mb/s.
TEST_F(SwiftUnitTest, PacingBelowOnePacketAndRetransmissionReset)
{
    auto cc = CreateObject<SwiftCongestionOps>();
    cc->SetAttribute("InitialCwnd", DoubleValue(0.5));
    cc->Init(DataRate("100Gbps"));
    EXPECT_EQ(cc->GetWindow(), 4096u);
    EXPECT_NEAR(double(cc->GetRate().GetBitRate()), 1.6384e9, 1.0);
    cc->OnAck(RttSample(5));
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 1.5);
    EXPECT_EQ(cc->GetWindow(), 6144u);
    EXPECT_EQ(cc->GetRate(), DataRate("100Gbps"));
    for (int i = 0; i < 4; ++i)
    {
        cc->OnEvent(FabricCcEvent::TIMEOUT); // once per RTT: only the first cuts (x 0.5)
    }
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 0.75);
    cc->OnEvent(FabricCcEvent::TIMEOUT);
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 0.001);
    EXPECT_EQ(cc->GetWindow(), 4096u);
    EXPECT_NEAR(double(cc->GetRate().GetBitRate()), 6.5536e6, 1.0);
}

TEST(SwiftBadInput, AttributesAndInitAbortNamingValueAndRange)
{
    auto cc = CreateObject<SwiftCongestionOps>();
    EXPECT_DEATH(cc->SetAttribute("Beta", DoubleValue(-0.8)), "ns3::SwiftCongestionOps::Beta=-0.8");
    EXPECT_DEATH(cc->SetAttribute("MaxMdf", DoubleValue(1.5)), "MaxMdf=1.5 is out of range");
    EXPECT_DEATH(cc->SetAttribute("Ai", DoubleValue(0)), "Ai=0");
    EXPECT_DEATH(cc->SetAttribute("BaseTarget", TimeValue(Time(0))), "BaseTarget");
    EXPECT_DEATH(cc->SetAttribute("PerHopScaling", TimeValue(MicroSeconds(-1))), "PerHopScaling");
    EXPECT_DEATH(cc->SetAttribute("MinCwnd", DoubleValue(-1)), "MinCwnd=-1");
    auto c2 = CreateObject<SwiftCongestionOps>();
    c2->SetAttribute("FsMaxCwnd", DoubleValue(0.05));
    EXPECT_DEATH(c2->Init(DataRate("100Gbps")), "Swift FsMaxCwnd 0.05 must exceed FsMinCwnd 0.1");
    auto c3 = CreateObject<SwiftCongestionOps>();
    c3->SetAttribute("MaxCwnd", DoubleValue(0.0001));
    EXPECT_DEATH(c3->Init(DataRate("100Gbps")), "Swift MaxCwnd 0.0001 is below MinCwnd 0.001");
}

using SwiftLoopTest = test::CcLoopTest;

// Flow 0 alone for 0.5 ms, then flow 1 joins; 100 Gb/s, "swift" by name (EchoHopCount on):
// the ACKs carry hop count 1 (one switch: TTL 64 -> 63). From 10 to 50 ms the two flows get
// the same goodput within 10 % and use the link. (Windows are about 18 packets; with +1 packet
// per RTT the lead changes every few ms: over 10 ms spans the split is 53 / 45 or 42 / 56 Gb/s,
// over 40 ms 48.7 / 49.3.)
TEST_F(SwiftLoopTest, TwoFlowsConvergeAndAcksCarryTheHopCount)
{
    RoceNicHelper nicHelper;
    nicHelper.SetCongestionControl("swift");
    Build(2, "100Gbps", nicHelper);
    EXPECT_TRUE(nics[0]->GetEchoHopCount());
    auto gbps = TwoFlows(MicroSeconds(500), MilliSeconds(10), MilliSeconds(50));
    const double payload = 100.0 * 4096 / 4178;
    RecordProperty("flow0_gbps", std::to_string(gbps[0]));
    RecordProperty("flow1_gbps", std::to_string(gbps[1]));
    EXPECT_NEAR(gbps[0] / gbps[1], 1.0, 0.10) << gbps[0] << " vs " << gbps[1] << " Gb/s";
    EXPECT_GT(gbps[0] + gbps[1], 0.9 * payload);
    for (int i = 0; i < 2; ++i)
    {
        auto cc = DynamicCast<SwiftCongestionOps>(qps[i].first->GetCongestionOps());
        ASSERT_TRUE(cc);
        EXPECT_EQ(cc->GetHopCount(), 1u);
        RecordProperty("cwnd" + std::to_string(i), std::to_string(cc->GetCwnd()));
    }
}

} // namespace
