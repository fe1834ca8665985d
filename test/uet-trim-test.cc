/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Packet trimming end to end for Ultra Ethernet: a switch's SharedBufferMmu trims UET packets on
 * a lossy priority (DSCP TrimDscp in the fabric, LastHopTrimDscp on a port facing a host), the
 * UetNic receiver recognizes them by that DSCP and answers NACK TRIMMED / TRIMMED_LASTHOP at
 * once (M, RETX and the EV echoed; RUDI with NT; UUD counts them lost; a trimmed SYN opens no
 * PDC), and the sender retransmits at once and tells its congestion control (FabricCcEvent::
 * TRIM and a FabricCcAckSample with nack and trimmed). A 16:1 incast completes without a drop
 * or an RTO, every trim answered by one NACK and one retransmission, faster than the same
 * incast without trimming; a two-tier Clos tells trims in the spine from trims at the
 * destination's leaf; bad configurations abort naming the value and the valid range.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <map>
#include <set>

using namespace ns3;

namespace
{

/// What the senders' congestion control was told, summed over every PDC.
struct CcLog
{
    uint64_t trimEvents{0};     //!< OnEvent(TRIM)
    uint64_t otherEvents{0};    //!< OnEvent(anything else)
    uint64_t trimSamples{0};    //!< OnAck with nack && trimmed
    uint64_t ackSamples{0};     //!< OnAck without nack
    uint64_t zeroEntropy{0};    //!< trim samples without the path's EV
    std::set<uint32_t> entropy; //!< EVs of the trim samples
};

CcLog g_cc; //!< reset by every test

/// A line-rate congestion control that records what the transport reports.
class RecordingCongestionOps : public FabricNoneCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::test::RecordingCongestionOps")
                                .SetParent<FabricNoneCongestionOps>()
                                .SetGroupName("AiFabric")
                                .AddConstructor<RecordingCongestionOps>();
        return tid;
    }

    std::string GetName() const override
    {
        return "Recording";
    }

    Ptr<FabricCongestionOps> Fork() const override
    {
        return CreateObject<RecordingCongestionOps>();
    }

    void OnAck(const FabricCcAckSample& s) override
    {
        if (s.nack && s.trimmed)
        {
            g_cc.trimSamples++;
            g_cc.entropy.insert(s.entropy);
            g_cc.zeroEntropy += s.entropy == 0;
        }
        else if (!s.nack)
        {
            g_cc.ackSamples++;
        }
    }

    void OnEvent(FabricCcEvent e) override
    {
        (e == FabricCcEvent::TRIM ? g_cc.trimEvents : g_cc.otherEvents)++;
    }
};

NS_OBJECT_ENSURE_REGISTERED(RecordingCongestionOps);

/// NACKs by code, as a NIC's Nack trace saw them.
struct NackLog
{
    std::map<uint8_t, uint64_t> received; //!< code -> NACKs received
    std::map<uint8_t, uint64_t> sent;     //!< code -> NACKs sent
    uint64_t sentWithoutPdc{0};           //!< sent with local PDCID 0 (stateless)
};

void
OnNack(NackLog* log, uint16_t pdc, uint32_t, uint8_t code, bool received)
{
    if (received)
    {
        log->received[code]++;
    }
    else
    {
        log->sent[code]++;
        log->sentWithoutPdc += pdc == 0;
    }
}

/// The UET frames a port sent: source port, PDS type, flags, NACK code, PSN.
struct Frame
{
    uint16_t sport{0};
    uint8_t dscp{0};
    uint8_t type{0};
    uint8_t flags{0};
    uint8_t code{0};
    uint32_t psn{0};
    uint16_t spdcid{0};
    uint16_t dpdcid{0};
    uint32_t size{0};
};

void
OnMacTx(std::vector<Frame>* v, Ptr<const Packet> p)
{
    uint8_t b[48] = {};
    p->CopyData(b, std::min<uint32_t>(p->GetSize(), sizeof(b)));
    if (((b[22] << 8) | b[23]) != UetPdsHeader::UDP_DST_PORT)
    {
        return;
    }
    Frame f;
    f.sport = static_cast<uint16_t>((b[20] << 8) | b[21]);
    f.dscp = b[1] >> 2;
    f.type = UetPdsHeader::PeekType(b + 28);
    f.flags = UetPdsHeader::PeekFlags(b + 28);
    f.code = b[30];
    f.psn = wire::GetU32(b + 32);
    f.spdcid = wire::GetU16(b + 36);
    f.dpdcid = wire::GetU16(b + 38);
    f.size = wire::GetU16(b + 2);
    v->push_back(f);
}

/// The outcome of an incast.
struct Incast
{
    uint32_t senders{0};
    uint64_t bytes{0};                           //!< per sender
    Time end;                                    //!< last completion
    uint32_t ok{0};                              //!< successful completions
    uint64_t trims{0};                           //!< switch: trims (fabric + last hop)
    uint64_t lastHopTrims{0};                    //!< switch: "trimmed last hop"
    uint64_t drops{0};                           //!< switch: drops, every reason
    UetNicCounters tx;                           //!< senders, summed
    UetNicCounters rx;                           //!< the receiver
    NackLog txNacks;                             //!< senders' Nack traces
    NackLog rxNacks;                             //!< receiver's Nack trace
    std::map<uint32_t, uint32_t> deliveriesFrom; //!< initiator address -> deliveries
    std::string mmuInvariants;                   //!< CheckInvariants' complaint, if any
    uint64_t mmuBytesHeld{0};                    //!< at the end
    uint32_t rxPdcsOpened{0};                    //!< receiver's PDCs
    uint64_t sharedPool{0};                      //!< the MMU's shared pool, bytes
};

