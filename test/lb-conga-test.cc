/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The global tier: CongaLoadBalancer's fields in the IPv4 Identification (stamp at the source
 * leaf, CE raised in transit, recorded and fed back by the destination leaf), its choice by
 * remote congestion and its aging; on a Clos whose spine-0-to-ToR-1 cable runs at a quarter
 * of the rate, CONGA moves the traffic off the path the sending ToR cannot see, where random
 * flowlets do not.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/fabric-wire-header.h"

#include <memory>
#include <random>
#include <unordered_map>

using namespace ns3;

namespace
{

constexpr uint32_t HOST_A = 0x0a000001; //!< a host on leaf 0
constexpr uint32_t HOST_B = 0x0a000101; //!< a host on leaf 1

/// A CONGA balancer on leaf 0 of two (ports 0-1 hosts, 2-3 uplinks, 400 Gb/s), or on a spine.
Ptr<CongaLoadBalancer>
Conga(bool leaf)
{
    auto lb = CreateObject<CongaLoadBalancer>();
    SwitchFabricInfo info;
    info.leaf = leaf ? 0 : SwitchFabricInfo::NOT_A_LEAF;
    info.leaves = 2;
    info.hostPort = {leaf, leaf, false, false};
    info.rates.assign(4, DataRate("400Gbps"));
    auto ips = std::make_shared<std::unordered_map<uint32_t, uint32_t>>();
    (*ips)[HOST_A] = 0;
    (*ips)[HOST_B] = 1;
    info.leafOfIp = ips;
    lb->SetFabricInfo(info);
    return lb;
}

using CongaTest = test::SimTest;

} // namespace

TEST_F(CongaTest, FieldsPackIntoTheIpv4IdentificationAsCongasWidths)
{
    EXPECT_EQ(CongaLoadBalancer::Pack(0, 0, false, 0, 0), 0x8000);
    EXPECT_EQ(CongaLoadBalancer::Pack(15, 7, true, 15, 7), 0xffff);
    EXPECT_EQ(CongaLoadBalancer::Pack(5, 3, true, 9, 6),
              0x8000 | 5 << 11 | 3 << 8 | 0x80 | 9 << 3 | 6);
}

TEST_F(CongaTest, FeedbackSteersNewFlowletsOffTheRemotelyCongestedUplink)
{
    auto lb = Conga(true);
    uint8_t ip[20] = {0x45};
    // The reverse traffic from leaf 1 arrives for host port 0: it went out of leaf 1 on its
    // uplink 1 with CE 2, and feeds back that leaf 0's uplink tag 0 (port 2) path is at 7.
    wire::PutU16(ip + 4, CongaLoadBalancer::Pack(1, 2, true, 0, 7));
    lb->OnEgress(ip, test::RoceUdpKey(HOST_B, HOST_A, 1, 2), 0, 1000, MicroSeconds(1));
    EXPECT_EQ(wire::GetU16(ip + 4), 0u); // cleared before the host
    EXPECT_EQ(lb->GetRemoteMetric(1, 0, MicroSeconds(1)), 7u);
    EXPECT_EQ(lb->GetRemoteMetric(1, 1, MicroSeconds(1)), 0u);
    // Every new flow to leaf 1 takes port 3; locally the two uplinks are equally idle.
    const uint32_t up[] = {2, 3};
    for (uint16_t f = 0; f < 100; ++f)
    {
        EXPECT_EQ(lb->Select(test::RoceUdpKey(HOST_A, HOST_B, f, 0), up, 2, MicroSeconds(2)), 3u);
    }
    EXPECT_GT(lb->GetCongaCounters().remoteChoices, 40u); // local ties would split them
    // A packet of leaf 0 to leaf 1 is stamped with its uplink's tag and feeds back what leaf 0
    // learned of leaf 1's uplink 1 (CE 2).
    wire::PutU16(ip + 4, 0);
    lb->OnEgress(ip, test::RoceUdpKey(HOST_A, HOST_B, 1, 0), 3, 1000, MicroSeconds(2));
    EXPECT_EQ(wire::GetU16(ip + 4), CongaLoadBalancer::Pack(1, 0, true, 1, 2));
    // The metric is held for MetricAging (100 us), then decays one step per 100 us: 6 at
    // 101-200 us after it was learned, 1 at 601-700 us, 0 from 701 us: both uplinks are used
    // again.
    EXPECT_EQ(lb->GetRemoteMetric(1, 0, MicroSeconds(100)), 7u);
    EXPECT_EQ(lb->GetRemoteMetric(1, 0, MicroSeconds(102)), 6u);
    EXPECT_EQ(lb->GetRemoteMetric(1, 0, MicroSeconds(700)), 1u);
    EXPECT_EQ(lb->GetRemoteMetric(1, 0, MicroSeconds(702)), 0u);
    std::set<uint32_t> seen;
    for (uint16_t f = 100; f < 200; ++f)
    {
        seen.insert(lb->Select(test::RoceUdpKey(HOST_A, HOST_B, f, 0), up, 2, MicroSeconds(702)));
    }
    EXPECT_EQ(seen.size(), 2u);
}

