/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * What a congestion-control experiment on a Clos needs (issue 23 item 5): plain single-NIC
 * hosts, the shared pool as its own MMU attribute, per-tier switch settings, port MTUs that
 * follow the transport's, ECN marking on dequeue, and fabric-wide aggregate counters.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"

#include <map>
#include <sstream>

using namespace ns3;

namespace
{

/// The HPCC-lineage Clos: 128 x 25 Gb/s plain hosts, 8 ToRs, 2 spines at 100 Gb/s (2:1).
Ptr<ClosTopologyHelper>
HpccClos()
{
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Hosts", UintegerValue(128));
    t->SetAttribute("ServersPerRack", UintegerValue(16));
    t->SetAttribute("TorPorts", UintegerValue(18));
    t->SetAttribute("GpuLinkDataRate", DataRateValue(DataRate("25Gbps")));
    t->SetAttribute("LeafSpineDataRate", DataRateValue(DataRate("100Gbps")));
    t->SetAttribute("Oversubscription", DoubleValue(2.0));
    t->SetAttribute("Spines", UintegerValue(2));
    return t;
}

/// A two-rack Clos of 8 plain 25 Gb/s hosts (4 per ToR), one 100 Gb/s spine.
Ptr<ClosTopologyHelper>
SmallHostClos()
{
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Hosts", UintegerValue(8));
    t->SetAttribute("ServersPerRack", UintegerValue(4));
    t->SetAttribute("GpuLinkDataRate", DataRateValue(DataRate("25Gbps")));
    t->SetAttribute("LeafSpineDataRate", DataRateValue(DataRate("100Gbps")));
    t->SetAttribute("Spines", UintegerValue(1));
    return t;
}

Ptr<FabricSwitch>
Switch(Ptr<Node> node)
{
    return node->GetObject<FabricSwitch>();
}

/// Counts RDMA completions.
struct Completions
{
    uint32_t n{0}; //!< completions so far

