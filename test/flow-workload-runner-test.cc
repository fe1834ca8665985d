/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FlowWorkloadRunner and FlowFctSummary: a lone flow's FCT equals its computed ideal FCT
 * (slowdown 1) for one packet, a few and many packets, on one ToR and across the spines; a
 * Poisson workload runs to completion with every flow recorded once, the QP pairs bounded by
 * the flows in flight (not by the flows started) and conservation of bytes; a reused QP pair
 * starts its next flow at line rate (fresh DCQCN state); the summary's buckets and nearest-rank
 * percentiles against hand-computed values; bad input aborts naming the value.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

using test::VectorSource;

/// Record callback: keep \p r in \p v.
void
Collect(std::vector<FlowFctRecord>* v, const FlowFctRecord& r)
{
    v->push_back(r);
}

class FlowWorkloadRunnerTest : public test::SimTest
{
  protected:
    /**
     * \param racks racks of 8 plain hosts (25 Gb/s) under ToRs with 2 x 100 Gb/s uplinks to
     *        two spines (non-blocking, 1 us links)
     * \param cc RoCE congestion control ("none", "dcqcn")
     * \return the installed Clos
     */
    Ptr<ClosTopologyHelper> Clos(uint32_t racks, const std::string& cc = "none")
    {
        auto t = CreateObject<ClosTopologyHelper>();
        t->SetAttribute("Servers", UintegerValue(8 * racks));
        t->SetAttribute("GpusPerServer", UintegerValue(1));
        t->SetAttribute("NvLink", BooleanValue(false));
        t->SetAttribute("ServersPerRack", UintegerValue(8));
        t->SetAttribute("Spines", UintegerValue(2));
        t->SetAttribute("GpuLinkDataRate", DataRateValue(DataRate("25Gbps")));
        t->SetAttribute("LeafSpineDataRate", DataRateValue(DataRate("100Gbps")));
        t->GetNicHelper().SetCongestionControl(cc);
        t->GetNicHelper().SetNicAttribute("Mtu", UintegerValue(1024));
        t->GetNicHelper().AssignStreams(1);
        t->Install();
        return t;
    }

    /**
     * \param racks racks of 8 plain hosts as Clos() builds, with Ultra Ethernet NICs (Mtu
     *        4096, the NICs' default congestion control) instead of RoCE
     * \return the installed Clos
     */
    Ptr<ClosTopologyHelper> UetClos(uint32_t racks)
    {
        auto t = CreateObject<ClosTopologyHelper>();
        t->SetAttribute("Servers", UintegerValue(8 * racks));
        t->SetAttribute("GpusPerServer", UintegerValue(1));
        t->SetAttribute("NvLink", BooleanValue(false));
        t->SetAttribute("ServersPerRack", UintegerValue(8));
        t->SetAttribute("Spines", UintegerValue(2));
        t->SetAttribute("GpuLinkDataRate", DataRateValue(DataRate("25Gbps")));
        t->SetAttribute("LeafSpineDataRate", DataRateValue(DataRate("100Gbps")));
        t->SetAttribute("Transports", StringValue("uet"));
        t->Install();
        return t;
    }

    /// \return a source reading \p flows
    static Ptr<FlowSource> Source(const std::vector<FlowSpec>& flows)
    {
        auto text = std::make_unique<std::stringstream>();
        FlowList::Write(*text, flows);
        auto r = CreateObject<FlowListReader>();
        r->Open(std::move(text), "test flows");
        return r;
    }

    /// \return flow \p id from \p src to \p dst of \p bytes at \p start
    static FlowSpec Flow(uint64_t id, uint32_t src, uint32_t dst, uint64_t bytes, Time start)
    {
        FlowSpec f;
        f.id = id;
        f.src = src;
        f.dst = dst;
        f.sizeBytes = bytes;
        f.start = start;
        return f;
    }
};

