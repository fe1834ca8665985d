/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RCCC without a network: RcccCongestionOps driven directly (computed MaxWindow, speculative
 * credit, hand-computed credit targets while speculating, after the first ACK, after grants and
 * with NSCC beside it, Fork, bad configurations), the receiver's UetCreditContext (24-bit
 * widening of credit_target across 2^24, stale values, a fresh context's adoption) and the
 * UetCreditPacer's bookkeeping when it has nothing to send a grant on.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

using namespace ns3;

namespace
{

class RcccUnitTest : public test::SimTest
{
  protected:
    /**
     * An RCCC at 100 Gb/s with BaseRtt 10 us: BDP = 12.5e9 B/s x 10e-6 s = 125,000 B, so
     * MaxWindow = 1.5 x BDP = 187,500 B; Mtu 4096.
     * \param spec SpeculativeCredit (0 = MaxWindow)
     * \param sender SenderCc (null: RCCC alone)
     */
    static Ptr<RcccCongestionOps> Make(uint64_t spec = 0, Ptr<FabricCongestionOps> sender = nullptr)
    {
        auto cc = CreateObject<RcccCongestionOps>();
        cc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
        cc->SetAttribute("SpeculativeCredit", UintegerValue(spec));
        if (sender)
        {
            cc->SetAttribute("SenderCc", PointerValue(sender));
        }
        cc->Init(DataRate("100Gbps"));
        return cc;
    }

    /// The target with \p backlog bytes reported (as the transport does before asking).
    static uint64_t Target(const Ptr<RcccCongestionOps>& cc, uint64_t backlog)
    {
        cc->GetState()->SetBacklog(backlog);
        return cc->GetCreditTarget();
    }

