/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FatTreeTopologyHelper: switch, host and cable counts of k = 4 and k = 8 fat trees and their
 * wiring, htsim's queue / ECN / trimming settings on every switch and UET NIC, equal-cost sets
 * at every tier and EV-dependent paths, the unloaded host-to-host RTT of one packet across the
 * core against the analytical value, full bisection (a permutation at line rate when packets
 * spread), conservation under ECMP collisions, failing and degrading an aggregation-core
 * cable, and bad attributes.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <set>

using namespace ns3;

namespace
{

class FatTreeTest : public test::SimTest
{
  protected:
    /// A fat tree of radix \p k, not installed.
    static Ptr<FatTreeTopologyHelper> Make(uint32_t k)
    {
        auto t = CreateObject<FatTreeTopologyHelper>();
        t->SetAttribute("K", UintegerValue(k));
        return t;
    }

    /// The peer node of a switch port.
    static Ptr<Node> PeerNode(Ptr<FabricSwitch> sw, uint32_t port)
    {
        Ptr<PfcChannel> ch = sw->GetPort(port)->GetPfcChannel();
        Ptr<PfcNetDevice> dev = sw->GetPort(port);
        return (ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0))->GetNode();
    }

    /// Endpoints (JobID 1) of every host of an installed fat tree.
    static std::vector<Ptr<UetEndpoint>> Endpoints(Ptr<FatTreeTopologyHelper> t)
    {
        std::vector<Ptr<Node>> hosts;
        for (uint32_t h = 0; h < t->GetNHosts(); ++h)
        {
            hosts.push_back(t->GetHost(h));
        }
        return t->GetUetNicHelper().CreateEndpoints(hosts, 1);
    }
};

