/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * UetNic end to end through a FabricSwitch: line-rate WRITE goodput against the header
 * overhead, the PDC lifecycle (SYN until the first ACK, close after idle, reuse, pool
 * exhaustion and recovery), loss recovery (SACK + inferred loss, NACK, RTO, retry limit on a
 * cut link), ROD ordering, READ, SEND/TAGGED_SEND matching, SES return codes, INV_DPDCID, and
 * conservation after every test.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <cmath>
#include <deque>

using namespace ns3;

namespace
{

Ipv4Address
Ip(uint32_t i)
{
    return Ipv4Address(0x0a000001 + i);
}

/// One IPv4 packet a port sent, decoded as far as the tests need.
struct SentPacket
{
    Time at;             //!< when
    uint8_t type{0};     //!< PDS type
    uint8_t flags{0};    //!< PDS flags
    uint32_t psn{0};     //!< PSN / CACK_PSN
    uint16_t spdcid{0};  //!< SPDCID
    uint16_t dpdcid{0};  //!< DPDCID field
    uint8_t nackCode{0}; //!< NACK code
    uint32_t size{0};    //!< IPv4 length
};

/// N hosts with UetNics on one switch (400 Gb/s, 1 us cables).
class UetTest : public test::SimTest
{
  protected:
    void Build(uint32_t n = 2, std::string rate = "400Gbps")
    {
        hosts.Create(n);
        sw.Create(1);
        PfcHelper pfc;
        pfc.SetDeviceAttribute("DataRate", StringValue(rate));
        pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
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
            eps.push_back(nics[i]->CreateEndpoint(7, 0));
            eps[i]->RegisterMemory(0xabc, 1ull << 32);
            eps[i]->SetDeliveryCallback(MakeCallback(&UetTest::OnDelivery, this));
        }
        nicHelper.AssignStreams(11);
        fabric->AssignStreams(12);
    }

    UetCompletionCallback Collect()
    {
        return MakeCallback(&UetTest::OnCompletion, this);
    }

    void OnCompletion(const UetCompletion& c)
    {
        completions.push_back(c);
    }

    void OnDelivery(const UetDelivery& d)
    {
        deliveries.push_back(d);
    }

    /// Log the UET packets port \p i sends.
    std::vector<SentPacket>& Sniff(uint32_t i)
    {
        sniffed.resize(std::max<size_t>(sniffed.size(), i + 1));
        ports[i]->TraceConnectWithoutContext(
            "MacTx",
            MakeCallback(+[](std::vector<SentPacket>* v, Ptr<const Packet> p) {
                uint8_t b[48] = {};
                p->CopyData(b, std::min<uint32_t>(p->GetSize(), sizeof(b)));
                if (((b[22] << 8) | b[23]) != UetPdsHeader::UDP_DST_PORT)
                {
                    return;
                }
                SentPacket s;
                s.at = Simulator::Now();
                s.type = UetPdsHeader::PeekType(b + 28);
                s.flags = UetPdsHeader::PeekFlags(b + 28);
                s.psn = wire::GetU32(b + 32);
                s.spdcid = wire::GetU16(b + 36);
                s.dpdcid = wire::GetU16(b + 38);
                s.nackCode = b[30];
                s.size = p->GetSize();
                v->push_back(s);
            }).Bind(&sniffed[i]));
        return sniffed[i];
    }

    /// Conservation at every NIC: posted = completed + failed + pending.
    void TearDown() override
    {
        for (const auto& nic : nics)
        {
            const UetNicCounters& c = nic->GetCounters();
            EXPECT_EQ(c.bytesPosted, c.bytesCompleted + c.bytesFailed + nic->GetPendingBytes());
            EXPECT_EQ(c.opsPosted, c.opsCompleted + c.opsFailed + nic->GetPendingOperations());
        }
        test::SimTest::TearDown();
    }

    NodeContainer hosts;
    NodeContainer sw;
    SwitchHelper switchHelper;
    UetNicHelper nicHelper;
    Ptr<FabricSwitch> fabric;
    std::vector<Ptr<PfcNetDevice>> ports;
    std::vector<Ptr<UetNic>> nics;
    std::vector<Ptr<UetEndpoint>> eps;
    std::vector<UetCompletion> completions;
    std::vector<UetDelivery> deliveries;
    std::deque<std::vector<SentPacket>> sniffed; //!< a deque: Sniff() keeps pointers to it
};