class UetTrimTest : public test::SimTest
{
  protected:
    void SetUp() override
    {
        test::SimTest::SetUp();
        g_cc = CcLog();
    }

    /**
     * N senders WRITE \p bytes each to one receiver through one switch (StarTopologyHelper,
     * 400 Gb/s, 1 us cables). UET runs on DSCP 8 = priority 1, lossy (priority 3 stays the
     * lossless class, PFC on); the switch's buffer is small (a shared pool of 1.1 MB).
     * With \p trimming the MMU trims priority 1 and the senders infer no losses (OooThreshold
     * 0, the setting for fabrics with trimming); without it packets that do not fit are
     * dropped and recovered by inferred loss and RTO. The last sender starts \p lateStart
     * after the others, when the buffer is full.
     */
    Incast RunIncast(uint32_t senders, uint64_t bytes, bool trimming, Time lateStart)
    {
        StarTopologyHelper star;
        star.SetTransports("uet");
        star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue("400Gbps"));
        star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        SwitchHelper& sh = star.GetSwitchHelper();
        sh.SetMmuAttribute("BufferSize", UintegerValue(3u << 20));
        if (trimming)
        {
            sh.SetMmuAttribute("TrimPriorities", UintegerValue(1 << 1));
        }
        UetNicHelper& nh = star.GetUetNicHelper();
        nh.SetNicAttribute("DataDscp", UintegerValue(8));
        nh.SetNicAttribute("OooThreshold", UintegerValue(trimming ? 0 : 3));
        // A PSN at most 64 beyond CACK_PSN: every packet behind a repeatedly trimmed one can
        // be SACKed (the bitmap starts at CACK_PSN + 1), so none waits for its RTO.
        nh.SetNicAttribute("MpRange", UintegerValue(64));
        nh.SetNicAttribute("CongestionControl", TypeIdValue(RecordingCongestionOps::GetTypeId()));
        star.Install(senders + 1);
        star.AssignStreams(3);
        Ptr<FabricSwitch> sw = star.GetSwitch();
        Incast r;
        r.senders = senders;
        r.bytes = bytes;
        std::vector<Ptr<UetEndpoint>> eps;
        for (uint32_t i = 0; i <= senders; ++i)
        {
            eps.push_back(star.GetUetNic(i)->CreateEndpoint(7, 0));
        }
        Ptr<UetEndpoint> dst = eps[senders];
        dst->RegisterMemory(0xabc, 1ull << 32);
        Ptr<UetNic> rxNic = star.GetUetNic(senders);
        rxNic->TraceConnectWithoutContext("Nack", MakeBoundCallback(&OnNack, &r.rxNacks));
        rxNic->TraceConnectWithoutContext("Delivery",
                                          MakeCallback(+[](Incast* r, const UetDelivery& d) {
                                              r->deliveriesFrom[d.initiatorFep.Get()]++;
                                          }).Bind(&r));
        auto done = MakeCallback(+[](Incast* r, const UetCompletion& c) {
                        r->ok += c.ok;
                        r->end = std::max(r->end, c.endTime);
                    }).Bind(&r);
        for (uint32_t i = 0; i < senders; ++i)
        {
            star.GetUetNic(i)->TraceConnectWithoutContext("Nack",
                                                          MakeBoundCallback(&OnNack, &r.txNacks));
            Time at = i + 1 == senders ? lateStart : Time(0);
            Simulator::Schedule(at, [ep = eps[i], dst, bytes, done]() {
                ep->PostWrite(dst->GetAddress(), 0xabc, 0, bytes, done);
            });
        }
        Simulator::Run();
        for (uint32_t i = 0; i < senders; ++i)
        {
            const UetNicCounters& c = star.GetUetNic(i)->GetCounters();
            r.tx.retransmissions += c.retransmissions;
            r.tx.rtoExpirations += c.rtoExpirations;
            r.tx.nacksReceived += c.nacksReceived;
            r.tx.trimNacksReceived += c.trimNacksReceived;
            r.tx.dataPacketsSent += c.dataPacketsSent;
            r.tx.opsPosted += c.opsPosted;
            r.tx.opsCompleted += c.opsCompleted;
            r.tx.bytesPosted += c.bytesPosted;
            r.tx.bytesCompleted += c.bytesCompleted;
            EXPECT_EQ(star.GetUetNic(i)->GetPendingOperations(), 0u);
        }
        r.rx = rxNic->GetCounters();
        r.rxPdcsOpened = static_cast<uint32_t>(r.rx.pdcsOpened);
        const SwitchCounters& sc = sw->GetCounters();
        r.trims = sc.GetTrims();
        r.lastHopTrims = sc.marks.Get("trimmed last hop");
        r.drops = sc.drops.GetTotal();
        sw->GetMmu()->CheckInvariants(&r.mmuInvariants);
        r.mmuBytesHeld = sw->GetMmu()->GetBytesHeld();
        r.sharedPool = sw->GetMmu()->GetSharedPoolSize();
        return r;
    }
};

