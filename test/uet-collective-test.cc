/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NCCL-style collectives over Ultra Ethernet (UetCollectiveTransport): every algorithm on a
 * rail-optimized fabric with exact byte counts, busbw against RoCE on the same fabric after
 * the header-overhead difference, completion times against the alpha-beta formulas on an
 * uncontended star, messages split over the SES size limit, zero-byte messages, ROD, a cut
 * link (MessageFailed, Failure trace, the run ends), the health monitor's view of UET work,
 * conservation, and bad input.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <map>
#include <sstream>

using namespace ns3;

namespace
{

constexpr uint64_t KiB = 1024;
/// A chunk at least any step segment: every step is one store-and-forward transfer.
constexpr uint64_t STORE_AND_FORWARD = 1ull << 50;
constexpr uint64_t MiB = 1024 * KiB;

/// RoCEv2 full packet on the wire: 4096 + ICRC 4 + BTH 12 + UDP 8 + IPv4 20 + Ethernet 14 +
/// FCS 4 + preamble 8 + IFG 12.
constexpr double ROCE_WIRE = 4096 + 4 + 12 + 8 + 20 + 14 + 4 + 8 + 12;
/// UET full packet on the wire: 4096 + SES standard 44 + PDS RUD 12 + UDP 8 + IPv4 20 +
/// Ethernet 14 + FCS 4 + preamble 8 + IFG 12.
constexpr double UET_WIRE = 4096 + 44 + 12 + 8 + 20 + 14 + 4 + 8 + 12;
/// UET per-packet overhead on the wire.
constexpr double UET_OVERHEAD = UET_WIRE - 4096;

static_assert(ROCE_WIRE == 4178 && UET_WIRE == 4218, "wire sizes of a full packet");

/// Records every notification of messages sent directly on a transport.
struct Recorder : public CollectiveMessageListener
{
    void MessageDelivered(uint64_t cookie, uint64_t bytes) override
    {
        delivered[cookie]++;
        deliveredBytes[cookie] = bytes;
    }

    void MessageSent(uint64_t cookie) override
    {
        sent[cookie]++;
    }

    void MessageFailed(uint64_t cookie, const std::string& reason) override
    {
        failed[cookie]++;
        reasons[cookie] = reason;
    }

    std::map<uint64_t, uint32_t> delivered;      //!< MessageDelivered per cookie
    std::map<uint64_t, uint64_t> deliveredBytes; //!< bytes reported
    std::map<uint64_t, uint32_t> sent;           //!< MessageSent per cookie
    std::map<uint64_t, uint32_t> failed;         //!< MessageFailed per cookie
    std::map<uint64_t, std::string> reasons;     //!< failure reasons
};

/// A Failure trace record.
struct FailureRecord
{
    uint32_t src;       //!< source rank
    uint32_t dst;       //!< destination rank
    uint32_t channel;   //!< channel
    std::string reason; //!< reason
};

void
RecordFailure(std::vector<FailureRecord>* v,
              uint32_t src,
              uint32_t dst,
              uint32_t channel,
              const std::string& reason)
{
    v->push_back({src, dst, channel, reason});
}

/// Fabrics with UetNics (rail-optimized or a star) and a CollectiveHelper over UET.
class UetCollectiveTest : public test::SimTest
{
  protected:
    /// Rail-optimized: \p servers x \p gpus GPUs, NVLink inside a server.
    void BuildRail(uint32_t servers, uint32_t gpus, const std::string& transports = "uet")
    {
        topo = CreateObject<RailOptimizedTopologyHelper>();
        topo->SetAttribute("Servers", UintegerValue(servers));
        topo->SetAttribute("GpusPerServer", UintegerValue(gpus));
        topo->SetAttribute("Transports", StringValue(transports));
        topo->Install();
        topo->GetUetNicHelper().AssignStreams(3);
        for (uint32_t r = 0; r < topo->GetNRanks(); ++r)
        {
            uetNics.push_back(topo->GetUetNic(r));
        }
        coll.SetTransportType("ns3::UetCollectiveTransport");
        coll.SetTopology(topo);
    }

    /// \p n hosts on one switch (400 Gb/s, 1 us cables): no contention for permutations.
    void BuildStar(uint32_t n)
    {
        star.GetPortHelper().SetDeviceAttribute("DataRate", DataRateValue(rate));
        star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(delay));
        star.SetTransports("uet");
        star.Install(n);
        star.AssignStreams(5);
        std::vector<Ptr<Node>> nodes;
        for (uint32_t i = 0; i < n; ++i)
        {
            uetNics.push_back(star.GetUetNic(i));
            nodes.push_back(star.GetHosts().Get(i));
        }
        coll.SetRanks(nodes);
        coll.SetTransportType("uet");
    }

    /// Configure the alpha-beta setting: one channel, store-and-forward steps.
    void AlphaBetaSetting()
    {
        coll.SetCommunicatorAttribute("Channels", UintegerValue(1));
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
        coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
        coll.SetCommunicatorAttribute("ChunkSize", UintegerValue(STORE_AND_FORWARD));
    }

    /// Payload bandwidth of one NIC after the UET header overhead, bytes/s (the "beta").
    double Beta() const
    {
        double mtu = uetNics[0]->GetMtu();
        return rate.GetBitRate() / 8.0 * mtu / (mtu + UET_OVERHEAD);
    }

