/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCQCN: hand-computed reaction-point sequences for both presets, and the closed loop with
 * the switch (ECN) and NIC (CNP): fairness, incast pause reduction, CC off, parameter effect.
 */
#include "cc-loop-test-util.h"
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <cmath>

using namespace ns3;

namespace
{

class DcqcnUnitTest : public test::SimTest
{
  protected:
    /// Run f at absolute time t (microseconds).
    template <typename F>
    void At(double us, F f)
    {
        Simulator::Schedule(NanoSeconds(int64_t(us * 1000)), f);
    }

    static double Bps(DataRate r)
    {
        return double(r.GetBitRate());
    }

    /// Keep the QP active (a DCQCN timer only ticks while its QP sends): 1 KB every 10 us,
    /// far below the byte counter, from \p fromUs to \p toUs.
    void KeepSending(Ptr<DcqcnCongestionOps> cc, double fromUs, double toUs)
    {
        for (double t = fromUs; t <= toUs; t += 10)
        {
            At(t + 0.05, [cc]() { cc->OnBytesSent(1000); });
        }
    }
};

TEST_F(DcqcnUnitTest, FirmwarePresetByHand)
{
    DcqcnCongestionOps::SetPresetDefaults("firmware");
    auto cc = CreateObject<DcqcnCongestionOps>();
    const double L = 400e9;
    const double g = 1.0 / 256;
    cc->Init(DataRate("400Gbps"));
    EXPECT_EQ(Bps(cc->GetRate()), L);

    double a0 = 1023.0 / 1024;
    double a1 = a0 * (1 - g) + g;                      // first CNP: no decay before it
    double rc1 = L * std::max(1 - a1 / 2, 0.5);        // Rt = L
    double a2 = a1 * std::pow(1 - g, 2) * (1 - g) + g; // 2 quiet 1-us periods, then the CNP
    double a3 = a2 * std::pow(1 - g, 3) * (1 - g) + g; // 3 quiet periods
    double rc3 = rc1 * std::max(1 - a3 / 2, 0.5);      // 5 us >= 4 us monitor period
    double rc4 = std::ceil((L + rc3) / 2);             // timer stage 1 -> additive (F = 1)
    double rc5 = std::ceil((L + rc4) / 2);             // byte stage 1 -> additive

    At(10, [&]() {
        cc->OnCnp();
        EXPECT_NEAR(cc->GetAlpha(), a1, 1e-12);
        EXPECT_NEAR(Bps(cc->GetRate()), rc1, 1.0);
        EXPECT_EQ(Bps(cc->GetTargetRate()), L);
    });
    At(12, [&]() {
        cc->OnCnp(); // within RateReduceMonitorPeriod: alpha only
        EXPECT_NEAR(cc->GetAlpha(), a2, 1e-12);
        EXPECT_NEAR(Bps(cc->GetRate()), rc1, 1.0);
    });
    At(15, [&]() {
        cc->OnCnp();
        EXPECT_NEAR(cc->GetAlpha(), a3, 1e-12);
        EXPECT_NEAR(Bps(cc->GetRate()), rc3, 2.0);
        EXPECT_EQ(Bps(cc->GetTargetRate()), L); // no clamp without an increase in between
    });
    At(20, [&]() { EXPECT_NEAR(cc->GetAlpha(), a3 * std::pow(1 - g, 5), 1e-12); });
    At(314.9, [&]() { EXPECT_NEAR(Bps(cc->GetRate()), rc3, 2.0); });
    At(315.1, [&]() {
        EXPECT_EQ(cc->GetTimerStage(), 1u);
        EXPECT_NEAR(Bps(cc->GetRate()), rc4, 2.0);
        EXPECT_EQ(Bps(cc->GetTargetRate()), L); // Rt + R_AI capped at line rate
    });
    KeepSending(cc, 16, 390);
    At(400, [&]() {
        cc->OnBytesSent(32767 * 64 - 38 * 1000); // the keep-alive bytes count too
        EXPECT_EQ(cc->GetByteStage(), 1u);
        EXPECT_NEAR(Bps(cc->GetRate()), rc5, 2.0);
    });
    Simulator::Stop(MicroSeconds(500));
    Simulator::Run();
}

TEST_F(DcqcnUnitTest, PaperPresetByHand)
{
    DcqcnCongestionOps::SetPresetDefaults("paper");
    auto cc = CreateObject<DcqcnCongestionOps>();
    const double L = 40e9;
    const double g = 1.0 / 256;
    const double ai = 40e6;
    const double hai = 400e6;
    cc->Init(DataRate("40Gbps"));

    // CNP 1 at 100 us: alpha = 1 stays 1; Rt = 40G; Rc = 20G.
    // CNP 2 at 127 us (no monitor period, 0 quiet 55-us periods): Rt = 20G; Rc = 10G.
    double rt = 20e9;
    double rc = 10e9;
    At(100, [&]() {
        cc->OnCnp();
        EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0);
        EXPECT_NEAR(Bps(cc->GetRate()), 20e9, 1.0);
        EXPECT_EQ(Bps(cc->GetTargetRate()), L);
    });
    At(127, [&]() {
        cc->OnCnp();
        EXPECT_NEAR(Bps(cc->GetRate()), 10e9, 1.0);
        EXPECT_NEAR(Bps(cc->GetTargetRate()), 20e9, 1.0);
    });
    // Alpha decays once per 55 us without CNP.
    At(237.5, [&]() { EXPECT_NEAR(cc->GetAlpha(), std::pow(1 - g, 2), 1e-12); });
    // Timer stages 1..4 (every 55 us): fast recovery, Rt fixed.
    std::vector<double> expected;
    for (int t = 1; t <= 4; ++t)
    {
        rc = (rt + rc) / 2;
        expected.push_back(rc);
    }
    // Stage 5: max(T, BC) = 5 is not < F = 5, min = 0: additive increase.
    rt += ai;
    rc = (rt + rc) / 2;
    expected.push_back(rc);
    for (int t = 1; t <= 5; ++t)
    {
        double when = 127 + 55 * t + 0.1;
        double want = expected[t - 1];
        At(when, [&, t, want]() {
            EXPECT_EQ(cc->GetTimerStage(), uint32_t(t));
            EXPECT_NEAR(Bps(cc->GetRate()), want, 4.0) << "timer stage " << t;
        });
    }
    // 10 MB sent at 410 us: byte stage 1, T = 5: additive increase again.
    double rt6 = rt + ai;
    double rc6 = (rt6 + rc) / 2;
    At(410, [&, rc6, rt6]() {
        cc->OnBytesSent(10000000 - 29 * 1000); // keep-alive bytes at 128..408 us count too
        EXPECT_EQ(cc->GetByteStage(), 1u);
        EXPECT_NEAR(Bps(cc->GetRate()), rc6, 4.0);
        EXPECT_NEAR(Bps(cc->GetTargetRate()), rt6, 4.0);
    });
    // Timer stage 6 at 457 us: min(6, 1) = 1 -> additive.
    double rt7 = rt6 + ai;
    double rc7 = (rt7 + rc6) / 2;
    // Then 5 x 10 MB: byte stages 2..5 additive, stage 6: min(6, 6) = 6 > 5 -> hyper, i = 1.
    double rt8 = rt7;
    double rc8 = rc7;
    for (int bc = 2; bc <= 6; ++bc)
    {
        rt8 += (bc == 6) ? hai : ai;
        rc8 = (rt8 + rc8) / 2;
    }
    At(458, [&, rc7]() { EXPECT_NEAR(Bps(cc->GetRate()), rc7, 4.0); });
    KeepSending(cc, 128, 455);
    At(460, [&, rc8, rt8]() {
        cc->OnBytesSent(50000000 - 4 * 1000); // keep-alive bytes at 418..448 us
        EXPECT_EQ(cc->GetByteStage(), 6u);
        EXPECT_NEAR(Bps(cc->GetTargetRate()), rt8, 8.0);
        EXPECT_NEAR(Bps(cc->GetRate()), rc8, 8.0);
    });
    Simulator::Stop(MicroSeconds(470));
    Simulator::Run();
}