/// 16:1 incast on a lossy priority with trimming: nothing is dropped, every trim is answered by
/// one NACK TRIMMED_LASTHOP (the star's ports face hosts) and one retransmission, no RTO
/// expires, and every message is delivered exactly once.
TEST_F(UetTrimTest, IncastWithTrimmingCompletesWithoutDropsOrRtos)
{
    const uint32_t n = 16;
    const uint64_t bytes = 256 * 4096;
    Incast r = RunIncast(n, bytes, true, MicroSeconds(10));
    EXPECT_EQ(r.ok, n);
    EXPECT_EQ(r.tx.opsCompleted, n);
    EXPECT_EQ(r.tx.bytesCompleted, n * bytes);
    EXPECT_EQ(r.drops, 0u) << "a packet that does not fit is trimmed, not dropped";
    EXPECT_GT(r.trims, 0u);
    EXPECT_EQ(r.lastHopTrims, r.trims) << "every port of the star faces a host";
    // The receiver recognized every trim and NACKed it; each NACK came back and was resent.
    EXPECT_EQ(r.rx.trimmedReceived, r.trims);
    EXPECT_EQ(r.rx.trimmedLastHopReceived, r.trims);
    EXPECT_EQ(r.rx.trimNacksSent, r.trims);
    EXPECT_EQ(r.rx.trimmedMalformed, 0u);
    EXPECT_EQ(r.rxNacks.sent[UetPdsHeader::NACK_TRIMMED_LASTHOP], r.trims);
    EXPECT_EQ(r.txNacks.received[UetPdsHeader::NACK_TRIMMED_LASTHOP], r.trims);
    EXPECT_EQ(r.txNacks.received[UetPdsHeader::NACK_TRIMMED], 0u);
    EXPECT_EQ(r.tx.trimNacksReceived, r.trims);
    EXPECT_EQ(r.tx.nacksReceived, r.trims) << "no other NACK";
    EXPECT_EQ(r.tx.retransmissions, r.trims) << "one retransmission per trim, nothing else";
    EXPECT_EQ(r.tx.rtoExpirations, 0u);
    // The late sender's first (SYN) packets met a full buffer: trimmed before its PDC existed,
    // NACKed without one, resent with SYN; every sender still has one PDC at the receiver.
    EXPECT_GT(r.rxNacks.sentWithoutPdc, 0u);
    EXPECT_EQ(r.rxPdcsOpened, n);
    // Each message delivered exactly once; each PSN accepted once.
    EXPECT_EQ(r.rx.messagesDelivered, n);
    EXPECT_EQ(r.rx.bytesDelivered, n * bytes);
    EXPECT_EQ(r.deliveriesFrom.size(), n);
    for (const auto& [from, count] : r.deliveriesFrom)
    {
        EXPECT_EQ(count, 1u) << Ipv4Address(from);
    }
    EXPECT_EQ(r.rx.dataPacketsReceived, n * bytes / 4096);
    // Conservation: every packet sent was received whole, trimmed, or was a duplicate.
    EXPECT_EQ(r.tx.dataPacketsSent,
              r.rx.dataPacketsReceived + r.rx.trimmedReceived + r.rx.duplicatesReceived +
                  r.rx.pdcsClosed /* Close control packets take a PSN */);
    EXPECT_EQ(r.tx.bytesPosted, r.tx.bytesCompleted);
    // The congestion control heard of every trim: the event and the NACK sample.
    EXPECT_EQ(g_cc.trimEvents, r.trims);
    EXPECT_EQ(g_cc.trimSamples, r.trims);
    EXPECT_EQ(g_cc.otherEvents, 0u);
    EXPECT_EQ(g_cc.zeroEntropy, 0u);
    EXPECT_EQ(g_cc.entropy.size(), n) << "one EV per PDC, echoed in its NACKs";
    EXPECT_EQ(r.mmuInvariants, "");
    EXPECT_EQ(r.mmuBytesHeld, 0u);
    std::cout << "[ incast ] " << n << ":1 x " << bytes << " B, shared pool " << r.sharedPool
              << " B, with trimming: done at " << r.end.As(Time::US) << ", trims " << r.trims
              << ", NACK TRIMMED_LASTHOP " << r.tx.trimNacksReceived << ", retransmissions "
              << r.tx.retransmissions << ", RTOs " << r.tx.rtoExpirations << "\n";
}

/// The same incast without trimming: the switch drops, the senders recover by inferred loss and
/// RTO, and the incast ends later than with trimming (simulated times compared, not timing).
TEST_F(UetTrimTest, IncastWithoutTrimmingDropsAndFinishesLater)
{
    const uint32_t n = 16;
    const uint64_t bytes = 256 * 4096;
    Incast with = RunIncast(n, bytes, true, MicroSeconds(10));
    Simulator::Destroy();
    Incast without = RunIncast(n, bytes, false, MicroSeconds(10));
    EXPECT_EQ(without.ok, n) << "lossy, but every operation still completes";
    EXPECT_EQ(without.trims, 0u);
    EXPECT_EQ(without.rx.trimmedReceived, 0u);
    EXPECT_GT(without.drops, 0u);
    EXPECT_GT(without.tx.retransmissions, 0u);
    EXPECT_GT(without.tx.rtoExpirations, 0u) << "a lost tail waits for the RTO";
    EXPECT_EQ(without.rx.messagesDelivered, n);
    EXPECT_EQ(without.rx.bytesDelivered, n * bytes);
    EXPECT_EQ(with.ok, n);
    EXPECT_LT(with.end, without.end);
    std::cout << "[ incast ] " << n << ":1 x " << bytes << " B: with trimming done at "
              << with.end.As(Time::US) << " (" << with.trims << " trims, "
              << with.tx.retransmissions << " retransmissions, " << with.tx.rtoExpirations
              << " RTOs), without at " << without.end.As(Time::US) << " (" << without.drops
              << " drops, " << without.tx.retransmissions << " retransmissions, "
              << without.tx.rtoExpirations << " RTOs)\n";
}