    /// A work request completed.
    void On(const RoceWorkCompletion& wc)
    {
        n += wc.status == RoceWcStatus::SUCCESS;
    }
};

using ClosExperimentTest = test::SimTest;
using ClosExperimentDeathTest = test::SimTest;

// ---- 1. plain hosts -----------------------------------------------------------------------

TEST_F(ClosExperimentTest, HpccClosOfPlainHostsHasTheExpectedNodesPortsAndRates)
{
    const uint32_t nodesBefore = NodeList::GetNNodes();
    auto t = HpccClos();
    t->SetAttribute("GpusPerServer", UintegerValue(8)); // replaced by Hosts
    t->Install();
    EXPECT_EQ(NodeList::GetNNodes() - nodesBefore, 128u + 8u + 2u); // hosts, ToRs, spines
    EXPECT_EQ(t->GetNHosts(), 128u);
    EXPECT_EQ(t->GetNRanks(), 128u);
    EXPECT_EQ(t->GetNServers(), 128u);
    EXPECT_EQ(t->GetGpusPerServer(), 1u);
    EXPECT_EQ(t->GetNicPortsPerGpu(), 1u);
    EXPECT_FALSE(t->HasNvLink());
    EXPECT_EQ(t->GetNNvSwitches(), 0u);
    EXPECT_EQ(t->GetNRacks(), 8u);
    EXPECT_EQ(t->GetNLeaves(), 8u);
    EXPECT_EQ(t->GetNSpines(), 2u);
    EXPECT_EQ(t->GetNCores(), 0u);
    EXPECT_EQ(t->GetTorUplinks(), 2u);
    EXPECT_DOUBLE_EQ(t->GetOversubscription(), 2.0);
    EXPECT_EQ(t->GetNLinks(FabricLinkTier::NVLINK), 0u);
    EXPECT_EQ(t->GetNLinks(FabricLinkTier::GPU_LEAF), 128u);
    EXPECT_EQ(t->GetNLinks(FabricLinkTier::LEAF_SPINE), 16u);
    EXPECT_EQ(t->GetNLinks(FabricLinkTier::SPINE_CORE), 0u);
    EXPECT_EQ(t->GetLinkRate(FabricLinkTier::GPU_LEAF), DataRate("25Gbps"));
    EXPECT_EQ(t->GetLinkRate(FabricLinkTier::LEAF_SPINE), DataRate("100Gbps"));
    for (uint32_t h = 0; h < 128; ++h)
    {
        ASSERT_EQ(t->GetRank(h)->GetNDevices(), 1u) << "host " << h;
        ASSERT_EQ(t->GetNicCore(h)->GetNPorts(), 1u);
        ASSERT_EQ(t->GetRank(h)->GetDevice(0)->GetObject<PfcNetDevice>()->GetDataRate(),
                  DataRate("25Gbps"));
        ASSERT_EQ(t->GetLeafOf(h), t->GetTor(h / 16));
        ASSERT_EQ(t->GetNodeType(t->GetRank(h)), FabricNodeType::GPU);
    }
    for (uint32_t l = 0; l < 8; ++l)
    {
        Ptr<FabricSwitch> leaf = Switch(t->GetLeaf(l));
        ASSERT_EQ(leaf->GetNPorts(), 18u); // 16 hosts + 2 uplinks
        for (uint32_t p = 0; p < 18; ++p)
        {
            EXPECT_EQ(leaf->GetPort(p)->GetDataRate(), DataRate(p < 16 ? "25Gbps" : "100Gbps"));
            EXPECT_EQ(leaf->IsLastHopPort(p), p < 16);
        }
    }
    for (uint32_t s = 0; s < 2; ++s)
    {
        Ptr<FabricSwitch> spine = Switch(t->GetSpine(s));
        ASSERT_EQ(spine->GetNPorts(), 8u); // one cable to each ToR
        for (uint32_t p = 0; p < 8; ++p)
        {
            EXPECT_EQ(spine->GetPort(p)->GetDataRate(), DataRate("100Gbps"));
        }
    }
    // Nothing NVLink-related exists.
    EXPECT_DEATH(t->GetNvSwitch(0), "NvLink=false");
    EXPECT_DEATH(t->GetNvLinkPort(), "NvLink=false");
    // Host 0 reaches host 127 over leaf 0 - spine - leaf 7: 4 cables of 1 us.
    EXPECT_GT(t->GetMaxUnloadedRtt(1110, 64), MicroSeconds(8));
}

// ---- 2. shared pool as its own attribute ------------------------------------------------

/// An MMU configured for \p n ports of \p rate and 1 us cables, largest frame 1110 B.
Ptr<SharedBufferMmu>
ConfiguredMmu(uint32_t n, const std::string& rate, std::map<std::string, uint64_t> attrs)
{
    auto mmu = CreateObject<SharedBufferMmu>();
    for (const auto& [name, value] : attrs)
    {
        mmu->SetAttribute(name, UintegerValue(value));
    }
    mmu->Configure(std::vector<DataRate>(n, DataRate(rate)),
                   std::vector<Time>(n, MicroSeconds(1)),
                   1110);
    return mmu;
}

TEST_F(ClosExperimentTest, SharedPoolSizeSetsThePoolAndHeadroomComesOnTop)
{
    const uint64_t headroom = CreateObject<SharedBufferMmu>()->RequiredHeadroom(DataRate("25Gbps"),
                                                                                MicroSeconds(1),
                                                                                1110);
    // 2 x 1 us x 3.125 GB/s + 3 x (1110 + 20) + 84
    EXPECT_EQ(headroom, 6250u + 3390u + 84u);
    // Default: the pool is what BufferSize leaves (unchanged behaviour).
    auto derived = ConfiguredMmu(18, "25Gbps", {{"BufferSize", 4000000}});
    EXPECT_EQ(derived->GetSharedPoolSize(), 4000000u - 18 * headroom);
    EXPECT_EQ(derived->GetHeadroomSize(0), headroom);
    // Set directly: exactly the pool asked for; the headroom is the same, on top.
    auto direct = ConfiguredMmu(18, "25Gbps", {{"SharedPoolSize", 4000000}});
    EXPECT_EQ(direct->GetSharedPoolSize(), 4000000u);
    EXPECT_EQ(direct->GetHeadroomSize(17), headroom);
    // ... with reserved bytes too (8 priorities per port), as long as it all fits BufferSize.
    auto reserved = ConfiguredMmu(4,
                                  "25Gbps",
                                  {{"SharedPoolSize", 1000000},
                                   {"ReservedBytes", 1000},
                                   {"BufferSize", 1000000 + 32000 + 4 * headroom}});
    EXPECT_EQ(reserved->GetSharedPoolSize(), 1000000u);
    // The dynamic threshold works from the pool set: alpha 1/8 of 4 MB when empty.
    EXPECT_EQ(direct->GetXoffThreshold(0, 3), 500000u);
}

TEST_F(ClosExperimentTest, SharedPoolSizeThroughTheSwitchHelperReachesEverySwitch)
{
    auto t = SmallHostClos();
    t->GetSwitchHelper().SetMmuAttribute("SharedPoolSize", UintegerValue(4000000));
    t->Install();
    for (uint32_t l = 0; l < t->GetNLeaves(); ++l)
    {
        EXPECT_EQ(Switch(t->GetLeaf(l))->GetMmu()->GetSharedPoolSize(), 4000000u);
    }
    EXPECT_EQ(Switch(t->GetSpine(0))->GetMmu()->GetSharedPoolSize(), 4000000u);
}

TEST_F(ClosExperimentDeathTest, SharedPoolThatDoesNotFitTheBufferAborts)
{
    // 32 MiB of pool + the headroom of 18 ports does not fit the 32 MiB default BufferSize.
    EXPECT_DEATH(ConfiguredMmu(18, "25Gbps", {{"SharedPoolSize", 32ull << 20}}),
                 "SharedPoolSize 33554432 B \\+ 0 B reserved \\+ 175032 B headroom \\(18 ports, "
                 "1 lossless priorities\\) = 33729464 B does not fit BufferSize 33554432 B; "
                 "raise BufferSize to >= 33729464");
    // Headroom alone larger than the buffer: the pool cannot be placed at all.
    EXPECT_DEATH(ConfiguredMmu(18, "25Gbps", {{"SharedPoolSize", 1}, {"BufferSize", 100000}}),
                 "does not fit BufferSize 100000 B.*valid range 1..0 B");
}

// ---- 3. per-tier switch settings ------------------------------------------------------------

TEST_F(ClosExperimentTest, LeafAndSpineGetTheirOwnBuffersAndEcnThresholds)
{
    auto t = SmallHostClos();
    // Tier settings first, common ones after: the tier still wins.
    t->SetTierMmuAttribute(FabricNodeType::SPINE, "SharedPoolSize", UintegerValue(8000000));
    t->SetTierEcnAttribute(FabricNodeType::SPINE, "Kmin", QueueSizeValue(QueueSize("50KB")));
    t->SetTierEcnAttribute(FabricNodeType::SPINE, "Kmax", QueueSizeValue(QueueSize("200KB")));
    t->SetTierEcnAttribute(FabricNodeType::SPINE, "Pmax", DoubleValue(0.5));
    t->SetTierEcnAttribute(FabricNodeType::LEAF, "MarkingPoint", StringValue("Dequeue"));
    t->GetSwitchHelper().SetMmuAttribute("SharedPoolSize", UintegerValue(4000000));
    t->GetSwitchHelper().SetEcnAttribute("Pmax", DoubleValue(0.2));
    t->SetTierSwitchAttribute(FabricNodeType::CORE, "ProcessingDelay", TimeValue(NanoSeconds(1)));
    t->Install();
    for (uint32_t l = 0; l < 2; ++l)
    {
        Ptr<FabricSwitch> leaf = Switch(t->GetLeaf(l));
        EXPECT_EQ(leaf->GetMmu()->GetSharedPoolSize(), 4000000u);
        Ptr<WredEcnMarker> ecn = leaf->GetEcnMarker();
        EXPECT_EQ(ecn->GetMarkingPoint(), WredEcnMarker::DEQUEUE);
        // Default 100 KB / 400 KB per 25 Gb/s: host ports at 25G, the uplink at 100G.
        EXPECT_EQ(ecn->GetKmin(0), 100000u);
        EXPECT_EQ(ecn->GetKmax(0), 400000u);
        EXPECT_EQ(ecn->GetKmin(4), 400000u);
        EXPECT_DOUBLE_EQ(ecn->GetPmax(4), 0.2);
    }
    Ptr<FabricSwitch> spine = Switch(t->GetSpine(0));
    EXPECT_EQ(spine->GetMmu()->GetSharedPoolSize(), 8000000u);
    EXPECT_EQ(spine->GetEcnMarker()->GetMarkingPoint(), WredEcnMarker::ENQUEUE);
    EXPECT_EQ(spine->GetEcnMarker()->GetKmin(0), 200000u); // 50 KB per 25G at 100G
    EXPECT_EQ(spine->GetEcnMarker()->GetKmax(1), 800000u);
    EXPECT_DOUBLE_EQ(spine->GetEcnMarker()->GetPmax(1), 0.5);
    // The helper a tier is installed with.
    SwitchHelper leafHelper = t->GetTierSwitchHelper(FabricNodeType::LEAF);
    (void)leafHelper;
}

TEST_F(ClosExperimentDeathTest, TierSettingsRefuseBadTiersNamesAndValues)
{
    auto t = SmallHostClos();
    EXPECT_DEATH(t->SetTierMmuAttribute(FabricNodeType::GPU, "BufferSize", UintegerValue(1)),
                 "SetTierMmuAttribute: tier gpu has no switch settings; valid tiers are leaf, "
                 "spine, core");
    EXPECT_DEATH(t->SetTierEcnAttribute(FabricNodeType::NVSWITCH, "Kmin", UintegerValue(1)),
                 "tier nvswitch has no switch settings");
    EXPECT_DEATH(t->SetTierMmuAttribute(FabricNodeType::LEAF, "BufferBytes", UintegerValue(1)),
                 "ns3::SharedBufferMmu has no attribute \"BufferBytes\"");
    EXPECT_DEATH(t->SetTierMmuAttribute(FabricNodeType::SPINE, "TrimSize", UintegerValue(10)),
                 "TrimSize 10 B is invalid; valid range is 28..65535");
    EXPECT_DEATH(
        t->SetTierEcnAttribute(FabricNodeType::SPINE, "MarkingPoint", StringValue("Later")),
        "ns3::WredEcnMarker::MarkingPoint does not accept the value");
    t->SetTierEcnAttribute(FabricNodeType::SPINE, "Pmax", DoubleValue(1.5));
    EXPECT_DEATH(t->Install(), "Pmax 1.5 is invalid; valid range is \\[0, 1\\]");
}

// ---- 4. port MTU follows the transport ------------------------------------------------------

TEST_F(ClosExperimentTest, PortMtuFromTransportSizesHeadroomForTheFramesSent)
{
    // Default: 9000 B ports, headroom for 9 KB frames (unchanged behaviour).
    auto jumbo = SmallHostClos();
    jumbo->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(1024));
    jumbo->Install();
    EXPECT_EQ(jumbo->GetPortMtu(), 9000u);
    Ptr<FabricSwitch> jumboLeaf = Switch(jumbo->GetLeaf(0));
    const uint64_t jumboHeadroom = jumboLeaf->GetMmu()->GetHeadroomSize(0);
    EXPECT_EQ(jumboHeadroom,
              jumboLeaf->GetMmu()->RequiredHeadroom(DataRate("25Gbps"),
                                                    MicroSeconds(1),
                                                    9000 + 14 + 4 + 4));