/// Drops the frames with these 0-based indices arriving at a port.
void
DropFrames(Ptr<PfcNetDevice> dev, std::list<uint32_t> indices)
{
    auto em = CreateObject<ReceiveListErrorModel>();
    em->SetList(indices);
    dev->SetAttribute("ReceiveErrorModel", PointerValue(em));
}

TEST_F(UetTest, OneGibWriteReachesLineRateGoodputMinusHeaderOverhead)
{
    Build();
    const uint64_t bytes = 1ull << 30;
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, bytes, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    const UetCompletion& c = completions[0];
    EXPECT_TRUE(c.ok) << c.error;
    EXPECT_EQ(c.returnCode, UetSesHeader::RC_OK);
    EXPECT_EQ(c.modifiedBytes, bytes);
    // Wire bytes per full packet: payload + SES 44 + PDS 12 + UDP 8 + IPv4 20 + Ethernet 14 +
    // FCS 4 + preamble 8 + IFG 12.
    const double wire = 4096 + 44 + 12 + 8 + 20 + 14 + 4 + 8 + 12;
    double expected = 400e9 * 4096 / wire; // 388.43 Gb/s
    double goodput = bytes * 8.0 / (c.endTime - c.startTime).GetSeconds();
    EXPECT_NEAR(goodput / expected, 1.0, 0.01) << goodput / 1e9 << " Gb/s";
    const UetNicCounters& tx = nics[0]->GetCounters();
    const UetNicCounters& rx = nics[1]->GetCounters();
    EXPECT_EQ(tx.retransmissions, 0u);
    EXPECT_EQ(rx.dataPacketsReceived, bytes / 4096);
    EXPECT_EQ(rx.bytesDelivered, bytes);
    ASSERT_EQ(deliveries.size(), 1u);
    EXPECT_EQ(deliveries[0].bytes, bytes);
    EXPECT_EQ(deliveries[0].op, UetOperation::WRITE);
    EXPECT_EQ(deliveries[0].initiatorFep, Ip(0));
    // One ACK per 16 KiB (4 packets of 4218 B) plus the immediate ones: the first packet and
    // the message end (one also carries the window-full AR).
    EXPECT_NEAR(double(rx.acksSent), bytes / 16384.0, bytes / 16384.0 * 0.01);
}

TEST_F(UetTest, SynUntilTheFirstAckThenTheTargetPdcid)
{
    nicHelper.SetNicAttribute("PdcIdleTime", TimeValue(MicroSeconds(10)));
    Build();
    auto& sent = Sniff(0);
    auto& acks = Sniff(1);
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 64 * 4096, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_TRUE(completions[0].ok);
    ASSERT_FALSE(acks.empty());
    // The first packet arrives 2 us later (two 1-us hops) + serialization; its ACK comes back.
    Time firstAckArrives;
    uint16_t targetId = 0;
    for (const auto& a : acks)
    {
        if (UetPdsAckHeader::IsAckType(a.type))
        {
            firstAckArrives = a.at + MicroSeconds(2);
            targetId = a.spdcid;
            break;
        }
    }
    ASSERT_NE(targetId, 0);
    uint32_t syn = 0;
    uint32_t startPsn = 0;
    for (const auto& s : sent)
    {
        if (s.type != UetPdsHeader::RUD_REQ)
        {
            continue;
        }
        bool hasSyn = s.flags & UetPdsHeader::FLAG_SYN;
        if (syn == 0)
        {
            ASSERT_TRUE(hasSyn) << "the first packet opens the PDC";
            startPsn = s.psn - (s.dpdcid & 0xFFF);
            EXPECT_EQ(s.dpdcid & 0xFFF, 0) << "psn_offset of the first packet";
        }
        if (hasSyn)
        {
            syn++;
            EXPECT_LT(s.at, firstAckArrives);
            EXPECT_EQ(s.dpdcid & 0xFFF, s.psn - startPsn) << "psn_offset";
        }
        else
        {
            EXPECT_GT(s.at, firstAckArrives - MicroSeconds(1));
            EXPECT_EQ(s.dpdcid, targetId) << "DPDCID after the first ACK";
        }
    }
    EXPECT_GT(syn, 1u);
    EXPECT_LT(syn, 64u);
    // Closed after the idle time: Close from the initiator, ACKed; both PDCIDs freed.
    EXPECT_EQ(nics[0]->GetNOpenPdcs(), 0u);
    EXPECT_EQ(nics[1]->GetNOpenPdcs(), 0u);
    EXPECT_EQ(nics[0]->GetCounters().pdcsClosed, 1u);
    EXPECT_EQ(nics[1]->GetCounters().pdcsClosed, 1u);
    auto close = std::find_if(sent.begin(), sent.end(), [](const SentPacket& s) {
        return s.type == UetPdsHeader::CTRL;
    });
    ASSERT_NE(close, sent.end());
    EXPECT_GE(close->at, completions[0].endTime + MicroSeconds(10));
    // Reuse: a new operation opens a new PDC (new Start_PSN) and works.
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 4096, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    EXPECT_TRUE(completions[1].ok);
    EXPECT_EQ(nics[0]->GetCounters().pdcsOpened, 2u);
    EXPECT_EQ(nics[1]->GetCounters().pdcsOpened, 2u);
}

