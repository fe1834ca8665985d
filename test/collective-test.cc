/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NCCL-style collectives over RoCEv2: completion times against the alpha-beta formulas on an
 * uncontended fabric, busbw approaching the NIC bandwidth, byte conservation for every
 * algorithm, padding, QPs per connection, concurrent jobs on a shared fabric, training
 * iterations, failure reporting (cut link, watchdog), rail locality on a rail-optimized
 * topology, and bad input.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>

using namespace ns3;

namespace
{

Ipv4Address
Ip(uint32_t i)
{
    return Ipv4Address(0x0a000001 + i);
}

constexpr uint64_t KiB = 1024;
/// A chunk at least any step segment: every step is one store-and-forward transfer.
constexpr uint64_t STORE_AND_FORWARD = 1ull << 50;
constexpr uint64_t MiB = 1024 * KiB;
constexpr uint64_t GiB = 1024 * MiB;

/// RoCEv2 per-packet overhead on the wire: ICRC 4 + BTH 12 + UDP 8 + IPv4 20 + Ethernet 14 +
/// FCS 4 + preamble 8 + IFG 12 (see roce-nic-test).
constexpr double ROCE_OVERHEAD = 82;

/// Hosts with RoceNics on one big switch (or on two leaves), and a CollectiveHelper.
class CollectiveTest : public test::SimTest
{
  protected:
    /// \p n hosts on one switch: no contention for permutation traffic.
    void Build(uint32_t n)
    {
        hosts.Create(n);
        NodeContainer sw(1);
        PfcHelper pfc;
        pfc.SetDeviceAttribute("DataRate", DataRateValue(rate));
        pfc.SetChannelAttribute("Delay", TimeValue(delay));
        for (uint32_t i = 0; i < n; ++i)
        {
            ports.push_back(DynamicCast<PfcNetDevice>(pfc.Install(hosts.Get(i), sw.Get(0)).Get(0)));
        }
        Ptr<FabricSwitch> fs = switchHelper.Install(sw.Get(0));
        for (uint32_t i = 0; i < n; ++i)
        {
            fs->GetForwardingTable()->SetRoute(Ip(i), {i});
            nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], Ip(i)));
        }
        fs->AssignStreams(12);
        switches.push_back(fs);
        coll.SetNics(nics);
        coll.AssignStreams(20);
    }

    /// Two leaves of \p perLeaf hosts joined by one cable (the shared bottleneck).
    void BuildTwoLeaves(uint32_t perLeaf)
    {
        uint32_t n = 2 * perLeaf;
        hosts.Create(n);
        NodeContainer leaves(2);
        PfcHelper pfc;
        pfc.SetDeviceAttribute("DataRate", DataRateValue(rate));
        pfc.SetChannelAttribute("Delay", TimeValue(delay));
        for (uint32_t i = 0; i < n; ++i)
        {
            ports.push_back(DynamicCast<PfcNetDevice>(
                pfc.Install(hosts.Get(i), leaves.Get(i / perLeaf)).Get(0)));
        }
        pfc.Install(leaves.Get(0), leaves.Get(1)); // port perLeaf on both leaves
        for (uint32_t l = 0; l < 2; ++l)
        {
            Ptr<FabricSwitch> fs = switchHelper.Install(leaves.Get(l));
            for (uint32_t i = 0; i < n; ++i)
            {
                uint32_t port = i / perLeaf == l ? i % perLeaf : perLeaf;
                fs->GetForwardingTable()->SetRoute(Ip(i), {port});
            }
            fs->AssignStreams(12 + l);
            switches.push_back(fs);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], Ip(i)));
        }
        coll.SetNics(nics);
        coll.AssignStreams(20);
    }

    /// Configure the alpha-beta setting: one channel, store-and-forward steps.
    void AlphaBetaSetting()
    {
        coll.SetCommunicatorAttribute("Channels", UintegerValue(1));
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
        coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
        coll.SetCommunicatorAttribute("ChunkSize", UintegerValue(STORE_AND_FORWARD));
    }

    /// Payload bandwidth of one NIC after RoCEv2 header overhead, bytes/s (the "beta").
    double Beta() const
    {
        double mtu = nics[0]->GetMtu();
        return rate.GetBitRate() / 8.0 * mtu / (mtu + ROCE_OVERHEAD);
    }

    /// Per-step latency ("alpha"): the software step latency charged (NCCL's minus the wire) + two
    /// cable delays + the store-and-forward of the step's last packet at the switch.
    double Alpha(Ptr<CollectiveApplication> app, uint64_t stepBytes) const
    {
        double last = std::min<double>(stepBytes, nics[0]->GetMtu()) + ROCE_OVERHEAD;
        return app->GetCommunicator()
                   ->Choose(CollectiveOp::ALL_REDUCE, 1024)
                   .networkLatency.GetSeconds() +
               2 * delay.GetSeconds() + last * 8 / rate.GetBitRate();
    }

    /// Alpha-beta completion time (REFERENCE "Collectives") plus the base latency, seconds.
    double AlphaBeta(Ptr<CollectiveCommunicator> comm, CollectiveOp op, uint64_t bytes) const
    {
        double p = comm->GetSize();
        double steps = op == CollectiveOp::ALL_REDUCE ? 2 * (p - 1) : p - 1;
        double stepBytes = bytes / p;
        Ptr<CollectiveApplication> app = comm->GetApplication(0);
        return app->GetCommunicator()
                   ->GetTuner()
                   ->GetBaseLatency(NcclAlgorithm::RING, NcclProtocol::SIMPLE)
                   .GetSeconds() +
               steps * Alpha(app, static_cast<uint64_t>(stepBytes)) +
               steps / p * double(bytes) / Beta();
    }

    /// Sum of the data bytes received by every QP of a NIC (RoCE responder counters).
    static uint64_t NicRxBytes(Ptr<RoceNic> nic)
    {
        UintegerValue first;
        nic->GetAttribute("FirstQpn", first);
        uint64_t sum = 0;
        for (uint32_t i = 0; i < nic->GetNQps(); ++i)
        {
            sum += nic->GetQp(first.Get() + i)->GetCounters().rxDataBytes;
        }
        return sum;
    }

    /// Run one collective alone and return its record.
    CollectiveRecord RunOne(Ptr<CollectiveCommunicator> comm,
                            CollectiveOp op,
                            uint64_t bytes,
                            uint32_t root = 0)
    {
        size_t before = comm->GetRecords().size();
        comm->Enqueue(op, bytes, root);
        Simulator::Run();
        EXPECT_EQ(comm->GetRecords().size(), before + 1);
        return comm->GetRecords().back();
    }

    DataRate rate{"400Gbps"};
    Time delay{MicroSeconds(1)};
    NodeContainer hosts;
    std::vector<Ptr<PfcNetDevice>> ports;
    std::vector<Ptr<FabricSwitch>> switches;
    std::vector<Ptr<RoceNic>> nics;
    SwitchHelper switchHelper;
    RoceNicHelper nicHelper;
    CollectiveHelper coll;
};