/// Two-tier Clos, three racks of one GPU, one spine: ranks 0 and 2 WRITE to rank 1. With
/// 400 Gb/s ToR-spine links the spine's port to rank 1's ToR is the bottleneck (trimmed in the
/// fabric: NACK TRIMMED); with 800 Gb/s ones the ToR's port to rank 1 is (trimmed at the last
/// hop: NACK TRIMMED_LASTHOP).
class UetTrimClosTest : public UetTrimTest, public ::testing::WithParamInterface<bool>
{
};

TEST_P(UetTrimClosTest, SpineTrimsAreTrimmedAndLeafTrimsAreTrimmedLastHop)
{
    const bool lastHop = GetParam();
    auto t = CreateObject<ClosTopologyHelper>();
    t->SetAttribute("Servers", UintegerValue(3));
    t->SetAttribute("GpusPerServer", UintegerValue(1));
    t->SetAttribute("ServersPerRack", UintegerValue(1));
    t->SetAttribute("TorPorts", UintegerValue(4));
    t->SetAttribute("SpinePorts", UintegerValue(4));
    t->SetAttribute("LeafSpineDataRate", StringValue(lastHop ? "800Gbps" : "400Gbps"));
    t->SetAttribute("Transports", StringValue("uet"));
    t->GetSwitchHelper().SetMmuAttribute("BufferSize", UintegerValue(2u << 20));
    t->GetSwitchHelper().SetMmuAttribute("TrimPriorities", UintegerValue(1 << 1));
    t->GetUetNicHelper().SetNicAttribute("DataDscp", UintegerValue(8));
    t->GetUetNicHelper().SetNicAttribute("OooThreshold", UintegerValue(0));
    t->Install();
    Ptr<FabricSwitch> tor1 = t->GetLeaf(1)->GetObject<FabricSwitch>();
    Ptr<FabricSwitch> spine = t->GetSpine(0)->GetObject<FabricSwitch>();
    ASSERT_EQ(t->GetLeafOf(1), t->GetLeaf(1));
    // The ToR's port to the GPU faces a host; its uplink and the spine's ports do not.
    uint32_t lastHopPorts = 0;
    for (uint32_t p = 0; p < tor1->GetNPorts(); ++p)
    {
        lastHopPorts += tor1->IsLastHopPort(p);
    }
    EXPECT_EQ(lastHopPorts, 1u);
    for (uint32_t p = 0; p < spine->GetNPorts(); ++p)
    {
        EXPECT_FALSE(spine->IsLastHopPort(p)) << "spine port " << p;
    }
    std::vector<Ptr<UetEndpoint>> eps;
    for (uint32_t r = 0; r < 3; ++r)
    {
        eps.push_back(t->GetUetNic(r)->CreateEndpoint(7, 0));
    }
    eps[1]->RegisterMemory(0xabc, 1ull << 32);
    NackLog nacks;
    uint32_t ok = 0;
    auto done = MakeCallback(+[](uint32_t* ok, const UetCompletion& c) { *ok += c.ok; }).Bind(&ok);
    const uint64_t bytes = 2ull << 20;
    for (uint32_t r : {0u, 2u})
    {
        t->GetUetNic(r)->TraceConnectWithoutContext("Nack", MakeBoundCallback(&OnNack, &nacks));
        eps[r]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, bytes, done);
    }
    Simulator::Run();
    EXPECT_EQ(ok, 2u);
    uint64_t drops = 0;
    uint64_t fabricTrims = 0;
    uint64_t lastHopTrims = 0;
    for (uint32_t s = 0; s < t->GetNLeaves() + t->GetNSpines(); ++s)
    {
        Ptr<Node> node = s < t->GetNLeaves() ? t->GetLeaf(s) : t->GetSpine(s - t->GetNLeaves());
        const SwitchCounters& c = node->GetObject<FabricSwitch>()->GetCounters();
        drops += c.drops.GetTotal();
        fabricTrims += c.marks.Get("trimmed");
        lastHopTrims += c.marks.Get("trimmed last hop");
    }
    EXPECT_EQ(drops, 0u);
    const UetNicCounters& rx = t->GetUetNic(1)->GetCounters();
    if (lastHop)
    {
        EXPECT_EQ(fabricTrims, 0u);
        EXPECT_GT(lastHopTrims, 0u);
        EXPECT_EQ(tor1->GetCounters().marks.Get("trimmed last hop"), lastHopTrims);
        EXPECT_EQ(rx.trimmedLastHopReceived, lastHopTrims);
        EXPECT_EQ(nacks.received[UetPdsHeader::NACK_TRIMMED_LASTHOP], lastHopTrims);
        EXPECT_EQ(nacks.received[UetPdsHeader::NACK_TRIMMED], 0u);
    }
    else
    {
        EXPECT_GT(fabricTrims, 0u);
        EXPECT_EQ(lastHopTrims, 0u);
        EXPECT_EQ(spine->GetCounters().marks.Get("trimmed"), fabricTrims);
        EXPECT_EQ(rx.trimmedLastHopReceived, 0u);
        EXPECT_EQ(nacks.received[UetPdsHeader::NACK_TRIMMED], fabricTrims);
        EXPECT_EQ(nacks.received[UetPdsHeader::NACK_TRIMMED_LASTHOP], 0u);
    }
    EXPECT_EQ(rx.trimmedReceived, fabricTrims + lastHopTrims);
    std::cout << "[ clos ] ToR-spine " << (lastHop ? "800" : "400") << " Gb/s: trimmed "
              << fabricTrims << ", trimmed last hop " << lastHopTrims << "\n";
    EXPECT_EQ(rx.messagesDelivered, 2u);
    EXPECT_EQ(rx.bytesDelivered, 2 * bytes);
    uint64_t retx = t->GetUetNic(0)->GetCounters().retransmissions +
                    t->GetUetNic(2)->GetCounters().retransmissions;
    EXPECT_EQ(retx, fabricTrims + lastHopTrims);
    EXPECT_EQ(t->GetUetNic(0)->GetCounters().rtoExpirations +
                  t->GetUetNic(2)->GetCounters().rtoExpirations,
              0u);
    t->Dispose();
}

