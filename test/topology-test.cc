/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Topology helpers: DGX SuperPOD switch and link counts for 1, 2 and 4 scalable units,
 * rail-only without spines, every GPU pair reachable by walking the forwarding tables (NVLink
 * only inside a server, one leaf on a rail, leaf-spine-leaf across rails, NVLink relay in
 * rail-only), full ECMP sets at the leaves, dual-port NICs, two- and three-tier Clos, RDMA
 * WRITEs end to end, exports, route recomputation after link failures and recoveries (ECMP sets
 * shrink and grow back, longer paths, unreachable hosts reported), and bad input.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// The device at the other end of a port's cable.
Ptr<PfcNetDevice>
Peer(Ptr<PfcNetDevice> dev)
{
    Ptr<PfcChannel> ch = dev->GetPfcChannel();
    return ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
}

/// What a hop-by-hop walk of the forwarding tables found, over every ECMP branch.
struct PathInfo
{
    bool delivered{true};                        //!< every branch ends at the destination port
    std::set<uint32_t> hops;                     //!< switch hops of the branches that arrived
    std::vector<std::set<FabricNodeType>> tiers; //!< switch types seen at each depth
};

/**
 * Follow the forwarding tables from a source NIC port to a destination port address,
 * exploring every equal-cost port at every switch. Fails a branch on a missing route, on
 * delivery to the wrong device, or after 8 switches (a loop).
 */
PathInfo
Walk(const FabricTopologyHelper& t, uint32_t src, uint32_t srcPort, uint32_t dst, uint32_t dstPort)
{
    PathInfo info;
    uint32_t addr = t.GetAddress(dst, dstPort).Get();
    Ptr<PfcNetDevice> target = t.GetNic(dst)->GetPort(dstPort);
    std::vector<Ptr<PfcNetDevice>> frontier{Peer(t.GetNic(src)->GetPort(srcPort))};
    for (uint32_t depth = 1; !frontier.empty(); ++depth)
    {
        if (depth > 8)
        {
            info.delivered = false;
            break;
        }
        std::vector<Ptr<PfcNetDevice>> next;
        std::set<uint32_t> seen;
        std::set<FabricNodeType> types;
        for (const auto& in : frontier)
        {
            Ptr<FabricSwitch> sw = in->GetNode()->GetObject<FabricSwitch>();
            if (!sw)
            {
                info.delivered = false;
                continue;
            }
            types.insert(t.GetNodeType(in->GetNode()));
            const uint32_t* ports = nullptr;
            uint32_t n = 0;
            if (!sw->GetForwardingTable()->Lookup(addr, ports, n))
            {
                info.delivered = false;
                continue;
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                Ptr<PfcNetDevice> out = Peer(sw->GetPort(ports[i]));
                if (out == target)
                {
                    info.hops.insert(depth);
                }
                else if (!out->GetNode()->GetObject<FabricSwitch>())
                {
                    info.delivered = false; // delivered to the wrong GPU
                }
                else if (seen.insert(out->GetNode()->GetId()).second)
                {
                    next.push_back(out);
                }
            }
        }
        info.tiers.push_back(types);
        frontier = std::move(next);
    }
    info.delivered = info.delivered && !info.hops.empty();
    return info;
}

/// The (single) set of switch types at each depth, e.g. {LEAF, SPINE, LEAF}.
std::vector<FabricNodeType>
Tiers(const PathInfo& p)
{
    std::vector<FabricNodeType> v;
    for (const auto& s : p.tiers)
    {
        v.push_back(s.size() == 1 ? *s.begin() : FabricNodeType::COUNT);
    }
    return v;
}

const std::vector<FabricNodeType> NVLINK_ONLY{FabricNodeType::NVSWITCH};
const std::vector<FabricNodeType> ONE_LEAF{FabricNodeType::LEAF};
const std::vector<FabricNodeType> LEAF_SPINE_LEAF{FabricNodeType::LEAF,
                                                  FabricNodeType::SPINE,
                                                  FabricNodeType::LEAF};

class TopologyTest : public test::SimTest
{
  protected:
    Ptr<RailOptimizedTopologyHelper> RailOptimized(uint32_t servers)
    {
        auto t = CreateObject<RailOptimizedTopologyHelper>();
        t->SetAttribute("Servers", UintegerValue(servers));
        return t;
    }

    /// Callback that stores completions.
    RoceQueuePair::CompletionCallback Collect()
    {
        return MakeCallback(&TopologyTest::OnCompletion, this);
    }

    void OnCompletion(const RoceWorkCompletion& wc)
    {
        completions.push_back(wc);
    }

    /// Two-tier Clos of 2 servers x 2 GPUs, one server per rack: 2 ToRs, 2 spines, every ToR
    /// cabled once to every spine; ranks 0-1 on ToR 0, ranks 2-3 on ToR 1.
    Ptr<ClosTopologyHelper> SmallClos()
    {
        auto t = CreateObject<ClosTopologyHelper>();
        t->SetAttribute("Servers", UintegerValue(2));
        t->SetAttribute("GpusPerServer", UintegerValue(2));
        t->SetAttribute("ServersPerRack", UintegerValue(1));
        t->SetAttribute("Spines", UintegerValue(2));
        return t;
    }

    std::vector<RoceWorkCompletion> completions;
};

/// The FabricSwitch on a node.
Ptr<FabricSwitch>
Switch(Ptr<Node> node)
{
    return node->GetObject<FabricSwitch>();
}

/// The ports of \p sw whose cable leads to \p peer, ascending.
std::vector<uint32_t>
PortsTo(Ptr<Node> sw, Ptr<Node> peer)
{
    std::vector<uint32_t> ports;
    Ptr<FabricSwitch> s = Switch(sw);
    for (uint32_t p = 0; p < s->GetNPorts(); ++p)
    {
        if (Peer(s->GetPort(p))->GetNode() == peer)
        {
            ports.push_back(p);
        }
    }
    return ports;
}

/// The equal-cost set of \p sw toward \p dst.
std::vector<uint32_t>
Route(Ptr<Node> sw, Ipv4Address dst)
{
    return Switch(sw)->GetForwardingTable()->GetRoute(dst);
}

