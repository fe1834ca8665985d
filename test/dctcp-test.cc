/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCTCP over RoCE: a hand-computed window/alpha sequence, the ECN echo on ACKs
 * (RoceNic CongestionNotification=AckEcho), two flows converging on one switch, bad input.
 */
#include "cc-loop-test-util.h"

#include "ns3/ai-fabric-module.h"

#include <cmath>

using namespace ns3;

namespace ns3
{
namespace test
{

/// Line rate, and counts what the ACKs echo.
class EchoCountingOps : public FabricNoneCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::test::EchoCountingOps")
                                .SetParent<FabricNoneCongestionOps>()
                                .SetGroupName("AiFabric")
                                .AddConstructor<EchoCountingOps>();
        return tid;
    }

    Ptr<FabricCongestionOps> Fork() const override
    {
        return CopyObject<EchoCountingOps>(this);
    }

    void OnAck(const FabricCcAckSample& s) override
    {
        m_ackedBytes += s.ackedBytes;
        m_ceBytes += s.ceBytes;
        EXPECT_EQ(s.ecnEcho, s.ceBytes > 0);
    }

    uint64_t m_ackedBytes{0}; //!< bytes acknowledged
    uint64_t m_ceBytes{0};    //!< of those, echoed CE
};

NS_OBJECT_ENSURE_REGISTERED(EchoCountingOps);

} // namespace test
} // namespace ns3

using test::EchoCountingOps;

namespace
{

FabricCcAckSample
Ack(uint64_t bytes, uint64_t ce)
{
    FabricCcAckSample s;
    s.ackedBytes = bytes;
    s.ceBytes = ce;
    s.ecnEcho = ce > 0;
    return s;
}

class DctcpUnitTest : public test::SimTest
{
};

// G = 1/16, alpha0 = 1, W0 = 40960 B, Mss 4096 B (Init(DataRate) sets no MSS: the default).
// C: bytes to acknowledge before the next decrease.
//  1. ACK 4096, no CE:   W = 40960 + 4096 * 4096 / 40960 = 41369.6
//  2. ACK 4096, CE:      C = 0: W = 41369.6 * (1 - 1/2) = 20684.8, C = 41369.6
//  3. ACK 4096, CE:      C = 37273.6 > 0: no decrease, W = 20684.8
//  4. ACK 28672, no CE:  C = 8601.6; W = 20684.8 + 4096 * 28672 / 20684.8 = 26362.4238...;
//                        40960 B acked: the observation window (40960) ends:
//                        F = 8192 / 40960 = 0.2, alpha = 15/16 * 1 + 1/16 * 0.2 = 0.95
//  5. ACK 12288, CE:     C = 0: W = 26362.4238 * (1 - 0.95 / 2) = 13840.2725
//  6. timeout:           W = MinWindow = 4096
TEST_F(DctcpUnitTest, WindowAndAlphaByHand)
{
    auto cc = CreateObject<DctcpCongestionOps>();
    cc->SetAttribute("InitialWindow", UintegerValue(40960));
    cc->Init(DataRate("100Gbps"));
    EXPECT_EQ(cc->GetName(), "DCTCP");
    EXPECT_EQ(cc->GetWindow(), 40960u);
    EXPECT_EQ(cc->GetRate(), DataRate("100Gbps"));
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0);

    cc->OnAck(Ack(4096, 0));
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 41369.6);
    EXPECT_EQ(cc->GetWindow(), 41369u);
    cc->OnAck(Ack(4096, 4096));
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 20684.8);
    EXPECT_EQ(cc->GetWindow(), 20684u);
    cc->OnAck(Ack(4096, 4096));
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 20684.8);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0);
    cc->OnAck(Ack(28672, 0));
    double w4 = 20684.8 + 4096.0 * 28672 / 20684.8;
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), w4);
    EXPECT_NEAR(w4, 26362.4238, 1e-3);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 0.95);
    cc->OnAck(Ack(12288, 12288));
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), w4 * (1 - 0.95 / 2));
    EXPECT_NEAR(cc->GetCwnd(), 13840.2725, 1e-3);
    cc->OnEvent(FabricCcEvent::TIMEOUT);
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 4096.0);
    EXPECT_EQ(cc->GetWindow(), 4096u);
    cc->OnEvent(FabricCcEvent::CNP); // DCTCP reads echoes, not CNPs
    EXPECT_EQ(cc->GetWindow(), 4096u);
}

