/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-congestion-ops.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(RoceNoneCongestionOps);

TypeId
RoceCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceCongestionOps")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddTraceSource("Rate",
                                            "The QP's pacing rate.",
                                            MakeTraceSourceAccessor(&RoceCongestionOps::m_rate),
                                            "ns3::TracedValueCallback::DataRate")
                            .AddTraceSource("Window",
                                            "The QP's in-flight window, bytes (0 = none).",
                                            MakeTraceSourceAccessor(&RoceCongestionOps::m_window),
                                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

RoceCongestionOps::RoceCongestionOps()
    : m_lineRate(DataRate("400Gbps")),
      m_rate(DataRate("400Gbps")),
      m_window(0)
{
}

RoceCongestionOps::~RoceCongestionOps() = default;

void
RoceCongestionOps::DoDispose()
{
    m_rateChanged.Nullify();
    Object::DoDispose();
}

void
RoceCongestionOps::Init(DataRate lineRate)
{
    NS_ABORT_MSG_IF(lineRate.GetBitRate() == 0,
                    GetName() << ": line rate " << lineRate << " is invalid; it must be > 0");
    m_lineRate = lineRate;
    m_rate = lineRate;
}

bool
RoceCongestionOps::WantsRttSamples() const
{
    return false;
}

void
RoceCongestionOps::OnAck(uint64_t, Time)
{
}

void
RoceCongestionOps::OnCnp()
{
}

void
RoceCongestionOps::OnNak()
{
}

void
RoceCongestionOps::OnTimeout()
{
}

void
RoceCongestionOps::OnBytesSent(uint32_t)
{
}

void
RoceCongestionOps::SetRate(DataRate rate)
{
    uint64_t bps = std::max<uint64_t>(1, std::min(rate.GetBitRate(), m_lineRate.GetBitRate()));
    if (bps != DataRate(m_rate).GetBitRate())
    {
        m_rate = DataRate(bps);
        if (!m_rateChanged.IsNull())
        {
            m_rateChanged();
        }
    }
}

void
RoceCongestionOps::SetRateChangeCallback(Callback<void> cb)
{
    m_rateChanged = cb;
}

void
RoceCongestionOps::SetWindow(uint64_t bytes)
{
    m_window = bytes;
}

TypeId
RoceNoneCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceNoneCongestionOps")
                            .SetParent<RoceCongestionOps>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceNoneCongestionOps>();
    return tid;
}

std::string
RoceNoneCongestionOps::GetName() const
{
    return "None";
}

Ptr<RoceCongestionOps>
RoceNoneCongestionOps::Fork() const
{
    return CopyObject<RoceNoneCongestionOps>(this);
}

} // namespace ns3
