/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-switch.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ecmp-load-balancer.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSwitch");
NS_OBJECT_ENSURE_REGISTERED(FabricSwitch);

namespace
{
/// Ethernet header + FCS, charged to the buffer with each packet.
constexpr uint32_t FRAME_OVERHEAD = PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::FCS_BYTES;
} // namespace

TypeId
FabricSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSwitch")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricSwitch>()
            .AddAttribute("ProcessingDelay",
                          "Time from a packet's arrival to its enqueue on the egress port "
                          "(>= 0; store-and-forward, excludes serialization).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FabricSwitch::m_processingDelay),
                          MakeFabricTimeChecker("ns3::FabricSwitch::ProcessingDelay", Time(0)))
            .AddAttribute("DecrementTtl",
                          "Decrement the IPv4 TTL at each hop (drop at 0) like an L3 switch.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricSwitch::m_decrementTtl),
                          MakeBooleanChecker())
            .AddAttribute(
                "InBandTelemetry",
                "Append an in-band telemetry hop (HPCC; for RoCEv2 the RoceInt stack, "
                "by the writer registered for the frame's UDP port) to the frames "
                "that ask for it. The topology helpers turn it off on NVSwitches: NVLink is "
                "not an Ethernet hop and carries no INT, so HPCC sees the scale-out "
                "switches only (and NVLink rates need no INT rate code).",
                BooleanValue(true),
                MakeBooleanAccessor(&FabricSwitch::m_inBandTelemetry),
                MakeBooleanChecker())
            .AddAttribute("Mmu",
                          "The shared-buffer MMU.",
                          PointerValue(),
                          MakePointerAccessor(&FabricSwitch::m_mmu),
                          MakePointerChecker<SharedBufferMmu>())
            .AddAttribute("EcnMarker",
                          "The egress WRED ECN marker.",
                          PointerValue(),
                          MakePointerAccessor(&FabricSwitch::m_ecn),
                          MakePointerChecker<WredEcnMarker>())
            .AddAttribute("LoadBalancer",
                          "The egress port choice among equal-cost ports.",
                          PointerValue(),
                          MakePointerAccessor(&FabricSwitch::m_lb),
                          MakePointerChecker<SwitchLoadBalancer>())
            .AddTraceSource(
                "Drop",
                "A packet was dropped: packet (IPv4, without Ethernet framing), ingress port, "
                "reason.",
                MakeTraceSourceAccessor(&FabricSwitch::m_dropTrace),
                "ns3::FabricSwitch::DropTracedCallback")
            .AddTraceSource("EcnMark",
                            "A packet was marked CE: egress port, priority, queue bytes.",
                            MakeTraceSourceAccessor(&FabricSwitch::m_ecnMarkTrace),
                            "ns3::FabricSwitch::EcnMarkTracedCallback")
            .AddTraceSource("PfcXoff",
                            "The MMU sent XOFF (true) or XON (false) for an ingress (port, "
                            "priority).",
                            MakeTraceSourceAccessor(&FabricSwitch::m_xoffTrace),
                            "ns3::FabricSwitch::XoffTracedCallback")
            .AddTraceSource("Mark",
                            "A forwarded packet was changed: egress port, priority it is queued "
                            "on, reason (\"ecn ce\", \"trimmed\", \"trimmed last hop\").",
                            MakeTraceSourceAccessor(&FabricSwitch::m_markTrace),
                            "ns3::FabricSwitch::MarkTracedCallback")
            .AddTraceSource("PortState",
                            "A port became usable (true) or unusable (false) for forwarding.",
                            MakeTraceSourceAccessor(&FabricSwitch::m_portStateTrace),
                            "ns3::FabricSwitch::PortStateTracedCallback");
    return tid;
}

FabricSwitch::FabricSwitch()
    : m_processingDelay(0),
      m_decrementTtl(true),
      m_inBandTelemetry(true),
      m_configured(false),
      m_markOnDequeue(false),
      m_portsDown(0)
{
    m_table = CreateObject<SwitchForwardingTable>();
}

FabricSwitch::~FabricSwitch() = default;

void
FabricSwitch::DoDispose()
{
    for (auto& port : m_ports)
    {
        port->SetPfcReceiveCallback(PfcNetDevice::PfcReceiveCallback());
        port->SetPortOwner(nullptr, 0);
    }
    m_ports.clear();
    m_mmu = nullptr;
    m_ecn = nullptr;
    m_lb = nullptr;
    m_table = nullptr;
    m_engine.Reset();
    Object::DoDispose();
}

