/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricSwitch end to end: lossless incast under PFC, lossy drops, headroom sizing, dynamic
 * thresholds, ECN marking, ECMP path stickiness, TTL/checksum rewrite, packet trimming, port
 * liveness (a port that goes down leaves the ECMP set and rejoins), drop/mark reason counters,
 * and bad input.
 */
#include "test-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"

#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

constexpr uint16_t IPV4 = 0x0800;

Ipv4Address
HostIp(uint32_t i)
{
    return Ipv4Address(0x0a000001 + i); // 10.0.0.1 + i
}

/// A host port that keeps sending UDP packets to one destination, honouring PFC.
class Sender
{
  public:
    Sender(Ptr<PfcNetDevice> dev, Ipv4Address src, Ipv4Address dst, uint32_t count)
        : m_dev(dev),
          m_src(src),
          m_dst(dst),
          m_left(count)
    {
        m_dev->SetDequeueCallback(MakeCallback(&Sender::OnDequeue, this));
    }

    void Start()
    {
        for (int i = 0; i < 2 && m_left > 0; ++i)
        {
            SendOne();
        }
    }

    uint64_t sentBytes{0};
    uint16_t sport{49152};
    uint8_t dscp{26};
    uint8_t ecn{2}; // ECT(0)
    uint8_t ttl{64};
    uint32_t payload{4096};        // IPv4 total length
    bool pattern{false};           // UDP payload byte i = PatternByte(i) instead of zeros
    std::vector<uint8_t> lastSent; // the IPv4 packet last sent

    /// \param i offset in the UDP payload \return the pattern byte there
    static uint8_t PatternByte(uint32_t i)
    {
        return static_cast<uint8_t>(i * 7 + 3);
    }

  private:
    void OnDequeue(const Ptr<PfcNetDevice>&, uint8_t, const Ptr<const Packet>&)
    {
        if (m_left > 0)
        {
            SendOne();
        }
    }

    void SendOne()
    {
        Ptr<Packet> p;
        if (pattern)
        {
            std::vector<uint8_t> body(payload - 28);
            for (uint32_t i = 0; i < body.size(); ++i)
            {
                body[i] = PatternByte(i);
            }
            p = Create<Packet>(body.data(), body.size());
        }
        else
        {
            p = Create<Packet>(payload - 28);
        }
        UdpHeader udp;
        udp.SetSourcePort(sport);
        udp.SetDestinationPort(4791);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(m_src);
        ip.SetDestination(m_dst);
        ip.SetProtocol(17);
        ip.SetTtl(ttl);
        ip.SetPayloadSize(payload - 20);
        ip.SetDscp(static_cast<Ipv4Header::DscpType>(dscp));
        ip.SetEcn(static_cast<Ipv4Header::EcnType>(ecn));
        ip.EnableChecksum();
        p->AddHeader(ip);
        sentBytes += p->GetSize();
        lastSent.resize(p->GetSize());
        p->CopyData(lastSent.data(), lastSent.size());
        m_left--;
        Mac48Address peer =
            Mac48Address::ConvertFrom(m_dev->GetPfcChannel()->GetPfcDevice(0) == m_dev
                                          ? m_dev->GetPfcChannel()->GetPfcDevice(1)->GetAddress()
                                          : m_dev->GetPfcChannel()->GetPfcDevice(0)->GetAddress());
        EXPECT_TRUE(m_dev->Send(p, peer, IPV4));
    }

    Ptr<PfcNetDevice> m_dev;
    Ipv4Address m_src;
    Ipv4Address m_dst;
    uint32_t m_left;
};

/// What a host received.
struct Sink
{
    uint64_t bytes{0};
    uint64_t packets{0};
    uint64_t ce{0};
    uint64_t badChecksum{0};
    std::set<uint16_t> sports;
    std::map<uint16_t, uint64_t> ceBySport;
    std::map<uint8_t, uint64_t> ttls;
    std::map<uint8_t, uint64_t> dscps;
    std::vector<std::pair<Time, uint16_t>> arrivals;       // (time, UDP source port)
    std::map<uint16_t, std::vector<uint8_t>> shortBySport; // bytes of a packet < 4096 B
    uint64_t shortPackets{0};
    Time first;
    Time last;

    void Receive(Ptr<PfcNetDevice>, Ptr<Packet> p, uint16_t, Mac48Address, uint8_t)
    {
        if (p->GetSize() < 4096)
        {
            ++shortPackets;
        }
        Ipv4Header ip;
        ip.EnableChecksum(); // verify the checksum when deserializing
        p->PeekHeader(ip);
        badChecksum += !ip.IsChecksumOk();
        ce += ip.GetEcn() == Ipv4Header::ECN_CE;
        ttls[ip.GetTtl()]++;
        Ptr<Packet> c = p->Copy();
        c->RemoveHeader(ip);
        UdpHeader udp;
        c->PeekHeader(udp);
        sports.insert(udp.GetSourcePort());
        ceBySport[udp.GetSourcePort()] += ip.GetEcn() == Ipv4Header::ECN_CE;
        dscps[ip.GetDscp()]++;
        arrivals.emplace_back(Simulator::Now(), udp.GetSourcePort());
        if (p->GetSize() < 4096)
        {
            auto& bytes = shortBySport[udp.GetSourcePort()];
            bytes.resize(p->GetSize());
            p->CopyData(bytes.data(), bytes.size());
        }
        if (packets == 0)
        {
            first = Simulator::Now();
        }
        last = Simulator::Now();
        bytes += p->GetSize();
        packets++;
    }
};

