/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RCCC in closed loop on UetNics (star of 100 Gb/s hosts, 1 us cables, trimming on the UET data
 * priority): a lone flow sends at the receiver's CreditRate once its speculative credit is
 * spent; an incast shares the receiver round-robin, its pacer never grants faster than
 * CreditRate x line rate and the senders never send more than they were given; a sender out of
 * credit asks with a Credit-Request; NSCC beside RCCC; READ data on credit; bad configurations;
 * determinism.
 *
 * Credit counts bytes on the wire: a full packet of 4096 B of payload costs 4096 + 88 (IPv4 20,
 * UDP 8, PDS RUD_CC_REQ 16, SES standard 44) + 38 (Ethernet 14, FCS 4, preamble 8, IFG 12) =
 * 4222 B, so a sender on credit at rate R carries R x 4096 / 4222 of payload.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"

#include <algorithm>
#include <numeric>

using namespace ns3;

namespace
{

constexpr double LINE_BPS = 100e9;       //!< every port
constexpr uint32_t WIRE_EXTRA = 88 + 38; //!< wire bytes of a data packet beyond its payload
constexpr double PAYLOAD_SHARE = 4096.0 / (4096 + WIRE_EXTRA); //!< of a full packet's wire bytes

/// \return Jain's fairness index of \p x
double
Jain(const std::vector<double>& x)
{
    double sum = std::accumulate(x.begin(), x.end(), 0.0);
    double sq = 0;
    for (double v : x)
    {
        sq += v * v;
    }
    return sum * sum / (x.size() * sq);
}

/// What to run.
struct Scenario
{
    uint32_t senders{1};          //!< hosts 0..senders-1 WRITE to host `senders`
    uint64_t bytes{10000000};     //!< per sender
    double creditRate{0.99};      //!< the NICs' CreditRate
    double idleCredit{1.0};       //!< the NICs' IdleCredit
    uint64_t speculative{0};      //!< RCCC SpeculativeCredit (0 = MaxWindow)
    bool withNscc{false};         //!< NSCC beside RCCC (SenderCc)
    uint64_t queueBytes{0};       //!< the switch's EgressLimitBytes (0: none)
    Time from{MicroSeconds(100)}; //!< measurement window start
    Time to{MicroSeconds(600)};   //!< ... and end
};

/// What one run measured.
struct Result
{
    std::vector<UetCompletion> done;   //!< per sender (host order)
    std::vector<double> windowPayload; //!< per sender: payload bytes sent in [from, to]
    std::vector<double> windowGranted; //!< per sender: credit granted to it in [from, to]
    std::vector<uint32_t> grantOrder;  //!< the senders of the grants in [from, to], in order
    std::vector<uint64_t> wireSent;    //!< per sender: wire bytes of its data packets
    std::vector<UetNicCounters> nic;   //!< per host, at the end
    uint64_t pacerGranted{0};          //!< the receiver's pacer: bytes granted
    uint64_t pacerGrants{0};           //!< ... grants
    uint32_t chunk{0};                 //!< its CreditChunk
    double pacerBps{0};                //!< its rate
    /// Worst excess of the pacer's grants over rate x time + one chunk, over all pairs of
    /// 5-us samples (<= 0: the bound held).
    double worstOverRate{-1e300};
    uint64_t trims{0};                   //!< switch trims
    uint64_t drops{0};                   //!< switch drops
    uint64_t maxWindow{0};               //!< NSCC beside: the largest window any flow had
    uint64_t minWindow{UINT64_MAX};      //!< ... and the smallest
    uint64_t nsccMaxWindow{0};           //!< ... NSCC's MaxWindow
    uint64_t rcccMaxWindow{0};           //!< RCCC's MaxWindow (= the speculative credit)
    std::vector<uint64_t> senderGranted; //!< per sender: its RCCC's cumulative grant at the end
    Time end;                            //!< when the run ended
};

class UetRcccTest : public test::SimTest
{
  protected:
    /// The star's unloaded RTT: 4 x 1 us of cable, a 4222-B data frame serialized twice at
    /// 100 Gb/s (2 x 337.76 ns), an ACK twice: ~4.7 us.
    static constexpr int64_t BASE_RTT_NS = 4700;