// One flow at a time on an idle fabric: FCT = ideal FCT to the picosecond's rounding, within
// the ToR (2 links) and across a spine (4 links), for 1 packet, a few and 1,000 packets.
TEST_F(FlowWorkloadRunnerTest, ALoneFlowTakesItsIdealFct)
{
    Ptr<ClosTopologyHelper> t = Clos(2);
    std::vector<FlowSpec> flows;
    uint64_t id = 1;
    Time start;
    for (uint32_t dst : {1u, 9u})
    {
        for (uint64_t bytes : {100ull, 1024ull, 2048ull, 3072ull, 5000ull, 1024000ull})
        {
            flows.push_back(Flow(id++, 0, dst, bytes, start));
            start += MilliSeconds(1); // the previous flow has long finished
        }
    }
    FlowWorkloadRunner run(t, Source(flows));
    std::vector<FlowFctRecord> got;
    run.SetRecordCallback(MakeBoundCallback(&Collect, &got));
    run.Start();
    Simulator::Run();
    ASSERT_TRUE(run.AllCompleted());
    ASSERT_EQ(got.size(), flows.size());
    EXPECT_EQ(run.GetPath(0, 1).rates.size(), 2u);
    EXPECT_EQ(run.GetPath(0, 9).rates.size(), 4u);
    for (const FlowFctRecord& r : got)
    {
        SCOPED_TRACE("flow " + std::to_string(r.id) + ", " + std::to_string(r.sizeBytes) + " B");
        EXPECT_TRUE(r.ok);
        EXPECT_EQ(r.retransmissions, 0u);
        // Exact for any number of packets, a short last packet included.
        EXPECT_EQ(r.end - r.start, r.ideal);
        EXPECT_EQ(r.transport, "roce");
        EXPECT_EQ(r.cc, "None");
    }
    // Hand-computed: 1,024,000 B in 1000 packets of 1024 B + 82 B (+16 B RETH on the first)
    // over 25, 100, 100 and 25 Gb/s links, 4 x 1 us each way, and the 86-B ACK back. The
    // destination's link is as slow as the source's, so the train's pace is set there and the
    // first, largest packet (1122 B) is the one that crosses the three links before it:
    // (1122 - 12) x (0.32 + 0.08 + 0.08) + (1,106,016 - 12) x 0.32 + 74 x (0.32 + 0.08 +
    // 0.08 + 0.32) + 8000 ns = 532.8 + 353,921.28 + 59.2 + 8000 = 362,513.28 ns (timing the
    // whole train on the first link and the last packet after it would give 7.68 ns less).
    EXPECT_EQ(run.GetIdealFct(0, 9, 1024000), PicoSeconds(362513280));
    // Five packets with a short last one (4 x 1024 + 904 B) within one ToR (two 25 Gb/s
    // links): the first packet (1122 B) crosses the first link, then all five the second:
    // (1122 - 12) x 0.32 + (1122 + 3 x 1106 + 986 - 12) x 0.32 + 74 x 0.64 + 4000 ns =
    // 355.2 + 1732.48 + 47.36 + 4000 = 6135.04 ns (the whole train on the first link and the
    // short last packet on the second would give 43.52 ns, 136 B, less).
    EXPECT_EQ(run.GetIdealFct(0, 1, 5000), PicoSeconds(6135040));
    // The unloaded RTT: one 1024-B packet (1122 B with RETH) out, its ACK back:
    // 1110 x (0.32 + 0.08 + 0.08 + 0.32) + 74 x 0.8 + 8000 = 888 + 59.2 + 8000 ns.
    EXPECT_EQ(run.GetUnloadedRtt(0, 9), PicoSeconds(8947200));
    EXPECT_EQ(run.GetUnloadedRtt(0, 9), run.GetIdealFct(0, 9, 1024));
}

// The same over Ultra Ethernet: a lone SES WRITE takes its ideal FCT (UET's packet format:
// 122 B per packet beyond the payload, a 90-B ACK), within one ToR and across a spine, and the
// record names the transport and the NICs' congestion control.
TEST_F(FlowWorkloadRunnerTest, ALoneUetFlowTakesItsIdealFct)
{
    Ptr<ClosTopologyHelper> t = UetClos(2);
    std::vector<FlowSpec> flows;
    uint64_t id = 1;
    Time start;
    for (uint32_t dst : {1u, 9u})
    {
        for (uint64_t bytes : {100ull, 4096ull, 8192ull, 20000ull, 4096000ull})
        {
            flows.push_back(Flow(id++, 0, dst, bytes, start));
            start += MilliSeconds(2);
        }
    }
    FlowWorkloadRunner run(t, Source(flows));
    std::vector<FlowFctRecord> got;
    run.SetRecordCallback(MakeBoundCallback(&Collect, &got));
    run.Start();
    EXPECT_EQ(run.GetTransport(), "uet");
    Simulator::Run();
    ASSERT_TRUE(run.AllCompleted());
    ASSERT_EQ(got.size(), flows.size());
    EXPECT_EQ(run.GetQpPairs(), 0u);
    for (const FlowFctRecord& r : got)
    {
        SCOPED_TRACE("flow " + std::to_string(r.id) + ", " + std::to_string(r.sizeBytes) + " B");
        EXPECT_TRUE(r.ok);
        EXPECT_EQ(r.retransmissions, 0u);
        EXPECT_EQ(r.end - r.start, r.ideal);
        EXPECT_EQ(r.transport, "uet");
    }
    // Hand-computed, one 100-B packet across a spine: (100 + 122 - 12) B x (0.32 + 0.08 +
    // 0.08 + 0.32) ns/B + (90 - 12) B x 0.8 ns/B + 8 x 1 us = 168 + 62.4 + 8000 ns.
    EXPECT_EQ(run.GetIdealFct(0, 9, 100), PicoSeconds(8230400));
}