/// N hosts on one switch (host i on switch port i), 400 Gb/s, 1 us cables by default.
class StarTest : public test::SimTest
{
  protected:
    void Build(uint32_t nHosts,
               std::string rate = "400Gbps",
               Time delay = MicroSeconds(1),
               std::string lastHostRate = "")
    {
        hosts.Create(nHosts);
        sw.Create(1);
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            PfcHelper pfc;
            pfc.SetQueueMaxSize(QueueSize("100000p"));
            pfc.SetDeviceAttribute(
                "DataRate",
                StringValue(i == nHosts - 1 && !lastHostRate.empty() ? lastHostRate : rate));
            pfc.SetChannelAttribute("Delay", TimeValue(delay));
            NetDeviceContainer d = pfc.Install(hosts.Get(i), sw.Get(0));
            hostDev.push_back(DynamicCast<PfcNetDevice>(d.Get(0)));
        }
        fabric = switchHelper.Install(sw.Get(0));
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            fabric->GetForwardingTable()->SetRoute(HostIp(i), {i});
        }
        sinks.resize(nHosts);
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            hostDev[i]->SetPfcReceiveCallback(MakeCallback(&Sink::Receive, &sinks[i]));
        }
        fabric->TraceConnectWithoutContext("Drop", MakeCallback(&StarTest::OnDrop, this));
    }

    void OnDrop(Ptr<const Packet> p, uint32_t, SwitchDropReason r)
    {
        droppedBytes += p->GetSize();
        drops[r]++;
    }

    /// Senders 0..n-2 each send \p count packets to the last host; sender 0 may be Not-ECT.
    void Incast(uint32_t count, bool firstNotEct = false)
    {
        uint32_t n = hosts.GetN();
        for (uint32_t i = 0; i + 1 < n; ++i)
        {
            senders.push_back(
                std::make_unique<Sender>(hostDev[i], HostIp(i), HostIp(n - 1), count));
            senders.back()->sport = 49152 + i;
            senders.back()->ecn = (firstNotEct && i == 0) ? 0 : 2;
            senders.back()->Start();
        }
    }

    uint64_t SentBytes() const
    {
        uint64_t s = 0;
        for (const auto& x : senders)
        {
            s += x->sentBytes;
        }
        return s;
    }

    uint64_t TotalDrops() const
    {
        uint64_t d = 0;
        for (std::size_t r = 0; r < fabric->GetCounters().drops.size(); ++r)
        {
            uint64_t v = fabric->GetCounters().drops[r];
            if (v)
            {
                std::cerr << "  switch drops (" << SwitchDropReasonName(SwitchDropReason(r))
                          << "): " << v << "\n";
            }
            d += v;
        }
        return d;
    }

    NodeContainer hosts;
    NodeContainer sw;
    SwitchHelper switchHelper;
    Ptr<FabricSwitch> fabric;
    std::vector<Ptr<PfcNetDevice>> hostDev;
    std::vector<Sink> sinks;
    std::vector<std::unique_ptr<Sender>> senders;
    std::map<SwitchDropReason, uint64_t> drops;
    uint64_t droppedBytes{0};
};

// The switch updates the IPv4 checksum incrementally (RFC 1624) when it decrements the TTL
// and marks ECN CE: the result must equal a full recomputation for every header.
TEST(Ipv4Checksum, IncrementalUpdateEqualsFullRecomputation)
{
    std::mt19937 rng(5);
    for (int trial = 0; trial < 20000; ++trial)
    {
        uint8_t h[20];
        for (auto& b : h)
        {
            b = static_cast<uint8_t>(rng());
        }
        h[0] = 0x45;
        h[8] = static_cast<uint8_t>(1 + rng() % 255); // TTL >= 1
        wire::PutU16(h + 10, wire::Ipv4HeaderChecksum(h, 20));
        uint16_t tos = wire::GetU16(h);
        uint16_t ttl = wire::GetU16(h + 8);
        h[8]--;
        if (rng() % 2)
        {
            h[1] |= 0x03;
        }
        uint16_t c = wire::UpdateChecksum(wire::GetU16(h + 10), tos, wire::GetU16(h));
        c = wire::UpdateChecksum(c, ttl, wire::GetU16(h + 8));
        ASSERT_EQ(c, wire::Ipv4HeaderChecksum(h, 20)) << "trial " << trial;
    }
}

TEST_F(StarTest, LosslessIncastUnderPfcKeepsEgressAtLineRate)
{
    Build(9);
    Incast(2000); // 8 x 2000 x 4 KiB = 65.5 MB, twice the 32 MiB buffer
    std::string why;
    Simulator::Schedule(MicroSeconds(500), [&]() {
        EXPECT_TRUE(fabric->GetMmu()->CheckInvariants(&why)) << why;
        EXPECT_GT(fabric->GetMmu()->GetBytesHeld(), 0u);
    });
    Simulator::Run();
    const Sink& rx = sinks[8];
    EXPECT_EQ(TotalDrops(), 0u);
    EXPECT_EQ(rx.bytes, SentBytes()); // conservation, nothing in flight at the end
    EXPECT_EQ(rx.packets, 8u * 2000);
    uint64_t xoffs = 0;
    uint64_t pausesAtSenders = 0;
    for (uint32_t i = 0; i < 8; ++i)
    {
        xoffs += fabric->GetCounters().xoffSent[i][3];
        pausesAtSenders += hostDev[i]->GetCounters().pauseRx[3];
        EXPECT_GT(fabric->GetCounters().xoffSent[i][3], 0u) << "ingress " << i;
    }
    EXPECT_GT(pausesAtSenders, 0u);
    EXPECT_GE(pausesAtSenders, xoffs); // every XOFF reaches its sender (XONs come on top)
    EXPECT_EQ(fabric->GetPort(8)->GetCounters().pauseRx[3], 0u);
    // The egress never idles: IP bytes at line rate x 4096 / (4096 + 38).
    double gbps = (rx.bytes - 4096) * 8.0 / (rx.last - rx.first).GetSeconds() / 1e9;
    EXPECT_NEAR(gbps / (400.0 * 4096 / 4134), 1.0, 0.01) << gbps;
    EXPECT_TRUE(fabric->GetMmu()->CheckInvariants(&why)) << why;
    EXPECT_EQ(fabric->GetMmu()->GetBytesHeld(), 0u);
    EXPECT_EQ(rx.badChecksum, 0u);
    EXPECT_EQ(rx.ttls.at(63), rx.packets); // one hop decremented the TTL, checksum fixed
}

