/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One simulation across MPI processes (issue 40, items 3-4), what a build without MPI can
 * check: FabricPartition cuts fabrics only at switch-to-switch cables (units, contiguous
 * blocks, spines round-robin, Pod vs Leaf), refuses what cannot run (more processes than
 * units, an NVLink or host cable between processes, a zero-delay cable between processes) naming
 * the values; FabricTopologyHelper gives every node its system id and refuses a Systems
 * count the run does not have; FabricFrameCodec carries frames between processes bit-exactly;
 * PfcRemoteExchange unpacks the batches of one synchronization in the order of their senders,
 * whatever order MPI handed them over in, each frame at its own time and in its cable's order.
 * (The runs across processes themselves: tools/ci/mpi-test.sh, in the MPI build.)
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <random>

using namespace ns3;

namespace
{

using Cable = FabricPartition::Cable;

std::string
Name(uint32_t i)
{
    return "n" + std::to_string(i);
}

/// A two-tier Clos by node index: hosts 0..L*h-1 (h per leaf), leaves, then spines; every
/// leaf cabled to every spine.
std::vector<Cable>
TwoTier(uint32_t leaves, uint32_t perLeaf, uint32_t spines, Time upDelay = NanoSeconds(500))
{
    std::vector<Cable> c;
    const uint32_t hosts = leaves * perLeaf;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        c.push_back({h, hosts + h / perLeaf, FabricLinkTier::GPU_LEAF, MicroSeconds(1)});
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < spines; ++s)
        {
            c.push_back({hosts + l, hosts + leaves + s, FabricLinkTier::LEAF_SPINE, upDelay});
        }
    }
    return c;
}

TEST(FabricPartitionTest, LeafGroupsInContiguousBlocksAndSpinesRoundRobin)
{
    // 4 leaves x 8 hosts, 4 spines: 4 units with hosts; 2 systems take 2 racks each.
    const auto cables = TwoTier(4, 8, 4);
    FabricPartition p(40, 32, cables, PARTITION_BY_LEAF, 2, Name);
    EXPECT_EQ(p.GetGpuUnits(), 4u);
    for (uint32_t h = 0; h < 32; ++h)
    {
        EXPECT_EQ(p.GetSystem(h), h < 16 ? 0u : 1u) << h;
    }
    for (uint32_t l = 0; l < 4; ++l)
    {
        EXPECT_EQ(p.GetSystem(32 + l), l < 2 ? 0u : 1u);
    }
    for (uint32_t s = 0; s < 4; ++s)
    {
        EXPECT_EQ(p.GetSystem(36 + s), s % 2);
    }
    // Each leaf reaches the two spines of the other system: 4 x 2 crossing cables.
    EXPECT_EQ(p.GetCrossingCables(), 8u);
    EXPECT_EQ(p.GetLookahead(), NanoSeconds(500));
    EXPECT_EQ(p.GetNodeCount(0), 20u);
    EXPECT_EQ(p.GetNodeCount(1), 20u);
    // Host cables never cross, whatever the count of systems.
    for (uint32_t s = 1; s <= 4; ++s)
    {
        FabricPartition q(40, 32, cables, PARTITION_BY_LEAF, s, Name);
        for (const auto& c : cables)
        {
            if (c.tier == FabricLinkTier::GPU_LEAF)
            {
                EXPECT_EQ(q.GetSystem(c.a), q.GetSystem(c.b));
            }
        }
        // Leaves in blocks, spines round-robin: s = 3 gives leaves 0,0,1,2 and spines
        // 0,1,2,0, so 2 + 2 + 3 + 3 cables cross.
        const uint32_t crossing[] = {0, 0, 8, 10, 12};
        EXPECT_EQ(q.GetCrossingCables(), crossing[s]) << s;
    }
}