// Every flow's congestion control is told its path's RTT: HPCC's T is the path RTT, not its
// 10 us BaseRtt, for a new QP pair and for a reused one; within one ToR it is shorter.
TEST_F(FlowWorkloadRunnerTest, CongestionControlStartsFromThePathRtt)
{
    Ptr<ClosTopologyHelper> t = Clos(2, "hpcc");
    FlowWorkloadRunner run(t,
                           Source({Flow(1, 0, 9, 5000, Time(0)),
                                   Flow(2, 0, 9, 5000, MicroSeconds(100)),
                                   Flow(3, 2, 1, 5000, MicroSeconds(200))}));
    std::vector<Time> rtts;
    run.SetRecordCallback(MakeBoundCallback(
        +[](std::vector<Time>* v, Ptr<ClosTopologyHelper> topo, const FlowFctRecord& rec) {
            // The requester: the source NIC's QP that has sent data.
            Ptr<RoceNic> nic = topo->GetRank(rec.src)->GetObject<RoceNic>();
            UintegerValue firstQpn;
            nic->GetAttribute("FirstQpn", firstQpn);
            for (uint32_t i = 0; i < nic->GetNQps(); ++i)
            {
                Ptr<RoceQueuePair> qp = nic->GetQp(firstQpn.Get() + i);
                if (qp->GetCounters().txDataPackets > 0)
                {
                    auto hpcc = DynamicCast<HpccCongestionOps>(qp->GetCongestionOps());
                    v->push_back(hpcc->GetBaseRtt());
                }
            }
        },
        &rtts,
        t));
    run.Start();
    Simulator::Run();
    ASSERT_TRUE(run.AllCompleted());
    EXPECT_EQ(run.GetQpPairs(), 2u); // flow 2 reused flow 1's pair
    ASSERT_EQ(rtts.size(), 3u);
    const Time spine = run.GetUnloadedRtt(0, 9);
    const Time tor = run.GetUnloadedRtt(2, 1);
    EXPECT_EQ(rtts[0], spine);
    EXPECT_EQ(rtts[1], spine);
    EXPECT_EQ(rtts[2], tor);
    EXPECT_LT(tor, spine);
    EXPECT_NE(spine, MicroSeconds(10));
}

// A Poisson workload at 50 % load: every flow finishes exactly once with its bytes, flows
// are read lazily (the QP pairs created stay far below the flows started), and the records
// stream out.
TEST_F(FlowWorkloadRunnerTest, APoissonWorkloadCompletesWithBoundedState)
{
    Ptr<ClosTopologyHelper> t = Clos(2, "dcqcn");
    auto g = CreateObject<FlowArrivalGenerator>();
    g->SetAttribute("Load", DoubleValue(0.5));
    g->SetAttribute("HostLinkRate", DataRateValue(DataRate("25Gbps")));
    g->SetAttribute("StopTime", TimeValue(MilliSeconds(5)));
    g->SetFlowSizeCdf(FlowSizeCdf::LoadShipped("fb-hadoop"));
    g->SetNHosts(16);
    g->AssignStreams(7);
    FlowWorkloadRunner run(t, g);
    std::vector<FlowFctRecord> got;
    run.SetRecordCallback(MakeBoundCallback(&Collect, &got));
    run.Start();
    Simulator::Run();
    ASSERT_TRUE(run.AllCompleted());
    std::set<uint64_t> ids;
    uint64_t bytes = 0;
    for (const FlowFctRecord& r : got)
    {
        EXPECT_TRUE(ids.insert(r.id).second) << "flow " << r.id << " recorded twice";
        bytes += r.sizeBytes;
        EXPECT_GE(r.GetSlowdown(), 1.0 - 1e-6) << "flow " << r.id;
    }
    EXPECT_GT(run.GetStarted(), 50u);
    EXPECT_EQ(ids.size(), run.GetStarted());
    EXPECT_EQ(run.GetSummary().GetFlows(), run.GetStarted());
    EXPECT_EQ(run.GetSummary().GetBytes(), bytes);
    EXPECT_LE(run.GetQpPairs(), run.GetMaxActive() * 16) << "pool bounded by flows in flight";
    EXPECT_LT(run.GetQpPairs(), run.GetStarted());
}

// The same workload over Ultra Ethernet, at 80 % load so that flows meet: every flow finishes
// once, the bytes delivered at the targets are the bytes of the flows, each flow's
// retransmissions are its own (part of the NICs' count), and every NIC knows its
// peers' path RTTs (NSCC's base delay) from the runner.
TEST_F(FlowWorkloadRunnerTest, AUetPoissonWorkloadCompletesAndConservesBytes)
{
    Ptr<ClosTopologyHelper> t = UetClos(2);
    auto g = CreateObject<FlowArrivalGenerator>();
    g->SetAttribute("Load", DoubleValue(0.8));
    g->SetAttribute("HostLinkRate", DataRateValue(DataRate("25Gbps")));
    g->SetAttribute("StopTime", TimeValue(MilliSeconds(5)));
    g->SetFlowSizeCdf(FlowSizeCdf::LoadShipped("fb-hadoop"));
    g->SetNHosts(16);
    g->AssignStreams(7);
    FlowWorkloadRunner run(t, g);
    std::vector<FlowFctRecord> got;
    run.SetRecordCallback(MakeBoundCallback(&Collect, &got));
    run.Start();
    Simulator::Run();
    ASSERT_TRUE(run.AllCompleted());
    std::set<uint64_t> ids;
    uint64_t bytes = 0;
    uint64_t retx = 0;
    for (const FlowFctRecord& r : got)
    {
        EXPECT_TRUE(ids.insert(r.id).second) << "flow " << r.id << " recorded twice";
        bytes += r.sizeBytes;
        retx += r.retransmissions;
        EXPECT_GE(r.GetSlowdown(), 1.0 - 1e-6) << "flow " << r.id;
        EXPECT_EQ(r.transport, "uet");
    }
    EXPECT_GT(run.GetStarted(), 50u);
    EXPECT_EQ(ids.size(), run.GetStarted());
    uint64_t delivered = 0;
    uint64_t nicRetx = 0;
    for (uint32_t h = 0; h < 16; ++h)
    {
        Ptr<UetNic> nic = t->GetRank(h)->GetObject<UetNic>();
        delivered += nic->GetCounters().bytesDelivered;
        nicRetx += nic->GetCounters().retransmissions;
    }
    EXPECT_EQ(delivered, bytes);
    // The flows' own retransmissions are part of the NICs' (which also count resent PDC
    // close requests); this load makes some.
    EXPECT_GT(retx, 0u);
    EXPECT_LE(retx, nicRetx);
    Ptr<UetNic> nic0 = t->GetRank(0)->GetObject<UetNic>();
    EXPECT_EQ(nic0->GetPathRtt(t->GetRank(9)->GetObject<UetNic>()->GetAddress(0)),
              run.GetUnloadedRtt(0, 9));
    EXPECT_EQ(nic0->GetPathRtt(t->GetRank(1)->GetObject<UetNic>()->GetAddress(0)),
              run.GetUnloadedRtt(0, 1));
    EXPECT_LT(run.GetUnloadedRtt(0, 1), run.GetUnloadedRtt(0, 9));
}

