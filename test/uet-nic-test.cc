/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * UetNic end to end through a FabricSwitch: line-rate WRITE goodput against the header
 * overhead, the PDC lifecycle (SYN until the first ACK, close after idle, reuse, pool
 * exhaustion and recovery), loss recovery (SACK + inferred loss, NACK, RTO, retry limit on a
 * cut link), ROD ordering, READ, SEND/TAGGED_SEND matching, SES return codes, INV_DPDCID, and
 * conservation after every test; and received bytes: malformed, stale and forged packets each
 * with their precise outcome, and the regressions the uet-nic-rx-fuzz harness and its review
 * found.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>

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

// ---- received bytes: malformed, stale and forged packets ---------------------------------

/// Bytes: the concatenation of \p parts.
std::vector<uint8_t>
Cat(std::initializer_list<std::vector<uint8_t>> parts)
{
    std::vector<uint8_t> out;
    for (const auto& p : parts)
    {
        out.insert(out.end(), p.begin(), p.end());
    }
    return out;
}

/// A RUD/ROD request PDS header (12 B).
std::vector<uint8_t>
PdsRequest(uint8_t type, uint8_t nh, uint8_t flags, uint32_t psn, uint16_t spdcid, uint16_t dpdcid)
{
    std::vector<uint8_t> b(UetPdsRequestHeader::SIZE);
    UetPdsRequestHeader::WriteFields(b.data(), type, nh, flags, 0, psn, spdcid, dpdcid);
    return b;
}

/// An ACK (12 B).
std::vector<uint8_t>
PdsAck(uint32_t cack, uint16_t spdcid, uint16_t dpdcid)
{
    std::vector<uint8_t> b(UetPdsAckHeader::SIZE);
    UetPdsAckHeader::WriteAck(b.data(), UetPdsHeader::NH_NONE, 0, 0, cack, spdcid, dpdcid);
    return b;
}

/// A NACK (16 B).
std::vector<uint8_t>
PdsNack(uint8_t code, uint32_t psn, uint16_t spdcid, uint16_t dpdcid)
{
    std::vector<uint8_t> b(UetPdsNackHeader::SIZE);
    UetPdsNackHeader::WriteFields(b.data(), 0, 0, code, 0, psn, spdcid, dpdcid, 0);
    return b;
}

/// A control packet (16 B).
std::vector<uint8_t>
PdsControl(uint8_t ctlType, uint32_t psn, uint16_t spdcid, uint16_t dpdcid)
{
    std::vector<uint8_t> b(UetPdsControlHeader::SIZE);
    UetPdsControlHeader::WriteFields(b.data(), ctlType, 0, 0, psn, spdcid, dpdcid, 0);
    return b;
}

/// An SES standard request to endpoint {JobID 7, PIDonFEP 0}, key 0xabc (44 B).
std::vector<uint8_t>
SesRequest(uint8_t opcode, uint8_t flags, uint16_t msgId, uint32_t requestLength)
{
    std::vector<uint8_t> b(UetSesRequestHeader::SIZE);
    UetSesRequestHeader::WriteFields(b.data(),
                                     opcode,
                                     flags,
                                     msgId,
                                     0,
                                     7,
                                     0,
                                     0,
                                     0,
                                     0,
                                     0xabc,
                                     0,
                                     requestLength);
    return b;
}

/// UetTest, plus packets made up byte by byte and handed to a NIC port as if from its cable.
class UetRxTest : public UetTest
{
  protected:
    /// What one received packet did at the NIC it reached.
    struct Outcome
    {
        bool delivered{false};                                //!< its transport took it
        FabricNicDropReason drop{FabricNicDropReason::COUNT}; //!< else why it was dropped
        std::vector<SentPacket> sent; //!< UET packets that NIC sent until the run ended
        double seconds{0};            //!< wall-clock time the NIC took to handle it
    };

