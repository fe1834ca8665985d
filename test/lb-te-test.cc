/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The traffic-engineered tier: TeLoadBalancer's pins (pair and 5-tuple, stale pins hashed)
 * and FabricTeController's placement (no planned link above its capacity while a plan fits,
 * over-capacity demands reported and routed best effort, a new plan RecomputeDelay after a
 * link fails, without the failed link), and the traffic following the plan.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <set>

using namespace ns3;

namespace
{

using TeTest = test::SimTest;

/// Two ToRs of 4 hosts at 400 Gb/s, 2 spines, two 400 Gb/s cables from each ToR to each spine,
/// every switch under TeLoadBalancer.
Ptr<ClosTopologyHelper>
Fabric()
{
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(8));
    t->SetAttribute("GpusPerServer", UintegerValue(1));
    t->SetAttribute("ServersPerRack", UintegerValue(4));
    t->SetAttribute("NvLink", BooleanValue(false));
    t->SetAttribute("Spines", UintegerValue(2));
    t->GetSwitchHelper().SetLoadBalancerByName("te", "test");
    t->Install();
    return t;
}

/// Bytes leaf 0 sent on each of its uplinks, by link index.
std::map<uint32_t, uint64_t>
UplinkBytes(Ptr<ClosTopologyHelper> t)
{
    std::map<uint32_t, uint64_t> bytes;
    for (uint32_t s = 0; s < t->GetNSpines(); ++s)
    {
        for (uint32_t link : t->FindLinks(t->GetLeaf(0), t->GetSpine(s)))
        {
            bytes[link] = t->GetLinkTxBytes(link, t->GetLeaf(0));
        }
    }
    return bytes;
}

} // namespace

TEST_F(TeTest, PinsOverrideEcmpAndStalePinsAreHashed)
{
    auto lb = CreateObject<TeLoadBalancer>();
    const uint32_t ports[] = {4, 5, 6, 7};
    // Without pins: entropy ECMP's choice.
    auto ecmp = CreateObject<EntropyEcmpLoadBalancer>();
    for (uint16_t f = 0; f < 50; ++f)
    {
        EXPECT_EQ(lb->Select(test::RoceUdpKey(1, 2, f), ports, 4, Seconds(0)),
                  ecmp->Select(test::RoceUdpKey(1, 2, f), ports, 4, Seconds(0)));
    }
    lb->PinPair(1, 2, 6);
    lb->PinFlow(test::RoceUdpKey(1, 2, 77), 5);
    EXPECT_EQ(lb->GetNPins(), 2u);
    for (uint16_t f = 0; f < 50; ++f)
    {
        EXPECT_EQ(lb->Select(test::RoceUdpKey(1, 2, f), ports, 4, Seconds(0)),
                  6u); // the pair's pin
    }
    EXPECT_EQ(lb->Select(test::RoceUdpKey(1, 2, 77), ports, 4, Seconds(0)), 5u); // the 5-tuple wins
    EXPECT_EQ(lb->Select(test::RoceUdpKey(2, 1, 3), ports, 4, Seconds(0)),
              ecmp->Select(test::RoceUdpKey(2, 1, 3), ports, 4, Seconds(0))); // other pairs hash
    // Port 6 failed: routing removed it, the pin is stale, the packet is hashed over the rest.
    const uint32_t left[] = {4, 5, 7};
    EXPECT_EQ(lb->Select(test::RoceUdpKey(1, 2, 9), left, 3, Seconds(0)),
              ecmp->Select(test::RoceUdpKey(1, 2, 9), left, 3, Seconds(0)));
    EXPECT_EQ(lb->GetTeCounters().pinned, 51u);
    EXPECT_EQ(lb->GetTeCounters().stale, 1u);
    EXPECT_EQ(lb->GetTeCounters().unpinned, 51u);
    lb->ClearPins();
    EXPECT_EQ(lb->GetNPins(), 0u);
}