    /// Per-step latency ("alpha"): software step latency + two cable delays + the
    /// store-and-forward of the step's last packet at the switch.
    double Alpha(Ptr<CollectiveApplication> app, uint64_t stepBytes) const
    {
        double last = std::min<double>(stepBytes, uetNics[0]->GetMtu()) + UET_OVERHEAD;
        return app->GetCommunicator()
                   ->Choose(CollectiveOp::ALL_REDUCE, 1024)
                   .networkLatency.GetSeconds() +
               2 * delay.GetSeconds() + last * 8 / rate.GetBitRate();
    }

    /// Alpha-beta completion time plus the base latency, seconds (as collective-test).
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

    /// Every byte of a successful collective: the application, the schedule, the transport
    /// and the NICs agree.
    void RunAndCheckBytes(Ptr<CollectiveCommunicator> comm,
                          CollectiveOp op,
                          uint64_t bytes,
                          uint32_t root = 0)
    {
        SCOPED_TRACE(comm->GetName());
        uint64_t padded = 0;
        Ptr<const CollectiveSchedule> s = comm->BuildSchedule(op, bytes, root, &padded);
        std::vector<uint64_t> before;
        for (uint32_t r = 0; r < comm->GetSize(); ++r)
        {
            before.push_back(uetNics[comm->GetGlobalRank(r)]->GetCounters().bytesDelivered);
        }
        // The transport carries the protocol's framing (LL: 16 B per 8 B of data, LL128: 128 B
        // per 120 B), piece by piece.
        CollectiveExecution exec = comm->Choose(op, bytes);
        const NcclProtocolInfo& proto = GetNcclProtocolInfo(exec.protocol);
        auto wireOf = [&exec, &proto](uint64_t data) {
            return proto.GetWireBytes(data, exec.pieceBytes);
        };
        CollectiveRecord rec = RunOne(comm, op, bytes, root);
        ASSERT_TRUE(rec.completed) << rec.reason;
        EXPECT_EQ(rec.paddedBytes, padded);
        uint64_t total = 0;
        uint64_t totalWire = 0;
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
            uint64_t nic = uetNics[comm->GetGlobalRank(r)]->GetCounters().bytesDelivered;
            EXPECT_EQ(nic - before[r], wire) << "rank " << r;
            EXPECT_EQ(comm->GetApplication(r)->GetSendsCompleted(), s->GetProgram(r).sends.size());
            total += app;
            totalWire += wire;
        }
        EXPECT_EQ(total, s->GetTotalBytes());
        auto t = DynamicCast<UetCollectiveTransport>(comm->GetTransport());
        ASSERT_TRUE(t);
        EXPECT_EQ(t->GetBytesSent(), totalWire);
        EXPECT_EQ(t->GetBytesDelivered(), totalWire);
        EXPECT_GT(t->GetMessagesSent(), 0u);
        EXPECT_EQ(t->GetNFailures(), 0u);
    }

    /// Conservation over every NIC: everything posted completed, and every byte posted was
    /// delivered once (no operation pending, none failed).
    void CheckNicConservation() const
    {
        uint64_t posted = 0;
        uint64_t completed = 0;
        uint64_t delivered = 0;
        for (const auto& nic : uetNics)
        {
            const UetNicCounters& c = nic->GetCounters();
            posted += c.bytesPosted;
            completed += c.bytesCompleted;
            delivered += c.bytesDelivered;
            EXPECT_EQ(c.opsFailed, 0u);
            EXPECT_EQ(nic->GetPendingOperations(), 0u);
        }
        EXPECT_GT(posted, 0u);
        EXPECT_EQ(completed, posted);
        EXPECT_EQ(delivered, posted);
    }

    DataRate rate{"400Gbps"};
    Time delay{MicroSeconds(1)};
    Ptr<RailOptimizedTopologyHelper> topo;
    StarTopologyHelper star;
    std::vector<Ptr<UetNic>> uetNics;
    CollectiveHelper coll;
};

// ---- (a) every algorithm completes with the right bytes -------------------------------------