TEST_F(StarTest, LossyIncastWithSmallBufferDropsAndConserves)
{
    switchHelper.SetMmuAttribute("LosslessPriorities", UintegerValue(0));
    switchHelper.SetMmuAttribute("BufferSize", UintegerValue(1 << 20));
    Build(9);
    Incast(500);
    Simulator::Run();
    EXPECT_GT(TotalDrops(), 0u);
    EXPECT_GT(drops[SwitchDropReason::EGRESS_THRESHOLD], 0u);
    EXPECT_EQ(drops[SwitchDropReason::HEADROOM_OVERFLOW], 0u);
    // The counters agree with the trace, per reason and by name; trimming is off by default.
    const SwitchCounters& c = fabric->GetCounters();
    EXPECT_EQ(c.drops[size_t(SwitchDropReason::EGRESS_THRESHOLD)],
              drops[SwitchDropReason::EGRESS_THRESHOLD]);
    EXPECT_EQ(c.drops.Get("egress threshold"), drops[SwitchDropReason::EGRESS_THRESHOLD]);
    EXPECT_EQ(c.drops.GetTotal(), TotalDrops());
    EXPECT_EQ(c.marks.Get("trimmed"), 0u);
    EXPECT_EQ(sinks[8].shortPackets, 0u);
    EXPECT_EQ(sinks[8].bytes + droppedBytes, SentBytes());
    for (uint32_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(hostDev[i]->GetCounters().pauseRx[3], 0u); // no PFC on a lossy class
    }
    EXPECT_EQ(FabricHealthMonitor::CountLosslessDrops(), 0u); // the drops were lossy
    EXPECT_LE(fabric->GetMmu()->GetPeakBytesHeld(), 1u << 20);
}

/// 2:1 incast over 5 us cables into a 100 Gb/s egress (slow drain, so the bytes in flight
/// after XOFF really land in headroom) with a static XOFF threshold; headroom auto-sized or
/// halved.
class HeadroomTest : public StarTest
{
  protected:
    void Run(double headroomFraction)
    {
        switchHelper.SetMmuAttribute("ThresholdMode", EnumValue(SharedBufferMmu::STATIC));
        switchHelper.SetMmuAttribute("XoffStaticBytes", UintegerValue(64 * 1024));
        if (headroomFraction != 1.0)
        {
            auto probe = CreateObject<SharedBufferMmu>();
            uint64_t required =
                probe->RequiredHeadroom(DataRate("400Gbps"), MicroSeconds(5), 9000 + 22);
            switchHelper.SetMmuAttribute("HeadroomBytes",
                                         UintegerValue(uint64_t(required * headroomFraction)));
        }
        Build(3, "400Gbps", MicroSeconds(5), "100Gbps");
        Incast(3000);
        Simulator::Run();
    }
};

TEST_F(HeadroomTest, AtTheComputedRequirementNoOverflow)
{
    Run(1.0);
    uint64_t required =
        fabric->GetMmu()->RequiredHeadroom(DataRate("400Gbps"), MicroSeconds(5), 9022);
    EXPECT_EQ(fabric->GetMmu()->GetHeadroomSize(0), required);
    // 2 x 5 us x 50 B/ns = 500 kB in flight + three max frames (the one that decides XOFF,
    // the one delaying the PFC frame, the one the upstream finishes) + a PFC frame.
    EXPECT_EQ(required, 500000u + 3 * (9022 + 20) + 84);
    EXPECT_EQ(TotalDrops(), 0u);
    EXPECT_GT(fabric->GetCounters().xoffSent[0][3], 0u);
    EXPECT_EQ(sinks[2].bytes, SentBytes());
    std::ostringstream report;
    EXPECT_TRUE(CreateObject<FabricHealthMonitor>()->ReportEndOfRun(report)) << report.str();
    EXPECT_EQ(report.str(), "");
}

TEST_F(HeadroomTest, BelowTheRequirementOverflows)
{
    Run(0.5);
    EXPECT_GT(drops[SwitchDropReason::HEADROOM_OVERFLOW], 0u);
    EXPECT_EQ(sinks[2].bytes + droppedBytes, SentBytes());
    // Every drop was in the lossless priority 3, and the end-of-run report says so loudly.
    const auto& lost = fabric->GetCounters().losslessDrops;
    EXPECT_EQ(lost[3], TotalDrops());
    EXPECT_EQ(lost[0] + lost[1] + lost[2] + lost[4] + lost[5] + lost[6] + lost[7], 0u);
    EXPECT_EQ(FabricHealthMonitor::CountLosslessDrops(), TotalDrops());
    std::ostringstream report;
    EXPECT_FALSE(CreateObject<FabricHealthMonitor>()->ReportEndOfRun(report));
    EXPECT_NE(report.str().find("WARNING: " + std::to_string(TotalDrops()) +
                                " packets were DROPPED in lossless (PFC) priorities"),
              std::string::npos)
        << report.str();
    EXPECT_NE(report.str().find("priority 3: " + std::to_string(TotalDrops()) + " dropped"),
              std::string::npos)
        << report.str();
}

TEST_F(StarTest, DynamicThresholdXoffAtAlphaTimesFreeSharedWithinOnePacket)
{
    const double alpha = 0.5;
    switchHelper.SetMmuAttribute("Alpha", DoubleValue(alpha));
    switchHelper.SetMmuAttribute("BufferSize", UintegerValue(4 << 20));
    Build(2, "400Gbps", MicroSeconds(1), "100Gbps");   // 400G in, 100G out
    std::vector<std::pair<uint64_t, uint64_t>> atXoff; // (shared use, threshold)
    fabric->TraceConnectWithoutContext(
        "PfcXoff",
        MakeCallback(+[](std::vector<std::pair<uint64_t, uint64_t>>* v,
                         FabricSwitch* s,
                         uint32_t port,
                         uint8_t prio,
                         bool xoff) {
            if (xoff)
            {
                v->emplace_back(s->GetMmu()->GetIngressSharedUsed(port, prio),
                                s->GetMmu()->GetXoffThreshold(port, prio));
            }
        }).Bind(&atXoff, PeekPointer(fabric))); // a raw pointer: a Ptr bound into the
                                                // switch's own trace would keep it alive
    Incast(3000);
    Simulator::Run();
    ASSERT_FALSE(atXoff.empty());
    const uint64_t packet = 4096 + 18;
    uint64_t pool = fabric->GetMmu()->GetSharedPoolSize();
    // Only this ingress uses shared: XOFF where s = alpha (pool - s), s = alpha pool/(1+alpha).
    double analytic = alpha * pool / (1 + alpha);
    EXPECT_NEAR(double(atXoff[0].first), analytic, double(packet));
    for (auto [shared, threshold] : atXoff)
    {
        EXPECT_LE(shared, threshold + packet);
        EXPECT_GT(shared + packet, threshold);
    }
    EXPECT_EQ(TotalDrops(), 0u);
    EXPECT_EQ(sinks[1].bytes, SentBytes());
}

