/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RoceNic end to end through a FabricSwitch: line-rate WRITE goodput, go-back-N on a lost
 * packet, timeout on a tail loss, error completion on a cut link, READ, PSN wrap, CNP rate
 * limit, fairness among 1000 QPs, NIC-originated PFC, and bad input.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

using namespace ns3;

namespace
{

Ipv4Address
Ip(uint32_t i)
{
    return Ipv4Address(0x0a000001 + i);
}

/// N hosts with RoceNics on one switch (400 Gb/s, 1 us cables).
class RoceTest : public test::SimTest
{
  protected:
    void Build(uint32_t n = 2, std::string rate = "400Gbps")
    {
        hosts.Create(n);
        sw.Create(1);
        PfcHelper pfc;
        pfc.SetDeviceAttribute("DataRate", StringValue(rate));
        pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        if (pcpTagging)
        {
            pfc.SetDeviceAttribute("Tagging", EnumValue(PfcNetDevice::PCP));
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            NetDeviceContainer d = pfc.Install(hosts.Get(i), sw.Get(0));
            ports.push_back(DynamicCast<PfcNetDevice>(d.Get(0)));
        }
        fabric = switchHelper.Install(sw.Get(0));
        for (uint32_t i = 0; i < n; ++i)
        {
            fabric->GetForwardingTable()->SetRoute(Ip(i), {i});
            nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], Ip(i)));
        }
        nicHelper.AssignStreams(11);
        fabric->AssignStreams(12);
    }

    /// Callback that stores completions.
    RoceQueuePair::CompletionCallback Collect()
    {
        return MakeCallback(&RoceTest::OnCompletion, this);
    }

    void OnCompletion(const RoceWorkCompletion& wc)
    {
        completions.push_back(wc);
    }

    /// Store the receive completions of \p qp; \return where they go
    std::vector<RoceReceiveCompletion>& CollectReceives(Ptr<RoceQueuePair> qp)
    {
        qp->SetReceiveCallback(MakeCallback(+[](std::vector<RoceReceiveCompletion>* v,
                                                const RoceReceiveCompletion& rc) {
                                   v->push_back(rc);
                               }).Bind(&received));
        return received;
    }

    bool pcpTagging{false}; //!< Build(): 802.1Q-tagged frames (18-byte L2 headers)
    NodeContainer hosts;
    NodeContainer sw;
    SwitchHelper switchHelper;
    RoceNicHelper nicHelper;
    Ptr<FabricSwitch> fabric;
    std::vector<Ptr<PfcNetDevice>> ports;
    std::vector<Ptr<RoceNic>> nics;
    std::vector<RoceWorkCompletion> completions;
    std::vector<RoceReceiveCompletion> received; //!< see CollectReceives
};

/// Wire bytes of one full data packet: payload + ICRC + BTH + UDP + IPv4 + Ethernet + FCS +
/// preamble + IFG.
constexpr double WIRE_PER_PACKET = 4096 + 4 + 12 + 8 + 20 + 14 + 4 + 8 + 12; // 4178

