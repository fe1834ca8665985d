/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The transport-neutral seams: the NIC core (FabricNic) carrying RoCE and a second transport
 * at once, its UDP-port demultiplexer and arbiter; the congestion-control state, interface and
 * the DCQCN notification point, against hand-computed values.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>

using namespace ns3;

namespace
{

Ipv4Address
Ip(uint32_t i)
{
    return Ipv4Address(0x0a000001 + i);
}

/**
 * A minimal second transport on UDP 4793: its sender is one flow of \p n IPv4/UDP packets of
 * \p payload bytes each; its receiver counts what arrives.
 */
class TestTransport : public FabricNicTransport, public FabricNicFlow
{
  public:
    static constexpr uint16_t PORT = 4793;

    TestTransport(Ptr<FabricNic> core, uint32_t port, uint8_t priority)
        : m_core(core)
    {
        SetNicQueue(port, priority);
        core->RegisterTransport(PORT, this);
    }

    void Send(Ipv4Address from, Ipv4Address to, uint32_t n, uint32_t payload)
    {
        m_from = from.Get();
        m_to = to.Get();
        m_left = n;
        m_payload = payload;
        m_core->Activate(this);
    }

    bool HasPacketToSend() const override
    {
        return m_left > 0;
    }

    Time GetNextSendTime() const override
    {
        return Time(0);
    }

    FabricFrame BuildNextPacket(const Time& now) override
    {
        m_left--;
        sent++;
        uint8_t buf[18 + 28] = {};
        uint8_t* h = buf + 18;
        uint32_t total = 28 + m_payload;
        h[0] = 0x45;
        h[1] = 0x02; // ECT(0)
        wire::PutU16(h + 2, static_cast<uint16_t>(total));
        h[8] = 64;
        h[9] = 17;
        wire::PutU32(h + 12, m_from);
        wire::PutU32(h + 16, m_to);
        wire::PutU16(h + 10, wire::Ipv4HeaderChecksum(h, 20));
        wire::PutU16(h + 20, 50000);
        wire::PutU16(h + 22, PORT);
        wire::PutU16(h + 24, static_cast<uint16_t>(8 + m_payload));
        uint32_t l2 = m_core->WriteFrameHeader(GetNicPort(), GetNicPriority(), buf);
        std::memmove(h - l2, buf, l2);
        uint32_t frame = l2 + total + PfcNetDevice::FCS_BYTES;
        uint32_t pad =
            frame < PfcNetDevice::MIN_FRAME_BYTES ? PfcNetDevice::MIN_FRAME_BYTES - frame : 0;
        return FabricFrame(h - l2, l2 + 28, m_payload + pad + PfcNetDevice::FCS_BYTES);
    }

    uint32_t GetMaxRxHeaderBytes() const override
    {
        return 28;
    }

    uint32_t GetRxHeaderBytes(const uint8_t*, uint32_t) const override
    {
        return 28;
    }

    bool Deliver(uint32_t port,
                 const uint8_t* ip,
                 uint32_t got,
                 uint32_t size,
                 FabricNicDropReason& reason) override
    {
        if (wire::GetU16(ip + 20) != 50000)
        {
            reason = FabricNicDropReason::UNKNOWN_FLOW;
            return false;
        }
        received++;
        receivedBytes += size - 28;
        return true;
    }

    uint32_t sent{0};          //!< packets built
    uint32_t received{0};      //!< packets delivered
    uint64_t receivedBytes{0}; //!< their UDP payload bytes

  private:
    Ptr<FabricNic> m_core;
    uint32_t m_from{0};
    uint32_t m_to{0};
    uint32_t m_left{0};
    uint32_t m_payload{0};
};

/// Two hosts with RoceNics on one switch (400 Gb/s, 1 us cables), as in roce-nic-test.
class FabricNicTest : public test::SimTest
{
  protected:
    void Build()
    {
        hosts.Create(2);
        sw.Create(1);
        PfcHelper pfc;
        pfc.SetDeviceAttribute("DataRate", StringValue("400Gbps"));
        pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        std::vector<Ptr<PfcNetDevice>> ports;
        for (uint32_t i = 0; i < 2; ++i)
        {
            NetDeviceContainer d = pfc.Install(hosts.Get(i), sw.Get(0));
            ports.push_back(DynamicCast<PfcNetDevice>(d.Get(0)));
        }
        SwitchHelper switchHelper;
        Ptr<FabricSwitch> fabric = switchHelper.Install(sw.Get(0));
        RoceNicHelper nicHelper;
        for (uint32_t i = 0; i < 2; ++i)
        {
            fabric->GetForwardingTable()->SetRoute(Ip(i), {i});
            nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], Ip(i)));
        }
        nicHelper.AssignStreams(11);
        fabric->AssignStreams(12);
        qps = nicHelper.Connect(nics[0], nics[1], 1);
    }

    NodeContainer hosts;
    NodeContainer sw;
    std::vector<Ptr<RoceNic>> nics;
    std::vector<std::pair<Ptr<RoceQueuePair>, Ptr<RoceQueuePair>>> qps;
};