TEST_F(UetCollectiveTest, EveryAlgorithmCompletesWithExactByteCountsOnARailFabric)
{
    BuildRail(2, 4);
    const uint64_t bytes = 4 * MiB;

    struct Case
    {
        const char* name;
        CollectiveOp op;
        const char* allReduce;
        bool pxn;
    };

    const Case cases[] = {
        {"ring-allreduce", CollectiveOp::ALL_REDUCE, "Ring", false},
        {"tree-allreduce", CollectiveOp::ALL_REDUCE, "Tree", false},
        {"hierarchical-allreduce", CollectiveOp::ALL_REDUCE, "Hierarchical", false},
        {"nvlstree-allreduce", CollectiveOp::ALL_REDUCE, "NVLSTree", false},
        {"ring-allgather", CollectiveOp::ALL_GATHER, "Ring", false},
        {"ring-reducescatter", CollectiveOp::REDUCE_SCATTER, "Ring", false},
        {"ring-broadcast", CollectiveOp::BROADCAST, "Ring", false},
        {"pairwise-alltoall", CollectiveOp::ALL_TO_ALL, "Ring", false},
        {"pxn-alltoall", CollectiveOp::ALL_TO_ALL, "Ring", true},
    };
    for (const auto& c : cases)
    {
        coll.SetCommunicatorAttribute("Algorithm", StringValue(c.allReduce));
        coll.SetCommunicatorAttribute("Pxn", BooleanValue(c.pxn));
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator(c.name);
        RunAndCheckBytes(comm, c.op, bytes, c.op == CollectiveOp::BROADCAST ? 5 : 0);
    }
    // Nine communicators, one transport each, shared the ranks' endpoints {JobID 1, PID 0}.
    auto first = DynamicCast<UetCollectiveTransport>(coll.GetCommunicators()[0]->GetTransport());
    auto last = DynamicCast<UetCollectiveTransport>(coll.GetCommunicators()[8]->GetTransport());
    EXPECT_NE(first->GetMemoryKey(), last->GetMemoryKey());
    EXPECT_EQ(first->GetEndpoint(0, topo->GetNvLinkPort()),
              last->GetEndpoint(0, topo->GetNvLinkPort()));
    EXPECT_EQ(uetNics[0]->GetEndpoint(0, 1, 0), last->GetEndpoint(0, 0));
    EXPECT_TRUE(last->GetEndpoint(0, 0));
    CheckNicConservation();
}

TEST_F(UetCollectiveTest, TrafficUsesNvLinkInsideAServerAndTheRailAcrossServers)
{
    BuildRail(2, 4);
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring")); // NVLS: no NVLink packets
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    RunAndCheckBytes(comm, CollectiveOp::ALL_REDUCE, 16 * MiB);
    auto t = DynamicCast<UetCollectiveTransport>(comm->GetTransport());
    const uint32_t nv = topo->GetNvLinkPort();
    uint32_t nvlink = 0;
    uint32_t network = 0;
    for (uint32_t a = 0; a < 8; ++a)
    {
        for (uint32_t b = 0; b < 8; ++b)
        {
            for (uint32_t ch = 0; ch < 2; ++ch)
            {
                auto ports = t->GetPorts(a, b, ch);
                if (ports.first == UINT32_MAX)
                {
                    continue;
                }
                bool sameServer = topo->GetServerOf(a) == topo->GetServerOf(b);
                EXPECT_EQ(ports.first, sameServer ? nv : 0u) << a << "->" << b;
                EXPECT_EQ(ports.second, ports.first);
                (sameServer ? nvlink : network)++;
            }
        }
    }
    EXPECT_GT(nvlink, 0u);
    EXPECT_GT(network, 0u);
    // The rail-aware ring stays on its rails: no spine forwarded a packet.
    for (uint32_t s = 0; s < topo->GetNSpines(); ++s)
    {
        EXPECT_EQ(topo->GetSpine(s)->GetObject<FabricSwitch>()->GetCounters().forwarded, 0u);
    }
    CheckNicConservation();
}

TEST_F(UetCollectiveTest, ConcurrentCommunicatorsShareTheEndpoints)
{
    BuildRail(2, 4);
    std::vector<Ptr<CollectiveCommunicator>> comms;
    for (const auto& g : CollectiveHelper::TensorParallelGroups(8, 4))
    {
        comms.push_back(coll.CreateCommunicator(g));
        comms.back()->Enqueue(CollectiveOp::ALL_GATHER, 4 * MiB);
    }
    for (const auto& g : CollectiveHelper::DataParallelGroups(8, 4))
    {
        comms.push_back(coll.CreateCommunicator(g));
        comms.back()->Enqueue(CollectiveOp::ALL_REDUCE, 4 * MiB);
    }
    Simulator::Run();
    uint64_t sent = 0;
    for (const auto& c : comms)
    {
        ASSERT_EQ(c->GetRecords().size(), 1u);
        EXPECT_TRUE(c->GetRecords()[0].completed) << c->GetRecords()[0].reason;
        auto t = DynamicCast<UetCollectiveTransport>(c->GetTransport());
        EXPECT_EQ(t->GetBytesDelivered(), t->GetBytesSent());
        sent += t->GetBytesSent();
    }
    uint64_t delivered = 0;
    for (const auto& nic : uetNics)
    {
        delivered += nic->GetCounters().bytesDelivered;
    }
    EXPECT_EQ(delivered, sent);
    CheckNicConservation();
}

// ---- (b) busbw against RoCE on the same fabric ----------------------------------------------