// ---- alpha-beta -------------------------------------------------------------------------------

/// One alpha-beta case.
struct AlphaBetaCase
{
    CollectiveOp op; //!< operation
    uint32_t ranks;  //!< ranks
    uint64_t bytes;  //!< size
};

/// \return "AllReduce_8ranks_1MiB" style name of a case
std::string
Describe(const AlphaBetaCase& c)
{
    uint64_t b = c.bytes;
    std::string size = b >= GiB   ? std::to_string(b / GiB) + "GiB"
                       : b >= MiB ? std::to_string(b / MiB) + "MiB"
                                  : std::to_string(b / KiB) + "KiB";
    return std::string(CollectiveOpName(c.op)) + "_" + std::to_string(c.ranks) + "ranks_" + size;
}

/// gtest printer (readable ctest names).
void
PrintTo(const AlphaBetaCase& c, std::ostream* os)
{
    *os << Describe(c);
}

std::string
CaseName(const ::testing::TestParamInfo<AlphaBetaCase>& info)
{
    return Describe(info.param);
}

class CollectiveAlphaBetaTest : public CollectiveTest,
                                public ::testing::WithParamInterface<AlphaBetaCase>
{
};

TEST_P(CollectiveAlphaBetaTest, CompletionTimeMatchesTheFormulaWithin2Percent)
{
    const AlphaBetaCase& c = GetParam();
    Build(c.ranks);
    AlphaBetaSetting();
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    CollectiveRecord rec = RunOne(comm, c.op, c.bytes);
    ASSERT_TRUE(rec.completed) << rec.reason;
    double measured = rec.GetDuration().GetSeconds();
    double expected = AlphaBeta(comm, c.op, c.bytes);
    EXPECT_NEAR(measured / expected, 1.0, 0.02)
        << "measured " << measured * 1e6 << " us, alpha-beta " << expected * 1e6 << " us";
    std::cout << "  [alpha-beta] " << CollectiveOpName(c.op) << " " << c.ranks << " ranks "
              << c.bytes << " B: measured " << measured * 1e6 << " us, formula " << expected * 1e6
              << " us (" << 100 * (measured / expected - 1) << " %)\n";
}