    /**
     * \brief An Ethernet frame carrying an IPv4 / UDP 4793 packet to the port of NIC \p nic.
     * \param nic the receiving NIC
     * \param udp the UDP payload: PDS header, SES header, payload
     * \param padding zero payload bytes after \p udp
     * \param src IPv4 source (any: the other host)
     * \return the frame, as from the port's cable
     */
    FabricFrame Frame(uint32_t nic,
                      const std::vector<uint8_t>& udp,
                      uint32_t padding = 0,
                      Ipv4Address src = Ipv4Address::GetAny()) const
    {
        if (src == Ipv4Address::GetAny())
        {
            src = Ip(1 - nic);
        }
        std::vector<uint8_t> f(14 + 28);
        Mac48Address::ConvertFrom(ports[nic]->GetAddress()).CopyTo(f.data());
        wire::PutU16(f.data() + 12, 0x0800);
        uint8_t* ip = f.data() + 14;
        const uint32_t size = 28 + static_cast<uint32_t>(udp.size()) + padding;
        ip[0] = 0x45;
        ip[1] = 26 << 2;
        wire::PutU16(ip + 2, static_cast<uint16_t>(size));
        ip[8] = 64;
        ip[9] = 17;
        wire::PutU32(ip + 12, src.Get());
        wire::PutU32(ip + 16, Ip(nic).Get());
        wire::PutU16(ip + 10, wire::Ipv4HeaderChecksum(ip, 20));
        wire::PutU16(ip + 20, 50000);
        wire::PutU16(ip + 22, UetPdsHeader::UDP_DST_PORT);
        wire::PutU16(ip + 24, static_cast<uint16_t>(size - 20));
        f.insert(f.end(), udp.begin(), udp.end());
        f.resize(std::max<size_t>(f.size() + padding + 4, 64), 0); // FCS, minimum frame
        return FabricFrame(Create<Packet>(f.data(), static_cast<uint32_t>(f.size())));
    }

    /**
     * \brief Hand a packet (Frame()) to the port of NIC \p nic, as from its cable, then run
     *        the simulation until it ends (or for runFor).
     * \param nic the receiving NIC
     * \param udp the UDP payload: PDS header, SES header, payload
     * \param padding zero payload bytes after \p udp
     * \param src IPv4 source (any: the other host)
     * \param after called right after the NIC handled the packet (before the run)
     * \return what the packet did
     */
    Outcome Receive(uint32_t nic,
                    const std::vector<uint8_t>& udp,
                    uint32_t padding = 0,
                    Ipv4Address src = Ipv4Address::GetAny(),
                    std::function<void()> after = {})
    {
        if (!sniffing[nic])
        {
            Sniff(nic);
            sniffing[nic] = true;
        }
        Outcome o;
        size_t before = sniffed[nic].size();
        Simulator::ScheduleWithContext(hosts.Get(nic)->GetId(), Time(0), [&, nic, src]() {
            Ptr<FabricNic> core = nics[nic]->GetCore();
            auto drops = core->GetDrops();
            uint64_t delivered = core->GetDeliveredFrames();
            FabricFrame frame = Frame(nic, udp, padding, src);
            auto start = std::chrono::steady_clock::now();
            ports[nic]->Receive(frame);
            o.seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (after)
            {
                after();
            }
            o.delivered = core->GetDeliveredFrames() == delivered + 1;
            for (size_t r = 0; r < drops.size(); ++r)
            {
                if (core->GetDrops()[r] == drops[r] + 1)
                {
                    o.drop = FabricNicDropReason(r);
                }
            }
        });
        if (!runFor.IsZero())
        {
            Simulator::Stop(runFor);
        }
        Simulator::Run();
        o.sent.assign(sniffed[nic].begin() + before, sniffed[nic].end());
        return o;
    }

    /// How long Receive() runs the simulation after the packet (0: until it ends).
    Time runFor;
    /// NICs whose sent packets Receive() logs (Sniff()).
    std::array<bool, 4> sniffing{};
    /// Called after a completion collected by OnCompletionThen().
    std::function<void()> onCompletion;

    /// \return a completion callback: Collect(), then onCompletion
    UetCompletionCallback CollectThen()
    {
        return MakeCallback(&UetRxTest::OnCompletionThen, this);
    }

    /// Collect a completion, then call onCompletion. \param c the completion
    void OnCompletionThen(const UetCompletion& c)
    {
        OnCompletion(c);
        if (onCompletion)
        {
            onCompletion();
        }
    }

