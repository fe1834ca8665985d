/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-bulk-sender.h"

#include "ns3/abort.h"
#include "ns3/fabric-attribute-checker.h"
#include "ns3/ipv4-header.h"
#include "ns3/pfc-channel.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcBulkSender);
NS_OBJECT_ENSURE_REGISTERED(PfcPacketSink);

namespace
{
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;
constexpr uint32_t IPV4_UDP_HEADERS = 28;
} // namespace

TypeId
PfcBulkSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcBulkSender")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<PfcBulkSender>()
            .AddAttribute("PacketSize",
                          "IPv4 total length of each packet, bytes (28..port MTU).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&PfcBulkSender::m_packetSize),
                          MakeFabricUintegerChecker<uint32_t>("ns3::PfcBulkSender::PacketSize",
                                                              IPV4_UDP_HEADERS,
                                                              9216))
            .AddAttribute("MaxPackets",
                          "Number of packets to send (>= 1).",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&PfcBulkSender::m_maxPackets),
                          MakeFabricUintegerChecker<uint64_t>("ns3::PfcBulkSender::MaxPackets", 1))
            .AddAttribute("Dscp",
                          "IPv4 DSCP (0..63); the port maps it to a priority (26 -> 3).",
                          UintegerValue(26),
                          MakeUintegerAccessor(&PfcBulkSender::m_dscp),
                          MakeFabricUintegerChecker<uint8_t>("ns3::PfcBulkSender::Dscp", 0, 63))
            .AddAttribute("Ecn",
                          "IPv4 ECN field: 0 Not-ECT, 1 ECT(1), 2 ECT(0).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&PfcBulkSender::m_ecn),
                          MakeFabricUintegerChecker<uint8_t>("ns3::PfcBulkSender::Ecn", 0, 2))
            .AddAttribute("SourcePort",
                          "UDP source port (flow entropy).",
                          UintegerValue(49152),
                          MakeUintegerAccessor(&PfcBulkSender::m_srcPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("DestinationPort",
                          "UDP destination port.",
                          UintegerValue(9),
                          MakeUintegerAccessor(&PfcBulkSender::m_dstPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Depth",
                          "Frames kept queued in the port (>= 1).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&PfcBulkSender::m_depth),
                          MakeFabricUintegerChecker<uint32_t>("ns3::PfcBulkSender::Depth", 1))
            .AddTraceSource("Tx",
                            "A packet was handed to the port.",
                            MakeTraceSourceAccessor(&PfcBulkSender::m_txTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

PfcBulkSender::PfcBulkSender()
    : m_packetSize(4096),
      m_maxPackets(1000),
      m_dscp(26),
      m_ecn(2),
      m_srcPort(49152),
      m_dstPort(9),
      m_depth(2),
      m_priority(0),
      m_sentPackets(0),
      m_sentBytes(0)
{
}

void
PfcBulkSender::DoDispose()
{
    m_port = nullptr;
    Object::DoDispose();
}

void
PfcBulkSender::Setup(Ptr<PfcNetDevice> port, Ipv4Address src, Ipv4Address dst)
{
    NS_ABORT_MSG_IF(!port, "PfcBulkSender::Setup given a null port");
    Ptr<PfcChannel> ch = port->GetPfcChannel();
    NS_ABORT_MSG_IF(!ch || ch->GetNDevices() != 2,
                    "PfcBulkSender::Setup: the port is not connected to a peer");
    m_port = port;
    m_peerMac = ch->GetPfcDevice(0) == port ? ch->GetPfcDevice(1)->GetAddress()
                                            : ch->GetPfcDevice(0)->GetAddress();
    m_src = src;
    m_dst = dst;
    m_port->SetDequeueCallback(MakeCallback(&PfcBulkSender::OnDequeue, this));
}

void
PfcBulkSender::Start(Time at)
{
    NS_ABORT_MSG_IF(!m_port, "PfcBulkSender::Start before Setup()");
    NS_ABORT_MSG_IF(m_packetSize > m_port->GetMtu(),
                    "PfcBulkSender PacketSize " << m_packetSize << " exceeds the port MTU "
                                                << m_port->GetMtu());
    NS_ABORT_MSG_IF(at < Simulator::Now(), "PfcBulkSender::Start at " << at << " is in the past");
    Simulator::Schedule(at - Simulator::Now(), &PfcBulkSender::DoStart, this);
}

void
PfcBulkSender::DoStart()
{
    m_startTime = Simulator::Now();
    m_priority = m_port->GetDscpPriority(m_dscp);
    for (uint32_t i = 0; i < m_depth && !IsDone(); ++i)
    {
        SendOne();
    }
}

void
PfcBulkSender::SendOne()
{
    Ptr<Packet> p = Create<Packet>(m_packetSize - IPV4_UDP_HEADERS);
    UdpHeader udp;
    udp.SetSourcePort(m_srcPort);
    udp.SetDestinationPort(m_dstPort);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(m_src);
    ip.SetDestination(m_dst);
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetIdentification(static_cast<uint16_t>(m_sentPackets));
    ip.SetPayloadSize(m_packetSize - 20);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(m_dscp));
    ip.SetEcn(static_cast<Ipv4Header::EcnType>(m_ecn));
    ip.EnableChecksum();
    p->AddHeader(ip);
    m_sentPackets++;
    m_sentBytes += m_packetSize;
    m_txTrace(p);
    m_port->Send(p, m_peerMac, IPV4_ETHERTYPE);
}

void
PfcBulkSender::OnDequeue(const Ptr<PfcNetDevice>&, uint8_t priority, const Ptr<const Packet>&)
{
    if (priority == m_priority && !IsDone())
    {
        SendOne();
    }
}

uint64_t
PfcBulkSender::GetSentBytes() const
{
    return m_sentBytes;
}

uint64_t
PfcBulkSender::GetSentPackets() const
{
    return m_sentPackets;
}

bool
PfcBulkSender::IsDone() const
{
    return m_sentPackets >= m_maxPackets;
}

Time
PfcBulkSender::GetStartTime() const
{
    return m_startTime;
}

TypeId
PfcPacketSink::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcPacketSink")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PfcPacketSink>()
                            .AddTraceSource("Rx",
                                            "An IPv4 packet was received.",
                                            MakeTraceSourceAccessor(&PfcPacketSink::m_rxTrace),
                                            "ns3::Packet::TracedCallback");
    return tid;
}

PfcPacketSink::PfcPacketSink()
    : m_bytes(0),
      m_packets(0),
      m_ce(0)
{
}

void
PfcPacketSink::Setup(Ptr<PfcNetDevice> port)
{
    NS_ABORT_MSG_IF(!port, "PfcPacketSink::Setup given a null port");
    port->SetPfcReceiveCallback(MakeCallback(&PfcPacketSink::OnReceive, this));
}

void
PfcPacketSink::OnReceive(Ptr<PfcNetDevice>, Ptr<Packet> p, uint16_t protocol, Mac48Address, uint8_t)
{
    if (protocol != IPV4_ETHERTYPE)
    {
        return;
    }
    uint8_t tos[2];
    p->CopyData(tos, 2);
    m_ce += (tos[1] & 0x03) == 0x03;
    if (m_packets == 0)
    {
        m_first = Simulator::Now();
    }
    m_last = Simulator::Now();
    m_packets++;
    m_bytes += p->GetSize();
    m_rxTrace(p);
}

uint64_t
PfcPacketSink::GetBytes() const
{
    return m_bytes;
}

uint64_t
PfcPacketSink::GetPackets() const
{
    return m_packets;
}

uint64_t
PfcPacketSink::GetCePackets() const
{
    return m_ce;
}

Time
PfcPacketSink::GetFirst() const
{
    return m_first;
}

Time
PfcPacketSink::GetLast() const
{
    return m_last;
}

} // namespace ns3