TEST_F(UetTest, PoolExhaustionIsNackedAndRecoversWhenAPdcCloses)
{
    nicHelper.SetNicAttribute("PdcPoolSize", UintegerValue(1));
    nicHelper.SetNicAttribute("PdcIdleTime", TimeValue(MicroSeconds(5)));
    nicHelper.SetNicAttribute("RtoMin", TimeValue(MicroSeconds(20)));
    Build(3);
    uint32_t noPdc = 0;
    nics[0]->TraceConnectWithoutContext(
        "Nack",
        MakeCallback(+[](uint32_t* n, uint16_t, uint32_t, uint8_t code, bool received) {
            *n += (received && code == UetPdsHeader::NACK_NO_PDC_AVAIL) ? 1 : 0;
        }).Bind(&noPdc));
    nics[1]->TraceConnectWithoutContext(
        "Nack",
        MakeCallback(+[](uint32_t* n, uint16_t, uint32_t, uint8_t code, bool received) {
            *n += (received && code == UetPdsHeader::NACK_NO_PDC_AVAIL) ? 1 : 0;
        }).Bind(&noPdc));
    // Host 2 has one PDCID: the second initiator is refused until the first PDC closes.
    eps[0]->PostWrite(eps[2]->GetAddress(), 0xabc, 0, 256 * 1024, Collect());
    eps[1]->PostWrite(eps[2]->GetAddress(), 0xabc, 0, 256 * 1024, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    EXPECT_TRUE(completions[0].ok) << completions[0].error;
    EXPECT_TRUE(completions[1].ok) << completions[1].error;
    EXPECT_GE(noPdc, 1u);
    EXPECT_EQ(nics[2]->GetCounters().bytesDelivered, 512u * 1024);
    EXPECT_EQ(nics[2]->GetCounters().pdcsOpened, 2u);
    EXPECT_EQ(nics[2]->GetNOpenPdcs(), 0u);
}

TEST_F(UetTest, InitiatorWithoutFreePdcidQueuesOperations)
{
    nicHelper.SetNicAttribute("PdcPoolSize", UintegerValue(1));
    nicHelper.SetNicAttribute("PdcIdleTime", TimeValue(MicroSeconds(1)));
    Build(4);
    // One PDCID for three destinations: the operations for host 1 share its open PDC; those
    // for hosts 2 and 3 wait, in post order, for the PDCID to be freed.
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 8192, Collect());
    eps[0]->PostWrite(eps[2]->GetAddress(), 0xabc, 0, 8192, Collect());
    eps[0]->PostWrite(eps[3]->GetAddress(), 0xabc, 0, 8192, Collect());
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 8192, Collect());
    EXPECT_EQ(nics[0]->GetNOpenPdcs(), 1u);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 4u);
    std::vector<uint64_t> order;
    for (const auto& c : completions)
    {
        EXPECT_TRUE(c.ok);
        order.push_back(c.id);
    }
    EXPECT_EQ(order, (std::vector<uint64_t>{1, 4, 2, 3}));
    EXPECT_GT(completions[2].startTime, completions[1].endTime);
    EXPECT_GT(completions[3].startTime, completions[2].endTime);
    EXPECT_EQ(nics[0]->GetCounters().pdcsOpened, 3u);
}