uint32_t
FabricSwitch::AddPort(Ptr<PfcNetDevice> port)
{
    NS_ABORT_MSG_IF(m_configured, "FabricSwitch::AddPort after Configure()");
    NS_ABORT_MSG_IF(!port, "FabricSwitch::AddPort given a null device");
    m_ports.push_back(port);
    m_portUp.push_back(1);
    return static_cast<uint32_t>(m_ports.size() - 1);
}

void
FabricSwitch::Configure()
{
    NS_ABORT_MSG_IF(m_configured, "FabricSwitch::Configure called twice");
    NS_ABORT_MSG_IF(m_ports.empty(), "FabricSwitch::Configure: the switch has no ports");
    if (!m_mmu)
    {
        m_mmu = CreateObject<SharedBufferMmu>();
    }
    if (!m_ecn)
    {
        m_ecn = CreateObject<WredEcnMarker>();
    }
    if (!m_lb)
    {
        m_lb = CreateObject<EcmpLoadBalancer>();
    }
    uint32_t n = GetNPorts();
    std::vector<DataRate> rates;
    std::vector<Time> delays;
    uint32_t maxFrame = 0;
    m_peerMac.resize(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<PfcNetDevice> port = m_ports[i];
        Ptr<PfcChannel> ch = port->GetPfcChannel();
        NS_ABORT_MSG_IF(!ch || ch->GetNDevices() != 2,
                        "FabricSwitch on node " << port->GetNode()->GetId() << ": port " << i
                                                << " is not connected to a peer");
        Ptr<PfcNetDevice> peer =
            ch->GetPfcDevice(0) == port ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
        m_peerMac[i] = Mac48Address::ConvertFrom(peer->GetAddress());
        rates.push_back(port->GetDataRate());
        delays.push_back(ch->GetDelay());
        maxFrame = std::max<uint32_t>(maxFrame,
                                      port->GetMtu() + FRAME_OVERHEAD + PfcNetDevice::DOT1Q_BYTES);
        for (uint8_t p = 0; p < 8; ++p)
        {
            UintegerValue mask;
            port->GetAttribute("PfcEnableMask", mask);
            NS_ABORT_MSG_IF(m_mmu->IsLossless(p) && !((mask.Get() >> p) & 1u),
                            "FabricSwitch on node "
                                << port->GetNode()->GetId() << ": priority " << unsigned(p)
                                << " is lossless in the MMU but port " << i
                                << " has PFC disabled for it (PfcEnableMask 0x" << std::hex
                                << mask.Get() << std::dec << ")");
        }
        port->SetPfcReceiveCallback(MakeCallback(&FabricSwitch::Receive, this).Bind(i));
        port->SetPortOwner(this, i);
    }
    m_liveScratch.resize(n);
    m_mmu->Configure(rates, delays, maxFrame);
    m_mmu->SetXoffCallback(MakeCallback(&FabricSwitch::OnXoff, this));
    m_ecn->ConfigurePorts(rates, "switch node " + std::to_string(m_ports[0]->GetNode()->GetId()));
    m_markOnDequeue = m_ecn->GetMarkingPoint() == WredEcnMarker::DEQUEUE;
    for (auto& port : m_ports)
    {
        port->SetFrameLeavingHook(m_markOnDequeue);
    }
    m_lb->SetEgressBytesCallback(
        MakeCallback(&SharedBufferMmu::GetEgressPortBytes, PeekPointer(m_mmu)));
    m_lbEgressHook = m_lb->WantsEgressHook();
    m_table->SetNPorts(n);
    m_counters.ecnMarks.assign(n, 0);
    m_counters.xoffSent.assign(n, {});
    m_counters.xonSent.assign(n, {});
    m_configured = true;
}

void
FabricSwitch::Receive(uint32_t inPort,
                      Ptr<PfcNetDevice> dev,
                      Ptr<Packet> packet,
                      uint16_t protocol,
                      Mac48Address from,
                      uint8_t priority)
{
    // IPv4 frames arrive through ReceiveFrame; anything else is not forwarded.
    Drop(packet, inPort, SwitchDropReason::NOT_IPV4);
}