TEST_F(FabricNicTest, RoceNicRunsOnTheCoreAggregatedToItsNode)
{
    Build();
    Ptr<FabricNic> core = hosts.Get(0)->GetObject<FabricNic>();
    ASSERT_TRUE(core);
    EXPECT_EQ(nics[0]->GetCore(), core);
    EXPECT_EQ(core->GetNPorts(), 1u);
    EXPECT_EQ(core->GetAddress(0), Ip(0));
    EXPECT_EQ(nics[0]->GetPort(0), core->GetPort(0));
    // Adding the same device again through RoceNic returns its port, not a second one.
    EXPECT_EQ(nics[0]->AddPort(core->GetPort(0), Ip(0)), 0u);
    EXPECT_EQ(core->GetNPorts(), 1u);
}

// RoCE and a second transport share one NIC core, one port and one priority: both complete,
// every byte of the second transport arrives, and the arbiter interleaves the two flows.
TEST_F(FabricNicTest, TwoTransportsShareOneNicAndPort)
{
    Build();
    Ptr<FabricNic> a = nics[0]->GetCore();
    Ptr<FabricNic> b = nics[1]->GetCore();
    uint8_t prio = qps[0].first->GetPriority();
    TestTransport ta(a, 0, prio);
    TestTransport tb(b, 0, prio);
    const uint32_t n = 2000;
    const uint32_t payload = 4000;
    const uint64_t roceBytes = uint64_t(n) * 4096;
    Time roceDone;
    Time lastTest;
    qps[0].first->PostWrite(roceBytes,
                            0,
                            1,
                            MakeCallback(+[](Time* t, const RoceWorkCompletion& wc) {
                                EXPECT_EQ(wc.status, RoceWcStatus::SUCCESS);
                                *t = wc.endTime;
                            }).Bind(&roceDone));
    ta.Send(Ip(0), Ip(1), n, payload);
    Simulator::Run();
    EXPECT_EQ(ta.sent, n);
    EXPECT_EQ(tb.received, n);
    EXPECT_EQ(tb.receivedBytes, uint64_t(n) * payload);
    EXPECT_GT(roceDone, Time(0));
    EXPECT_EQ(nics[1]->GetDrops()[size_t(FabricNicDropReason::NO_TRANSPORT)], 0u);
    // Round robin on one port: RoCE could not have finished before half the port's time for
    // both transports' bytes (each ~4 KiB frames, 2 x 2000 of them at 400 Gb/s ~ 168 us).
    double both = double(2 * n) * (4096 + 100) * 8 / 400e9;
    EXPECT_GT(roceDone.GetSeconds(), 0.9 * both);
    a->UnregisterTransport(TestTransport::PORT);
    b->UnregisterTransport(TestTransport::PORT);
}

// Packets to a UDP port no transport registered are dropped as "no transport".
TEST_F(FabricNicTest, PacketsForAnUnregisteredUdpPortAreDroppedByName)
{
    Build();
    TestTransport ta(nics[0]->GetCore(), 0, 3);
    ta.Send(Ip(0), Ip(1), 5, 100);
    Simulator::Run();
    EXPECT_EQ(nics[1]->GetDrops()[size_t(FabricNicDropReason::NO_TRANSPORT)], 5u);
    EXPECT_STREQ(FabricNicDropReasonName(FabricNicDropReason::NO_TRANSPORT), "no transport");
    EXPECT_STREQ(RoceNicDropReasonName(FabricNicDropReason::NO_TRANSPORT), "not roce");
    nics[0]->GetCore()->UnregisterTransport(TestTransport::PORT);
}