    /// \return the receive window's next PSN of PDC \p id at NIC \p nic
    uint32_t NextRxPsn(uint32_t nic, uint16_t id) const
    {
        return nics[nic]->GetPdc(0, id)->GetReceiveWindow().GetSackBase();
    }

    /// Expect a packet dropped with \p reason and nothing sent in answer.
    static void ExpectDropped(const Outcome& o, FabricNicDropReason reason, const char* what)
    {
        EXPECT_FALSE(o.delivered) << what;
        EXPECT_EQ(o.drop, reason) << what << ": " << FabricNicDropReasonName(o.drop);
        EXPECT_TRUE(o.sent.empty()) << what << ": " << o.sent.size() << " packets sent";
    }

    /// Expect a packet dropped as UNKNOWN_FLOW and answered with one NACK \p code.
    static void ExpectNacked(const Outcome& o, uint8_t code, uint16_t dpdcid, const char* what)
    {
        EXPECT_FALSE(o.delivered) << what;
        EXPECT_EQ(o.drop, FabricNicDropReason::UNKNOWN_FLOW) << what;
        ASSERT_EQ(o.sent.size(), 1u) << what;
        EXPECT_EQ(o.sent[0].type, UetPdsHeader::NACK) << what;
        EXPECT_EQ(o.sent[0].nackCode, code) << what;
        EXPECT_EQ(o.sent[0].dpdcid, dpdcid) << what;
    }
};

