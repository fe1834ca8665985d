/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The static and dynamic load-balancing tiers: resilient ECMP (only a leaving member's flows
 * move), flowlet switching (one port per flowlet, a new choice after the gap), adaptive
 * balancing (steers away from a hot port within one decision, spreads equal ports), the
 * short names of the examples' --lb, and their bad input.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// Eight candidate ports with non-contiguous indices.
const std::vector<uint32_t> PORTS = {5, 9, 2, 14, 7, 11, 3, 20};

/// \p n random UDP flow keys (RoCEv2-like: destination port 4791, QP as entropy).
std::vector<SwitchFlowKey>
RandomKeys(uint32_t n, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<SwitchFlowKey> keys;
    for (uint32_t i = 0; i < n; ++i)
    {
        SwitchFlowKey k;
        k.srcIp = 0x0a000000u | (gen() & 0xffffu);
        k.dstIp = 0x0a010000u | (gen() & 0xffffu);
        k.protocol = 17;
        k.srcPort = static_cast<uint16_t>(gen());
        k.dstPort = RoceEntropyParser::UDP_PORT;
        k.entropy = gen() & 0xffffffu;
        k.entropyBytes = 3;
        k.totalLength = 1000;
        keys.push_back(k);
    }
    return keys;
}

/// Create a balancer by TypeId name with a fixed seed, as a switch does.
Ptr<SwitchLoadBalancer>
Make(const std::string& type)
{
    ObjectFactory f;
    f.SetTypeId(type);
    f.Set("Seed", UintegerValue(0x1234567u));
    return f.Create<SwitchLoadBalancer>();
}

/// The port each key takes among \p ports.
std::vector<uint32_t>
Choices(Ptr<SwitchLoadBalancer> lb,
        const std::vector<SwitchFlowKey>& keys,
        const std::vector<uint32_t>& ports)
{
    std::vector<uint32_t> c;
    for (const auto& k : keys)
    {
        c.push_back(lb->Select(k, ports.data(), ports.size(), Seconds(0)));
    }
    return c;
}

/// \p ports without \p port.
std::vector<uint32_t>
Without(std::vector<uint32_t> ports, uint32_t port)
{
    ports.erase(std::find(ports.begin(), ports.end(), port));
    return ports;
}

using LbTierTest = test::SimTest;
using LbTierDeathTest = test::SimTest;

} // namespace

// ---- static tier: resilient hashing ---------------------------------------------------------

TEST_F(LbTierTest, ResilientHashingMovesOnlyTheLeavingMembersFlows)
{
    const auto keys = RandomKeys(8000, 7);
    auto lb = Make("ns3::ResilientEcmpLoadBalancer");
    const auto before = Choices(lb, keys, PORTS);
    // Even spread over the 8 members: each within 12.5 % +- 1.5 points.
    std::map<uint32_t, uint32_t> count;
    for (uint32_t p : before)
    {
        ++count[p];
    }
    ASSERT_EQ(count.size(), PORTS.size());
    for (const auto& [port, n] : count)
    {
        EXPECT_NEAR(n / 8000.0, 0.125, 0.015) << "port " << port;
    }
    // Port 14 leaves: every other flow keeps its port, 14's flows spread over the 7 others.
    const auto after = Choices(lb, keys, Without(PORTS, 14));
    std::map<uint32_t, uint32_t> moved;
    for (size_t i = 0; i < keys.size(); ++i)
    {
        if (before[i] != 14)
        {
            ASSERT_EQ(after[i], before[i]) << "flow " << i << " moved without reason";
        }
        else
        {
            ASSERT_NE(after[i], 14u);
            ++moved[after[i]];
        }
    }
    ASSERT_EQ(moved.size(), 7u);
    for (const auto& [port, n] : moved)
    {
        EXPECT_NEAR(double(n) / count[14], 1.0 / 7, 0.05) << "port " << port;
    }
    // It comes back: every flow is where it was.
    EXPECT_EQ(Choices(lb, keys, PORTS), before);
    // Plain ECMP (hash mod n) moves most flows the failure did not touch (RFC 2992).
    auto ecmp = Make("ns3::EntropyEcmpLoadBalancer");
    const auto e0 = Choices(ecmp, keys, PORTS);
    const auto e1 = Choices(ecmp, keys, Without(PORTS, 14));
    uint32_t untouchedMoved = 0;
    uint32_t untouched = 0;
    for (size_t i = 0; i < keys.size(); ++i)
    {
        if (e0[i] != 14)
        {
            ++untouched;
            untouchedMoved += e1[i] != e0[i];
        }
    }
    EXPECT_GT(double(untouchedMoved) / untouched, 0.7);
}

