/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RoCEv2 vs Ultra Ethernet on one fabric: FabricTransportConfig (what a UET fabric gets:
 * lossy trimmed class, spraying NICs, BDP-sized queue and ECN, NSCC's BaseRtt = the largest
 * unloaded RTT, which FabricTopologyHelper computes as FatTreeTopologyHelper does), the flow
 * runner over both transports, and examples/roce-vs-uet end to end on a tiny fabric: every row
 * of the table, every UET run complete with its bytes conserved and no PFC pause on its class.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// A small rail-optimized fabric: 4 servers x 2 GPUs, 2 servers per SU, 2 spines.
Ptr<RailOptimizedTopologyHelper>
SmallRail()
{
    auto t = CreateObject<RailOptimizedTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(4));
    t->SetAttribute("GpusPerServer", UintegerValue(2));
    t->SetAttribute("ServersPerSu", UintegerValue(2));
    t->SetAttribute("Spines", UintegerValue(2));
    return t;
}

/// \return the time a frame of \p bytes (+ preamble) takes at \p rate, picoseconds
int64_t
Ser(uint32_t bytes, double bps)
{
    return static_cast<int64_t>(std::llround((bytes + 8) * 8 / bps * 1e12));
}

class TransportConfigTest : public test::SimTest
{
};

TEST_F(TransportConfigTest, MaxUnloadedRttOfARailFabricCountsItsFourCables)
{
    auto t = SmallRail();
    t->Install();
    // GPU - leaf - spine - leaf - GPU: 4 cables at 400 Gb/s, 1 us each, both ways.
    const uint32_t data = UetTransportPlugin::DataFrameBytes(4096);
    EXPECT_EQ(data, 4198u);
    const int64_t ps = 4 * (Ser(data, 400e9) + Ser(70, 400e9) + 2 * 1000000);
    EXPECT_NEAR(double(t->GetMaxUnloadedRtt(data, 70).GetPicoSeconds()), double(ps), 4.0);
    EXPECT_EQ(t->GetLinkDelay(FabricLinkTier::LEAF_SPINE), MicroSeconds(1));
    EXPECT_EQ(t->GetLinkDelay(FabricLinkTier::SPINE_CORE), Time(0));
}

TEST_F(TransportConfigTest, MaxUnloadedRttOfTheBaseEqualsTheFatTreesOwn)
{
    auto ft = CreateObject<FatTreeTopologyHelper>();
    ft->SetAttribute("K", UintegerValue(4));
    ft->SetAttribute("SwitchLatency", TimeValue(NanoSeconds(500)));
    ft->Install();
    EXPECT_EQ(ft->GetMaxUnloadedRtt(ft->GetDataFrameBytes(), UetTransportPlugin::ACK_FRAME_BYTES),
              ft->GetMaxUnloadedRtt());
}

TEST_F(TransportConfigTest, RoceKeepsTheTopologyDefaults)
{
    auto tc = CreateObject<FabricTransportConfig>();
    tc->SetTransportAttribute("CongestionControl", StringValue("none"));
    auto t = SmallRail();
    tc->Configure(t);
    t->Install();
    tc->Finish(t);
    EXPECT_EQ(tc->GetPlugin()->GetName(), "roce");
    TypeIdValue cc;
    t->GetNic(0)->GetAttribute("CongestionControl", cc);
    EXPECT_EQ(cc.Get(), FabricNoneCongestionOps::GetTypeId());
    Ptr<FabricSwitch> leaf = t->GetLeaf(0)->GetObject<FabricSwitch>();
    EXPECT_TRUE(leaf->GetMmu()->IsLossless(3));
    EXPECT_FALSE(leaf->GetMmu()->IsTrimEnabled(1));
    EXPECT_EQ(leaf->GetMmu()->GetEgressLimit(), 0u);
}

