/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: libFuzzer harness of the Ultra Ethernet transport's receive path: any bytes in the
 * UDP payload of an IPv4/UDP 4793 packet reaching a UetNic, with operations in flight so PDCs,
 * RUDI flows and SES reassembly exist on both sides.
 */
#include "fuzz-util.h"

#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Inputs between two rebuilds of the simulation (bounds the state forged packets leave).
constexpr uint32_t RESET_EVERY = 1000;
/// General PDCIDs per FEP: small, so pool exhaustion (NO_PDC_AVAIL) is reachable.
constexpr uint32_t POOL = 6;
/// Reserved PDCIDs per FEP.
constexpr uint32_t RESERVED = 2;
/// The JobID of the endpoints (each host has {JobID 7, PIDonFEP 0} with 4 resources).
constexpr uint32_t JOB = 7;
/// The memory key every endpoint registers.
constexpr uint64_t KEY = 0xabc;
/// Bytes of header in front of the fuzzed UDP payload: IPv4 (20) + UDP (8).
constexpr uint32_t IP_UDP = 28;
/// The address of a host that is not in the simulation (a source no PDC knows).
const Ipv4Address STRANGER("10.0.0.99");

/// UET_NIC_RX_FUZZ_VERBOSE set: print what each input did (to read a reproduced input).
const bool g_verbose = std::getenv("UET_NIC_RX_FUZZ_VERBOSE") != nullptr;

/// \return the address of host \p i
Ipv4Address
HostIp(uint32_t i)
{
    return Ipv4Address(0x0a000001 + i);
}

/**
 * \brief The first input byte: how the packet is delivered and what happens afterwards.
 *
 * bit 0: the NIC that receives (host 0 or host 1; the source is the other host);
 * bits 1-2: the receive path: 0 a unicast frame into the port (PfcNetDevice::Receive,
 * FabricNic::ReceiveFrame), 1 a broadcast frame (FabricNic::Receive, whose header copy is
 * exactly as long as the packet's first bytes), 2 UetNic::Deliver with the fewest bytes the
 * FabricNicTransport contract allows (GetRxHeaderBytes()), 3 UetNic::Deliver with every header
 * byte the packet has (each in a buffer of exactly that size, so AddressSanitizer sees any
 * read beyond); bit 3: the 32-bit PSN field (PDS octets 4-7) is relative to the PDC the
 * packet names (its receive window's next PSN for requests and control packets, Start_PSN
 * for a SYN, its send window's oldest unacknowledged PSN for ACKs and NACKs), so the fuzzer
 * reaches in-window PSNs of randomly started PDCs; bit 4: IPv4 ECN CE; bit 5: the source is
 * a host outside the simulation; bits 6-7: the simulation then runs 0, 1, 5 or 60 us (timers:
 * ACK delay, RTO, idle close, New_PDC_Time, Close_REQ_Time).
 *
 * The second byte: bits 0-6 append that many x 128 zero bytes of payload after the fuzzed
 * bytes (long messages without long inputs); bit 7 cuts the receiving NIC's cable while the
 * simulation runs afterwards (the frames sent meanwhile are lost: RTOs, retry limits, RUDI
 * give-ups, half-open PDCs).
 */
struct Control
{
    uint32_t nic{0};      //!< receiving NIC
    uint32_t path{0};     //!< receive path
    bool relative{false}; //!< PSN relative to the named PDC
    bool ce{false};       //!< CE mark
    bool stranger{false}; //!< unknown source
    Time run;             //!< how long the simulation runs afterwards
    uint32_t padding{0};  //!< zero bytes after the fuzzed ones
    bool cut{false};      //!< the receiving NIC's cable is down during the run
};

/// The simulation: two hosts with a UetNic each through a switch.
class Sim
{
  public:
    Sim()
    {
        Build();
    }

    ~Sim()
    {
        Teardown();
    }

    Sim(const Sim&) = delete;
    Sim& operator=(const Sim&) = delete;

    /// Apply one input and check the invariants.
    void OneInput(const uint8_t* data, size_t size);