namespace
{
/**
 * \brief Read the flow key from a frame's head (file-local, so that it is inlined into its one
 *        caller).
 * \param frame the frame
 * \param l2Bytes its L2 header length
 * \param[out] key the key
 * \param parsers the switch's entropy parsers
 * \return false if the head does not hold a well-formed IPv4 header and the L4 ports
 */
bool
ParseKey(const FabricFrame& frame,
         uint32_t l2Bytes,
         SwitchFlowKey& key,
         const SwitchEntropyParserTable* parsers)
{
    uint32_t headBytes = frame.GetHeadBytes();
    uint32_t l3Bytes = frame.GetSize() - PfcNetDevice::FCS_BYTES - l2Bytes;
    if (headBytes >= l2Bytes &&
        SwitchFlowKey::Parse(frame.GetHead() + l2Bytes, headBytes - l2Bytes, key, parsers) &&
        (headBytes - l2Bytes >= key.headerBytes + SwitchFlowKey::PARSE_BYTES - 20u ||
         headBytes - l2Bytes >= l3Bytes))
    {
        return true; // the head held every field the key reads
    }
    // A head too short for the IPv4 options, UDP ports and entropy: read them from the frame.
    uint8_t b[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES +
              SwitchFlowKey::PARSE_BYTES + 40];
    uint32_t got = frame.CopyData(b, std::min<uint32_t>(sizeof(b), l2Bytes + l3Bytes));
    key = SwitchFlowKey();
    return got >= l2Bytes && SwitchFlowKey::Parse(b + l2Bytes, got - l2Bytes, key, parsers);
}
} // namespace

void
FabricSwitch::ReceiveFrame(uint32_t inPort,
                           PfcNetDevice* dev,
                           FabricFrame& frame,
                           uint32_t l2Bytes,
                           uint8_t priority)
{
    // The fields are read from the frame's head; the packet is not touched unless the head is
    // too short for them (IPv4 options).
    SwitchFlowKey key;
    if (!ParseKey(frame, l2Bytes, key, &m_parsers))
    {
        DropFrame(frame, l2Bytes, inPort, priority, SwitchDropReason::MALFORMED);
        return;
    }
    key.priority = priority;
    key.ingressPort = inPort;
    if (m_decrementTtl && key.ttl <= 1)
    {
        DropFrame(frame, l2Bytes, inPort, priority, SwitchDropReason::TTL_EXPIRED);
        return;
    }
    const uint32_t* ports = nullptr;
    uint32_t nPorts = 0;
    if (!m_table->Lookup(key.dstIp, ports, nPorts))
    {
        DropFrame(frame, l2Bytes, inPort, priority, SwitchDropReason::NO_ROUTE);
        return;
    }
    if (m_portsDown != 0 && !KeepLivePorts(ports, nPorts))
    {
        DropFrame(frame, l2Bytes, inPort, priority, SwitchDropReason::ROUTE_DOWN);
        return;
    }
    uint32_t outPort = nPorts == 1 ? ports[0] : m_lb->Select(key, ports, nPorts, m_engine.Now());
    // A simplified header model (FabricFrame::SetSizeDiscount) charges the frame less.
    const uint32_t discount = frame.GetSizeDiscount();
    uint32_t bytes = discount == 0 ? key.totalLength + FRAME_OVERHEAD : frame.GetChargedSize();
    MmuVerdict verdict = m_mmu->Admit(inPort, priority, outPort, bytes);
    if (!verdict.IsAccept())
    {
        SwitchDropReason reason = verdict.reason;
        if (verdict.action != MmuVerdict::TRIM ||
            !Trim(frame, l2Bytes, key, verdict, outPort, bytes, reason))
        {
            DropFrame(frame, l2Bytes, inPort, priority, reason);
            return;
        }
    }
    if (m_processingDelay.IsZero())
    {
        Egress(outPort, frame, l2Bytes, key, bytes);
    }
    else
    {
        // The event keeps the frame as a packet (with its headers written into it).
        Simulator::Schedule(m_processingDelay,
                            &FabricSwitch::EgressPacket,
                            this,
                            outPort,
                            frame.GetPacket(),
                            l2Bytes,
                            key,
                            bytes,
                            frame.GetSizeDiscount());
    }
}