    // RoCE path MTU 1024: 1088 B IPv4 packets, 1110 B tagged frames on every port.
    auto fitted = SmallHostClos();
    fitted->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(1024));
    fitted->SetAttribute("PortMtuFromTransport", BooleanValue(true));
    EXPECT_EQ(fitted->GetPortMtu(), 1088u);
    fitted->Install();
    for (uint32_t h = 0; h < 8; ++h)
    {
        EXPECT_EQ(fitted->GetRank(h)->GetDevice(0)->GetMtu(), 1088u);
    }
    Ptr<FabricSwitch> leaf = Switch(fitted->GetLeaf(0));
    Ptr<FabricSwitch> spine = Switch(fitted->GetSpine(0));
    for (uint32_t p = 0; p < leaf->GetNPorts(); ++p)
    {
        EXPECT_EQ(leaf->GetPort(p)->GetMtu(), 1088u);
    }
    EXPECT_EQ(spine->GetPort(0)->GetMtu(), 1088u);
    const uint64_t headroom = leaf->GetMmu()->GetHeadroomSize(0);
    EXPECT_EQ(headroom, 6250u + 3u * (1110u + 20u) + 84u);
    EXPECT_EQ(jumboHeadroom - headroom, 3u * (9022u - 1110u)); // three 9 KB frames less
    EXPECT_EQ(spine->GetMmu()->GetHeadroomSize(0), 25000u + 3u * (1110u + 20u) + 84u);

    // UET: Mtu + 88 B; both transports: the larger.
    auto uet = SmallHostClos();
    uet->SetAttribute("Transports", StringValue("roce+uet"));
    uet->GetUetNicHelper().SetNicAttribute("Mtu", UintegerValue(2048));
    uet->SetAttribute("PortMtuFromTransport", BooleanValue(true));
    EXPECT_EQ(uet->GetPortMtu(), 4096u + 64u); // the RoCE default 4096 is larger
    // HPCC's INT stack (2 B + 5 x 8 B per packet) makes the packets 42 B larger.
    auto hpcc = SmallHostClos();
    hpcc->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(1024));
    hpcc->GetNicHelper().SetCongestionControl("hpcc");
    hpcc->SetAttribute("PortMtuFromTransport", BooleanValue(true));
    EXPECT_EQ(hpcc->GetPortMtu(), 1088u + 42u);
    hpcc->GetNicHelper().SetNicAttribute("IntMaxHops", UintegerValue(3));
    EXPECT_EQ(hpcc->GetPortMtu(), 1088u + 26u);
    // An explicit PortMtu wins.
    auto fixed = SmallHostClos();
    fixed->SetAttribute("PortMtu", UintegerValue(5000));
    EXPECT_EQ(fixed->GetPortMtu(), 5000u);
}