// ByteCounter 0 switches the byte counter off: bytes sent never make a byte stage, and the
// timer's stage counter T alone picks the increase (BC reads as T). Paper preset, 40 Gb/s:
// CNPs at 100 and 127 us leave Rt = 20G, Rc = 10G (as in PaperPresetByHand). Timer stages
// (every 55 us from 127 us): T = 1..4 fast recovery Rc <- (Rt + Rc) / 2; T = 5 additive
// Rt += 40M; T = 6 hyper Rt += (6 - 5) x 400M; T = 7 hyper Rt += 2 x 400M. (With the byte
// counter on and no byte stage, min(T, BC) = 0 and T = 6, 7 would be additive.)
TEST_F(DcqcnUnitTest, ByteCounterZeroIsOffAndTheTimerAloneDrivesTheStages)
{
    DcqcnCongestionOps::SetPresetDefaults("paper");
    Config::SetDefault("ns3::DcqcnCongestionOps::ByteCounter", UintegerValue(0));
    auto cc = CreateObject<DcqcnCongestionOps>();
    cc->Init(DataRate("40Gbps"));
    const double ai = 40e6;
    const double hai = 400e6;
    At(100, [&]() { cc->OnCnp(); });
    At(127, [&]() { cc->OnCnp(); });
    double rt = 20e9;
    double rc = 10e9;
    std::vector<double> wantRc;
    std::vector<double> wantRt;
    for (int t = 1; t <= 7; ++t)
    {
        if (t == 5)
        {
            rt += ai;
        }
        else if (t > 5)
        {
            rt += (t - 5) * hai;
        }
        rc = (rt + rc) / 2;
        wantRc.push_back(rc);
        wantRt.push_back(rt);
    }
    for (int t = 1; t <= 7; ++t)
    {
        At(127 + 55 * t + 0.1, [&, t]() {
            EXPECT_EQ(cc->GetTimerStage(), uint32_t(t));
            EXPECT_EQ(cc->GetByteStage(), 0u);
            EXPECT_NEAR(Bps(cc->GetRate()), wantRc[t - 1], 8.0) << "timer stage " << t;
            EXPECT_NEAR(Bps(cc->GetTargetRate()), wantRt[t - 1], 8.0) << "timer stage " << t;
        });
    }
    // 50 MB sent (5 byte stages with the paper's 10 MB): nothing happens.
    At(130, [&]() {
        double before = Bps(cc->GetRate());
        cc->OnBytesSent(50000000);
        EXPECT_EQ(cc->GetByteStage(), 0u);
        EXPECT_EQ(Bps(cc->GetRate()), before);
    });
    KeepSending(cc, 128, 530);
    Simulator::Stop(MicroSeconds(540));
    Simulator::Run();
}