// InitialWindow 0: one BDP at line rate x BaseRtt (10 us): 100 Gb/s x 10 us / 8 = 125000 B;
// with the path RTT known (5 us), 62500 B. A NACK halves it once per window of data.
TEST_F(DctcpUnitTest, InitialWindowIsOneBdpAndNackHalves)
{
    auto cc = CreateObject<DctcpCongestionOps>();
    cc->Init(DataRate("100Gbps"));
    EXPECT_EQ(cc->GetWindow(), 125000u);
    auto state = CreateObject<FabricCcState>();
    state->Init(DataRate("100Gbps"));
    state->SetPathRtt(MicroSeconds(5));
    auto cc2 = CreateObject<DctcpCongestionOps>();
    cc2->Init(state);
    EXPECT_EQ(cc2->GetWindow(), 62500u);
    cc2->OnEvent(FabricCcEvent::NACK);
    EXPECT_EQ(cc2->GetWindow(), 31250u);
    cc2->OnEvent(FabricCcEvent::NACK); // once per observation window
    EXPECT_EQ(cc2->GetWindow(), 31250u);
}

TEST(DctcpBadInput, AttributesAndInitAbortNamingValueAndRange)
{
    auto cc = CreateObject<DctcpCongestionOps>();
    EXPECT_DEATH(cc->SetAttribute("G", DoubleValue(-0.1)), "ns3::DctcpCongestionOps::G=-0.1");
    EXPECT_DEATH(cc->SetAttribute("G", DoubleValue(1.5)), "G=1.5 is out of range");
    EXPECT_DEATH(cc->SetAttribute("InitialAlpha", DoubleValue(2)), "InitialAlpha=2");
    EXPECT_DEATH(cc->SetAttribute("MinWindow", UintegerValue(0)), "MinWindow=0");
    EXPECT_DEATH(cc->SetAttribute("BaseRtt", TimeValue(Time(0))), "BaseRtt");
    auto c2 = CreateObject<DctcpCongestionOps>();
    c2->SetAttribute("MaxWindow", UintegerValue(1000));
    EXPECT_DEATH(c2->Init(DataRate("100Gbps")), "DCTCP MaxWindow 1000 B is below MinWindow 4096");
    EXPECT_DEATH(CreateObject<DctcpCongestionOps>()->Init(DataRate(0)), "line rate 0bps");
}

TEST(DctcpBadInput, UnknownCongestionControlNameListsValidNames)
{
    RoceNicHelper h;
    EXPECT_DEATH(h.SetCongestionControl("cubic"),
                 "\"cubic\" is unknown; valid names are none, dcqcn, dctcp, timely, swift, "
                 "hpcc");
    auto roce = CreateObject<RoceTransportPlugin>();
    EXPECT_DEATH(roce->SetAttribute("CongestionControl", StringValue("cubic")),
                 "RoceTransportPlugin::CongestionControl=cubic is out of range");
    for (const char* name : {"none", "dcqcn", "dctcp", "timely", "swift", "hpcc"})
    {
        roce->SetAttribute("CongestionControl", StringValue(name));
        h.SetCongestionControl(name);
    }
    // By TypeId name too; a TypeId that is not a congestion control is refused.
    h.SetCongestionControl("ns3::SwiftCongestionOps");
    EXPECT_DEATH(h.SetCongestionControl("ns3::FabricSwitch"), "\"ns3::FabricSwitch\" is unknown");
}

using DctcpLoopTest = test::CcLoopTest;