TEST_F(UetCollectiveTest, RingBusBwMatchesRoceAfterTheHeaderOverheadDifference)
{
    // Like with like: one rail-optimized fabric with both transports on every GPU's NIC core
    // ("roce+uet"), the same lossless priority 3 (RoCE DataDscp 26, UET DataDscp 26) with PFC,
    // and no congestion control on either (RoceNic and UetNic both default to the "none"
    // algorithm). The same ring AllReduce runs over RoCE, then over UET; the NIC links are the
    // bottleneck, so busbw scales with the payload share of a full packet on the wire:
    // RoCE 4096 / 4178, UET 4096 / 4218. (The ACKs differ too: UET ACKs every 16 KiB, RoCE
    // every 16 packets; that is about 0.4 % and stays inside the tolerance.)
    BuildRail(2, 4, "roce+uet");
    topo->GetNicHelper().AssignStreams(50);
    CollectiveHelper roce;
    roce.SetTopology(topo);
    ASSERT_EQ(roce.GetTransportType(), "ns3::RoceCollectiveTransport");
    const uint64_t bytes = 256 * MiB;
    Ptr<CollectiveCommunicator> overRoce = roce.CreateWorldCommunicator("roce");
    Ptr<CollectiveCommunicator> overUet = coll.CreateWorldCommunicator("uet");
    CollectiveRecord r = RunOne(overRoce, CollectiveOp::ALL_REDUCE, bytes);
    CollectiveRecord u = RunOne(overUet, CollectiveOp::ALL_REDUCE, bytes);
    ASSERT_TRUE(r.completed) << r.reason;
    ASSERT_TRUE(u.completed) << u.reason;
    double expected = ROCE_WIRE / UET_WIRE; // 0.99052
    double ratio = u.busBw / r.busBw;
    std::cout << "  [busbw] ring AllReduce " << bytes << " B on 2 x 4 GPUs: RoCE " << r.busBw
              << " GB/s, UET " << u.busBw << " GB/s, ratio " << ratio << " (header overhead "
              << expected << ")\n";
    EXPECT_NEAR(ratio / expected, 1.0, 0.02);
    EXPECT_EQ(DynamicCast<UetCollectiveTransport>(overUet->GetTransport())->GetBytesDelivered(),
              DynamicCast<RoceCollectiveTransport>(overRoce->GetTransport())->GetBytesDelivered());
    CheckNicConservation();
}

// ---- (c) alpha-beta on an uncontended star ---------------------------------------------------

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
    std::string size = c.bytes >= MiB ? std::to_string(c.bytes / MiB) + "MiB"
                                      : std::to_string(c.bytes / KiB) + "KiB";
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

class UetCollectiveAlphaBetaTest : public UetCollectiveTest,
                                   public ::testing::WithParamInterface<AlphaBetaCase>
{
};

TEST_P(UetCollectiveAlphaBetaTest, CompletionTimeMatchesTheFormulaWithin2Percent)
{
    const AlphaBetaCase& c = GetParam();
    BuildStar(c.ranks);
    AlphaBetaSetting();
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    CollectiveRecord rec = RunOne(comm, c.op, c.bytes);
    ASSERT_TRUE(rec.completed) << rec.reason;
    double measured = rec.GetDuration().GetSeconds();
    double expected = AlphaBeta(comm, c.op, c.bytes);
    EXPECT_NEAR(measured / expected, 1.0, 0.02)
        << "measured " << measured * 1e6 << " us, alpha-beta " << expected * 1e6 << " us";
    std::cout << "  [alpha-beta] UET " << CollectiveOpName(c.op) << " " << c.ranks << " ranks "
              << c.bytes << " B: measured " << measured * 1e6 << " us, formula " << expected * 1e6
              << " us (" << 100 * (measured / expected - 1) << " %)\n";
    CheckNicConservation();
}

INSTANTIATE_TEST_SUITE_P(Uet,
                         UetCollectiveAlphaBetaTest,
                         ::testing::Values(AlphaBetaCase{CollectiveOp::ALL_REDUCE, 8, 1 * KiB},
                                           AlphaBetaCase{CollectiveOp::ALL_REDUCE, 8, 1 * MiB},
                                           AlphaBetaCase{CollectiveOp::ALL_REDUCE, 8, 64 * MiB},
                                           AlphaBetaCase{CollectiveOp::ALL_REDUCE, 32, 4 * MiB},
                                           AlphaBetaCase{CollectiveOp::ALL_GATHER, 8, 16 * MiB},
                                           AlphaBetaCase{CollectiveOp::REDUCE_SCATTER, 8, 64 * MiB},
                                           AlphaBetaCase{CollectiveOp::ALL_TO_ALL, 8, 1 * KiB},
                                           AlphaBetaCase{CollectiveOp::ALL_TO_ALL, 8, 16 * MiB}),
                         CaseName);

// ---- (d) splitting, zero-byte messages, ROD ---------------------------------------------------