TEST(FabricPartitionTest, NvLinkServersKeepTheirLeavesTogether)
{
    // Rail-optimized: 4 servers x 2 GPUs, GPU g on rail leaf g of its scalable unit (2 SUs of 2
    // servers), one NVSwitch per server, one spine per rail. A server's NVLink ties both rail
    // leaves of its SU into one unit: 2 units.
    std::vector<Cable> c;
    const uint32_t gpus = 8;
    const uint32_t nv = 4;
    const uint32_t leafBase = gpus + nv; // 4 leaves: SU u rail r = 2u + r
    const uint32_t spineBase = leafBase + 4;
    for (uint32_t g = 0; g < gpus; ++g)
    {
        const uint32_t server = g / 2;
        const uint32_t su = server / 2;
        c.push_back({g, gpus + server, FabricLinkTier::NVLINK, NanoSeconds(150)});
        c.push_back({g, leafBase + 2 * su + g % 2, FabricLinkTier::GPU_LEAF, MicroSeconds(1)});
    }
    for (uint32_t l = 0; l < 4; ++l)
    {
        c.push_back({leafBase + l, spineBase + l % 2, FabricLinkTier::LEAF_SPINE, MicroSeconds(1)});
    }
    FabricPartition p(spineBase + 2, gpus, c, PARTITION_BY_LEAF, 2, Name);
    EXPECT_EQ(p.GetGpuUnits(), 2u);
    for (uint32_t g = 0; g < gpus; ++g)
    {
        EXPECT_EQ(p.GetSystem(g), g < 4 ? 0u : 1u);
        EXPECT_EQ(p.GetSystem(gpus + g / 2), p.GetSystem(g)) << "NVSwitch of gpu" << g;
    }
    EXPECT_EQ(p.GetSystem(leafBase + 1), 0u);
    EXPECT_EQ(p.GetSystem(leafBase + 2), 1u);
    // More processes than units: refused naming both counts.
    EXPECT_DEATH(FabricPartition(spineBase + 2, gpus, c, PARTITION_BY_LEAF, 3, Name),
                 "Systems 3 is more than the 2 units");
}

TEST(FabricPartitionTest, PodKeepsSpinesWithTheirPodInThreeTiers)
{
    // 2 pods x (2 leaves x 2 hosts, 2 spines), 2 cores: Leaf cuts leaf-spine cables, Pod only
    // spine-core ones.
    std::vector<Cable> c;
    const uint32_t hosts = 8;
    const uint32_t leaf = hosts;      // 4 leaves
    const uint32_t spine = hosts + 4; // 4 spines (2 per pod)
    const uint32_t core = hosts + 8;  // 2 cores
    for (uint32_t h = 0; h < hosts; ++h)
    {
        c.push_back({h, leaf + h / 2, FabricLinkTier::GPU_LEAF, MicroSeconds(1)});
    }
    for (uint32_t l = 0; l < 4; ++l)
    {
        for (uint32_t s = 0; s < 2; ++s)
        {
            c.push_back(
                {leaf + l, spine + 2 * (l / 2) + s, FabricLinkTier::LEAF_SPINE, NanoSeconds(300)});
        }
    }
    for (uint32_t s = 0; s < 4; ++s)
    {
        c.push_back({spine + s, core + s % 2, FabricLinkTier::SPINE_CORE, NanoSeconds(700)});
    }
    FabricPartition byPod(hosts + 10, hosts, c, PARTITION_BY_POD, 2, Name);
    EXPECT_EQ(byPod.GetGpuUnits(), 2u);
    for (uint32_t s = 0; s < 4; ++s)
    {
        EXPECT_EQ(byPod.GetSystem(spine + s), s / 2) << "spine" << s;
    }
    EXPECT_EQ(byPod.GetCrossingCables(), 2u); // each core joins one spine of the other pod
    EXPECT_EQ(byPod.GetLookahead(), NanoSeconds(700));
    EXPECT_EQ(byPod.GetLookahead(0), NanoSeconds(700));
    EXPECT_EQ(byPod.GetLookahead(1), NanoSeconds(700));
    FabricPartition byLeaf(hosts + 10, hosts, c, PARTITION_BY_LEAF, 4, Name);
    EXPECT_EQ(byLeaf.GetGpuUnits(), 4u);
    EXPECT_EQ(byLeaf.GetLookahead(), NanoSeconds(300));
}