// Flow 0 alone for 0.5 ms, then flow 1 joins; 100 Gb/s, marking rising from 100 KB to 400 KB
// (Pmax 0.2). From 10 to 20 ms the two flows get the same goodput within 10 % and together
// use the link (> 90 % of the payload rate); the responder echoes CE on ACKs and sends no CNP.
// (With the paper's step marking, K = 100 KB, the two synchronized, unpaced senders lock into
// a phase where one sees more marks: 59 / 39 Gb/s; randomized marking removes the effect.)
TEST_F(DctcpLoopTest, TwoFlowsConvergeWithEcnEchoOnAcks)
{
    Config::SetDefault("ns3::WredEcnMarker::ScaleWithRate", BooleanValue(false));
    Config::SetDefault("ns3::WredEcnMarker::Kmin", QueueSizeValue(QueueSize("100KB")));
    Config::SetDefault("ns3::WredEcnMarker::Kmax", QueueSizeValue(QueueSize("400KB")));
    Config::SetDefault("ns3::WredEcnMarker::Pmax", DoubleValue(0.2));
    RoceNicHelper nicHelper;
    nicHelper.SetCongestionControl("dctcp");
    Build(2, "100Gbps", nicHelper);
    EXPECT_EQ(nics[0]->GetCongestionNotification(), ROCE_NOTIFY_ACK_ECHO);
    auto gbps = TwoFlows(MicroSeconds(500), MilliSeconds(10), MilliSeconds(20));
    const double payload = 100.0 * 4096 / 4178; // Gb/s of payload at line rate
    RecordProperty("flow0_gbps", std::to_string(gbps[0]));
    RecordProperty("flow1_gbps", std::to_string(gbps[1]));
    EXPECT_NEAR(gbps[0] / gbps[1], 1.0, 0.10) << gbps[0] << " vs " << gbps[1] << " Gb/s";
    EXPECT_GT(gbps[0] + gbps[1], 0.9 * payload);
    const RoceQpCounters rx = nics[2]->GetTotalQpCounters();
    EXPECT_GT(rx.ceRx, 0u);
    EXPECT_EQ(rx.cnpsTx, 0u);
    for (int i = 0; i < 2; ++i)
    {
        auto cc = DynamicCast<DctcpCongestionOps>(qps[i].first->GetCongestionOps());
        ASSERT_TRUE(cc);
        EXPECT_LT(cc->GetAlpha(), 1.0);
        EXPECT_GT(cc->GetAlpha(), 0.0);
        // Bounded by the echoes: BDP + Kmax (without them +1 packet per RTT for 20 ms, > 5 MB).
        EXPECT_LT(cc->GetWindow(), 125000u + 400000u);
    }
}

// The responder's ACK state machine: every ACK covers packets of one CE state, so the bytes
// the requester sees echoed are exactly the CE-marked bytes the responder received (all
// packets carry 4096 B), with any AckInterval (16 here, the default).
TEST_F(DctcpLoopTest, EchoedBytesAreExactlyTheCeMarkedBytes)
{
    Config::SetDefault("ns3::WredEcnMarker::ScaleWithRate", BooleanValue(false));
    Config::SetDefault("ns3::WredEcnMarker::Kmin", QueueSizeValue(QueueSize("40KB")));
    Config::SetDefault("ns3::WredEcnMarker::Kmax", QueueSizeValue(QueueSize("400KB")));
    Config::SetDefault("ns3::WredEcnMarker::Pmax", DoubleValue(0.5));
    RoceNicHelper nicHelper;
    nicHelper.SetNicAttribute("CongestionNotification", EnumValue(ROCE_NOTIFY_ACK_ECHO));
    nicHelper.SetNicAttribute("CongestionControl", TypeIdValue(EchoCountingOps::GetTypeId()));
    Build(2, "100Gbps", nicHelper);
    qps[0].first->PostWrite(8 << 20, 0, 1, RoceQueuePair::CompletionCallback());
    qps[1].first->PostWrite(8 << 20, 0, 1, RoceQueuePair::CompletionCallback());
    Simulator::Run();
    const RoceQpCounters rx = nics[2]->GetTotalQpCounters();
    EXPECT_EQ(rx.rxDataBytes, 2u * (8 << 20));
    EXPECT_GT(rx.ceRx, 0u);
    EXPECT_EQ(rx.cnpsTx, 0u);
    uint64_t echoed = 0;
    uint64_t acked = 0;
    for (int i = 0; i < 2; ++i)
    {
        auto cc = DynamicCast<EchoCountingOps>(qps[i].first->GetCongestionOps());
        ASSERT_TRUE(cc);
        echoed += cc->m_ceBytes;
        acked += cc->m_ackedBytes;
    }
    EXPECT_EQ(acked, 2u * (8 << 20));
    EXPECT_EQ(echoed, rx.ceRx * 4096);
    RecordProperty("ce_packets", std::to_string(rx.ceRx));
    RecordProperty("acks", std::to_string(rx.acksTx));
}