TEST_F(TransportConfigTest, UetGetsALossyTrimmedClassSprayingAndNsccWithTheUnloadedRtt)
{
    auto tc = CreateObject<FabricTransportConfig>();
    tc->SetAttribute("Transport", StringValue("uet"));
    auto t = SmallRail();
    tc->Configure(t);
    t->Install();
    tc->Finish(t);
    Ptr<UetTransportPlugin> uet = DynamicCast<UetTransportPlugin>(tc->GetPlugin());
    ASSERT_TRUE(uet);
    EXPECT_EQ(uet->GetDataPriority(), 1);

    const Time rtt = t->GetMaxUnloadedRtt(UetTransportPlugin::DataFrameBytes(4096),
                                          UetTransportPlugin::ACK_FRAME_BYTES);
    EXPECT_EQ(uet->GetBaseRtt(), rtt);
    const uint64_t bdp = static_cast<uint64_t>(std::ceil(400e9 / 8 * rtt.GetSeconds()));
    EXPECT_EQ(uet->GetBdpBytes(), bdp);
    EXPECT_EQ(uet->GetQueueBytes(), bdp); // QueueBdp 1
    EXPECT_EQ(uet->GetRtoMin(), MicroSeconds(15) + BytesTxTime(6 * bdp, DataRate("400Gbps")));

    for (uint32_t r = 0; r < t->GetNRanks(); ++r)
    {
        Ptr<UetNic> nic = t->GetUetNic(r);
        EXPECT_EQ(nic->GetDataDscp(), 8);
        EXPECT_FALSE(nic->GetAckOnHole());
        EXPECT_EQ(nic->GetOooThreshold(), 0u);
        EXPECT_EQ(nic->GetRtoMin(), uet->GetRtoMin());
        EXPECT_EQ(nic->GetEvSelectorPrototype()->GetName(), "reps");
        Ptr<FabricCongestionOps> cc = nic->GetCongestionPrototype();
        ASSERT_EQ(cc->GetInstanceTypeId(), NsccCongestionOps::GetTypeId());
        TimeValue base;
        cc->GetAttribute("BaseRtt", base);
        EXPECT_EQ(base.Get(), rtt) << "rank " << r;
    }
    EXPECT_DEATH(t->GetNic(0), "has no RoceNic|no RoceNic"); // UET only
}

TEST_F(TransportConfigTest, UetSwitchesTrimTheDataClassAndMarkItAtTheBdpFractions)
{
    auto tc = CreateObject<FabricTransportConfig>();
    tc->SetAttribute("Transport", StringValue("uet"));
    auto t = SmallRail();
    tc->Configure(t);
    t->Install();
    tc->Finish(t);
    Ptr<UetTransportPlugin> uet = DynamicCast<UetTransportPlugin>(tc->GetPlugin());
    const double bdp400 = 400e9 / 8 * uet->GetBaseRtt().GetSeconds();
    for (uint32_t i = 0; i < t->GetNLeaves() + t->GetNSpines(); ++i)
    {
        Ptr<Node> n = i < t->GetNLeaves() ? t->GetLeaf(i) : t->GetSpine(i - t->GetNLeaves());
        Ptr<FabricSwitch> sw = n->GetObject<FabricSwitch>();
        EXPECT_TRUE(sw->GetMmu()->IsTrimEnabled(1));
        EXPECT_FALSE(sw->GetMmu()->IsLossless(1));
        EXPECT_EQ(sw->GetMmu()->GetEgressLimit(), uet->GetQueueBytes());
        Ptr<WredEcnMarker> ecn = sw->GetEcnMarker();
        for (uint32_t p = 0; p < ecn->GetNPorts(); ++p)
        {
            EXPECT_EQ(ecn->GetKmin(p), static_cast<uint64_t>(std::ceil(0.2 * bdp400)));
            EXPECT_EQ(ecn->GetKmax(p), static_cast<uint64_t>(std::ceil(0.8 * bdp400)));
            EXPECT_EQ(ecn->GetPmax(p), 1.0);
        }
        UintegerValue prios;
        ecn->GetAttribute("EcnPriorities", prios);
        EXPECT_EQ(prios.Get(), 0x02u);
    }
    for (uint32_t s = 0; s < t->GetNNvSwitches(); ++s)
    {
        EXPECT_TRUE(t->GetNvSwitch(s)->GetObject<FabricSwitch>()->GetMmu()->IsTrimEnabled(1));
    }
}

