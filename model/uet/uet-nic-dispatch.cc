/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric: UetNic, operations and PDCs: operations posted and dispatched to their PDC (or
 * RUDI/UUD flow), waiting for a PDCID when a FEP's pool is empty, initiator PDCs opened (each
 * FEP's PDCs are in its UetPdcTable), PDCs opened, closing and closed (counters, traces, the
 * PDCID back to the pool), and the congestion control and receiver credit contexts PDCs share.
 * The class is declared in uet-nic.h; its attributes, ports, endpoints and framing are in
 * uet-nic.cc, its receive path in uet-nic-receive.cc.
 */
#include "uet-nic.h"
#include "uet-pds-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rccc-congestion-ops.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

uint32_t
UetNic::GetNOpenPdcs() const
{
    return m_openPdcs;
}

const UetPdc*
UetNic::GetPdc(uint32_t port, uint16_t id) const
{
    return port < m_feps.size() ? m_feps[port].pdcs.Get(id) : nullptr;
}

const UetPdc*
UetNic::FindInitiatorPdc(uint32_t port, UetDeliveryMode mode, uint32_t jobId, Ipv4Address dst) const
{
    if (port >= m_feps.size())
    {
        return nullptr;
    }
    return m_feps[port].pdcs.FindInitiator(mode, jobId, dst.Get());
}

void
UetNic::DescribePending(std::ostream& os) const
{
    for (const auto& fep : m_feps)
    {
        fep.pdcs.DescribePending(os);
        for (const auto& [key, flow] : fep.pdcless)
        {
            if (flow->GetPendingOperations() > 0)
            {
                flow->Describe(os);
                os << "\n";
            }
        }
        if (!fep.waiting.empty())
        {
            os << "UET: " << fep.waiting.size()
               << " operation(s) wait for a free PDCID (PdcPoolSize " << m_poolSize << ")\n";
        }
    }
}

UetCcContext*
UetNic::AcquireCcContext(uint32_t port, Ipv4Address peer, UetPdc* pdc)
{
    uint64_t key = (uint64_t(port) << 40) | (uint64_t(GetDataPriority(port)) << 32) | peer.Get();
    if (!m_shareCcc)
    {
        key = (uint64_t(1) << 63) | m_nextCccId; // one context per PDC
    }
    auto it = m_cccs.find(key);
    if (it == m_cccs.end())
    {
        // A new context takes the next CCC id (mod 256): a receiver tells a recreated
        // context from the one before it.
        uint8_t cccId = static_cast<uint8_t>(m_nextCccId++);
        it = m_cccs
                 .emplace(
                     key,
                     std::make_unique<UetCcContext>(NewCongestionOps(port, peer), this, key, cccId))
                 .first;
    }
    it->second->Join(pdc);
    return it->second.get();
}

void
UetNic::ReleaseCcContext(UetCcContext* ccc, UetPdc* pdc)
{
    ccc->Leave(pdc);
    if (ccc->GetMembers() == 0)
    {
        ccc->Stop();
        m_cccs.erase(ccc->GetKey()); // memory follows the open PDCs
    }
}

UetCreditContext*
UetNic::AcquireCreditContext(uint32_t port, Ipv4Address src, uint8_t cccId, UetPdc* pdc)
{
    uint64_t key = (uint64_t(port & 0xFFFFFF) << 40) | (uint64_t(cccId) << 32) | src.Get();
    auto it = m_creditCtxs.find(key);
    if (it == m_creditCtxs.end())
    {
        it = m_creditCtxs
                 .emplace(key, std::make_unique<UetCreditContext>(key, GetCreditPacer(port), cccId))
                 .first;
    }
    it->second->Join(pdc);
    return it->second.get();
}

void
UetNic::ReleaseCreditContext(UetCreditContext* ctx, UetPdc* pdc)
{
    ctx->Leave(pdc);
    if (ctx->GetMembers() == 0)
    {
        ctx->GetPacer()->Remove(ctx);
        m_creditCtxs.erase(ctx->GetKey());
    }
}

UetCreditPacer*
UetNic::GetCreditPacer(uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_feps.size(), "UetNic::GetCreditPacer: no port " << port);
    if (m_creditPacers.size() < m_feps.size())
    {
        m_creditPacers.resize(m_feps.size());
    }
    if (!m_creditPacers[port])
    {
        uint64_t line = m_core->GetPort(port)->GetDataRate().GetBitRate();
        auto bps = static_cast<uint64_t>(std::llround(m_creditRate * static_cast<double>(line)));
        Ptr<RcccCongestionOps> rccc = DynamicCast<RcccCongestionOps>(GetCongestionPrototype());
        if (!rccc)
        {
            rccc = CreateObject<RcccCongestionOps>();
        }
        DataRate rate = m_core->GetPort(port)->GetDataRate();
        auto idle = static_cast<uint64_t>(
            std::llround(m_idleCredit * static_cast<double>(rccc->ComputeMaxWindow(rate))));
        m_creditPacers[port] =
            std::make_unique<UetCreditPacer>(DataRate(std::max<uint64_t>(bps, 1)),
                                             m_creditChunk,
                                             idle);
    }
    return m_creditPacers[port].get();
}