// The wire encoding: with AckEcho some ACKs carry BECN (BTH octet 4, bit 6) and with
// EchoHopCount every ACK carries the hop count 1 in BTH octet 8, bits 6..0 (one switch:
// TTL 64 -> 63); by default both are zero (byte-identical to before).
TEST_F(DctcpLoopTest, AcksCarryBecnAndHopCountOnlyWhenAsked)
{
    for (bool on : {false, true})
    {
        Config::SetDefault("ns3::WredEcnMarker::ScaleWithRate", BooleanValue(false));
        Config::SetDefault("ns3::WredEcnMarker::Kmin", QueueSizeValue(QueueSize("40KB")));
        Config::SetDefault("ns3::WredEcnMarker::Kmax", QueueSizeValue(QueueSize("400KB")));
        Config::SetDefault("ns3::WredEcnMarker::Pmax", DoubleValue(0.5));
        RoceNicHelper nicHelper;
        if (on)
        {
            nicHelper.SetNicAttribute("CongestionNotification", StringValue("AckEcho"));
            nicHelper.SetNicAttribute("EchoHopCount", BooleanValue(true));
        }
        Build(2, "100Gbps", nicHelper);
        std::vector<std::pair<uint8_t, uint8_t>> acks;
        ports[2]->TraceConnectWithoutContext(
            "MacTx",
            MakeCallback(+[](std::vector<std::pair<uint8_t, uint8_t>>* v, Ptr<const Packet> p) {
                uint8_t b[40];
                if (p->GetSize() >= 40 && p->CopyData(b, 40) == 40 && b[28] == 0x11)
                {
                    v->emplace_back(b[28 + 4], b[28 + 8]);
                }
            }).Bind(&acks));
        qps[0].first->PostWrite(4 << 20, 0, 1, RoceQueuePair::CompletionCallback());
        qps[1].first->PostWrite(4 << 20, 0, 1, RoceQueuePair::CompletionCallback());
        Simulator::Run();
        ASSERT_GT(acks.size(), 10u);
        EXPECT_GT(nics[2]->GetTotalQpCounters().ceRx, 0u);
        std::size_t becn = 0;
        for (const auto& [octet4, octet8] : acks)
        {
            becn += (octet4 & 0x40) ? 1 : 0;
            EXPECT_EQ(octet4 & ~0x40, 0);
            EXPECT_EQ(octet8, on ? 1 : 0) << "AckReq clear, hop count 1 / 0";
        }
        if (on)
        {
            EXPECT_GT(becn, 0u);
            EXPECT_LT(becn, acks.size());
            EXPECT_EQ(nics[2]->GetTotalQpCounters().cnpsTx, 0u);
        }
        else
        {
            EXPECT_EQ(becn, 0u);
            EXPECT_GT(nics[2]->GetTotalQpCounters().cnpsTx, 0u); // CNPs as before
        }
        Simulator::Destroy();
        hosts = NodeContainer();
        ports.clear();
        nics.clear();
        qps.clear();
    }
}

} // namespace