TEST_F(UetRxTest, NastyPacketsHaveTheirPreciseOutcomeAndNormalOperationsStillComplete)
{
    nicHelper.SetNicAttribute("PdcIdleTime", TimeValue(Time(0))); // PDCs stay open
    Build();
    // A WRITE opens the PDCs: NIC 0's initiator PDC 1 and NIC 1's target PDC 1 (long enough
    // for packets without SYN to follow the first ACK: the target PDC is not half-open). A
    // RUDI WRITE gives NIC 1 a RUDI flow to NIC 0.
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 256 * 1024, Collect());
    eps[1]->PostWrite(eps[0]->GetAddress(), 0xabc, 0, 100, Collect(), UetDeliveryMode::RUDI);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    const UetPdc* initiator = nics[0]->GetPdc(0, 1);
    const UetPdc* target = nics[1]->GetPdc(0, 1);
    ASSERT_TRUE(initiator && target);
    ASSERT_EQ(initiator->GetState(), UetPdc::ESTABLISHED);
    ASSERT_EQ(target->GetPeerId(), 1);
    const UetNicCounters& c0 = nics[0]->GetCounters();
    const UetNicCounters& c1 = nics[1]->GetCounters();
    const uint32_t next = NextRxPsn(1, 1);
    const uint8_t RUD = UetPdsHeader::RUD_REQ;
    const uint8_t STD = UetPdsHeader::NH_REQUEST_STD;
    const uint8_t SOM_EOM = UetSesHeader::FLAG_SOM | UetSesHeader::FLAG_EOM;
    const uint8_t WRITE = UetSesHeader::WRITE;

    // Too short for the PDS prologue, or for its PDS header: malformed.
    ExpectDropped(Receive(1, {0x10}), FabricNicDropReason::MALFORMED, "1 byte");
    auto req = PdsRequest(RUD, UetPdsHeader::NH_NONE, 0, next, 1, 1);
    ExpectDropped(Receive(1, std::vector<uint8_t>(req.begin(), req.begin() + 7)),
                  FabricNicDropReason::MALFORMED,
                  "7 bytes of a 12-byte request header");
    // Types the model does not decode (reserved, TSS, NACK_CCX, 15): malformed.
    for (uint8_t type : {0, 1, 12, 15})
    {
        std::vector<uint8_t> b(40, 0);
        b[0] = static_cast<uint8_t>(type << 3);
        ExpectDropped(Receive(1, b), FabricNicDropReason::MALFORMED, "unknown type");
    }
    // An SES standard header announced but only 20 of its 44 bytes there; and an ACK_CC with
    // an SES standard header (104 header bytes, more than any UET packet has): malformed, and
    // the PSN is not consumed.
    ExpectDropped(Receive(1, Cat({PdsRequest(RUD, STD, 0, next, 1, 1), std::vector<uint8_t>(20)})),
                  FabricNicDropReason::MALFORMED,
                  "SES header that does not fit");
    EXPECT_EQ(NextRxPsn(1, 1), next);
    std::vector<uint8_t> ackCc(UetPdsAckHeader::CC_SIZE + 44 + 100, 0);
    UetPdsAckHeader::WriteAckCc(ackCc.data(), STD, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0);
    ExpectDropped(Receive(0, ackCc), FabricNicDropReason::MALFORMED, "ACK_CC + SES standard");

    // A request without SYN for DPDCID 0, and a Close for a PDCID never allocated: NACK
    // INV_DPDCID to the sender's PDCID. The NACKs name PSNs NIC 0's PDC 1 never sent: it
    // counts them and stays open (a stale NACK does not close a live PDC).
    uint64_t nacks0 = c0.nacksReceived;
    ExpectNacked(
        Receive(1, Cat({PdsRequest(RUD, STD, 0, 42, 1, 0), SesRequest(WRITE, SOM_EOM, 9, 10)})),
        UetPdsHeader::NACK_INV_DPDCID,
        1,
        "DPDCID 0");
    ExpectNacked(Receive(1, PdsControl(UetPdsHeader::CTRL_CLOSE, 42, 1, 55)),
                 UetPdsHeader::NACK_INV_DPDCID,
                 1,
                 "Close of an unknown PDC");
    EXPECT_EQ(c0.nacksReceived, nacks0 + 2);
    EXPECT_EQ(initiator->GetState(), UetPdc::ESTABLISHED);
    EXPECT_EQ(c0.pdcsClosedInError, 0u);

    // An ACK for a PDC that does not exist, and one for a live PDC from a host that is not its
    // peer: unknown flow, nothing sent.
    ExpectDropped(Receive(0, PdsAck(0, 1, 77)), FabricNicDropReason::UNKNOWN_FLOW, "PDC 77");
    ExpectDropped(Receive(0, PdsAck(0, 1, 1), 0, Ipv4Address("10.9.9.9")),
                  FabricNicDropReason::UNKNOWN_FLOW,
                  "ACK from a stranger");

    // NACK NO_PDC_AVAIL to an ESTABLISHED PDC (its SYN was accepted long ago): counted and
    // ignored (no retransmission).
    uint64_t retx0 = c0.retransmissions;
    Outcome o = Receive(
        0,
        PdsNack(UetPdsHeader::NACK_NO_PDC_AVAIL, initiator->GetSendWindow().GetNextPsn(), 1, 1));
    EXPECT_TRUE(o.delivered);
    EXPECT_TRUE(o.sent.empty());
    EXPECT_EQ(c0.nacksReceived, nacks0 + 3);
    EXPECT_EQ(c0.retransmissions, retx0);
    EXPECT_EQ(initiator->GetState(), UetPdc::ESTABLISHED);

    // A RUDI response for a packet id NIC 1's RUDI flow never sent: counted and ignored.
    std::vector<uint8_t> rudi(UetPdsRudiHeader::SIZE + UetSesResponseHeader::SIZE);
    UetPdsRudiHeader::WriteFields(rudi.data(),
                                  UetPdsHeader::RUDI_RESP,
                                  UetPdsHeader::NH_RESPONSE,
                                  0,
                                  1000);
    UetSesResponseHeader::WriteFields(rudi.data() + 8, 0, UetSesHeader::RC_OK, 0, 0, 7, 100);
    uint64_t rudiResponses = c1.rudiResponses;
    o = Receive(1, rudi);
    EXPECT_TRUE(o.delivered);
    EXPECT_TRUE(o.sent.empty());
    EXPECT_EQ(c1.rudiResponses, rudiResponses + 1);
    EXPECT_EQ(completions.size(), 2u);

    // SYN with a psn_offset beyond the window (MpRange 128): the target opens a PDC (Start_PSN
    // = PSN - psn_offset) whose window the packet is outside of: NACK PSN_OOR_WINDOW, nothing
    // delivered; the half-open PDC is reaped after NewPdcTime.
    uint64_t opened = c1.pdcsOpened;
    size_t delivered = deliveries.size();
    o = Receive(1,
                Cat({PdsRequest(RUD,
                                STD,
                                UetPdsHeader::FLAG_SYN,
                                5000,
                                9,
                                UetPdsRequestHeader::SynField(0, 200)),
                     SesRequest(WRITE, SOM_EOM, 1, 10)}),
                10);
    EXPECT_TRUE(o.delivered);
    ASSERT_EQ(o.sent.size(), 1u);
    EXPECT_EQ(o.sent[0].type, UetPdsHeader::NACK);
    EXPECT_EQ(o.sent[0].nackCode, UetPdsHeader::NACK_PSN_OOR_WINDOW);
    EXPECT_EQ(o.sent[0].psn, 5000u);
    EXPECT_EQ(o.sent[0].dpdcid, 9);
    EXPECT_EQ(c1.pdcsOpened, opened + 1);
    EXPECT_EQ(c1.pdcsClosedInError, 1u) << "reaped after NewPdcTime (the run went on)";
    EXPECT_EQ(deliveries.size(), delivered);

    // request_length 0 with 100 payload bytes: complete on arrival, delivered with 0 bytes.
    o = Receive(
        1,
        Cat({PdsRequest(RUD, STD, 0, NextRxPsn(1, 1), 1, 1), SesRequest(WRITE, SOM_EOM, 700, 0)}),
        100);
    EXPECT_TRUE(o.delivered);
    ASSERT_EQ(deliveries.size(), delivered + 1);
    EXPECT_EQ(deliveries.back().bytes, 0u);
    // Payload (1000 B) longer than request_length (10): delivered once, with 10 bytes.
    o = Receive(
        1,
        Cat({PdsRequest(RUD, STD, 0, NextRxPsn(1, 1), 1, 1), SesRequest(WRITE, SOM_EOM, 701, 10)}),
        1000);
    EXPECT_TRUE(o.delivered);
    ASSERT_EQ(deliveries.size(), delivered + 2);
    EXPECT_EQ(deliveries.back().bytes, 10u);
    // message_id reuse: a second message with the id of one partly arrived counts towards it
    // (its own header is not read again); the first one's length decides when it is whole.
    Receive(1,
            Cat({PdsRequest(RUD, STD, 0, NextRxPsn(1, 1), 1, 1),
                 SesRequest(WRITE, UetSesHeader::FLAG_SOM, 702, 3000)}),
            1000);
    Receive(
        1,
        Cat({PdsRequest(RUD, STD, 0, NextRxPsn(1, 1), 1, 1), SesRequest(WRITE, SOM_EOM, 702, 50)}),
        1000);
    EXPECT_EQ(deliveries.size(), delivered + 2);
    Receive(1,
            Cat({PdsRequest(RUD, STD, 0, NextRxPsn(1, 1), 1, 1),
                 SesRequest(WRITE, UetSesHeader::FLAG_EOM, 702, 3000)}),
            1000);
    ASSERT_EQ(deliveries.size(), delivered + 3);
    EXPECT_EQ(deliveries.back().bytes, 3000u);

    // Nothing leaked into the normal traffic: a WRITE and a READ each way complete.
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 64 * 1024, Collect());
    eps[0]->PostRead(eps[1]->GetAddress(), 0xabc, 0, 32 * 1024, Collect());
    eps[1]->PostWrite(eps[0]->GetAddress(), 0xabc, 0, 64 * 1024, Collect(), UetDeliveryMode::ROD);
    eps[1]->PostRead(eps[0]->GetAddress(), 0xabc, 0, 32 * 1024, Collect(), UetDeliveryMode::ROD);
    Simulator::Stop(MilliSeconds(1)); // (not until New_PDC_Time: NIC 0's new PDC saw only SYNs)
    Simulator::Run();
    ASSERT_EQ(completions.size(), 6u);
    for (const auto& comp : completions)
    {
        EXPECT_TRUE(comp.ok) << comp.error;
    }
    EXPECT_EQ(c0.pdcsClosedInError, 0u);
}