TEST(FabricPartitionTest, RefusesWhatCannotRunAcrossProcesses)
{
    // A zero-delay cable between processes leaves ns-3's engine no lookahead.
    EXPECT_DEATH(FabricPartition(40, 32, TwoTier(4, 8, 4, Time(0)), PARTITION_BY_LEAF, 2, Name),
                 "leaf-spine cable n32-n37 joins systems 0 and 1 with a delay of 0 ns");
    // An explicit assignment that splits a host cable or an NVLink.
    const auto cables = TwoTier(2, 2, 1);
    std::vector<uint32_t> split{0, 1, 0, 1, 0, 1, 0};
    EXPECT_DEATH(FabricPartition(split, cables, 2, Name),
                 "gpu-leaf cable n1-n4 joins systems 1 and 0; NVLink and host cables must stay");
    std::vector<Cable> nvl{{0, 1, FabricLinkTier::NVLINK, NanoSeconds(150)}};
    EXPECT_DEATH(FabricPartition(std::vector<uint32_t>{0, 1}, nvl, 2, Name),
                 "gpu-nvswitch cable n0-n1 joins systems 0 and 1");
    EXPECT_DEATH(FabricPartition(std::vector<uint32_t>{0, 3}, nvl, 2, Name),
                 "n1 is assigned system 3; systems are 0..1");
    EXPECT_DEATH(FabricPartition(std::vector<uint32_t>{0, 0}, nvl, 2, Name),
                 "system 1 of 2 has no node");
    // A valid explicit assignment: racks apart, the spine with rack 1.
    FabricPartition ok(std::vector<uint32_t>{0, 0, 1, 1, 0, 1, 1}, cables, 2, Name);
    EXPECT_EQ(ok.GetCrossingCables(), 1u);
    // Each process's lookahead is its own smallest crossing delay.
    std::vector<Cable> mixed = TwoTier(2, 1, 2);
    mixed[2].delay = NanoSeconds(200); // leaf0-spine0
    FabricPartition lk(std::vector<uint32_t>{0, 1, 0, 1, 0, 1}, mixed, 2, Name);
    EXPECT_EQ(lk.GetCrossingCables(), 2u); // leaf0-spine1, leaf1-spine0
    EXPECT_EQ(lk.GetLookahead(), NanoSeconds(500));
    EXPECT_EQ(lk.GetLookahead(0), NanoSeconds(500));
    EXPECT_EQ(lk.GetLookahead(1), NanoSeconds(500));
    FabricPartition lk2(std::vector<uint32_t>{0, 1, 0, 1, 1, 0}, mixed, 2, Name);
    EXPECT_EQ(lk2.GetLookahead(), NanoSeconds(200));
}

class FabricPartitionTopologyTest : public test::SimTest
{
};

TEST_F(FabricPartitionTopologyTest, TheHelperNamesItsSystemsAndRefusesAnotherCount)
{
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(8));
    t->SetAttribute("GpusPerServer", UintegerValue(1));
    t->SetAttribute("NvLink", BooleanValue(false));
    t->SetAttribute("ServersPerRack", UintegerValue(2));
    t->SetAttribute("Spines", UintegerValue(2));
    t->Install();
    // One process: every node is system 0, and the partition says so.
    EXPECT_EQ(t->GetPartition().GetSystems(), 1u);
    EXPECT_EQ(t->GetPartition().GetCrossingCables(), 0u);
    EXPECT_EQ(t->GetPartition().GetSystemOfNode().size(), 8u + 4u + 2u);
    for (uint32_t r = 0; r < 8; ++r)
    {
        EXPECT_EQ(t->GetRank(r)->GetSystemId(), 0u);
        EXPECT_TRUE(FabricMpi::IsLocal(t->GetRank(r)));
    }
    EXPECT_FALSE(FabricMpi::IsEnabled());
    EXPECT_EQ(FabricMpi::GetSize(), 1u);
    EXPECT_EQ(FabricMpi::Gather("abc"), "abc");
    EXPECT_EQ(FabricMpi::Sum(7), 7u);

    auto u = CreateObject<ClosTopologyHelper>();
    u->SetAttribute("Servers", UintegerValue(8));
    u->SetAttribute("GpusPerServer", UintegerValue(1));
    u->SetAttribute("NvLink", BooleanValue(false));
    u->SetAttribute("Systems", UintegerValue(2));
    EXPECT_DEATH(u->Install(), "Systems 2 but this run has 1 MPI process; set Systems to 0");
}

