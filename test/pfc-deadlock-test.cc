/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PFC deadlock detection and static routes (issue 37, the pfc-deadlock lab). On 3 leaves x
 * 2 spines, detours pinned on the spines (spine0 reaches leaf2 through leaf1 and spine1,
 * spine1 reaches leaf1 through leaf2 and spine0) deadlock an all-to-all of RoCE writes; the
 * PfcDeadlockDetector declares it within DetectionTime + CheckInterval of its formation (not
 * before DetectionTime) with exactly the cycle leaf1 -> spine1 -> leaf2 -> spine0 on priority
 * 3, and the health monitor's diagnosis lists it. The same traffic on the computed (up-down)
 * routes pauses but completes without a detection, as does a 5:1 incast, which also ends at
 * the same time with and without the detector. A PFC watchdog shorter than DetectionTime
 * breaks the cycle first: no detection. Bad attributes and bad static routes are refused
 * naming the value.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <map>
#include <sstream>

using namespace ns3;

namespace
{

/// When each switch port last started a priority-3 frame, last entered a pause and last
/// queued a frame into an empty priority-3 queue: the latest is when it got stuck.
struct PortClock
{
    std::map<PfcNetDevice*, Time> lastTx;     //!< last frame dequeued on priority 3
    std::map<PfcNetDevice*, Time> pauseStart; //!< start of the latest pause of priority 3
    std::map<PfcNetDevice*, Time> backlogged; //!< last enqueue into an empty queue
};

void
OnEnqueue(PortClock* c, PfcNetDevice* dev, Ptr<const Packet>, uint8_t priority)
{
    // The trace fires before the frame is queued.
    if (priority == 3 && dev->GetTxQueue(3).IsEmpty())
    {
        c->backlogged[dev] = Simulator::Now();
    }
}

void
OnDequeue(PortClock* c, PfcNetDevice* dev, Ptr<const Packet>, uint8_t priority)
{
    if (priority == 3)
    {
        c->lastTx[dev] = Simulator::Now();
    }
}

void
OnPauseRx(PortClock* c, PfcNetDevice* dev, uint8_t priority, uint16_t quanta)
{
    // The trace fires before the pause is applied: a pause of an unpaused priority starts one.
    if (priority == 3 && quanta > 0 && !dev->IsPaused(3))
    {
        c->pauseStart[dev] = Simulator::Now();
    }
}

/// The port of switch node \p from cabled to node \p to.
uint32_t
PortTo(Ptr<Node> from, Ptr<Node> to)
{
    Ptr<FabricSwitch> sw = from->GetObject<FabricSwitch>();
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        Ptr<PfcChannel> ch = sw->GetPort(p)->GetPfcChannel();
        Ptr<PfcNetDevice> other =
            ch->GetPfcDevice(0) == sw->GetPort(p) ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
        if (other->GetNode() == to)
        {
            return p;
        }
    }
    ADD_FAILURE() << "no cable";
    return 0;
}

class PfcDeadlockTest : public test::SimTest
{
  protected:
    /// 3 leaves x 2 spines, 2 hosts per leaf, 100 Gb/s, deadlock detection on.
    Ptr<ClosTopologyHelper> Fabric(Time checkInterval, Time detectionTime)
    {
        Config::SetDefault("ns3::PfcDeadlockDetector::CheckInterval", TimeValue(checkInterval));
        Config::SetDefault("ns3::PfcDeadlockDetector::DetectionTime", TimeValue(detectionTime));
        auto t = CreateObject<ClosTopologyHelper>();
        t->SetAttribute("Hosts", UintegerValue(6));
        t->SetAttribute("ServersPerRack", UintegerValue(2));
        t->SetAttribute("TorPorts", UintegerValue(4));
        t->SetAttribute("Spines", UintegerValue(2));
        t->SetAttribute("SpinePorts", UintegerValue(3));
        t->SetAttribute("GpuLinkDataRate", StringValue("100Gbps"));
        t->SetAttribute("LeafSpineDataRate", StringValue("100Gbps"));
        t->SetAttribute("DeadlockDetection", BooleanValue(true));
        return t;
    }