TEST_F(ClosExperimentDeathTest, PortMtuTooSmallOrOutOfRangeAborts)
{
    auto t = SmallHostClos();
    t->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(1024));
    t->SetAttribute("PortMtu", UintegerValue(1000));
    EXPECT_DEATH(t->Install(),
                 "PortMtu=1000 cannot carry the packets of the roce NICs \\(largest IPv4 packet "
                 "1088 B\\); use PortMtu >= 1088 or PortMtuFromTransport=true");
    t->SetAttribute("PortMtu", UintegerValue(20000));
    EXPECT_DEATH(t->Install(), "PortMtu=20000 is invalid; valid range is 68..9216 bytes");
}

TEST_F(ClosExperimentDeathTest, IntPacketsThatDoNotFitThePortAbortAtTheFirstQp)
{
    // Ports sized for 1024 B RoCE packets without INT; Int switched on at the NICs afterwards.
    auto t = SmallHostClos();
    t->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(1024));
    t->SetAttribute("PortMtu", UintegerValue(1088));
    t->Install();
    Ptr<RoceNic> nic = t->GetRank(0)->GetObject<RoceNic>();
    nic->SetAttribute("Int", BooleanValue(true));
    EXPECT_DEATH(nic->CreateQp(0),
                 "RoceNic::CreateQp: device MTU 1088 cannot carry RoCE MTU 1024 \\+ 106 header "
                 "bytes \\(INT stack included: Int on, IntMaxHops 5\\); the device MTU must be "
                 ">= 1130");
}