/// Published DGX H100 SuperPOD numbers: 1 SU 8 leaves / 4 spines, 2 SU 16 / 8, 4 SU 32 / 16,
/// 64-port 400G switches with 32 down / 32 up per leaf.
TEST_F(TopologyTest, SuperPodCountsMatchThePublishedNumbers)
{
    struct Case
    {
        uint32_t sus, leaves, spines;
    };

    for (Case c : {Case{1, 8, 4}, Case{2, 16, 8}, Case{4, 32, 16}})
    {
        auto t = RailOptimized(32 * c.sus);
        t->Install();
        SCOPED_TRACE(c.sus);
        uint32_t gpus = 256 * c.sus;
        EXPECT_EQ(t->GetNRanks(), gpus);
        EXPECT_EQ(t->GetNServers(), 32 * c.sus);
        EXPECT_EQ(t->GetNScalableUnits(), c.sus);
        EXPECT_EQ(t->GetNLeaves(), c.leaves);
        EXPECT_EQ(t->GetNLeavesPerRail(), c.sus);
        EXPECT_EQ(t->GetNSpines(), c.spines);
        EXPECT_EQ(t->GetNCores(), 0u);
        EXPECT_EQ(t->GetNNvSwitches(), 32 * c.sus);
        EXPECT_EQ(t->GetNLinks(FabricLinkTier::NVLINK), gpus);
        EXPECT_EQ(t->GetNLinks(FabricLinkTier::GPU_LEAF), gpus);
        EXPECT_EQ(t->GetNLinks(FabricLinkTier::LEAF_SPINE), 32ull * c.leaves);
        EXPECT_EQ(t->GetNLinks(FabricLinkTier::SPINE_CORE), 0u);
        EXPECT_EQ(t->GetLeafUplinks(), 32u);
        for (uint32_t i = 0; i < c.leaves; ++i)
        {
            EXPECT_EQ(t->GetLeaf(i)->GetObject<FabricSwitch>()->GetNPorts(), 64u);
        }
        for (uint32_t i = 0; i < c.spines; ++i)
        {
            EXPECT_EQ(t->GetSpine(i)->GetObject<FabricSwitch>()->GetNPorts(), 64u);
        }
        EXPECT_EQ(t->GetBisectionBandwidth(), uint64_t(gpus) * 400'000'000'000ull / 2);
        EXPECT_DOUBLE_EQ(t->GetOversubscription(), 1.0);
        std::ostringstream os;
        os << *t;
        EXPECT_NE(os.str().find(std::to_string(c.leaves) + " leaf, " + std::to_string(c.spines) +
                                " spine"),
                  std::string::npos)
            << os.str();
        Simulator::Destroy();
    }
}

TEST_F(TopologyTest, NvSwitchRunsAtNvLinkRateAndAddressesAreContiguous)
{
    auto t = RailOptimized(4);
    t->Install();
    Ptr<FabricSwitch> nv = t->GetNvSwitch(1)->GetObject<FabricSwitch>();
    ASSERT_EQ(nv->GetNPorts(), 8u);
    EXPECT_EQ(nv->GetPort(0)->GetDataRate(), DataRate("2966.4Gbps"));
    EXPECT_EQ(nv->GetPort(0)->GetPfcChannel()->GetDelay(), NanoSeconds(150));
    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        Ptr<RoceNic> nic = t->GetNic(r);
        ASSERT_EQ(nic->GetNPorts(), 2u);
        EXPECT_EQ(nic->GetAddress(0), Ipv4Address(0x0a000001 + r));
        EXPECT_EQ(nic->GetAddress(1), Ipv4Address(0x0a800001 + r));
        EXPECT_EQ(t->GetAddress(r, 0), nic->GetAddress(0));
        EXPECT_EQ(t->GetAddress(r, t->GetNvLinkPort()), nic->GetAddress(1));
        EXPECT_EQ(nic->GetPort(0)->GetDataRate(), DataRate("400Gbps"));
        EXPECT_EQ(t->GetRank(r), t->GetGpu(r / 8, r % 8));
        EXPECT_EQ(t->GetRankOf(t->GetServerOf(r), t->GetLocalOf(r)), r);
        EXPECT_EQ(t->GetLeafOf(r), t->GetLeaf(r % 8, 0));
    }
    // Scale-out switches never route NVLink addresses; the NVSwitch routes only its server's.
    const uint32_t* ports = nullptr;
    uint32_t n = 0;
    EXPECT_FALSE(t->GetLeaf(0)->GetObject<FabricSwitch>()->GetForwardingTable()->Lookup(
        t->GetAddress(8, 1).Get(),
        ports,
        n));
    EXPECT_EQ(nv->GetForwardingTable()->GetNRoutes(), 8u);
    EXPECT_FALSE(nv->GetForwardingTable()->Lookup(t->GetAddress(0, 1).Get(), ports, n));
}

/// Every ordered GPU pair of one SuperPOD SU (256 GPUs) over every ECMP branch.
TEST_F(TopologyTest, RailOptimizedEveryPairReachableOverShortestPaths)
{
    auto t = RailOptimized(32);
    t->Install();
    const uint32_t n = t->GetNRanks();
    const uint32_t g = t->GetGpusPerServer();
    uint64_t checked = 0;
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = 0; b < n; ++b)
        {
            if (a == b)
            {
                continue;
            }
            PathInfo p;
            std::vector<FabricNodeType> expected;
            if (a / g == b / g)
            {
                p = Walk(*t, a, t->GetNvLinkPort(), b, t->GetNvLinkPort());
                expected = NVLINK_ONLY;
            }
            else
            {
                p = Walk(*t, a, 0, b, 0);
                expected = a % g == b % g ? ONE_LEAF : LEAF_SPINE_LEAF;
            }
            ASSERT_TRUE(p.delivered) << a << " -> " << b;
            ASSERT_EQ(p.hops, std::set<uint32_t>{uint32_t(expected.size())}) << a << " -> " << b;
            ASSERT_EQ(Tiers(p), expected) << a << " -> " << b;
            checked++;
        }
    }
    EXPECT_EQ(checked, uint64_t(n) * (n - 1));
}

/// At a leaf, the route to a GPU on another leaf is every uplink, and they reach every spine.
TEST_F(TopologyTest, LeafEcmpSetsContainEveryUplinkAndSpine)
{
    for (uint32_t sus : {1u, 2u})
    {
        auto t = RailOptimized(32 * sus);
        t->Install();
        for (uint32_t l = 0; l < t->GetNLeaves(); ++l)
        {
            Ptr<FabricSwitch> leaf = t->GetLeaf(l)->GetObject<FabricSwitch>();
            std::vector<uint32_t> uplinks;
            for (uint32_t p = 0; p < leaf->GetNPorts(); ++p)
            {
                if (t->GetNodeType(Peer(leaf->GetPort(p))->GetNode()) == FabricNodeType::SPINE)
                {
                    uplinks.push_back(p);
                }
            }
            ASSERT_EQ(uplinks.size(), 32u);
            for (uint32_t r = 0; r < t->GetNRanks(); r += 7)
            {
                if (t->GetLeafOf(r) == t->GetLeaf(l))
                {
                    auto route = leaf->GetForwardingTable()->GetRoute(t->GetAddress(r, 0));
                    ASSERT_EQ(route.size(), 1u);
                    EXPECT_EQ(Peer(leaf->GetPort(route[0]))->GetNode(), t->GetRank(r));
                    continue;
                }
                auto route = leaf->GetForwardingTable()->GetRoute(t->GetAddress(r, 0));
                ASSERT_EQ(route, uplinks) << "leaf " << l << " rank " << r;
                std::set<uint32_t> spines;
                for (uint32_t p : route)
                {
                    spines.insert(Peer(leaf->GetPort(p))->GetNode()->GetId());
                }
                EXPECT_EQ(spines.size(), t->GetNSpines());
            }
        }
        Simulator::Destroy();
    }
}

