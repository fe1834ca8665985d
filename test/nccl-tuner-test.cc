/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NCCL's protocols and tuning model: the protocols' framing and steps, the tuner's latency and
 * bandwidth tables and choices on the DGX H100 4 x 8 system hand-computed from NCCL's formulas
 * (src/graph/tuning.cc), channel counts per size, forced choices that cannot run, the lanes
 * that make a channel's sends run in order, and the 8-GPU ring ceiling.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;

namespace
{

constexpr uint64_t KiB = 1024;
constexpr uint64_t MiB = 1024 * KiB;

/// The shipped log's cluster: 4 DGX H100 (NVSwitch, 370.8 GB/s NVLink per GPU), 8 x 400 Gb/s
/// NICs per server.
NcclSystem
DgxH100(uint32_t nodes)
{
    NcclSystem s;
    s.nRanks = 8 * nodes;
    s.nNodes = nodes;
    s.nvlink = true;
    s.nvswitch = true;
    s.intraBw = 370.8;
    s.nicBw = 50.0;
    s.nicsPerNode = 8;
    return s;
}

Ptr<NcclTuner>
Tuner(const NcclSystem& s)
{
    Ptr<NcclTuner> t = CreateObject<NcclTuner>();
    t->Configure(s);
    return t;
}

} // namespace

TEST(NcclProtocol, FramingStepsAndWireBytes)
{
    const NcclProtocolInfo& ll = GetNcclProtocolInfo(NcclProtocol::LL);
    EXPECT_EQ(ll.GetStepBytes(), 64 * KiB); // 512 KiB buffer / 8 steps
    EXPECT_EQ(ll.GetStepDataBytes(), 32 * KiB);
    EXPECT_EQ(ll.GetWireBytes(8), 16u);
    EXPECT_EQ(ll.GetWireBytes(9), 32u); // a partial line is a whole line
    EXPECT_EQ(ll.GetWireBytes(MiB), 2 * MiB);
    EXPECT_DOUBLE_EQ(ll.GetEfficiency(), 0.5);
    const NcclProtocolInfo& ll128 = GetNcclProtocolInfo(NcclProtocol::LL128);
    EXPECT_EQ(ll128.GetStepBytes(), 614400u);
    EXPECT_EQ(ll128.GetStepDataBytes(), 576000u);
    EXPECT_EQ(ll128.GetWireBytes(120), 128u);
    EXPECT_EQ(ll128.GetWireBytes(121), 256u);
    EXPECT_DOUBLE_EQ(ll128.GetEfficiency(), 0.9375);
    const NcclProtocolInfo& simple = GetNcclProtocolInfo(NcclProtocol::SIMPLE);
    EXPECT_EQ(simple.GetStepBytes(), 512 * KiB);
    EXPECT_EQ(simple.GetWireBytes(12345), 12345u);
    // A message in pieces: each piece framed on its own (LL: 20 B = 16 + 4 -> 32 + 16).
    EXPECT_EQ(ll.GetWireBytes(20, 16), 32u + 16u);
    EXPECT_EQ(ll128.GetWireBytes(2 * 576000 + 1, 576000), 2 * 614400u + 128u);
    NcclProtocol p;
    EXPECT_TRUE(NcclProtocolFromName("ll128", &p));
    EXPECT_EQ(p, NcclProtocol::LL128);
    EXPECT_TRUE(NcclProtocolFromName("SIMPLE", &p));
    EXPECT_EQ(p, NcclProtocol::SIMPLE);
    EXPECT_FALSE(NcclProtocolFromName("ll256", &p));
}

