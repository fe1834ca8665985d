/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: a UET congestion control context (CCC), shared by the PDCs of one
 * {source, destination, traffic class}.
 */
#include "uet-cc-context.h"

#include "uet-credit-pacer.h"
#include "uet-nic.h"
#include "uet-pdc.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-cc-state.h"
#include "ns3/fabric-nic.h"
#include "ns3/fabric-time.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

UetCcContext::UetCcContext(Ptr<FabricCongestionOps> cc, UetNic* nic, uint64_t key, uint8_t cccId)
    : m_cc(std::move(cc)),
      m_state(nullptr),
      m_nic(nic),
      m_core(nic->GetCorePtr()),
      m_key(key),
      m_cccId(cccId)
{
    NS_ABORT_MSG_IF(!m_cc || !m_cc->GetState(), "UetCcContext: the algorithm is not Init()ed");
    m_state = PeekPointer(m_cc->GetState());
    m_state->SetRateChangeCallback(MakeCallback(&UetCcContext::OnRateChange, this));
}

UetCcContext::~UetCcContext()
{
    m_creditTimer.Cancel(); // the simulator may be gone: Cancel, not Remove
    m_state->SetRateChangeCallback(Callback<void>());
}

void
UetCcContext::Stop()
{
    if (compat::IsPending(m_creditTimer))
    {
        Simulator::Remove(m_creditTimer);
    }
}

uint64_t
UetCcContext::UpdateBacklog()
{
    uint64_t sum = 0;
    for (const UetPdc* p : m_members)
    {
        sum += p->GetBacklogWireBytes();
    }
    m_state->SetBacklog(sum);
    return sum;
}

uint64_t
UetCcContext::SpendCredit(uint32_t wireBytes)
{
    m_state->SpendCredit(wireBytes);
    UpdateBacklog();
    uint64_t target = m_cc->GetCreditTarget();
    m_advertised = std::max(m_advertised, target);
    return target;
}

void
UetCcContext::OnCreditField(uint32_t field)
{
    constexpr uint32_t MASK = UetCreditContext::FIELD_MASK;
    uint32_t delta = (field - static_cast<uint32_t>(m_granted & MASK)) & MASK;
    if (delta == 0 || delta >= (1u << (UetCreditContext::FIELD_BITS - 1)))
    {
        return; // nothing new, or an old grant overtaken by a newer one
    }
    m_granted += delta;
    m_lastGrant = m_core->Now();
    m_requestRetries = 0;
    m_cc->OnCredit(m_granted);
    WakeMembers();
}

void
UetCcContext::MaybeRequestCredit()
{
    if (HasCredit())
    {
        return;
    }
    RequestCredit(false);
}

void
UetCcContext::RequestCredit(bool retry)
{
    if (UpdateBacklog() == 0)
    {
        return;
    }
    uint64_t target = m_cc->GetCreditTarget();
    if (target <= m_advertised && !retry)
    {
        return; // the receiver knows (a request carried it): its pacer is on it
    }
    Time now = m_core->Now();
    Time interval = m_nic->GetCreditRequestInterval();
    if (!retry && m_lastRequest != Time::Min() && now < m_lastRequest + interval)
    {
        ArmCreditTimer(m_lastRequest + interval);
        return;
    }
    UetPdc* via = nullptr;
    for (UetPdc* p : m_members)
    {
        if (p->CanSendControl())
        {
            via = p;
            break;
        }
    }
    if (!via)
    {
        return; // no PDC knows its peer yet: the SYN's data carries the target
    }
    via->SendCreditRequest(static_cast<uint32_t>(target & UetCreditContext::FIELD_MASK));
    m_advertised = std::max(m_advertised, target);
    m_lastRequest = now;
    ArmCreditTimer(now + m_nic->GetRtoMin());
}

void
UetCcContext::ArmCreditTimer(Time at)
{
    Time now = m_core->Now();
    if (compat::IsPending(m_creditTimer))
    {
        if (now + Simulator::GetDelayLeft(m_creditTimer) <= at)
        {
            return;
        }
        Simulator::Remove(m_creditTimer);
    }
    m_creditTimer = Simulator::Schedule(std::max(at, now) - now, &UetCcContext::CreditTimer, this);
}

void
UetCcContext::CreditTimer()
{
    if (HasCredit() || UpdateBacklog() == 0)
    {
        m_requestRetries = 0;
        return; // sending again (or nothing left): the requests and grants ride on data
    }
    Time now = m_core->Now();
    Time since = std::max(m_lastRequest, m_lastGrant);
    if (since == Time::Min() || now >= since + m_nic->GetRtoMin())
    {
        // Neither a grant nor a request for RtoMin while stuck: ask again, or give up.
        if (++m_requestRetries > m_nic->GetRetryLimit())
        {
            std::string why = "no credit granted after " + std::to_string(m_requestRetries) +
                              " Credit-Requests (RetryLimit " +
                              std::to_string(m_nic->GetRetryLimit()) + ")";
            // Closing makes the members leave; the last one frees this context: locals only.
            std::vector<UetPdc*> members = m_members;
            for (UetPdc* p : members)
            {
                p->CloseInError(why);
            }
            return;
        }
        RequestCredit(true);
        return;
    }
    if (m_cc->GetCreditTarget() > m_advertised)
    {
        RequestCredit(false); // a request deferred by the interval
    }
    ArmCreditTimer(since + m_nic->GetRtoMin());
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