// A flow that met congestion leaves its QP pair at a reduced DCQCN rate; the next flow of the
// pair gets the pair back with fresh congestion control at line rate.
TEST_F(FlowWorkloadRunnerTest, AReusedQpPairStartsAtLineRate)
{
    Ptr<ClosTopologyHelper> t = Clos(1, "dcqcn");
    std::vector<FlowSpec> flows;
    // A 3 -> 1 incast of 2 MB congests host 0's link; then host 1 -> 0 again, alone.
    for (uint32_t s = 1; s <= 3; ++s)
    {
        flows.push_back(Flow(s, s, 0, 2000000, Time(0)));
    }
    flows.push_back(Flow(4, 1, 0, 100000, MilliSeconds(20)));
    FlowWorkloadRunner run(t, Source(flows));
    std::vector<FlowFctRecord> got;
    run.SetRecordCallback(MakeBoundCallback(&Collect, &got));
    run.Start();
    Simulator::Run();
    ASSERT_TRUE(run.AllCompleted());
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(run.GetQpPairs(), 3u) << "flow 4 reuses flow 1's pair";
    EXPECT_GT(got[0].GetSlowdown(), 2.0) << "the incast was congested";
    EXPECT_LT(got[3].GetSlowdown(), 1.01) << "a fresh QP at line rate";
}

// Per-peer QP numbering (what RoCE needs across MPI processes): the k-th pair from rank s to
// rank d has the requester QPN FirstQpn + 2 (k n + d) at s and the responder QPN
// FirstQpn + 2 (k n + s) + 1 at d (n = 8 ranks, FirstQpn 256); the sender connects its side
// only, the responder's QP is opened by its first packet (none before the run, no packet
// dropped as an unknown QP), and a reused pair again starts at line rate.
TEST_F(FlowWorkloadRunnerTest, PerPeerQpNumbersNeedNoExchangeAndOpenTheResponderOnItsFirstPacket)
{
    Config::SetDefault("ns3::RoceTransportPlugin::QpNumbering", StringValue("per-peer"));
    Ptr<ClosTopologyHelper> t = Clos(1, "dcqcn");
    std::vector<FlowSpec> flows;
    flows.push_back(Flow(1, 1, 0, 2000000, Time(0)));
    flows.push_back(Flow(2, 1, 0, 100000, Time(0))); // a second pair from 1 to 0: k = 1
    flows.push_back(Flow(3, 2, 0, 2000000, Time(0)));
    flows.push_back(Flow(4, 1, 0, 100000, MilliSeconds(20))); // reuses a pair of 1 -> 0
    FlowWorkloadRunner run(t, Source(flows));
    std::vector<FlowFctRecord> got;
    run.SetRecordCallback(MakeBoundCallback(&Collect, &got));
    run.Start();
    Ptr<RoceNic> nic0 = t->GetRank(0)->GetObject<RoceNic>();
    Ptr<RoceNic> nic1 = t->GetRank(1)->GetObject<RoceNic>();
    Ptr<RoceNic> nic2 = t->GetRank(2)->GetObject<RoceNic>();
    EXPECT_EQ(nic0->GetNQps(), 0u) << "no QP before the run";
    Simulator::Run();
    ASSERT_TRUE(run.AllCompleted());
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(run.GetQpPairs(), 3u);
    for (uint32_t qpn : {256u, 272u})
    {
        ASSERT_TRUE(nic1->GetQp(qpn)) << "requester " << qpn;
        EXPECT_EQ(nic1->GetQp(qpn)->GetRemoteQpn(), qpn + 3) << "k n + 1, responder";
    }
    EXPECT_TRUE(nic2->GetQp(256 + 2 * 0)) << "rank 2's pair to rank 0";
    for (uint32_t qpn : {259u, 275u, 261u})
    {
        EXPECT_TRUE(nic0->GetQp(qpn)) << "responder " << qpn << " opened by its first packet";
    }
    EXPECT_EQ(nic0->GetNQps(), 275u - 256 + 1) << "numbered slots, the others empty";
    const FabricAggregateCounters c = t->GetAggregateCounters();
    EXPECT_EQ(c.total.GetNicDrops(), 0u) << "no packet to an unknown QP";
    EXPECT_GT(got[0].GetSlowdown(), 1.5) << "three flows share host 0's link";
    EXPECT_LT(got[3].GetSlowdown(), 1.01) << "a renewed pair at line rate";
}