TEST_F(CongaTest, TransitRaisesCeToItsEgressUtilization)
{
    auto spine = Conga(false);
    // 4 KiB every 100 ns on port 1 (327.68 Gb/s of a 400 Gb/s port) for 40 us: 81,920 B per
    // 2 us period; just after the decay at 40 us the register holds its steady state
    // 0.8 x 81,920 / 0.2 = 327,680 B of a full scale of 50 GB/s x 2 us / 0.2 = 500,000 B:
    // 8 x 0.655 = 5.2, metric 5.
    for (int i = 0; i < 400; ++i)
    {
        uint8_t ip[20] = {0x45};
        spine->OnEgress(ip, test::RoceUdpKey(HOST_A, HOST_B, 1, 0), 1, 4096, NanoSeconds(100 * i));
    }
    EXPECT_EQ(spine->GetLocalMetric(1, MicroSeconds(40)), 5u);
    EXPECT_EQ(spine->GetLocalMetric(0, MicroSeconds(40)), 0u);
    uint8_t ip[20] = {0x45};
    wire::PutU16(ip + 4, CongaLoadBalancer::Pack(3, 1, false, 0, 0));
    spine->OnEgress(ip, test::RoceUdpKey(HOST_A, HOST_B, 1, 0), 1, 4096, MicroSeconds(40));
    EXPECT_EQ(wire::GetU16(ip + 4), CongaLoadBalancer::Pack(3, 5, false, 0, 0));
    // A CE already above the local value stays.
    wire::PutU16(ip + 4, CongaLoadBalancer::Pack(3, 7, false, 0, 0));
    spine->OnEgress(ip, test::RoceUdpKey(HOST_A, HOST_B, 1, 0), 1, 4096, MicroSeconds(40));
    EXPECT_EQ(wire::GetU16(ip + 4), CongaLoadBalancer::Pack(3, 7, false, 0, 0));
    // Packets without CONGA fields are left alone.
    wire::PutU16(ip + 4, 0x1234);
    spine->OnEgress(ip, test::RoceUdpKey(HOST_A, HOST_B, 1, 0), 1, 4096, MicroSeconds(40));
    EXPECT_EQ(wire::GetU16(ip + 4), 0x1234u);
}