// ---- 5. ECN marking point -----------------------------------------------------------------

/// N hosts on one switch (host i on port i), 100 Gb/s, 1 us, every ECT packet above 0 B of
/// egress queue marked (Kmin = Kmax = 0, not scaled).
class MarkingPointStar
{
  public:
    void Build(uint32_t nHosts, const std::string& point, const std::string& k = "0B")
    {
        hosts.Create(nHosts);
        sw.Create(1);
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            PfcHelper pfc;
            pfc.SetQueueMaxSize(QueueSize("10000p"));
            pfc.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
            pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
            NetDeviceContainer d = pfc.Install(hosts.Get(i), sw.Get(0));
            dev.push_back(DynamicCast<PfcNetDevice>(d.Get(0)));
            dev.back()->SetPfcReceiveCallback(MakeCallback(&MarkingPointStar::Receive, this));
        }
        SwitchHelper helper;
        helper.SetEcnAttribute("Kmin", QueueSizeValue(QueueSize(k)));
        helper.SetEcnAttribute("Kmax", QueueSizeValue(QueueSize(k)));
        helper.SetEcnAttribute("ScaleWithRate", BooleanValue(false));
        helper.SetEcnAttribute("MarkingPoint", StringValue(point));
        fabric = helper.Install(sw.Get(0));
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            fabric->GetForwardingTable()->SetRoute(Ipv4Address(0x0a000001 + i), {i});
        }
        fabric->TraceConnectWithoutContext("EcnMark",
                                           MakeCallback(&MarkingPointStar::OnMark, this));
    }

    /// Host \p from sends one 1000-byte ECT(0) UDP packet to host \p to now.
    void SendOne(uint32_t from, uint32_t to)
    {
        Ptr<Packet> p = Create<Packet>(1000 - 28);
        UdpHeader udp;
        udp.SetSourcePort(49152 + from);
        udp.SetDestinationPort(4791);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address(0x0a000001 + from));
        ip.SetDestination(Ipv4Address(0x0a000001 + to));
        ip.SetProtocol(17);
        ip.SetTtl(64);
        ip.SetPayloadSize(1000 - 20);
        ip.SetDscp(Ipv4Header::DSCP_AF31);
        ip.SetEcn(Ipv4Header::ECN_ECT0);
        ip.EnableChecksum();
        p->AddHeader(ip);
        Ptr<PfcChannel> ch = dev[from]->GetPfcChannel();
        Ptr<PfcNetDevice> peer =
            ch->GetPfcDevice(0) == dev[from] ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
        ASSERT_TRUE(dev[from]->Send(p, peer->GetAddress(), 0x0800));
    }

    void Receive(Ptr<PfcNetDevice>, Ptr<Packet> p, uint16_t, Mac48Address, uint8_t)
    {
        Ipv4Header ip;
        ip.EnableChecksum();
        p->PeekHeader(ip);
        received++;
        if (ip.GetEcn() == Ipv4Header::ECN_CE)
        {
            ce++;
            ceTimes.push_back(Simulator::Now());
        }
        badChecksum += !ip.IsChecksumOk();
    }

    void OnMark(uint32_t port, uint8_t priority, uint64_t queueBytes)
    {
        markQueues.push_back(queueBytes);
    }

    NodeContainer hosts;
    NodeContainer sw;
    std::vector<Ptr<PfcNetDevice>> dev;
    Ptr<FabricSwitch> fabric;
    uint32_t received{0};
    uint32_t ce{0};
    uint32_t badChecksum{0};
    std::vector<uint64_t> markQueues;
    std::vector<Time> ceTimes;
};