TEST(NcclTuner, GraphLatencyAndBandwidthAsNcclComputesThem)
{
    Ptr<NcclTuner> t = Tuner(DgxH100(4));
    // One ring per NIC at 48 GB/s (sm90's fastest inter-node speed under 50), doubled: 16 x 24.
    EXPECT_EQ(t->GetGraph(NcclAlgorithm::RING).nChannels, 16u);
    EXPECT_DOUBLE_EQ(t->GetGraph(NcclAlgorithm::RING).bwInter, 24.0);
    const CollectiveOp ar = CollectiveOp::ALL_REDUCE;
    // Tree/LL: 6.8 + 2 x ((8 - 1) x 0.6 + log2(4) x 5.0) = 35.2 us.
    EXPECT_NEAR(t->GetLatencyUs(ar, NcclAlgorithm::TREE, NcclProtocol::LL), 35.2, 1e-9);
    // Tree/LL128: 14 + 2 x (7 x 1.25 + 2 x 8.5) = 65.5 us.
    EXPECT_NEAR(t->GetLatencyUs(ar, NcclAlgorithm::TREE, NcclProtocol::LL128), 65.5, 1e-9);
    // Ring/Simple: 8.4 + (62 - 6) x max(3.4, 3 x 1.0) + 6 x 14 = 282.8 us.
    EXPECT_NEAR(t->GetLatencyUs(ar, NcclAlgorithm::RING, NcclProtocol::SIMPLE), 282.8, 1e-9);
    // Ring/LL: 6.6 + 56 x max(0.6, 1.0) + 6 x 2.7 = 78.8 us.
    EXPECT_NEAR(t->GetLatencyUs(ar, NcclAlgorithm::RING, NcclProtocol::LL), 78.8, 1e-9);
    // Ring/Simple: 16 x 24 = 384 GB/s bus, x 32 / 62 algorithm.
    EXPECT_NEAR(t->GetBandwidthGBps(ar, NcclAlgorithm::RING, NcclProtocol::SIMPLE),
                384.0 * 32 / 62,
                1e-9);
    // Ring/LL: min(llMaxBw 20.4 (Intel, > 2 nodes), 384 / 2) x 32 / 62.
    EXPECT_NEAR(t->GetBandwidthGBps(ar, NcclAlgorithm::RING, NcclProtocol::LL),
                20.4 * 32 / 62,
                1e-9);
    // Tree/LL128: min(384 x 0.92, 16 x 36) x 120/128, at most 16 x 29; half of it.
    EXPECT_NEAR(t->GetBandwidthGBps(ar, NcclAlgorithm::TREE, NcclProtocol::LL128),
                384.0 * 0.92 * 120 / 128 / 2,
                1e-9);
    // 1 MiB on Tree/LL128: tree correction 0.6 at log2(1 MiB / 64) = 14.
    EXPECT_NEAR(t->GetTimeUs(ar, NcclAlgorithm::TREE, NcclProtocol::LL128, MiB),
                65.5 + double(MiB) / (1000 * 165.6 * 0.6),
                1e-6);
    // 1 GiB on Ring/Simple: the ring's plateau factor 1.4 on the latency.
    EXPECT_NEAR(t->GetTimeUs(ar, NcclAlgorithm::RING, NcclProtocol::SIMPLE, 1024 * MiB),
                282.8 * 1.4 + double(1024 * MiB) / (1000 * 384.0 * 32 / 62),
                1e-6);
    // The table prints like NCCL's TUNING output.
    std::ostringstream os;
    t->Print(os);
    EXPECT_NE(os.str().find("AllReduce |    35.2/   10.2 |    65.5/  165.6 |"), std::string::npos)
        << os.str();
}