namespace
{

/// Bytes leaf 0 sent to spine 0 and to spine 1, and the time the last WRITE completed.
struct Split
{
    double viaSpine0{0};   //!< bytes on leaf 0's uplink to spine 0
    double viaSpine1{0};   //!< bytes on leaf 0's uplink to spine 1
    uint32_t completed{0}; //!< successful WRITEs
    Time last;             //!< last completion
};

/// Two ToRs of 4 hosts and 2 spines at 400 Gb/s (two cables from each ToR to each spine),
/// the spine 0 to ToR 1 cables at 100 Gb/s; each of hosts 0-3 drives 4 QPs to its peer among
/// hosts 4-7, each QP a 64 KiB WRITE every 16 us (30 each: 131 Gb/s per host, 524 Gb/s into
/// ToR 1, of which the spine-1 paths alone can carry 800), QP q of host h starting at
/// (4h + q) us, under \p lb with a 2 us flowlet gap, run \p run of the random streams.
Split
RunDegraded(const std::string& lb, uint32_t run)
{
    RngSeedManager::SetRun(run);
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(8));
    t->SetAttribute("GpusPerServer", UintegerValue(1));
    t->SetAttribute("ServersPerRack", UintegerValue(4));
    t->SetAttribute("NvLink", BooleanValue(false));
    t->SetAttribute("Spines", UintegerValue(2));
    t->GetSwitchHelper().SetLoadBalancer(lb, "FlowletGap", TimeValue(MicroSeconds(2)));
    t->GetNicHelper().SetNicAttribute("OutOfOrderWindow", UintegerValue(4096));
    t->Install();
    for (uint32_t link : t->FindLinks(t->GetSpine(0), t->GetLeaf(1)))
    {
        t->SetLinkDataRate(link, DataRate("100Gbps"));
    }
    Split out;
    for (uint32_t h = 0; h < 4; ++h)
    {
        for (uint32_t q = 0; q < 4; ++q)
        {
            Ptr<RoceQueuePair> qp = t->Connect(h, 4 + h)[0].first;
            for (uint32_t m = 0; m < 30; ++m)
            {
                Simulator::Schedule(MicroSeconds(16 * m + 4 * h + q), [qp, &out]() {
                    qp->PostWrite(64 << 10,
                                  0,
                                  1,
                                  MakeCallback(+[](Split* s, const RoceWorkCompletion& wc) {
                                      s->completed += wc.status == RoceWcStatus::SUCCESS;
                                      s->last = Simulator::Now();
                                  }).Bind(&out));
                });
            }
        }
    }
    Simulator::Run();
    for (uint32_t s = 0; s < 2; ++s)
    {
        double b = 0;
        for (uint32_t link : t->FindLinks(t->GetLeaf(0), t->GetSpine(s)))
        {
            b += double(t->GetLinkTxBytes(link, t->GetLeaf(0)));
        }
        (s == 0 ? out.viaSpine0 : out.viaSpine1) = b;
    }
    Simulator::Destroy();
    return out;
}

} // namespace

TEST_F(CongaTest, AvoidsACongestedDownlinkItCannotSeeWhereRandomFlowletsDoNot)
{
    // Measured over runs 1-4: random flowlets send 0.50-0.51 of the bytes via spine 0 and
    // finish at 658-704 us; CONGA 0.04-0.06 and 490-491 us (the spine-0 paths carry 200 of
    // the 1000 Gb/s into ToR 1; the spine-1 paths alone carry the 524 Gb/s offered).
    for (uint32_t run = 1; run <= 4; ++run)
    {
        SCOPED_TRACE("run " + std::to_string(run));
        const Split random = RunDegraded("ns3::FlowletLoadBalancer", run);
        const Split conga = RunDegraded("ns3::CongaLoadBalancer", run);
        ASSERT_EQ(random.completed, 480u);
        ASSERT_EQ(conga.completed, 480u);
        const double randomShare = random.viaSpine0 / (random.viaSpine0 + random.viaSpine1);
        const double congaShare = conga.viaSpine0 / (conga.viaSpine0 + conga.viaSpine1);
        EXPECT_NEAR(randomShare, 0.5, 0.05);
        EXPECT_LT(congaShare, 0.2);
        EXPECT_LT(conga.last, random.last * 0.85);
    }
}