TEST_F(RoceTest, OneGibWriteReachesLineRateGoodput)
{
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    const uint64_t bytes = 1ull << 30;
    qps[0].first->PostWrite(bytes, 0x1000, 0xabc, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    const auto& wc = completions[0];
    EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
    EXPECT_EQ(wc.bytes, bytes);
    double goodput = bytes * 8.0 / (wc.endTime - wc.startTime).GetSeconds();
    double expected = 400e9 * 4096 / WIRE_PER_PACKET; // 392.15 Gb/s
    EXPECT_NEAR(goodput / expected, 1.0, 0.01) << goodput / 1e9 << " Gb/s";
    const auto& rx = qps[0].second->GetCounters();
    EXPECT_EQ(rx.rxDataBytes, bytes);
    EXPECT_EQ(rx.rxDataPackets, bytes / 4096);
    EXPECT_EQ(qps[0].first->GetCounters().retransmittedPackets, 0u);
    EXPECT_EQ(rx.acksTx, bytes / 4096 / 16); // coalesced every 16 packets (and the last)
}

/// Drops the Nth frame of a given priority arriving at a port (a deterministic loss).
class DropNth
{
  public:
    DropNth(Ptr<PfcNetDevice> dev, std::vector<uint32_t> indices)
        : m_indices(indices)
    {
        auto em = CreateObject<ReceiveListErrorModel>();
        em->SetList(std::list<uint32_t>(indices.begin(), indices.end()));
        dev->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

  private:
    std::vector<uint32_t> m_indices;
};

TEST_F(RoceTest, GoBackNRecoversAMidMessageLossWithOneNak)
{
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    // The receiver's port sees only this QP's data: frame 50 (0-based) is PSN start + 50.
    DropNth drop(ports[1], {50});
    std::vector<uint32_t> resent;
    qps[0].first->TraceConnectWithoutContext(
        "Retransmit",
        MakeCallback(+[](std::vector<uint32_t>* v, uint32_t psn, const std::string& cause) {
            EXPECT_EQ(cause, "nak");
            v->push_back(psn);
        }).Bind(&resent));
    uint32_t startPsn = qps[0].second->GetCounters().rxDataPackets; // 0
    (void)startPsn;
    const uint64_t bytes = 200 * 4096;
    qps[0].first->PostWrite(bytes, 0, 1, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    const auto& tx = qps[0].first->GetCounters();
    const auto& rx = qps[0].second->GetCounters();
    EXPECT_EQ(rx.naksTx, 1u);
    EXPECT_EQ(tx.naksRx, 1u);
    ASSERT_EQ(resent.size(), 1u);
    // Delivered exactly once: 200 packets accepted, the rest of the first pass discarded.
    EXPECT_EQ(rx.rxDataPackets, 200u);
    EXPECT_EQ(rx.rxDataBytes, bytes);
    EXPECT_EQ(tx.retransmittedPackets, tx.txDataPackets - 200);
    EXPECT_EQ(rx.outOfOrderRx, tx.retransmittedPackets - 1); // all but the lost one arrived
    EXPECT_EQ(tx.timeouts, 0u);
}

TEST_F(RoceTest, TailLossIsRecoveredByTheLocalAckTimeout)
{
    nicHelper.SetNicAttribute("LocalAckTimeout", UintegerValue(8)); // 4.096 us x 256 = 1.05 ms
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    DropNth drop(ports[1], {9}); // the last of 10 packets
    qps[0].first->PostWrite(10 * 4096, 0, 1, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    const auto& tx = qps[0].first->GetCounters();
    EXPECT_EQ(tx.timeouts, 1u);
    EXPECT_EQ(tx.naksRx, 0u);
    EXPECT_EQ(qps[0].second->GetCounters().rxDataPackets, 10u);
    Time timeout = nics[0]->GetLocalAckTimeout();
    EXPECT_EQ(timeout, NanoSeconds(4096 * 256));
    EXPECT_GT(completions[0].endTime, timeout);
    EXPECT_LT(completions[0].endTime, timeout + MicroSeconds(20));
}

TEST_F(RoceTest, CutLinkExhaustsRetriesAndFlushesWithErrors)
{
    nicHelper.SetNicAttribute("LocalAckTimeout", UintegerValue(4)); // 65.5 us
    nicHelper.SetNicAttribute("RetryCount", UintegerValue(3));
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    ports[1]->GetPfcChannel()->SetLinkUp(false);
    qps[0].first->PostWrite(64 * 1024, 0, 1, Collect());
    qps[0].first->PostSend(100, Collect());
    Simulator::Run(); // must end on its own
    ASSERT_EQ(completions.size(), 2u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::RETRY_EXCEEDED);
    EXPECT_EQ(completions[1].status, RoceWcStatus::FLUSH_ERROR);
    EXPECT_EQ(qps[0].first->GetState(), RoceQueuePair::ERROR);
    Time bound = nics[0]->GetLocalAckTimeout() * 4 + MicroSeconds(10); // (retries + 1) timeouts
    EXPECT_LE(completions[0].endTime, bound);
    EXPECT_GE(completions[0].endTime, nics[0]->GetLocalAckTimeout() * 4);
    EXPECT_EQ(qps[0].first->GetCounters().timeouts, 4u);
    // Posting to a QP in error completes at once with FLUSH_ERROR.
    qps[0].first->PostWrite(10, 0, 1, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 3u);
    EXPECT_EQ(completions[2].status, RoceWcStatus::FLUSH_ERROR);
}

TEST_F(RoceTest, ReadFetchesRemoteDataAndRecoversALostResponse)
{
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    DropNth drop(ports[0], {30}); // requester's port: the 31st frame is a READ response
    qps[0].first->PostRead(100 * 4096 + 100, 0x2000, 7, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    EXPECT_EQ(completions[0].opcode, RoceWrOpcode::READ);
    const auto& req = qps[0].first->GetCounters();
    EXPECT_EQ(req.rxDataBytes, 100u * 4096 + 100);
    EXPECT_EQ(req.rxDataPackets, 101u);
    EXPECT_EQ(qps[0].second->GetCounters().duplicatesRx, 1u); // the re-issued READ request
}

TEST_F(RoceTest, SendAndWriteWithImmNotifyTheResponder)
{
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    std::vector<RoceReceiveCompletion>& got = CollectReceives(qps[0].second);
    qps[0].first->PostSend(10000, Collect());
    qps[0].first->PostWriteWithImm(5, 0xdeadbeef, 0, 1, Collect());
    qps[0].first->PostWrite(4096, 0, 1, Collect()); // no notification
    qps[0].first->PostSend(0, Collect());
    Simulator::Run();
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].opcode, RoceWrOpcode::SEND);
    EXPECT_EQ(got[0].bytes, 10000u);
    EXPECT_EQ(got[1].opcode, RoceWrOpcode::WRITE_WITH_IMM);
    EXPECT_TRUE(got[1].hasImm);
    EXPECT_EQ(got[1].imm, 0xdeadbeefu);
    EXPECT_EQ(got[1].bytes, 5u);
    EXPECT_EQ(got[2].bytes, 0u);
    ASSERT_EQ(completions.size(), 4u);
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(completions[i].status, RoceWcStatus::SUCCESS);
        EXPECT_EQ(completions[i].wrId, i + 1); // in order
    }
}

// A switch with a ProcessingDelay keeps frames as packets in its events and reloads their heads
// (RX_PEEK_BYTES) behind 18-byte tagged L2 headers: a WRITE with immediate's RETH + ImmDt still
// reach the NIC whole (the head holds 108 B since it was sized for Ultra Ethernet's headers).
TEST_F(RoceTest, ExtensionHeadersSurviveAReloadedFrameHead)
{
    pcpTagging = true;
    switchHelper.SetSwitchAttribute("ProcessingDelay", TimeValue(NanoSeconds(300)));
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    std::vector<RoceReceiveCompletion>& got = CollectReceives(qps[0].second);
    qps[0].first->PostWriteWithImm(5, 0xfeedf00d, 0, 1, Collect());     // one packet
    qps[0].first->PostWriteWithImm(10000, 0x01020304, 0, 1, Collect()); // three packets
    Simulator::Run();
    static_assert(PfcNetDevice::RX_PEEK_BYTES >= 18 + 20 + 8 + 12 + 16 + 4,
                  "tagged L2 + IPv4/UDP/BTH/RETH/ImmDt fit in a reloaded head");
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].opcode, RoceWrOpcode::WRITE_WITH_IMM);
    EXPECT_EQ(got[0].imm, 0xfeedf00du);
    EXPECT_EQ(got[0].bytes, 5u);
    EXPECT_EQ(got[1].imm, 0x01020304u);
    EXPECT_EQ(got[1].bytes, 10000u);
    ASSERT_EQ(completions.size(), 2u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    EXPECT_EQ(completions[1].status, RoceWcStatus::SUCCESS);
    EXPECT_EQ(nics[1]->GetDrops()[size_t(RoceNicDropReason::MALFORMED)], 0u);
}

TEST_F(RoceTest, PsnWrapsAround24Bits)
{
    Build();
    Ptr<RoceQueuePair> a = nics[0]->CreateQp();
    Ptr<RoceQueuePair> b = nics[1]->CreateQp();
    a->Connect(Ip(1), b->GetQpn(), 0xffffc0, 0x000010, 50000);
    b->Connect(Ip(0), a->GetQpn(), 0x000010, 0xffffc0, 50001);
    std::vector<uint32_t> psns;
    a->TraceConnectWithoutContext(
        "SendPsn",
        MakeCallback(+[](std::vector<uint32_t>* v, uint32_t, uint32_t now) {
            v->push_back(now);
        }).Bind(&psns));
    a->PostWrite(200 * 4096, 0, 1, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    EXPECT_EQ(b->GetCounters().rxDataPackets, 200u);
    EXPECT_EQ(psns.back(), (0xffffc0u + 200) & 0xffffff); // wrapped to 0x000088
}

TEST_F(RoceTest, CnpsAreRateLimitedPerQp)
{
    // Mark every ECT packet: Kmin = Kmax = 0 bytes.
    switchHelper.SetEcnAttribute("Kmin", QueueSizeValue(QueueSize("0B")));
    switchHelper.SetEcnAttribute("Kmax", QueueSizeValue(QueueSize("0B")));
    switchHelper.SetEcnAttribute("ScaleWithRate", BooleanValue(false));
    nicHelper.SetNicAttribute("CnpInterval", TimeValue(MicroSeconds(10)));
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1], 2);
    qps[0].first->PostWrite(64 << 20, 0, 1, Collect());
    qps[1].first->PostWrite(64 << 20, 0, 1, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    Time duration = std::max(completions[0].endTime, completions[1].endTime);
    for (auto& [a, b] : qps)
    {
        const auto& np = b->GetCounters();
        EXPECT_EQ(np.ceRx, np.rxDataPackets); // every packet was marked
        double maxCnps = duration.GetSeconds() / 10e-6 + 1;
        EXPECT_LE(double(np.cnpsTx), maxCnps);
        EXPECT_GE(double(np.cnpsTx), 0.9 * maxCnps - 2); // and not far below the limit
        EXPECT_EQ(a->GetCounters().cnpsRx, np.cnpsTx);
    }
}

/// Line-rate congestion control that records the RTT samples OnAck() receives.
class RttProbeCongestionOps : public FabricNoneCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::test::RttProbeCongestionOps")
                                .SetParent<FabricNoneCongestionOps>()
                                .SetGroupName("AiFabric")
                                .AddConstructor<RttProbeCongestionOps>()
                                .AddAttribute("WantsRtt",
                                              "Ask the QP for RTT samples.",
                                              BooleanValue(true),
                                              MakeBooleanAccessor(&RttProbeCongestionOps::m_want),
                                              MakeBooleanChecker());
        return tid;
    }

    bool WantsRttSamples() const override
    {
        return m_want;
    }

    Ptr<FabricCongestionOps> Fork() const override
    {
        return CopyObject<RttProbeCongestionOps>(this);
    }

    void OnAck(const FabricCcAckSample& sample) override
    {
        samples.push_back(sample.rtt);
    }

    bool m_want{true};         //!< WantsRttSamples()
    std::vector<Time> samples; //!< one per OnAck
};