Ptr<FabricCongestionOps>
UetNic::NewCongestionOps(uint32_t port, Ipv4Address peer)
{
    GetCongestionPrototype();
    Ptr<FabricCcState> state = CreateObject<FabricCcState>();
    state->Init(m_core->GetPort(port)->GetDataRate());
    state->SetPathRtt(GetPathRtt(peer));
    Ptr<FabricCongestionOps> cc = m_ccPrototype->Fork();
    cc->Init(state);
    return cc;
}

uint16_t
UetNic::NewEv()
{
    return static_cast<uint16_t>(m_rng->GetInteger(EV_PORT_BASE, EV_PORT_BASE + EV_PORTS - 1));
}

uint64_t
UetNic::PostOperation(uint32_t port, UetDeliveryMode mode, UetTxMessage m)
{
    NS_ABORT_MSG_IF(port >= m_feps.size() || !m_feps[port].pdcs.IsInitialized(),
                    "UetNic: port " << port << " does not exist");
    m.opId = m_nextOpId++;
    m.postTime = m_core->Now();
    m_counters.opsPosted++;
    m_counters.bytesPosted += m.bytes;
    m_pendingOps++;
    m_pendingBytes += m.bytes;
    m_core->NotifyWorkPosted();
    uint64_t id = m.opId;
    Dispatch(port, mode, std::move(m));
    return id;
}

void
UetNic::Dispatch(uint32_t port, UetDeliveryMode mode, UetTxMessage m)
{
    Fep& fep = m_feps[port];
    if (mode == UetDeliveryMode::RUDI || mode == UetDeliveryMode::UUD)
    {
        auto& flow =
            fep.pdcless[UetPdcTable::InitiatorKey(mode, m.target.jobId, m.target.fep.Get())];
        if (!flow)
        {
            flow = std::make_unique<UetPdclessFlow>(this,
                                                    port,
                                                    mode,
                                                    m.target.jobId,
                                                    m.target.fep,
                                                    NewEv());
        }
        flow->Post(std::move(m));
        return;
    }
    if (UetPdc* pdc = fep.pdcs.FindInitiator(mode, m.target.jobId, m.target.fep.Get()))
    {
        pdc->Post(std::move(m));
        return;
    }
    if (!fep.waiting.empty())
    {
        fep.waiting.emplace_back(mode, std::move(m)); // keep post order
        return;
    }
    uint16_t id = fep.pdcs.Allocate(false);
    if (id == 0)
    {
        // The NIC's log component (defined in uet-nic.cc), looked up once.
        NS_LOG_STATIC_TEMPLATE_DEFINE("UetNic");
        NS_LOG_LOGIC("node " << GetNodeId() << " port " << port
                             << ": no free PDCID; the operation waits");
        fep.waiting.emplace_back(mode, std::move(m));
        return;
    }
    OpenInitiator(port, mode, id, std::move(m));
}

void
UetNic::OpenInitiator(uint32_t port, UetDeliveryMode mode, uint16_t id, UetTxMessage m)
{
    UetPdcTable& pdcs = m_feps[port].pdcs;
    // Two draws from one stream: sequenced explicitly (the order of evaluation of function
    // arguments is unspecified: GCC and Clang drew them in opposite orders, so the same seed
    // gave different runs with different compilers).
    const uint16_t ev = NewEv();
    const uint32_t startPsn = pdcs.NextStartPsn(m_rng->GetInteger(0, 0xFFFFFFFFu));
    UetPdc* pdc = pdcs.OpenInitiator(id, mode, m.target.jobId, m.target.fep, startPsn, ev);
    pdc->Post(std::move(m));
}

void
UetNic::DrainWaiting(uint32_t port)
{
    // In post order: an operation whose destination has a PDC joins it; the others take a
    // free PDCID each, until there is none.
    Fep& fep = m_feps[port];
    while (!fep.waiting.empty())
    {
        UetDeliveryMode mode = fep.waiting.front().first;
        const UetTxMessage& front = fep.waiting.front().second;
        UetPdc* pdc = fep.pdcs.FindInitiator(mode, front.target.jobId, front.target.fep.Get());
        uint16_t id = 0;
        if (!pdc)
        {
            id = fep.pdcs.Allocate(false);
            if (id == 0)
            {
                return;
            }
        }
        UetTxMessage m = std::move(fep.waiting.front().second);
        fep.waiting.pop_front();
        if (id == 0)
        {
            pdc->Post(std::move(m));
        }
        else
        {
            OpenInitiator(port, mode, id, std::move(m));
        }
    }
}

void
UetNic::PdcOpened(UetPdc* pdc)
{
    m_openPdcs++;
    m_counters.pdcsOpened++;
    m_pdcOpenTrace(pdc->GetPort(),
                   pdc->GetLocalId(),
                   pdc->GetPeer(),
                   pdc->GetRole() == UetPdc::INITIATOR);
}

void
UetNic::PdcClosing(UetPdc* pdc)
{
    if (pdc->GetRole() == UetPdc::INITIATOR)
    {
        m_feps[pdc->GetPort()].pdcs.Forget(*pdc);
    }
}

void
UetNic::PdcClosed(UetPdc* pdc, bool error, const std::string& why)
{
    m_feps[pdc->GetPort()].pdcs.Release(*pdc);
    m_openPdcs--;
    (error ? m_counters.pdcsClosedInError : m_counters.pdcsClosed)++;
    m_pdcCloseTrace(pdc->GetPort(), pdc->GetLocalId(), pdc->GetPeer(), error, why);
    DrainWaiting(pdc->GetPort()); // operations waiting for a PDCID may go now
}

} // namespace ns3