    /**
     * A star of \p hosts: 100 Gb/s, 1 us cables, trimming on priority 1 (the UET data class,
     * DSCP 8; the switch's TrimSize default 128 B >= the 88 B RCCC requests need), RCCC on
     * every NIC.
     */
    static void Configure(StarTopologyHelper& star, const Scenario& s)
    {
        star.SetTransports("uet");
        star.GetPortHelper().SetDeviceAttribute("DataRate", StringValue("100Gbps"));
        star.GetPortHelper().SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        star.GetSwitchHelper().SetMmuAttribute("TrimPriorities", UintegerValue(1 << 1));
        star.GetSwitchHelper().SetMmuAttribute("EgressLimitBytes", UintegerValue(s.queueBytes));
        UetNicHelper& nh = star.GetUetNicHelper();
        nh.SetNicAttribute("DataDscp", UintegerValue(8));
        nh.SetNicAttribute("CongestionControl", TypeIdValue(RcccCongestionOps::GetTypeId()));
        nh.SetNicAttribute("CreditRate", DoubleValue(s.creditRate));
        nh.SetNicAttribute("IdleCredit", DoubleValue(s.idleCredit));
    }

    /// Set the RCCC prototype of every NIC of \p star (\p hosts of them).
    static void SetPrototypes(StarTopologyHelper& star, uint32_t hosts, const Scenario& s)
    {
        for (uint32_t i = 0; i < hosts; ++i)
        {
            Ptr<FabricCongestionOps> cc = star.GetUetNic(i)->GetCongestionPrototype();
            cc->SetAttribute("BaseRtt", TimeValue(NanoSeconds(BASE_RTT_NS)));
            cc->SetAttribute("SpeculativeCredit", UintegerValue(s.speculative));
            if (s.withNscc)
            {
                auto nscc = CreateObject<NsccCongestionOps>();
                nscc->SetAttribute("BaseRtt", TimeValue(NanoSeconds(BASE_RTT_NS)));
                cc->SetAttribute("SenderCc", PointerValue(nscc));
            }
        }
    }

