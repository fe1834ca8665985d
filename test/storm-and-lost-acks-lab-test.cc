/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The failure labs pfc-storm and lost-acks (issue 37), on their fabric (4 leaves x 2 spines,
 * 2 hosts per leaf, 100 Gb/s): a stuck NIC's pauses reach the spines within the propagation
 * time computed from the fabric's parameters, and the PFC watchdog declares the stuck port's
 * storm at the first pause refresh at or after pause start + timeout, after which the victims
 * (flows that never touch the stuck host) finish long before the host resumes; ACKs lost on
 * one leaf-spine cable raise local ACK timeouts on exactly the QPs whose ACKs were lost, every
 * write completes, and only the cable's two ends count receive errors. Frames are conserved
 * after each fault.
 */
#include "fault-test-util.h"
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <set>

using namespace ns3;

namespace
{

/// The port of switch node \p sw whose cable leads to \p peer (the first one).
Ptr<PfcNetDevice>
PortTo(Ptr<Node> sw, Ptr<Node> peer)
{
    Ptr<FabricSwitch> s = sw->GetObject<FabricSwitch>();
    for (uint32_t p = 0; p < s->GetNPorts(); ++p)
    {
        if (test::PeerOf(s->GetPort(p))->GetNode() == peer)
        {
            return s->GetPort(p);
        }
    }
    return nullptr;
}

class FailureLabTest : public test::SimTest
{
  protected:
    /// The labs' fabric: 4 leaves x 2 spines, 2 hosts per leaf, 100 Gb/s everywhere.
    static Ptr<ClosTopologyHelper> LabFabric(uint32_t localAckTimeout)
    {
        auto t = CreateObject<ClosTopologyHelper>();
        t->SetAttribute("Hosts", UintegerValue(8));
        t->SetAttribute("ServersPerRack", UintegerValue(2));
        t->SetAttribute("TorPorts", UintegerValue(4));
        t->SetAttribute("Spines", UintegerValue(2));
        t->SetAttribute("SpinePorts", UintegerValue(4));
        t->SetAttribute("GpuLinkDataRate", StringValue("100Gbps"));
        t->SetAttribute("LeafSpineDataRate", StringValue("100Gbps"));
        t->GetNicHelper().SetNicAttribute("LocalAckTimeout", UintegerValue(localAckTimeout));
        t->Install();
        return t;
    }

    /// Post one WRITE of \p bytes from rank \p a to rank \p b on a QP of its own.
    std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>> Write(Ptr<FabricTopologyHelper> t,
                                                            uint32_t a,
                                                            uint32_t b,
                                                            uint64_t bytes)
    {
        auto q = t->Connect(a, b, 1).front();
        q.first->PostWrite(bytes, 0, 1, MakeCallback(&FailureLabTest::Done, this).Bind(a, b));
        posted++;
        return q;
    }

    void Done(uint32_t a, uint32_t b, const RoceWorkCompletion& wc)
    {
        EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
        completed += wc.status == RoceWcStatus::SUCCESS ? 1 : 0;
        doneTimes.push_back(wc.endTime);
        if (a != 0 && b != 0)
        {
            victimsDone = std::max(victimsDone, wc.endTime);
        }
    }