INSTANTIATE_TEST_SUITE_P(
    Ring,
    CollectiveAlphaBetaTest,
    ::testing::Values(AlphaBetaCase{CollectiveOp::ALL_REDUCE, 8, 1 * KiB},
                      AlphaBetaCase{CollectiveOp::ALL_REDUCE, 8, 1 * MiB},
                      AlphaBetaCase{CollectiveOp::ALL_REDUCE, 8, 256 * MiB},
                      AlphaBetaCase{CollectiveOp::ALL_REDUCE, 32, 1 * KiB},
                      AlphaBetaCase{CollectiveOp::ALL_REDUCE, 32, 4 * MiB},
                      AlphaBetaCase{CollectiveOp::ALL_REDUCE, 32, 64 * MiB},
                      AlphaBetaCase{CollectiveOp::ALL_REDUCE, 256, 1 * KiB},
                      AlphaBetaCase{CollectiveOp::ALL_REDUCE, 256, 4 * MiB},
                      AlphaBetaCase{CollectiveOp::ALL_GATHER, 8, 1 * KiB},
                      AlphaBetaCase{CollectiveOp::ALL_GATHER, 8, 1 * GiB},
                      AlphaBetaCase{CollectiveOp::ALL_GATHER, 32, 16 * MiB},
                      AlphaBetaCase{CollectiveOp::ALL_GATHER, 256, 1 * MiB},
                      AlphaBetaCase{CollectiveOp::REDUCE_SCATTER, 8, 64 * MiB},
                      AlphaBetaCase{CollectiveOp::REDUCE_SCATTER, 32, 1 * KiB},
                      AlphaBetaCase{CollectiveOp::REDUCE_SCATTER, 256, 16 * MiB}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(Pairwise,
                         CollectiveAlphaBetaTest,
                         ::testing::Values(AlphaBetaCase{CollectiveOp::ALL_TO_ALL, 8, 1 * KiB},
                                           AlphaBetaCase{CollectiveOp::ALL_TO_ALL, 8, 64 * MiB},
                                           AlphaBetaCase{CollectiveOp::ALL_TO_ALL, 32, 4 * MiB},
                                           AlphaBetaCase{CollectiveOp::ALL_TO_ALL, 256, 1 * MiB}),
                         CaseName);

TEST_F(CollectiveTest, RingBusBwApproachesTheNicBandwidthAsSizeGrows)
{
    // Default NCCL knobs: 2 channels, 2 MiB chunk pipelining, 512 KiB steps, 8 slots.
    Build(8);
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    std::vector<double> busbw;
    for (uint64_t bytes : {64 * KiB, 1 * MiB, 16 * MiB, 256 * MiB})
    {
        CollectiveRecord rec = RunOne(comm, CollectiveOp::ALL_REDUCE, bytes);
        ASSERT_TRUE(rec.completed);
        busbw.push_back(rec.busBw);
        std::cout << "  [busbw] " << bytes << " B: algbw " << rec.algBw << " GB/s, busbw "
                  << rec.busBw << " GB/s (NIC payload bandwidth " << Beta() / 1e9 << ")\n";
    }
    for (size_t i = 1; i < busbw.size(); ++i)
    {
        EXPECT_GT(busbw[i], busbw[i - 1]);
    }
    EXPECT_GT(busbw.back(), 0.97 * Beta() / 1e9);
    EXPECT_LT(busbw.back(), 1.0 * Beta() / 1e9);
}

TEST_F(CollectiveTest, ChunkPipeliningHidesStepLatencyForLargeMessages)
{
    Build(16);
    coll.SetCommunicatorAttribute("Channels", UintegerValue(1));
    coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
    coll.SetCommunicatorAttribute("ChunkSize", UintegerValue(STORE_AND_FORWARD));
    Ptr<CollectiveCommunicator> sf = coll.CreateWorldCommunicator("store-and-forward");
    coll.SetCommunicatorAttribute("ChunkSize", UintegerValue(0)); // Simple: 1 MiB slices
    Ptr<CollectiveCommunicator> pipe = coll.CreateWorldCommunicator("pipelined");
    const uint64_t bytes = 64 * MiB; // 4 MiB per step per rank: 2 chunks of 2 slices
    double t1 = RunOne(sf, CollectiveOp::ALL_REDUCE, bytes).GetDuration().GetSeconds();
    double t2 = RunOne(pipe, CollectiveOp::ALL_REDUCE, bytes).GetDuration().GetSeconds();
    double bandwidthTerm = 2.0 * 15 / 16 * bytes / Beta();
    std::cout << "  [pipelining] store-and-forward " << t1 * 1e6 << " us, 1 MiB slices " << t2 * 1e6
              << " us, bandwidth term " << bandwidthTerm * 1e6 << " us\n";
    EXPECT_LT(t2, t1);
    // Pipelined: close to the bandwidth term plus a few steps of latency.
    EXPECT_LT(t2, bandwidthTerm * 1.15) << t2 * 1e6 << " us vs " << bandwidthTerm * 1e6;
    EXPECT_NEAR(t1 / AlphaBeta(sf, CollectiveOp::ALL_REDUCE, bytes), 1.0, 0.02);
}

// ---- byte conservation ------------------------------------------------------------------------

/// Per rank: the application, the schedule and the NIC agree on the bytes received, and the
/// closed-form prescription holds.
class CollectiveConservationTest : public CollectiveTest
{
  protected:
    void Check(Ptr<CollectiveCommunicator> comm,
               CollectiveOp op,
               uint64_t bytes,
               std::function<uint64_t(uint32_t)> prescribed,
               uint32_t root = 0)
    {
        uint64_t padded = 0;
        Ptr<const CollectiveSchedule> s = comm->BuildSchedule(op, bytes, root, &padded);
        std::vector<uint64_t> nicBefore;
        for (uint32_t r = 0; r < comm->GetSize(); ++r)
        {
            nicBefore.push_back(NicRxBytes(nics[comm->GetGlobalRank(r)]));
        }
        // The NICs carry the protocol's framing (LL: 16 B per 8 B, LL128: 128 B per 120 B),
        // piece by piece.
        CollectiveExecution exec = comm->Choose(op, bytes);
        const NcclProtocolInfo& proto = GetNcclProtocolInfo(exec.protocol);
        auto wireOf = [&exec, &proto](uint64_t data) {
            return proto.GetWireBytes(data, exec.pieceBytes);
        };
        CollectiveRecord rec = RunOne(comm, op, bytes, root);
        ASSERT_TRUE(rec.completed) << rec.reason;
        EXPECT_EQ(rec.paddedBytes, padded);
        EXPECT_EQ(rec.protocol, NcclProtocolName(exec.protocol));
        uint64_t total = 0;
        for (uint32_t r = 0; r < comm->GetSize(); ++r)
        {
            uint64_t app = comm->GetApplication(r)->GetBytesReceived();
            EXPECT_EQ(app, s->GetProgram(r).bytesReceived) << "rank " << r;
            uint64_t wire = 0;
            for (const auto& recv : s->GetProgram(r).recvs)
            {
                // NVLS operations cross the NVSwitch's engine, not the NIC.
                wire += recv.kind == CollectiveSendKind::TRANSPORT ? wireOf(recv.bytes) : 0;
            }
            EXPECT_EQ(NicRxBytes(nics[comm->GetGlobalRank(r)]) - nicBefore[r], wire)
                << "rank " << r;
            if (prescribed)
            {
                EXPECT_EQ(app, prescribed(r)) << "rank " << r;
            }
            EXPECT_EQ(comm->GetApplication(r)->GetSendsCompleted(), s->GetProgram(r).sends.size());
            total += app;
        }
        EXPECT_EQ(total, s->GetTotalBytes());
    }
};

TEST_F(CollectiveConservationTest, RingAllReduceAllGatherReduceScatterAndBroadcast)
{
    Build(8);
    const uint64_t n = 8;
    const uint64_t c = 2;
    const uint64_t bytes = 3 * MiB;
    const uint64_t seg = bytes / (n * c);
    {
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
        Check(comm, CollectiveOp::ALL_REDUCE, bytes, [&](uint32_t) {
            return 2 * (n - 1) * seg * c;
        });
    }
    {
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
        Check(comm, CollectiveOp::ALL_GATHER, bytes, [&](uint32_t) { return (n - 1) * seg * c; });
    }
    {
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
        Check(comm, CollectiveOp::REDUCE_SCATTER, bytes, [&](uint32_t) {
            return (n - 1) * seg * c;
        });
    }
    {
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
        Check(
            comm,
            CollectiveOp::BROADCAST,
            bytes,
            [&](uint32_t r) { return r == 3 ? 0 : bytes; },
            3);
    }
}

TEST_F(CollectiveConservationTest, PairwiseAlltoAllTreeAndHierarchical)
{
    Build(8);
    std::vector<CollectiveRankLocation> locs(8);
    for (uint32_t i = 0; i < 8; ++i)
    {
        locs[i] = {i / 4, i % 4}; // 2 servers x 4 GPUs
    }
    coll.SetRankLocations(locs);
    const uint64_t bytes = 8 * MiB;
    {
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("a2a");
        Check(comm, CollectiveOp::ALL_TO_ALL, bytes, [&](uint32_t) { return 7 * bytes / 8; });
    }
    {
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Tree"));
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("tree");
        // A reduce tree and a broadcast tree over all n ranks per (channel, tree, chunk):
        // 2 (n - 1) edges moving one part each; 2 trees x 2 channels share the buffer.
        Check(comm, CollectiveOp::ALL_REDUCE, bytes, nullptr);
        Ptr<const CollectiveSchedule> s = comm->BuildSchedule(CollectiveOp::ALL_REDUCE, bytes);
        EXPECT_EQ(s->GetTotalBytes(), 2 * 7 * bytes);
        for (uint32_t r = 0; r < 8; ++r)
        {
            // Every rank gets the reduced data back once per part (the down phase).
            EXPECT_GE(comm->GetApplication(r)->GetBytesReceived(), bytes);
        }
    }
    {
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Hierarchical"));
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("hier");
        const uint64_t g = 4;
        const uint64_t m = 2;
        const uint64_t c = 2;
        uint64_t seg1 = bytes / (g * c);
        uint64_t seg2 = seg1 / m;
        Check(comm, CollectiveOp::ALL_REDUCE, bytes, [&](uint32_t) {
            return c * (2 * (g - 1) * seg1 + 2 * (m - 1) * seg2);
        });
    }
    {
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
        coll.SetCommunicatorAttribute("Pxn", BooleanValue(true));
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("pxn");
        // Cross-rail blocks (other server, other local: 3 of the 4 remote blocks) are relayed:
        // each rank receives its 7 blocks plus, as a relay, 3 blocks for its rail-peer.
        uint64_t block = bytes / 8;
        Check(comm, CollectiveOp::ALL_TO_ALL, bytes, [&](uint32_t) { return (7 + 3) * block; });
    }
}

TEST_F(CollectiveConservationTest, SizesThatDoNotDivideArePaddedToWholeElements)
{
    Build(8);
    coll.SetCommunicatorAttribute("Channels", UintegerValue(1));
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    const uint64_t bytes = 1001 * 4; // 1001 floats over 8 ranks: 126 per segment, 7 padding
    Check(comm, CollectiveOp::ALL_REDUCE, bytes, [](uint32_t) { return 2 * 7 * 126 * 4; });
    EXPECT_EQ(comm->GetRecords().back().paddedBytes, 8u * 126 * 4);
    EXPECT_EQ(comm->GetRecords().back().bytes, bytes);
}

// ---- transport knobs, traces, results ---------------------------------------------------------

TEST_F(CollectiveTest, QpsPerConnectionSplitEveryMessageEvenly)
{
    Build(8);
    AlphaBetaSetting();
    Ptr<CollectiveCommunicator> one = coll.CreateWorldCommunicator("1qp");
    coll.SetTransportAttribute("QpsPerConnection", UintegerValue(4));
    Ptr<CollectiveCommunicator> four = coll.CreateWorldCommunicator("4qp");
    const uint64_t bytes = 64 * MiB;
    double t1 = RunOne(one, CollectiveOp::ALL_REDUCE, bytes).GetDuration().GetSeconds();
    double t4 = RunOne(four, CollectiveOp::ALL_REDUCE, bytes).GetDuration().GetSeconds();
    EXPECT_NEAR(t4 / t1, 1.0, 0.01);
    auto transport = DynamicCast<RoceCollectiveTransport>(four->GetTransport());
    auto qps = transport->GetQps(0, 1, 0);
    ASSERT_EQ(qps.size(), 4u);
    uint64_t expected = 2 * 7 * (bytes / 8) / 4;
    for (auto& [a, b] : qps)
    {
        EXPECT_EQ(b->GetCounters().rxDataBytes, expected);
    }
    EXPECT_EQ(transport->GetNConnections(), 8u); // one per ring hop (1 channel)
}

TEST_F(CollectiveTest, TracesAndCsvReportEveryStepAndCollective)
{
    Build(4);
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    uint32_t steps = 0;
    uint32_t completes = 0;
    for (uint32_t r = 0; r < 4; ++r)
    {
        comm->GetApplication(r)->TraceConnectWithoutContext(
            "StepComplete",
            MakeCallback(+[](uint32_t* n, uint32_t, uint32_t, uint32_t, uint64_t) {
                (*n)++;
            }).Bind(&steps));
    }
    comm->TraceConnectWithoutContext(
        "CollectiveComplete",
        MakeCallback(+[](uint32_t* n, const CollectiveRecord&) { (*n)++; }).Bind(&completes));
    comm->Enqueue(CollectiveOp::ALL_REDUCE, 1 * MiB);
    comm->Enqueue(CollectiveOp::ALL_GATHER, 1 * MiB);
    comm->Enqueue(CollectiveOp::BROADCAST, 1 * MiB, 2);
    Simulator::Run();
    EXPECT_EQ(completes, 3u);
    uint64_t sends = 0;
    for (auto op : {CollectiveOp::ALL_REDUCE, CollectiveOp::ALL_GATHER, CollectiveOp::BROADCAST})
    {
        auto s = comm->BuildSchedule(op, 1 * MiB, 2);
        sends += s->GetNTransfers();
    }
    EXPECT_EQ(steps, sends);
    // Collectives run in order on every rank.
    const auto& recs = comm->GetRecords();
    ASSERT_EQ(recs.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(recs[i].seq, i);
        EXPECT_TRUE(recs[i].completed);
        if (i > 0)
        {
            EXPECT_GE(recs[i].start, recs[i - 1].start);
            EXPECT_GT(recs[i].end, recs[i - 1].end);
        }
    }
    EXPECT_DOUBLE_EQ(recs[0].busBw, recs[0].algBw * 2 * 3 / 4);
    EXPECT_DOUBLE_EQ(recs[1].busBw, recs[1].algBw * 3 / 4);
    EXPECT_DOUBLE_EQ(recs[2].busBw, recs[2].algBw);
    const std::string file = "collective-test.csv";
    coll.WriteCsv(file);
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("communicator,seq,op,algorithm,protocol,bytes,", 0), 0u) << line;
    uint32_t rows = 0;
    while (std::getline(in, line))
    {
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), 20) << line;
        EXPECT_NE(line.find(",ok,"), std::string::npos) << line;
        rows++;
    }
    EXPECT_EQ(rows, 3u);
}

