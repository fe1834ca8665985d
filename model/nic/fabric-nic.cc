/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-nic.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricNic");
NS_OBJECT_ENSURE_REGISTERED(FabricNic);

namespace
{
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;
} // namespace

FabricNicFlow::~FabricNicFlow() = default;
FabricNicTransport::~FabricNicTransport() = default;

const char*
FabricNicDropReasonName(FabricNicDropReason reason)
{
    switch (reason)
    {
    case FabricNicDropReason::UNKNOWN_FLOW:
        return "unknown flow";
    case FabricNicDropReason::NO_TRANSPORT:
        return "no transport";
    case FabricNicDropReason::MALFORMED:
        return "malformed";
    case FabricNicDropReason::WRONG_ADDRESS:
        return "wrong address";
    default:
        return "unknown";
    }
}

TypeId
FabricNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricNic")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricNic>()
            .AddAttribute("TxQueueDepth",
                          "Data frames the NIC keeps queued per (port, priority) (>= 1).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&FabricNic::m_txQueueDepth),
                          MakeFabricUintegerChecker<uint32_t>("ns3::FabricNic::TxQueueDepth", 1))
            .AddAttribute(
                "RxDrainRate",
                "Host-side PFC: rate at which the host drains received payload "
                "(PCIe/memory); 0 = infinitely fast, the NIC never pauses.",
                DataRateValue(DataRate(0)),
                MakeDataRateAccessor(&FabricNic::SetRxDrainRate, &FabricNic::GetRxDrainRate),
                MakeDataRateChecker())
            .AddAttribute("RxXoffBytes",
                          "Host-side PFC: host backlog at which the port sends XOFF, bytes.",
                          UintegerValue(512 * 1024),
                          MakeUintegerAccessor(&FabricNic::m_rxXoff),
                          MakeFabricUintegerChecker<uint64_t>("ns3::FabricNic::RxXoffBytes", 1))
            .AddAttribute("RxXonBytes",
                          "Host-side PFC: host backlog at which the port sends XON, bytes "
                          "(< RxXoffBytes).",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&FabricNic::m_rxXon),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Drop",
                            "A received packet was dropped: the IPv4 packet, the reason.",
                            MakeTraceSourceAccessor(&FabricNic::m_dropTrace),
                            "ns3::FabricNic::DropTracedCallback")
            .AddTraceSource("RxStall",
                            "Host-side PFC: the host stopped (true) or resumed (false) draining "
                            "received payload (SetRxStalled).",
                            MakeTraceSourceAccessor(&FabricNic::m_rxStallTrace),
                            "ns3::FabricNic::RxStallTracedCallback");
    return tid;
}

FabricNic::FabricNic()
    : m_txQueueDepth(2),
      m_rxDrainRate(0),
      m_rxXoff(512 * 1024),
      m_rxXon(256 * 1024),
      m_arbSeq(0)
{
}

FabricNic::~FabricNic() = default;

Ptr<FabricNic>
FabricNic::GetOrCreate(Ptr<Node> node)
{
    NS_ABORT_MSG_IF(!node, "FabricNic::GetOrCreate given a null node");
    Ptr<FabricNic> nic = node->GetObject<FabricNic>();
    if (!nic)
    {
        nic = CreateObject<FabricNic>();
        node->AggregateObject(nic);
    }
    return nic;
}

void
FabricNic::DoDispose()
{
    for (auto& port : m_ports)
    {
        for (auto& a : port.arb)
        {
            a.wake.Detach();
        }
        port.xonCheck.Cancel();
        port.dev->SetPfcReceiveCallback(PfcNetDevice::PfcReceiveCallback());
        port.dev->SetPortOwner(nullptr, 0);
    }
    m_ports.clear();
    m_transports.Clear();
    m_engine.Reset();
    Object::DoDispose();
}