void
FabricSwitch::EgressPacket(uint32_t outPort,
                           Ptr<Packet> packet,
                           uint32_t l2Bytes,
                           SwitchFlowKey key,
                           uint32_t bytes,
                           uint32_t discount)
{
    FabricFrame frame(packet); // shares the packet with the event, which is done with it
    frame.LoadHead(PfcNetDevice::RX_PEEK_BYTES);
    frame.SetSizeDiscount(discount);
    Egress(outPort, frame, l2Bytes, key, bytes);
}

void
FabricSwitch::Egress(uint32_t outPort,
                     FabricFrame& frame,
                     uint32_t l2Bytes,
                     const SwitchFlowKey& key,
                     uint32_t bytes)
{
    uint8_t prio = key.priority;
    bool mark = false;
    if (!m_markOnDequeue)
    {
        uint64_t queued = m_mmu->GetEgressBytes(outPort, prio);
        mark = m_ecn->ShouldMark(outPort, prio, key.ecn, queued);
        if (mark)
        {
            CountEcnMark(outPort, prio, queued);
        }
    }
    // Routed hop: new Ethernet header (this port -> next hop) and, when TTL or ECN change,
    // the IPv4 header with its checksum, rewritten in the frame's head (ForwardFrame).
    uint8_t b[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES + 60];
    const uint8_t* l3Head = b + l2Bytes;
    uint32_t l3Bytes = 0;
    if (m_decrementTtl || mark || m_lbEgressHook)
    {
        uint8_t* ip = frame.MutableHead(l2Bytes + key.headerBytes);
        if (ip)
        {
            ip += l2Bytes; // in place: ForwardFrame then replaces the L2 header only
        }
        else
        {
            // The head is too short for the IPv4 options: copy, rewrite and replace them.
            frame.CopyData(b, l2Bytes + key.headerBytes);
            ip = b + l2Bytes;
            l3Bytes = key.headerBytes;
        }
        uint16_t tosWord = wire::GetU16(ip);     // version/IHL, DSCP/ECN
        uint16_t idWord = wire::GetU16(ip + 4);  // identification (a balancer's fields)
        uint16_t ttlWord = wire::GetU16(ip + 8); // TTL, protocol
        if (m_decrementTtl)
        {
            ip[8]--;
        }
        if (mark)
        {
            ip[1] |= 0x03;
        }
        if (m_lbEgressHook)
        {
            m_lb->OnEgress(ip, key, outPort, bytes, m_engine.Now());
        }
        uint16_t checksum = wire::GetU16(ip + 10);
        if (checksum != 0) // a zero checksum (not computed) stays zero
        {
            // Incremental update (RFC 1624) of the words that may change.
            checksum = wire::UpdateChecksum(checksum, tosWord, wire::GetU16(ip));
            checksum = wire::UpdateChecksum(checksum, ttlWord, wire::GetU16(ip + 8));
            if (m_lbEgressHook)
            {
                checksum = wire::UpdateChecksum(checksum, idWord, wire::GetU16(ip + 4));
            }
            wire::PutU16(ip + 10, checksum);
        }
    }
    // In-band telemetry: only frames whose IPv4 reserved flag asks for it (one byte test; the
    // head holds at least the IPv4 header, which the flow key was parsed from), written by
    // the transport's writer for the frame's UDP destination port.
    if (m_inBandTelemetry && (frame.GetHead()[l2Bytes + 6] & SWITCH_TELEMETRY_IPV4_FLAG))
    {
        if (SwitchTelemetryWriteFn write =
                key.protocol == 17 ? m_telemetryWriters.Find(key.dstPort) : nullptr)
        {
            write(frame, l2Bytes, HopTelemetry(outPort, prio, bytes));
        }
    }
    if (!m_ports[outPort]->ForwardFrame(frame,
                                        l2Bytes,
                                        m_peerMac[outPort],
                                        prio,
                                        l3Head,
                                        l3Bytes,
                                        PendingTag(key.ingressPort, bytes)))
    {
        m_mmu->Release(key.ingressPort, prio, outPort, bytes);
        DropFrame(frame, l2Bytes, key.ingressPort, prio, SwitchDropReason::EGRESS_REFUSED);
        return;
    }
    m_counters.forwarded++;
}

bool
FabricSwitch::KeepLivePorts(const uint32_t*& ports, uint32_t& n)
{
    uint32_t live = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_portUp[ports[i]])
        {
            m_liveScratch[live++] = ports[i];
        }
    }
    ports = m_liveScratch.data();
    n = live;
    return live != 0;
}