TEST_F(CollectiveTest, BusBwFactorsAreThoseOfNcclTests)
{
    const std::pair<CollectiveOp, const char*> ops[] = {
        {CollectiveOp::ALL_REDUCE, "allreduce"},
        {CollectiveOp::ALL_GATHER, "allgather"},
        {CollectiveOp::REDUCE_SCATTER, "reducescatter"},
        {CollectiveOp::ALL_TO_ALL, "alltoall"},
        {CollectiveOp::BROADCAST, "broadcast"},
    };
    for (uint32_t n : {1u, 2u, 8u, 256u})
    {
        for (const auto& [op, name] : ops)
        {
            EXPECT_DOUBLE_EQ(CollectiveBusBwFactor(op, n), NcclTestsFormat::BusBwFactor(name, n))
                << name << " n=" << n;
            EXPECT_EQ(CollectiveOpFromName(name), op);
            EXPECT_EQ(CollectiveOpFromName(CollectiveOpName(op)), op);
        }
    }
    EXPECT_DOUBLE_EQ(CollectiveBusBwFactor(CollectiveOp::ALL_REDUCE, 8), 2.0 * 7 / 8);
}

TEST_F(CollectiveTest, TreeBeatsRingForSmallMessagesOnManyRanks)
{
    Build(64);
    AlphaBetaSetting();
    Ptr<CollectiveCommunicator> ring = coll.CreateWorldCommunicator("ring");
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Tree"));
    Ptr<CollectiveCommunicator> tree = coll.CreateWorldCommunicator("tree");
    Time tr = RunOne(ring, CollectiveOp::ALL_REDUCE, 4 * KiB).GetDuration();
    Time tt = RunOne(tree, CollectiveOp::ALL_REDUCE, 4 * KiB).GetDuration();
    EXPECT_EQ(tree->GetRecords().back().algorithm, "tree");
    // Ring: 2 x 63 steps; tree: up and down a depth-6 tree (plus the root's extra child).
    EXPECT_LT(tt * 5, tr) << tt.As(Time::US) << " vs " << tr.As(Time::US);
    double alpha = Alpha(ring->GetApplication(0), 4 * KiB);
    EXPECT_LT(tt.GetSeconds(), 2 * 8 * alpha);
}