using MarkingPointTest = test::SimTest;

// One packet alone: on enqueue it counts itself in the queue (1018 B > 0: marked); on dequeue
// nothing is queued behind it (0 B: not marked).
TEST_F(MarkingPointTest, ALonePacketIsMarkedOnEnqueue)
{
    MarkingPointStar s;
    s.Build(2, "Enqueue");
    s.SendOne(0, 1);
    Simulator::Run();
    EXPECT_EQ(s.received, 1u);
    EXPECT_EQ(s.ce, 1u);
    EXPECT_EQ(s.fabric->GetCounters().ecnMarks[1], 1u);
}

TEST_F(MarkingPointTest, ALonePacketIsNotMarkedOnDequeue)
{
    MarkingPointStar s;
    s.Build(2, "Dequeue");
    s.SendOne(0, 1);
    Simulator::Run();
    EXPECT_EQ(s.received, 1u);
    EXPECT_EQ(s.ce, 0u);
    EXPECT_EQ(s.fabric->GetCounters().ecnMarks[1], 0u);
}

// Three packets of 1018 B (1000 B IPv4 + Ethernet header and FCS, as the MMU charges them)
// reach the switch at the same instant for one egress port. The first starts on the wire at
// once, the other two queue behind it.
//  Enqueue: each counts itself: 1018, 1018 (the first has left), 2036 B: all 3 marked.
//  Dequeue: the first leaves with 0 B behind it (the others have not arrived yet), the second
//  with the third behind it (1018 B), the third with 0 B: exactly 1 marked, the second.
TEST_F(MarkingPointTest, IncastOfThreeMarksThreeOnEnqueueAndOneOnDequeue)
{
    MarkingPointStar s;
    s.Build(4, "Enqueue");
    for (uint32_t h = 0; h < 3; ++h)
    {
        s.SendOne(h, 3);
    }
    Simulator::Run();
    EXPECT_EQ(s.received, 3u);
    EXPECT_EQ(s.ce, 3u);
    EXPECT_EQ(s.fabric->GetCounters().ecnMarks[3], 3u);
    EXPECT_EQ(s.markQueues, (std::vector<uint64_t>{1018, 1018, 2036}));
}

TEST_F(MarkingPointTest, IncastOfThreeMarksOneOnDequeueWithAValidChecksum)
{
    MarkingPointStar s;
    s.Build(4, "Dequeue");
    for (uint32_t h = 0; h < 3; ++h)
    {
        s.SendOne(h, 3);
    }
    Simulator::Run();
    EXPECT_EQ(s.received, 3u);
    EXPECT_EQ(s.ce, 1u);
    EXPECT_EQ(s.badChecksum, 0u);
    EXPECT_EQ(s.fabric->GetCounters().ecnMarks[3], 1u);
    EXPECT_EQ(s.fabric->GetCounters().marks[size_t(SwitchMarkReason::ECN_CE)], 1u);
    EXPECT_EQ(s.markQueues, (std::vector<uint64_t>{1018}));
    // The MMU released everything either way.
    EXPECT_EQ(s.fabric->GetMmu()->GetBytesHeld(), 0u);
}