    /// The detours of the lab: two spine valleys closing spine0-leaf1-spine1-leaf2.
    static void Pin(Ptr<FabricTopologyHelper> t)
    {
        t->SetStaticRoute(t->GetSpine(0), t->GetLeaf(2), t->GetLeaf(1));
        t->SetStaticRoute(t->GetLeaf(1), t->GetLeaf(2), t->GetSpine(1));
        t->SetStaticRoute(t->GetSpine(1), t->GetLeaf(1), t->GetLeaf(2));
        t->SetStaticRoute(t->GetLeaf(2), t->GetLeaf(1), t->GetSpine(0));
    }

    /// Every host writes \p bytes to every host of another leaf, on eight QPs (the lab's).
    void AllToAll(Ptr<FabricTopologyHelper> t, uint64_t bytes)
    {
        for (uint32_t a = 0; a < 6; ++a)
        {
            for (uint32_t b = a + 1; b < 6; ++b)
            {
                if (a / 2 != b / 2)
                {
                    Connect(t, a, b, bytes, true, 8);
                }
            }
        }
    }

    /// One write a -> b (and b -> a if \p both) on each of \p qps QPs.
    void Connect(Ptr<FabricTopologyHelper> t,
                 uint32_t a,
                 uint32_t b,
                 uint64_t bytes,
                 bool both,
                 uint32_t qps = 2)
    {
        for (const auto& q : t->Connect(a, b, qps))
        {
            q.first->PostWrite(bytes, 0, 1, MakeCallback(&PfcDeadlockTest::Done, this));
            ++posted;
            if (both)
            {
                q.second->PostWrite(bytes, 0, 1, MakeCallback(&PfcDeadlockTest::Done, this));
                ++posted;
            }
        }
    }

    void Done(const RoceWorkCompletion& wc)
    {
        completed += wc.status == RoceWcStatus::SUCCESS ? 1 : 0;

        lastCompletion = Simulator::Now();
    }

    /// Record the last transmission and pause start of every switch port.
    void WatchPorts(Ptr<FabricTopologyHelper> t)
    {
        for (const auto& sw : t->GetScaleOutSwitches())
        {
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                PfcNetDevice* dev = PeekPointer(sw->GetPort(p));
                dev->TraceConnectWithoutContext("TxDequeue",
                                                MakeBoundCallback(&OnDequeue, &clock, dev));
                dev->TraceConnectWithoutContext("TxEnqueue",
                                                MakeBoundCallback(&OnEnqueue, &clock, dev));
                dev->TraceConnectWithoutContext("PfcPauseRx",
                                                MakeBoundCallback(&OnPauseRx, &clock, dev));
            }
        }
    }

    /// PFC pause frames sent by the scale-out switches.
    static uint64_t SwitchPauses(Ptr<FabricTopologyHelper> t)
    {
        uint64_t n = 0;
        for (const auto& sw : t->GetScaleOutSwitches())
        {
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                n += sw->GetPort(p)->GetCounters().pauseTx[3];
            }
        }
        return n;
    }

    PortClock clock;
    uint32_t posted{0};
    uint32_t completed{0};
    Time lastCompletion;
};