    /// Run \p s: every sender WRITEs s.bytes to the receiver at time 0.
    Result Run(const Scenario& s)
    {
        const uint32_t n = s.senders;
        StarTopologyHelper star;
        Configure(star, s);
        star.Install(n + 1);
        star.AssignStreams(5);
        SetPrototypes(star, n + 1, s);
        Result r;
        r.done.resize(n);
        r.windowPayload.assign(n, 0);
        r.windowGranted.assign(n, 0);
        r.wireSent.assign(n, 0);
        r.senderGranted.assign(n, 0);
        std::vector<Ptr<RcccCongestionOps>> flows(n);
        std::vector<Ptr<UetEndpoint>> eps;
        for (uint32_t i = 0; i <= n; ++i)
        {
            eps.push_back(star.GetUetNic(i)->CreateEndpoint(7, 0));
        }
        eps[n]->RegisterMemory(0xabc, 1ull << 32);
        for (uint32_t i = 0; i < n; ++i)
        {
            star.GetUetNic(i)->TraceConnectWithoutContext(
                "PsnSent",
                MakeCallback(
                    +[](Result* r, const Scenario* s, uint32_t i, uint16_t, uint32_t, uint32_t b) {
                        if (b == 0)
                        {
                            return; // not a data packet (no credit spent)
                        }
                        r->wireSent[i] += b + WIRE_EXTRA;
                        Time now = Simulator::Now();
                        if (now >= s->from && now <= s->to)
                        {
                            r->windowPayload[i] += b;
                        }
                    })
                    .Bind(&r, &s, i));
            eps[i]->PostWrite(eps[n]->GetAddress(),
                              0xabc,
                              0,
                              s.bytes,
                              MakeCallback(+[](UetCompletion* d, const UetCompletion& c) {
                                  *d = c;
                              }).Bind(&r.done[i]));
        }
        // Each sender's flow: its RCCC's grants in the window, and NSCC's window beside it.
        Simulator::Schedule(NanoSeconds(1), [&]() {
            for (uint32_t i = 0; i < n; ++i)
            {
                const UetPdc* pdc = star.GetUetNic(i)->FindInitiatorPdc(0,
                                                                        UetDeliveryMode::RUD,
                                                                        7,
                                                                        eps[n]->GetAddress().fep);
                ASSERT_TRUE(pdc);
                auto rccc = DynamicCast<RcccCongestionOps>(pdc->GetCongestionOps());
                ASSERT_TRUE(rccc);
                r.rcccMaxWindow = rccc->GetMaxWindow();
                flows[i] = rccc;
                rccc->TraceConnectWithoutContext("Granted",
                                                 MakeCallback(+[](Result* r,
                                                                  const Scenario* s,
                                                                  uint32_t i,
                                                                  uint64_t oldV,
                                                                  uint64_t newV) {
                                                     Time now = Simulator::Now();
                                                     if (now >= s->from && now <= s->to)
                                                     {
                                                         r->windowGranted[i] += double(newV - oldV);
                                                         r->grantOrder.push_back(i);
                                                     }
                                                 }).Bind(&r, &s, i));
                if (auto nscc = DynamicCast<NsccCongestionOps>(rccc->GetSenderCc()))
                {
                    r.nsccMaxWindow = nscc->GetMaxWindow();
                    r.maxWindow = std::max(r.maxWindow, pdc->GetCcState()->GetWindow());
                    r.minWindow = std::min(r.minWindow, pdc->GetCcState()->GetWindow());
                    pdc->GetCcState()->TraceConnectWithoutContext(
                        "Window",
                        MakeCallback(+[](Result* r, uint64_t, uint64_t w) {
                            r->maxWindow = std::max(r->maxWindow, w);
                            r->minWindow = std::min(r->minWindow, w);
                        }).Bind(&r));
                }
            }
        });
        // The receiver's pacer, sampled every 5 us.
        UetCreditPacer* pacer = star.GetUetNic(n)->GetCreditPacer(0);
        r.pacerBps = double(pacer->GetRate().GetBitRate());
        r.chunk = pacer->GetChunk();
        std::vector<std::pair<double, uint64_t>> samples; // (s, granted bytes)
        std::function<void()> sample = [&]() {
            samples.emplace_back(Simulator::Now().GetSeconds(), pacer->GetGrantedBytes());
            bool busy = false;
            for (const auto& d : r.done)
            {
                busy |= d.endTime.IsZero();
            }
            if (busy)
            {
                Simulator::Schedule(MicroSeconds(5), sample);
            }
        };
        Simulator::ScheduleNow(sample);
        Simulator::Run();
        r.end = Simulator::Now();
        for (uint32_t i = 0; i < n; ++i)
        {
            r.senderGranted[i] = flows[i] ? flows[i]->GetGranted() : 0;
        }
        flows.clear();
        for (size_t a = 0; a < samples.size(); ++a)
        {
            for (size_t b = a + 1; b < samples.size(); ++b)
            {
                double granted = double(samples[b].second - samples[a].second);
                double bound =
                    r.pacerBps / 8 * (samples[b].first - samples[a].first) + double(r.chunk);
                r.worstOverRate = std::max(r.worstOverRate, granted - bound);
            }
        }
        r.pacerGranted = pacer->GetGrantedBytes();
        r.pacerGrants = pacer->GetGrants();
        for (uint32_t i = 0; i <= n; ++i)
        {
            r.nic.push_back(star.GetUetNic(i)->GetCounters());
        }
        r.trims = star.GetSwitch()->GetCounters().GetTrims();
        r.drops = star.GetSwitch()->GetCounters().drops.GetTotal();
        Simulator::Destroy();
        return r;
    }