bool
FabricSwitch::Trim(FabricFrame& frame,
                   uint32_t l2Bytes,
                   SwitchFlowKey& key,
                   const MmuVerdict& verdict,
                   uint32_t outPort,
                   uint32_t& bytes,
                   SwitchDropReason& reason)
{
    const uint32_t l3 = verdict.trimBytes; // IPv4 total length after the cut
    const bool udp = key.protocol == 17;
    const uint32_t headers = key.headerBytes + (udp ? 8u : 0u);
    reason = verdict.reason;
    if (key.totalLength <= l3 || headers > l3 ||
        frame.GetSize() < l2Bytes + l3 + PfcNetDevice::FCS_BYTES)
    {
        return false; // nothing to cut, the cut would split the headers, or a short frame
    }
    // A simplified header model's discount stays (it is the headers' difference), the charge
    // at least 1 byte.
    const uint32_t discount = std::min(frame.GetSizeDiscount(), l3 + FRAME_OVERHEAD - 1);
    const uint32_t trimmedBytes = l3 + FRAME_OVERHEAD - discount;
    MmuVerdict again =
        m_mmu->AdmitTrimmed(key.ingressPort, verdict.trimPriority, outPort, trimmedBytes);
    if (!again.IsAccept())
    {
        reason = again.reason;
        return false;
    }
    // The headers, rewritten for the shorter packet.
    uint8_t h[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES + 60 + 8];
    frame.CopyData(h, l2Bytes + headers);
    uint8_t* ip = h + l2Bytes;
    bool checksummed = wire::GetU16(ip + 10) != 0; // a zero checksum (not computed) stays zero
    wire::PutU16(ip + 2, static_cast<uint16_t>(l3));
    ip[1] = static_cast<uint8_t>((verdict.trimDscp << 2) | (ip[1] & 0x03));
    if (checksummed)
    {
        wire::PutU16(ip + 10, wire::Ipv4HeaderChecksum(ip, key.headerBytes));
    }
    if (udp)
    {
        uint8_t* u = ip + key.headerBytes;
        wire::PutU16(u + 4, static_cast<uint16_t>(l3 - key.headerBytes));
        wire::PutU16(u + 6, 0); // the payload changed: "no checksum" (RFC 768, IPv4)
    }
    // The cut frame: headers, the first payload bytes, padding to the Ethernet minimum, FCS.
    Ptr<Packet> whole = frame.GetPacket();
    Ptr<Packet> cut = whole->CreateFragment(l2Bytes + headers, l3 - headers);
    uint32_t frameBytes = l2Bytes + l3 + PfcNetDevice::FCS_BYTES;
    if (frameBytes < PfcNetDevice::MIN_FRAME_BYTES)
    {
        cut->AddPaddingAtEnd(PfcNetDevice::MIN_FRAME_BYTES - frameBytes);
    }
    cut->AddAtEnd(
        whole->CreateFragment(whole->GetSize() - PfcNetDevice::FCS_BYTES, PfcNetDevice::FCS_BYTES));
    cut->AddHeader(FabricWireHeader(FabricWireHeader::ETHERNET, h, l2Bytes + headers));
    frame = FabricFrame(cut);
    frame.LoadHead(PfcNetDevice::RX_PEEK_BYTES);
    frame.SetSizeDiscount(discount);
    key.totalLength = static_cast<uint16_t>(l3);
    key.dscp = verdict.trimDscp;
    key.priority = verdict.trimPriority;
    bytes = trimmedBytes;
    Mark(outPort,
         verdict.trimPriority,
         verdict.lastHop ? SwitchMarkReason::TRIMMED_LASTHOP : SwitchMarkReason::TRIMMED);
    return true;
}

SwitchHopTelemetry
FabricSwitch::HopTelemetry(uint32_t outPort, uint8_t priority, uint32_t ownBytes) const
{
    const Ptr<PfcNetDevice>& port = m_ports[outPort];
    SwitchHopTelemetry hop;
    // The bytes queued ahead of the frame (the MMU already charged its own).
    uint64_t queued = m_mmu->GetEgressBytes(outPort, priority);
    hop.queueBytes = queued > ownBytes ? queued - ownBytes : 0;
    hop.txBytes = port->GetTxBytesTotal(); // frame bytes dequeued
    hop.timestamp = Simulator::Now();
    hop.linkRate = port->GetDataRate();
    return hop;
}