TEST_F(RoceTest, RttSamplesReachOnlyTheAlgorithmsThatAskForThem)
{
    for (bool want : {true, false})
    {
        Simulator::Destroy();
        hosts = NodeContainer();
        sw = NodeContainer();
        ports.clear();
        nics.clear();
        completions.clear();
        nicHelper = RoceNicHelper();
        nicHelper.SetNicAttribute("CongestionControl",
                                  TypeIdValue(RttProbeCongestionOps::GetTypeId()));
        Config::SetDefault("ns3::test::RttProbeCongestionOps::WantsRtt", BooleanValue(want));
        Build();
        auto qps = nicHelper.Connect(nics[0], nics[1]);
        qps[0].first->PostWrite(64 * 4096, 0, 1, Collect());
        Simulator::Run();
        ASSERT_EQ(completions.size(), 1u);
        auto cc = DynamicCast<RttProbeCongestionOps>(qps[0].first->GetCongestionOps());
        ASSERT_TRUE(cc);
        ASSERT_EQ(cc->samples.size(), 4u) << "one ACK per 16 packets";
        for (Time rtt : cc->samples)
        {
            if (want)
            {
                // At least two 1 us cables each way plus a packet's serialization at each hop.
                EXPECT_GE(rtt, MicroSeconds(4)) << rtt;
                EXPECT_LT(rtt, MicroSeconds(20)) << rtt;
            }
            else
            {
                EXPECT_TRUE(rtt.IsZero()) << rtt;
            }
        }
    }
    Config::Reset();
}