TEST_F(CollectiveTest, DoubleBinaryTreesAreComplementary)
{
    for (uint32_t m : {2u, 3u, 5u, 8u, 13u, 64u, 100u})
    {
        auto parents = DoubleBinaryTreeAlgorithm::TreeParents(m);
        // Every position but the root has a parent; the tree is connected (acyclic walk up).
        for (uint32_t p = 0; p < m; ++p)
        {
            uint32_t x = p;
            uint32_t hops = 0;
            while (parents[x] != COLLECTIVE_NONE && hops <= m)
            {
                x = parents[x];
                hops++;
            }
            EXPECT_EQ(x, 0u) << "m=" << m << " p=" << p;
        }
        // Binary, and logarithmic depth.
        std::vector<uint32_t> children(m, 0);
        uint32_t depth = 0;
        for (uint32_t p = 0; p < m; ++p)
        {
            if (parents[p] != COLLECTIVE_NONE)
            {
                children[parents[p]]++;
            }
            uint32_t d = 0;
            for (uint32_t x = p; parents[x] != COLLECTIVE_NONE; x = parents[x])
            {
                d++;
            }
            depth = std::max(depth, d);
        }
        EXPECT_LE(*std::max_element(children.begin(), children.end()), 2u) << "m=" << m;
        EXPECT_LE(depth, std::ceil(std::log2(m)) + 1) << "m=" << m;
        // Servers that are interior (have children) in both trees: at most one.

        uint32_t both = 0;
        for (uint32_t s = 0; s < m; ++s)
        {
            uint32_t p0 = s;
            uint32_t p1 = 0;
            for (uint32_t p = 0; p < m; ++p)
            {
                if (DoubleBinaryTreeAlgorithm::ServerAt(1, m, p) == s)
                {
                    p1 = p;
                }
            }
            both += (children[p0] > 0 && children[p1] > 0) ? 1 : 0;
        }
        EXPECT_LE(both, 1u) << "m=" << m;
    }
}

TEST_F(CollectiveTest, RailAwareRingsCrossServersOnOneRail)
{
    for (uint32_t servers : {1u, 2u, 3u, 4u, 5u})
    {
        for (uint32_t g : {1u, 3u, 4u, 8u})
        {
            std::vector<CollectiveRankLocation> locs;
            for (uint32_t s = 0; s < servers; ++s)
            {
                for (uint32_t l = 0; l < g; ++l)
                {
                    locs.push_back({10 + s, l});
                }
            }
            CollectiveLayout layout(locs);
            for (uint32_t c = 0; c < 4; ++c)
            {
                auto ring = layout.GetRing(c, true);
                ASSERT_EQ(ring.size(), locs.size());
                std::vector<uint32_t> sorted = ring;
                std::sort(sorted.begin(), sorted.end());
                for (uint32_t i = 0; i < sorted.size(); ++i)
                {
                    ASSERT_EQ(sorted[i], i);
                }
                for (size_t i = 0; i < ring.size(); ++i)
                {
                    uint32_t a = ring[i];
                    uint32_t b = ring[(i + 1) % ring.size()];
                    EXPECT_FALSE(layout.IsCrossRail(a, b))
                        << servers << " servers x " << g << ", channel " << c << ": " << a << " -> "
                        << b;
                }
            }
        }
    }
}

// ---- concurrency and the training model -------------------------------------------------------