    std::vector<Time> doneTimes; //!< completion times, in completion order
    Time victimsDone;            //!< last completion of a write not to or from gpu0
    uint32_t posted{0};
    uint32_t completed{0};
};

/// Records the arrival times of non-zero pauses on a port, and its storms.
struct PortLog
{
    std::vector<Time> pauses; //!< non-zero pause frames received
    std::vector<Time> xons;   //!< XONs received
    std::vector<Time> storms; //!< watchdog storm declarations
};

void
LogPause(PortLog* log, uint8_t priority, uint16_t quanta)
{
    if (priority != 3)
    {
        return;
    }
    if (quanta > 0)
    {
        log->pauses.push_back(Simulator::Now());
    }
    else
    {
        log->xons.push_back(Simulator::Now());
    }
}

void
LogStorm(PortLog* log, uint8_t)
{
    log->storms.push_back(Simulator::Now());
}

/// gpu0's host stops draining at 20 us for 10 ms under an incast to gpu0 (gpu2..gpu7, 1 MiB
/// each) plus victim writes between the other leaves (gpu2 -> gpu4 -> gpu6 -> gpu2, 1 MiB
/// each). The first pause reaches the spines within the propagation time computed below, after
/// leaf0's port to gpu0 was paused; the watchdog (2 ms) declares exactly one storm, on leaf0's
/// port to gpu0, at its first pause refresh at or after its pause start + 2 ms; the victims
/// then finish long before the host resumes; every write completes; frames are conserved.
TEST_F(FailureLabTest, AStuckNicsPausesReachTheSpinesAndTheWatchdogClearsThem)
{
    const Time stallAt = MicroSeconds(20);
    const Time stall = MilliSeconds(10);
    const Time watchdog = MilliSeconds(2);
    Config::SetDefault("ns3::FabricNic::RxDrainRate", StringValue("100Gbps"));
    Config::SetDefault("ns3::SharedBufferMmu::BufferSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::PfcNetDevice::PfcWatchdogTimeout", TimeValue(watchdog));
    auto t = LabFabric(14); // 67 ms: no local ACK timeout during the 10 ms stall
    Ptr<FabricNic> nic0 = t->GetNicCore(0);
    Ptr<PfcNetDevice> leafToGpu0 = test::PeerOf(nic0->GetPort(0));
    PortLog leafLog;
    leafToGpu0->TraceConnectWithoutContext("PfcPauseRx", MakeBoundCallback(&LogPause, &leafLog));
    leafToGpu0->TraceConnectWithoutContext("PfcStorm", MakeBoundCallback(&LogStorm, &leafLog));
    std::vector<PortLog> spineLogs(2);
    std::vector<Ptr<PfcNetDevice>> spinePorts;
    for (uint32_t s = 0; s < 2; ++s)
    {
        spinePorts.push_back(PortTo(t->GetSpine(s), t->GetLeaf(0)));
        ASSERT_TRUE(spinePorts.back());
        spinePorts.back()->TraceConnectWithoutContext("PfcPauseRx",
                                                      MakeBoundCallback(&LogPause, &spineLogs[s]));
    }
    PortLog anyStorm; // every storm of the fabric, in order
    for (Ptr<FabricSwitch> sw : t->GetScaleOutSwitches())
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            sw->GetPort(p)->TraceConnectWithoutContext("PfcStorm",
                                                       MakeBoundCallback(&LogStorm, &anyStorm));
        }
    }
    auto f = CreateObject<FaultHelper>();
    f->Add("nic-stall:gpu0@20us,for=10ms");
    f->Install(t);
    for (uint32_t src = 2; src < 8; ++src)
    {
        Write(t, src, 0, 1 << 20);
    }
    std::vector<Ptr<RoceQueuePair>> victimQps;
    for (auto [a, b] : {std::pair<uint32_t, uint32_t>{2, 4}, {4, 6}, {6, 2}})
    {
        victimQps.push_back(Write(t, a, b, 1 << 20).first);
    }
    Simulator::Run();
    EXPECT_EQ(completed, posted);
    test::ExpectFramesConserved(*t);
    // Propagation, stage by stage. The host drains at line rate until the stall, so its
    // backlog is ~0 at stallAt. Lower bound (causality): the NIC pauses only once RxXoffBytes
    // of payload arrived after the stall, at most at the link rate R, and the pauses cross two
    // cables of delay d (NIC -> leaf0, leaf0 -> spine):
    //   t_spine >= stallAt + RxXoffBytes x 8 / R + 2 d.
    // Upper bounds. gpu0's link is saturated by the incast (six senders, no congestion
    // control), so payload reaches the host buffer at >= e R, e = MTU / (MTU + 100 B) (RoCE,
    // UDP, IPv4, Ethernet headers, preamble and gap are < 100 B per 4096 B frame):
    //   t_leaf0 <= stallAt + RxXoffBytes x 8 / (e R) + d + 1 us
    // (1 us: a frame in serialization and the pause frame, generously). Once paused, leaf0
    // forwards nothing to gpu0 and receives for it at >= e R (six senders offer 300 Gb/s
    // toward gpu0 over at most two spine links: one is saturated) into at most two ingress
    // priority groups (one per spine; gpu1 sends nothing). A group goes XOFF when its shared
    // use s reaches Alpha x (P - U), P the shared pool, U >= s the pool in use; that holds
    // by s = Alpha P / (1 + Alpha) (Dynamic threshold, the default). So one of the two has
    // paused its spine once they hold 2 x (Reserved + Alpha P / (1 + Alpha)) bytes:
    //   t_spine <= t_leaf0 + 2 x (Reserved + Alpha P / (1 + Alpha)) x 8 / (e R) + d + 1 us.
    const double rate = 100e9;
    const double e = 4096.0 / (4096 + 100);
    const Time d = leafToGpu0->GetPfcChannel()->GetDelay();
    const uint64_t xoff = 512 * 1024; // ns3::FabricNic::RxXoffBytes default
    UintegerValue xoffAttr;
    nic0->GetAttribute("RxXoffBytes", xoffAttr);
    ASSERT_EQ(xoffAttr.Get(), xoff);
    Ptr<SharedBufferMmu> mmu = t->GetLeaf(0)->GetObject<FabricSwitch>()->GetMmu();
    DoubleValue alpha;
    UintegerValue reserved;
    mmu->GetAttribute("Alpha", alpha);
    mmu->GetAttribute("ReservedBytes", reserved);
    const double pool = mmu->GetSharedPoolSize();
    const double groupXoff = reserved.Get() + alpha.Get() * pool / (1 + alpha.Get());
    ASSERT_FALSE(leafLog.pauses.empty()) << "the stuck NIC never paused leaf0";
    const Time leafPaused = leafLog.pauses.front();
    Time spineFirst = Time::Max();
    for (const auto& log : spineLogs)
    {
        if (!log.pauses.empty())
        {
            spineFirst = std::min(spineFirst, log.pauses.front());
        }
    }
    ASSERT_NE(spineFirst, Time::Max()) << "the pauses never reached the spines";
    EXPECT_GE(leafPaused, stallAt + Seconds(xoff * 8 / rate) + d);
    EXPECT_LE(leafPaused, stallAt + Seconds(xoff * 8 / (e * rate)) + d + MicroSeconds(1));
    EXPECT_GE(spineFirst, stallAt + Seconds(xoff * 8 / rate) + 2 * d);
    EXPECT_GT(spineFirst, leafPaused) << "a spine was paused before leaf0";
    EXPECT_LE(spineFirst,
              leafPaused + Seconds(2 * groupXoff * 8 / (e * rate)) + d + MicroSeconds(1))
        << "leaf0 paused the spines later than its XOFF thresholds allow (Alpha " << alpha.Get()
        << ", shared pool " << pool << " B)";

    // Watchdog: leaf0's port to gpu0 is paused continuously from its first pause (no XON
    // before the storm); the storm is declared at the first pause arrival at or after
    // start + timeout, which is within one refresh interval of it.
    ASSERT_EQ(leafLog.storms.size(), 1u);
    EXPECT_EQ(leafToGpu0->GetCounters().stormsDetected[3], 1u);
    const Time start = leafLog.pauses.front();
    const Time storm = leafLog.storms.front();
    for (Time xon : leafLog.xons)
    {
        EXPECT_GT(xon, stallAt + stall) << "gpu0 resumed leaf0 while stuck";
    }
    ASSERT_FALSE(anyStorm.storms.empty());
    EXPECT_EQ(anyStorm.storms.front(), storm) << "another port stormed before the stuck one";
    auto firstAtOrAfter =
        std::lower_bound(leafLog.pauses.begin(), leafLog.pauses.end(), start + watchdog);
    ASSERT_NE(firstAtOrAfter, leafLog.pauses.end());
    EXPECT_EQ(storm, *firstAtOrAfter);
    // The NIC refreshes its XOFF every PauseRefreshInterval (0: half the pause time of
    // PauseQuanta x 512 bit times at its rate, 167.8 us at 100 Gb/s).
    TimeValue refreshAttr;
    UintegerValue quanta;
    nic0->GetPort(0)->GetAttribute("PauseRefreshInterval", refreshAttr);
    nic0->GetPort(0)->GetAttribute("PauseQuanta", quanta);
    const Time refresh = refreshAttr.Get().IsZero()
                             ? Seconds(double(quanta.Get()) * 512 / rate / 2) + NanoSeconds(1)
                             : refreshAttr.Get();
    EXPECT_LT(storm - (start + watchdog), refresh);
    // The victims finish once the storm is declared, long before the host resumes (other
    // ports paused past the timeout may storm too, and what they then send into full buffers
    // is dropped and resent: the watchdog trades losslessness for progress).
    for (Ptr<RoceQueuePair> qp : victimQps)
    {
        EXPECT_EQ(qp->GetCounters().completions, 1u);
    }
    EXPECT_GT(victimsDone, storm) << "everything finished before the storm: no storm shown";
    EXPECT_LT(victimsDone, stallAt + stall) << "the watchdog did not release the fabric";
}