TEST_F(StarTest, EcnMarksOnlyEctPacketsOnADeepQueue)
{
    switchHelper.SetEcnAttribute("Kmin", QueueSizeValue(QueueSize("20KB")));
    switchHelper.SetEcnAttribute("Kmax", QueueSizeValue(QueueSize("200KB")));
    switchHelper.SetEcnAttribute("ScaleWithRate", BooleanValue(false));
    Build(5);
    Incast(300, /*firstNotEct=*/true);
    Simulator::Run();
    EXPECT_EQ(sinks[4].ceBySport[49152], 0u); // Not-ECT: never marked
    EXPECT_GT(sinks[4].ceBySport[49153], 0u);
    EXPECT_GT(fabric->GetCounters().ecnMarks[4], 0u);
    EXPECT_EQ(sinks[4].ce, fabric->GetCounters().ecnMarks[4]);
    EXPECT_EQ(sinks[4].badChecksum, 0u);
    EXPECT_EQ(TotalDrops(), 0u);
}

TEST_F(StarTest, NoRouteIsDroppedAndCounted)
{
    Build(2);
    Sender s(hostDev[0], HostIp(0), Ipv4Address("10.9.9.9"), 3);
    s.Start();
    Simulator::Run();
    EXPECT_EQ(fabric->GetCounters().drops[size_t(SwitchDropReason::NO_ROUTE)], 3u);
    EXPECT_STREQ(SwitchDropReasonName(SwitchDropReason::NO_ROUTE), "no route");
    EXPECT_STREQ(SwitchDropReasonName(SwitchDropReason::HEADROOM_OVERFLOW), "headroom overflow");
    std::string why;
    EXPECT_TRUE(fabric->GetMmu()->CheckInvariants(&why)) << why;
}

TEST_F(StarTest, TtlExpiresAtOne)
{
    Build(2);
    Sender s(hostDev[0], HostIp(0), HostIp(1), 2);
    s.ttl = 1;
    s.Start();
    Simulator::Run();
    EXPECT_EQ(fabric->GetCounters().drops[size_t(SwitchDropReason::TTL_EXPIRED)], 2u);
    EXPECT_EQ(sinks[1].packets, 0u);
}

// A switch with a ProcessingDelay holds each frame that long between ingress and egress: one
// packet arrives exactly that much later than through a switch without it, intact (TTL
// decremented once, checksum valid).
TEST_F(StarTest, ProcessingDelayAddsToTheLatencyAndKeepsTheFrameIntact)
{
    Time arrival[2];
    for (int delayed = 0; delayed < 2; ++delayed)
    {
        test::SimTest::TearDown();
        test::SimTest::SetUp();
        hosts = NodeContainer();
        sw = NodeContainer();
        hostDev.clear();
        sinks.clear();
        switchHelper = SwitchHelper();
        switchHelper.SetSwitchAttribute("ProcessingDelay",
                                        TimeValue(delayed ? NanoSeconds(750) : Time(0)));
        Build(2);
        Sender s(hostDev[0], HostIp(0), HostIp(1), 1);
        s.Start();
        Simulator::Run();
        ASSERT_EQ(sinks[1].packets, 1u);
        EXPECT_EQ(sinks[1].bytes, s.payload);
        EXPECT_EQ(sinks[1].badChecksum, 0u);
        EXPECT_EQ(sinks[1].ttls, (std::map<uint8_t, uint64_t>{{63, 1}}));
        arrival[delayed] = sinks[1].first;
    }
    EXPECT_EQ(arrival[1] - arrival[0], NanoSeconds(750));
}

/// Send one UDP packet from a host port without a Sender (no dequeue callback).
void
SendUdp(Ptr<PfcNetDevice> dev, Ipv4Address src, Ipv4Address dst, uint16_t sport, uint32_t size)
{
    Ptr<Packet> p = Create<Packet>(size - 28);
    UdpHeader udp;
    udp.SetSourcePort(sport);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(src);
    ip.SetDestination(dst);
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetPayloadSize(size - 20);
    p->AddHeader(ip);
    Ptr<PfcChannel> ch = dev->GetPfcChannel();
    Ptr<PfcNetDevice> peer = ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
    EXPECT_TRUE(dev->Send(p, peer->GetAddress(), IPV4));
}

/// One sender, four equal-cost ports towards one destination, each to a counting next hop.
TEST_F(StarTest, EcmpKeepsEachFlowOnOnePathAndSpreadsFlows)
{
    Build(5); // host 0 sends; hosts 1..4 stand for four next hops
    Ipv4Address remote("10.1.0.1");
    fabric->GetForwardingTable()->SetRoute(remote, {1, 2, 3, 4});
    for (int round = 0; round < 5; ++round)
    {
        for (uint16_t f = 0; f < 64; ++f)
        {
            SendUdp(hostDev[0], HostIp(0), remote, 1000 + f, 200);
        }
    }
    Simulator::Run();
    std::set<uint16_t> seen;
    uint64_t packets = 0;
    for (uint32_t hop = 1; hop <= 4; ++hop)
    {
        for (uint16_t sp : sinks[hop].sports)
        {
            EXPECT_TRUE(seen.insert(sp).second) << "flow " << sp << " took two paths";
        }
        EXPECT_GE(sinks[hop].sports.size(), 6u) << "hop " << hop; // 64 flows: ~16 each
        packets += sinks[hop].packets;
    }
    EXPECT_EQ(seen.size(), 64u);
    EXPECT_EQ(packets, 5u * 64);
}