INSTANTIATE_TEST_SUITE_P(FabricOrLastHop,
                         UetTrimClosTest,
                         ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return info.param ? "LastHop" : "Fabric";
                         });

/// tshark with the project's Lua dissector decodes a trimmed UET packet (headers whole, payload
/// cut, DSCP LastHopTrimDscp) and the NACK TRIMMED_LASTHOP that answers it, without a malformed
/// frame. Skipped when tshark is missing.
TEST_F(UetTrimTest, TrimmedPacketsAndTheirNacksDecodeInTshark)
{
    int status = 0;
    test::RunCommand(test::TsharkPath() + " -v >/dev/null 2>&1", &status);
    if (status != 0)
    {
        GTEST_SKIP() << "tshark not found";
    }
    const std::string file = "uet-trim-test.pcap";
    std::remove(file.c_str());
    uint64_t trims = 0;
    {
        StarTopologyHelper star;
        star.SetTransports("uet");
        star.GetSwitchHelper().SetMmuAttribute("BufferSize", UintegerValue(1u << 20));
        star.GetSwitchHelper().SetMmuAttribute("TrimPriorities", UintegerValue(1 << 1));
        star.GetUetNicHelper().SetNicAttribute("DataDscp", UintegerValue(8));
        star.GetUetNicHelper().SetNicAttribute("OooThreshold", UintegerValue(0));
        star.GetUetNicHelper().SetNicAttribute("MpRange", UintegerValue(64));
        star.Install(5);
        star.AssignStreams(3);
        star.GetPortHelper().EnablePcap(file, star.GetHostPort(4), true, true);
        std::vector<Ptr<UetEndpoint>> eps;
        for (uint32_t i = 0; i < 5; ++i)
        {
            eps.push_back(star.GetUetNic(i)->CreateEndpoint(7, 0));
        }
        eps[4]->RegisterMemory(0xabc, 1ull << 32);
        for (uint32_t i = 0; i < 4; ++i)
        {
            eps[i]->PostWrite(eps[4]->GetAddress(), 0xabc, 0, 64 * 4096, UetCompletionCallback());
        }
        Simulator::Run();
        trims = star.GetSwitch()->GetCounters().GetTrims();
        EXPECT_EQ(star.GetUetNic(4)->GetCounters().messagesDelivered, 4u);
    }
    Simulator::Destroy(); // closes the capture
    ASSERT_GT(trims, 0u);
    const std::string lua =
        std::string("-X lua_script:") + AI_FABRIC_SOURCE_DIR + "/tools/wireshark/uet.lua ";
    auto count = [&](const std::string& filter) {
        std::string out =
            test::Tshark(file, lua + "-Y \"" + filter + "\" -T fields -e frame.number");
        return static_cast<uint64_t>(std::count(out.begin(), out.end(), '\n'));
    };
    EXPECT_EQ(test::Tshark(file, lua + "-Y _ws.malformed"), "");
    EXPECT_EQ(test::Tshark(file, lua + "-Y _ws.expert.severity==error"), "");
    // The trimmed requests: DSCP 57, 128 B of IPv4 packet, PDS RUD_REQ + SES WRITE decoded.
    EXPECT_EQ(count("ip.dsfield.dscp == 57 && ip.len == 128 && uet.pds.type == 2 && "
                    "uet.ses.opcode == 1"),
              trims);
    EXPECT_EQ(count("uet.pds.type == 10 && uet.pds.nack.code == 2"), trims);
    EXPECT_EQ(count("uet.pds.type == 10 && uet.pds.nack.code != 2"), 0u);
}

/// Two hosts on a switch (built by hand, as uet-nic-test does) for crafted packets.
class UetTrimPacketTest : public UetTrimTest
{
  protected:
    void Build(uint32_t n = 2)
    {
        hosts.Create(n);
        sw.Create(1);
        PfcHelper pfc;
        pfc.SetDeviceAttribute("DataRate", StringValue("400Gbps"));
        pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        for (uint32_t i = 0; i < n; ++i)
        {
            NetDeviceContainer d = pfc.Install(hosts.Get(i), sw.Get(0));
            ports.push_back(DynamicCast<PfcNetDevice>(d.Get(0)));
        }
        fabric = switchHelper.Install(sw.Get(0));
        for (uint32_t i = 0; i < n; ++i)
        {
            fabric->GetForwardingTable()->SetRoute(Ipv4Address(0x0a000001 + i), {i});
            nics.push_back(nicHelper.Install(hosts.Get(i), ports[i], Ipv4Address(0x0a000001 + i)));
            eps.push_back(nics[i]->CreateEndpoint(7, 0));
            eps[i]->RegisterMemory(0xabc, 1ull << 32);
        }
        nicHelper.AssignStreams(11);
    }