TEST_F(CollectiveTest, TwoConcurrentJobsOnASharedFabricBothFinishAndEachIsSlower)
{
    BuildTwoLeaves(4);
    // Job A on hosts {0,1,4,5}, job B on {2,3,6,7}: every ring crosses the leaf-leaf cable in
    // both directions.
    auto makeJob = [this](const std::vector<uint32_t>& ranks, const std::string& name) {
        Ptr<CollectiveCommunicator> comm = coll.CreateCommunicator(ranks, name);
        Ptr<CollectiveJob> job = coll.CreateJob(name);
        job->SetAttribute("Iterations", UintegerValue(2));
        job->AddTrainingIteration(comm,
                                  MicroSeconds(200),
                                  MicroSeconds(400),
                                  64 * MiB,
                                  4,
                                  MicroSeconds(50));
        return job;
    };
    Time aloneA;
    Time aloneB;
    {
        Ptr<CollectiveJob> a = makeJob({0, 1, 4, 5}, "A-alone");
        a->Start();
        Simulator::Run();
        ASSERT_TRUE(a->IsFinished());
        aloneA = a->GetIterations().back().second - a->GetIterations().back().first;
        Ptr<CollectiveJob> b = makeJob({2, 3, 6, 7}, "B-alone");
        b->Start();
        Simulator::Run();
        ASSERT_TRUE(b->IsFinished());
        aloneB = b->GetIterations().back().second - b->GetIterations().back().first;
    }
    Ptr<CollectiveJob> a = makeJob({0, 1, 4, 5}, "A");
    Ptr<CollectiveJob> b = makeJob({2, 3, 6, 7}, "B");
    a->Start();
    b->Start();
    Simulator::Run();
    ASSERT_TRUE(a->IsFinished());
    ASSERT_TRUE(b->IsFinished());
    EXPECT_FALSE(a->HasFailed());
    Time sharedA = a->GetIterations().back().second - a->GetIterations().back().first;
    Time sharedB = b->GetIterations().back().second - b->GetIterations().back().first;
    std::cout << "  [jobs] iteration alone " << aloneA.As(Time::US) << " / " << aloneB.As(Time::US)
              << ", shared " << sharedA.As(Time::US) << " / " << sharedB.As(Time::US) << "\n";
    EXPECT_GT(sharedA, aloneA * 1.2);
    EXPECT_GT(sharedB, aloneB * 1.2);
    // Bucketed AllReduce overlaps the backward pass: an iteration takes less than compute plus
    // the four AllReduces back to back, and more than the compute alone.
    Time compute = a->GetComputeTimePerIteration();
    Time allReduces;
    for (const auto& r : coll.GetCommunicators()[0]->GetRecords())
    {
        allReduces += r.GetDuration();
    }
    allReduces = allReduces / 2; // two iterations recorded
    EXPECT_GT(aloneA, compute);
    EXPECT_LT(aloneA, compute + allReduces);
    // Every collective of both shared jobs is in the helper's records.
    uint32_t shared = 0;
    for (const auto& r : coll.GetRecords())
    {
        shared += (r.communicator == "A" || r.communicator == "B") ? 1 : 0;
        EXPECT_TRUE(r.completed);
    }
    EXPECT_EQ(shared, 2u * 2 * 4);
}