TEST_F(FabricNicTest, TheCoreOwnsItsSettingsAndRoceHasNoAliasesOfThem)
{
    Build();
    Ptr<FabricNic> core = nics[0]->GetCore();
    UintegerValue depth;
    core->GetAttribute("TxQueueDepth", depth);
    EXPECT_EQ(depth.Get(), 2u); // the core's default
    core->SetAttribute("TxQueueDepth", UintegerValue(5));
    core->GetAttribute("TxQueueDepth", depth);
    EXPECT_EQ(depth.Get(), 5u);
    nics[0]->SetRxDrainRate(DataRate("100Gbps")); // RoceNic's convenience: the core's setting
    EXPECT_EQ(core->GetRxDrainRate(), DataRate("100Gbps"));
    EXPECT_EQ(nics[0]->GetRxDrainRate(), DataRate("100Gbps"));
    // The aliases that overwrote a shared core's settings (issue 38) are gone.
    TypeId::AttributeInformation info;
    for (const char* name : {"TxQueueDepth", "RxDrainRate", "RxXoffBytes", "RxXonBytes"})
    {
        EXPECT_FALSE(RoceNic::GetTypeId().LookupAttributeByName(name, &info)) << name;
        EXPECT_TRUE(FabricNic::GetTypeId().LookupAttributeByName(name, &info)) << name;
    }
}

TEST(FabricNicDeathTest, TwoTransportsOnOneUdpPortAbort)
{
    Ptr<FabricNic> core = CreateObject<FabricNic>();

    struct Dummy : FabricNicTransport
    {
        uint32_t GetMaxRxHeaderBytes() const override
        {
            return 28;
        }

        uint32_t GetRxHeaderBytes(const uint8_t*, uint32_t) const override
        {
            return 28;
        }

        bool Deliver(uint32_t, const uint8_t*, uint32_t, uint32_t, FabricNicDropReason&) override
        {
            return true;
        }
    } t1, t2;

    core->RegisterTransport(4793, &t1);
    EXPECT_DEATH(core->RegisterTransport(4793, &t2), "UDP port 4793 already has a transport");
}

// ---- congestion control ------------------------------------------------------------------

TEST(FabricCcStateTest, RateIsClampedAndChangesAreTracedAndReported)
{
    Ptr<FabricCcState> s = CreateObject<FabricCcState>();
    s->Init(DataRate("100Gbps"));
    EXPECT_EQ(s->GetRate(), DataRate("100Gbps"));
    EXPECT_EQ(s->GetTargetRate(), DataRate("100Gbps"));
    std::vector<uint64_t> traced;
    s->TraceConnectWithoutContext(
        "Rate",
        MakeCallback(+[](std::vector<uint64_t>* v, DataRate, DataRate now) {
            v->push_back(now.GetBitRate());
        }).Bind(&traced));
    int changes = 0;
    s->SetRateChangeCallback(MakeCallback(+[](int* c) { ++*c; }).Bind(&changes));
    s->SetRate(DataRate("40Gbps"));
    s->SetRate(DataRate("40Gbps"));   // no change: no callback, no trace
    s->SetRate(DataRate("1000Gbps")); // clamped to the line rate
    s->SetRate(DataRate(0));          // clamped to 1 bit/s
    EXPECT_EQ(traced, (std::vector<uint64_t>{40000000000ull, 100000000000ull, 1ull}));
    EXPECT_EQ(changes, 3);
    s->SetTargetRate(DataRate("1000Gbps"));
    EXPECT_EQ(s->GetTargetRate(), DataRate("100Gbps"));
}

TEST(FabricCcStateDeathTest, ZeroLineRateAborts)
{
    Ptr<FabricCcState> s = CreateObject<FabricCcState>();
    EXPECT_DEATH(s->Init(DataRate(0)), "line rate 0bps is invalid; it must be > 0");
}