TEST_F(TeTest, PlacesDemandsWithinCapacityAndTrafficFollowsThePins)
{
    Ptr<ClosTopologyHelper> t = Fabric();
    auto te = CreateObject<FabricTeController>();
    te->SetTopology(t);
    // Four 300 Gb/s demands from ToR 0 to ToR 1: 1,200 Gb/s over four 400 Gb/s uplinks.
    for (uint32_t i = 0; i < 4; ++i)
    {
        te->AddDemand(i, 4 + i, DataRate("300Gbps"));
    }
    const FabricTePlan& plan = te->Plan();
    ASSERT_EQ(plan.demands.size(), 4u);
    EXPECT_EQ(plan.unmet, 0u);
    EXPECT_LE(plan.maxUtilization, 1.0);
    EXPECT_DOUBLE_EQ(plan.maxUtilization, 0.75); // one demand per cable
    std::set<uint32_t> uplinks;
    for (const auto& d : plan.demands)
    {
        EXPECT_TRUE(d.met);
        ASSERT_EQ(d.links.size(), 4u); // host, leaf-spine, spine-leaf, host
        EXPECT_EQ(d.nodes.size(), 5u);
        uplinks.insert(d.links[1]);
    }
    EXPECT_EQ(uplinks.size(), 4u);
    // Pins at leaf 0 (4 uplinks) and at the spines (2 cables to ToR 1): 2 per demand.
    EXPECT_EQ(plan.pins, 8u);
    // 64 KiB WRITEs, 8 QPs per pair (different UDP source ports): all bytes of a pair leave
    // leaf 0 on its planned uplink, so every uplink carries one pair's bytes.
    uint32_t completed = 0;
    for (uint32_t i = 0; i < 4; ++i)
    {
        for (const auto& qp : t->Connect(i, 4 + i, 8))
        {
            qp.first->PostWrite(64 << 10,
                                0,
                                1,
                                MakeCallback(+[](uint32_t* n, const RoceWorkCompletion& wc) {
                                    *n += wc.status == RoceWcStatus::SUCCESS;
                                }).Bind(&completed));
        }
    }
    Simulator::Run();
    EXPECT_EQ(completed, 32u);
    const std::map<uint32_t, uint64_t> bytes = UplinkBytes(t);
    ASSERT_EQ(bytes.size(), 4u);
    const uint64_t first = bytes.begin()->second;
    EXPECT_GT(first, 8u * (64u << 10));
    for (const auto& [link, b] : bytes)
    {
        EXPECT_EQ(b, first) << "link " << link;
    }
    uint64_t stale = 0;
    for (uint32_t i = 0; i < t->GetNLeaves(); ++i)
    {
        auto lb = DynamicCast<TeLoadBalancer>(
            t->GetLeaf(i)->GetObject<FabricSwitch>()->GetLoadBalancer());
        stale += lb->GetTeCounters().stale;
    }
    EXPECT_EQ(stale, 0u);
}

TEST_F(TeTest, ReportsDemandsBeyondCapacityAndRoutesThemBestEffort)
{
    Ptr<ClosTopologyHelper> t = Fabric();
    auto te = CreateObject<FabricTeController>();
    te->SetTopology(t);
    // Host 0's one 400 Gb/s NIC port cannot carry 300 + 250 Gb/s.
    te->AddDemand(0, 4, DataRate("300Gbps"));
    te->AddDemand(0, 5, DataRate("250Gbps"));
    const FabricTePlan& plan = te->Plan();
    EXPECT_EQ(plan.unmet, 1u);
    EXPECT_TRUE(plan.demands[0].met); // the larger demand is placed first
    EXPECT_FALSE(plan.demands[1].met);
    EXPECT_TRUE(plan.demands[1].routed);
    EXPECT_NEAR(plan.demands[1].headroomBps, 100e9, 1);
    EXPECT_NEAR(plan.maxUtilization, 550.0 / 400, 1e-9);
}

