/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * WRED ECN marking: the probability profile, rate scaling, measured marking fraction, which
 * packets are eligible, determinism and bad input.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cmath>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t NOT_ECT = 0;
constexpr uint8_t ECT1 = 1;
constexpr uint8_t ECT0 = 2;
constexpr uint8_t CE = 3;

using WredEcnTest = test::SimTest;

/// A marker with default attributes configured for the given port rates.
Ptr<WredEcnMarker>
MakeMarker(const std::vector<DataRate>& rates)
{
    auto m = CreateObject<WredEcnMarker>();
    m->ConfigurePorts(rates);
    return m;
}

TEST_F(WredEcnTest, ProbabilityIsZeroThenLinearToPmaxThenOne)
{
    auto m = MakeMarker({DataRate("25Gbps")});
    ASSERT_EQ(m->GetNPorts(), 1u);
    ASSERT_EQ(m->GetKmin(0), 100000u);
    ASSERT_EQ(m->GetKmax(0), 400000u);
    ASSERT_DOUBLE_EQ(m->GetPmax(0), 0.2);
    EXPECT_EQ(m->MarkProbability(0, 0), 0.0);
    EXPECT_EQ(m->MarkProbability(0, 50000), 0.0);
    EXPECT_EQ(m->MarkProbability(0, 100000), 0.0); // at Kmin: still 0
    EXPECT_GT(m->MarkProbability(0, 100001), 0.0);
    EXPECT_NEAR(m->MarkProbability(0, 100001), 0.2 / 300000, 1e-12);
    EXPECT_NEAR(m->MarkProbability(0, 175000), 0.05, 1e-12);
    EXPECT_NEAR(m->MarkProbability(0, 250000), 0.10, 1e-12);
    EXPECT_NEAR(m->MarkProbability(0, 400000), 0.20, 1e-12); // at Kmax: Pmax
    EXPECT_EQ(m->MarkProbability(0, 400001), 1.0);           // above Kmax: always
    EXPECT_EQ(m->MarkProbability(0, 10000000), 1.0);
}

TEST_F(WredEcnTest, ThresholdsScaleWithPortRate)
{
    auto m = MakeMarker({DataRate("400Gbps"), DataRate("25Gbps"), DataRate("100Gbps")});
    ASSERT_EQ(m->GetNPorts(), 3u);
    EXPECT_EQ(m->GetKmin(0), 1600000u);   // 1.6 MB
    EXPECT_EQ(m->GetKmax(0), 6400000u);   // 6.4 MB
    EXPECT_DOUBLE_EQ(m->GetPmax(0), 0.2); // Pmax is not scaled
    EXPECT_EQ(m->GetKmin(1), 100000u);
    EXPECT_EQ(m->GetKmax(1), 400000u);
    EXPECT_EQ(m->GetKmin(2), 400000u);
    EXPECT_EQ(m->GetKmax(2), 1600000u);
    EXPECT_NEAR(m->MarkProbability(0, 4000000), 0.1, 1e-12);
    EXPECT_NEAR(m->MarkProbability(2, 1000000), 0.1, 1e-12);

    auto fixed = CreateObject<WredEcnMarker>();
    fixed->SetAttribute("ScaleWithRate", BooleanValue(false));
    fixed->ConfigurePorts({DataRate("400Gbps")});
    EXPECT_EQ(fixed->GetKmin(0), 100000u);
    EXPECT_EQ(fixed->GetKmax(0), 400000u);

    auto ref100 = CreateObject<WredEcnMarker>();
    ref100->SetAttribute("ReferenceRate", DataRateValue(DataRate("100Gbps")));
    ref100->ConfigurePorts({DataRate("400Gbps")});
    EXPECT_EQ(ref100->GetKmin(0), 400000u);
    EXPECT_EQ(ref100->GetKmax(0), 1600000u);
}