TEST_F(UetRxTest, RodOooNackFarBehindTheWindowResendsOnlyWhatIsInFlight)
{
    // Regression: the go-back loop walked from NACK_PSN to the next PSN one PSN at a time;
    // a NACK_PSN 2^31 - 1 behind made it run 2^31 times (seconds of CPU) inside one packet.
    Build();
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 64 * 4096, Collect(), UetDeliveryMode::ROD);
    Simulator::Stop(NanoSeconds(1200)); // packets in flight, none acknowledged yet
    Simulator::Run();
    const UetPdc* pdc = nics[0]->GetPdc(0, 1);
    const UetSendWindow& w = pdc->GetSendWindow();
    uint32_t inFlight = w.GetOutstanding();
    ASSERT_GT(inFlight, 2u);
    uint32_t far = UetPdsHeader::PsnAdd(w.GetNextPsn(), -int64_t(0x7FFFFFFF));
    uint64_t retx = nics[0]->GetCounters().retransmissions;
    Outcome o =
        Receive(0, PdsNack(UetPdsHeader::NACK_ROD_OOO, far, 1, 1), 0, Ipv4Address::GetAny(), [&]() {
            EXPECT_EQ(w.GetOutstanding(), inFlight);
            EXPECT_TRUE(w.HasLost()) << "everything in flight is sent again";
        });
    EXPECT_TRUE(o.delivered);
    EXPECT_LT(o.seconds, 0.5) << "one NACK took " << o.seconds << " s";
    EXPECT_GE(nics[0]->GetCounters().retransmissions, retx + inFlight);
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_TRUE(completions[0].ok) << completions[0].error;
}