  private:
    /// Build the simulation and start the first operations (PDCs open at both NICs).
    void Build();
    /// Destroy the simulation (Simulator::Destroy disposes every node and NIC).
    void Teardown();
    /// Keep operations in flight from both hosts (re-posted when all completed).
    void Feed(uint32_t i);
    /// Deliver the packet (an event in the receiving node's context).
    void Inject(const Control& c, std::vector<uint8_t> udp);
    /// Check every invariant at every NIC.
    void Check(const char* when) const;
    /// Make the PSN field of \p pds relative to the PDC it names at NIC \p nic.
    void RelocatePsn(uint32_t nic, uint8_t* pds, size_t n) const;

    NodeContainer m_hosts;                  //!< the two hosts
    NodeContainer m_sw;                     //!< the switch
    std::vector<Ptr<PfcNetDevice>> m_ports; //!< each host's port
    std::vector<Ptr<UetNic>> m_nics;        //!< each host's NIC
    std::vector<Ptr<UetEndpoint>> m_eps;    //!< each host's endpoint
    uint32_t m_inputs{0};                   //!< inputs since the last Build()
    Time m_lastNow;                         //!< simulation time after the last input
};

void
Sim::Build()
{
    Config::Reset();
    // ai-fabric's engine (its event queues are model code too), as the sanitizer stage runs.
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabricSimulatorImpl"));
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    m_hosts.Create(2);
    m_sw.Create(1);
    PfcHelper pfc;
    pfc.SetDeviceAttribute("DataRate", StringValue("400Gbps"));
    pfc.SetChannelAttribute("Delay", TimeValue(NanoSeconds(500)));
    SwitchHelper switchHelper;
    UetNicHelper nicHelper;
    nicHelper.SetNicAttribute("Mtu", UintegerValue(1024));
    nicHelper.SetNicAttribute("PdcPoolSize", UintegerValue(POOL));
    nicHelper.SetNicAttribute("ReservedPdcs", UintegerValue(RESERVED));
    nicHelper.SetNicAttribute("MpRange", UintegerValue(64));
    nicHelper.SetNicAttribute("RtoMin", TimeValue(MicroSeconds(10)));
    nicHelper.SetNicAttribute("RtoMax", TimeValue(MicroSeconds(40)));
    nicHelper.SetNicAttribute("RetryLimit", UintegerValue(3));
    nicHelper.SetNicAttribute("PdcIdleTime", TimeValue(MicroSeconds(20)));
    nicHelper.SetNicAttribute("NewPdcTime", TimeValue(MicroSeconds(50)));
    nicHelper.SetNicAttribute("CloseReqTime", TimeValue(MicroSeconds(50)));
    nicHelper.SetNicAttribute("UudReassemblyLimit", UintegerValue(4));
    for (uint32_t i = 0; i < 2; ++i)
    {
        NetDeviceContainer d = pfc.Install(m_hosts.Get(i), m_sw.Get(0));
        m_ports.push_back(DynamicCast<PfcNetDevice>(d.Get(0)));
    }
    Ptr<FabricSwitch> fabric = switchHelper.Install(m_sw.Get(0));
    for (uint32_t i = 0; i < 2; ++i)
    {
        fabric->GetForwardingTable()->SetRoute(HostIp(i), {i});
        m_nics.push_back(nicHelper.Install(m_hosts.Get(i), m_ports[i], HostIp(i)));
        Ptr<UetEndpoint> ep = m_nics[i]->CreateEndpoint(JOB, 0, 0, 4);
        ep->SetAttribute("UnexpectedLimit", UintegerValue(8));
        ep->RegisterMemory(KEY, 1 << 20);
        m_eps.push_back(ep);
    }
    nicHelper.AssignStreams(11);
    fabric->AssignStreams(12);
    if (g_verbose)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            m_nics[i]->TraceConnectWithoutContext(
                "Nack",
                MakeBoundCallback(
                    +[](uint32_t n, uint16_t pdc, uint32_t psn, uint8_t code, bool rx) {
                        std::fprintf(stderr,
                                     "  %.3f us NIC %u %s NACK %s PDC %u PSN %u\n",
                                     Simulator::Now().GetSeconds() * 1e6,
                                     n,
                                     rx ? "received" : "sent",
                                     UetPdsHeader::NackCodeName(code),
                                     pdc,
                                     psn);
                    },
                    i));
            m_nics[i]->TraceConnectWithoutContext(
                "PdcClose",
                MakeBoundCallback(
                    +[](uint32_t n,
                        uint32_t,
                        uint16_t pdc,
                        Ipv4Address,
                        bool error,
                        const std::string& why) {
                        std::fprintf(stderr,
                                     "  %.3f us NIC %u PDC %u closed%s: %s\n",
                                     Simulator::Now().GetSeconds() * 1e6,
                                     n,
                                     pdc,
                                     error ? " in error" : "",
                                     why.c_str());
                    },
                    i));
            m_nics[i]->TraceConnectWithoutContext(
                "PdcOpen",
                MakeBoundCallback(
                    +[](uint32_t n, uint32_t, uint16_t pdc, Ipv4Address, bool ini) {
                        std::fprintf(stderr,
                                     "  %.3f us NIC %u PDC %u opened (%s)\n",
                                     Simulator::Now().GetSeconds() * 1e6,
                                     n,
                                     pdc,
                                     ini ? "initiator" : "target");
                    },
                    i));
            m_nics[i]->TraceConnectWithoutContext(
                "Retransmit",
                MakeBoundCallback(
                    +[](uint32_t n, uint16_t pdc, uint32_t psn, const std::string& c) {
                        std::fprintf(stderr,
                                     "  %.3f us NIC %u PDC %u resends PSN %u (%s)\n",
                                     Simulator::Now().GetSeconds() * 1e6,
                                     n,
                                     pdc,
                                     psn,
                                     c.c_str());
                    },
                    i));
        }
    }
    Feed(0);
    Feed(1);
    // Let the first SYNs arrive: PDCs are open on both sides, the operations in flight.
    Simulator::Stop(NanoSeconds(1500));
    Simulator::Run();
    m_lastNow = Simulator::Now();
    m_inputs = 0;
}