/// K^3/4 hosts, K^2/2 ToRs and aggregation switches, K^2/4 cores, K^3/4 cables per tier, no
/// NVSwitch; every switch has K ports, and the cables join what the fat tree joins.
TEST_F(FatTreeTest, CountsAndWiringForK4AndK8)
{
    struct Expected
    {
        uint32_t k, hosts, tors, aggs, cores, cablesPerTier;
    };

    for (const Expected& e : {Expected{4, 16, 8, 8, 4, 16}, Expected{8, 128, 32, 32, 16, 128}})
    {
        auto t = Make(e.k);
        t->Install();
        EXPECT_EQ(t->GetNHosts(), e.hosts);
        EXPECT_EQ(t->GetNRanks(), e.hosts);
        EXPECT_EQ(t->GetNLeaves(), e.tors);
        EXPECT_EQ(t->GetNSpines(), e.aggs);
        EXPECT_EQ(t->GetNCores(), e.cores);
        EXPECT_EQ(t->GetNNvSwitches(), 0u);
        EXPECT_FALSE(t->HasNvLink());
        EXPECT_EQ(t->GetNLinks(FabricLinkTier::NVLINK), 0u);
        EXPECT_EQ(t->GetNLinks(FabricLinkTier::GPU_LEAF), e.cablesPerTier);
        EXPECT_EQ(t->GetNLinks(FabricLinkTier::LEAF_SPINE), e.cablesPerTier);
        EXPECT_EQ(t->GetNLinks(FabricLinkTier::SPINE_CORE), e.cablesPerTier);
        EXPECT_EQ(t->GetNLinks(), 3 * e.cablesPerTier);
        EXPECT_EQ(t->GetBisectionBandwidth(), uint64_t(e.hosts) * 100'000'000'000ull / 2);
        EXPECT_DOUBLE_EQ(t->GetOversubscription(), 1.0);
        const uint32_t half = e.k / 2;
        for (uint32_t h = 0; h < e.hosts; ++h)
        {
            EXPECT_EQ(t->GetUetNic(h)->GetNPorts(), 1u) << "host " << h;
            EXPECT_EQ(t->GetLeafOf(h), t->GetTor(t->GetPodOf(h), (h / half) % half));
        }
        for (uint32_t pod = 0; pod < e.k; ++pod)
        {
            for (uint32_t i = 0; i < half; ++i)
            {
                Ptr<FabricSwitch> tor = t->GetTor(pod, i)->GetObject<FabricSwitch>();
                Ptr<FabricSwitch> agg = t->GetAgg(pod, i)->GetObject<FabricSwitch>();
                ASSERT_EQ(tor->GetNPorts(), e.k);
                ASSERT_EQ(agg->GetNPorts(), e.k);
                for (uint32_t j = 0; j < half; ++j)
                {
                    // ToR i reaches every aggregation switch of its pod; aggregation switch i
                    // reaches the cores of plane i.
                    EXPECT_EQ(t->FindLinks(t->GetTor(pod, i), t->GetAgg(pod, j)).size(), 1u);
                    EXPECT_EQ(t->FindLinks(t->GetAgg(pod, i), t->GetCore(i * half + j)).size(), 1u);
                    EXPECT_EQ(t->GetAggCoreLink(pod, i * half + j),
                              t->FindLinks(t->GetAgg(pod, i), t->GetCore(i * half + j))[0]);
                }
                EXPECT_TRUE(
                    t->FindLinks(t->GetAgg(pod, i), t->GetCore(((i + 1) % half) * half)).empty() ||
                    half == 1);
            }
        }
        for (uint32_t c = 0; c < e.cores; ++c)
        {
            Ptr<FabricSwitch> core = t->GetCore(c)->GetObject<FabricSwitch>();
            ASSERT_EQ(core->GetNPorts(), e.k);
            std::set<uint32_t> pods;
            for (uint32_t p = 0; p < e.k; ++p)
            {
                FabricNodeType type = t->GetNodeType(PeerNode(core, p));
                EXPECT_EQ(type, FabricNodeType::SPINE);
            }
        }
    }
}

/// ECMP sets: a ToR spreads remote traffic over its K/2 uplinks, an aggregation switch
/// inter-pod traffic over its K/2 cores, a core has one port per destination; packets with
/// different EVs (UDP source ports) take different uplinks, each EV always the same one.
TEST_F(FatTreeTest, EqualCostSetsAndEvDependentPaths)
{
    auto t = Make(8);
    t->Install();
    const Ipv4Address remote = t->GetAddress(127, 0); // pod 7
    auto route = [&](Ptr<Node> sw) {
        return sw->GetObject<FabricSwitch>()->GetForwardingTable()->GetRoute(remote);
    };
    EXPECT_EQ(route(t->GetTor(0, 0)).size(), 4u);
    EXPECT_EQ(route(t->GetAgg(0, 0)).size(), 4u);
    EXPECT_EQ(route(t->GetCore(0)).size(), 1u);
    EXPECT_EQ(route(t->GetAgg(7, 0)).size(), 1u);
    EXPECT_EQ(route(t->GetTor(7, 3)).size(), 1u);

    Ptr<FabricSwitch> tor = t->GetTor(0, 0)->GetObject<FabricSwitch>();
    Ptr<SwitchLoadBalancer> lb = tor->GetLoadBalancer();
    EXPECT_EQ(lb->GetInstanceTypeId().GetName(), "ns3::EntropyEcmpLoadBalancer");
    std::vector<uint32_t> ports = route(t->GetTor(0, 0));
    std::set<uint32_t> chosen;
    for (uint16_t ev = 49152; ev < 49152 + 64; ++ev)
    {
        SwitchFlowKey key;
        key.srcIp = t->GetAddress(0, 0).Get();
        key.dstIp = remote.Get();
        key.protocol = 17;
        key.srcPort = ev;
        key.dstPort = UetPdsHeader::UDP_DST_PORT;
        key.entropy = ev;
        key.entropyBytes = 2;
        uint32_t p = lb->Select(key, ports.data(), ports.size(), Seconds(0));
        EXPECT_EQ(p, lb->Select(key, ports.data(), ports.size(), Seconds(1))) << "EV " << ev;
        chosen.insert(p);
    }
    EXPECT_EQ(chosen.size(), 4u) << "64 EVs should use every uplink of the ToR";
}

/// htsim's queue model on every switch and the UET settings on every NIC, from the BDP.
TEST_F(FatTreeTest, HtsimQueuesEcnAndTrimmingFromTheBdp)
{
    auto t = Make(4);
    // 6 x (2 x 1 us + (8 + 4198) B + (8 + 70) B at 80 ps/B) = 14.05632 us.
    EXPECT_EQ(t->GetMaxUnloadedRtt(), PicoSeconds(14056320));
    EXPECT_EQ(t->GetDataFrameBytes(), 4198u);
    EXPECT_EQ(t->GetDataPacketWireBytes(), 4218u);
    EXPECT_EQ(t->GetBdpBytes(), 175704u); // 14.05632 us x 12.5 B/ns
    EXPECT_EQ(t->GetBdpPackets(), 42u);   // ceil(175704 / 4218)
    EXPECT_EQ(t->GetQueueBytes(), 42u * 4198);
    EXPECT_EQ(t->GetEcnKminBytes(), 9u * 4198);  // ceil(0.2 x 42)
    EXPECT_EQ(t->GetEcnKmaxBytes(), 34u * 4198); // ceil(0.8 x 42)
    // htsim's min RTO: 15 us + 6 x queue drain time.
    EXPECT_EQ(t->GetUetRtoMin(), MicroSeconds(15) + PicoSeconds(6ll * 42 * 4198 * 80));
    t->Install();
    for (uint32_t i = 0; i < 20; ++i)
    {
        Ptr<Node> n = i < 8 ? t->GetLeaf(i) : i < 16 ? t->GetSpine(i - 8) : t->GetCore(i - 16);
        Ptr<FabricSwitch> sw = n->GetObject<FabricSwitch>();
        Ptr<SharedBufferMmu> mmu = sw->GetMmu();
        EXPECT_EQ(mmu->GetEgressLimit(), 42u * 4198) << i;
        EXPECT_EQ(mmu->GetTrimPriorities(), 0x02) << i;
        EXPECT_EQ(mmu->GetTrimSize(), UetNic::MIN_TRIM_BYTES);
        EXPECT_FALSE(mmu->IsLossless(1));
        EXPECT_FALSE(mmu->IsLossless(3));
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            EXPECT_EQ(sw->GetEcnMarker()->GetKmin(p), 9u * 4198);
            EXPECT_EQ(sw->GetEcnMarker()->GetKmax(p), 34u * 4198);
            EXPECT_DOUBLE_EQ(sw->GetEcnMarker()->GetPmax(p), 1.0);
            // Down-ports of the ToRs face hosts: trimmed there = trimmed at the last hop.
            EXPECT_EQ(mmu->IsLastHopPort(p), i < 8 && p < 2) << "switch " << i << " port " << p;
        }
    }
    for (uint32_t h = 0; h < 16; ++h)
    {
        Ptr<UetNic> nic = t->GetUetNic(h);
        EXPECT_EQ(nic->GetDataDscp(), 8);
        EXPECT_EQ(nic->GetDataPriority(0), 1);
        EXPECT_EQ(nic->GetRtoMin(), t->GetUetRtoMin());
        EXPECT_EQ(nic->GetOooThreshold(), 0u);
    }

    // Without trimming: 5 BDP of queue, no trimming, inferred loss as the NIC's default.
    auto plain = Make(4);
    plain->SetAttribute("Trimming", BooleanValue(false));
    EXPECT_EQ(plain->GetQueueBytes(), 5u * 42 * 4198);
    plain->Install();
    EXPECT_EQ(plain->GetLeaf(0)->GetObject<FabricSwitch>()->GetMmu()->GetTrimPriorities(), 0);
    EXPECT_EQ(plain->GetUetNic(0)->GetOooThreshold(), 3u);
}