TEST_F(RoceTest, ThousandQpsShareAPortFairly)
{
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1], 1000);
    for (auto& [a, b] : qps)
    {
        a->PostWrite(4ull << 20, 0, 1, RoceQueuePair::CompletionCallback());
    }
    Simulator::Stop(MicroSeconds(500)); // 1000 x 4 MiB would take 10.7 ms
    Simulator::Run();
    double sum = 0;
    double sumSq = 0;
    for (auto& [a, b] : qps)
    {
        double x = double(b->GetCounters().rxDataBytes);
        sum += x;
        sumSq += x * x;
    }
    double jain = sum * sum / (1000.0 * sumSq);
    EXPECT_GE(jain, 0.99) << jain;
    EXPECT_GT(sum, 0.9 * 392e9 / 8 * 490e-6); // the port stayed busy
}

TEST_F(RoceTest, NicOriginatedPfcPacesASlowReceiverWithoutLoss)
{
    Build();
    nics[1]->GetCore()->SetAttribute("RxDrainRate", DataRateValue(DataRate("100Gbps")));
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    qps[0].first->PostWrite(32 << 20, 0, 1, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    EXPECT_GT(ports[1]->GetCounters().pauseTx[3], 0u); // the NIC paused its leaf port
    double goodput =
        (32 << 20) * 8.0 / (completions[0].endTime - completions[0].startTime).GetSeconds();
    EXPECT_LT(goodput, 110e9); // limited to about the host drain rate
    EXPECT_GT(goodput, 90e9);
    EXPECT_EQ(qps[0].first->GetCounters().retransmittedPackets, 0u);
    uint64_t drops = 0;
    for (auto d : fabric->GetCounters().drops)
    {
        drops += d;
    }
    EXPECT_EQ(drops, 0u);
}

TEST_F(RoceTest, UnknownQpIsDroppedAndCounted)
{
    Build();
    Ptr<RoceQueuePair> a = nics[0]->CreateQp();
    a->Connect(Ip(1), 0x123456, 0, 0, 50000); // the remote NIC has no such QP
    a->PostSend(100, Collect());
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    EXPECT_EQ(nics[1]->GetDrops()[size_t(RoceNicDropReason::UNKNOWN_FLOW)], 1u);
    EXPECT_STREQ(RoceNicDropReasonName(RoceNicDropReason::UNKNOWN_FLOW), "unknown qp");
}

/// Frames a NIC port put on the wire and the IPv4 packets its MacTx trace reported.
struct FrameLog
{
    std::vector<std::vector<uint8_t>> frames; //!< PhyTxBegin
    std::vector<std::vector<uint8_t>> l3;     //!< MacTx

    static std::vector<uint8_t> Bytes(Ptr<const Packet> p)
    {
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        return b;
    }

    void Attach(Ptr<PfcNetDevice> dev)
    {
        dev->TraceConnectWithoutContext("PhyTxBegin",
                                        MakeCallback(+[](FrameLog* log, Ptr<const Packet> p) {
                                            log->frames.push_back(Bytes(p));
                                        }).Bind(this));
        dev->TraceConnectWithoutContext("MacTx",
                                        MakeCallback(+[](FrameLog* log, Ptr<const Packet> p) {
                                            log->l3.push_back(Bytes(p));
                                        }).Bind(this));
    }
};

TEST_F(RoceTest, NicFramesCarryThePortFramingAndTracesSeeIpv4Packets)
{
    // Port 0 tags (802.1Q, 18-byte L2 header), port 1 does not: both framings of the NIC's
    // whole-frame path (data, ACKs) must match what the port would have added itself.
    Build();
    ports[0]->SetAttribute("Tagging", StringValue("Pcp"));
    fabric->GetPort(0)->SetAttribute("Tagging", StringValue("Pcp"));
    FrameLog log[2];
    log[0].Attach(ports[0]);
    log[1].Attach(ports[1]);
    std::vector<uint32_t> dropped;
    nics[1]->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(+[](std::vector<uint32_t>* v, Ptr<const Packet> p, RoceNicDropReason) {
            uint8_t ip[4];
            p->CopyData(ip, 4);
            v->push_back(p->GetSize() == uint32_t(ip[2] << 8 | ip[3]) ? p->GetSize() : 0);
        }).Bind(&dropped));
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    qps[0].first->PostWrite(3 * 4096 + 100, 0, 1, Collect());
    Ptr<RoceQueuePair> stray = nics[0]->CreateQp();
    stray->Connect(Ip(1), 0x123456, 0, 0, 50000); // no such QP: dropped by NIC 1
    stray->PostSend(100, Collect());
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RoceWcStatus::SUCCESS);
    for (uint32_t side = 0; side < 2; ++side)
    {
        const uint32_t l2 = side == 0 ? 18 : 14;
        const FrameLog& f = log[side];
        ASSERT_EQ(f.frames.size(), f.l3.size()) << "side " << side;
        ASSERT_GE(f.frames.size(), side == 0 ? 5u : 1u) << "data + stray / ACKs";
        for (std::size_t i = 0; i < f.frames.size(); ++i)
        {
            const auto& fr = f.frames[i];
            const auto& ip = f.l3[i];
            ASSERT_GE(ip.size(), 20u);
            EXPECT_EQ(ip[0], 0x45);
            EXPECT_EQ(uint32_t(ip[2] << 8 | ip[3]), ip.size()) << "MacTx sees the IPv4 packet";
            EXPECT_EQ(fr.size(), std::max<std::size_t>(64, l2 + ip.size() + 4));
            EXPECT_EQ(fr[l2 - 2] << 8 | fr[l2 - 1], 0x0800);
            if (side == 0)
            {
                EXPECT_EQ(fr[12] << 8 | fr[13], 0x8100) << "802.1Q tag";
                EXPECT_EQ(fr[14] >> 5, qps[0].first->GetPriority()) << "PCP = data priority";
            }
            EXPECT_TRUE(std::equal(ip.begin(), ip.end(), fr.begin() + l2));
            EXPECT_TRUE(std::all_of(fr.begin() + l2 + ip.size(), fr.end(), [](uint8_t b) {
                return b == 0;
            })) << "padding and FCS field are zero";
        }
    }
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_GT(dropped[0], 0u) << "the Drop trace sees the IPv4 packet, without framing";
}