TEST_F(PfcDeadlockTest, DetectsTheCycleWithinItsDetectionTime)
{
    const Time ci = MicroSeconds(100);
    const Time dt = MilliSeconds(1);
    auto t = Fabric(ci, dt);
    t->Install();
    Pin(t);
    std::ostringstream out;
    Ptr<PfcDeadlockDetector> d = t->GetDeadlockDetector();
    ASSERT_TRUE(d);
    d->SetStream(&out);
    WatchPorts(t);
    AllToAll(t, 2 << 20);
    Simulator::Run();

    ASSERT_EQ(d->GetNDeadlocks(), 1u) << out.str();
    EXPECT_LT(completed, posted) << "a deadlock stops the traffic";
    const PfcDeadlockCycle& c = d->GetDeadlocks()[0];
    EXPECT_EQ(c.priority, 3);
    // The cycle, from its smallest node id (leaves are created before spines).
    Ptr<Node> leaf1 = t->GetLeaf(1);
    Ptr<Node> leaf2 = t->GetLeaf(2);
    Ptr<Node> spine0 = t->GetSpine(0);
    Ptr<Node> spine1 = t->GetSpine(1);
    const std::vector<std::pair<Ptr<Node>, Ptr<Node>>> expected{{leaf1, spine1},
                                                                {spine1, leaf2},
                                                                {leaf2, spine0},
                                                                {spine0, leaf1}};
    ASSERT_EQ(c.hops.size(), expected.size()) << c.ToString();
    Time formed;
    for (size_t i = 0; i < expected.size(); ++i)
    {
        const auto& [from, to] = expected[i];
        EXPECT_EQ(c.hops[i].nodeId, from->GetId()) << c.ToString();
        EXPECT_EQ(c.hops[i].nodeName, t->GetNodeName(from->GetId()));
        EXPECT_EQ(c.hops[i].port, PortTo(from, to)) << c.ToString();
        EXPECT_EQ(c.hops[i].priority, 3);
        EXPECT_EQ(c.hops[i].peerNodeId, to->GetId());
        PfcNetDevice* dev = PeekPointer(from->GetObject<FabricSwitch>()->GetPort(c.hops[i].port));
        // The port is stuck: paused, holding priority-3 bytes.
        EXPECT_TRUE(dev->IsPaused(3));
        EXPECT_GT(dev->GetTxQueue(3).GetNBytes(), 0u);
        formed =
            std::max({formed, clock.lastTx[dev], clock.pauseStart[dev], clock.backlogged[dev]});
    }
    // Declared no earlier than DetectionTime after the cycle formed and within one more
    // check interval; the run stopped there.
    EXPECT_GE(c.detected, formed + dt) << "formed " << formed.As(Time::US);
    EXPECT_LE(c.detected, formed + dt + ci) << "formed " << formed.As(Time::US);
    EXPECT_EQ(Simulator::Now(), c.detected);
    EXPECT_EQ(
        c.ToString(),
        "leaf1:p" + std::to_string(c.hops[0].port) + " -> spine1:p" +
            std::to_string(c.hops[1].port) + " -> leaf2:p" + std::to_string(c.hops[2].port) +
            " -> spine0:p" + std::to_string(c.hops[3].port) + " -> leaf1:p" +
            std::to_string(c.hops[0].port) + ", priority 3, since " + [&] {
                std::ostringstream s;
                s << c.since.As(Time::MS);
                return s.str();
            }());
    EXPECT_NE(out.str().find("ai-fabric: PFC DEADLOCK at "), std::string::npos) << out.str();
    EXPECT_NE(out.str().find(c.ToString()), std::string::npos) << out.str();
    // A stall diagnosis lists the cycle.
    std::ostringstream diag;
    t->GetHealthMonitor()->Diagnose(diag);
    EXPECT_NE(diag.str().find("PFC deadlock detector:"), std::string::npos) << diag.str();
    EXPECT_NE(diag.str().find(c.ToString()), std::string::npos) << diag.str();
    EXPECT_EQ(FabricHealthMonitor::CountLosslessDrops(), 0u);
}

TEST_F(PfcDeadlockTest, HealthyTrafficWithHeavyPfcIsNoDeadlock)
{
    // The same all-to-all on the computed up-down routes, checked every 10 us with a 100 us
    // detection time: ports pause in both directions, but no cycle stays stuck.
    auto t = Fabric(MicroSeconds(10), MicroSeconds(100));
    t->Install();
    AllToAll(t, 2 << 20);
    Simulator::Run();
    EXPECT_EQ(completed, posted);
    EXPECT_GT(SwitchPauses(t), 0u);
    EXPECT_EQ(t->GetDeadlockDetector()->GetNDeadlocks(), 0u);
}