// A lossless class decides XOFF before it ever drops: a frame that overflows the headroom (here
// one larger than the maximum frame the headroom was sized for) raises XOFF on its ingress
// (port, priority) and only then is refused as "headroom overflow".
TEST(SharedBufferMmu, LosslessOverflowRaisesXoffBeforeTheDrop)
{
    auto mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(1 << 20));
    mmu->SetAttribute("ThresholdMode", EnumValue(SharedBufferMmu::STATIC));
    mmu->SetAttribute("XoffStaticBytes", UintegerValue(4096));
    mmu->SetAttribute("HeadroomBytes", UintegerValue(4200)); // >= one 4178 B frame: accepted
    std::cerr.setstate(std::ios::failbit);                   // the "below the requirement" warning
    mmu->Configure(std::vector<DataRate>(2, DataRate("400Gbps")),
                   std::vector<Time>(2, MicroSeconds(1)),
                   4178);
    std::cerr.clear();
    std::vector<std::pair<uint32_t, bool>> xoff;
    mmu->SetXoffCallback(MakeCallback(+[](std::vector<std::pair<uint32_t, bool>>* v,
                                          uint32_t port,
                                          uint8_t p,
                                          bool x) {
                             v->emplace_back(port * 8 + p, x);
                         }).Bind(&xoff));
    // 4000 B fit the shared threshold; the next 9000 B frame fits neither shared nor headroom.
    EXPECT_EQ(mmu->Admit(0, 3, 1, 4000).action, MmuVerdict::ACCEPT);
    EXPECT_TRUE(xoff.empty());
    MmuVerdict v = mmu->Admit(0, 3, 1, 9000);
    EXPECT_EQ(v.action, MmuVerdict::DROP);
    EXPECT_EQ(v.reason, SwitchDropReason::HEADROOM_OVERFLOW);
    ASSERT_EQ(xoff.size(), 1u);
    EXPECT_EQ(xoff[0], std::make_pair(3u, true));
    // Draining the admitted bytes sends XON: the pause ends.
    mmu->Release(0, 3, 1, 4000);
    ASSERT_EQ(xoff.size(), 2u);
    EXPECT_EQ(xoff[1], std::make_pair(3u, false));
}

// EgressLimitBytes: a static per-(egress port, priority) limit of lossy queues (htsim's fixed
// port queue). Off by default; when set, the packet that would pass it is refused as "egress
// threshold", or trimmed if its priority trims; other queues and lossless priorities are
// unaffected, and released bytes make room again.
TEST(SharedBufferMmu, StaticEgressLimitRefusesOrTrimsAtTheLimit)
{
    const std::vector<DataRate> rates(3, DataRate("100Gbps"));
    const std::vector<Time> delays(3, MicroSeconds(1));
    auto plain = CreateObject<SharedBufferMmu>();
    plain->Configure(rates, delays, 4198);
    EXPECT_EQ(plain->GetEgressLimit(), 0u);
    for (int i = 0; i < 100; ++i)
    {
        ASSERT_EQ(plain->Admit(0, 1, 2, 4198).action, MmuVerdict::ACCEPT) << i;
    }

    auto mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("EgressLimitBytes", UintegerValue(3 * 4198));
    mmu->SetAttribute("TrimPriorities", UintegerValue(1 << 2));
    mmu->Configure(rates, delays, 4198);
    EXPECT_EQ(mmu->GetEgressLimit(), 3u * 4198);
    for (uint32_t in = 0; in < 3; ++in)
    {
        EXPECT_EQ(mmu->Admit(in % 2, 1, 2, 4198).action, MmuVerdict::ACCEPT);
    }
    MmuVerdict v = mmu->Admit(0, 1, 2, 4198);
    EXPECT_EQ(v.action, MmuVerdict::DROP);
    EXPECT_EQ(v.reason, SwitchDropReason::EGRESS_THRESHOLD);
    EXPECT_EQ(mmu->Admit(0, 1, 2, 1).action, MmuVerdict::DROP); // exactly full
    // Another egress port and another priority have queues of their own.
    EXPECT_EQ(mmu->Admit(0, 1, 1, 4198).action, MmuVerdict::ACCEPT);
    EXPECT_EQ(mmu->Admit(0, 0, 2, 4198).action, MmuVerdict::ACCEPT);
    // A trimmed priority gets TRIM at the limit; the cut packet fits the trim queue.
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(mmu->Admit(1, 2, 2, 4198).action, MmuVerdict::ACCEPT);
    }
    v = mmu->Admit(1, 2, 2, 4198);
    EXPECT_EQ(v.action, MmuVerdict::TRIM);
    EXPECT_EQ(v.reason, SwitchDropReason::EGRESS_THRESHOLD);
    EXPECT_EQ(mmu->AdmitTrimmed(1, v.trimPriority, 2, 146).action, MmuVerdict::ACCEPT);
    // The lossless priority (3) is not limited: PFC holds it, not a tail drop.
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_EQ(mmu->Admit(0, 3, 2, 4198).action, MmuVerdict::ACCEPT) << i;
    }
    // Draining one packet makes room for one.
    mmu->Release(0, 1, 2, 4198);
    EXPECT_EQ(mmu->Admit(0, 1, 2, 4198).action, MmuVerdict::ACCEPT);
    EXPECT_EQ(mmu->Admit(0, 1, 2, 4198).action, MmuVerdict::DROP);
    std::string why;
    EXPECT_TRUE(mmu->CheckInvariants(&why)) << why;
}

TEST(SharedBufferMmuDeathTest, HeadroomBelowOneFrameIsRefused)
{
    auto mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("HeadroomBytes", UintegerValue(1000));
    EXPECT_DEATH(mmu->Configure(std::vector<DataRate>(2, DataRate("400Gbps")),
                                std::vector<Time>(2, MicroSeconds(1)),
                                4178),
                 "HeadroomBytes 1000 is below one maximum frame \\(4178 B\\).*>= 4178");
}