// The HPCC-lineage reference workload without congestion control: PFC alone keeps the
// oversubscribed fabric lossless (ports sized for 1 KB packets; the headroom formula counted
// two frames, one short, and this run dropped 142 lossless packets), and every flow finishes.
TEST_F(FlowWorkloadRunnerTest, TheReferenceWorkloadWithoutCcLosesNothing)
{
    auto exp = CreateObject<ClosWorkloadHelper>();
    exp->SetAttribute("CongestionControl", StringValue("none"));
    exp->Install();
    exp->Start();
    Simulator::Run();
    EXPECT_TRUE(exp->GetRunner().AllCompleted());
    EXPECT_GT(exp->GetRunner().GetSummary().GetFlows(), 500u);
    const FabricAggregateCounters c = exp->GetTopology()->GetAggregateCounters();
    EXPECT_GT(c.total.pfcPauseTx, 1000u) << "PFC did the work";
    EXPECT_EQ(c.total.losslessDrops, 0u);
    EXPECT_EQ(c.total.GetSwitchDrops() + c.total.GetPortDrops() + c.total.GetNicDrops(), 0u);
}

// HPCC on a 2-leaf Clos at 80 % load: the INT bytes fit the ports the helper sizes from the
// transport (PortMtuFromTransport; without them every data packet was dropped as oversize),
// every flow finishes with nothing dropped, and HPCC keeps the switch queues near empty:
// its largest egress queue is a fraction of DCQCN's on the same flows.
TEST_F(FlowWorkloadRunnerTest, HpccRunsAWorkloadWithShortQueues)
{
    uint64_t maxQueue[2];
    for (int i = 0; i < 2; ++i)
    {
        auto exp = CreateObject<ClosWorkloadHelper>();
        exp->SetAttribute("Leaves", UintegerValue(2));
        exp->SetAttribute("HostsPerLeaf", UintegerValue(8));
        exp->SetAttribute("Load", DoubleValue(0.8));
        exp->SetAttribute("Duration", TimeValue(MilliSeconds(2)));
        exp->SetAttribute("CongestionControl", StringValue(i == 0 ? "hpcc" : "dcqcn"));
        exp->Install();
        exp->Start();
        Simulator::Run();
        ASSERT_TRUE(exp->GetRunner().AllCompleted());
        EXPECT_EQ(exp->GetRunner().GetSummary().GetFailed(), 0u);
        const FabricAggregateCounters c = exp->GetTopology()->GetAggregateCounters();
        EXPECT_EQ(c.total.GetSwitchDrops() + c.total.GetPortDrops() + c.total.GetNicDrops(), 0u);
        maxQueue[i] = std::max(exp->GetQueueSampler()->GetStats("leaf").max,
                               exp->GetQueueSampler()->GetStats("spine").max);
        Simulator::Destroy();
    }
    EXPECT_LT(maxQueue[0] * 4, maxQueue[1])
        << "HPCC " << maxQueue[0] << " B, DCQCN " << maxQueue[1] << " B";
}

// The experiment over Ultra Ethernet: the same flows (same seed) complete over UetNics with
// NSCC and spraying, nothing is lost for good (trimmed packets are resent), and the bad
// transport names abort naming the attribute.
TEST_F(FlowWorkloadRunnerTest, TheExperimentRunsOverUltraEthernetToo)
{
    uint64_t flows[2];
    for (int i = 0; i < 2; ++i)
    {
        auto exp = CreateObject<ClosWorkloadHelper>();
        exp->SetAttribute("Leaves", UintegerValue(2));
        exp->SetAttribute("HostsPerLeaf", UintegerValue(8));
        exp->SetAttribute("Load", DoubleValue(0.8));
        exp->SetAttribute("Duration", TimeValue(MilliSeconds(2)));
        exp->SetAttribute("Transport", StringValue(i == 0 ? "uet" : "roce"));
        exp->Install();
        exp->Start();
        Simulator::Run();
        ASSERT_TRUE(exp->GetRunner().AllCompleted());
        EXPECT_EQ(exp->GetRunner().GetTransport(), i == 0 ? "uet" : "roce");
        flows[i] = exp->GetRunner().GetSummary().GetFlows();
        if (i == 0)
        {
            EXPECT_TRUE(exp->GetTopology()->GetRank(0)->GetObject<UetNic>());
            EXPECT_FALSE(exp->GetTopology()->GetRank(0)->GetObject<RoceNic>());
        }
        Simulator::Destroy();
    }
    EXPECT_EQ(flows[0], flows[1]) << "the same workload over both transports";
    auto bad = CreateObject<ClosWorkloadHelper>();
    bad->SetAttribute("Transport", StringValue("tcp"));
    EXPECT_DEATH(bad->Install(),
                 "ns3::ClosWorkloadHelper::Transport=tcp is invalid; valid values are roce, uet");
    bad->SetAttribute("Transport", StringValue("uet"));
    bad->SetAttribute("UetCongestionControl", StringValue("dcqcn"));
    EXPECT_DEATH(bad->Install(),
                 "ns3::ClosWorkloadHelper::UetCongestionControl=dcqcn is invalid; valid values "
                 "are none, nscc, rccc, both");
}

