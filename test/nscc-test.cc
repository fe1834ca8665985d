/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NSCC: the computed defaults against UEC htsim's printout, hand-computed window sequences for
 * each quadrant, quick adapt, NACKs and destination flow control, and bad configurations.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cmath>

using namespace ns3;

namespace
{

class NsccUnitTest : public test::SimTest
{
  protected:
    /// Run f at absolute time \p us (microseconds).
    template <typename F>
    void At(double us, F f)
    {
        Simulator::Schedule(NanoSeconds(int64_t(std::llround(us * 1000))), f);
    }

    /// An NSCC at 100 Gb/s, BaseRtt 10 us, Mtu 4096 (target 7.5 us), initial window 100 kB.
    Ptr<NsccCongestionOps> Make(bool quickAdapt, double ewmaGain = 0.0125)
    {
        auto cc = CreateObject<NsccCongestionOps>();
        cc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
        cc->SetAttribute("InitialWindow", UintegerValue(100000));
        cc->SetAttribute("QuickAdapt", BooleanValue(quickAdapt));
        cc->SetAttribute("DelayEwmaGain", DoubleValue(ewmaGain));
        cc->Init(DataRate("100Gbps"));
        return cc;
    }

    /// An ACK of \p bytes whose RTT is 10 us + \p delayUs.
    static FabricCcAckSample Ack(uint64_t bytes, double delayUs, bool ecn)
    {
        FabricCcAckSample s;
        s.ackedBytes = bytes;
        s.rtt = NanoSeconds(10000 + int64_t(std::llround(delayUs * 1000)));
        s.ecnEcho = ecn;
        return s;
    }
};

TEST_F(NsccUnitTest, ComputedDefaultsMatchHtsim)
{
    // UEC htsim at 100 Gb/s with its fat tree's 14.0227 us RTT and 4150-byte packets (4086 B
    // of payload) prints alpha 0.00159 B/ps, fi 23874 B, eta 716 B, fi_scale 0.292, target
    // 10.517 us, qa_threshold 42.07 us, maxwnd = initial cwnd 262,926 B.
    auto cc = CreateObject<NsccCongestionOps>();
    cc->SetAttribute("BaseRtt", TimeValue(PicoSeconds(14022700)));
    cc->SetAttribute("Mtu", UintegerValue(4086));
    cc->Init(DataRate("100Gbps"));
    EXPECT_NEAR(cc->GetAlpha(), 0.00159, 0.000005);
    EXPECT_NEAR(cc->GetFairIncrease(), 23874, 0.5);
    EXPECT_NEAR(cc->GetEta(), 716, 0.5);
    EXPECT_NEAR(cc->GetFiScale(), 0.292, 0.0005);
    EXPECT_NEAR(cc->GetTargetQdelay().GetNanoSeconds(), 10517, 1);
    EXPECT_NEAR(cc->GetQaThreshold().GetNanoSeconds(), 42068, 2);
    EXPECT_NEAR(double(cc->GetMaxWindow()), 262926, 1);
    EXPECT_EQ(cc->GetCwnd(), cc->GetMaxWindow());
    EXPECT_EQ(cc->GetWindow(), cc->GetMaxWindow());
    EXPECT_EQ(cc->GetMinWindow(), 4086u);
    EXPECT_EQ(cc->GetAdjustBytes(), 8u * 4086);
    EXPECT_EQ(cc->GetRate(), DataRate("100Gbps")); // NSCC does not pace

    // Without trimming the target is one base RTT; at 400 Gb/s the constants scale by 4.
    auto c4 = CreateObject<NsccCongestionOps>();
    c4->SetAttribute("BaseRtt", TimeValue(MicroSeconds(12)));
    c4->SetAttribute("Trimming", BooleanValue(false));
    c4->Init(DataRate("400Gbps"));
    EXPECT_EQ(c4->GetTargetQdelay(), MicroSeconds(12));
    EXPECT_NEAR(c4->GetFairIncrease(), 5.0 * 4096 * 4, 1e-6);
    EXPECT_NEAR(c4->GetFiScale(), 1.0, 1e-12);
    EXPECT_NEAR(c4->GetAlpha(), 4.0 * 4096 * 4 * 1.0 / 12e6, 1e-12);
    EXPECT_EQ(c4->GetMaxWindow(), 900000u); // 1.5 x 400 Gb/s x 12 us
}

TEST_F(NsccUnitTest, FairAndProportionalIncreaseAppliedPerAdjustment)
{
    auto cc = Make(false);
    const double fi = cc->GetFairIncrease();
    const double alpha = cc->GetAlpha();
    const double targetPs = 7.5e6;
    EXPECT_EQ(cc->GetTargetQdelay(), NanoSeconds(7500));
    double w = 100000;
    // 8 ACKs of 4096 B (= AdjustBytes, not more): accumulated, not applied.
    double inc = 0;
    for (int i = 0; i < 8; ++i)
    {
        At(1 + 0.1 * i, [&]() { cc->OnAck(Ack(4096, 8, false)); }); // delay 8 us >= target
        inc += fi * 4096;
    }
    At(1.85, [&]() { EXPECT_EQ(cc->GetCwnd(), 100000u); });
    // The 9th crosses AdjustBytes: cwnd += inc / cwnd (no eta: an adjust period has not
    // passed since time 0).
    At(1.9, [&]() {
        cc->OnAck(Ack(4096, 8, false));
        inc += fi * 4096;
        w += inc / w;
        EXPECT_NEAR(double(cc->GetCwnd()), w, 1.0);
        EXPECT_EQ(cc->GetWindow(), cc->GetCwnd());
    });
    // Proportional: delay 2 us below the 7.5 us target (and above FastIncreaseDelay).
    At(3, [&]() {
        double inc2 = 0;
        for (int i = 0; i < 9; ++i)
        {
            cc->OnAck(Ack(4096, 2, false));
            inc2 += alpha * 4096 * (targetPs - 2e6);
        }
        w += inc2 / w;
        EXPECT_NEAR(double(cc->GetCwnd()), w, 1.0);
    });
    // After an adjust period (10 us) the next adjustment adds eta too.
    At(20, [&]() {
        cc->OnAck(Ack(4096, 8, false));
        w += fi * 4096 / w + cc->GetEta();
        EXPECT_NEAR(double(cc->GetCwnd()), w, 1.0);
    });
    // ECN with the delay below target: nothing changes (a path problem).
    At(21, [&]() {
        cc->OnAck(Ack(4096, 2, true));
        EXPECT_NEAR(double(cc->GetCwnd()), w, 1.0);
    });
    Simulator::Run();
}

TEST_F(NsccUnitTest, MultiplicativeDecreaseOncePerBaseRtt)
{
    auto cc = Make(false, 1.0); // EWMA gain 1: the average delay is the last sample
    double eta = 0;
    // No decrease in the first base RTT (the last decrease counts from time 0).
    At(5, [&]() {
        cc->OnAck(Ack(4096, 15, true));
        EXPECT_EQ(cc->GetDecreases(), 0u);
        EXPECT_NEAR(double(cc->GetCwnd()), 100000, 1.0);
    });
    At(11, [&]() {
        cc->OnAck(Ack(4096, 15, true)); // ECN, delay 15 us >= 7.5 us target
        EXPECT_EQ(cc->GetAvgDelay(), MicroSeconds(15));
        // 100000 x max(1 - 0.8 x (15 - 7.5) / 15, 0.5) = 60000, plus eta: the adjustment
        // that follows is the first after an adjust period.
        eta = cc->GetEta();
        EXPECT_NEAR(double(cc->GetCwnd()), 60000 + eta, 1.0);
        EXPECT_EQ(cc->GetDecreases(), 1u);
    });
    At(15, [&]() {
        cc->OnAck(Ack(4096, 40, true)); // within a base RTT of the last decrease: no change
        EXPECT_NEAR(double(cc->GetCwnd()), 60000 + eta, 1.0);
    });
    At(22, [&]() {
        // 40 us: 1 - 0.8 x 32.5 / 40 = 0.35, floored at MaxMdJump 0.5
        cc->OnAck(Ack(4096, 40, true));
        EXPECT_NEAR(double(cc->GetCwnd()), (60000 + eta) * 0.5 + eta, 1.0);
        EXPECT_EQ(cc->GetDecreases(), 2u);
    });
    // An unmarked sample above the target counts as a quarter of the base RTT in the average.
    At(23, [&]() {
        cc->OnAck(Ack(4096, 40, false));
        EXPECT_EQ(cc->GetAvgDelay(), NanoSeconds(2500));
    });
    Simulator::Run();
}

TEST_F(NsccUnitTest, FastIncreaseAfterAWindowAtZeroDelay)
{
    auto cc = CreateObject<NsccCongestionOps>();
    cc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
    cc->SetAttribute("InitialWindow", UintegerValue(100000));
    cc->SetAttribute("QuickAdapt", BooleanValue(false));
    cc->SetAttribute("Alpha", DoubleValue(1e-15)); // isolate fast increase
    cc->Init(DataRate("100Gbps"));
    const double scale = cc->GetFiScale(); // 0.25 x 125000 / 150000
    EXPECT_NEAR(scale, 0.25 * 125000 / 150000, 1e-12);
    At(1, [&]() {
        // 24 ACKs of 4096 B at delay 0.5 us (< FastIncreaseDelay 1 us): 98304 B <= cwnd.
        for (int i = 0; i < 24; ++i)
        {
            cc->OnAck(Ack(4096, 0.5, false));
        }
        EXPECT_EQ(cc->GetCwnd(), 100000u);
        // The 25th makes the count exceed the window: cwnd += fi_scale x 4096 at once.
        cc->OnAck(Ack(4096, 0.5, false));
        double w = 100000 + scale * 4096;
        EXPECT_NEAR(double(cc->GetCwnd()), w, 1.0);
        // From then on every ACK at low delay adds fi_scale x its bytes.
        cc->OnAck(Ack(8192, 0.5, false));
        w += scale * 8192;
        EXPECT_NEAR(double(cc->GetCwnd()), w, 1.0);
        // A sample above 1 us ends it (the count restarts).
        cc->OnAck(Ack(4096, 3, false));
        cc->OnAck(Ack(4096, 0.5, false));
        EXPECT_NEAR(double(cc->GetCwnd()), w, 1.0);
    });
    Simulator::Run();
}

TEST_F(NsccUnitTest, QuickAdaptOnTrimCutsToAchievedBytes)
{
    auto cc = Make(true);
    // The first ACK opens the first quick-adapt interval (base RTT + target = 17.5 us).
    At(1, [&]() { cc->OnAck(Ack(4096, 8, false)); });
    // 3 more ACKs of 4096 in the interval, then a trim after it: achieved 12288 B <
    // max_wnd >> 3 = 23437 B, so cwnd = 12288 and the ECN of what is in flight is ignored.
    At(5, [&]() {
        for (int i = 0; i < 3; ++i)
        {
            cc->OnAck(Ack(4096, 8, false));
        }
    });
    At(20, [&]() {
        cc->GetState()->SetBytesInFlight(20000);
        FabricCcAckSample nack;
        nack.nack = true;
        nack.trimmed = true;
        nack.nackedBytes = 4096;
        cc->OnAck(nack);
        EXPECT_EQ(cc->GetCwnd(), 12288u);
        EXPECT_EQ(cc->GetQuickAdapts(), 1u);
        // Marked ACKs of the 20000 bytes in flight are ignored (no decrease) ...
        cc->OnAck(Ack(4096, 30, true));
        EXPECT_EQ(cc->GetCwnd(), 12288u);
    });
    // A NACK while those bytes drain is ignored too (no second cut) ...
    At(25, [&]() {
        FabricCcAckSample nack;
        nack.nack = true;
        nack.nackedBytes = 4096;
        cc->OnAck(nack);
        EXPECT_EQ(cc->GetCwnd(), 12288u);
    });
    // ... once they are acknowledged, a NACK inside the quick-adapt interval (until
    // 20 + 17.5 us) takes its bytes off the window instead.
    At(26, [&]() { cc->OnAck(Ack(16384, 2, true)); });
    At(27, [&]() {
        uint64_t before = cc->GetCwnd();
        FabricCcAckSample nack;
        nack.nack = true;
        nack.nackedBytes = 4096;
        cc->OnAck(nack);
        EXPECT_EQ(cc->GetCwnd(), before - 4096u);
        EXPECT_EQ(cc->GetQuickAdapts(), 1u);
    });
    // After the interval, a NACK with few bytes achieved adapts again.
    At(40, [&]() {
        FabricCcAckSample nack;
        nack.nack = true;
        nack.nackedBytes = 4096;
        cc->OnAck(nack);
        EXPECT_EQ(cc->GetQuickAdapts(), 2u);
        EXPECT_EQ(cc->GetCwnd(), 4096u + 16384u); // acknowledged since the last adapt
    });
    Simulator::Run();
}

TEST_F(NsccUnitTest, NackWithoutQuickAdaptTakesBytesOff)
{
    auto cc = Make(false);
    At(1, [&]() {
        FabricCcAckSample nack;
        nack.nack = true;
        nack.trimmed = true;
        nack.nackedBytes = 4096;
        cc->OnAck(nack);
        EXPECT_EQ(cc->GetCwnd(), 100000u - 4096u);
        // The trim enters the average delay as one network RTT (BaseRtt).
        EXPECT_NEAR(cc->GetAvgDelay().GetNanoSeconds(), 0.0125 * 10000, 1);
    });
    // The window never drops below MinWindow (Mtu).
    At(2, [&]() {
        FabricCcAckSample nack;
        nack.nack = true;
        nack.nackedBytes = 200000;
        cc->OnAck(nack);
        EXPECT_EQ(cc->GetCwnd(), 4096u);
    });
    Simulator::Run();
}

TEST_F(NsccUnitTest, DestinationFlowControlCutsAndRestores)
{
    auto cc = Make(false);
    At(1, [&]() {
        FabricCcAckSample s = Ack(4096, 8, false);
        s.rcvCwndPend = 64; // cut (64 x 4096) >> 7 = 2048 B
        cc->OnAck(s);
        EXPECT_EQ(cc->GetCwnd(), 100000u - 2048u);
        s.rcvCwndPend = 127; // (127 x 4096) >> 7 = 4064 B
        cc->OnAck(s);
        EXPECT_EQ(cc->GetCwnd(), 100000u - 2048u - 4064u);
        FabricCcAckSample rc = Ack(4096, 8, false);
        rc.rcvRestore = true;
        cc->OnAck(rc);
        EXPECT_EQ(cc->GetCwnd(), 100000u); // back to the window before the first cut
    });
    Simulator::Run();
}

TEST_F(NsccUnitTest, BaseRttFollowsTheSmallestSample)
{
    auto cc = Make(false);
    At(1, [&]() {
        FabricCcAckSample s;
        s.ackedBytes = 4096;
        s.rtt = MicroSeconds(8);
        cc->OnAck(s);
        EXPECT_EQ(cc->GetBaseRtt(), MicroSeconds(8));
        // max_wnd follows the smaller pipe: 1.5 x 100 Gb/s x 8 us
        EXPECT_EQ(cc->GetMaxWindow(), 150000u);
        s.rtt = MicroSeconds(9);
        cc->OnAck(s);
        EXPECT_EQ(cc->GetBaseRtt(), MicroSeconds(8));
    });
    Simulator::Run();
}

TEST_F(NsccUnitTest, BadConfigurationsAreRefused)
{
    auto a = CreateObject<NsccCongestionOps>();
    a->SetAttribute("MinWindow", UintegerValue(500000));
    EXPECT_DEATH(a->Init(DataRate("100Gbps")), "NSCC MinWindow 500000 B exceeds MaxWindow");
    auto b = CreateObject<NsccCongestionOps>();
    b->SetAttribute("InitialWindow", UintegerValue(10));
    EXPECT_DEATH(b->Init(DataRate("100Gbps")), "NSCC InitialWindow 10 B is out of range");
    auto c = CreateObject<NsccCongestionOps>();
    EXPECT_DEATH(c->SetAttribute("Gamma", DoubleValue(1.5)), "Gamma");
    EXPECT_DEATH(c->SetAttribute("BaseRtt", TimeValue(Time(0))), "BaseRtt");
}

} // namespace