TEST_F(UetTest, MidMessageLossIsRecoveredOnceWithoutDuplicateDelivery)
{
    Build();
    DropFrames(ports[1], {50});
    std::vector<std::string> causes;
    nics[0]->TraceConnectWithoutContext(
        "Retransmit",
        MakeCallback(+[](std::vector<std::string>* v, uint16_t, uint32_t, const std::string& c) {
            v->push_back(c);
        }).Bind(&causes));
    const uint64_t bytes = 200 * 4096;
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, bytes, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_TRUE(completions[0].ok);
    const UetNicCounters& tx = nics[0]->GetCounters();
    const UetNicCounters& rx = nics[1]->GetCounters();
    EXPECT_EQ(tx.retransmissions, 1u) << "only the lost packet is resent (SACK)";
    EXPECT_EQ(tx.rtoExpirations, 0u);
    ASSERT_EQ(causes.size(), 1u);
    EXPECT_EQ(causes[0], "inferred");
    EXPECT_EQ(rx.dataPacketsReceived, 200u);
    EXPECT_EQ(rx.duplicatesReceived, 0u);
    ASSERT_EQ(deliveries.size(), 1u);
    EXPECT_EQ(rx.bytesDelivered, bytes);
}

TEST_F(UetTest, TailLossIsRecoveredByTheRto)
{
    nicHelper.SetNicAttribute("RtoMin", TimeValue(MicroSeconds(100)));
    Build();
    DropFrames(ports[1], {9}); // the last of 10 packets
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 10 * 4096, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_TRUE(completions[0].ok);
    const UetNicCounters& tx = nics[0]->GetCounters();
    EXPECT_EQ(tx.rtoExpirations, 1u);
    EXPECT_EQ(tx.retransmissions, 1u);
    EXPECT_GT(completions[0].endTime, MicroSeconds(100));
    EXPECT_LT(completions[0].endTime, MicroSeconds(115));
    EXPECT_EQ(nics[1]->GetCounters().dataPacketsReceived, 10u);
}

TEST_F(UetTest, CutLinkEndsWithErrorCompletionsAfterTheRetryLimit)
{
    nicHelper.SetNicAttribute("RtoMin", TimeValue(MicroSeconds(50)));
    nicHelper.SetNicAttribute("RetryLimit", UintegerValue(3));
    Build();
    ports[1]->GetPfcChannel()->SetLinkUp(false);
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 64 * 1024, Collect());
    eps[0]->PostSend(eps[1]->GetAddress(), 100, Collect());
    Simulator::Run(); // must end on its own
    ASSERT_EQ(completions.size(), 2u);
    for (const auto& c : completions)
    {
        EXPECT_FALSE(c.ok);
        EXPECT_EQ(c.returnCode, UetSesHeader::RC_NULL);
        EXPECT_NE(c.error.find("closed in error"), std::string::npos) << c.error;
        EXPECT_NE(c.error.find("RetryLimit 3"), std::string::npos) << c.error;
    }
    // RTOs of 50, 100, 200, 400 us: the fourth expiry closes the PDC.
    EXPECT_GE(completions[0].endTime, MicroSeconds(750));
    EXPECT_LE(completions[0].endTime, MicroSeconds(770));
    EXPECT_EQ(nics[0]->GetCounters().pdcsClosedInError, 1u);
    EXPECT_EQ(nics[0]->GetNOpenPdcs(), 0u);
    EXPECT_EQ(nics[0]->GetCounters().bytesFailed, 64u * 1024 + 100);
}

TEST_F(UetTest, RodDeliversInOrderAndGoesBackOnALoss)
{
    Build();
    DropFrames(ports[1], {20});
    auto& sent = Sniff(1);
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 100 * 4096, Collect(), UetDeliveryMode::ROD);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_TRUE(completions[0].ok);
    EXPECT_EQ(completions[0].mode, UetDeliveryMode::ROD);
    uint32_t rodNacks = 0;
    for (const auto& s : sent)
    {
        rodNacks += s.type == UetPdsHeader::NACK && s.nackCode == UetPdsHeader::NACK_ROD_OOO;
    }
    EXPECT_EQ(rodNacks, 1u) << "one NACK per gap";
    const UetNicCounters& rx = nics[1]->GetCounters();
    EXPECT_EQ(rx.dataPacketsReceived, 100u) << "accepted only in order, each once";
    EXPECT_EQ(rx.bytesDelivered, 100u * 4096);
}