TEST_F(PfcDeadlockTest, IncastPausesWithoutDetectionAndEndsAtTheSameTime)
{
    // 5:1 incast into gpu5: the pauses form a tree toward the receiver, not a cycle. The
    // detector changes nothing: the same completion and end times as without it.
    Time end[2];
    Time done[2];
    for (bool detect : {false, true})
    {
        Simulator::Destroy();
        posted = 0;
        completed = 0;
        auto t = Fabric(MicroSeconds(10), MicroSeconds(100));
        t->SetAttribute("DeadlockDetection", BooleanValue(detect));
        t->Install();
        for (uint32_t a = 0; a < 5; ++a)
        {
            Connect(t, a, 5, 2 << 20, false);
        }
        Simulator::Run();
        EXPECT_EQ(completed, posted);
        EXPECT_GT(SwitchPauses(t), 0u);
        end[detect] = Simulator::Now();
        done[detect] = lastCompletion;
        if (detect)
        {
            EXPECT_EQ(t->GetDeadlockDetector()->GetNDeadlocks(), 0u);
        }
        else
        {
            EXPECT_FALSE(t->GetDeadlockDetector());
        }
        t->Dispose();
    }
    EXPECT_EQ(end[0], end[1]);
    EXPECT_EQ(done[0], done[1]);
}

TEST_F(PfcDeadlockTest, NoDetectionWhenTheWatchdogBreaksTheCycleFirst)
{
    // A 1 ms PFC watchdog against a 5 ms detection time: the cycle forms, the watchdog ends
    // its pauses before it is 5 ms old, and nothing is declared.
    auto t = Fabric(MicroSeconds(500), MilliSeconds(5));
    t->GetPortHelper().SetDeviceAttribute("PfcWatchdogTimeout", TimeValue(MilliSeconds(1)));
    t->Install();
    Pin(t);
    Ptr<PfcDeadlockDetector> d = t->GetDeadlockDetector();
    std::ostringstream out;
    d->SetStream(&out);
    AllToAll(t, 2 << 20);
    size_t cycles = 0;
    for (int us = 100; us < 20000; us += 100)
    {
        Simulator::Schedule(MicroSeconds(us), [&cycles, d] {
            cycles = std::max(cycles, d->GetCurrentCycles().size());
        });
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    EXPECT_GT(cycles, 0u) << "the cycle formed";
    uint64_t storms = 0;
    for (const auto& sw : t->GetScaleOutSwitches())
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            storms += sw->GetPort(p)->GetCounters().stormsDetected[3];
        }
    }
    EXPECT_GT(storms, 0u) << "the watchdog broke it";
    EXPECT_EQ(d->GetNDeadlocks(), 0u) << out.str();
    EXPECT_EQ(out.str(), "");
}

TEST_F(PfcDeadlockTest, BadAttributesAreRefusedNamingTheValue)
{
    auto d = CreateObject<PfcDeadlockDetector>();
    EXPECT_DEATH(d->SetAttribute("DetectionTime", TimeValue(Time(0))),
                 "ns3::PfcDeadlockDetector::DetectionTime=.* is out of range");
    EXPECT_DEATH(d->SetAttribute("CheckInterval", TimeValue(Seconds(-1))),
                 "ns3::PfcDeadlockDetector::CheckInterval=.* is out of range");
    d->SetAttribute("DetectionTime", TimeValue(MilliSeconds(1)));
    d->SetAttribute("CheckInterval", TimeValue(MilliSeconds(2)));
    Ptr<Node> n = CreateObject<Node>();
    EXPECT_DEATH(d->Install(n),
                 "ns3::PfcDeadlockDetector::CheckInterval=\\+?2(\\.0+)?ms is invalid; it must be "
                 "in \\(0, DetectionTime=\\+?1(\\.0+)?ms\\]");
}