// The spines' own buffer and ECN thresholds reach the spines only; the leaves keep the common
// ones; spine thresholds that cross abort naming them.
TEST_F(FlowWorkloadRunnerTest, SpineSettingsOfTheExperimentReachTheSpinesOnly)
{
    auto exp = CreateObject<ClosWorkloadHelper>();
    exp->SetAttribute("Leaves", UintegerValue(2));
    exp->SetAttribute("HostsPerLeaf", UintegerValue(8));
    exp->SetAttribute("SpineBufferSize", UintegerValue(8000000));
    exp->SetAttribute("SpineKmin", QueueSizeValue(QueueSize("50KB")));
    exp->SetAttribute("SpinePmax", DoubleValue(0.5));
    exp->Install();
    Ptr<FabricSwitch> leaf = exp->GetTopology()->GetLeaf(0)->GetObject<FabricSwitch>();
    Ptr<FabricSwitch> spine = exp->GetTopology()->GetSpine(0)->GetObject<FabricSwitch>();
    UintegerValue leafBuffer;
    UintegerValue spineBuffer;
    leaf->GetMmu()->GetAttribute("BufferSize", leafBuffer);
    spine->GetMmu()->GetAttribute("BufferSize", spineBuffer);
    EXPECT_EQ(leafBuffer.Get(), 4000000u);
    EXPECT_EQ(spineBuffer.Get(), 8000000u);
    // Per 25 Gb/s, scaled to the 100 Gb/s ports: leaf uplink 100/400 KB -> 400/1600 KB.
    const uint32_t up = leaf->GetNPorts() - 1;
    EXPECT_EQ(leaf->GetEcnMarker()->GetKmin(up), 400000u);
    EXPECT_DOUBLE_EQ(leaf->GetEcnMarker()->GetPmax(up), 0.2);
    EXPECT_EQ(spine->GetEcnMarker()->GetKmin(0), 200000u);
    EXPECT_EQ(spine->GetEcnMarker()->GetKmax(0), 1600000u); // SpineKmax 0: Kmax
    EXPECT_DOUBLE_EQ(spine->GetEcnMarker()->GetPmax(0), 0.5);
    auto bad = CreateObject<ClosWorkloadHelper>();
    bad->SetAttribute("SpineKmin", QueueSizeValue(QueueSize("500KB")));
    EXPECT_DEATH(bad->Install(),
                 "the spines' Kmin 500000B is above their Kmax 400000B \\(SpineKmin, SpineKmax");
    bad->SetAttribute("SpineKmin", QueueSizeValue(QueueSize("0B")));
    bad->SetAttribute("SpinePmax", DoubleValue(-0.5));
    EXPECT_DEATH(bad->Install(), "SpinePmax=-0.5 is invalid; valid values are \\[0, 1\\] and -1");
}

/// Finished callback: count the calls in \p n.
void
CountCall(int* n)
{
    ++*n;
}

// StopArrivals: flows every 10 us, stopped at 25 us: the three flows that started (0, 10,
// 20 us) finish, the one read ahead (30 us) never starts, the source is not read again, the
// finished callback runs once after the last of them; stopping again changes nothing, and a
// runner stopped before Start() starts nothing and reports finished at Start().
TEST_F(FlowWorkloadRunnerTest, StopArrivalsLetsTheFlowsInFlightFinish)
{
    Ptr<ClosTopologyHelper> t = Clos(1);
    std::vector<FlowSpec> flows;
    for (uint32_t i = 0; i < 10; ++i)
    {
        flows.push_back(Flow(i + 1, i % 8, (i + 1) % 8, 100000, MicroSeconds(10 * i)));
    }
    FlowWorkloadRunner run(t, CreateObject<VectorSource>(flows));
    std::vector<FlowFctRecord> got;
    run.SetRecordCallback(MakeBoundCallback(&Collect, &got));
    int finished = 0;
    run.SetFinishedCallback(MakeBoundCallback(&CountCall, &finished));
    run.Start();
    Simulator::Schedule(MicroSeconds(25), &FlowWorkloadRunner::StopArrivals, &run);
    Simulator::Schedule(MicroSeconds(26), &FlowWorkloadRunner::StopArrivals, &run);
    Simulator::Run();
    EXPECT_TRUE(run.IsStopped());
    EXPECT_EQ(run.GetStarted(), 3u);
    ASSERT_EQ(got.size(), 3u);
    for (uint64_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(got[i].id, i + 1);
        EXPECT_TRUE(got[i].ok);
    }
    EXPECT_GT(got[2].end, MicroSeconds(25)) << "a flow was in flight at the stop";
    EXPECT_EQ(finished, 1);
    EXPECT_TRUE(run.AllCompleted());
    EXPECT_LT(Simulator::Now(), MicroSeconds(100)) << "the flow at 30 us did not start";
    Simulator::Destroy();

    Ptr<ClosTopologyHelper> t2 = Clos(1);
    FlowWorkloadRunner idle(t2, CreateObject<VectorSource>(flows));
    int idleFinished = 0;
    idle.SetFinishedCallback(MakeBoundCallback(&CountCall, &idleFinished));
    idle.StopArrivals();
    idle.Start();
    Simulator::Run();
    EXPECT_EQ(idle.GetStarted(), 0u);
    EXPECT_EQ(idleFinished, 1);
    EXPECT_TRUE(idle.AllCompleted());
}