TEST_F(TransportConfigTest, SingleEvKeepsAckOnHoleAndOtherCcsApply)
{
    auto tc = CreateObject<FabricTransportConfig>();
    tc->SetAttribute("Transport", StringValue("uet"));
    tc->SetTransportAttribute("CongestionControl", StringValue("none"));
    tc->SetTransportAttribute("EvStrategy", StringValue("single"));
    tc->SetTransportAttribute("Trimming", BooleanValue(false));
    tc->SetTransportAttribute("QueueBdp", DoubleValue(0));
    auto t = SmallRail();
    tc->Configure(t);
    t->Install();
    tc->Finish(t);
    Ptr<UetNic> nic = t->GetUetNic(0);
    EXPECT_TRUE(nic->GetAckOnHole());
    EXPECT_EQ(nic->GetOooThreshold(), 3u); // no trimming: losses are inferred
    EXPECT_EQ(nic->GetEvSelectorPrototype()->GetName(), "single");
    EXPECT_EQ(nic->GetCongestionPrototype()->GetInstanceTypeId(),
              FabricNoneCongestionOps::GetTypeId());
    EXPECT_EQ(nic->GetRtoMin(), MicroSeconds(100)); // no static queue: the NIC default
    Ptr<FabricSwitch> leaf = t->GetLeaf(0)->GetObject<FabricSwitch>();
    EXPECT_FALSE(leaf->GetMmu()->IsTrimEnabled(1));
    EXPECT_EQ(leaf->GetMmu()->GetEgressLimit(), 0u);
}

TEST_F(TransportConfigTest, BadValuesAreRefusedNamingThem)
{
    EXPECT_DEATH(FabricTransportConfig::CheckTransport("tcp", "--transport"),
                 "--transport=tcp is invalid; valid values are roce, uet");
    EXPECT_DEATH(UetTransportPlugin::CheckCongestionControlName("dctcp", "--uet-cc"),
                 "--uet-cc=dctcp is invalid; valid values are none, nscc, rccc, both");
    EXPECT_DEATH(UetTransportPlugin::CheckEvStrategy("random", "--ev-strategy"),
                 "--ev-strategy=random is invalid; valid values are single, oblivious, "
                 "bitmap, reps, mixed");
    EXPECT_DEATH(RoceTransportPlugin::CheckCongestionControlName("cubic", "--cc"),
                 "--cc=cubic is invalid; valid values are dcqcn, none, dctcp, timely, swift, "
                 "hpcc");
    auto plugin = CreateObject<UetTransportPlugin>();
    EXPECT_DEATH(plugin->SetAttribute("EvStrategy", StringValue("x")),
                 "ns3::UetTransportPlugin::EvStrategy=x is out of range");
    auto tc = CreateObject<FabricTransportConfig>();
    // UET on the lossless priority 3 (DSCP 26): Configure names the DSCP at once (issue 39:
    // it used to be the switches refusing to trim it, blaming TrimPriorities), with trimming
    // or without (Finish would refuse UET with PFC anyway).
    tc->SetAttribute("Transport", StringValue("uet"));
    tc->SetTransportAttribute("DataDscp", UintegerValue(26));
    auto t = SmallRail();
    EXPECT_DEATH(tc->Configure(t),
                 "UetTransportPlugin::DataDscp=26 maps to priority 3, a lossless \\(PFC\\)");
    tc->SetTransportAttribute("Trimming", BooleanValue(false));
    auto t2 = SmallRail();
    EXPECT_DEATH(tc->Configure(t2),
                 "UetTransportPlugin::DataDscp=26 maps to priority 3, a lossless \\(PFC\\)");
    EXPECT_DEATH(plugin->SetAttribute("DataDscp", UintegerValue(48)),
                 "ns3::UetTransportPlugin::DataDscp=48 is out of range: valid range 0..47");
}