TEST(NcclTuner, ChoosesLikeNcclPerSize)
{
    Ptr<NcclTuner> t = Tuner(DgxH100(4));
    const CollectiveOp ar = CollectiveOp::ALL_REDUCE;
    auto choice = [&](uint64_t bytes) {
        NcclChoice c = t->Select(ar, bytes);
        return std::string(NcclAlgorithmName(c.algorithm)) + "/" + NcclProtocolName(c.protocol);
    };
    EXPECT_EQ(choice(64 * KiB), "Tree/LL");
    EXPECT_EQ(choice(MiB), "Tree/LL128");
    EXPECT_EQ(choice(64 * MiB), "Ring/LL128");
    EXPECT_EQ(choice(1024 * MiB), "Ring/Simple");
    // The minimum over every available pair, as NCCL's topoGetAlgoInfo.
    for (uint64_t bytes = 1024; bytes <= 4096 * MiB; bytes *= 4)
    {
        NcclChoice c = t->Select(ar, bytes);
        for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
        {
            for (uint32_t p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
            {
                double other = t->GetTimeUs(ar, NcclAlgorithm(a), NcclProtocol(p), bytes);
                if (other >= 0)
                {
                    EXPECT_LE(c.predictedUs, other) << bytes << " B";
                }
            }
        }
    }
    // Forced: NCCL_ALGO=Ring, NCCL_PROTO=Simple.
    NcclChoice forced = t->Select(ar,
                                  64 * KiB,
                                  1u << uint32_t(NcclAlgorithm::RING),
                                  1u << uint32_t(NcclProtocol::SIMPLE));
    EXPECT_EQ(forced.algorithm, NcclAlgorithm::RING);
    EXPECT_EQ(forced.protocol, NcclProtocol::SIMPLE);
    // AllGather has only the ring here; AlltoAll is point-to-point with Simple.
    EXPECT_EQ(t->Select(CollectiveOp::ALL_GATHER, MiB).algorithm, NcclAlgorithm::RING);
    EXPECT_EQ(t->Select(CollectiveOp::ALL_TO_ALL, MiB).protocol, NcclProtocol::SIMPLE);
}

TEST(NcclTuner, ChannelsShrinkForSmallSizes)
{
    Ptr<NcclTuner> t = Tuner(DgxH100(4));
    // Simple: a channel per 512 threads x 64 B = 32 KiB.
    EXPECT_EQ(t->GetChannels(NcclAlgorithm::RING, NcclProtocol::SIMPLE, MiB), 16u);
    EXPECT_EQ(t->GetChannels(NcclAlgorithm::RING, NcclProtocol::SIMPLE, 256 * KiB), 8u);
    EXPECT_EQ(t->GetChannels(NcclAlgorithm::RING, NcclProtocol::SIMPLE, 1000), 1u);
    // Ring/LL: 512 threads x 8 B x 32 ranks = 128 KiB per channel.
    EXPECT_EQ(t->GetChannels(NcclAlgorithm::RING, NcclProtocol::LL, MiB), 8u);
    // One node: the NVLink graph, 370.8 GB/s at 60 GB/s = 6 channels, doubled at 30.
    Ptr<NcclTuner> one = Tuner(DgxH100(1));
    EXPECT_EQ(one->GetGraph(NcclAlgorithm::RING).nChannels, 12u);
    EXPECT_DOUBLE_EQ(one->GetGraph(NcclAlgorithm::RING).bwIntra, 30.0);
}

TEST(NcclTunerDeathTest, ChoicesThatCannotRunAreRefusedNamingWhy)
{
    Ptr<NcclTuner> t = Tuner(DgxH100(4));
    std::string why;
    EXPECT_FALSE(
        t->IsAvailable(CollectiveOp::ALL_REDUCE, NcclAlgorithm::NVLS, NcclProtocol::SIMPLE, &why));
    EXPECT_NE(why.find("NVLS"), std::string::npos) << why;
    NcclSystem pci = DgxH100(2);
    pci.nvlink = false;
    pci.nvswitch = false;
    pci.intraBw = 24;
    Ptr<NcclTuner> p = Tuner(pci);
    EXPECT_FALSE(
        p->IsAvailable(CollectiveOp::ALL_REDUCE, NcclAlgorithm::RING, NcclProtocol::LL128, &why));
    EXPECT_NE(why.find("LL128 needs NVLink"), std::string::npos) << why;
    EXPECT_DEATH(p->Select(CollectiveOp::ALL_REDUCE, MiB, 1u << uint32_t(NcclAlgorithm::NVLS), ~0u),
                 "no algorithm/protocol can run AllReduce of 1048576 B on 16 ranks.*NVLS needs "
                 "NVSwitch servers");
    EXPECT_DEATH(p->Select(CollectiveOp::ALL_TO_ALL, MiB, ~0u, 1u << uint32_t(NcclProtocol::LL128)),
                 "AlltoAll is point-to-point in NCCL");
    NcclSystem bad = DgxH100(4);
    bad.nNodes = 40;
    EXPECT_DEATH(Tuner(bad), "40 nodes for 32 ranks is invalid");
    CollectiveCommunicator::AlgorithmChoice a;
    EXPECT_TRUE(CollectiveCommunicator::ParseAlgorithm("NVLSTree", &a));
    EXPECT_EQ(a, CollectiveCommunicator::ALGORITHM_NVLS_TREE);
    EXPECT_FALSE(CollectiveCommunicator::ParseAlgorithm("collnet", &a));
    CollectiveCommunicator::ProtocolChoice pc;
    EXPECT_TRUE(CollectiveCommunicator::ParseProtocol("LL", &pc));
    EXPECT_EQ(pc, CollectiveCommunicator::PROTOCOL_LL);
    EXPECT_FALSE(CollectiveCommunicator::ParseProtocol("fast", &pc));
}

TEST(CollectiveLanes, SendsOfALaneAreChainedInOrder)
{
    CollectiveSchedule s(3);
    s.AddTransfer(0, 1, 0, 100, 0, std::vector<uint32_t>{}, 7);
    s.AddTransfer(0, 2, 0, 100, 0, std::vector<uint32_t>{});    // no lane
    s.AddTransfer(0, 2, 1, 100, 1, std::vector<uint32_t>{}, 7); // same lane, other peer
    s.AddTransfer(0, 1, 0, 100, 2, std::vector<uint32_t>{}, 8);
    s.Finalize();
    const auto& sends = s.GetProgram(0).sends;
    EXPECT_EQ(sends[0].lanePrev, COLLECTIVE_NONE);
    EXPECT_EQ(sends[0].laneNext, 2u);
    EXPECT_EQ(sends[1].lanePrev, COLLECTIVE_NONE);
    EXPECT_EQ(sends[1].laneNext, COLLECTIVE_NONE);
    EXPECT_EQ(sends[2].lanePrev, 0u);
    EXPECT_EQ(sends[2].laneNext, COLLECTIVE_NONE);
    EXPECT_EQ(sends[3].lanePrev, COLLECTIVE_NONE);
}

TEST(NcclTestsComment, ChoiceRoundTripsInTheCommentColumn)
{
    NcclTestsRow row;
    row.sizeBytes = 1048576;
    row.count = 262144;
    row.type = "float";
    row.redop = "sum";
    row.outOfPlace.timeUs = 82.17;
    row.inPlace = row.outOfPlace;
    row.comment = "tree/LL128 16ch";
    std::ostringstream os;
    NcclTestsFormat::Write(os, {row});
    EXPECT_NE(os.str().find("  # tree/LL128 16ch\n"), std::string::npos) << os.str();
    std::istringstream in(os.str());
    std::vector<NcclTestsRow> rows;
    std::string error;
    ASSERT_TRUE(NcclTestsFormat::Parse(in, "written", rows, &error)) << error;
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].comment, "tree/LL128 16ch");
    EXPECT_DOUBLE_EQ(rows[0].outOfPlace.timeUs, 82.17);
}