uint32_t
FabricNic::AddPort(Ptr<PfcNetDevice> dev, Ipv4Address address)
{
    NS_ABORT_MSG_IF(!dev, "FabricNic::AddPort given a null device");
    Ptr<PfcChannel> ch = dev->GetPfcChannel();
    NS_ABORT_MSG_IF(!ch || ch->GetNDevices() != 2,
                    "FabricNic::AddPort: port of node " << dev->GetNode()->GetId()
                                                        << " is not connected to a peer");
    NS_ABORT_MSG_IF(FindPort(dev) != m_ports.size(),
                    "FabricNic::AddPort: device " << dev->GetIfIndex() << " of node "
                                                  << dev->GetNode()->GetId() << " is already port "
                                                  << FindPort(dev));
    Port port;
    port.dev = dev;
    port.addressBits = address.Get();
    Ptr<PfcNetDevice> peer = ch->GetPfcDevice(0) == dev ? ch->GetPfcDevice(1) : ch->GetPfcDevice(0);
    port.peerMac = Mac48Address::ConvertFrom(peer->GetAddress());
    uint32_t index = static_cast<uint32_t>(m_ports.size());
    for (uint8_t prio = 0; prio < port.arb.size(); ++prio)
    {
        port.arb[prio].wake = FabricRearmableEvent([this, index, prio]() { Kick(index, prio); });
    }
    m_ports.push_back(std::move(port));
    dev->SetPortOwner(this, index);
    dev->SetPfcReceiveCallback(MakeCallback(&FabricNic::Receive, this).Bind(index));
    return index;
}

uint32_t
FabricNic::FindPort(Ptr<const PfcNetDevice> dev) const
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (m_ports[i].dev == dev)
        {
            return i;
        }
    }
    return static_cast<uint32_t>(m_ports.size());
}

uint32_t
FabricNic::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<PfcNetDevice>
FabricNic::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "FabricNic: port " << i << " does not exist (the NIC has " << m_ports.size()
                                       << ")");
    return m_ports[i].dev;
}

Ipv4Address
FabricNic::GetAddress(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "FabricNic: port " << i << " does not exist (the NIC has " << m_ports.size()
                                       << ")");
    return Ipv4Address(m_ports[i].addressBits);
}

void
FabricNic::RegisterTransport(uint16_t udpPort, FabricNicTransport* transport)
{
    NS_ABORT_MSG_IF(!transport, "FabricNic::RegisterTransport given a null transport");
    NS_ABORT_MSG_IF(m_transports.Find(udpPort) != nullptr,
                    "FabricNic::RegisterTransport: UDP port " << udpPort
                                                              << " already has a transport");
    uint32_t need = transport->GetMaxRxHeaderBytes();
    NS_ABORT_MSG_IF(need < IP_UDP_BYTES,
                    "FabricNic::RegisterTransport: a transport reading " << need
                                                                         << " header bytes "
                                                                            "(< 28) on UDP port "
                                                                         << udpPort);
    m_transports.Set(udpPort, transport);
    m_maxRxHeaderBytes = std::max(m_maxRxHeaderBytes, need);
}

void
FabricNic::UnregisterTransport(uint16_t udpPort)
{
    m_transports.Remove(udpPort);
}

void
FabricNic::SetRxDrainRate(DataRate rate)
{
    m_rxDrainRate = rate;
    m_rxDrainOn = rate.GetBitRate() > 0;
}

DataRate
FabricNic::GetRxDrainRate() const
{
    return m_rxDrainRate;
}

const std::array<uint64_t, size_t(FabricNicDropReason::COUNT)>&
FabricNic::GetDrops() const
{
    return m_drops;
}

void
FabricNic::Activate(FabricNicFlow* flow)
{
    if (flow->m_inArbiter)
    {
        return;
    }
    flow->m_inArbiter = true;
    uint32_t port = flow->m_nicPort;
    uint8_t prio = flow->m_nicPriority;
    m_ports[port].arb[prio].ready.PushBack(flow);
    Kick(port, prio);
}