/// The job's last collective finished: stop the background's arrivals.
void
StopBackground(FlowWorkloadRunner* bg, const CollectiveRecord&)
{
    bg->StopArrivals();
}

// Background flows beside a collective job on one fabric (16 hosts, DCQCN): a ring AllReduce
// of 1 MiB twice over every host, and Poisson fb-hadoop flows at 50 % of each host link
// until the job's last collective finished. Both complete: the runner's QPs and the job's
// share the NICs (each NIC holds the job's QPs plus the runner's), every flow is recorded
// once and started before the job ended, and the job is slower than alone on the fabric.
TEST_F(FlowWorkloadRunnerTest, BackgroundFlowsRunBesideACollectiveJob)
{
    Time jobTime[2];
    uint32_t jobQps = 0;
    for (int withBg = 0; withBg < 2; ++withBg)
    {
        Ptr<ClosTopologyHelper> t = Clos(2, "dcqcn");
        CollectiveHelper coll;
        coll.SetTopology(t);
        coll.AssignStreams(10);
        Ptr<CollectiveCommunicator> job = coll.CreateWorldCommunicator("job");
        auto gen = CreateObject<FlowArrivalGenerator>();
        gen->SetAttribute("Load", DoubleValue(0.5));
        gen->SetAttribute("HostLinkRate", DataRateValue(DataRate("25Gbps")));
        gen->SetAttribute("StopTime", TimeValue(Seconds(1)));
        gen->SetFlowSizeCdf(FlowSizeCdf::LoadShipped("fb-hadoop"));
        gen->SetNHosts(t->GetNRanks());
        gen->AssignStreams(100);
        FlowWorkloadRunner bg(t, gen);
        std::vector<FlowFctRecord> got;
        bg.SetRecordCallback(MakeBoundCallback(&Collect, &got));
        job->Enqueue(CollectiveOp::ALL_REDUCE, 1 << 20);
        job->Enqueue(CollectiveOp::ALL_REDUCE, 1 << 20, 0, MakeBoundCallback(&StopBackground, &bg));
        if (withBg)
        {
            bg.Start();
        }
        Simulator::Run();
        const auto& records = job->GetRecords();
        ASSERT_EQ(records.size(), 2u);
        ASSERT_TRUE(records[0].completed && records[1].completed);
        jobTime[withBg] = records[1].end - records[0].start;
        uint32_t qps = 0;
        for (uint32_t r = 0; r < t->GetNRanks(); ++r)
        {
            qps += t->GetRank(r)->GetObject<RoceNic>()->GetNQps();
        }
        if (!withBg)
        {
            EXPECT_EQ(bg.GetStarted(), 0u);
            jobQps = qps;
        }
        else
        {
            EXPECT_TRUE(bg.AllCompleted());
            EXPECT_GT(bg.GetStarted(), 50u);
            EXPECT_EQ(got.size(), bg.GetStarted());
            std::set<uint64_t> ids;
            for (const FlowFctRecord& r : got)
            {
                ids.insert(r.id);
                EXPECT_TRUE(r.ok) << "flow " << r.id;
                EXPECT_LE(r.start, records[1].end) << "flow " << r.id;
            }
            EXPECT_EQ(ids.size(), got.size()) << "each flow recorded once";
            EXPECT_EQ(qps, jobQps + 2 * bg.GetQpPairs()) << "the job's QPs and the runner's";
        }
        Simulator::Destroy();
    }
    EXPECT_GT(jobTime[1].GetSeconds(), jobTime[0].GetSeconds() * 1.05)
        << "alone " << jobTime[0].As(Time::US) << ", beside "
        << "the background " << jobTime[1].As(Time::US);
}