TEST_F(TopologyTest, RailOnlyHasNoSpineAndRelaysCrossRailOverNvLink)
{
    auto t = CreateObject<RailOnlyTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(16));
    t->Install();
    EXPECT_EQ(t->GetNSpines(), 0u);
    EXPECT_EQ(t->GetNLeaves(), 8u);
    EXPECT_EQ(t->GetNLinks(FabricLinkTier::LEAF_SPINE), 0u);
    EXPECT_EQ(t->GetNLinks(FabricLinkTier::GPU_LEAF), 128u);
    EXPECT_EQ(t->GetOversubscription(), 0.0);
    EXPECT_EQ(t->GetBisectionBandwidth(), 64 * 400'000'000'000ull);
    for (uint32_t rail = 0; rail < 8; ++rail)
    {
        EXPECT_EQ(t->GetLeaf(rail, 0)->GetObject<FabricSwitch>()->GetNPorts(), 16u);
    }
    const uint32_t n = t->GetNRanks();
    const uint32_t nv = t->GetNvLinkPort();
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = 0; b < n; ++b)
        {
            if (a == b)
            {
                continue;
            }
            uint32_t relay = t->GetRelayRank(a, b);
            EXPECT_EQ(t->GetServerOf(relay), t->GetServerOf(a));
            EXPECT_EQ(t->GetLocalOf(relay), t->GetLocalOf(b));
            if (t->GetServerOf(a) == t->GetServerOf(b))
            {
                EXPECT_EQ(relay, b);
                PathInfo p = Walk(*t, a, nv, b, nv);
                ASSERT_TRUE(p.delivered);
                ASSERT_EQ(Tiers(p), NVLINK_ONLY);
            }
            else if (t->GetLocalOf(a) == t->GetLocalOf(b))
            {
                EXPECT_EQ(relay, a);
                PathInfo p = Walk(*t, a, 0, b, 0);
                ASSERT_TRUE(p.delivered);
                ASSERT_EQ(Tiers(p), ONE_LEAF);
            }
            else
            {
                // No scale-out path between rails ...
                EXPECT_FALSE(Walk(*t, a, 0, b, 0).delivered);
                // ... but NVLink to the relay, then the relay's rail leaf, gets there.
                PathInfo first = Walk(*t, a, nv, relay, nv);
                PathInfo second = Walk(*t, relay, 0, b, 0);
                ASSERT_TRUE(first.delivered && second.delivered) << a << " -> " << b;
                ASSERT_EQ(Tiers(first), NVLINK_ONLY);
                ASSERT_EQ(Tiers(second), ONE_LEAF);
            }
        }
    }
}

TEST_F(TopologyTest, DualPortNicsUseTwoPlanesAndConnectKeepsBothEndsOnOnePlane)
{
    auto t = RailOptimized(8);
    t->SetAttribute("ServersPerSu", UintegerValue(4));
    t->SetAttribute("GpusPerServer", UintegerValue(2));
    t->SetAttribute("NicPortsPerGpu", UintegerValue(2));
    t->Install();
    EXPECT_EQ(t->GetNScalableUnits(), 2u);
    EXPECT_EQ(t->GetNLeavesPerRail(), 4u); // 2 SUs x 2 planes
    EXPECT_EQ(t->GetNLeaves(), 8u);
    EXPECT_EQ(t->GetNLinks(FabricLinkTier::GPU_LEAF), 32u);
    EXPECT_EQ(t->GetNvLinkPort(), 2u);
    EXPECT_EQ(t->GetNic(0)->GetNPorts(), 3u);
    EXPECT_NE(t->GetLeafOf(0, 0), t->GetLeafOf(0, 1));
    EXPECT_EQ(t->GetLeafOf(0, 1), t->GetLeaf(0, 1));
    EXPECT_EQ(t->GetLeafOf(8, 0), t->GetLeaf(0, 2)); // server 4 is in SU 1
    for (uint32_t a = 0; a < t->GetNRanks(); ++a)
    {
        for (uint32_t b = 0; b < t->GetNRanks(); ++b)
        {
            if (t->GetServerOf(a) == t->GetServerOf(b))
            {
                continue;
            }
            for (uint32_t plane = 0; plane < 2; ++plane)
            {
                PathInfo p = Walk(*t, a, plane, b, plane);
                ASSERT_TRUE(p.delivered);
                bool sameLeaf = t->GetLeafOf(a, plane) == t->GetLeafOf(b, plane);
                ASSERT_EQ(Tiers(p), sameLeaf ? ONE_LEAF : LEAF_SPINE_LEAF);
            }
        }
    }
    auto qps = t->Connect(0, 2, 4);
    ASSERT_EQ(qps.size(), 4u);
    for (uint32_t j = 0; j < 4; ++j)
    {
        EXPECT_EQ(qps[j].first->GetPortIndex(), j % 2);
        EXPECT_EQ(qps[j].second->GetPortIndex(), j % 2);
        EXPECT_EQ(qps[j].first->GetRemoteAddress(), t->GetAddress(2, j % 2));
    }
    auto nvQps = t->Connect(0, 1, 2);
    for (const auto& q : nvQps)
    {
        EXPECT_EQ(q.first->GetPortIndex(), 2u);
        EXPECT_EQ(q.second->GetRemoteAddress(), t->GetAddress(0, 2));
    }
}