TEST_F(UetTest, ReadFetchesDataOnTheReversePsnSpace)
{
    Build();
    DropFrames(ports[0], {30}); // a READ data packet arriving at the initiator
    const uint64_t bytes = 1 << 20;
    eps[0]->PostRead(eps[1]->GetAddress(), 0xabc, 4096, bytes, Collect());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_TRUE(completions[0].ok) << completions[0].error;
    EXPECT_EQ(completions[0].op, UetOperation::READ);
    EXPECT_EQ(completions[0].modifiedBytes, bytes);
    EXPECT_EQ(nics[1]->GetCounters().retransmissions, 1u) << "the target resends the lost data";
    EXPECT_EQ(nics[0]->GetCounters().dataPacketsReceived, bytes / 4096);
    EXPECT_TRUE(deliveries.empty()) << "a READ delivers nothing at the target";
}

TEST_F(UetTest, SendsMatchPostedAndLaterReceives)
{
    Build();
    std::vector<UetDelivery> got;
    auto cb = MakeCallback(+[](std::vector<UetDelivery>* v, const UetDelivery& d) {
                  v->push_back(d);
              }).Bind(&got);
    UetAddress dst = eps[1]->GetAddress();
    uint64_t r1 = eps[1]->PostTaggedReceive(0, 0x50, 0x0F, 9000, cb); // matches 0x5*
    eps[0]->PostTaggedSend(dst, 0x7, 100, Collect());                 // unexpected
    eps[0]->PostTaggedSend(dst, 0x53, 9000, Collect());               // matches r1
    eps[0]->PostSend(dst, 5000, Collect());                           // unexpected
    Simulator::Run();
    ASSERT_EQ(completions.size(), 3u);
    for (const auto& c : completions)
    {
        EXPECT_TRUE(c.ok) << c.error; // unexpected messages are buffered, not refused
    }
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].receiveId, r1);
    EXPECT_EQ(got[0].key, 0x53u);
    EXPECT_FALSE(got[0].unexpected);
    EXPECT_EQ(eps[1]->GetNUnexpected(), 2u);
    // Receives posted later take the buffered messages.
    eps[1]->PostReceive(0, 5000, cb);
    eps[1]->PostTaggedReceive(0, 0x7, 0, 64, cb); // too short: RC_TOO_LONG at the target
    Simulator::Run();
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[1].op, UetOperation::SEND);
    EXPECT_TRUE(got[1].unexpected);
    EXPECT_EQ(got[1].bytes, 5000u);
    EXPECT_EQ(got[2].returnCode, UetSesHeader::RC_TOO_LONG);
    EXPECT_EQ(eps[1]->GetNUnexpected(), 0u);
}

TEST_F(UetTest, TargetReturnCodesCompleteTheInitiatorWithAnError)
{
    Build();
    eps[1]->SetAttribute("UnexpectedLimit", UintegerValue(0));
    UetAddress good = eps[1]->GetAddress();
    UetAddress badJob = good;
    badJob.jobId = 99;
    UetAddress badPid = good;
    badPid.pidOnFep = 5;
    UetAddress badRi = good;
    badRi.resource = 3;
    eps[0]->PostWrite(badJob, 0xabc, 0, 100, Collect());
    eps[0]->PostWrite(badPid, 0xabc, 0, 100, Collect());
    eps[0]->PostWrite(badRi, 0xabc, 0, 100, Collect());
    eps[0]->PostWrite(good, 0xdead, 0, 10000, Collect());              // no such key
    eps[0]->PostWrite(good, 0xabc, (1ull << 32) - 10, 100, Collect()); // beyond the region
    eps[0]->PostSend(good, 100, Collect());                            // no receive, no room
    eps[0]->PostRead(badJob, 0xabc, 0, 100000, Collect());
    eps[0]->PostWrite(good, 0xabc, 0, 100, Collect()); // and a good one
    Simulator::Run();
    ASSERT_EQ(completions.size(), 8u);
    const uint8_t expected[] = {UetSesHeader::RC_BAD_JOB_ID,
                                UetSesHeader::RC_BAD_PID,
                                UetSesHeader::RC_BAD_INDEX,
                                UetSesHeader::RC_BAD_MKEY,
                                UetSesHeader::RC_AT_OUT_OF_RANGE,
                                UetSesHeader::RC_NO_MATCH,
                                UetSesHeader::RC_BAD_JOB_ID,
                                UetSesHeader::RC_OK};
    // A bad JobID goes on its own PDC (PDCs are per JobID): match by id.
    for (uint32_t i = 0; i < 8; ++i)
    {
        auto it = std::find_if(completions.begin(), completions.end(), [i](const UetCompletion& c) {
            return c.id == i + 1;
        });
        ASSERT_NE(it, completions.end());
        EXPECT_EQ(it->returnCode, expected[i]) << "operation " << i + 1 << ": " << it->error;
        EXPECT_EQ(it->ok, expected[i] == UetSesHeader::RC_OK);
    }
    EXPECT_EQ(deliveries.size(), 1u);
}