TEST_F(UetCollectiveTest, MessagesOverTheSesLimitAreSplitIntoWholeMtuParts)
{
    BuildStar(2);
    auto t = CreateObject<UetCollectiveTransport>();
    t->SetAttribute("MaxMessageBytes", UintegerValue(10000)); // 2 MTUs per part: 8192 B
    t->SetRankNodes({star.GetHosts().Get(0), star.GetHosts().Get(1)});
    std::vector<UetCompletion> completions;
    uetNics[0]->TraceConnectWithoutContext(
        "Completion",
        MakeCallback(+[](std::vector<UetCompletion>* v, const UetCompletion& c) {
            v->push_back(c);
        }).Bind(&completions));
    Recorder rec;
    t->Send(0, 1, 0, 100000, &rec, 7); // 12 x 8192 + 1696: 13 WRITEs
    t->Send(0, 1, 0, 8192, &rec, 8);   // exactly one part
    t->Send(0, 1, 0, 3000, &rec, 9);   // less than a part
    Simulator::Run();
    EXPECT_EQ(t->GetMessagesSent(), 3u);
    EXPECT_EQ(t->GetPartsPosted(), 13u + 1 + 1);
    ASSERT_EQ(completions.size(), 15u);
    uint32_t full = 0;
    for (const auto& c : completions)
    {
        EXPECT_TRUE(c.ok) << c.error;
        EXPECT_EQ(c.op, UetOperation::WRITE);
        EXPECT_LE(c.bytes, 8192u);
        full += c.bytes == 8192 ? 1 : 0;
    }
    EXPECT_EQ(full, 12u + 1);
    EXPECT_EQ(uetNics[1]->GetCounters().messagesDelivered, 15u);
    for (uint64_t cookie : {7, 8, 9})
    {
        EXPECT_EQ(rec.delivered[cookie], 1u) << cookie;
        EXPECT_EQ(rec.sent[cookie], 1u) << cookie;
        EXPECT_EQ(rec.failed.count(cookie), 0u) << cookie;
    }
    EXPECT_EQ(rec.deliveredBytes[7], 100000u);
    EXPECT_EQ(rec.deliveredBytes[8], 8192u);
    EXPECT_EQ(rec.deliveredBytes[9], 3000u);
    EXPECT_EQ(t->GetBytesSent(), 111192u);
    EXPECT_EQ(t->GetBytesDelivered(), 111192u);

    // Below one MTU the parts are exactly MaxMessageBytes.
    t->SetAttribute("MaxMessageBytes", UintegerValue(1000));
    t->Send(1, 0, 0, 4500, &rec, 10); // 4 x 1000 + 500
    Simulator::Run();
    EXPECT_EQ(t->GetPartsPosted(), 15u + 5);
    EXPECT_EQ(uetNics[0]->GetCounters().messagesDelivered, 5u);
    EXPECT_EQ(rec.delivered[10], 1u);
    EXPECT_EQ(rec.deliveredBytes[10], 4500u);
    EXPECT_EQ(rec.sent[10], 1u);
    CheckNicConservation();
}

TEST_F(UetCollectiveTest, AMessageOverFourGibIsTwoSesMessagesByDefault)
{
    // The real limit (about 1.5 s of wall clock): 4 GiB + 4 KiB is one part of the largest
    // whole number of MTUs below 2^32 (1048575 x 4096 B) and one of the remaining 8192 B.
    BuildStar(2);
    auto t = CreateObject<UetCollectiveTransport>();
    t->SetRankNodes({star.GetHosts().Get(0), star.GetHosts().Get(1)});
    std::vector<uint64_t> parts;
    uetNics[1]->TraceConnectWithoutContext(
        "Delivery",
        MakeCallback(+[](std::vector<uint64_t>* v, const UetDelivery& d) {
            v->push_back(d.bytes);
        }).Bind(&parts));
    Recorder rec;
    const uint64_t bytes = (4ull << 30) + 4096;
    t->Send(0, 1, 0, bytes, &rec, 1);
    Simulator::Run();
    EXPECT_EQ(rec.delivered[1], 1u);
    EXPECT_EQ(rec.deliveredBytes[1], bytes);
    EXPECT_EQ(rec.sent[1], 1u);
    EXPECT_EQ(t->GetPartsPosted(), 2u);
    EXPECT_EQ(parts, (std::vector<uint64_t>{1048575ull * 4096, 8192}));
    EXPECT_EQ(t->GetBytesDelivered(), bytes);
    CheckNicConservation();
}

TEST_F(UetCollectiveTest, CollectivesOverSplitMessagesKeepTheirBytes)
{
    BuildRail(2, 4);
    coll.SetTransportAttribute("MaxMessageBytes", UintegerValue(100000));
    coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
    coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
    coll.SetCommunicatorAttribute("Channels", UintegerValue(2));
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    RunAndCheckBytes(comm, CollectiveOp::ALL_REDUCE, 32 * MiB); // 1 MiB slices
    auto t = DynamicCast<UetCollectiveTransport>(comm->GetTransport());
    // 512 KiB pieces (Simple's step) in 98304-byte parts: 6 parts each.
    EXPECT_GT(t->GetPartsPosted(), 5 * t->GetMessagesSent());
    CheckNicConservation();
}

TEST_F(UetCollectiveTest, ZeroByteMessagesAreNotifications)
{
    BuildStar(3);
    auto t = CreateObject<UetCollectiveTransport>();
    t->SetRankNodes({star.GetHosts().Get(0), star.GetHosts().Get(1), star.GetHosts().Get(2)});
    Recorder rec;
    t->Send(0, 1, 0, 0, &rec, 1);
    t->Send(2, 1, 3, 0, &rec, 2);
    t->Send(0, 1, 0, 0, nullptr, 3); // no listener: nothing to tell
    Simulator::Run();
    for (uint64_t cookie : {1, 2})
    {
        EXPECT_EQ(rec.delivered[cookie], 1u);
        EXPECT_EQ(rec.deliveredBytes[cookie], 0u);
        EXPECT_EQ(rec.sent[cookie], 1u);
    }
    EXPECT_EQ(rec.delivered.count(3), 0u);
    EXPECT_EQ(t->GetPartsPosted(), 3u);
    EXPECT_EQ(uetNics[1]->GetCounters().messagesDelivered, 3u);
    EXPECT_EQ(uetNics[1]->GetCounters().dataPacketsReceived, 3u); // one packet each
    EXPECT_EQ(t->GetNConnections(), 2u);
    EXPECT_EQ(t->GetEndpoint(1, 0)->GetPidOnFep(), 0);
}