    static constexpr uint64_t MAXWND = 187500; //!< 1.5 x 100 Gb/s x 10 us, bytes
    static constexpr uint64_t MTU = 4096;      //!< the Mtu attribute's default
};

TEST_F(RcccUnitTest, MaxWindowDefaultsToOneAndAHalfBdp)
{
    auto cc = CreateObject<RcccCongestionOps>();
    EXPECT_EQ(cc->GetName(), "RCCC");
    // Before Init: 1.5 x rate x BaseRtt (default 12 us): 400 Gb/s = 50e9 B/s, x 12e-6 s =
    // 600,000 B, x 1.5 = 900,000 B. 100 Gb/s with htsim's 14.056 us: 12.5e9 x 14.056e-6 =
    // 175,700 B, x 1.5 = 263,550 B.
    EXPECT_EQ(cc->ComputeMaxWindow(DataRate("400Gbps")), 900000u);
    cc->SetAttribute("BaseRtt", TimeValue(NanoSeconds(14056)));
    EXPECT_EQ(cc->ComputeMaxWindow(DataRate("100Gbps")), 263550u);

    auto a = Make();
    EXPECT_EQ(a->GetMaxWindow(), MAXWND);
    // Speculative credit = MaxWindow, nothing granted, credit gating on, no window alone.
    EXPECT_TRUE(a->UsesCredit());
    EXPECT_TRUE(a->GetState()->UsesCredit());
    EXPECT_TRUE(a->IsSpeculating());
    EXPECT_EQ(a->GetState()->GetCredit(), int64_t(MAXWND));
    EXPECT_EQ(a->GetGranted(), 0u);
    EXPECT_EQ(a->GetWindow(), 0u);
    EXPECT_FALSE(a->WantsRttSamples());
    EXPECT_FALSE(a->WantsReceiverState());

    // An explicit MaxWindow replaces the computed one; SpeculativeCredit below it is kept.
    auto b = CreateObject<RcccCongestionOps>();
    b->SetAttribute("MaxWindow", UintegerValue(50000));
    b->SetAttribute("SpeculativeCredit", UintegerValue(20000));
    b->Init(DataRate("100Gbps"));
    EXPECT_EQ(b->GetMaxWindow(), 50000u);
    EXPECT_EQ(b->ComputeMaxWindow(DataRate("400Gbps")), 50000u);
    EXPECT_EQ(b->GetState()->GetCredit(), 20000);
}

TEST_F(RcccUnitTest, TargetWhileSpeculatingAsksAtLeastOneMtuWithABacklog)
{
    auto cc = Make();
    uint64_t last = 0;
    cc->TraceConnectWithoutContext(
        "CreditTarget",
        MakeCallback(+[](uint64_t* l, uint64_t, uint64_t v) { *l = v; }).Bind(&last));
    // Credit 187,500 (speculative), granted 0.
    // Nothing to send: need = 0 - 187,500 < 0, no Mtu floor without backlog: target 0.
    EXPECT_EQ(Target(cc, 0), 0u);
    // 100,000 B to send: need = 100,000 - 187,500 < 0, raised to one Mtu while speculating.
    EXPECT_EQ(Target(cc, 100000), MTU);
    EXPECT_EQ(last, MTU);
    // A backlog above MaxWindow counts as MaxWindow: need = 187,500 - 187,500 = 0 -> Mtu.
    EXPECT_EQ(Target(cc, 5000000), MTU);
    // Spend 150,000 B: credit 37,500; need = 187,500 - 37,500 = 150,000 (above Mtu).
    cc->GetState()->SpendCredit(150000);
    EXPECT_EQ(Target(cc, 5000000), 150000u);
    EXPECT_EQ(last, 150000u);
    // Backlog 40,000: need = 40,000 - 37,500 = 2,500 < Mtu -> Mtu.
    EXPECT_EQ(Target(cc, 40000), MTU);
    // Overdraft: spend 41,722 B more -> credit -4,222; need = 187,500 + 4,222 = 191,722.
    cc->GetState()->SpendCredit(41722);
    EXPECT_EQ(cc->GetState()->GetCredit(), -4222);
    EXPECT_EQ(Target(cc, 5000000), 191722u);
    EXPECT_TRUE(cc->IsSpeculating());
}

TEST_F(RcccUnitTest, FirstAckEndsSpeculationDroppingPositiveCreditOnly)
{
    // Positive credit left over: dropped.
    auto pos = Make();
    pos->GetState()->SpendCredit(100000); // 87,500 left
    FabricCcAckSample ack;
    ack.ackedBytes = 4096;
    pos->OnAck(ack);
    EXPECT_FALSE(pos->IsSpeculating());
    EXPECT_EQ(pos->GetState()->GetCredit(), 0);
    // No Mtu floor any more: backlog 1,000 with credit 0 asks for exactly 1,000; none: 0.
    EXPECT_EQ(Target(pos, 1000), 1000u);
    EXPECT_EQ(Target(pos, 0), 0u);
    // A second ACK changes nothing (the speculation ended once).
    pos->GetState()->SetCredit(5000);
    pos->OnAck(ack);
    EXPECT_EQ(pos->GetState()->GetCredit(), 5000);

    // An overdraft is kept: credit -3,000 stays, and the flow asks for it back on top:
    // backlog 10,000 -> need = 10,000 + 3,000 = 13,000.
    auto neg = Make();
    neg->GetState()->SpendCredit(MAXWND + 3000);
    FabricCcAckSample nack;
    nack.nack = true;
    nack.trimmed = true;
    neg->OnAck(nack); // a NACK ends it too
    EXPECT_FALSE(neg->IsSpeculating());
    EXPECT_EQ(neg->GetState()->GetCredit(), -3000);
    EXPECT_EQ(Target(neg, 10000), 13000u);
}

TEST_F(RcccUnitTest, GrantsAddTheIncrementAndIgnoreStaleCumulativeValues)
{
    auto cc = Make();
    uint64_t granted = 0;
    cc->TraceConnectWithoutContext("Granted", MakeCallback(+[](uint64_t* g, uint64_t, uint64_t v) {
                                                  *g = v;
                                              }).Bind(&granted));
    cc->GetState()->SpendCredit(187000); // 500 B of speculative credit left
    // A grant of 0 (not above the last, 0) is no news: still speculating, credit unchanged.
    cc->OnCredit(0);
    EXPECT_TRUE(cc->IsSpeculating());
    EXPECT_EQ(cc->GetState()->GetCredit(), 500);
    // First grant 16,384: the 500 speculative bytes are dropped, then +16,384.
    cc->OnCredit(16384);
    EXPECT_FALSE(cc->IsSpeculating());
    EXPECT_EQ(cc->GetState()->GetCredit(), 16384);
    EXPECT_EQ(cc->GetGranted(), 16384u);
    EXPECT_EQ(granted, 16384u);
    // The same or an older cumulative value: ignored.
    cc->OnCredit(16384);
    cc->OnCredit(10000);
    EXPECT_EQ(cc->GetState()->GetCredit(), 16384);
    EXPECT_EQ(cc->GetGranted(), 16384u);
    // 20,000: only the increment, 3,616 B, is added.
    cc->OnCredit(20000);
    EXPECT_EQ(cc->GetState()->GetCredit(), 20000);
    EXPECT_EQ(cc->GetGranted(), 20000u);
    // A grant onto an overdraft: credit -4,222 + (30,000 - 20,000) = 5,778.
    cc->GetState()->SetCredit(-4222);
    cc->OnCredit(30000);
    EXPECT_EQ(cc->GetState()->GetCredit(), 5778);
    // Target = granted + min(backlog, MaxWindow) - credit: 30,000 + 187,500 - 5,778.
    EXPECT_EQ(Target(cc, 1000000), 30000u + MAXWND - 5778);
    // ... with a small backlog: 30,000 + 8,000 - 5,778; below the credit: 30,000 (never less
    // than what was granted).
    EXPECT_EQ(Target(cc, 8000), 30000u + 8000 - 5778);
    EXPECT_EQ(Target(cc, 5000), 30000u);
}

TEST_F(RcccUnitTest, TargetWithNsccBesideIsBoundedByItsWindowPlusOneMtu)
{
    auto nscc = CreateObject<NsccCongestionOps>();
    nscc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
    nscc->SetAttribute("InitialWindow", UintegerValue(50000));
    auto cc = Make(0, nscc);
    EXPECT_EQ(cc->GetName(), "RCCC+NSCC");
    EXPECT_TRUE(cc->WantsRttSamples());
    EXPECT_TRUE(cc->WantsReceiverState());
    Ptr<NsccCongestionOps> s = DynamicCast<NsccCongestionOps>(cc->GetSenderCc());
    ASSERT_TRUE(s);
    // NSCC runs on RCCC's state: its window is the flow's; credit gating stays on.
    EXPECT_EQ(s->GetState(), cc->GetState());
    EXPECT_EQ(cc->GetWindow(), 50000u);
    EXPECT_TRUE(cc->GetState()->UsesCredit());
    EXPECT_EQ(cc->GetState()->GetCredit(), int64_t(MAXWND));

    cc->OnCredit(8192); // speculation over: credit 8,192, granted 8,192
    cc->GetState()->SpendCredit(4222);
    // credit 3,970. want = min(backlog 1e6, MaxWindow 187,500, window 50,000 + Mtu 4,096)
    // = 54,096; need = 54,096 - 3,970 = 50,126; target = 8,192 + 50,126 = 58,318.
    EXPECT_EQ(Target(cc, 1000000), 58318u);
    // The backlog is the least of the three: 20,000 - 3,970 + 8,192.
    EXPECT_EQ(Target(cc, 20000), 24222u);
    // Alone (same state otherwise) the window does not bound it: 8,192 + 187,500 - 3,970.
    auto alone = Make();
    alone->OnCredit(8192);
    alone->GetState()->SpendCredit(4222);
    EXPECT_EQ(Target(alone, 1000000), 8192u + MAXWND - 3970);
}

TEST_F(RcccUnitTest, ForkGivesEveryFlowItsOwnSenderCc)
{
    auto nscc = CreateObject<NsccCongestionOps>();
    nscc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
    auto proto = CreateObject<RcccCongestionOps>();
    proto->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
    proto->SetAttribute("SenderCc", PointerValue(nscc));
    auto a = DynamicCast<RcccCongestionOps>(proto->Fork());
    auto b = DynamicCast<RcccCongestionOps>(proto->Fork());
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->GetName(), "RCCC+NSCC");
    ASSERT_TRUE(a->GetSenderCc() && b->GetSenderCc());
    EXPECT_NE(a->GetSenderCc(), b->GetSenderCc());
    EXPECT_NE(a->GetSenderCc(), proto->GetSenderCc());
    // Each on its own flow and rate: NSCC's MaxWindow (= its initial window) is 1.5 BDP of
    // that rate, 187,500 B at 100 Gb/s and 750,000 B at 400 Gb/s; RCCC's attributes were
    // copied (same BaseRtt: the same MaxWindow formula).
    a->Init(DataRate("100Gbps"));
    b->Init(DataRate("400Gbps"));
    EXPECT_NE(a->GetState(), b->GetState());
    EXPECT_EQ(a->GetWindow(), 187500u);
    EXPECT_EQ(b->GetWindow(), 750000u);
    EXPECT_EQ(a->GetMaxWindow(), 187500u);
    EXPECT_EQ(b->GetMaxWindow(), 750000u);
    // A trim NACK (not at the last hop) cuts a's NSCC window only.
    FabricCcAckSample nack;
    nack.nack = true;
    nack.trimmed = true;
    nack.nackedBytes = 4096;
    a->OnAck(nack);
    EXPECT_LT(a->GetWindow(), 187500u);
    EXPECT_EQ(b->GetWindow(), 750000u);
    // The prototype's NSCC was never Init()ed.
    EXPECT_FALSE(proto->GetSenderCc()->GetState());
}