void
Sim::Teardown()
{
    Simulator::Destroy(); // disposes the nodes, their NICs and endpoints
    m_eps.clear();
    m_nics.clear();
    m_ports.clear();
    m_hosts = NodeContainer();
    m_sw = NodeContainer();
}

void
Sim::Feed(uint32_t i)
{
    if (m_nics[i]->GetPendingOperations() > 0)
    {
        return;
    }
    UetAddress peer = m_eps[1 - i]->GetAddress();
    UetCompletionCallback none;
    // A multi-packet WRITE and a READ on one PDC (RUD from host 0, ROD from host 1), a SEND
    // matched by a posted receive, and a RUDI WRITE (a PDC-less flow).
    UetDeliveryMode mode = i == 0 ? UetDeliveryMode::RUD : UetDeliveryMode::ROD;
    m_eps[i]->PostWrite(peer, KEY, 0, 8 * 1024, none, mode);
    m_eps[i]->PostRead(peer, KEY, 4096, 3000, none, mode);
    if (m_eps[1 - i]->GetNPostedReceives() < 4)
    {
        m_eps[1 - i]->PostReceive(0, 4096, UetDeliveryCallback());
    }
    m_eps[i]->PostSend(peer, 2000, none, mode);
    m_eps[i]->PostWrite(peer, KEY, 0, 3000, none, UetDeliveryMode::RUDI);
}