TEST_F(TopologyTest, OversubscribedLeavesHaveFewerUplinks)
{
    auto t = RailOptimized(32);
    t->SetAttribute("Oversubscription", DoubleValue(2.0));
    t->Install();
    EXPECT_EQ(t->GetLeafUplinks(), 16u);
    EXPECT_EQ(t->GetNSpines(), 2u); // 8 leaves x 16 uplinks over 64-port spines
    EXPECT_DOUBLE_EQ(t->GetOversubscription(), 2.0);
    EXPECT_EQ(t->GetBisectionBandwidth(), 128 * 400'000'000'000ull / 2);
    EXPECT_TRUE(Walk(*t, 0, 0, 9, 0).delivered);
}

TEST_F(TopologyTest, ClosTwoAndThreeTiersRouteOverShortestPaths)
{
    auto two = CreateObject<ClosTopologyHelper>();
    two->Install();
    EXPECT_EQ(two->GetNRacks(), 8u);
    EXPECT_EQ(two->GetNLeaves(), 8u);
    EXPECT_EQ(two->GetNSpines(), 4u);
    EXPECT_EQ(two->GetNLinks(FabricLinkTier::LEAF_SPINE), 256u);
    // Same rack (any rail): one ToR; other racks: ToR-spine-ToR.
    EXPECT_EQ(Tiers(Walk(*two, 0, 0, 31, 0)), ONE_LEAF);
    EXPECT_EQ(Tiers(Walk(*two, 0, 0, 32, 0)), LEAF_SPINE_LEAF);
    EXPECT_EQ(two->GetLeafOf(31), two->GetTor(0));

    auto three = CreateObject<ClosTopologyHelper>();
    three->SetAttribute("Tiers", UintegerValue(3));
    three->SetAttribute("Servers", UintegerValue(32));
    three->SetAttribute("ServersPerRack", UintegerValue(2));
    three->SetAttribute("RacksPerPod", UintegerValue(4));
    three->SetAttribute("SpineOversubscription", DoubleValue(2.0));
    three->Install();
    // 16 racks (16 down + 16 up), 4 pods of 4 racks, aggregation: smallest divisor of 16 with
    // 4 x 16 / a down + half as many up <= 64 -> a = 2 (32 down + 16 up).
    EXPECT_EQ(three->GetNRacks(), 16u);
    EXPECT_EQ(three->GetNPods(), 4u);
    EXPECT_EQ(three->GetNSpines(), 8u);
    EXPECT_EQ(three->GetNCores(), 2u);
    EXPECT_EQ(three->GetNLinks(FabricLinkTier::LEAF_SPINE), 16u * 16);
    EXPECT_EQ(three->GetNLinks(FabricLinkTier::SPINE_CORE), 8u * 16);
    EXPECT_EQ(three->GetBisectionBandwidth(), 128 * 400'000'000'000ull / 2);
    const std::vector<FabricNodeType> fiveHops{FabricNodeType::LEAF,
                                               FabricNodeType::SPINE,
                                               FabricNodeType::CORE,
                                               FabricNodeType::SPINE,
                                               FabricNodeType::LEAF};
    const uint32_t n = three->GetNRanks();
    for (uint32_t a = 0; a < n; a += 3)
    {
        for (uint32_t b = 0; b < n; ++b)
        {
            if (three->GetServerOf(a) == three->GetServerOf(b))
            {
                continue;
            }
            uint32_t rackA = three->GetServerOf(a) / 2;
            uint32_t rackB = three->GetServerOf(b) / 2;
            PathInfo p = Walk(*three, a, 0, b, 0);
            ASSERT_TRUE(p.delivered) << a << " -> " << b;
            if (rackA == rackB)
            {
                ASSERT_EQ(Tiers(p), ONE_LEAF);
            }
            else if (rackA / 4 == rackB / 4)
            {
                ASSERT_EQ(Tiers(p), LEAF_SPINE_LEAF);
            }
            else
            {
                ASSERT_EQ(Tiers(p), fiveHops) << a << " -> " << b;
            }
        }
    }
}

/// RDMA WRITEs through the built fabric: across rails and servers (leaf-spine-leaf) and inside
/// a server (NVLink, much faster, no scale-out switch involved).
TEST_F(TopologyTest, RdmaWritesCompleteAcrossRailsAndFasterOverNvLink)
{
    auto t = RailOptimized(32);
    t->Install();
    t->GetNicHelper().AssignStreams(3);
    const uint32_t src = t->GetRankOf(0, 0);
    const uint32_t remote = t->GetRankOf(5, 3); // other server, other rail
    const uint32_t local = t->GetRankOf(0, 5);  // same server
    auto net = t->Connect(src, remote);
    auto nvl = t->Connect(src, local);
    ASSERT_EQ(net[0].first->GetPortIndex(), 0u);
    ASSERT_EQ(nvl[0].first->GetPortIndex(), t->GetNvLinkPort());
    const uint64_t bytes = 1 << 20;
    auto cb = Collect();
    uint64_t netId = net[0].first->PostWrite(bytes, 0x1000, 1, cb);
    uint64_t nvlId = nvl[0].first->PostWrite(bytes, 0x1000, 2, cb);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    Time netTime;
    Time nvlTime;
    for (const auto& wc : completions)
    {
        EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
        EXPECT_EQ(wc.bytes, bytes);
        (wc.qpn == net[0].first->GetQpn() ? netTime : nvlTime) = wc.endTime - wc.postTime;
    }
    (void)netId;
    (void)nvlId;
    EXPECT_EQ(net[0].second->GetCounters().rxDataBytes, bytes);
    EXPECT_EQ(nvl[0].second->GetCounters().rxDataBytes, bytes);
    // 1 MiB at 400 Gb/s is > 21 us; at 3.6 Tb/s about 2.4 us.
    EXPECT_GT(netTime, MicroSeconds(21));
    EXPECT_LT(nvlTime, MicroSeconds(4));
    EXPECT_LT(nvlTime * 5, netTime);
    // The WRITE crossed leaf(rail 0) -> a spine -> leaf(rail 3); the NVSwitch of server 0 saw
    // only the NVLink one.
    EXPECT_GT(t->GetLeaf(0, 0)->GetObject<FabricSwitch>()->GetCounters().forwarded, 256u);
    EXPECT_GT(t->GetLeaf(3, 0)->GetObject<FabricSwitch>()->GetCounters().forwarded, 256u);
    uint64_t spineForwarded = 0;
    for (uint32_t s = 0; s < t->GetNSpines(); ++s)
    {
        spineForwarded += t->GetSpine(s)->GetObject<FabricSwitch>()->GetCounters().forwarded;
    }
    EXPECT_EQ(spineForwarded, t->GetLeaf(0, 0)->GetObject<FabricSwitch>()->GetCounters().forwarded);
    EXPECT_GE(t->GetNvSwitch(0)->GetObject<FabricSwitch>()->GetCounters().forwarded, 256u);
    EXPECT_EQ(t->GetNvSwitch(5)->GetObject<FabricSwitch>()->GetCounters().forwarded, 0u);
}

/// NvLink false: plain hosts. No NVSwitch, no NVLink cable, port or address; node ids and names
/// skip them; two GPUs of one server connect through their leaf on the scale-out port.
TEST_F(TopologyTest, WithoutNvLinkServersArePlainHostsOnTheirLeaf)
{
    Ptr<ClosTopologyHelper> t = SmallClos();
    t->SetAttribute("NvLink", BooleanValue(false));
    t->Install();
    EXPECT_FALSE(t->HasNvLink());
    EXPECT_EQ(t->GetNNvSwitches(), 0u);
    EXPECT_EQ(t->GetNLinks(FabricLinkTier::NVLINK), 0u);
    EXPECT_EQ(t->GetNLinks(), 4u + 4u); // 4 GPU-leaf + 2 ToRs x 2 spines
    for (uint32_t r = 0; r < 4; ++r)
    {
        EXPECT_EQ(t->GetRank(r)->GetNDevices(), 1u);
        EXPECT_EQ(t->GetNicCore(r)->GetNPorts(), 1u);
        EXPECT_EQ(t->GetNodeType(t->GetRank(r)), FabricNodeType::GPU);
    }
    EXPECT_EQ(t->GetNodeType(t->GetLeaf(0)), FabricNodeType::LEAF);
    EXPECT_EQ(t->GetNodeName(t->GetLeaf(0)->GetId()), "leaf0");
    EXPECT_EQ(t->GetNodeName(t->GetSpine(1)->GetId()), "spine1");
    EXPECT_EQ(t->GetConnectionPorts(0, 1), std::make_pair(0u, 0u));
    auto qp = t->Connect(0, 1);
    ASSERT_EQ(qp[0].first->GetPortIndex(), 0u);
    qp[0].first->PostWrite(1 << 16, 0x1000, 1, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    // The WRITE and its ACKs went through leaf 0 and nowhere else.
    EXPECT_GT(t->GetLeaf(0)->GetObject<FabricSwitch>()->GetCounters().forwarded, 16u);
    EXPECT_EQ(t->GetSpine(0)->GetObject<FabricSwitch>()->GetCounters().forwarded, 0u);
    EXPECT_DEATH(t->GetNvSwitch(0), "NvLink=false, the servers have no NVSwitch");
    EXPECT_DEATH(t->GetNvLinkPort(), "NvLink=false, the GPUs have no NVLink port");
}

/// Rail-only: a cross-rail transfer relayed at the transport user level (PXN-style).
TEST_F(TopologyTest, RailOnlyRelayedWriteCompletes)
{
    auto t = CreateObject<RailOnlyTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(4));
    t->Install();
    const uint32_t src = t->GetRankOf(0, 0);
    const uint32_t dst = t->GetRankOf(1, 3);
    const uint32_t relay = t->GetRelayRank(src, dst);
    ASSERT_EQ(relay, t->GetRankOf(0, 3));
    auto hop1 = t->Connect(src, relay);
    auto hop2 = t->Connect(relay, dst);
    const uint64_t bytes = 256 * 1024;

    struct Relay
    {
        Ptr<RoceQueuePair> next;
        uint64_t bytes;
        std::vector<RoceWorkCompletion>* out;

        void First(const RoceWorkCompletion& wc)
        {
            out->push_back(wc);
            next->PostWrite(bytes, 0, 1, MakeCallback(&Relay::Second, this));
        }

        void Second(const RoceWorkCompletion& wc)
        {
            out->push_back(wc);
        }
    } relayApp{hop2[0].first, bytes, &completions};

    hop1[0].first->PostWrite(bytes, 0, 1, MakeCallback(&Relay::First, &relayApp));
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    EXPECT_EQ(completions[1].status, RoceWcStatus::SUCCESS);
    EXPECT_EQ(hop1[0].first->GetPortIndex(), t->GetNvLinkPort());
    EXPECT_EQ(hop2[0].first->GetPortIndex(), 0u);
    EXPECT_EQ(hop2[0].second->GetCounters().rxDataBytes, bytes);
    EXPECT_DEATH(t->Connect(src, dst),
                 "rank 0 \\(rail 0\\) and rank 11 \\(rail 3\\) are on different rails.*"
                 "GetRelayRank\\(0, 11\\) = 3");
}

// Every GPU gets a transport-neutral NIC core with all its ports; RoCE runs on it by default,
// and the Transports attribute chooses the plug-ins (here UET only, so GetNic aborts by name).
TEST_F(TopologyTest, GpusHaveANicCoreAndTransportsAreInstalledOnIt)
{
    auto t = RailOptimized(4);
    t->Install();
    const uint32_t k = t->GetNvLinkPort();
    for (uint32_t r : {0u, 31u})
    {
        Ptr<FabricNic> core = t->GetNicCore(r);
        ASSERT_TRUE(core);
        EXPECT_EQ(core->GetNPorts(), k + 1);
        EXPECT_EQ(t->GetNic(r)->GetCore(), core);
        EXPECT_EQ(t->GetNic(r)->GetNPorts(), k + 1);
        EXPECT_EQ(core->GetAddress(k), t->GetAddress(r, k));
    }
    Simulator::Destroy();

    // The transports are plug-ins (FabricTransportPlugin): without RoCE, no RoceNic.
    auto u = RailOptimized(4);
    u->SetAttribute("Transports", StringValue("uet"));
    u->Install();
    EXPECT_EQ(u->GetTransports().size(), 1u);
    EXPECT_EQ(u->GetTransports()[0]->GetName(), "uet");
    EXPECT_EQ(u->GetUetNic(5)->GetCore(), u->GetNicCore(5));
    EXPECT_DEATH(u->GetNic(5), "GetNic: rank 5 has no RoceNic");
    EXPECT_DEATH(u->Connect(0, 9, 1), "rank (0|9) has no RoceNic");
}

TEST_F(TopologyTest, ExportsListEveryCable)
{
    auto t = RailOptimized(4);
    t->Install();
    std::string csv = "topology-test-links.csv";
    std::string dot = "topology-test.dot";
    t->WriteLinksCsv(csv);
    t->WriteDot(dot);
    std::ifstream in(csv);
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_EQ(line, "node_a,type_a,port_a,node_b,type_b,port_b,rate_bps,delay_ns");
    uint64_t rows = 0;
    uint64_t nvlink = 0;
    while (std::getline(in, line))
    {
        rows++;
        nvlink += line.find(",nvswitch,") != std::string::npos;
        if (rows == 1)
        {
            EXPECT_EQ(line, "gpu0,gpu,0,leaf0,leaf,0,400000000000,1000");
        }
        if (rows == 2)
        {
            EXPECT_EQ(line, "gpu0,gpu,1,nvswitch0,nvswitch,0,2966400000000,150");
        }
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < uint32_t(FabricLinkTier::COUNT); ++i)
    {
        total += t->GetNLinks(FabricLinkTier(i));
    }
    EXPECT_EQ(rows, total);
    EXPECT_EQ(rows, t->GetNLinks());
    EXPECT_EQ(nvlink, 32u);
    std::ifstream d(dot);
    std::string all((std::istreambuf_iterator<char>(d)), std::istreambuf_iterator<char>());
    EXPECT_EQ(all.rfind("graph fabric {", 0), 0u);
    EXPECT_NE(all.find("\"leaf0\" -- \"spine0\""), std::string::npos);
    std::remove(csv.c_str());
    std::remove(dot.c_str());
}

TEST_F(TopologyTest, BadShapesAbortNamingTheParameter)
{
    auto bad = [](std::string type, std::vector<std::pair<std::string, std::string>> attrs) {
        ObjectFactory f(type);
        for (const auto& [name, value] : attrs)
        {
            f.Set(name, StringValue(value));
        }
        f.Create<FabricTopologyHelper>()->Install();
    };
    const std::string ro = "ns3::RailOptimizedTopologyHelper";
    EXPECT_DEATH(bad(ro, {{"Servers", "0"}}), "Servers=0 is invalid");
    EXPECT_DEATH(bad(ro, {{"GpusPerServer", "0"}}), "GpusPerServer=0 is invalid");
    EXPECT_DEATH(bad(ro, {{"NicPortsPerGpu", "0"}}), "NicPortsPerGpu=0 is invalid");
    EXPECT_DEATH(bad(ro, {{"Rails", "4"}}),
                 "Rails=4 but GpusPerServer=8.*Rails must equal the NICs per server \\(8");
    EXPECT_DEATH(bad(ro, {{"Oversubscription", "0.5"}}),
                 "Oversubscription=0.5 is invalid.*must be >= 1");
    EXPECT_DEATH(bad(ro, {{"ServersPerSu", "40"}}),
                 "ServersPerSu=40 does not fit LeafPorts=64.*at most 32 servers per SU fit");
    EXPECT_DEATH(bad(ro, {{"Spines", "5"}}),
                 "Spines=5 cannot take the uplinks evenly.*must divide 32 \\(1, 2, 4, 8, 16, "
                 "32\\)");
    EXPECT_DEATH(bad(ro, {{"Servers", "128"}, {"Spines", "2"}}),
                 "too few ports: Spines=2 would need 512 ports each.*SpinePorts=64; use "
                 "Spines=16 or raise SpinePorts to >= 512");
    EXPECT_DEATH(bad(ro, {{"Servers", "1024"}}),
                 "no Spines count fits: 256 leaves.*raise SpinePorts to >= 256");
    EXPECT_DEATH(bad(ro, {{"ScaleOutNetwork", "10.128.0.0"}}),
                 "ScaleOutNetwork=10.128.0.0 .* overlaps NvLinkNetwork=10.128.0.0");
    EXPECT_DEATH(bad(ro, {{"GpuLinkDataRate", "0bps"}}), "GpuLinkDataRate=0bps is invalid");
    EXPECT_DEATH(bad("ns3::RailOnlyTopologyHelper", {{"Servers", "65"}}),
                 "Servers=65 do not fit LeafPorts=64.*no spine");
    EXPECT_DEATH(bad("ns3::RailOnlyTopologyHelper", {{"Rails", "7"}}), "Rails=7 but");
    const std::string clos = "ns3::ClosTopologyHelper";
    EXPECT_DEATH(bad(clos, {{"Tiers", "4"}}), "Tiers=4 is invalid; use 2 .* or 3");
    EXPECT_DEATH(bad(clos, {{"ServersPerRack", "5"}}),
                 "ServersPerRack=5 does not fit TorPorts=64.*at most 4 servers per rack");
    EXPECT_DEATH(bad(clos, {{"Oversubscription", "0"}}), "Oversubscription=0 is invalid");
    EXPECT_DEATH(bad(clos, {{"Tiers", "3"}, {"Cores", "3"}}),
                 "Cores=3 must be a multiple of SpinesPerPod=");
    EXPECT_DEATH(bad(clos, {{"Tiers", "3"}, {"SpinesPerPod", "3"}}),
                 "SpinesPerPod=3 cannot take the ToR uplinks evenly");
}

TEST_F(TopologyTest, PlansBeyondTheMemoryLimitAreRefusedBeforeBuilding)
{
    // The model: 18 MiB + 20 KiB per cable + 4 KiB per node + 8 B per forwarding entry.
    EXPECT_EQ(FabricTopologyHelper::EstimateMemoryBytes(10, 100, 1000),
              (18u << 20) + 100 * 20480 + 10 * 4096 + 8000);
    EXPECT_GT(FabricTopologyHelper::GetAvailableMemoryBytes(), 0u);
    // One SU (32 servers x 8 GPUs): 256 + 32 + 12 nodes; 256 x 2 + 256 cables; 12 x 256
    // entries: about 34 MiB, so a 30 MiB limit refuses it and names the estimate.
    Ptr<RailOptimizedTopologyHelper> t = CreateObject<RailOptimizedTopologyHelper>();
    t->SetAttribute("MemoryLimit", UintegerValue(30 << 20));
    EXPECT_DEATH(t->Install(),
                 "the planned fabric \\(300 nodes, 768 cables, 12 scale-out switches x 256 NIC "
                 "addresses of forwarding entries\\) needs an estimated 34 MiB, more than the 30 "
                 "MiB of MemoryLimit");
    // Within the limit it builds, and the estimate is recorded.
    t->SetAttribute("MemoryLimit", UintegerValue(40 << 20));
    t->Install();
    EXPECT_EQ(t->GetBuildStats().estimatedBytes,
              FabricTopologyHelper::EstimateMemoryBytes(300, 768, 12 * 256));
}

TEST_F(TopologyTest, BadAccessorsAndConnectsAbort)
{
    auto t = RailOptimized(2);
    EXPECT_DEATH(t->GetNic(0), "called before Install");
    t->Install();
    EXPECT_DEATH(t->Install(), "Install called twice");
    EXPECT_DEATH(t->GetRank(16), "rank 16 does not exist \\(ranks 0..15\\)");
    EXPECT_DEATH(t->GetGpu(2, 0), "server 2 does not exist");
    EXPECT_DEATH(t->GetGpu(0, 8), "local GPU 8 does not exist");
    EXPECT_DEATH(t->GetLeaf(8, 0), "rail 8 does not exist");
    EXPECT_DEATH(t->GetLeaf(0, 1), "leaf 1 of rail 0 does not exist");
    EXPECT_DEATH(t->GetSpine(4), "spine 4 does not exist");
    EXPECT_DEATH(t->GetAddress(0, 2), "port 2 does not exist");
    EXPECT_DEATH(t->Connect(3, 3), "rankA == rankB == 3");
    EXPECT_DEATH(t->Connect(0, 9, 0), "nQps=0 is invalid");
}

/// A hand-made graph: a ring of four switches (s0-s1 doubled) with one host each. Failures
/// push routes onto the longer way round, a failed host link makes its host unreachable
/// everywhere, a split ring reports what each side lost, and recovery restores the original
/// sets; bad input aborts naming the value and the valid range.
TEST_F(TopologyTest, RouteComputerTakesLongerPathsAndReportsUnreachableHosts)
{
    auto rc = CreateObject<FabricRouteComputer>();
    std::vector<Ptr<SwitchForwardingTable>> tables;
    std::vector<Ipv4Address> host;
    for (uint32_t i = 0; i < 4; ++i)
    {
        tables.push_back(CreateObject<SwitchForwardingTable>());
        tables.back()->SetNPorts(4);
        EXPECT_EQ(rc->AddSwitch(tables.back(), "s" + std::to_string(i)), i);
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        host.emplace_back(0x0a000001 + i);
        EXPECT_EQ(rc->AddHostLink(i, 0, host[i]), i); // links 0..3: host i on port 0 of si
    }
    // Port 1 goes to the next switch, port 2 to the previous one; port 3 doubles s0-s1.
    const uint32_t s0s1 = rc->AddSwitchLink(0, 1, 1, 2);
    rc->AddSwitchLink(1, 1, 2, 2);
    const uint32_t s2s3 = rc->AddSwitchLink(2, 1, 3, 2);
    rc->AddSwitchLink(3, 1, 0, 2);
    const uint32_t s0s1b = rc->AddSwitchLink(0, 3, 1, 3);
    EXPECT_EQ(rc->GetNLinks(), 9u);
    EXPECT_EQ(rc->GetNHosts(), 4u);
    EXPECT_EQ(rc->GetSwitchName(3), "s3");

    auto route = [&](uint32_t sw, uint32_t h) { return tables[sw]->GetRoute(host[h]); };
    using Set = std::vector<uint32_t>;
    const FabricRouteStats first = rc->Compute();
    EXPECT_EQ(first.routes, 16u);
    EXPECT_EQ(first.unreachable, 0u);
    EXPECT_EQ(first.computations, 1u);
    EXPECT_EQ(route(0, 0), Set{0});
    EXPECT_EQ(route(0, 1), (Set{1, 3}));    // both parallel cables
    EXPECT_EQ(route(0, 2), (Set{1, 2, 3})); // two hops either way round
    EXPECT_EQ(route(2, 0), (Set{1, 2}));

    // Both s0-s1 cables down: s0 and s1 reach each other the long way (3 hops).
    rc->SetLinkUp(s0s1, false);
    rc->SetLinkUp(s0s1b, false);
    EXPECT_FALSE(rc->IsLinkUp(s0s1));
    EXPECT_EQ(route(0, 1), (Set{1, 3})); // nothing changes before Compute()
    const FabricRouteStats& cut = rc->Compute();
    EXPECT_EQ(cut.routes, 16u);
    EXPECT_EQ(cut.unreachable, 0u);
    EXPECT_EQ(route(0, 1), Set{2});
    EXPECT_EQ(route(0, 2), Set{2});
    EXPECT_EQ(route(1, 0), Set{1});
    EXPECT_EQ(route(2, 0), Set{1});
    EXPECT_EQ(route(3, 0), Set{1});
    EXPECT_TRUE(rc->IsConnected(0, 1));

    // Host 3's own link down too: nobody routes to it, every switch reports it.
    rc->SetLinkUp(3, false);
    EXPECT_EQ(rc->Compute().unreachable, 4u);
    EXPECT_EQ(rc->GetStats().routes, 12u);
    for (uint32_t sw = 0; sw < 4; ++sw)
    {
        const uint32_t* ports = nullptr;
        uint32_t n = 0;
        EXPECT_FALSE(tables[sw]->Lookup(host[3].Get(), ports, n)) << "s" << sw;
        EXPECT_EQ(rc->GetUnreachable(sw), std::vector<Ipv4Address>{host[3]}) << "s" << sw;
    }

    // s2-s3 down as well: the ring splits into {s0, s3} and {s1, s2}; each side loses the
    // other side's hosts (s0, s3: hosts 1, 2; s1, s2: host 0), and everyone host 3.
    rc->SetLinkUp(s2s3, false);
    EXPECT_EQ(rc->Compute().unreachable, 4u + 2 * 2 + 2 * 1);
    EXPECT_FALSE(rc->IsConnected(0, 1));
    EXPECT_TRUE(rc->IsConnected(0, 3));
    EXPECT_EQ(rc->GetUnreachable(0), (std::vector<Ipv4Address>{host[1], host[2], host[3]}));
    EXPECT_EQ(rc->GetUnreachable(2), (std::vector<Ipv4Address>{host[0], host[3]}));
    EXPECT_EQ(route(0, 0), Set{0});
    EXPECT_EQ(route(1, 2), Set{1});
    EXPECT_TRUE(route(3, 1).empty());

    // Everything back: the original sets.
    for (uint32_t l : {s0s1, s0s1b, 3u, s2s3})
    {
        rc->SetLinkUp(l, true);
    }
    const FabricRouteStats& back = rc->Compute();
    EXPECT_EQ(back.routes, 16u);
    EXPECT_EQ(back.unreachable, 0u);
    EXPECT_EQ(back.computations, 5u);
    EXPECT_EQ(route(0, 1), (Set{1, 3}));
    EXPECT_EQ(route(0, 2), (Set{1, 2, 3}));
    EXPECT_EQ(route(2, 0), (Set{1, 2}));
    EXPECT_EQ(route(3, 3), Set{0});
    EXPECT_TRUE(rc->GetUnreachable(0).empty());

    EXPECT_DEATH(rc->SetLinkUp(9, false), "SetLinkUp: link 9 does not exist \\(links 0..8\\)");
    EXPECT_DEATH(rc->IsLinkUp(100), "link 100 does not exist \\(links 0..8\\)");
    EXPECT_DEATH(rc->AddSwitchLink(0, 1, 4, 0),
                 "AddSwitchLink: switch 4 does not exist \\(switches 0..3\\)");
    EXPECT_DEATH(rc->AddSwitchLink(2, 1, 2, 3), "both ends are switch 2 \\(s2\\)");
    EXPECT_DEATH(rc->AddHostLink(7, 0, Ipv4Address("10.0.0.9")),
                 "AddHostLink: switch 7 does not exist");
    EXPECT_DEATH(rc->AddSwitch(nullptr, "x"), "switch \"x\" has no forwarding table");
    EXPECT_DEATH(rc->GetUnreachable(4), "switch 4 does not exist");
    EXPECT_DEATH(CreateObject<FabricRouteComputer>()->IsConnected(0, 0), "does not exist");
    EXPECT_DEATH(
        {
            rc->AddHostLink(1, 3, host[0]);
            rc->Compute();
        },
        "host 10.0.0.1 is attached twice \\(links 0 and 9\\)");
}

/// Two-tier Clos, 2 ToRs x 2 spines: a failed ToR-spine cable leaves the ECMP sets (the spine
/// that lost its ToR reaches it the long way), RDMA WRITEs both ways still complete over the
/// surviving spine, and the sets and the traffic spread come back with the cable.
TEST_F(TopologyTest, LinkFailureShrinksEcmpSetsAndRecoveryRestoresThem)
{
    auto t = SmallClos();
    t->Install();
    ASSERT_EQ(t->GetNLeaves(), 2u);
    ASSERT_EQ(t->GetNSpines(), 2u);
    ASSERT_EQ(t->GetNLinks(), 4u * 2 + 4); // per GPU a ToR and an NVLink cable; 2 x 2 uplinks
    Ptr<Node> tor0 = t->GetLeaf(0);
    Ptr<Node> tor1 = t->GetLeaf(1);
    Ptr<Node> spine0 = t->GetSpine(0);
    Ptr<Node> spine1 = t->GetSpine(1);
    const Ipv4Address onTor0 = t->GetAddress(0, 0);
    const Ipv4Address onTor1 = t->GetAddress(2, 0);
    ASSERT_EQ(PortsTo(tor0, spine0).size(), 1u);
    ASSERT_EQ(PortsTo(tor0, spine1).size(), 1u);
    const std::vector<uint32_t> up0{PortsTo(tor0, spine0)[0], PortsTo(tor0, spine1)[0]};
    const std::vector<uint32_t> up1{PortsTo(tor1, spine0)[0], PortsTo(tor1, spine1)[0]};
    ASSERT_EQ(Route(tor0, onTor1), up0);
    ASSERT_EQ(Route(tor1, onTor0), up1);
    ASSERT_EQ(Route(spine0, onTor0), PortsTo(spine0, tor0));

    const std::vector<uint32_t> cable = t->FindLinks(tor0, spine0);
    ASSERT_EQ(cable.size(), 1u);
    EXPECT_EQ(t->FindLinks(spine0, tor0), cable);
    EXPECT_TRUE(t->FindLinks(tor0, tor1).empty());
    const FabricRouteStats failed = t->SetLinkUp(cable[0], false);
    EXPECT_EQ(failed.unreachable, 0u);
    EXPECT_FALSE(t->GetLinkChannel(cable[0])->IsLinkUp());
    EXPECT_FALSE(t->GetRouteComputer()->IsLinkUp(cable[0]));
    // The switches at both ends see their port down; nobody else does.
    EXPECT_EQ(Switch(tor0)->GetNPortsDown(), 1u);
    EXPECT_EQ(Switch(spine0)->GetNPortsDown(), 1u);
    EXPECT_EQ(Switch(tor1)->GetNPortsDown(), 0u);
    EXPECT_FALSE(Switch(tor0)->IsPortUp(PortsTo(tor0, spine0)[0]));
    // Both ToRs now use only spine 1; spine 0 reaches ToR 0 through ToR 1 and spine 1.
    EXPECT_EQ(Route(tor0, onTor1), PortsTo(tor0, spine1));
    EXPECT_EQ(Route(tor1, onTor0), PortsTo(tor1, spine1));
    EXPECT_EQ(Route(spine0, onTor0), PortsTo(spine0, tor1));
    EXPECT_EQ(Route(spine0, onTor1), PortsTo(spine0, tor1));
    PathInfo p = Walk(*t, 0, 0, 2, 0);
    ASSERT_TRUE(p.delivered);
    EXPECT_EQ(Tiers(p), LEAF_SPINE_LEAF);

    // Eight QPs each way (eight entropies): every WRITE completes, none crosses spine 0.
    const uint64_t bytes = 64 * 1024;
    auto qps = t->Connect(0, 2, 8);
    auto postAll = [&]() {
        for (const auto& q : qps)
        {
            q.first->PostWrite(bytes, 0, 1, Collect());
            q.second->PostWrite(bytes, 0, 2, Collect());
        }
    };
    postAll();
    Simulator::Run();
    ASSERT_EQ(completions.size(), 16u);
    for (const auto& wc : completions)
    {
        EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
        EXPECT_EQ(wc.bytes, bytes);
    }
    EXPECT_EQ(Switch(spine0)->GetCounters().forwarded, 0u);
    EXPECT_GT(Switch(spine1)->GetCounters().forwarded, 16 * bytes / 4096);

    // Recovery: the original sets, and traffic over both spines again.
    EXPECT_EQ(t->SetLinkUp(cable[0], true).unreachable, 0u);
    EXPECT_TRUE(t->GetLinkChannel(cable[0])->IsLinkUp());
    EXPECT_EQ(Switch(tor0)->GetNPortsDown(), 0u);
    EXPECT_EQ(Switch(spine0)->GetNPortsDown(), 0u);
    EXPECT_EQ(Route(tor0, onTor1), up0);
    EXPECT_EQ(Route(tor1, onTor0), up1);
    EXPECT_EQ(Route(spine0, onTor0), PortsTo(spine0, tor0));
    completions.clear();
    postAll();
    Simulator::Run();
    ASSERT_EQ(completions.size(), 16u);
    for (const auto& wc : completions)
    {
        EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
    }
    EXPECT_GT(Switch(spine0)->GetCounters().forwarded, 0u);
    for (Ptr<Node> n : {tor0, tor1, spine0, spine1})
    {
        EXPECT_EQ(Switch(n)->GetCounters().drops[size_t(SwitchDropReason::NO_ROUTE)], 0u);
    }
}

/// Every uplink of a ToR down: the remote hosts are reported unreachable at every switch that
/// lost them, their routes are gone, a WRITE to them fails cleanly (RETRY_EXCEEDED after
/// no-route drops) while NVLink inside the server still works; one uplink back reconnects.
TEST_F(TopologyTest, LeafWithEveryUplinkDownReportsRemoteHostsUnreachable)
{
    auto t = SmallClos();
    t->GetNicHelper().SetNicAttribute("RetryCount", UintegerValue(1));
    t->Install();
    Ptr<FabricRouteComputer> rc = t->GetRouteComputer();
    Ptr<Node> tor0 = t->GetLeaf(0);
    std::vector<uint32_t> uplinks = t->FindLinks(tor0, t->GetSpine(0));
    uplinks.push_back(t->FindLinks(tor0, t->GetSpine(1)).at(0));
    ASSERT_EQ(uplinks.size(), 2u);
    for (uint32_t l : uplinks)
    {
        rc->SetLinkUp(l, false);
    }
    const FabricRouteStats& st = rc->Compute();
    // ToR 0 lost ranks 2 and 3; ToR 1 and both spines lost ranks 0 and 1.
    EXPECT_EQ(st.unreachable, 4u * 2);
    EXPECT_EQ(rc->GetUnreachable(0),
              (std::vector<Ipv4Address>{t->GetAddress(2, 0), t->GetAddress(3, 0)}));
    for (uint32_t sw : {1u, 2u, 3u})
    {
        EXPECT_EQ(rc->GetUnreachable(sw),
                  (std::vector<Ipv4Address>{t->GetAddress(0, 0), t->GetAddress(1, 0)}))
            << rc->GetSwitchName(sw);
    }
    ASSERT_EQ(rc->GetNSwitches(), 4u + 2);
    for (uint32_t nv = 4; nv < rc->GetNSwitches(); ++nv)
    {
        EXPECT_TRUE(rc->GetUnreachable(nv).empty()) << rc->GetSwitchName(nv);
    }
    EXPECT_TRUE(Route(tor0, t->GetAddress(2, 0)).empty());
    EXPECT_TRUE(Route(t->GetSpine(0), t->GetAddress(0, 0)).empty());
    EXPECT_EQ(Route(tor0, t->GetAddress(1, 0)).size(), 1u);
    EXPECT_FALSE(Walk(*t, 0, 0, 2, 0).delivered);
    EXPECT_FALSE(Walk(*t, 2, 0, 0, 0).delivered);
    EXPECT_TRUE(Walk(*t, 0, t->GetNvLinkPort(), 1, t->GetNvLinkPort()).delivered);

    auto far = t->Connect(0, 2);
    auto near = t->Connect(0, 1);
    far[0].first->PostWrite(4096, 0, 1, Collect());
    near[0].first->PostWrite(4096, 0, 2, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    for (const auto& wc : completions)
    {
        EXPECT_EQ(wc.status,
                  wc.qpn == far[0].first->GetQpn() ? RoceWcStatus::RETRY_EXCEEDED
                                                   : RoceWcStatus::SUCCESS);
    }
    EXPECT_GT(Switch(tor0)->GetCounters().drops[size_t(SwitchDropReason::NO_ROUTE)], 0u);

    // One uplink back: everything reachable again, over the one spine.
    EXPECT_EQ(t->SetLinkUp(uplinks[1], true).unreachable, 0u);
    EXPECT_EQ(Route(tor0, t->GetAddress(2, 0)), PortsTo(tor0, t->GetSpine(1)));
    EXPECT_TRUE(rc->GetUnreachable(0).empty());
    completions.clear();
    auto again = t->Connect(0, 2);
    again[0].first->PostWrite(4096, 0, 3, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
}

/// Rail-only: leaves of different rails never meet by design, which is not "unreachable"; a
/// failed GPU-leaf cable is.
TEST_F(TopologyTest, DisconnectedByDesignIsNotReportedUnreachable)
{
    auto t = CreateObject<RailOnlyTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(2));
    t->Install();
    Ptr<FabricRouteComputer> rc = t->GetRouteComputer();
    EXPECT_EQ(rc->GetStats().unreachable, 0u);
    EXPECT_EQ(rc->GetStats().routes, t->GetBuildStats().routes);
    const std::vector<uint32_t> cable = t->FindLinks(t->GetRank(0), t->GetLeafOf(0));
    ASSERT_EQ(cable.size(), 1u);
    EXPECT_EQ(cable[0], 0u); // the first row of WriteLinksCsv
    EXPECT_EQ(t->SetLinkUp(cable[0], false).unreachable, 1u);
    EXPECT_EQ(rc->GetUnreachable(0), std::vector<Ipv4Address>{t->GetAddress(0, 0)});
    EXPECT_TRUE(Route(t->GetLeafOf(0), t->GetAddress(0, 0)).empty());
    EXPECT_EQ(t->SetLinkUp(cable[0], true).unreachable, 0u);
    EXPECT_EQ(Route(t->GetLeafOf(0), t->GetAddress(0, 0)).size(), 1u);
}

TEST_F(TopologyTest, BadLinkIndicesAbortNamingTheRange)
{
    auto t = SmallClos();
    EXPECT_DEATH(t->GetRouteComputer(), "GetRouteComputer called before Install");
    EXPECT_DEATH(t->SetLinkUp(0, false), "SetLinkUp called before Install");
    t->Install();
    EXPECT_DEATH(t->SetLinkUp(12, false), "SetLinkUp: link 12 does not exist \\(links 0..11\\)");
    EXPECT_DEATH(t->GetLinkChannel(99), "GetLinkChannel: link 99 does not exist \\(links 0..11\\)");
    auto other = SmallClos();
    other->Install();
    EXPECT_DEATH(t->FindLinks(t->GetLeaf(0), other->GetLeaf(0)), "is not part of this fabric");
}

} // namespace