    /// \return the FCTs of \p r in microseconds
    static std::vector<double> Fcts(const Result& r)
    {
        std::vector<double> f;
        for (const auto& d : r.done)
        {
            f.push_back(d.GetDuration().GetNanoSeconds() / 1e3);
        }
        return f;
    }
};

TEST_F(UetRcccTest, LoneFlowSendsAtTheCreditRate)
{
    for (double rate : {0.99, 0.5})
    {
        SCOPED_TRACE("CreditRate " + std::to_string(rate));
        Scenario s;
        s.creditRate = rate;
        Result r = Run(s);
        ASSERT_TRUE(r.done[0].ok);
        // After the speculative credit (MaxWindow = 1.5 x 12.5e9 B/s x 4.7 us = 88,125 B, sent
        // in the first ~7 us) the sender waits for grants, which come at CreditRate x 100 Gb/s
        // of wire bytes: payload = rate x 12.5e9 B/s x 4096 / 4222 x 500 us in the window
        // (0.99: 6.003 MB; 0.5: 3.032 MB; unpaced the link would carry 6.064 MB).
        EXPECT_EQ(r.rcccMaxWindow, 88125u);
        double expected = rate * LINE_BPS / 8 * PAYLOAD_SHARE * (s.to - s.from).GetSeconds();
        EXPECT_NEAR(r.windowPayload[0], expected, 0.005 * expected);
        // The credit granted in the window matches: rate x 12.5e9 B/s x 500 us (+- a chunk).
        double grantedExpected = rate * LINE_BPS / 8 * (s.to - s.from).GetSeconds();
        EXPECT_NEAR(r.windowGranted[0], grantedExpected, r.chunk);
        // No loss and no timeout: credit keeps the receiver's link below line rate.
        EXPECT_EQ(r.trims, 0u);
        EXPECT_EQ(r.drops, 0u);
        EXPECT_EQ(r.nic[0].rtoExpirations, 0u);
        EXPECT_EQ(r.nic[0].retransmissions, 0u);
        // Grants go in Credit packets, every one of which arrives (a lossless star).
        EXPECT_GT(r.nic[1].creditsSent, 0u);
        EXPECT_EQ(r.nic[0].creditsReceived, r.nic[1].creditsSent);
        EXPECT_EQ(r.nic[1].creditsSent, r.pacerGrants);
        EXPECT_LE(r.worstOverRate, 0.0);
        // The whole flow: 10 MB = 2441 packets of 4096 B + one of 1,664 (2442 in all), each
        // with 126 B of headers and framing: 10e6 + 2442 x 126 = 10,307,692 B on the wire, sent
        // once. 88,125 B of it went on speculative credit: the FCT is about the rest at the
        // credit rate plus one RTT (0.99: 830.5 us, measured 836.5; 0.5: 1,639.9 us, measured
        // 1,646.7).
        EXPECT_EQ(r.wireSent[0], 10307692u);
        double fct = r.done[0].GetDuration().GetSeconds();
        double fctExpected = (10307692.0 - 88125) / (rate * LINE_BPS / 8) + BASE_RTT_NS * 1e-9;
        EXPECT_NEAR(fct, fctExpected, 0.01 * fctExpected);
    }
}

TEST_F(UetRcccTest, IncastSharesTheReceiverRoundRobinWithinItsCredit)
{
    Scenario s;
    s.senders = 4;
    s.bytes = 4000000;
    s.to = MicroSeconds(1100);
    Result r = Run(s);
    const uint32_t n = s.senders;
    std::vector<double> fcts = Fcts(r);
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_TRUE(r.done[i].ok) << i;
        EXPECT_EQ(r.nic[i].rtoExpirations, 0u) << i;
    }
    EXPECT_EQ(r.drops, 0u);
    // Round-robin: the grants in the window, the payload sent in it and the FCTs are shared
    // evenly (measured: Jain 1.0000 / 1.0000 / 1.0000).
    EXPECT_GE(Jain(r.windowGranted), 0.99);
    EXPECT_GE(Jain(r.windowPayload), 0.99);
    EXPECT_GE(Jain(fcts), 0.99);
    // Between any two senders, the grants in the window differ by at most two chunks.
    auto [gmin, gmax] = std::minmax_element(r.windowGranted.begin(), r.windowGranted.end());
    EXPECT_LE(*gmax - *gmin, 2.0 * r.chunk);
    // Round-robin chunk by chunk: every sender always wants credit, so the grants cycle
    // through the four (no sender gets two in a row; any four consecutive grants go to four
    // different senders). A pacer serving a sender until it is satisfied would give it runs
    // of ~MaxWindow / chunk = 5.
    ASSERT_GT(r.grantOrder.size(), 100u);
    uint32_t repeats = 0;
    for (size_t k = 0; k + n <= r.grantOrder.size(); ++k)
    {
        std::vector<bool> seen(n, false);
        for (size_t j = k; j < k + n; ++j)
        {
            repeats += seen[r.grantOrder[j]];
            seen[r.grantOrder[j]] = true;
        }
    }
    EXPECT_EQ(repeats, 0u);
    // The pacer never grants faster than CreditRate x line rate (+ one chunk), over any
    // interval between two of the 5-us samples.
    EXPECT_DOUBLE_EQ(r.pacerBps, 0.99 * LINE_BPS);
    EXPECT_LE(r.worstOverRate, 0.0);
    // ... and, the receiver being the bottleneck, it grants at that rate: in the window the
    // senders were given 0.99 x 12.5e9 B/s x 1000 us = 12.375 MB (+- one chunk per sender).
    double granted = std::accumulate(r.windowGranted.begin(), r.windowGranted.end(), 0.0);
    EXPECT_NEAR(granted, 0.99 * LINE_BPS / 8 * 1000e-6, n * r.chunk);
    // Conservation of credit: a sender sends at most its speculative credit + what it was
    // granted + one packet (a packet may leave on any positive credit); the senders were
    // granted no more than the pacer gave (a fresh receiver context adopts its sender's
    // numbering up to two chunks behind the first target: at most that much more each).
    uint64_t sent = 0;
    uint64_t senderGranted = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_LE(r.wireSent[i], r.rcccMaxWindow + r.senderGranted[i] + 4096 + WIRE_EXTRA) << i;
        sent += r.wireSent[i];
        senderGranted += r.senderGranted[i];
    }
    EXPECT_LE(senderGranted, r.pacerGranted + n * 2ull * r.chunk);
    EXPECT_LE(sent,
              n * r.rcccMaxWindow + r.pacerGranted + n * (2ull * r.chunk + 4096 + WIRE_EXTRA));
    // The last flow ends when the receiver's link, at the credit rate, has carried all the
    // wire bytes beyond the speculative ones: 4 x (4e6 + 977 x 126) = 16,492,408 B, less
    // 4 x 88,125 speculative, at 12.375e9 B/s = 1,304.2 us, + one RTT.
    double last = *std::max_element(fcts.begin(), fcts.end());
    double lastExpected = ((16492408.0 - 4 * 88125) / (0.99 * LINE_BPS / 8) + 4.7e-6) * 1e6;
    EXPECT_NEAR(last, lastExpected, 0.02 * lastExpected);
}