void
Sim::RelocatePsn(uint32_t nic, uint8_t* pds, size_t n) const
{
    if (n < 8)
    {
        return;
    }
    uint8_t type = UetPdsHeader::PeekType(pds);
    uint8_t flags = UetPdsHeader::PeekFlags(pds);
    bool request = UetPdsRequestHeader::IsRequestType(type) || type == UetPdsHeader::CTRL;
    bool ack = UetPdsAckHeader::IsAckType(type) || type == UetPdsHeader::NACK;
    if ((!request && !ack) || n < 12)
    {
        return; // RUDI / UUD packet ids start at 0: nothing to relocate
    }
    uint16_t spdcid = wire::GetU16(pds + 8);
    uint16_t dpdcid = wire::GetU16(pds + 10);
    uint32_t base = 0;
    bool found = false;
    if (request && (flags & UetPdsHeader::FLAG_SYN))
    {
        // A SYN names its initiator PDC (SPDCID): a target PDC that already serves it, else the
        // initiator PDC at the other NIC with that id (a SYN it could have sent).
        for (uint32_t id = 1; id <= POOL + RESERVED && !found; ++id)
        {
            const UetPdc* p = m_nics[nic]->GetPdc(0, id);
            if (p && p->GetState() != UetPdc::CLOSED && p->GetRole() == UetPdc::TARGET &&
                p->GetPeerId() == spdcid)
            {
                base = p->GetStartPsn();
                found = true;
            }
        }
        const UetPdc* p = m_nics[1 - nic]->GetPdc(0, spdcid);
        if (!found && p && p->GetState() != UetPdc::CLOSED)
        {
            base = p->GetStartPsn();
            found = true;
        }
    }
    else
    {
        const UetPdc* p = m_nics[nic]->GetPdc(0, dpdcid);
        if (p && p->GetState() != UetPdc::CLOSED)
        {
            base =
                request ? p->GetReceiveWindow().GetSackBase() : p->GetSendWindow().GetUnackedPsn();
            found = true;
        }
    }
    if (found)
    {
        wire::PutU32(pds + 4, wire::GetU32(pds + 4) + base);
    }
}

void
Sim::Inject(const Control& c, std::vector<uint8_t> udp)
{
    Ptr<UetNic> nic = m_nics[c.nic];
    Ptr<FabricNic> core = nic->GetCore();
    if (c.relative)
    {
        RelocatePsn(c.nic, udp.data(), udp.size());
    }
    const uint32_t size = IP_UDP + static_cast<uint32_t>(udp.size()) + c.padding;
    std::vector<uint8_t> ip(IP_UDP + udp.size());
    ip[0] = 0x45;
    ip[1] = static_cast<uint8_t>((26 << 2) | (c.ce ? 0x03 : 0x02));
    wire::PutU16(ip.data() + 2, static_cast<uint16_t>(size));
    wire::PutU16(ip.data() + 6, 0x4000);
    ip[8] = 64;
    ip[9] = 17;
    wire::PutU32(ip.data() + 12, (c.stranger ? STRANGER : HostIp(1 - c.nic)).Get());
    wire::PutU32(ip.data() + 16, HostIp(c.nic).Get());
    wire::PutU16(ip.data() + 10, wire::Ipv4HeaderChecksum(ip.data(), 20));
    wire::PutU16(ip.data() + 20, 50000);
    wire::PutU16(ip.data() + 22, UetPdsHeader::UDP_DST_PORT);
    wire::PutU16(ip.data() + 24, static_cast<uint16_t>(size - 20));
    if (!udp.empty())
    {
        std::memcpy(ip.data() + IP_UDP, udp.data(), udp.size());
    }

    if (c.path >= 2)
    {
        // As the NIC core hands it over: got is what GetRxHeaderBytes() asks (path 2) or every
        // header byte there is (path 3), never more than the packet has; exactly that many
        // bytes are allocated.
        const uint32_t have = static_cast<uint32_t>(ip.size());
        uint32_t got = std::min(have, nic->GetMaxRxHeaderBytes());
        if (c.path == 2)
        {
            got = std::min(got, nic->GetRxHeaderBytes(ip.data(), got));
        }
        std::unique_ptr<uint8_t[]> exact(new uint8_t[got]);
        std::memcpy(exact.get(), ip.data(), got);
        FabricNicDropReason reason = FabricNicDropReason::COUNT;
        bool delivered = nic->Deliver(0, exact.get(), got, size, reason);
        if (g_verbose)
        {
            std::fprintf(stderr,
                         "  UetNic::Deliver(got %u, size %u): %s\n",
                         got,
                         size,
                         delivered ? "delivered" : FabricNicDropReasonName(reason));
        }
        FUZZ_CHECK(delivered || reason < FabricNicDropReason::COUNT,
                   "Deliver refused a packet without saying why");
        return;
    }

    // A whole Ethernet frame into the port, as from its cable.
    std::vector<uint8_t> frame(14);
    uint8_t mac[6];
    Mac48Address::ConvertFrom(m_ports[c.nic]->GetAddress()).CopyTo(mac);
    if (c.path == 1)
    {
        std::memset(mac, 0xff, 6);
    }
    std::memcpy(frame.data(), mac, 6);
    const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0x63};
    std::memcpy(frame.data() + 6, src, 6);
    wire::PutU16(frame.data() + 12, 0x0800);
    frame.insert(frame.end(), ip.begin(), ip.end());
    frame.resize(frame.size() + c.padding, 0);
    frame.resize(std::max<size_t>(frame.size() + 4, 64), 0); // FCS, minimum frame
    Ptr<Packet> p = Create<Packet>(frame.data(), static_cast<uint32_t>(frame.size()));
    const auto dropsBefore = core->GetDrops();
    const uint64_t deliveredBefore = core->GetDeliveredFrames();
    uint64_t before = deliveredBefore;
    for (uint64_t d : dropsBefore)
    {
        before += d;
    }
    FabricFrame f(p);
    m_ports[c.nic]->Receive(f);
    uint64_t after = core->GetDeliveredFrames();
    for (uint64_t d : core->GetDrops())
    {
        after += d;
    }
    if (g_verbose)
    {
        const auto& drops = core->GetDrops();
        std::string what = core->GetDeliveredFrames() > deliveredBefore ? "delivered" : "";
        for (size_t r = 0; r < drops.size(); ++r)
        {
            if (drops[r] > dropsBefore[r])
            {
                what += FabricNicDropReasonName(FabricNicDropReason(r));
            }
        }
        std::fprintf(stderr, "  frame of %zu bytes: %s\n", frame.size(), what.c_str());
    }
    // Every packet the core receives is delivered or dropped with a reason, exactly once.
    FUZZ_CHECK(after == before + 1,
               "the NIC core accounted " << after - before << " outcomes for one packet");
}