// RoceNic CongestionNotification=AckEcho: an ACK echoing CE acts as a CNP at most once per
// EcnEchoInterval (4 us, firmware preset), so echoes at 10, 12 and 15 us act exactly as CNPs
// at 10 and 15 us: same alpha, same rate. An ACK without echo does nothing.
TEST_F(DcqcnUnitTest, EcnEchoOnAcksActsAsRateLimitedCnps)
{
    DcqcnCongestionOps::SetPresetDefaults("firmware");
    auto echo = CreateObject<DcqcnCongestionOps>();
    auto cnp = CreateObject<DcqcnCongestionOps>();
    echo->Init(DataRate("400Gbps"));
    cnp->Init(DataRate("400Gbps"));
    FabricCcAckSample marked;
    marked.ackedBytes = 4096;
    marked.ceBytes = 4096;
    marked.ecnEcho = true;
    FabricCcAckSample plain;
    plain.ackedBytes = 4096;
    At(5, [&]() { echo->OnAck(plain); });
    At(10, [&]() {
        echo->OnAck(marked);
        cnp->OnCnp();
    });
    At(12, [&]() { echo->OnAck(marked); }); // within 4 us of the last: ignored
    At(15, [&]() {
        echo->OnAck(marked);
        cnp->OnCnp();
    });
    At(16, [&]() {
        EXPECT_EQ(echo->GetAlpha(), cnp->GetAlpha());
        EXPECT_EQ(echo->GetRate(), cnp->GetRate());
        EXPECT_EQ(echo->GetTargetRate(), cnp->GetTargetRate());
        EXPECT_LT(Bps(echo->GetRate()), 400e9);
    });
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
}