TEST_F(CollectiveTest, TensorAndDataParallelGroupsRunConcurrently)
{
    Build(8);
    auto tp = CollectiveHelper::TensorParallelGroups(8, 4);
    auto dp = CollectiveHelper::DataParallelGroups(8, 4);
    ASSERT_EQ(tp.size(), 2u);
    ASSERT_EQ(dp.size(), 4u);
    EXPECT_EQ(tp[1], (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(dp[1], (std::vector<uint32_t>{1, 5}));
    std::vector<Ptr<CollectiveCommunicator>> comms;
    for (const auto& g : tp)
    {
        comms.push_back(coll.CreateCommunicator(g));
        comms.back()->Enqueue(CollectiveOp::ALL_GATHER, 4 * MiB);
    }
    for (const auto& g : dp)
    {
        comms.push_back(coll.CreateCommunicator(g));
        comms.back()->Enqueue(CollectiveOp::ALL_REDUCE, 4 * MiB);
    }
    Simulator::Run();
    for (const auto& c : comms)
    {
        ASSERT_EQ(c->GetRecords().size(), 1u);
        EXPECT_TRUE(c->GetRecords()[0].completed);
    }
    EXPECT_EQ(coll.GetRecords().size(), 6u);
}

// ---- failures ---------------------------------------------------------------------------------

TEST_F(CollectiveTest, CutLinkIsReportedWithRankAndStepAndTheSimulationEnds)
{
    nicHelper.SetNicAttribute("LocalAckTimeout", UintegerValue(4)); // 65.5 us
    nicHelper.SetNicAttribute("RetryCount", UintegerValue(3));
    Build(8);
    AlphaBetaSetting();
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    Ptr<CollectiveJob> job = coll.CreateJob();
    job->AddCollective(comm, CollectiveOp::ALL_REDUCE, 1 * MiB);
    job->AddCollective(comm, CollectiveOp::ALL_REDUCE, 1 * MiB);
    std::vector<CollectiveRecord> failed;
    comm->TraceConnectWithoutContext(
        "CollectiveFailed",
        MakeCallback(+[](std::vector<CollectiveRecord>* v, const CollectiveRecord& r) {
            v->push_back(r);
        }).Bind(&failed));
    ports[3]->GetPfcChannel()->SetLinkUp(false);
    job->Start();
    Simulator::Run(); // must return on its own
    ASSERT_EQ(failed.size(), 1u);
    const CollectiveRecord& r = failed[0];
    EXPECT_TRUE(r.failed);
    EXPECT_FALSE(r.completed);
    EXPECT_TRUE(r.failedRank == 2 || r.failedRank == 3) << r.failedRank;
    EXPECT_EQ(r.failedStep, 0u);
    EXPECT_EQ(r.failedPeer, r.failedRank + 1);
    EXPECT_NE(r.reason.find("RETRY_EXCEEDED"), std::string::npos) << r.reason;
    // (RetryCount + 1) local ACK timeouts after the first post, then the simulation stopped.
    Time timeout = nics[0]->GetLocalAckTimeout();
    EXPECT_GE(Simulator::Now(), timeout * 4);
    EXPECT_LE(Simulator::Now(), timeout * 4 + MicroSeconds(100));
    EXPECT_TRUE(job->HasFailed());
    EXPECT_FALSE(job->IsFinished());
    EXPECT_EQ(comm->GetNEnqueued(), 1u); // the job stopped; nothing else was issued
    EXPECT_TRUE(comm->HasFailed());
    EXPECT_GE(comm->GetTransport()->GetNFailures(), 1u);
}

TEST_F(CollectiveTest, WatchdogReportsAStuckCollective)
{
    nicHelper.SetNicAttribute("LocalAckTimeout", UintegerValue(20)); // 4.3 s
    Build(4);
    coll.SetCommunicatorAttribute("Timeout", TimeValue(MilliSeconds(1)));
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    ports[2]->GetPfcChannel()->SetLinkUp(false);
    comm->Enqueue(CollectiveOp::ALL_GATHER, 1 * MiB);
    comm->Enqueue(CollectiveOp::ALL_GATHER, 1 * MiB);
    Simulator::Run();
    ASSERT_EQ(comm->GetRecords().size(), 2u);
    const CollectiveRecord& r = comm->GetRecords()[0];
    EXPECT_TRUE(r.failed);
    EXPECT_NE(r.reason.find("timeout"), std::string::npos) << r.reason;
    EXPECT_NE(r.failedRank, COLLECTIVE_NONE);
    EXPECT_NE(r.failedStep, COLLECTIVE_NONE);
    EXPECT_TRUE(comm->GetRecords()[1].failed); // queued behind it: aborted
    EXPECT_NE(comm->GetRecords()[1].reason.find("aborted"), std::string::npos);
    EXPECT_LE(Simulator::Now(), MilliSeconds(1) + MicroSeconds(20));
}

// ---- rail locality on a rail-optimized fabric -------------------------------------------------

class CollectiveRailTest : public test::SimTest
{
  protected:
    void Build()
    {
        topo = CreateObject<RailOptimizedTopologyHelper>();
        topo->SetAttribute("Servers", UintegerValue(4));
        topo->SetAttribute("GpusPerServer", UintegerValue(4));
        topo->Install();
        topo->GetNicHelper().AssignStreams(3);
        std::vector<Ptr<RoceNic>> nics;
        std::vector<CollectiveRankLocation> locs;
        for (uint32_t r = 0; r < topo->GetNRanks(); ++r)
        {
            nics.push_back(topo->GetNic(r));
            locs.push_back({topo->GetServerOf(r), topo->GetLocalOf(r)});
        }
        coll.SetNics(nics);
        coll.SetRankLocations(locs);
        coll.SetNvLinkWithinServer(true);
        coll.SetConnector(MakeCallback(&FabricTopologyHelper::Connect, PeekPointer(topo)));
    }

    uint64_t SpineForwarded() const
    {
        uint64_t sum = 0;
        for (uint32_t s = 0; s < topo->GetNSpines(); ++s)
        {
            sum += topo->GetSpine(s)->GetObject<FabricSwitch>()->GetCounters().forwarded;
        }
        return sum;
    }

    uint64_t NvSwitchForwarded() const
    {
        uint64_t sum = 0;
        for (uint32_t s = 0; s < topo->GetNServers(); ++s)
        {
            sum += topo->GetNvSwitch(s)->GetObject<FabricSwitch>()->GetCounters().forwarded;
        }
        return sum;
    }

    void RunAndCheck(CollectiveOp op, bool expectRailLocal)
    {
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
        comm->Enqueue(op, 16 * MiB);
        Simulator::Run();
        ASSERT_EQ(comm->GetRecords().size(), 1u);
        EXPECT_TRUE(comm->GetRecords()[0].completed);
        EXPECT_GT(NvSwitchForwarded(), 0u);
        if (expectRailLocal)
        {
            EXPECT_EQ(SpineForwarded(), 0u); // every inter-server byte stayed on its rail leaf
        }
        else
        {
            EXPECT_GT(SpineForwarded(), 0u);
        }
    }

    Ptr<RailOptimizedTopologyHelper> topo;
    CollectiveHelper coll;
};

TEST_F(CollectiveRailTest, RailAwareRingAllReduceStaysOnRails)
{
    Build();
    RunAndCheck(CollectiveOp::ALL_REDUCE, true);
}

TEST_F(CollectiveRailTest, HierarchicalAllReduceStaysOnRails)
{
    Build();
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Hierarchical"));
    RunAndCheck(CollectiveOp::ALL_REDUCE, true);
}

TEST_F(CollectiveRailTest, HierarchicalAllReduceMatchesTheTwoLevelFormula)
{
    Build();
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Hierarchical"));
    coll.SetCommunicatorAttribute("Channels", UintegerValue(1));
    coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
    coll.SetCommunicatorAttribute("ChunkSize", UintegerValue(STORE_AND_FORWARD));
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    const uint64_t bytes = 16 * MiB;
    comm->Enqueue(CollectiveOp::ALL_REDUCE, bytes);
    Simulator::Run();
    ASSERT_TRUE(comm->GetRecords().at(0).completed);
    double measured = comm->GetRecords()[0].GetDuration().GetSeconds();
    // REFERENCE: 2(g-1)/g S/B_nvlink + 2(m-1)/m (S/g)/B_nic, plus 2(g-1) NVLink and 2(m-1)
    // network step latencies (each: software + two cable delays + one packet
    // store-and-forward) and the base latency.
    double g = topo->GetGpusPerServer();
    double m = topo->GetNServers();
    double mtu = topo->GetNic(0)->GetMtu();
    double nvRate = topo->GetLinkRate(FabricLinkTier::NVLINK).GetBitRate();
    double nicRate = topo->GetLinkRate(FabricLinkTier::GPU_LEAF).GetBitRate();
    TimeValue nvDelay;
    TimeValue nicDelay;
    topo->GetAttribute("NvLinkDelay", nvDelay);
    topo->GetAttribute("GpuLinkDelay", nicDelay);
    Ptr<CollectiveApplication> app = comm->GetApplication(0);
    double wire = mtu + ROCE_OVERHEAD;
    double alphaNv =
        app->GetCommunicator()->Choose(CollectiveOp::ALL_REDUCE, 1024).nvLinkLatency.GetSeconds() +
        2 * nvDelay.Get().GetSeconds() + wire * 8 / nvRate;
    double alphaNet =
        app->GetCommunicator()->Choose(CollectiveOp::ALL_REDUCE, 1024).networkLatency.GetSeconds() +
        2 * nicDelay.Get().GetSeconds() + wire * 8 / nicRate;
    double betaNv = nvRate / 8 * mtu / wire;
    double betaNic = nicRate / 8 * mtu / wire;
    double expected = app->GetCommunicator()
                          ->GetTuner()
                          ->GetBaseLatency(NcclAlgorithm::RING, NcclProtocol::SIMPLE)
                          .GetSeconds() +
                      2 * (g - 1) * alphaNv + 2 * (m - 1) * alphaNet +
                      2 * (g - 1) / g * bytes / betaNv + 2 * (m - 1) / m * (bytes / g) / betaNic;
    std::cout << "  [hierarchical] measured " << measured * 1e6 << " us, formula " << expected * 1e6
              << " us\n";
    EXPECT_NEAR(measured / expected, 1.0, 0.02);
    EXPECT_EQ(SpineForwarded(), 0u);
}

TEST_F(CollectiveRailTest, PxnAlltoAllStaysOnRails)
{
    Build();
    coll.SetCommunicatorAttribute("Pxn", BooleanValue(true));
    RunAndCheck(CollectiveOp::ALL_TO_ALL, true);
}

TEST_F(CollectiveRailTest, AlltoAllWithoutPxnCrossesTheSpines)
{
    Build();
    RunAndCheck(CollectiveOp::ALL_TO_ALL, false);
}

// ---- bad input --------------------------------------------------------------------------------

using CollectiveBadInputDeathTest = CollectiveTest;

TEST_F(CollectiveBadInputDeathTest, ClearErrors)
{
    Build(8);
    EXPECT_DEATH(coll.CreateCommunicator({}, "empty"), "a communicator of 0 ranks is invalid");
    EXPECT_DEATH(coll.CreateCommunicator({0, 9}), "rank 9 is not a rank of the fabric");
    EXPECT_DEATH(coll.CreateCommunicator({1, 2, 1}), "rank 1 appears twice");
    Ptr<CollectiveCommunicator> comm = coll.CreateCommunicator({0, 1, 2, 3});
    EXPECT_DEATH(comm->Enqueue(CollectiveOp::ALL_REDUCE, 0), "of 0 B is invalid");
    EXPECT_DEATH(comm->Enqueue(CollectiveOp::ALL_REDUCE, 1001),
                 "size 1001 B is not a multiple of the element size 4 B");
    EXPECT_DEATH(comm->Enqueue(CollectiveOp::BROADCAST, 1024, 4),
                 "Broadcast root 4 is not in the communicator");
    EXPECT_DEATH(comm->GetApplication(4), "rank 4 is not in the communicator");
    EXPECT_DEATH(comm->SetAlgorithm(CollectiveOp::ALL_TO_ALL, CreateObject<RingAlgorithm>()),
                 "does not implement AlltoAll");
    comm->SetAttribute("Algorithm", StringValue("Hierarchical"));
    EXPECT_DEATH(comm->Enqueue(CollectiveOp::ALL_REDUCE, 1024),
                 "hierarchical AllReduce needs rank locations");
    EXPECT_DEATH(coll.SetRankLocations({{0, 0}}), "1 locations for 8 ranks");
    std::vector<CollectiveRankLocation> dup(8, CollectiveRankLocation{0, 0});
    EXPECT_DEATH(coll.SetRankLocations(dup), "ranks 0 and 1 are both at server 0 local 0");
    EXPECT_DEATH(CollectiveOpFromName("allsum"), "collective operation \"allsum\" is unknown");
    EXPECT_DEATH(CollectiveHelper::TensorParallelGroups(8, 3), "must be >= 1 and divide");
    Ptr<CollectiveJob> job = coll.CreateJob();
    EXPECT_DEATH(job->AddTrainingIteration(comm, Time(0), Time(0), 1024, 0, Time(0)),
                 "0 gradient buckets is invalid");
    EXPECT_DEATH(job->Start(), "empty program");
    EXPECT_DEATH(comm->GetTransport()->GetObject<RoceCollectiveTransport>()->Connect(0, 0, 0),
                 "rank 0 cannot send to itself");
    Ptr<CollectiveApplication> app = CreateObject<CollectiveApplication>();
    EXPECT_DEATH(app->SetAttribute("Slots", UintegerValue(0)), "Slots");
    EXPECT_DEATH(comm->SetAttribute("Channels", UintegerValue(65536)), "Channels");
}

} // namespace

// ---- per-collective state is bounded by the model, not by the message size -------------------

/// Exposes the algorithms' protected chunking rule.
struct ChunksProbe : public CollectiveAlgorithm
{
    using CollectiveAlgorithm::Chunks;
};

TEST(CollectiveChunksTest, ChunksAreCappedAndNeverOverflow)
{
    // 10 MiB at 2 MiB chunks: 5 chunks of 2 MiB; capped at 4: four of 2.5 MiB.
    EXPECT_EQ(ChunksProbe::Chunks(10 * MiB, 2 * MiB, 4, 64), std::vector<uint64_t>(5, 2 * MiB));
    EXPECT_EQ(ChunksProbe::Chunks(10 * MiB, 2 * MiB, 4, 4), std::vector<uint64_t>(4, 10 * MiB / 4));
    // The largest size: no wrap in the chunk count, at most maxChunks, bytes conserved.
    const uint64_t huge = std::numeric_limits<uint64_t>::max() / 4 * 4;
    std::vector<uint64_t> c = ChunksProbe::Chunks(huge, 2 * MiB, 4, 64);
    ASSERT_EQ(c.size(), 64u);
    uint64_t sum = 0;
    for (uint64_t x : c)
    {
        sum += x;
    }
    EXPECT_EQ(sum, huge);
    EXPECT_DEATH(ChunksProbe::Chunks(MiB, 1024, 4, 0), "maxChunks 0 is invalid");
}

TEST_F(CollectiveTest, ScheduleOfAHugeCollectiveIsBoundedBySteps)
{
    Build(8);
    coll.SetCommunicatorAttribute("Channels", UintegerValue(2));
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("huge");
    // 1 TiB at 2 MiB chunks would be 32768 chunks per step segment; the schedule has at most
    // 64 per (rank, channel, step), each of 2 slices (Simple's ring): 8 ranks x 2 channels x
    // 14 steps x 64 x 2.
    Ptr<const CollectiveSchedule> s =
        comm->BuildSchedule(CollectiveOp::ALL_REDUCE, uint64_t(1) << 40);
    EXPECT_EQ(comm->Choose(CollectiveOp::ALL_REDUCE, uint64_t(1) << 40).protocol,
              NcclProtocol::SIMPLE);
    EXPECT_LE(s->GetNTransfers(), 8u * 2 * 14 * 64 * 2);
    EXPECT_EQ(s->GetTotalBytes(), 2 * 7 * (uint64_t(1) << 40));
    comm->SetAttribute("MaxChunksPerStep", UintegerValue(4));
    EXPECT_LE(comm->BuildSchedule(CollectiveOp::ALL_REDUCE, uint64_t(1) << 40)->GetNTransfers(),
              8u * 2 * 14 * 4 * 2);
    EXPECT_DEATH(
        comm->BuildSchedule(CollectiveOp::ALL_REDUCE, CollectiveCommunicator::MAX_BYTES + 4),
        "beyond what the model supports \\(at most 1125899906842624 B = 1 PiB");
}