TEST_F(UetCollectiveTest, RodDeliveryModeIsUsedForEveryWrite)
{
    BuildStar(4);
    coll.SetTransportAttribute("DeliveryMode", StringValue("ROD"));
    std::vector<UetDeliveryMode> modes;
    for (const auto& nic : uetNics)
    {
        nic->TraceConnectWithoutContext(
            "Completion",
            MakeCallback(+[](std::vector<UetDeliveryMode>* v, const UetCompletion& c) {
                v->push_back(c.mode);
            }).Bind(&modes));
    }
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator();
    RunAndCheckBytes(comm, CollectiveOp::ALL_REDUCE, 2 * MiB);
    ASSERT_FALSE(modes.empty());
    for (auto m : modes)
    {
        EXPECT_EQ(m, UetDeliveryMode::ROD);
    }
    EXPECT_EQ(DynamicCast<UetCollectiveTransport>(comm->GetTransport())->GetDeliveryMode(),
              UetDeliveryMode::ROD);
    CheckNicConservation();
}

TEST_F(UetCollectiveTest, RanksSharingANicGetConsecutivePids)
{
    BuildStar(2);
    Ptr<Node> a = star.GetHosts().Get(0);
    Ptr<Node> b = star.GetHosts().Get(1);
    auto t = CreateObject<UetCollectiveTransport>();
    t->SetAttribute("JobId", UintegerValue(42));
    t->SetRankNodes({a, b, a, b}); // two ranks per NIC
    EXPECT_EQ(t->GetPidOnFep(0), 0);
    EXPECT_EQ(t->GetPidOnFep(1), 0);
    EXPECT_EQ(t->GetPidOnFep(2), 1);
    EXPECT_EQ(t->GetPidOnFep(3), 1);
    Recorder rec;
    t->Send(0, 3, 0, 64 * KiB, &rec, 1); // {42, 0} on a -> {42, 1} on b
    t->Send(2, 1, 0, 64 * KiB, &rec, 2); // {42, 1} on a -> {42, 0} on b
    Simulator::Run();
    for (uint64_t cookie : {1, 2})
    {
        EXPECT_EQ(rec.delivered[cookie], 1u) << cookie;
        EXPECT_EQ(rec.sent[cookie], 1u) << cookie;
    }
    EXPECT_TRUE(uetNics[1]->GetEndpoint(0, 42, 1));
    EXPECT_EQ(t->GetEndpoint(3, 0), uetNics[1]->GetEndpoint(0, 42, 1));
    EXPECT_EQ(t->AssignStreams(100), 2); // two distinct NICs
}

// ---- (e) failure ------------------------------------------------------------------------------

TEST_F(UetCollectiveTest, CutLinkFailsTheMessagesOnceAndFiresTheFailureTraceOncePerConnection)
{
    star.GetUetNicHelper().SetNicAttribute("RtoMin", TimeValue(MicroSeconds(20)));
    star.GetUetNicHelper().SetNicAttribute("RetryLimit", UintegerValue(2));
    BuildStar(2);
    auto t = CreateObject<UetCollectiveTransport>();
    t->SetRankNodes({star.GetHosts().Get(0), star.GetHosts().Get(1)});
    std::vector<FailureRecord> failures;
    t->TraceConnectWithoutContext("Failure", MakeBoundCallback(&RecordFailure, &failures));
    star.GetHostPort(1)->GetPfcChannel()->SetLinkUp(false);
    Recorder rec;
    t->Send(0, 1, 4, 1 * MiB, &rec, 1);
    t->Send(0, 1, 4, 0, &rec, 2);
    t->Send(0, 1, 4, 64 * KiB, &rec, 3);
    Simulator::Run(); // returns: every WRITE completes in error after the retry limit
    for (uint64_t cookie : {1, 2, 3})
    {
        EXPECT_EQ(rec.failed[cookie], 1u) << cookie;
        EXPECT_EQ(rec.sent.count(cookie), 0u) << cookie;
        EXPECT_EQ(rec.delivered.count(cookie), 0u) << cookie;
        const std::string& why = rec.reasons[cookie];
        EXPECT_NE(why.find("(rank 0 -> rank 1, channel 4)"), std::string::npos) << why;
        EXPECT_NE(why.find("closed in error"), std::string::npos) << why;
        EXPECT_NE(why.find("UET WRITE"), std::string::npos) << why;
    }
    ASSERT_EQ(failures.size(), 1u); // one connection
    EXPECT_EQ(failures[0].src, 0u);
    EXPECT_EQ(failures[0].dst, 1u);
    EXPECT_EQ(failures[0].channel, 4u);
    EXPECT_EQ(failures[0].reason, rec.reasons[1]);
    EXPECT_EQ(t->GetNFailures(), 1u);
    EXPECT_EQ(t->GetBytesDelivered(), 0u);
    EXPECT_EQ(uetNics[0]->GetCounters().opsFailed, 3u);
    EXPECT_EQ(uetNics[0]->GetPendingOperations(), 0u);
}