    /**
     * Send a request from NIC 0 to NIC 1 as a switch would deliver it trimmed: the NIC's own
     * headers, IPv4 DSCP \p dscp, ECN \p ecn, cut to \p ipBytes.
     */
    void SendTrimmed(uint8_t type,
                     uint8_t flags,
                     uint32_t psn,
                     uint16_t spdcid,
                     uint16_t dpdcid,
                     uint8_t dscp,
                     uint8_t ecn,
                     uint16_t ev,
                     uint32_t ipBytes = 128)
    {
        uint8_t buf[18 + 28 + 12 + 44] = {};
        uint8_t* h = buf + 18;
        uint32_t n = 28;
        if (type == UetPdsHeader::RUDI_REQ)
        {
            n += UetPdsRudiHeader::WriteFields(h + n,
                                               type,
                                               UetPdsHeader::NH_REQUEST_STD,
                                               flags,
                                               psn);
        }
        else
        {
            n += UetPdsRequestHeader::WriteFields(h + n,
                                                  type,
                                                  UetPdsHeader::NH_REQUEST_STD,
                                                  flags,
                                                  0,
                                                  psn,
                                                  spdcid,
                                                  dpdcid);
        }
        h[n] = 1;                   // SES opcode WRITE
        wire::PutU24(h + n + 5, 7); // JobID
        n += 44;
        FabricFrame f =
            nics[0]->MakeFrame(0, h, n, ipBytes - n, Ipv4Address(0x0a000002).Get(), ev, true);
        uint32_t l2 = f.GetHeadBytes() - n;
        uint8_t* ip = f.MutableHead(l2 + 20) + l2;
        ip[1] = static_cast<uint8_t>((dscp << 2) | ecn);
        wire::PutU16(ip + 10, 0);
        wire::PutU16(ip + 10, wire::Ipv4HeaderChecksum(ip, 20));
        Simulator::ScheduleNow([this, frame = std::make_shared<FabricFrame>(std::move(f))]() {
            nics[0]->GetCore()->SendControl(0, *frame, 1);
        });
    }

    NodeContainer hosts;
    NodeContainer sw;
    SwitchHelper switchHelper;
    UetNicHelper nicHelper;
    Ptr<FabricSwitch> fabric;
    std::vector<Ptr<PfcNetDevice>> ports;
    std::vector<Ptr<UetNic>> nics;
    std::vector<Ptr<UetEndpoint>> eps;
};

/// A trimmed SYN packet for a PDC the target has not opened: NACK TRIMMED_LASTHOP at once, to
/// the sender's PDCID, from the packet's EV, with M (it was CE) and RETX echoed; no PDC is
/// opened, nothing is delivered, no PSN is marked received.
TEST_F(UetTrimPacketTest, TrimmedSynIsNackedWithoutOpeningAPdc)
{
    Build();
    std::vector<Frame> sent;
    ports[1]->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&OnMacTx, &sent));
    SendTrimmed(UetPdsHeader::RUD_REQ,
                UetPdsHeader::FLAG_SYN | UetPdsHeader::FLAG_RETX,
                70000,
                9,
                UetPdsRequestHeader::SynField(0, 5),
                57,
                0x03,
                50123);
    Simulator::Run();
    ASSERT_EQ(sent.size(), 1u);
    const Frame& nack = sent[0];
    EXPECT_EQ(nack.type, UetPdsHeader::NACK);
    EXPECT_EQ(nack.code, UetPdsHeader::NACK_TRIMMED_LASTHOP);
    EXPECT_EQ(nack.psn, 70000u);
    EXPECT_EQ(nack.spdcid, 0) << "the target has no PDC";
    EXPECT_EQ(nack.dpdcid, 9) << "addressed to the sender's PDCID";
    EXPECT_EQ(nack.sport, 50123) << "from the trimmed packet's EV";
    EXPECT_EQ(nack.flags & UetPdsHeader::FLAG_M, UetPdsHeader::FLAG_M) << "it was CE-marked";
    EXPECT_EQ(nack.flags & UetPdsHeader::FLAG_RETX, UetPdsHeader::FLAG_RETX);
    EXPECT_EQ(nack.dscp, nics[1]->GetControlDscp());
    const UetNicCounters& rx = nics[1]->GetCounters();
    EXPECT_EQ(rx.trimmedReceived, 1u);
    EXPECT_EQ(rx.trimmedLastHopReceived, 1u);
    EXPECT_EQ(rx.trimNacksSent, 1u);
    EXPECT_EQ(rx.dataPacketsReceived, 0u);
    EXPECT_EQ(rx.pdcsOpened, 0u);
    EXPECT_EQ(nics[1]->GetNOpenPdcs(), 0u);
    EXPECT_EQ(rx.messagesDelivered, 0u);
}