TEST_F(TransportConfigTest, BothRunsNsccBesideRcccWithTheFabricsBaseRtt)
{
    auto tc = CreateObject<FabricTransportConfig>();
    tc->SetAttribute("Transport", StringValue("uet"));
    tc->SetTransportAttribute("CongestionControl", StringValue("both"));
    auto t = SmallRail();
    tc->Configure(t);
    t->Install();
    tc->Finish(t);
    Ptr<RcccCongestionOps> rccc =
        DynamicCast<RcccCongestionOps>(t->GetUetNic(0)->GetCongestionPrototype());
    ASSERT_TRUE(rccc);
    Ptr<NsccCongestionOps> nscc = DynamicCast<NsccCongestionOps>(rccc->GetSenderCc());
    ASSERT_TRUE(nscc);
    TimeValue base;
    nscc->GetAttribute("BaseRtt", base);
    const Time fabricRtt = DynamicCast<UetTransportPlugin>(tc->GetPlugin())->GetBaseRtt();
    EXPECT_EQ(base.Get(), fabricRtt);
    rccc->GetAttribute("BaseRtt", base);
    EXPECT_EQ(base.Get(), fabricRtt);
    EXPECT_EQ(rccc->GetName(), "RCCC+NSCC");
}

// ---- the flow runner, both transports ----------------------------------------------------

class FlowRunnerTest : public test::SimTest, public ::testing::WithParamInterface<std::string>
{
};

TEST_P(FlowRunnerTest, AnIncastCompletesWithFctsOverEitherTransport)
{
    auto tc = CreateObject<FabricTransportConfig>();
    tc->SetAttribute("Transport", StringValue(GetParam()));
    auto t = SmallRail();
    tc->Configure(t);
    t->Install();
    tc->Finish(t);
    // Ranks 2, 4, 6 (other servers) -> rank 0; matrix node i = rank ranks[i].
    HtsimConnectionMatrix m(4);
    for (uint32_t s = 1; s < 4; ++s)
    {
        HtsimConnection c;
        c.src = s;
        c.dst = 0;
        c.bytes = 1000000;
        m.Add(c);
    }
    FabricFlowRunner runner(t, m, {0, 2, 4, 6});
    EXPECT_EQ(runner.GetTransport(), GetParam());
    runner.Start();
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    ASSERT_TRUE(runner.AllCompleted());
    const UetFctSummary s = runner.GetSummary();
    EXPECT_EQ(s.flows, 3u);
    EXPECT_EQ(s.completed, 3u);
    // 3 MB through rank 0's 400 Gb/s port: at least 60 us for the last one.
    EXPECT_GT(s.max, MicroSeconds(60));
    EXPECT_LE(s.median, s.p99);
    std::ostringstream csv;
    runner.WriteCsv(csv);
    EXPECT_NE(csv.str().find("1,1,0,1000000,"), std::string::npos) << csv.str();
    if (GetParam() == "uet")
    {
        uint64_t delivered = t->GetUetNic(0)->GetCounters().bytesDelivered;
        EXPECT_EQ(delivered, 3000000u);
    }
}

INSTANTIATE_TEST_SUITE_P(Transports, FlowRunnerTest, ::testing::Values("roce", "uet"));

TEST_F(FlowRunnerTest, BadRanksAreRefused)
{
    auto t = SmallRail();
    t->Install();
    HtsimConnectionMatrix m(3);
    EXPECT_DEATH(FabricFlowRunner(t, m, {0, 1}), "the matrix has 3 nodes but only 2 ranks");
    EXPECT_DEATH(FabricFlowRunner(t, m, {0, 1, 99}),
                 "rank 99 does not exist; valid ranks are 0..7");
    EXPECT_DEATH(FabricFlowRunner(t, m, {0, 1, 1}), "rank 1 is given twice");
}

// ---- the comparison ------------------------------------------------------------------------