void
Sim::Check(const char* when) const
{
    for (uint32_t i = 0; i < m_nics.size(); ++i)
    {
        const Ptr<UetNic>& nic = m_nics[i];
        const UetNicCounters& c = nic->GetCounters();
        FUZZ_CHECK(c.bytesPosted == c.bytesCompleted + c.bytesFailed + nic->GetPendingBytes(),
                   when << ": NIC " << i << " bytes posted " << c.bytesPosted << " != completed "
                        << c.bytesCompleted << " + failed " << c.bytesFailed << " + pending "
                        << nic->GetPendingBytes());
        FUZZ_CHECK(c.opsPosted == c.opsCompleted + c.opsFailed + nic->GetPendingOperations(),
                   when << ": NIC " << i << " operations posted " << c.opsPosted << " != completed "
                        << c.opsCompleted << " + failed " << c.opsFailed << " + pending "
                        << nic->GetPendingOperations());
        FUZZ_CHECK(nic->GetNOpenPdcs() <= POOL + RESERVED,
                   when << ": NIC " << i << " has " << nic->GetNOpenPdcs()
                        << " open PDCs, more than its pool of " << POOL + RESERVED);
        uint32_t open = 0;
        for (uint32_t id = 1; id <= POOL + RESERVED + 1; ++id)
        {
            const UetPdc* p = nic->GetPdc(0, id);
            if (!p || p->GetState() == UetPdc::CLOSED)
            {
                continue;
            }
            FUZZ_CHECK(id <= POOL + RESERVED, when << ": NIC " << i << " PDCID " << id);
            ++open;
            FUZZ_CHECK(p->GetSendWindow().GetOutstanding() <= nic->GetMpRange(),
                       when << ": " << p->GetLabel() << " has "
                            << p->GetSendWindow().GetOutstanding() << " PSNs outstanding");
        }
        FUZZ_CHECK(open == nic->GetNOpenPdcs(),
                   when << ": NIC " << i << " counts " << nic->GetNOpenPdcs() << " open PDCs, but "
                        << open << " are not closed");
        FUZZ_CHECK(m_eps[i]->GetNUnexpected() <= 8,
                   when << ": NIC " << i << " endpoint keeps " << m_eps[i]->GetNUnexpected()
                        << " unexpected messages, above its UnexpectedLimit 8");
    }
}