TEST_F(LbTierTest, ResilientHashingKeepsAFlowOnOnePortAndHashesTheEntropy)
{
    auto lb = Make("ns3::ResilientEcmpLoadBalancer");
    auto k = RandomKeys(1, 3)[0];
    const uint32_t p = lb->Select(k, PORTS.data(), PORTS.size(), Seconds(0));
    for (int i = 0; i < 100; ++i)
    {
        EXPECT_EQ(lb->Select(k, PORTS.data(), PORTS.size(), Seconds(i)), p);
    }
    // QPs of one connection (same 5-tuple, different entropy) spread.
    std::set<uint32_t> seen;
    for (uint32_t qp = 0; qp < 64; ++qp)
    {
        k.entropy = qp;
        seen.insert(lb->Select(k, PORTS.data(), PORTS.size(), Seconds(0)));
    }
    EXPECT_EQ(seen.size(), PORTS.size());
}

// ---- dynamic tier: flowlets ------------------------------------------------------------------

TEST_F(LbTierTest, FlowletKeepsItsPortWithinTheGapAndChoosesAgainAfterIt)
{
    auto lb = DynamicCast<FlowletLoadBalancer>(Make("ns3::FlowletLoadBalancer"));
    ASSERT_TRUE(lb);
    lb->SetAttribute("FlowletGap", TimeValue(MicroSeconds(20)));
    lb->AssignStreams(11);
    std::vector<std::pair<uint32_t, uint32_t>> traced;
    lb->TraceConnectWithoutContext("NewFlowlet",
                                   MakeCallback(+[](std::vector<std::pair<uint32_t, uint32_t>>* v,
                                                    uint32_t,
                                                    uint32_t from,
                                                    uint32_t to) {
                                       v->emplace_back(from, to);
                                   }).Bind(&traced));
    const auto k = RandomKeys(1, 5)[0];
    Time t = MicroSeconds(1);
    std::set<uint32_t> flowletPorts;
    for (uint32_t flowlet = 0; flowlet < 200; ++flowlet)
    {
        // 50 packets 1 us apart (19 us silences inside a flowlet would not end it either).
        const uint32_t first = lb->Select(k, PORTS.data(), PORTS.size(), t);
        for (int i = 1; i < 50; ++i)
        {
            t += MicroSeconds(i == 25 ? 20 : 1); // a gap of exactly FlowletGap stays
            ASSERT_EQ(lb->Select(k, PORTS.data(), PORTS.size(), t), first)
                << "flowlet " << flowlet << " packet " << i;
        }
        flowletPorts.insert(first);
        t += MicroSeconds(20) + NanoSeconds(1); // just above the gap: a new flowlet
    }
    const FlowletCounters& c = lb->GetCounters();
    EXPECT_EQ(c.decisions, 200u * 50);
    EXPECT_EQ(c.flowlets, 200u);
    ASSERT_EQ(traced.size(), 200u);
    EXPECT_EQ(traced[0].first, 4294967295u); // the first flowlet had no port before
    // Random choice per flowlet (LetFlow): every port is used, and about 7 in 8 new flowlets
    // change port.
    EXPECT_EQ(flowletPorts.size(), PORTS.size());
    EXPECT_NEAR(c.pathChanges / 199.0, 7.0 / 8, 0.1);
}

TEST_F(LbTierTest, FlowletStartsAgainWhenItsPortLeavesTheGroup)
{
    auto lb = DynamicCast<FlowletLoadBalancer>(Make("ns3::FlowletLoadBalancer"));
    const auto k = RandomKeys(1, 9)[0];
    const uint32_t p = lb->Select(k, PORTS.data(), PORTS.size(), MicroSeconds(1));
    const auto rest = Without(PORTS, p);
    const uint32_t q = lb->Select(k, rest.data(), rest.size(), MicroSeconds(2)); // within gap
    EXPECT_NE(q, p);
    EXPECT_EQ(lb->GetCounters().flowlets, 2u);
}

// ---- dynamic tier: adaptive ------------------------------------------------------------------

namespace
{
/// Egress occupancy a test sets per port.
struct FakeQueues
{
    std::map<uint32_t, uint64_t> bytes; //!< by port

    uint64_t Get(uint32_t port)
    {
        return bytes[port];
    }
};
} // namespace