/// One packet from host 0 to host 15 (another pod: through a core) completes after exactly
/// the analytical unloaded RTT: 6 cables each way, the data frame and the ACK carrying the
/// SES response serialized at every hop (store and forward), no queueing. Within a ToR the
/// path is 2 cables.
TEST_F(FatTreeTest, UnloadedRttOfOnePacketAcrossTheCoreIsAnalytical)
{
    auto t = Make(4);
    t->Install();
    auto eps = Endpoints(t);
    std::vector<UetCompletion> done;
    auto record = MakeCallback(
        +[](std::vector<UetCompletion>* v, const UetCompletion& c) { v->push_back(c); });
    eps[15]->RegisterMemory(1, 4096);
    eps[1]->RegisterMemory(1, 4096);
    eps[0]->PostWrite(eps[15]->GetAddress(), 1, 0, 4096, record.Bind(&done));
    Simulator::Schedule(MilliSeconds(1), [&]() {
        eps[0]->PostWrite(eps[1]->GetAddress(), 1, 0, 4096, record.Bind(&done));
    });
    Simulator::Run();
    ASSERT_EQ(done.size(), 2u);
    ASSERT_TRUE(done[0].ok) << done[0].error;
    ASSERT_TRUE(done[1].ok) << done[1].error;
    const int64_t data = (8 + 4096 + 84 + 18) * 80; // ps per hop at 100 Gb/s
    const int64_t ack = (8 + 70) * 80;
    EXPECT_EQ(done[0].GetDuration(), PicoSeconds(6 * (2000000 + data + ack)));
    EXPECT_EQ(done[0].GetDuration(), t->GetMaxUnloadedRtt());
    EXPECT_EQ(done[1].GetDuration(), PicoSeconds(2 * (2000000 + data + ack)));
    // Each NIC knows the unloaded RTT of its path to every peer (for NSCC's base RTT): the
    // measured ones, and 4 cables within a pod.
    EXPECT_EQ(t->GetUnloadedRtt(0, 15), done[0].GetDuration());
    EXPECT_EQ(t->GetUnloadedRtt(0, 1), done[1].GetDuration());
    EXPECT_EQ(t->GetUnloadedRtt(0, 2), PicoSeconds(4 * (2000000 + data + ack)));
    EXPECT_EQ(t->GetUnloadedRtt(3, 3), Time(0));
    Ptr<UetNic> nic0 = t->GetUetNic(0);
    EXPECT_EQ(nic0->GetPathRtt(t->GetUetNic(15)->GetAddress(0)), done[0].GetDuration());
    EXPECT_EQ(nic0->GetPathRtt(t->GetUetNic(1)->GetAddress(0)), done[1].GetDuration());
    EXPECT_EQ(nic0->GetPathRtt(t->GetUetNic(2)->GetAddress(0)), t->GetUnloadedRtt(0, 2));
    EXPECT_EQ(nic0->GetPathRtt(Ipv4Address("192.0.2.1")), Time(0)); // not a host
    EXPECT_DEATH(t->GetUnloadedRtt(0, 16), "host 16 is out of range 0..15");
}