void
FabricSwitch::SetTelemetryWriter(uint16_t udpDstPort, SwitchTelemetryWriteFn write)
{
    NS_ABORT_MSG_IF(udpDstPort == 0 || !write,
                    "FabricSwitch::SetTelemetryWriter: UDP port " << udpDstPort
                                                                  << " (1..65535) and a writer "
                                                                     "are needed");
    m_telemetryWriters.Set(udpDstPort, write);
}

bool
FabricSwitch::RemoveTelemetryWriter(uint16_t udpDstPort)
{
    return m_telemetryWriters.Remove(udpDstPort);
}

void
FabricSwitch::SetTelemetryWriters(const SwitchTelemetryWriterTable& writers)
{
    m_telemetryWriters = writers;
}

const SwitchTelemetryWriterTable&
FabricSwitch::GetTelemetryWriters() const
{
    return m_telemetryWriters;
}

void
FabricSwitch::FrameDequeued(uint32_t outPort, uint8_t priority, uint64_t tag)
{
    NS_ABORT_MSG_IF(!(tag & PENDING_TAG),
                    "FabricSwitch: port " << outPort << " priority " << unsigned(priority)
                                          << " dequeued a frame the switch did not queue");
    m_mmu->Release(static_cast<uint32_t>((tag & ~PENDING_TAG) >> 32),
                   priority,
                   outPort,
                   static_cast<uint32_t>(tag));
}

void
FabricSwitch::CountEcnMark(uint32_t outPort, uint8_t priority, uint64_t queueBytes)
{
    m_counters.ecnMarks[outPort]++;
    m_ecnMarkTrace(outPort, priority, queueBytes);
    Mark(outPort, priority, SwitchMarkReason::ECN_CE);
}

void
FabricSwitch::FrameLeaving(uint32_t outPort, uint8_t priority, uint64_t tag, FabricFrame& frame)
{
    if (!(tag & PENDING_TAG))
    {
        return; // not a forwarded frame
    }
    // The bytes queued behind the frame: its own are still charged until FrameDequeued.
    const uint64_t behind = m_mmu->GetEgressBytes(outPort, priority) - uint32_t(tag);
    // This port's framing: Ethernet, with an 802.1Q tag when its EtherType says so.
    frame.LoadHead(PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES + 20);
    const uint8_t* head = frame.GetHead();
    if (frame.GetHeadBytes() < PfcNetDevice::ETH_HEADER_BYTES + 20)
    {
        return;
    }
    const uint32_t l2 = wire::GetU16(head + 12) == 0x8100
                            ? PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES
                            : PfcNetDevice::ETH_HEADER_BYTES;
    uint8_t* h = frame.MutableHead(l2 + 20);
    if (!h)
    {
        return;
    }
    uint8_t* ip = h + l2;
    if (!m_ecn->ShouldMark(outPort, priority, ip[1] & 0x03, behind))
    {
        return;
    }
    const uint16_t tosWord = wire::GetU16(ip);
    ip[1] |= 0x03;
    const uint16_t checksum = wire::GetU16(ip + 10);
    if (checksum != 0) // a zero checksum (not computed) stays zero
    {
        wire::PutU16(ip + 10, wire::UpdateChecksum(checksum, tosWord, wire::GetU16(ip)));
    }
    CountEcnMark(outPort, priority, behind);
}

void
FabricSwitch::OnXoff(uint32_t port, uint8_t priority, bool xoff)
{
    (xoff ? m_counters.xoffSent : m_counters.xonSent)[port][priority]++;
    m_xoffTrace(port, priority, xoff);
    m_ports[port]->SetXoff(priority, xoff);
}