TEST_F(UetTest, PacketForAnUnknownPdcGetsNackInvDpdcid)
{
    Build();
    // A RUD request without SYN for a PDCID NIC 1 never allocated.
    uint8_t buf[18 + 28 + 12 + 44] = {};
    uint8_t* h = buf + 18;
    UetPdsRequestHeader::WriteFields(h + 28, UetPdsHeader::RUD_REQ, 3, 0, 0, 1000, 9, 77);
    FabricFrame f = nics[0]->MakeFrame(0, h, 28 + 12 + 44, 100, Ip(1).Get(), 50000, true);
    auto& nacks = Sniff(1);
    Simulator::ScheduleNow([&]() { nics[0]->GetCore()->SendControl(0, f, 3); });
    Simulator::Run();
    ASSERT_EQ(nacks.size(), 1u);
    EXPECT_EQ(nacks[0].type, UetPdsHeader::NACK);
    EXPECT_EQ(nacks[0].nackCode, UetPdsHeader::NACK_INV_DPDCID);
    EXPECT_EQ(nacks[0].dpdcid, 9) << "addressed to the sender's PDCID";
    EXPECT_EQ(nics[1]->GetCore()->GetDrops()[size_t(FabricNicDropReason::UNKNOWN_FLOW)], 1u);
}

TEST_F(UetTest, RudiAnswersEveryPacketAndResendsWithoutDoubleCounting)
{
    nicHelper.SetNicAttribute("RtoMin", TimeValue(MicroSeconds(30)));
    Build();
    // Frame 5 at the target: a request (resent after its RTO). Frame 12 at the initiator: a
    // RUDI_RESP (its request is resent, the target answers the duplicate again).
    DropFrames(ports[1], {5});
    DropFrames(ports[0], {12});
    auto& sent = Sniff(0);
    const uint64_t bytes = 40 * 4096;
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, bytes, Collect(), UetDeliveryMode::RUDI);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_TRUE(completions[0].ok) << completions[0].error;
    EXPECT_EQ(completions[0].mode, UetDeliveryMode::RUDI);
    const UetNicCounters& tx = nics[0]->GetCounters();
    const UetNicCounters& rx = nics[1]->GetCounters();
    EXPECT_EQ(tx.retransmissions, 2u);
    EXPECT_EQ(tx.rtoExpirations, 2u);
    EXPECT_EQ(rx.acksSent, 41u) << "one RUDI_RESP per packet, and one for the duplicate";
    EXPECT_EQ(tx.rudiResponses, 40u) << "all but the lost one arrive";
    EXPECT_EQ(rx.dataPacketsReceived, 40u) << "each packet counted once";
    EXPECT_EQ(rx.duplicatesReceived, 1u);
    ASSERT_EQ(deliveries.size(), 1u);
    EXPECT_EQ(deliveries[0].bytes, bytes);
    EXPECT_EQ(nics[0]->GetNOpenPdcs(), 0u) << "RUDI opens no PDC";
    uint32_t requests = 0;
    for (const auto& p : sent)
    {
        requests += p.type == UetPdsHeader::RUDI_REQ;
    }
    EXPECT_EQ(requests, 42u);
}

