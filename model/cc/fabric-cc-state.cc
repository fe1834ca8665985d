/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-cc-state.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricCcState);

TypeId
FabricCcState::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricCcState")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<FabricCcState>()
                            .AddTraceSource("Rate",
                                            "The flow's pacing rate (bits/s on the wire).",
                                            MakeTraceSourceAccessor(&FabricCcState::m_rate),
                                            "ns3::TracedValueCallback::DataRate")
                            .AddTraceSource("Window",
                                            "The flow's in-flight window, bytes (0 = none).",
                                            MakeTraceSourceAccessor(&FabricCcState::m_window),
                                            "ns3::TracedValueCallback::Uint64")
                            .AddTraceSource("TargetRate",
                                            "The rate the algorithm is heading for.",
                                            MakeTraceSourceAccessor(&FabricCcState::m_targetRate),
                                            "ns3::TracedValueCallback::DataRate")
                            .AddTraceSource("Credit",
                                            "The flow's credit, bytes on the wire (receiver "
                                            "credit algorithms; may be negative).",
                                            MakeTraceSourceAccessor(&FabricCcState::m_credit),
                                            "ns3::TracedValueCallback::Int64");
    return tid;
}

FabricCcState::FabricCcState()
    : m_lineRate(DataRate("400Gbps")),
      m_rate(m_lineRate),
      m_window(0),
      m_targetRate(m_lineRate)
{
}

FabricCcState::~FabricCcState() = default;

void
FabricCcState::DoDispose()
{
    m_rateChanged.Nullify();
    Object::DoDispose();
}

void
FabricCcState::Init(DataRate lineRate)
{
    NS_ABORT_MSG_IF(lineRate.GetBitRate() == 0,
                    "FabricCcState: line rate " << lineRate << " is invalid; it must be > 0");
    m_lineRate = lineRate;
    m_rate.Set(lineRate);
    m_window.Set(0);
    m_targetRate.Set(lineRate);
}

void
FabricCcState::SetRate(DataRate rate)
{
    uint64_t bps = std::max<uint64_t>(1, std::min(rate.GetBitRate(), m_lineRate.GetBitRate()));
    if (bps != DataRate(m_rate).GetBitRate())
    {
        m_rate.Set(DataRate(bps));
        if (!m_rateChanged.IsNull())
        {
            m_rateChanged();
        }
    }
}

void
FabricCcState::SetWindow(uint64_t bytes)
{
    m_window.Set(bytes);
}

void
FabricCcState::SetTargetRate(DataRate rate)
{
    m_targetRate.Set(DataRate(std::min(rate.GetBitRate(), m_lineRate.GetBitRate())));
}

void
FabricCcState::SetRateChangeCallback(Callback<void> cb)
{
    m_rateChanged = cb;
}

} // namespace ns3
