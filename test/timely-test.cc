/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TIMELY: a hand-computed rate sequence (every branch of Algorithm 1), two flows on one
 * switch, bad input.
 */
#include "cc-loop-test-util.h"

#include "ns3/ai-fabric-module.h"

using namespace ns3;

namespace
{

FabricCcAckSample
RttSample(double us)
{
    FabricCcAckSample s;
    s.ackedBytes = 65536;
    s.rtt = NanoSeconds(int64_t(us * 1000));
    return s;
}

class TimelyUnitTest : public test::SimTest
{
};

// Paper defaults (alpha 0.875, beta 0.8, delta 10 Mb/s, TLow 50 us, THigh 500 us, MinRtt
// 20 us, HAI after 5 events x 5), line rate 10 Gb/s. d = rtt_diff EWMA, g = d / 20 us; the rate
// is kept in whole bit/s (rounded down at each step).
//   rtt 100: first sample, prev_rtt only                          rate 10000000000
//   rtt 600: d = .875 x 500 = 437.5 us; > THigh:
//            x (1 - 0.8 (1 - 500/600))                            rate  8666666666
//   rtt 300: d = .125 x 437.5 - .875 x 300 = -207.8125; g <= 0, +delta  8676666666
//   rtt 320: d = -8.4765625; g <= 0 (2nd), +delta                       8686666666
//   rtt 330: d = 7.6904296875, g = 0.384521484375:
//            x (1 - 0.8 g) = x 0.6923828125                             6014498697
//   rtt 100: d = -200.2887; g <= 0 (1st), +delta                        6024498697
//   rtt 99, 98, 97: g <= 0 (2nd..4th), +delta each                      6054498697
//   rtt 96:  g <= 0 (5th): hyperactive increase, +5 delta               6104498697
//   rtt 600: > THigh: x (1 - 0.8 (1 - 500/600))                         5290565537
//   rtt 40:  < TLow: +delta                                             5300565537
TEST_F(TimelyUnitTest, RateSequenceByHand)
{
    auto cc = CreateObject<TimelyCongestionOps>();
    cc->Init(DataRate("10Gbps"));
    EXPECT_EQ(cc->GetName(), "TIMELY");
    EXPECT_TRUE(cc->WantsRttSamples());
    EXPECT_EQ(cc->GetWindow(), 0u);
    const std::vector<std::pair<double, uint64_t>> steps = {
        {100, 10000000000ull},
        {600, 8666666666ull},
        {300, 8676666666ull},
        {320, 8686666666ull},
        {330, 6014498697ull},
        {100, 6024498697ull},
        {99, 6034498697ull},
        {98, 6044498697ull},
        {97, 6054498697ull},
        {96, 6104498697ull},
        {600, 5290565537ull},
        {40, 5300565537ull},
    };
    for (const auto& [rtt, rate] : steps)
    {
        cc->OnAck(RttSample(rtt));
        EXPECT_NEAR(double(cc->GetRate().GetBitRate()), double(rate), 2.0) << "rtt " << rtt;
    }
    EXPECT_NEAR(cc->GetRttDiff() * 1e6, 0.125 * 440.868918 + 0.875 * (40 - 600), 1e-5);
    // A sample without RTT (rtt 0) changes nothing.
    cc->OnAck(FabricCcAckSample());
    EXPECT_NEAR(double(cc->GetRate().GetBitRate()), 5300565537.0, 2.0);
}

TEST_F(TimelyUnitTest, RateStaysBetweenMinRateAndLineRate)
{
    auto cc = CreateObject<TimelyCongestionOps>();
    cc->Init(DataRate("10Gbps"));
    cc->OnAck(RttSample(10));
    cc->OnAck(RttSample(20)); // < TLow: + delta, capped at line rate
    EXPECT_EQ(cc->GetRate(), DataRate("10Gbps"));
    cc->OnAck(RttSample(400)); // d = 332.5 us, g = 16.6 clipped to 1: x (1 - 0.8)
    EXPECT_NEAR(double(cc->GetRate().GetBitRate()), 2e9, 2.0);
    for (int i = 0; i < 10; ++i)
    {
        cc->OnAck(RttSample(490 - 40 * (i % 2))); // RTT alternating 490 / 450 us
    }
    cc->OnAck(RttSample(499)); // d > 0, g < 1
    for (int i = 0; i < 60; ++i)
    {
        cc->OnAck(RttSample(499 + 2 * i)); // rising RTT, g > 0: down to MinRate
    }
    EXPECT_EQ(cc->GetRate(), DataRate("10Mbps"));
}

TEST(TimelyBadInput, AttributesAndInitAbortNamingValueAndRange)
{
    auto cc = CreateObject<TimelyCongestionOps>();
    EXPECT_DEATH(cc->SetAttribute("Alpha", DoubleValue(-0.5)),
                 "ns3::TimelyCongestionOps::Alpha=-0.5");
    EXPECT_DEATH(cc->SetAttribute("Beta", DoubleValue(1.5)), "Beta=1.5 is out of range");
    EXPECT_DEATH(cc->SetAttribute("Delta", DataRateValue(DataRate(0))), "Delta");
    EXPECT_DEATH(cc->SetAttribute("MinRtt", TimeValue(Time(0))), "MinRtt");
    EXPECT_DEATH(cc->SetAttribute("HaiThreshold", UintegerValue(0)), "HaiThreshold=0");
    auto c2 = CreateObject<TimelyCongestionOps>();
    c2->SetAttribute("THigh", TimeValue(MicroSeconds(40)));
    EXPECT_DEATH(c2->Init(DataRate("10Gbps")), "TIMELY THigh .40us must exceed TLow .50us");
    auto c3 = CreateObject<TimelyCongestionOps>();
    c3->SetAttribute("MinRate", DataRateValue(DataRate("20Gbps")));
    EXPECT_DEATH(c3->Init(DataRate("10Gbps")),
                 "TIMELY MinRate 20000000000bps exceeds the line rate");
}

using TimelyLoopTest = test::CcLoopTest;

// Flow 0 alone for 0.5 ms, then flow 1 joins; 10 Gb/s (the paper's NICs: Delta 10 Mb/s is
// sized for them), "timely" by name, which also sets AckInterval 1: a completion event per
// packet. (With the default 16-packet coalescing the first congestion cuts both flows to a
// few hundred Mb/s, from where +10 Mb/s per 16 packets recovers over tens of ms: 1.8 of
// 10 Gb/s used from 10 to 20 ms.) TIMELY holds the RTT
// between TLow and THigh on the gradient; from 10 to 20 ms the two flows get the same goodput
// within 10 % and use the link.
TEST_F(TimelyLoopTest, TwoFlowsConverge)
{
    RoceNicHelper nicHelper;
    nicHelper.SetCongestionControl("timely");
    Build(2, "10Gbps", nicHelper);
    auto gbps = TwoFlows(MicroSeconds(500), MilliSeconds(10), MilliSeconds(20));
    const double payload = 10.0 * 4096 / 4178;
    RecordProperty("flow0_gbps", std::to_string(gbps[0]));
    RecordProperty("flow1_gbps", std::to_string(gbps[1]));
    EXPECT_NEAR(gbps[0] / gbps[1], 1.0, 0.10) << gbps[0] << " vs " << gbps[1] << " Gb/s";
    EXPECT_GT(gbps[0] + gbps[1], 0.9 * payload);
    for (int i = 0; i < 2; ++i)
    {
        ASSERT_TRUE(DynamicCast<TimelyCongestionOps>(qps[i].first->GetCongestionOps()));
        EXPECT_EQ(nics[i]->GetAckInterval(), 1u);
        EXPECT_LT(qps[i].first->GetCcState()->GetRate(), DataRate("10Gbps"));
    }
}

} // namespace