TEST_F(UetRcccTest, SenderWithoutCreditAsksWithACreditRequest)
{
    // Speculative credit of one packet, no idle credit: host 0 WRITEs 64 KiB, and when that
    // completes a second 64 KiB. The first message's credit was granted to its backlog
    // exactly, so the second finds none and no request in flight: it must send a
    // Credit-Request (the PDC is open: its peer is known).
    Scenario s;
    s.idleCredit = 0;
    s.speculative = 4096 + WIRE_EXTRA;
    StarTopologyHelper star;
    Configure(star, s);
    star.Install(2);
    star.AssignStreams(5);
    SetPrototypes(star, 2, s);
    Ptr<UetEndpoint> src = star.GetUetNic(0)->CreateEndpoint(7, 0);
    Ptr<UetEndpoint> dst = star.GetUetNic(1)->CreateEndpoint(7, 0);
    dst->RegisterMemory(0xabc, 1ull << 32);
    std::vector<UetCompletion> done;
    int64_t creditAtSecondPost = INT64_MAX;
    uint64_t requestsAtSecondPost = 0;
    src->PostWrite(dst->GetAddress(), 0xabc, 0, 65536, [&](const UetCompletion& c) {
        done.push_back(c);
        const UetPdc* pdc =
            star.GetUetNic(0)->FindInitiatorPdc(0, UetDeliveryMode::RUD, 7, dst->GetAddress().fep);
        ASSERT_TRUE(pdc);
        creditAtSecondPost = pdc->GetCcState()->GetCredit();
        requestsAtSecondPost = star.GetUetNic(0)->GetCounters().creditRequestsSent;
        src->PostWrite(dst->GetAddress(), 0xabc, 65536, 65536, [&](const UetCompletion& c2) {
            done.push_back(c2);
        });
    });
    Simulator::Run();
    ASSERT_EQ(done.size(), 2u);
    EXPECT_TRUE(done[0].ok);
    EXPECT_TRUE(done[1].ok);
    EXPECT_LE(creditAtSecondPost, 0);
    const UetNicCounters& tx = star.GetUetNic(0)->GetCounters();
    const UetNicCounters& rx = star.GetUetNic(1)->GetCounters();
    // The second message asked (the first may have asked too, when its speculation ended).
    EXPECT_GE(tx.creditRequestsSent, requestsAtSecondPost + 1);
    EXPECT_EQ(rx.creditRequestsReceived, tx.creditRequestsSent);
    EXPECT_GT(rx.creditsSent, 0u);
    EXPECT_EQ(tx.rtoExpirations, 0u);
    EXPECT_EQ(tx.pdcsClosedInError, 0u);
    // The second message waited one round trip for its grant: posted at t1, its first packet
    // left no sooner than a Credit-Request's round trip (>= 4 us of cable) after.
    EXPECT_GE((done[1].startTime - done[1].postTime).GetNanoSeconds(), 4000);
}