void
Sim::OneInput(const uint8_t* data, size_t size)
{
    if (++m_inputs > RESET_EVERY)
    {
        Teardown();
        Build();
        m_inputs = 1;
    }
    if (size < 2)
    {
        return;
    }
    Control c;
    c.nic = data[0] & 1;
    c.path = (data[0] >> 1) & 3;
    c.relative = (data[0] >> 3) & 1;
    c.ce = (data[0] >> 4) & 1;
    c.stranger = (data[0] >> 5) & 1;
    static const Time runs[] = {Time(0), MicroSeconds(1), MicroSeconds(5), MicroSeconds(60)};
    c.run = runs[data[0] >> 6];
    c.padding = uint32_t(data[1] & 0x7F) * 128;
    c.cut = (data[1] >> 7) & 1;
    // The UDP payload; an IPv4 packet is at most 65535 bytes.
    size_t n = std::min<size_t>(size - 2, 65535 - IP_UDP - c.padding);
    std::vector<uint8_t> udp(data + 2, data + 2 + n);

    Simulator::ScheduleWithContext(m_hosts.Get(c.nic)->GetId(), Time(0), [this, c, udp]() {
        Inject(c, udp);
    });
    if (g_verbose)
    {
        std::fprintf(stderr,
                     "input %u at %.3f us: NIC %u path %u%s%s%s, %zu bytes + %u, run %.0f us%s\n",
                     m_inputs,
                     Simulator::Now().GetSeconds() * 1e6,
                     c.nic,
                     c.path,
                     c.relative ? " relative" : "",
                     c.ce ? " CE" : "",
                     c.stranger ? " stranger" : "",
                     udp.size(),
                     c.padding,
                     c.run.GetSeconds() * 1e6,
                     c.cut ? " (cable cut)" : "");
    }
    Ptr<PfcChannel> cable = m_ports[c.nic]->GetPfcChannel();
    cable->SetLinkUp(!c.cut);
    Simulator::Stop(c.run);
    Simulator::Run();
    cable->SetLinkUp(true);
    if (g_verbose)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            std::ostringstream os;
            os << "  NIC " << i << ": " << m_nics[i]->GetPendingOperations() << " pending, "
               << m_nics[i]->GetNOpenPdcs() << " open PDCs";
            for (uint32_t id = 1; id <= POOL + RESERVED; ++id)
            {
                const UetPdc* p = m_nics[i]->GetPdc(0, id);
                if (p && p->GetState() != UetPdc::CLOSED)
                {
                    os << "\n    ";
                    p->Describe(os);
                }
            }
            std::fprintf(stderr, "%s\n", os.str().c_str());
        }
    }
    FUZZ_CHECK(Simulator::Now() >= m_lastNow,
               "time went back from " << m_lastNow.As(Time::NS) << " to "
                                      << Simulator::Now().As(Time::NS));
    m_lastNow = Simulator::Now();
    Check("after the packet");
    Feed(0);
    Feed(1);
    Check("after new operations");
}

} // namespace

/**
 * \brief One received UET packet: the first two bytes say how it is delivered (Control), the
 *        rest is the UDP payload (PDS header, SES header, payload) of an IPv4/UDP 4793 packet
 *        to one NIC's port from the other host. The simulation (two hosts through a switch,
 *        operations kept in flight both ways over RUD, ROD and RUDI; small PDC pools and
 *        timers) persists across inputs and is rebuilt every RESET_EVERY inputs, so a failure
 *        may depend on the inputs before it: replaying the saved input alone (it runs on a
 *        fresh simulation) does not always reproduce it; UET_NIC_RX_FUZZ_VERBOSE=1 shows
 *        what led to it, and each fix gets a deterministic test in uet-nic-test.
 *
 * Properties: no crash, no sanitizer report, no abort (a model NS_ABORT is a crash too); every
 * packet given to the NIC core is delivered or dropped with a reason, exactly once; a packet
 * UetNic::Deliver refuses names a drop reason; at every NIC, bytes and operations posted =
 * completed + failed + pending; open PDCs never exceed the pool and equal the PDCs not
 * closed; no PDC has more than MP_RANGE PSNs outstanding; the unexpected-message list keeps
 * its limit; simulation time never goes back.
 * \param data the input
 * \param size its length
 * \return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static Sim* sim = new Sim();
    sim->OneInput(data, size);
    return 0;
}