TEST_F(UetCollectiveTest, CutLinkIsReportedWithRankAndStepAndTheSimulationEnds)
{
    star.GetUetNicHelper().SetNicAttribute("RtoMin", TimeValue(MicroSeconds(20)));
    star.GetUetNicHelper().SetNicAttribute("RetryLimit", UintegerValue(3));
    BuildStar(8);
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
    std::vector<FailureRecord> failures;
    comm->GetTransport()->TraceConnectWithoutContext("Failure",
                                                     MakeBoundCallback(&RecordFailure, &failures));
    star.GetHostPort(3)->GetPfcChannel()->SetLinkUp(false);
    job->Start();
    Simulator::Run(); // must return on its own
    ASSERT_EQ(failed.size(), 1u);
    const CollectiveRecord& r = failed[0];
    EXPECT_TRUE(r.failed);
    EXPECT_FALSE(r.completed);
    EXPECT_TRUE(r.failedRank == 2 || r.failedRank == 3) << r.failedRank;
    EXPECT_EQ(r.failedStep, 0u);
    EXPECT_EQ(r.failedPeer, r.failedRank + 1);
    EXPECT_NE(r.reason.find("closed in error: PSN"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("(rank " + std::to_string(r.failedRank) + " -> rank " +
                            std::to_string(r.failedPeer) + ", channel 0)"),
              std::string::npos)
        << r.reason;
    EXPECT_TRUE(job->HasFailed());
    EXPECT_FALSE(job->IsFinished());
    EXPECT_EQ(comm->GetNEnqueued(), 1u); // the job stopped; nothing else was issued
    ASSERT_GE(failures.size(), 1u);
    EXPECT_LE(failures.size(), 2u); // 2 -> 3 and 3 -> 4 (the cut host's own sends)
    for (const auto& f : failures)
    {
        EXPECT_TRUE((f.src == 2 && f.dst == 3) || (f.src == 3 && f.dst == 4)) << f.reason;
    }
    EXPECT_EQ(comm->GetTransport()->GetNFailures(), failures.size());
    // The PDC gave up after RtoMin x (1 + 2 + 4 + 8) (three retransmissions, each RTO
    // doubled), and the communicator stopped the simulation then (StopOnFailure): it did not
    // stall.
    Time giveUp = MicroSeconds(20) * 15;
    EXPECT_GE(Simulator::Now(), giveUp);
    EXPECT_LE(Simulator::Now(), giveUp + MicroSeconds(100));
    EXPECT_FALSE(star.GetHealthMonitor()->IsStalled());
}

// ---- the health monitor sees UET work ----------------------------------------------------------

TEST_F(UetCollectiveTest, HealthMonitorDiagnosesAStuckUetCollective)
{
    // A cut GPU link and a PDC that keeps retrying for seconds (64 retransmissions, backed
    // off up to RtoMax): no frame reaches any transport, so the monitor watching the NIC cores
    // stops the run after its StallTime with a diagnosis that lists the UET PDCs.
    Config::SetDefault("ns3::UetNic::RetryLimit", UintegerValue(64));
    Config::SetDefault("ns3::FabricHealthMonitor::StallTime", TimeValue(MilliSeconds(20)));
    Config::SetDefault("ns3::FabricHealthMonitor::CheckInterval", TimeValue(MilliSeconds(1)));
    BuildRail(2, 2);
    for (uint32_t link : topo->FindLinks(topo->GetRank(2), topo->GetLeafOf(2)))
    {
        topo->GetLinkChannel(link)->SetLinkUp(false);
    }
    Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
    comm->Enqueue(CollectiveOp::ALL_REDUCE, 1 * MiB);
    std::string diagnosis;
    topo->GetHealthMonitor()->TraceConnectWithoutContext(
        "Stalled",
        MakeCallback(+[](std::string* out, Time, const std::string& d) {
            *out = d;
        }).Bind(&diagnosis));
    Simulator::Run();
    Config::Reset();
    ASSERT_TRUE(topo->GetHealthMonitor()->IsStalled());
    EXPECT_LT(Simulator::Now(), MilliSeconds(30));
    EXPECT_EQ(topo->GetHealthMonitor()->GetNNics(), 4u);
    EXPECT_GT(topo->GetHealthMonitor()->GetPendingOperations(), 0u);
    EXPECT_NE(diagnosis.find("communicator world:\n  world collective 0: AllReduce of 1048576 B"),
              std::string::npos)
        << diagnosis;
    // The UET PDCs with pending work are described (UetNic::DescribePending).
    EXPECT_NE(diagnosis.find("(initiator, RUD, "), std::string::npos) << diagnosis;
    EXPECT_NE(diagnosis.find("operation(s) pending"), std::string::npos) << diagnosis;
}

// ---- helpers and bad input ---------------------------------------------------------------------

TEST_F(UetCollectiveTest, UetOnlyTopologySelectsTheUetTransport)
{
    auto t = CreateObject<RailOptimizedTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(2));
    t->SetAttribute("GpusPerServer", UintegerValue(2));
    t->SetAttribute("Transports", StringValue("uet"));
    t->Install();
    CollectiveHelper h;
    h.SetTopology(t);
    EXPECT_EQ(h.GetTransportType(), "ns3::UetCollectiveTransport");
    Ptr<CollectiveCommunicator> comm = h.CreateWorldCommunicator();
    comm->Enqueue(CollectiveOp::ALL_GATHER, 1 * MiB);
    Simulator::Run();
    ASSERT_EQ(comm->GetRecords().size(), 1u);
    EXPECT_TRUE(comm->GetRecords()[0].completed);
    // Both transports on one core: same ports, both registered.
    auto both = CreateObject<RailOptimizedTopologyHelper>();
    both->SetAttribute("Servers", UintegerValue(2));
    both->SetAttribute("GpusPerServer", UintegerValue(2));
    both->SetAttribute("Transports", StringValue("roce+uet"));
    both->Install();
    for (uint32_t r = 0; r < both->GetNRanks(); ++r)
    {
        EXPECT_EQ(both->GetNic(r)->GetCore(), both->GetUetNic(r)->GetCore());
        EXPECT_EQ(both->GetUetNic(r)->GetNPorts(), both->GetNvLinkPort() + 1);
        EXPECT_EQ(both->GetUetNic(r)->GetAddress(1), both->GetAddress(r, 1));
    }
    CollectiveHelper roce;
    roce.SetTopology(both);
    EXPECT_EQ(roce.GetTransportType(), "ns3::RoceCollectiveTransport");
}