TEST_F(UetTest, UudLosesWhatTheFabricDropsAndCountsIt)
{
    Build();
    DropFrames(ports[1], {3});
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 10 * 4096, Collect(), UetDeliveryMode::UUD);
    eps[0]->PostSend(eps[1]->GetAddress(), 3000, Collect(), UetDeliveryMode::UUD);
    eps[1]->PostReceive(0, 3000, UetDeliveryCallback());
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    EXPECT_TRUE(completions[0].ok) << "UUD completes when its packets have left";
    EXPECT_TRUE(completions[1].ok);
    EXPECT_LE(completions[0].endTime, MicroSeconds(1)) << "no round trip";
    const UetNicCounters& tx = nics[0]->GetCounters();
    const UetNicCounters& rx = nics[1]->GetCounters();
    EXPECT_EQ(tx.uudPacketsSent, 11u);
    EXPECT_EQ(rx.uudPacketsReceived, 10u);
    EXPECT_EQ(tx.retransmissions, 0u);
    EXPECT_EQ(rx.acksSent, 0u) << "nothing is acknowledged";
    ASSERT_EQ(deliveries.size(), 1u) << "the WRITE that lost a packet is never delivered";
    EXPECT_EQ(deliveries[0].op, UetOperation::SEND);
}

TEST_F(UetTest, StalledPdcIsNamedInTheHealthMonitorsDiagnosis)
{
    // A cut link and a retry limit that outlasts StallTime: nothing arrives, the monitor stops
    // the run and names the PDC, its state and PSNs.
    nicHelper.SetNicAttribute("RetryLimit", UintegerValue(64));
    Config::SetDefault("ns3::FabricHealthMonitor::StallTime", TimeValue(MilliSeconds(20)));
    Config::SetDefault("ns3::FabricHealthMonitor::CheckInterval", TimeValue(MilliSeconds(1)));
    Build();
    Ptr<FabricHealthMonitor> monitor = CreateObject<FabricHealthMonitor>();
    monitor->Install(hosts);
    Config::Reset();
    std::vector<std::string> stalls;
    monitor->TraceConnectWithoutContext(
        "Stalled",
        MakeCallback(+[](std::vector<std::string>* v, Time, const std::string& d) {
            v->push_back(d);
        }).Bind(&stalls));
    ports[1]->GetPfcChannel()->SetLinkUp(false);
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 8192, Collect());
    Simulator::Run();
    ASSERT_EQ(stalls.size(), 1u);
    EXPECT_TRUE(completions.empty());
    EXPECT_LT(Simulator::Now(), MilliSeconds(30));
    const std::string& d = stalls[0];
    EXPECT_NE(d.find("PDC 1 -> 10.0.0.2 PDC 0 (initiator, RUD, syn-sent): 1 operation(s) "
                     "pending"),
              std::string::npos)
        << d;
    EXPECT_NE(d.find("RTO at"), std::string::npos) << d;
    monitor->Dispose();
}

using UetBadInputDeathTest = UetTest;

TEST_F(UetBadInputDeathTest, ClearErrors)
{
    Build();
    EXPECT_DEATH(nics[0]->SetAttribute("Mtu", UintegerValue(100)),
                 "Mtu=100 is out of range: valid range 256..16383");
    EXPECT_DEATH(nics[0]->SetAttribute("MpRange", UintegerValue(0)), "MpRange=0 is out of range");
    EXPECT_DEATH(nics[0]->SetAttribute("PdcPoolSize", UintegerValue(0)),
                 "PdcPoolSize=0 is out of range");
    EXPECT_DEATH(nics[0]->SetAttribute("RtoMin", TimeValue(Time(0))), "RtoMin=.* is out of range");
    EXPECT_DEATH(eps[0]->PostWrite(eps[1]->GetAddress(), 0, 0, 1ull << 33, Collect()),
                 "8589934592 bytes is too long");
    EXPECT_DEATH(eps[0]->PostRead(eps[1]->GetAddress(), 0, 0, 1, Collect(), UetDeliveryMode::UUD),
                 "READ over UUD is not supported");
    EXPECT_DEATH(nics[0]->CreateEndpoint(7, 0), "already has the endpoint");
    EXPECT_DEATH(nics[0]->CreateEndpoint(1 << 24, 0), "JobID 16777216 is out of range");
    EXPECT_DEATH(eps[1]->PostReceive(1, 10, UetDeliveryCallback()), "resources 0..0");
    Ptr<UetNic> small = CreateObject<UetNic>();
    ports[0]->SetMtu(1500);
    EXPECT_DEATH(small->AddPort(ports[0], Ip(0)), "device MTU 1500 cannot carry UET Mtu 4096");
}

} // namespace