TEST(DcqcnBadInput, ByteCounterZeroIsAcceptedAndEchoIntervalIsRangeChecked)
{
    auto cc = CreateObject<DcqcnCongestionOps>();
    cc->SetAttribute("ByteCounter", UintegerValue(0));
    UintegerValue v;
    cc->GetAttribute("ByteCounter", v);
    EXPECT_EQ(v.Get(), 0u);
    EXPECT_DEATH(cc->SetAttribute("EcnEchoInterval", TimeValue(MicroSeconds(-1))),
                 "ns3::DcqcnCongestionOps::EcnEchoInterval=-1");
    EXPECT_DEATH(cc->SetAttribute("G", DoubleValue(-0.5)), "ns3::DcqcnCongestionOps::G=-0.5");
}

TEST_F(DcqcnUnitTest, AQpPacedBelowOnePacketPerPeriodKeepsItsTimer)
{
    // Paper preset at 40 Gb/s (timer 55 us, MinRate 1 Mb/s). CNPs drive the rate to the floor;
    // the QP then sent one 4096-byte packet, whose successor the pacer holds for
    // 4096 x 8 / 1 Mb/s = 32.8 ms: no packet can leave within a timer period. The timer must
    // keep raising the rate anyway (stopping it as for an idle QP left such QPs at 1 Mb/s for
    // 33 ms: 16 flows of the paper preset at 40 Gb/s used 26 % of the link). After 20 periods
    // of fast recovery towards Rt the rate is far above the floor.
    DcqcnCongestionOps::SetPresetDefaults("paper");
    auto cc = CreateObject<DcqcnCongestionOps>();
    cc->Init(DataRate("40Gbps"));
    for (int i = 0; i < 40; ++i)
    {
        At(1 + i, [cc]() { cc->OnCnp(); });
    }
    At(41, [cc]() { cc->OnBytesSent(4096); });
    double atFloor = 0;
    At(42, [&]() { atFloor = Bps(cc->GetRate()); });
    double later = 0;
    At(41 + 20 * 55 + 1, [&]() { later = Bps(cc->GetRate()); });
    Simulator::Run();
    EXPECT_LT(atFloor, 50e6);        // driven down to (about) the floor
    EXPECT_GT(later, 100 * atFloor); // fast recovery: halving the distance to Rt per period
}

TEST(DcqcnPresets, UnknownPresetIsRejected)
{
    EXPECT_DEATH(DcqcnCongestionOps::SetPresetDefaults("vendor"), "preset \"vendor\" is unknown");
}

/// N senders and one receiver on a switch, RoCE NICs, 400 Gb/s (CcLoopTest's star).
class DcqcnLoopTest : public test::CcLoopTest
{
  protected:
    void Build(uint32_t senders, TypeId cc, bool ackEcho = false)
    {
        RoceNicHelper nicHelper;
        nicHelper.SetNicAttribute("CongestionControl", TypeIdValue(cc));
        if (ackEcho)
        {
            nicHelper.SetNicAttribute("CongestionNotification", EnumValue(ROCE_NOTIFY_ACK_ECHO));
            nicHelper.SetNicAttribute("AckInterval", UintegerValue(1));
        }
        test::CcLoopTest::Build(senders, "400Gbps", nicHelper);
    }

    uint64_t Pauses() const
    {
        uint64_t p = 0;
        for (uint32_t i = 0; i < receiverPort; ++i)
        {
            p += sw->GetPort(i)->GetCounters().pauseTx[3];
        }
        return p;
    }

    uint64_t Drops() const
    {
        uint64_t d = 0;
        for (auto x : sw->GetCounters().drops)
        {
            d += x;
        }
        return d;
    }