class NcclServerTest : public test::SimTest
{
};

TEST_F(NcclServerTest, EightGpuRingReachesTheNvLinkCeiling)
{
    // One DGX H100: the ring's busbw on 8 GPUs is about 370 GB/s (NCCL's sm90 NVLink model,
    // 18 x 20.6 GB/s; measured ring ceilings on H100 are 360-370 GB/s). Within 5 %.
    Ptr<RailOptimizedTopologyHelper> topo = CreateObject<RailOptimizedTopologyHelper>();
    topo->SetAttribute("Servers", UintegerValue(1));
    topo->Install();
    CollectiveHelper coll;
    coll.SetTopology(topo);
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
    coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("server");
    EXPECT_EQ(comm->GetTuner()->GetSystem().nNodes, 1u);
    comm->Enqueue(CollectiveOp::ALL_REDUCE, 256 * MiB);
    Simulator::Run();
    ASSERT_EQ(comm->GetRecords().size(), 1u);
    const CollectiveRecord& r = comm->GetRecords()[0];
    ASSERT_TRUE(r.completed) << r.reason;
    EXPECT_EQ(r.algorithm, "ring");
    EXPECT_EQ(r.protocol, "Simple");
    EXPECT_NEAR(r.busBw / 370.0, 1.0, 0.05) << r.busBw << " GB/s";
}