void
FabricNic::Kick(uint32_t portIndex, uint8_t priority)
{
    Port& port = m_ports[portIndex];
    Arbiter& arb = port.arb[priority];
    Time now = m_engine.Now();
    while (arb.dataInDevice < m_txQueueDepth)
    {
        while (!arb.paced.empty() && std::get<0>(arb.paced.top()) <= now)
        {
            FabricNicFlow* due = std::get<2>(arb.paced.top());
            bool current = std::get<3>(arb.paced.top()) == due->m_arbEpoch && due->m_inPaced;
            arb.paced.pop();
            if (current)
            {
                due->m_inPaced = false;
                arb.ready.PushBack(due);
            }
        }
        if (arb.ready.IsEmpty())
        {
            if (!arb.paced.empty())
            {
                Time due = std::get<0>(arb.paced.top());
                if (!arb.wake.IsPending() || arb.wake.GetExpiry() > due)
                {
                    arb.wake.Schedule(due - now); // supersedes a later wake-up
                }
            }
            return;
        }
        FabricNicFlow* flow = arb.ready.PopFront();
        if (!flow->HasPacketToSend())
        {
            flow->m_inArbiter = false;
            continue;
        }
        Time t = flow->GetNextSendTime();
        if (t > now)
        {
            PushPaced(arb, flow, t);
            continue;
        }
        FabricFrame p = flow->BuildNextPacket(now);
        arb.inDevice.PushBack(true);
        arb.dataInDevice++;
        if (flow->HasPacketToSend())
        {
            Time next = flow->GetNextSendTime();
            if (next <= now)
            {
                arb.ready.PushBack(flow);
            }
            else
            {
                PushPaced(arb, flow, next);
            }
        }
        else
        {
            flow->m_inArbiter = false;
        }
        if (!port.dev->SendFrame(p, priority))
        {
            // The port refused it (queue full): recovered by the transport's retransmission.
            arb.inDevice.PopBack();
            arb.dataInDevice--;
        }
    }
}

void
FabricNic::PushPaced(Arbiter& arb, FabricNicFlow* flow, Time t)
{
    flow->m_inPaced = true;
    arb.paced.emplace(t, m_arbSeq++, flow, ++flow->m_arbEpoch);
}

void
FabricNic::Reschedule(FabricNicFlow* flow)
{
    if (!flow->m_inArbiter || !flow->m_inPaced)
    {
        return;
    }
    uint32_t port = flow->m_nicPort;
    uint8_t prio = flow->m_nicPriority;
    PushPaced(m_ports[port].arb[prio], flow, flow->GetNextSendTime());
    Kick(port, prio);
}

void
FabricNic::SendControl(uint32_t portIndex, FabricFrame& frame, uint8_t priority)
{
    Port& port = m_ports[portIndex];
    Arbiter& arb = port.arb[priority];
    arb.inDevice.PushBack(false);
    if (!port.dev->SendFrame(frame, priority))
    {
        arb.inDevice.PopBack();
    }
}

void
FabricNic::FrameDequeued(uint32_t portIndex, uint8_t priority, uint64_t tag)
{
    Arbiter& arb = m_ports[portIndex].arb[priority];
    NS_ABORT_MSG_IF(arb.inDevice.IsEmpty(),
                    "FabricNic: port " << portIndex << " dequeued a frame the NIC did not queue");
    bool data = arb.inDevice.PopFront();
    if (data)
    {
        arb.dataInDevice--;
        Kick(portIndex, priority);
    }
}

uint32_t
FabricNic::WriteFrameHeader(uint32_t port, uint8_t priority, uint8_t* out) const
{
    const Port& p = m_ports[port];
    return p.dev->WriteL2Header(out, p.peerMac, IPV4_ETHERTYPE, priority);
}