/// The same stall without the watchdog: nothing of the fabric finishes before the host
/// resumes, victims included (the storm, before the fix).
TEST_F(FailureLabTest, WithoutTheWatchdogTheVictimsWaitForTheStuckHost)
{
    Config::SetDefault("ns3::FabricNic::RxDrainRate", StringValue("100Gbps"));
    Config::SetDefault("ns3::SharedBufferMmu::BufferSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::PfcNetDevice::PfcWatchdogTimeout", TimeValue(Time(0)));
    auto t = LabFabric(14);
    auto f = CreateObject<FaultHelper>();
    f->Add("nic-stall:gpu0@20us,for=10ms");
    f->Install(t);
    for (uint32_t src = 2; src < 8; ++src)
    {
        Write(t, src, 0, 1 << 20);
    }
    for (auto [a, b] : {std::pair<uint32_t, uint32_t>{2, 4}, {4, 6}, {6, 2}})
    {
        Write(t, a, b, 1 << 20);
    }
    Simulator::Run();
    EXPECT_EQ(completed, posted);
    test::ExpectFramesConserved(*t);
    ASSERT_EQ(doneTimes.size(), posted);
    for (Time end : doneTimes)
    {
        EXPECT_GT(end, MicroSeconds(20) + MilliSeconds(10)) << "a write escaped the storm";
    }
    uint64_t storms = 0;
    for (Ptr<FabricSwitch> sw : t->GetScaleOutSwitches())
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            storms += sw->GetPort(p)->GetCounters().stormsDetected[3];
        }
    }
    EXPECT_EQ(storms, 0u);
}