/// Full bisection: a permutation of 2 MB flows over all 16 hosts, without congestion control,
/// with packets sprayed over the equal-cost paths (ns3::SprayLoadBalancer), runs every flow
/// near line rate: with no trim and no drop, each completes within 10 % of a lone flow's time
/// across the core (random spraying leaves queues of a random walk's size, some 10-30 packets
/// by the end of a 489-packet flow), and together they move 16 x 2 MB at >= 90 % of the 16
/// hosts' line rate.
/// With per-flow ECMP (the default) colliding flows share uplinks: every flow still
/// completes and every byte posted is delivered once.
TEST_F(FatTreeTest, PermutationAtLineRateWhenSprayedAndConservedUnderEcmp)
{
    auto rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(0);
    const HtsimConnectionMatrix perm = HtsimConnectionMatrix::Permutation(16, 2000000, rng);

    Time lone;
    {
        auto t = Make(4);
        t->Install();
        UetMatrixRunner run(HtsimConnectionMatrix::Single(16, 2000000, 0, 15), Endpoints(t));
        run.Start();
        Simulator::Run();
        ASSERT_TRUE(run.AllCompleted());
        lone = run.GetFlows()[0].GetFct();
        Simulator::Destroy();
    }
    // 489 packets at 4218 B of wire each (the last one short) plus the RTT.
    EXPECT_NEAR(lone.GetSeconds() * 1e6, 178.5, 0.5);

    {
        auto t = Make(4);
        t->SetAttribute("LoadBalancer", TypeIdValue(SprayLoadBalancer::GetTypeId()));
        t->Install();
        UetMatrixRunner run(perm, Endpoints(t));
        run.Start();
        Simulator::Run();
        ASSERT_TRUE(run.AllCompleted());
        for (const auto& f : run.GetFlows())
        {
            EXPECT_LT(f.GetFct().GetSeconds(), 1.10 * lone.GetSeconds())
                << f.src << "->" << f.dst << " took " << f.GetFct().As(Time::US);
        }
        const UetFctSummary s = run.GetSummary();
        // The lone flow's time is 178.5 us for 2 MB: line rate for the payload and headers
        // plus one RTT; 16 flows in parallel must come close to it.
        EXPECT_LT(s.lastEnd.GetSeconds(), lone.GetSeconds() / 0.9) << s.lastEnd.As(Time::US);
        FatTreeCounters c = t->GetCounters();
        EXPECT_EQ(c.trims, 0u);
        EXPECT_EQ(c.drops, 0u);
        Simulator::Destroy();
    }

    auto t = Make(4);
    t->Install();
    UetMatrixRunner run(perm, Endpoints(t));
    run.Start();
    Simulator::Run();
    EXPECT_TRUE(run.AllCompleted());
    uint64_t posted = 0;
    uint64_t completed = 0;
    uint64_t delivered = 0;
    for (uint32_t h = 0; h < 16; ++h)
    {
        const UetNicCounters& n = t->GetUetNic(h)->GetCounters();
        posted += n.bytesPosted;
        completed += n.bytesCompleted;
        delivered += n.bytesDelivered;
        EXPECT_EQ(t->GetUetNic(h)->GetPendingBytes(), 0u);
    }
    EXPECT_EQ(posted, 16u * 2000000);
    EXPECT_EQ(completed, posted);
    EXPECT_EQ(delivered, posted);
    // Collisions fill queues: trimmed packets are NACKed and resent, none is dropped.
    FatTreeCounters c = t->GetCounters();
    EXPECT_GT(c.trims, 0u);
    EXPECT_EQ(c.trimNacks, c.trims);
    EXPECT_EQ(c.drops, 0u);
    const UetFctSummary s = run.GetSummary();
    EXPECT_EQ(s.completed, 16u);
    EXPECT_GT(s.max, lone); // some flows collided
}