TEST_F(RcccUnitTest, BadConfigurationsAbortNamingTheValue)
{
    // 200,000 B of speculative credit with MaxWindow 187,500 B.
    EXPECT_DEATH(Make(200000),
                 "RCCC SpeculativeCredit 200000 B is out of range; it must be in 1..187500 B "
                 "\\(MaxWindow\\)");
    // RCCC beside RCCC.
    EXPECT_DEATH(Make(0, CreateObject<RcccCongestionOps>()),
                 "RCCC SenderCc is an RcccCongestionOps");
    // A zero line rate.
    EXPECT_DEATH(CreateObject<RcccCongestionOps>()->Init(DataRate(0)),
                 "RCCC: line rate 0bps is invalid; it must be > 0");
}

/// UetCreditContext (the receiver's view of one sender) and the pacer's bookkeeping.
class UetCreditContextTest : public test::SimTest
{
  protected:
    static constexpr uint64_t TWO24 = 1ull << 24; //!< the wire field's modulus
    static constexpr uint32_t CHUNK = 16384;      //!< the NICs' CreditChunk default
};

TEST_F(UetCreditContextTest, FreshContextStartsAtMostTwoChunksBehind)
{
    UetCreditContext big(1, nullptr);
    // The first target adopts the sender's numbering: granted = 100,000 - 2 x 16,384.
    EXPECT_TRUE(big.OnTarget(100000, CHUNK));
    EXPECT_EQ(big.GetTarget(), 100000u);
    EXPECT_EQ(big.GetGranted(), 100000u - 2 * CHUNK);
    EXPECT_EQ(big.GetWanted(), 2u * CHUNK);
    EXPECT_EQ(big.GetExtra(), 0u);

    // A first target below two chunks: granted 0, everything wanted.
    UetCreditContext small(2, nullptr);
    EXPECT_TRUE(small.OnTarget(5000, CHUNK));
    EXPECT_EQ(small.GetGranted(), 0u);
    EXPECT_EQ(small.GetWanted(), 5000u);

    // A first target of 0 wants nothing.
    UetCreditContext zero(3, nullptr);
    EXPECT_FALSE(zero.OnTarget(0, CHUNK));
    EXPECT_EQ(zero.GetWanted(), 0u);
    // ... and is no longer fresh: 40,000 then is an increment from 0, not an adoption.
    EXPECT_TRUE(zero.OnTarget(40000, CHUNK));
    EXPECT_EQ(zero.GetGranted(), 0u);
    EXPECT_EQ(zero.GetWanted(), 40000u);
}