using UetCollectiveDeathTest = UetCollectiveTest;

TEST_F(UetCollectiveDeathTest, ClearErrors)
{
    BuildStar(2);
    auto t = CreateObject<UetCollectiveTransport>();
    EXPECT_DEATH(t->SetAttribute("DeliveryMode", StringValue("RUDI")),
                 "DeliveryMode=RUDI is not supported: collective messages are WRITEs");
    EXPECT_DEATH(t->SetAttribute("DeliveryMode", StringValue("UUD")),
                 "DeliveryMode=UUD is not supported");
    EXPECT_DEATH(t->SetAttribute("DeliveryMode", StringValue("FAST")),
                 "DeliveryMode=FAST is out of range: valid range RUD, ROD");
    EXPECT_DEATH(t->SetAttribute("MaxMessageBytes", UintegerValue(0)),
                 "MaxMessageBytes=0 is out of range: valid range 1..4294967295");
    EXPECT_DEATH(t->SetAttribute("MaxMessageBytes", UintegerValue(1ull << 32)),
                 "MaxMessageBytes=4294967296 is out of range");
    EXPECT_DEATH(t->SetAttribute("JobId", UintegerValue(1 << 24)),
                 "JobId=16777216 is out of range: valid range 0..16777215");
    Ptr<Node> bare = CreateObject<Node>();
    EXPECT_DEATH(t->SetRankNodes({star.GetHosts().Get(0), bare}),
                 "the node of rank 1 \\(node [0-9]+\\) has no UetNic");
    t->SetRankNodes({star.GetHosts().Get(0), star.GetHosts().Get(1)});
    Recorder rec;
    EXPECT_DEATH(t->Send(0, 0, 0, 10, &rec, 0), "rank 0 cannot send to itself");
    EXPECT_DEATH(t->Send(0, 2, 0, 10, &rec, 0), "rank 2 does not exist \\(the transport has 2");
    t->SetPortSelector(MakeCallback(
        +[](uint32_t, uint32_t, uint32_t) { return std::make_pair(uint32_t(0), uint32_t(3)); }));
    EXPECT_DEATH(t->Send(0, 1, 0, 10, &rec, 0),
                 "the port selector chose port 0 of rank 0 \\(1 ports\\) and port 3 of rank 1");
    // An endpoint the job did not make is not taken over.
    uetNics[1]->CreateEndpoint(1, 0);
    auto u = CreateObject<UetCollectiveTransport>();
    u->SetRankNodes({star.GetHosts().Get(0), star.GetHosts().Get(1)});
    EXPECT_DEATH(u->Send(0, 1, 0, 10, &rec, 0),
                 "rank 1 \\(node [0-9]+ port 0\\) already has the endpoint \\{JobID 1, PIDonFEP "
                 "0\\}, not made by a collective transport");
    EXPECT_DEATH(coll.SetTransportType("ns3::Uet"),
                 "\"ns3::Uet\" is not the TypeId of a CollectiveTransport");
    EXPECT_DEATH(star.GetNic(0), "host 0 has no RoceNic \\(transports \"uet\"\\)");
    EXPECT_DEATH(star.SetTransports("uet"), "SetTransports after Install");
    StarTopologyHelper other;
    EXPECT_DEATH(other.SetTransports("ib"),
                 "transports=\"ib\" is invalid; valid values are transports joined by '\\+', each "
                 "once, from: roce, uet");
    auto rail = CreateObject<RailOptimizedTopologyHelper>();
    EXPECT_DEATH(rail->SetAttribute("Transports", StringValue("tcp")),
                 "Transports=\"tcp\" is out of range: valid range registered transport plug-ins "
                 "joined by '\\+', each once \\(roce, uet, roce\\+uet, ...\\)");
    rail->SetAttribute("Servers", UintegerValue(2));
    rail->SetAttribute("GpusPerServer", UintegerValue(2));
    rail->Install();
    EXPECT_DEATH(rail->GetUetNic(1), "GetUetNic: rank 1 has no UetNic \\(Transports=\"roce\"");
    CollectiveHelper h;
    h.SetTopology(rail);
    h.SetTransportType("uet");
    EXPECT_DEATH(h.CreateWorldCommunicator(), "the node of rank 0 \\(node [0-9]+\\) has no UetNic");
}

} // namespace