TEST(FabricPartitionTest, FramesCrossProcessesBitExactly)
{
    std::mt19937 gen(7);
    std::uniform_int_distribution<int> byte(0, 255);
    uint8_t head[FabricFrame::HEAD_CAPACITY];
    for (auto& b : head)
    {
        b = static_cast<uint8_t>(byte(gen));
    }
    // A NIC's frame: headers then zeros, no packet; it stays without one.
    FabricFrame zero(head, 78, 4096 + 4);
    zero.SetSizeDiscount(18);
    Ptr<Packet> bytes = FabricFrameCodec::Encode(zero);
    EXPECT_EQ(bytes->GetSize(), FabricFrameCodec::PREFIX_BYTES + 78);
    FabricFrame z = FabricFrameCodec::Decode(bytes);
    EXPECT_FALSE(z.HasPacket());
    EXPECT_EQ(z.GetSize(), zero.GetSize());
    EXPECT_EQ(z.GetSizeDiscount(), 18u);
    EXPECT_EQ(z.GetChargedSize(), zero.GetChargedSize());
    ASSERT_EQ(z.GetHeadBytes(), 78u);
    EXPECT_EQ(0, std::memcmp(z.GetHead(), head, 78));
    EXPECT_FALSE(zero.IsEmpty()); // encoding leaves the frame as it was

    // Observed (given a packet of headers and zeros): it still travels as a zero body.
    FabricFrame seen(head, 78, 1000);
    EXPECT_EQ(seen.GetPacket()->GetSize(), 1078u);
    EXPECT_EQ(FabricFrameCodec::Encode(seen)->GetSize(), FabricFrameCodec::PREFIX_BYTES + 78);
    FabricFrame s2 = FabricFrameCodec::Decode(FabricFrameCodec::Encode(seen));
    EXPECT_FALSE(s2.HasPacket());
    std::vector<uint8_t> a(1078);
    std::vector<uint8_t> b(1078);
    seen.CopyData(a.data(), 1078);
    s2.CopyData(b.data(), 1078);
    EXPECT_EQ(a, b);

    // A frame with a packet whose head was rewritten (a switch hop): every byte arrives.
    std::vector<uint8_t> wire(1500);
    for (auto& b : wire)
    {
        b = static_cast<uint8_t>(byte(gen));
    }
    FabricFrame full(Create<Packet>(wire.data(), wire.size()));
    full.LoadHead(64);
    uint8_t eth[14];
    for (auto& b : eth)
    {
        b = static_cast<uint8_t>(byte(gen));
    }
    ASSERT_TRUE(full.ReplaceHead(14, eth, 14));
    std::vector<uint8_t> expected(1500);
    full.CopyData(expected.data(), 1500);
    FabricFrame f = FabricFrameCodec::Decode(FabricFrameCodec::Encode(full));
    EXPECT_TRUE(f.HasPacket());
    EXPECT_EQ(f.GetSize(), 1500u);
    EXPECT_EQ(f.GetHeadBytes(), 64u);
    std::vector<uint8_t> got(1500);
    f.CopyData(got.data(), 1500);
    EXPECT_EQ(got, expected);
    EXPECT_EQ(0, std::memcmp(got.data(), eth, 14));

    // Anything else is a defect between processes: refused naming the fault.
    uint8_t junk[13] = {0xAF, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0};
    EXPECT_DEATH(FabricFrameCodec::Decode(Create<Packet>(junk, 13)), "magic 175 version 2");
    junk[1] = 1;
    EXPECT_DEATH(FabricFrameCodec::Decode(Create<Packet>(junk, 13)),
                 "frame 3 B, discount 0 B, length 13 B where 12 were expected");
    EXPECT_DEATH(FabricFrameCodec::Decode(Create<Packet>(junk, 5)), "5 bytes, fewer than the 9");
}

