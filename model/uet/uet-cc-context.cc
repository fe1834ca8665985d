/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a UET congestion control context (CCC), shared by the PDCs of one
 * {source, destination, traffic class}.
 */
#include "uet-cc-context.h"

#include "uet-pdc.h"

#include "ns3/abort.h"
#include "ns3/fabric-cc-state.h"
#include "ns3/fabric-nic.h"
#include "ns3/fabric-time.h"

#include <algorithm>

namespace ns3
{

UetCcContext::UetCcContext(Ptr<FabricCongestionOps> cc, FabricNic* core, uint64_t key)
    : m_cc(std::move(cc)),
      m_state(nullptr),
      m_core(core),
      m_key(key)
{
    NS_ABORT_MSG_IF(!m_cc || !m_cc->GetState(), "UetCcContext: the algorithm is not Init()ed");
    m_state = PeekPointer(m_cc->GetState());
    m_state->SetRateChangeCallback(MakeCallback(&UetCcContext::OnRateChange, this));
}

UetCcContext::~UetCcContext()
{
    m_state->SetRateChangeCallback(Callback<void>());
}

void
UetCcContext::Join(UetPdc* pdc)
{
    m_members.push_back(pdc);
}

void
UetCcContext::Leave(UetPdc* pdc)
{
    auto it = std::find(m_members.begin(), m_members.end(), pdc);
    NS_ABORT_MSG_IF(it == m_members.end(), "UetCcContext::Leave: the PDC is not a member");
    m_members.erase(it);
}

uint64_t
UetCcContext::GetInflightBytes() const
{
    uint64_t sum = 0;
    for (const UetPdc* p : m_members)
    {
        sum += p->GetInflightBytes();
    }
    return sum;
}

Time
UetCcContext::GetNextSendTime() const
{
    DataRate rate = m_state->GetRate();
    if (m_lastWire == 0 || rate >= m_state->GetLineRate())
    {
        return Time(0);
    }
    return m_lastSendStart + BytesTxTime(m_lastWire, rate);
}

void
UetCcContext::WakeMembers()
{
    for (UetPdc* p : m_members)
    {
        if (p->HasPacketToSend())
        {
            m_core->Activate(p);
        }
    }
}

void
UetCcContext::OnRateChange()
{
    for (UetPdc* p : m_members)
    {
        m_core->Reschedule(p);
    }
}

} // namespace ns3