void
FabricNic::Receive(uint32_t portIndex,
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
        Drop(packet, FabricNicDropReason::NO_TRANSPORT);
        return;
    }
    std::vector<uint8_t> b(std::min<uint32_t>(m_maxRxHeaderBytes, packet->GetSize()));
    uint32_t got = packet->CopyData(b.data(), static_cast<uint32_t>(b.size()));
    FabricNicDropReason reason;
    if (!Deliver(portIndex, b.data(), got, packet->GetSize(), TransportOf(b.data(), got), reason))
    {
        Drop(packet, 0, packet->GetSize(), reason);
    }
}

void
FabricNic::ReceiveFrame(uint32_t portIndex,
                        PfcNetDevice* dev,
                        FabricFrame& frame,
                        uint32_t l2Bytes,
                        uint8_t priority)
{
    // The port checked the IPv4 total length against the frame. A frame built by a NIC
    // carries all its headers in its head; any other may hold fewer, and the head is completed
    // from the packet (a no-op otherwise): first as much as the largest transport reads, then
    // what this packet's transport says its headers take.
    uint32_t want = l2Bytes + m_maxRxHeaderBytes;
    FabricNicTransport* t = TransportOf(frame.GetHead() + l2Bytes, frame.GetHeadBytes() - l2Bytes);
    if (t)
    {
        want = l2Bytes +
               t->GetRxHeaderBytes(frame.GetHead() + l2Bytes, frame.GetHeadBytes() - l2Bytes);
    }
    frame.LoadHead(want);
    const uint8_t* b = frame.GetHead() + l2Bytes;
    uint32_t got = std::min(frame.GetHeadBytes() - l2Bytes, m_maxRxHeaderBytes);
    uint32_t size = wire::GetU16(b + 2);
    if (!t)
    {
        t = TransportOf(b, got); // the head was too short to say before LoadHead
    }
    FabricNicDropReason reason;
    if (!Deliver(portIndex, b, got, size, t, reason))
    {
        Drop(frame.GetPacket(), l2Bytes, size, reason);
    }
}

bool
FabricNic::Deliver(uint32_t portIndex,
                   const uint8_t* b,
                   uint32_t got,
                   uint32_t size,
                   FabricNicTransport* t,
                   FabricNicDropReason& reason)
{
    if (got < IP_UDP_BYTES || size < IP_UDP_BYTES)
    {
        reason = FabricNicDropReason::MALFORMED;
        return false;
    }
    uint32_t ihl = (b[0] & 0x0f) * 4u;
    if ((b[0] >> 4) != 4 || ihl != 20 || b[9] != 17 || t == nullptr)
    {
        reason = FabricNicDropReason::NO_TRANSPORT;
        return false;
    }
    if (wire::GetU32(b + 16) != m_ports[portIndex].addressBits)
    {
        reason = FabricNicDropReason::WRONG_ADDRESS;
        return false;
    }
    if (!t->Deliver(portIndex, b, got, size, reason))
    {
        return false;
    }
    ++m_deliveredFrames;
    return true;
}

void
FabricNic::SetWorkCallback(Callback<void, int64_t> cb)
{
    m_workCallback = cb;
}

uint64_t
FabricNic::GetPendingOperations() const
{
    uint64_t n = 0;
    m_transports.ForEach([&n](uint16_t, FabricNicTransport* t) { n += t->GetPendingOperations(); });
    return n;
}

uint32_t
FabricNic::DescribePending(std::ostream& os, const std::string& prefix) const
{
    uint32_t n = 0;
    m_transports.ForEach([&](uint16_t, FabricNicTransport* t) {
        std::ostringstream lines;
        t->DescribePending(lines);
        std::istringstream in(lines.str());
        std::string line;
        while (std::getline(in, line))
        {
            os << prefix << line << "\n";
            ++n;
        }
    });
    return n;
}

uint64_t
FabricNicTransport::GetPendingOperations() const
{
    return 0;
}

void
FabricNicTransport::DescribePending(std::ostream&) const
{
}