TEST_F(RoceTest, PcapOfWriteAndReadDecodesAsRoceV2)
{
    const std::string file = "roce-nic-test.pcap";
    std::remove(file.c_str());
    uint32_t qpnA = 0;
    uint32_t qpnB = 0;
    uint32_t psnA = 0;
    {
        Build();
        auto qps = nicHelper.Connect(nics[0], nics[1]);
        qpnA = qps[0].first->GetQpn();
        qpnB = qps[0].second->GetQpn();
        PfcHelper pcap;
        pcap.EnablePcap(file, ports[1], true, true);
        std::vector<uint32_t> first;
        qps[0].first->TraceConnectWithoutContext(
            "SendPsn",
            MakeCallback(+[](uint32_t* f, uint32_t old, uint32_t) {
                if (*f == 0xffffffff)
                {
                    *f = old;
                }
            }).Bind(&psnA));
        psnA = 0xffffffff;
        qps[0].first->PostWrite(3 * 4096, 0x1000, 5, Collect());
        qps[0].first->PostRead(2 * 4096, 0x8000, 5, Collect());
        Simulator::Run();
        ASSERT_EQ(completions.size(), 2u);
        qps.clear();
        nics.clear();
        ports.clear();
        fabric = nullptr;
    }
    Simulator::Destroy();
    int status = 0;
    std::string out = test::RunCommand(test::TsharkPath() + " -r " + file +
                                           " -d udp.port==4791,infiniband -T fields -E "
                                           "separator=, -e infiniband.bth.opcode -e "
                                           "infiniband.bth.destqp -e infiniband.bth.psn "
                                           "2>/dev/null",
                                       &status);
    ASSERT_EQ(status, 0);
    auto hex = [](uint32_t v) {
        char b[16];
        std::snprintf(b, sizeof(b), "0x%06x", v);
        return std::string(b);
    };
    // On the responder's port: WRITE First/Middle/Last (AckReq on Last) -> ACK back,
    // READ Request -> READ Response First/Last.
    std::vector<std::string> expected = {
        "6," + hex(qpnB) + "," + std::to_string(psnA),
        "7," + hex(qpnB) + "," + std::to_string((psnA + 1) & 0xffffff),
        "8," + hex(qpnB) + "," + std::to_string((psnA + 2) & 0xffffff),
        "17," + hex(qpnA) + "," + std::to_string((psnA + 2) & 0xffffff),
        "12," + hex(qpnB) + "," + std::to_string((psnA + 3) & 0xffffff),
        "13," + hex(qpnA) + "," + std::to_string((psnA + 3) & 0xffffff),
        "15," + hex(qpnA) + "," + std::to_string((psnA + 4) & 0xffffff),
    };
    std::vector<std::string> lines;
    std::istringstream iss(out);
    for (std::string l; std::getline(iss, l);)
    {
        lines.push_back(l);
    }
    EXPECT_EQ(lines, expected) << out;
    std::string malformed =
        test::RunCommand(test::TsharkPath() + " -r " + file + " -Y _ws.malformed 2>/dev/null",
                         &status);
    EXPECT_EQ(malformed, "");
}

using RoceBadInputDeathTest = RoceTest;

TEST_F(RoceBadInputDeathTest, ClearErrors)
{
    Build();
    auto qps = nicHelper.Connect(nics[0], nics[1]);
    EXPECT_DEATH(qps[0].first->PostWrite(0, 0, 1, Collect()), "of 0 bytes is invalid");
    EXPECT_DEATH(qps[0].first->PostRead(0, 0, 1, Collect()), "of 0 bytes is invalid");
    EXPECT_DEATH(nics[0]->SetAttribute("Mtu", UintegerValue(3000)), "Mtu 3000 is invalid");
    EXPECT_DEATH(nicHelper.Connect(nics[0], nullptr), "unknown NIC");
    Ptr<RoceQueuePair> idle = nics[0]->CreateQp();
    EXPECT_DEATH(idle->PostSend(1, Collect()), "not connected");
    EXPECT_DEATH(nics[0]->CreateQp(3), "port 3 does not exist");
}

} // namespace