TEST_F(UetRcccTest, NsccBesideRcccCompletesWithItsWindowBounded)
{
    // The 4 -> 1 incast with NSCC beside RCCC, and a 100 kB queue on the switch: the four
    // speculative bursts (4 x 88,125 B at once into one 100 Gb/s port) overflow it and are
    // trimmed at the receiver's last hop (measured: 37 trims).
    Scenario s;
    s.senders = 4;
    s.bytes = 4000000;
    s.to = MicroSeconds(1100);
    s.queueBytes = 100000;
    s.withNscc = true;
    Result both = Run(s);
    s.withNscc = false;
    Result alone = Run(s);
    for (uint32_t i = 0; i < s.senders; ++i)
    {
        EXPECT_TRUE(both.done[i].ok) << i;
        EXPECT_EQ(both.nic[i].rtoExpirations, 0u) << i; // trims recovered on new credit
    }
    EXPECT_GT(both.trims, 0u);
    EXPECT_EQ(both.nic[s.senders].trimmedLastHopReceived, both.trims);
    EXPECT_EQ(both.drops, 0u);
    // NSCC's window never left [one Mtu, its MaxWindow] (1.5 x 12.5e9 B/s x 4.7 us =
    // 88,125 B), and the last-hop trims did not cut it: under receiver credit they are the
    // pacer's business (each would otherwise take its 4,096 B off the window, and 37 of them
    // would have taken it to the minimum). Measured: 85,744..88,125 B.
    EXPECT_EQ(both.nsccMaxWindow, 88125u);
    EXPECT_LE(both.maxWindow, both.nsccMaxWindow);
    EXPECT_GE(both.minWindow, 0.9 * both.nsccMaxWindow);
    // RCCC still paces the flows: the pacer's bound holds and the FCTs are those of RCCC
    // alone within 1 % (measured: identical), fairly shared.
    EXPECT_LE(both.worstOverRate, 0.0);
    std::vector<double> fb = Fcts(both);
    std::vector<double> fa = Fcts(alone);
    double lastBoth = *std::max_element(fb.begin(), fb.end());
    double lastAlone = *std::max_element(fa.begin(), fa.end());
    EXPECT_NEAR(lastBoth, lastAlone, 0.01 * lastAlone);
    EXPECT_GE(Jain(fb), 0.99);
}