TEST_F(TeTest, PlansAgainAfterALinkFailureWithoutIt)
{
    Ptr<ClosTopologyHelper> t = Fabric();
    auto te = CreateObject<FabricTeController>();
    te->SetAttribute("RecomputeDelay", TimeValue(MicroSeconds(50)));
    te->SetTopology(t);
    for (uint32_t i = 0; i < 4; ++i)
    {
        te->AddDemand(i, 4 + i, DataRate("150Gbps"));
    }
    te->Plan();
    const uint32_t failed = te->GetPlan().demands[0].links[1];
    uint32_t plans = 0;
    te->TraceConnectWithoutContext("Planned", MakeCallback(+[](uint32_t* n, const FabricTePlan&) {
                                                  ++*n;
                                              }).Bind(&plans));
    Simulator::Schedule(MicroSeconds(10), [t, failed]() { t->SetLinkUp(failed, false); });
    Simulator::Schedule(MicroSeconds(59), [&]() { EXPECT_EQ(plans, 0u); });
    Simulator::Schedule(MicroSeconds(61), [&]() {
        EXPECT_EQ(plans, 1u);
        const FabricTePlan& plan = te->GetPlan();
        EXPECT_EQ(plan.number, 2u);
        EXPECT_EQ(plan.at, MicroSeconds(60));
        EXPECT_EQ(plan.unmet, 0u);
        EXPECT_LE(plan.maxUtilization, 1.0);
        for (const auto& d : plan.demands)
        {
            for (uint32_t l : d.links)
            {
                EXPECT_NE(l, failed);
            }
        }
    });
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    EXPECT_EQ(plans, 1u);
}

TEST_F(TeTest, RefusesUnknownHostsAndSwitchesWithoutPins)
{
    Ptr<ClosTopologyHelper> t = Fabric();
    auto te = CreateObject<FabricTeController>();
    te->SetTopology(t);
    EXPECT_DEATH(te->AddDemand(Ipv4Address("192.168.0.1"), t->GetAddress(4, 0), DataRate("1Gbps")),
                 "address 192.168.0.1 is not a NIC port of this fabric");
    EXPECT_DEATH(te->AddDemand(0, 4, DataRate(0)), "rate 0 bit/s .* is invalid; it must be > 0");
    Simulator::Destroy();
    auto ecmp = CreateObject<ClosTopologyHelper>();
    ecmp->SetAttribute("Servers", UintegerValue(8));
    ecmp->SetAttribute("GpusPerServer", UintegerValue(1));
    ecmp->SetAttribute("ServersPerRack", UintegerValue(4));
    ecmp->SetAttribute("NvLink", BooleanValue(false));
    ecmp->SetAttribute("Spines", UintegerValue(2));
    ecmp->Install();
    auto te2 = CreateObject<FabricTeController>();
    te2->SetTopology(ecmp);
    te2->AddDemand(0, 4, DataRate("100Gbps"));
    EXPECT_DEATH(te2->Plan(),
                 "switch leaf0 runs ns3::EcmpLoadBalancer; pinned paths need "
                 "ns3::TeLoadBalancer");
}

TEST_F(TeTest, FollowsAFaultAfterRoutingConverges)
{
    Ptr<ClosTopologyHelper> t = Fabric();
    auto te = CreateObject<FabricTeController>();
    te->SetAttribute("RecomputeDelay", TimeValue(MicroSeconds(50)));
    te->SetTopology(t);
    te->AddDemand(0, 4, DataRate("100Gbps"));
    te->Plan();
    // The cable cut at 10 us, routes converge 30 us later, the controller plans 50 us after.
    auto faults = CreateObject<FaultHelper>();
    faults->SetAttribute("ConvergenceDelay", TimeValue(MicroSeconds(30)));
    faults->Add("link-down:leaf0-spine0@10us");
    faults->Install(t);
    Simulator::Schedule(MicroSeconds(89), [&]() { EXPECT_EQ(te->GetPlan().number, 1u); });
    Simulator::Schedule(MicroSeconds(91), [&]() {
        const FabricTePlan& plan = te->GetPlan();
        EXPECT_EQ(plan.number, 2u);
        ASSERT_EQ(plan.demands.size(), 1u);
        EXPECT_EQ(plan.demands[0].nodes[2], t->GetSpine(1)->GetId());
    });
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
}