TEST_F(WredEcnTest, PortOverrideUsesAbsoluteValues)
{
    auto m = MakeMarker({DataRate("400Gbps"), DataRate("400Gbps")});
    m->SetPortThresholds(1, 1000, 2000, 0.5);
    EXPECT_EQ(m->GetKmin(1), 1000u);
    EXPECT_EQ(m->GetKmax(1), 2000u);
    EXPECT_DOUBLE_EQ(m->GetPmax(1), 0.5);
    EXPECT_NEAR(m->MarkProbability(1, 1500), 0.25, 1e-12);
    EXPECT_EQ(m->GetKmin(0), 1600000u); // the other port is untouched
    // Kmin == Kmax is a step: 0 up to it, 1 above.
    m->SetPortThresholds(1, 5000, 5000, 0.5);
    EXPECT_EQ(m->MarkProbability(1, 5000), 0.0);
    EXPECT_EQ(m->MarkProbability(1, 5001), 1.0);
}

TEST_F(WredEcnTest, MeasuredMarkingFractionMatchesProbability)
{
    auto m = MakeMarker({DataRate("25Gbps")});
    m->AssignStreams(11);
    for (uint64_t q : {130000u, 250000u, 370000u})
    {
        const double p = m->MarkProbability(0, q);
        ASSERT_GT(p, 0.0);
        ASSERT_LT(p, 1.0);
        const uint32_t n = 100000;
        uint32_t marked = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            marked += m->ShouldMark(0, 3, ECT0, q) ? 1 : 0;
        }
        const double fraction = double(marked) / n;
        const double sigma = std::sqrt(p * (1 - p) / n);
        EXPECT_NEAR(fraction, p, 4 * sigma) << "queue " << q << " B, marked " << marked;
    }
}

TEST_F(WredEcnTest, OnlyEcnCapablePacketsOfEcnPrioritiesAreMarked)
{
    auto m = MakeMarker({DataRate("25Gbps")});
    const uint64_t full = 1000000; // above Kmax: p = 1
    EXPECT_TRUE(m->ShouldMark(0, 0, ECT0, full));
    EXPECT_TRUE(m->ShouldMark(0, 0, ECT1, full));
    EXPECT_FALSE(m->ShouldMark(0, 0, NOT_ECT, full));
    EXPECT_FALSE(m->ShouldMark(0, 0, CE, full));
    EXPECT_FALSE(m->ShouldMark(0, 0, ECT0, 100000)); // at Kmin: p = 0
    uint32_t marked = 0;
    for (int i = 0; i < 10000; ++i)
    {
        marked += m->ShouldMark(0, 0, NOT_ECT, 250000) + m->ShouldMark(0, 0, CE, 250000);
    }
    EXPECT_EQ(marked, 0u);

    auto only3 = CreateObject<WredEcnMarker>();
    only3->SetAttribute("EcnPriorities", UintegerValue(0x08));
    only3->ConfigurePorts({DataRate("25Gbps")});
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        EXPECT_EQ(only3->ShouldMark(0, prio, ECT0, full), prio == 3) << "priority " << int(prio);
    }
}

TEST_F(WredEcnTest, DrawsOnlyBetweenKminAndKmax)
{
    // Two markers on the same stream; one also sees packets with p = 0, p = 1, Not-ECT and
    // other priorities. If those consumed draws, the in-range decisions would diverge.
    auto a = MakeMarker({DataRate("25Gbps")});
    auto b = MakeMarker({DataRate("25Gbps")});
    a->SetAttribute("EcnPriorities", UintegerValue(0x01));
    b->SetAttribute("EcnPriorities", UintegerValue(0x01));
    a->AssignStreams(5);
    b->AssignStreams(5);
    uint32_t differ = 0;
    for (int i = 0; i < 2000; ++i)
    {
        EXPECT_FALSE(a->ShouldMark(0, 0, ECT0, 50000));
        EXPECT_TRUE(a->ShouldMark(0, 0, ECT0, 500000));
        EXPECT_FALSE(a->ShouldMark(0, 0, NOT_ECT, 250000));
        EXPECT_FALSE(a->ShouldMark(0, 1, ECT0, 500000));
        differ += a->ShouldMark(0, 0, ECT0, 300000) != b->ShouldMark(0, 0, ECT0, 300000);
    }
    EXPECT_EQ(differ, 0u);
}