void
FabricSwitch::DropFrame(const FabricFrame& frame,
                        uint32_t l2Bytes,
                        uint32_t inPort,
                        uint8_t priority,
                        SwitchDropReason reason)
{
    if (m_mmu->IsLossless(priority))
    {
        m_counters.losslessDrops[priority & 7]++;
    }
    if (m_dropTrace.IsEmpty())
    {
        Drop(nullptr, inPort, reason); // counted; nothing to show the frame to
        return;
    }
    // The trace sees the IPv4 packet, as if the port had removed the framing and padding.
    uint32_t l3 = frame.GetSize() - l2Bytes - PfcNetDevice::FCS_BYTES;
    if (l3 >= 20)
    {
        uint8_t b[PfcNetDevice::ETH_HEADER_BYTES + PfcNetDevice::DOT1Q_BYTES + 4];
        frame.CopyData(b, l2Bytes + 4);
        l3 = std::min<uint32_t>(l3, wire::GetU16(b + l2Bytes + 2));
    }
    Drop(frame.GetPacket()->CreateFragment(l2Bytes, l3), inPort, reason);
}

void
FabricSwitch::Drop(Ptr<const Packet> packet, uint32_t inPort, SwitchDropReason reason)
{
    NS_LOG_LOGIC("drop (" << SwitchDropReasonName(reason) << ") from port " << inPort);
    m_counters.drops.Count(static_cast<uint32_t>(reason));
    m_dropTrace(packet, inPort, reason);
}

void
FabricSwitch::Mark(uint32_t outPort, uint8_t priority, SwitchMarkReason reason)
{
    m_counters.marks.Count(static_cast<uint32_t>(reason));
    m_markTrace(outPort, priority, reason);
}

void
FabricSwitch::SetEntropyParser(uint16_t udpDstPort, SwitchEntropyParseFn parse)
{
    m_parsers.Add(udpDstPort, parse);
}

bool
FabricSwitch::RemoveEntropyParser(uint16_t udpDstPort)
{
    return m_parsers.Remove(udpDstPort);
}

void
FabricSwitch::SetEntropyParsers(const SwitchEntropyParserTable& parsers)
{
    m_parsers = parsers;
}

const SwitchEntropyParserTable&
FabricSwitch::GetEntropyParsers() const
{
    return m_parsers;
}

void
FabricSwitch::SetPortUp(uint32_t port, bool up)
{
    GetPort(port); // range check
    if (bool(m_portUp[port]) == up)
    {
        return;
    }
    m_portUp[port] = up;
    m_portsDown = up ? m_portsDown - 1 : m_portsDown + 1;
    NS_LOG_INFO("port " << port << (up ? " up" : " down") << "; " << m_portsDown
                        << " port(s) down");
    m_portStateTrace(port, up);
}

bool
FabricSwitch::IsPortUp(uint32_t port) const
{
    GetPort(port); // range check
    return m_portUp[port];
}

uint32_t
FabricSwitch::GetNPortsDown() const
{
    return m_portsDown;
}

void
FabricSwitch::SetLastHopPort(uint32_t port, bool lastHop)
{
    GetPort(port); // range check
    NS_ABORT_MSG_IF(!m_configured,
                    "FabricSwitch::SetLastHopPort(" << port << ") before Configure() (SwitchHelper"
                                                    << "::Install configures the switch)");
    m_mmu->SetLastHopPort(port, lastHop);
}

bool
FabricSwitch::IsLastHopPort(uint32_t port) const
{
    GetPort(port); // range check
    return m_configured && m_mmu->IsLastHopPort(port);
}

uint32_t
FabricSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<PfcNetDevice>
FabricSwitch::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "FabricSwitch: port " << i << " out of range (0.."
                                          << int64_t(m_ports.size()) - 1 << ", " << m_ports.size()
                                          << " ports)");
    return m_ports[i];
}

int32_t
FabricSwitch::GetPortIndex(Ptr<const NetDevice> device) const
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (PeekPointer(m_ports[i]) == PeekPointer(device))
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

Ptr<SwitchForwardingTable>
FabricSwitch::GetForwardingTable() const
{
    return m_table;
}

Ptr<SharedBufferMmu>
FabricSwitch::GetMmu() const
{
    return m_mmu;
}

Ptr<WredEcnMarker>
FabricSwitch::GetEcnMarker() const
{
    return m_ecn;
}

Ptr<SwitchLoadBalancer>
FabricSwitch::GetLoadBalancer() const
{
    return m_lb;
}

const SwitchCounters&
FabricSwitch::GetCounters() const
{
    return m_counters;
}

int64_t
FabricSwitch::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_configured, "FabricSwitch::AssignStreams before Configure()");
    int64_t used = m_ecn->AssignStreams(stream);
    used += m_lb->AssignStreams(stream + used);
    return used;
}

} // namespace ns3