// Two hosts each send 40 back-to-back 1000 B packets at 100 Gb/s into one 100 Gb/s port: the
// queue grows by one packet per packet time T (1038 B on the wire, 83.04 ns). With
// Kmin = Kmax = K = 10 packets (10,180 B):
//  Enqueue: the first packet that finds > K queued (itself included) arrives at about 10 T and
//  then waits behind those 10 packets: it leaves, and its CE reaches the receiver, at ~20 T.
//  Dequeue: the first packet that leaves with > K behind it leaves at about 10 T.
// So dequeue marking signals the congestion one drain time of K (K / rate, ~10 T) earlier.
TEST_F(MarkingPointTest, DequeueMarkingSignalsOneQueueDrainTimeEarlier)
{
    Time firstCe[2];
    uint32_t marks[2] = {0, 0};
    for (int dequeue = 0; dequeue < 2; ++dequeue)
    {
        MarkingPointStar run; // a fresh switch per marking point
        run.Build(3, dequeue ? "Dequeue" : "Enqueue", "10180B");
        for (uint32_t i = 0; i < 40; ++i)
        {
            run.SendOne(0, 2);
            run.SendOne(1, 2);
        }
        Simulator::Run();
        ASSERT_EQ(run.received, 80u);
        ASSERT_GT(run.ce, 0u);
        firstCe[dequeue] = run.ceTimes.front();
        marks[dequeue] = run.ce;
        Simulator::Destroy();
    }
    const Time packetTime = PicoSeconds(83040); // 1038 B at 100 Gb/s
    const Time earlier = firstCe[0] - firstCe[1];
    // Measured: 9 T (747.36 ns) earlier; K / rate = 814 ns.
    EXPECT_GE(earlier, packetTime * 8) << "enqueue " << firstCe[0] << ", dequeue " << firstCe[1];
    EXPECT_LE(earlier, packetTime * 12) << "enqueue " << firstCe[0] << ", dequeue " << firstCe[1];
    // Both mark while the queue is above K: the dequeue marks are shifted earlier, not lost.
    EXPECT_GT(marks[1], 0u);
    EXPECT_GT(marks[0], 0u);
}

// ---- 6. fabric-wide aggregate counters ------------------------------------------------------