/// Big-endian \p bytes of \p v appended to \p out.
void
PutBe(std::vector<uint8_t>& out, uint64_t v, uint32_t bytes)
{
    for (uint32_t i = bytes; i-- > 0;)
    {
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
}

/// A batch from process \p source: one record per (arrival ps, frame size) for \p dst.
Ptr<Packet>
Batch(uint32_t source,
      Ptr<PfcNetDevice> dst,
      const std::vector<std::pair<int64_t, uint32_t>>& frames)
{
    std::vector<uint8_t> out;
    PutBe(out, source, PfcRemoteExchange::BATCH_PREFIX_BYTES);
    for (const auto& [ps, size] : frames)
    {
        uint8_t head[14] = {};
        head[12] = static_cast<uint8_t>(size >> 8); // the size, readable in the EtherType
        head[13] = static_cast<uint8_t>(size);
        PfcRemoteExchange::AppendRecord(out,
                                        dst,
                                        PicoSeconds(ps),
                                        CausalKey(),
                                        FabricFrame(head, 14, size - 14));
    }
    return Create<Packet>(out.data(), static_cast<uint32_t>(out.size()));
}

TEST_F(FabricPartitionTopologyTest, BatchesFromOtherProcessesArriveInTheirOrderAtTheirTimes)
{
    // Process 1's and process 2's batches of one synchronization, handed over in the "wrong"
    // order (2 before 1): unpacked in the order of their senders, every frame arrives at its
    // own time on its cable, and a cable's frames keep their order.
    NodeContainer nodes;
    nodes.Create(3);
    PfcHelper pfc;
    pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NetDeviceContainer fromA = pfc.Install(nodes.Get(0), nodes.Get(2));
    NetDeviceContainer fromB = pfc.Install(nodes.Get(1), nodes.Get(2));
    auto dstA = DynamicCast<PfcNetDevice>(fromA.Get(1));
    auto dstB = DynamicCast<PfcNetDevice>(fromB.Get(1));
    std::vector<std::pair<int64_t, std::string>> arrivals;
    auto record = [&arrivals](std::string port, Ptr<const Packet> p) {
        uint8_t head[14];
        p->CopyData(head, 14);
        arrivals.emplace_back(Simulator::Now().GetPicoSeconds(),
                              port + ":" + std::to_string((head[12] << 8) | head[13]));
    };
    dstA->TraceConnectWithoutContext("PhyRxEnd",
                                     MakeCallback(+[](decltype(record)* r, Ptr<const Packet> p) {
                                         (*r)("a", p);
                                     }).Bind(&record));
    dstB->TraceConnectWithoutContext("PhyRxEnd",
                                     MakeCallback(+[](decltype(record)* r, Ptr<const Packet> p) {
                                         (*r)("b", p);
                                     }).Bind(&record));
    auto exchange = CreateObject<PfcRemoteExchange>();
    Simulator::Schedule(NanoSeconds(100), [&]() {
        exchange->Receive(Batch(2, dstB, {{500000, 200}, {600000, 300}}));
        exchange->Receive(Batch(1, dstA, {{500000, 100}, {700000, 400}}));
        exchange->Receive(Batch(1, dstA, {{800000, 500}}));
    });
    Simulator::Run();
    Simulator::Destroy();
    const std::vector<std::pair<int64_t, std::string>> expected{{500000, "a:100"},
                                                                {500000, "b:200"},
                                                                {600000, "b:300"},
                                                                {700000, "a:400"},
                                                                {800000, "a:500"}};
    EXPECT_EQ(arrivals, expected);
    const uint8_t bad[6] = {0, 0, 0, 1, 0, 0};
    Ptr<Packet> truncated = Create<Packet>(bad, 6);
    EXPECT_DEATH(
        {
            exchange->Receive(truncated);
            Simulator::Run();
        },
        "ends inside a record");
}

} // namespace