TEST_F(UetRxTest, AckWhoseCackPsnIsHalfTheSpaceAheadAcknowledgesWhatIsInFlight)
{
    // Regression: CACK_PSN = oldest PSN + 2^31 - 1 overflowed PsnDiff + 1 (signed integer
    // overflow, undefined: UBSan stops the sanitizer build; Release builds acknowledged
    // nothing). Like any CACK_PSN ahead of what was sent, it acknowledges every PSN in flight.
    Build();
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 64 * 4096, Collect());
    Simulator::Stop(NanoSeconds(1200));
    Simulator::Run();
    const UetSendWindow& w = nics[0]->GetPdc(0, 1)->GetSendWindow();
    ASSERT_GT(w.GetOutstanding(), 2u);
    uint32_t cack = UetPdsHeader::PsnAdd(w.GetUnackedPsn(), 0x7FFFFFFF);
    Outcome o = Receive(0, PdsAck(cack, 1, 1), 0, Ipv4Address::GetAny(), [&]() {
        EXPECT_EQ(w.GetOutstanding(), 0u);
    });
    EXPECT_TRUE(o.delivered);
    ASSERT_EQ(completions.size(), 1u);
}

TEST_F(UetRxTest, UudPacketWithoutSesHeaderIsReadOnlyWithinItsBytes)
{
    // Regression: the receiver read a RUDI pkt_id from octets 4-7 of every PDC-less header,
    // but a UUD header has 4 bytes: with no SES header after it that read went past the
    // packet (AddressSanitizer: heap-buffer-overflow in UetNic::Deliver). The NIC core hands
    // over exactly the packet's bytes when it has fewer than GetRxHeaderBytes() asks.
    Build();
    const uint32_t size = 28 + 4;
    std::unique_ptr<uint8_t[]> ip(new uint8_t[size]);
    std::memset(ip.get(), 0, size);
    ip[0] = 0x45;
    wire::PutU16(ip.get() + 2, size);
    ip[9] = 17;
    wire::PutU32(ip.get() + 12, Ip(0).Get());
    wire::PutU32(ip.get() + 16, Ip(1).Get());
    wire::PutU16(ip.get() + 22, UetPdsHeader::UDP_DST_PORT);
    wire::PutU16(ip.get() + 24, size - 20);
    UetPdsUudHeader::WriteFields(ip.get() + 28, UetPdsHeader::NH_NONE);
    ASSERT_EQ(nics[1]->GetRxHeaderBytes(ip.get(), size), size);
    FabricNicDropReason reason = FabricNicDropReason::COUNT;
    EXPECT_TRUE(nics[1]->Deliver(0, ip.get(), size, size, reason)) << "ignored, not dropped";
    EXPECT_EQ(nics[1]->GetCounters().uudPacketsReceived, 0u) << "only SES standard requests";
}

