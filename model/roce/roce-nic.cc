/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-nic.h"

#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-icrc-trailer.h"
#include "roce-immdt-header.h"
#include "roce-reth-header.h"

#include "ns3/abort.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNic");
NS_OBJECT_ENSURE_REGISTERED(RoceNic);

namespace
{
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;
} // namespace

const char*
RoceNicDropReasonName(RoceNicDropReason reason)
{
    switch (reason)
    {
    case RoceNicDropReason::UNKNOWN_QP:
        return "unknown qp";
    case RoceNicDropReason::NOT_ROCE:
        return "not roce";
    case RoceNicDropReason::MALFORMED:
        return "malformed";
    case RoceNicDropReason::WRONG_ADDRESS:
        return "wrong address";
    default:
        return "unknown";
    }
}

TypeId
RoceNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceNic")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceNic>()
            .AddAttribute("Mtu",
                          "Path MTU: payload bytes per packet, one of 256, 512, 1024, 2048, "
                          "4096 (IBTA Vol 1 9.6.1).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RoceNic::SetMtu, &RoceNic::GetMtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AckInterval",
                          "The responder ACKs every this many in-order packets, and always at "
                          "a message end or on AckReq (>= 1).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RoceNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LocalAckTimeout",
                          "Local ACK timeout exponent: timeout = 4.096 us x 2^value (0..31; "
                          "14 = 67 ms, a common default).",
                          UintegerValue(14),
                          MakeUintegerAccessor(&RoceNic::m_localAckTimeout),
                          MakeUintegerChecker<uint32_t>(0, 31))
            .AddAttribute("RetryCount",
                          "Timeouts tolerated before the QP enters the error state (0..7).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RoceNic::m_retryCount),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("CnpInterval",
                          "Notification point: at most one CNP per QP per this interval "
                          "(firmware MIN_TIME_BETWEEN_CNPS 4 us; DCQCN paper 50 us).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RoceNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DataDscp",
                          "DSCP of data packets (26 -> priority 3, the lossless class).",
                          UintegerValue(26),
                          MakeUintegerAccessor(&RoceNic::m_dataDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("AckDscp",
                          "DSCP of ACK/NAK packets (48 -> priority 6).",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RoceNic::m_ackDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("CnpDscp",
                          "DSCP of CNPs (firmware CNP_DSCP 48 -> priority 6).",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RoceNic::m_cnpDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("TxQueueDepth",
                          "Data frames the NIC keeps queued per (port, priority) (>= 1).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RoceNic::m_txQueueDepth),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CongestionControl",
                          "TypeId of the per-QP congestion control (a RoceCongestionOps).",
                          TypeIdValue(RoceNoneCongestionOps::GetTypeId()),
                          MakeTypeIdAccessor(&RoceNic::m_ccTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("FirstQpn",
                          "QP number of the first QP created (later ones count up).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RoceNic::m_firstQpn),
                          MakeUintegerChecker<uint32_t>(2, 0xfff000))
            .AddAttribute("RxDrainRate",
                          "NIC-originated PFC: rate at which the host drains received payload "
                          "(PCIe/memory); 0 = infinitely fast, the NIC never pauses.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RoceNic::SetRxDrainRate, &RoceNic::GetRxDrainRate),
                          MakeDataRateChecker())
            .AddAttribute("RxXoffBytes",
                          "NIC-originated PFC: host backlog at which the port sends XOFF.",
                          UintegerValue(512 * 1024),
                          MakeUintegerAccessor(&RoceNic::m_rxXoff),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("RxXonBytes",
                          "NIC-originated PFC: host backlog at which the port sends XON "
                          "(< RxXoffBytes).",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&RoceNic::m_rxXon),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("RecycledPackets",
                          "Obsolete: frames carry no ns-3 packet unless something outside the "
                          "fast path (a trace sink, pcap, a drop) looks at them, so there are no "
                          "packets to recycle.",
                          0, // flags: neither settable nor gettable
                          EmptyAttributeValue(),
                          MakeEmptyAttributeAccessor(),
                          MakeEmptyAttributeChecker(),
                          TypeId::OBSOLETE,
                          "remove it: a NIC's frames have no ns-3 packet until one is observed "
                          "(FabricFrame zero bodies), so nothing is allocated to recycle")
            .AddTraceSource("Drop",
                            "A received packet was dropped: packet, reason.",
                            MakeTraceSourceAccessor(&RoceNic::m_dropTrace),
                            "ns3::RoceNic::DropTracedCallback")
            .AddTraceSource("Completion",
                            "A work request of any QP completed.",
                            MakeTraceSourceAccessor(&RoceNic::m_completionTrace),
                            "ns3::RoceNic::CompletionTracedCallback");
    return tid;
}

RoceNic::RoceNic()
    : m_mtu(4096),
      m_ackInterval(16),
      m_localAckTimeout(14),
      m_retryCount(7),
      m_cnpInterval(MicroSeconds(4)),
      m_dataDscp(26),
      m_ackDscp(48),
      m_cnpDscp(48),
      m_txQueueDepth(2),
      m_rxDrainRate(0),
      m_rxXoff(512 * 1024),
      m_rxXon(256 * 1024),
      m_firstQpn(256),
      m_arbSeq(0)
{
}

RoceNic::~RoceNic() = default;

void
RoceNic::DoDispose()
{
    for (auto& port : m_ports)
    {
        for (auto& a : port.arb)
        {
            a.wake.Cancel();
        }
        port.xonCheck.Cancel();
        port.dev->SetPfcReceiveCallback(PfcNetDevice::PfcReceiveCallback());
        port.dev->SetPortOwner(nullptr, 0);
    }
    m_ports.clear();
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_ccPrototype = nullptr;
    m_engine.Reset();
    Object::DoDispose();
}

void
RoceNic::SetMtu(uint32_t mtu)
{
    NS_ABORT_MSG_IF(mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096,
                    "RoceNic Mtu " << mtu
                                   << " is invalid; RoCE path MTUs are 256, 512, 1024, 2048, 4096");
    NS_ABORT_MSG_IF(!m_qps.empty(), "RoceNic Mtu cannot change after QPs were created");
    m_mtu = mtu;
}

uint32_t
RoceNic::AddPort(Ptr<PfcNetDevice> dev, Ipv4Address address)
{
    NS_ABORT_MSG_IF(!dev, "RoceNic::AddPort given a null device");
    Ptr<PfcChannel> ch = dev->GetPfcChannel();
    NS_ABORT_MSG_IF(!ch || ch->GetNDevices() != 2,
                    "RoceNic::AddPort: port of node " << dev->GetNode()->GetId()
                                                      << " is not connected to a peer");
    uint32_t headers = 20 + 8 + RoceBthHeader::SIZE + 16 + 4 + 4; // IP UDP BTH RETH ImmDt ICRC
    NS_ABORT_MSG_IF(dev->GetMtu() < m_mtu + headers,
                    "RoceNic::AddPort: device MTU " << dev->GetMtu() << " cannot carry RoCE MTU "
                                                    << m_mtu << " + " << headers
                                                    << " header bytes");
    Port port;
    port.dev = dev;
    port.addressBits = address.Get();
    Ptr<PfcNetDevice> peer = ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
    port.peerMac = Mac48Address::ConvertFrom(peer->GetAddress());
    uint32_t index = static_cast<uint32_t>(m_ports.size());
    m_ports.push_back(std::move(port));
    dev->SetPortOwner(this, index);
    dev->SetPfcReceiveCallback(MakeCallback(&RoceNic::Receive, this).Bind(index));
    return index;
}

uint32_t
RoceNic::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<PfcNetDevice>
RoceNic::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "RoceNic: port " << i << " does not exist (the NIC has " << m_ports.size()
                                     << ")");
    return m_ports[i].dev;
}

Ipv4Address
RoceNic::GetAddress(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "RoceNic: port " << i << " does not exist (the NIC has " << m_ports.size()
                                     << ")");
    return Ipv4Address(m_ports[i].addressBits);
}

Ptr<RoceQueuePair>
RoceNic::CreateQp(uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "RoceNic::CreateQp: port " << port << " does not exist (the NIC has "
                                               << m_ports.size() << "; add ports first)");
    NS_ABORT_MSG_IF(m_firstQpn + m_qps.size() > RoceBthHeader::MAX_24BIT,
                    "RoceNic::CreateQp: QP numbers exhausted (2^24)");
    if (!m_ccPrototype)
    {
        ObjectFactory f;
        f.SetTypeId(m_ccTypeId);
        m_ccPrototype = f.Create<RoceCongestionOps>();
    }
    Ptr<RoceCongestionOps> cc = m_ccPrototype->Fork();
    cc->Init(m_ports[port].dev->GetDataRate());
    Ptr<RoceQueuePair> qp = CreateObject<RoceQueuePair>();
    qp->Bind(this, m_firstQpn + static_cast<uint32_t>(m_qps.size()), port, cc);
    m_qps.push_back(qp);
    return qp;
}

Ptr<RoceQueuePair>
RoceNic::GetQp(uint32_t qpn) const
{
    uint32_t idx = qpn - m_firstQpn;
    return idx < m_qps.size() ? m_qps[idx] : nullptr;
}

uint32_t
RoceNic::GetNQps() const
{
    return static_cast<uint32_t>(m_qps.size());
}

RoceQpCounters
RoceNic::GetTotalQpCounters() const
{
    RoceQpCounters t;
    for (const auto& qp : m_qps)
    {
        const RoceQpCounters& c = qp->GetCounters();
        t.txDataPackets += c.txDataPackets;
        t.txDataBytes += c.txDataBytes;
        t.retransmittedPackets += c.retransmittedPackets;
        t.rxDataPackets += c.rxDataPackets;
        t.rxDataBytes += c.rxDataBytes;
        t.acksTx += c.acksTx;
        t.acksRx += c.acksRx;
        t.naksTx += c.naksTx;
        t.naksRx += c.naksRx;
        t.cnpsTx += c.cnpsTx;
        t.cnpsRx += c.cnpsRx;
        t.ceRx += c.ceRx;
        t.duplicatesRx += c.duplicatesRx;
        t.outOfOrderRx += c.outOfOrderRx;
        t.timeouts += c.timeouts;
        t.completions += c.completions;
    }
    return t;
}

uint32_t
RoceNic::GetMtu() const
{
    return m_mtu;
}

uint32_t
RoceNic::GetAckInterval() const
{
    return m_ackInterval;
}

Time
RoceNic::GetLocalAckTimeout() const
{
    // 4.096 us x 2^n, exactly: 4096 ns << n.
    return NanoSeconds(int64_t(4096) << m_localAckTimeout);
}

void
RoceNic::SetRxDrainRate(DataRate rate)
{
    m_rxDrainRate = rate;
    m_rxDrainOn = rate.GetBitRate() > 0;
}

DataRate
RoceNic::GetRxDrainRate() const
{
    return m_rxDrainRate;
}

uint32_t
RoceNic::GetRetryCount() const
{
    return m_retryCount;
}

Time
RoceNic::GetCnpInterval() const
{
    return m_cnpInterval;
}

uint8_t
RoceNic::GetDataDscp() const
{
    return m_dataDscp;
}

uint8_t
RoceNic::GetAckDscp() const
{
    return m_ackDscp;
}

uint8_t
RoceNic::GetCnpDscp() const
{
    return m_cnpDscp;
}

const std::array<uint64_t, size_t(RoceNicDropReason::COUNT)>&
RoceNic::GetDrops() const
{
    return m_drops;
}

int64_t
RoceNic::AssignStreams(int64_t stream)
{
    return 0;
}

void
RoceNic::Activate(RoceQueuePair* qp)
{
    if (qp->m_inArbiter)
    {
        return;
    }
    qp->m_inArbiter = true;
    uint32_t port = qp->GetPortIndex();
    uint8_t prio = qp->GetPriority();
    m_ports[port].arb[prio].ready.push_back(qp);
    Kick(port, prio);
}

void
RoceNic::Kick(uint32_t portIndex, uint8_t priority)
{
    Port& port = m_ports[portIndex];
    Arbiter& arb = port.arb[priority];
    Time now = m_engine.Now();
    while (arb.dataInDevice < m_txQueueDepth)
    {
        while (!arb.paced.empty() && std::get<0>(arb.paced.top()) <= now)
        {
            RoceQueuePair* due = std::get<2>(arb.paced.top());
            bool current = std::get<3>(arb.paced.top()) == due->m_arbEpoch && due->m_inPaced;
            arb.paced.pop();
            if (current)
            {
                due->m_inPaced = false;
                arb.ready.push_back(due);
            }
        }
        if (arb.ready.empty())
        {
            if (!arb.paced.empty())
            {
                Time due = std::get<0>(arb.paced.top());
                if (!arb.wake.IsRunning() || Simulator::GetDelayLeft(arb.wake) > due - now)
                {
                    arb.wake.Cancel();
                    arb.wake =
                        Simulator::Schedule(due - now, &RoceNic::Kick, this, portIndex, priority);
                }
            }
            return;
        }
        RoceQueuePair* qp = arb.ready.front();
        arb.ready.pop_front();
        if (!qp->HasPacketToSend())
        {
            qp->m_inArbiter = false;
            continue;
        }
        Time t = qp->GetNextSendTime();
        if (t > now)
        {
            PushPaced(arb, qp, t);
            continue;
        }
        FabricFrame p = qp->BuildNextPacket(now);
        arb.inDevice.push_back(true);
        arb.dataInDevice++;
        if (qp->HasPacketToSend())
        {
            Time next = qp->GetNextSendTime();
            if (next <= now)
            {
                arb.ready.push_back(qp);
            }
            else
            {
                PushPaced(arb, qp, next);
            }
        }
        else
        {
            qp->m_inArbiter = false;
        }
        if (!port.dev->SendFrame(p, priority))
        {
            // The port refused it (queue full): recovered by the QP's go-back-N.
            arb.inDevice.pop_back();
            arb.dataInDevice--;
        }
    }
}

void
RoceNic::PushPaced(Arbiter& arb, RoceQueuePair* qp, Time t)
{
    qp->m_inPaced = true;
    arb.paced.emplace(t, m_arbSeq++, qp, ++qp->m_arbEpoch);
}

void
RoceNic::Reschedule(RoceQueuePair* qp)
{
    uint32_t port = qp->GetPortIndex();
    uint8_t prio = qp->GetPriority();
    PushPaced(m_ports[port].arb[prio], qp, qp->GetNextSendTime());
    Kick(port, prio);
}

void
RoceNic::SendControl(uint32_t portIndex, FabricFrame& frame, uint8_t priority)
{
    Port& port = m_ports[portIndex];
    Arbiter& arb = port.arb[priority];
    arb.inDevice.push_back(false);
    if (!port.dev->SendFrame(frame, priority))
    {
        arb.inDevice.pop_back();
    }
}

void
RoceNic::FrameDequeued(uint32_t portIndex, uint8_t priority, uint64_t tag)
{
    Arbiter& arb = m_ports[portIndex].arb[priority];
    NS_ABORT_MSG_IF(arb.inDevice.empty(),
                    "RoceNic: port " << portIndex << " dequeued a frame the NIC did not queue");
    bool data = arb.inDevice.front();
    arb.inDevice.pop_front();
    if (data)
    {
        arb.dataInDevice--;
        Kick(portIndex, priority);
    }
}

uint32_t
RoceNic::WriteFrameHeader(uint32_t port, uint8_t priority, uint8_t* out) const
{
    const Port& p = m_ports[port];
    return p.dev->WriteL2Header(out, p.peerMac, IPV4_ETHERTYPE, priority);
}

void
RoceNic::Receive(uint32_t portIndex,
                 Ptr<PfcNetDevice> dev,
                 Ptr<Packet> packet,
                 uint16_t protocol,
                 Mac48Address from,
                 uint8_t priority)
{
    // IPv4 frames for this port arrive whole through ReceiveFrame; others (other EtherTypes,
    // IPv4 broadcast or multicast) without framing here.
    if (protocol != IPV4_ETHERTYPE)
    {
        Drop(packet, RoceNicDropReason::NOT_ROCE);
        return;
    }
    uint8_t b[RX_HEADER_BYTES];
    uint32_t got = packet->CopyData(b, std::min<uint32_t>(sizeof(b), packet->GetSize()));
    RoceNicDropReason reason;
    if (!Deliver(portIndex, b, got, packet->GetSize(), reason))
    {
        Drop(packet, 0, packet->GetSize(), reason);
    }
}

void
RoceNic::ReceiveFrame(uint32_t portIndex,
                      const Ptr<PfcNetDevice>& dev,
                      FabricFrame& frame,
                      uint32_t l2Bytes,
                      uint8_t priority)
{
    // The port checked the IPv4 total length against the frame. A frame built by a NIC
    // carries all its headers in its head; any other may hold fewer than its opcode has, and
    // the head is completed from the packet (a no-op otherwise).
    uint32_t want = l2Bytes + RX_HEADER_BYTES;
    if (frame.GetHeadBytes() >= l2Bytes + FIXED_HEADER_BYTES)
    {
        want = l2Bytes + HeaderBytes(frame.GetHead()[l2Bytes + 28]);
    }
    frame.LoadHead(want);
    const uint8_t* b = frame.GetHead() + l2Bytes;
    uint32_t got = std::min(frame.GetHeadBytes() - l2Bytes, RX_HEADER_BYTES);
    uint32_t size = wire::GetU16(b + 2);
    RoceNicDropReason reason;
    if (!Deliver(portIndex, b, got, size, reason))
    {
        Drop(frame.GetPacket(), l2Bytes, size, reason);
    }
}

bool
RoceNic::Deliver(uint32_t portIndex,
                 const uint8_t* b,
                 uint32_t got,
                 uint32_t size,
                 RoceNicDropReason& reason)
{
    constexpr uint32_t FIXED = FIXED_HEADER_BYTES;
    if (got < FIXED || size < FIXED)
    {
        reason = RoceNicDropReason::MALFORMED;
        return false;
    }
    uint32_t ihl = (b[0] & 0x0f) * 4u;
    if ((b[0] >> 4) != 4 || ihl != 20 || b[9] != 17 ||
        wire::GetU16(b + 22) != RoceBthHeader::UDP_DST_PORT)
    {
        reason = RoceNicDropReason::NOT_ROCE;
        return false;
    }
    if (wire::GetU32(b + 16) != m_ports[portIndex].addressBits)
    {
        reason = RoceNicDropReason::WRONG_ADDRESS;
        return false;
    }
    const uint8_t* bth = b + 28;
    RoceRxPacket rx;
    rx.opcode = bth[0];
    rx.padCount = (bth[1] >> 4) & 0x3;
    rx.ackReq = (bth[8] & 0x80) != 0;
    rx.psn = wire::GetU24(bth + 9);
    rx.ce = (b[1] & 0x03) == 0x03;
    rx.ext = b + FIXED;
    rx.extBytes = got - FIXED;
    rx.afterBth = size - FIXED;
    uint32_t need = HeaderBytes(rx.opcode) - FIXED;
    if (rx.afterBth < need + RoceIcrcTrailer::SIZE + rx.padCount)
    {
        reason = RoceNicDropReason::MALFORMED;
        return false;
    }
    Ptr<RoceQueuePair> qp = GetQp(wire::GetU24(bth + 5));
    if (!qp || qp->GetPortIndex() != portIndex)
    {
        reason = RoceNicDropReason::UNKNOWN_QP;
        return false;
    }
    qp->Receive(rx);
    return true;
}

void
RoceNic::Drop(Ptr<const Packet> packet, uint32_t offset, uint32_t size, RoceNicDropReason reason)
{
    // The trace sees the IPv4 packet, without framing.
    if (offset == 0 && size >= packet->GetSize())
    {
        Drop(packet, reason);
        return;
    }
    Drop(packet->CreateFragment(offset, std::min(size, packet->GetSize() - offset)), reason);
}

void
RoceNic::Drop(Ptr<const Packet> packet, RoceNicDropReason reason)
{
    NS_LOG_LOGIC("drop (" << RoceNicDropReasonName(reason) << ")");
    m_drops[size_t(reason)]++;
    m_dropTrace(packet, reason);
}

void
RoceNic::AccountRx(uint32_t portIndex, uint8_t priority, uint64_t bytes)
{
    if (!m_rxDrainOn)
    {
        return;
    }
    NS_ABORT_MSG_IF(m_rxXon >= m_rxXoff,
                    "RoceNic RxXonBytes " << m_rxXon << " must be below RxXoffBytes " << m_rxXoff);
    Port& port = m_ports[portIndex];
    DrainRx(portIndex, priority);
    port.rxBacklog += double(bytes);
    if (port.rxBacklog > double(m_rxXoff) && !port.dev->IsXoff(priority))
    {
        port.dev->SetXoff(priority, true);
        port.xonCheck.Cancel();
        Time until = Seconds((port.rxBacklog - double(m_rxXon)) * 8.0 / m_rxDrainRate.GetBitRate());
        port.xonCheck = Simulator::Schedule(until, &RoceNic::DrainRx, this, portIndex, priority);
    }
}

void
RoceNic::DrainRx(uint32_t portIndex, uint8_t priority)
{
    Port& port = m_ports[portIndex];
    Time now = Simulator::Now();
    double drained = (now - port.rxBacklogAt).GetSeconds() * m_rxDrainRate.GetBitRate() / 8.0;
    port.rxBacklog = std::max(0.0, port.rxBacklog - drained);
    port.rxBacklogAt = now;
    if (port.dev->IsXoff(priority))
    {
        if (port.rxBacklog <= double(m_rxXon) + 1e-6)
        {
            port.dev->SetXoff(priority, false);
        }
        else if (!port.xonCheck.IsRunning())
        {
            Time until =
                Seconds((port.rxBacklog - double(m_rxXon)) * 8.0 / m_rxDrainRate.GetBitRate());
            port.xonCheck =
                Simulator::Schedule(until, &RoceNic::DrainRx, this, portIndex, priority);
        }
    }
}

} // namespace ns3
