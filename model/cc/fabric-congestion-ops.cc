/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-congestion-ops.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(FabricNoneCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(FabricCcReceiverOps);

const char*
FabricCcEventName(FabricCcEvent e)
{
    switch (e)
    {
    case FabricCcEvent::CNP:
        return "CNP";
    case FabricCcEvent::NACK:
        return "NACK";
    case FabricCcEvent::TIMEOUT:
        return "TIMEOUT";
    case FabricCcEvent::TRIM:
        return "TRIM";
    }
    return "unknown";
}

TypeId
FabricCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricCongestionOps").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

FabricCongestionOps::FabricCongestionOps() = default;
FabricCongestionOps::~FabricCongestionOps() = default;

void
FabricCongestionOps::DoDispose()
{
    m_state = nullptr;
    Object::DoDispose();
}

void
FabricCongestionOps::Init(Ptr<FabricCcState> state)
{
    NS_ABORT_MSG_IF(!state, GetName() << ": Init given a null FabricCcState");
    m_state = state;
    m_state->SetRate(m_state->GetLineRate());
    m_state->SetWindow(0);
}

void
FabricCongestionOps::Init(DataRate lineRate)
{
    NS_ABORT_MSG_IF(lineRate.GetBitRate() == 0,
                    GetName() << ": line rate " << lineRate << " is invalid; it must be > 0");
    Ptr<FabricCcState> state = CreateObject<FabricCcState>();
    state->Init(lineRate);
    Init(state);
}

void
FabricCongestionOps::OnAck(const FabricCcAckSample&)
{
}

void
FabricCongestionOps::OnEvent(FabricCcEvent)
{
}

bool
FabricCongestionOps::UsesCredit() const
{
    return false;
}

void
FabricCongestionOps::OnCredit(uint64_t)
{
}

uint64_t
FabricCongestionOps::GetCreditTarget()
{
    return 0;
}

void
FabricCongestionOps::OnBytesSent(uint32_t)
{
}

bool
FabricCongestionOps::WantsRttSamples() const
{
    return false;
}

bool
FabricCongestionOps::WantsReceiverState() const
{
    return false;
}

Ptr<FabricCcState>
FabricCongestionOps::GetState() const
{
    return m_state;
}

void
FabricCongestionOps::SetRate(DataRate rate)
{
    NS_ABORT_MSG_IF(!m_state, GetName() << ": SetRate before Init");
    m_state->SetRate(rate);
}

void
FabricCongestionOps::SetWindow(uint64_t bytes)
{
    NS_ABORT_MSG_IF(!m_state, GetName() << ": SetWindow before Init");
    m_state->SetWindow(bytes);
}

TypeId
FabricNoneCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricNoneCongestionOps")
                            .SetParent<FabricCongestionOps>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<FabricNoneCongestionOps>();
    return tid;
}

std::string
FabricNoneCongestionOps::GetName() const
{
    return "None";
}

Ptr<FabricCongestionOps>
FabricNoneCongestionOps::Fork() const
{
    return CopyObject<FabricNoneCongestionOps>(this);
}

TypeId
FabricCcReceiverOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricCcReceiverOps").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

FabricCcReceiverOps::FabricCcReceiverOps() = default;
FabricCcReceiverOps::~FabricCcReceiverOps() = default;

} // namespace ns3
