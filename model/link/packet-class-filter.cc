/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a port's receive filter that drops one class of transport packets.
 */
#include "packet-class-filter.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/fabric-wire-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PacketClassFilter");
NS_OBJECT_ENSURE_REGISTERED(PacketClassFilter);

const char*
FabricPacketClassName(FabricPacketClass c)
{
    switch (c)
    {
    case FabricPacketClass::OTHER:
        return "other";
    case FabricPacketClass::ACK:
        return "ack";
    case FabricPacketClass::NAK:
        return "nak";
    case FabricPacketClass::CNP:
        return "cnp";
    default:
        NS_ABORT_MSG("FabricPacketClassName: " << unsigned(c) << " is not a packet class");
    }
    return "";
}

TypeId
PacketClassFilter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PacketClassFilter")
            .SetParent<ErrorModel>()
            .SetGroupName("AiFabric")
            .AddConstructor<PacketClassFilter>()
            .AddAttribute("DropProbability",
                          "Probability that a frame of the dropped class is dropped, in (0, 1].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&PacketClassFilter::SetDropProbability,
                                             &PacketClassFilter::GetDropProbability),
                          MakeDoubleChecker<double>())
            .AddTraceSource("Drop",
                            "A frame of the dropped class was dropped: the frame, its class.",
                            MakeTraceSourceAccessor(&PacketClassFilter::m_dropTrace),
                            "ns3::PacketClassFilter::DropTracedCallback");
    return tid;
}

PacketClassFilter::PacketClassFilter()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

PacketClassFilter::~PacketClassFilter()
{
    NS_LOG_FUNCTION(this);
}

void
PacketClassFilter::DoDispose()
{
    m_next = nullptr;
    m_uniform = nullptr;
    ErrorModel::DoDispose();
}

void
PacketClassFilter::AddClassifier(uint16_t udpDstPort, FabricPacketClassifyFn classify)
{
    NS_ABORT_MSG_IF(udpDstPort == 0,
                    "PacketClassFilter::AddClassifier: UDP port 0 is invalid; valid ports are "
                    "1..65535");
    NS_ABORT_MSG_IF(!classify,
                    "PacketClassFilter::AddClassifier: null classifier for UDP port "
                        << udpDstPort);
    m_classifiers.Set(udpDstPort, classify);
}

void
PacketClassFilter::SetDropClass(FabricPacketClass c)
{
    NS_ABORT_MSG_IF(c == FabricPacketClass::OTHER || c >= FabricPacketClass::COUNT,
                    "PacketClassFilter::SetDropClass: class "
                        << unsigned(c) << " is invalid; valid: ack, nak, cnp");
    m_class = c;
}

FabricPacketClass
PacketClassFilter::GetDropClass() const
{
    return m_class;
}

void
PacketClassFilter::SetDropProbability(double p)
{
    NS_ABORT_MSG_IF(
        !(p > 0 && p <= 1),
        "ns3::PacketClassFilter::DropProbability=" << p << " is invalid; valid range (0, 1]");
    m_probability = p;
}

double
PacketClassFilter::GetDropProbability() const
{
    return m_probability;
}

void
PacketClassFilter::SetNext(Ptr<ErrorModel> next)
{
    m_next = next;
}

Ptr<ErrorModel>
PacketClassFilter::GetNext() const
{
    return m_next;
}

FabricPacketClass
PacketClassFilter::Classify(Ptr<const Packet> frame) const
{
    uint8_t b[PEEK_BYTES];
    const uint32_t got = frame->CopyData(b, PEEK_BYTES);
    uint32_t l2 = 14;
    if (got < l2)
    {
        return FabricPacketClass::OTHER;
    }
    uint16_t type = wire::GetU16(b + 12);
    if (type == 0x8100)
    {
        l2 += 4;
        if (got < l2)
        {
            return FabricPacketClass::OTHER;
        }
        type = wire::GetU16(b + 16);
    }
    if (type != 0x0800 || got < l2 + 20 || b[l2 + 9] != 17) // IPv4, UDP
    {
        return FabricPacketClass::OTHER;
    }
    const uint32_t l4 = l2 + uint32_t(b[l2] & 0x0f) * 4 + 8;
    if (got < l4)
    {
        return FabricPacketClass::OTHER;
    }
    FabricPacketClassifyFn classify = m_classifiers.Find(wire::GetU16(b + l4 - 6));
    return classify ? classify(b + l4, got - l4) : FabricPacketClass::OTHER;
}

bool
PacketClassFilter::DoCorrupt(Ptr<Packet> p)
{
    const FabricPacketClass c = Classify(p);
    m_seen[size_t(c)]++;
    if (c == m_class && (m_probability >= 1.0 || m_uniform->GetValue() < m_probability))
    {
        NS_LOG_LOGIC("drop " << FabricPacketClassName(c));
        m_drops[size_t(c)]++;
        m_dropTrace(p, c);
        return true;
    }
    return m_next && m_next->IsCorrupt(p);
}

void
PacketClassFilter::DoReset()
{
    if (m_next)
    {
        m_next->Reset();
    }
}

uint64_t
PacketClassFilter::GetDrops(FabricPacketClass c) const
{
    NS_ABORT_MSG_IF(c >= FabricPacketClass::COUNT,
                    "PacketClassFilter::GetDrops: " << unsigned(c) << " is not a packet class");
    return m_drops[size_t(c)];
}

uint64_t
PacketClassFilter::GetSeen(FabricPacketClass c) const
{
    NS_ABORT_MSG_IF(c >= FabricPacketClass::COUNT,
                    "PacketClassFilter::GetSeen: " << unsigned(c) << " is not a packet class");
    return m_seen[size_t(c)];
}

int64_t
PacketClassFilter::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

} // namespace ns3