void
FabricNic::Drop(Ptr<const Packet> packet,
                uint32_t offset,
                uint32_t size,
                FabricNicDropReason reason)
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
FabricNic::Drop(Ptr<const Packet> packet, FabricNicDropReason reason)
{
    NS_LOG_LOGIC("drop (" << FabricNicDropReasonName(reason) << ")");
    m_drops[size_t(reason)]++;
    m_dropTrace(packet, reason);
}

void
FabricNic::AccountRx(uint32_t portIndex, uint8_t priority, uint64_t bytes)
{
    if (!m_rxDrainOn)
    {
        return;
    }
    NS_ABORT_MSG_IF(m_rxXon >= m_rxXoff,
                    "FabricNic RxXonBytes " << m_rxXon << " must be below RxXoffBytes "
                                            << m_rxXoff);
    Port& port = m_ports[portIndex];
    port.rxPriority = priority;
    DrainRx(portIndex, priority);
    port.rxBacklog += double(bytes);
    if (port.rxBacklog > double(m_rxXoff) && !port.dev->IsXoff(priority))
    {
        port.dev->SetXoff(priority, true);
        port.xonCheck.Cancel();
        if (m_rxStalled)
        {
            return; // no XON check while nothing drains: SetRxStalled(false) schedules it
        }
        port.xonCheck = Simulator::Schedule(RxXonDelay(port.rxBacklog),
                                            &FabricNic::DrainRx,
                                            this,
                                            portIndex,
                                            priority);
    }
}

void
FabricNic::DrainRx(uint32_t portIndex, uint8_t priority)
{
    Port& port = m_ports[portIndex];
    Time now = Simulator::Now();
    if (m_rxStalled)
    {
        port.rxBacklogAt = now; // nothing drains while the host is stalled
        return;
    }
    double drained = (now - port.rxBacklogAt).GetSeconds() * m_rxDrainRate.GetBitRate() / 8.0;
    port.rxBacklog = std::max(0.0, port.rxBacklog - drained);
    port.rxBacklogAt = now;
    if (port.dev->IsXoff(priority))
    {
        if (port.rxBacklog <= double(m_rxXon) + 1e-6)
        {
            port.dev->SetXoff(priority, false);
        }
        else if (!compat::IsPending(port.xonCheck))
        {
            port.xonCheck = Simulator::Schedule(RxXonDelay(port.rxBacklog),
                                                &FabricNic::DrainRx,
                                                this,
                                                portIndex,
                                                priority);
        }
    }
}

Time
FabricNic::RxXonDelay(double backlog) const
{
    const Time until = Seconds((backlog - double(m_rxXon)) * 8.0 / m_rxDrainRate.GetBitRate());
    return until.IsStrictlyPositive() ? until : TimeStep(1);
}

void
FabricNic::SetRxStalled(bool stalled)
{
    NS_LOG_FUNCTION(this << stalled);
    NS_ABORT_MSG_IF(!m_rxDrainOn,
                    "FabricNic::SetRxStalled: host-side PFC is off "
                    "(ns3::FabricNic::RxDrainRate is 0 bit/s), so there is no host buffer to "
                    "fill; set ns3::FabricNic::RxDrainRate > 0");
    if (stalled == m_rxStalled)
    {
        return;
    }
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        // Account the drain up to now under the old state, then switch.
        DrainRx(p, m_ports[p].rxPriority);
    }
    m_rxStalled = stalled;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        Port& port = m_ports[p];
        port.rxBacklogAt = Simulator::Now();
        port.xonCheck.Cancel();
        if (!stalled)
        {
            DrainRx(p, port.rxPriority); // schedules the XON check of a paused port
        }
    }
    m_rxStallTrace(stalled);
}

bool
FabricNic::IsRxStalled() const
{
    return m_rxStalled;
}

uint64_t
FabricNic::GetRxBacklog(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "FabricNic::GetRxBacklog: port " << port << " out of range (" << m_ports.size()
                                                     << " ports)");
    return uint64_t(std::llround(m_ports[port].rxBacklog));
}

} // namespace ns3