    /// Incast: every sender WRITEs \p bytes at t = 0; returns mean completion time.
    Time Incast(uint64_t bytes)
    {
        Time sum;
        uint32_t done = 0;
        for (auto& [a, b] : qps)
        {
            a->PostWrite(bytes,
                         0,
                         1,
                         MakeCallback(+[](Time* s, uint32_t* n, const RoceWorkCompletion& wc) {
                             EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
                             *s += wc.endTime - wc.postTime;
                             ++*n;
                         }).Bind(&sum, &done));
        }
        Simulator::Run();
        EXPECT_EQ(done, qps.size());
        return sum / int64_t(qps.size());
    }
};

// Flow 0 runs alone for 1 ms, then flow 1 joins. With the firmware preset and ECN at
// Kmin 200 KB / Kmax 1.6 MB / Pmax 0.1 on the 400 Gb/s bottleneck, 20..40 ms after the join
// each flow is within 10% of the fair share and the queue's median lies between Kmin and Kmax.
TEST_F(DcqcnLoopTest, TwoFlowsConvergeToFairShareWithQueueBetweenKminAndKmax)
{
    DcqcnCongestionOps::SetPresetDefaults("firmware");
    Config::SetDefault("ns3::WredEcnMarker::ScaleWithRate", BooleanValue(false));
    Config::SetDefault("ns3::WredEcnMarker::Kmin", QueueSizeValue(QueueSize("200KB")));
    Config::SetDefault("ns3::WredEcnMarker::Kmax", QueueSizeValue(QueueSize("1600KB")));
    Config::SetDefault("ns3::WredEcnMarker::Pmax", DoubleValue(0.1));
    Build(2, DcqcnCongestionOps::GetTypeId());
    qps[0].first->PostWrite(2ull << 30, 0, 1, RoceQueuePair::CompletionCallback());
    Simulator::Schedule(MilliSeconds(1), [this]() {
        qps[1].first->PostWrite(2ull << 30, 0, 1, RoceQueuePair::CompletionCallback());
    });
    const Time from = MilliSeconds(21);
    const Time to = MilliSeconds(41);
    uint64_t atFrom[2] = {0, 0};
    Simulator::Schedule(from, [&]() {
        for (int i = 0; i < 2; ++i)
        {
            atFrom[i] = qps[i].second->GetCounters().rxDataBytes;
        }
    });
    std::vector<uint64_t> queue;
    for (int k = 0; k < 2000; ++k)
    {
        Simulator::Schedule(from + MicroSeconds(10 * k), [&]() {
            queue.push_back(sw->GetMmu()->GetEgressBytes(receiverPort, 3));
        });
    }
    Simulator::Stop(to);
    Simulator::Run();
    double fair = 400e9 * 4096 / 4178 / 2;
    for (int i = 0; i < 2; ++i)
    {
        double gbps =
            (qps[i].second->GetCounters().rxDataBytes - atFrom[i]) * 8.0 / (to - from).GetSeconds();
        EXPECT_NEAR(gbps / fair, 1.0, 0.10) << "flow " << i << ": " << gbps / 1e9 << " Gb/s";
        RecordProperty("flow" + std::to_string(i) + "_gbps", std::to_string(gbps / 1e9));
    }
    std::sort(queue.begin(), queue.end());
    uint64_t median = queue[queue.size() / 2];
    EXPECT_GT(median, sw->GetEcnMarker()->GetKmin(receiverPort));
    EXPECT_LT(median, sw->GetEcnMarker()->GetKmax(receiverPort));
    RecordProperty("queue_median_bytes", std::to_string(median));
    EXPECT_EQ(Drops(), 0u);
}