/// The TE plan of a collective follows its schedule: a pairwise AlltoAll with PXN on 4
/// servers x 2 GPUs sends only between same-rail GPUs of different servers (the NVLink relay
/// took the cross-rail blocks), each GPU to the 3 others of its rail at a third of its NIC; the
/// ring AllReduce (2 channels, one rail-aware ring per rail) sends each GPU to the same-rail
/// GPU of the next server only, at its whole NIC.
TEST_F(TransportConfigTest, PlanCollectiveFollowsTheSchedulesNetworkTransfers)
{
    for (auto op : {CollectiveOp::ALL_TO_ALL, CollectiveOp::ALL_REDUCE})
    {
        auto t = SmallRail();
        t->GetSwitchHelper().SetLoadBalancerByName("te", "test");
        t->Install();
        CollectiveHelper coll;
        coll.SetTopology(t);
        coll.SetCommunicatorAttribute("Channels", UintegerValue(2));
        coll.SetCommunicatorAttribute("Algorithm", StringValue("Ring"));
        coll.SetCommunicatorAttribute("Protocol", StringValue("Simple"));
        coll.SetCommunicatorAttribute("Pxn", BooleanValue(op == CollectiveOp::ALL_TO_ALL));
        Ptr<CollectiveCommunicator> comm = coll.CreateWorldCommunicator("world");
        auto te = CreateObject<FabricTeController>();
        te->SetTopology(t);
        TransportComparison::PlanCollective(t, comm, op, 16 << 20, te);
        const FabricTePlan& plan = te->GetPlan();
        std::map<Ipv4Address, uint32_t> rankOf;
        for (uint32_t r = 0; r < t->GetNRanks(); ++r)
        {
            rankOf[t->GetAddress(r, 0)] = r;
        }
        const bool a2a = op == CollectiveOp::ALL_TO_ALL;
        ASSERT_EQ(plan.demands.size(), a2a ? 24u : 8u) << CollectiveOpName(op);
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        for (const auto& d : plan.demands)
        {
            const uint32_t a = rankOf.at(d.src);
            const uint32_t b = rankOf.at(d.dst);
            pairs.insert({a, b});
            EXPECT_NE(t->GetServerOf(a), t->GetServerOf(b));
            EXPECT_EQ(t->GetLocalOf(a), t->GetLocalOf(b)) << a << " -> " << b;
            EXPECT_NEAR(d.rateBps, a2a ? 400e9 / 3 : 400e9, 1.0) << a << " -> " << b;
            if (!a2a)
            {
                EXPECT_EQ(t->GetServerOf(b), (t->GetServerOf(a) + 1) % 4) << a << " -> " << b;
            }
            EXPECT_TRUE(d.met) << a << " -> " << b;
        }
        EXPECT_EQ(pairs.size(), plan.demands.size());
        EXPECT_LE(plan.maxUtilization, 1.0);
        Simulator::Destroy();
    }
}

TEST(TransportComparisonNames, ConfigurationsAndScenariosAreParsedOrRefused)
{
    auto value = [](Ptr<FabricTransportConfig> c, const std::string& name) {
        auto v = DynamicCast<const StringValue>(c->GetTransportAttribute(name));
        return v ? v->Get() : std::string("(unset)");
    };
    auto c = TransportComparison::MakeConfig("uet-none-single", "x");
    EXPECT_EQ(c->GetTransport(), "uet");
    EXPECT_EQ(value(c, "CongestionControl"), "none");
    EXPECT_EQ(value(c, "EvStrategy"), "single");
    c = TransportComparison::MakeConfig("roce-pfc", "x");
    EXPECT_EQ(c->GetTransport(), "roce");
    EXPECT_EQ(value(c, "CongestionControl"), "none");
    EXPECT_EQ(value(c, "EvStrategy"), "(unset)");
    EXPECT_DEATH(TransportComparison::MakeConfig("uet-nscc-spray", "--configs"),
                 "--configs: configuration \"uet-nscc-spray\" is invalid; valid are "
                 "roce-dcqcn, roce-pfc and uet-<cc>");
    EXPECT_DEATH(TransportComparison::MakeConfig("roce", "--configs"),
                 "configuration \"roce\" is invalid");
    EXPECT_DEATH(TransportComparison::CheckScenario("alltoall-down", "--scenarios"),
                 "--scenarios: scenario \"alltoall-down\" is invalid");
    TransportComparison::CheckScenario("alltoall-failure", "--scenarios");
    TransportComparison::CheckScenario("incast-failure", "x"); // valid
}

/// The roce-vs-uet binary from CMake (empty when this build mode has none).
std::string
Example()
{
#ifdef AI_FABRIC_ROCE_VS_UET
    return AI_FABRIC_ROCE_VS_UET;
#else
    return "";
#endif
}