TEST_F(LbTierTest, AdaptivePerPacketSteersAwayFromAHotPortAtOnce)
{
    auto lb = DynamicCast<AdaptiveLoadBalancer>(Make("ns3::AdaptiveLoadBalancer"));
    lb->SetAttribute("Granularity", StringValue("packet"));
    FakeQueues q;
    lb->SetEgressBytesCallback(MakeCallback(&FakeQueues::Get, &q));
    const auto keys = RandomKeys(400, 13);
    // Idle ports: the load of what it sent spreads one flow's packets evenly (round robin).
    std::map<uint32_t, uint32_t> perPort;
    for (int i = 0; i < 800; ++i)
    {
        ++perPort[lb->Select(keys[0], PORTS.data(), PORTS.size(), NanoSeconds(10 * i))];
    }
    ASSERT_EQ(perPort.size(), PORTS.size());
    for (const auto& [port, n] : perPort)
    {
        EXPECT_NEAR(n, 100, 1) << "port " << port;
    }
    // Port 9 fills (1 MB queued): the very next decision, and every one after, avoids it.
    q.bytes[9] = 1000000;
    for (int i = 0; i < 400; ++i)
    {
        EXPECT_NE(lb->Select(keys[i], PORTS.data(), PORTS.size(), MicroSeconds(100)), 9u);
    }
    // The least occupied port wins over an idle-but-busy-sending one.
    for (uint32_t p : PORTS)
    {
        q.bytes[p] = 50000;
    }
    q.bytes[3] = 0;
    EXPECT_EQ(lb->Select(keys[0], PORTS.data(), PORTS.size(), MicroSeconds(200)), 3u);
}

TEST_F(LbTierTest, AdaptivePerFlowletMovesAFlowOffAHotPortOnlyAfterTheGap)
{
    auto lb = DynamicCast<AdaptiveLoadBalancer>(Make("ns3::AdaptiveLoadBalancer"));
    lb->SetAttribute("FlowletGap", TimeValue(MicroSeconds(10)));
    FakeQueues q;
    lb->SetEgressBytesCallback(MakeCallback(&FakeQueues::Get, &q));
    const auto k = RandomKeys(1, 17)[0];
    const uint32_t p = lb->Select(k, PORTS.data(), PORTS.size(), MicroSeconds(1));
    q.bytes[p] = 2000000; // its port becomes hot within the flowlet: it stays (no reordering)
    EXPECT_EQ(lb->Select(k, PORTS.data(), PORTS.size(), MicroSeconds(5)), p);
    // After a silence longer than the gap it takes the least-loaded port.
    const uint32_t next = lb->Select(k, PORTS.data(), PORTS.size(), MicroSeconds(30));
    EXPECT_NE(next, p);
    EXPECT_EQ(lb->GetCounters().pathChanges, 1u);
    // Flows whose ports tie spread by their hash over the idle ports.
    std::set<uint32_t> seen;
    for (const auto& key : RandomKeys(200, 19))
    {
        seen.insert(lb->Select(key, PORTS.data(), PORTS.size(), MicroSeconds(100)));
    }
    EXPECT_EQ(seen.count(p), 0u);
    EXPECT_EQ(seen.size(), PORTS.size() - 1);
}

// ---- polarization -------------------------------------------------------------------------

namespace
{

/// Bytes each aggregation switch sent on each of its core uplinks, on a 3-tier Clos of 2 pods
/// (2 ToRs of 4 hosts, 2 aggregation switches, each ToR with 2 cables to each) and 2 core
/// planes of 2 cores (2 cables from each aggregation switch to each core of its plane), after
/// every pod-0 host WRITEs 64 KiB on 8 QPs to its pod-1 peer, under ECMP with \p seed on
/// every switch (0: the helper's per-switch seeds).
std::vector<uint64_t>
CoreUplinkBytes(uint32_t seed)
{
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Hosts", UintegerValue(16));
    t->SetAttribute("Tiers", UintegerValue(3));
    t->SetAttribute("ServersPerRack", UintegerValue(4));
    t->SetAttribute("RacksPerPod", UintegerValue(2));
    t->SetAttribute("SpinesPerPod", UintegerValue(2));
    t->SetAttribute("Cores", UintegerValue(4));
    t->GetSwitchHelper().SetLoadBalancer("ns3::EcmpLoadBalancer", "Seed", UintegerValue(seed));
    t->Install();
    uint32_t done = 0;
    for (uint32_t h = 0; h < 8; ++h)
    {
        for (const auto& qp : t->Connect(h, 8 + h, 8))
        {
            qp.first->PostWrite(64 << 10,
                                0,
                                1,
                                MakeCallback(+[](uint32_t* n, const RoceWorkCompletion& wc) {
                                    *n += wc.status == RoceWcStatus::SUCCESS;
                                }).Bind(&done));
        }
    }
    Simulator::Run();
    EXPECT_EQ(done, 64u);
    std::vector<uint64_t> bytes;
    for (uint32_t s = 0; s < 2; ++s) // pod 0's aggregation switches
    {
        for (uint32_t c = 0; c < t->GetNCores(); ++c)
        {
            for (uint32_t link : t->FindLinks(t->GetSpine(s), t->GetCore(c)))
            {
                bytes.push_back(t->GetLinkTxBytes(link, t->GetSpine(s)));
            }
        }
    }
    Simulator::Destroy();
    return bytes;
}

} // namespace