// DCQCN with the ECN echo on ACKs instead of CNPs (RoceNic CongestionNotification=AckEcho,
// the HPCC paper's DCQCN baseline) and an ACK per packet (AckInterval 1): the incast of
// IncastNeedsFarFewerPauses... still needs far fewer pauses than without congestion control,
// and the responders send no CNP. (With 16-packet ACK coalescing a QP whose packets are all
// marked hears of it once per 16 packets, not once per 4 us: 5279 pauses vs 5518 without CC.)
TEST_F(DcqcnLoopTest, WithEcnEchoOnAcksIncastNeedsFarFewerPausesThanCcOff)
{
    Build(16, FabricNoneCongestionOps::GetTypeId());
    Incast(32 << 20);
    uint64_t off = Pauses();
    Simulator::Destroy();
    hosts = NodeContainer();
    ports.clear();
    nics.clear();
    qps.clear();
    DcqcnCongestionOps::SetPresetDefaults("firmware");
    Build(16, DcqcnCongestionOps::GetTypeId(), true);
    Incast(32 << 20);
    uint64_t echo = Pauses();
    RoceQpCounters rx = nics[16]->GetTotalQpCounters();
    EXPECT_GT(rx.ceRx, 0u);
    EXPECT_EQ(rx.cnpsTx, 0u);
    EXPECT_LT(double(echo), 0.5 * double(off)) << echo << " vs " << off;
    RecordProperty("pauses_cc_off", std::to_string(off));
    RecordProperty("pauses_dcqcn_ack_echo", std::to_string(echo));
}

TEST_F(DcqcnLoopTest, IncastNeedsFarFewerPausesWithDcqcnThanWithCcOff)
{
    Build(16, FabricNoneCongestionOps::GetTypeId());
    Incast(32 << 20);
    uint64_t pausesOff = Pauses();
    uint64_t dropsOff = Drops();
    Simulator::Destroy();
    hosts = NodeContainer();
    ports.clear();
    nics.clear();
    qps.clear();
    DcqcnCongestionOps::SetPresetDefaults("firmware");
    Build(16, DcqcnCongestionOps::GetTypeId());
    Incast(32 << 20);
    uint64_t pausesDcqcn = Pauses();
    EXPECT_EQ(dropsOff, 0u);
    EXPECT_EQ(Drops(), 0u);
    EXPECT_GT(pausesOff, 0u);
    EXPECT_LT(double(pausesDcqcn), 0.5 * double(pausesOff))
        << "DCQCN " << pausesDcqcn << " vs CC off " << pausesOff;
    RecordProperty("pauses_cc_off", std::to_string(pausesOff));
    RecordProperty("pauses_dcqcn", std::to_string(pausesDcqcn));
}

TEST_F(DcqcnLoopTest, CcNoneStaysAtLineRateAndOnlyPfcActs)
{
    Build(4, FabricNoneCongestionOps::GetTypeId());
    bool alwaysLine = true;
    for (int k = 1; k < 50; ++k)
    {
        Simulator::Schedule(MicroSeconds(20 * k), [&]() {
            for (auto& [a, b] : qps)
            {
                alwaysLine &= a->GetCongestionOps()->GetRate() == DataRate("400Gbps");
            }
        });
    }
    Incast(4 << 20);
    EXPECT_TRUE(alwaysLine);
    EXPECT_GT(Pauses(), 0u);
    EXPECT_EQ(Drops(), 0u);
    uint64_t cnpsRx = 0;
    for (auto& [a, b] : qps)
    {
        cnpsRx += a->GetCounters().cnpsRx; // CNPs arrive but nothing reacts
    }
    EXPECT_GT(cnpsRx, 0u);
}

TEST_F(DcqcnLoopTest, ChangingAParameterChangesTheOutcome)
{
    DcqcnCongestionOps::SetPresetDefaults("firmware");
    Build(8, DcqcnCongestionOps::GetTypeId());
    Time base = Incast(8 << 20);
    uint64_t basePauses = Pauses();
    Simulator::Destroy();
    hosts = NodeContainer();
    ports.clear();
    nics.clear();
    qps.clear();
    // Each decrease may now cut at most 10% instead of 50%: senders stay faster, so the switch
    // must pause them more. (With a parameter that had no effect the runs would be identical.)
    Config::SetDefault("ns3::DcqcnCongestionOps::MinDecreaseFactor", DoubleValue(0.9));
    Build(8, DcqcnCongestionOps::GetTypeId());
    Time other = Incast(8 << 20);
    EXPECT_GT(double(Pauses()), 1.2 * double(basePauses)) << Pauses() << " vs " << basePauses;
    EXPECT_NE(base, other);
}

} // namespace