/// A trimmed packet of an open PDC (a fabric trim, not CE) is NACKed TRIMMED by that PDC (its
/// PDCIDs in the NACK); the PSN is not marked received.
TEST_F(UetTrimPacketTest, TrimmedPacketOfAnOpenPdcIsNackedByThatPdc)
{
    Build();
    uint32_t ok = 0;
    auto done = MakeCallback(+[](uint32_t* ok, const UetCompletion& c) { *ok += c.ok; }).Bind(&ok);
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 8 * 4096, done);
    Simulator::Stop(MicroSeconds(50)); // done, the PDCs still open (PdcIdleTime 1 ms)
    Simulator::Run();
    ASSERT_EQ(ok, 1u);
    const UetPdc* initiator =
        nics[0]->FindInitiatorPdc(0, UetDeliveryMode::RUD, 7, nics[1]->GetAddress(0));
    ASSERT_NE(initiator, nullptr);
    const UetPdc* target = nics[1]->GetPdc(0, initiator->GetPeerId());
    ASSERT_NE(target, nullptr);
    uint32_t cack = target->GetReceiveWindow().GetCackPsn();
    uint32_t psn = initiator->GetSendWindow().GetNextPsn();
    std::vector<Frame> sent;
    ports[1]->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&OnMacTx, &sent));
    NackLog nacks;
    nics[0]->TraceConnectWithoutContext("Nack", MakeBoundCallback(&OnNack, &nacks));
    SendTrimmed(UetPdsHeader::RUD_REQ,
                0,
                psn,
                initiator->GetLocalId(),
                initiator->GetPeerId(),
                56,
                0x02,
                51000);
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].type, UetPdsHeader::NACK);
    EXPECT_EQ(sent[0].code, UetPdsHeader::NACK_TRIMMED);
    EXPECT_EQ(sent[0].psn, psn);
    EXPECT_EQ(sent[0].spdcid, target->GetLocalId());
    EXPECT_EQ(sent[0].dpdcid, initiator->GetLocalId());
    EXPECT_EQ(sent[0].flags & (UetPdsHeader::FLAG_M | UetPdsHeader::FLAG_RETX), 0);
    EXPECT_EQ(sent[0].sport, 51000);
    EXPECT_EQ(target->GetReceiveWindow().GetCackPsn(), cack) << "the PSN is not received";
    EXPECT_EQ(nics[1]->GetCounters().dataPacketsReceived, 8u);
    EXPECT_EQ(nics[1]->GetCounters().trimmedReceived, 1u);
    EXPECT_EQ(nics[1]->GetCounters().trimmedLastHopReceived, 0u);
    // The initiator never sent that PSN: the NACK is counted and ignored.
    EXPECT_EQ(nacks.received[UetPdsHeader::NACK_TRIMMED], 1u);
    EXPECT_EQ(nics[0]->GetCounters().trimNacksReceived, 1u);
    EXPECT_EQ(nics[0]->GetCounters().retransmissions, 0u);
    Simulator::Run();
}

/// RUDI: a trimmed request is NACKed with NT, the JobID in the payload; the packet id is not
/// marked seen. UUD: a trimmed packet is counted lost.
TEST_F(UetTrimPacketTest, RudiTrimsAreNackedWithNtAndUudTrimsCountedLost)
{
    Build();
    std::vector<Frame> sent;
    ports[1]->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&OnMacTx, &sent));
    SendTrimmed(UetPdsHeader::RUDI_REQ, 0, 3, 0, 0, 56, 0x02, 49999);
    SendTrimmed(UetPdsHeader::UUD_REQ, 0, 0, 0, 0, 57, 0x02, 49998);
    Simulator::Run();
    ASSERT_EQ(sent.size(), 1u) << "one NACK for the RUDI packet, nothing for UUD";
    EXPECT_EQ(sent[0].type, UetPdsHeader::NACK);
    EXPECT_EQ(sent[0].code, UetPdsHeader::NACK_TRIMMED);
    EXPECT_EQ(sent[0].flags & UetPdsHeader::FLAG_NT, UetPdsHeader::FLAG_NT);
    EXPECT_EQ(sent[0].flags & UetPdsHeader::FLAG_M, 0);
    EXPECT_EQ(sent[0].psn, 3u) << "the packet id";
    EXPECT_EQ(sent[0].sport, 49999);
    const UetNicCounters& rx = nics[1]->GetCounters();
    EXPECT_EQ(rx.trimmedReceived, 2u);
    EXPECT_EQ(rx.trimmedLastHopReceived, 1u);
    EXPECT_EQ(rx.uudTrimmed, 1u);
    EXPECT_EQ(rx.uudPacketsReceived, 0u);
    EXPECT_EQ(rx.dataPacketsReceived, 0u);
    EXPECT_EQ(rx.trimNacksSent, 1u);
}