TEST(RoceVsUet, TinyRunHasEveryRowAndEveryUetRunCompletesLossyWithoutPfc)
{
    if (Example().empty())
    {
        GTEST_SKIP() << "example path unknown in this build mode";
    }
    int status = 0;
    std::string out = test::RunCommand(Example() + " --servers=2 --servers-per-su=1 --spines=1"
                                                   " --max-bytes=4194304 --flow-bytes=1000000"
                                                   " --csv=rvu-test.csv 2>/dev/null",
                                       &status);
    ASSERT_EQ(status, 0) << out;
    const std::vector<std::string> configs = {"roce-dcqcn", "roce-pfc", "uet-nscc", "uet-rccc"};
    const std::vector<std::string> scenarios = {"allreduce",
                                                "incast",
                                                "permutation",
                                                "allreduce-failure",
                                                "permutation-failure"};
    auto rows = test::ReadCsv("rvu-test.csv");
    std::map<std::pair<std::string, std::string>, uint32_t> seen;
    std::map<std::string, double> busbw; // "scenario/config/bytes" -> busbw
    for (const auto& r : rows)
    {
        const std::string where = r.at("scenario") + " / " + r.at("config");
        seen[{r.at("scenario"), r.at("config")}]++;
        EXPECT_EQ(r.at("ok"), "1") << where;
        const bool collective = r.at("flows") == "0";
        if (collective)
        {
            EXPECT_FALSE(r.at("busbw_GBps").empty()) << where;
            busbw[r.at("scenario") + "/" + r.at("config") + "/" + r.at("bytes")] =
                std::stod(r.at("busbw_GBps"));
        }
        else
        {
            EXPECT_EQ(r.at("completed"), r.at("flows")) << where;
            EXPECT_LE(std::stod(r.at("fct_median_us")), std::stod(r.at("fct_p99_us"))) << where;
        }
        if (r.at("transport") == "uet")
        {
            // Complete, every byte posted delivered, lossy: no PFC at all, none on its class.
            EXPECT_GT(std::stoull(r.at("uet_bytes_posted")), 0u) << where;
            EXPECT_EQ(r.at("uet_bytes_posted"), r.at("uet_bytes_delivered")) << where;
            EXPECT_EQ(r.at("pfc_pauses_data_class"), "0") << where;
            EXPECT_EQ(r.at("pfc_pauses"), "0") << where;
            EXPECT_EQ(r.at("drops"), "0") << where; // trimmed, not dropped
        }
        else
        {
            EXPECT_EQ(r.at("trims"), "0") << where;
            EXPECT_EQ(r.at("uet_bytes_posted"), "0") << where;
        }
    }
    for (const auto& s : scenarios)
    {
        for (const auto& c : configs)
        {
            const uint32_t expected = s.rfind("allreduce", 0) == 0 ? 2 : 1; // 1 and 4 MiB
            EXPECT_EQ((seen[{s, c}]), expected) << s << " / " << c;
            // The table on stdout has the row too.
            EXPECT_NE(out.find(s + (expected == 2 ? " 4MiB" : "")), std::string::npos) << s;
        }
    }
    EXPECT_EQ(rows.size(), 2 * 4 * 2 + 3 * 4u);
    for (const auto& c : configs)
    {
        EXPECT_NE(out.find("# " + c), std::string::npos) << "no description of " << c;
    }
    // The incast overflows rank 0's 1-BDP UET queue: UET trims (and the receiver NACKs every
    // trimmed packet); RoCE queues it (lossless).
    for (const auto& r : rows)
    {
        if (r.at("scenario") == "incast" && r.at("config") == "roce-pfc")
        {
            EXPECT_GT(std::stoull(r.at("max_queue_bytes")), 417136u);
        }
        if (r.at("scenario") == "incast" && r.at("config") == "uet-nscc")
        {
            EXPECT_GT(std::stoull(r.at("trims")), 0u);
            EXPECT_EQ(r.at("trims"), r.at("trim_nacks"));
        }
    }
    // A degraded spine cable costs UET's sprayed AllReduce bandwidth (it sprays over it).
    EXPECT_LT(busbw["allreduce-failure/uet-nscc/4194304"], busbw["allreduce/uet-nscc/4194304"]);
}

} // namespace