/// Every ACK crossing leaf0-spine1 is lost from 0 to 300 us, under a permutation (each host
/// writes 512 KiB to the host four ranks on, so no queue builds). The ACKs lost per QP are
/// the responder's ACKs sent minus the requester's received (nothing else loses frames: the
/// books balance); local ACK timeouts (131 us) happen on exactly the QPs that lost ACKs, those
/// cross leaf0's uplinks (one end on leaf0), some QPs are spared, every write completes, and
/// only the cable's two ends count rx errors, as many as the filters dropped.
TEST_F(FailureLabTest, LostAcksRaiseTimeoutsOnlyOnTheQpsWhoseAcksCrossTheCable)
{
    auto t = LabFabric(5);
    auto f = CreateObject<FaultHelper>();
    f->Add("drop-class:leaf0-spine1@0s,class=ack,for=300us");
    f->Install(t);
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> qps;
    std::vector<std::pair<uint32_t, uint32_t>> ranks;
    for (uint32_t a = 0; a < 8; ++a)
    {
        for (uint32_t b : {(a + 4) % 8, (a + 2) % 8})
        {
            qps.push_back(Write(t, a, b, 512 * 1024));
            ranks.emplace_back(a, b);
        }
    }
    Simulator::Run();
    EXPECT_EQ(completed, posted);
    test::ExpectFramesConserved(*t);
    uint32_t affected = 0;
    uint32_t spared = 0;
    uint64_t lost = 0;
    for (size_t i = 0; i < qps.size(); ++i)
    {
        const RoceQpCounters& req = qps[i].first->GetCounters();
        const RoceQpCounters& resp = qps[i].second->GetCounters();
        ASSERT_GE(resp.acksTx, req.acksRx);
        const uint64_t acksLost = resp.acksTx - req.acksRx;
        lost += acksLost;
        const auto [a, b] = ranks[i];
        if (acksLost > 0)
        {
            ++affected;
            EXPECT_GT(req.timeouts, 0u)
                << "gpu" << a << "->gpu" << b << " lost " << acksLost << " ACKs without a timeout";
            EXPECT_NE(a < 2, b < 2)
                << "gpu" << a << "->gpu" << b << " lost ACKs but does not cross leaf0's uplinks";
        }
        else
        {
            ++spared;
            EXPECT_EQ(req.timeouts, 0u) << "gpu" << a << "->gpu" << b << " timed out, no ACK lost";
        }
    }
    EXPECT_GT(affected, 0u);
    EXPECT_GT(spared, 0u);
    uint64_t filtered = 0;
    for (Ptr<PacketClassFilter> filter : f->GetPacketClassFilters())
    {
        filtered += filter->GetDrops(FabricPacketClass::ACK);
    }
    EXPECT_EQ(filtered, lost);
    const std::set<Ptr<PfcNetDevice>> cable{PortTo(t->GetLeaf(0), t->GetSpine(1)),
                                            PortTo(t->GetSpine(1), t->GetLeaf(0))};
    uint64_t rxErrors = 0;
    for (Ptr<FabricSwitch> sw : t->GetScaleOutSwitches())
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const uint64_t n = sw->GetPort(p)->GetCounters().drops[size_t(PfcDropReason::RX_ERROR)];
            if (cable.count(sw->GetPort(p)) == 0)
            {
                EXPECT_EQ(n, 0u) << "rx errors on a port off the cable";
            }
            rxErrors += n;
        }
    }
    EXPECT_EQ(rxErrors, lost);
}

} // namespace