/// An aggregation-core cable can be failed (routes avoid it, traffic still arrives) and
/// degraded (both ends run slower), then restored.
TEST_F(FatTreeTest, AggCoreLinkFailsAndDegrades)
{
    auto t = Make(4);
    t->Install();
    const uint32_t link = t->GetAggCoreLink(0, 1); // pod 0's aggregation switch 0 to core 1
    Ptr<FabricSwitch> agg = t->GetAgg(0, 0)->GetObject<FabricSwitch>();
    const Ipv4Address remote = t->GetAddress(15, 0);
    EXPECT_EQ(agg->GetForwardingTable()->GetRoute(remote).size(), 2u);
    t->SetLinkUp(link, false);
    EXPECT_EQ(agg->GetForwardingTable()->GetRoute(remote).size(), 1u);
    EXPECT_FALSE(t->GetLinkChannel(link)->IsLinkUp());

    UetMatrixRunner run(HtsimConnectionMatrix::Incast(16, 3, 500000, 15), Endpoints(t));
    run.Start();
    Simulator::Run();
    EXPECT_TRUE(run.AllCompleted());

    t->SetLinkUp(link, true);
    EXPECT_EQ(agg->GetForwardingTable()->GetRoute(remote).size(), 2u);
    t->SetLinkDataRate(link, DataRate("25Gbps"));
    Ptr<PfcChannel> ch = t->GetLinkChannel(link);
    EXPECT_EQ(ch->GetPfcDevice(0)->GetDataRate(), DataRate("25Gbps"));
    EXPECT_EQ(ch->GetPfcDevice(1)->GetDataRate(), DataRate("25Gbps"));
    EXPECT_EQ(agg->GetForwardingTable()->GetRoute(remote).size(), 2u);
    t->SetLinkDataRate(link, DataRate("100Gbps"));
    EXPECT_EQ(ch->GetPfcDevice(0)->GetDataRate(), DataRate("100Gbps"));
    EXPECT_EQ(t->GetHostLink(5), 5u);
    EXPECT_EQ(t->GetTorAggLink(0, 1, 0), t->FindLinks(t->GetTor(0, 1), t->GetAgg(0, 0))[0]);
}