TEST_F(PfcDeadlockTest, StaticRoutesSurviveRecomputationUntilCleared)
{
    auto t = Fabric(MilliSeconds(1), MilliSeconds(10));
    t->Install();
    Ptr<Node> spine0 = t->GetSpine(0);
    Ptr<SwitchForwardingTable> table = spine0->GetObject<FabricSwitch>()->GetForwardingTable();
    const Ipv4Address gpu4 = t->GetAddress(4, 0);
    const std::vector<uint32_t> computed = table->GetRoute(gpu4);
    EXPECT_EQ(computed, std::vector<uint32_t>{PortTo(spine0, t->GetLeaf(2))});

    const auto& stats = t->SetStaticRoute(spine0, t->GetLeaf(2), t->GetLeaf(1));
    EXPECT_EQ(stats.staticRoutes, 2u) << "gpu4 and gpu5";
    const std::vector<uint32_t> detour{PortTo(spine0, t->GetLeaf(1))};
    EXPECT_EQ(table->GetRoute(gpu4), detour);
    EXPECT_EQ(table->GetRoute(t->GetAddress(5, 0)), detour);
    EXPECT_EQ(t->GetRouteComputer()->GetNStaticRoutes(), 2u);
    // A link change recomputes every table; the pinned route stays.
    uint32_t cable = t->FindLinks(t->GetLeaf(0), t->GetSpine(1))[0];
    t->SetLinkUp(cable, false);
    EXPECT_EQ(table->GetRoute(gpu4), detour);
    t->SetLinkUp(cable, true);
    // A static route to one GPU.
    t->SetStaticRoute(t->GetLeaf(0), t->GetRank(3), t->GetSpine(1));
    EXPECT_EQ(t->GetLeaf(0)->GetObject<FabricSwitch>()->GetForwardingTable()->GetRoute(
                  t->GetAddress(3, 0)),
              std::vector<uint32_t>{PortTo(t->GetLeaf(0), t->GetSpine(1))});
    t->ClearStaticRoutes();
    EXPECT_EQ(table->GetRoute(gpu4), computed);
    EXPECT_EQ(t->GetRouteComputer()->GetNStaticRoutes(), 0u);
}

TEST_F(PfcDeadlockTest, BadStaticRoutesAreRefusedNamingTheNodes)
{
    auto t = Fabric(MilliSeconds(1), MilliSeconds(10));
    auto notInstalled = CreateObject<ClosTopologyHelper>();
    EXPECT_DEATH(notInstalled->SetStaticRoute(nullptr, nullptr, nullptr), "SetStaticRoute");
    t->Install();
    EXPECT_DEATH(t->SetStaticRoute(t->GetRank(0), t->GetLeaf(1), t->GetLeaf(0)),
                 "gpu0 is not a scale-out switch");
    EXPECT_DEATH(t->SetStaticRoute(t->GetSpine(0), t->GetSpine(1), t->GetLeaf(0)),
                 "the destination spine1 is neither a GPU nor a leaf");
    EXPECT_DEATH(t->SetStaticRoute(t->GetLeaf(0), t->GetLeaf(1), t->GetLeaf(2)),
                 "leaf0 and leaf2 are not cabled together");
    EXPECT_DEATH(t->SetStaticRoute(t->GetLeaf(0), t->GetLeaf(1), CreateObject<Node>()),
                 "the next hop \\(node [0-9]+\\) is not part of this fabric");
    Ptr<FabricRouteComputer> rc = t->GetRouteComputer();
    EXPECT_DEATH(rc->SetStaticRoute(0, Ipv4Address("10.9.9.9"), {0}),
                 "10.9.9.9 is not a host address of this fabric");
    EXPECT_DEATH(rc->SetStaticRoute(0, t->GetAddress(0, 0), {}), "no port for 10.0.0.1 at leaf0");
    EXPECT_DEATH(rc->SetStaticRoute(0, t->GetAddress(0, 0), {7}), "port 7 of leaf0 is not cabled");
    EXPECT_DEATH(rc->SetStaticRoute(0, t->GetAddress(0, 0), {0, 0}),
                 "port 0 of leaf0 is listed twice");
    EXPECT_DEATH(rc->SetStaticRoute(9, t->GetAddress(0, 0), {0}), "SetStaticRoute");
}

} // namespace
