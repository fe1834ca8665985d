/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-transport.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveTransport");
NS_OBJECT_ENSURE_REGISTERED(CollectiveTransport);

TypeId
CollectiveTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveTransport")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddTraceSource("Failure",
                            "A connection failed: source rank, destination rank, channel, "
                            "reason.",
                            MakeTraceSourceAccessor(&CollectiveTransport::m_failureTrace),
                            "ns3::CollectiveTransport::FailureTracedCallback");
    return tid;
}

CollectiveTransport::CollectiveTransport()
    : m_nFailures(0)
{
}

CollectiveTransport::~CollectiveTransport() = default;

void
CollectiveTransport::DoDispose()
{
    m_hopType.Nullify();
    Object::DoDispose();
}

CollectiveHopType
CollectiveTransport::GetHopType(uint32_t src, uint32_t dst) const
{
    return m_hopType.IsNull() ? CollectiveHopType::NETWORK : m_hopType(src, dst);
}

void
CollectiveTransport::SetHopTypeCallback(HopTypeCallback cb)
{
    m_hopType = cb;
}

uint32_t
CollectiveTransport::GetNFailures() const
{
    return m_nFailures;
}

void
CollectiveTransport::NotifyFailure(uint32_t src,
                                   uint32_t dst,
                                   uint32_t channel,
                                   const std::string& reason)
{
    NS_LOG_WARN("connection " << src << "->" << dst << " channel " << channel
                              << " failed: " << reason);
    m_nFailures++;
    m_failureTrace(src, dst, channel, reason);
}

int64_t
CollectiveTransport::AssignStreams(int64_t stream)
{
    return 0;
}

} // namespace ns3