TEST_F(FatTreeTest, BadAttributesAbortNamingThem)
{
    auto install = [](const std::string& name, const AttributeValue& v) {
        auto t = CreateObject<FatTreeTopologyHelper>();
        t->SetAttribute(name, v);
        t->Install();
    };
    EXPECT_DEATH(install("K", UintegerValue(3)), "K=3 is invalid; K must be even and >= 2");
    EXPECT_DEATH(install("K", UintegerValue(0)), "K=0 is invalid");
    EXPECT_DEATH(install("LinkDataRate", DataRateValue(DataRate(0))), "LinkDataRate=0bps");
    EXPECT_DEATH(install("QueueBytes", UintegerValue(1000)),
                 "QueueBytes=1000 is invalid; it must hold one full data frame \\(>= 4198 B\\)");
    EXPECT_DEATH(install("EcnMaxBdp", DoubleValue(1.5)),
                 "EcnMaxBdp=1.5 gives Kmax 264474 B, above the queue of 176316 B");
    EXPECT_DEATH(install("EcnMinBdp", DoubleValue(0.9)),
                 "EcnMinBdp=0.9, EcnMaxBdp=0.8 are invalid");
    EXPECT_DEATH(install("UetDataDscp", UintegerValue(56)),
                 "UetDataDscp=56 is invalid; valid range is 0..47");
    EXPECT_DEATH(install("TrimSize", UintegerValue(64)),
                 "TrimSize=64 is invalid; valid range is 84..65535");
    EXPECT_DEATH(install("HeaderModelBytes", UintegerValue(20)),
                 "HeaderModelBytes=20 is invalid; valid is 0 \\(real sizes\\) or 21..84");
    EXPECT_DEATH(install("HeaderModelBytes", UintegerValue(85)), "HeaderModelBytes.*85.*0..84");
    EXPECT_DEATH(install("LoadBalancer", TypeIdValue(UetNic::GetTypeId())),
                 "LoadBalancer=ns3::UetNic is invalid; it must name a SwitchLoadBalancer");
    auto t = Make(4);
    t->Install();
    EXPECT_DEATH(t->GetTor(4, 0), "pod 4 does not exist \\(pods 0..3\\)");
    EXPECT_DEATH(t->GetAgg(0, 2), "index 2 does not exist in a pod \\(0..1\\)");
    EXPECT_DEATH(t->GetAggCoreLink(0, 4), "core 4 does not exist \\(cores 0..3\\)");
    EXPECT_DEATH(t->GetNvLinkPort(), "NvLink=false, the GPUs have no NVLink port");
    EXPECT_DEATH(t->GetAddress(0, 1), "NvLink=false, the GPUs have only the scale-out ports 0..0");
    EXPECT_DEATH(t->SetLinkDataRate(0, DataRate(0)), "link 0 rate 0bps is invalid");
    EXPECT_DEATH(t->SetLinkDataRate(48, DataRate("1Gbps")), "link 48 does not exist");
}

} // namespace