TEST_F(ClosExperimentTest, AggregateCountersAddUpToThePerDeviceCountersOnAnIncast)
{
    auto t = SmallHostClos();
    t->GetNicHelper().SetCongestionControl("dcqcn");
    t->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(1024));
    t->SetAttribute("PortMtuFromTransport", BooleanValue(true));
    t->GetSwitchHelper().SetMmuAttribute("SharedPoolSize", UintegerValue(200000));
    t->GetSwitchHelper().SetEcnAttribute("Kmin", QueueSizeValue(QueueSize("5KB")));
    t->GetSwitchHelper().SetEcnAttribute("Kmax", QueueSizeValue(QueueSize("20KB")));
    t->Install();
    t->GetNicHelper().AssignStreams(7);
    // Hosts 0..6 each write 256 KB to host 7 (three of them from the other rack).
    Completions done;
    std::vector<std::vector<FabricTopologyHelper::QpPair>> qps;
    for (uint32_t s = 0; s < 7; ++s)
    {
        qps.push_back(t->Connect(s, 7));
        qps.back()[0].first->PostWrite(256 * 1024,
                                       0x1000,
                                       1,
                                       MakeCallback(&Completions::On, &done));
    }
    Simulator::Run();
    ASSERT_EQ(done.n, 7u);

    FabricAggregateCounters sums = t->GetAggregateCounters();
    // Recount every device by hand.
    uint64_t pauseTx = 0;
    uint64_t pauseRx = 0;
    uint64_t cnpTx = 0;
    uint64_t cnpRx = 0;
    uint64_t marks = 0;
    uint64_t xoff = 0;
    Time paused;
    auto ports = [&](Ptr<Node> n) {
        for (uint32_t d = 0; d < n->GetNDevices(); ++d)
        {
            const PfcPortCounters& c = DynamicCast<PfcNetDevice>(n->GetDevice(d))->GetCounters();
            for (uint8_t p = 0; p < 8; ++p)
            {
                pauseTx += c.pauseTx[p];
                pauseRx += c.pauseRx[p];
                paused += c.pausedTime[p];
            }
        }
    };
    for (uint32_t h = 0; h < 8; ++h)
    {
        ports(t->GetRank(h));
        cnpTx += t->GetNic(h)->GetTotalQpCounters().cnpsTx;
        cnpRx += t->GetNic(h)->GetTotalQpCounters().cnpsRx;
    }
    uint64_t leafMarks = 0;
    for (Ptr<Node> n : {t->GetLeaf(0), t->GetLeaf(1), t->GetSpine(0)})
    {
        ports(n);
        const SwitchCounters& c = Switch(n)->GetCounters();
        for (uint64_t m : c.ecnMarks)
        {
            marks += m;
            leafMarks += n != t->GetSpine(0) ? m : 0;
        }
        for (const auto& perPrio : c.xoffSent)
        {
            for (uint64_t x : perPrio)
            {
                xoff += x;
            }
        }
    }
    const FabricTierCounters& total = sums.total;
    EXPECT_EQ(total.nodes, 11u);
    EXPECT_EQ(sums.Get(FabricNodeType::GPU).nodes, 8u);
    EXPECT_EQ(sums.Get(FabricNodeType::LEAF).nodes, 2u);
    EXPECT_EQ(sums.Get(FabricNodeType::SPINE).nodes, 1u);
    EXPECT_EQ(sums.Get(FabricNodeType::CORE).nodes, 0u);
    EXPECT_EQ(total.pfcPauseTx, pauseTx);
    EXPECT_EQ(total.pfcPauseRx, pauseRx);
    EXPECT_EQ(total.pausedTime, paused);
    EXPECT_EQ(total.ecnMarks, marks);
    EXPECT_EQ(sums.Get(FabricNodeType::LEAF).ecnMarks, leafMarks);
    EXPECT_EQ(total.xoffDecisions, xoff);
    EXPECT_EQ(total.cnpTx, cnpTx);
    EXPECT_EQ(total.cnpRx, cnpRx);
    // Only RoCE data is ECN-capable: every CE mark reached a NIC as a CE data packet, and
    // every CNP sent was received.
    EXPECT_EQ(total.ceRx, total.ecnMarks);
    EXPECT_EQ(total.cnpTx, total.cnpRx);
    // The incast congested the fabric: both ECN (hence CNPs) and PFC happened.
    EXPECT_GT(total.ecnMarks, 0u);
    EXPECT_GT(total.cnpTx, 0u);
    EXPECT_GT(total.xoffDecisions, 0u);
    // Every PFC frame sent was received; every switch pause came from an XOFF decision (one
    // frame per decision plus refreshes); hosts make no XOFF decisions here.
    EXPECT_EQ(total.pfcPauseTx, total.pfcPauseRx);
    EXPECT_GE(total.pfcPauseTx, total.xoffDecisions);
    EXPECT_EQ(sums.Get(FabricNodeType::GPU).xoffDecisions, 0u);
    // Per-tier sums add up to the total; a lossless run drops nothing.
    FabricTierCounters added;
    for (const auto& tier : sums.tiers)
    {
        added.Add(tier);
    }
    EXPECT_EQ(added.GetRows(), total.GetRows());
    EXPECT_EQ(total.GetSwitchDrops(), 0u);
    EXPECT_EQ(total.losslessDrops, 0u);
    // CSV rows: tier,counter,value; host/leaf/spine/total present, no core or nvswitch.
    std::ostringstream csv;
    sums.Print(csv);
    const std::string text = csv.str();
    EXPECT_EQ(text.rfind("tier,counter,value\n", 0), 0u);
    EXPECT_NE(text.find("host,cnp_tx," + std::to_string(cnpTx) + "\n"), std::string::npos);
    EXPECT_NE(text.find("total,ecn_marks," + std::to_string(marks) + "\n"), std::string::npos);
    EXPECT_NE(text.find("leaf,switch_drop:headroom_overflow,0\n"), std::string::npos);
    EXPECT_NE(text.find("spine,pfc_pause_tx,"), std::string::npos);
    EXPECT_EQ(text.find("core,"), std::string::npos);
    EXPECT_EQ(text.find("nvswitch,"), std::string::npos);
}

} // namespace