TEST_F(UetRcccTest, ReadDataFlowsOnTheInitiatorsCredit)
{
    // Host 0 READs 2 MB from host 1: the data comes back as requests of host 1, on credit
    // from host 0's pacer.
    Scenario s;
    StarTopologyHelper star;
    Configure(star, s);
    star.Install(2);
    star.AssignStreams(5);
    SetPrototypes(star, 2, s);
    Ptr<UetEndpoint> ini = star.GetUetNic(0)->CreateEndpoint(7, 0);
    Ptr<UetEndpoint> tgt = star.GetUetNic(1)->CreateEndpoint(7, 0);
    tgt->RegisterMemory(0xabc, 1ull << 32);
    UetCompletion done;
    ini->PostRead(tgt->GetAddress(), 0xabc, 0, 2000000, [&](const UetCompletion& c) { done = c; });
    Simulator::Run();
    ASSERT_TRUE(done.ok) << done.error;
    EXPECT_EQ(done.modifiedBytes, 2000000u);
    const UetNicCounters& a = star.GetUetNic(0)->GetCounters();
    const UetNicCounters& b = star.GetUetNic(1)->GetCounters();
    EXPECT_GT(a.creditsSent, 0u);
    EXPECT_EQ(b.creditsReceived, a.creditsSent);
    EXPECT_EQ(b.rtoExpirations, 0u);
    // 2 MB = 488 packets of 4096 B + one of 1,152: wire 2e6 + 489 x 126 = 2,061,614 B, less
    // 88,125 speculative, at 0.99 x 12.5e9 B/s = 159.5 us, + the request's and one data RTT
    // (~2 x 4.7 us): the READ takes ~168.9 us (measured 169.2).
    double expected = ((2061614.0 - 88125) / (0.99 * LINE_BPS / 8) + 2 * 4.7e-6) * 1e6;
    EXPECT_NEAR(done.GetDuration().GetNanoSeconds() / 1e3, expected, 0.01 * expected);
}

TEST_F(UetRcccTest, BadConfigurationsAbortWithTheirRange)
{
    // A credit rate above the line rate would let the senders overrun the receiver's link.
    EXPECT_DEATH(
        {
            StarTopologyHelper star;
            Scenario s;
            s.creditRate = 1.5;
            Configure(star, s);
            star.Install(2);
        },
        "ns3::UetNic::CreditRate=1.5 is out of range: valid range \\(0, 1\\]");
    // RCCC requests carry a 16-B PDS header: a fat tree trimming to 84 B would cut them.
    EXPECT_DEATH(
        {
            auto t = CreateObject<FatTreeTopologyHelper>();
            t->SetAttribute("K", UintegerValue(4));
            t->SetAttribute("TrimSize", UintegerValue(84));
            t->GetUetNicHelper().SetNicAttribute("CongestionControl",
                                                 TypeIdValue(RcccCongestionOps::GetTypeId()));
            t->Install();
        },
        "TrimSize 84 B is too small for Ultra Ethernet.*= 88 B\\).*88\\.\\.65535");
    // The fat tree's default TrimSize follows the NICs: 88 with RCCC, 84 without.
    auto t = CreateObject<FatTreeTopologyHelper>();
    t->SetAttribute("K", UintegerValue(4));
    t->GetUetNicHelper().SetNicAttribute("CongestionControl",
                                         TypeIdValue(RcccCongestionOps::GetTypeId()));
    EXPECT_EQ(t->GetUetNicHelper().GetMinTrimBytes(), 88u);
    t->GetUetNicHelper().SetNicAttribute("CongestionControl",
                                         TypeIdValue(NsccCongestionOps::GetTypeId()));
    EXPECT_EQ(t->GetUetNicHelper().GetMinTrimBytes(), 84u);
}

TEST_F(UetRcccTest, SameSeedSameRun)
{
    Scenario s;
    s.senders = 3;
    s.bytes = 1000000;
    Result a = Run(s);
    Result b = Run(s);
    ASSERT_EQ(a.done.size(), b.done.size());
    for (size_t i = 0; i < a.done.size(); ++i)
    {
        EXPECT_TRUE(a.done[i].ok);
        EXPECT_EQ(a.done[i].endTime, b.done[i].endTime) << i;
        EXPECT_EQ(a.wireSent[i], b.wireSent[i]) << i;
        EXPECT_EQ(a.senderGranted[i], b.senderGranted[i]) << i;
    }
    EXPECT_EQ(a.pacerGranted, b.pacerGranted);
    EXPECT_EQ(a.pacerGrants, b.pacerGrants);
    EXPECT_EQ(a.trims, b.trims);
    EXPECT_EQ(a.end, b.end);
}

} // namespace