// Nearest-rank percentiles and buckets, by hand: slowdowns 1..100 in bucket 0 (sizes 1..100),
// p95 = the 95th smallest = 95, p99 = 99, median = 50; one failed flow is counted apart.
TEST_F(FlowWorkloadRunnerTest, SummaryBucketsAndPercentilesByHand)
{
    FlowFctSummary s;
    s.SetBucketEdges({100, 1000});
    for (uint64_t i = 1; i <= 100; ++i)
    {
        FlowFctRecord r;
        r.id = i;
        r.sizeBytes = i;
        r.start = MicroSeconds(1);
        r.ideal = MicroSeconds(1);
        r.end = r.start + MicroSeconds(i);
        r.ok = true;
        s.Add(r);
    }
    FlowFctRecord big;
    big.sizeBytes = 5000;
    big.start = MicroSeconds(1);
    big.ideal = MicroSeconds(10);
    big.end = MicroSeconds(21);
    big.ok = true;
    s.Add(big);
    FlowFctRecord failed;
    failed.sizeBytes = 500;
    failed.end = MicroSeconds(300);
    s.Add(failed);
    const auto b = s.GetBuckets();
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[0].flows, 100u);
    EXPECT_DOUBLE_EQ(b[0].medianSlowdown, 50);
    EXPECT_DOUBLE_EQ(b[0].p95Slowdown, 95);
    EXPECT_DOUBLE_EQ(b[0].p99Slowdown, 99);
    EXPECT_DOUBLE_EQ(b[0].meanSlowdown, 50.5);
    EXPECT_EQ(b[0].meanFct, NanoSeconds(50500));
    EXPECT_EQ(b[1].flows, 0u);
    EXPECT_EQ(b[2].flows, 1u);
    EXPECT_EQ(b[2].loBytes, 1001u);
    EXPECT_EQ(b[2].hiBytes, std::numeric_limits<uint64_t>::max());
    EXPECT_DOUBLE_EQ(b[2].p99Slowdown, 2);
    EXPECT_EQ(s.GetFlows(), 102u);
    EXPECT_EQ(s.GetFailed(), 1u);
    EXPECT_EQ(s.GetBytes(), 5050u + 5000u);
    // (10,050 B x 8) / (300 us - 0 us): the failed flow started at 0 and ended at 300 us.
    EXPECT_NEAR(s.GetGoodputBps(), 10050 * 8 / 300e-6, 1e-3);
    std::ostringstream csv;
    s.WriteCsv(csv);
    EXPECT_NE(csv.str().find("0,1,100,100,50.000000,95.000000,99.000000,50.500000,50.5,99\n"),
              std::string::npos)
        << csv.str();
    std::ostringstream row;
    FlowFctSummary::WriteRecordCsv(row, big);
    EXPECT_EQ(row.str(), "0,0,0,5000,1,21,20,10,2.000000,0,1,,\n");
}

TEST_F(FlowWorkloadRunnerTest, BadInputAbortsNamingTheValue)
{
    FlowFctSummary s;
    EXPECT_DEATH(s.SetBucketEdges({100, 100}), "bucket edge 100 \\(position 1\\) is invalid");
    EXPECT_DEATH(s.SetBucketEdges({0}), "bucket edge 0 \\(position 0\\) is invalid");
    FlowFctRecord r;
    r.id = 9;
    r.ok = true;
    EXPECT_DEATH(s.Add(r), "flow 9 has an ideal FCT of .*; it must be > 0");
    EXPECT_DEATH(
        {
            Ptr<ClosTopologyHelper> t = Clos(1);
            FlowWorkloadRunner run(
                t,
                CreateObject<VectorSource>(std::vector<FlowSpec>{Flow(1, 0, 70, 100, Time(0))}));
            run.Start();
            Simulator::Run();
        },
        "flow 1 goes from host 0 to host 70; valid hosts are 0..7");
    EXPECT_DEATH(
        {
            Ptr<ClosTopologyHelper> t = Clos(1);
            FlowWorkloadRunner run(t,
                                   CreateObject<VectorSource>(
                                       std::vector<FlowSpec>{Flow(1, 0, 1, 100, MicroSeconds(5)),
                                                             Flow(2, 1, 0, 100, MicroSeconds(4))}));
            run.Start();
            Simulator::Run();
        },
        "flow 2 starts at .*, before the flow read before it");
    // Transports: an unknown name, a transport the hosts do not carry, a flow too large for
    // one UET message, a JobID or delivery mode out of range.
    {
        Ptr<ClosTopologyHelper> t = Clos(1);
        FlowWorkloadRunner run(t, Source({Flow(1, 0, 1, 100, Time(0))}));
        EXPECT_DEATH(run.SetTransport("tcp"), "transport \"tcp\" is invalid; valid are roce, uet");
        Ptr<FabricTransportPlugin> uet = t->GetTransport("uet");
        EXPECT_DEATH(uet->SetAttribute("FlowJobId", UintegerValue(1u << 24)),
                     "FlowJobId=16777216 .*0..16777215");
        EXPECT_DEATH(uet->SetAttribute("FlowDeliveryMode", StringValue("UUD")),
                     "FlowDeliveryMode=UUD .*RUD, ROD");
        run.SetTransport("uet");
        EXPECT_DEATH(run.Start(), "transport uet, but rank 0 has no UetNic");
    }
    EXPECT_DEATH(
        {
            Ptr<ClosTopologyHelper> t = UetClos(1);
            FlowWorkloadRunner run(t, Source({Flow(1, 0, 1, 1ull << 32, Time(0))}));
            run.Start();
        },
        "flow 1 has 4294967296 bytes; valid sizes over UET are 1..4294967295 \\(one message\\)");
    EXPECT_DEATH(
        {
            Ptr<ClosTopologyHelper> t = UetClos(1);
            FlowWorkloadRunner run(t, Source({Flow(1, 0, 1, 100, Time(0))}));
            run.SetTransport("roce");
            run.Start();
        },
        "transport roce, but rank 0 has no RoceNic");
}

} // namespace