TEST_F(LbTierTest, OneEcmpSeedOnTwoTiersPolarizesAndPerSwitchSeedsCureIt)
{
    // One seed everywhere: a ToR sends to aggregation switch j exactly the flows whose hash
    // picks j's cables, and j, hashing them again alike, picks only the same positions among
    // its own 4 core uplinks: half of them stay idle (hash polarization, the problem of IETF
    // draft-li-rtgwg-hash-polarization-mitigation). The helper's per-switch seeds decorrelate
    // the tiers: every uplink carries traffic.
    const std::vector<uint64_t> polarized = CoreUplinkBytes(12345);
    const std::vector<uint64_t> cured = CoreUplinkBytes(0);
    ASSERT_EQ(polarized.size(), 8u);
    ASSERT_EQ(cured.size(), 8u);
    EXPECT_EQ(std::count(polarized.begin(), polarized.end(), 0u), 4);
    EXPECT_EQ(std::count(cured.begin(), cured.end(), 0u), 0);
}

// ---- names and bad input -----------------------------------------------------------------

TEST_F(LbTierTest, ShortNamesChooseTheBalancerOfNewSwitches)
{
    SwitchHelper sw;
    EXPECT_EQ(sw.SetLoadBalancerByName("resilient", "--lb"), "ns3::ResilientEcmpLoadBalancer");
    EXPECT_EQ(sw.SetLoadBalancerByName("adaptive-packet", "--lb"), "ns3::AdaptiveLoadBalancer");
    EXPECT_EQ(
        SwitchHelper::GetLoadBalancerNamesText(),
        "ecmp, entropy-ecmp, resilient, flowlet, adaptive, adaptive-packet, conga, te, spray");
    // On a switch: the occupancy query is installed, the variant's attribute is set.
    NodeContainer nodes;
    nodes.Create(3);
    PfcHelper pfc;
    NetDeviceContainer a = pfc.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer b = pfc.Install(nodes.Get(0), nodes.Get(2));
    NetDeviceContainer ports;
    ports.Add(a.Get(0));
    ports.Add(b.Get(0));
    Ptr<FabricSwitch> s = sw.Install(nodes.Get(0), ports);
    auto lb = DynamicCast<AdaptiveLoadBalancer>(s->GetLoadBalancer());
    ASSERT_TRUE(lb);
    StringValue g; // read as text: EnumValue is a class template in newer ns-3
    lb->GetAttribute("Granularity", g);
    EXPECT_EQ(g.Get(), "packet");
    const auto k = RandomKeys(1, 1)[0];
    const uint32_t two[] = {0, 1};
    EXPECT_LT(lb->Select(k, two, 2, Seconds(0)), 2u); // no abort: the switch gave it a query
}

TEST_F(LbTierDeathTest, BadInputIsNamed)
{
    SwitchHelper sw;
    EXPECT_DEATH(sw.SetLoadBalancerByName("hula", "--lb"),
                 "--lb=hula is invalid; valid values are ecmp, entropy-ecmp, resilient, "
                 "flowlet, adaptive, adaptive-packet, conga, te, spray");
    EXPECT_DEATH(Make("ns3::FlowletLoadBalancer")->SetAttribute("FlowletGap", TimeValue(Time(0))),
                 "FlowletLoadBalancer::FlowletGap=0s is out of range: valid range >= 1ns");
    EXPECT_DEATH(Make("ns3::FlowletLoadBalancer")->SetAttribute("TableSize", UintegerValue(0)),
                 "TableSize=0 is out of range: valid range 1..16777216");
    EXPECT_DEATH(Make("ns3::AdaptiveLoadBalancer")->SetAttribute("LoadWeight", DoubleValue(-1)),
                 "LoadWeight=-1 is out of range: valid range \\[0, 1000\\]");
    const auto k = RandomKeys(1, 1)[0];
    EXPECT_DEATH(
        Make("ns3::AdaptiveLoadBalancer")->Select(k, PORTS.data(), PORTS.size(), Seconds(0)),
        "AdaptiveLoadBalancer: no egress occupancy query");
}