/// A trimmed packet shorter than its UET headers (a TrimSize below 84 B on a switch the
/// topology helpers did not check) cannot be answered: dropped as malformed, counted, with a
/// warning naming the fix.
TEST_F(UetTrimPacketTest, TrimmedPacketTooShortForItsHeadersIsAMalformedDrop)
{
    Build();
    testing::internal::CaptureStderr();
    SendTrimmed(UetPdsHeader::RUD_REQ, 0, 100, 9, 4, 56, 0x02, 50000, 64);
    Simulator::Run();
    std::string err = testing::internal::GetCapturedStderr();
    const UetNicCounters& rx = nics[1]->GetCounters();
    EXPECT_EQ(rx.trimmedMalformed, 1u);
    EXPECT_EQ(rx.trimNacksSent, 0u);
    EXPECT_EQ(nics[1]->GetCore()->GetDrops()[size_t(FabricNicDropReason::MALFORMED)], 1u);
    EXPECT_NE(err.find("a trimmed UET request of 64 B is shorter than its 84 B of headers"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("TrimSize to at least 84"), std::string::npos) << err;
}

using UetTrimDeathTest = UetTrimTest;

TEST_F(UetTrimDeathTest, BadTrimmingConfigurationsAbortNamingTheValue)
{
    // Trimming a lossless priority.
    {
        StarTopologyHelper star;
        star.GetSwitchHelper().SetMmuAttribute("TrimPriorities", UintegerValue(0x0a));
        EXPECT_DEATH(star.Install(2),
                     "TrimPriorities 0xa includes priority 3, which is lossless "
                     "\\(LosslessPriorities 0x8\\): only lossy priorities can be trimmed; valid "
                     "TrimPriorities are subsets of 0xf7");
    }
    // A trim size that cuts UET's headers, where UET meets the trimming switch.
    {
        StarTopologyHelper star;
        star.SetTransports("uet");
        star.GetSwitchHelper().SetMmuAttribute("TrimPriorities", UintegerValue(0x02));
        star.GetSwitchHelper().SetMmuAttribute("TrimSize", UintegerValue(64));
        star.GetUetNicHelper().SetNicAttribute("DataDscp", UintegerValue(8));
        EXPECT_DEATH(star.Install(2),
                     "switch: SharedBufferMmu TrimSize 64 B is too small for Ultra Ethernet.*"
                     "valid range with this UET NIC is 84..65535");
    }
    // The same through a cluster topology helper, naming the switch.
    {
        auto t = CreateObject<ClosTopologyHelper>();
        t->SetAttribute("Servers", UintegerValue(2));
        t->SetAttribute("GpusPerServer", UintegerValue(1));
        t->SetAttribute("ServersPerRack", UintegerValue(1));
        t->SetAttribute("TorPorts", UintegerValue(4));
        t->SetAttribute("SpinePorts", UintegerValue(4));
        t->SetAttribute("Transports", StringValue("uet"));
        t->GetSwitchHelper().SetMmuAttribute("TrimPriorities", UintegerValue(0x02));
        t->GetSwitchHelper().SetMmuAttribute("TrimSize", UintegerValue(80));
        t->GetUetNicHelper().SetNicAttribute("DataDscp", UintegerValue(8));
        EXPECT_DEATH(t->Install(),
                     "ClosTopologyHelper: leaf0: SharedBufferMmu TrimSize 80 B is too small");
    }
    // DSCPs the receivers would not recognize.
    {
        StarTopologyHelper star;
        star.SetTransports("uet");
        star.GetSwitchHelper().SetMmuAttribute("TrimPriorities", UintegerValue(0x02));
        star.GetSwitchHelper().SetMmuAttribute("TrimDscp", UintegerValue(46));
        star.GetUetNicHelper().SetNicAttribute("DataDscp", UintegerValue(8));
        EXPECT_DEATH(star.Install(2),
                     "SharedBufferMmu TrimDscp 46 differs from UetNic TrimmedDscp 56");
    }
    {
        StarTopologyHelper star;
        star.SetTransports("uet");
        star.GetSwitchHelper().SetMmuAttribute("TrimPriorities", UintegerValue(0x02));
        star.GetSwitchHelper().SetMmuAttribute("LastHopTrimDscp", UintegerValue(58));
        star.GetUetNicHelper().SetNicAttribute("DataDscp", UintegerValue(8));
        EXPECT_DEATH(star.Install(2),
                     "SharedBufferMmu LastHopTrimDscp 58 differs from UetNic "
                     "TrimmedLastHopDscp 57");
    }
    // A data DSCP that reads as trimmed.
    {
        StarTopologyHelper star;
        star.SetTransports("uet");
        star.GetUetNicHelper().SetNicAttribute("DataDscp", UintegerValue(57));
        EXPECT_DEATH(star.Install(2),
                     "UetNic: DataDscp 57 equals TrimmedLastHopDscp 57: every request would "
                     "look trimmed");
    }
    // Out-of-range values and ports.
    auto mmu = CreateObject<SharedBufferMmu>();
    EXPECT_DEATH(mmu->SetAttribute("LastHopTrimDscp", UintegerValue(64)),
                 "ns3::SharedBufferMmu::LastHopTrimDscp=64 is out of range: valid range 0..63");
    EXPECT_DEATH(mmu->SetLastHopPort(0, true), "SetLastHopPort\\(0\\) before Configure\\(\\)");
    auto nic = CreateObject<UetNic>();
    EXPECT_DEATH(nic->SetAttribute("TrimmedDscp", UintegerValue(64)),
                 "ns3::UetNic::TrimmedDscp=64 is out of range: valid range 0..63");
    EXPECT_DEATH(nic->SetAttribute("TrimmedLastHopDscp", UintegerValue(99)),
                 "ns3::UetNic::TrimmedLastHopDscp=99 is out of range: valid range 0..63");
    StarTopologyHelper star;
    star.Install(2);
    EXPECT_DEATH(star.GetSwitch()->SetLastHopPort(2, true), "port 2 out of range \\(0..1");
    EXPECT_TRUE(star.GetSwitch()->IsLastHopPort(0)) << "the star's ports face hosts";
}

} // namespace