TEST_F(UetRxTest, AbandonedMessagesGiveBackTheirReceiveAndUnexpectedSlot)
{
    // A SEND the SES admitted on its first packet (bound to a posted receive, or in the
    // unexpected list) that will never arrive whole: a UUD message evicted by
    // UudReassemblyLimit, or a message on a PDC that closes. Regression: the endpoint kept
    // it for ever: the receive never completed, or the unexpected slot stayed taken (and a
    // receive posted later was bound to it).
    nicHelper.SetNicAttribute("UudReassemblyLimit", UintegerValue(1));
    Build();
    std::vector<UetDelivery> got;
    auto cb = MakeCallback(+[](std::vector<UetDelivery>* v, const UetDelivery& d) {
                  v->push_back(d);
              }).Bind(&got);
    auto uud = [](uint16_t msgId, uint8_t sesFlags) {
        std::vector<uint8_t> pds(UetPdsUudHeader::SIZE);
        UetPdsUudHeader::WriteFields(pds.data(), UetPdsHeader::NH_REQUEST_STD);
        return Cat({pds, SesRequest(UetSesHeader::SEND, sesFlags, msgId, 2000)});
    };
    // Message 1 arrives half, unexpected; message 2's first half evicts it.
    Receive(1, uud(1, UetSesHeader::FLAG_SOM), 1000);
    EXPECT_EQ(eps[1]->GetNUnexpected(), 1u);
    Receive(1, uud(2, UetSesHeader::FLAG_SOM), 1000);
    EXPECT_EQ(eps[1]->GetNUnexpected(), 1u) << "message 1 is gone";
    // A receive posted now takes message 2, which then completes.
    uint64_t r = eps[1]->PostReceive(0, 4096, cb);
    Receive(1, uud(2, UetSesHeader::FLAG_EOM), 1000);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].receiveId, r);
    EXPECT_EQ(got[0].bytes, 2000u);
    EXPECT_EQ(eps[1]->GetNUnexpected(), 0u);

    // A receive bound to a message whose UUD eviction abandons it is posted again, in its
    // place, and takes the next message.
    uint64_t r2 = eps[1]->PostReceive(0, 4096, cb);
    Receive(1, uud(3, UetSesHeader::FLAG_SOM), 1000); // bound to r2
    EXPECT_EQ(eps[1]->GetNPostedReceives(), 0u);
    Receive(1, uud(4, UetSesHeader::FLAG_SOM), 1000); // evicts 3: r2 goes to 4
    EXPECT_EQ(eps[1]->GetNPostedReceives(), 0u);
    EXPECT_EQ(eps[1]->GetNUnexpected(), 0u);
    Receive(1, uud(4, UetSesHeader::FLAG_EOM), 1000);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[1].receiveId, r2);

    // On a PDC: the first half of a SEND, bound to a receive; the initiator closes the PDC
    // (Close): the receive is posted again.
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 256 * 1024, Collect());
    Simulator::Stop(MicroSeconds(50)); // the WRITE done, the PDCs open (PdcIdleTime 1 ms)
    Simulator::Run();
    const UetPdc* target = nullptr;
    for (uint16_t id = 1; id < 4 && !target; ++id)
    {
        const UetPdc* p = nics[1]->GetPdc(0, id);
        target = (p && p->GetState() != UetPdc::CLOSED) ? p : nullptr;
    }
    ASSERT_NE(target, nullptr);
    runFor = MicroSeconds(10); // not until the initiator's idle Close
    uint64_t r3 = eps[1]->PostReceive(0, 4096, cb);
    uint32_t next = target->GetReceiveWindow().GetSackBase();
    Receive(1,
            Cat({PdsRequest(UetPdsHeader::RUD_REQ,
                            UetPdsHeader::NH_REQUEST_STD,
                            0,
                            next,
                            target->GetPeerId(),
                            target->GetLocalId()),
                 SesRequest(UetSesHeader::SEND, UetSesHeader::FLAG_SOM, 900, 2000)}),
            1000);
    EXPECT_EQ(eps[1]->GetNPostedReceives(), 0u) << "bound to message 900";
    Receive(1,
            PdsControl(UetPdsHeader::CTRL_CLOSE,
                       UetPdsHeader::PsnAdd(next, 1),
                       target->GetPeerId(),
                       target->GetLocalId()));
    EXPECT_EQ(target->GetState(), UetPdc::CLOSED);
    EXPECT_EQ(eps[1]->GetNPostedReceives(), 1u) << "message 900 abandoned";
    // (On a new PDC: NIC 0's RUD PDC still names the target PDC the forged Close freed.)
    eps[0]->PostSend(eps[1]->GetAddress(), 3000, Collect(), UetDeliveryMode::ROD);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[2].receiveId, r3);
    EXPECT_EQ(got[2].bytes, 3000u);
}