TEST(SharedBufferMmu, AccountingInvariantUnderRandomStress)
{
    auto mmu = CreateObject<SharedBufferMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(4 << 20));
    mmu->SetAttribute("ReservedBytes", UintegerValue(8192));
    mmu->SetAttribute("LosslessPriorities", UintegerValue(0x09)); // 0 and 3
    const uint32_t nPorts = 8;
    mmu->Configure(std::vector<DataRate>(nPorts, DataRate("400Gbps")),
                   std::vector<Time>(nPorts, MicroSeconds(1)),
                   9022);
    std::map<std::pair<uint32_t, uint8_t>, bool> xoff;
    mmu->SetXoffCallback(MakeCallback(+[](std::map<std::pair<uint32_t, uint8_t>, bool>* m,
                                          uint32_t port,
                                          uint8_t p,
                                          bool x) {
                             bool before = (*m)[std::make_pair(port, p)];
                             EXPECT_NE(before, x) << "repeated transition";
                             (*m)[std::make_pair(port, p)] = x;
                         }).Bind(&xoff));

    struct Held
    {
        uint32_t in;
        uint8_t prio;
        uint32_t out;
        uint32_t bytes;
    };

    std::vector<Held> held;
    auto rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(7);
    uint32_t accepted = 0;
    uint32_t rejected = 0;
    const uint8_t prios[] = {0, 1, 3, 5};
    for (int step = 0; step < 200000; ++step)
    {
        bool admit = held.empty() || rng->GetValue() < 0.55;
        if (admit)
        {
            uint32_t in = rng->GetInteger(0, nPorts - 1);
            uint32_t out = rng->GetInteger(0, nPorts - 1);
            uint8_t prio = prios[rng->GetInteger(0, 3)];
            uint32_t bytes = rng->GetInteger(64, 9022);
            if (mmu->Admit(in, prio, out, bytes).IsAccept())
            {
                held.push_back({in, prio, out, bytes});
                ++accepted;
            }
            else
            {
                ++rejected;
            }
        }
        else
        {
            std::size_t i = rng->GetInteger(0, held.size() - 1);
            mmu->Release(held[i].in, held[i].prio, held[i].out, held[i].bytes);
            held[i] = held.back();
            held.pop_back();
        }
        std::string why;
        ASSERT_TRUE(mmu->CheckInvariants(&why)) << "step " << step << ": " << why;
    }
    EXPECT_GT(accepted, 50000u);
    EXPECT_GT(rejected, 0u);    // lossy classes did hit their limits
    EXPECT_FALSE(xoff.empty()); // lossless classes did go XOFF (and every entry is a transition)
    for (auto& h : held)
    {
        mmu->Release(h.in, h.prio, h.out, h.bytes);
    }
    EXPECT_EQ(mmu->GetBytesHeld(), 0u);
    EXPECT_EQ(mmu->GetSharedUsed(), 0u);
    for (uint32_t port = 0; port < nPorts; ++port)
    {
        for (uint8_t p : prios)
        {
            EXPECT_FALSE(mmu->IsXoff(port, p)) << port << "/" << int(p) << " stuck in XOFF";
        }
    }
}

/// Lossy 8:1 incast into a 1 MiB buffer with trimming on priority 3 (DSCP 26): what does not
/// fit is cut to TrimSize and queued on priority 5 with DSCP 46.
class TrimTest : public StarTest
{
  protected:
    void Run(uint32_t trimSize)
    {
        switchHelper.SetMmuAttribute("LosslessPriorities", UintegerValue(0));
        switchHelper.SetMmuAttribute("BufferSize", UintegerValue(1 << 20));
        switchHelper.SetMmuAttribute("TrimPriorities", UintegerValue(1 << 3));
        switchHelper.SetMmuAttribute("TrimSize", UintegerValue(trimSize));
        switchHelper.SetMmuAttribute("TrimDscp", UintegerValue(46));
        switchHelper.SetMmuAttribute("TrimPriority", UintegerValue(5));
        Build(9);
        fabric->TraceConnectWithoutContext(
            "Mark",
            MakeCallback(+[](std::map<std::pair<uint8_t, SwitchMarkReason>, uint64_t>* m,
                             uint32_t port,
                             uint8_t prio,
                             SwitchMarkReason reason) {
                (*m)[{prio, reason}]++;
            }).Bind(&marks));
        uint32_t n = hosts.GetN();
        for (uint32_t i = 0; i + 1 < n; ++i)
        {
            senders.push_back(std::make_unique<Sender>(hostDev[i], HostIp(i), HostIp(n - 1), 500));
            senders.back()->sport = 49152 + i;
            senders.back()->pattern = true;
            senders.back()->Start();
        }
        Simulator::Run();
    }

    std::map<std::pair<uint8_t, SwitchMarkReason>, uint64_t> marks; //!< (priority, reason)
};

TEST_F(TrimTest, PacketsThatDoNotFitAreCutReMarkedAndSentOnTheTrimPriority)
{
    Run(64);
    const SwitchCounters& c = fabric->GetCounters();
    const Sink& rx = sinks[8];
    uint64_t trimmed = c.marks.Get("trimmed");
    EXPECT_GT(trimmed, 100u);
    EXPECT_EQ(trimmed, c.marks[size_t(SwitchMarkReason::TRIMMED)]);
    EXPECT_EQ((marks[{5, SwitchMarkReason::TRIMMED}]), trimmed); // traced, on priority 5
    EXPECT_EQ(TotalDrops(), 0u); // every packet that did not fit was trimmed instead
    // Every packet arrives, whole or trimmed; the trimmed ones are 64-byte IPv4 packets with
    // DSCP 46 that left on priority 5.
    EXPECT_EQ(rx.packets, 8u * 500);
    EXPECT_EQ(rx.shortPackets, trimmed);
    EXPECT_EQ(rx.dscps.at(46), trimmed);
    EXPECT_EQ(rx.dscps.at(26), rx.packets - trimmed);
    EXPECT_EQ(rx.bytes, (rx.packets - trimmed) * 4096 + trimmed * 64);
    EXPECT_EQ(rx.badChecksum, 0u);
    EXPECT_EQ(fabric->GetPort(8)->GetCounters().txFrames[5], trimmed);
    // The exact bytes: the sender's IPv4 + UDP headers and the first 36 payload bytes, with
    // total length 64, DSCP 46, TTL - 1, a recomputed IPv4 checksum, UDP length 44 and no UDP
    // checksum.
    EXPECT_FALSE(rx.shortBySport.empty());
    for (const auto& [sport, got] : rx.shortBySport)
    {
        const Sender& s = *senders.at(sport - 49152);
        std::vector<uint8_t> want(s.lastSent.begin(), s.lastSent.begin() + 64);
        want[1] = static_cast<uint8_t>((46 << 2) | (want[1] & 3));
        wire::PutU16(want.data() + 2, 64);
        want[8]--;
        wire::PutU16(want.data() + 10, wire::Ipv4HeaderChecksum(want.data(), 20));
        wire::PutU16(want.data() + 24, 44);
        wire::PutU16(want.data() + 26, 0);
        for (uint32_t i = 0; i < 36; ++i)
        {
            ASSERT_EQ(want[28 + i], Sender::PatternByte(i));
        }
        EXPECT_EQ(got, want) << "sport " << sport;
    }
    std::string why;
    EXPECT_TRUE(fabric->GetMmu()->CheckInvariants(&why)) << why;
    EXPECT_EQ(fabric->GetMmu()->GetBytesHeld(), 0u);
}