TEST_F(UetCreditContextTest, TargetWidensAcrossTwoToThe24AndIgnoresStaleValues)
{
    UetCreditContext c(1, nullptr);
    EXPECT_EQ(c.GetKey(), 1u);
    const uint32_t nearTop = uint32_t(TWO24 - 100);
    ASSERT_TRUE(c.OnTarget(nearTop, CHUNK));
    // The field wraps: 50 is 150 B ahead of 2^24 - 100, i.e. 2^24 + 50 widened.
    EXPECT_TRUE(c.OnTarget(50, CHUNK));
    EXPECT_EQ(c.GetTarget(), TWO24 + 50);
    // Bits above the 24 of the field are ignored: 2^24 | 60 is 60.
    EXPECT_TRUE(c.OnTarget(uint32_t(TWO24 | 60), CHUNK));
    EXPECT_EQ(c.GetTarget(), TWO24 + 60);
    // The same value again, and an older one (overtaken): no change.
    EXPECT_FALSE(c.OnTarget(60, CHUNK));
    EXPECT_FALSE(c.OnTarget(nearTop, CHUNK)); // 160 B behind
    EXPECT_EQ(c.GetTarget(), TWO24 + 60);
    // 2^23 - 1 ahead is still news; exactly 2^23 ahead is taken as 2^23 behind: stale.
    EXPECT_FALSE(c.OnTarget(uint32_t((60 + (1u << 23)) & UetCreditContext::FIELD_MASK), CHUNK));
    EXPECT_EQ(c.GetTarget(), TWO24 + 60);
    EXPECT_TRUE(c.OnTarget(uint32_t(60 + (1u << 23) - 1), CHUNK));
    EXPECT_EQ(c.GetTarget(), TWO24 + 60 + (1u << 23) - 1);

    // Grants: cumulative, and the wire carries them modulo 2^24.
    UetCreditContext g(2, nullptr);
    ASSERT_TRUE(g.OnTarget(uint32_t(TWO24 - 1000), CHUNK)); // granted = target - 32,768
    g.Grant(CHUNK);
    g.Grant(CHUNK);
    EXPECT_EQ(g.GetGranted(), TWO24 - 1000);
    EXPECT_EQ(g.GetWanted(), 0u);
    EXPECT_EQ(g.GetGrantedField(), uint32_t(TWO24 - 1000));
    g.Grant(3000); // idle credit beyond the target, across 2^24
    EXPECT_EQ(g.GetGranted(), TWO24 + 2000);
    EXPECT_EQ(g.GetExtra(), 3000u);
    EXPECT_EQ(g.GetGrantedField(), 2000u);
}