// DCQCN through the neutral interface: a CNP event is the decrease, with the firmware
// defaults Rc x max(1 - alpha / 2, 0.5) = 400G x (1 - (1023/1024 (1 - 1/256) + 1/256) / 2),
// and the target rate lands in the flow's state.
TEST(FabricCongestionOpsTest, DcqcnDecreaseThroughOnEventWritesTheState)
{
    Ptr<DcqcnCongestionOps> cc = CreateObject<DcqcnCongestionOps>();
    Ptr<FabricCcState> s = CreateObject<FabricCcState>();
    s->Init(DataRate("400Gbps"));
    cc->Init(s);
    EXPECT_EQ(cc->GetState(), s);
    cc->OnEvent(FabricCcEvent::NACK); // DCQCN ignores losses
    EXPECT_EQ(s->GetRate(), DataRate("400Gbps"));
    cc->OnEvent(FabricCcEvent::CNP);
    double alpha = 1023.0 / 1024 * (1 - 1.0 / 256) + 1.0 / 256;
    double expected = 400e9 * std::max(1 - alpha / 2, 0.5);
    EXPECT_NEAR(double(s->GetRate().GetBitRate()), expected, 1.0);
    EXPECT_EQ(s->GetTargetRate(), DataRate("400Gbps"));
    EXPECT_EQ(cc->GetTargetRate(), s->GetTargetRate());
    Simulator::Destroy();
}

TEST(FabricCongestionOpsTest, NoneStaysAtLineRate)
{
    Ptr<FabricCongestionOps> cc = CreateObject<FabricNoneCongestionOps>()->Fork();
    cc->Init(DataRate("200Gbps"));
    for (auto e : {FabricCcEvent::CNP, FabricCcEvent::NACK, FabricCcEvent::TIMEOUT})
    {
        cc->OnEvent(e);
    }
    FabricCcAckSample ack;
    ack.ackedBytes = 4096;
    ack.ceBytes = 4096;
    cc->OnAck(ack);
    EXPECT_EQ(cc->GetRate(), DataRate("200Gbps"));
    EXPECT_EQ(cc->GetWindow(), 0u);
    EXPECT_EQ(cc->GetName(), "None");
    EXPECT_STREQ(FabricCcEventName(FabricCcEvent::TRIM), "TRIM");
}

// The notification point returns a CNP for CE-marked data at most once per CnpInterval:
// CE at 0, 2, 4, 5, 9 us with a 4 us interval -> CNPs at 0, 4 and 9 us (not at 2 or 5).
TEST(DcqcnNotificationPointTest, AtMostOneCnpPerInterval)
{
    Ptr<DcqcnNotificationPoint> proto = CreateObject<DcqcnNotificationPoint>();
    proto->SetAttribute("CnpInterval", TimeValue(MicroSeconds(4)));
    Ptr<FabricCcReceiverOps> np = proto->Fork();
    std::vector<int64_t> cnpAt;
    for (int64_t us : {0, 2, 4, 5, 9})
    {
        FabricCcRxSample s;
        s.ce = true;
        s.now = MicroSeconds(us);
        if (np->OnData(s) & FABRIC_CC_SEND_CNP)
        {
            cnpAt.push_back(us);
        }
    }
    EXPECT_EQ(cnpAt, (std::vector<int64_t>{0, 4, 9}));
    FabricCcRxSample clean;
    clean.now = MicroSeconds(100);
    EXPECT_EQ(np->OnData(clean), FABRIC_CC_NO_FEEDBACK); // not CE-marked
    // A fork starts afresh: its first CE gets a CNP at once.
    FabricCcRxSample ce;
    ce.ce = true;
    ce.now = MicroSeconds(10);
    EXPECT_EQ(proto->Fork()->OnData(ce), FABRIC_CC_SEND_CNP);
}

// RoceNic's CnpInterval is an alias: unset it leaves the notification point's own value,
// set it overrides it for that NIC's QPs.
TEST_F(FabricNicTest, CnpIntervalAliasReachesTheNotificationPoint)
{
    Build();
    auto np = DynamicCast<DcqcnNotificationPoint>(qps[0].first->GetCcReceiverOps());
    ASSERT_TRUE(np);
    EXPECT_EQ(np->GetCnpInterval(), MicroSeconds(4));
    RoceNicHelper helper;
    helper.SetNicAttribute("CnpInterval", TimeValue(MicroSeconds(50)));
    Ptr<Node> n = CreateObject<Node>();
    Ptr<Node> peer = CreateObject<Node>();
    PfcHelper pfc;
    NetDeviceContainer d = pfc.Install(n, peer);
    Ptr<RoceNic> nic = helper.Install(n, DynamicCast<PfcNetDevice>(d.Get(0)), Ip(7));
    auto np2 = DynamicCast<DcqcnNotificationPoint>(nic->CreateQp(0)->GetCcReceiverOps());
    EXPECT_EQ(np2->GetCnpInterval(), MicroSeconds(50));
}

} // namespace