TEST_F(TrimTest, PacketsNotLongerThanTheTrimSizeAreDropped)
{
    Run(4096); // the packets are 4096 B long: nothing to cut
    EXPECT_EQ(fabric->GetCounters().marks.Get("trimmed"), 0u);
    EXPECT_GT(drops[SwitchDropReason::EGRESS_THRESHOLD], 0u);
    EXPECT_EQ(sinks[8].shortPackets, 0u);
    EXPECT_EQ(sinks[8].bytes + droppedBytes, SentBytes());
}

/// One sender, two equal-cost ports (to hosts 1 and 2) towards 10.1.0.1, 16 flows sending a
/// packet each per microsecond for 300 us; port 1 goes down at 100 us and up at 200 us.
TEST_F(StarTest, PortDownLeavesTheEcmpSetAndRejoinsWhenUp)
{
    Build(4);
    Ipv4Address remote("10.1.0.1");
    Ipv4Address lonely("10.2.0.1"); // only route: port 3
    fabric->GetForwardingTable()->SetRoute(remote, {1, 2});
    fabric->GetForwardingTable()->SetRoute(lonely, {3});
    std::vector<std::pair<uint32_t, bool>> states;
    fabric->TraceConnectWithoutContext(
        "PortState",
        MakeCallback(+[](std::vector<std::pair<uint32_t, bool>>* v, uint32_t port, bool up) {
            v->emplace_back(port, up);
        }).Bind(&states));
    const uint32_t rounds = 300;
    for (uint32_t r = 0; r < rounds; ++r)
    {
        Simulator::Schedule(MicroSeconds(r), [this, remote]() {
            for (uint16_t f = 0; f < 16; ++f)
            {
                SendUdp(hostDev[0], HostIp(0), remote, 2000 + f, 200);
            }
        });
    }
    Simulator::Schedule(MicroSeconds(100), [this]() {
        fabric->SetPortUp(1, false);
        EXPECT_FALSE(fabric->IsPortUp(1));
        EXPECT_EQ(fabric->GetNPortsDown(), 1u);
    });
    // While port 1 is down, port 3 too: the only route to 'lonely' is down.
    Simulator::Schedule(MicroSeconds(150), [this]() { fabric->SetPortUp(3, false); });
    Simulator::Schedule(MicroSeconds(150) + NanoSeconds(100), [this, lonely]() {
        EXPECT_EQ(fabric->GetNPortsDown(), 2u);
        for (int i = 0; i < 5; ++i)
        {
            SendUdp(hostDev[0], HostIp(0), lonely, 3000, 200);
        }
    });
    Simulator::Schedule(MicroSeconds(170), [this]() { fabric->SetPortUp(3, true); });
    Simulator::Schedule(MicroSeconds(170) + NanoSeconds(100),
                        [this, lonely]() { SendUdp(hostDev[0], HostIp(0), lonely, 3000, 200); });
    Simulator::Schedule(MicroSeconds(200), [this]() { fabric->SetPortUp(1, true); });
    Simulator::Run();

    // Which flows each port carried, and when.
    auto flows = [](const Sink& s, Time from, Time to) {
        std::set<uint16_t> out;
        for (auto [t, sport] : s.arrivals)
        {
            if (t >= from && t < to)
            {
                out.insert(sport);
            }
        }
        return out;
    };
    auto count = [](const Sink& s, Time from, Time to) {
        uint64_t n = 0;
        for (auto [t, sport] : s.arrivals)
        {
            n += t >= from && t < to;
        }
        return n;
    };
    // A packet sent at round r reaches a next hop about 2 us later (two 1 us cables).
    std::set<uint16_t> before1 = flows(sinks[1], Seconds(0), MicroSeconds(100));
    std::set<uint16_t> before2 = flows(sinks[2], Seconds(0), MicroSeconds(100));
    ASSERT_FALSE(before1.empty());
    ASSERT_FALSE(before2.empty());
    EXPECT_EQ(before1.size() + before2.size(), 16u); // each flow on one port
    // Down: port 1 carries nothing sent after 100 us; port 2 carries all 16 flows.
    EXPECT_EQ(count(sinks[1], MicroSeconds(103), MicroSeconds(201)), 0u);
    EXPECT_EQ(flows(sinks[2], MicroSeconds(103), MicroSeconds(201)).size(), 16u);
    EXPECT_EQ(count(sinks[2], MicroSeconds(103), MicroSeconds(201)), 16u * 98);
    // Up again: each flow is back on its port.
    EXPECT_EQ(flows(sinks[1], MicroSeconds(203), MicroSeconds(400)), before1);
    EXPECT_EQ(flows(sinks[2], MicroSeconds(203), MicroSeconds(400)), before2);
    // Nothing to 'remote' was lost; 'lonely' lost the 5 packets sent while its route was down.
    EXPECT_EQ(sinks[1].packets + sinks[2].packets, 16u * rounds);
    EXPECT_EQ(fabric->GetCounters().drops.Get("route down"), 5u);
    EXPECT_EQ(drops[SwitchDropReason::ROUTE_DOWN], 5u);
    EXPECT_EQ(TotalDrops(), 5u);
    EXPECT_EQ(sinks[3].packets, 1u);
    EXPECT_EQ(
        states,
        (std::vector<std::pair<uint32_t, bool>>{{1, false}, {3, false}, {3, true}, {1, true}}));
    EXPECT_EQ(fabric->GetNPortsDown(), 0u);
    EXPECT_TRUE(fabric->IsPortUp(1));
}