TEST_F(UetCreditContextTest, GrantsLeaveOnTheLatestRequesterElseTheNewestMember)
{
    // The context only stores and compares the PDC pointers: stand-ins, never dereferenced.
    int a = 0;
    int b = 0;
    auto* pa = reinterpret_cast<UetPdc*>(&a);
    auto* pb = reinterpret_cast<UetPdc*>(&b);
    UetCreditContext c(1, nullptr);
    EXPECT_EQ(c.GetVia(), nullptr);
    c.Join(pa);
    c.Join(pb);
    EXPECT_EQ(c.GetMembers(), 2u);
    EXPECT_EQ(c.GetVia(), pb); // no requester yet: the newest member
    c.SetVia(pa);
    EXPECT_EQ(c.GetVia(), pa);
    c.Leave(pa); // the requester leaves: back to the members
    EXPECT_EQ(c.GetMembers(), 1u);
    EXPECT_EQ(c.GetVia(), pb);
    EXPECT_DEATH(c.Leave(pa), "UetCreditContext::Leave: the PDC is not a member");
    c.Leave(pb);
    EXPECT_EQ(c.GetVia(), nullptr);
}

TEST_F(UetCreditContextTest, PacerQueuesOnlyWantingContextsAndStopsWhenNothingIsLeft)
{
    UetCreditPacer pacer(DataRate("99Gbps"), CHUNK, 0);
    EXPECT_EQ(pacer.GetRate(), DataRate("99Gbps"));
    EXPECT_EQ(pacer.GetChunk(), CHUNK);
    UetCreditContext satisfied(1, &pacer);
    UetCreditContext wanting(2, &pacer);
    ASSERT_TRUE(wanting.OnTarget(5000, CHUNK));
    pacer.Request(&satisfied); // wants nothing: not queued
    EXPECT_EQ(pacer.GetQueued(), 0u);
    EXPECT_TRUE(Simulator::IsFinished());
    pacer.Request(&wanting);
    pacer.Request(&wanting); // once in the queue
    EXPECT_EQ(pacer.GetQueued(), 1u);
    EXPECT_TRUE(wanting.queued);
    EXPECT_FALSE(Simulator::IsFinished()); // a grant is scheduled
    // It goes away: out of the queue, and the grant event with it (a quiet receiver stops).
    pacer.Remove(&wanting);
    EXPECT_EQ(pacer.GetQueued(), 0u);
    EXPECT_FALSE(wanting.queued);
    EXPECT_TRUE(Simulator::IsFinished());

    // A context with no PDC to send a grant on gets nothing, and the pacer spends no time.
    pacer.Request(&wanting);
    Simulator::Run();
    EXPECT_EQ(pacer.GetGrants(), 0u);
    EXPECT_EQ(pacer.GetGrantedBytes(), 0u);
    EXPECT_EQ(wanting.GetGranted(), 0u);
    EXPECT_EQ(pacer.GetQueued(), 0u);
    EXPECT_EQ(Simulator::Now(), Time(0));

    EXPECT_DEATH(UetCreditPacer(DataRate(0), CHUNK, 0), "UetCreditPacer: rate 0 is invalid");
    EXPECT_DEATH(UetCreditPacer(DataRate("1Gbps"), 0, 0), "UetCreditPacer: chunk 0 is invalid");
}

} // namespace