TEST_F(WredEcnTest, SameSeedAndStreamGiveIdenticalDecisions)
{
    auto run = [](int64_t stream) {
        auto m = MakeMarker({DataRate("25Gbps")});
        EXPECT_EQ(m->AssignStreams(stream), 1);
        std::vector<bool> decisions;
        for (int i = 0; i < 5000; ++i)
        {
            decisions.push_back(m->ShouldMark(0, 3, ECT0, 250000 + 20 * i % 100000));
        }
        return decisions;
    };
    auto first = run(42);
    EXPECT_EQ(first, run(42));
    EXPECT_NE(first, run(43)); // the stream matters: the comparison above can fail
}

using WredEcnDeathTest = test::SimTest;

TEST_F(WredEcnDeathTest, BadThresholdsAbortNamingTheValues)
{
    auto m = CreateObject<WredEcnMarker>();
    m->SetAttribute("Kmin", QueueSizeValue(QueueSize("500KB")));
    EXPECT_DEATH(m->ConfigurePorts({DataRate("25Gbps")}),
                 "port 0: Kmin 500000 B > Kmax 400000 B is invalid");
    m->SetAttribute("ScaleWithRate", BooleanValue(false));
    EXPECT_DEATH(m->ConfigurePorts({DataRate("25Gbps"), DataRate("25Gbps")}),
                 "Kmin 500000 B > Kmax 400000 B");

    auto ok = MakeMarker({DataRate("25Gbps"), DataRate("25Gbps")});
    EXPECT_DEATH(ok->SetPortThresholds(1, 3000, 2000, 0.1), "port 1: Kmin 3000 B > Kmax 2000 B");
    EXPECT_DEATH(ok->SetPortThresholds(0, 1000, 2000, 1.5), "port 0: Pmax 1.5 is invalid");
    EXPECT_DEATH(ok->SetAttribute("Pmax", DoubleValue(1.5)), "Pmax 1.5 is invalid");
    EXPECT_DEATH(ok->SetAttribute("Pmax", DoubleValue(-0.1)), "Pmax -0.1 is invalid");
    EXPECT_DEATH(ok->SetAttribute("Kmin", QueueSizeValue(QueueSize("100p"))),
                 "Kmin 100p is invalid; it must be given in bytes");
    EXPECT_DEATH(ok->SetAttribute("Kmax", QueueSizeValue(QueueSize("400p"))),
                 "Kmax 400p is invalid; it must be given in bytes");
    EXPECT_DEATH(ok->SetAttribute("ReferenceRate", DataRateValue(DataRate(0))),
                 "ReferenceRate 0bps is invalid");
    EXPECT_DEATH(ok->SetPortThresholds(2, 1000, 2000, 0.1), "port 2 is invalid; valid ports");
    EXPECT_DEATH(ok->MarkProbability(7, 1000), "port 7 is invalid");
    EXPECT_DEATH(ok->ShouldMark(0, 8, ECT0, 1000), "priority 8 is invalid");
    EXPECT_DEATH(MakeMarker({DataRate("25Gbps"), DataRate(0)}), "port 1: rate 0bps is invalid");
}

// On a switch, Kmin > Kmax names the switch (node id), the port and the configured values, not
// only the rate-scaled thresholds.
TEST_F(WredEcnDeathTest, KminAboveKmaxNamesTheSwitchPortAndConfiguredValues)
{
    Config::SetDefault("ns3::WredEcnMarker::Kmin", QueueSizeValue(QueueSize("500KB")));
    EXPECT_DEATH(
        {
            StarTopologyHelper star;
            star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue("100Gbps"));
            star.Install(2);
        },
        "WredEcnMarker on switch node [0-9]+ port 0: Kmin 2000000 B > Kmax 1600000 B is "
        "invalid; Kmin must be <= Kmax \\(configured ns3::WredEcnMarker::Kmin=500000B, "
        "Kmax=400000B, scaled by the port rate 100000000000bps / ReferenceRate "
        "25000000000bps\\)");
    Config::SetDefault("ns3::WredEcnMarker::ScaleWithRate", BooleanValue(false));
    EXPECT_DEATH(
        {
            StarTopologyHelper star;
            star.Install(2);
        },
        "WredEcnMarker on switch node [0-9]+ port 0: Kmin 500000 B > Kmax 400000 B is invalid; "
        "Kmin must be <= Kmax \\(configured ns3::WredEcnMarker::Kmin=500000B, Kmax=400000B\\)");
}

} // namespace