TEST(FabricReasonCounters, NamedReasonsCountedByIdReadByIdOrName)
{
    FabricReasonCounters c{"queue full", "link down"};
    EXPECT_EQ(c.GetN(), 2u);
    c.Count(0);
    c.Count(1, 5);
    c.Count(0);
    EXPECT_EQ(c.Get(0), 2u);
    EXPECT_EQ(c[1], 5u);
    EXPECT_EQ(c.Get("link down"), 5u);
    EXPECT_EQ(c.GetTotal(), 7u);
    EXPECT_EQ(c.Find("queue full"), 0);
    EXPECT_EQ(c.Find("nope"), -1);
    EXPECT_EQ(c.GetName(1), "link down");
    EXPECT_EQ(c.GetMap(), (std::map<std::string, uint64_t>{{"link down", 5}, {"queue full", 2}}));
    uint64_t sum = 0;
    for (uint64_t n : c)
    {
        sum += n;
    }
    EXPECT_EQ(sum, 7u);
    std::ostringstream os;
    os << c;
    EXPECT_EQ(os.str(), "queue full: 2, link down: 5");
    // A copy shares the names; declaring more in one leaves the other as it was.
    FabricReasonCounters d = c;
    EXPECT_EQ(d.AddReason("oversize"), 2u);
    EXPECT_EQ(d.GetN(), 3u);
    EXPECT_EQ(c.GetN(), 2u);
    EXPECT_EQ(c.Find("oversize"), -1);
    d.Reset();
    EXPECT_EQ(d.GetTotal(), 0u);
    EXPECT_EQ(c.GetTotal(), 7u);
    std::ostringstream none;
    none << d;
    EXPECT_EQ(none.str(), "none");
    // The switch's lists: one name per enum value, in order.
    FabricReasonCounters drops = MakeSwitchDropCounters();
    ASSERT_EQ(drops.GetN(), uint32_t(SwitchDropReason::COUNT));
    for (uint32_t r = 0; r < drops.GetN(); ++r)
    {
        EXPECT_EQ(drops.GetName(r), SwitchDropReasonName(SwitchDropReason(r)));
    }
    EXPECT_EQ(MakeSwitchMarkCounters().GetName(1), "trimmed");
    EXPECT_STREQ(SwitchMarkReasonName(SwitchMarkReason::ECN_CE), "ecn ce");
    EXPECT_STREQ(SwitchDropReasonName(SwitchDropReason::COUNT), "unknown");
}

TEST(FabricReasonCountersDeathTest, BadNamesAndIdsAbortNamingThem)
{
    FabricReasonCounters c{"a", "b"};
    EXPECT_DEATH(c.AddReason("a"), "reason \"a\" is declared twice");
    EXPECT_DEATH(c.AddReason(""), "reason 2 has an empty name");
    EXPECT_DEATH(c.Get(2), "reason id 2 out of range \\(0..1\\)");
    EXPECT_DEATH(c.Get("c"), "no reason named \"c\"; declared: \"a\", \"b\"");
}

using SwitchBadInputDeathTest = StarTest;

TEST_F(SwitchBadInputDeathTest, BufferSmallerThanReservedPlusHeadroom)
{
    switchHelper.SetMmuAttribute("BufferSize", UintegerValue(100000));
    EXPECT_DEATH(Build(4), "BufferSize 100000 B is smaller than");
}

TEST_F(SwitchBadInputDeathTest, LosslessPriorityWithoutPfcOnAPort)
{
    hosts.Create(1);
    sw.Create(1);
    PfcHelper pfc;
    pfc.SetDeviceAttribute("PfcEnableMask", UintegerValue(0x01));
    pfc.Install(hosts.Get(0), sw.Get(0));
    EXPECT_DEATH(switchHelper.Install(sw.Get(0)), "priority 3 is lossless in the MMU but port 0");
}

TEST_F(SwitchBadInputDeathTest, RoutesNamingBadPortsOrMissing)
{
    Build(2);
    auto table = fabric->GetForwardingTable();
    EXPECT_DEATH(table->SetRoute(HostIp(5), {7}), "names port 7 but the switch has ports 0..1");
    EXPECT_DEATH(table->SetRoute(HostIp(5), {1, 1}), "lists port 1 twice");
    EXPECT_DEATH(table->CheckComplete({HostIp(0), HostIp(1), Ipv4Address("10.0.0.9")}),
                 "no route to destination 10.0.0.9");
    EXPECT_DEATH(switchHelper.Install(hosts.Get(0), NetDeviceContainer()), "has no PfcNetDevice");
}

TEST_F(SwitchBadInputDeathTest, TrimSettingsAndPortIndicesOutOfRange)
{
    auto mmu = CreateObject<SharedBufferMmu>();
    EXPECT_DEATH(mmu->SetAttribute("TrimSize", UintegerValue(27)),
                 "TrimSize 27 B is invalid; valid range is 28..65535");
    EXPECT_DEATH(mmu->SetAttribute("TrimDscp", UintegerValue(64)),
                 "TrimDscp 64 is invalid; valid range is 0..63");
    EXPECT_DEATH(mmu->SetAttribute("TrimPriority", UintegerValue(8)),
                 "TrimPriority 8 is invalid; valid range is 0..7");
    Build(2);
    EXPECT_DEATH(fabric->SetPortUp(2, false), "port 2 out of range \\(0..1, 2 ports\\)");
    EXPECT_DEATH(fabric->IsPortUp(7), "port 7 out of range");
    EXPECT_DEATH(fabric->SetEntropyParser(0, &UdpSourcePortEntropyParser), "UDP port 0 is invalid");
}

TEST(SwitchForwardingTable, DenseLookupAndDedup)
{
    auto t = CreateObject<SwitchForwardingTable>();
    t->SetNPorts(8);
    for (uint32_t i = 0; i < 1000; ++i)
    {
        t->SetRoute(Ipv4Address(0x0a000000 + 1000 - i),
                    i % 2 ? std::vector<uint32_t>{4, 5, 6, 7} : std::vector<uint32_t>{i % 4});
    }
    EXPECT_EQ(t->GetNRoutes(), 1000u);
    EXPECT_EQ(t->GetRoute(Ipv4Address(0x0a000000 + 1000)), (std::vector<uint32_t>{0}));
    EXPECT_EQ(t->GetRoute(Ipv4Address(0x0a000000 + 999)), (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_TRUE(t->GetRoute(Ipv4Address(0x0a000000)).empty());
    t->AddRoute(Ipv4Address(0x0a000000 + 1000), 3);
    EXPECT_EQ(t->GetRoute(Ipv4Address(0x0a000000 + 1000)), (std::vector<uint32_t>{0, 3}));
    // 1000 entries x 8 B + a few distinct sets.
    EXPECT_LT(t->GetMemoryBytes(), 1000u * 8 + 1024);
}

} // namespace
