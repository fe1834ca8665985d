/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-credit-pacer.h"

#include "uet-pdc.h"

#include "ns3/abort.h"
#include "ns3/ai-fabric-compat.h"
#include "ns3/fabric-time.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

UetCreditContext::UetCreditContext(uint64_t key, UetCreditPacer* pacer, uint8_t cccId)
    : m_key(key),
      m_cccId(cccId),
      m_pacer(pacer)
{
}

bool
UetCreditContext::OnTarget(uint32_t field, uint32_t chunk)
{
    field &= FIELD_MASK;
    if (m_fresh)
    {
        // Adopt the sender's numbering, at most two chunks behind (see the class comment).
        m_fresh = false;
        m_target = field;
        m_granted = field - std::min<uint64_t>(field, 2ull * chunk);
        return m_target > m_granted;
    }
    uint32_t delta = (field - static_cast<uint32_t>(m_target & FIELD_MASK)) & FIELD_MASK;
    if (delta == 0 || delta >= (1u << (FIELD_BITS - 1)))
    {
        return false; // the same target again, or an older one overtaken on another path
    }
    m_target += delta;
    return true;
}

void
UetCreditContext::Join(UetPdc* pdc)
{
    m_members.push_back(pdc);
}

void
UetCreditContext::Leave(UetPdc* pdc)
{
    auto it = std::find(m_members.begin(), m_members.end(), pdc);
    NS_ABORT_MSG_IF(it == m_members.end(), "UetCreditContext::Leave: the PDC is not a member");
    m_members.erase(it);
    if (m_via == pdc)
    {
        m_via = nullptr;
    }
}

UetPdc*
UetCreditContext::GetVia() const
{
    if (m_via)
    {
        return m_via;
    }
    return m_members.empty() ? nullptr : m_members.back();
}

UetCreditPacer::UetCreditPacer(DataRate rate, uint32_t chunk, uint64_t idleCredit)
    : m_rate(rate),
      m_chunk(chunk),
      m_idleCredit(idleCredit)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "UetCreditPacer: rate 0 is invalid; it must be > 0");
    NS_ABORT_MSG_IF(chunk == 0, "UetCreditPacer: chunk 0 is invalid; it must be > 0");
}

UetCreditPacer::~UetCreditPacer()
{
    m_event.Cancel(); // the simulator may be gone: Cancel, not Remove
}

void
UetCreditPacer::Request(UetCreditContext* ctx)
{
    if (ctx->queued || ctx->GetWanted() == 0)
    {
        return;
    }
    ctx->queued = true;
    m_queue.push_back(ctx);
    Arm();
}

void
UetCreditPacer::Remove(UetCreditContext* ctx)
{
    if (ctx->queued)
    {
        ctx->queued = false;
        m_queue.erase(std::find(m_queue.begin(), m_queue.end(), ctx));
    }
    if (ctx->idleQueued)
    {
        ctx->idleQueued = false;
        m_idle.erase(std::find(m_idle.begin(), m_idle.end(), ctx));
    }
    if (m_queue.empty() && m_idle.empty() && compat::IsPending(m_event))
    {
        Simulator::Remove(m_event); // nothing left to grant: no event keeps the run alive
    }
}

void
UetCreditPacer::AddIdle(UetCreditContext* ctx)
{
    if (m_idleCredit > 0 && !ctx->idleQueued && ctx->GetExtra() < m_idleCredit)
    {
        ctx->idleQueued = true;
        m_idle.push_back(ctx);
    }
}

void
UetCreditPacer::Send(UetCreditContext* ctx, UetPdc* via, uint64_t bytes)
{
    ctx->Grant(bytes);
    m_grants++;
    m_grantedBytes += bytes;
    m_nextFree = Simulator::Now() + BytesTxTime(bytes, m_rate);
    via->SendCredit(ctx->GetGrantedField());
}

void
UetCreditPacer::Arm()
{
    if ((m_queue.empty() && m_idle.empty()) || compat::IsPending(m_event))
    {
        return;
    }
    Time now = Simulator::Now();
    m_event =
        Simulator::Schedule(std::max(now, m_nextFree) - now, &UetCreditPacer::GrantNext, this);
}

void
UetCreditPacer::GrantNext()
{
    while (!m_queue.empty())
    {
        UetCreditContext* ctx = m_queue.front();
        m_queue.pop_front();
        ctx->queued = false;
        UetPdc* via = ctx->GetVia();
        uint64_t grant = std::min<uint64_t>(m_chunk, ctx->GetWanted());
        if (grant == 0 || !via)
        {
            AddIdle(ctx);
            continue; // satisfied meanwhile (or nothing to send it on): no time spent
        }
        if (ctx->GetWanted() > grant)
        {
            ctx->queued = true;
            m_queue.push_back(ctx);
        }
        else
        {
            AddIdle(ctx);
        }
        Send(ctx, via, grant);
        Arm();
        return;
    }
    // Nobody wants credit: the spare time goes to idle credit.
    while (!m_idle.empty())
    {
        UetCreditContext* ctx = m_idle.front();
        m_idle.pop_front();
        ctx->idleQueued = false;
        UetPdc* via = ctx->GetVia();
        uint64_t extra = ctx->GetExtra();
        if (extra >= m_idleCredit || !via)
        {
            continue;
        }
        uint64_t grant = std::min<uint64_t>(m_chunk, m_idleCredit - extra);
        if (extra + grant < m_idleCredit)
        {
            ctx->idleQueued = true;
            m_idle.push_back(ctx);
        }
        Send(ctx, via, grant);
        Arm();
        return;
    }
}

} // namespace ns3