/// A RUDI NACK (NT flag) of packet id \p pktId for JobID 7 (16 B).
std::vector<uint8_t>
RudiNack(uint8_t code, uint32_t pktId)
{
    std::vector<uint8_t> b(UetPdsNackHeader::SIZE);
    UetPdsNackHeader::WriteFields(b.data(), 0, UetPdsHeader::FLAG_NT, code, 0, pktId, 0, 0, 7);
    return b;
}

TEST_F(UetRxTest, RudiNackOfAPacketOfAFailedOperationResendsNothing)
{
    // Regression (uet-nic-rx-fuzz): a RUDI operation that gives up a packet after RetryLimit
    // fails and may be retired while its other packets are still in flight; a NACK (or RTO)
    // of one of those resent a packet of no message: NS_ABORT "belongs to no message". A
    // failed operation now gives up all its packets.
    nicHelper.SetNicAttribute("RtoMin", TimeValue(MicroSeconds(10)));
    nicHelper.SetNicAttribute("RetryLimit", UintegerValue(1));
    Build();
    ports[1]->GetPfcChannel()->SetLinkUp(false);
    uint64_t retxAtFailure = 0;
    onCompletion = [&]() {
        // Packet 0 was just given up; packet 1's RTO is the next event, at the same time. A
        // NACK of packet 1 comes first (handed to the port from the completion callback).
        retxAtFailure = nics[0]->GetCounters().retransmissions;
        FabricFrame f = Frame(0, RudiNack(UetPdsHeader::NACK_TRIMMED, 1));
        ports[0]->Receive(f);
    };
    eps[0]
        ->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 2 * 4096, CollectThen(), UetDeliveryMode::RUDI);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_FALSE(completions[0].ok);
    EXPECT_NE(completions[0].error.find("RetryLimit 1"), std::string::npos) << completions[0].error;
    EXPECT_EQ(nics[0]->GetCounters().retransmissions, retxAtFailure)
        << "nothing of the failed operation is sent again";
    EXPECT_EQ(nics[0]->GetPendingOperations(), 0u);
}

TEST_F(UetRxTest, RudiPacketNackedBeyondTheRetryLimitFailsInsteadOfLoopingForEver)
{
    // A RUDI packet given up (the cable was cut for longer than RetryLimit RTOs) never reaches
    // the target, whose packet-id window stays behind it: packets MpRange ids later are
    // outside it, NACKed PSN_OOR_WINDOW and resent, for ever (the NACK-driven resends had no
    // limit: the simulation never ended). They now count against RetryLimit like RTOs.
    nicHelper.SetNicAttribute("RtoMin", TimeValue(MicroSeconds(10)));
    nicHelper.SetNicAttribute("RetryLimit", UintegerValue(2));
    nicHelper.SetNicAttribute("MpRange", UintegerValue(4));
    Build();
    Ptr<PfcChannel> cable = ports[1]->GetPfcChannel();
    cable->SetLinkUp(false);
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 4096, Collect(), UetDeliveryMode::RUDI);
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_FALSE(completions[0].ok) << "packet id 0 given up";
    cable->SetLinkUp(true);
    eps[0]->PostWrite(eps[1]->GetAddress(), 0xabc, 0, 8 * 4096, Collect(), UetDeliveryMode::RUDI);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u) << "the second operation never completed";
    EXPECT_FALSE(completions[1].ok);
    EXPECT_NE(completions[1].error.find("NACK"), std::string::npos) << completions[1].error;
    EXPECT_LT(nics[0]->GetCounters().retransmissions, 100u);
    EXPECT_TRUE(Simulator::IsFinished()) << "nothing left to do";
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
